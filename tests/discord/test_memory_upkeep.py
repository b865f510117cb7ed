"""The running bot gives freed memory back on its interval, and not at all when that is turned off."""

from __future__ import annotations

from typing import Any

import pytest

import bot.client


@pytest.fixture
def trims(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def release_free_memory() -> bool:
        calls.append(1)
        return True

    monkeypatch.setattr(bot.client, "can_release_memory", lambda: True)
    monkeypatch.setattr(bot.client, "release_free_memory", release_free_memory)
    return calls


@pytest.mark.parametrize("simcord_bot", [{"memory_trim_seconds": 60.0}], indirect=True)
async def test_the_bot_trims_every_interval(simcord_bot, simcord_env: Any, trims: list[int]) -> None:
    before = len(trims)
    await simcord_env.advance_time(5 * 60)
    assert 4 <= len(trims) - before <= 6  # once a minute, never in a burst


@pytest.mark.parametrize("simcord_bot", [{"memory_trim_seconds": 0.0}], indirect=True)
async def test_a_zero_interval_never_trims(simcord_bot, simcord_env: Any, trims: list[int]) -> None:
    await simcord_env.advance_time(5 * 60)
    assert trims == []
