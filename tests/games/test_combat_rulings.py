"""Martian Combat: scenario tests for the rulings of docs/rules/combat.md that
tests/games/test_combat_rules.py leaves unchecked or only half checked.

Each test is written from the ruling's text (quoted above its assertions); positions are built with
``position`` of the rule tests (the engine's own constructor and ``dataclasses.replace``), then played
forward in the game's notation.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.base import BadNotation, IllegalMove
from games.combat import (
    ACTION_ROLL,
    AIM,
    ATTACK,
    COMBAT_ROLL,
    COUNTER,
    DIG,
    HOP,
    MOVE,
    OFFER,
    OVER,
    RULES,
    SWAP,
    square,
)
from tests.games.test_combat_rules import RED, YELLOW, at, legal, play, position, sq

# ----------------------------------------------------------------------------------------------
# Board and setup
# ----------------------------------------------------------------------------------------------


def test_ruling_board_is_six_by_six_files_a_to_f_ranks_1_to_6() -> None:
    # "6x6 squares, files a-f, ranks 1-6."
    state = position(2, {"f5": "R1", "b2": "Y1"})
    assert len(state.board) == 36
    # f5 is on the right edge: its only neighbours are e4, e5, e6, f4 (f6 is a blocked corner)
    assert {m.split()[1] for m in legal(state) if m.startswith("R1 f5")} == {"f5-e4", "f5-e5", "f5-e6", "f5-f4"}
    for outside in ("R1 f5-g5", "R1 f5-f7", "R1 f5-g6"):
        with pytest.raises((BadNotation, IllegalMove)):
            RULES.parse_move(state, outside)


def test_ruling_black_is_no_player_colour_and_the_cap_is_only_a_marker() -> None:
    # "Black is not a player colour: it marks capped trees (the cap is a marker; no black pyramids
    # need to exist)."
    four = RULES.new_game(4, {}, random.Random(0))
    assert "Black" not in {RULES.seat_name(four, seat) for seat in range(4)}
    state = position(2, {"c6": "R3/R2", "c5": "R1", "e6": "Y1"})
    capped = play(state, "R1 c5-c6")
    assert square("c6") in capped.capped
    # capping adds no pyramid and changes no owner: the square still holds Red's own three
    assert at(capped, "c6") == "R3/R2/R1"
    assert sum(len(st) for st in capped.board) == sum(len(st) for st in state.board)


def test_ruling_advanced_reserve_nests_belong_to_seated_players_only() -> None:
    # "Advanced: a third set; each seated player has a reserve nest on a centre square (red c3,
    # yellow d3, green c4, blue d4). The centre squares stay blocked to movement."
    two = RULES.new_game(2, {"variant": "advanced"}, random.Random(0))
    assert at(two, "c3") == "R1/R2/R3" and at(two, "d3") == "Y1/Y2/Y3"
    assert at(two, "c4") == "" and at(two, "d4") == ""
    assert set(sq("c3 d3 c4 d4")) <= set(two.blocked)
    three = RULES.new_game(3, {"variant": "advanced"}, random.Random(0))  # South, North, East
    assert at(three, "c3") == "R1/R2/R3" and at(three, "d3") == "Y1/Y2/Y3" and at(three, "d4") == "B1/B2/B3"
    assert at(three, "c4") == ""
    assert set(sq("c3 d3 c4 d4")) <= set(three.blocked)


# ----------------------------------------------------------------------------------------------
# A turn
# ----------------------------------------------------------------------------------------------


def test_ruling_a_step_may_not_make_two_equal_sizes_touch() -> None:
    # "the resulting stack must be a tree or a nest" (a tree's sizes strictly decrease upward,
    # a nest's strictly increase; a two-pyramid stack is tested the same way)
    state = position(2, {"b2": "R2", "b3": "R2", "e6": "Y1"})
    assert "R2 b2-b3" not in legal(state)
    with pytest.raises(IllegalMove, match="neither a tree nor a nest"):
        RULES.parse_move(state, "R2 b2-b3")


def test_ruling_every_action_is_optional_except_tip() -> None:
    # "roll the d6 and take the action. Every action is optional except Tip, which happens by itself."
    base = position(2, {"b2": "R2", "c2": "R1", "e4": "Y3/Y2", "d2": "Y1", "e6": "Y1"}, phase=ACTION_ROLL)
    for face, phase, word in ((2, SWAP, "no swap"), (3, HOP, "no hop"), (4, DIG, "no dig")):
        rolled = play(base, f"roll {face}")
        assert rolled.phase == phase and RULES.to_move(rolled) == RED
        assert len(legal(rolled)) > 1 and word in legal(rolled)  # the action is possible, and may be declined
        declined = play(rolled, word)
        assert declined.board == base.board and declined.current == YELLOW
    aim = play(base, "roll 5", "roll 3")
    assert aim.phase == AIM and "end aim" in legal(aim)
    declined = play(aim, "end aim")
    assert declined.board == base.board and declined.current == YELLOW
    # Tip offers no choice: the roll itself tips every stack and ends the turn
    tipped = play(base, "roll 1")
    assert at(tipped, "e4") == "Y2/Y3" and tipped.current == YELLOW


# ----------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------


def test_ruling_hop_only_a_pyramid_with_nothing_on_top_of_it() -> None:
    # "Hop: one of your pyramids with nothing on top of it, within 2 squares (king distance) of the
    # target, moves onto an opponent's top pyramid"
    state = position(2, {"b2": "R2/R1", "d2": "Y3", "e6": "Y1"}, phase=HOP)
    assert "hop R1 b2-d2" in legal(state)
    assert "hop R2 b2-d2" not in legal(state)  # R1 sits on R2 (Y3/R2 alone would be a tree)
    with pytest.raises(IllegalMove):
        RULES.parse_move(state, "hop R2 b2-d2")


def test_ruling_hop_lands_only_on_an_opponent_top_pyramid() -> None:
    # "moves onto an opponent's top pyramid"
    stacks = {"b2": "R1", "d2": "R3", "b4": "Y3/R2", "a2": "Y2", "e6": "Y1"}
    state = position(2, stacks, phase=HOP)
    # d2 is Red's own; b4's top pyramid is Red's; only Yellow's medium on a2 is a target
    assert legal(state) == {"no hop", "hop R1 b2-a2"}
    for text in ("hop R1 b2-d2", "hop R1 b2-b4"):
        with pytest.raises(IllegalMove):
            RULES.parse_move(state, text)


def test_ruling_dig_only_a_pyramid_with_nothing_on_top_of_it() -> None:
    # "Dig: one of your pyramids with nothing on top of it goes directly under an opponent pyramid
    # anywhere on the board"
    state = position(2, {"b1": "R2/R1", "f5": "Y3", "e6": "Y1"}, phase=DIG)
    assert "dig R1 b1-f5 under Y3" in legal(state)
    assert "dig R2 b1-f5 under Y3" not in legal(state)  # R2/Y3 would be a nest, but R1 sits on R2
    with pytest.raises(IllegalMove):
        RULES.parse_move(state, "dig R2 b1-f5 under Y3")


def test_ruling_immobility_after_a_dig_or_a_swap() -> None:
    # "a pyramid cannot move while any opponent pyramid is above it (hopped onto, dug under, swapped in)"
    dug = play(position(2, {"b1": "R1", "f5": "Y2/Y3", "e2": "R3", "a5": "Y1"}, phase=DIG), "dig R1 b1-f5 under Y2")
    assert at(dug, "f5") == "R1/Y2/Y3"
    red = replace(dug, current=RED, phase=MOVE)
    assert not any(m.startswith("R1 f5") for m in legal(red)) and any(m.startswith("R3 e2") for m in legal(red))
    with pytest.raises(IllegalMove):
        RULES.parse_move(red, "R1 f5-f4")
    swapped = play(position(2, {"b2": "R2", "e4": "Y3/Y2/Y1", "e2": "R3"}, phase=SWAP), "swap R2 b2 with Y2 e4")
    assert at(swapped, "e4") == "Y3/R2/Y1" and at(swapped, "b2") == "Y2"
    red = replace(swapped, current=RED, phase=MOVE)
    assert not any(m.startswith("R2 e4") for m in legal(red))
    with pytest.raises(IllegalMove):
        RULES.parse_move(red, "R2 e4-e5")


# ----------------------------------------------------------------------------------------------
# Combat
# ----------------------------------------------------------------------------------------------


def test_ruling_a_repelled_hopper_and_returning_pyramids_open_no_combat() -> None:
    # "Only the step-1 move opens combat (Aim, Swap, Hop, Dig and returns never do)."
    # A repelled hopper is back on b2, next to Yellow's lone small on b3: the turn simply ends.
    hop = play(position(2, {"b2": "R1", "d2": "Y2", "b3": "Y1", "e6": "Y3"}, phase=HOP), "hop R1 b2-d2", "roll 2 5")
    assert at(hop, "b2") == "R1" and at(hop, "d2") == "Y2"
    assert hop.current == YELLOW and hop.phase == MOVE
    # After a fight Yellow's medium returns to c6, next to Red's R2 on c5, and the winner moves into b4,
    # next to Yellow's Y1 on a5: neither opens a second combat.
    stacks = {"b2": "R3", "b4": "Y2@c6", "c5": "R2", "a5": "Y1", "e6": "Y3"}
    fought = play(position(2, stacks), "R3 b2-b3", "b3xb4", "roll 4 1")
    assert at(fought, "b4") == "R3" and at(fought, "c6") == "Y2"
    assert fought.phase == ACTION_ROLL and RULES.to_move(fought) == RED


def test_ruling_pips_are_the_sum_of_the_pyramids_on_each_square() -> None:
    # "Pips: the sum of the pyramids on each square. The mover may attack if their pips >= the defender's."
    onto_large = play(position(2, {"a2": "R1", "b3": "R3", "b4": "Y3", "e6": "Y1"}), "R1 a2-b3")
    assert at(onto_large, "b3") == "R3/R1"
    assert onto_large.phase == ATTACK and "b3xb4" in legal(onto_large)  # 3 + 1 = 4 against 3
    won = play(onto_large, "b3xb4", "roll 1 1")  # 1 + 4 = 5 against 1 + 3 = 4
    assert at(won, "b4") == "R3/R1"
    alone = play(position(2, {"a2": "R1", "b4": "Y3", "e6": "Y1"}), "R1 a2-a3")
    assert alone.phase == OFFER and RULES.to_move(alone) == YELLOW  # 1 pip alone: Yellow is offered the attack
    # the defender's pips are its whole square too: Y2/Y1 is 3, as much as Red's large
    pair = play(position(2, {"b2": "R3", "b4": "Y2/Y1", "e6": "Y3"}), "R3 b2-b3")
    assert pair.phase == ATTACK and "b3xb4" in legal(pair)
    assert play(pair, "b3xb4", "roll 5 3").phase == COUNTER  # equal pips: 8 against 6, the defender may counter


def test_ruling_counter_attack_only_when_the_defender_loses_the_first_roll() -> None:
    # "Equal pips before the roll: if the defender loses the first roll, the defender may call a
    # counter attack" -- when the defender wins the first roll the fight is over.
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4")
    assert state.phase == COMBAT_ROLL
    after = play(state, "roll 1 5")  # 1 + 2 = 3 against 5 + 2 = 7
    assert after.phase == ACTION_ROLL and RULES.to_move(after) == RED
    assert at(after, "b3") == "Y2" and at(after, "b4") == "" and at(after, "c1") == "R2"


def test_ruling_a_returning_group_is_placed_as_a_nest_small_at_the_bottom() -> None:
    # "group the loser's pyramids by the start square each began the game on, and place each group
    # there as a nest (small at the bottom) if that square is empty"
    stacks = {"b2": "R3/R2/R1", "b4": "Y3@c6/Y2@c6", "e6": "Y1"}
    state = play(position(2, stacks), "R3 b2-b3", "b3xb4", "roll 4 1")  # 4 + 6 against 1 + 5
    assert at(state, "b4") == "R3/R2/R1"
    assert at(state, "c6") == "Y2/Y3"  # the tree Y3/Y2 comes home as a nest


# ----------------------------------------------------------------------------------------------
# Winning
# ----------------------------------------------------------------------------------------------


def test_ruling_wins_are_checked_after_every_step_of_an_aim() -> None:
    # "Wins are checked after every step." A step of an Aim that caps the second home tree ends the
    # game at once, with Aim steps left over.
    stacks = {"d6": "R3/R2/R1", "c6": "R3/R2", "c5": "R1", "e2": "Y1"}
    state = position(2, stacks, capped=sq("d6"), phase=AIM, aim_left=3)
    after = play(state, "R1 c5-c6")
    assert after.phase == OVER and RULES.to_move(after) is None
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.ranks == (1, 2)


def test_ruling_wins_are_checked_after_a_combat_resolution() -> None:
    # "Wins are checked after every step." / "You win when both your home squares hold capped trees."
    # The winner's tree moving into c6 caps it and, with d6 already capped, wins before the action roll.
    stacks = {"d6": "R3/R2/R1", "b5": "R3/R2/R1", "c6": "Y1", "e2": "Y2"}
    state = play(position(2, stacks, capped=sq("d6")), "R3 b5-b6", "b6xc6", "roll 6 1")
    assert at(state, "c6") == "R3/R2/R1" and square("c6") in state.capped
    assert state.phase == OVER
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (RED,)


def test_ruling_a_nest_returns_to_the_nearest_empty_square_ties_broken_rank_by_rank() -> None:
    # "otherwise as one nest on the nearest empty unblocked square to it (king distance; ties broken
    # a1, b1, ... f1, a2, ... f6)": c5 and b6 are as near to Yellow's start square c6; the order goes
    # through rank 5 (a5 ... f5) before rank 6, so c5 comes first, though b comes before c.
    stacks = {"b2": "R3/R2", "b4": "Y1@c6", "c6": "Y2@c6", "b5": "Y3@c6", "e2": "R1"}
    state = play(position(2, stacks), "R3 b2-b3", "b3xb4", "roll 4 1")
    assert at(state, "b4") == "R3/R2"
    assert at(state, "c5") == "Y1" and at(state, "b6") == ""


def test_ruling_the_attack_is_offered_in_turn_order_after_the_mover_at_four_players() -> None:
    # "each eligible adjacent opponent whose pips >= the mover's is offered the attack in turn order
    # after the mover": South moves; the turn order goes South, West, North, East.
    stacks = {"b4": "R1", "a4": "G2", "c6": "Y2", "c5": "B2", "e2": "R2"}
    state = play(position(4, stacks), "R1 b4-b5")
    assert state.offers == (3, 1, 2)  # Green (West), Yellow (North), Blue (East)
    assert "no attack" in legal(state)
