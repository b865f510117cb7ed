"""One living message per turn: a turn's actions edit it, a new board is posted only when the turn passes.

Every game is played to its end the way a player on a phone would: Roll and the decision buttons or the
move menu of the living message, typed moves only when a position offers more than a menu holds.
Counted: new public board messages per turn hand-over (the start and the final result excluded).
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.session import MoveOption
from cogs.decisions import laid_out, needs_typing
from cogs.messages import report_embed
from tests.discord.helpers import (
    accepted,
    button_labels,
    custom_id,
    field,
    living_board,
    next_actor,
    press_at_once,
    refusal,
    showing,
)

TABLES = {"hedgehog": 3, "whist": 2, "treasure": 2, "combat": 2, "assassin": 3}
TITLES = {
    "hedgehog": "Der Marsigelwettkampf",
    "whist": "Martian Whist",
    "treasure": "Martian Treasure Hunt",
    "combat": "Martian Combat",
    "assassin": "The Martian Assassination Game",
}
MEASURED: dict[str, float] = {}


def board_messages(channel, title: str) -> list[discord.Message]:
    """Public messages that show or showed a board of the game (the living one and the summaries)."""
    return [m for m in channel.history() if m.embeds and m.embeds[0].title == title and not m.flags.ephemeral]


def controls_of(message: discord.Message) -> tuple[list[discord.Button], list[tuple[str, str]]]:
    """The decision buttons and the menu options (the menu's custom id, the option's value) under a board."""
    buttons: list[discord.Button] = []
    options: list[tuple[str, str]] = []
    for row in message.components:
        assert isinstance(row, discord.ActionRow), row
        for item in row.children:
            if isinstance(item, discord.Button) and (item.custom_id or "").startswith("pg:pick:"):
                buttons.append(item)
            elif isinstance(item, discord.SelectMenu):
                options.extend((str(item.custom_id), option.value) for option in item.options)
    return buttons, options


async def play_through_the_table(table, game: str, started, rng: random.Random, limit: int = 4000):
    """Play to the end with the living message's controls; returns (result, hand-overs, typed moves)."""
    members, channel = table.members, table.channel
    result, previous, handovers, typed = started, None, 0, 0
    for _ in range(limit):
        actor, kind = next_actor(result, members)
        if actor is None:
            return result, handovers, typed
        if previous is not None and actor is not previous:
            handovers += 1
        previous = actor
        board = showing(result).message
        if kind == "roll":
            result = await actor.click(board, label="Roll")
        else:
            buttons, options = controls_of(board)
            picks = [(str(b.custom_id), None) for b in buttons] + [(menu, value) for menu, value in options]
            if picks:
                control, value = rng.choice(picks)
                if value is None:
                    result = await actor.click(board, custom_id=control)
                else:
                    result = await actor.select(board, [value], custom_id=control)
            else:
                choices = await actor.autocomplete(channel, f"{game} move", "notation", "")
                assert choices, "no control and no suggestion for the player to act"
                result = await actor.slash(channel, f"{game} move", notation=rng.choice(choices)["value"])
                typed += 1
        assert accepted(result), result.response.content
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_a_whole_game_posts_at_most_one_board_per_turn_hand_over(table, game):
    players = TABLES[game]
    members = table.members[:players]
    options = {} if game == "whist" else {"players": players}  # Martian Whist is always two players
    if game == "combat":
        # random players seldom finish Combat by its goal: the game ends at its turn limit, which at the
        # default 300 made this the longest test (50 s here, over two minutes on PostgreSQL)
        options["turn_limit"] = 60
    opened = await members[0].slash(table.channel, f"{game} new", **options)
    for member in members[1:]:
        await member.click(opened.response.message, label="Join")
    started = await members[0].slash(table.channel, f"{game} start")
    _final, handovers, typed = await play_through_the_table(table, game, started, random.Random(3))
    assert typed == 0  # every move was on a button or one of the menus (five rows hold 125 moves)
    boards = board_messages(table.channel, TITLES[game])
    assert handovers > 0
    ratio = (len(boards) - 2) / handovers  # the first board and the result are not hand-overs
    MEASURED[game] = ratio
    print(f"\n{game}: {len(boards)} board messages, {handovers} hand-overs, {ratio:.2f} per hand-over")
    assert ratio <= 1.0
    # only the newest board keeps a picture and controls; the others are summaries of their turn
    *older, newest = boards
    assert all(not m.attachments and not m.components for m in older)
    assert all(not m.content for m in older)  # no "@alice, your turn." left on a turn that is over
    assert newest.attachments and newest.embeds[0].image.url == "attachment://board.png"
    # the end pings every player, with the Rematch button
    assert all(m.mention in newest.content for m in members)
    assert [c.label for row in newest.components for c in row.children] == ["Rematch"]


async def test_the_living_message_is_known_from_the_answer_without_reading_it_back(table):
    """Each board answers its command and becomes the living message; knowing its id costs no request."""
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "whist new")
    await bob.click(opened.response.message, label="Join")
    started = await alice.slash(table.channel, "whist start")
    await play_through_the_table(table, "whist", started, random.Random(5))
    reads = [r for r in table.env.http_requests if r.method == "GET" and "@original" in r.path]
    assert reads == []
    boards = board_messages(table.channel, TITLES["whist"])
    *older, newest = boards
    assert newest.components and all(not m.components for m in older)  # each retired by the id it was known by


async def test_the_lobby_says_the_latest_change_whether_by_button_or_by_command(table):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "whist new")
    lobby_id = opened.response.message.id

    def lobby_text() -> str:
        return next(m for m in table.channel.history() if m.id == lobby_id).content

    await bob.click(opened.response.message, label="Join")
    await bob.click(opened.response.message, label="Leave")
    assert lobby_text().startswith("bob leaves")
    joined = await bob.slash(table.channel, "whist join")
    assert joined.ephemeral  # told privately; the lobby above says it to everyone
    assert lobby_text() == joined.response.content
    assert lobby_text().startswith("bob joins")


async def test_asking_for_the_board_during_a_lobby_answers_a_copy_and_leaves_the_lobby_note(table):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    lobby_id = opened.response.message.id
    await bob.click(opened.response.message, label="Join")

    def lobby() -> discord.Message:
        return next(m for m in table.channel.history() if m.id == lobby_id)

    looked = await carol.slash(table.channel, "hedgehog board")
    assert looked.ephemeral and f"/{table.channel.id}/{lobby_id})" in looked.response.content
    assert field(looked.response.embeds[0], "Players") == "1. alice, 2. bob (2/3)"
    assert lobby().content == "bob joins (2/3)."  # the last change still heads the lobby
    assert len([m for m in table.channel.history() if m.embeds]) == 1
    table.env.backend.delete_message(table.channel.id, lobby_id)
    again = await carol.slash(table.channel, "game board")  # the lobby's message is gone: posted again
    assert not again.ephemeral and field(again.response.embeds[0], "Players") == "1. alice, 2. bob (2/3)"
    joined = await carol.click(again.response.message, label="Join")
    assert "carol joins (3/3)" in joined.response.content


async def test_a_lobby_footer_gives_the_tables_range_of_players(table):
    alice = table.members[0]
    whist = await alice.slash(table.channel, "whist new")
    assert "· 2 players ·" in whist.response.embeds[0].footer.text
    other = table.guild.create_text_channel("hedgehog-table")
    hedgehog = await alice.slash(other, "hedgehog new", players=3)
    assert "· 1-3 players ·" in hedgehog.response.embeds[0].footer.text
    rules = await alice.slash(table.channel, "rules", game="whist")
    assert rules.response.embeds[0].footer.text.startswith("2 players · ")


def options(quick: int, moves: int) -> list[MoveOption]:
    """``quick`` yes/no decisions and ``moves`` ordinary moves, as a position offers them."""
    made = [MoveOption(f"q{i} @1", f"q{i}", f"Q{i}", "", quick=True, index=i) for i in range(quick)]
    return made + [MoveOption(f"m{i} @1", f"m{i}", f"M{i}", "", index=quick + i) for i in range(moves)]


def test_moves_beyond_one_menu_are_cut_into_menus_while_the_message_has_rows_for_them() -> None:
    quick, menus = laid_out(options(0, 56))  # the Assassination Game's victim: 56 squares
    assert quick == [] and [len(menu) for menu in menus] == [25, 25, 6]
    quick, menus = laid_out(options(1, 99))  # "No move" takes a row: four menus are left
    assert len(quick) == 1 and [len(menu) for menu in menus] == [25, 25, 25, 24] and not needs_typing(options(1, 99))
    quick, menus = laid_out(options(1, 101))  # a part of them in menus would hide the rest: none, typed
    assert len(quick) == 1 and menus == [] and needs_typing(options(1, 101))
    assert laid_out(options(0, 4)) == (options(0, 4), [])  # a handful: a button each


async def test_the_board_says_to_type_when_the_moves_are_more_than_the_menus_hold(table) -> None:
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "treasure new", players=2)
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    report = await table.env.bot.service.board(table.channel.id)  # 720 arrangements, the standard one a button
    embed = report_embed(report)
    # the arrangements have a command of their own, and no menu: the field names it, not /treasure move
    assert field(embed, "More moves than the menus hold") is None
    assert field(embed, "Another order") == (
        "Type `/treasure arrange` with your order (such as `order: 012354`): the order box lists them as you type."
    )


async def test_an_aborted_game_leaves_no_live_board_behind(table):
    """``/game abort``: the board keeps its lines, loses its buttons and says the game ended without a result."""
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog start")
    assert living_board(table.env, table.channel.id) is not None
    aborted = await alice.slash(table.channel, "game abort")
    assert "it is unrated" in aborted.response.content
    assert living_board(table.env, table.channel.id) is None
    closed = [
        m for m in table.channel.history() if m.embeds and "ended without a result" in (m.embeds[0].footer.text or "")
    ]
    assert len(closed) == 1 and button_labels(closed[0]) == [] and not closed[0].content


async def test_once_its_opener_leaves_the_lobby_only_a_seated_player_starts_the_game(table, simcord_env):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Leave")
    lobby = table.env.backend.messages[table.channel.id][opened.response.message.id]
    assert "a seated player presses Start" in lobby.embeds[0]["footer"]["text"]
    refused = await alice.click(opened.response.message, label="Start")
    assert refusal(refused) == "Its opener has left: a player seated at this table (or a server manager) starts it."
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "open"
    asked = await bob.click(opened.response.message, label="Start")
    assert asked.response.content == "Only you have joined. Start Der Marsigelwettkampf as solitaire, on your own?"
    assert simcord_env.errors == []


async def test_start_now_starts_only_the_table_it_asked_about(table, simcord_env):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    await bob.click(opened.response.message, label="Join")
    asked = await alice.click(opened.response.message, label="Start")
    assert asked.response.content == "2 of 3 players have joined. Start a 2-player game of Der Marsigelwettkampf now?"
    await bob.click(opened.response.message, label="Leave")  # the table is not the one alice agreed to
    refused = await alice.click(asked.response.message, label="Start now")
    assert refusal(refused) == "The table changed as you started it (1 seated now, not 2): press Start again."
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "open"  # no solitaire game nobody asked for
    await bob.click(opened.response.message, label="Join")
    started = await alice.click(asked.response.message, label="Start now")  # two seated again: as asked
    assert accepted(started)
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "active" and len(game.seats) == 2
    assert simcord_env.errors == []


async def test_two_players_pressing_rematch_at_once_sit_at_the_one_rematch(table, simcord_env):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    await alice.slash(table.channel, "hedgehog start")
    board = showing(await alice.slash(table.channel, "game resign"))
    rematch = custom_id(board, "Rematch")
    answers = await press_at_once(table.env, table.guild.id, [(alice, board, rematch), (bob, board, rematch)])
    texts = [m.content for result in answers for m in (result.response, *result.followups) if m is not None]
    assert not any("already has a game" in text for text in texts), texts
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "open"
    assert sorted(row.display_name for row in game.seats) == ["alice", "bob"]  # both asked to play again
    assert simcord_env.errors == []


@pytest.mark.parametrize("order", ["start-first", "leave-first"])
async def test_start_pressed_as_a_player_leaves_never_starts_a_table_nobody_agreed_to(table, simcord_env, order):
    """alice presses Start at a full table (2 of 2) while bob presses Leave at the same instant: either
    the Start comes first and both play, or the Leave does and alice is asked again (a solitaire game
    nobody agreed to never starts)."""
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    lobby = opened.response.message
    start = (alice, lobby, custom_id(lobby, "Start"))
    leave = (bob, lobby, custom_id(lobby, "Leave"))
    await press_at_once(table.env, table.guild.id, [start, leave] if order == "start-first" else [leave, start])
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None
    if game.status == "active":
        assert len(game.seats) == 2, f"started a {len(game.seats)}-player game nobody was asked about"
    else:
        assert game.status == "open" and [s.display_name for s in game.seats] == ["alice"]
