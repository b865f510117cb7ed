"""Scenario tests for Martian Whist, one per ruling (docs/rules/whist.md)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest

from games.base import BadNotation, BadOptions, IllegalMove
from games.playout import setup_rng
from games.whist import (
    DRAFT,
    OVER,
    RULES,
    TRICKS,
    Play,
    Steal,
    Take,
    Trick,
    WhistState,
    canonical,
    explain,
    kept_trees,
    resolve,
    score,
    score_words,
    scores,
    solid_count,
)

NORTH, SOUTH = 0, 1


def tree(text: str) -> tuple[str, str, str]:
    """``"R3 Y2 G1"`` -> ``("R3", "Y2", "G1")``."""
    a, b, c = text.split()
    return a, b, c


def stash(text: str) -> tuple[str, ...]:
    return canonical(text.split())


def draft_state(
    rows: list[str],
    north: str = "",
    south: str = "",
    turn: int = NORTH,
    variant: str = "short",
    first: int = NORTH,
    steal_open: bool = False,
) -> WhistState:
    """A draft position: ``rows`` are trees bottom to top, ``"R3/Y2/G1"``; ``""`` for an empty tree."""
    row = tuple(tuple(t.split("/")) if t else () for t in rows)
    return WhistState(
        variant=variant,
        row=row,
        stashes=(stash(north), stash(south)),
        first=first,
        phase=DRAFT,
        turn=turn,
        steal_open=steal_open,
    )


def trick_state(
    north: str, south: str, turn: int, led: str | None = None, tricks: tuple[Trick, ...] = (), variant: str = "short"
) -> WhistState:
    """A trick position with an empty draft row."""
    empty = ((),) * (20 if variant == "normal" else 10)
    return WhistState(
        variant=variant,
        row=empty,
        stashes=(stash(north), stash(south)),
        first=NORTH,
        phase=TRICKS,
        turn=turn,
        led=tree(led) if led else None,
        tricks=tricks,
    )


def fresh(variant: str = "normal", seed: int = 0) -> WhistState:
    return RULES.new_game(2, {"variant": variant}, setup_rng(seed))


def leader_wins(led: str, followed: str) -> bool:
    return resolve(tree(led), tree(followed)).leader_wins


# --- variants ----------------------------------------------------------------------------------------


def test_normal_game_is_the_default_with_four_sets_twenty_trees_ten_tricks():
    s = RULES.new_game(2, {}, setup_rng(0))
    assert s.variant == "normal"
    assert len(s.row) == 20 and sum(len(t) for t in s.row) == 60
    assert s.cap == 10 and s.total_tricks == 10


def test_short_game_has_two_sets_ten_trees_five_tricks():
    s = fresh("short")
    assert len(s.row) == 10 and sum(len(t) for t in s.row) == 30
    assert s.cap == 5 and s.total_tricks == 5


def test_whist_is_for_exactly_two_players():
    with pytest.raises(BadOptions):
        RULES.new_game(3, {}, setup_rng(0))
    with pytest.raises(BadOptions):
        RULES.new_game(2, {"variant": "long"}, setup_rng(0))


# --- setup -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "sets"), [("normal", 4), ("short", 2)])
def test_setup_deals_all_pyramids_into_complete_trees(variant, sets):
    s = fresh(variant, seed=7)
    for t in s.row:
        assert [int(p[1]) for p in t] == [3, 2, 1], "each tree is a large, a medium on it and a small on top"
    counts = Counter(p for t in s.row for p in t)
    assert counts == {f"{c}{n}": sets for c in "KRYGB" for n in (1, 2, 3)}
    assert s.stashes == ((), ())


def test_setup_shuffle_is_seeded_and_recorded():
    assert fresh(seed=3).row == fresh(seed=3).row
    rows = {fresh(seed=k).row for k in range(10)}
    assert len(rows) == 10, "different seeds give different rows"
    s = fresh(seed=3)
    assert RULES.from_json(RULES.to_json(s)).row == s.row


def test_first_drafter_is_chosen_at_random():
    firsts = {fresh(seed=k).first for k in range(40)}
    assert firsts == {0, 1}
    s = fresh(seed=5)
    assert RULES.to_move(s) == s.first


# --- the draft ---------------------------------------------------------------------------------------


def test_only_the_top_pyramid_of_a_draft_tree_may_be_taken():
    s = draft_state(["R3/Y2/G1", "K3/B2/B1"], turn=NORTH, first=SOUTH)
    assert set(RULES.legal_moves(s)) == {Take(0, "G1"), Take(1, "B1")}
    with pytest.raises(IllegalMove, match="only tops"):
        RULES.apply(s, Take(0, "Y2"))
    with pytest.raises(IllegalMove):
        RULES.parse_move(s, "take Y2 a")
    after = RULES.apply(s, Take(0, "G1"))
    assert after.row[0] == ("R3", "Y2")
    after = RULES.apply(after, Take(0, "Y2"))  # South may now take the exposed medium
    assert after.stashes[SOUTH] == ("Y2",)


def test_first_drafter_takes_any_small():
    s = fresh(seed=2)
    moves = RULES.legal_moves(s)
    assert len(moves) == 20
    assert all(isinstance(m, Take) and m.piece.endswith("1") for m in moves)
    after = RULES.apply(s, moves[7])
    assert after.stashes[s.first] == (moves[7].piece,)


def test_second_player_may_steal_the_first_small_then_first_drafter_picks_any_top():
    s = draft_state(["R3/Y2/G1", "K3/B2/B1", "G3/G2/R1"], turn=NORTH, first=NORTH)
    s = RULES.apply(s, Take(0, "G1"))
    assert RULES.to_move(s) == SOUTH
    assert Steal() in RULES.legal_moves(s)
    s = RULES.apply(s, Steal())
    assert s.stashes == ((), ("G1",))
    assert RULES.to_move(s) == NORTH, "after a steal the first drafter picks"
    assert Take(0, "Y2") in RULES.legal_moves(s), "any top pyramid, not only a small"
    s = RULES.apply(s, Take(0, "Y2"))
    assert RULES.to_move(s) == SOUTH, "then the draft alternates"
    s = RULES.apply(s, Take(1, "B1"))
    assert RULES.to_move(s) == NORTH


def test_second_player_may_take_a_top_instead_and_the_draft_alternates():
    s = draft_state(["R3/Y2/G1", "K3/B2/B1", "G3/G2/R1"], turn=SOUTH, first=SOUTH)
    s = RULES.apply(s, Take(2, "R1"))
    s = RULES.apply(s, Take(1, "B1"))
    assert s.stashes == (("B1",), ("R1",))
    assert RULES.to_move(s) == SOUTH
    s = RULES.apply(s, Take(1, "B2"))
    assert RULES.to_move(s) == NORTH


def test_steal_is_only_possible_as_the_second_players_first_action():
    s = draft_state(["R3/Y2/G1", "K3/B2/B1", "G3/G2/R1"], turn=NORTH, first=NORTH)
    assert Steal() not in RULES.legal_moves(s)
    s = RULES.apply(s, Take(0, "G1"))
    s = RULES.apply(s, Take(1, "B1"))  # South declines the steal by drafting
    assert Steal() not in RULES.legal_moves(s)
    with pytest.raises(IllegalMove, match="steal"):
        RULES.parse_move(s, "steal")


@pytest.mark.parametrize(("variant", "cap"), [("normal", 10), ("short", 5)])
def test_a_player_may_never_hold_more_than_the_cap_of_one_size(variant, cap):
    trees = ["R3/Y2/G1", "K3/B2/B1", "G3/G2"]
    trees += [""] * ((20 if variant == "normal" else 10) - len(trees))
    s = draft_state(trees, north=" ".join(["R1"] * cap), south="K1", turn=NORTH, variant=variant, first=SOUTH)
    assert RULES.legal_moves(s) == [Take(2, "G2")]
    with pytest.raises(IllegalMove, match=f"already hold {cap} small"):
        RULES.parse_move(s, "take G1 a")


def test_a_player_with_no_legal_pick_is_skipped():
    # Short game: North already holds 5 smalls; once South empties tree d only smalls are on top.
    s = draft_state(
        ["R3/Y2/G1", "K3/B2/B1", "G3/R2/R1", "Y3", "", "", "", "", "", ""],
        north="R1 K1 G1 Y1 B1",
        south="Y1 K2",
        turn=SOUTH,
        first=NORTH,
    )
    s = RULES.apply(s, Take(3, "Y3"))
    assert RULES.to_move(s) == SOUTH, "North has no legal pick, so South picks again"
    s = RULES.apply(s, Take(0, "G1"))
    assert RULES.to_move(s) == NORTH, "North may take the exposed medium"


def test_the_other_player_always_has_a_pick_when_one_is_skipped():
    for seed in range(30):
        s = fresh("short", seed)
        chooser = random.Random(seed)
        while s.phase == DRAFT:
            assert RULES.legal_moves(s), "the seat to move always has a pick"
            s = RULES.apply(s, chooser.choice(RULES.legal_moves(s)))


@pytest.mark.parametrize("variant", ["normal", "short"])
def test_the_draft_ends_when_the_row_is_empty_with_cap_of_each_size(variant):
    for seed in range(10):
        s = fresh(variant, seed)
        chooser = random.Random(seed)
        while s.phase == DRAFT:
            s = RULES.apply(s, chooser.choice(RULES.legal_moves(s)))
        assert not any(s.row)
        assert s.phase == TRICKS
        for seat in (NORTH, SOUTH):
            sizes = Counter(int(p[1]) for p in s.stashes[seat])
            assert sizes == {1: s.cap, 2: s.cap, 3: s.cap}


# --- tricks ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("taker", [NORTH, SOUTH])
def test_the_player_who_took_the_last_pyramid_leads_the_first_trick(taker):
    rows = ["B3"] + [""] * 9
    north = "R3 R3 R3 R3 R2 R2 R2 R2 R2 R1 R1 R1 R1 R1"
    south = "K3 K3 K3 K3 K3 K2 K2 K2 K2 K2 K1 K1 K1 K1 K1"
    if taker == SOUTH:
        north, south = south, north
    s = draft_state(rows, north=north, south=south, turn=taker, first=NORTH)
    s = RULES.apply(s, Take(0, "B3"))
    assert s.phase == TRICKS
    assert RULES.to_move(s) == taker
    assert s.led is None


def test_the_last_pick_after_a_steal_decides_the_leader():
    # With a steal, the first drafter makes the 2nd, 4th... picks and so takes the last pyramid.
    s = draft_state(["R3/Y2/G1", "K3/B2/B1"], turn=NORTH, first=NORTH, variant="short")
    s = RULES.apply(s, Take(0, "G1"))
    s = RULES.apply(s, Steal())
    for move in (Take(0, "Y2"), Take(1, "B1"), Take(1, "B2"), Take(0, "R3"), Take(1, "K3")):
        s = RULES.apply(s, move)
    assert s.phase == TRICKS and RULES.to_move(s) == NORTH


def test_the_leader_presents_any_tree_from_their_stash():
    s = trick_state(north="R3 K3 Y2 B2 G1 R1", south="B3 B3 B2 B2 B1 B1", turn=NORTH)
    trees = {m.tree for m in RULES.legal_moves(s)}
    assert trees == {(a, b, c) for a in ("K3", "R3") for b in ("Y2", "B2") for c in ("R1", "G1")}
    with pytest.raises(IllegalMove, match="no green large"):
        RULES.parse_move(s, "play G3 Y2 R1")
    after = RULES.apply(s, Play(tree("K3 B2 G1")))
    assert after.led == tree("K3 B2 G1") and RULES.to_move(after) == SOUTH
    assert after.stashes[NORTH] == stash("R3 Y2 R1")


def test_the_follower_must_include_a_led_colour_when_able():
    s = trick_state(north="B3 B2 B1", south="K3 G3 K2 Y2 K1 B1", turn=SOUTH, led="R3 Y2 G1")
    trees = {m.tree for m in RULES.legal_moves(s)}
    assert trees == {
        t
        for t in ((a, b, c) for a in ("K3", "G3") for b in ("K2", "Y2") for c in ("K1", "B1"))
        if any(p[0] in "RYG" for p in t)
    }
    assert tree("K3 K2 K1") not in trees
    with pytest.raises(IllegalMove, match="must follow"):
        RULES.parse_move(s, "play K3 K2 K1")


def test_a_follower_without_a_led_colour_may_present_any_tree():
    s = trick_state(north="B3 B2 B1", south="K3 B3 K2 B2 K1 B1", turn=SOUTH, led="R3 Y2 G1")
    trees = {m.tree for m in RULES.legal_moves(s)}
    assert len(trees) == 8
    assert tree("K3 K2 K1") in trees


def test_following_with_a_led_colour_in_any_position():
    # Decision 5: the led red large is followed by a red small.
    s = trick_state(north="B3 B2 B1", south="K3 K2 R1 K1", turn=SOUTH, led="R3 Y2 G1")
    assert {m.tree for m in RULES.legal_moves(s)} == {tree("K3 K2 R1")}


def test_colour_ranks_black_red_yellow_green_blue():
    order = "KRYGB"
    for hi, lo in itertools.pairwise(order):
        assert leader_wins(f"{hi}3 {hi}2 {hi}1", f"{lo}3 {lo}2 {lo}1")
        assert not leader_wins(f"{lo}3 {lo}2 {lo}1", f"{hi}3 {hi}2 {hi}1")
    assert leader_wins("K3 B2 B1", "B3 K2 K1") is False  # segments: 1 to 2


def test_two_solid_trees_the_higher_colour_wins():
    assert leader_wins("K3 K2 K1", "R3 R2 R1")
    assert not leader_wins("G3 G2 G1", "Y3 Y2 Y1")
    assert "solid yellow beats solid green" in explain(tree("G3 G2 G1"), tree("Y3 Y2 Y1"), "North", "South")


def test_a_solid_tree_beats_any_mixed_tree():
    assert leader_wins("B3 B2 B1", "K3 K2 R1")
    assert not leader_wins("K3 K2 R1", "B3 B2 B1")
    assert "solid blue tree beats a mixed tree" in explain(tree("K3 K2 R1"), tree("B3 B2 B1"), "North", "South")


def test_mixed_trees_compare_the_base():
    assert not leader_wins("R3 Y2 G1", "K3 Y2 G1")
    assert explain(tree("R3 Y2 G1"), tree("K3 Y2 G1"), "North", "South") == (
        "South wins the large (black over red): 1 segment to 0."
    )


def test_mixed_trees_compare_the_middle():
    assert not leader_wins("R3 G2 G1", "R3 Y2 G1")
    assert leader_wins("R3 K2 G1", "R3 Y2 G1")


def test_mixed_trees_compare_the_top_one_segment_to_none():
    assert leader_wins("R3 Y2 G1", "R3 Y2 B1")
    assert explain(tree("R3 Y2 G1"), tree("R3 Y2 B1"), "North", "South") == (
        "North wins the small (green over blue): 1 segment to 0."
    )


def test_the_tree_winning_more_segments_wins():
    assert leader_wins("K3 B2 Y1", "R3 Y2 G1")  # large and small v medium
    assert not leader_wins("B3 K2 B1", "R3 Y2 G1")  # medium v large and small


def test_a_segment_of_equal_colours_counts_for_nobody():
    # Decision 4: two equal segments are won by neither, so the follower's one segment wins.
    assert not leader_wins("R3 Y2 G1", "R3 Y2 Y1")


def test_identical_trees_the_leader_wins():
    assert leader_wins("R3 Y2 G1", "R3 Y2 G1")
    assert "identical" in explain(tree("R3 Y2 G1"), tree("R3 Y2 G1"), "North", "South")


def test_equal_solid_trees_the_leader_wins():
    assert leader_wins("Y3 Y2 Y1", "Y3 Y2 Y1")
    assert leader_wins("B3 B2 B1", "B3 B2 B1")


def test_equal_segment_counts_the_leader_wins():
    assert leader_wins("K3 B2 Y1", "R3 Y2 Y1")  # 1 to 1, small equal
    assert leader_wins("B3 K2 G1", "R3 Y2 G1")  # 1 to 1
    assert "tied 1 to 1" in explain(tree("K3 B2 Y1"), tree("R3 Y2 Y1"), "North", "South")


def test_the_winner_keeps_their_tree_the_loser_discards_and_the_winner_leads_next():
    s = trick_state(north="R3 R3 Y2 B2 G1 K1", south="K3 B3 Y2 G2 G1 R1", turn=NORTH)
    s = RULES.apply(s, Play(tree("R3 Y2 G1")))
    s = RULES.apply(s, Play(tree("K3 Y2 G1")))  # South wins the large
    assert len(s.tricks) == 1 and s.tricks[0].winner == SOUTH
    assert kept_trees(s, SOUTH) == (tree("K3 Y2 G1"),)
    assert kept_trees(s, NORTH) == ()
    assert s.tricks[0].discarded == tree("R3 Y2 G1")
    assert RULES.to_move(s) == SOUTH and s.led is None, "the winner leads the next trick"
    assert s.stashes == (stash("R3 B2 K1"), stash("B3 G2 R1"))


def test_the_game_ends_when_the_stashes_are_empty():
    s = trick_state(north="R3 Y2 G1", south="K3 K2 K1", turn=NORTH)
    s = RULES.apply(s, Play(tree("R3 Y2 G1")))
    assert RULES.outcome(s) is None
    s = RULES.apply(s, Play(tree("K3 K2 K1")))
    assert s.phase == OVER and RULES.to_move(s) is None and RULES.legal_moves(s) == []
    assert RULES.outcome(s) is not None
    with pytest.raises(IllegalMove):
        RULES.apply(s, Play(tree("R3 Y2 G1")))


# --- scoring -----------------------------------------------------------------------------------------


def _won(*trees_text: str, seat: int = NORTH) -> tuple[Trick, ...]:
    """Tricks ``seat`` won by leading each tree against an identical one (identical trees go to the leader)."""
    return tuple(Trick(leader=seat, led=tree(text), followed=tree(text)) for text in trees_text)


def test_scoring_forms_solid_trees_from_all_kept_pyramids():
    tricks = _won("R3 Y2 G1", "Y3 R2 R1", "K3 K2 B1")
    s = WhistState(
        variant="short", row=((),) * 10, stashes=((), ()), first=NORTH, phase=OVER, turn=NORTH, tricks=tricks
    )
    assert solid_count(kept_trees(s, NORTH)) == 1  # one solid red; no other colour has all three sizes
    assert score(s, NORTH) == 3 + 1 + 1
    rearranged = _won("R3 Y2 G1", "Y3 G2 R1", "G3 R2 Y1")
    assert solid_count(t.kept for t in rearranged) == 3  # 3 solid trees once rearranged: 9 points


def test_score_is_tricks_won_plus_two_per_solid():
    tricks = _won("K3 K2 K1", "R3 Y2 G1", "B3 B2 G1", seat=SOUTH) + _won("Y3 Y2 Y1", seat=NORTH)
    s = WhistState(
        variant="short", row=((),) * 10, stashes=((), ()), first=NORTH, phase=OVER, turn=NORTH, tricks=tricks
    )
    assert scores(s) == (1 + 2 * 1, 3 + 2 * 1)


def test_the_higher_score_wins():
    tricks = _won("K3 K2 K1", "R3 Y2 G1", seat=SOUTH) + _won("Y3 G2 Y1", seat=NORTH)
    s = WhistState(
        variant="short", row=((),) * 10, stashes=((), ()), first=NORTH, phase=OVER, turn=NORTH, tricks=tricks
    )
    outcome = RULES.outcome(s)
    assert outcome.ranks == (2, 1) and outcome.scores == (1.0, 4.0)
    assert outcome.reason == "4 points to 1."  # the ranks say who won


def test_equal_scores_are_a_draw():
    tricks = _won("K3 K2 K1", seat=SOUTH) + _won("Y3 Y2 B1", "R3 R2 B1", "G3 K2 K1", seat=NORTH)
    s = WhistState(
        variant="short", row=((),) * 10, stashes=((), ()), first=NORTH, phase=OVER, turn=NORTH, tricks=tricks
    )
    outcome = RULES.outcome(s)
    assert outcome.ranks == (1, 1) and outcome.is_draw
    assert outcome.scores == (3.0, 3.0)


# --- decisions where the rules are silent ------------------------------------------------------------


def test_picks_name_the_tree():
    s = draft_state(["R3/Y2/G1", "K3/B2/G1", "G3/G2/R1"], turn=NORTH, first=SOUTH)
    from_a, from_b = RULES.apply(s, Take(0, "G1")), RULES.apply(s, Take(1, "G1"))
    assert from_a != from_b, "the same piece from two trees exposes different pyramids"
    assert RULES.format_move(s, Take(1, "G1")) == "take G1 b"
    with pytest.raises(BadNotation, match="name the tree"):
        RULES.parse_move(s, "take G1")
    assert RULES.parse_move(s, "take R1") == Take(2, "R1"), "a piece on top of one tree only needs no letter"


def test_tree_letters_are_fixed_when_a_tree_empties():
    s = draft_state(["", "K3/B2/G1", "G3/G2/R1"], turn=NORTH, first=SOUTH)
    assert RULES.parse_move(s, "take c") == Take(2, "R1")
    with pytest.raises(IllegalMove, match="Tree a is empty"):
        RULES.parse_move(s, "take a")
    with pytest.raises(IllegalMove, match="no tree z"):
        RULES.parse_move(s, "take z")


def test_skipped_turns_need_no_move():
    s = draft_state(
        ["Y3", "R3/R2/R1", "", "", "", "", "", "", "", ""],
        north="R1 K1 G1 Y1 B1",
        south="Y1 K2",
        turn=SOUTH,
        first=NORTH,
    )
    s = RULES.apply(s, Take(0, "Y3"))
    assert RULES.to_move(s) == SOUTH
    assert RULES.legal_moves(s) == [Take(1, "R1")]
    with pytest.raises(BadNotation):
        RULES.parse_move(s, "pass")


def test_seats_are_north_and_south():
    s = fresh()
    assert RULES.seat_name(s, 0) == "North" and RULES.seat_name(s, 1) == "South"


def test_time_out_has_no_safe_default():
    s = fresh()
    assert RULES.timeout_move(s) is None
    s = trick_state(north="R3 Y2 G1", south="K3 K2 K1", turn=NORTH)
    assert RULES.timeout_move(s) is None


@pytest.mark.parametrize("seat", [NORTH, SOUTH])
def test_a_player_who_leaves_loses(seat):
    s = trick_state(north="R3 Y2 G1", south="K3 K2 K1", turn=NORTH, tricks=_won("K3 K2 K1", seat=seat))
    s = RULES.resign(s, seat)
    outcome = RULES.outcome(s)
    assert outcome.ranks[seat] == 2 and outcome.ranks[1 - seat] == 1
    assert RULES.to_move(s) is None


# --- notation ----------------------------------------------------------------------------------------


def test_notation_is_forgiving_about_case_spaces_and_order():
    s = draft_state(["R3/Y2/G1", "K3/B2/B1", "G3/G2/R1"], turn=NORTH, first=SOUTH)
    for text in ("take B1 b", "TAKE b1 B", "take b", "take b B1", "takeb1b", "  b1   b ", "take B1 from b"):
        assert RULES.parse_move(s, text) == Take(1, "B1"), text
    t = trick_state(north="K3 R2 Y1", south="B3 B2 B1", turn=NORTH)
    for text in ("play K3 R2 Y1", "K3/R2/Y1", "play y1 r2 k3", "PLAY KRY", "k3r2y1"):
        assert RULES.parse_move(t, text) == Play(tree("K3 R2 Y1")), text


def test_notation_refuses_garbage_and_explains_illegal_moves():
    s = draft_state(["R3/Y2/G1", "K3/B2/B1"], turn=NORTH, first=SOUTH)
    with pytest.raises(BadNotation):
        RULES.parse_move(s, "take")
    with pytest.raises(BadNotation):
        RULES.parse_move(s, "take Q1 a")
    with pytest.raises(IllegalMove, match="draft is still on"):
        RULES.parse_move(s, "play R3 Y2 G1")
    with pytest.raises(IllegalMove, match="no dice"):
        RULES.parse_move(s, "roll 4")
    t = trick_state(north="K3 R2 Y1", south="B3 B2 B1", turn=NORTH)
    with pytest.raises(BadNotation, match="one large, one medium and one small"):
        RULES.parse_move(t, "play K3 R3 Y1")
    with pytest.raises(IllegalMove, match="draft is over"):
        RULES.parse_move(t, "take R1 a")


def test_a_follow_is_described_with_the_winner_and_the_segments():
    s = trick_state(north="B3 B2 B1", south="K3 Y2 G1", turn=SOUTH, led="R3 Y2 B1")
    text = RULES.play(s, Play(tree("K3 Y2 G1"))).description
    assert text.startswith("South follows with K3 Y2 G1 (mixed).")
    assert "South wins the large (black over red) and the small (green over blue): 2 segments to 0." in text
    assert text.endswith("Scores: North 0, South 1.")


def test_each_answer_to_a_lead_says_whether_it_wins_in_its_label():
    """A handful of answers are shown as buttons, which carry no description: the label must say it."""
    s = trick_state(north="B3 B2 B1", south="K3 Y2 G1", turn=SOUTH, led="R3 Y2 B1")
    choice = RULES.choice(s, Play(tree("K3 Y2 G1")))
    assert choice.label == "K3 Y2 G1 (mixed) · wins"
    assert choice.hint == "Wins the trick against R3 Y2 B1."
    s = trick_state(north="B3 B2 B1", south="K3 Y2 G1", turn=SOUTH, led="R3 R2 R1")  # a solid beats a mixed
    assert RULES.choice(s, Play(tree("K3 Y2 G1"))).label == "K3 Y2 G1 (mixed) · loses"
    lead = trick_state(north="B3 B2 B1", south="K3 Y2 G1", turn=NORTH)
    assert RULES.choice(lead, Play(tree("B3 B2 B1"))).label == "B3 B2 B1 (solid blue)"


def test_a_score_with_a_solid_tree_says_how_it_is_made_up():
    # "Scoring": the kept pyramids are regrouped into solid trees, worth 2 more each
    won = Trick(SOUTH, tree("K3 R2 Y1"), tree("B3 B2 G1"))
    assert won.winner == SOUTH
    s = trick_state(north="G3 G2 B1", south="R3 K2 K1", turn=SOUTH, led="G3 G2 B1", tricks=(won,))
    s = replace(s, stashes=(stash(""), stash("R3 K2 K1")))
    text = RULES.play(s, Play(tree("R3 K2 K1"))).description
    # K3 kept before, K2 and K1 now: one solid black tree besides the two trees kept
    assert text.endswith("Scores: North 0, South 4 (2 trees + 2 for 1 solid).")


def test_a_score_with_two_solid_trees_says_solids():
    s = trick_state(north="G3 G2 B1", south="R3 K2 K1", turn=SOUTH, led="G3 G2 B1")
    kept = (Trick(SOUTH, tree("K3 K2 K1"), tree("B3 B2 G1")), Trick(SOUTH, tree("R3 R2 R1"), tree("B3 B2 G1")))
    assert score_words(replace(s, tricks=kept), SOUTH) == "South 6 (2 trees + 4 for 2 solids)"
