"""The shared conformance suite run against Der Marsigelwettkampf, for every player count and option."""

from __future__ import annotations

import pytest

from games.base import Rules
from games.hedgehog import RULES, HedgehogState
from games.playout import playout, table_options
from tests.games.conformance import check_bad_state, check_garbage, check_playouts

RAINBOW = range(1, 6)
XENO = range(6, 11)


def options(players: int, **extra: object) -> dict[str, object]:
    """The options a game of ``players`` needs (the Xeno set above five), plus ``extra``."""
    return {**table_options(RULES, players), **extra}


def test_rules_object_shape() -> None:
    rules: Rules = RULES
    assert rules.name == "hedgehog" and rules.min_players == 1 and rules.max_players == 10
    assert {spec.name for spec in rules.options} == {"xeno", "round_limit", "turn_limit"}


@pytest.mark.parametrize("players", RAINBOW)
def test_deep_playouts_default_options(players: int):
    result = check_playouts(RULES, players, options(players), seeds=range(3), deep=True)
    assert result["games"] == 3


@pytest.mark.parametrize("players", [*RAINBOW, *XENO])
def test_deep_playouts_short_turn_limit(players: int):
    # A short limit keeps each deep game brief, so many more seeds (and every ending) are covered.
    short = options(players, turn_limit=30, round_limit=6)
    result = check_playouts(RULES, players, short, seeds=range(100, 110), deep=True)
    assert result["games"] == 10


@pytest.mark.parametrize("players", RAINBOW)
def test_shallow_playouts_rainbow(players: int):
    result = check_playouts(RULES, players, options(players), seeds=range(1000, 1050), deep=False)
    assert result["games"] == 50


@pytest.mark.parametrize("players", XENO)
def test_shallow_playouts_xeno(players: int):
    result = check_playouts(RULES, players, options(players), seeds=range(2000, 2012), deep=False)
    assert result["games"] == 12


@pytest.mark.parametrize("players", [*RAINBOW, *XENO])
def test_garbage_notation_is_refused(players: int):
    for seed in range(3):
        check_garbage(RULES, players, options(players), seed=seed)


@pytest.mark.parametrize("players", [1, 3, 5, 10])
def test_damaged_state_is_refused(players: int):
    check_bad_state(RULES, players, options(players))


@pytest.mark.parametrize("players", [1, 2, 4, 7])
def test_stacks_stay_ordered_and_every_piece_stays_in_the_ring(players: int):
    # The stacking rule means no pyramid ever stands on a smaller one; nothing leaves the ring.
    trio = sorted((colour, pips) for colour in range(players) for pips in (1, 2, 3))
    for seed in range(15):
        state: HedgehogState
        for state in playout(RULES, players, options(players), seed=seed):
            assert sorted(p for space in state.spaces for p in space.stack) == trio
            for space in state.spaces:
                sizes = [p.pips for p in space.stack]
                assert sizes == sorted(sizes, reverse=True)
            assert 1 <= len(state.spaces) <= 3 * players
            assert 0 <= state.points <= (state.roll or 0)
        outcome = RULES.outcome(state)
        assert outcome is not None and len(outcome.ranks) == players


def test_every_ending_occurs_in_random_play() -> None:
    endings: set[str] = set()
    for players in (1, 2, 3):
        for seed in range(60):
            *_, last = playout(RULES, players, options(players, turn_limit=60, round_limit=20), seed=seed)
            endings.add(last.finish)
    assert endings == {"tree", "passes", "limit"}
