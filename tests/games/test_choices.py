"""Every engine says what each decision is (``Rules.choice``): labels fit a phone, offers are buttons.

The property part walks thousands of states of seeded random playouts of every game and checks every
legal move's choice; the scenario part reaches each yes/no offer of the rules and checks its button.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import REGISTRY, assassin, combat, hedgehog, treasure, whist
from games.base import BUTTON_KINDS, HINT_LIMIT, LABEL_LIMIT, Choice, Rules
from games.playout import playout, setup_rng
from tests.games.test_assassin_rules import FAR, make
from tests.games.test_combat_rules import RED, YELLOW, play, position
from tests.games.test_hedgehog_rules import position as ring
from tests.games.test_whist_rules import NORTH, draft_state

# Moves that answer a yes/no offer in the rules; each must be shown as a button.
OFFERS: dict[str, tuple[type, ...]] = {
    "combat": (combat.Pass, combat.Counter, combat.Attack, combat.Choose),
    "assassin": (assassin.Reroll, assassin.Stay),
    "hedgehog": (hedgehog.Pass,),
    "whist": (whist.Steal,),
    "treasure": (treasure.Forfeit,),
}
TABLES = {"combat": (2, 3, 4), "assassin": (3, 4, 6), "hedgehog": (1, 2, 3, 5), "whist": (2,), "treasure": (2, 3, 4)}
SHORT: dict[str, dict[str, object]] = {
    "combat": {"turn_limit": 60},
    "hedgehog": {"round_limit": 15},
    "whist": {"variant": "short"},
}
STATES_PER_GAME = 2_000


def is_offer(name: str, state: Any, move: Any) -> bool:
    """True when ``move`` answers a yes/no offer (the treasure's standard order counts as one)."""
    if name == "treasure" and isinstance(move, treasure.Arrange):
        return move.order == treasure.DEFAULT_ORDER
    return isinstance(move, OFFERS[name])


def check(rules: Rules, state: Any, move: Any) -> Choice:
    """The choice of ``move``, checked for shape."""
    made = rules.choice(state, move)
    assert isinstance(made, Choice)
    assert made.kind and made.kind == made.kind.strip().lower(), made
    assert made.label.strip() and len(made.label) <= LABEL_LIMIT, made
    assert len(made.hint) <= HINT_LIMIT, made
    assert "\n" not in made.label + made.hint, made
    if made.hint:
        assert made.hint.endswith("."), made
    return made


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_legal_move_of_random_playouts_has_a_fitting_choice(name: str) -> None:
    rules = REGISTRY[name]
    states = 0
    kinds: set[str] = set()
    seed = 0
    while states < STATES_PER_GAME:
        players = TABLES[name][seed % len(TABLES[name])]
        options = dict(SHORT.get(name, {}))
        if name == "hedgehog":
            options["xeno"] = players > 5
        for state in playout(rules, players, options, seed=f"choice-{seed}"):
            moves = list(rules.legal_moves(state))
            if not moves:
                continue
            states += 1
            sample = moves if len(moves) <= 40 else [*moves[:20], *random.Random(states).sample(moves[20:], 20)]
            for move in sample:
                made = check(rules, state, move)
                kinds.add(made.kind)
                if is_offer(name, state, move):
                    assert made.kind in BUTTON_KINDS, (name, made)
                else:
                    assert made.kind not in BUTTON_KINDS, (name, made)
        seed += 1
    assert "move" in kinds


# ---------------------------------------------------------------------------------------- Martian Combat


def choices(rules: Rules, state: Any) -> dict[str, Choice]:
    """Every legal move's choice, by notation."""
    return {rules.format_move(state, m): check(rules, state, m) for m in rules.legal_moves(state)}


def test_combat_no_move_is_a_pass_button_and_steps_go_in_the_menu() -> None:
    offered = choices(combat.RULES, position(2, {"b2": "R2", "e6": "Y1"}))
    assert offered["no move"] == Choice("pass", "No move", offered["no move"].hint)
    assert offered["R2 b2-b3"].kind == "move" and offered["R2 b2-b3"].label == "R2 b2-b3"


def test_combat_attack_or_not_after_a_step_are_buttons() -> None:
    state = play(position(2, {"b2": "R3", "a4": "Y1", "b4": "Y2"}, variant="simple"), "R3 b2-b3")
    offered = choices(combat.RULES, state)
    assert offered["no attack"].kind == "decline" and offered["no attack"].label == "No attack"
    assert offered["b3xb4"].kind == "attack-offer" and offered["b3xb4"].label == "Attack b4 from b3"
    assert offered["b3xa4"].kind == "attack-offer"


def test_combat_the_attack_offered_to_an_opponent_is_a_button() -> None:
    state = play(position(2, {"b2": "R2", "b4": "Y3", "e6": "Y1"}), "R2 b2-b3")
    assert combat.RULES.to_move(state) == YELLOW
    offered = choices(combat.RULES, state)
    assert offered["b4xb3"].kind == "attack-offer" and offered["no attack"].kind == "decline"


def test_combat_counter_or_no_counter_are_buttons() -> None:
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3")
    offered = choices(combat.RULES, state)
    assert offered == {
        "no counter": Choice("decline", "No counter", offered["no counter"].hint),
        "counter": Choice("counter", "Counter", offered["counter"].hint),
    }


def test_combat_wild_choices_are_buttons() -> None:
    state = play(position(2, {"b2": "R1/R2", "e2": "Y2", "e6": "Y1"}, phase=combat.ACTION_ROLL), "roll 6")
    offered = choices(combat.RULES, state)
    assert {c.label for c in offered.values() if c.kind == "choose"} == {"Tip", "Swap", "Hop", "Dig", "Aim"}
    assert offered["no action"].kind == "pass"


def test_combat_no_swap_hop_or_dig_is_a_pass_and_end_aim_an_end_button() -> None:
    for phase, word in ((combat.SWAP, "swap"), (combat.HOP, "hop"), (combat.DIG, "dig")):
        offered = choices(combat.RULES, position(2, {"b2": "R2", "d2": "Y2", "e6": "Y1"}, phase=phase))
        assert offered[f"no {word}"] == Choice("pass", f"No {word}", offered[f"no {word}"].hint)
        assert all(c.kind == "move" for n, c in offered.items() if not n.startswith("no "))
    aim = position(2, {"b2": "R2", "e6": "Y1"}, phase=combat.AIM, aim_left=2, current=RED)
    offered = choices(combat.RULES, aim)
    assert offered["end aim"] == Choice("end", "End aim", offered["end aim"].hint)


# ---------------------------------------------------------------------------------- The other games


def test_assassin_reroll_or_stay_after_a_null_are_buttons() -> None:
    state = assassin.RULES.apply(make(4, 0, {0: "c3", **FAR}), assassin.Roll(0))
    offered = choices(assassin.RULES, state)
    assert offered == {
        "reroll": Choice("reroll", "Re-roll", offered["reroll"].hint),
        "stay": Choice("stay", "Stay", offered["stay"].hint),
    }


def test_assassin_squares_say_when_they_mark_a_base_or_capture() -> None:
    victim = assassin.RULES.apply(make(4, 0, {0: "d1", **FAR}), assassin.Roll(1))
    assert choices(assassin.RULES, victim)["e1"].label == "e1 · base"
    hunter = assassin.RULES.apply(make(4, 0, {0: "c3", 1: "a3", 2: "a10", 3: "j10"}, turn=1), assassin.Roll(2))
    assert choices(assassin.RULES, hunter)["c3"].label == "c3 · capture"


def test_hedgehog_pass_before_moving_and_end_turn_after_are_buttons() -> None:
    state = ring("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=6)
    offered = choices(hedgehog.RULES, state)
    assert offered["pass"] == Choice("pass", "Pass", offered["pass"].hint)
    step = next(m for m in hedgehog.RULES.legal_moves(state) if isinstance(m, hedgehog.Step) and m.piece.pips == 1)
    moved = hedgehog.RULES.apply(state, step)
    assert choices(hedgehog.RULES, moved)["pass"].kind == "end"
    assert all(c.kind == "move" and "onto space" in c.label for n, c in offered.items() if n != "pass")


def test_whist_steal_is_a_button() -> None:
    state = whist.RULES.apply(draft_state(["R3/Y2/G1", "K3/B2/B1"], turn=NORTH, first=NORTH), whist.Take(0, "G1"))
    offered = choices(whist.RULES, state)
    assert offered["steal"] == Choice("steal", "Steal the green small", offered["steal"].hint)
    assert all(c.kind == "move" for n, c in offered.items() if n != "steal")


def test_whist_a_follow_says_whether_it_wins_the_trick() -> None:
    state = whist.RULES.new_game(2, {"variant": "short"}, setup_rng(4))
    while state.phase == whist.DRAFT:
        state = whist.RULES.apply(state, whist.RULES.legal_moves(state)[0])
    state = whist.RULES.apply(state, whist.RULES.legal_moves(state)[0])
    hints = {c.hint.split(" ")[0] for c in choices(whist.RULES, state).values()}
    assert hints <= {"Wins", "Loses"} and hints


def test_treasure_keeping_the_standard_order_is_a_button_and_a_turn_loss_a_pass() -> None:
    state = treasure.RULES.new_game(2, {}, setup_rng(0))
    standard = check(treasure.RULES, state, treasure.Arrange(treasure.DEFAULT_ORDER, state.turn))
    assert standard.kind == "accept" and standard.label == "Standard order"
    other = check(treasure.RULES, state, treasure.Arrange((5, 4, 3, 2, 1, 0), state.turn))
    assert other.kind == "move" and other.label == "5 4 3 2 ace null"
    assert check(treasure.RULES, state, treasure.Forfeit()).kind == "pass"


def test_choice_and_notation_name_the_same_move() -> None:
    # a label never contradicts the notation it plays: the piece or square named is the one moved
    state = position(2, {"b2": "R2", "e6": "Y1"})
    for move in combat.RULES.legal_moves(state):
        made = combat.RULES.choice(state, move)
        if made.kind == "move":
            assert made.label == combat.RULES.format_move(state, move)
