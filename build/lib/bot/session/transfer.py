"""Copy a whole database into another (SQLite into PostgreSQL, when a community outgrows one file).

``copy_database`` migrates both ends to the latest schema, refuses a target that already holds games,
copies every table in foreign-key order in batches, moves PostgreSQL's id sequences past the copied
ids, then verifies: the row count of every table, and a replay of every started game from its move
log that must reproduce the stored state exactly.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select, text

from bot.session import schema
from bot.session.service import GameService, rules_for
from bot.session.store import Store, _game_row

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


def _tables() -> list[Any]:
    return [t for t in schema.metadata.sorted_tables if t.name != "schema_version"]


async def copy_database(source_url: str, target_url: str) -> TransferReport:
    """Copy ``source_url`` into the empty database at ``target_url`` and verify the copy."""
    source = await Store.open(source_url)
    target = await Store.open(target_url)
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
