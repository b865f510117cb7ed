"""What a player does happens once, and what happens is always told.

A move committed by a process that stops before answering is announced in the channel after the
restart, once; the player's retry of the same suggestion is refused, so it is never played twice.
Two presses of Roll at the same instant roll once, even where the same player must roll again next.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from datetime import timedelta

import cogs.table
from bot.session import rules_for
from bot.session.service import BOARD_CHANGED
from tests.discord.helpers import custom_id, living_board, next_actor, press_at_once, refusal


async def start_hedgehog(table):
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    return await alice.slash(table.channel, "hedgehog start")


def boards_saying(channel, text: str) -> list:
    return [m for m in channel.history() if m.embeds and text in (m.embeds[0].description or "")]


async def test_a_move_committed_before_a_crash_is_announced_once_and_its_retry_is_refused(table, make_bot, monkeypatch):
    started = await start_hedgehog(table)
    actor, kind = next_actor(started, table.members)
    rolled = await actor.slash(table.channel, "hedgehog roll")
    actor, kind = next_actor(rolled, table.members)
    assert kind == "move"
    choices = await actor.autocomplete(table.channel, "hedgehog move", "notation", "")
    chosen = next(c for c in choices if not c["value"].startswith("pass")) if len(choices) > 1 else choices[0]

    async def process_dies_before_answering(interaction, report):
        raise asyncio.CancelledError  # the move is committed; the reply never goes out

    monkeypatch.setattr(cogs.table, "show", process_dies_before_answering)
    with contextlib.suppress(asyncio.CancelledError):
        await actor.slash(table.channel, "hedgehog move", notation=chosen["value"])
    monkeypatch.undo()
    described = chosen["name"].split(" — ")[-1].removesuffix("…")  # the move's sentence, or its start
    assert boards_saying(table.channel, described) == []

    await table.env.restart_bot(make_bot(offset=timedelta(minutes=2)))
    assert len(boards_saying(table.channel, described)) == 1  # told in the channel after the restart

    retry = await actor.slash(table.channel, "hedgehog move", notation=chosen["value"])
    assert refusal(retry) == BOARD_CHANGED
    await table.env.restart_bot(make_bot(offset=timedelta(minutes=10)))
    assert len(boards_saying(table.channel, described)) == 1  # and only once


async def test_two_presses_of_roll_at_once_roll_once_where_the_same_player_rolls_again(table, simcord_bot):
    """Martian Combat's action roll of 5 is followed by the same player's Aim roll, a tied combat by
    another roll: the second press of a double click must not roll that next roll."""
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "combat new", players=2)
    await bob.slash(table.channel, "combat join")
    result = await alice.slash(table.channel, "combat start")
    service, rules, rng = simcord_bot.service, rules_for("combat"), random.Random(3)
    rolled_again = 0
    while rolled_again < 2:
        actor, kind = next_actor(result, table.members)
        assert actor is not None, "the game ended before a player had to roll twice in a row"
        if kind == "move":
            choices = await actor.autocomplete(table.channel, "combat move", "notation", "")
            result = await actor.slash(table.channel, "combat move", notation=rng.choice(choices)["value"])
            continue
        board = living_board(table.env, table.channel.id)
        before = await service.live_game(table.channel.id)
        press = (actor, board, custom_id(board, "Roll"))
        answers = await press_at_once(table.env, table.guild.id, [press, press])

        after = await service.live_game(table.channel.id)
        logged = [m for m in await service.store.moves(before.id) if m.ply >= before.ply]
        assert [m.kind for m in logged] == ["roll"]
        refused = [a for a in answers if a.ephemeral]
        assert len(refused) == 1
        assert (refused[0].followups or [refused[0].response])[-1].content == BOARD_CHANGED  # after "Busy: ..."
        result = next(a for a in answers if not a.ephemeral)
        state = service.state_of(after)
        rolled_again += rules.pending_roll(state) and rules.to_move(state) == rules.to_move(service.state_of(before))


async def test_a_failure_after_the_move_was_stored_never_tells_the_player_nothing_changed(table, monkeypatch, caplog):
    started = await start_hedgehog(table)
    actor, _ = next_actor(started, table.members)

    async def answer_fails(interaction, report):
        raise RuntimeError("the answer could not be sent")  # the roll is stored whole before this

    monkeypatch.setattr(cogs.table, "show", answer_fails)
    failed = await actor.slash(table.channel, "hedgehog roll")
    said = refusal(failed)
    assert said.startswith("Something went wrong on our side (ref ") and "nothing was changed" not in said
    assert "Nothing is half done: look at the board" in said
    game = await table.env.bot.service.live_game(table.channel.id)
    assert [row.kind for row in await table.env.bot.service.store.moves(game.id)] == ["roll"]  # it stands


async def test_a_move_told_late_after_the_bot_moved_on_joins_its_board_marked_as_earlier(
    table, simcord_env, make_bot, monkeypatch
):
    """alice's answer failed; the bot then played on (the clock check woke it).  When the announcer tells
    alice's move a minute later, the newest board (the bot's) stays the game's board, and her move joins
    its lines marked as played before them (not as if it came after the bot's)."""
    from cogs.seats import resume
    from tests.discord.test_bots import QUICK

    await simcord_env.restart_bot(make_bot(**QUICK))
    bot = simcord_env.bot
    alice = table.members[0]
    opened = await alice.slash(table.channel, "whist new", bots=1, bot_level="easy")
    await alice.click(opened.response.message, label="Start")
    await bot.autoplay.wait()
    choices = await alice.autocomplete(table.channel, "whist move", "notation", "")

    async def answer_fails(interaction, report):
        raise RuntimeError("the answer could not be sent")

    monkeypatch.setattr(cogs.table, "show", answer_fails)
    failed = await alice.slash(table.channel, "whist move", notation=choices[0]["value"])
    monkeypatch.undo()
    assert refusal(failed).startswith("Something went wrong on our side")
    before = await bot.service.live_game(table.channel.id)
    await resume(bot)  # the clock check wakes the bot, whose turn it is
    await bot.autoplay.wait()
    board = living_board(table.env, table.channel.id)
    game = await bot.service.live_game(table.channel.id)
    assert board is not None and game.ply > before.ply
    boards = len([m for m in table.channel.history() if m.embeds])

    await simcord_env.advance_time(90)  # alice's answer is overdue: the announcer tells her move
    assert await bot.get_cog("Announcer").flush() >= 1
    assert living_board(table.env, table.channel.id).id == board.id  # still the newest board
    assert len([m for m in table.channel.history() if m.embeds]) == boards  # no second board
    lines = living_board(table.env, table.channel.id).embeds[0].description.split("\n")
    code = choices[0]["name"].split()[0]  # "G1 from tree a": alice took that pyramid
    assert lines[0].startswith("South takes"), lines  # the bot's move, told first
    assert lines[-2] == "*Not shown at the time (played earlier):*"
    assert lines[-1].startswith("North takes") and f"({code})" in lines[-1]


async def test_a_failure_after_a_public_thinking_line_is_told_privately_and_the_line_goes(table, monkeypatch):
    await start_hedgehog(table)
    before = [m.id for m in table.channel.history()]

    async def broken(*_args, **_kwargs):
        raise RuntimeError("the frames could not be drawn")

    monkeypatch.setattr(table.env.bot.service, "replay_boards", broken)
    replay = await table.members[2].slash(table.channel, "game replay")
    (apology,) = replay.followups
    assert apology.content.startswith("Something went wrong on our side") and apology.flags.ephemeral
    assert replay.response is None  # the public "thinking…" line is gone
    assert [m.id for m in table.channel.history()] == before  # nothing public was left behind


def holding_the_first_edit_until(monkeypatch, gate: asyncio.Event, seconds: float = 2.0) -> None:
    """The first edit of a living message waits (as Discord's rate limit on edits can make it) until
    ``gate`` is set, or ``seconds`` at most."""
    real_edit = cogs.table.edit
    edits = 0

    async def edit(*args, **kwargs):
        nonlocal edits
        edits += 1
        if edits == 1:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(gate.wait(), seconds)
        return await real_edit(*args, **kwargs)

    monkeypatch.setattr(cogs.table, "edit", edit)


async def test_a_timeout_another_loop_is_announcing_is_on_the_board_before_the_bots_moves_after_it(
    table, simcord_env, make_bot, monkeypatch
):
    """alice, alone with two bots, runs out of time.  The tournament loop's flush has claimed the timeout
    and is editing the board when the clock check runs: it finds nothing left to announce and wakes the
    bots.  The bots must wait for the timeout to be shown, so their moves follow its lines on the board
    instead of replacing them (the timeout would otherwise never be told)."""
    from cogs.seats import resume
    from tests.discord.test_bots import QUICK

    bot = make_bot(**{**QUICK, "scheduler_interval_seconds": 30 * 86400})  # the test runs the clock check
    await simcord_env.restart_bot(bot)
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, bots=2, bot_level="easy", clock=1)
    await alice.click(opened.response.message, label="Start")
    await bot.autoplay.wait()
    await simcord_env.advance_time(25 * 3600)
    assert (await bot.timekeeper.tick()).timeouts == 1
    bot_rolled = asyncio.Event()
    real_roll = bot.service.roll

    async def roll(*args, **kwargs):
        report = await real_roll(*args, **kwargs)
        bot_rolled.set()
        return report

    monkeypatch.setattr(bot.service, "roll", roll)
    holding_the_first_edit_until(monkeypatch, bot_rolled)  # the timeout's edit, held until a bot rolled
    announcer = bot.get_cog("Announcer")

    async def clock_check() -> None:
        await announcer.flush()
        await resume(bot)

    await asyncio.gather(announcer.flush(), clock_check())
    await bot.autoplay.wait()
    summary = next(m for m in table.channel.history() if m.embeds and "Yellow rolls" in (m.embeds[0].description or ""))
    lines = summary.embeds[0].description.split("\n")
    starts = [line.split(" ")[:2] for line in lines]
    assert ["alice", "ran"] in starts, lines  # the timeout is told
    assert starts.index(["alice", "ran"]) < starts.index(["Yellow", "rolls"]), lines  # before the bots' moves
    assert simcord_env.errors == []


async def test_two_reports_shown_at_once_on_one_board_keep_both_their_lines_in_order(table, simcord_env, monkeypatch):
    """alice's roll and her move are shown at the same time (the roll's edit held up by Discord): the
    board keeps the lines of both, the roll's first, instead of the last edit's alone."""
    from bot.session.service import Actor

    started = await start_hedgehog(table)
    actor, kind = next_actor(started, table.members)
    assert kind == "roll"
    bot = simcord_env.bot
    player = Actor(actor.id, actor.name)
    rolled = await bot.service.roll(table.channel.id, player)
    choices = await actor.autocomplete(table.channel, "hedgehog move", "notation", "")
    going_on = next(c for c in choices if "for 1 point." in c["name"])  # 1 of the points rolled: more left
    moved = await bot.service.move(table.channel.id, player, going_on["value"])  # the turn goes on
    move_shown = asyncio.Event()
    holding_the_first_edit_until(monkeypatch, move_shown)  # the roll's edit waits for the move's show

    async def show_move() -> None:
        await cogs.table.show_in_channel(bot, moved)
        move_shown.set()

    await asyncio.gather(cogs.table.show_in_channel(bot, rolled), show_move())
    record = await bot.service.table_message(moved.game.id)
    assert list(record.lines[-2:]) == [*rolled.lines, *moved.lines], record.lines
    board = living_board(table.env, table.channel.id).embeds[0].description.split("\n")
    assert board[-2:] == [*rolled.lines, *moved.lines]
    assert simcord_env.errors == []
