"""The lobby and the /game commands as players and server managers meet them: who a question names, the
Join of a thread game's notice, who /game status lists, and /game history before any game."""

from __future__ import annotations

from tests.discord.helpers import field, next_actor
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
