"""The shared conformance suite run against The Martian Assassination Game, every size and variant."""

from __future__ import annotations

import pytest

from games.assassin import RULES
from games.playout import playout
from tests.games.conformance import check_bad_state, check_garbage, check_playouts

VARIANTS: list[tuple[int, dict[str, object]]] = [(players, {}) for players in range(3, 10)] + [
    (6, {"board": 12}),
    (9, {"board": 12}),
    (4, {"short_game": True}),
    (7, {"short_game": True, "board": 12}),
    (3, {"short_game": True, "turn_limit": False}),
    (4, {"turn_limit": False}),
]


def _id(case: tuple[int, dict]) -> str:
    players, options = case
    return f"{players}p-" + ("-".join(f"{k}={v}" for k, v in sorted(options.items())) or "default")


@pytest.mark.parametrize("case", VARIANTS, ids=[_id(c) for c in VARIANTS])
def test_deep_playouts(case):
    players, options = case
    result = check_playouts(RULES, players, options, seeds=range(3), deep=True)
    assert result["games"] == 3


@pytest.mark.parametrize("case", VARIANTS, ids=[_id(c) for c in VARIANTS])
def test_shallow_playouts(case):
    players, options = case
    count = 8 if options.get("turn_limit") is False else 16  # games without the limit run several times longer
    result = check_playouts(RULES, players, options, seeds=range(1000, 1000 + count), deep=False)
    assert result["games"] == count


@pytest.mark.parametrize("case", VARIANTS, ids=[_id(c) for c in VARIANTS])
def test_garbage_is_refused(case):
    players, options = case
    check_garbage(RULES, players, options, seed=players)


@pytest.mark.parametrize("case", VARIANTS[:9], ids=[_id(c) for c in VARIANTS[:9]])
def test_bad_state_is_refused(case):
    players, options = case
    check_bad_state(RULES, players, options)


def test_random_games_reach_every_ending():
    """Across seeds, random play sees captures, wins on four bases and the turn limit."""
    ends, captures = set(), 0
    for seed in range(12):
        *_, last = playout(RULES, 4, {}, seed=seed)
        ends.add(last.end)
        captures += sum(last.captures)
    assert {"bases", "limit"} <= ends
    assert captures > 0
