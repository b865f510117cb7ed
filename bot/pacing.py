"""Answering in time: every action is acknowledged well inside Discord's 3-second window.

Discord drops an interaction that gets no first response within 3 seconds, and the player sees "The
application did not respond".  Most actions answer with their board long before that; under load an
action may wait for the ones before it in its channel (each channel's actions run in order, one at a
time) or for a busy process.  ``Pacer.run`` runs an action and acknowledges it first:

- at once, when actions are already queued in its channel or the process has too many in progress
  (the player reads "busy, your action is queued", with their place in the queue);
- after ``ack_after`` seconds otherwise, if it is still running.

The answer with the board then follows (a follow-up).  Nothing here knows Discord: the caller passes
``acknowledge``, a coroutine function that sends the short answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
Acknowledge = Callable[[str], Awaitable[None]]

QUEUED = "Busy: your action is queued ({ahead} ahead of it in this channel); the answer follows here."
OVERLOADED = "Busy: your action is queued; the answer follows here in a moment."
WORKING = "Working on it; the answer follows here."
STOPPING = "The bot is restarting: try again in a minute."


@dataclass
class PaceStats:
    """Counts since start: how many actions were acknowledged early, and why."""

    actions: int = 0
    queued: int = 0
    overloaded: int = 0
    slow: int = 0


class Pacer:
    """Per-channel queue depths and the acknowledgement rule, for one process."""

    def __init__(self, ack_after: float = 1.0, busy_in_flight: int = 64) -> None:
        self.ack_after = ack_after
        self.busy_in_flight = busy_in_flight
        self._depth: defaultdict[int, int] = defaultdict(int)
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.stats = PaceStats()

    def depth(self, channel_id: int) -> int:
        """Actions of ``channel_id`` under way or waiting their turn."""
        return self._depth.get(channel_id, 0)

    @property
    def in_flight(self) -> int:
        """Actions under way in the whole process."""
        return self._in_flight

    async def run(self, channel_id: int, work: Awaitable[T], acknowledge: Acknowledge) -> T:
        """Run ``work`` (an action of ``channel_id``), acknowledging it with ``acknowledge`` when it must wait.

        The acknowledgement is complete before this returns or raises, so the caller may answer next.
        """
        ahead = self._depth[channel_id]
        self._depth[channel_id] += 1
        self._in_flight += 1
        self._idle.clear()
        self.stats.actions += 1
        task = asyncio.ensure_future(work)
        try:
            if ahead:
                self.stats.queued += 1
                await self._acknowledge(acknowledge, QUEUED.format(ahead=ahead))
            elif self._in_flight > self.busy_in_flight:
                self.stats.overloaded += 1
                await self._acknowledge(acknowledge, OVERLOADED)
            else:
                done, _ = await asyncio.wait({task}, timeout=self.ack_after)
                if not done:
                    self.stats.slow += 1
                    await self._acknowledge(acknowledge, WORKING)
            return await task
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._idle.set()
            self._depth[channel_id] -= 1
            if not self._depth[channel_id]:
                del self._depth[channel_id]

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until the actions under way have been answered, their boards shown (clean shutdown)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            log.warning("shutting down with %s actions not yet answered", self._in_flight)

    @staticmethod
    async def _acknowledge(acknowledge: Acknowledge, line: str) -> None:
        """Send the short answer; failing to send it never stops the action itself."""
        try:
            await acknowledge(line)
        except Exception:
            log.exception("could not acknowledge an action")
