"""A search stuck in the shared process pool is stopped with its pool; the searches of other channels
waiting in that pool are cancelled with it, and searched again in the new one: no bot stops playing."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import bot.session.autoplay as autoplay
from ai import choose_notation
from bot.render_pool import ai_pool, shutdown_pools
from bot.session import Thinking, open_session
from bot.session.service import Actor

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")


def stuck_when_hard(game: str, state: Any, level: str, *rest: Any) -> str:
    """A search that never ends for a hard bot (a runaway), the real one otherwise."""
    if level == "hard":
        time.sleep(3600)
    return choose_notation(game, state, level, *rest)


async def with_bot_to_act(games: Any, channel: int, person: Actor, level: str) -> None:
    await games.new_game(guild_id=1, channel_id=channel, game="whist", actor=person, max_players=2)
    await games.add_bot(channel, person, level)
    report = await games.start(channel, person)
    if report.game.bot_at(report.to_move_seat) is None:
        moves = await games.legal_moves(channel, person.user_id)
        report = await games.move(channel, person, moves[0].value)
    assert report.game.bot_at(report.to_move_seat) is not None


async def test_a_runaway_search_does_not_stop_the_bots_queued_behind_it(db_url, monkeypatch):
    monkeypatch.setattr(autoplay, "choose_notation", stuck_when_hard)
    session = await open_session(
        db_url,
        clock=lambda: NOW,
        render=False,
        new_seed=lambda: "seed",
        ai_executor=ai_pool(1),
        thinking=Thinking(None, 20, timeout_s=2.0),
    )
    games, bots = session.games, session.autoplay

    async def nothing(_report: Any) -> None:
        return None

    try:
        await with_bot_to_act(games, 10, ALICE, "hard")  # its search holds the only worker and never ends
        queued = [11, 12, 13]  # behind it: the pool hands the first two to its worker's queue, the last waits
        for channel in queued:
            await with_bot_to_act(games, channel, BOB, "normal")
        pool = bots.executor
        assert pool is not None
        bots.start(10, nothing)
        await asyncio.sleep(0.5)
        for channel in queued:
            bots.start(channel, nothing)
            await asyncio.sleep(0.05)
        await asyncio.wait_for(bots.wait(), 120)
        assert bots.executor is not pool  # the runaway's worker was stopped with its pool
        assert await bots.bot_turn(10) is None  # the runaway's bot played its fallback
        stopped = [channel for channel in queued if await bots.bot_turn(channel) is not None]
        assert stopped == [], f"the bots of channels {stopped}, queued behind the runaway, never played"
    finally:
        await session.close()
        shutdown_pools()
