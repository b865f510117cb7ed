"""The shared conformance suite run against Martian Whist, both variants."""

from __future__ import annotations

import pytest

from games.whist import RULES
from tests.games.conformance import check_bad_state, check_garbage, check_playouts

VARIANTS = ["normal", "short"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_deep_playouts(variant):
    result = check_playouts(RULES, 2, {"variant": variant}, seeds=range(25), deep=True)
    assert result["games"] == 25


@pytest.mark.parametrize("variant", VARIANTS)
def test_shallow_playouts(variant):
    result = check_playouts(RULES, 2, {"variant": variant}, seeds=range(100, 500), deep=False)
    assert result["games"] == 400


@pytest.mark.parametrize("variant", VARIANTS)
def test_garbage_is_refused(variant):
    for seed in range(3):
        check_garbage(RULES, 2, {"variant": variant}, seed=seed)


@pytest.mark.parametrize("variant", VARIANTS)
def test_damaged_state_is_refused(variant):
    check_bad_state(RULES, 2, {"variant": variant})


def test_steal_is_exercised_by_random_play():
    """Random players sometimes steal, so the playouts above cover both draft orders."""
    from games.playout import playout

    stole = 0
    for seed in range(40):
        for state in playout(RULES, 2, {"variant": "short"}, seed=seed):
            if state.stolen:
                stole += 1
                break
    assert stole > 0


def test_json_round_trip_of_damaged_fields():
    """Values of the right shape but wrong content are refused too."""
    from games.base import BadState
    from games.playout import setup_rng

    state = RULES.new_game(2, {"variant": "short"}, setup_rng(4))
    good = RULES.to_json(state)
    damaged = [
        {**good, "row": good["row"][:-1]},
        {**good, "row": ["R1/Y2/G3", *good["row"][1:]]},
        {**good, "stashes": [["R3"], []]},
        {**good, "turn": 2},
        {**good, "phase": "bidding"},
        {**good, "steal_open": "yes"},
        {**good, "variant": "long"},
        {**good, "last_take": [0, 99, "R1"]},
        {**good, "tricks": [{"leader": 0, "led": "R3/Y2", "followed": "R3/Y2/G1"}]},
    ]
    for data in damaged:
        with pytest.raises(BadState):
            RULES.from_json(data)
