"""How long a search may think: an iteration cap, a wall-clock cap, or both.

This is the only module of ``ai`` that reads a clock.  Searches bounded by iterations alone
are deterministic for a given seed; a wall-clock bound makes them depend on machine speed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """A search budget: stop after ``max_ms`` milliseconds or ``max_iterations`` iterations, whichever first.

    ``None`` leaves that bound open; at least one bound should be set.
    """

    max_ms: float | None = None
    max_iterations: int | None = None

    def __post_init__(self) -> None:
        if self.max_ms is None and self.max_iterations is None:
            raise ValueError("A budget needs max_ms, max_iterations or both.")
        if self.max_ms is not None and self.max_ms <= 0:
            raise ValueError("max_ms must be positive.")
        if self.max_iterations is not None and self.max_iterations < 1:
            raise ValueError("max_iterations must be at least 1.")


class Clock:
    """Counts a search's iterations against its budget."""

    __slots__ = ("_deadline", "_max_iterations", "iterations")

    def __init__(self, budget: Budget) -> None:
        self._max_iterations = budget.max_iterations
        self._deadline = None if budget.max_ms is None else time.perf_counter() + budget.max_ms / 1000.0
        self.iterations = 0

    def tick(self) -> bool:
        """Count one iteration; True while the search may run another."""
        self.iterations += 1
        if self._max_iterations is not None and self.iterations >= self._max_iterations:
            return False
        # reading the clock costs little next to an iteration, but skip it on odd counts anyway
        return not (self._deadline is not None and (self.iterations & 1) == 0 and time.perf_counter() >= self._deadline)


def stopwatch() -> float:
    """Seconds from an arbitrary origin, for measuring decision times (benchmarks only)."""
    return time.perf_counter()


def cpu_stopwatch() -> float:
    """CPU seconds of this process, for decision times on a shared machine (benchmarks only)."""
    return time.process_time()
