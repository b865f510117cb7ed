"""A clock the session tests move by hand."""

from __future__ import annotations

from datetime import UTC, datetime

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand (``now`` starts at ``T0``)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now
