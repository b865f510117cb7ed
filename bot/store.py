"""Async storage over SQLAlchemy Core: games, seats and the append-only move log.

Every write that changes a game bumps ``games.version`` with ``WHERE version = :expected``, inside
one transaction with the rows it adds, so a lost race or a crash never leaves half a move.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import and_, event, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot import schema
from bot.schema import ACTIVE_STATUSES, games, moves, players, seats, undo_requests

log = logging.getLogger(__name__)


class StoreError(Exception):
    """A storage refusal with a sentence fit for a player."""


class ChannelBusy(StoreError):
    """The channel already has a game that is open or running."""


class StaleVersion(StoreError):
    """The game changed between reading and writing: the write was not applied."""


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
        changed_seats = tuple(
            replace(row, **{k: bool(v) if k == "removed" else v for k, v in seat_updates.get(row.seat, {}).items()})
            for row in self.seats
        )
        return replace(self, version=self.version + 1, updated_at=now, seats=changed_seats, **values)

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` holds, if any (removed seats included)."""
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

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


def _enable_sqlite_pragmas(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()


class Store:
    """The bot's database: open with ``await Store.open(url)``, close with ``await store.close()``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        """Connect (creating a SQLite file's folder if needed) and apply pending migrations."""
        if url.startswith("sqlite"):
            path = url.split("///", 1)[1] if "///" in url else ""
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url)
        if engine.dialect.name == "sqlite":
            _enable_sqlite_pragmas(engine)
        store = cls(engine)
        if migrate:
            async with engine.begin() as conn:
                version = await conn.run_sync(schema.migrate)
            log.info("database ready at schema version %s", version)
        return store

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()

    # ------------------------------------------------------------------ reading

    async def _load(self, conn: AsyncConnection, where: Any) -> GameRow | None:
        row = (await conn.execute(select(games).where(where))).mappings().first()
        if row is None:
            return None
        seat_rows = (
            (await conn.execute(select(seats).where(seats.c.game_id == row["id"]).order_by(seats.c.seat)))
            .mappings()
            .all()
        )
        return _game_row(row, seat_rows)

    async def game(self, game_id: int) -> GameRow | None:
        """The game with ``game_id``."""
        async with self.engine.connect() as conn:
            return await self._load(conn, games.c.id == game_id)

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The open or running game in ``channel_id``."""
        async with self.engine.connect() as conn:
            return await self._load(conn, and_(games.c.channel_id == channel_id, games.c.status.in_(ACTIVE_STATUSES)))

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The live game in ``channel_id``, else the most recent finished one."""
        async with self.engine.connect() as conn:
            game_id = (
                await conn.execute(
                    select(games.c.id).where(games.c.channel_id == channel_id).order_by(games.c.id.desc()).limit(1)
                )
            ).scalar()
            if game_id is None:
                return None
            return await self._load(conn, games.c.id == game_id)

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
        """Every game ``user_id`` sits in (in ``guild_id`` when given)."""
        async with self.engine.connect() as conn:
            query = select(games.c.id).join(seats, seats.c.game_id == games.c.id).where(seats.c.user_id == user_id)
            if guild_id is not None:
                query = query.where(games.c.guild_id == guild_id)
            if live_only:
                query = query.where(games.c.status.in_(ACTIVE_STATUSES))
            ids = (await conn.execute(query.order_by(games.c.id))).scalars().all()
            out = []
            for game_id in ids:
                loaded = await self._load(conn, games.c.id == game_id)
                if loaded is not None:
                    out.append(loaded)
            return out

    async def games_due(self, moment: datetime) -> list[int]:
        """Ids of running games whose next reminder or deadline is at or before ``moment``."""
        async with self.engine.connect() as conn:
            return list(
                (
                    await conn.execute(
                        select(games.c.id)
                        .where(games.c.status == "active", games.c.wake_at.is_not(None), games.c.wake_at <= moment)
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
    ) -> int:
        """Open a game in ``channel_id`` with its creator in seat 0; raises ``ChannelBusy``."""
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(
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
                game_id = int(result.inserted_primary_key[0])
                if seat_creator:
                    await conn.execute(
                        insert(seats).values(
                            game_id=game_id,
                            seat=0,
                            user_id=creator_id,
                            display_name=creator_name[:100],
                            missed_turns=0,
                            removed=0,
                        )
                    )
                return game_id
        except IntegrityError:
            raise ChannelBusy(
                "This channel already has a game; finish or abort it first, or use another channel."
            ) from None

    async def _bump(self, conn: AsyncConnection, game: GameRow, now: datetime, **values: Any) -> None:
        result = await conn.execute(
            update(games)
            .where(games.c.id == game.id, games.c.version == game.version)
            .values(version=game.version + 1, updated_at=now, **values)
        )
        if result.rowcount != 1:
            raise StaleVersion("The game changed at the same moment; look at the board and try again.")

    async def set_seats(self, game: GameRow, new_seats: Sequence[tuple[int, str]], now: datetime) -> None:
        """Replace the lobby's seats (join/leave) in seat order."""
        async with self.engine.begin() as conn:
            await self._bump(conn, game, now)
            await conn.execute(seats.delete().where(seats.c.game_id == game.id))
            if new_seats:
                await conn.execute(
                    insert(seats),
                    [
                        {
                            "game_id": game.id,
                            "seat": i,
                            "user_id": uid,
                            "display_name": name[:100],
                            "missed_turns": 0,
                            "removed": 0,
                        }
                        for i, (uid, name) in enumerate(new_seats)
                    ],
                )

    async def update_game(self, game: GameRow, now: datetime, **values: Any) -> None:
        """Change columns of ``game`` under the version check (status, state, clock fields...)."""
        async with self.engine.begin() as conn:
            await self._bump(conn, game, now, **values)

    async def update_seat(self, game: GameRow, seat: int, now: datetime, **values: Any) -> None:
        """Change a seat's columns (missed turns, bank, removal) under the game's version check."""
        async with self.engine.begin() as conn:
            await self._bump(conn, game, now)
            await conn.execute(update(seats).where(seats.c.game_id == game.id, seats.c.seat == seat).values(**values))

    async def append_moves(
        self,
        game: GameRow,
        new: Sequence[NewMove],
        now: datetime,
        seat_updates: dict[int, dict[str, Any]] | None = None,
    ) -> GameRow:
        """Append moves and store the resulting state, all in ONE transaction under the version check.

        Returns the game as it now stands in the database (no second read needed).
        """
        if not new:
            return game
        last = new[-1]
        async with self.engine.begin() as conn:
            await self._bump(
                conn,
                game,
                now,
                ply=game.ply + len(new),
                state=last.state,
                status=last.status,
                outcome=last.outcome,
                **last.extra_updates,
            )
            await conn.execute(
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
                await conn.execute(
                    update(seats).where(seats.c.game_id == game.id, seats.c.seat == seat).values(**values)
                )
        return game.after_write(
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

    async def truncate_moves(
        self, game: GameRow, keep: int, state: dict[str, Any], now: datetime, **values: Any
    ) -> None:
        """Take back every move from ply ``keep`` on (undo by consent) and store the rebuilt state."""
        async with self.engine.begin() as conn:
            await self._bump(conn, game, now, ply=keep, state=state, **values)
            await conn.execute(moves.delete().where(moves.c.game_id == game.id, moves.c.ply >= keep))

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
        """Create or change a player's settings."""
        key = {"guild_id": guild_id or 0, "user_id": user_id}
        async with self.engine.begin() as conn:
            exists = (
                await conn.execute(
                    select(players.c.user_id).where(players.c.guild_id == key["guild_id"], players.c.user_id == user_id)
                )
            ).first()
            if exists:
                await conn.execute(
                    update(players)
                    .where(players.c.guild_id == key["guild_id"], players.c.user_id == user_id)
                    .values(**values)
                )
            else:
                await conn.execute(insert(players).values(**key, **values))

    async def undo_request(self, game_id: int) -> dict[str, Any] | None:
        """The pending undo request of a game, if any."""
        async with self.engine.connect() as conn:
            row = (
                (await conn.execute(select(undo_requests).where(undo_requests.c.game_id == game_id))).mappings().first()
            )
        return dict(row) if row else None

    async def set_undo_request(self, game_id: int, values: dict[str, Any] | None) -> None:
        """Store (or clear, with None) the game's pending undo request."""
        async with self.engine.begin() as conn:
            await conn.execute(undo_requests.delete().where(undo_requests.c.game_id == game_id))
            if values is not None:
                fields = {k: v for k, v in values.items() if k != "game_id"}
                await conn.execute(insert(undo_requests).values(game_id=game_id, **fields))


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
