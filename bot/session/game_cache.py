"""The games this process has read or written lately, kept so that a move reads nothing from the database.

Only a store that is the one writer of its database keeps it: a SQLite file, which one process owns
(docs/deploy.md).  Every write of a game goes through the store, which drops that game here once the
write is over (it failed or not) and may then put the game as the write left it.  A read that missed
fills the cache only if no write ended while it ran, so a read that raced a write never puts back the
older game.  The version check of every write stays the guarantee; this is only a shortcut.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Generic, TypeVar

from bot.session.schema import ACTIVE_STATUSES

if TYPE_CHECKING:
    from bot.session.store import GameRow

DEFAULT_SIZE = 4096  # entries kept; the least recently used is forgotten first
FINISHED_KEPT = 256  # of which finished games: read again rarely (a replay, a rematch), so few are kept

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """Values read from or written to the database, by key, dropped by every write of their key."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self.generation = 0  # how many writes have ended: a read started before one does not fill
        self._items: OrderedDict[K, V] = OrderedDict()

    def __contains__(self, key: K) -> bool:
        return key in self._items

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, if any."""
        if key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def fill(self, key: K, value: V, generation: int) -> None:
        """Keep ``value``, read when the cache was at ``generation``, unless a write has ended since."""
        if generation == self.generation:
            self.put(key, value)

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` as the database now holds it."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self.forget(next(iter(self._items)))

    def forget(self, key: K) -> None:
        """Keep nothing of ``key`` any more."""
        self._items.pop(key, None)

    def written(self, keys: Iterable[K]) -> None:
        """A write of these keys has ended: forget what was kept of them."""
        self.generation += 1
        for key in keys:
            self.forget(key)


class GameCache(Kept[int, "GameRow"]):
    """Recently used games by id, and where to find the live game of each channel.

    Finished games have a budget of their own (``finished``): a busy server ends thousands of games an
    hour, and kept in the common budget they would fill it, and the process's memory, with games
    nobody plays any more.
    """

    def __init__(self, size: int = DEFAULT_SIZE, finished: int = FINISHED_KEPT) -> None:
        super().__init__(size)
        self.finished_size = finished
        self._live: dict[int, int] = {}  # channel -> the last open or running game kept for it
        self._finished: OrderedDict[int, None] = OrderedDict()  # the kept games that are over, oldest first

    def game(self, game_id: int) -> GameRow | None:
        """The game ``game_id`` if it is kept."""
        return self.get(game_id)

    def live_game(self, channel_id: int) -> GameRow | None:
        """The open or running game of ``channel_id`` if it is kept (a forgotten or finished one is not)."""
        game_id = self._live.get(channel_id)
        row = self.get(game_id) if game_id is not None else None
        return row if row is not None and row.status in ACTIVE_STATUSES else None

    def put(self, key: int, value: GameRow) -> None:
        """Keep the game ``value`` (with id ``key``) as the database now holds it."""
        super().put(key, value)
        if value.status in ACTIVE_STATUSES:
            self._live[value.channel_id] = key
            self._finished.pop(key, None)
            return
        self._finished[key] = None
        self._finished.move_to_end(key)
        while len(self._finished) > self.finished_size:
            self.forget(next(iter(self._finished)))

    def forget(self, key: int) -> None:
        """Keep nothing of the game ``key`` any more."""
        super().forget(key)
        self._finished.pop(key, None)

    def keep(self, row: GameRow, generation: int | None = None) -> None:
        """Keep ``row``: as written (no ``generation``), or as read at ``generation``."""
        if generation is None:
            self.put(row.id, row)
        else:
            self.fill(row.id, row, generation)
