"""Where each game's living message is: its lobby before the start, then the board of the turn under way.

The Discord layer edits that one message as a turn goes on and posts a new one only when the turn
passes to another player; this module remembers which message that is, across restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, select

from bot.session.game_cache import Kept
from bot.session.schema import table_messages
from bot.session.store import Store

LIVING_COLUMNS = ("channel_id", "message_id", "kind", "lines", "updated_at")  # written by every ``put``


@dataclass(frozen=True)
class TableMessage:
    """The living message of one game."""

    game_id: int
    channel_id: int
    message_id: int
    kind: str  # lobby | board
    lines: tuple[str, ...] = ()


class TableMessages:
    """Reads and writes the living message of each game.

    When the store keeps games (it is its database's one writer) the living messages are kept too, the
    same way: a write drops its game's entry when it is over, and a read fills it only if no write
    ended meanwhile.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self._kept: Kept[int, TableMessage | None] | None = Kept() if store.cache is not None else None

    async def get(self, game_id: int) -> TableMessage | None:
        """The living message of ``game_id``, if it has one."""
        if self._kept is None:
            return await self._read(game_id)
        if game_id in self._kept:
            return self._kept.get(game_id)
        generation = self._kept.generation
        found = await self._read(game_id)
        self._kept.fill(game_id, found, generation)
        return found

    def _written(self, game_ids: Sequence[int]) -> None:
        if self._kept is not None:
            self._kept.written(game_ids)

    async def _read(self, game_id: int) -> TableMessage | None:
        async with self.engine.connect() as conn:
            row = (
                (await conn.execute(select(table_messages).where(table_messages.c.game_id == game_id)))
                .mappings()
                .first()
            )
        if row is None:
            return None
        return TableMessage(
            row["game_id"], row["channel_id"], row["message_id"], row["kind"], tuple(row["lines"] or ())
        )

    async def put(self, message: TableMessage, now: datetime, delivered: Sequence[int] = ()) -> None:
        """Make ``message`` the living message of its game, and record the events it showed as
        ``delivered``, in one transaction (a move costs one write for its reply, not two)."""

        row = {
            "game_id": message.game_id,
            "channel_id": message.channel_id,
            "message_id": message.message_id,
            "kind": message.kind,
            "lines": list(message.lines),
            "updated_at": now,
        }
        statement = self.store.upsert(table_messages, ["game_id"], LIVING_COLUMNS)

        def work(conn: Connection) -> None:
            self.store.mark_delivered_in(conn, delivered, now)
            conn.execute(statement, row)

        await self.store.write(work, done=lambda: self._written([message.game_id]))
        if self._kept is not None:
            self._kept.put(message.game_id, message)

    async def forget(self, game_ids: Sequence[int]) -> None:
        """Drop the records of these games (finished or aborted)."""
        if game_ids:
            statement = delete(table_messages).where(table_messages.c.game_id.in_(list(game_ids)))
            await self.store.write(lambda conn: conn.execute(statement), done=lambda: self._written(game_ids))
