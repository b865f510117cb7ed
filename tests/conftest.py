"""Fixtures shared by every test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.settling import poll_settling_bots_often

# Tests draw boards and search bots' moves in threads of the test process and never acknowledge a move
# early for being slow (a busy machine must not change what a test sees), as one shard; tests of those
# paths set them explicitly.  (The offline Discord's clock stands still, and a process pool that starts a
# process while another child is alive waits on that clock forever, so worker processes stay out of it.)
os.environ.setdefault("RENDER_WORKERS", "0")
os.environ.setdefault("AI_WORKERS", "0")
os.environ.setdefault("ACK_AFTER_SECONDS", "600")
os.environ.setdefault("MEMORY_TRIM_SECONDS", "0")  # tests that move the clock by days would trim every minute
os.environ.setdefault("SHARD_COUNT", "1")  # the offline Discord runs the bot as one shard
poll_settling_bots_often()


def worker_database_url(url: str) -> str:
    """``url`` with a database of this test worker's own (pytest-xdist runs workers side by side)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    head, _, tail = url.partition("?")
    base = head.rsplit("/", 1)[0]
    return f"{base}/pyramids_test_{worker}" + (f"?{tail}" if tail else "")


_created: set[str] = set()


async def _ensure_database(url: str, worker_url: str) -> None:
    if worker_url in _created:
        return
    name = worker_url.partition("?")[0].rsplit("/", 1)[1]
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            found = (await conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})).first()
            if found is None:
                await conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await engine.dispose()
    _created.add(worker_url)


@pytest_asyncio.fixture
async def db_url(tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database for one test: a SQLite file, or a PostgreSQL database emptied first.

    ``TEST_DATABASE_URL=postgresql+asyncpg://user:password@host/db python -m pytest`` runs the
    storage, service and Discord tests against PostgreSQL: each test worker gets a database of its own
    beside ``db`` (created when missing), wiped before each test.
    """
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        yield f"sqlite+aiosqlite:///{tmp_path}/bot.db"
        return
    worker_url = worker_database_url(url)
    await _ensure_database(url, worker_url)
    engine = create_async_engine(worker_url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    yield worker_url
