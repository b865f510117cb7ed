"""Fixtures of the session tests."""

from __future__ import annotations

import pytest

from bot.session import open_session
from tests.bot.hand_clock import Clock


@pytest.fixture
async def world(db_url):
    """An open session on the test database, and the clock it reads (moved by hand)."""
    clock = Clock()
    session = await open_session(db_url, clock=clock, render=False, new_seed=lambda: "seed")
    yield session, clock
    await session.close()
