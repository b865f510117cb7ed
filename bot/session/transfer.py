"""Copy a whole database into another (SQLite into PostgreSQL, when a community outgrows one file).

``copy_database`` refuses a source that is not a bot's database (without writing to it), migrates
both ends to the latest schema, refuses a target that already holds games,
copies every table in foreign-key order in batches, moves PostgreSQL's id sequences past the copied
ids, then verifies: the row count of every table, and a replay of every started game from its move
log that must reproduce the stored state exactly.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import create_async_engine

from bot.session import schema
from bot.session.service import GameService, rules_for
from bot.session.store import Store, _game_row
from bot.settings import DatabaseUnavailable, database_problem

log = logging.getLogger(__name__)

BATCH = 1000


@dataclass
class TransferReport:
    """What was copied and what the verification found."""

    counts: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every count matched and every game replayed to its stored state."""
        return not self.problems


class NotABotDatabase(Exception):
    """The source has no ``schema_version`` table: it is not a bot's database, and nothing was written to it."""


async def is_bot_database(url: str) -> bool:
    """True when the database at ``url`` has the bot's ``schema_version`` table.

    A bare connection, without the bot's SQLite settings (WAL would rewrite the file) and no migration:
    a file that is not the bot's is only read.
    """
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return bool(await conn.run_sync(lambda sync: inspect(sync).has_table(schema.schema_version.name)))
    except (OSError, SQLAlchemyError) as error:
        raise DatabaseUnavailable(database_problem(url, error)) from error
    finally:
        await engine.dispose()


def _tables() -> list[Any]:
    return [t for t in schema.metadata.sorted_tables if t.name != "schema_version"]


async def copy_database(source_url: str, target_url: str) -> TransferReport:
    """Copy ``source_url`` into the empty database at ``target_url`` and verify the copy; raises
    ``NotABotDatabase`` for a source that is not a bot's database."""
    if not await is_bot_database(source_url):
        raise NotABotDatabase(source_url)
    source = await _open(source_url)
    try:
        target = await _open(target_url)
    except BaseException:
        await source.close()
        raise
    report = TransferReport()
    try:
        if await target.count_games():
            report.problems.append("the target database already holds games: copy only into an empty one")
            return report
        for table in _tables():
            copied = 0
            async with source.engine.connect() as reading:
                result = await reading.stream(select(table))
                async for chunk in result.mappings().partitions(BATCH):
                    async with target.engine.begin() as writing:
                        await writing.execute(table.insert(), [dict(row) for row in chunk])
                    copied += len(chunk)
            report.counts[table.name] = copied
        if target.dialect == "postgresql":
            await _advance_sequences(target)
        await _verify_counts(source, target, report)
        await _verify_replays(target, report)
    finally:
        await source.close()
        await target.close()
    return report


async def _open(url: str) -> Store:
    """The migrated store at ``url``; ``DatabaseUnavailable`` (one line naming it) when it cannot be opened."""
    try:
        return await Store.open(url)
    except (OSError, SQLAlchemyError) as error:
        raise DatabaseUnavailable(database_problem(url, error)) from error


async def _advance_sequences(store: Store) -> None:
    """Move each serial id's sequence past the largest copied id."""
    async with store.engine.begin() as conn:
        for table in _tables():
            if "id" not in table.c or not table.c.id.primary_key:
                continue
            await conn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false)"
                )
            )


async def _verify_counts(source: Store, target: Store, report: TransferReport) -> None:
    for table in _tables():
        counts = []
        for store in (source, target):
            async with store.engine.connect() as conn:
                counts.append(int((await conn.execute(select(func.count()).select_from(table))).scalar() or 0))
        if counts[0] != counts[1]:
            report.problems.append(f"{table.name}: {counts[0]} rows in the source, {counts[1]} in the copy")


async def _verify_replays(target: Store, report: TransferReport) -> None:
    service = GameService(target, render=False)
    async with target.engine.connect() as conn:
        rows = (await conn.execute(select(schema.games).where(schema.games.c.state.is_not(None)))).mappings().all()
        seat_rows = (await conn.execute(select(schema.seats).order_by(schema.seats.c.seat))).mappings().all()
    seats_of: dict[int, list[Any]] = {}
    for seat in seat_rows:
        seats_of.setdefault(seat["game_id"], []).append(seat)
    for row in rows:
        game = _game_row(row, seats_of.get(row["id"], []))
        try:
            rebuilt = rules_for(game.game).to_json(await service.rebuild(game))
        except Exception as error:  # a log that no longer replays is reported, not fatal
            report.problems.append(f"game {game.id}: the move log does not replay ({error})")
            continue
        if _plain(rebuilt) != _plain(game.state):
            report.problems.append(f"game {game.id}: the replayed state differs from the stored one")
        report.games_replayed += 1


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists), for comparing states."""
    return json.loads(json.dumps(value, sort_keys=True))
