"""The Martian Assassination Game: bases for the victim, the hunt for everyone else.

Evaluation: the victim is worth more the more bases it has marked this run; an assassin is worth
more close to the victim (the capturer becomes the victim); captures and markers also decide a
finish at the limit.
"""

from __future__ import annotations

from typing import Any

from ai.evaluation import players_attr, shares
from ai.search import Profile
from games import assassin as am

TEMPERATURE = 1.2


def _coords(s: Any, square: int | None) -> tuple[float, float]:
    half = s.size / 2 - 0.5
    if square is None or square == am.SAFE:
        return half, half
    return float(square % s.size), float(square // s.size)


def evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances from bases marked, captures and each assassin's distance to the victim."""
    vx, vy = _coords(s, s.positions[s.victim])
    out = set(s.out)
    scores = []
    for seat in range(s.players):
        if seat in out:
            scores.append(-100.0)
            continue
        value = 0.4 * s.captures[seat] + 0.5 * len(s.markers[seat])
        if seat == s.victim:
            marked = len(s.markers[seat])
            value += 1.0 + 1.2 * marked + (2.0 if marked >= 3 else 0.0)
        else:
            x, y = _coords(s, s.positions[seat])
            value -= 0.08 * (abs(x - vx) + abs(y - vy))
        scores.append(value)
    return shares(scores, TEMPERATURE)


PROFILE = Profile(players=players_attr, evaluate=evaluate)
