"""Martian Combat: race pieces to the home squares and cap trees there.

Evaluation: a capped home is worth most; a full stack of one's own three pieces on an uncapped
home (one Tip or a rebuild from a tree) next; every piece is pulled toward its nearest open home
by king distance; a piece held down by an opponent's pyramid above it loses a little.

The expert evaluation (the hard level) also credits a tree under way: a home caps only when it
holds exactly one's large, medium and small from the bottom up (``docs/rules/combat.md``,
"Winning"), so one's large alone on an open home is its base and large and medium there are a tree
but for the small.  It applies with four players left only: at four seats the hard bot often capped
one home and never built the other before the turn limit, and the credit made most of those games
end by the goal; with two players it cost wins against the normal level, and with three it won no
more games (``docs/ai.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from ai.evaluation import players_attr, shares
from ai.search import Profile
from games import combat as cb
from games.base import Rules

CAPPED = 12.0
FULL_STACK = 6.0
PER_STEP = 0.6
HELD_DOWN = 0.5
BEGUN_LARGE = 2.0  # own large alone on an open home (expert evaluation)
BEGUN_PAIR = 4.0  # own large with own medium on it on an open home (expert evaluation)
TEMPERATURE = 2.5
# the score's range: every piece five or more steps out (about -20) to both homes capped (24)
PROGRESS = (-20.0, 2 * CAPPED)

_HOMES = {seat: cb.home_squares(seat) for seat in range(4)}
_DIST = tuple(tuple(cb.distance(a, b) for b in range(cb.SQUARES)) for a in range(cb.SQUARES))


@cache
def _to_nearest(homes: tuple[int, ...]) -> tuple[int, ...]:
    """Per square, the king steps to the nearest of ``homes`` (a seat's open homes)."""
    return tuple(min(_DIST[sq][h] for h in homes) for sq in range(cb.SQUARES))


def score(s: Any, seat: int) -> float:
    """How close ``seat`` is to capping both homes (higher is better)."""
    homes = _HOMES[seat]
    capped = set(s.capped)
    open_homes = [h for h in homes if h not in capped]
    total = CAPPED * (len(homes) - len(open_homes))
    board = s.board
    for h in open_homes:
        stack = board[h]
        if len(stack) == 3 and all(p.owner == seat for p in stack):
            total += FULL_STACK
    if not open_homes:
        return total
    reserve = set(r for r in s.reserve if r >= 0)
    nearest = _to_nearest(tuple(open_homes))
    for sq, stack in enumerate(board):
        if not stack or sq in capped or sq in reserve:
            continue
        foreign_above = False
        for p in reversed(stack):
            if p.owner == seat:
                total -= PER_STEP * nearest[sq]
                if foreign_above:
                    total -= HELD_DOWN
            else:
                foreign_above = True
    return total


def begun_tree(s: Any, seat: int) -> float:
    """Credit for a tree under way on ``seat``'s open homes: its large alone there, or large and medium."""
    total = 0.0
    for h in _HOMES[seat]:
        if h in s.capped:
            continue
        stack = s.board[h]
        if not stack or any(p.owner != seat for p in stack):
            continue
        sizes = tuple(p.pips for p in stack)
        if sizes == (3,):
            total += BEGUN_LARGE
        elif sizes == (3, 2):
            total += BEGUN_PAIR
    return total


def expert_score(s: Any, seat: int) -> float:
    """``score`` plus the credit for trees under way."""
    return score(s, seat) + begun_tree(s, seat)


def four_seats(s: Any) -> bool:
    """True when four players are left: where the credit for trees under way has been measured to help."""
    return s.players - len(s.out) >= 4


def _evaluate(s: Any, scorer: Callable[[Any, int], float]) -> tuple[float, ...]:
    out = set(s.out)
    scores = [(-100.0 if seat in out else scorer(s, seat)) for seat in range(s.players)]
    return shares(scores, TEMPERATURE, PROGRESS)


def evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances from the race scores; seats that left score nothing."""
    return _evaluate(s, score)


def expert_evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances from the race scores with trees under way credited."""
    return _evaluate(s, expert_score)


def policy(rules: Rules, s: Any, moves: Sequence[Any], rng: random.Random) -> Any:
    """Rollout policy: mostly steps toward an open home; otherwise a uniform choice."""
    if rng.random() < 0.3:
        return moves[rng.randrange(len(moves))]
    seat = rules.to_move(s)
    homes = tuple(h for h in _HOMES.get(seat if seat is not None else 0, ()) if h not in s.capped)
    if not homes:
        return moves[rng.randrange(len(moves))]
    nearest = _to_nearest(homes)
    best: list[Any] = []
    best_gain = -99.0
    for m in moves:
        gain: float
        if isinstance(m, cb.Step):
            gain = nearest[m.frm] - nearest[m.to]
        elif isinstance(m, cb.Pass):
            gain = -0.5
        else:
            gain = 0.0
        if gain > best_gain:
            best, best_gain = [m], gain
        elif gain == best_gain:
            best.append(m)
    return best[rng.randrange(len(best))]


PROFILE = Profile(
    players=players_attr,
    evaluate=evaluate,
    policy=policy,
    expert_evaluate=expert_evaluate,
    expert_applies=four_seats,
)
