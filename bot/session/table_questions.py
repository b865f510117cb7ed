"""Where each game's open questions are: the message asking the table to agree to an undo, or to hand a
seat to a computer player.

A question is answered by its buttons, but it can also lapse without anyone pressing them (a person's
move after an undo request, a resignation that carries out a proposal, the end of the game).  The
Discord layer records each question it posts here, and after each board it shows closes the questions
that no longer stand, so no old question keeps buttons that would only be refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, delete, select

from bot.session.schema import table_questions
from bot.session.store import Store, aware

ASKING_GRACE = timedelta(minutes=1)  # from storing a request to posting its question, at most
UNDO = "undo"
SEAT = "seat"


@dataclass(frozen=True)
class Question:
    """An open question of one game, and the message that asks it."""

    game_id: int
    kind: str  # UNDO | SEAT
    channel_id: int
    message_id: int


class TableQuestions:
    """Reads and writes the open questions of each game.

    The games that have any are kept in memory (read once, then kept with every write of this process),
    so a board shown in a game without a question costs no read.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self._asking: set[int] | None = None  # ids of the games with an open question

    async def _games_asking(self) -> set[int]:
        if self._asking is None:
            async with self.engine.connect() as conn:
                rows = (await conn.execute(select(table_questions.c.game_id).distinct())).all()
            self._asking = {row.game_id for row in rows}
        return self._asking

    async def never_asked(self, game_id: int, kind: str, stored: dict[str, Any], now: datetime) -> bool:
        """True when the request ``stored`` for ``game_id`` (an undo request or a seat proposal, by
        ``kind``) was stored a while ago and no question of ``kind`` was ever posted for it: the bot
        stopped, or Discord refused the question, in between, and nothing can answer it.  A request just
        stored is given ``ASKING_GRACE`` for its question to be posted."""
        created = stored.get("created_at")
        if created is None or now - aware(created) < ASKING_GRACE:
            return False
        return not any(question.kind == kind for question in await self.of_game(game_id))

    async def of_game(self, game_id: int) -> list[Question]:
        """The open questions of ``game_id``, by kind."""
        if game_id not in await self._games_asking():
            return []
        query = select(table_questions).where(table_questions.c.game_id == game_id).order_by(table_questions.c.kind)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [Question(r["game_id"], r["kind"], r["channel_id"], r["message_id"]) for r in rows]

    async def record(self, question: Question, now: datetime) -> Question | None:
        """Record ``question`` as its game's open question of its kind; returns the one it replaces."""
        asking = await self._games_asking()
        before = next((q for q in await self.of_game(question.game_id) if q.kind == question.kind), None)
        row = {
            "game_id": question.game_id,
            "kind": question.kind,
            "channel_id": question.channel_id,
            "message_id": question.message_id,
            "created_at": now,
        }
        statement = self.store.upsert(table_questions, ["game_id", "kind"], ["channel_id", "message_id", "created_at"])
        await self.store.write(lambda conn: conn.execute(statement, row))
        asking.add(question.game_id)
        return before if before is not None and before.message_id != question.message_id else None

    async def drop(self, question: Question) -> bool:
        """Forget ``question`` (answered, or closed as lapsed); False when it was not recorded any more (another
        caller took it first, or a newer question of its kind replaced it), so each is closed once."""
        asking = await self._games_asking()
        if question.game_id not in asking:
            return False
        mine = (
            table_questions.c.game_id == question.game_id,
            table_questions.c.kind == question.kind,
            table_questions.c.message_id == question.message_id,
        )

        def work(conn: Connection) -> tuple[bool, bool]:
            removed = conn.execute(delete(table_questions).where(*mine)).rowcount > 0
            left = conn.execute(select(table_questions.c.kind).where(table_questions.c.game_id == question.game_id))
            return removed, left.first() is not None

        removed, any_left = await self.store.write(work)
        if not any_left:
            asking.discard(question.game_id)
        return removed
