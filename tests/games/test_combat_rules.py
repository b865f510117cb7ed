"""Scenario tests for Martian Combat: one per ruling and one per decision in docs/rules/combat.md.

Positions are built directly with ``position`` (stacks written bottom to top, e.g. ``"R3/Y1"``) and
played forward with moves in the game's notation, so each test reads like the rule it checks.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.base import BadNotation, BadOptions, BadState, IllegalMove
from games.combat import (
    ACTION_ROLL,
    AIM,
    AIM_ROLL,
    ATTACK,
    COMBAT_ROLL,
    COUNTER,
    COUNTER_ROLL,
    DIG,
    HOP,
    HOP_ROLL,
    MOVE,
    OFFER,
    OVER,
    RULES,
    SWAP,
    TIEBREAK_ROLL,
    WILD,
    CombatState,
    Counter,
    Pass,
    Phase,
    Piece,
    Roll,
    home_squares,
    parse_extra_blocked,
    square,
    start_squares,
    turn_order,
)

LETTERS = {"R": 0, "Y": 1, "B": 2, "G": 3}
RED, YELLOW, BLUE, GREEN = 0, 1, 2, 3


def sq(names: str) -> tuple[int, ...]:
    """Square indices of space-separated names."""
    return tuple(square(n) for n in names.split())


def position(
    players: int = 2,
    stacks: dict[str, str] | None = None,
    *,
    variant: str = "standard",
    current: int = RED,
    phase: Phase = MOVE,
    options: dict | None = None,
    **fields,
) -> CombatState:
    """A game state with exactly ``stacks`` on the board (``"R3/Y1"`` bottom to top, ``"R1@d1"`` for an origin)."""
    state = RULES.new_game(players, {"variant": variant, **(options or {})}, random.Random(0))
    board: list[tuple[Piece, ...]] = [() for _ in range(36)]
    used: set[tuple[int, int, int]] = set()
    for name, text in (stacks or {}).items():
        if not text:
            continue
        pieces = []
        for token in text.split("/"):
            code, _, origin = token.partition("@")
            owner, pips = LETTERS[code[0]], int(code[1])
            free = (x for x in start_squares(owner) if (owner, pips, x) not in used)
            where = square(origin) if origin else next(free)
            used.add((owner, pips, where))
            pieces.append(Piece(owner, pips, where))
        board[square(name)] = tuple(pieces)
    fields.setdefault("reserve", tuple(-1 for _ in range(players)))
    return replace(state, board=tuple(board), current=current, phase=phase, **fields)


def play(state: CombatState, *moves: str) -> CombatState:
    """Apply moves written in notation."""
    for text in moves:
        state = RULES.apply(state, RULES.parse_move(state, text))
    return state


def legal(state: CombatState) -> set[str]:
    """The notation of every legal move."""
    return {RULES.format_move(state, m) for m in RULES.legal_moves(state)}


def at(state: CombatState, name: str) -> str:
    """The stack on a square as text, bottom to top."""
    return "/".join(f"{'RYBG'[p.owner]}{p.pips}" for p in state.board[square(name)])


# ----------------------------------------------------------------------------------------------
# Board and setup
# ----------------------------------------------------------------------------------------------


def test_board_blocks_corners_and_centre_in_standard_and_advanced():
    for variant in ("standard", "advanced"):
        state = RULES.new_game(2, {"variant": variant}, random.Random(1))
        assert set(state.blocked) == set(sq("a1 f1 a6 f6 c3 d3 c4 d4"))
    state = position(2, {"c2": "R1", "b2": "R2", "e6": "Y1"})
    with pytest.raises(IllegalMove, match="c3 is blocked"):
        RULES.parse_move(state, "R1 c2-c3")
    with pytest.raises(IllegalMove, match="a1 is blocked"):
        RULES.parse_move(state, "R2 b2-a1")


def test_simple_leaves_the_centre_open():
    state = RULES.new_game(2, {"variant": "simple"}, random.Random(1))
    assert set(state.blocked) == set(sq("a1 f1 a6 f6"))
    state = position(2, {"c2": "R1", "e6": "Y1"}, variant="simple")
    assert "R1 c2-c3" in legal(state)


def test_option_extra_blocked_squares():
    state = RULES.new_game(2, {"blocked": "b2 e5"}, random.Random(1))
    assert set(sq("b2 e5")) <= set(state.blocked)
    state = position(2, {"c2": "R1", "e6": "Y1"}, options={"blocked": "b2 e5"})
    with pytest.raises(IllegalMove, match="b2 is blocked"):
        RULES.parse_move(state, "R1 c2-b2")
    with pytest.raises(BadOptions, match="start or home"):
        RULES.new_game(2, {"blocked": "c1"}, random.Random(1))
    with pytest.raises(BadOptions, match="start or home"):
        RULES.new_game(2, {"blocked": "d6"}, random.Random(1))
    # a whole rank cut across the board separates South's start squares from their home squares
    with pytest.raises(BadOptions, match="cut"):
        RULES.new_game(2, {"blocked": "a2 b2 c2 d2 e2 f2"}, random.Random(1))


def test_colours_by_seat_and_edges_by_player_count():
    names = [RULES.seat_name(RULES.new_game(4, {}, random.Random(0)), seat) for seat in range(4)]
    assert names == ["Red", "Yellow", "Blue", "Green"]
    two = RULES.new_game(2, {}, random.Random(0))
    assert {i for i, st in enumerate(two.board) if st} == set(sq("c1 d1 c6 d6"))
    three = RULES.new_game(3, {}, random.Random(0))
    assert {i for i, st in enumerate(three.board) if st} == set(sq("c1 d1 c6 d6 f3 f4"))
    assert all(p.owner == BLUE for x in sq("f3 f4") for p in three.board[x])
    four = RULES.new_game(4, {}, random.Random(0))
    assert all(p.owner == GREEN for x in sq("a3 a4") for p in four.board[x])


def test_each_player_has_two_nests_small_medium_large_bottom_to_top():
    state = RULES.new_game(4, {}, random.Random(0))
    for seat, squares in ((RED, "c1 d1"), (YELLOW, "c6 d6"), (GREEN, "a3 a4"), (BLUE, "f3 f4")):
        for x in sq(squares):
            assert [(p.owner, p.pips) for p in state.board[x]] == [(seat, 1), (seat, 2), (seat, 3)]


def test_home_squares_are_the_start_squares_of_the_opposite_edge():
    assert home_squares(RED) == sq("c6 d6")
    assert home_squares(YELLOW) == sq("c1 d1")
    assert home_squares(BLUE) == sq("a3 a4")
    assert home_squares(GREEN) == sq("f3 f4")


def test_advanced_reserve_nests_sit_on_centre_squares_and_cannot_be_touched():
    state = RULES.new_game(4, {"variant": "advanced"}, random.Random(0))
    for seat, name in ((RED, "c3"), (YELLOW, "d3"), (GREEN, "c4"), (BLUE, "d4")):
        assert [(p.owner, p.pips) for p in state.board[square(name)]] == [(seat, 1), (seat, 2), (seat, 3)]
    assert set(sq("c3 d3 c4 d4")) <= set(state.blocked)
    reserve = {"c3": "R1@c3/R2@c3/R3@c3", "d3": "Y1@d3/Y2@d3/Y3@d3"}
    base = dict(reserve, c2="R2", e2="R1", b5="Y3/Y2")
    res = sq("c3 d3")
    # no step, swap, hop or dig touches a reserve nest, and it starts no combat
    state = position(2, base, variant="advanced", reserve=res)
    assert not any(m.startswith(("R1 c3", "R2 c3", "R3 c3")) for m in legal(state))
    assert not any("d3" in m for m in legal(replace(state, phase=SWAP)))
    assert not any("d3" in m for m in legal(replace(state, phase=HOP)))
    assert not any("d3" in m for m in legal(replace(state, phase=DIG)))
    after = play(state, "R1 e2-e3")  # next to Yellow's reserve on d3
    assert after.phase == ACTION_ROLL
    # Tip leaves reserve nests as they are
    tipped = play(replace(state, phase=ACTION_ROLL), "roll 1")
    assert at(tipped, "c3") == "R1/R2/R3" and at(tipped, "b5") == "Y2/Y3"


def test_first_player_by_random_draw_then_clockwise_south_west_north_east():
    firsts = {RULES.new_game(4, {}, random.Random(seed)).current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert turn_order(4) == (RED, GREEN, YELLOW, BLUE)
    state = position(4, {"b2": "R1", "e5": "Y1", "a2": "G1", "f5": "B1"}, phase=ACTION_ROLL)
    seen = []
    for _ in range(4):
        state = play(state, "roll 1") if state.phase == ACTION_ROLL else play(state, "no move", "roll 1")
        seen.append(state.current)
    assert seen == [GREEN, YELLOW, BLUE, RED]


# ----------------------------------------------------------------------------------------------
# A turn
# ----------------------------------------------------------------------------------------------


def test_move_one_square_carrying_every_pyramid_above():
    state = RULES.new_game(2, {}, random.Random(0))
    state = replace(state, current=RED)
    whole = play(state, "R1 c1-c2")
    assert at(whole, "c2") == "R1/R2/R3" and at(whole, "c1") == ""
    top = play(state, "R3 d1-e2")
    assert at(top, "e2") == "R3" and at(top, "d1") == "R1/R2"
    diagonal = play(state, "R2 c1-b2")
    assert at(diagonal, "b2") == "R2/R3" and at(diagonal, "c1") == "R1"


def test_move_only_a_pyramid_with_no_opponent_above_it():
    state = position(2, {"c2": "R3/Y1", "e5": "Y2"})
    assert not any(m.startswith("R3 c2") for m in legal(state))
    with pytest.raises(IllegalMove, match="opponent pyramid above"):
        RULES.parse_move(state, "R3 c2-b2")
    assert "Y1 c2-b2" in legal(replace(state, current=YELLOW))


def test_move_ends_on_empty_or_own_square_as_a_tree_or_nest():
    state = position(2, {"c2": "R3", "b2": "R2/R1", "e2": "R2", "d2": "Y2"})
    with pytest.raises(IllegalMove, match="opponent"):
        RULES.parse_move(state, "R3 c2-d2")
    with pytest.raises(IllegalMove, match="neither a tree nor a nest"):
        RULES.parse_move(state, "R3 c2-b2")  # R2/R1/R3
    assert at(play(state, "R2 e2-e3"), "e3") == "R2"
    state = position(2, {"c2": "R3", "b2": "R1", "e6": "Y1"})
    assert at(play(state, "R3 c2-b2"), "b2") == "R1/R3"  # a nest


def test_move_is_optional():
    state = position(2, {"c2": "R3", "e5": "Y1"})
    assert "no move" in legal(state)
    after = play(state, "no move")
    assert after.phase == ACTION_ROLL and after.board == state.board


def test_capped_trees_never_move():
    state = position(2, {"c6": "R3/R2/R1", "b2": "R1", "e2": "Y2"}, capped=sq("c6"))
    assert not any(m.split()[1].startswith("c6") for m in legal(state) if m != "no move")
    with pytest.raises(IllegalMove, match="capped"):
        RULES.parse_move(state, "R1 c6-b6")


def test_action_roll_is_mandatory_after_the_move_and_combat():
    state = position(2, {"c2": "R3", "e5": "Y3"})
    after = play(state, "R3 c2-b2")
    assert RULES.pending_roll(after) and RULES.legal_moves(after) == []
    with pytest.raises(IllegalMove, match="Roll first"):
        RULES.parse_move(after, "pass")
    assert RULES.to_move(after) == RED
    assert play(after, "roll 2").phase == SWAP


def test_action_die_faces_tip_swap_hop_dig_aim_wild():
    state = position(2, {"b2": "R2", "c2": "R1", "e2": "Y2", "d5": "Y1/Y3"}, phase=ACTION_ROLL)
    phases = {face: play(state, f"roll {face}") for face in range(1, 7)}
    assert phases[1].current == YELLOW  # Tip happened by itself and the turn ended
    assert phases[2].phase == SWAP
    assert phases[3].phase == HOP
    assert phases[4].phase == DIG
    assert phases[5].phase == AIM_ROLL
    assert phases[6].phase == WILD


# ----------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------


def test_tip_reverses_every_stack_of_two_or_more_except_capped_trees():
    state = position(2, {"b2": "R1/R2/R3", "e5": "Y3/R1@d1", "e2": "Y2", "a5": "Y2/Y1"}, phase=ACTION_ROLL)
    state = replace(state, board=_put(state, "d6", "R3@d1/R2@d1/R1@c6"), capped=sq("d6"))
    after = play(state, "roll 1")
    assert at(after, "b2") == "R3/R2/R1"
    assert at(after, "e5") == "R1/Y3"
    assert at(after, "a5") == "Y1/Y2"
    assert at(after, "e2") == "Y2"
    assert at(after, "d6") == "R3/R2/R1"
    assert after.current == YELLOW


def test_swap_exchanges_same_size_pyramids_each_taking_the_others_place():
    state = position(2, {"b2": "R2", "e4": "Y3/Y2", "e5": "Y1"}, phase=SWAP)
    assert "swap R2 b2 with Y2 e4" in legal(state)
    after = play(state, "swap R2 b2 with Y2 e4")
    assert at(after, "b2") == "Y2" and at(after, "e4") == "Y3/R2"
    with pytest.raises(IllegalMove, match="same size"):
        RULES.parse_move(state, "swap R2 b2 with Y1 e5")


def test_swap_forbidden_under_an_opponent_on_own_home_capped_or_reserve():
    stacks = {"b2": "R2/Y1", "e2": "R2", "c6": "Y2", "e4": "Y2@d1"}
    state = position(2, stacks, phase=SWAP)
    state = replace(state, board=_put(state, "d1", "Y3@c1/Y2@c1/Y1@c1"), capped=sq("d1"))
    moves = legal(state)
    assert not any(m.startswith("swap R2 b2") for m in moves)  # Y1 is above Red's R2
    assert not any(m.endswith("c6") for m in moves)  # c6 is Red's home square
    assert not any(m.endswith("d1") for m in moves)  # capped tree
    assert moves == {"no swap", "swap R2 e2 with Y2 e4"}
    with pytest.raises(IllegalMove, match="home"):
        RULES.parse_move(state, "swap R2 e2 with Y2 c6")
    adv = position(
        2,
        {"e2": "R2", "d3": "Y1@d3/Y2@d3/Y3@d3", "e6": "Y1"},
        variant="advanced",
        reserve=(-1, square("d3")),
        phase=SWAP,
    )
    assert not any("d3" in m for m in legal(adv))


def test_hop_onto_an_opponent_top_pyramid_within_two_squares():
    state = position(2, {"b2": "R1", "d2": "Y2", "e2": "Y3", "b4": "Y1/Y3"}, phase=HOP)
    moves = legal(state)
    assert "hop R1 b2-d2" in moves  # two squares away
    assert "hop R1 b2-e2" not in moves  # three squares away
    assert "hop R1 b2-b4" not in moves  # Y1/Y3/R1 would be neither tree nor nest
    after = play(state, "hop R1 b2-d2")
    assert after.phase == HOP_ROLL and RULES.to_move(after) == RED
    far = position(2, {"b2": "R1", "b4": "Y1/Y3"}, phase=HOP)
    with pytest.raises(IllegalMove, match="neither a tree nor a nest"):
        RULES.parse_move(far, "hop R1 b2-b4")


def test_hop_contest_hopper_higher_stays_and_pins_the_pyramid_under_it():
    state = play(position(2, {"b2": "R1", "d2": "Y2", "e5": "Y1"}, phase=HOP), "hop R1 b2-d2")
    after = play(state, "roll 5 2")
    assert at(after, "d2") == "Y2/R1" and at(after, "b2") == ""
    assert after.current == YELLOW
    assert not any(m.startswith("Y2 d2") for m in legal(after))
    # once the hopper leaves, the pyramid under it is free again
    freed = replace(after, current=RED, phase=MOVE)
    freed = play(freed, "R1 d2-d1", "no attack", "roll 1")  # Yellow declines the offered attack
    assert freed.current == YELLOW
    assert any(m.startswith("Y2 d2") for m in legal(freed))


def test_hop_contest_opponent_higher_repels_the_hopper():
    state = play(position(2, {"b2": "R3/R1", "d2": "Y2", "e5": "Y1"}, phase=HOP), "hop R1 b2-d2")
    after = play(state, "roll 2 5")
    assert at(after, "b2") == "R3/R1" and at(after, "d2") == "Y2"
    assert after.current == YELLOW


def test_hop_contest_ties_roll_again():
    state = play(position(2, {"b2": "R1", "d2": "Y2", "e5": "Y1"}, phase=HOP), "hop R1 b2-d2")
    again = play(state, "roll 4 4")
    assert again.phase == HOP_ROLL and at(again, "d2") == "Y2"
    assert at(play(again, "roll 6 1"), "d2") == "Y2/R1"


def test_dig_goes_directly_under_an_opponent_pyramid_anywhere():
    state = position(2, {"b1": "R1", "f5": "Y2/Y3"}, phase=DIG)
    moves = legal(state)
    assert moves == {"no dig", "dig R1 b1-f5 under Y2"}  # Y2/R1/Y3 would be neither
    after = play(state, "dig R1 b1-f5 under Y2")
    assert at(after, "f5") == "R1/Y2/Y3" and at(after, "b1") == ""
    assert after.current == YELLOW


def test_dig_not_under_pyramids_on_own_home_squares():
    state = position(2, {"b1": "R1", "c6": "Y2/Y3", "e5": "Y2@d6/Y3@d6"}, phase=DIG)
    moves = legal(state)
    assert "dig R1 b1-e5 under Y2" in moves
    assert not any("c6" in m for m in moves)
    with pytest.raises(IllegalMove, match="home"):
        RULES.parse_move(state, "dig R1 b1-c6 under Y2")


def test_immobility_only_while_an_opponent_pyramid_is_above_and_tip_reorders():
    state = position(2, {"b2": "R3/Y2", "e5": "Y1"}, phase=ACTION_ROLL)
    assert not any(m.startswith("R3 b2") for m in legal(replace(state, phase=MOVE)))
    tipped = play(state, "roll 1")
    assert at(tipped, "b2") == "Y2/R3"
    assert not any(m.startswith("Y2 b2") for m in legal(tipped))  # Yellow is now under Red
    assert any(m.startswith("R3 b2") for m in legal(replace(tipped, current=RED)))


def test_aim_rolls_again_and_allows_that_many_steps_split_among_pyramids():
    state = position(2, {"b2": "R1", "e2": "R2", "e6": "Y1"}, phase=ACTION_ROLL)
    state = play(state, "roll 5")
    assert state.phase == AIM_ROLL and RULES.pending_roll(state)
    state = play(state, "roll 3")
    assert state.phase == AIM and state.aim_left == 3
    state = play(state, "R1 b2-b3", "R2 e2-e3")
    assert state.phase == AIM and state.current == RED and state.aim_left == 1
    state = play(state, "R1 b3-b4")
    assert at(state, "b4") == "R1" and at(state, "e3") == "R2"
    assert state.current == YELLOW


def test_aim_may_stop_early():
    state = play(position(2, {"b2": "R1", "e6": "Y1"}, phase=ACTION_ROLL), "roll 5", "roll 6", "R1 b2-b3")
    assert "end aim" in legal(state)
    after = play(state, "end aim")
    assert after.current == YELLOW and at(after, "b3") == "R1"


def test_wild_chooses_any_of_tip_swap_hop_dig_aim():
    state = play(position(2, {"b2": "R1/R2", "e2": "Y2", "e6": "Y1"}, phase=ACTION_ROLL), "roll 6")
    assert state.phase == WILD and RULES.to_move(state) == RED
    assert {"choose tip", "choose swap", "choose hop", "choose dig", "choose aim"} <= legal(state)
    assert play(state, "choose aim").phase == AIM_ROLL
    assert play(state, "choose swap").phase == SWAP
    tipped = play(state, "choose tip")
    assert at(tipped, "b2") == "R2/R1" and tipped.current == YELLOW


# ----------------------------------------------------------------------------------------------
# Combat
# ----------------------------------------------------------------------------------------------


def test_only_the_step_move_opens_combat():
    stacks = {"b2": "R2", "b4": "Y1", "e6": "Y1"}
    moved = play(position(2, stacks), "R2 b2-b3")
    assert moved.phase == ATTACK
    aimed = play(position(2, stacks, phase=AIM, aim_left=2), "R2 b2-b3")
    assert aimed.phase == AIM and "b3xb4" not in legal(aimed)
    swapped = play(position(2, {"b3": "R1", "a4": "Y1", "e2": "R2", "e6": "Y2"}, phase=SWAP), "swap R2 e2 with Y2 e6")
    assert swapped.current == YELLOW


def test_combat_only_between_squares_of_one_owner_never_capped_or_reserve():
    mixed = play(position(2, {"b2": "R2", "b4": "Y3/R1", "e6": "Y1"}), "R2 b2-b3")
    assert mixed.phase == ACTION_ROLL  # b4 holds two owners' pyramids
    near_cap = position(2, {"e3": "R3", "e6": "Y1@d6"})
    near_cap = replace(near_cap, board=_put(near_cap, "d1", "Y3/Y2/Y1"), capped=sq("d1"))
    assert play(near_cap, "R3 e3-e2").phase == ACTION_ROLL


def test_mover_may_attack_only_with_at_least_the_defenders_pips():
    equal = play(position(2, {"b2": "R3", "b4": "Y3", "e6": "Y1"}), "R3 b2-b3")
    assert "b3xb4" in legal(equal)
    weaker = play(position(2, {"b2": "R2", "b4": "Y3", "e6": "Y1"}), "R2 b2-b3")
    assert weaker.phase == OFFER and RULES.to_move(weaker) == YELLOW  # only the stronger side may attack
    with pytest.raises(IllegalMove):
        RULES.parse_move(replace(weaker, phase=ATTACK), "b3xb4")


def test_mover_chooses_among_several_eligible_targets():
    state = play(position(2, {"b2": "R3", "a4": "Y1", "b4": "Y2"}, variant="simple"), "R3 b2-b3")
    assert legal(state) == {"no attack", "b3xa4", "b3xb4"}
    fight = play(state, "b3xb4")
    assert fight.phase == COMBAT_ROLL and fight.fight.def_sq == square("b4")


def test_declined_attack_is_offered_to_stronger_opponents_in_turn_order():
    # Red (South) moves next to Green (West, seat 3) and Yellow (North, seat 1); Green comes first.
    stacks = {"b2": "R1", "a4": "G2", "b4": "Y1/Y2", "f5": "B1"}
    state = play(position(4, stacks), "R1 b2-b3")
    assert state.phase == OFFER and RULES.to_move(state) == GREEN
    assert legal(state) == {"no attack", "a4xb3"}
    state = play(state, "no attack")
    assert state.phase == OFFER and RULES.to_move(state) == YELLOW
    state = play(state, "b4xb3")
    assert state.phase == COMBAT_ROLL and state.fight.attacker == YELLOW and state.fight.defender == RED
    state = play(state, "roll 6 1")
    assert at(state, "b3") == "Y1/Y2" and state.phase == ACTION_ROLL and RULES.to_move(state) == RED


def test_declined_attack_with_no_willing_opponent_goes_to_the_action_roll():
    state = play(position(2, {"b2": "R3", "b4": "Y1", "e6": "Y1"}), "R3 b2-b3", "no attack")
    assert state.phase == ACTION_ROLL and state.current == RED


def test_combat_each_side_adds_its_pips_higher_wins_ties_reroll():
    state = play(position(2, {"b2": "R3", "b4": "Y2", "e6": "Y1"}), "R3 b2-b3", "b3xb4")
    assert RULES.to_move(state) == RED
    tie = play(state, "roll 2 3")  # 2 + 3 = 5 against 3 + 2 = 5
    assert tie.phase == COMBAT_ROLL and at(tie, "b4") == "Y2"
    lost = play(tie, "roll 1 3")  # 4 against 5: the defender wins
    assert at(lost, "b3") == "Y2" and at(lost, "b4") == ""
    assert at(lost, "c1") == "R3"  # Red's large goes back to its start square


def test_equal_pips_defender_losing_the_first_roll_may_counter_attack():
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3")
    assert state.phase == COUNTER and RULES.to_move(state) == YELLOW
    assert legal(state) == {"counter", "no counter"}
    state = play(state, "counter")
    assert state.phase == COUNTER_ROLL and RULES.to_move(state) == YELLOW
    # Red 5+2 then 1+2 = 10; Yellow 3+2 then 6+2 = 13: Yellow wins on the sums
    after = play(state, "roll 1 6")
    assert at(after, "b3") == "Y2" and at(after, "b4") == ""
    declined = play(
        play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3"), "no counter"
    )
    assert at(declined, "b4") == "R2"


def test_counter_attack_tied_sums_are_settled_by_bare_dice():
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3", "counter")
    state = play(state, "roll 2 4")  # 5+2+2+2 = 11 against 3+2+4+2 = 11
    assert state.phase == TIEBREAK_ROLL and RULES.to_move(state) == YELLOW
    state = play(state, "roll 3 3")  # bare tie: again
    assert state.phase == TIEBREAK_ROLL
    after = play(state, "roll 6 1")
    assert at(after, "b4") == "R2" and at(after, "b3") == ""


def test_no_counter_attack_when_pips_differ():
    state = play(position(2, {"b2": "R3", "b4": "Y2", "e6": "Y1"}), "R3 b2-b3", "b3xb4", "roll 5 3")
    assert state.phase == ACTION_ROLL and at(state, "b4") == "R3"


def test_resolution_lift_loser_winner_moves_in_loser_returns_as_nests_to_start_squares():
    # Yellow's stack holds pyramids from both of its start squares.
    stacks = {"b2": "R3/R2", "b4": "Y2@c6/Y1@d6", "e5": "Y3"}
    state = play(position(2, stacks), "R3 b2-b3", "b3xb4", "roll 4 1")
    assert at(state, "b4") == "R3/R2" and at(state, "b3") == ""
    assert at(state, "c6") == "Y2" and at(state, "d6") == "Y1"


def test_loser_goes_to_the_nearest_empty_square_when_its_start_square_is_taken():
    # c6 is free, d6 is taken: Y2 (from c6) goes home first, then Y1 (from d6) needs the nearest empty
    # square to d6: c5 and d5 are taken, c6 was just filled, so e5 (before e6 in a1..f6 order).
    stacks = {"b2": "R3/R2", "b4": "Y2@c6/Y1@d6", "d6": "R1", "c5": "Y3", "d5": "R1@d1"}
    state = play(position(2, stacks), "R3 b2-b3", "b3xb4", "roll 4 1")
    assert at(state, "c6") == "Y2" and at(state, "e5") == "Y1" and at(state, "e6") == ""


def test_advanced_loser_pyramids_are_removed_from_the_game():
    stacks = {"b2": "R3/R1", "b4": "Y1/Y2", "e5": "Y3", "d3": "Y1@d3/Y2@d3/Y3@d3", "c3": "R1@c3/R2@c3/R3@c3"}
    state = position(2, stacks, variant="advanced", reserve=sq("c3 d3"))
    state = play(state, "R3 b2-b3", "b3xb4", "roll 6 1")
    assert at(state, "b4") == "R3/R1"
    assert all(not (p.owner == YELLOW and p.origin in sq("c6 d6")) for x in sq("c6 d6 b4") for p in state.board[x])
    assert state.lost[YELLOW] == (1, 2)
    assert state.reserve[YELLOW] == square("d3")  # not yet: no large lost


def test_advanced_reserve_released_after_losing_a_large_medium_and_small():
    stacks = {"b2": "R3", "b4": "Y1", "e5": "Y3", "d3": "Y1@d3/Y2@d3/Y3@d3", "c3": "R1@c3/R2@c3/R3@c3"}
    state = position(2, stacks, variant="advanced", reserve=sq("c3 d3"), lost=((), (2, 3)))
    state = play(state, "R3 b2-b3", "b3xb4", "roll 6 1")
    assert state.lost[YELLOW] == (1, 2, 3) and state.reserve[YELLOW] == -1
    assert at(state, "d3") == ""
    assert at(state, "c6") == "Y1/Y2/Y3"  # both start squares empty: the first in a1..f6 order
    assert any(m.startswith("Y1 c6") for m in legal(replace(state, current=YELLOW, phase=MOVE)))


def test_advanced_release_goes_to_a_free_start_square_or_the_nearest_empty_square():
    base = {"b2": "R3", "b4": "Y1", "e5": "Y3", "d3": "Y1@d3/Y2@d3/Y3@d3", "c3": "R1@c3/R2@c3/R3@c3"}
    one_free = play(
        position(2, dict(base, c6="R1"), variant="advanced", reserve=sq("c3 d3"), lost=((), (2, 3))),
        "R3 b2-b3",
        "b3xb4",
        "roll 6 1",
    )
    assert at(one_free, "d6") == "Y1/Y2/Y3"
    # neither start square empty: the nearest empty open square to c6 or d6. Everything next to c6 is
    # taken, but e5 is next to d6 (nearest to c6 alone would have been a4, two squares away).
    crowded = {
        "b2": "R3",
        "b4": "Y1",
        "c6": "R1",
        "d6": "R2",
        "b5": "R1@d1",
        "c5": "R2@d1",
        "d5": "Y3",
        "b6": "Y2",
        "d3": "Y1@d3/Y2@d3/Y3@d3",
        "c3": "R1@c3/R2@c3/R3@c3",
    }
    none_free = play(
        position(2, crowded, variant="advanced", reserve=sq("c3 d3"), lost=((), (2, 3))),
        "R3 b2-b3",
        "b3xb4",
        "roll 6 1",
    )
    assert at(none_free, "e5") == "Y1/Y2/Y3" and at(none_free, "a4") == ""


# ----------------------------------------------------------------------------------------------
# Winning
# ----------------------------------------------------------------------------------------------


def test_home_tree_of_own_colour_is_capped_at_once_and_immune():
    state = position(2, {"c6": "R3/R2", "c5": "R1", "e6": "Y1"})
    state = play(state, "R1 c5-c6")
    assert square("c6") in state.capped
    # immune: no step onto or off it, not tipped, not attacked, swapped, dug under or hopped onto
    assert not any("c6" in m for m in legal(replace(state, phase=MOVE)))
    yellow = replace(state, current=YELLOW, phase=MOVE)
    assert play(yellow, "Y1 e6-d6").phase == ACTION_ROLL  # next to the capped tree: no combat
    near = replace(yellow, board=_put(yellow, "b5", "Y1@d6/Y2@d6"))
    for phase in (SWAP, HOP, DIG):
        assert not any("c6" in m for m in legal(replace(near, phase=phase)))
    tipped = play(replace(state, phase=ACTION_ROLL), "roll 1")
    assert at(tipped, "c6") == "R3/R2/R1"


def _put(state: CombatState, name: str, text: str) -> tuple:
    """The board of ``state`` with the stack ``text`` on ``name`` (origin: given, or the first start square)."""
    board = list(state.board)
    pieces = []
    for token in text.split("/"):
        code, _, origin = token.partition("@")
        owner = LETTERS[code[0]]
        pieces.append(Piece(owner, int(code[1]), square(origin) if origin else start_squares(owner)[0]))
    board[square(name)] = tuple(pieces)
    return tuple(board)


def test_only_an_exact_tree_of_your_colour_on_your_home_square_is_capped():
    tip = {"c6": "Y1/R2/R3", "b6": "R1@d1/R2@d1/R3@d1", "d6": "Y1@d6/Y2/Y3", "e2": "R1"}
    tipped = play(position(2, tip, phase=ACTION_ROLL), "roll 1")
    assert at(tipped, "c6") == "R3/R2/Y1" and at(tipped, "b6") == "R3/R2/R1" and at(tipped, "d6") == "Y3/Y2/Y1"
    assert tipped.capped == ()  # mixed colours; not a home square; Yellow's tree on Red's home
    # any large, medium and small of yours will do, from either nest
    cross = play(position(2, {"c6": "R3@c1/R2@d1", "c5": "R1@d1", "e6": "Y1"}), "R1 c5-c6")
    assert cross.capped == sq("c6")


def test_win_when_both_home_squares_hold_capped_trees():
    state = position(2, {"d6": "R3/R2/R1", "c6": "R3/R2", "c5": "R1", "e2": "Y1"}, capped=sq("d6"))
    after = play(state, "R1 c5-c6")
    assert after.phase == OVER and RULES.outcome(after).ranks == (1, 2)
    assert RULES.to_move(after) is None


def test_last_player_with_pyramids_wins():
    stacks = {"b2": "R3", "b4": "Y1", "c3": "R1@c3/R2@c3/R3@c3"}
    state = position(2, stacks, variant="advanced", reserve=(square("c3"), -1), lost=((), (1, 2, 2, 3, 3)))
    after = play(state, "R3 b2-b3", "b3xb4", "roll 6 1")
    assert after.phase == OVER and RULES.outcome(after).ranks == (1, 2)
    assert "last player" in RULES.outcome(after).reason


def test_player_with_no_pyramids_is_out_and_play_goes_on():
    stacks = {"b2": "R3", "b4": "Y1", "e5": "B2", "f5": "R1"}
    state = position(3, stacks, variant="advanced", lost=((), (1, 2, 2, 3, 3), ()))
    after = play(state, "R3 b2-b3", "b3xb4", "roll 6 1")
    assert after.out == (YELLOW,) and after.phase == ACTION_ROLL
    after = play(after, "roll 1")
    assert after.current == BLUE


def test_wins_checked_after_every_step_turn_owner_wins_a_simultaneous_finish():
    stacks = {"c6": "R1/R2/R3", "d6": "R3/R2/R1", "c1": "Y1/Y2/Y3", "d1": "Y3/Y2/Y1", "f4": "B1"}
    state = position(3, stacks, capped=sq("d1 d6"), current=YELLOW, phase=ACTION_ROLL)
    after = play(state, "roll 1")  # the Tip completes both players at once
    assert after.phase == OVER and RULES.outcome(after).winners == (YELLOW,)
    blue = play(replace(state, current=BLUE), "roll 1")
    # neither is the turn owner: the first of them in turn order after Blue (South, North, East)
    assert RULES.outcome(blue).winners == (RED,)


def test_option_turn_limit_ends_in_a_draw():
    assert RULES.new_game(2, {}, random.Random(0)).turn_limit == 300
    state = position(
        3, {"b2": "R1", "e5": "Y1", "f4": "B1"}, options={"turn_limit": 10}, turn=10, phase=ACTION_ROLL, out=(BLUE,)
    )
    after = play(state, "roll 1")
    assert after.phase == OVER
    assert RULES.outcome(after).ranks == (1, 1, 3)
    assert RULES.status_line(after) == "Game over. The turn limit of 10 turns was reached."  # the result says "Draw."
    not_yet = play(replace(state, turn=9), "roll 1")
    assert not_yet.phase != OVER and not_yet.turn == 10


# ----------------------------------------------------------------------------------------------
# Decisions where the rulings are silent (docs/rules/combat.md)
# ----------------------------------------------------------------------------------------------


def test_decision_seats_take_south_north_east_west_in_join_order():
    state = RULES.new_game(4, {}, random.Random(0))
    assert [start_squares(seat) for seat in range(4)] == [sq("c1 d1"), sq("c6 d6"), sq("f3 f4"), sq("a3 a4")]
    assert {RULES.seat_name(state, s) for s in range(4)} == {"Red", "Yellow", "Blue", "Green"}


def test_decision_first_player_comes_from_the_setup_random_source():
    assert RULES.new_game(3, {}, random.Random(7)).current == random.Random(7).randrange(3)


def test_decision_combat_dice_rolled_by_attacker_and_counter_dice_by_defender():
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4")
    assert RULES.to_move(state) == RED and len(RULES.roll(state, random.Random(1)).dice) == 2
    state = play(state, "roll 5 3", "counter")
    assert RULES.to_move(state) == YELLOW and RULES.pending_roll(state)


def test_decision_hop_contest_dice_rolled_together_by_the_hopper():
    state = play(position(2, {"b2": "R1", "d2": "Y2", "e6": "Y1"}, phase=HOP), "hop R1 b2-d2")
    assert RULES.to_move(state) == RED and len(RULES.roll(state, random.Random(1)).dice) == 2
    with pytest.raises(IllegalMove, match="two dice"):
        RULES.parse_move(state, "roll 4")


def test_decision_offered_opponent_with_two_squares_chooses_which_attacks():
    state = play(position(2, {"b2": "R1", "a4": "Y2", "b4": "Y3", "e6": "Y1"}, variant="simple"), "R1 b2-b3")
    assert RULES.to_move(state) == YELLOW
    assert legal(state) == {"no attack", "a4xb3", "b4xb3"}


def test_decision_return_groups_are_placed_in_start_square_order():
    # Both of Yellow's start squares are taken and c5 is the only empty square next to either.
    # The c6 group is placed first and takes c5; the d6 group then takes e4 (distance 2 from d6).
    stacks = {
        "b2": "R3/R2",
        "b4": "Y2@c6/Y1@d6",
        "c6": "R1",
        "d6": "R1@d1",
        "b5": "R2@d1",
        "d5": "R3@d1",
        "b6": "Y3",
        "e5": "Y3@d6",
        "e6": "Y1@c6",
    }
    state = play(position(2, stacks), "R3 b2-b3", "b3xb4", "roll 4 1")
    assert at(state, "b4") == "R3/R2"
    assert at(state, "c5") == "Y2" and at(state, "e4") == "Y1"


def test_decision_square_the_winner_left_can_take_a_returning_group():
    lose = play(position(2, {"b6": "R2", "c5": "Y1@c6", "e2": "Y3"}), "R2 b6-c6", "c6xc5", "roll 6 1")
    # Red wins and moves from c6 into c5; Yellow's Y1 returns to c6, the square Red just left
    assert at(lose, "c5") == "R2" and at(lose, "c6") == "Y1"


def test_decision_wild_allows_no_action():
    state = play(position(2, {"b2": "R1", "e6": "Y1"}, phase=ACTION_ROLL), "roll 6")
    assert "no action" in legal(state)
    assert play(state, "no action").current == YELLOW


def test_decision_unusable_action_or_no_step_skips_ahead():
    state = position(2, {"b2": "R1", "f5": "Y3"}, phase=ACTION_ROLL)
    assert play(state, "roll 2").current == YELLOW  # no same-size pyramid to swap with
    assert play(state, "roll 3").current == YELLOW  # nothing within two squares to hop onto
    boxed = position(
        2,
        {"b1": "R3", "b2": "Y1/Y2", "c2": "Y1@d6/Y3@d6", "c1": "Y2@d6", "a2": "Y3"},
        current=YELLOW,
        phase=ACTION_ROLL,
    )
    after = play(boxed, "roll 1")  # Yellow tips; Red's R3 is boxed in
    assert after.current == RED and after.phase == ACTION_ROLL


def test_decision_resigning_removes_the_pyramids_and_calls_off_a_fight():
    stacks = {"b2": "R1", "a4": "G2", "b4": "Y1/Y2", "f5": "B1", "e5": "Y3/G1"}
    state = play(position(4, stacks), "R1 b2-b3", "no attack", "b4xb3")  # Green declines, Yellow attacks
    assert state.phase == COMBAT_ROLL and state.fight.attacker == YELLOW
    after = RULES.resign(state, YELLOW)
    assert after.phase == ACTION_ROLL and RULES.to_move(after) == RED
    assert at(after, "b4") == "" and at(after, "e5") == "G1"
    assert after.out == (YELLOW,)
    mine = RULES.resign(after, RED)
    assert mine.current == GREEN and mine.phase == MOVE and at(mine, "b3") == ""
    two = RULES.resign(position(2, {"b2": "R1", "e6": "Y1"}), RED)
    assert two.phase == OVER and RULES.outcome(two).ranks == (2, 1)


def test_decision_resigning_hop_target_calls_off_the_hop():
    state = play(position(3, {"b2": "R1", "d2": "Y2", "f4": "B1"}, phase=HOP), "hop R1 b2-d2")
    after = RULES.resign(state, YELLOW)
    assert at(after, "b2") == "R1" and at(after, "d2") == "" and after.current == BLUE


def test_decision_dig_may_go_under_a_pyramid_on_the_diggers_own_square():
    state = position(2, {"b2": "Y2/R1", "e6": "Y1"}, phase=DIG)
    assert "dig R1 b2-b2 under Y2" in legal(state)
    assert at(play(state, "dig R1 b2-b2 under Y2"), "b2") == "R1/Y2"


def test_decision_turn_owner_who_goes_out_ends_the_turn():
    state = position(3, {"b2": "R1", "b4": "Y3", "f5": "B1"}, variant="advanced", lost=((1, 2, 2, 3, 3), (), ()))
    state = play(state, "R1 b2-b3", "b4xb3", "roll 6 1")  # Yellow takes the offered attack and wins
    assert state.out == (RED,) and state.current == YELLOW and state.phase == MOVE


def test_decision_a_move_that_caps_a_tree_opens_no_combat():
    state = position(2, {"c6": "R3/R2", "c5": "R1", "b6": "Y1", "e6": "Y2"})
    after = play(state, "R1 c5-c6")
    assert square("c6") in after.capped and after.phase == ACTION_ROLL


def test_decision_winner_moving_onto_its_home_square_is_capped():
    state = play(position(2, {"b5": "R3/R2/R1", "c6": "Y1", "e2": "Y2"}), "R3 b5-b6", "b6xc6", "roll 6 1")
    assert at(state, "c6") == "R3/R2/R1" and square("c6") in state.capped


def test_decision_extra_blocked_squares_limits():
    with pytest.raises(BadOptions, match="already blocked"):
        RULES.new_game(2, {"blocked": "c3"}, random.Random(0))
    with pytest.raises(BadOptions, match="not a square"):
        RULES.new_game(2, {"blocked": "z9"}, random.Random(0))
    with pytest.raises(BadOptions, match=r"^b2 is named twice: name each square to block once\.$"):
        RULES.new_game(2, {"blocked": "b2 b2"}, random.Random(0))
    with pytest.raises(BadOptions, match=r"^`\*\*b2\*\*` is not a square"):
        RULES.new_game(2, {"blocked": "**b2**"}, random.Random(0))
    assert RULES.new_game(2, {"variant": "simple", "blocked": "c3 d4"}, random.Random(0)).extra == sq("c3 d4")


def test_ruling_extra_blocked_squares_never_a_start_or_home_square_of_any_seat_colour():
    # "they may not be start or home squares of any seat colour (seated or not)"
    for name in ("c1", "d1", "c6", "d6", "a3", "a4", "f3", "f4"):
        for players in (2, 3, 4):
            with pytest.raises(BadOptions, match="start or home"):
                RULES.new_game(players, {"blocked": name}, random.Random(0))


def test_ruling_extra_blocked_squares_have_no_fixed_maximum():
    # "no fixed maximum": any count that keeps every start square connected to every home square
    many = "b2 b3 b4 b5 e2 e3 e4 e5"
    state = RULES.new_game(4, {"blocked": many}, random.Random(0))
    assert set(sq(many)) <= set(state.blocked) and len(state.extra) == 8
    simple = RULES.new_game(2, {"variant": "simple", "blocked": "b2 b3 b4 b5 e2 e3 e4 e5 c3 d4"}, random.Random(0))
    assert len(simple.extra) == 10


def test_ruling_extra_blocked_squares_keep_every_start_connected_to_every_home():
    # "every start square must stay connected (king moves) to every home square", for every colour:
    # walling off West's a3/a4 cuts them from East's home, even in a two-player game
    with pytest.raises(BadOptions, match=r"cut (a3|f3) off"):
        RULES.new_game(2, {"blocked": "a2 b2 b3 b4 b5 a5"}, random.Random(0))
    with pytest.raises(BadOptions, match="cut"):
        RULES.new_game(2, {"blocked": "b2 b3 b4 b5 e2 e3 e4 e5 b1 b6"}, random.Random(0))


def test_ruling_player_count_is_checked_before_the_blocked_squares():
    # the player count is validated first, with a sentence, never an IndexError
    for players in (0, 1, 5, 9):
        with pytest.raises(BadOptions, match="2 to 4 players"):
            RULES.new_game(players, {"blocked": "b2 e5"}, random.Random(0))
        with pytest.raises(BadOptions, match="2 to 4 players"):
            parse_extra_blocked("b2 e5", players, "standard")


def test_decision_timeout_takes_the_safe_choice():
    state = position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"})
    assert RULES.timeout_move(state) == Pass()
    attack = play(state, "R2 b2-b3")
    assert RULES.timeout_move(attack) == Pass() and play(attack, "no attack").phase == OFFER


def test_ruling_timeout_during_the_counter_offer_calls_the_counter():
    # a counter is only offered to a defender who lost the first roll with equal pips, so it can only help
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3")
    assert state.phase == COUNTER and RULES.to_move(state) == YELLOW
    assert RULES.timeout_move(state) == Counter()
    assert RULES.format_move(state, RULES.timeout_move(state)) == "counter"
    called = RULES.apply(state, RULES.timeout_move(state))
    assert called.phase == COUNTER_ROLL and called.fight.called
    assert RULES.timeout_move(called) is None  # a roll: the service rolls instead


# ----------------------------------------------------------------------------------------------
# Notation and storage
# ----------------------------------------------------------------------------------------------


def test_notation_is_forgiving_about_case_spaces_and_omitted_details():
    state = RULES.new_game(2, {}, random.Random(0))
    state = replace(state, current=RED)
    assert RULES.parse_move(state, "  r3 C1 - c2 ") == RULES.parse_move(state, "R3 c1-c2")
    with pytest.raises(BadNotation, match="could mean"):
        RULES.parse_move(state, "c1 to c2")  # R1, R2 or R3 could step
    assert RULES.parse_move(state, "3 c1 c2") == RULES.parse_move(state, "R3 c1-c2")
    assert RULES.parse_move(state, "l c1-c2") == RULES.parse_move(state, "R3 c1-c2")
    assert RULES.parse_move(state, "pass") == Pass()
    with pytest.raises(IllegalMove, match=r"Not now"):
        RULES.parse_move(state, "no attack")
    with pytest.raises(IllegalMove, match="No roll is due"):
        RULES.parse_move(state, "roll 4")
    with pytest.raises(BadNotation):
        RULES.parse_move(state, "fly to the moon")
    with pytest.raises(IllegalMove, match="There is no Y3"):
        RULES.parse_move(state, "Y3 c1-c2")


def test_notation_of_actions_round_trips():
    state = position(2, {"b2": "R2", "e4": "Y3/Y2", "e5": "Y1"}, phase=SWAP)
    assert RULES.parse_move(state, "swap b2 e4") == RULES.parse_move(state, "swap R2 b2 with Y2 e4")
    hop = position(2, {"b2": "R1", "d2": "Y2", "e6": "Y3"}, phase=HOP)
    assert RULES.parse_move(hop, "hop d2") == RULES.parse_move(hop, "hop R1 b2-d2")
    dig = position(2, {"b1": "R1", "f5": "Y2/Y3"}, phase=DIG)
    assert RULES.parse_move(dig, "dig b1 f5") == RULES.parse_move(dig, "DIG r1 b1-f5 under y2")
    wild = replace(dig, phase=WILD)
    assert RULES.parse_move(wild, "aim") == RULES.parse_move(wild, "choose aim")
    rolled = replace(dig, phase=ACTION_ROLL)
    assert RULES.parse_move(rolled, "roll 4") == Roll((4,))


def test_json_round_trip_and_damaged_data():
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3")
    data = RULES.to_json(state)
    assert RULES.from_json(data) == state
    broken = dict(data, board={"c3": ["R9@c1"]})
    with pytest.raises(BadState):
        RULES.from_json(broken)
    with pytest.raises(BadState):
        RULES.from_json(dict(data, phase="dancing"))
    with pytest.raises(BadState):
        RULES.from_json(dict(data, board={"a1": ["R1@c1"]}))  # a pyramid on a blocked corner


# Red's only pyramid, R3 on b1, is boxed in: every neighbour is blocked or holds a Yellow stack it
# cannot step onto (a step may only end on your own pyramids).
BOXED = {"b1": "R3", "b2": "Y1/Y2", "c2": "Y1@d6/Y3@d6", "c1": "Y2@d6", "a2": "Y3"}


def test_aim_with_no_step_ends_the_turn_at_once():
    # docs/rules/combat.md, "A turn": "If the action you rolled cannot be used at all (no legal swap, hop
    # or dig, or no step for an Aim), the turn ends at once": no Aim die to roll for nothing
    state = position(2, BOXED, current=RED, phase=ACTION_ROLL)
    assert legal(position(2, BOXED, current=RED, phase=MOVE)) == {"no move"}  # truly no step
    after = play(state, "roll 5")
    assert after.phase != AIM_ROLL, "asked to roll the Aim die with no step to make"
    assert after.current == YELLOW


def test_wild_aim_with_no_step_ends_the_turn_at_once():
    # the same after a Wild roll: choosing Aim with no step to make ends the turn at once
    state = play(position(2, BOXED, current=RED, phase=ACTION_ROLL), "roll 6")
    assert state.phase == WILD
    after = play(state, "choose aim")
    assert after.phase != AIM_ROLL
    assert after.current == YELLOW


def test_an_aim_roll_logged_by_the_earlier_engine_is_passed_over_when_the_log_is_replayed():
    # games logged before the turn ended at once hold the Aim die that did nothing: undo, history and
    # replays read such a log to the same position
    from datetime import UTC, datetime

    from bot.session.service import replay_row
    from bot.session.store import MoveRow

    after_action = play(position(2, BOXED, current=RED, phase=ACTION_ROLL), "roll 5")
    logged = MoveRow(7, RED, "roll 3", "Red rolls 3 for the Aim.", "roll", datetime(2026, 1, 1, tzinfo=UTC))
    assert replay_row(RULES, after_action, logged) == after_action
    yellows_roll = MoveRow(7, YELLOW, "roll 3", "", "roll", datetime(2026, 1, 1, tzinfo=UTC))
    with pytest.raises((BadNotation, IllegalMove)):  # a roll of the seat to move is still checked
        replay_row(RULES, after_action, yellows_roll)


def test_status_says_a_roll_still_to_make_as_to_roll_like_the_other_games():
    # Under "Red rolls 5 for the action: Aim." the Status field reads "Turn 1/300 · Red to roll the Aim die",
    # as every other game says "Red to roll" — not "Red rolls the Aim die" for a roll not yet made.
    action = position(2, {"b2": "R2", "e5": "Y1"}, phase=ACTION_ROLL)
    assert RULES.status_line(action) == "Turn 1/300 · Red to roll the action die"
    assert RULES.status_line(play(action, "roll 5")) == "Turn 1/300 · Red to roll the Aim die"
    hop = play(position(2, {"b2": "R1", "d2": "Y2", "e5": "Y1"}, phase=HOP), "hop R1 b2-d2")
    assert RULES.status_line(hop) == "Turn 1/300 · Red to roll the hop contest dice"
    fight = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4")
    assert RULES.status_line(fight) == (
        "Turn 1/300 · Red to roll the combat dice: Red 2 pips on b3 v Yellow 2 pips on b4"
    )
    with pytest.raises(IllegalMove, match=r"^Roll first: Red to roll the Aim die\.$"):
        RULES.parse_move(play(action, "roll 5"), "end aim")
