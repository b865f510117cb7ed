"""The games this process has read or written lately, kept so that a move reads nothing from the database.

Only a store that is the one writer of its database keeps it: a SQLite file, which one process owns
(docs/deploy.md).  Every write of a game goes through the store, which drops that game here once the
write is over (it failed or not) and may then put the game as the write left it.  A read that missed
fills the cache only if no write of a game ended while it ran, so a read that raced a write never puts
back the older game.  The version check of every write stays the guarantee; this is only a shortcut.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.session.schema import ACTIVE_STATUSES

if TYPE_CHECKING:
    from bot.session.store import GameRow

DEFAULT_SIZE = 4096  # games kept; the oldest read is forgotten first


class GameCache:
    """Recently used games by id, and the live game of each channel."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self.generation = 0  # how many writes of games have ended
        self._rows: OrderedDict[int, GameRow] = OrderedDict()
        self._live: dict[int, int] = {}  # channel -> its open or running game

    def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id`` if it is kept."""
        row = self._rows.get(game_id)
        if row is not None:
            self._rows.move_to_end(game_id)
        return row

    def live_game(self, channel_id: int) -> GameRow | None:
        """The open or running game of ``channel_id`` if it is kept."""
        game_id = self._live.get(channel_id)
        row = self.game(game_id) if game_id is not None else None
        return row if row is not None and row.status in ACTIVE_STATUSES else None

    def fill(self, row: GameRow, generation: int) -> None:
        """Keep ``row``, read when the cache was at ``generation``, unless a write has ended since."""
        if generation == self.generation:
            self.put(row)

    def put(self, row: GameRow) -> None:
        """Keep ``row`` as the database now holds it."""
        self._rows[row.id] = row
        self._rows.move_to_end(row.id)
        if row.status in ACTIVE_STATUSES:
            self._live[row.channel_id] = row.id
        elif self._live.get(row.channel_id) == row.id:
            del self._live[row.channel_id]
        while len(self._rows) > self.size:
            _, old = self._rows.popitem(last=False)
            if self._live.get(old.channel_id) == old.id:
                del self._live[old.channel_id]

    def written(self, game_ids: Iterable[int], channel_id: int | None = None) -> None:
        """A write of these games (or a new game in ``channel_id``) has ended: forget what was kept."""
        self.generation += 1
        for game_id in game_ids:
            old = self._rows.pop(game_id, None)
            if old is not None and self._live.get(old.channel_id) == game_id:
                del self._live[old.channel_id]
        if channel_id is not None:
            self._live.pop(channel_id, None)
