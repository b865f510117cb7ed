"""Martian Whist: scenario tests for the rulings of docs/rules/whist.md that
tests/games/test_whist_rules.py leaves unchecked or only half checked.

Each test is written from the ruling's text (quoted above its assertions); positions are built with
the engine's state type, ``WhistState``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.base import IllegalMove
from games.playout import setup_rng
from games.whist import DRAFT, RULES, TRICKS, Play, Steal, Take, WhistState, canonical

NORTH, SOUTH = 0, 1


def draft_state(rows: list[str], north: str, south: str, turn: int, first: int = NORTH) -> WhistState:
    """A short-game draft: ``rows`` are trees bottom to top (``"R3/Y2/G1"``, ``""`` when empty)."""
    row = tuple(tuple(t.split("/")) if t else () for t in rows)
    return WhistState(
        variant="short",
        row=row,
        stashes=(canonical(north.split()), canonical(south.split())),
        first=first,
        phase=DRAFT,
        turn=turn,
    )


def test_ruling_perfect_information_the_draft_row_and_both_stashes_are_public() -> None:
    # "Perfect information: the draft row and both stashes are public."
    s = RULES.new_game(2, {"variant": "short"}, setup_rng(4))
    first = s.first
    other = 1 - first
    for _ in range(6):  # the opening picks, a steal among them when it is offered
        move = Steal() if Steal() in RULES.legal_moves(s) else RULES.legal_moves(s)[0]
        notation = RULES.format_move(s, move)
        said = RULES.play(s, move).description
        assert RULES.public_notation(s, notation) == notation  # nothing in the log is hidden
        if isinstance(move, Take):
            assert move.piece in said  # the channel is told which pyramid went to whose stash
        s = RULES.apply(s, move)
        # the stored state, which the pictures are drawn from, holds the whole row and both stashes
        stored = json.loads(json.dumps(RULES.to_json(s)))
        assert RULES.from_json(stored) == s
    assert s.stashes[first] and s.stashes[other]


def test_ruling_the_draft_ends_when_the_row_is_empty_each_holding_the_cap_of_each_size() -> None:
    # "The draft ends when the row is empty; each player then holds 10 (5) of each size."
    north = "R3 R3 R3 R3 R2 R2 R2 R2 R2 R1 R1 R1 R1"
    south = "K3 K3 K3 K3 K3 K2 K2 K2 K2 K2 K1 K1 K1 K1 K1"
    s = draft_state(["B3/G1"] + [""] * 9, north=north, south=south, turn=NORTH)
    s = RULES.apply(s, Take(0, "G1"))
    assert s.phase == DRAFT  # one pyramid is left in the row: still drafting
    assert RULES.to_move(s) == NORTH  # South holds 5 larges already and is skipped
    s = RULES.apply(s, Take(0, "B3"))
    assert not any(s.row) and s.phase == TRICKS
    for seat in (NORTH, SOUTH):
        assert Counter(int(p[1]) for p in s.stashes[seat]) == {1: 5, 2: 5, 3: 5}


def tricks_state() -> WhistState:
    """A short game's first trick, North to lead, each stash able to make more than one tree."""
    return WhistState(
        variant="short",
        row=((), (), ()),
        stashes=(canonical(["R3", "Y3", "G2", "B2", "G1", "B1"]), canonical(["K3", "Y3", "K2", "R2", "K1", "R1"])),
        first=NORTH,
        phase=TRICKS,
        turn=NORTH,
    )


def test_ruling_a_led_tree_is_one_large_one_medium_one_small() -> None:
    # "the leader presents a tree built from their stash (one large, one medium, one small, any
    # colours)": two larges and a small are in the stash, but they are not a tree.
    s = tricks_state()
    with pytest.raises(IllegalMove, match="one large, one medium and one small"):
        RULES.apply(s, Play(("R3", "Y3", "G1")))
    assert all(isinstance(m, Play) and sorted(int(p[1]) for p in m.tree) == [1, 2, 3] for m in RULES.legal_moves(s))


def test_ruling_a_followed_tree_is_one_large_one_medium_one_small() -> None:
    # the follower "presents a tree" too: a large, a medium and a small
    s = RULES.apply(tricks_state(), Play(("R3", "G2", "G1")))
    with pytest.raises(IllegalMove, match="one large, one medium and one small"):
        RULES.apply(s, Play(("K3", "Y3", "R1")))
    RULES.apply(s, Play(("Y3", "R2", "R1")))  # a tree of the stash holding red, as red was led
