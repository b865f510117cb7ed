"""Martian Treasure Hunt: scenario tests for the rulings of docs/rules/treasure.md
that tests/games/test_treasure_rules.py leaves unchecked or only half checked.

Each test is written from the ruling's text (quoted above its assertions); positions are built with
the engine's state type and ``RULES.new_game``.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.base import IllegalMove
from games.playout import setup_rng
from games.treasure import RULES, Phase, Step, TreasureState, geometry
from tests.games.test_treasure_rules import PAWN, names, position, sq


def targets(s: TreasureState) -> list[str]:
    """Names of the squares the rolled coin may move to."""
    found = []
    for m in RULES.legal_moves(s):
        assert isinstance(m, Step), m
        found.append(m.dst)
    return names(found)


def test_ruling_seats_and_suits_south_suns_north_moons_west_crowns_east_arms() -> None:
    # "Seats and suits: South Suns, North Moons, West Crowns, East Arms." (Suns red, Moons black,
    # Crowns green, Arms blue.) Each seat's coins start on its own edge's home row.
    colour_of_edge = {"rank 1": "Red", "file a": "Green", "rank 10": "Black", "file j": "Blue"}
    for players in (2, 3, 4):
        state = RULES.new_game(players, {"arrange": False}, setup_rng(0))
        geo = geometry(players)
        for seat in range(players):
            row = geo.home[seat]
            files = {f for f, _ in row}
            ranks = {r for _, r in row}
            if ranks == {0}:
                edge = "rank 1"
            elif ranks == {9}:
                edge = "rank 10"
            elif files == {0}:
                edge = "file a"
            else:
                assert files == {9}, row
                edge = "file j"
            assert RULES.seat_name(state, seat).startswith(colour_of_edge[edge]), (players, seat)
            assert set(state.coins[seat]) == set(row)
    # two players sit at the short edges: South and North
    two = RULES.new_game(2, {"arrange": False}, setup_rng(0))
    assert [RULES.seat_name(two, seat) for seat in range(2)] == ["Red", "Black"]


def test_ruling_pawn_captures_one_square_diagonally_forward_for_every_seat() -> None:
    # "Pawn: 'forward' is away from its owner's home edge. It steps one square straight forward onto an
    # empty square, or captures one square diagonally forward."
    pawns = {0: "e3", 1: "c6", 2: "g8", 3: "h4"}  # South, West, North, East
    homes = {0: "c1", 1: "a3", 2: "c10", 3: "j3"}
    expected = {
        0: ("e4", "d4", "f4"),  # South: north, diagonals north-west and north-east
        1: ("d6", "d5", "d7"),  # West: east
        2: ("g7", "f7", "h7"),  # North: south
        3: ("g4", "g3", "g5"),  # East: west
    }
    pyramids = {name: 1 for _, *diagonals in expected.values() for name in diagonals}
    coins = {seat: {PAWN: pawns[seat], 1: homes[seat]} for seat in range(4)}
    for seat, (ahead, *diagonals) in expected.items():
        s = replace(position(4, coins, pyramids), turn=seat, phase=Phase.MOVE, dice=(PAWN, PAWN))
        assert targets(s) == sorted([ahead, *diagonals]), seat
        after = RULES.apply(s, RULES.parse_move(s, f"0:{pawns[seat]}x{diagonals[0]}"))
        assert after.coins[seat][PAWN] == sq(diagonals[0]) and after.treasure[seat] == (("Y", 1),)
    # beside the pawn or behind it is not forward: a pyramid there is not captured
    others = {0: ("d3", "f3"), 1: ("c5", "c7"), 2: ("f8", "h8"), 3: ("h3", "h5")}
    extra = {name: 1 for pair in others.values() for name in pair}
    for seat, pair in others.items():
        s = replace(position(4, coins, {**pyramids, **extra}), turn=seat, phase=Phase.MOVE, dice=(PAWN, PAWN))
        assert not set(pair) & set(targets(s)), seat
        with pytest.raises(IllegalMove):
            RULES.parse_move(s, f"0:{pawns[seat]}x{pair[0]}")
    middle = replace(position(4, {**coins, 0: {PAWN: "e5", 1: "c1"}}, {"d4": 1, "f4": 1}), dice=(PAWN, PAWN))
    middle = replace(middle, phase=Phase.MOVE)
    assert targets(middle) == ["e6"]  # the pyramids on d4 and f4 are diagonally behind
