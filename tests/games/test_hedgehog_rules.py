"""Scenario tests for Der Marsigelwettkampf: one per ruling of docs/rules/hedgehog.md.

Positions are built directly (``position``) or reached by applying chosen rolls and moves.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.base import BadNotation, BadOptions, BadState, IllegalMove
from games.hedgehog import (
    ANTICLOCKWISE,
    CLOCKWISE,
    FINISH_LIMIT,
    FINISH_PASSES,
    FINISH_TREE,
    RULES,
    HedgehogState,
    Pass,
    Piece,
    Roll,
    Space,
    Step,
)
from games.playout import playout

R, Y, G, B, K = range(5)


def pc(code: str) -> Piece:
    """A piece from its code, e.g. ``pc("R3")``."""
    return Piece("RYGBKOPCWX".index(code[0]), int(code[1]))


def position(
    *stacks: str,
    players: int,
    current: int = 0,
    roll: int | None = 6,
    points: int | None = None,
    moved: bool = False,
    passed: tuple[int, ...] = (),
    turns: int = 0,
    out: tuple[int, ...] = (),
    turn_limit: int = 200,
    labels: tuple[int, ...] | None = None,
    stored: bool = True,
) -> HedgehogState:
    """A position with the given stacks (bottom to top, ``R3/Y2``) in clockwise order."""
    spaces = tuple(
        Space(labels[i] if labels else i + 1, tuple(pc(code) for code in text.split("/")))
        for i, text in enumerate(stacks)
    )
    state = HedgehogState(
        players=players,
        xeno=players > 5,
        turn_limit=turn_limit,
        spaces=spaces,
        current=current,
        roll=roll,
        points=roll or 0 if points is None else points,
        moved=moved,
        passed=passed,
        turns=turns,
        out=out,
        winner=None,
        finish="",
    )
    # Every position used here is a real one: the stored form accepts it (``stored=False`` marks the
    # one hand-built position no game can reach).
    if stored:
        assert RULES.from_json(RULES.to_json(state)) == state
    return state


def codes(state: HedgehogState) -> list[str]:
    """The ring as stack codes, clockwise."""
    return [space.code for space in state.spaces]


def step(text: str) -> Step:
    """A step from its notation, without checking it against a position."""
    direction = CLOCKWISE if text[2] == "+" else ANTICLOCKWISE
    return Step(pc(text[:2]), direction, int(text[3:]))


# --- Setup -------------------------------------------------------------------------------------


def test_position_i_holds_colour_i_mod_n_and_size_i_mod_3_as_in_the_four_player_example():
    state = RULES.new_game(4, {}, random.Random(1))
    assert codes(state) == ["R3", "Y2", "G1", "B3", "R2", "Y1", "G3", "B2", "R1", "Y3", "G2", "B1"]


def test_when_n_is_a_multiple_of_three_the_size_index_is_shifted_so_no_colour_repeats_a_size():
    three = RULES.new_game(3, {}, random.Random(1))
    assert codes(three) == ["R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2"]
    for players in (6, 9):
        state = RULES.new_game(players, {"xeno": True}, random.Random(1))
        for colour in range(players):
            sizes = sorted(p.pips for space in state.spaces for p in space.stack if p.colour == colour)
            assert sizes == [1, 2, 3]
        # position i still holds colour i mod n
        assert [space.stack[0].colour for space in state.spaces] == [i % players for i in range(3 * players)]


def test_every_player_count_lays_out_each_trio_once_one_upright_pyramid_per_space():
    for players in range(1, 11):
        state = RULES.new_game(players, {"xeno": players > 5}, random.Random(0))
        assert len(state.spaces) == 3 * players
        assert all(len(space.stack) == 1 for space in state.spaces)
        pieces = sorted(space.stack[0] for space in state.spaces)
        assert pieces == sorted(Piece(c, p) for c in range(players) for p in (1, 2, 3))
    assert codes(RULES.new_game(1, {}, random.Random(0))) == ["R3", "R2", "R1"]


def test_colour_order_is_red_yellow_green_blue_black_then_orange_purple_cyan_white_clear():
    state = RULES.new_game(10, {"xeno": True}, random.Random(0))
    names = [RULES.seat_name(state, seat) for seat in range(10)]
    assert names == ["Red", "Yellow", "Green", "Blue", "Black", "Orange", "Purple", "Cyan", "White", "Clear"]
    assert [space.stack[0].code[0] for space in state.spaces[:10]] == list("RYGBKOPCWX")


def test_one_to_five_players_and_up_to_ten_with_the_xeno_option():
    for players in range(1, 6):
        RULES.new_game(players, {}, random.Random(0))
    with pytest.raises(BadOptions, match="xeno"):
        RULES.new_game(6, {}, random.Random(0))
    RULES.new_game(10, {"xeno": True}, random.Random(0))
    for players in (0, 11):
        with pytest.raises(BadOptions):
            RULES.new_game(players, {"xeno": True}, random.Random(0))
    with pytest.raises(BadOptions):
        RULES.new_game(3, {"colours": 3}, random.Random(0))


def test_first_player_is_random():
    firsts = {RULES.new_game(4, {}, random.Random(seed)).current for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert RULES.new_game(4, {}, random.Random(7)).current == RULES.new_game(4, {}, random.Random(7)).current
    assert RULES.pending_roll(RULES.new_game(4, {}, random.Random(7)))


def test_players_then_take_turns_in_colour_order():
    state = position(
        "R3", "Y2", "G1", "B3", "R2", "Y1", "G3", "B2", "R1", "Y3", "G2", "B1", players=4, current=G, roll=None
    )
    seen = []
    for _ in range(4):
        seen.append(RULES.to_move(state))
        state = RULES.apply(RULES.apply(state, Roll(6)), Pass())
    assert seen == [G, B, R, Y]


# --- A turn ------------------------------------------------------------------------------------


def test_roll_the_d6_that_many_movement_points():
    state = RULES.new_game(4, {}, random.Random(3))
    assert RULES.pending_roll(state) and RULES.legal_moves(state) == ()
    with pytest.raises(IllegalMove, match="roll"):
        RULES.parse_move(state, "pass")
    assert RULES.parse_move(state, "roll 4") == Roll(4)
    rolled = RULES.apply(state, Roll(4))
    assert rolled.roll == 4 and rolled.points == 4 and not RULES.pending_roll(rolled)
    with pytest.raises(IllegalMove, match="already rolled"):
        RULES.parse_move(rolled, "roll 4")
    assert all(RULES.roll(state, random.Random(seed)).value in range(1, 7) for seed in range(50))
    assert {RULES.roll(state, random.Random(seed)).value for seed in range(200)} == set(range(1, 7))


def test_spend_any_number_of_points_zero_is_a_pass():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, current=R, roll=5)
    assert Pass() in RULES.legal_moves(state)
    after = RULES.apply(state, Pass())
    assert after.current == Y and RULES.pending_roll(after)
    assert after.passed == (R,) and codes(after) == codes(state)


def test_several_pieces_or_one_piece_several_times_in_one_turn():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=6)
    state = RULES.apply(state, step("R1+1"))  # R1 onto Y3
    state = RULES.apply(state, step("R1-1"))  # the same piece again: onto G3
    assert state.current == R and state.points == 4
    state = RULES.apply(state, step("R2-2"))  # another piece: onto Y2
    assert codes(state) == ["R3", "Y2/R2", "G1", "Y1", "G3/R1", "Y3", "G2"]


def test_a_move_costs_the_piece_pips_per_space():
    state = position("R3", "Y2", "G3", "R2", "Y1", "G1", "R1", "Y3", "G2", players=3, roll=6)
    after = RULES.apply(state, step("R3+2"))  # large, 2 spaces: 6 points
    assert after.last.cost == 6 and after.points == 0
    small = position("R3", "Y2", "G3", "R2", "Y1", "G1", "R1", "Y3", "G2", players=3, roll=3)
    assert RULES.apply(small, step("R1+1")).points == 2
    with pytest.raises(IllegalMove, match="costs 4 points"):
        RULES.parse_move(small, "R2+2")
    assert step("R2+2") not in RULES.legal_moves(small)
    assert step("R2-1") in RULES.legal_moves(small)


def test_pieces_a_move_carries_ride_free():
    state = position("R3/Y2/G1", "Y3", "G3", "R2", "Y1", "G2", "R1", players=3, roll=3)
    after = RULES.apply(state, step("R3+1"))
    assert codes(after)[0] == "Y3/R3/Y2/G1"
    assert after.last.cost == 3 and after.points == 0


def test_a_piece_inside_a_stack_may_move_and_carries_everything_above_it():
    state = position("Y3/R2/G1", "Y2", "G3", "R3", "Y1", "G2", "R1", players=3, roll=2)
    after = RULES.apply(state, step("R2+1"))
    assert codes(after)[:2] == ["Y3", "Y2/R2/G1"]


def test_only_your_topmost_piece_in_a_stack_may_move():
    state = position("R3/Y3/R2", "G3", "Y2", "G2", "Y1", "G1", "R1", players=3, roll=6)
    with pytest.raises(IllegalMove, match="topmost"):
        RULES.parse_move(state, "R3+1")
    assert not any(isinstance(m, Step) and m.piece == pc("R3") for m in RULES.legal_moves(state))
    assert step("R2+1") in RULES.legal_moves(state)


def test_a_piece_must_end_on_a_top_pyramid_of_the_same_size_or_larger():
    state = position("R2", "G3", "Y2", "G1", "Y3", "Y1", "R3", "R1", "G2", players=3, roll=6)
    assert codes(RULES.apply(state, step("R2+1")))[0] == "G3/R2"  # onto a larger
    assert codes(RULES.apply(state, step("R2+2")))[1] == "Y2/R2"  # onto the same size
    with pytest.raises(IllegalMove, match="smaller"):
        RULES.parse_move(state, "R2+3")  # onto a smaller
    assert step("R2+3") not in RULES.legal_moves(state)


def test_the_moving_piece_is_compared_not_the_pieces_it_carries():
    state = position("R2/Y1", "G2", "Y2", "G1", "Y3", "G3", "R3", "R1", players=3, roll=2)
    assert codes(RULES.apply(state, step("R2+1")))[0] == "G2/R2/Y1"


def test_spaces_a_move_passes_over_do_not_matter():
    # R2 goes over two smalls it could never stop on, to the large beyond them.
    state = position("R2", "G1", "Y1", "G3", "Y2", "G2", "Y3", "R3", "R1", players=3, roll=6)
    after = RULES.apply(state, step("R2+3"))
    assert codes(after)[:3] == ["G1", "Y1", "G3/R2"]


def test_a_space_whose_last_pyramid_leaves_ceases_to_exist_and_its_neighbours_become_adjacent():
    state = position("Y3", "R1", "G3", "Y2", "G2", "Y1", "G1", "R3", "R2", players=3, roll=6)
    after = RULES.apply(state, step("R1-1"))  # space 2 empties
    assert [s.label for s in after.spaces] == [1, 3, 4, 5, 6, 7, 8, 9]
    assert after.last.vanished and after.spaces[0].code == "Y3/R1"
    after = RULES.apply(after, step("R1+1"))  # one space from 1 is now space 3
    assert [s.code for s in after.spaces[:2]] == ["Y3", "G3/R1"]


def test_distances_are_counted_after_an_emptied_origin_space_is_removed():
    # A three-space ring: moving the whole stack at space 1 three spaces clockwise counts only the two
    # other spaces, so it goes round to space 2.
    state = position("R2/Y1", "G3/Y3/B3/B2/G2", "R3/Y2/R1/G1/B1", players=4, roll=6)
    after = RULES.apply(state, step("R2+3"))
    assert [s.label for s in after.spaces] == [2, 3]
    assert after.spaces[0].code == "G3/Y3/B3/B2/G2/R2/Y1"


def test_a_move_must_end_on_a_space_other_than_its_own():
    # Here the origin keeps a piece, so three spaces clockwise around a three-space ring is its own space.
    state = position("Y3/R1", "G3/B3/Y2/B2/G2/R2", "R3/Y1/G1/B1", players=4, roll=6)
    for text in ("R1+3", "R1-3", "R1+6"):
        with pytest.raises(IllegalMove, match="own space"):
            RULES.parse_move(state, text)
        assert step(text) not in RULES.legal_moves(state)
    assert codes(RULES.apply(state, step("R1+1")))[:2] == ["Y3", "G3/B3/Y2/B2/G2/R2/R1"]


def test_if_no_legal_move_exists_you_must_pass():
    # Everything stands in one stack: no piece has another space to go to, whatever the roll.
    state = position("R3/Y3/Y2/R2/R1/Y1", players=2, roll=None)
    after = RULES.apply(state, Roll(6))
    assert after.current == Y and RULES.pending_roll(after)
    assert after.passed == (R,) and after.last.kind == "pass" and after.last.forced
    assert "no legal move" in RULES.play(state, Roll(6)).description


# --- Winning -----------------------------------------------------------------------------------


def test_you_win_when_large_medium_small_stand_in_one_stack_in_that_order():
    state = position("R3/R2", "Y2", "G1", "R1", "Y1", "G3", "Y3", "G2", players=3, roll=3)
    after = RULES.apply(state, step("R1-3"))
    assert after.finish == FINISH_TREE and after.winner == R
    result = RULES.outcome(after)
    assert result.ranks == (1, 2, 2) and result.reason == "Red built a tree on space 1."  # R3/R2 lies on space 1
    assert RULES.to_move(after) is None and RULES.legal_moves(after) == ()


def test_other_pieces_may_lie_below_or_above_the_tree():
    state = position("Y3/R3/R2", "R1/G1", "Y1", "G3", "Y2", "G2", players=3, roll=6)
    after = RULES.apply(state, step("R1-1"))
    assert after.spaces[0].code == "Y3/R3/R2/R1/G1" and after.winner == R


def test_no_piece_of_another_colour_may_come_between_them():
    state = position("R3/Y2/R2", "R1", "G1", "Y1", "G3", "Y3", "G2", players=3, roll=6)
    after = RULES.apply(state, step("R1-1"))
    assert after.spaces[0].code == "R3/Y2/R2/R1"
    assert not after.over and after.winner is None


def test_the_win_is_checked_after_every_move():
    # Red wins with the first move of the turn, points still in hand: nothing more is played.
    state = position("R3/R2", "R1", "Y2", "G1", "Y1", "G3", "Y3", "G2", players=3, roll=6)
    after = RULES.apply(state, step("R1-1"))
    assert after.over and after.winner == R and RULES.to_move(after) is None
    with pytest.raises(IllegalMove, match="over"):
        RULES.apply(after, Pass())


def test_if_a_move_completes_trees_for_several_players_the_mover_wins():
    # A hand-built position where Red's tree already stands when Green completes its own:
    # after Green's move both trees stand, and Green, the mover, wins (not the first seat).
    # No single move can complete two trees, so the position is built by hand and never stored.
    state = position("R3/R2/R1", "G3/G2", "G1", "Y1", "Y3", "Y2", players=3, current=G, roll=6, stored=False)
    after = RULES.apply(state, step("G1-1"))
    assert after.spaces[1].code == "G3/G2/G1"
    assert after.winner == G
    assert RULES.outcome(after).winners == (G,)


def test_if_every_player_passes_in_one_full_round_the_game_is_drawn():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, current=Y, roll=None)
    for _ in range(2):
        state = RULES.apply(RULES.apply(state, Roll(6)), Pass())
    assert not state.over
    state = RULES.apply(RULES.apply(state, Roll(6)), Pass())
    assert state.over and state.finish == FINISH_PASSES
    result = RULES.outcome(state)
    assert result.is_draw and result.ranks == (1, 1, 1) and "passed" in result.reason


def test_a_turn_that_moves_a_piece_breaks_the_round_of_passes():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, current=Y, roll=None)
    state = RULES.apply(RULES.apply(state, Roll(6)), Pass())  # Yellow passes
    state = RULES.apply(state, Roll(2))
    state = RULES.apply(RULES.apply(state, step("G1+1")), Pass())  # Green moves, then ends
    assert state.passed == ()
    state = RULES.apply(RULES.apply(state, Roll(6)), Pass())  # Red passes
    state = RULES.apply(RULES.apply(state, Roll(6)), Pass())  # Yellow passes
    assert not state.over and state.passed == (R, Y)


def _limit_games(players: int, rounds: int, resign_at: int | None = None) -> list[HedgehogState]:
    """Final states of random games that ran to the round limit (one seat leaving at ply ``resign_at``)."""
    ends = []
    for seed in range(40):
        states = []
        for ply, state in enumerate(playout(RULES, players, {"round_limit": rounds}, seed=seed)):
            if resign_at is not None and ply == resign_at and not state.over:
                break
            states.append(state)
        last = states[-1]
        if resign_at is not None and not last.over:
            last = RULES.resign(last, (last.current + 1) % players)
            chooser = random.Random(seed)
            while not last.over:
                moves = RULES.legal_moves(last) or [Roll(chooser.randint(1, 6))]
                last = RULES.apply(last, moves[chooser.randrange(len(moves))])
        if last.finish == FINISH_LIMIT:
            ends.append(last)
    return ends


def test_ruling_turn_limit_counts_rounds_default_40_every_player_has_had_40_turns():
    # "turn limit, counted in rounds (default 40 rounds: the game stops once every player has had
    # 40 turns, so the limit scales with the table); reaching it is a draw"
    for players in (2, 3, 5):
        state = RULES.new_game(players, {}, random.Random(0))
        assert state.round_limit == 40 and state.turn_limit == 40 * players
        assert RULES.status_line(state).endswith("(round 1 of 40).")
    ends = _limit_games(3, 2)
    assert ends
    for state in ends:
        assert state.seat_turns == (2, 2, 2) and state.turns == 6
        result = RULES.outcome(state)
        assert result.is_draw and "2 rounds" in result.reason and "every player has had 2 turns" in result.reason


def test_ruling_round_limit_after_a_player_leaves_every_remaining_player_has_had_the_rounds():
    ends = _limit_games(3, 3, resign_at=3)
    assert ends
    for state in ends:
        (gone,) = state.out
        assert all(state.seat_turns[seat] == 3 for seat in state.active)
        assert state.seat_turns[gone] <= 3
        assert RULES.outcome(state).ranks[gone] == 3


def test_ruling_solitaire_keeps_its_own_turn_limit():
    state = RULES.new_game(1, {}, random.Random(0))
    assert state.turn_limit == 200 and state.round_limit == 0
    assert RULES.new_game(1, {"turn_limit": 3, "round_limit": 1}, random.Random(0)).turn_limit == 3


def test_a_game_stored_before_rounds_were_counted_keeps_its_total_turn_limit():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=None, turn_limit=2)
    stored = RULES.to_json(state)
    del stored["round_limit"], stored["seat_turns"]
    state = RULES.from_json(stored)
    assert state.round_limit == 0 and state.seat_turns == ()
    state = RULES.apply(RULES.apply(state, Roll(6)), Pass())  # turn 1
    assert not state.over
    state = RULES.apply(RULES.apply(RULES.apply(state, Roll(6)), step("Y2-1")), Pass())  # turn 2
    assert state.finish == FINISH_LIMIT and state.turns == 2
    result = RULES.outcome(state)
    assert result.is_draw and "turn limit" in result.reason


def test_solitaire_passing_does_not_end_the_game():
    state = RULES.new_game(1, {}, random.Random(0))
    for _ in range(10):
        state = RULES.apply(state, Roll(6))
        state = RULES.apply(state, Pass())
    assert not state.over and state.turns == 10 and RULES.to_move(state) == R


def test_solitaire_records_the_number_of_turns_taken():
    state = RULES.new_game(1, {}, random.Random(0))  # R3, R2, R1
    state = RULES.apply(RULES.apply(state, Roll(6)), Pass())
    state = RULES.apply(state, Roll(3))
    state = RULES.apply(state, step("R2-1"))  # onto R3
    state = RULES.apply(state, step("R1+1"))  # wraps onto R3/R2
    result = RULES.outcome(state)
    assert result.ranks == (1,) and result.scores == (2.0,) and "2 turns" in result.reason


def test_solitaire_records_a_failure_at_the_turn_limit():
    state = RULES.new_game(1, {"turn_limit": 3}, random.Random(0))
    for _ in range(3):
        state = RULES.apply(RULES.apply(state, Roll(6)), Pass())
    result = RULES.outcome(state)
    assert state.finish == FINISH_LIMIT and result.ranks == (2,) and result.winners == ()
    assert result.scores == (3.0,) and "Failed" in result.reason


# --- Decisions where the rulings are silent (docs/rules/hedgehog.md, "Our decisions") ----------


def test_clockwise_plus_follows_the_layout_order():
    state = frozen_roll(RULES.new_game(4, {}, random.Random(1)), R, 6)
    after = RULES.apply(state, step("R1+1"))  # R1 at space 9 goes to space 10 (Y3)
    assert [s.code for s in after.spaces if s.label == 10] == ["Y3/R1"]
    after = RULES.apply(state, step("R1-1"))  # and anticlockwise to space 8 (B2)
    assert [s.code for s in after.spaces if s.label == 8] == ["B2/R1"]


def frozen_roll(state: HedgehogState, seat: int, value: int) -> HedgehogState:
    """``state`` with ``seat`` to move having rolled ``value``."""
    return RULES.apply(dataclasses.replace(state, current=seat), Roll(value))


def test_a_turn_ends_by_itself_when_its_points_are_spent():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=1)
    after = RULES.apply(state, step("R1+1"))
    assert after.current == Y and RULES.pending_roll(after)
    assert after.last.turn_over and after.last.forced and after.passed == ()


def test_a_turn_ends_by_itself_when_points_are_left_but_no_move_is():
    # R1 joins the only other stack: with one space left nothing can move, though 1 point is unspent.
    state = position("R3/Y3/Y2/R2", "R1/Y1", players=2, roll=2)
    after = RULES.apply(state, step("R1+1"))
    assert codes(after) == ["R3/Y3/Y2/R2/R1/Y1"]
    assert after.current == Y and after.last.turn_over and after.last.forced and after.passed == ()
    assert "turn ends" in RULES.play(state, step("R1+1")).description


def test_a_move_may_go_round_past_its_own_space():
    state = position("Y3/R1", "G3/Y2/G2", "R3/R2/Y1/G1", players=3, roll=6)
    after = RULES.apply(state, step("R1+4"))  # 3 is its own space; 4 reaches space 2
    assert after.spaces[1].code == "G3/Y2/G2/R1"


def test_a_player_who_leaves_keeps_their_pieces_in_the_ring_and_is_skipped():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, current=R, roll=None)
    left = RULES.resign(state, Y)
    assert codes(left) == codes(state) and left.out == (Y,)
    left = RULES.apply(RULES.apply(left, Roll(6)), Pass())
    assert left.current == G
    # Yellow's pieces still ride along when carried.
    carried = position("R3/Y2", "G3", "G1", "R2", "Y1", "Y3", "R1", "G2", players=3, roll=3, out=(Y,))
    assert codes(RULES.apply(carried, step("R3+1")))[0] == "G3/R3/Y2"


def test_a_player_who_leaves_ranks_below_those_still_playing():
    state = position("R3/R2", "R1", "Y2", "G1", "Y1", "G3", "Y3", "G2", players=3, roll=6)
    state = RULES.resign(state, G)
    after = RULES.apply(state, step("R1-1"))
    assert RULES.outcome(after).ranks == (1, 2, 3)


def test_with_two_players_the_other_wins_when_one_leaves():
    state = RULES.new_game(2, {}, random.Random(0))
    after = RULES.resign(state, R)
    result = RULES.outcome(after)
    assert result.ranks == (2, 1) and RULES.to_move(after) is None


def test_solitaire_giving_up_is_a_failure():
    state = RULES.new_game(1, {}, random.Random(0))
    result = RULES.outcome(RULES.resign(state, R))
    assert result.ranks == (2,) and result.winners == ()


def test_a_player_out_of_time_passes():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=5)
    assert RULES.timeout_move(state) == Pass()
    assert (
        RULES.timeout_move(position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=None)) is None
    )


def test_a_leaving_player_after_everyone_else_passed_ends_the_round_of_passes_in_a_draw():
    state = position(
        "R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, current=G, roll=None, passed=(R, Y)
    )
    assert RULES.resign(state, G).finish == FINISH_PASSES
    # ...but a player who has not passed yet is still owed a turn.
    state = position(
        "R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, current=G, roll=None, passed=(R, Y)
    )
    assert not RULES.resign(state, R).over


def test_space_labels_stay_with_their_space():
    state = frozen_roll(RULES.new_game(3, {}, random.Random(0)), R, 6)  # R2 stands on space 4
    after = RULES.apply(state, step("R2+2"))  # onto G3 on space 6
    assert [s.label for s in after.spaces] == [1, 2, 3, 5, 6, 7, 8, 9]
    assert [s.code for s in after.spaces if s.label == 6] == ["G3/R2"]
    assert (after.last.origin, after.last.target) == (4, 6)


# --- Notation ----------------------------------------------------------------------------------


def test_notation_piece_sign_and_distance_round_trip_and_forgiving():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=6)
    assert RULES.format_move(state, step("R2+2")) == "R2+2"
    assert RULES.format_move(state, step("R2-2")) == "R2-2"
    for text in ("r2+2", " R2 + 2 ", "r 2 +2", "R2\uff0b2"):
        assert RULES.parse_move(state, text) == step("R2+2")
    assert RULES.parse_move(state, "R2\u22122") == step("R2-2")
    assert RULES.parse_move(state, "PASS") == Pass()
    for move in RULES.legal_moves(state):
        assert RULES.parse_move(state, RULES.format_move(state, move)) == move


def test_notation_refusals_are_one_readable_sentence():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=6)
    with pytest.raises(BadNotation):
        RULES.parse_move(state, "R4+1")
    with pytest.raises(BadNotation):
        RULES.parse_move(state, "Z2+1")
    with pytest.raises(BadNotation):
        RULES.parse_move(state, "R2 3")
    with pytest.raises(IllegalMove, match="Yellow"):
        RULES.parse_move(state, "Y2+1")
    with pytest.raises(IllegalMove, match="no black piece"):
        RULES.parse_move(state, "K2+1")
    with pytest.raises(IllegalMove, match="at least one"):
        RULES.parse_move(state, "R2+0")


def test_damaged_stored_games_are_refused():
    state = position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=6)
    good = RULES.to_json(state)
    broken = [
        {**good, "spaces": [[1, ["R3"]]]},  # pieces missing
        {**good, "spaces": good["spaces"] + [[10, ["R3"]]]},  # a piece twice
        {**good, "current": 7},
        {**good, "roll": 9},
        {**good, "points": 7},
        {**good, "moved": "yes"},
        {**good, "players": True},
        {**good, "finish": "won"},
        {k: v for k, v in good.items() if k != "last"},
    ]
    for data in broken:
        with pytest.raises(BadState):
            RULES.from_json(data)


def test_the_last_player_still_in_wins_when_everyone_else_leaves():
    state = RULES.new_game(3, {}, random.Random(0))
    state = RULES.resign(state, R)
    assert not state.over
    state = RULES.resign(state, G)
    result = RULES.outcome(state)
    assert state.over and result.ranks == (3, 1, 2) and "left" in result.reason
