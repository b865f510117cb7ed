"""The lobby and the /game commands as players and server managers meet them: who a question names, the
Join of a thread game's notice, who /game status lists, and /game history before any game."""

from __future__ import annotations

from tests.discord.helpers import field, join_disabled, next_actor, refusal
from tests.discord.test_delivery import start_hedgehog


def join_buttons(table, message) -> list[dict]:
    """The Join buttons of ``message`` as Discord holds it now."""
    raw = table.env.backend.messages[table.channel.id][message.id]
    rows = [row if isinstance(row, dict) else row.to_dict() for row in raw.components]
    return [c for row in rows for c in row["components"] if c.get("label") == "Join"]


async def test_a_server_manager_starting_someone_elses_short_lobby_is_asked_about_who_sits_there(table, club):
    # a server manager may start any lobby (docs/commands.md, `start`): the question names who would play
    olga, _ = club
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    asked = await olga.click(opened.response.message, label="Start")
    assert asked.ephemeral
    assert asked.response.content == (
        "Only alice has joined. Start Der Marsigelwettkampf as solitaire, for alice alone?"
    )
    mine = await alice.click(opened.response.message, label="Start")
    assert mine.response.content == "Only you have joined. Start Der Marsigelwettkampf as solitaire, on your own?"


async def test_the_join_of_a_thread_games_notice_stays_while_a_seat_may_open_and_greys_once_the_game_started(
    table,
):
    # a full table may open a seat again (someone leaves the lobby): the notice's Join only refuses then;
    # once the game has started, a press on it is refused and greys it for good
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "combat new", players=2, thread=True)
    notice = opened.response.message
    (thread,) = table.channel.threads
    await bob.click(notice, label="Join")
    full = await carol.click(notice, label="Join")
    assert full.ephemeral and full.response.content.startswith("This game is full")
    assert not any(c.get("disabled") for c in join_buttons(table, notice))
    await bob.slash(thread, "combat leave")
    joined = await carol.click(notice, label="Join")  # the seat bob left
    assert "joins" in joined.response.content
    await alice.slash(thread, "combat start")
    late = await bob.click(notice, label="Join")
    assert late.ephemeral and late.response.content == "This game has already started."
    assert join_buttons(table, notice) and all(c.get("disabled") for c in join_buttons(table, notice))


async def test_game_status_marks_a_player_who_resigned_while_the_game_goes_on(table):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    await bob.click(opened.response.message, label="Join")
    await carol.click(opened.response.message, label="Join")
    started = await alice.click(opened.response.message, label="Start")
    actor, _ = next_actor(started, [alice, bob, carol])
    leaver = next(m for m in (alice, bob, carol) if m is not actor)
    resigned = await leaver.slash(table.channel, "game resign")
    assert resigned.response.content == f"Done: {leaver.name} resigns."  # the game goes on with two
    status = await carol.slash(table.channel, "game status")
    players = field(status.response.embeds[0], "Players").split(", ")
    assert [p.split(". ", 1)[1] for p in players].count(f"{leaver.name} (left)") == 1
    assert sum(p.endswith("(left)") for p in players) == 1


async def test_history_before_any_game_has_started_is_a_private_refusal_like_replay(table):
    alice, carol = table.members[0], table.members[2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    waiting = await carol.slash(table.channel, "game history")  # the lobby is still open
    assert waiting.ephemeral and waiting.response.content == "This game has not started yet."
    await alice.click(opened.response.message, label="Leave")  # the lobby closes, never played
    history = await carol.slash(table.channel, "game history")
    assert history.ephemeral and history.response.content == "This game has not started yet."
    replay = await carol.slash(table.channel, "game replay")
    assert replay.ephemeral and replay.response.content == "This game has not started yet."


async def test_the_history_file_of_an_aborted_game_ends_with_the_boards_result_line(table):
    """docs/commands.md: the board's Result line "(the same line ends /game history's file)"; for a game
    ended by /game abort that line is "The game ended without a result; it is unrated."."""
    alice, bob = table.members[:2]
    started = await start_hedgehog(table)
    actor, _ = next_actor(started, table.members)
    await actor.slash(table.channel, "hedgehog roll")
    await alice.slash(table.channel, "game abort")
    status = await bob.slash(table.channel, "game status")
    assert field(status.response.embeds[0], "Result") == "The game ended without a result; it is unrated."
    history = await bob.slash(table.channel, "game history")
    listing = (await history.response.attachments[0].read()).decode()
    assert listing.rstrip().splitlines()[-1] == "Result: The game ended without a result; it is unrated.", listing


def lobby_now(table, message, channel_id=None):
    """The lobby message as the channel holds it now: (content, embed dict, components as dicts)."""
    raw = table.env.backend.messages[channel_id or table.channel.id][message.id]
    rows = [row if isinstance(row, dict) else row.to_dict() for row in raw.components]
    embed = raw.embeds[0] if isinstance(raw.embeds[0], dict) else raw.embeds[0].to_dict()
    return raw.content, embed, [c for row in rows for c in row["components"]]


def players_field(embed: dict) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"] == "Players")


async def test_a_solitaire_lobby_speaks_of_one_player_not_one_players(table):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=1)
    full = await bob.slash(table.channel, "hedgehog join")
    _, embed, _ = lobby_now(table, opened.response.message)
    assert (refusal(full), embed["footer"]["text"]) == (
        "This game is full (1 player).",
        "Game #1 · 1 player · the creator presses Start",
    )


async def test_a_12_square_assassination_lobby_never_offers_a_table_its_board_cannot_seat(table):
    """The 12x12 board is for 6 to 9 players (docs/rules/assassin.md): the lobby says so, and a Start with
    three seated is refused at once, instead of asking "Start a 3-player game now?" and refusing that."""
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "assassin new", board=12)
    lobby = opened.response.message
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    asked = await alice.click(lobby, label="Start")
    assert refusal(asked) == (
        "The 12x12 board is for 6 to 9 players: 3 more must join (or add a computer player with the lobby's menu)."
    )
    _, embed, _ = lobby_now(table, lobby)
    assert " · 6-9 players · " in embed["footer"]["text"], embed["footer"]["text"]


async def test_a_lobby_closed_by_its_last_player_leaving_does_not_still_list_them_seated(table):
    """The closed lobby lists nobody: not the last person, who has just left it."""
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "combat new", players=3)
    lobby = opened.response.message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Leave")
    left = await bob.click(lobby, label="Leave")
    assert left.response.content == "bob leaves; the game is closed."
    _, embed, _ = lobby_now(table, lobby)
    assert embed["footer"]["text"].endswith("closed")
    assert "bob" not in players_field(embed), players_field(embed)


async def test_a_full_lobby_offers_only_the_bot_choices_that_can_be_taken(table):
    """A full table without a computer player greys the menu (every choice would be refused); with one,
    it offers only taking a bot off."""
    from tests.discord.helpers import bot_menu_choices

    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "combat new", players=2)
    lobby = opened.response.message
    assert bot_menu_choices(table, lobby) == ["easy", "normal", "hard"]
    await bob.click(lobby, label="Join")
    assert bot_menu_choices(table, lobby) is None


async def test_a_lobby_whose_opener_left_the_server_is_started_by_the_players_still_seated(table, simcord_env):
    """The opener left the server (the bot is not told: it asks Discord when someone else presses Start):
    their seat is given up, the lobby says so and offers it again, and a player still seated starts the
    game, instead of the channel waiting for someone who can never press Start."""
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    for member in (bob, carol):
        await member.click(opened.response.message, label="Join")
    table.guild.remove_member(alice)
    await simcord_env.settle()
    freed = await bob.click(opened.response.message, label="Start")
    assert freed.response.content == "alice has left the server: their seat is free. Press Start again to start."
    assert not join_disabled(table, opened.response.message) and "alice" not in str(freed.response.embeds[0].fields)
    asked = await bob.click(opened.response.message, label="Start")
    assert asked.response.content == "2 of 3 players have joined. Start a 2-player game of Der Marsigelwettkampf now?"
    started = await bob.click(asked.response.message, label="Start now")
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game.status == "active" and game.seat_of(alice.id) is None and not started.ephemeral
