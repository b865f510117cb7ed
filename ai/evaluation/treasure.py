"""Martian Treasure Hunt: points in the pile, coins still on the board, and hidden arrangements.

Evaluation: the score so far plus a little per coin still standing (coins capture, and a
captured coin is two points to someone), with the pyramids left setting how much can change.
Each seat's own score counts beside its share, so a leader far ahead still goes for the last
pyramids rather than let the game run out at the stall limit.

Settled games: once no seat can catch one ahead of it, whatever is left to take, a bot that has
lost takes pyramids, the last one too, rather than keep everyone waiting for the stall limit (the
search's ``settled`` rule; the pyramid points left are what is still played for).

Hidden information: while coins are being set out, the arrangements of the other seats are not
known to the seat choosing; the search samples them (each iteration a random order per seat).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ai.evaluation import players_attr, shares
from ai.search import Profile
from games import treasure as th
from games.base import Rules, frozen_replace

COIN_VALUE = 0.6
# the score's range, for a leader's own progress: nothing to the whole treasure (56 points) and more
PROGRESS = (0.0, 60.0)


def _pyramid_points(s: Any) -> int:
    return sum(th.PIPS_POINTS[p] for _, _, p in s.pyramids)


def settled(s: Any) -> tuple[tuple[int, ...], int] | None:
    """Final ranks by the scores as they stand, and the pyramid points left, once no place can change.

    A seat behind another can still catch it while its score, plus every pyramid standing and every
    coin it could still capture (all but each other seat's last, which is immune;
    docs/rules/treasure.md, "Captures and scoring"), reaches the other's.  Scores never fall.
    """
    active = th.active_seats(s)
    if len(active) < 2 or s.phase not in (th.Phase.ROLL, th.Phase.MOVE):
        return None
    points = th.scores(s)
    pyramids = _pyramid_points(s)
    capturable = {seat: max(0, th.coins_left(s, seat) - 1) for seat in active}
    every_coin = sum(capturable.values())
    for behind, ahead in combinations(sorted(active, key=lambda seat: points[seat]), 2):
        best = points[behind] + pyramids + th.COIN_POINTS * (every_coin - capturable[behind])
        if best >= points[ahead]:
            return None
    return th.score_ranks(s), pyramids


def evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances from score and coins, sharper as the treasure runs out."""
    left = _pyramid_points(s)
    out = set(s.out)
    scores = [
        -100.0 if seat in out else th.score(s, seat) + COIN_VALUE * th.coins_left(s, seat) for seat in range(s.players)
    ]
    temperature = 1.0 + 0.12 * left
    return shares(scores, temperature, PROGRESS)


def policy(rules: Rules, s: Any, moves: Sequence[Any], rng: random.Random) -> Any:
    """Rollout policy: take the richest capture on offer, else move at random."""
    if s.phase != "move" or rng.random() < 0.2:
        return moves[rng.randrange(len(moves))]
    board = th.occupancy(s)
    best: list[Any] = []
    best_gain = -1
    for m in moves:
        what = board.get(m.dst) if isinstance(m, th.Step) else None
        gain = 0
        if what is not None:
            gain = int(what[1]) if what[0] == "pyramid" else th.COIN_POINTS
        if gain > best_gain:
            best, best_gain = [m], gain
        elif gain == best_gain:
            best.append(m)
    return best[rng.randrange(len(best))]


def hidden(s: Any, seat: int) -> bool:
    """True while ``seat`` chooses its arrangement and another seat has already set out its coins."""
    return s.phase == "arrange" and any(done for other, done in enumerate(s.arranged) if other != seat)


def determinize(s: Any, seat: int, rng: random.Random) -> Any:
    """``s`` with every other arranged seat's order replaced by a random one.

    Engines that keep secret orders aside until everyone has arranged (a ``pending`` field, the
    coins showing a stand-in order) have those orders sampled; otherwise the coins on the home rows are.
    """
    try:
        pending = getattr(s, "pending", ())
        others = [o for o, done in enumerate(s.arranged) if o != seat and done and o not in s.out]
        if pending:
            orders = list(pending)
            for other in others:
                if orders[other] is not None:
                    order = list(th.DEFAULT_ORDER)
                    rng.shuffle(order)
                    orders[other] = tuple(order)
            return frozen_replace(s, pending=tuple(orders))
        home = th.geometry(s.players).home
        coins = list(s.coins)
        for other in others:
            order = list(th.DEFAULT_ORDER)
            rng.shuffle(order)
            coins[other] = th._placed(home[other], order)
        return frozen_replace(s, coins=tuple(coins))
    except (AttributeError, TypeError, IndexError, ValueError):  # a state shape this module does not know
        return s


PROFILE = Profile(
    players=players_attr,
    evaluate=evaluate,
    policy=policy,
    determinize=determinize,
    hidden=hidden,
    settled=settled,
)
