"""Scenario tests for Martian Treasure Hunt: one per ruling of docs/rules/treasure.md.

Positions are built directly (``position``) or reached by applying chosen rolls and moves.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.base import BadNotation, BadOptions, BadState, IllegalMove, Rules, seat_state
from games.playout import setup_rng
from games.treasure import (
    DEFAULT_ORDER,
    RULES,
    Arrange,
    Forfeit,
    Move,
    Phase,
    Roll,
    Step,
    TreasureState,
    geometry,
    revealed_rows,
    score,
)

PAWN, ROOK, KNIGHT, BISHOP, QUEEN, KING = range(6)


def sq(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


def names(squares) -> list[str]:
    return sorted(f"{chr(97 + f)}{r + 1}" for f, r in squares)


def position(
    players: int = 2,
    coins: dict[int, dict[int, str]] | None = None,
    pyramids: dict[str, int] | None = None,
    turn: int = 0,
    dice: tuple[int, int] | None = None,
    stall_limit: int = 40,
) -> TreasureState:
    """A state with exactly the listed coins (others captured) and pyramids (yellow), ``turn`` to act.

    With ``dice`` the coin move is due; without, a roll is due.
    """
    coin_rows = []
    for seat in range(players):
        row: list[tuple[int, int] | None] = [None] * 6
        for value, name in (coins or {}).get(seat, {}).items():
            row[value] = sq(name)
        coin_rows.append(tuple(row))
    return TreasureState(
        players=players,
        stall_limit=stall_limit,
        phase=Phase.MOVE if dice else Phase.ROLL,
        turn=turn,
        first=0,
        arranged=(True,) * players,
        coins=tuple(coin_rows),
        pyramids=tuple(sorted((sq(n), "Y", p) for n, p in (pyramids or {}).items())),
        treasure=((),) * players,
        prisoners=((),) * players,
        dice=dice,
        quiet=0,
        out=(),
        ranks=None,
        reason="",
    )


def steps(s: TreasureState, rules: Rules[TreasureState, Move] = RULES) -> list[Step]:
    """The legal moves of ``s``, a state with a coin to move: every one of them a ``Step``."""
    found: list[Step] = []
    for m in rules.legal_moves(s):
        assert isinstance(m, Step), m
        found.append(m)
    return found


def targets(s: TreasureState) -> list[str]:
    return names(m.dst for m in steps(s))


def fresh(players: int, arrange: bool = False, seed: int = 1) -> TreasureState:
    return RULES.new_game(players, {"arrange": arrange}, setup_rng(seed))


# ---------------------------------------------------------------------------------------------- Board


def test_two_player_board_is_six_files_by_ten_ranks_with_back_rows_at_the_short_edges() -> None:
    geo = geometry(2)
    assert (geo.width, geo.height) == (6, 10)
    assert geo.squares == {(f, r) for f in range(6) for r in range(10)}
    assert RULES.seat_name(fresh(2), 0) == "Red" and RULES.seat_name(fresh(2), 1) == "Black"
    assert names(geo.back[0]) == names((f, r) for f in range(6) for r in (0, 1))
    assert names(geo.back[1]) == names((f, r) for f in range(6) for r in (8, 9))
    assert names(geo.home[0]) == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert names(geo.home[1]) == ["a10", "b10", "c10", "d10", "e10", "f10"]


def test_four_player_board_is_the_fat_plus_without_its_corner_blocks() -> None:
    geo = geometry(4)
    assert len(geo.squares) == 100 - 16
    for corner in ("a1", "b2", "i1", "j2", "a9", "b10", "i9", "j10"):
        assert sq(corner) not in geo.squares
    for inside in ("c1", "h2", "a3", "j8", "c10", "h9", "e5"):
        assert sq(inside) in geo.squares
    south, west, north, east = geo.back
    assert names(south) == names((f, r) for f in range(2, 8) for r in (0, 1))
    assert names(north) == names((f, r) for f in range(2, 8) for r in (8, 9))
    assert names(west) == names((f, r) for f in (0, 1) for r in range(2, 8))
    assert names(east) == names((f, r) for f in (8, 9) for r in range(2, 8))
    homes = [names(h) for h in geo.home]
    assert homes[0] == names(sq(f"{c}1") for c in "cdefgh")
    assert homes[1] == names(sq(f"a{r}") for r in range(3, 9))
    assert homes[2] == names(sq(f"{c}10") for c in "cdefgh")
    assert homes[3] == names(sq(f"j{r}") for r in range(3, 9))


def test_three_player_board_leaves_out_the_east_arm() -> None:
    geo = geometry(3)
    assert len(geo.squares) == 84 - 12
    assert not any(f >= 8 for f, _ in geo.squares)
    assert [RULES.seat_name(fresh(3), seat) for seat in range(3)] == ["Red", "Green", "Black"]
    # a rook on h5 sliding east finds no square beyond h
    s = position(3, coins={0: {1: "h5", 2: "c1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}}, dice=(1, ROOK))
    assert not any(m.dst[0] >= 8 for m in steps(s))
    with pytest.raises(IllegalMove, match="not on the board"):
        RULES.parse_move(s, "1:h5-i5")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_treasure_rings_fill_the_centre_six_by_six(players: int) -> None:
    s = fresh(players)
    x0 = 0 if players == 2 else 2
    by_square = {p: pips for p, _, pips in s.pyramids}
    assert set(by_square) == {(x0 + i, 2 + j) for i in range(6) for j in range(6)}
    large = {p for p, pips in by_square.items() if pips == 3}
    medium = {p for p, pips in by_square.items() if pips == 2}
    small = {p for p, pips in by_square.items() if pips == 1}
    assert large == {(x0 + i, 2 + j) for i in (2, 3) for j in (2, 3)}
    assert medium == {(x0 + i, 2 + j) for i in range(1, 5) for j in range(1, 5)} - large
    assert len(small) == 20 and all(i in (x0, x0 + 5) or j in (2, 7) for i, j in small)


def test_pyramid_colours_are_one_stash_per_quarter_and_only_decorate() -> None:
    s = fresh(4)
    quarters = {
        "Y": ("c", "d", "e", 3, 5),
        "C": ("f", "g", "h", 3, 5),
        "P": ("c", "d", "e", 6, 8),
        "W": ("f", "g", "h", 6, 8),
    }
    for colour, (*files, low, high) in quarters.items():
        mine = [(p, pips) for p, c, pips in s.pyramids if c == colour]
        assert sorted(pips for _, pips in mine) == [1, 1, 1, 1, 1, 2, 2, 2, 3]
        assert all(chr(97 + f) in files and low <= r + 1 <= high for (f, r), _ in mine)
    # size alone sets the value
    piles = replace(s, treasure=((("Y", 2),), (("W", 2),), (("P", 1), ("C", 1)), ()))
    assert [score(piles, seat) for seat in range(4)] == [2, 2, 2, 0]


# ------------------------------------------------------------------------------------ Setup and turn


def test_coins_start_on_the_home_row_null_to_five_left_to_right_from_each_seat() -> None:
    s = fresh(4)
    assert s.coins[0] == tuple(sq(n) for n in ("c1", "d1", "e1", "f1", "g1", "h1"))  # South faces north
    assert s.coins[1] == tuple(sq(n) for n in ("a8", "a7", "a6", "a5", "a4", "a3"))  # West faces east
    assert s.coins[2] == tuple(sq(n) for n in ("h10", "g10", "f10", "e10", "d10", "c10"))  # North faces south
    assert s.coins[3] == tuple(sq(n) for n in ("j3", "j4", "j5", "j6", "j7", "j8"))  # East faces west


def test_each_player_may_arrange_their_coins_before_the_first_turn() -> None:
    s = RULES.new_game(2, {}, setup_rng(3))
    assert s.phase == "arrange" and not RULES.pending_roll(s)
    first = s.turn
    assert RULES.legal_moves(s)[0] == Arrange(DEFAULT_ORDER, first)
    s = RULES.apply(s, RULES.parse_move(s, "arrange 5 4 3 2 1 0"))
    assert RULES.to_move(s) == 1 - first and s.phase == "arrange"
    s = RULES.apply(s, RULES.parse_move(s, "arrange default"))
    assert s.phase == "roll" and RULES.to_move(s) == first
    home = geometry(2).home
    assert s.coins[first] == tuple(reversed(home[first]))
    assert s.coins[1 - first] == home[1 - first]


def test_arranging_goes_clockwise_from_the_first_player() -> None:
    for seed in range(8):
        s = RULES.new_game(4, {}, setup_rng(seed))
        order = []
        while s.phase == "arrange":
            order.append(s.turn)
            s = RULES.apply(s, Arrange((1, 0, 2, 3, 4, 5), s.turn))
        assert order == [(order[0] + k) % 4 for k in range(4)]
        assert s.turn == order[0]
        assert all(s.coins[seat][1] == geometry(4).home[seat][0] for seat in range(4))


def test_ruling_arrangements_stay_hidden_until_every_player_has_arranged() -> None:
    # "Players arrange at the same time, so nobody sees another's row before choosing their own:
    # arrangements stay hidden until every player has arranged."
    home = geometry(3).home
    s = RULES.new_game(3, {}, setup_rng(2))
    standard = s.coins
    secret = {0: (5, 4, 3, 2, 1, 0), 1: (2, 0, 5, 1, 4, 3), 2: (0, 5, 1, 4, 2, 3)}
    seen_json = []
    for count in range(3):
        seat = s.turn
        move = Arrange(secret[seat], seat)
        said = RULES.play(s, move).description
        s = RULES.apply(s, move)
        if count < 2:
            assert s.phase == "arrange" and revealed_rows(s) == (False, False, False)
            assert s.coins == standard  # the board still shows the stand-in order only
            assert "face down" in said and "null" not in said and "5" not in said
            assert "null" not in RULES.status_line(s) and "face down" in RULES.status_line(s)
            assert RULES.seat_name(s, seat) in said
            seen_json.append(RULES.to_json(s)["coins"])
            assert RULES.from_json(RULES.to_json(s)) == s  # the secret survives a restart
    assert seen_json[0] == seen_json[1] == RULES.to_json(RULES.new_game(3, {}, setup_rng(2)))["coins"]
    assert s.phase == "roll" and revealed_rows(s) == (True, True, True)
    for seat, order in secret.items():
        assert tuple(home[seat][order.index(v)] for v in range(6)) == s.coins[seat]
    assert "revealed" in said and "Red 5 4 3 2 ace null" in said  # the last arrangement shows every row at once


def clockwise_from_first(s: TreasureState) -> list[int]:
    """The seats in turn order, from the first player."""
    return [(s.first + k) % s.players for k in range(s.players)]


def test_ruling_players_arrange_at_the_same_time_in_any_order() -> None:
    # "Players arrange at the same time, so nobody sees another's row before choosing their own."
    # Every seat still to arrange may do so at any moment, whoever is to move.
    home = geometry(4).home
    secret = {0: (5, 4, 3, 2, 1, 0), 1: (2, 0, 5, 1, 4, 3), 2: (0, 5, 1, 4, 2, 3), 3: (3, 2, 1, 0, 5, 4)}
    for seed in range(4):
        s = RULES.new_game(4, {}, setup_rng(seed))
        order = clockwise_from_first(s)
        for seat in reversed(order):  # the last in turn order first, the seat to move last
            assert RULES.to_move(s) == order[0]
            acting = seat_state(RULES, s, seat)  # where that seat reads its moves (``s`` on its turn)
            assert acting is not None and RULES.to_move(acting) == seat
            assert Arrange(secret[seat], seat) in RULES.legal_moves(acting)
            move = RULES.parse_move(acting, "arrange " + "".join(map(str, secret[seat])))
            assert move == Arrange(secret[seat], seat)
            s = RULES.apply(s, move)
            assert s.arranged[seat]
        assert s.phase == "roll" and RULES.to_move(s) == s.first == order[0]
        for seat, chosen in secret.items():
            assert tuple(home[seat][chosen.index(v)] for v in range(6)) == s.coins[seat]


def test_ruling_the_turn_stays_with_the_first_seat_still_to_arrange() -> None:
    s = RULES.new_game(4, {}, setup_rng(5))
    a, b, c, d = clockwise_from_first(s)
    s = RULES.apply(s, Arrange(DEFAULT_ORDER, c))  # out of turn: the seat to move keeps the turn
    assert RULES.to_move(s) == a and s.phase == "arrange"
    s = RULES.apply(s, Arrange(DEFAULT_ORDER, b))
    assert RULES.to_move(s) == a
    s = RULES.apply(s, Arrange(DEFAULT_ORDER, a))  # the seat to move arranges: b and c are done, so d
    assert RULES.to_move(s) == d and s.phase == "arrange"
    assert RULES.timeout_move(s) == Arrange(DEFAULT_ORDER, d)  # the clock presses d alone
    s = RULES.apply(s, Arrange(DEFAULT_ORDER, d))
    assert s.phase == "roll" and RULES.to_move(s) == a == s.first


def test_ruling_a_seat_that_arranged_cannot_arrange_again() -> None:
    s = RULES.new_game(3, {}, setup_rng(1))
    first, second, third = clockwise_from_first(s)
    s = RULES.apply(s, Arrange((5, 4, 3, 2, 1, 0), third))
    assert seat_state(RULES, s, third) is None
    with pytest.raises(IllegalMove, match="already set out"):
        RULES.apply(s, Arrange(DEFAULT_ORDER, third))
    with pytest.raises(IllegalMove, match="already set out"):
        RULES.parse_move(s, f"arrange 012345 {RULES.seat_name(s, third).lower()}")
    s = RULES.apply(s, Arrange(DEFAULT_ORDER, first))
    assert RULES.to_move(s) == second  # the seat to move never holds an arrangement already made
    with pytest.raises(IllegalMove, match="already set out"):
        RULES.apply(s, Arrange(DEFAULT_ORDER, first))
    assert seat_state(RULES, s, first) is None and seat_state(RULES, s, second) is s  # it is second's turn
    s = RULES.apply(s, Arrange(DEFAULT_ORDER, second))
    assert [seat_state(RULES, s, seat) is None for seat in (second, third)] == [True, True]  # nobody out of turn
    with pytest.raises(IllegalMove, match="already set out"):
        RULES.apply(s, Arrange(DEFAULT_ORDER, second))


def test_ruling_rows_made_out_of_turn_stay_hidden_until_the_last_arrangement() -> None:
    # "arrangements stay hidden until every player has arranged": the board, the sentence, the log's
    # public notation and the status name who has arranged, never how.
    s = RULES.new_game(3, {}, setup_rng(2))
    standard = s.coins
    first, second, third = clockwise_from_first(s)
    secret = {third: (5, 4, 3, 2, 1, 0), second: (2, 0, 5, 1, 4, 3), first: (0, 5, 1, 4, 2, 3)}
    for count, seat in enumerate((third, second, first)):
        move = Arrange(secret[seat], seat)
        notation = RULES.format_move(s, move)
        played = RULES.play(s, move)
        assert RULES.parse_move(s, notation) == move  # the log names an out-of-turn seat, so it replays
        s = played.state
        if count < 2:
            assert seat != first and RULES.seat_name(s, seat).lower() in notation
            assert revealed_rows(s) == (False, False, False) and s.coins == standard
            assert RULES.public_notation(s, notation) == "arrange (face down)"
            said = played.description
            assert RULES.seat_name(s, seat) in said and "face down" in said
            assert not {"null", "ace", "5", "4"} & set(said.replace(";", " ").replace(".", " ").split()), said
            assert "null" not in RULES.status_line(s) and f"{count + 1} of 3 done" in RULES.status_line(s)
            assert RULES.from_json(RULES.to_json(s)) == s
        else:
            assert notation == "arrange 051423"  # the seat to move's arrangement is written as it always was
    assert s.phase == "roll" and revealed_rows(s) == (True, True, True) and RULES.to_move(s) == first
    assert "revealed" in played.description and "Red" in played.description
    home = geometry(3).home
    for seat, order in secret.items():
        assert tuple(home[seat][order.index(v)] for v in range(6)) == s.coins[seat]


def test_an_out_of_turn_arrangement_is_read_only_for_a_seat_still_to_arrange() -> None:
    s = RULES.new_game(2, {}, setup_rng(3))
    other = 1 - s.turn
    assert seat_state(RULES, s, s.turn) is s  # the seat to move acts in the state itself
    assert seat_state(RULES, s, 5) is None
    acting = seat_state(RULES, s, other)
    assert acting is not None and RULES.legal_moves(acting)[0] == Arrange(DEFAULT_ORDER, other)
    assert RULES.parse_move(acting, "arrange default") == Arrange(DEFAULT_ORDER, other)
    assert RULES.parse_move(s, "arrange default") == Arrange(DEFAULT_ORDER, s.turn)  # no seat named: the turn's
    three = RULES.new_game(3, {}, setup_rng(3))
    leaver = (three.turn + 2) % 3
    assert seat_state(RULES, three, leaver) is not None
    assert seat_state(RULES, RULES.resign(three, leaver), leaver) is None  # a seat that left
    playing = fresh(2)  # the arrange setting off: nothing to arrange
    assert seat_state(RULES, playing, 1 - playing.turn) is None


# A game recorded before arranging was simultaneous (every seat in turn, from Green, the first player):
# its log replays to the same game.
OLD_LOG = (
    *("arrange 514230", "arrange 241503", "arrange 502431"),
    *("roll 5 pawn", "5:a8-b8", "roll 5 bishop", "5:e10xc8", "roll 2 king", "2:e1-e2", "roll 3 bishop", "3:a4xc6"),
    *("roll 5 bishop", "5:c8xd7", "roll 0 knight", "0:d1-f2", "roll 3 rook", "3:c6xc7", "roll 4 rook", "4:g10-g9"),
    *("roll 0 knight", "0:f2xd3", "roll 1 bishop", "1:a7xc5", "roll 2 pawn", "2:h10-h9", "roll 5 king", "5:c1-d2"),
    *("roll 5 pawn", "5:b8-c8"),
)


def test_a_log_of_arrangements_made_in_turn_replays_as_before() -> None:
    s = RULES.new_game(3, {"stall_limit": 1}, setup_rng(7))
    assert s.first == 1
    for ply, notation in enumerate(OLD_LOG):
        if ply < 3:
            assert RULES.to_move(s) == (1 + ply) % 3  # Green, Black, Red: each arrangement is the turn's
        move = RULES.parse_move(s, notation)
        assert RULES.format_move(s, move) == notation
        s = RULES.apply(s, move)
        if ply == 2:
            assert s.phase == "roll" and RULES.to_move(s) == 1
            home = geometry(3).home
            for seat, order in ((1, "514230"), (2, "241503"), (0, "502431")):
                assert [home[seat].index(s.coins[seat][v]) for v in range(6)] == [order.index(str(v)) for v in range(6)]
    outcome = RULES.outcome(s)
    assert outcome is not None and outcome.ranks == (3, 1, 1) and outcome.scores == (1.0, 3.0, 3.0)
    assert outcome.details == ("1 point", "3 points", "3 points")
    assert s.coins == (  # by coin value, as the game recorded them ended
        tuple(sq(n) for n in ("d3", "h1", "e2", "g1", "f1", "d2")),
        tuple(sq(n) for n in ("a3", "c5", "a5", "c7", "a6", "c8")),
        tuple(sq(n) for n in ("d10", "f10", "h9", "c10", "g9", "d7")),
    )


def test_ruling_arrangements_are_revealed_when_the_last_one_still_to_arrange_leaves() -> None:
    s = RULES.new_game(3, {}, setup_rng(2))
    first = s.turn
    s = RULES.apply(s, Arrange((5, 4, 3, 2, 1, 0), s.turn))
    s = RULES.apply(s, Arrange((5, 4, 3, 2, 1, 0), s.turn))
    s = RULES.resign(s, s.turn)
    assert s.phase == "roll" and RULES.to_move(s) == first and revealed_rows(s) == (True, True, True)
    assert s.coins[first] == tuple(reversed(geometry(3).home[first]))


def test_arrange_setting_off_starts_in_the_standard_order() -> None:
    s = RULES.new_game(3, {"arrange": False}, setup_rng(0))
    assert s.phase == "roll" and RULES.pending_roll(s)
    assert all(s.coins[seat] == geometry(3).home[seat] for seat in range(3))
    with pytest.raises(IllegalMove, match="already set out"):
        RULES.parse_move(s, "arrange 012345")


def test_arrangement_must_name_each_coin_once() -> None:
    s = RULES.new_game(2, {}, setup_rng(0))
    for text in ("arrange 011345", "arrange 01234", "arrange 0123456", "arrange 9", "arrange -", "arrange ,/"):
        with pytest.raises(BadNotation):
            RULES.parse_move(s, text)
    with pytest.raises(IllegalMove):
        RULES.apply(s, Arrange((0, 0, 1, 2, 3, 4), s.turn))


def test_first_player_is_random_then_clockwise_south_west_north_east() -> None:
    firsts = {RULES.new_game(4, {"arrange": False}, random.Random(seed)).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    s = position(
        4,
        coins={0: {0: "e5", 1: "f5"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}, 3: {0: "j3", 1: "j4"}},
        pyramids={"h8": 1},
    )
    seen = []
    for _ in range(5):
        seen.append(RULES.seat_name(s, s.turn))
        s = RULES.apply(s, Roll(5, KNIGHT))  # every 5 is gone, so every turn is lost
    assert seen == ["Red", "Green", "Black", "Blue", "Red"]


def test_number_die_picks_the_coin() -> None:
    s = position(2, coins={0: {3: "c5", 0: "a1"}, 1: {0: "f10", 1: "e10"}}, dice=(3, KING))
    assert {(m.value, m.src) for m in steps(s)} == {(3, sq("c5"))}
    s = replace(s, dice=(0, KING))
    assert {(m.value, m.src) for m in steps(s)} == {(0, sq("a1"))}


def test_type_die_null_pawn_ace_rook_two_knight_three_bishop_four_queen_five_king() -> None:
    s = position(2, coins={0: {3: "c5", 0: "a1"}, 1: {0: "f10", 1: "e10"}}, dice=(3, PAWN))
    rook = ["a5", "b5", "c3", "c4", "c6", "c7", "c8", "d5", "e5", "f5"]
    bishop = ["a3", "a7", "b4", "b6", "d4", "d6", "e3", "e7", "f8"]
    expected = {
        PAWN: ["c6"],
        ROOK: rook,
        KNIGHT: ["a4", "a6", "b3", "b7", "d3", "d7", "e4", "e6"],
        BISHOP: bishop,
        QUEEN: rook + bishop,
        KING: ["b4", "b5", "b6", "c4", "c6", "d4", "d5", "d6"],
    }
    for kind, squares in expected.items():
        assert targets(replace(s, dice=(3, kind))) == sorted(squares), kind


def test_turn_is_lost_when_the_picked_coin_was_captured() -> None:
    s = position(2, coins={0: {0: "c3", 1: "d3"}, 1: {0: "c8", 1: "d8"}}, pyramids={"f5": 1})
    after = RULES.apply(s, Roll(4, QUEEN))
    assert after.phase == "roll" and after.turn == 1 and after.last_lost and after.dice == (4, QUEEN)
    assert "captured" in RULES.play(s, Roll(4, QUEEN)).description


def test_turn_is_lost_when_the_picked_coin_has_no_move_of_that_type() -> None:
    # the null on a1 is boxed in by its own coins: no rook move, but a knight move exists
    s = position(2, coins={0: {0: "a1", 1: "a2", 2: "b1"}, 1: {0: "c8", 1: "d8"}}, pyramids={"f5": 1})
    lost = RULES.apply(s, Roll(0, ROOK))
    assert lost.phase == "roll" and lost.turn == 1 and lost.coins == s.coins
    assert "no rook move" in RULES.play(s, Roll(0, ROOK)).description
    kept = RULES.apply(s, Roll(0, KNIGHT))
    assert kept.phase == "move" and kept.turn == 0


def test_otherwise_the_player_must_move_that_coin_that_way() -> None:
    s = position(2, coins={0: {0: "c3", 1: "d3"}, 1: {0: "c8", 1: "d8"}}, turn=0)
    s = RULES.apply(s, Roll(1, KING))
    assert RULES.to_move(s) == 0 and not RULES.pending_roll(s)
    assert {(m.value, m.src) for m in steps(s)} == {(1, sq("d3"))}
    with pytest.raises(IllegalMove, match="picked the ace"):
        RULES.parse_move(s, "0:c3-c4")
    with pytest.raises(IllegalMove, match="king"):
        RULES.parse_move(s, "1:d3-d6")
    with pytest.raises(IllegalMove):
        RULES.apply(s, Step(0, sq("c3"), sq("c4")))
    with pytest.raises(IllegalMove):
        RULES.parse_move(s, "roll 3 queen")


# ------------------------------------------------------------------------------------------ Movement


def test_sliders_stop_at_the_first_occupied_square_capturing_but_never_passing() -> None:
    s = position(2, coins={0: {4: "c3", 1: "a5", 0: "a1"}, 1: {0: "e5", 1: "f10"}}, pyramids={"c5": 1}, dice=(4, QUEEN))
    # up: c4, the pyramid on c5 (not c6); up-right: d4, Black's coin on e5 (not f6); up-left stops before a5
    assert targets(s) == sorted(["c4", "c5", "d4", "e5", "d3", "e3", "f3", "b3", "a3", "b4"])
    with pytest.raises(IllegalMove, match="blocked at c5"):
        RULES.parse_move(s, "4:c3-c6")


def test_own_coins_block() -> None:
    s = position(2, coins={0: {3: "c3", 1: "e5", 2: "a1"}, 1: {0: "f8", 1: "e8"}}, dice=(3, BISHOP))
    got = targets(s)
    assert "d4" in got and "e5" not in got and "f6" not in got
    with pytest.raises(IllegalMove, match="your own ace"):
        RULES.parse_move(s, "3:c3-e5")
    with pytest.raises(IllegalMove, match="blocked at e5"):
        RULES.parse_move(s, "3:c3-f6")


def test_knight_leaps_over_whatever_lies_between() -> None:
    s = position(
        2,
        coins={0: {2: "c3", 0: "b3", 1: "b4", 3: "c4", 4: "d4", 5: "d3"}, 1: {0: "b5", 1: "f10"}},
        pyramids={"d5": 2},
        dice=(2, KNIGHT),
    )
    assert targets(s) == ["a4", "b5", "d5", "e4"]  # over a ring of its own coins; b5 and d5 are captures


def test_pawn_moves_away_from_its_home_edge_for_every_seat() -> None:
    s = position(4, coins={0: {0: "e4", 1: "c1"}, 1: {0: "c5", 1: "a3"}, 2: {0: "f6", 1: "c10"}, 3: {0: "g4", 1: "j3"}})
    forward = {0: "e5", 1: "d5", 2: "f5", 3: "f4"}
    for seat, square in forward.items():
        after = replace(s, turn=seat, phase=Phase.MOVE, dice=(0, PAWN))
        assert targets(after) == [square]


def test_pawn_steps_only_onto_an_empty_square_and_captures_diagonally_forward() -> None:
    s = position(2, coins={0: {0: "c4", 1: "a1"}, 1: {0: "b5", 1: "f8"}}, pyramids={"c5": 1, "d5": 2}, dice=(0, PAWN))
    assert targets(s) == ["b5", "d5"]  # no straight step onto the pyramid; both diagonals capture
    with pytest.raises(IllegalMove, match="empty square"):
        RULES.parse_move(s, "0:c4-c5")
    empty = position(2, coins={0: {0: "c4", 1: "a1"}, 1: {0: "a9", 1: "f8"}}, dice=(0, PAWN))
    assert targets(empty) == ["c5"]
    with pytest.raises(IllegalMove, match="diagonally only to capture"):
        RULES.parse_move(empty, "0:c4-d5")


def test_pawn_never_double_steps_and_is_never_promoted() -> None:
    s = position(2, coins={0: {0: "c2", 1: "a1"}, 1: {0: "a10", 1: "f10"}}, dice=(0, PAWN))
    assert targets(s) == ["c3"]
    with pytest.raises(IllegalMove):
        RULES.parse_move(s, "0:c2-c4")
    # at the edge of North's back rows a South pawn is stuck: the roll is a lost turn
    stuck = position(2, coins={0: {0: "c8", 1: "a1"}, 1: {0: "a10", 1: "f10"}}, pyramids={"f5": 1})
    after = RULES.apply(stuck, Roll(0, PAWN))
    assert after.last_lost and after.coins[0][0] == sq("c8")


def test_a_coin_that_left_its_back_two_rows_never_reenters_them() -> None:
    s = position(2, coins={0: {1: "c3", 2: "e3", 0: "a1"}, 1: {0: "f10", 1: "f9"}}, dice=(1, ROOK))
    assert not any(r < 2 for _, r in (m.dst for m in steps(s)))
    with pytest.raises(IllegalMove, match="can never return"):
        RULES.parse_move(s, "1:c3-c1")
    knight = replace(s, dice=(2, KNIGHT))  # the 2 on e3: d1, f1 and c2 are in Red's back rows
    assert targets(knight) == ["c4", "d5", "f5"]


def test_a_coin_inside_its_back_two_rows_may_move_within_them() -> None:
    s = position(2, coins={0: {1: "a1", 2: "e1"}, 1: {0: "f10", 1: "f9"}}, dice=(1, ROOK))
    assert {"b1", "c1", "d1", "a2"} <= set(targets(s))
    after = RULES.apply(s, RULES.parse_move(s, "1:a1-c1"))
    assert after.coins[0][1] == sq("c1")


def test_no_coin_enters_passes_or_lands_in_another_players_back_two_rows() -> None:
    s = position(
        4,
        coins={0: {1: "c3", 3: "d3", 0: "h1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}, 3: {0: "j3", 1: "j4"}},
        dice=(1, ROOK),
    )
    # up the c file to c8 (North's rows start at c9); West's arm closes b3; d3 is Red's own coin
    assert targets(s) == ["c4", "c5", "c6", "c7", "c8"]
    with pytest.raises(IllegalMove, match="Black's back two rows"):
        RULES.parse_move(s, "1:c3-c9")
    with pytest.raises(IllegalMove, match="Green's back two rows"):
        RULES.parse_move(s, "1:c3-b3")
    # the queen on d3 reaches no square outside the centre: every arm is someone's back rows
    queen = replace(s, dice=(3, QUEEN))
    assert not any(f < 2 or f > 7 or r > 7 for f, r in (m.dst for m in steps(queen)))


def test_knight_may_land_only_on_open_squares_of_the_board() -> None:
    s = position(
        4,
        coins={0: {2: "c3", 0: "h1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}, 3: {0: "j3", 1: "j4"}},
        dice=(2, KNIGHT),
    )
    # a4 and b5 are West's, e2 and d1 Red's own (left), b1 and a2 are missing corner squares
    assert targets(s) == ["d5", "e4"]


# ------------------------------------------------------------------------------ Capture and scoring


def test_landing_on_a_pyramid_puts_it_in_the_score_pile() -> None:
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {0: "f10", 1: "f9"}}, pyramids={"c6": 3, "a8": 1}, dice=(4, QUEEN))
    after = RULES.apply(s, RULES.parse_move(s, "4:c3xc6"))
    assert after.treasure[0] == (("Y", 3),) and score(after, 0) == 3
    assert all(p[0] != sq("c6") for p in after.pyramids)
    assert "large" in RULES.play(s, Step(4, sq("c3"), sq("c6"))).description


def test_landing_on_an_opposing_coin_captures_it() -> None:
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {0: "c7", 1: "f9"}}, pyramids={"a8": 1}, dice=(4, QUEEN))
    after = RULES.apply(s, RULES.parse_move(s, "c3-c7"))
    assert after.coins[1][0] is None and after.coins[0][4] == sq("c7")
    assert after.prisoners[0] == ((1, 0),) and score(after, 0) == 2


def test_last_coin_is_immune_and_blocks_like_a_friendly_piece() -> None:
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {3: "c6"}}, pyramids={"c7": 2, "a8": 1}, dice=(4, QUEEN))
    got = targets(s)
    assert "c5" in got and "c6" not in got and "c7" not in got
    with pytest.raises(IllegalMove, match="immune"):
        RULES.parse_move(s, "4:c3xc6")


def test_a_player_loses_at_most_five_coins() -> None:
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {3: "c6", 5: "a6"}}, pyramids={"a8": 1}, dice=(4, QUEEN))
    s = RULES.apply(s, RULES.parse_move(s, "c3xc6"))  # the fifth coin lost: Black keeps the 5
    assert sum(1 for x in s.coins[1] if x is not None) == 1
    s = replace(s, turn=0, phase=Phase.MOVE, dice=(4, ROOK))
    assert "a6" not in targets(s) and "b6" in targets(s)


def test_scores_small_1_medium_2_large_3_coin_2() -> None:
    s = position(2)
    s = replace(s, treasure=((("Y", 1), ("P", 2), ("C", 3)), (("W", 1),)), prisoners=(((1, 0), (1, 4)), ()))
    assert score(s, 0) == 1 + 2 + 3 + 2 + 2 and score(s, 1) == 1


def test_game_ends_when_the_last_pyramid_is_captured_and_highest_score_wins() -> None:
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {0: "f9", 1: "e9"}}, pyramids={"c6": 1}, dice=(4, QUEEN))
    s = replace(s, treasure=((("Y", 3),), (("Y", 3),)))
    after = RULES.apply(s, RULES.parse_move(s, "c3xc6"))
    out = RULES.outcome(after)
    assert out is not None and out.ranks == (1, 2) and out.scores == (4.0, 3.0)
    assert "last pyramid" in out.reason and RULES.to_move(after) is None and not RULES.legal_moves(after)
    with pytest.raises(IllegalMove):
        RULES.apply(after, Roll(1, 1))


def test_equal_scores_share_the_win() -> None:
    s = position(
        3,
        coins={0: {4: "e3", 0: "c1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e6": 1},
        dice=(4, QUEEN),
    )
    s = replace(s, treasure=((), (("Y", 3),), (("Y", 1),)), prisoners=(((2, 5),), (), ()))
    after = RULES.apply(s, RULES.parse_move(s, "e3xe6"))
    out = RULES.outcome(after)
    assert out is not None and out.scores == (3.0, 3.0, 1.0)
    assert out.ranks == (1, 1, 3) and out.winners == (0, 1)


def test_stall_limit_ends_the_game_after_rounds_without_capture() -> None:
    s = position(2, coins={0: {0: "a1", 1: "b1"}, 1: {0: "a10", 1: "b10"}}, pyramids={"c5": 1}, stall_limit=3)
    s = replace(s, treasure=((("Y", 2),), ()))
    for turn in range(5):
        s = RULES.apply(s, Roll(5, KING))  # the 5s are gone: every turn is lost, no capture
        assert RULES.outcome(s) is None, turn
    s = RULES.apply(s, Roll(5, KING))  # the sixth turn completes three rounds
    out = RULES.outcome(s)
    assert out is not None and out.ranks == (1, 2) and "3 rounds" in out.reason


def test_stall_limit_defaults_to_forty_rounds_and_a_capture_resets_the_count() -> None:
    s = RULES.new_game(2, {}, setup_rng(0))
    assert s.stall_limit == 40
    with pytest.raises(BadOptions):
        RULES.new_game(2, {"stall_limit": 0}, setup_rng(0))
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {0: "f9", 1: "e9"}}, pyramids={"c6": 1, "a8": 1}, dice=(4, QUEEN))
    s = replace(s, quiet=70)
    assert RULES.apply(s, RULES.parse_move(s, "c3xc6")).quiet == 0
    assert RULES.apply(s, RULES.parse_move(s, "c3-c4")).quiet == 71


def test_stall_rounds_count_only_players_still_in() -> None:
    s = position(
        3,
        coins={0: {0: "c1", 1: "d1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e5": 1},
        stall_limit=2,
    )
    s = RULES.resign(s, 2)
    for _ in range(3):
        s = RULES.apply(s, Roll(5, KING))
        assert RULES.outcome(s) is None
    s = RULES.apply(s, Roll(5, KING))
    assert RULES.outcome(s) is not None and "2 rounds" in s.reason


def test_ruling_stall_limit_counts_quiet_rounds_and_a_resignation_never_shortens_the_window() -> None:
    # "stall limit (default 40 rounds without any capture)": rounds are counted as they are played,
    # so a player leaving neither adds nor removes rounds already run.
    s = position(
        3,
        coins={0: {0: "c1", 1: "d1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e5": 1},
        stall_limit=3,
    )
    for _ in range(7):  # two whole quiet rounds, then Red's turn of the third
        s = RULES.apply(s, Roll(5, KING))
    assert (s.quiet, s.quiet_rounds, s.turn) == (7, 2, 1)
    s = RULES.resign(s, 2)  # 7 quiet turns over 2 players would already be "3 rounds": not so
    assert RULES.outcome(s) is None and s.quiet_rounds == 2
    s = RULES.apply(s, Roll(5, KING))  # Green completes the third round of the two left
    assert RULES.outcome(s) is not None and "3 rounds" in s.reason


def test_ruling_stall_round_closes_when_the_only_player_still_to_play_in_it_leaves() -> None:
    s = position(
        3,
        coins={0: {0: "c1", 1: "d1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e5": 1},
        stall_limit=5,
    )
    for _ in range(2):
        s = RULES.apply(s, Roll(5, KING))
    assert (s.quiet_rounds, s.turn) == (0, 2)
    s = RULES.resign(s, 2)  # everyone still in has had a turn in this round
    assert s.quiet_rounds == 1 and RULES.to_move(s) == 0


def test_a_game_stored_before_quiet_rounds_were_counted_still_loads() -> None:
    s = position(
        3,
        coins={0: {0: "c1", 1: "d1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e5": 1},
        stall_limit=3,
    )
    for _ in range(7):
        s = RULES.apply(s, Roll(5, KING))
    old = RULES.to_json(s)
    for key in ("quiet_rounds", "quiet_seen", "pending"):
        del old[key]
    loaded = RULES.from_json(old)
    assert loaded == s


# ------------------------------------------------------------------------------ Leaving and clocks


def test_resigning_in_a_two_player_game_hands_the_other_the_win() -> None:
    s = position(2, coins={0: {0: "a1", 1: "b1"}, 1: {0: "a10", 1: "b10"}}, pyramids={"c5": 1})
    s = replace(s, treasure=((("Y", 3),), ()))
    after = RULES.resign(s, 0)
    out = RULES.outcome(after)
    assert out is not None and out.ranks == (2, 1)


def test_with_more_players_the_game_goes_on_without_the_one_who_left() -> None:
    s = fresh(4)
    s = replace(s, turn=1)
    after = RULES.resign(s, 1)
    assert RULES.outcome(after) is None and after.turn == 2 and after.phase == "roll"
    assert after.coins[1] == (None,) * 6
    # its back rows stay closed: a West-bound rook stops at c5
    probe = position(4, coins={0: {1: "e5", 0: "c1"}, 2: {0: "c10", 1: "d10"}, 3: {0: "j3", 1: "j4"}}, dice=(1, ROOK))
    probe = replace(probe, out=(1,))
    assert "b5" not in targets(probe) and "c5" in targets(probe)
    after = RULES.resign(after, 3)
    after = RULES.resign(after, 0)
    out = RULES.outcome(after)
    assert out is not None and out.ranks == (2, 4, 1, 3)


def test_players_who_left_rank_below_everyone_still_playing() -> None:
    s = position(
        3,
        coins={0: {4: "e3", 0: "c1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e6": 1},
        dice=(4, QUEEN),
    )
    s = replace(s, treasure=((), (("Y", 3), ("Y", 3)), ()))
    s = RULES.resign(s, 1)
    out = RULES.outcome(RULES.apply(s, RULES.parse_move(s, "e3xe6")))
    assert out is not None and out.ranks == (1, 3, 2)


def test_timeout_after_the_roll_loses_the_turn_and_while_arranging_keeps_the_standard_order() -> None:
    s = position(2, coins={0: {4: "c3", 0: "a1"}, 1: {0: "f9", 1: "e9"}}, pyramids={"c6": 1}, dice=(4, QUEEN))
    move = RULES.timeout_move(s)
    assert move == Forfeit() and move not in RULES.legal_moves(s)
    after = RULES.apply(s, move)
    assert after.turn == 1 and after.phase == "roll" and after.coins == s.coins and after.quiet == 1
    assert RULES.parse_move(s, RULES.format_move(s, move)) == move
    arranging = RULES.new_game(2, {}, setup_rng(0))
    assert RULES.timeout_move(arranging) == Arrange(DEFAULT_ORDER, arranging.turn)
    assert RULES.timeout_move(after) is None  # before the roll the bot rolls for the player
    with pytest.raises(IllegalMove):
        RULES.apply(after, Forfeit())


# ------------------------------------------------------------------------------------------ Notation


def test_notation_round_trips_and_is_forgiving() -> None:
    s = position(2, coins={0: {3: "c2", 0: "a1"}, 1: {0: "e4", 1: "f9"}}, pyramids={"d3": 2}, dice=(3, BISHOP))
    capture = Step(3, sq("c2"), sq("d3"))
    assert RULES.format_move(s, capture) == "3:c2xd3"
    for text in ("3:c2xd3", "3:c2-d3", " 3 : C2 - D3 ", "c2d3", "d3", "3 c2 to d3"):
        assert RULES.parse_move(s, text) == capture, text
    roll = position(2, coins={0: {3: "c2", 0: "a1"}, 1: {0: "e4", 1: "f9"}})
    for text in ("roll 3 bishop", "ROLL 3 3", "roll 3, bishop", "roll 3/bishop"):
        assert RULES.parse_move(roll, text) == Roll(3, BISHOP)
    assert RULES.parse_move(roll, "roll null ace") == Roll(0, ROOK)
    assert RULES.format_move(roll, Roll(0, ROOK)) == "roll 0 rook"
    for garbage in ("3:c2-d3-e4", "queen", "zz9"):
        with pytest.raises(BadNotation):
            RULES.parse_move(s, garbage)
    with pytest.raises(BadNotation) as typed:  # typed markup is echoed inside code, never drawn
        RULES.parse_move(s, "**bold** ||spoiler||")
    assert str(typed.value) == "`**bold** ||spoiler||` is not a move; write the coin and squares like 3:c2-c5."
    with pytest.raises(IllegalMove, match="not on the board"):
        RULES.parse_move(s, "3:c2-g5")
    with pytest.raises(IllegalMove, match="is on c2"):
        RULES.parse_move(s, "3:b2-d3")
    with pytest.raises(IllegalMove, match="Roll the dice first"):
        RULES.parse_move(roll, "3:c2-d3")


def test_every_move_reply_names_both_dice_the_move_the_capture_and_the_scores() -> None:
    s = position(2, coins={0: {3: "c2", 0: "a1"}, 1: {0: "e4", 1: "f9"}}, pyramids={"d3": 2}, dice=(3, BISHOP))
    text = RULES.play(s, Step(3, sq("c2"), sq("d3"))).description
    assert "3" in text and "bishop" in text and "c2-d3" in text and "medium" in text
    assert "Red 2" in text and "Black 0" in text
    assert "Red rolls 3 and bishop" in RULES.play(replace(s, phase=Phase.ROLL), Roll(3, BISHOP)).description


def test_json_round_trip_and_damage_is_refused() -> None:
    s = position(
        3,
        coins={0: {4: "e3", 0: "c1"}, 1: {0: "a3", 1: "a4"}, 2: {0: "c10", 1: "d10"}},
        pyramids={"e6": 1},
        dice=(4, QUEEN),
    )
    s = RULES.apply(s, RULES.parse_move(s, "e3xe6"))
    data = json.loads(json.dumps(RULES.to_json(s)))
    assert RULES.from_json(data) == s
    for key, bad in (
        ("players", 5),
        ("coins", [["z9"] * 6] * 3),
        ("phase", "dance"),
        ("turn", -1),
        ("pyramids", [["e5", "Y", 4]]),
        ("dice", [7, 1]),
    ):
        broken = dict(data, **{key: bad})
        with pytest.raises(BadState):
            RULES.from_json(broken)
    two_on_one = dict(data, coins=[["c1", "c1", None, None, None, None], *data["coins"][1:]])
    with pytest.raises(BadState, match="two pieces"):
        RULES.from_json(two_on_one)


def test_player_count_outside_two_to_four_is_refused() -> None:
    for players in (1, 5):
        with pytest.raises(BadOptions):
            RULES.new_game(players, {}, setup_rng(0))
    with pytest.raises(BadOptions):
        RULES.new_game(2, {"colour": "red"}, setup_rng(0))


def test_random_resignations_never_break_a_game() -> None:
    for seed in range(30):
        players = 2 + seed % 3
        rng = random.Random(seed)
        s = RULES.new_game(players, {}, setup_rng(seed))
        plies = 0
        while RULES.outcome(s) is None:
            if rng.random() < 0.01:
                s = RULES.resign(s, rng.choice([x for x in range(players) if x not in s.out]))
                continue
            if RULES.pending_roll(s):
                s = RULES.apply(s, RULES.roll(s, rng))
            else:
                moves = RULES.legal_moves(s)
                assert moves
                s = RULES.apply(s, moves[rng.randrange(len(moves))])
            plies += 1
            assert RULES.from_json(json.loads(json.dumps(RULES.to_json(s)))) == s
        out = RULES.outcome(s)
        assert out is not None and sorted(out.ranks)[0] == 1
        assert all(out.ranks[x] > out.ranks[y] for x in s.out for y in range(players) if y not in s.out)


def test_the_status_line_counts_pyramids_in_words():
    s = RULES.new_game(2, {}, setup_rng(1))
    assert " · 1 pyramid left · " in RULES.status_line(replace(s, pyramids=s.pyramids[:1]))
    assert f" · {len(s.pyramids)} pyramids left · " in RULES.status_line(s)


def test_a_coin_move_is_offered_by_its_squares_and_what_it_takes():
    # the button names the squares and the prize; the notation ("0:c3xd4") is for typing
    s = position(2, coins={0: {0: "c3"}, 1: {5: "h8"}}, pyramids={"d4": 2, "e9": 1}, dice=(0, PAWN))
    labels = {RULES.format_move(s, m): RULES.choice(s, m).label for m in RULES.legal_moves(s)}
    assert labels["0:c3xd4"] == "c3 → d4 · medium +2"
    assert labels["0:c3-c4"] == "c3 → c4"
