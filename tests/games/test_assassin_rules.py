"""One scenario per ruling of The Martian Assassination Game (docs/rules/assassin.md).

Positions are built directly with ``make`` (square names, seat numbers) and driven by applying
chosen rolls and moves; every expectation is read from the rules page, not from the engine.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.assassin import RULES, SAFE, Move, Phase, Reroll, Roll, State, Stay
from games.base import BadNotation, BadOptions, BadState, IllegalMove

FILES = "abcdefghijkl"


def sq(name: str, size: int = 10) -> int:
    """Square number of ``name`` on a ``size`` board."""
    return (int(name[1:]) - 1) * size + FILES.index(name[0])


def names(squares, size: int = 10) -> set[str]:
    return {f"{FILES[s % size]}{s // size + 1}" for s in squares}


def make(
    players: int,
    victim: int,
    where: dict[int, str],
    *,
    turn: int | None = None,
    anchor: int | None = None,
    size: int = 10,
    short_game: bool = False,
    limit: int = 200,
    markers: dict[int, tuple[str, ...]] | None = None,
    captures: dict[int, int] | None = None,
    victim_turns: int = 0,
) -> State:
    """A position with a roll pending for ``turn`` (default: the victim)."""
    positions = tuple(SAFE if where[seat] == "safehouse" else sq(where[seat], size) for seat in range(players))
    marks = tuple(tuple(sorted(sq(b, size) for b in (markers or {}).get(seat, ()))) for seat in range(players))
    turn = victim if turn is None else turn
    return State(
        players=players,
        size=size,
        short_game=short_game,
        limit=limit,
        victim=victim,
        positions=positions,
        markers=marks,
        captures=tuple((captures or {}).get(seat, 0) for seat in range(players)),
        turn=turn,
        anchor=turn if anchor is None else anchor,
        phase=Phase.ROLL,
        die=None,
        victim_turns=victim_turns,
    )


def reachable(state: State, die: int) -> set[str]:
    """Names of the squares the player to move may choose after rolling ``die``."""
    rolled = RULES.apply(state, Roll(die))
    squares: list[int] = []
    for m in RULES.legal_moves(rolled):
        assert isinstance(m, Move), m
        squares.append(m.to)
    return names(squares)


def play(state: State, die: int, to: str) -> State:
    rolled = RULES.apply(state, Roll(die))
    return RULES.apply(rolled, RULES.parse_move(rolled, to))


class Fixed(random.Random):
    """An RNG whose ``randrange`` always answers ``value``."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def randrange(self, *args, **kwargs) -> int:
        return self.value


# Four-player corner setup with the victim (seat 0) somewhere open; assassins far away.
FAR = {1: "a10", 2: "j10", 3: "j1"}


# ---------------------------------------------------------------- Board


def test_board_safehouse_is_one_space_touching_its_eight_orthogonal_neighbours():
    state = make(4, 0, {0: "safehouse", **FAR})
    assert reachable(state, 1) == {"d5", "d6", "g5", "g6", "e4", "f4", "e7", "f7"}


def test_board_bases_in_a_pinwheel_e1_j5_f10_a6():
    state = make(4, 0, {0: "safehouse", **FAR})
    assert names(state.board.bases) == {"e1", "j5", "f10", "a6"}
    # the mirror squares are plain squares: ending there marks nothing
    for plain, start, die in (("f1", "f3", 2), ("j6", "h6", 2), ("e10", "e8", 2), ("a5", "c5", 2)):
        after = play(make(4, 0, {0: start, **FAR}), die, plain)
        assert after.markers[0] == ()


def test_option_12x12_board_for_6_to_9_players():
    state = RULES.new_game(6, {"board": 12}, Fixed(0))
    assert state.size == 12
    assert names(state.board.bases, 12) == {"f1", "l6", "g12", "a7"}
    assert names(state.board.safehouse, 12) == {"f6", "g6", "f7", "g7"}
    assert state.positions[0] == SAFE
    victim_turn = dataclasses.replace(state, turn=0)
    rolled = RULES.apply(victim_turn, Roll(1))
    assert names((m.to for m in RULES.legal_moves(rolled)), 12) == {"e6", "e7", "h6", "h7", "f5", "g5", "f8", "g8"}
    with pytest.raises(BadOptions):
        RULES.new_game(5, {"board": 12}, Fixed(0))


# ---------------------------------------------------------------- Setup


def test_setup_first_victim_is_drawn_at_random_and_starts_in_the_safehouse():
    for seat in range(5):
        state = RULES.new_game(5, {}, Fixed(seat))
        assert state.victim == seat
        assert state.positions[seat] == SAFE
        assert all(state.markers[s] == () for s in range(5))


@pytest.mark.parametrize(
    ("players", "size", "squares"),
    [
        (3, 10, ["a1", "j10"]),
        (4, 10, ["a1", "j10", "j1"]),
        (5, 10, ["a1", "j10", "j1", "a10"]),
        (6, 10, ["a2", "b1", "j9", "i10", "j2"]),
        (9, 10, ["a2", "b1", "j9", "i10", "j2", "i1", "a9", "b10"]),
        (7, 12, ["a2", "b1", "l11", "k12", "l2", "k1"]),
        (9, 12, ["a2", "b1", "l11", "k12", "l2", "k1", "a11", "b12"]),
    ],
)
def test_setup_assassin_start_squares(players, size, squares):
    state = RULES.new_game(players, {"board": size}, Fixed(0))
    # seat 0 is the victim, so seats 1, 2, ... are the assassins in turn order
    got = [names([state.positions[seat]], size).pop() for seat in range(1, players)]
    assert got == squares


def test_decision_start_squares_follow_turn_order():
    state = RULES.new_game(5, {}, Fixed(2))
    expected = {3: "a1", 4: "j10", 0: "j1", 1: "a10"}
    assert {seat: names([state.positions[seat]]).pop() for seat in expected} == expected


# ---------------------------------------------------------------- Turn order


def test_turn_order_victim_after_each_assassin_starting_after_the_victim():
    state = RULES.new_game(4, {}, Fixed(2))
    seen = []
    for _ in range(8):
        seat = RULES.to_move(state)
        seen.append(seat)
        state = RULES.apply(state, Roll(0))
        if state.phase == "null":
            state = RULES.apply(state, Stay())
    assert seen == [3, 2, 0, 2, 1, 2, 3, 2]


# ---------------------------------------------------------------- Movement


def test_movement_exact_count_orthogonal_steps():
    state = make(4, 0, {0: "j5", 1: "a1", 2: "a10", 3: "j10"}, turn=1)
    assert reachable(state, 2) == {"a3", "b2", "c1"}
    assert reachable(state, 1) == {"a2", "b1"}


def test_movement_no_straight_back_revisits_allowed_but_not_ending_on_start():
    # Victim boxed in a 2x2 pocket a1 a2 b1 b2 by four assassins (5 players: orthogonal only).
    pocket = {0: "a1", 1: "a3", 2: "b3", 3: "c1", 4: "c2"}
    state = make(5, 0, pocket)
    assert reachable(state, 2) == {"b2"}
    # five steps must go round the pocket, passing the start again
    assert reachable(state, 5) == {"a2", "b1"}
    # four steps would only come back to a1: no legal move, the turn passes
    after = RULES.apply(state, Roll(4))
    assert after.positions[0] == sq("a1")
    assert RULES.to_move(after) == 1 and RULES.pending_roll(after)


def test_movement_victim_steps_diagonally_with_six_or_more_players():
    six = make(6, 0, {0: "e3", 1: "a1", 2: "a10", 3: "j10", 4: "j1", 5: "a2"})
    assert reachable(six, 1) == {"d2", "d3", "d4", "e2", "e4", "f2", "f3", "f4"}
    five = make(5, 0, {0: "e3", 1: "a1", 2: "a10", 3: "j10", 4: "j1"})
    assert reachable(five, 1) == {"d3", "e2", "e4", "f3"}
    # assassins never step diagonally
    hunter = make(6, 0, {0: "e3", 1: "c3", 2: "a10", 3: "j10", 4: "j1", 5: "a2"}, turn=1)
    assert reachable(hunter, 1) == {"b3", "c2", "c4", "d3"}


def test_movement_safehouse_left_only_orthogonally_even_with_diagonals():
    state = make(6, 0, {0: "safehouse", 1: "a1", 2: "a10", 3: "j10", 4: "j1", 5: "a2"})
    assert reachable(state, 1) == {"d5", "d6", "g5", "g6", "e4", "f4", "e7", "f7"}


def test_movement_must_move_if_a_square_is_reachable_otherwise_turn_passes():
    state = make(4, 0, {0: "c3", **FAR})
    rolled = RULES.apply(state, Roll(1))
    assert rolled.phase == "move" and RULES.to_move(rolled) == 0
    # victim in the safehouse with every exit held: nothing to do, the turn passes
    ring = {0: "safehouse", 1: "d5", 2: "d6", 3: "g5", 4: "g6", 5: "e4", 6: "f4", 7: "e7", 8: "f7"}
    boxed = make(9, 0, ring, anchor=8)
    after = RULES.apply(boxed, Roll(3))
    assert after.positions[0] == SAFE and RULES.to_move(after) == 1


def test_victim_null_may_be_rerolled_as_often_as_it_comes():
    state = make(4, 0, {0: "c3", **FAR})
    for _ in range(3):
        state = RULES.apply(state, Roll(0))
        assert RULES.to_move(state) == 0 and not RULES.pending_roll(state)
        assert set(RULES.legal_moves(state)) == {Reroll(), Stay()}
        state = RULES.apply(state, Reroll())
        assert RULES.to_move(state) == 0 and RULES.pending_roll(state)
    after = play(state, 2, "c5")
    assert after.positions[0] == sq("c5")


def test_victim_may_not_pass_over_or_land_on_an_assassin():
    state = make(4, 0, {0: "c3", 1: "c4", 2: "a10", 3: "j10"}, anchor=1)
    assert "c4" not in reachable(state, 1)
    assert "c5" not in reachable(state, 2)  # straight over c4 is the only way
    rolled = RULES.apply(state, Roll(1))
    with pytest.raises(IllegalMove, match="assassin"):
        RULES.parse_move(rolled, "c4")


def test_victim_leaving_the_safehouse_is_the_first_step():
    state = make(4, 0, {0: "safehouse", **FAR})
    two = reachable(state, 2)
    assert {"e3", "c5", "d4", "h6"} <= two
    assert "e2" not in two and "c6" in two


def test_victim_may_not_reenter_the_safehouse():
    state = make(4, 0, {0: "d5", **FAR})
    assert reachable(state, 1) == {"c5", "d4"} | {"d6"}
    assert "g5" not in reachable(state, 3)  # straight through the safehouse would be d5 e5 f5 g5
    rolled = RULES.apply(state, Roll(1))
    with pytest.raises(IllegalMove, match="safehouse"):
        RULES.parse_move(rolled, "e5")


def test_victim_base_counts_only_when_the_move_ends_on_it():
    passing = play(make(4, 0, {0: "d1", **FAR}), 2, "f1")  # d1 e1 f1 passes over the base
    assert passing.markers[0] == ()
    landing = play(make(4, 0, {0: "d1", **FAR}), 1, "e1")
    assert names(landing.markers[0]) == {"e1"}
    assert landing.last.base == sq("e1")


def test_assassin_null_cannot_move():
    state = make(4, 0, {0: "e3", 1: "a1", 2: "a10", 3: "j10"}, turn=1)
    after = RULES.apply(state, Roll(0))
    assert after.positions[1] == sq("a1")
    assert RULES.to_move(after) == 0 and RULES.pending_roll(after)
    assert after.last.passed


def test_assassin_may_pass_over_assassins_but_not_end_on_one():
    state = make(4, 0, {0: "e3", 1: "a1", 2: "a2", 3: "j10"}, turn=1)
    assert "a3" in reachable(state, 2)
    assert "a2" not in reachable(state, 1)
    rolled = RULES.apply(state, Roll(1))
    with pytest.raises(IllegalMove, match="assassin"):
        RULES.parse_move(rolled, "a2")


def test_assassin_may_not_pass_over_the_victim():
    state = make(4, 0, {0: "a2", 1: "a1", 2: "a10", 3: "j10"}, turn=1)
    assert "a3" not in reachable(state, 2)
    assert "a2" in reachable(state, 1)  # ending on the victim is a capture


def test_assassin_may_pass_over_bases_but_not_end_on_one():
    state = make(4, 0, {0: "c5", 1: "d1", 2: "a10", 3: "j10"}, turn=1)
    assert "f1" in reachable(state, 2)
    assert "e1" not in reachable(state, 1)
    rolled = RULES.apply(state, Roll(1))
    with pytest.raises(IllegalMove, match="base"):
        RULES.parse_move(rolled, "e1")


def test_assassin_may_never_enter_the_safehouse():
    state = make(4, 0, {0: "a6", 1: "d5", 2: "a10", 3: "j10"}, turn=1)
    assert reachable(state, 1) == {"c5", "d4", "d6"}
    assert "g5" not in reachable(state, 3)
    rolled = RULES.apply(state, Roll(1))
    with pytest.raises(IllegalMove, match="safehouse"):
        RULES.parse_move(rolled, "e5")


# ---------------------------------------------------------------- Capture and winning


def test_capture_capturer_becomes_victim_in_safehouse_and_old_victim_loses_markers():
    state = make(4, 0, {0: "c4", 1: "c1", 2: "a10", 3: "j10"}, turn=1, markers={0: ("e1", "j5")})
    after = play(state, 3, "c4")
    assert after.victim == 1
    assert after.positions[1] == SAFE
    assert after.positions[0] == sq("c4")  # the old victim stays where it was caught
    assert after.markers[0] == ()
    assert after.captures == (0, 1, 0, 0)
    assert after.last.captured == 0
    # the new victim moves next, then the assassin seated after the capturer, then the victim again...
    order = []
    for _ in range(6):
        order.append(RULES.to_move(after))
        after = RULES.apply(after, Roll(0))
        if after.phase == "null":
            after = RULES.apply(after, Stay())
    assert order == [1, 2, 1, 3, 1, 0]


def test_victim_wins_on_touching_all_four_bases_in_one_run():
    state = make(4, 0, {0: "a4", **FAR}, markers={0: ("e1", "j5", "f10")}, captures={2: 1})
    after = play(state, 2, "a6")
    assert RULES.to_move(after) is None
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winners == (0,)
    # the others follow by bases marked, then captures
    assert outcome.ranks == (1, 3, 2, 3)


def test_captures_are_counted_per_player_and_shown_in_results():
    state = make(4, 0, {0: "c4", 1: "c1", 2: "a10", 3: "j10"}, turn=1, captures={1: 2, 3: 1})
    after = play(state, 3, "c4")
    assert after.captures == (0, 3, 0, 1)
    ended = RULES.resign(RULES.resign(after, 2), 3)
    ended = RULES.resign(ended, 0)
    assert RULES.outcome(ended).scores == (0.0, 3.0, 0.0, 1.0)
    assert "Captures: Blue 3, Green 1." in RULES.outcome(ended).reason


def test_option_short_game_keeps_markers_through_captures_and_four_in_total_wins():
    state = make(
        4,
        0,
        {0: "c4", 1: "c1", 2: "a10", 3: "j10"},
        turn=1,
        short_game=True,
        markers={0: ("e1", "j5"), 1: ("e1", "j5", "f10")},
    )
    after = play(state, 3, "c4")
    assert names(after.markers[0]) == {"e1", "j5"}
    # the capturer, now victim, already holds three bases from an earlier run
    moved = play(after, 1, "d6")
    moved = RULES.apply(moved, Roll(0))  # the next assassin cannot move
    won = play(moved, 3, "a6")  # d6 c6 b6 a6
    assert RULES.outcome(won).winners == (1,)


def test_ruling_victim_turn_limit_is_a_ranked_finish_by_bases_then_captures():
    # "Reaching it is a ranked finish, not a draw: players are ranked by bases held, then captures;
    # equal counts share a place. The result names it 'finished at the limit'."
    state = make(4, 0, {0: "c3", **FAR}, markers={0: ("e1",)}, captures={1: 2, 2: 2}, victim_turns=199)
    after = play(state, 1, "c4")
    outcome = RULES.outcome(after)
    assert outcome is not None and after.victim_turns == 200
    assert outcome.ranks == (1, 2, 2, 4)
    assert outcome.winners == (0,) and not outcome.is_draw
    assert "finished at the limit" in outcome.reason
    # the result field shows what the places were decided on, in words
    assert outcome.details == (
        "1 base, 0 captures",
        "0 bases, 2 captures",
        "0 bases, 2 captures",
        "0 bases, 0 captures",
    )
    assert "draw" not in outcome.reason.lower()
    assert "draw" not in RULES.play(RULES.apply(state, Roll(1)), Move(sq("c4"))).description.lower()
    assert "finished at the limit" in RULES.status_line(after)
    unlimited = make(4, 0, {0: "c3", **FAR}, limit=0, victim_turns=199)
    assert RULES.outcome(play(unlimited, 1, "c4")) is None


def test_ruling_victim_turn_limit_captures_break_equal_bases_and_equal_counts_share_a_place():
    # no bases anywhere: captures decide; 3 and 1 level on one capture share second place
    state = make(4, 0, {0: "c3", **FAR}, captures={0: 0, 1: 1, 2: 3, 3: 1}, victim_turns=199)
    outcome = RULES.outcome(play(state, 1, "c4"))
    assert outcome.ranks == (4, 2, 1, 2)
    assert "finished at the limit" in outcome.reason and "draw" not in outcome.reason.lower()


def test_ruling_victim_turn_limit_is_drawn_only_when_every_player_shares_first_place():
    # "calls it drawn only when every player shares first place"
    level = make(4, 0, {0: "c3", **FAR}, victim_turns=199)
    outcome = RULES.outcome(play(level, 1, "c4"))
    assert outcome.ranks == (1, 1, 1, 1) and outcome.is_draw
    assert "finished at the limit" in outcome.reason and "drawn" in outcome.reason
    # a seat that left ranks last, so the rest sharing first is not a draw
    left = RULES.resign(make(4, 0, {0: "c3", **FAR}, victim_turns=199), 3)
    outcome = RULES.outcome(play(left, 1, "c4"))
    assert outcome.ranks == (1, 1, 1, 4) and not outcome.is_draw
    assert "draw" not in outcome.reason.lower()


def test_options_defaults_and_refusals():
    state = RULES.new_game(4, {}, Fixed(0))
    assert (state.size, state.short_game, state.limit) == (10, False, 200)
    assert RULES.new_game(4, {"turn_limit": False}, Fixed(0)).limit == 0
    with pytest.raises(BadOptions):
        RULES.new_game(2, {}, Fixed(0))
    with pytest.raises(BadOptions):
        RULES.new_game(10, {}, Fixed(0))
    with pytest.raises(BadOptions):
        RULES.new_game(4, {"board": 11}, Fixed(0))


# ---------------------------------------------------------------- Decisions (rules page)


def test_decision_null_for_the_victim_is_a_choice_and_stay_ends_the_turn():
    state = make(4, 0, {0: "c3", **FAR}, turn=0, anchor=3)
    after = RULES.apply(RULES.apply(state, Roll(0)), Stay())
    assert after.positions[0] == sq("c3")
    assert after.victim_turns == 1
    assert RULES.to_move(after) == 1


def test_decision_no_straight_back_applies_within_one_move_only():
    state = make(4, 0, {0: "c3", **FAR})
    moved = play(state, 1, "c4")
    moved = RULES.apply(moved, Roll(0))  # assassin 1 cannot move
    assert "c3" in reachable(moved, 1)


def test_decision_diagonal_steps_pass_over_nothing():
    state = make(6, 0, {0: "d3", 1: "d4", 2: "e3", 3: "j10", 4: "j1", 5: "a2"})
    assert "e4" in reachable(state, 1)


def test_decision_diagonal_mode_is_fixed_by_the_starting_player_count():
    state = make(6, 0, {0: "e3", 1: "a1", 2: "a10", 3: "j10", 4: "j1", 5: "a2"})
    state = RULES.resign(RULES.resign(state, 4), 5)
    assert "d2" in reachable(state, 1)


def test_decision_a_victim_on_a_base_cannot_be_captured():
    state = make(4, 0, {0: "e1", 1: "d1", 2: "a10", 3: "j10"}, turn=1)
    rolled = RULES.apply(state, Roll(1))
    assert Move(sq("e1")) not in RULES.legal_moves(rolled)
    with pytest.raises(IllegalMove):
        RULES.apply(rolled, Move(sq("e1")))


def test_decision_marking_is_once_per_base():
    state = make(4, 0, {0: "d1", **FAR}, markers={0: ("e1",)})
    after = play(state, 1, "e1")
    assert names(after.markers[0]) == {"e1"} and after.last.base is None


def test_decision_turn_limit_counts_kept_nulls_and_passes_and_a_win_on_the_last_turn_wins():
    state = make(4, 0, {0: "c3", **FAR}, victim_turns=10)
    assert RULES.apply(RULES.apply(state, Roll(0)), Stay()).victim_turns == 11
    last = make(4, 0, {0: "a4", **FAR}, markers={0: ("e1", "j5", "f10")}, victim_turns=199)
    won = play(last, 2, "a6")
    assert RULES.outcome(won).winners == (0,) and won.end == "bases"


def test_decision_leaving_assassin_piece_removed_and_turn_passes_to_victim():
    state = make(4, 0, {0: "c3", 1: "a1", 2: "a10", 3: "j10"}, turn=1)
    rolled = RULES.apply(state, Roll(2))
    after = RULES.resign(rolled, 1)
    assert after.positions[1] is None and RULES.to_move(after) == 0 and RULES.pending_roll(after)
    after = RULES.apply(RULES.apply(after, Roll(0)), Stay())
    assert RULES.to_move(after) == 2


def test_decision_leaving_victim_replaced_by_next_seat_in_safehouse():
    state = make(4, 1, {1: "c3", 2: "a1", 3: "a10", 0: "j10"}, turn=3, anchor=3)
    after = RULES.resign(state, 1)
    assert after.victim == 2 and after.positions[2] == SAFE and after.positions[1] is None
    assert RULES.to_move(after) == 2 and RULES.pending_roll(after)
    assert after.captures == (0, 0, 0, 0)
    after = RULES.apply(RULES.apply(after, Roll(0)), Stay())
    assert RULES.to_move(after) == 3


def test_decision_last_player_left_wins_and_leavers_rank_last():
    state = make(3, 0, {0: "c3", 1: "a1", 2: "j10"}, turn=1)
    after = RULES.resign(RULES.resign(state, 2), 0)
    outcome = RULES.outcome(after)
    assert RULES.to_move(after) is None
    assert outcome.ranks == (2, 1, 3)


def test_decision_timeout_stays_after_null_or_moves_to_the_first_listed_square():
    state = make(4, 0, {0: "c3", **FAR})
    assert RULES.timeout_move(RULES.apply(state, Roll(0))) == Stay()
    rolled = RULES.apply(state, Roll(1))  # b3, c2, c4, d3: file b comes first
    assert RULES.timeout_move(rolled) == Move(sq("b3"))
    assert RULES.timeout_move(state) is None  # the bot rolls for an absent player; nothing to choose yet


# ---------------------------------------------------------------- Moves and notation


def test_notation_path_shown_has_fewest_turns_then_lowest_squares():
    # d1 holds an assassin, so the lowest way d3 d2 d1 e1 is shut
    state = make(4, 0, {0: "d3", 1: "d1", 2: "a10", 3: "j10"})
    after = play(state, 3, "e1")
    assert [names([s]).pop() for s in after.last.path] == ["d3", "e3", "e2", "e1"]
    open_board = play(make(4, 0, {0: "a3", **FAR}), 2, "b2")
    assert [names([s]).pop() for s in open_board.last.path] == ["a3", "a2", "b2"]


def test_notation_parse_is_forgiving_and_refuses_out_of_phase_input():
    state = make(4, 0, {0: "c3", **FAR})
    assert RULES.parse_move(state, " ROLL  null ") == Roll(0)
    assert RULES.parse_move(state, "roll ace") == Roll(1)
    with pytest.raises(IllegalMove, match="roll"):
        RULES.parse_move(state, "c4")
    rolled = RULES.apply(state, Roll(1))
    assert RULES.parse_move(rolled, " C4 ") == Move(sq("c4"))
    assert RULES.parse_move(rolled, "to c4") == Move(sq("c4"))
    with pytest.raises(IllegalMove):
        RULES.parse_move(rolled, "roll 3")
    with pytest.raises(IllegalMove, match="c6 is 3 steps away: a roll of 1 cannot reach it"):
        RULES.parse_move(rolled, "c6")
    three = RULES.apply(state, Roll(3))
    with pytest.raises(IllegalMove, match="c5 is 2 steps away: exactly 3 steps can never end there"):
        RULES.parse_move(three, "c5")  # orthogonal steps: an odd roll never ends an even distance away
    # in reach, but the one way there passes over the victim on b3
    blocked = RULES.apply(make(4, 0, {0: "b3", 1: "a3", 2: "j10", 3: "j1"}, turn=1), Roll(2))
    with pytest.raises(IllegalMove, match="c3 cannot be reached in exactly 2 steps without passing over the victim"):
        RULES.parse_move(blocked, "c3")

    with pytest.raises(BadNotation):
        RULES.parse_move(rolled, "k4")
    with pytest.raises(BadNotation) as typed:  # typed markup is echoed inside code, never drawn
        RULES.parse_move(rolled, "**bold** `code`")
    assert str(typed.value) == "`**bold** ˋcodeˋ` is not a move: type a square such as d4."
    with pytest.raises(BadNotation):
        RULES.parse_move(state, "roll 6")
    with pytest.raises(IllegalMove):
        RULES.parse_move(rolled, "stay")
    nulled = RULES.apply(state, Roll(0))
    assert RULES.parse_move(nulled, "Re-roll") == Reroll()
    assert RULES.format_move(nulled, Stay()) == "stay"


@pytest.mark.parametrize(
    ("where", "turn", "die", "square", "said"),
    [
        # nobody passes through the safehouse (e5-f6): e4 to e7 goes round it
        ({0: "j10", 1: "e4", 2: "a1", 3: "a10"}, 1, 3, "e7", "e7 is 5 steps away: a roll of 3 cannot reach it."),
        # a diagonal victim (six players) cannot cut across it either
        (
            {0: "e4", 1: "a1", 2: "j10", 3: "a10", 4: "j1", 5: "b1"},
            0,
            2,
            "g6",
            "g6 is 3 steps away: a roll of 2 cannot reach it.",
        ),
        # the victim in the safehouse steps out by an exit
        ({0: "safehouse", 1: "a1", 2: "j10", 3: "a10"}, 0, 1, "a5", "a5 is 4 steps away: a roll of 1 cannot reach it."),
    ],
)
def test_a_square_out_of_reach_round_the_safehouse_is_refused_as_out_of_reach(where, turn, die, square, said):
    state = RULES.apply(make(len(where), 0, where, turn=turn), Roll(die))
    with pytest.raises(IllegalMove) as refused:
        RULES.parse_move(state, square)
    assert str(refused.value) == said


def test_notation_describe_says_path_bases_and_capture():
    state = make(4, 0, {0: "d1", **FAR}, markers={0: ("j5",)})
    rolled = RULES.apply(state, Roll(1))
    text = RULES.play(rolled, Move(sq("e1"))).description
    assert "d1 → e1" in text and "e1, j5" in text
    hunt = make(4, 0, {0: "c4", 1: "c1", 2: "a10", 3: "j10"}, turn=1)
    rolled = RULES.apply(hunt, Roll(3))
    assert "captures Red" in RULES.play(rolled, Move(sq("c4"))).description


def test_from_json_refuses_two_pieces_on_one_square():
    state = make(4, 0, {0: "c3", **FAR})
    data = RULES.to_json(state)
    data["positions"][1] = "c3"
    with pytest.raises(BadState):
        RULES.from_json(data)
    data = RULES.to_json(state)
    data["positions"][2] = "e5"
    with pytest.raises(BadState):
        RULES.from_json(data)
    assert RULES.from_json(RULES.to_json(state)) == state


def test_a_victim_still_in_the_safehouse_is_not_told_it_has_left_it():
    # Ruling: "Leaving the safehouse counts as the first step; once out, the victim may not re-enter it",
    # and "a move must end on a square other than the one it began on".  A victim who has not yet left
    # and types a safehouse square (e5) is refused by games/assassin.py _why_not with the re-entry reason.
    s = RULES.new_game(4, {}, random.Random(1))
    s = RULES.apply(s, Roll(0))  # the first assassin rolls a null: the victim's turn
    s = RULES.apply(s, Roll(2))
    assert s.turn == s.victim and s.positions[s.victim] == SAFE and s.phase == "move"
    with pytest.raises(IllegalMove) as refused:
        RULES.parse_move(s, "e5")
    assert str(refused.value) == "A move must end outside the safehouse: leaving it is the victim's first step."


# ---------------------------------------------------------------- Wording a player reads


def test_capture_sentence_says_the_old_victim_becomes_an_assassin_where_it_was_caught():
    # The player reads "Blue (assassin) moves c1 → c2 → c3 → c4 and captures Red! Blue becomes the victim and
    # goes to the safehouse; Red becomes an assassin on c4." — not "Red stays as an assassin and loses its
    # base markers (none)": Red was the victim, and it had no markers to lose.
    hunt = make(4, 0, {0: "c4", 1: "c1", 2: "a10", 3: "j10"}, turn=1)
    rolled = RULES.apply(hunt, Roll(3))
    assert RULES.play(rolled, Move(sq("c4"))).description == (
        "Blue (assassin) moves c1 → c2 → c3 → c4 and captures Red! Blue becomes the victim and goes to the "
        "safehouse; Red becomes an assassin on c4."
    )


@pytest.mark.parametrize(("short_game", "fate"), [(False, "loses"), (True, "keeps")])
def test_capture_sentence_lists_the_markers_the_old_victim_loses_or_keeps(short_game, fate):
    # "...; Red becomes an assassin on c4 and loses its base markers on e1 and j5." (the short game: "keeps")
    hunt = make(4, 0, {0: "c4", 1: "c1", 2: "a10", 3: "j10"}, turn=1, short_game=short_game, markers={0: ("e1", "j5")})
    rolled = RULES.apply(hunt, Roll(3))
    text = RULES.play(rolled, Move(sq("c4"))).description
    assert text.endswith(f"; Red becomes an assassin on c4 and {fate} its base markers on e1 and j5."), text
    one = make(4, 0, {0: "c4", 1: "c1", 2: "a10", 3: "j10"}, turn=1, short_game=short_game, markers={0: ("f10",)})
    text = RULES.play(RULES.apply(one, Roll(3)), Move(sq("c4"))).description
    assert text.endswith(f"; Red becomes an assassin on c4 and {fate} its base marker on f10."), text


def test_win_sentence_lists_the_four_bases_without_nested_brackets():
    # The player reads "...marks base a6: all four bases (e1, j5, a6, f10)! Red wins.", not "(e1, j5, a6, f10
    # (4 of 4))".
    state = make(4, 0, {0: "a4", **FAR}, markers={0: ("e1", "j5", "f10")})
    rolled = RULES.apply(state, Roll(2))
    assert RULES.play(rolled, Move(sq("a6"))).description == (
        "Red (victim) moves a4 → a5 → a6 and marks base a6: all four bases (e1, j5, a6, f10)! Red wins."
    )


def test_menu_hint_after_an_ace_says_one_step():
    # After rolling an ace next to a base the menu says "Move 1 step and mark the base on e1.", not "1 steps".
    rolled = RULES.apply(make(4, 0, {0: "d1", **FAR}), Roll(1))
    hints = {RULES.choice(rolled, m).label: RULES.choice(rolled, m).hint for m in RULES.legal_moves(rolled)}
    assert hints["e1 · base"] == "Move 1 step and mark the base on e1."
    assert hints["d2"] == "Move 1 step to d2."
