"""What the per-game evaluations and the search's draw handling know, from the rules they rest on."""

from __future__ import annotations

import dataclasses
import random

import pytest

import ai
from ai.evaluation import combat as combat_eval
from ai.evaluation import hedgehog as hedgehog_eval
from ai.evaluation import profile_for, shares
from ai.evaluation import treasure as treasure_eval
from ai.levels import SETTINGS
from ai.search import SETTLED_WAIT, Search, outcome_rewards
from games import treasure as th
from games.base import Outcome
from games.combat import CombatRules, Step, distance, home_squares, square
from games.hedgehog import LETTERS, HedgehogRules, HedgehogState, Piece, has_tree
from games.hedgehog import Step as HedgehogStep
from games.treasure import TreasureRules
from tests.games.test_combat_rules import position as combat_position
from tests.games.test_combat_rules import sq
from tests.games.test_hedgehog_rules import position as hedgehog_position
from tests.games.test_treasure_rules import position as treasure_position
from tests.games.test_treasure_rules import sq as th_sq
from tests.games.test_treasure_rules import steps as treasure_steps

RED, YELLOW = 0, 1


# -- shares: a leader still sees its own progress ------------------------------------------------


def test_shares_without_a_range_saturate_for_a_far_leader():
    ahead, further_ahead = shares([20.0, -10.0], 2.5), shares([21.0, -10.0], 2.5)
    assert ahead[0] == pytest.approx(further_ahead[0], abs=1e-4)


def test_shares_with_a_range_keep_the_leaders_progress_apart():
    ahead, further_ahead = shares([20.0, -10.0], 2.5, (-20.0, 24.0)), shares([21.0, -10.0], 2.5, (-20.0, 24.0))
    assert further_ahead[0] > ahead[0] + 0.01
    assert all(0.0 <= v <= 1.0 for v in ahead + further_ahead)


# -- Martian Combat: one home capped, the other still to build -----------------------------------


def _red_one_home_capped(nest_at: str):
    """Red has capped c6 (its home) and has its second nest at ``nest_at``; yellow is far from home."""
    return combat_position(
        2,
        {"c6": "R3/R2/R1", nest_at: "R1/R2/R3", "b5": "Y1/Y2/Y3", "e5": "Y1/Y2/Y3"},
        capped=sq("c6"),
    )


def test_combat_leader_with_a_capped_home_values_steps_toward_its_other_home():
    far, near = _red_one_home_capped("b3"), _red_one_home_capped("e4")
    d6 = square("d6")
    assert distance(square("e4"), d6) < distance(square("b3"), d6)
    assert combat_eval.evaluate(near)[RED] > combat_eval.evaluate(far)[RED] + 0.005


def test_combat_hard_bot_with_a_capped_home_steps_toward_its_other_home():
    rules = CombatRules()
    state = _red_one_home_capped("e3")
    move = ai.choose_move(rules, state, "hard", seed=3, budget=ai.Budget(max_iterations=300))
    assert isinstance(move, Step)
    open_home = [h for h in home_squares(RED) if h not in state.capped]
    assert min(distance(move.to, h) for h in open_home) < min(distance(move.frm, h) for h in open_home)


def _red_tree_begun(home: str, elsewhere: str):
    """Red has ``home`` on d6 (one of its homes) and ``elsewhere`` on b3; yellow has a nest on c6 and on d1."""
    return combat_position(2, {"d6": home, "b3": elsewhere, "c6": "Y1/Y2/Y3", "d1": "Y1/Y2/Y3"})


def test_combat_expert_evaluation_credits_a_large_alone_on_an_open_home():
    # a home caps only with the large at the bottom (docs/rules/combat.md, "Winning")
    large, medium = _red_tree_begun("R3", "R2/R1"), _red_tree_begun("R2", "R3/R1")
    assert combat_eval.evaluate(large)[RED] == pytest.approx(combat_eval.evaluate(medium)[RED])
    assert combat_eval.expert_evaluate(large)[RED] > combat_eval.expert_evaluate(medium)[RED] + 0.005


def test_combat_expert_evaluation_credits_large_and_medium_over_a_nest_of_the_same_pieces():
    tree, nest = _red_tree_begun("R3/R2", "R1"), _red_tree_begun("R2/R3", "R1")
    assert combat_eval.evaluate(tree)[RED] == pytest.approx(combat_eval.evaluate(nest)[RED])
    assert combat_eval.expert_evaluate(tree)[RED] > combat_eval.expert_evaluate(nest)[RED] + 0.005
    assert combat_eval.begun_tree(tree, RED) > combat_eval.begun_tree(_red_tree_begun("R3", "R2/R1"), RED)


def test_combat_a_foreign_pyramid_on_the_home_earns_no_credit():
    mixed = combat_position(2, {"d6": "R3/Y2", "b3": "R2/R1", "c6": "Y1/Y3", "d1": "Y1/Y2/Y3"})
    assert combat_eval.begun_tree(mixed, RED) == 0.0


# -- Martian Treasure Hunt: a far leader still wants the last pyramids ---------------------------


def test_treasure_far_leader_still_values_one_more_pyramid():
    """Before, a leader far ahead saw no gain in the last pyramid and games stalled out at the limit."""
    pyramids = {"c5": 1, "d5": 1, "c6": 3, "d6": 3, "e6": 3, "f6": 3}
    base = treasure_position(2, {0: {0: "c1", 1: "d1"}, 1: {0: "c10", 1: "d10"}}, pyramids)
    # red leads 36 to 24; black could still catch up with the 14 points of pyramids and red's ace
    ahead = dataclasses.replace(base, treasure=((("Y", 3),) * 12, (("Y", 3),) * 8))
    one_more = dataclasses.replace(base, treasure=((("Y", 3),) * 12 + (("Y", 1),), (("Y", 3),) * 8))
    assert treasure_eval.settled(ahead) is None
    assert treasure_eval.evaluate(one_more)[0] > treasure_eval.evaluate(ahead)[0] + 0.005


def _treasure_scored(red: int, black: int, red_coins: dict[int, str], black_coins: dict[int, str], **kw):
    """Red (seat 0) with ``red`` points and black with ``black`` (in small pyramids), one small pyramid at c5."""
    base = treasure_position(2, {0: red_coins, 1: black_coins}, {"c5": 1}, **kw)
    return dataclasses.replace(base, treasure=((("Y", 1),) * red, (("Y", 1),) * black))


@pytest.mark.parametrize(("green", "ranks"), [(19, None), (10, (1, 2, 3))])
def test_treasure_three_seats_are_settled_only_once_no_place_can_change(green, ranks):
    """Red's 30 is out of reach; green at 19 can still tie black's 20 with the last pyramid."""
    base = treasure_position(3, {0: {0: "c1"}, 1: {0: "a3"}, 2: {0: "c10"}}, {"e5": 1})
    state = dataclasses.replace(base, treasure=((("Y", 1),) * 30, (("Y", 1),) * 20, (("Y", 1),) * green))
    assert treasure_eval.settled(state) == (None if ranks is None else (ranks, 1))


def _searching(seat: int, level: str = "normal") -> Search:
    search = Search(TreasureRules(), profile_for("treasure"), SETTINGS[level], random.Random(0))
    search.seat, search.players = seat, 2
    return search


def test_treasure_a_game_nobody_can_catch_up_in_is_settled():
    """Black cannot reach red's 30: the last pyramid is 1 point and red's one coin is immune."""
    state = _treasure_scored(30, 20, {0: "a1"}, {0: "a10", 1: "b10", 2: "c10"})
    assert treasure_eval.settled(state) == ((1, 2), 1)


@pytest.mark.parametrize("black", [25, 27])
def test_treasure_a_game_someone_can_still_tie_is_not_settled(black: int):
    """Red's three coins leave two to capture (4 points) and the pyramid 1: black at 25 could tie 30."""
    state = _treasure_scored(30, black, {0: "a1", 1: "b1", 2: "c1"}, {0: "a10"})
    assert treasure_eval.settled(state) is None
    assert _searching(1).value(state) == treasure_eval.evaluate(state)


def test_a_searching_seat_that_has_lost_values_a_settled_game_below_its_end():
    """Black, searching, counts the loss less the wait for the pyramid point left; red keeps its evaluation."""
    state = _treasure_scored(30, 20, {0: "a1"}, {0: "a10", 1: "b10", 2: "c10"})
    red, black = _searching(1).value(state)
    assert black == pytest.approx(0.0 - 2 * SETTLED_WAIT)
    assert red == treasure_eval.evaluate(state)[0]


def test_a_searching_leader_does_not_count_on_the_others_to_end_a_settled_game():
    """The leader searching sees everyone's usual values: a seat that has lost may still play on."""
    state = _treasure_scored(30, 20, {0: "a1"}, {0: "a10", 1: "b10", 2: "c10"})
    assert _searching(0).value(state) == treasure_eval.evaluate(state)


def test_a_seat_that_has_lost_prefers_less_left_to_play_for():
    """Ending the game is the best a seat that has lost can do; until then, the less left the better."""
    two_left = dataclasses.replace(
        _treasure_scored(30, 5, {0: "a1"}, {0: "a10"}),
        pyramids=((th_sq("c5"), "Y", 1), (th_sq("d5"), "Y", 1)),
    )
    one_left = _treasure_scored(30, 5, {0: "a1"}, {0: "a10"})
    search = _searching(1)
    assert search.value(two_left)[1] < search.value(one_left)[1] < 0.0


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_treasure_the_seat_that_has_lost_takes_the_last_pyramid(level: str):
    """Black has lost whatever happens; its rook takes the last pyramid rather than wait for the stall limit."""
    state = _treasure_scored(30, 5, {0: "a1"}, {3: "c7", 0: "f10"}, turn=1, dice=(3, th.ROOK))
    rules = TreasureRules()
    assert "c5" in {th.square_name(m.dst) for m in treasure_steps(state, rules)}
    move = ai.choose_move(rules, state, level, seed=3, budget=ai.Budget(max_iterations=200))
    assert th.square_name(move.dst) == "c5"


# -- Der Marsigelwettkampf: a large buried under another large ------------------------------------


def test_hedgehog_a_large_under_the_other_colours_large_is_valued_as_almost_out():
    free = hedgehog_position("Y3", "R3", "R2", "Y2", "R1", "Y1", players=2)
    buried = hedgehog_position("R3/Y3", "R2", "Y2", "R1", "Y1", players=2)
    assert hedgehog_eval.evaluate(free)[RED] == pytest.approx(0.5, abs=0.2)
    assert hedgehog_eval.evaluate(buried)[RED] < 0.05


def test_hedgehog_a_buried_large_with_a_free_large_elsewhere_costs_less():
    rest = ("Y2", "G2", "R1", "G1")
    no_free = hedgehog_position("R3/Y3", "G3/Y1", "R2", *rest, players=3)
    with_free = hedgehog_position("R3/Y3", "G3", "R2/Y1", *rest, players=3)
    assert 0 < hedgehog_eval.COVERED < hedgehog_eval.BURIED
    where_free, where_none = hedgehog_eval._where(with_free), hedgehog_eval._where(no_free)
    assert hedgehog_eval.score(with_free, RED, where_free) - hedgehog_eval.score(no_free, RED, where_none) == (
        pytest.approx(hedgehog_eval.BURIED - hedgehog_eval.COVERED)
    )


@pytest.mark.parametrize("seed", range(40))
def test_hedgehog_two_players_red_never_builds_its_tree_once_buried(seed: int):
    """From the rule the evaluation rests on: a large lands only on a large, so red stays buried."""
    rules = HedgehogRules()
    rng = random.Random(seed)
    stacks = ["R2", "Y2", "R1", "Y1"]
    rng.shuffle(stacks)
    state = hedgehog_position("R3/Y3", *stacks, players=2, roll=None, current=rng.randrange(2))
    for _ in range(120):
        if rules.outcome(state) is not None:
            break
        move = rules.roll(state, rng) if rules.pending_roll(state) else rng.choice(rules.legal_moves(state))
        state = rules.apply(state, move)
        assert has_tree(state.spaces, RED) is None


# -- draws: the searching seat dislikes them, its opponents take them ----------------------------


def test_a_whole_table_draw_is_worth_less_to_the_searching_seat_only():
    draw = Outcome((1, 1), "draw")
    assert outcome_rewards(draw) == (0.5, 0.5)
    assert outcome_rewards(draw, draw_factor=0.2, seat=RED) == (pytest.approx(0.1), 0.5)
    assert outcome_rewards(Outcome((1, 2), "won"), draw_factor=0.2, seat=RED) == (1.0, 0.0)


def test_a_two_space_ring_is_scored_mostly_as_a_draw_for_the_searching_seat():
    rules = HedgehogRules()
    locked = hedgehog_position("R3/R2/Y1", "Y3/Y2/R1", players=2)
    search = Search(rules, profile_for("hedgehog"), SETTINGS["hard"], random.Random(0))
    search.run(locked, ai.Budget(max_iterations=1))
    value = search.value(locked)
    weight = hedgehog_eval.LOCKED_DRAWS
    even = hedgehog_eval.evaluate(locked)
    assert value[RED] < even[RED] / 2
    assert value[RED] == pytest.approx(weight * hedgehog_eval.DRAW_FACTOR / 2 + (1 - weight) * even[RED])
    assert value[YELLOW] == pytest.approx(weight * 0.5 + (1 - weight) * even[YELLOW])


# -- Der Marsigelwettkampf: blocks (the expert evaluation) ---------------------------------------


@pytest.mark.parametrize(
    ("stacks", "is_blocked"),
    [
        (("R3/Y1", "R2", "Y3", "R1", "Y2"), True),  # a foreign small where red's medium must land
        (
            ("R3/Y2", "R2", "Y3", "R1", "Y1"),
            True,
        ),  # a foreign medium there: red's medium may land, not next to its large
        (("R3/R2/Y1", "Y3", "R1", "Y2"), True),  # a foreign small where red's small must land
        (("Y3", "R2/Y2", "R3", "R1", "Y1"), True),  # the medium carries the block wherever it goes
        (("R3/R1", "R2", "Y3", "Y2", "Y1"), False),  # red's own small: red can move it off
        (("R3", "R2/R1/Y1", "Y3", "Y2"), False),  # anything above the small is allowed in a tree
        (("Y1/R3", "R2", "Y3", "R1", "Y2"), False),  # pieces below the large do not matter
        (("R3/Y3", "R2", "Y2", "R1", "Y1"), False),  # a foreign large: buried, counted by the plain score
    ],
)
def test_hedgehog_a_foreign_piece_directly_on_the_large_or_the_medium_blocks(stacks, is_blocked):
    state = hedgehog_position(*stacks, players=2)
    where = hedgehog_eval._where(state)
    assert hedgehog_eval.blocked(state, RED, where) is is_blocked
    plain, expert = hedgehog_eval.score(state, RED, where), hedgehog_eval.expert_score(state, RED, where)
    assert plain - expert == (hedgehog_eval.BLOCKED if is_blocked else 0.0)


def _pieces(players: int) -> list[str]:
    """Every piece of a table of ``players`` colours, larges first (``R3``, ``Y3``, ... ``R1``, ...)."""
    return [colour + pips for pips in "321" for colour in LETTERS[:players]]


def _red_at_a_table(first: str, medium_at: int, players: int = 5) -> tuple[float, float]:
    """Red's plain and table scores at ``players`` seats: ``first`` on space 1, red's medium
    ``medium_at`` spaces on, every other piece alone on a space of its own (red's small last, unless
    in ``first``)."""
    codes = _pieces(players)
    rest = [code for code in codes if code not in first.split("/") and code != "R2"]
    stacks = [first, *rest]
    stacks.insert(medium_at, "R2")
    state = hedgehog_position(*stacks, players=players)
    where = hedgehog_eval._where(state)
    return hedgehog_eval.score(state, RED, where), hedgehog_eval.table_score(state, RED, where)


def test_hedgehog_a_large_shielded_by_its_own_small_counts_as_free_at_a_table():
    # The small lifts off with whatever landed on it (a moving piece carries what lies above it), so
    # the large is a landing place for the medium again (docs/rules/hedgehog.md, "Moving").
    free_plain, free_table = _red_at_a_table("R3", 3)
    shield_plain, shield_table = _red_at_a_table("R3/R1", 3)
    covered_plain, covered_table = _red_at_a_table("R3/Y1", 3)
    assert covered_table == covered_plain  # no shield and no open large: the plain score
    assert free_table > free_plain  # the open large: the plain score and the small's pull to it
    assert shield_plain < free_plain  # to the plain score the small is just a piece on the large
    assert shield_table == pytest.approx(1.0 + hedgehog_eval.SHIELD - 0.5 * 3)
    assert shield_table > free_table > covered_table
    # whatever lands on the shield rides off with it
    assert _red_at_a_table("R3/R1/Y1/G1", 3)[1] == shield_table
    # only the medium's way to the large is left to go
    assert _red_at_a_table("R3/R1", 1)[1] > shield_table


def _red_pull(large: str, small_at: int, medium_at: int, players: int = 5) -> float:
    """Red's table score less its plain score at ``players`` seats: ``large`` (red's large and what
    lies on it) on space 0 of a ring of all the pieces, red's small and medium alone on the spaces
    given."""
    codes = _pieces(players)
    placed = {"R1": small_at, "R2": medium_at}
    others = iter(code for code in codes if code not in large.split("/") and code not in placed)
    at = {index: code for code, index in placed.items() if code not in large.split("/")}
    stacks = [large] + [at.get(index) or next(others) for index in range(1, len(codes) - large.count("/"))]
    state = hedgehog_position(*stacks, players=players)
    where = hedgehog_eval._where(state)
    return hedgehog_eval.table_score(state, RED, where) - hedgehog_eval.score(state, RED, where)


@pytest.mark.parametrize(
    ("players", "shield"), [(5, hedgehog_eval.SHIELD), (8, hedgehog_eval.BIG_SHIELD), (10, hedgehog_eval.BIG_SHIELD)]
)
def test_hedgehog_the_small_is_pulled_toward_its_own_open_large_at_a_table(players: int, shield: float):
    # Until the shield stands, the small's way to the open large counts where it scores better than
    # its way to the medium (docs/ai.md, "How the bot thinks"); the pull draws on the shield's worth.
    pull, a_space, last = hedgehog_eval.PULL, 0.25, 3 * players - 1

    def red_pull(large: str, small_at: int, medium_at: int) -> float:
        return _red_pull(large, small_at, medium_at, players)

    # one space from the large, five from the medium: the shield's worth less a space, over the
    # five spaces the plain score takes off for the way to the medium
    assert red_pull("R3", 1, 6) == pytest.approx(shield - pull - (-a_space * 5))
    # the ring is a circle: the last space is one space back
    assert red_pull("R3", last, 6) == pytest.approx(shield - pull - (-a_space * 7))
    # the nearer the large, the stronger the pull
    assert red_pull("R3", 1, 8) > red_pull("R3", 2, 8) > red_pull("R3", 3, 8) > 0
    # next to the medium, the medium is the better way from this far from the large on
    far = round(shield / a_space) + 1
    assert red_pull("R3", far, far + 1) == 0.0
    assert red_pull("R3", far + 1, far + 2) == 0.0
    assert red_pull("R3", far - 1, far) > 0
    # no open large, no pull: a foreign piece on it, or the medium already there
    assert red_pull("R3/Y1", 1, 6) == 0.0
    assert red_pull("R3/R2", 1, 6) == 0.0


def test_hedgehog_a_shield_is_worth_more_from_eight_players_left():
    # At the biggest tables an open large is covered soonest (docs/ai-measurements.md, "How fast a
    # table of random movers covers a piece"), and the shield that keeps it open counts for more there.
    assert hedgehog_eval.BIG_SHIELD > hedgehog_eval.SHIELD
    for players in range(5, 11):
        state = _ring_of(players)
        expected = hedgehog_eval.BIG_SHIELD if players >= 8 else hedgehog_eval.SHIELD
        assert hedgehog_eval.shield_worth(state) == expected
        shielded = _red_at_a_table("R3/R1", 3, players)[1]
        assert shielded == pytest.approx(1.0 + expected - 0.5 * 3)
    # players left, not seats: a ten-seat table down to seven counts a shield as seven seats do
    down_to_seven = dataclasses.replace(_ring_of(10), out=(7, 8, 9))
    assert hedgehog_eval.shield_worth(down_to_seven) == hedgehog_eval.SHIELD


def _ring_of(players: int) -> HedgehogState:
    """The opening ring of ``players`` seats: every piece alone on a space, larges first."""
    return hedgehog_position(*_pieces(players), players=players)


def test_hedgehog_the_shield_is_worth_more_than_the_strongest_pull():
    # red's small one space from its open large (the ring wraps round), then on it
    one_step_plain, one_step_table = _red_at_a_table("R3", 3)
    assert _red_at_a_table("R3/R1", 3)[1] > one_step_table > one_step_plain


def test_hedgehog_the_small_on_its_medium_is_not_pulled_away():
    state = hedgehog_position(
        "R3", "R2/R1", "Y3", "G3", "B3", "K3", "Y2", "G2", "B2", "K2", "Y1", "G1", "B1", "K1", players=5
    )
    where = hedgehog_eval._where(state)
    assert hedgehog_eval.shield_pull(state, RED, where) == 0.0
    assert hedgehog_eval.table_score(state, RED, where) == hedgehog_eval.score(state, RED, where)


def test_hedgehog_hard_bot_at_a_table_of_five_shields_its_large_with_its_small():
    """Red rolled 1: its small can step onto its open large (anticlockwise), step the other way, or pass."""
    rules = HedgehogRules()
    stacks = ("R3", "R1", "Y3", "G3", "B3", "K3", "Y2", "G2", "R2", "B2", "K2", "Y1", "G1", "B1", "K1")
    state = hedgehog_position(*stacks, players=5, roll=1, points=1)
    shield = HedgehogStep(Piece(RED, 1), -1, 1)
    assert shield in rules.legal_moves(state)
    moves = [ai.choose_move(rules, state, "hard", seed=seed, budget=ai.Budget(max_iterations=300)) for seed in range(8)]
    # without the shield knowledge three of these eight searches stepped onto the large
    assert sum(move == shield for move in moves) >= 6


def test_hedgehog_a_shield_under_a_foreign_large_is_still_buried():
    stacks = ("R3/R1/Y3", "G3", "B3", "K3", "R2", "Y2", "G2", "B2", "K2", "Y1", "G1", "B1", "K1")
    state = hedgehog_position(*stacks, players=5)
    where = hedgehog_eval._where(state)
    assert hedgehog_eval.shielded(RED, where)
    assert hedgehog_eval.table_score(state, RED, where) == hedgehog_eval.score(state, RED, where)
    assert hedgehog_eval.score(state, RED, where) < -hedgehog_eval.COVERED


def test_hedgehog_the_expert_evaluation_counts_shields_at_a_table_and_blocks_with_two_players():
    five = hedgehog_position("R3/R1", "Y3", "G3", "B3/Y1", "K3/K1", "R2", "Y2", "G2", "B2", "K2", "G1", "B1", players=5)
    two = hedgehog_position("R3/R1", "Y3", "R2", "Y2/Y1", players=2)
    for state, scorer in ((five, hedgehog_eval.table_score), (two, hedgehog_eval.expert_score)):
        where = hedgehog_eval._where(state)
        scores = [scorer(state, seat, where) for seat in range(state.players)]
        assert hedgehog_eval.expert_evaluate(state) == shares(scores, hedgehog_eval.TEMPERATURE)


def test_hedgehog_blocking_the_colour_about_to_win_is_worth_more_to_the_expert_evaluation():
    """Red has its medium on its large and its small one space away; yellow's small lands on red's medium."""
    threatened = hedgehog_position("R3/R2/Y1", "R1", "Y3", "Y2", players=2, current=YELLOW)
    left_alone = hedgehog_position("R3/R2", "R1", "Y3/Y1", "Y2", players=2, current=YELLOW)
    assert hedgehog_eval.evaluate(threatened)[YELLOW] < 0.5  # the plain score sees red close to its tree
    assert hedgehog_eval.expert_evaluate(threatened)[YELLOW] > 0.9
    assert hedgehog_eval.expert_evaluate(left_alone)[YELLOW] < 0.5


def _knowledge(rules, profile, level, state):
    search = Search(rules, profile, SETTINGS[level], random.Random(0))
    search.run(state, ai.Budget(max_iterations=1))
    return search.evaluate, search.cutoff


def test_only_the_expert_level_searches_with_the_games_expert_knowledge():
    rules, profile = HedgehogRules(), profile_for("hedgehog")
    two = hedgehog_position("R3", "Y2", "R1", "Y3", "R2", "Y1", players=2)
    assert SETTINGS["hard"].expert and not SETTINGS["normal"].expert
    assert _knowledge(rules, profile, "hard", two) == (hedgehog_eval.expert_evaluate, hedgehog_eval.EXPERT_CUTOFF)
    assert _knowledge(rules, profile, "normal", two) == (hedgehog_eval.evaluate, SETTINGS["normal"].cutoff)
    combat = combat_position(2, {"a1": "R1/R2/R3", "f6": "Y1/Y2/Y3"})
    assert _knowledge(CombatRules(), profile_for("combat"), "hard", combat) == (
        combat_eval.evaluate,
        SETTINGS["hard"].cutoff,
    )


def test_the_combat_tree_credit_holds_with_four_players_left_only():
    rules, profile = CombatRules(), profile_for("combat")
    four = combat_position(4, {"c1": "R1/R2/R3", "c6": "Y1/Y2/Y3", "f3": "B1/B2/B3", "a3": "G1/G2/G3"})
    assert _knowledge(rules, profile, "hard", four) == (combat_eval.expert_evaluate, SETTINGS["hard"].cutoff)
    assert _knowledge(rules, profile, "normal", four) == (combat_eval.evaluate, SETTINGS["normal"].cutoff)
    three = combat_position(3, {"c1": "R1/R2/R3", "c6": "Y1/Y2/Y3", "f3": "B1/B2/B3"})
    assert _knowledge(rules, profile, "hard", three) == (combat_eval.evaluate, SETTINGS["hard"].cutoff)
    green_left = dataclasses.replace(four, out=(3,))
    assert _knowledge(rules, profile, "hard", green_left) == (combat_eval.evaluate, SETTINGS["hard"].cutoff)


def test_the_hedgehog_block_knowledge_holds_with_two_players_left_and_the_shields_from_five():
    rules, profile = HedgehogRules(), profile_for("hedgehog")
    three = hedgehog_position("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3)
    assert _knowledge(rules, profile, "hard", three) == (hedgehog_eval.evaluate, SETTINGS["hard"].cutoff)
    # from four seats: rollouts long enough for the others to move; from five, shields too
    four = hedgehog_position("R3", "Y2", "G1", "B3", "R2", "Y1", "G3", "B2", "R1", "Y3", "G2", "B1", players=4)
    assert _knowledge(rules, profile, "hard", four) == (hedgehog_eval.evaluate, hedgehog_eval.TABLE_CUTOFF)
    five = hedgehog_position(*[c + p for p in "321" for c in "RYGBK"], players=5)
    assert _knowledge(rules, profile, "hard", five) == (hedgehog_eval.expert_evaluate, hedgehog_eval.TABLE_CUTOFF)
    assert _knowledge(rules, profile, "normal", five) == (hedgehog_eval.evaluate, SETTINGS["normal"].cutoff)
    assert _knowledge(rules, profile, "hard", dataclasses.replace(five, out=(4,))) == (
        hedgehog_eval.evaluate,
        hedgehog_eval.TABLE_CUTOFF,
    )
    assert SETTINGS["hard"].cutoff < hedgehog_eval.TABLE_CUTOFF
    assert _knowledge(rules, profile, "normal", four) == (hedgehog_eval.evaluate, SETTINGS["normal"].cutoff)
    assert _knowledge(rules, profile, "hard", dataclasses.replace(four, out=(3,))) == (
        hedgehog_eval.evaluate,
        SETTINGS["hard"].cutoff,
    )
    alone = hedgehog_position("R3", "R2", "R1", players=1)
    assert _knowledge(rules, profile, "hard", alone) == (hedgehog_eval.evaluate, SETTINGS["hard"].cutoff)
    green_left = dataclasses.replace(three, out=(2,))
    assert _knowledge(rules, profile, "hard", green_left) == (
        hedgehog_eval.expert_evaluate,
        hedgehog_eval.EXPERT_CUTOFF,
    )
