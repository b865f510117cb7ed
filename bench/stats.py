"""Order statistics shared by the benchmarks."""

from __future__ import annotations

import math
from collections.abc import Iterable


def nearest_rank(values: Iterable[float], share: float) -> float:
    """The ``share`` quantile (0..1) of ``values`` by nearest rank: the smallest value that at least
    ``share`` of them do not exceed (the lowest for 0). Raises ``ValueError`` when there are none."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    return ordered[rank_of(share, len(ordered))]


def rank_of(share: float, count: int) -> int:
    """The 0-based index of the ``share`` quantile by nearest rank among ``count`` ordered values."""
    return min(count - 1, max(0, math.ceil(share * count) - 1))
