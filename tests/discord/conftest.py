"""SimCord fixtures: the real bot, offline, on a temporary database file."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import PyramidBot, create_bot
from bot.settings import Settings

SETTLE_SECONDS = 120.0  # how long SimCord waits for the bot's work, in real time: generous on a busy machine


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every Discord test a settle timeout that no machine load reaches (a test never waits for it)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_SECONDS))


@pytest.fixture
async def make_bot(db_url: str) -> AsyncIterator[Callable[..., PyramidBot]]:
    """Build a new bot on the test's database (call again to 'restart').

    ``offset`` sets the bot's clock ahead of SimCord's, as if it had been offline that long;
    other keywords override settings. Every bot built closes its database once the test is over
    (SimCord detaches a bot without closing it), so no connection outlives the test's event loop.
    """

    seeds = itertools.count(1)
    built: list[PyramidBot] = []

    def build(offset: timedelta = timedelta(0), **settings: Any) -> PyramidBot:
        options = {"token": "test-token", "database_url": db_url, "scheduler_interval_seconds": 3600, **settings}
        bot = create_bot(
            Settings(**options),
            clock=lambda: discord.utils.utcnow() + offset,
            new_seed=lambda: f"test-{next(seeds)}",  # the same dice on every run
        )
        built.append(bot)
        return bot

    yield build
    for bot in built:
        await bot.close_session()


@pytest.fixture
def simcord_bot(make_bot: Callable[..., PyramidBot], request: pytest.FixtureRequest) -> PyramidBot:
    """The bot under test for ``simcord_env`` (settings from an indirect parameter, if any)."""
    return make_bot(**getattr(request, "param", {}))


@dataclass
class Table:
    """A guild, a channel and some members ready to play."""

    env: Any
    guild: Any
    channel: Any
    members: list[Any]


@pytest.fixture
def table(simcord_env: Any) -> Table:
    """A server with #games and five members: alice, bob, carol, dave, erin."""
    guild = simcord_env.create_guild("Pyramid Club")
    channel = guild.create_text_channel("games")
    members = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dave", "erin")]
    return Table(simcord_env, guild, channel, members)


@pytest.fixture
def club(table: Table) -> tuple[Any, list[Any]]:
    """An organiser (Manage Server) and nine players: the five of ``table`` and four more."""
    role = table.guild.create_role("Organisers", permissions=discord.Permissions(manage_guild=True))
    olga = table.guild.add_member(table.env.create_user("olga"), roles=[role])
    extra = [table.guild.add_member(table.env.create_user(n)) for n in ("fred", "gina", "hank", "ivy")]
    return olga, table.members + extra
