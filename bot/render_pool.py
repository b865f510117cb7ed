"""Boards drawn off the event loop: in a pool of worker processes sized to the machine.

Pillow holds the GIL for most of a board, so drawing in threads slows every other action of the
process; worker processes draw in parallel instead.  The renderers are pure, so a worker gets the
game's name, its state as JSON, the last move and the seat names, and returns PNG bytes.

``workers=0`` draws in a thread of this process (the tests' default, and a fallback when worker
processes cannot be started).  One pool serves the whole process, however many bots it builds.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

_POOLS: dict[tuple[str, int], ProcessPoolExecutor] = {}


def auto_workers(setting: int = -1) -> int:
    """How many drawing processes to run: ``setting`` when 0 or more, else ``RENDER_WORKERS``, else
    one per core beyond the one the event loop uses (at least one, at most 8)."""
    if setting >= 0:
        return setting
    raw = os.environ.get("RENDER_WORKERS", "").strip()
    if raw.lstrip("-").isdigit() and int(raw) >= 0:
        return int(raw)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(8, cores - 1))


def draw(game: str, state_json: dict[str, Any], last_move: Any, names: list[str]) -> bytes:
    """Decode ``state_json`` with the game's rules and draw it (runs in a worker)."""
    import games
    from renderers import render_game

    state = games.REGISTRY[game].from_json(state_json)
    return render_game(game, state, last_move=last_move, names=names)


WORKER_NICENESS = 10  # board workers yield the CPU to the bot's process: its answers come first


def _warm() -> None:
    """Import the engines and renderers once per worker, before the first board."""
    import games  # noqa: F401
    import renderers  # noqa: F401


def _start_board_worker() -> None:
    """A board worker's start: a lower CPU priority than the bot's process, then warm imports."""
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)
    _warm()


def _warm_ai() -> None:
    """Import the search once per worker, before the first decision."""
    import ai  # noqa: F401


def _pool(workers: int, purpose: str = "boards") -> ProcessPoolExecutor:
    pool = _POOLS.get((purpose, workers))
    if pool is not None and getattr(pool, "_broken", False):  # one of its processes died: never hand it out
        retire_pool(pool)
        pool = None
    if pool is None:
        # forkserver: never fork a process that runs an event loop and database threads
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context(method),
            initializer=_start_board_worker if purpose == "boards" else _warm_ai,
        )
        _POOLS[(purpose, workers)] = pool
    return pool


def ai_pool(workers: int) -> Executor | None:
    """The processes that search computer players' moves (None with 0 workers: threads of this process)."""
    return _pool(workers, "ai") if workers > 0 else None


def retire_pool(pool: Executor, *, kill: bool = False) -> int:
    """Stop ``pool`` and forget it, so that no one is handed it again (one of its processes died, or
    with ``kill`` one is stuck and is killed first); returns how many processes it had."""
    workers = getattr(pool, "_max_workers", 1)
    for key, known in list(_POOLS.items()):
        if known is pool:
            del _POOLS[key]
            workers = key[1]
    if kill:
        stop = getattr(pool, "kill_workers", None)  # Python 3.14
        if callable(stop):
            stop()
        else:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    return workers


def renew_search_pool(broken: Executor, *, kill: bool = False) -> Executor | None:
    """New search processes, as many, in place of ``broken`` (retired, its stuck processes killed with
    ``kill``); they start at the first search.  None when none can be made: bots search in threads."""
    workers = retire_pool(broken, kill=kill)
    try:
        return ai_pool(workers)
    except OSError as error:
        log.warning("search workers could not be replaced (%s); searching in threads of this process instead", error)
        return None


async def start_workers(
    executor: Executor | None, workers: int, warm: Callable[[], None], what: str
) -> Executor | None:
    """Start all ``workers`` processes of ``executor`` now, each running ``warm`` once; returns the
    executor, or None when there is none or its processes could not start (then ``what`` is done in
    threads of this process).

    A pool otherwise starts a process at the first task that finds none idle, in the middle of play:
    that task then waits for a whole interpreter to start and import the engines.
    """
    if executor is None or workers <= 0:
        return None
    loop = asyncio.get_running_loop()
    try:
        await asyncio.gather(*(loop.run_in_executor(executor, warm) for _ in range(workers)))
    except (BrokenProcessPool, OSError) as error:
        log.warning("%s workers could not start (%s); working in threads of this process instead", what, error)
        return None
    return executor


async def start_search_workers(workers: int) -> Executor | None:
    """The started processes that search computer players' moves (None: search in threads)."""
    return await start_workers(ai_pool(workers), workers, _warm_ai, "search")


class RenderPool:
    """Draws boards for the session service, in worker processes or (``workers=0``) in threads."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._executor: Executor | None = _pool(workers) if workers > 0 else None

    async def start(self) -> None:
        """Start the workers now (each imports the renderers) so the first move does not wait for them."""
        self._executor = await start_workers(self._executor, self.workers, _warm, "board")

    async def render(self, game: str, state_json: dict[str, Any], last_move: Any, names: list[str]) -> bytes:
        """The PNG of ``state_json`` (a state of ``game``)."""
        if self._executor is None:
            return await asyncio.to_thread(draw, game, state_json, last_move, names)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, draw, game, state_json, last_move, names)
        except BrokenProcessPool:
            log.warning("a board worker died; drawing in process from now on")
            _POOLS.pop(("boards", self.workers), None)
            self._executor = None
            return await asyncio.to_thread(draw, game, state_json, last_move, names)


def shutdown_pools() -> None:
    """Stop every worker process (at exit)."""
    for pool in _POOLS.values():
        pool.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()
