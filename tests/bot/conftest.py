"""Fixtures of the session tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.session import Thinking, open_session
from tests.bot.hand_clock import Clock

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def world(db_url):
    """An open session on the test database, and the clock it reads (moved by hand)."""
    clock = Clock()
    session = await open_session(db_url, clock=clock, render=False, new_seed=lambda: "seed")
    yield session, clock
    await session.close()


@pytest.fixture
async def bots_session(db_url):
    """An open session whose computer players search 20 iterations in this process, at a fixed time."""
    session = await open_session(
        db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", thinking=Thinking(None, 20)
    )
    yield session
    await session.close()
