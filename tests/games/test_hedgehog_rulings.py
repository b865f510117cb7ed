"""Der Marsigelwettkampf: scenario tests for the rulings of docs/rules/hedgehog.md that
tests/games/test_hedgehog_rules.py leaves unchecked or only checks through random games.

Each test is written from the ruling's text (quoted above its assertions); positions come from
``RULES.new_game`` (with ``dataclasses.replace`` for the seat to move) and are played forward.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.hedgehog import CLOCKWISE, FINISH_LIMIT, RULES, HedgehogState, Pass, Piece, Roll, Step

R, Y, G = 0, 1, 2


def codes(state: HedgehogState) -> list[str]:
    """The ring as stack codes, clockwise."""
    return [space.code for space in state.spaces]


@pytest.mark.parametrize("players", range(1, 11))
def test_ruling_position_i_holds_colour_i_mod_n_and_the_size_from_the_formula(players: int) -> None:
    # "Position i (i = 0..3n-1) holds colour i mod n and size (large, medium, small)[i mod 3] [...]
    # When n is a multiple of 3 the size index is (i + floor(i / n)) mod 3 instead"
    state = RULES.new_game(players, {"xeno": players > 5}, random.Random(0))
    expected = []
    for i in range(3 * players):
        k = (i + i // players) % 3 if players % 3 == 0 else i % 3
        expected.append((Piece(i % players, (3, 2, 1)[k]),))
    assert [space.stack for space in state.spaces] == expected


def _take_turn(state: HedgehogState, move: bool) -> HedgehogState:
    """The player to move moves their small one space clockwise with a roll of 1, or rolls 6 and passes."""
    seat = state.current
    if move:
        state = RULES.apply(state, Roll(1))
        return RULES.apply(state, Step(Piece(seat, 1), CLOCKWISE, 1))  # the point is spent: the turn ends
    return RULES.apply(RULES.apply(state, Roll(6)), Pass())


def test_ruling_round_limit_stops_the_game_once_every_player_has_had_that_many_turns() -> None:
    # "Option: turn limit, counted in rounds (...: the game stops once every player has had 40 turns,
    # so the limit scales with the table); reaching it is a draw."
    # Three players, a limit of 2 rounds, Yellow first: Red moves each turn, so no round is all passes.
    state = replace(RULES.new_game(3, {"round_limit": 2}, random.Random(0)), current=Y)
    assert codes(state) == ["R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2"]
    for turn, seat in enumerate((Y, G, R, Y, G)):
        assert state.current == seat and not state.over, turn
        state = _take_turn(state, move=seat == R)
    assert not state.over  # Red has had one turn only
    state = _take_turn(state, move=True)  # Red's second turn: everyone has had 2
    assert state.over and state.finish == FINISH_LIMIT and state.winner is None
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.is_draw and outcome.ranks == (1, 1, 1)


def test_ruling_round_limit_defaults_to_forty_rounds() -> None:
    # "(default 40 rounds: the game stops once every player has had 40 turns ...)"
    fresh = RULES.new_game(3, {}, random.Random(0))
    state = replace(fresh, current=R, seat_turns=(39, 39, 39), turns=117)
    assert RULES.from_json(RULES.to_json(state)) == state  # a position the stored form accepts
    state = _take_turn(state, move=True)
    state = _take_turn(state, move=False)
    assert not state.over and state.seat_turns == (40, 40, 39)  # Green has not had its 40th turn yet
    state = _take_turn(state, move=False)
    assert state.over and state.finish == FINISH_LIMIT
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.is_draw
