"""Two of the bot's actors at the same instant: a player's action, the clock loop, the tournament loop and
the computer players each show what they did, and none undoes what another has shown.

Each race is made to happen by holding one step (as Discord's rate limit on edits can) until the other
actor has done its work; the waits are bounded, so a test whose fix serialises the two steps goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

import pytest

import cogs.seats
import cogs.table
from bot.session.service import Actor
from tests.discord.helpers import button_labels, living_board, next_actor
from tests.discord.test_delivery import start_hedgehog

WAIT = 3.0  # the most a held step waits for the other actor (it waits that long only when they never overlap)


async def first_player_passed(table):
    """A two-player game whose first player rolled and passed (a move they may ask to take back); returns
    (that player, the other)."""
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    started = await alice.slash(table.channel, "hedgehog start")
    first, _ = next_actor(started, table.members)
    await first.slash(table.channel, "hedgehog roll")
    await first.slash(table.channel, "hedgehog move", notation="pass")
    return first, (bob if first is alice else alice)


async def until(event: asyncio.Event) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), WAIT)


def raw_components(table, message_id: int) -> list[dict]:
    raw = table.env.backend.messages[table.channel.id][message_id]
    rows = [row if isinstance(row, dict) else row.to_dict() for row in raw.components]
    return [c for row in rows for c in row["components"]]


async def test_a_redraw_after_a_vacation_never_puts_back_the_board_from_before_a_roll(table, simcord_env, monkeypatch):
    """alice goes on vacation while her roll is being shown: the redraw of her board (its deadline moved)
    never puts back the position before the roll, with a Roll button that would only refuse."""
    started = await start_hedgehog(table)
    actor, kind = next_actor(started, table.members)
    assert kind == "roll"
    bot = simcord_env.bot
    roll_shown = asyncio.Event()
    real_board = bot.service.board

    async def board(*args, **kwargs):
        report = await real_board(*args, **kwargs)
        await until(roll_shown)  # the roll is committed and shown while the redraw holds its read
        return report

    monkeypatch.setattr(bot.service, "board", board)

    async def roll_and_show() -> None:
        rolled = await bot.service.roll(table.channel.id, Actor(actor.id, actor.name))
        await cogs.table.show_in_channel(bot, rolled)
        roll_shown.set()

    await asyncio.gather(cogs.table.redraw(bot, table.channel.id), roll_and_show())
    board_now = living_board(table.env, table.channel.id)
    assert "Roll" not in button_labels(board_now), button_labels(board_now)  # the roll is done: a move is due
    assert simcord_env.errors == []


async def test_a_join_shown_late_never_reopens_the_lobby_of_a_game_that_started(table, simcord_env, monkeypatch):
    """carol joins (from the notice in the parent channel) while alice starts the game: the lobby's edit
    for carol's seat never lands after the start closed the lobby, which keeps no Join, Leave, Start or
    bot menu on a running game."""
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    lobby = opened.response.message
    await bob.slash(table.channel, "hedgehog join")
    bot = simcord_env.bot
    joined = await bot.service.join(table.channel.id, Actor(carol.id, carol.name))
    reached, started = asyncio.Event(), asyncio.Event()
    real_edit = cogs.table.edit
    edits = 0

    async def edit(*args, **kwargs):
        nonlocal edits
        edits += 1
        if edits == 1:  # carol's lobby update, held (Discord's rate limit) until the game started
            reached.set()
            await until(started)
        return await real_edit(*args, **kwargs)

    monkeypatch.setattr(cogs.table, "edit", edit)
    update = asyncio.ensure_future(cogs.table.update_lobby(bot, joined, "carol joins (3/3)."))
    await until(reached)
    await alice.slash(table.channel, "hedgehog start")
    started.set()
    await update
    components = raw_components(table, lobby.id)
    pressable = [c.get("label") or c.get("custom_id") for c in components if not c.get("disabled")]
    assert pressable == [], pressable  # the started game's lobby keeps no control that only refuses
    assert simcord_env.errors == []


async def test_an_undo_question_posted_while_the_next_players_move_is_shown_does_not_keep_live_buttons(
    table, simcord_env, monkeypatch
):
    """alice asks to take back her pass; while her question is being posted, bob plays (a roll, then a
    pass), which makes the request lapse, and his board looks for lapsed questions before alice's is
    recorded.  Her question is still closed as lapsed, with no Accept or Refuse left to press."""
    import cogs.questions
    from bot.session.service import ServiceError

    first, other = await first_player_passed(table)
    bot = simcord_env.bot
    real_answer_at = cogs.questions.answer_at
    posted = 0

    async def answer_at(interaction, **payload):
        nonlocal posted
        posted += 1
        if posted == 1:  # the question is on its way to Discord when the other player plays
            them = Actor(other.id, other.name)
            for work in (bot.service.roll(table.channel.id, them), bot.service.move(table.channel.id, them, "pass")):
                with contextlib.suppress(ServiceError):
                    await cogs.table.show_in_channel(bot, await work)
        return await real_answer_at(interaction, **payload)

    monkeypatch.setattr(cogs.questions, "answer_at", answer_at)
    asked = await first.slash(table.channel, "game undo")
    question = table.env.backend.messages[table.channel.id][asked.response.message.id]
    assert not question.components, "a lapsed undo question keeps buttons that only refuse"
    assert question.content.endswith("This request lapsed: the game has moved on."), question.content
    game = await bot.service.latest_game(table.channel.id)
    assert await bot.service.questions.of_game(game.id) == []  # nothing left to close later
    assert simcord_env.errors == []


async def test_a_tournament_card_posted_while_the_tournament_starts_loses_its_join_button(
    table, club, simcord_env, monkeypatch
):
    """alice asks for /tournament status (a card with Join) at the instant the tournament starts (its
    start time, in the scheduler's loop): the start takes the buttons off every card it knows, and
    alice's card, posted meanwhile and recorded after, loses its Join too."""
    olga, members = club
    created = await olga.slash(table.channel, "tournament create", name="Cup", game="whist", format="swiss")
    assert not created.ephemeral, created.response.content
    for member in members[1:5]:
        await member.slash(table.channel, "tournament join")
    cog = simcord_env.bot.get_cog("Tournament") or next(
        c for c in simcord_env.bot.cogs.values() if type(c).__name__ == "TournamentCommands"
    )
    (tournament,) = [t for t in await cog.tournaments.listing(table.guild.id)]
    commands_module = sys.modules[type(cog).__module__]  # the module the running cog came from (loaded as an extension)
    real_answer_at = commands_module.answer_at

    async def answer_at(interaction, **payload):  # the card is on its way when the start comes
        await cog.tournaments.start(tournament.id, Actor(olga.id, olga.name, can_manage=True))
        return await real_answer_at(interaction, **payload)

    monkeypatch.setattr(commands_module, "answer_at", answer_at)
    status = await members[0].slash(table.channel, "tournament status")
    card = status.response.message
    assert not (await cog.tournaments.get(tournament.id)).is_open  # it has started
    components = raw_components(table, card.id)
    pressable = [c.get("label") for c in components if not c.get("disabled")]
    assert pressable == [], pressable  # the tournament runs: nothing left to join


async def test_a_lapsed_question_is_closed_once_when_two_boards_are_shown_at_once(table, simcord_env):
    """alice asked for an undo; bob's roll and his pass are shown at the same time (as two reports can be):
    each board, once shown, closes the table's lapsed questions, and alice's is closed once: it says
    "This request lapsed" once."""
    first, other = await first_player_passed(table)
    bot = simcord_env.bot
    asked = await first.slash(table.channel, "game undo")
    them = Actor(other.id, other.name)
    rolled = await bot.service.roll(table.channel.id, them)
    passed = await bot.service.move(table.channel.id, them, "pass")  # a person's move: the request lapses
    await asyncio.gather(cogs.table.show_in_channel(bot, rolled), cogs.table.show_in_channel(bot, passed))
    question = table.env.backend.messages[table.channel.id][asked.response.message.id]
    assert not question.components
    assert question.content.count("lapsed") == 1, question.content
    assert simcord_env.errors == []


async def test_lobby_changes_and_a_lobby_shown_again_are_acknowledged_in_time_by_the_pacer(
    table, simcord_env, monkeypatch
):
    """A change of the lobby waits for another one being shown (one change of a game's living message at a
    time, and Discord rate-limits edits), so joining, leaving and asking for the lobby again run under the
    pacer, which answers first when the answer is slow (bot/pacing.py): by button and by command alike."""
    bot = simcord_env.bot
    paced: list[int] = []
    real_run = bot.pacer.run

    async def run(channel_id, work, acknowledge):
        paced.append(channel_id)
        return await real_run(channel_id, work, acknowledge)

    monkeypatch.setattr(bot.pacer, "run", run)
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=4)
    lobby = opened.response.message
    await bob.click(lobby, label="Join")
    await carol.slash(table.channel, "hedgehog join")
    await bob.click(lobby, label="Leave")
    await carol.slash(table.channel, "hedgehog leave")
    await bob.slash(table.channel, "hedgehog board")
    assert paced == [table.channel.id] * 5, paced
    game = await bot.service.live_game(table.channel.id)
    assert [row.display_name for row in game.seats] == ["alice"]
    assert simcord_env.errors == []


@pytest.mark.parametrize("ending", ["resign", "abort", "undo"])
async def test_a_bots_roll_shown_after_the_game_ended_does_not_bring_back_a_live_board(
    table, simcord_env, make_bot, monkeypatch, ending
):
    """alice plays against a bot; the bot's roll is committed, and its board comes late (drawn, or held up
    by Discord's rate limit) while alice ends the game (/game resign, /game abort) or takes back her move
    (/game undo).  The late board never turns the game's final message back into a live board saying the
    bot is to move, nor shows the bot to move after the undo gave the turn back to alice."""
    bot = make_bot(ai_workers=0, ai_max_iterations=20)
    await simcord_env.restart_bot(bot)
    alice = table.members[0]
    ended_shown = asyncio.Event()
    held = asyncio.Event()
    real_deliver = cogs.seats.deliver
    real_show, real_close = cogs.table.show, cogs.table.close
    delivered = 0

    async def deliver(b, report):
        nonlocal delivered
        delivered += 1
        if delivered == 1:  # the bot's first action is committed; its board edit comes late
            held.set()
            await simcord_env.external_wait(ended_shown.wait(), reason="the bot's board, held up")
        return await real_deliver(b, report)

    async def show(interaction, report):
        await real_show(interaction, report)
        if report.game.status != "active" or any("takes back" in line for line in report.lines):
            ended_shown.set()

    async def close(b, game):
        await real_close(b, game)
        ended_shown.set()

    monkeypatch.setattr(cogs.seats, "deliver", deliver)
    monkeypatch.setattr(cogs.table, "show", show)
    monkeypatch.setattr(cogs.table, "close", close)
    opened = await alice.slash(table.channel, "hedgehog new", players=2, bots=1, bot_level="easy")
    await alice.click(opened.response.message, label="Start")
    for _ in range(6):
        if held.is_set():
            break
        board = living_board(table.env, table.channel.id)
        if "Roll" in button_labels(board):
            await alice.click(board, label="Roll")
        else:
            await alice.slash(table.channel, "hedgehog move", notation="pass")
    assert held.is_set()
    ended = await alice.slash(table.channel, f"game {ending}")
    assert not ended.ephemeral, ended.response.content
    await bot.autoplay.wait()
    game = await bot.service.latest_game(table.channel.id)
    if ending == "undo":  # alice's pass and the bot's roll after it are taken back: alice is to move again
        assert game.status == "active" and game.user_at(game.turn_seat) == alice.id
        board = living_board(table.env, table.channel.id)
        acting = [f.value for f in board.embeds[0].fields if f.name in ("To roll", "To move")]
        assert acting and str(alice.id) in acting[0], board.embeds[0].to_dict()  # the board names her, not the bot
        assert simcord_env.errors == []
        return
    assert game.status in ("aborted", "finished")
    live = [
        m
        for m in table.channel.history()
        if m.embeds and any(f.name in ("To roll", "To move") for f in m.embeds[0].fields)
    ]
    assert live == [], [m.embeds[0].to_dict() for m in live]  # no message says someone is still to play
    assert simcord_env.errors == []


async def test_a_roll_shown_after_another_player_resigned_does_not_bring_them_back_on_the_board(
    table, simcord_env, monkeypatch
):
    """alice rolls at a table of three; her board is drawn, and before it is shown carol resigns and her
    board is shown first.  alice is told her roll privately, and the living board stays as the game is now
    (carol gone), her roll joining its lines marked as played earlier."""
    alice, bob, carol = table.members[:3]
    await alice.slash(table.channel, "hedgehog new", players=3)
    for member in (bob, carol):
        await member.slash(table.channel, "hedgehog join")
    started = await alice.slash(table.channel, "hedgehog start")
    first, kind = next_actor(started, table.members)
    assert kind == "roll"
    leaver = next(m for m in (bob, carol, alice) if m is not first)
    bot = simcord_env.bot
    real_show = cogs.table.show

    async def show(interaction, report):
        if any(" rolls " in line for line in report.lines):  # the roll is drawn; the resignation lands first
            resigned = await bot.service.resign(table.channel.id, Actor(leaver.id, leaver.name))
            await cogs.table.show_in_channel(bot, resigned)
        await real_show(interaction, report)

    monkeypatch.setattr(cogs.table, "show", show)
    rolled = await first.slash(table.channel, "hedgehog roll")
    assert rolled.ephemeral and rolled.response.content.startswith("Done: "), rolled.response.content
    board = living_board(table.env, table.channel.id).embeds[0]
    lines = board.description.split("\n")
    assert lines[-2:] == ["*Not shown at the time (played earlier):*", rolled.response.content[len("Done: ") :]]
    assert f"{leaver.name} resigns." in lines[:-2], lines
    game = await bot.service.live_game(table.channel.id)
    assert f"move {game.ply}" in board.footer.text, board.footer.text  # the board shows the game as stored
    assert simcord_env.errors == []
