"""Background loops stopped between iterations.

Cancelling a ``tasks.Loop`` in the middle of an iteration cuts off its database calls mid-flight: the
store's transactions keep the data whole, but the driver's worker thread may then finish its call
after the event loop has closed.  A cog holds a lock while an iteration runs and stops its loop with
``cancel_between_iterations``, which waits for the iteration under way (for a bounded time).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from discord.ext import tasks

log = logging.getLogger(__name__)

STOP_GRACE_SECONDS = 10.0  # the longest an unloading cog waits for an iteration to finish


async def cancel_between_iterations(loop: tasks.Loop[Any], running: asyncio.Lock) -> None:
    """Cancel ``loop`` once the iteration holding ``running`` (if any) is over, or after ``STOP_GRACE_SECONDS``."""
    grace = STOP_GRACE_SECONDS
    try:
        async with asyncio.timeout(grace):
            await running.acquire()
    except TimeoutError:
        log.warning("%s still running after %.0f s: cancelled", loop.coro.__qualname__, grace)
        loop.cancel()
        return
    try:
        loop.cancel()
    finally:
        running.release()
