"""Wrapped text never leaves a closing fragment ("c).", "clockwise) or pass.") alone at a line's start."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.hedgehog import RULES as HEDGEHOG
from games.hedgehog import Roll
from games.playout import playout
from games.whist import RULES as WHIST
from renderers import layout_for
from renderers.pyramids import text_width, wrap_text


def _closes_an_aside(line: str) -> bool:
    """True when the line's first word closes a bracket opened on an earlier line."""
    first = line.split()[0] if line.split() else ""
    return ")" in first and "(" not in first


@pytest.mark.parametrize("width", range(200, 560, 7))
def test_wrap_text_keeps_a_bracketed_aside_together_when_it_fits(width):
    message = "Move with /hedgehog move (e.g. P2+3 = purple medium 3 clockwise) or pass."
    lines = wrap_text(message, 17, width, 3)
    assert not any(_closes_an_aside(line) for line in lines), lines
    assert all(text_width(line, 17) <= width for line in lines)
    if len(lines) <= 3 and "…" not in lines[-1]:
        assert " ".join(lines) == message  # nothing lost


def test_wrap_text_still_breaks_an_aside_wider_than_a_line():
    lines = wrap_text("a (b c d e f g h i j k l m n o p q r s t u v w x y z) end", 17, 80, 10)
    assert " ".join(lines) == "a (b c d e f g h i j k l m n o p q r s t u v w x y z) end"


def test_no_board_line_starts_with_a_closing_fragment():
    texts: list[str] = []
    for players in range(1, 11):
        state = HEDGEHOG.new_game(players, {"xeno": players > 5}, random.Random(players))
        for seat in range(players):
            rolled = HEDGEHOG.apply(dataclasses.replace(state, current=seat), Roll(3))
            texts += [t.text for t in layout_for("hedgehog", rolled).texts]
    for state in list(playout(WHIST, 2, {"variant": "short"}, seed=3))[:40]:
        texts += [t.text for t in layout_for("whist", state, names=["alice", "bob"]).texts]
    assert texts and not [line for line in texts if _closes_an_aside(line)]
