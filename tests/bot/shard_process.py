"""One bot process of the two-process test: plays, ticks its clock and claims deliveries in step
with the other process (and the test) at a barrier.  Run in a process of its own (spawned)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from bot.session import open_session
from bot.session.service import Actor

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
TICK_DAYS = (1, 2, 4, 8)  # clock days the processes tick at, twice each, together


def run(database_url: str, channels: list[int], start: str, barrier: Barrier, out: Queue) -> None:
    """The process's body: ``out`` gets (channels it moved in, delivery ids it claimed)."""
    asyncio.run(_play(database_url, channels, datetime.fromisoformat(start), barrier, out))


async def _play(database_url: str, channels: list[int], start: datetime, barrier: Barrier, out: Queue) -> None:
    clock = [start]
    session = await open_session(database_url, render=False, clock=lambda: clock[0])
    try:
        chosen = {}  # channel: the player to move and their first legal move (the same in both processes)
        for channel in channels:
            for actor in (ALICE, BOB):
                if options := await session.games.legal_moves(channel, actor.user_id):
                    chosen[channel] = (actor, options[0].value)
        await asyncio.to_thread(barrier.wait)  # both processes send every game's move at once

        async def attempt(channel: int) -> int | None:
            actor, notation = chosen[channel]
            try:
                await session.games.move(channel, actor, notation)
            except Exception:  # refused: the other process moved first
                return None
            return channel

        moved = [c for c in await asyncio.gather(*(attempt(c) for c in channels)) if c is not None]
        for days in TICK_DAYS:
            clock[0] = start + timedelta(days=days, minutes=1)
            await asyncio.to_thread(barrier.wait)
            await session.timekeeper.tick()
            await session.timekeeper.tick()
        await asyncio.to_thread(barrier.wait)  # the test reads what the ticks wrote
        await asyncio.to_thread(barrier.wait)  # then both claim the deliveries at once
        claimed = [delivery.id for delivery in await session.games.claim_deliveries()]
        out.put((moved, claimed))
    finally:
        await session.close()
