"""Martian Whist: perfect information, so the last tricks are solved exactly.

Evaluation: the points already kept, plus the tricks still to play shared out by the strength of
what each seat holds (colour ranks, and solid trees its stash can still form).  Near the end the
search hands over to an exact alpha-beta over the remaining tricks (win, draw or loss first,
then the margin).
"""

from __future__ import annotations

import math
from typing import Any

from ai.search import Profile
from games import whist as wh
from games.base import Rules

ENDGAME_TRICKS = 3  # solve exactly from this many tricks left
NODE_CAP = 20_000
_RANK = dict(wh.RANK)  # give up (and search instead) past this many solver nodes


def _strength(stash: tuple[str, ...]) -> float:
    counts: dict[str, int] = {}
    ranks = 0
    for p in stash:
        counts[p] = counts.get(p, 0) + 1
        ranks += _RANK[p[0]]
    solids = 0
    for c in wh.COLOUR_ORDER:
        solids += min(counts.get(c + "1", 0), counts.get(c + "2", 0), counts.get(c + "3", 0))
    return ranks / 3.0 + 2.5 * solids


def evaluate(s: Any) -> tuple[float, ...]:
    """Estimated chances of North and South from points kept and the strength of each stash."""
    points = wh.scores(s)
    left = s.total_tricks - len(s.tricks)
    strength = [_strength(s.stashes[0]) + 1.0, _strength(s.stashes[1]) + 1.0]
    if s.phase == wh.DRAFT:  # what is still in the row goes to both, roughly evenly
        left = s.total_tricks
    share = strength[0] / (strength[0] + strength[1])
    expected = (points[0] + 1.4 * left * share, points[1] + 1.4 * left * (1 - share))
    north = 1.0 / (1.0 + math.exp(-(expected[0] - expected[1]) / 2.0))
    return (north, 1.0 - north)


class _Abort(Exception):
    pass


def _solve(rules: Rules, s: Any, seat: int, alpha: float, beta: float, budget: list[int]) -> float:
    if s.phase == wh.OVER:
        mine, theirs = wh.score(s, seat), wh.score(s, 1 - seat)
        result = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        return result + 0.001 * (mine - theirs)
    budget[0] -= 1
    if budget[0] < 0:
        raise _Abort
    moves = rules.legal_moves(s)
    if s.turn == seat:
        value = -math.inf
        for m in moves:
            value = max(value, _solve(rules, rules.apply(s, m), seat, alpha, beta, budget))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = math.inf
    for m in moves:
        value = min(value, _solve(rules, rules.apply(s, m), seat, alpha, beta, budget))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def endgame(rules: Rules, s: Any, seat: int) -> Any:
    """The exactly best move when few tricks remain (None when too early or too big to solve)."""
    if s.phase != wh.TRICKS or s.total_tricks - len(s.tricks) > ENDGAME_TRICKS:
        return None
    budget = [NODE_CAP]
    best, best_value = None, -math.inf
    try:
        for m in rules.legal_moves(s):
            value = _solve(rules, rules.apply(s, m), seat, best_value, math.inf, budget)
            if value > best_value:
                best, best_value = m, value
    except _Abort:
        return None
    return best


PROFILE = Profile(players=lambda s: 2, evaluate=evaluate, endgame=endgame)
