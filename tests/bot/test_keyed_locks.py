"""One lock per key: holders of a key run one at a time and in arrival order, other keys run meanwhile,
and a key's lock is forgotten once its last holder is done."""

from __future__ import annotations

import asyncio

from bot.keyed_locks import KeyedLocks


async def test_holders_of_one_key_run_one_at_a_time_in_arrival_order():
    locks: KeyedLocks[int] = KeyedLocks()
    inside: list[str] = []
    order: list[str] = []

    async def hold(name: str) -> None:
        async with locks.hold(7):
            inside.append(name)
            assert len(inside) == 1, inside  # nobody else holds key 7 now
            await asyncio.sleep(0)
            order.append(name)
            inside.remove(name)

    await asyncio.gather(*(hold(name) for name in "abcd"))
    assert order == list("abcd")


async def test_other_keys_are_not_held_up():
    locks: KeyedLocks[str] = KeyedLocks()
    release = asyncio.Event()

    async def hold_long() -> None:
        async with locks.hold("game 1"):
            await release.wait()

    waiting = asyncio.create_task(hold_long())
    await asyncio.sleep(0)
    async with locks.hold("game 2"):  # entered while game 1 is held
        assert locks.held("game 1")
    release.set()
    await waiting


async def test_a_key_is_forgotten_when_its_last_holder_is_done_even_after_an_error():
    locks: KeyedLocks[int] = KeyedLocks()

    async def fail() -> None:
        async with locks.hold(1):
            await asyncio.sleep(0)
            raise RuntimeError("boom")

    async def succeed() -> None:
        async with locks.hold(1):
            await asyncio.sleep(0)

    results = await asyncio.gather(fail(), succeed(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and results[1] is None
    assert len(locks) == 0 and not locks.held(1)
