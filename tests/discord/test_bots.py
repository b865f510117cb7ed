"""Computer players at a Discord table: seated by option or menu, acting by themselves, never rated.

Bots search in a thread with a small fixed iteration budget here (``ai_workers=0``,
``ai_max_iterations``), so these games are the same on every run.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import simcord
from simcord.results import ResponseMessage

from bot.session.service import TABLE_CHANGED
from tests.discord.helpers import (
    accepted,
    board_now,
    bot_menu_choices,
    button_labels,
    embed_of,
    field,
    join_disabled,
    living_board,
    next_actor,
    notation,
    refusal,
    select_at_once,
    showing,
)

MENTION = re.compile(r"<@!?(\d+)>")
QUICK = {"ai_workers": 0, "ai_max_iterations": 20}


def acting(board: Any, members: list[Any]) -> tuple[Any | None, str, str]:
    """(the member to act or None, 'roll'/'move'/'', the field's text) as the living board says."""
    embed = board.embeds[0]
    if field(embed, "Result") is not None:
        return None, "", field(embed, "Result") or ""
    for kind in ("roll", "move"):
        value = field(embed, f"To {kind}")
        if value:
            found = MENTION.search(value)
            member = next((m for m in members if found and m.id == int(found.group(1))), None)
            return member, kind, value
    raise AssertionError(f"the board names nobody to act: {embed.to_dict()}")


async def play_against_bots(table: Any, bot: Any, human: simcord.MemberActor, game: str, rng: random.Random) -> Any:
    """Play ``human``'s turns with suggestions and Roll until the game ends; the bots play theirs."""
    for _ in range(3000):
        await bot.autoplay.wait()
        board = living_board(table.env, table.channel.id)
        member, kind, text = acting(board, table.members)
        if not kind:
            return board
        assert member is human, f"a bot's turn was left waiting: {text}"
        if kind == "roll":
            await human.click(board, label="Roll")
        else:
            choices = await human.autocomplete(table.channel, f"{game} move", "notation", "")
            await human.slash(table.channel, f"{game} move", notation=rng.choice(choices)["value"])
    raise AssertionError("the game did not end")


async def test_one_person_plays_a_whole_practice_game_against_two_bots(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, bots=2, bot_level="normal")
    players = field(embed_of(opened), "Players") or ""
    assert "Normal bot" in players and "Normal bot 2" in players and "(3/3)" in players
    assert "practice game, unrated" in embed_of(opened).footer.text
    started = await alice.click(opened.response.message, label="Start")
    assert embed_of(started).title == "Der Marsigelwettkampf · practice"  # named on every board's title
    final = await play_against_bots(table, simcord_env.bot, alice, "hedgehog", random.Random(2))
    result = field(final.embeds[0], "Result") or ""
    assert "alice" in result and "Normal bot" in result
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and game.status == "finished" and not game.rated

    # the bots' turns follow on the message of alice's turn: a new message only when her turn comes
    _, log = await simcord_env.bot.service.history(table.channel.id)
    seats = [row.seat for row in log]
    hers = game.seat_of(alice.id)
    her_turns = sum(1 for ply, seat in enumerate(seats) if seat == hers and (ply == 0 or seats[ply - 1] != hers))
    bot_turns = sum(1 for ply, seat in enumerate(seats) if seat != hers and (ply == 0 or seats[ply - 1] == hers))
    practice = "Der Marsigelwettkampf · practice"
    boards = [m for m in table.channel.history() if m.embeds and m.embeds[0].title == practice]
    assert bot_turns >= 5 and her_turns <= len(boards) <= her_turns + 2  # the opening board and the result besides
    said = " ".join(m.embeds[0].description or "" for m in boards)
    missing = [row.description for row in log if row.seat != hers and row.description not in said]
    assert not missing  # every bot move was shown
    assert simcord_env.errors == []


async def test_a_bot_added_from_the_lobby_menu_plays_and_the_game_is_unrated(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "treasure new", players=3)
    await bob.click(opened.response.message, label="Join")
    stranger = await table.members[4].select(opened.response.message, ["easy"])
    assert refusal(stranger) == "Only the players of this game can add a bot to it."
    added = await alice.select(opened.response.message, ["hard"])
    assert "Hard bot takes a seat" in added.response.content
    assert "computer players: unrated" in embed_of(added).footer.text
    assert join_disabled(table, opened.response.message)  # a full table offers no seat
    assert bot_menu_choices(table, opened.response.message) == ["remove"]  # and no bot, only taking one off
    removed = await bob.select(opened.response.message, ["remove"])  # one bot too many: taken off again
    assert "Hard bot leaves the table" in removed.response.content
    assert not join_disabled(table, opened.response.message)
    assert bot_menu_choices(table, opened.response.message) == ["easy", "normal", "hard"]  # no bot to take off
    await alice.select(opened.response.message, ["hard"])
    started = await alice.click(opened.response.message, label="Start")
    assert embed_of(started).title == "Martian Treasure Hunt"  # two people and a bot: not practice
    rng = random.Random(5)
    for _ in range(40):  # a few rounds: both people and the bot take turns
        await simcord_env.bot.autoplay.wait()
        board = living_board(table.env, table.channel.id)
        member, kind, _ = acting(board, table.members)
        if not kind:
            break
        assert member in (alice, bob)
        if kind == "roll":
            await member.click(board, label="Roll")
        else:
            choices = await member.autocomplete(table.channel, "treasure move", "notation", "")
            if not choices:  # setting out the coins
                await member.slash(table.channel, "treasure arrange", order="default")
            else:
                await member.slash(table.channel, "treasure move", notation=rng.choice(choices)["value"])
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and not game.rated
    bot_seat = next(s for s in game.seats if s.is_bot)
    moves = [row for row in (await simcord_env.bot.service.history(table.channel.id))[1] if row.seat == bot_seat.seat]
    assert moves, "the bot never acted"
    assert simcord_env.errors == []


async def test_undo_against_a_bot_takes_back_my_move_and_its_reply_at_once(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=2, bots=1, bot_level="easy")
    await alice.click(opened.response.message, label="Start")
    moved = None
    for _ in range(20):  # alice plays one real move, and the bot answers it
        await simcord_env.bot.autoplay.wait()
        board = living_board(table.env, table.channel.id)
        member, kind, _ = acting(board, table.members)
        assert member is alice
        if moved is not None:
            break
        if kind == "roll":
            await alice.click(board, label="Roll")
            continue
        choices = await alice.autocomplete(table.channel, "hedgehog move", "notation", "")
        pick = next((c for c in choices if notation(c) != "pass"), choices[0])
        moved = notation(pick)
        await alice.slash(table.channel, "hedgehog move", notation=pick["value"])
    assert moved is not None
    undo = await alice.slash(table.channel, "game undo")
    assert not undo.ephemeral, undo.response.content  # the board, not an apology: nobody else to ask
    assert f'alice takes back the move "{moved}", with the moves after it.' in embed_of(undo).description
    await simcord_env.bot.autoplay.wait()
    member, kind, _ = acting(living_board(table.env, table.channel.id), table.members)
    assert (member, kind) == (alice, "move")  # her dice stay; the bot's reply is gone with her move
    assert simcord_env.errors == []


async def test_a_table_of_only_bots_is_refused(table, make_bot, simcord_env):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    refused = await alice.slash(table.channel, "combat new", players=2, bots=2)
    assert refusal(refused) == "At most 1 bot: a game needs at least one person at its table of 2."
    alone = await alice.slash(table.channel, "hedgehog new", players=1, bots=1)
    assert refusal(alone) == "A game of one is played alone: a bot cannot take the only seat, which is yours."
    opened = await alice.slash(table.channel, "combat new", players=2, bots=1)
    left = await alice.click(opened.response.message, label="Leave")
    assert "the game is closed" in left.response.content
    assert await simcord_env.bot.service.live_game(table.channel.id) is None


async def test_bots_asked_for_without_a_table_size_get_a_table_big_enough(table, make_bot, simcord_env):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "combat new", bots=3)  # Combat's usual table is two
    assert "(4/4)" in (field(embed_of(opened), "Players") or "")
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.max_players == 4 and sum(s.is_bot for s in game.seats) == 3
    await alice.click(opened.response.message, label="Leave")
    plain = await alice.slash(table.channel, "combat new")  # no bots: the usual two
    assert "(1/2)" in (field(embed_of(plain), "Players") or "")


async def test_a_table_grown_for_bots_that_its_options_cannot_seat_says_where_its_size_came_from(
    table, make_bot, simcord_env
):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    xeno_rule = "More than 5 players need the xeno option (the Xeno set adds five colours)."
    grown = await alice.slash(table.channel, "hedgehog new", bots=6)  # the usual table is five
    assert refusal(grown) == f"You and 6 bots make a table of 7. {xeno_rule}"
    chosen = await alice.slash(table.channel, "hedgehog new", players=7, bots=6)  # the size was the player's
    assert refusal(chosen) == xeno_rule
    assert await simcord_env.bot.service.live_game(table.channel.id) is None
    opened = await alice.slash(table.channel, "hedgehog new", bots=6, xeno=True)
    assert "(7/7)" in (field(embed_of(opened), "Players") or "")


async def test_resigning_a_practice_game_ends_it_instead_of_leaving_bots_to_play_alone(table, make_bot, simcord_env):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    await alice.slash(table.channel, "combat new", players=3, bots=2, bot_level="easy")
    started = await alice.slash(table.channel, "combat start")
    assert accepted(started)
    resigned = await alice.slash(table.channel, "game resign")
    board = showing(resigned)
    assert "the game ends here, without a result" in board.embeds[0].description
    # nobody is to move any more: no "To roll" field, no call, and no board that would still name one
    assert [f.name for f in board.embeds[0].fields] == ["Result"] and "your turn" not in (board.content or "")
    assert field(board.embeds[0], "Result") == "The game ended without a result; it is unrated."
    assert not board.attachments and board.embeds[0].image.url is None
    assert button_labels(board) == ["Rematch"]
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game.status == "aborted"
    await simcord_env.advance_time(120)  # the clock loop finds no bot to wake
    assert (await simcord_env.bot.service.latest_game(table.channel.id)).ply == game.ply

    again = await alice.click(board, label="Rematch")  # the computer players are seated again
    assert again.response.content == "alice asks for a rematch against the same 2 computer players: press Start."
    lobby = await simcord_env.bot.service.live_game(table.channel.id)
    assert [(row.display_name, row.ai_level) for row in lobby.seats] == [
        ("alice", None),
        ("Easy bot", "easy"),
        ("Easy bot 2", "easy"),
    ]


async def test_a_bot_whose_turn_came_before_a_restart_plays_after_it(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "whist new", bots=1, bot_level="easy")
    bots = simcord_env.bot.autoplay
    await bots.stop()  # the bots' process dies before their turn comes
    await alice.click(opened.response.message, label="Start")
    if await bots.bot_turn(table.channel.id) is None:  # alice drafts first: her pick hands the turn over
        await alice_moves(table, alice)
    assert await bots.bot_turn(table.channel.id) is not None
    before = await simcord_env.bot.service.latest_game(table.channel.id)
    await simcord_env.restart_bot(make_bot(**QUICK))  # the clock loop wakes the bots at start
    await simcord_env.bot.autoplay.wait()
    member, kind, _ = acting(living_board(table.env, table.channel.id), table.members)
    assert member is alice and kind == "move"
    after = await simcord_env.bot.service.latest_game(table.channel.id)
    assert before is not None and after is not None and after.ply > before.ply
    assert simcord_env.errors == []


async def test_a_bot_that_rolled_before_a_restart_moves_after_it(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=2, bots=1, bot_level="hard")
    bots = simcord_env.bot.autoplay
    await bots.stop()
    await alice.click(opened.response.message, label="Start")
    turn = await bots.bot_turn(table.channel.id)
    if turn is None:  # alice moves first: she rolls and plays until the turn is the bot's
        for _ in range(20):
            member, kind, _ = acting(living_board(table.env, table.channel.id), table.members)
            if member is not alice:
                break
            if kind == "roll":
                await alice.click(living_board(table.env, table.channel.id), label="Roll")
            else:
                await alice.slash(table.channel, "hedgehog move", notation="pass")
        turn = await bots.bot_turn(table.channel.id)
    assert turn is not None and turn.needs_roll
    await bots.act(turn)  # the bot rolls, and the process dies before it moves
    rolled = await simcord_env.bot.service.latest_game(table.channel.id)
    assert rolled is not None and (await bots.bot_turn(table.channel.id)) is not None
    await simcord_env.restart_bot(make_bot(**QUICK))
    await simcord_env.bot.autoplay.wait()
    member, kind, _ = acting(living_board(table.env, table.channel.id), table.members)
    assert member is alice and kind == "roll"  # the bot finished its turn without rolling again
    _, log = await simcord_env.bot.service.history(table.channel.id)
    after_restart = log[rolled.ply :]
    bot_seat = next(s.seat for s in rolled.seats if s.is_bot)
    assert after_restart[0].kind != "roll" and after_restart[0].seat == bot_seat  # it moved on the dice it had
    assert simcord_env.errors == []


async def test_a_bot_stopped_in_the_middle_of_its_search_plays_once_after_a_restart(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    bots = simcord_env.bot.autoplay
    searching = asyncio.Event()

    async def stuck(turn: Any) -> str:
        searching.set()
        # the process dies before this search answers
        await simcord_env.external_wait(asyncio.Event().wait(), reason="a search cut short by the restart")
        raise AssertionError("unreachable")

    bots.search = stuck
    opened = await alice.slash(table.channel, "whist new", bots=1, bot_level="hard")
    await alice.click(opened.response.message, label="Start")
    if await bots.bot_turn(table.channel.id) is None:
        await alice_moves(table, alice)
    for _ in range(50):
        if searching.is_set():
            break
        await asyncio.sleep(0)
    assert searching.is_set()
    before = await simcord_env.bot.service.latest_game(table.channel.id)
    await bots.stop()  # mid-search
    assert (await simcord_env.bot.service.latest_game(table.channel.id)) == before  # nothing half written
    await simcord_env.restart_bot(make_bot(**QUICK))
    await simcord_env.bot.autoplay.wait()
    member, kind, _ = acting(living_board(table.env, table.channel.id), table.members)
    assert member is alice and kind == "move"
    _, log = await simcord_env.bot.service.history(table.channel.id)
    assert before is not None and len(log) > before.ply
    assert log[before.ply].seat == next(s.seat for s in before.seats if s.is_bot)  # the bot's move, once
    assert simcord_env.errors == []


async def alice_moves(table: Any, alice: Any) -> None:
    choices = await alice.autocomplete(table.channel, "whist move", "notation", "")
    await alice.slash(table.channel, "whist move", notation=choices[0]["value"])


async def test_the_table_hands_the_seat_of_a_player_who_left_the_server_to_a_bot(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    for member in (bob, carol):
        await member.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    offered = await alice.autocomplete(table.channel, "game bot", "player", "")
    assert [c["name"] for c in offered] == ["alice", "bob", "carol"]

    still_here = await alice.slash(table.channel, "game bot", player=str(bob.id))
    assert refusal(still_here).startswith("bob is still playing: a seat goes to a bot only when")
    table.guild.remove_member(bob)
    await simcord_env.settle()
    asked = await alice.slash(table.channel, "game bot", player=str(bob.id), level="normal")
    question = asked.response.message
    assert "proposes that a normal computer player takes over bob's seat (bob has left the server)" in (
        question.content
    )
    assert f"<@{carol.id}>: do you agree?" in question.content
    assert f"<@{bob.id}>" not in question.content  # someone who left the server is not called back to it
    assert refusal(await table.members[4].click(question, label="Agree")).startswith("Only the other players")
    before = await simcord_env.bot.service.latest_game(table.channel.id)
    assert before is not None and before.rated

    await carol.click(question, label="Agree")
    await simcord_env.bot.autoplay.wait()
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and not game.rated and game.seat_of(bob.id) is None
    assert [s.display_name for s in game.seats if s.is_bot] == ["Normal bot"]
    closed = table.env.backend.messages[table.channel.id][question.id]
    assert "Normal bot takes over bob's seat" in closed.content and not closed.components
    shown = str(living_board(table.env, table.channel.id).embeds[0].to_dict())
    assert "Normal bot takes over bob's seat (Yellow)" in shown and "computer players: unrated" in shown
    member, kind, _ = acting(living_board(table.env, table.channel.id), table.members)
    assert member in (alice, carol) or not kind  # the bot has played any turn of its own
    assert simcord_env.errors == []


async def test_an_old_agree_does_not_take_the_seat_of_a_player_who_came_back(table, simcord_env):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    for member in (bob, carol):
        await member.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    table.guild.remove_member(bob)
    await simcord_env.settle()
    asked = await alice.slash(table.channel, "game bot", player=str(bob.id), level="easy")
    question = asked.response.message
    assert "(bob has left the server)" in question.content
    bob = table.guild.add_member(bob.user)  # bob is back and plays on
    members = [alice, bob, carol]
    rng = random.Random(5)
    for _ in range(30):
        member, kind, _ = acting(living_board(table.env, table.channel.id), members)
        assert member is not None
        if kind == "roll":
            await member.slash(table.channel, "hedgehog roll")
            continue
        choices = await member.autocomplete(table.channel, "hedgehog move", "notation", "")
        await member.slash(table.channel, "hedgehog move", notation=rng.choice(choices)["value"])
        if member is bob:
            break
    else:
        raise AssertionError("bob never came to move")
    agreed = await carol.click(question, label="Agree")
    line = "bob is back and playing: the seat stays theirs and the proposal is withdrawn."
    assert agreed.response.content == line
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and game.seat_of(bob.id) is not None and not game.has_bots and game.rated
    closed = table.env.backend.messages[table.channel.id][question.id]
    assert closed.content.endswith(line) and not closed.components
    assert simcord_env.errors == []


async def test_every_place_a_level_is_picked_offers_the_same_levels_in_the_same_words(table, simcord_env):
    from discord import app_commands

    from cogs.seats import AddBotMenu

    picked = {}
    for command in simcord_env.bot.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            for param in command.parameters:
                if param.name in ("bot_level", "level"):
                    picked[command.qualified_name] = [(c.value, c.name) for c in param.choices]
    assert {"combat new", "hedgehog new", "treasure new", "whist new", "assassin new", "game bot"} <= set(picked)
    menu = AddBotMenu(1).item.options
    in_the_lobby = [(o.value, f"{o.value}: {o.description}") for o in menu if o.value != "remove"]
    assert [value for value, _ in in_the_lobby] == ["easy", "normal", "hard"]
    assert all(choices == in_the_lobby for choices in picked.values()), picked


async def test_a_lobby_menu_choice_sent_twice_at_once_seats_or_removes_one_bot_only(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "assassin new", players=5)
    lobby = opened.response.message
    menu = lobby_menu_id(lobby)
    assert menu.endswith(":bot:1")  # the seats taken, when the menu was shown
    both = await select_at_once(table.env, table.guild.id, [(alice, lobby, menu, ["easy"])] * 2)
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert [row.display_name for row in game.seats] == ["alice", "Easy bot"]
    last_words = [(answer.followups or [answer.response])[-1].content for answer in both]
    assert last_words.count(TABLE_CHANGED) == 1  # the other seated the bot (answered "busy" first, or not)

    await alice.select(lobby, ["normal"])  # the lobby's menu, shown again with the seats now taken
    menu = lobby_menu_id(ResponseMessage(table.env, table.env.backend.get_message(table.channel.id, lobby.id)))
    assert menu.endswith(":bot:3")
    await select_at_once(table.env, table.guild.id, [(alice, lobby, menu, ["remove"])] * 2)
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert [row.display_name for row in game.seats] == ["alice", "Easy bot"]  # the last one only
    assert simcord_env.errors == []


def lobby_menu_id(message: Any) -> str:
    """The custom id of the add-a-bot menu under a lobby."""
    for row in message.components:
        for child in row["components"] if isinstance(row, dict) else row.children:
            item = child if isinstance(child, dict) else {"type": child.type.value, "custom_id": child.custom_id}
            if item["type"] == 3:
                return str(item["custom_id"])
    raise AssertionError("no menu under the lobby")


async def test_a_partial_agreement_answered_busy_updates_the_one_question(table, simcord_env, make_bot):
    # with every action acknowledged first ("busy"), an Agree that leaves someone still to answer edits
    # the question instead of posting a second one, and tells the presser privately
    await simcord_env.restart_bot(make_bot(busy_in_flight=0, **QUICK))
    alice, bob, carol, dave = table.members[:4]
    opened = await alice.slash(table.channel, "hedgehog new", players=4)
    for member in (bob, carol, dave):
        await member.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    table.guild.remove_member(dave)
    await simcord_env.settle()
    asked = await alice.slash(table.channel, "game bot", player=str(dave.id), level="easy")
    question = asked.followups[-1]
    assert "proposes that an easy computer player takes over dave's seat" in question.content
    agreed = await bob.click(question, label="Agree")
    assert agreed.ephemeral and agreed.followups[-1].content == f"bob agrees; still waiting for <@{carol.id}>."
    updated = table.env.backend.messages[table.channel.id][question.id]
    assert updated.content.endswith(f"bob agrees; still waiting for <@{carol.id}>.") and updated.components
    questions = [m for m in table.channel.history() if "do you agree?" in (m.content or "")]
    assert [m.id for m in questions] == [question.id]  # one question, never a second
    await carol.click(question, label="Agree")
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and [s.display_name for s in game.seats if s.is_bot] == ["Easy bot"]
    assert simcord_env.errors == []


async def test_a_board_on_a_computer_players_turn_offers_nothing_to_press(table, simcord_env, make_bot):
    # the bot plays by itself: its moves under the board would only refuse a person's press
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "whist new", bots=1, bot_level="normal")
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    simcord_env.bot.autoplay.running = False  # the bot thinks for as long as the test looks
    try:
        for _ in range(4):  # alice's moves until the bot is to act
            board = living_board(table.env, table.channel.id)
            if alice.mention not in (field(board.embeds[0], "To move") or ""):
                break
            choices = await alice.autocomplete(table.channel, "whist move", "notation", "")
            await alice.slash(table.channel, "whist move", notation=choices[0]["value"])
        board = living_board(table.env, table.channel.id)
        assert field(board.embeds[0], "To move").startswith("Normal bot")
        assert board.components == [] and field(board.embeds[0], "More moves than the menus hold") is None
    finally:
        simcord_env.bot.autoplay.running = True


def record_texts(table, event: str) -> list[tuple[int, str]]:
    """Every message of ``event`` (``MESSAGE_CREATE`` or ``MESSAGE_UPDATE``) in the table's channel from now
    on: its id and its text as posted or edited."""
    texts: list[tuple[int, str]] = []

    def listen(kind, payload):
        if kind == event and int(payload["channel_id"]) == table.channel.id:
            texts.append((int(payload["id"]), payload.get("content") or ""))

    table.env.backend.subscribers.append(listen)
    return texts


async def bots_moving_first(table, simcord_env, starter, game: str, starting=lambda: None, **options):
    """Open practice games of alice's in ``game`` (``options``), started by ``starter``, until one's computer
    players move first (the seats are drawn from each game's seed); ``starting()`` runs before each Start.
    Returns the ids of the channel's messages before that start, the game and its log."""
    alice = table.members[0]
    for _ in range(6):
        opened = await alice.slash(table.channel, f"{game} new", **options)
        before = {m.id for m in table.channel.history()}
        starting()
        await starter.click(opened.response.message, label="Start")
        await simcord_env.bot.autoplay.wait()
        row, log = await simcord_env.bot.service.history(table.channel.id)
        if log and row.bot_at(log[0].seat) is not None:
            return before, row, log
        await alice.slash(table.channel, "game resign")
    raise AssertionError("no game of six had its computer players moving first")


async def test_a_practice_game_whose_bots_move_first_calls_its_player_on_the_opening_board(
    table, simcord_env, make_bot, club
):
    # the opening board calls the practice game's one person when it is posted, whoever pressed Start (here
    # a server manager), and the bots' first turns and the call to play follow on it: one message, instead
    # of a second board that retires the first
    from tests.discord.test_mixed_tables import record_pings

    olga, _members = club
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    edited = record_texts(table, "MESSAGE_UPDATE")
    posted = record_pings(table)
    before, _game, log = await bots_moving_first(table, simcord_env, olga, "hedgehog", players=3, bots=2)
    (board,) = [m for m in table.channel.history() if m.id not in before]
    assert [entry for entry in posted if entry[0] == board.id] == [(board.id, [alice.id])]  # called as posted
    assert board.content == f"<@{alice.id}>, your turn."
    opening = f"<@{alice.id}>, the computer players move first; your turn follows here."
    edits = [said for message, said in edited if message == board.id]
    assert edits and all(said in (opening, board.content) for said in edits)  # the call stays while bots play
    said = board.embeds[0].description or ""
    assert said.startswith("The game begins.") and all(row.description in said for row in log)
    assert field(board.embeds[0], "To roll") is not None and "Roll" in button_labels(board)
    assert simcord_env.errors == []


async def test_at_a_table_of_two_people_the_second_is_called_by_a_new_board_when_the_first_leaves_at_once(
    table, simcord_env, make_bot
):
    # the opening board follows on for a practice game's one person only: at a table of two people and a
    # bot, when the first to play resigns at once, the other is called by a new board (an edit pings nobody)
    from tests.discord.test_mixed_tables import record_pings

    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob = table.members[:2]
    for _ in range(6):  # open games until a person moves first
        opened = await alice.slash(table.channel, "hedgehog new", players=3, bots=1)
        await bob.click(opened.response.message, label="Join")
        started = await alice.click(opened.response.message, label="Start")
        first, _kind = acting(living_board(table.env, table.channel.id), table.members)[:2]
        if first in (alice, bob):
            break
        await alice.slash(table.channel, "game abort")
    else:
        raise AssertionError("no game of six had a person moving first")
    assert started.response is not None
    other = bob if first is alice else alice
    posted = record_pings(table)
    await first.slash(table.channel, "game resign")
    await simcord_env.bot.autoplay.wait()
    assert [pinged for _id, pinged in posted if other.id in pinged]  # a new board called them
    assert simcord_env.errors == []


async def test_the_opening_call_of_a_practice_game_against_one_bot_speaks_of_one(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    posted = record_texts(table, "MESSAGE_CREATE")
    before, _game, _log = await bots_moving_first(table, simcord_env, alice, "whist", posted.clear, bots=1)
    said = [text for message, text in posted if message not in before]
    assert said == [f"<@{alice.id}>, the computer player moves first; your turn follows here."]


async def test_two_people_and_eight_bots_each_person_pinged_once_per_turn(table, simcord_env, make_bot):
    """A ten-seat table of two people and eight bots posts one board per person's turn, pinging that person
    only (the bots' turns edit it), and calls both people with the result."""
    await simcord_env.restart_bot(make_bot(ai_workers=0, ai_max_iterations=20))
    posted: list[tuple[int, list[int]]] = []
    backend = simcord_env.backend
    original = backend.emit

    def emit(event, payload):
        if event == "MESSAGE_CREATE" and int(payload.get("channel_id", 0)) == table.channel.id:
            raw = backend.messages[table.channel.id].get(int(payload["id"]))
            posted.append((int(payload["id"]), list(raw.ping_user_ids) if raw else []))
        original(event, payload)

    backend.emit = emit
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=10, xeno=True, bots=7, round_limit=2)
    await alice.select(opened.response.message, ["easy"])
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    rng, turns, last = random.Random(4), 0, None
    for _ in range(80):
        await simcord_env.bot.autoplay.wait()
        actor, kind = next_actor(board_now(table), table.members)
        if actor is None:
            break
        assert actor in (alice, bob)
        if actor is not last:
            turns += 1
        last = actor
        board = living_board(table.env, table.channel.id)
        if kind == "roll":
            await actor.click(board, label="Roll")
        else:
            choices = await actor.autocomplete(table.channel, "hedgehog move", "notation", "")
            await actor.slash(table.channel, "hedgehog move", notation=rng.choice(choices)["value"])
    boards = posted[1:]  # the lobby first
    pings = [p for _, p in boards]
    assert all(len(p) == 1 for p in pings[:-1])  # each turn's board calls one person; the result calls both
    assert sorted(pings[-1]) == sorted([alice.id, bob.id])
    assert len(boards) == turns + 1
    assert simcord_env.errors == []
