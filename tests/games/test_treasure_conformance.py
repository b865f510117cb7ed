"""The shared conformance suite run against Martian Treasure Hunt, for every player count and setting."""

from __future__ import annotations

import json
import random

import pytest

from games.playout import setup_rng
from games.treasure import RULES, _destinations, _occupancy, occupancy
from tests.games.conformance import check_bad_state, check_garbage, check_playouts

COUNTS = (2, 3, 4)
VARIANTS: tuple[dict[str, object], ...] = ({}, {"arrange": False}, {"stall_limit": 5})


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("options", VARIANTS, ids=("default", "no-arrange", "stall-5"))
def test_deep_playouts(players: int, options: dict) -> None:
    counts = check_playouts(RULES, players, options, seeds=range(8), deep=True)
    assert counts["games"] == 8 and counts["plies"] > 0


@pytest.mark.parametrize("players", COUNTS)
def test_shallow_playouts(players: int) -> None:
    counts = check_playouts(RULES, players, {}, seeds=range(100, 300), deep=False)
    assert counts["games"] == 200


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("options", VARIANTS[:2], ids=("default", "no-arrange"))
def test_garbage_is_refused(players: int, options: dict) -> None:
    for seed in range(3):
        check_garbage(RULES, players, options, seed=seed)


@pytest.mark.parametrize("players", COUNTS)
def test_damaged_state_is_refused(players: int) -> None:
    check_bad_state(RULES, players)


@pytest.mark.parametrize("players", COUNTS)
def test_kept_answers_follow_every_change(players: int) -> None:
    """A state keeps its board and the rolled coin's moves; every changed copy computes them afresh."""
    for seed in range(6):
        rng = random.Random(seed)
        state = RULES.new_game(players, {}, setup_rng(seed))
        while RULES.outcome(state) is None:
            assert dict(occupancy(state)) == _occupancy(state)
            if state.phase == "move" and state.dice is not None:
                number, kind = state.dice
                assert list(state.rolled_destinations) == _destinations(state, state.turn, number, kind)
            stored = RULES.from_json(json.loads(json.dumps(RULES.to_json(state))))
            assert RULES.legal_moves(stored) == RULES.legal_moves(state)
            if RULES.pending_roll(state):
                move = RULES.roll(state, rng)
            else:
                moves = RULES.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state = RULES.apply(state, move)
