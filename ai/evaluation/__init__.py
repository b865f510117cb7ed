"""Per-game knowledge for the search: evaluations, rollout policies, determinisation, endgames.

Each module here builds a ``Profile`` for one game.  An evaluation turns a position into a
reward vector, one estimated chance of finishing first per seat (they sum to about 1), so the
search can stop a rollout early and still compare positions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ai.search import Profile


def shares(
    scores: Sequence[float], temperature: float, progress: tuple[float, float] | None = None
) -> tuple[float, ...]:
    """A softmax of per-seat ``scores``: each seat's estimated chance of finishing first.

    With one seat (solitaire) it is a logistic of the score instead, so progress still counts.

    ``progress`` = (lowest, highest) score of the game: each seat's value is then half its share and
    half its own score placed in that range.  A seat far ahead has a share of almost 1 whatever it
    does; its own progress still tells its moves apart, so it keeps heading for the goal.
    """
    if len(scores) == 1:
        return (1.0 / (1.0 + math.exp(-scores[0] / temperature)),)
    top = max(scores)
    weights = [math.exp((x - top) / temperature) for x in scores]
    total = sum(weights)
    if progress is None:
        return tuple(w / total for w in weights)
    low, high = progress
    span = high - low
    return tuple(
        0.5 * w / total + 0.5 * min(1.0, max(0.0, (x - low) / span)) for w, x in zip(weights, scores, strict=True)
    )


def players_attr(state: Any) -> int:
    """The seat count of states that carry a ``players`` field."""
    return int(state.players)


def profile_for(name: str) -> Profile:
    """The search profile of the game registered as ``name``; a bare one for unknown games."""
    if name == "combat":
        from ai.evaluation import combat

        return combat.PROFILE
    if name == "treasure":
        from ai.evaluation import treasure

        return treasure.PROFILE
    if name == "whist":
        from ai.evaluation import whist

        return whist.PROFILE
    if name == "assassin":
        from ai.evaluation import assassin

        return assassin.PROFILE
    if name == "hedgehog":
        from ai.evaluation import hedgehog

        return hedgehog.PROFILE
    return Profile(players=players_attr)
