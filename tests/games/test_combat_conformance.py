"""Martian Combat against the shared conformance suite, for every variant and player count.

Deep checks (JSON round trip, notation round trip of every legal move, no mutation, replay) run on
short games; shallow random playouts run on a few hundred more, some at the full turn limit.  A
cross-check confirms that the move validator used by ``apply`` and ``parse_move`` accepts exactly
the moves ``legal_moves`` lists.
"""

from __future__ import annotations

import itertools

import pytest

from games.base import IllegalMove
from games.combat import (
    RULES,
    Attack,
    Choose,
    Counter,
    Dig,
    Hop,
    Pass,
    Step,
    Swap,
    _check,
)
from games.playout import playout
from tests.games.conformance import check_bad_state, check_garbage, check_playouts

CONFIGS = [(variant, players) for variant in ("standard", "simple", "advanced") for players in (2, 3, 4)]
IDS = [f"{variant}-{players}p" for variant, players in CONFIGS]


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=IDS)
def test_deep_conformance_on_short_games(variant: str, players: int) -> None:
    result = check_playouts(RULES, players, {"variant": variant, "turn_limit": 30}, seeds=range(4), deep=True)
    assert result["games"] == 4


@pytest.mark.parametrize("variant", ["standard", "advanced"])
def test_deep_conformance_on_a_full_length_game(variant: str) -> None:
    check_playouts(RULES, 4, {"variant": variant}, seeds=range(100, 101), deep=True)


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=IDS)
def test_shallow_playouts(variant: str, players: int) -> None:
    short = check_playouts(RULES, players, {"variant": variant, "turn_limit": 40}, seeds=range(1000, 1020), deep=False)
    full = check_playouts(RULES, players, {"variant": variant}, seeds=range(2000, 2001), deep=False)
    assert short["games"] + full["games"] == 21


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=IDS)
def test_garbage_and_damaged_state_are_refused(variant: str, players: int) -> None:
    check_garbage(RULES, players, {"variant": variant})
    check_bad_state(RULES, players, {"variant": variant})


def test_extra_blocked_squares_play_to_the_end() -> None:
    check_playouts(RULES, 2, {"blocked": "b3 e4", "turn_limit": 30}, seeds=range(3), deep=True)
    check_playouts(
        RULES, 4, {"variant": "simple", "blocked": "c3 d4 b5", "turn_limit": 60}, seeds=range(10), deep=False
    )


def _candidates(state):
    """A superset of the moves possible in ``state``'s phase, legal or not."""
    occupied = [i for i, stack in enumerate(state.board) if stack]
    yield Pass()
    yield Counter()
    yield from (Choose(k) for k in range(7))
    if state.phase in ("move", "aim"):
        yield from (Step(f, p, t) for f in occupied for p in (1, 2, 3) for t in range(36))
    if state.phase in ("attack", "offer"):
        yield from (Attack(f, t) for f in occupied for t in occupied)
    if state.phase == "swap":
        yield from (Swap(f, p, t) for f in occupied for p in (1, 2, 3) for t in occupied)
    if state.phase == "hop":
        yield from (Hop(f, p, t) for f in occupied for p in (1, 2, 3) for t in range(36))
    if state.phase == "dig":
        pairs = itertools.product(occupied, occupied)
        yield from (Dig(f, p, t, u) for f, t in pairs for p in (1, 2, 3) for u in (1, 2, 3))


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=IDS)
def test_validator_accepts_exactly_the_legal_moves(variant: str, players: int) -> None:
    checked = 0
    for ply, state in enumerate(playout(RULES, players, {"variant": variant, "turn_limit": 24}, seed=7)):
        if RULES.pending_roll(state) or RULES.outcome(state) is not None or ply % 2:
            continue
        legal = set(RULES.legal_moves(state))
        accepted = set()
        for move in _candidates(state):
            try:
                _check(state, move)
            except IllegalMove:
                continue
            accepted.add(move)
        assert accepted == legal, f"ply {ply} ({state.phase}): {accepted ^ legal}"
        checked += 1
    assert checked > 10
