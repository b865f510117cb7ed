"""Where each game's living message is: its lobby before the start, then the board of the turn under way.

The Discord layer edits that one message as a turn goes on and posts a new one only when the turn
passes to another player; this module remembers which message that is, across restarts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, select

from bot.session.schema import table_messages
from bot.session.store import Store


@dataclass(frozen=True)
class TableMessage:
    """The living message of one game."""

    game_id: int
    channel_id: int
    message_id: int
    kind: str  # lobby | board
    lines: tuple[str, ...] = ()


class TableMessages:
    """Reads and writes the living message of each game."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    async def get(self, game_id: int) -> TableMessage | None:
        """The living message of ``game_id``, if it has one."""
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

        def work(conn: Connection) -> None:
            self.store.mark_delivered_in(conn, delivered, now)
            conn.execute(delete(table_messages).where(table_messages.c.game_id == message.game_id))
            conn.execute(
                table_messages.insert().values(
                    game_id=message.game_id,
                    channel_id=message.channel_id,
                    message_id=message.message_id,
                    kind=message.kind,
                    lines=list(message.lines),
                    updated_at=now,
                )
            )

        await self.store.write(work)

    async def forget(self, game_ids: Sequence[int]) -> None:
        """Drop the records of these games (finished or aborted)."""
        if game_ids:
            statement = delete(table_messages).where(table_messages.c.game_id.in_(list(game_ids)))
            await self.store.write(lambda conn: conn.execute(statement))
