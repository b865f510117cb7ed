"""The search itself: progressive widening opens a wide node gradually, best prior first."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from ai.budget import Budget
from ai.evaluation import profile_for
from ai.levels import SETTINGS
from ai.search import Node, Search
from games import REGISTRY
from games.playout import playout, table_options

ITERATIONS = 40


class RootKeeping(Search):
    """A search that keeps its root node, to look at what it opened."""

    root: Node | None = None

    def _best(self, root: Node, moves: Any, seat: int) -> Any:
        self.root = root
        return super()._best(root, moves, seat)


def wide_state(game: str, players: int, at_least: int) -> Any:
    """The first decision of a seeded random game with at least ``at_least`` legal moves."""
    rules = REGISTRY[game]
    for seed in range(20):
        for state in playout(rules, players, table_options(rules, players), seed=seed):
            deciding = rules.outcome(state) is None and not rules.pending_roll(state)
            if deciding and len(rules.legal_moves(state)) >= at_least:
                return state
    raise AssertionError(f"no {game} position with {at_least} moves")


def opened_at_root(game: str, level: str, state: Any) -> tuple[Node, list[Any]]:
    search = RootKeeping(REGISTRY[game], profile_for(game), SETTINGS[level], random.Random(3))
    search.run(state, Budget(max_iterations=ITERATIONS))
    assert search.root is not None
    return search.root, [move for move, child in search.root.children.items() if child.visits > 0]


@pytest.mark.parametrize(("game", "wide"), [("hedgehog", 18), ("combat", 30)])  # a turn's steps; an Aim
def test_hard_opens_a_wide_node_gradually_best_prior_first(game: str, wide: int):
    state = wide_state(game, 2, wide)
    moves = list(REGISTRY[game].legal_moves(state))
    root, opened = opened_at_root(game, "hard", state)
    widest = math.ceil(SETTINGS["hard"].widen_c * (root.visits + 1) ** SETTINGS["hard"].widen_alpha)
    assert 1 < len(opened) <= widest < len(moves)
    assert root.order is not None and set(opened) == set(root.order[: len(opened)])  # the best priors


def test_without_widening_every_move_is_tried_before_any_twice():
    state = wide_state("hedgehog", 2, 18)
    moves = list(REGISTRY["hedgehog"].legal_moves(state))
    root, opened = opened_at_root("hedgehog", "normal", state)
    assert SETTINGS["normal"].widening is False
    assert len(opened) == min(root.visits, len(moves))
