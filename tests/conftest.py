"""Fixtures shared by every test."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file for one test."""
    return f"sqlite+aiosqlite:///{tmp_path}/bot.db"
