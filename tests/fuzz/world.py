"""The server the fuzzer plays in: the real bot under SimCord, with a channel for each phase of play.

Phases: ``none`` (no game yet), ``lobby`` (a game waiting for players), ``running`` (a game under
way), ``finished`` (a game over), ``tournament-open`` (registration open) and ``tournament-running``
(round one being played in match threads).  Hostile input moves things on (a valid ``/game resign``
ends the running game), so ``refresh`` sets up a fresh channel for any phase that drifted.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import discord
from simcord import Env
from sqlalchemy import text

from bot.client import PyramidBot, create_bot
from bot.session.schema import metadata
from bot.settings import Settings

SETTLE_SECONDS = 120.0
PLAYERS = ("alice", "bob", "carol", "dave")
ORGANISER = "olga"
VICTIM = "mallory"  # never plays: the bot has no reason to ever ping her
ANCHOR = "Pinned notes for this table."
PHASE_CHECK = {
    "none": "SELECT count(*) FROM games WHERE channel_id = :c",
    "lobby": "SELECT count(*) FROM games WHERE channel_id = :c AND status = 'open'",
    "running": "SELECT count(*) FROM games WHERE channel_id = :c AND status = 'active'",
    "finished": "SELECT count(*) FROM games WHERE channel_id = :c AND status IN ('open', 'active')",
    "tournament-open": "SELECT count(*) FROM tournaments WHERE channel_id = :c AND status = 'registration'",
    "tournament-running": "SELECT count(*) FROM tournaments WHERE channel_id = :c AND status = 'running'",
}
EPHEMERAL = 1 << 6
EPHEMERAL_VIEW_SECONDS = 15 * 60  # discord.py's timeout for a private reply's view that has none
HEALTHY = {"none": 0, "finished": 0}  # the count a healthy phase has (others: at least one)


class Capture(logging.Handler):
    """Every log record of the process, kept until read; writing one must never fail."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.unwritable: list[str] = []
        self._format = logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        try:
            self._format.format(record).encode("utf-8")
        except UnicodeEncodeError as error:
            self.unwritable.append(f"{record.name}: {error}")

    def take(self) -> list[logging.LogRecord]:
        taken, self.records = self.records, []
        return taken


@contextmanager
def captured_logs() -> Iterator[Capture]:
    """Route every record of the process to a ``Capture`` (refusals included) while the block runs."""
    capture = Capture()
    root = logging.getLogger()
    replies = logging.getLogger("cogs.replies")
    saved = (root.level, replies.level, logging.raiseExceptions)
    root.addHandler(capture)
    root.setLevel(logging.INFO)
    replies.setLevel(logging.DEBUG)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.setLevel(saved[0])
        replies.setLevel(saved[1])


def build_bot(db_url: str) -> PyramidBot:
    """The bot as the Discord tests build it: fixed dice, no clock loop in the way, and computer players
    that search in a thread with a small fixed budget (as in ``tests/discord/test_bots.py``)."""
    seeds = iter(range(1, 10**9))
    settings = Settings(
        token="fuzz-token",
        database_url=db_url,
        scheduler_interval_seconds=3600,
        shard_count=1,
        ai_workers=0,
        ai_max_iterations=20,
    )
    return create_bot(
        settings,
        clock=lambda: discord.utils.utcnow() + timedelta(0),
        new_seed=lambda: f"fuzz-{next(seeds)}",
    )


@dataclass
class World:
    """The environment, its people and the channel of each phase."""

    env: Env
    bot: PyramidBot
    guild: Any
    members: dict[str, Any]
    role: Any
    channels: dict[str, Any] = field(default_factory=dict)
    anchors: dict[int, int] = field(default_factory=dict)  # channel id -> a bot message to press on
    notes: list[str] = field(default_factory=list)
    serial: int = 0
    last_snapshot: Any = None  # the state after the last case (see ``state``)
    watcher: sqlite3.Connection | None = None
    horizon: int = 0  # SimCord records older than this snowflake were judged and may be forgotten
    refreshes: int = 0

    @property
    def backend(self) -> Any:
        return self.env.backend

    def channel(self, phase: str) -> Any:
        return self.channels[phase]

    # ------------------------------------------------------------------------------- set-up

    async def slash(self, who: str, channel: Any, command: str, /, **options: Any) -> Any:
        return await self.members[who].slash(channel, command, **options)

    async def anchor(self, channel: Any) -> None:
        """A plain message from the bot in ``channel``, for presses on forged buttons."""
        sent = await self.bot.get_channel(channel.id).send(ANCHOR)  # type: ignore[union-attr]
        await self.env.settle()
        self.anchors[channel.id] = sent.id

    async def open_phase(self, phase: str) -> None:
        """A new channel for ``phase``, brought to that phase with ordinary commands."""
        self.serial += 1
        channel = self.guild.create_text_channel(f"{phase}-{self.serial}")
        self.channels[phase] = channel
        await self.anchor(channel)
        try:
            await self._play_to(phase, channel)
        except Exception as error:  # the phase is still fuzzed, in whatever state it reached
            self.notes.append(f"phase {phase} could not be set up: {type(error).__name__}: {error}")
        else:
            if await self.drifted(phase):
                self.notes.append(f"phase {phase} could not be set up: its commands were refused")

    async def _play_to(self, phase: str, channel: Any) -> None:
        if phase == "lobby":
            await self.slash("alice", channel, "combat new", players=4)
            await self.slash("bob", channel, "combat join")
        elif phase in ("running", "finished"):
            await self.slash("alice", channel, "combat new", players=2)
            await self.slash("bob", channel, "combat join")
            await self.slash("alice", channel, "combat start")
            if phase == "finished":
                await self.slash("alice", channel, "game resign")
        elif phase.startswith("tournament"):
            name = f"Fuzz Cup {self.serial}"
            await self.slash(ORGANISER, channel, "tournament create", name=name, game="combat", format="swiss")
            players = PLAYERS if phase == "tournament-running" else PLAYERS[:2]
            for who in players:
                await self.slash(who, channel, "tournament join")
            if phase == "tournament-running":
                await self.slash(ORGANISER, channel, "tournament start")

    async def drifted(self, phase: str) -> bool:
        """True when the phase's channel is no longer in that phase."""
        async with self.bot.session._store.engine.connect() as conn:
            count = (await conn.execute(text(PHASE_CHECK[phase]), {"c": self.channel(phase).id})).scalar_one()
        return count != HEALTHY[phase] if phase in HEALTHY else count == 0

    async def refresh(self) -> list[str]:
        """Set up again every phase that drifted; returns their names."""
        moved = [phase for phase in self.channels if await self.drifted(phase)]
        for phase in moved:
            await self.open_phase(phase)
        self.last_snapshot = None
        return moved

    def forget(self) -> None:
        """Drop SimCord's records of cases already judged (logs, private replies, interactions), so
        a long run keeps flat memory; public messages stay, as the bot may still edit them."""
        backend = self.backend
        backend.transcript.clear()
        backend.http_requests.clear()
        before, self.horizon = self.horizon, backend.snowflake()
        for messages in backend.messages.values():
            for old in [m.id for m in messages.values() if m.id < before and m.flags & EPHEMERAL]:
                del messages[old]
        for old in [i for i in backend.interactions if i < before]:
            backend.interaction_tokens.pop(backend.interactions.pop(old).token, None)

    async def expire_views(self) -> None:
        """Move the clock past the 15 minutes discord.py gives the buttons of a private reply.

        Each such view keeps a timer until it expires; without this, a long run's event loop holds
        thousands and every settle of SimCord walks them all.  Clocks of running games may run out on
        the way: ``refresh`` sets up any phase that drifted.
        """
        await self.env.advance_time(EPHEMERAL_VIEW_SECONDS + 1)
        self.last_snapshot = None

    # ------------------------------------------------------------------------------- state

    async def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (in primary-key order), to tell whether an interaction changed anything."""
        out: dict[str, list[tuple[Any, ...]]] = {}
        async with self.bot.session._store.engine.connect() as conn:
            for table, query in self._queries:
                out[table] = [tuple(r) for r in (await conn.exec_driver_sql(query)).all()]
        return out

    async def state(self) -> Any:
        """A token that changes whenever the database does: the full snapshot, or in ``fast`` mode on
        SQLite the database's change counter (``PRAGMA data_version`` of a connection that never writes)."""
        if self.watcher is None:
            return await self.snapshot()
        return self.watcher.execute("PRAGMA data_version").fetchone()[0]

    def watch(self, db_url: str) -> bool:
        """Use the cheap change counter from now on (SQLite only); True when it is in use."""
        prefix = "sqlite+aiosqlite:///"
        if db_url.startswith(prefix):
            self.watcher = sqlite3.connect(db_url[len(prefix) :], check_same_thread=False)
            self.watcher.execute("PRAGMA data_version").fetchone()
        return self.watcher is not None

    @functools.cached_property
    def _queries(self) -> list[tuple[str, str]]:
        queries = []
        for table in metadata.sorted_tables:
            keys = ", ".join(c.name for c in table.primary_key.columns) or "1"
            queries.append((table.name, f"SELECT * FROM {table.name} ORDER BY {keys}"))
        return queries


async def open_world(db_url: str, phases: tuple[str, ...]) -> World:
    """Start the bot under SimCord and set up a channel for each phase."""
    bot = build_bot(db_url)
    env = Env(bot, settle_timeout=SETTLE_SECONDS)
    await env.start()
    guild = env.create_guild("Fuzz Club")
    role = guild.create_role("Organisers", permissions=discord.Permissions(manage_guild=True), mentionable=True)
    members = {name: guild.add_member(env.create_user(name)) for name in (*PLAYERS, VICTIM)}
    members[ORGANISER] = guild.add_member(env.create_user(ORGANISER), roles=[role])
    await env.settle()
    world = World(env, bot, guild, members, role)
    for phase in phases:
        await world.open_phase(phase)
    return world


async def close_world(world: World) -> None:
    """Stop the bot and the environment."""
    if world.watcher is not None:
        world.watcher.close()
    await world.env.shutdown()
    await world.bot.close_session()  # SimCord detaches the bot without closing its database
    await asyncio.sleep(0)
