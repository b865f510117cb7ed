"""Fixtures shared by every test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine


@pytest_asyncio.fixture
async def db_url(tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database for one test: a SQLite file, or ``TEST_DATABASE_URL`` emptied first.

    ``TEST_DATABASE_URL=postgresql+asyncpg://user:password@host/db python -m pytest`` runs the
    storage, service and Discord tests against PostgreSQL (the database is wiped before each test).
    """
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        yield f"sqlite+aiosqlite:///{tmp_path}/bot.db"
        return
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    yield url
