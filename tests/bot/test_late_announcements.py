"""A bot's move committed just before the process stopped is announced late, after the restart.

By then the game may have moved on.  A late announcement overtaken by the game's end posts nothing
(the end was shown; its board would show the end a second time, pinging everyone), and a move taken
back by an undo is never announced.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from bot.session import Thinking, open_session
from bot.session.service import Actor
from tests.bot.hand_clock import Clock

ALICE = Actor(1, "alice")
QUICK = Thinking(budget_ms=None, max_iterations=20)


async def open_at(db_url, clock):
    return await open_session(db_url, clock=clock, render=False, new_seed=lambda: "seed", thinking=QUICK)


async def bot_moved_then_process_died(db_url, clock):
    """Alice against an easy bot at Martian Whist: the bot's reply is committed, never shown (the process
    stops while posting it).  Returns the delivery id of the bot's move."""
    session = await open_at(db_url, clock)
    games, shown = session.games, []
    try:
        await games.new_game(guild_id=1, channel_id=5, game="whist", actor=ALICE, max_players=2)
        await games.add_bot(5, ALICE, "easy")
        report = await games.start(5, ALICE)
        await games.delivered(report.delivery_id)
        if report.game.bot_at(report.to_move_seat) is None:
            report = await games.move(5, ALICE, (await games.legal_moves(5, ALICE.user_id))[0].value)
            await games.delivered(report.delivery_id)

        async def dies_while_posting(bot_report):
            shown.append(bot_report)
            raise RuntimeError("the process stops here")

        with contextlib.suppress(RuntimeError):
            await session.autoplay.play(5, dies_while_posting)
        assert len(shown) == 1 and shown[0].outcome is None
        return shown[0].delivery_id
    finally:
        await session.close()


async def test_a_late_announcement_overtaken_by_the_end_posts_nothing(db_url):
    clock = Clock()
    bot_move = await bot_moved_then_process_died(db_url, clock)
    clock.now += timedelta(seconds=5)
    session = await open_at(db_url, clock)  # the restart
    games = session.games
    try:
        ended = await games.resign(5, ALICE)  # alice resigns at once: her answer tells the game's end
        assert ended.game.status == "aborted"  # the last person left a practice game: no result
        await games.delivered(ended.delivery_id)
        clock.now += timedelta(minutes=2)
        late = [item for item in await games.claim_deliveries() if item.id == bot_move]
        assert len(late) == 1 and late[0].report is None  # claimed, settled, nothing to post
        await games.delivered(bot_move)
        assert [item for item in await games.claim_deliveries() if item.id == bot_move] == []
    finally:
        await session.close()


async def test_a_bot_move_taken_back_by_an_undo_is_never_announced_after_the_restart(db_url):
    clock = Clock()
    bot_move = await bot_moved_then_process_died(db_url, clock)
    session = await open_at(db_url, clock)  # the restart
    games = session.games
    try:
        _, log = await games.history(5)
        taken_back = next(row for row in log if row.seat == 1 and row.kind == "move")
        status = await session.undo.request(5, ALICE)  # a practice game: taken back at once, the bot's reply too
        assert status.report is not None
        await games.delivered(status.report.delivery_id)
        other = (await games.legal_moves(5, ALICE.user_id))[1]  # alice plays something else this time
        again = await games.move(5, ALICE, other.value)
        await games.delivered(again.delivery_id)

        async def shown(report):
            await games.delivered(report.delivery_id)

        await session.autoplay.play(5, shown)
        _, log = await games.history(5)
        assert taken_back.description not in [row.description for row in log]
        clock.now += timedelta(minutes=2)
        late = [item for item in await games.claim_deliveries() if item.id == bot_move]
        assert late == [], (
            f"the reply taken back ({late[0].report.lines}) is announced after the restart, "
            f"as a new turn: {late[0].report.turn_changed}"
        )
    finally:
        await session.close()
