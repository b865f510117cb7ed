"""A game against a hard bot with the iteration cap set (``AI_MAX_ITERATIONS``, for reproducible play)
does not depend on how fast the machine searches: with a cap, the time budget is left out."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime

import pytest

import ai.budget
from bot.session import Thinking, open_session
from bot.session.service import Actor
from bot.settings import Settings

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE = Actor(1, "alice")


def production_thinking() -> Thinking:
    settings = Settings(token="x", ai_max_iterations=60)  # AI_MAX_ITERATIONS=60, the rest default
    return Thinking.configured(settings.ai_budget_ms, settings.ai_max_iterations)  # as the bot builds it


async def play(db_url: str) -> list[str]:
    """alice (random, seeded) against a hard bot at Martian Whist, 40 plies; the move log."""
    session = await open_session(
        db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", thinking=production_thinking()
    )
    games = session.games

    async def show(_report):
        return None

    try:
        await games.new_game(guild_id=1, channel_id=7, game="whist", actor=ALICE, max_players=2)
        await games.add_bot(7, ALICE, "hard")
        report = await games.start(7, ALICE)
        rng = random.Random(9)
        for _ in range(40):
            if report.outcome is not None:
                break
            if report.game.bot_at(report.to_move_seat) is not None:
                await session.autoplay.play(7, show)
            elif report.needs_roll:
                await games.roll(7, ALICE)
            else:
                moves = await games.legal_moves(7, ALICE.user_id)
                await games.move(7, ALICE, rng.choice(moves).value)
            report = await games.board(7)
        _, log = await games.history(7)
        return [row.notation for row in log]
    finally:
        await session.close()


async def test_a_capped_game_against_a_hard_bot_replays_the_same_on_a_slower_machine(tmp_path, db_url, monkeypatch):
    if not db_url.startswith("sqlite"):
        pytest.skip("two databases of one test: SQLite files")
    first = await play(f"sqlite+aiosqlite:///{tmp_path}/a.db")
    ticks = itertools.count()
    monkeypatch.setattr(ai.budget.time, "perf_counter", lambda: next(ticks) * 0.5)  # a loaded machine: 0.5 s a look
    second = await play(f"sqlite+aiosqlite:///{tmp_path}/b.db")
    assert len(first) > 10
    assert first == second, "the same seed and the same iteration cap gave the hard bot other moves"
