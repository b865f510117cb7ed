"""Freed memory is given back to the system now and then (bot/memory.py, docs/deploy.md)."""

from __future__ import annotations

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
    assert memory.can_release_memory()
    assert memory.release_free_memory() is True


def test_without_malloc_trim_nothing_is_done(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(memory, "_malloc_trim", lambda: None)
    assert not memory.can_release_memory()
    assert memory.release_free_memory() is False
