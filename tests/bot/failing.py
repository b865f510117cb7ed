"""A store write that fails once, as when another process wrote the game first."""

from __future__ import annotations

from typing import Any

import pytest

from bot.session.store import StaleVersion


def fail_once(monkeypatch: pytest.MonkeyPatch, store: Any, method: str) -> None:
    """Make ``store.<method>`` raise ``StaleVersion`` on its next call, and work again after it."""
    real = getattr(store, method)

    async def fails(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(store, method, real)
        raise StaleVersion("the game was changed by another write")

    monkeypatch.setattr(store, method, fails)
