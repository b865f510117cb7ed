"""What ``bench.hedgehog_cover`` reads from a Marsigelwettkampf position, and its ring bands.

A colour's medium must land directly on its large and its small directly on its medium; a piece of
another colour lying there is a cover (docs/rules/hedgehog.md, "Moving").
"""

from __future__ import annotations

import dataclasses
import random

from bench.hedgehog_cover import RULES, count, looks, ring_band
from games.hedgehog import HedgehogState, Piece, Space

COLOURS = {"R": 0, "Y": 1, "G": 2}


def position(*stacks: str) -> HedgehogState:
    """A three-player position; stacks bottom to top, e.g. ``R3/Y2``."""
    start = RULES.new_game(3, {}, random.Random(0))
    spaces = tuple(
        Space(label, tuple(Piece(COLOURS[code[0]], int(code[1])) for code in stack.split("/")))
        for label, stack in enumerate(stacks, start=1)
    )
    return dataclasses.replace(start, spaces=spaces)


def test_a_piece_on_top_is_open_and_the_piece_directly_above_names_the_cover():
    s = position("R3/Y2/G1", "R2/Y1", "Y3/G3/R1", "G2")
    assert looks(s, 0) == {"large": "medium", "medium": "small"}
    assert looks(s, 1) == {"large": "large", "medium": "small"}
    assert looks(s, 2) == {"large": "small", "medium": "open"}


def test_a_colour_s_own_piece_above_is_no_cover():
    s = position("R3/R2/R1", "Y3/Y1", "Y2", "G3", "G2", "G1")
    assert looks(s, 0) == {"large": "own", "medium": "own"}
    assert looks(s, 1) == {"large": "own", "medium": "open"}


def test_the_ring_bands_split_at_one_and_a_half_and_three_quarters_of_a_space_per_seat():
    assert [ring_band(n, 10) for n in (30, 16, 15, 8, 7, 1)] == [
        "more than 15 spaces",
        "more than 15 spaces",
        "8-15 spaces",
        "8-15 spaces",
        "7 spaces or fewer",
        "7 spaces or fewer",
    ]


def test_every_round_counted_ends_in_exactly_one_state():
    started, became = count(seats=5, games=4)
    assert sum(started.values()) > 0
    for (piece, band, look), rounds in started.items():
        assert rounds == sum(n for (p, b, was, _), n in became.items() if (p, b, was) == (piece, band, look))
