"""Der Marsigelwettkampf: how close each colour is to large, medium, small in one stack.

Evaluation per colour: the medium already sitting on its own large, the small on its medium, the
large free on top (a landing place for the medium), and the ring distances the medium and the
small still have to travel (a medium pays 2 points a space, a small 1).
"""

from __future__ import annotations

from typing import Any

from ai.evaluation import players_attr, shares
from ai.search import Profile

TEMPERATURE = 1.5


def _where(s: Any) -> dict[tuple[int, int], tuple[int, int]]:
    found = {}
    for index, space in enumerate(s.spaces):
        for height, piece in enumerate(space.stack):
            found[(piece.colour, piece.pips)] = (index, height)
    return found


def score(s: Any, seat: int, where: dict[tuple[int, int], tuple[int, int]]) -> float:
    """How close ``seat``'s colour is to its tree (higher is better)."""
    ring = len(s.spaces)
    large, medium, small = where[(seat, 3)], where[(seat, 2)], where[(seat, 1)]

    def gap(a: tuple[int, int], b: tuple[int, int]) -> int:
        d = abs(a[0] - b[0])
        return min(d, ring - d)

    value = 0.0
    m_on_l = medium[0] == large[0] and medium[1] == large[1] + 1
    s_on_m = small[0] == medium[0] and small[1] == medium[1] + 1
    if m_on_l:
        value += 4.0
    else:
        stack = s.spaces[large[0]].stack
        if large[1] == len(stack) - 1:
            value += 1.0
        else:
            value -= 0.4 * (len(stack) - 1 - large[1])
        value -= 0.5 * gap(medium, large)
    if s_on_m:
        value += 2.0
    else:
        value -= 0.25 * gap(small, medium)
    return value


def evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances from the tree-building scores."""
    where = _where(s)
    out = set(s.out)
    scores = [-100.0 if seat in out else score(s, seat, where) for seat in range(s.players)]
    return shares(scores, TEMPERATURE)


PROFILE = Profile(players=players_attr, evaluate=evaluate)
