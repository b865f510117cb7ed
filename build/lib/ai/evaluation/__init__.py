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


def shares(scores: Sequence[float], temperature: float) -> tuple[float, ...]:
    """A softmax of per-seat ``scores``: each seat's estimated chance of finishing first.

    With one seat (solitaire) it is a logistic of the score instead, so progress still counts.
    """
    if len(scores) == 1:
        return (1.0 / (1.0 + math.exp(-scores[0] / temperature)),)
    top = max(scores)
    weights = [math.exp((x - top) / temperature) for x in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


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
