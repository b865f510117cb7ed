"""Async storage over SQLAlchemy Core: games, seats and the append-only move log.

Every write that changes a game bumps ``games.version`` with ``WHERE version = :expected``, inside
one transaction with the rows it adds, so a lost race or a crash never leaves half a move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, overload

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Table,
    and_,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    literal_column,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.session import schema
from bot.session.game_cache import GameCache
from bot.session.schema import (
    ACTIVE_STATUSES,
    deliveries,
    games,
    moves,
    players,
    seat_requests,
    seats,
    undo_requests,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


def _seat_values(game_id: int, seat: int, user_id: int, name: str, ai_level: str | None = None) -> dict[str, Any]:
    """A lobby seat's row: who sits there (a person, or a computer player of ``ai_level``), nothing played yet."""
    return {
        "game_id": game_id,
        "seat": seat,
        "user_id": user_id,
        "display_name": name[:100],
        "missed_turns": 0,
        "removed": 0,
        "ai_level": ai_level,
    }


class StoreError(Exception):
    """A storage refusal with a sentence fit for a player."""


class ChannelBusy(StoreError):
    """The channel already has a game that is open or running."""


class StaleVersion(StoreError):
    """The game changed between reading and writing: the write was not applied."""


def primary_key(result: Any) -> Any:
    """The primary key an ``INSERT`` created."""
    key = result.inserted_primary_key
    assert key is not None, "the insert created no row"
    return key[0]


@overload
def aware(value: datetime) -> datetime: ...


@overload
def aware(value: None) -> None: ...


def aware(value: datetime | None) -> datetime | None:
    """A UTC-aware datetime (SQLite hands back naive ones)."""
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SeatRow:
    """A player's seat in a game."""

    seat: int
    user_id: int
    display_name: str
    bank_seconds: int | None = None
    missed_turns: int = 0
    removed: bool = False
    ai_level: str | None = None  # a computer player's level; None for a person
    stands_in_for: int | None = None  # the person whose seat this computer player took over (/game bot)
    stood_down_name: str | None = None  # that person's name, as it was at the table
    taken_over_at: int | None = None  # the first ply the computer player held the seat for

    @property
    def is_bot(self) -> bool:
        """True when a computer player holds the seat."""
        return self.ai_level is not None


@dataclass(frozen=True)
class GameRow:
    """A game as stored, with its seats in seat order."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: str
    status: str
    version: int
    ply: int
    state: dict[str, Any] | None
    outcome: dict[str, Any] | None
    creator_id: int
    max_players: int
    created_at: datetime
    updated_at: datetime
    seats: tuple[SeatRow, ...] = ()
    clock_days: int | None = None
    bank_days: int | None = None
    turn_seat: int | None = None
    turn_started_at: datetime | None = None
    deadline: datetime | None = None
    reminders_sent: int = 0
    wake_at: datetime | None = None
    thread_id: int | None = None
    parent_channel_id: int | None = None
    tournament_id: int | None = None
    rated: bool = True

    def after_write(self, now: datetime, values: dict[str, Any], seat_updates: dict[int, dict[str, Any]]) -> GameRow:
        """This game as a successful versioned write of ``values`` (and seat changes) leaves it."""

        def changed(row: SeatRow) -> SeatRow:
            updates = seat_updates.get(row.seat, {})
            fields: dict[str, Any] = {k: bool(v) if k == "removed" else v for k, v in updates.items()}
            return replace(row, **fields)

        changed_seats = tuple(changed(row) for row in self.seats)
        return replace(self, version=self.version + 1, updated_at=now, seats=changed_seats, **values)

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds, if any (removed seats included)."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def played_in(self, user_id: int) -> bool:
        """True when ``user_id`` holds a seat, or held one a computer player took over."""
        return any(user_id in (row.user_id, row.stands_in_for) for row in self.seats)

    def is_rematch_of(self, old: GameRow) -> bool:
        """True when this game is a newer table like ``old`` (same game, options, size and clock) that
        one of ``old``'s players opened: what a press of ``old``'s Rematch button may take a seat in."""
        return (
            self.id > old.id
            and (self.game, self.options, self.max_players) == (old.game, old.options, old.max_players)
            and (self.clock_days, self.bank_days) == (old.clock_days, old.bank_days)
            and old.played_in(self.creator_id)
        )

    def bot_at(self, seat: int | None) -> SeatRow | None:
        """The seat row at ``seat`` when a computer player holds it."""
        for row in self.seats:
            if row.seat == seat and row.is_bot:
                return row
        return None

    @property
    def has_bots(self) -> bool:
        """True when a computer player sits at the table."""
        return any(row.is_bot for row in self.seats)

    @property
    def humans(self) -> tuple[SeatRow, ...]:
        """The seats held by people."""
        return tuple(row for row in self.seats if not row.is_bot)

    def user_at(self, seat: int) -> int | None:
        """The user holding ``seat``."""
        for row in self.seats:
            if row.seat == seat:
                return row.user_id
        return None

    def name_at(self, seat: int) -> str:
        """The display name at ``seat``."""
        for row in self.seats:
            if row.seat == seat:
                return row.display_name
        return f"seat {seat + 1}"

    def name_at_ply(self, seat: int, ply: int) -> str:
        """Who held ``seat`` when ply ``ply`` was played: the person, before a computer player took over."""
        for row in self.seats:
            if row.seat == seat and row.taken_over_at is not None and ply < row.taken_over_at:
                return row.stood_down_name or f"seat {seat + 1}"
        return self.name_at(seat)


@dataclass(frozen=True)
class MoveRow:
    """One entry of the move log."""

    ply: int
    seat: int | None
    notation: str
    description: str
    kind: str
    created_at: datetime


@dataclass
class NewMove:
    """A move to append, with the state it leads to."""

    seat: int | None
    notation: str
    description: str
    kind: str
    state: dict[str, Any]
    status: str = "active"
    outcome: dict[str, Any] | None = None
    extra_updates: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NewDelivery:
    """An event to announce, recorded in the same transaction as the write that made it happen."""

    kind: str  # report | reminder
    origin: str  # interaction | scheduler
    payload: dict[str, Any]
    user_id: int | None = None
    token: str | None = None


@dataclass(frozen=True)
class DeliveryRow:
    """A recorded event, delivered or still to announce."""

    id: int
    game_id: int
    channel_id: int
    ply: int
    kind: str
    origin: str
    user_id: int | None
    payload: dict[str, Any]
    token: str | None
    created_at: datetime


SQLITE_BUSY_TIMEOUT_MS = 30000  # another process writing: wait this long before "database is locked"
MIGRATION_LOCK = 7_271_966  # PostgreSQL advisory lock key: one process migrates at a time


def _switch_to_wal(cursor: Any) -> None:
    """Put the database file in WAL mode (it stays so), waiting while another connection holds it.

    SQLite answers a journal-mode change that meets another connection's lock with "database is
    locked" at once, without its busy timeout: processes opening a new file together retry here.
    """
    cursor.execute("PRAGMA journal_mode")
    if str(cursor.fetchone()[0]).lower() == "wal":
        return
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as error:  # the driver's OperationalError, raw or adapted
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _enable_sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # the timeout first: switching to WAL needs the file's lock, which another process may hold
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


class SerialWriter:
    """An engine whose write transactions run one at a time in this process.

    SQLite allows one writer: two write transactions on two connections make the second wait for the
    busy timeout and then fail with "database is locked" (and a read transaction that turns into a
    write cannot wait at all).  Queueing writers on an asyncio lock instead makes none fail under load;
    reads (``connect``) still run side by side under WAL.

    A transaction written as one function (``run``) is also kept short: it runs whole in a writer
    thread of its own, with one hand-off to and from the event loop.  Written as ``async with begin()``
    every statement is a hand-off, and under load each waits behind the loop's other work while the
    writer's lock is held.  Everything else is the wrapped ``AsyncEngine``.
    """

    def __init__(self, engine: AsyncEngine, path: str | None = None) -> None:
        self._engine = engine
        self._lock = asyncio.Lock()
        self._sync: Engine | None = None
        self._thread: ThreadPoolExecutor | None = None
        if path:  # a database file (not ``:memory:``, which only its own connection sees)
            self._sync = create_engine(
                f"sqlite:///{path}", pool_size=1, max_overflow=0, connect_args={"check_same_thread": False}
            )
            _enable_sqlite_pragmas(self._sync)
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")

    @asynccontextmanager
    async def begin(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction, once no other one of this process is open."""
        async with self._lock, self._engine.begin() as conn:
            yield conn

    @property
    def threaded(self) -> bool:
        """True when write transactions run in the writer thread (a database file)."""
        return self._sync is not None

    async def run(self, work: Callable[[Connection], T], done: Callable[[], None] | None = None) -> T:
        """``work(connection)`` as one write transaction in the writer thread, once no other one of this
        process is open.  ``done`` is called in the event loop when the transaction is over, even if the
        caller was cancelled while it ran."""
        assert self._thread is not None, "no writer thread for an in-memory database: use begin()"
        async with self._lock:
            future = asyncio.get_running_loop().run_in_executor(self._thread, self._transaction, work)
            if done is not None:
                future.add_done_callback(lambda _future: done())
            return await asyncio.shield(future)

    def _transaction(self, work: Callable[[Connection], T]) -> T:
        assert self._sync is not None
        with self._sync.begin() as conn:
            return work(conn)

    async def dispose(self) -> None:
        """Close every connection and the writer thread."""
        await self._engine.dispose()
        if self._sync is not None and self._thread is not None:
            self._thread.submit(self._sync.dispose).result()
            self._thread.shutdown()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)


def _sqlite_file(url: str) -> str | None:
    """The file of a SQLite ``url`` (None for another database or ``:memory:``)."""
    if not url.startswith("sqlite") or "///" not in url:
        return None
    path = url.split("///", 1)[1].split("?", 1)[0]
    return path if path and path != ":memory:" else None


def engine_options(url: str, pool_size: int, max_overflow: int, pool_timeout: float) -> dict[str, Any]:
    """Pool settings for ``create_async_engine`` (see docs/deploy.md for how they were sized)."""
    if url.startswith("sqlite") and ":memory:" in url:
        return {}
    options: dict[str, Any] = {"pool_size": pool_size, "max_overflow": max_overflow, "pool_timeout": pool_timeout}
    if url.startswith("postgresql"):
        options["pool_pre_ping"] = True
    return options


_WRITTEN = "pyramid_games_written"  # a write connection's info key: the ids of the games it wrote
_GAME_COLUMNS = tuple(column.name for column in games.columns)
_SEAT_COLUMNS = tuple(column.name for column in seats.columns)


class Store:
    """The bot's database: open with ``await Store.open(url)``, close with ``await store.close()``."""

    shards: tuple[int, tuple[int, ...]] | None = None  # (shard count, this process's shard ids), or all

    def _owned(self) -> Any:
        """SQL: the game belongs to a guild of this process's shards."""
        return self.owned(games.c.guild_id)

    def owned(self, guild_column: Any) -> Any:
        """SQL: ``guild_column`` is a guild of this process's shards (Discord's rule; DMs go to shard 0)."""
        if self.shards is None:
            return true()
        count, ids = self.shards
        shard = func.coalesce(guild_column, 0).op(">>")(literal_column("22")).op("%")(literal_column(str(count)))
        return shard.in_(list(ids))

    def __init__(self, engine: AsyncEngine, sqlite_path: str | None = None) -> None:
        sqlite = engine.dialect.name == "sqlite"
        self.engine: AsyncEngine = SerialWriter(engine, sqlite_path) if sqlite else engine  # type: ignore[assignment]
        # a SQLite database has one process writing it, this one, so it may keep the games it read or
        # wrote; PostgreSQL is shared by the shard processes and is always read
        self.cache: GameCache | None = GameCache() if sqlite else None

    async def write(self, work: Callable[[Connection], T], done: Callable[[], None] | None = None) -> T:
        """Run ``work(connection)`` as one write transaction (on SQLite, whole in the writer thread).

        The games it writes (each ``_bump``) are dropped from the cache once the transaction is over,
        committed or not, even if the caller was cancelled meanwhile; then ``done`` is called.
        """
        touched: set[int] = set()

        def tracked(conn: Connection) -> T:
            conn.info[_WRITTEN] = touched
            try:
                return work(conn)
            finally:
                conn.info.pop(_WRITTEN, None)

        def over() -> None:
            if self.cache is not None and touched:
                self.cache.written(touched)
            if done is not None:
                done()

        if isinstance(self.engine, SerialWriter) and self.engine.threaded:
            return await self.engine.run(tracked, over)
        try:
            async with self.engine.begin() as conn:  # under SerialWriter's lock on an in-memory SQLite
                return await conn.run_sync(tracked)
        finally:
            over()

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def upsert(self, table: Table, key: Sequence[str], columns: Sequence[str]) -> Any:
        """One statement, executed with a row of ``key`` and ``columns``: insert the row into ``table``,
        or write its ``columns`` to the row with its ``key``.  Built once per shape."""
        return _upsert_statement(self.dialect, table, tuple(key), tuple(columns))

    def insert_missing(self, table: Table, key: Sequence[str]) -> Any:
        """One statement, executed with rows of ``table``: insert each row whose ``key`` is not there
        yet, leave the others as they are.  Built once per shape."""
        return _insert_missing_statement(self.dialect, table, tuple(key))

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrate: bool = True,
        pool_size: int = 10,
        max_overflow: int = 20,
        pool_timeout: float = 30.0,
    ) -> Store:
        """Connect (creating a SQLite file's folder if needed) and apply pending migrations.

        On PostgreSQL the migrations run under an advisory lock, so processes starting together on an
        empty database migrate it once, one after the other.
        """
        path = _sqlite_file(url)
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, **engine_options(url, pool_size, max_overflow, pool_timeout))
        if engine.dialect.name == "sqlite":
            _enable_sqlite_pragmas(engine.sync_engine)
        store = cls(engine, sqlite_path=_sqlite_file(url))
        if migrate:
            async with store.engine.begin() as conn:
                if engine.dialect.name == "postgresql":
                    await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                else:  # take SQLite's write lock before reading the version: other processes wait their turn
                    await conn.exec_driver_sql("BEGIN IMMEDIATE")
                version = await conn.run_sync(schema.migrate)
            log.info("database ready at schema version %s", version)
        return store

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()

    # ------------------------------------------------------------------ reading

    async def _load(self, where: Any, *, newest: bool = False) -> GameRow | None:
        """The first (or ``newest``) game matching ``where``, with its seats, in one query."""
        order = games.c.id.desc() if newest else games.c.id
        chosen = select(games.c.id).where(where).order_by(order).limit(1).scalar_subquery()
        async with self.engine.connect() as conn:
            found = await self._load_all(conn, games.c.id == chosen)
        return found[0] if found else None

    @staticmethod
    async def _load_all(conn: AsyncConnection, where: Any) -> list[GameRow]:
        """Every game matching ``where`` with its seats, in one query (a game without seats has none)."""
        query = select(games, seats).outerjoin(seats, seats.c.game_id == games.c.id).where(where)
        rows = (await conn.execute(query.order_by(games.c.id, seats.c.seat))).all()
        grouped: dict[int, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
        for row in rows:
            values = tuple(row)
            game_part = dict(zip(_GAME_COLUMNS, values[: len(_GAME_COLUMNS)], strict=True))
            seat_part = dict(zip(_SEAT_COLUMNS, values[len(_GAME_COLUMNS) :], strict=True))
            seat_list = grouped.setdefault(game_part["id"], (game_part, []))[1]
            if seat_part["game_id"] is not None:
                seat_list.append(seat_part)
        return [_game_row(game_part, seat_parts) for game_part, seat_parts in grouped.values()]

    async def _cached(self, kept: GameRow | None, where: Callable[[], Any], *, newest: bool = False) -> GameRow | None:
        """``kept`` (the cache's answer), else the game read by ``_load`` with the condition ``where()``
        builds (only on a miss) and kept for next time."""
        if kept is not None:
            return kept
        if self.cache is None:
            return await self._load(where(), newest=newest)
        generation = self.cache.generation
        found = await self._load(where(), newest=newest)
        if found is not None:
            self.cache.keep(found, generation)
        return found

    async def game(self, game_id: int) -> GameRow | None:
        """The game with ``game_id``."""
        kept = self.cache.game(game_id) if self.cache is not None else None
        return await self._cached(kept, lambda: games.c.id == game_id)

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The open or running game in ``channel_id``."""
        kept = self.cache.live_game(channel_id) if self.cache is not None else None
        return await self._cached(
            kept, lambda: and_(games.c.channel_id == channel_id, games.c.status.in_(ACTIVE_STATUSES))
        )

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The live game in ``channel_id``, else the most recent finished one."""
        kept = self.cache.live_game(channel_id) if self.cache is not None else None  # a live game is the newest
        return await self._cached(kept, lambda: games.c.channel_id == channel_id, newest=True)

    async def last_started_game(self, channel_id: int) -> GameRow | None:
        """The most recent game of ``channel_id`` that started (running, finished or aborted once begun)."""
        began = or_(games.c.status.in_(("active", "finished")), and_(games.c.status == "aborted", games.c.ply > 0))
        return await self._load(and_(games.c.channel_id == channel_id, began), newest=True)

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The move log of ``game_id`` in ply order."""
        async with self.engine.connect() as conn:
            rows = (
                (await conn.execute(select(moves).where(moves.c.game_id == game_id).order_by(moves.c.ply)))
                .mappings()
                .all()
            )
        return [
            MoveRow(r["ply"], r["seat"], r["notation"], r["description"], r["kind"], aware(r["created_at"]))
            for r in rows
        ]

    async def games_of_user(self, user_id: int, guild_id: int | None = None, live_only: bool = True) -> list[GameRow]:
        """Every game ``user_id`` still sits in (in ``guild_id`` when given; not one they left), read in one
        query."""
        mine = games.c.id.in_(select(seats.c.game_id).where(seats.c.user_id == user_id, seats.c.removed == 0))
        conditions: list[ColumnElement[bool]] = [mine]
        if guild_id is not None:
            conditions.append(games.c.guild_id == guild_id)
        if live_only:
            conditions.append(games.c.status.in_(ACTIVE_STATUSES))
        async with self.engine.connect() as conn:
            return await self._load_all(conn, and_(*conditions))

    async def live_games_under(self, channel_id: int) -> list[GameRow]:
        """The open or running games in ``channel_id`` or in a thread of it."""
        here = or_(games.c.channel_id == channel_id, games.c.parent_channel_id == channel_id)
        async with self.engine.connect() as conn:
            return await self._load_all(conn, and_(here, games.c.status.in_(ACTIVE_STATUSES)))

    async def guilds_with_live_games(self) -> set[int]:
        """The servers (of this process's shards) with an open or running game."""
        query = select(games.c.guild_id).where(games.c.status.in_(ACTIVE_STATUSES), self._owned()).distinct()
        async with self.engine.connect() as conn:
            return {guild for guild in (await conn.execute(query)).scalars() if guild is not None}

    async def live_games_of_guild(self, guild_id: int) -> list[GameRow]:
        """The open or running games of the server ``guild_id``."""
        async with self.engine.connect() as conn:
            return await self._load_all(conn, and_(games.c.guild_id == guild_id, games.c.status.in_(ACTIVE_STATUSES)))

    async def games_due(self, moment: datetime) -> list[int]:
        """Ids of running games whose next reminder or deadline is at or before ``moment`` (of this process's
        guilds when the bot runs as several shard processes)."""
        async with self.engine.connect() as conn:
            return list(
                (
                    await conn.execute(
                        select(games.c.id)
                        .where(
                            games.c.status == "active",
                            games.c.wake_at.is_not(None),
                            games.c.wake_at <= moment,
                            self._owned(),
                        )
                        .order_by(games.c.wake_at)
                    )
                )
                .scalars()
                .all()
            )

    async def count_rolls(self, game_id: int) -> int:
        """How many dice rolls the game's log holds (the index of the next roll)."""
        async with self.engine.connect() as conn:
            return int(
                (
                    await conn.execute(
                        select(func.count())
                        .select_from(moves)
                        .where(moves.c.game_id == game_id, moves.c.kind == "roll")
                    )
                ).scalar()
                or 0
            )

    async def count_games(self) -> int:
        """How many games the database holds (any status)."""
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(games))).scalar() or 0)

    # ------------------------------------------------------------------ writing

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        seed: str,
        creator_id: int,
        creator_name: str,
        max_players: int,
        now: datetime,
        clock_days: int | None = None,
        bank_days: int | None = None,
        thread_id: int | None = None,
        parent_channel_id: int | None = None,
        tournament_id: int | None = None,
        rated: bool = True,
        seat_creator: bool = True,
        bots: Sequence[SeatRow] = (),
    ) -> int:
        """Open a game in ``channel_id`` with its creator in seat 0 and ``bots`` after them, in the same
        write; raises ``ChannelBusy``."""
        try:

            def work(conn: Connection) -> int:
                result = conn.execute(
                    insert(games).values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        game=game,
                        options=options,
                        seed=seed,
                        status="open",
                        version=0,
                        ply=0,
                        state=None,
                        outcome=None,
                        creator_id=creator_id,
                        max_players=max_players,
                        created_at=now,
                        updated_at=now,
                        clock_days=clock_days,
                        bank_days=bank_days,
                        thread_id=thread_id,
                        parent_channel_id=parent_channel_id,
                        tournament_id=tournament_id,
                        rated=int(rated),
                        reminders_sent=0,
                    )
                )
                game_id = int(primary_key(result))
                rows = [_seat_values(game_id, 0, creator_id, creator_name)] if seat_creator else []
                rows += [
                    _seat_values(game_id, seat, row.user_id, row.display_name, row.ai_level)
                    for seat, row in enumerate(bots, start=len(rows))
                ]
                if rows:
                    conn.execute(insert(seats), rows)
                return game_id

            return await self.write(work)
        except IntegrityError:
            raise ChannelBusy(
                "This channel already has a game; finish or abort it first, or use another channel."
            ) from None

    @staticmethod
    def _bump(conn: Connection, game: GameRow, now: datetime, **values: Any) -> None:
        """Write ``values`` to the game under the version check (raises ``StaleVersion``)."""
        conn.info.get(_WRITTEN, set()).add(game.id)  # dropped from the cache when the write is over
        params = {"game_id_": game.id, "version_": game.version, "version": game.version + 1, "updated_at": now}
        result = conn.execute(_bump_statement(tuple(sorted(values))), {**params, **values})
        if result.rowcount != 1:
            raise StaleVersion("The game changed at the same moment; look at the board and try again.")

    @staticmethod
    def _record(conn: Connection, game: GameRow, ply: int, now: datetime, events: Sequence[NewDelivery]) -> list[int]:
        """Record ``events`` to announce, with their delivery rows; returns their ids."""
        ids = []
        for item in events:
            row = {
                "game_id": game.id,
                "channel_id": game.channel_id,
                "ply": ply,
                "kind": item.kind,
                "origin": item.origin,
                "user_id": item.user_id,
                "payload": item.payload,
                "token": item.token,
                "created_at": now,
            }
            result = conn.execute(_INSERT_DELIVERY, row)
            ids.append(int(primary_key(result)))
        return ids

    async def channels_with_bots(self) -> list[int]:
        """The channels of running games with a computer player at the table."""
        query = (
            select(games.c.channel_id)
            .join(seats, seats.c.game_id == games.c.id)
            .where(games.c.status == "active", seats.c.ai_level.is_not(None))
            .distinct()
        )
        async with self.engine.connect() as conn:
            return [row.channel_id for row in (await conn.execute(query)).all()]

    async def set_seats(self, game: GameRow, new_seats: Sequence[SeatRow], now: datetime, **values: Any) -> None:
        """Replace the lobby's seats (join, leave, a bot added) in seat order, changing ``values`` of the game
        in the same write (closing it, when its last person left); only user, name and level are kept."""

        def work(conn: Connection) -> None:
            self._bump(conn, game, now, **values)
            conn.execute(seats.delete().where(seats.c.game_id == game.id))
            if new_seats:
                conn.execute(
                    insert(seats),
                    [
                        _seat_values(game.id, i, row.user_id, row.display_name, row.ai_level)
                        for i, row in enumerate(new_seats)
                    ],
                )

        await self.write(work)

    async def update_game(
        self, game: GameRow, now: datetime, *, events: Sequence[NewDelivery] = (), **values: Any
    ) -> list[int]:
        """Change columns of ``game`` under the version check, recording ``events``; returns their ids."""

        def work(conn: Connection) -> list[int]:
            self._bump(conn, game, now, **values)
            return self._record(conn, game, values.get("ply", game.ply), now, events)

        return await self.write(work)

    async def update_seat(self, game: GameRow, seat: int, now: datetime, **values: Any) -> None:
        """Change a seat's columns (missed turns, bank, removal) under the game's version check."""

        def work(conn: Connection) -> None:
            self._bump(conn, game, now)
            conn.execute(update(seats).where(seats.c.game_id == game.id, seats.c.seat == seat).values(**values))

        await self.write(work)

    async def append_moves(
        self,
        game: GameRow,
        new: Sequence[NewMove],
        now: datetime,
        seat_updates: dict[int, dict[str, Any]] | None = None,
        events: Sequence[NewDelivery] = (),
    ) -> tuple[GameRow, list[int]]:
        """Append moves, store the resulting state and record ``events``, all in ONE transaction.

        Written under the version check.  Returns the game as it now stands in the database (no second
        read needed) and the ids of the recorded events.
        """
        last = new[-1]

        def work(conn: Connection) -> list[int]:
            self._bump(
                conn,
                game,
                now,
                ply=game.ply + len(new),
                state=last.state,
                status=last.status,
                outcome=last.outcome,
                **last.extra_updates,
            )
            conn.execute(
                insert(moves),
                [
                    {
                        "game_id": game.id,
                        "ply": game.ply + i,
                        "seat": m.seat,
                        "notation": m.notation,
                        "description": m.description,
                        "kind": m.kind,
                        "created_at": now,
                    }
                    for i, m in enumerate(new)
                ],
            )
            for seat, values in (seat_updates or {}).items():
                conn.execute(update(seats).where(seats.c.game_id == game.id, seats.c.seat == seat).values(**values))
            return self._record(conn, game, game.ply + len(new), now, events)

        ids = await self.write(work)
        written = game.after_write(
            now,
            {
                "ply": game.ply + len(new),
                "state": last.state,
                "status": last.status,
                "outcome": last.outcome,
                **last.extra_updates,
            },
            seat_updates or {},
        )
        if self.cache is not None:
            self.cache.keep(written)
        return written, ids

    async def truncate_moves(
        self,
        game: GameRow,
        keep: int,
        state: dict[str, Any],
        now: datetime,
        *,
        events: Sequence[NewDelivery] = (),
        **values: Any,
    ) -> list[int]:
        """Take back every move from ply ``keep`` on (undo by consent), store the rebuilt state, clear the
        undo request and record ``events``, in one transaction.  Events of the moves taken back that were
        never announced (the bot stopped before posting them) are settled with them: never posted."""

        def work(conn: Connection) -> list[int]:
            self._bump(conn, game, now, ply=keep, state=state, **values)
            conn.execute(moves.delete().where(moves.c.game_id == game.id, moves.c.ply >= keep))
            conn.execute(  # a computer player holds its seat for every move made from here on
                update(seats).where(seats.c.game_id == game.id, seats.c.taken_over_at > keep).values(taken_over_at=keep)
            )
            conn.execute(undo_requests.delete().where(undo_requests.c.game_id == game.id))
            conn.execute(
                update(deliveries)
                .where(deliveries.c.game_id == game.id, deliveries.c.ply > keep, deliveries.c.delivered_at.is_(None))
                .values(delivered_at=now)
            )
            return self._record(conn, game, keep, now, events)

        return await self.write(work)

    # ------------------------------------------------------------------ players and undo

    async def player_prefs(self, guild_id: int | None, user_id: int) -> dict[str, Any]:
        """A player's notification and vacation settings (defaults when never set)."""
        async with self.engine.connect() as conn:
            row = (
                (
                    await conn.execute(
                        select(players).where(players.c.guild_id == (guild_id or 0), players.c.user_id == user_id)
                    )
                )
                .mappings()
                .first()
            )
        if row is None:
            return {"notify": "dm", "vacation_until": None, "vacation_year": None, "vacation_used_days": 0}
        data = dict(row)
        data["vacation_until"] = aware(data["vacation_until"])
        return data

    async def set_player_prefs(self, guild_id: int | None, user_id: int, **values: Any) -> None:
        """Create or change a player's settings in one statement (an upsert)."""
        row = {"guild_id": guild_id or 0, "user_id": user_id, **values}
        statement = self.upsert(players, ["guild_id", "user_id"], sorted(values))

        def work(conn: Connection) -> None:
            conn.execute(statement, row)

        await self.write(work)

    async def grant_vacation(
        self,
        guild_id: int | None,
        user_id: int,
        read: dict[str, Any],
        prefs: dict[str, Any],
        pushes: Sequence[tuple[GameRow, dict[str, Any]]],
        now: datetime,
    ) -> None:
        """Record a player's vacation (``prefs``) and push their games' clocks (``pushes``: each game with
        its new columns) in ONE transaction, under every game's version check and a check that the
        player's vacation is still as ``read`` (``player_prefs``): the days are spent only with the
        deadlines they pay for, and two vacations asked at once are not both counted from the same days.
        Raises ``StaleVersion`` when either changed meanwhile."""
        key = and_(players.c.guild_id == (guild_id or 0), players.c.user_id == user_id)
        # every vacation spends at least one day of its last year, so the year and the days spent in it
        # change with each one granted: together they are the player's vacation version
        unchanged = and_(
            players.c.vacation_year.is_not_distinct_from(read["vacation_year"]),
            players.c.vacation_used_days == int(read["vacation_used_days"] or 0),
        )

        def work(conn: Connection) -> None:
            if conn.execute(update(players).where(key, unchanged).values(**prefs)).rowcount != 1:
                if conn.execute(select(players.c.user_id).where(key)).first() is not None:
                    raise StaleVersion("Your vacation changed at the same moment.")
                try:
                    conn.execute(insert(players).values(guild_id=guild_id or 0, user_id=user_id, **prefs))
                except IntegrityError:  # another request created the row first
                    raise StaleVersion("Your vacation changed at the same moment.") from None
            for game, values in pushes:
                self._bump(conn, game, now, **values)

        await self.write(work)

    async def undo_request(self, game_id: int) -> dict[str, Any] | None:
        """The pending undo request of a game, if any."""
        return await self._proposal(undo_requests, game_id)

    async def set_undo_request(self, game_id: int, values: dict[str, Any] | None) -> None:
        """Store (or clear, with None) the game's pending undo request."""
        await self._set_proposal(undo_requests, game_id, values)

    async def seat_request(self, game_id: int) -> dict[str, Any] | None:
        """The pending proposal to hand a seat of a game to a computer player, if any."""
        return await self._proposal(seat_requests, game_id)

    async def set_seat_request(self, game_id: int, values: dict[str, Any] | None) -> None:
        """Store (or clear, with None) the game's pending proposal to hand a seat to a computer player."""
        await self._set_proposal(seat_requests, game_id, values)

    async def _proposal(self, table: Table, game_id: int) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(table).where(table.c.game_id == game_id))).mappings().first()
        return dict(row) if row else None

    async def _set_proposal(self, table: Table, game_id: int, values: dict[str, Any] | None) -> None:
        def work(conn: Connection) -> None:
            conn.execute(table.delete().where(table.c.game_id == game_id))
            if values is not None:
                fields = {k: v for k, v in values.items() if k != "game_id"}
                conn.execute(insert(table).values(game_id=game_id, **fields))

        await self.write(work)

    async def hand_seat_to_bot(
        self,
        game: GameRow,
        seat: SeatRow,
        now: datetime,
        *,
        events: Sequence[NewDelivery] = (),
        **values: Any,
    ) -> list[int]:
        """Give ``seat`` (its new user id, name and level) to a computer player, change the game's
        columns ``values`` and clear the proposal, in one transaction under the version check."""

        def work(conn: Connection) -> list[int]:
            self._bump(conn, game, now, **values)
            conn.execute(
                update(seats)
                .where(seats.c.game_id == game.id, seats.c.seat == seat.seat)
                .values(
                    user_id=seat.user_id,
                    display_name=seat.display_name[:100],
                    ai_level=seat.ai_level,
                    stands_in_for=seat.stands_in_for,
                    stood_down_name=None if seat.stood_down_name is None else seat.stood_down_name[:100],
                    taken_over_at=seat.taken_over_at,
                    missed_turns=0,
                    bank_seconds=None,
                )
            )
            conn.execute(seat_requests.delete().where(seat_requests.c.game_id == game.id))
            return self._record(conn, game, game.ply, now, events)

        return await self.write(work)

    # ------------------------------------------------------------------ deliveries

    async def claim_deliveries(
        self, now: datetime, *, grace_before: datetime, lease_before: datetime, limit: int = 50
    ) -> list[DeliveryRow]:
        """Claim events still to announce: the scheduler's at once, an interaction's once its own reply is
        overdue (created before ``grace_before``); a claim older than ``lease_before`` is taken over."""
        pending = and_(
            deliveries.c.delivered_at.is_(None),
            (deliveries.c.claimed_at.is_(None)) | (deliveries.c.claimed_at < lease_before),
            (deliveries.c.origin == "scheduler") | (deliveries.c.created_at < grace_before),
        )
        mine = deliveries.c.game_id.in_(select(games.c.id).where(self._owned()))
        query = select(deliveries).where(pending, mine).order_by(deliveries.c.id).limit(limit)
        if self.dialect == "postgresql":  # shard processes claiming at once each take different rows
            query = query.with_for_update(skip_locked=True)

        def work(conn: Connection) -> list[DeliveryRow]:
            claimed = []
            for row in conn.execute(query).mappings().all():
                result = conn.execute(
                    update(deliveries).where(deliveries.c.id == row["id"], pending).values(claimed_at=now)
                )
                if result.rowcount == 1:
                    claimed.append(_delivery_row(row))
            return claimed

        return await self.write(work)

    async def newest_report(self, game_id: int) -> int | None:
        """The id of the newest event of kind ``report`` recorded for ``game_id`` (delivered or not)."""
        query = select(func.max(deliveries.c.id)).where(deliveries.c.game_id == game_id, deliveries.c.kind == "report")
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).scalar()

    async def mark_delivered(self, delivery_ids: Sequence[int], now: datetime) -> None:
        """Record that these events were announced."""
        if not delivery_ids:
            return

        def work(conn: Connection) -> None:
            self.mark_delivered_in(conn, delivery_ids, now)

        await self.write(work)

    @staticmethod
    def mark_delivered_in(conn: Connection, delivery_ids: Sequence[int], now: datetime) -> None:
        """``mark_delivered`` inside the caller's transaction ``conn`` (one write with what went with it)."""
        if delivery_ids:
            conn.execute(_MARK_DELIVERED, {"ids": list(delivery_ids), "delivered_at": now})

    async def undelivered(self) -> list[DeliveryRow]:
        """Every event not yet announced, oldest first."""
        async with self.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(deliveries).where(deliveries.c.delivered_at.is_(None)).order_by(deliveries.c.id)
                    )
                )
                .mappings()
                .all()
            )
        return [_delivery_row(row) for row in rows]


# statements of every move, built once (SQLAlchemy then skips building and keying them per call)
_INSERT_DELIVERY = insert(deliveries)
_MARK_DELIVERED = (
    update(deliveries)
    .where(deliveries.c.id.in_(bindparam("ids", expanding=True)))
    .values(delivered_at=bindparam("delivered_at"))
)


def _dialect_insert(dialect: str, table: Table) -> Any:
    """An insert into ``table`` that knows ``ON CONFLICT`` (both backends spell it alike)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    return insert(table)


@lru_cache(maxsize=64)
def _upsert_statement(dialect: str, table: Table, key: tuple[str, ...], columns: tuple[str, ...]) -> Any:
    """Insert a row into ``table``, or write its ``columns`` to the row with its ``key``."""
    inserting = _dialect_insert(dialect, table)
    return inserting.on_conflict_do_update(
        index_elements=list(key), set_={column: inserting.excluded[column] for column in columns}
    )


@lru_cache(maxsize=64)
def _insert_missing_statement(dialect: str, table: Table, key: tuple[str, ...]) -> Any:
    """Insert a row into ``table`` unless a row with its ``key`` is there already."""
    return _dialect_insert(dialect, table).on_conflict_do_nothing(index_elements=list(key))


@lru_cache(maxsize=64)
def _bump_statement(columns: tuple[str, ...]) -> Any:
    """The versioned update of a game writing ``columns`` (its parameters are named after them)."""
    return (
        update(games)
        .where(games.c.id == bindparam("game_id_"), games.c.version == bindparam("version_"))
        .values({name: bindparam(name) for name in ("version", "updated_at", *columns)})
    )


def _delivery_row(row: Any) -> DeliveryRow:
    return DeliveryRow(
        id=row["id"],
        game_id=row["game_id"],
        channel_id=row["channel_id"],
        ply=row["ply"],
        kind=row["kind"],
        origin=row["origin"],
        user_id=row["user_id"],
        payload=dict(row["payload"] or {}),
        token=row["token"],
        created_at=aware(row["created_at"]),
    )


def _game_row(row: Any, seat_rows: Sequence[Any]) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        options=dict(row["options"] or {}),
        seed=row["seed"],
        status=row["status"],
        version=row["version"],
        ply=row["ply"],
        state=row["state"],
        outcome=row["outcome"],
        creator_id=row["creator_id"],
        max_players=row["max_players"],
        created_at=aware(row["created_at"]),
        updated_at=aware(row["updated_at"]),
        seats=tuple(
            SeatRow(
                s["seat"],
                s["user_id"],
                s["display_name"],
                s["bank_seconds"],
                s["missed_turns"] or 0,
                bool(s["removed"]),
                s["ai_level"],
                s["stands_in_for"],
                s["stood_down_name"],
                s["taken_over_at"],
            )
            for s in seat_rows
        ),
        clock_days=row["clock_days"],
        bank_days=row["bank_days"],
        turn_seat=row["turn_seat"],
        turn_started_at=aware(row["turn_started_at"]),
        deadline=aware(row["deadline"]),
        reminders_sent=row["reminders_sent"] or 0,
        wake_at=aware(row["wake_at"]),
        thread_id=row["thread_id"],
        parent_channel_id=row["parent_channel_id"],
        tournament_id=row["tournament_id"],
        rated=bool(row["rated"]),
    )
