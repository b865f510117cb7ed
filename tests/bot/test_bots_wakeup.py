"""A person's move that lands while the bots' task of the channel is ending still wakes the bots.

The task may be reading the game for its last check (a database read, slow on PostgreSQL) when the
move lands: it reads the game as it was, finds a person to move and would end.  ``Autoplayer.start``
asks a running task to look once more, so the bot whose turn it now is replies at once.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from bot.session import Thinking, open_session
from bot.session.service import Actor

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE = Actor(1, "alice")


async def test_a_move_made_while_the_bots_task_reads_the_game_is_answered_by_the_bot(db_url, monkeypatch):
    session = await open_session(
        db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", thinking=Thinking(None, 20)
    )
    games, bots = session.games, session.autoplay
    try:
        await games.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=ALICE, max_players=2)
        await games.add_bot(5, ALICE, "easy")
        report = await games.start(5, ALICE)
        shown = []

        async def show(bot_report):
            shown.append(bot_report)

        while report.game.bot_at(report.to_move_seat) is None:  # alice plays until the bot is to act
            if report.needs_roll:
                report = await games.roll(5, ALICE)
            else:
                report = await games.move(5, ALICE, (await games.legal_moves(5, ALICE.user_id))[0].value)

        real = games.store.live_game
        read_started, read_may_end = asyncio.Event(), asyncio.Event()
        watching = {"on": False}

        async def slow_read(channel_id):
            """A read of the game that takes a moment: what it returns is the game when it began."""
            game = await real(channel_id)
            if watching["on"]:
                read_started.set()
                await read_may_end.wait()
            return game

        monkeypatch.setattr(games.store, "live_game", slow_read)

        async def show_then_watch(bot_report):
            shown.append(bot_report)
            if bot_report.game.bot_at(bot_report.to_move_seat) is None:  # the turn is alice's now
                watching["on"] = True  # the task's next look at the game is slow

        bots.start(5, show_then_watch)
        await asyncio.wait_for(read_started.wait(), 60)  # the task reads the game after its last action
        watching["on"] = False
        monkeypatch.setattr(games.store, "live_game", real)
        mine = await games.board(5)
        while mine.game.bot_at(mine.to_move_seat) is None and mine.outcome is None:  # alice's whole turn
            if mine.needs_roll:
                mine = await games.roll(5, ALICE)
            else:
                mine = await games.move(5, ALICE, (await games.legal_moves(5, ALICE.user_id))[0].value)
            bots.start(5, show)  # what the Discord layer does after every report that leaves a bot to act
        assert mine.outcome is None
        read_may_end.set()
        await asyncio.wait_for(bots.wait(), 60)
        assert await bots.bot_turn(5) is None, "alice moved and the bot's turn came, but no bot is playing it"
    finally:
        await session.close()
