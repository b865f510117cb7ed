"""One asyncio lock per key (a channel, a game), kept only while someone holds or awaits it.

A dictionary of locks that never forgets grows with every channel or game the process ever served;
here a key's lock is dropped once its last user is done, so memory follows the work under way.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class KeyedLocks(Generic[K]):
    """Locks by key: ``async with locks.hold(key):`` runs one holder of ``key`` at a time, in arrival order."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}  # key -> (its lock, holders and waiters)

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        """Hold ``key``'s lock for the body of the ``async with``."""
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def held(self, key: K) -> bool:
        """True while someone holds or awaits ``key``'s lock."""
        return key in self._locks

    def __len__(self) -> int:
        return len(self._locks)
