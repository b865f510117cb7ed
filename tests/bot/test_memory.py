"""Freed memory is given back to the system now and then, and never more often than set."""

from __future__ import annotations

import asyncio
import platform

import pytest

from bot import memory
from bot.settings import Settings


def test_the_trim_interval_is_a_setting_that_can_be_turned_off():
    assert Settings.from_env({}, dotenv=None).memory_trim_seconds == 60.0
    assert Settings.from_env({"MEMORY_TRIM_SECONDS": "0"}, dotenv=None).memory_trim_seconds == 0.0


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_free_pages_go_back_to_the_system_with_glibc():
    kept = [bytearray(64 * 1024) for _ in range(256)]  # 16 MB in chunks the allocator keeps when freed
    del kept
    assert memory.release_free_memory() is True


async def test_the_bot_trims_on_its_interval_until_stopped(monkeypatch: pytest.MonkeyPatch):
    calls: list[int] = []
    monkeypatch.setattr(memory, "_malloc_trim", lambda: calls.append)
    task = asyncio.create_task(memory.release_free_memory_every(0.01))
    while len(calls) < 3:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert calls[:3] == [0, 0, 0]


async def test_without_malloc_trim_nothing_is_scheduled(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(memory, "_malloc_trim", lambda: None)
    assert memory.release_free_memory() is False
    await asyncio.wait_for(memory.release_free_memory_every(0.01), timeout=5)  # returns at once
