"""Martian Treasure Hunt: piecepack coins hunt a field of pyramids (docs/rules/treasure.md).

Two to four players, each with the six coins of one suit.  A turn is one roll of two dice:
the number die picks the coin, the type die picks the chess piece it moves like.  Landing
on a pyramid or an opposing coin captures it; the game ends when the last pyramid is taken.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import permutations
from typing import Any

from games.base import (
    BadNotation,
    BadOptions,
    BadState,
    Choice,
    IllegalMove,
    JsonReader,
    OptionSpec,
    Outcome,
    Played,
    Rules,
    default_resign_ranks,
    frozen_replace,
    make_choice,
    plural,
    quote_typed,
    resolve_options,
)

Sq = tuple[int, int]  # (file, rank), both from 0: a1 is (0, 0)

NUMBER_WORDS = ("null", "ace", "2", "3", "4", "5")
KINDS = ("pawn", "rook", "knight", "bishop", "queen", "king")
PAWN, ROOK, KNIGHT, BISHOP, QUEEN, KING = range(6)
PIPS_POINTS = {1: 1, 2: 2, 3: 3}
COIN_POINTS = 2
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}
COLOUR_WORDS = {"Y": "yellow", "P": "purple", "C": "cyan", "W": "white"}
DEFAULT_ORDER = (0, 1, 2, 3, 4, 5)


class Phase(StrEnum):
    """The step of the turn the game stands at; stored in JSON as the plain string."""

    ARRANGE = "arrange"
    ROLL = "roll"
    MOVE = "move"
    OVER = "over"


PHASES = tuple(Phase)


@dataclass(frozen=True)
class Side:
    """One edge of the board a player sits at, with the suit and colour that go with it."""

    key: str
    compass: str
    suit: str
    colour: str
    letter: str  # renderer colour letter (Okabe-Ito)
    forward: Sq  # a pawn's step


SIDES: dict[str, Side] = {
    "S": Side("S", "South", "Suns", "Red", "R", (0, 1)),
    "W": Side("W", "West", "Crowns", "Green", "G", (1, 0)),
    "N": Side("N", "North", "Moons", "Black", "K", (0, -1)),
    "E": Side("E", "East", "Arms", "Blue", "B", (-1, 0)),
}
# Seats in join order take these edges; turn order is seat order, which is clockwise.
SEATING: dict[int, tuple[str, ...]] = {2: ("S", "N"), 3: ("S", "W", "N"), 4: ("S", "W", "N", "E")}
# Treasure quadrant colours (bottom-left, bottom-right, top-left, top-right): one stash each.
QUADRANT_COLOURS = (("Y", "C"), ("P", "W"))

ORTHOGONAL: tuple[Sq, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: tuple[Sq, ...] = ((1, 1), (1, -1), (-1, -1), (-1, 1))
KNIGHT_JUMPS: tuple[Sq, ...] = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


@dataclass(frozen=True)
class Geometry:
    """The board for a player count: squares, each seat's back two rows and home row."""

    players: int
    width: int
    height: int
    squares: frozenset[Sq]
    sides: tuple[str, ...]
    back: tuple[frozenset[Sq], ...]
    barred: tuple[frozenset[Sq], ...]  # every other edge's back two rows, per seat
    closed: tuple[frozenset[Sq], ...]  # barred plus the seat's own back two rows
    home: tuple[tuple[Sq, ...], ...]  # left to right as seen from the seat
    treasure: tuple[tuple[Sq, str, int], ...]  # (square, colour, pips) at the start
    core_x: int  # first file of the 6-file core (0 on the 2-player board, 2 on the plus)


@lru_cache(maxsize=8)
def geometry(players: int) -> Geometry:
    """The board for ``players`` (docs/rules/treasure.md, Board)."""
    sides = SEATING[players]
    if players == 2:
        width, height, x0 = 6, 10, 0
        squares = frozenset((f, r) for f in range(6) for r in range(10))
    else:
        width, height, x0 = 10, 10, 2
        squares = frozenset(
            (f, r)
            for f in range(10)
            for r in range(10)
            if not ((f < 2 or f > 7) and (r < 2 or r > 7)) and not (players == 3 and f > 7)
        )
    core = range(x0, x0 + 6)
    arm = range(2, 8)
    back_of = {
        "S": frozenset((f, r) for f in core for r in (0, 1)),
        "N": frozenset((f, r) for f in core for r in (8, 9)),
        "W": frozenset((f, r) for f in (0, 1) for r in arm),
        "E": frozenset((f, r) for f in (8, 9) for r in arm),
    }
    home_of = {
        "S": tuple((f, 0) for f in core),
        "N": tuple((f, 9) for f in reversed(core)),
        "W": tuple((0, r) for r in reversed(arm)),
        "E": tuple((9, r) for r in arm),
    }
    treasure = []
    for i in range(6):
        for j in range(6):
            ring = max(abs(2 * i - 5), abs(2 * j - 5))
            pips = {1: 3, 3: 2, 5: 1}[ring]
            treasure.append(((x0 + i, 2 + j), QUADRANT_COLOURS[j // 3][i // 3], pips))
    return Geometry(
        players=players,
        width=width,
        height=height,
        squares=squares,
        sides=sides,
        back=tuple(back_of[k] for k in sides),
        barred=tuple(frozenset().union(*(back_of[k] for k in sides if k != mine)) for mine in sides),
        closed=tuple(frozenset().union(*(back_of[k] for k in sides)) for _ in sides),
        home=tuple(home_of[k] for k in sides),
        treasure=tuple(sorted(treasure)),
        core_x=x0,
    )


def square_name(sq: Sq) -> str:
    """``(2, 4)`` -> ``"c5"``."""
    return f"{chr(97 + sq[0])}{sq[1] + 1}"


def coin_name(value: int) -> str:
    """How a coin is called in sentences: "the null", "the ace", "the 3"."""
    return f"the {NUMBER_WORDS[value]}"


# ---------------------------------------------------------------------------------------------
# State and moves


@dataclass(frozen=True)
class TreasureState:
    """A whole game position.

    ``coins[seat][value]`` is the square of that seat's coin, or None once it is captured (or
    its owner left).  ``dice`` is the latest roll (number, type): waiting to be moved in the
    ``move`` phase, shown for the record otherwise.  ``quiet`` counts turns since the last
    capture, for the record.  The stall limit counts rounds (docs/rules/treasure.md, "Stall
    limit"): ``quiet_rounds`` is the number of whole rounds without a capture and ``quiet_seen``
    the seats that have had their turn in the round under way.  ``pending[seat]`` is a seat's
    secret arrangement while others are still arranging: ``coins`` keep the standard order until
    every seat has arranged, then every pending row is set out at once (``revealed_rows``).
    The ``last_*`` fields only describe the previous action for pictures.
    """

    players: int
    stall_limit: int
    phase: Phase
    turn: int
    first: int
    arranged: tuple[bool, ...]
    coins: tuple[tuple[Sq | None, ...], ...]
    pyramids: tuple[tuple[Sq, str, int], ...]
    treasure: tuple[tuple[tuple[str, int], ...], ...]  # per seat: captured pyramids (colour, pips)
    prisoners: tuple[tuple[tuple[int, int], ...], ...]  # per seat: captured coins (owner, value)
    dice: tuple[int, int] | None
    quiet: int
    out: tuple[int, ...]
    ranks: tuple[int, ...] | None
    reason: str
    last_seat: int | None = None
    last_from: Sq | None = None
    last_to: Sq | None = None
    last_lost: bool = False
    last_pyramid: tuple[str, int] | None = None
    last_coin: tuple[int, int] | None = None
    quiet_rounds: int = 0
    quiet_seen: tuple[int, ...] = ()
    pending: tuple[tuple[int, ...] | None, ...] = ()

    # ``board`` and ``rolled_destinations`` are computed once per state and kept in its ``__dict__``
    # (frozen, so the answer cannot go stale; ``frozen_replace`` copies the fields only, so a changed
    # copy works them out again).  A search asks the same state the same questions three times a
    # move: may the roll be played, which moves are legal, is this one.

    @property
    def board(self) -> Mapping[Sq, tuple[str, int, int | str]]:
        """What stands where (``occupancy``), computed once per state."""
        kept = self.__dict__.get("_board")
        if kept is None:
            kept = self.__dict__["_board"] = _occupancy(self)
        return kept

    @property
    def rolled_destinations(self) -> tuple[Sq, ...]:
        """Where the rolled coin may go in the move phase (empty otherwise), computed once per state."""
        kept = self.__dict__.get("_rolled")
        if kept is None:
            if self.phase != Phase.MOVE or self.dice is None:
                kept = ()
            else:
                number, kind = self.dice
                kept = tuple(_destinations(self, self.turn, number, kind))
            self.__dict__["_rolled"] = kept
        return kept


@dataclass(frozen=True)
class Roll:
    """Both dice: ``number`` picks the coin (0 null .. 5), ``kind`` how it moves (0 pawn .. 5 king)."""

    number: int
    kind: int


@dataclass(frozen=True)
class Arrange:
    """``seat``'s coin values on its home row, left to right as seen from the seat.

    Every seat still to arrange may arrange at any moment of the arrange phase, not only the seat
    to move (docs/rules/treasure.md, "Setting out the coins"): the move names its seat.
    """

    order: tuple[int, ...]
    seat: int


@dataclass(frozen=True)
class Step:
    """The rolled coin ``value`` moves from ``src`` to ``dst``."""

    value: int
    src: Sq
    dst: Sq


@dataclass(frozen=True)
class Forfeit:
    """The turn is lost because the player's time ran out (never chosen by a player)."""


Move = Roll | Arrange | Step | Forfeit


# ---------------------------------------------------------------------------------------------
# Board queries


def score(s: TreasureState, seat: int) -> int:
    """Points in ``seat``'s pile: pyramids by size, 2 per captured coin."""
    return sum(PIPS_POINTS[p] for _, p in s.treasure[seat]) + COIN_POINTS * len(s.prisoners[seat])


def scores(s: TreasureState) -> tuple[int, ...]:
    """Every seat's score."""
    return tuple(score(s, seat) for seat in range(s.players))


def active_seats(s: TreasureState) -> list[int]:
    """Seats still playing."""
    return [seat for seat in range(s.players) if seat not in s.out]


def coins_left(s: TreasureState, seat: int) -> int:
    """How many of ``seat``'s coins are on the board."""
    return sum(1 for sq in s.coins[seat] if sq is not None)


def occupancy(s: TreasureState) -> Mapping[Sq, tuple[str, int, int | str]]:
    """What stands where: ``("coin", seat, value)`` or ``("pyramid", pips, colour)``."""
    return s.board


def _occupancy(s: TreasureState) -> dict[Sq, tuple[str, int, int | str]]:
    board: dict[Sq, tuple[str, int, int | str]] = {}
    for seat, row in enumerate(s.coins):
        for value, sq in enumerate(row):
            if sq is not None:
                board[sq] = ("coin", seat, value)
    for sq, colour, pips in s.pyramids:
        board[sq] = ("pyramid", pips, colour)
    return board


def forbidden(s: TreasureState, seat: int, here: Sq) -> frozenset[Sq]:
    """Squares a coin of ``seat`` standing on ``here`` may not enter (rules page, Movement).

    Every other edge's back two rows (also of seats that left), and its own back two rows once
    the coin stands outside them: a coin outside them has left and can never come back.
    """
    geo = geometry(s.players)
    if here in geo.back[seat]:
        return geo.barred[seat]
    return geo.closed[seat]


def _can_capture(s: TreasureState, seat: int, what: tuple[str, int, int | str]) -> bool:
    """A pyramid always; an opposing coin unless it is its owner's last (immune)."""
    if what[0] == "pyramid":
        return True
    owner = what[1]
    return owner != seat and coins_left(s, owner) > 1


def destinations(s: TreasureState, seat: int, value: int, kind: int) -> list[Sq]:
    """Squares the coin ``value`` of ``seat`` can reach moving like ``KINDS[kind]``, sorted."""
    if s.phase == Phase.MOVE and s.dice == (value, kind) and seat == s.turn:
        return list(s.rolled_destinations)
    return _destinations(s, seat, value, kind)


def _destinations(s: TreasureState, seat: int, value: int, kind: int) -> list[Sq]:
    here = s.coins[seat][value]
    if here is None:
        return []
    geo = geometry(s.players)
    board = occupancy(s)
    banned = forbidden(s, seat, here)

    def open_square(sq: Sq) -> bool:
        return sq in geo.squares and sq not in banned

    out: list[Sq] = []
    if kind == PAWN:
        fx, fy = SIDES[geo.sides[seat]].forward
        ahead = (here[0] + fx, here[1] + fy)
        if open_square(ahead) and ahead not in board:
            out.append(ahead)
        for side in (-1, 1):
            diag = (ahead[0] + side * fy, ahead[1] + side * fx)
            if open_square(diag) and diag in board and _can_capture(s, seat, board[diag]):
                out.append(diag)
    elif kind == KNIGHT:
        for dx, dy in KNIGHT_JUMPS:
            sq = (here[0] + dx, here[1] + dy)
            if open_square(sq) and (sq not in board or _can_capture(s, seat, board[sq])):
                out.append(sq)
    else:
        dirs = {ROOK: ORTHOGONAL, BISHOP: DIAGONAL, QUEEN: ORTHOGONAL + DIAGONAL, KING: ORTHOGONAL + DIAGONAL}[kind]
        reach = 1 if kind == KING else max(geo.width, geo.height)
        for dx, dy in dirs:
            for k in range(1, reach + 1):
                sq = (here[0] + dx * k, here[1] + dy * k)
                if not open_square(sq):
                    break
                if sq in board:
                    if _can_capture(s, seat, board[sq]):
                        out.append(sq)
                    break
                out.append(sq)
    return sorted(out)


def _why_not(s: TreasureState, seat: int, value: int, kind: int, dst: Sq) -> str:
    """One sentence saying why the rolled coin cannot go to ``dst``."""
    geo = geometry(s.players)
    here = s.coins[seat][value]
    assert here is not None
    name, where = square_name(dst), square_name(here)
    piece = KINDS[kind]
    if dst not in geo.squares:
        return f"{name} is not on the board."
    if dst == here:
        return f"Your {NUMBER_WORDS[value]} is already on {name}."
    for other in range(s.players):
        if other != seat and dst in geo.back[other]:
            return f"{name} is in {seat_label(s, other)}'s back two rows, where your coins may never go."
    if dst in geo.back[seat] and here not in geo.back[seat]:
        return f"{name} is in your back two rows, and a coin that has left them can never return."
    dx, dy = dst[0] - here[0], dst[1] - here[1]
    board = occupancy(s)
    target = board.get(dst)
    if kind == PAWN:
        fx, fy = SIDES[geo.sides[seat]].forward
        if (dx, dy) == (fx, fy):
            return f"A pawn steps forward only onto an empty square, and {name} is occupied."
        if (dx, dy) in ((fx - fy, fy - fx), (fx + fy, fy + fx)):
            if target is None:
                return f"A pawn moves diagonally only to capture, and {name} is empty."
            return _blocked_target(s, seat, target, name)
        return f"A pawn moves one square forward, or diagonally forward to capture; {where} to {name} is neither."
    if kind == KNIGHT:
        if (abs(dx), abs(dy)) not in ((1, 2), (2, 1)):
            return f"A knight can't jump from {where} to {name}."
        return _blocked_target(s, seat, target, name) if target else f"{name} can't be reached."
    straight = dx == 0 or dy == 0
    diagonal = abs(dx) == abs(dy)
    shape_ok = {
        ROOK: straight,
        BISHOP: diagonal,
        QUEEN: straight or diagonal,
        KING: max(abs(dx), abs(dy)) == 1,
    }[kind]
    if not shape_ok:
        return f"A {piece} can't move from {where} to {name}."
    step = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    sq = (here[0] + step[0], here[1] + step[1])
    banned = forbidden(s, seat, here)
    while sq != dst:
        if sq not in geo.squares:
            return f"The way from {where} to {name} leaves the board at {square_name(sq)}."
        if sq in banned:
            return f"The way from {where} to {name} crosses {square_name(sq)}, where your coins may not go."
        if sq in board:
            return f"The way from {where} to {name} is blocked at {square_name(sq)}."
        sq = (sq[0] + step[0], sq[1] + step[1])
    if target is not None:
        return _blocked_target(s, seat, target, name)
    return f"Your {NUMBER_WORDS[value]} can't reach {name}."


def _blocked_target(s: TreasureState, seat: int, target: tuple[str, int, int | str], name: str) -> str:
    if target[0] == "coin" and target[1] == seat:
        return f"{name} holds your own {NUMBER_WORDS[int(target[2])]}."
    if target[0] == "coin":
        return f"{seat_label(s, target[1])}'s last coin on {name} is immune to capture."
    return f"{name} can't be taken."


def seat_label(s: TreasureState, seat: int) -> str:
    """The seat's colour name: Red, Black, Green or Blue."""
    return SIDES[geometry(s.players).sides[seat]].colour


def _next_active(s: TreasureState, seat: int) -> int:
    for k in range(1, s.players + 1):
        nxt = (seat + k) % s.players
        if nxt not in s.out:
            return nxt
    return seat


def score_ranks(s: TreasureState) -> tuple[int, ...]:
    """Competition ranks by score among the seats still playing; seats that left come last."""
    points = scores(s)
    active = active_seats(s)
    ranks = [0] * s.players
    for seat in active:
        ranks[seat] = 1 + sum(1 for other in active if points[other] > points[seat])
    nxt = len(active) + 1
    for seat in reversed(s.out):
        ranks[seat] = nxt
        nxt += 1
    return tuple(ranks)


def _finish(s: TreasureState, reason: str) -> TreasureState:
    return frozen_replace(s, phase=Phase.OVER, ranks=score_ranks(s), reason=reason)


def _count_round(s: TreasureState) -> TreasureState:
    """Close the quiet round once every seat still playing has had its turn in it."""
    if s.quiet_seen and set(active_seats(s)) <= set(s.quiet_seen):
        return frozen_replace(s, quiet_rounds=s.quiet_rounds + 1, quiet_seen=())
    return s


def _stalled(s: TreasureState) -> bool:
    """True once ``stall_limit`` whole rounds have passed without a capture."""
    return s.quiet_rounds >= s.stall_limit


def _end_turn(s: TreasureState, captured: bool) -> TreasureState:
    """Count the turn for the stall limit, end the game if due, else pass the dice on."""
    if captured:
        s = frozen_replace(s, quiet=0, quiet_rounds=0, quiet_seen=())
    else:
        s = _count_round(frozen_replace(s, quiet=s.quiet + 1, quiet_seen=(*s.quiet_seen, s.turn)))
    if not s.pyramids:
        return _finish(s, "The last pyramid was taken.")
    if _stalled(s):
        return _finish(s, f"No capture in {plural(s.stall_limit, 'round')}.")
    return frozen_replace(s, phase=Phase.ROLL, turn=_next_active(s, s.turn))


def _may_arrange(s: TreasureState, seat: int) -> bool:
    """True while ``seat`` may set out its coins: the arrange phase, still in the game, not arranged yet."""
    return s.phase == Phase.ARRANGE and 0 <= seat < s.players and seat not in s.out and not s.arranged[seat]


def _after_arrange(s: TreasureState) -> TreasureState:
    """The turn after an arrangement or a leaver: it stays with the seat to move while that seat still
    has to arrange (another seat arranged); else it passes to the next seat that still has to, or,
    once everyone has, every row is set out and the first player rolls."""
    if _may_arrange(s, s.turn):
        return s
    for k in range(1, s.players + 1):
        seat = (s.turn + k) % s.players
        if seat not in s.out and not s.arranged[seat]:
            return frozen_replace(s, turn=seat)
    first = s.first if s.first not in s.out else _next_active(s, s.first)
    return frozen_replace(_reveal(s), phase=Phase.ROLL, turn=first)


def _reveal(s: TreasureState) -> TreasureState:
    """Set out every secret arrangement at once (docs/rules/treasure.md, "Setting out the coins")."""
    if not s.pending:
        return s
    home = geometry(s.players).home
    coins = tuple(
        _placed(home[seat], order) if order is not None and seat not in s.out else row
        for seat, (row, order) in enumerate(zip(s.coins, s.pending, strict=True))
    )
    return frozen_replace(s, coins=coins, pending=())


def arrangements_hidden(s: TreasureState) -> bool:
    """True while coins are being arranged: no row is shown, nor any arrangement named."""
    return s.phase == "arrange"


def revealed_rows(s: TreasureState) -> tuple[bool, ...]:
    """Per seat: may the values of its coins be shown?  Not one row until every seat has arranged.

    While arranging, ``coins`` hold the standard order as a stand-in; a picture should show those
    coins face down (or not at all) and may say which seats have arranged (``arranged``).
    """
    shown = not arrangements_hidden(s)
    return (shown,) * s.players


# ---------------------------------------------------------------------------------------------
# Notation

_ROLL_NUMBER = {"0": 0, "null": 0, "1": 1, "ace": 1, "2": 2, "3": 3, "4": 4, "5": 5}
_ROLL_KIND = {**_ROLL_NUMBER, **{word: i for i, word in enumerate(KINDS)}}
_STEP_RE = re.compile(r"^(?:(null|ace|[0-5]):?)?([a-z]\d{1,2})(?:(?:-|x|to)?([a-z]\d{1,2}))?$")
_SQUARE_RE = re.compile(r"^([a-z])(\d{1,2})$")


def _parse_square(s: TreasureState, text: str) -> Sq:
    match = _SQUARE_RE.match(text)
    if not match:
        raise BadNotation(f"{quote_typed(text)} is not a square; squares are written like c5.")
    sq = (ord(match.group(1)) - 97, int(match.group(2)) - 1)
    if sq not in geometry(s.players).squares:
        raise IllegalMove(f"{text} is not on the board.")
    return sq


def _format_roll(m: Roll) -> str:
    return f"roll {m.number} {KINDS[m.kind]}"


# ---------------------------------------------------------------------------------------------
# The rules object


class TreasureRules:
    """Martian Treasure Hunt for 2-4 players (docs/rules/treasure.md)."""

    name = "treasure"
    title = "Martian Treasure Hunt"
    min_players = 2
    max_players = 4
    options: tuple[OptionSpec, ...] = (
        OptionSpec("arrange", "Players set out their coins in an order of their choosing before the first roll.", True),
        OptionSpec(
            "stall_limit",
            "Rounds without any capture that end the game, scored as it stands.",
            40,
            minimum=1,
            maximum=500,
        ),
    )

    # -- setup ----------------------------------------------------------------------------------

    def new_game(self, players: int, options: Mapping[str, Any], rng: random.Random) -> TreasureState:
        """A fresh game: coins in the default order, the treasure in place, a random first player."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise BadOptions("Martian Treasure Hunt is for 2 to 4 players.")
        opts = resolve_options(self.options, options)
        geo = geometry(players)
        first = rng.randrange(players)
        arrange = bool(opts["arrange"])
        return TreasureState(
            players=players,
            stall_limit=int(opts["stall_limit"]),
            phase=Phase.ARRANGE if arrange else Phase.ROLL,
            turn=first,
            first=first,
            arranged=(not arrange,) * players,
            coins=tuple(_placed(geo.home[seat], DEFAULT_ORDER) for seat in range(players)),
            pyramids=geo.treasure,
            treasure=((),) * players,
            prisoners=((),) * players,
            dice=None,
            quiet=0,
            out=(),
            ranks=None,
            reason="",
        )

    # -- turn -----------------------------------------------------------------------------------

    def to_move(self, s: TreasureState) -> int | None:
        """The seat to arrange, roll or move; None once over.  While arranging: the first seat in turn
        order from the first player that has not arranged yet (the one the clock presses)."""
        return None if s.phase == "over" else s.turn

    def acting_state(self, s: TreasureState, seat: int) -> TreasureState | None:
        """``s`` as ``seat`` may arrange in it now although another seat is to move, or None.

        Players arrange at the same time (docs/rules/treasure.md, "Setting out the coins"): every seat
        still to arrange may do so at any moment, in any order.  In the state returned ``seat`` is to
        move, so its arrangements are parsed and listed there, each naming ``seat``; played on ``s``,
        one leaves the turn (and the clock) with the seat to move (``games.base.seat_state``).
        """
        if seat == s.turn or not _may_arrange(s, seat):
            return None
        return frozen_replace(s, turn=seat)

    def acting_together(self, s: TreasureState) -> bool:
        """True while the players set out their coins at the same time (``games.base.seat_state``), even
        when the seat to move is the last still to do it: play, and its clock, start afresh after."""
        return s.phase == "arrange"

    def pending_roll(self, s: TreasureState) -> bool:
        """True when the seat to move must roll both dice."""
        return s.phase == "roll"

    def roll(self, s: TreasureState, rng: random.Random) -> Roll:
        """Both dice, from ``rng``."""
        if s.phase != "roll":
            raise IllegalMove("It is not time to roll.")
        return Roll(rng.randrange(6), rng.randrange(6))

    def legal_moves(self, s: TreasureState) -> Sequence[Move]:
        """The seat to move's arrangements (default first) or the rolled coin's moves; empty while a roll
        is pending.  The other seats still to arrange have theirs in ``acting_state``."""
        if s.phase == "arrange":
            return _orders(s.turn)
        if s.phase != "move" or s.dice is None:
            return []
        number, kind = s.dice
        here = s.coins[s.turn][number]
        if here is None:
            return []
        return [Step(number, here, dst) for dst in destinations(s, s.turn, number, kind)]

    def apply(self, s: TreasureState, m: Move) -> TreasureState:
        """The state after ``m``; raises ``IllegalMove``."""
        if s.phase == "over":
            raise IllegalMove("The game is over.")
        if isinstance(m, Roll):
            return self._apply_roll(s, m)
        if isinstance(m, Arrange):
            return self._apply_arrange(s, m)
        if isinstance(m, Step):
            return self._apply_step(s, m)
        if isinstance(m, Forfeit):
            if s.phase != "move":
                raise IllegalMove("Only a turn with a rolled coin to move can be forfeited.")
            return _end_turn(self._lost(s), captured=False)
        raise IllegalMove("That is not a Martian Treasure Hunt move.")

    def _lost(self, s: TreasureState) -> TreasureState:
        return frozen_replace(
            s, last_seat=s.turn, last_from=None, last_to=None, last_lost=True, last_pyramid=None, last_coin=None
        )

    def _apply_roll(self, s: TreasureState, m: Roll) -> TreasureState:
        if s.phase != "roll":
            raise IllegalMove(self._not_roll_reason(s))
        if not (isinstance(m.number, int) and isinstance(m.kind, int) and 0 <= m.number <= 5 and 0 <= m.kind <= 5):
            raise IllegalMove("Each die shows null, ace, 2, 3, 4 or 5.")
        s = frozen_replace(s, dice=(m.number, m.kind), phase=Phase.MOVE)
        if not destinations(s, s.turn, m.number, m.kind):
            # The coin was captured or cannot move that way: the turn is lost (rules page, A turn).
            return _end_turn(self._lost(s), captured=False)
        return s

    def _apply_arrange(self, s: TreasureState, m: Arrange) -> TreasureState:
        refused = _arrange_refusal(s, m.seat)
        if refused:
            raise IllegalMove(refused)
        if tuple(sorted(m.order)) != DEFAULT_ORDER:
            raise IllegalMove("An arrangement names each of the six coins once.")
        seat = m.seat
        pending = list(s.pending or (None,) * s.players)
        pending[seat] = tuple(m.order)
        arranged = tuple(done or i == seat for i, done in enumerate(s.arranged))
        s = frozen_replace(
            s,
            pending=tuple(pending),
            arranged=arranged,
            last_seat=seat,
            last_from=None,
            last_to=None,
            last_lost=False,
            last_pyramid=None,
            last_coin=None,
        )
        return _after_arrange(s)

    def _apply_step(self, s: TreasureState, m: Step) -> TreasureState:
        if s.phase != "move" or s.dice is None:
            raise IllegalMove(self._not_move_reason(s))
        seat = s.turn
        number, kind = s.dice
        if m.value != number:
            raise IllegalMove(f"The dice picked {coin_name(number)}, so only it moves this turn.")
        here = s.coins[seat][number]
        if here is None:  # cannot happen: such a roll loses the turn at once
            raise IllegalMove(f"Your {NUMBER_WORDS[number]} has been captured.")
        if m.src != here:
            raise IllegalMove(f"Your {NUMBER_WORDS[number]} is on {square_name(here)}, not {square_name(m.src)}.")
        if m.dst not in destinations(s, seat, number, kind):
            raise IllegalMove(_why_not(s, seat, number, kind, m.dst))
        return _move_coin(s, seat, number, here, m.dst)

    def _not_roll_reason(self, s: TreasureState) -> str:
        if s.phase == "arrange":
            return f"{seat_label(s, s.turn)} must set out their coins before the first roll."
        if s.phase == "move" and s.dice is not None:
            number, kind = s.dice
            return f"The dice are already rolled: move {coin_name(number)} like a {KINDS[kind]}."
        return "It is not time to roll."

    def _not_move_reason(self, s: TreasureState) -> str:
        if s.phase == "arrange":
            return f"{seat_label(s, s.turn)} must set out their coins first (e.g. arrange 012345)."
        if s.phase == "roll":
            return "Roll the dice first."
        return "It is not time to move."

    # -- leaving and clocks ---------------------------------------------------------------------

    def resign(self, s: TreasureState, seat: int) -> TreasureState:
        """The seat leaves; its coins leave the board; two seats: the other wins (rules page)."""
        if s.phase == "over":
            raise IllegalMove("The game is already over.")
        if not 0 <= seat < s.players or seat in s.out:
            raise IllegalMove("That seat is not in the game.")
        coins = list(s.coins)
        coins[seat] = (None,) * 6
        name = seat_label(s, seat)
        # the leaver no longer holds the quiet round open (docs/rules/treasure.md, "Stall limit")
        quiet_seen = tuple(x for x in s.quiet_seen if x != seat)
        s = frozen_replace(s, coins=tuple(coins), out=(*s.out, seat), quiet_seen=quiet_seen)
        left = active_seats(s)
        if len(left) == 1:
            winner = left[0]
            ranks = default_resign_ranks(s.out, s.players, [winner])
            reason = f"{name} left the game."
            return frozen_replace(s, phase=Phase.OVER, ranks=ranks, reason=reason, pending=())
        if s.turn == seat:
            if s.phase == "arrange":
                return _after_arrange(s)
            s = frozen_replace(s, phase=Phase.ROLL, turn=_next_active(s, seat))
        # The leaver no longer holds the round open, but the rounds already run stay as they were:
        # a resignation never shortens the window (docs/rules/treasure.md, "Stall limit").
        s = _count_round(s)
        if _stalled(s):
            return _finish(s, f"No capture in {plural(s.stall_limit, 'round')}.")
        return s

    def timeout_move(self, s: TreasureState) -> Move | None:
        """Arranging: the default order for the seat to move.  Moving: the turn is lost (``forfeit``)."""
        if s.phase == "arrange":
            return Arrange(DEFAULT_ORDER, s.turn)
        if s.phase == "move":
            return Forfeit()
        return None

    # -- result ---------------------------------------------------------------------------------

    def outcome(self, s: TreasureState) -> Outcome | None:
        """Ranks by score (ties share), seats that left below; None while playing."""
        if s.phase != "over" or s.ranks is None:
            return None
        points = scores(s)
        details = tuple(plural(value, "point") for value in points)
        return Outcome(ranks=s.ranks, reason=s.reason, scores=tuple(float(x) for x in points), details=details)

    # -- notation -------------------------------------------------------------------------------

    def parse_move(self, s: TreasureState, text: str) -> Move:
        """Read ``roll 3 queen``, ``arrange 012345``, ``3:c2-c5`` (or just ``c5``) and ``forfeit``."""
        if not isinstance(text, str):
            raise BadNotation("Type a move like 3:c2-c5.")
        raw = text.strip().lower()
        if not raw:
            raise BadNotation("Type a move like 3:c2-c5, or a square like c5.")
        if len(raw) > 60:
            raise BadNotation("That is too long to be a move.")
        if raw.startswith("roll"):
            return self._parse_roll(s, raw)
        if raw.startswith("arrange"):
            return self._parse_arrange(s, raw)
        if raw == "forfeit":
            if s.phase != "move":
                raise IllegalMove("Only a turn with a rolled coin to move can be forfeited.")
            return Forfeit()
        compact = re.sub(r"[\s,]+", "", raw)
        match = _STEP_RE.match(compact)
        if not match:
            raise BadNotation(f"{quote_typed(text, 30)} is not a move; write the coin and squares like 3:c2-c5.")
        value_text, first, second = match.groups()
        src_text, dst_text = (first, second) if second else (None, first)
        if s.phase != "move" or s.dice is None:
            raise IllegalMove(self._not_move_reason(s))
        number, kind = s.dice
        seat = s.turn
        if value_text is not None and _ROLL_NUMBER[value_text] != number:
            raise IllegalMove(f"The dice picked {coin_name(number)}, so only it moves this turn.")
        here = s.coins[seat][number]
        if here is None:
            raise IllegalMove(f"Your {NUMBER_WORDS[number]} has been captured.")
        if src_text is not None:
            src = _parse_square(s, src_text)
            if src != here:
                raise IllegalMove(f"Your {NUMBER_WORDS[number]} is on {square_name(here)}, not {src_text}.")
        dst = _parse_square(s, dst_text)
        if dst not in destinations(s, seat, number, kind):
            raise IllegalMove(_why_not(s, seat, number, kind, dst))
        return Step(number, here, dst)

    def _parse_roll(self, s: TreasureState, raw: str) -> Roll:
        words = re.sub(r"[,/:]", " ", raw[4:]).split()
        if len(words) != 2 or words[0] not in _ROLL_NUMBER or words[1] not in _ROLL_KIND:
            raise BadNotation("A roll names both dice, e.g. roll 3 queen.")
        if s.phase != "roll":
            raise IllegalMove(self._not_roll_reason(s))
        return Roll(_ROLL_NUMBER[words[0]], _ROLL_KIND[words[1]])

    def _parse_arrange(self, s: TreasureState, raw: str) -> Arrange:
        """``arrange 543210`` for the seat to move; ``arrange 543210 green`` (as ``format_move`` writes an
        arrangement made out of turn) for the seat named."""
        rest = raw[len("arrange") :]
        words = re.sub(r"[,/\-]", " ", rest).split()
        if rest.strip() and not words:  # only separators typed: not the bare "arrange" that means default
            raise BadNotation("Name the coins left to right from your seat, e.g. arrange 543210.")
        colours = {seat_label(s, seat).lower(): seat for seat in range(s.players)}
        seat = colours[words.pop()] if words and words[-1] in colours else s.turn
        if words in ([], ["default"]):
            order: tuple[int, ...] = DEFAULT_ORDER
        else:
            tokens = words if len(words) > 1 else list(words[0])
            if any(t not in _ROLL_NUMBER for t in tokens):
                raise BadNotation("Name the coins left to right from your seat, e.g. arrange 543210.")
            order = tuple(_ROLL_NUMBER[t] for t in tokens)
            if tuple(sorted(order)) != DEFAULT_ORDER:
                raise BadNotation("Name each of the six coins (0 null, 1 ace, 2-5) once, e.g. arrange 543210.")
        refused = _arrange_refusal(s, seat)
        if refused:
            raise IllegalMove(refused)
        return Arrange(order, seat)

    def format_move(self, s: TreasureState, m: Move) -> str:
        """Canonical notation: ``roll 3 queen``, ``arrange 012345``, ``3:c2-c5``, ``3:c2xc5``, ``forfeit``."""
        if isinstance(m, Roll):
            return _format_roll(m)
        if isinstance(m, Arrange):
            digits = "arrange " + "".join(str(v) for v in m.order)
            if m.seat == s.turn or not 0 <= m.seat < s.players:
                return digits  # the seat to move's (the only form before arranging was simultaneous)
            return f"{digits} {seat_label(s, m.seat).lower()}"  # out of turn: the log names the seat
        if isinstance(m, Forfeit):
            return "forfeit"
        sep = "x" if m.dst in occupancy(s) else "-"
        return f"{m.value}:{square_name(m.src)}{sep}{square_name(m.dst)}"

    def public_notation(self, s: TreasureState, notation: str) -> str:
        """Arrangements stay face down until every player has arranged (docs/rules/treasure.md)."""
        if arrangements_hidden(s) and notation.strip().lower().startswith("arrange"):
            return "arrange (face down)"
        return notation

    def play(self, s: TreasureState, m: Move) -> Played[TreasureState]:
        """The state after ``m`` and a sentence for the channel: both dice, the move, any capture and
        the running scores."""
        after = self.apply(s, m)
        return Played(after, self._describe(s, m, after))

    def _describe(self, s: TreasureState, m: Move, after: TreasureState) -> str:
        if isinstance(m, Arrange):
            return self._describe_arrange(s, m, after)
        who = seat_label(s, s.turn)
        if isinstance(m, Roll):
            dice = f"{who} rolls {NUMBER_WORDS[m.number]} and {KINDS[m.kind]}"
            here = s.coins[s.turn][m.number] if m.number in range(6) else None
            if here is None:
                return f"{dice}: their {NUMBER_WORDS[m.number]} has been captured, so the turn is lost."
            if after.phase != Phase.MOVE:  # no coin to move that way: the turn was lost
                return f"{dice}: their {NUMBER_WORDS[m.number]} has no {KINDS[m.kind]} move, so the turn is lost."
            return f"{dice}: {coin_name(m.number)} on {square_name(here)} moves like a {KINDS[m.kind]}."
        if isinstance(m, Forfeit):
            return f"{who} ran out of time, so the turn is lost."
        number, kind = s.dice if s.dice else (m.value, QUEEN)
        text = (
            f"{who} (rolled {NUMBER_WORDS[number]} and {KINDS[kind]}) moves {coin_name(m.value)} "
            f"{square_name(m.src)}-{square_name(m.dst)}"
        )
        target = occupancy(s).get(m.dst)
        gained = 0
        if target and target[0] == "pyramid":
            gained = PIPS_POINTS[int(target[1])]
            text += f", taking a {SIZE_WORDS[int(target[1])]} {COLOUR_WORDS[str(target[2])]} pyramid (+{gained})"
        elif target and target[0] == "coin":
            gained = COIN_POINTS
            text += f", capturing {seat_label(s, target[1])}'s {NUMBER_WORDS[int(target[2])]} (+{gained})"
        points = list(scores(s))
        points[s.turn] += gained
        shown = ", ".join(f"{seat_label(s, seat)} {points[seat]}" for seat in range(s.players))
        return f"{text}. Scores: {shown}."

    def _describe_arrange(self, s: TreasureState, m: Arrange, after: TreasureState) -> str:
        """Who has arranged, never how, until the last arrangement reveals every row at once."""
        who = seat_label(s, m.seat)
        if arrangements_hidden(after):
            return f"{who} has set out their coins face down; every row is shown once everyone has arranged."
        home = geometry(s.players).home
        rows = []
        for seat in active_seats(after):
            by_square = {sq: value for value, sq in enumerate(after.coins[seat]) if sq is not None}
            rows.append(f"{seat_label(s, seat)} " + " ".join(NUMBER_WORDS[by_square[sq]] for sq in home[seat]))
        return f"{who} has set out their coins. Everyone has arranged; the rows are revealed: {'; '.join(rows)}."

    def choice(self, s: TreasureState, m: Move) -> Choice:
        """Keeping the standard order is a button; other arrangements and coin moves go in the menu."""
        if isinstance(m, Arrange):
            words = " ".join(NUMBER_WORDS[v] for v in m.order)
            if tuple(m.order) == DEFAULT_ORDER:
                return make_choice("accept", "Standard order", f"Set out {words}, left to right from your seat.")
            return make_choice("move", words, "Your coins left to right from your seat, face down until all arrange.")
        if isinstance(m, Forfeit):
            return make_choice("pass", "Lose the turn", "The turn passes without a move.")
        if isinstance(m, Roll):
            return make_choice("roll", "Roll", "Roll the number and type dice together.")
        # the label names the squares and what is taken; the notation ("3:f1xf3") is for typing
        route = f"{square_name(m.src)} → {square_name(m.dst)}"
        target = occupancy(s).get(m.dst)
        if target and target[0] == "pyramid":
            pips = int(target[1])
            taking = f"takes a {SIZE_WORDS[pips]} pyramid (+{PIPS_POINTS[pips]})"
            label = f"{route} · {SIZE_WORDS[pips]} +{PIPS_POINTS[pips]}"
            return make_choice("move", label, f"{coin_name(m.value).capitalize()} {taking}.")
        if target and target[0] == "coin":
            coin = f"{seat_label(s, int(target[1]))}'s {NUMBER_WORDS[int(target[2])]}"
            label = f"{route} · {coin} +{COIN_POINTS}"
            return make_choice("move", label, f"{coin_name(m.value).capitalize()} captures {coin} (+{COIN_POINTS}).")
        return make_choice("move", route, f"{coin_name(m.value).capitalize()} moves to {square_name(m.dst)}.")

    def seat_name(self, s: TreasureState, seat: int) -> str:
        """Red (South, Suns), Green (West, Crowns), Black (North, Moons) or Blue (East, Arms)."""
        return seat_label(s, seat)

    def status_line(self, s: TreasureState) -> str:
        """Whose turn and what they must do, the pyramids left and the scores."""
        points = scores(s)
        shown = ", ".join(f"{seat_label(s, seat)} {points[seat]}" for seat in range(s.players))
        if s.phase == "over":
            return f"Game over: {s.reason} Scores: {shown}."
        who = seat_label(s, s.turn)
        if s.phase == "arrange":
            active = active_seats(s)
            clockwise = [(s.turn + k) % s.players for k in range(1, s.players)]
            waiting = [seat_label(s, seat) for seat in clockwise if _may_arrange(s, seat)]  # besides the turn
            who = " and ".join([", ".join([who, *waiting[:-1]]), *waiting[-1:]])
            done = sum(1 for seat in active if s.arranged[seat])
            doing = f"to set out their coins face down, in any order (arrange; {done} of {len(active)} done)"
        elif s.phase == "roll":
            doing = "to roll"
        else:
            number, kind = s.dice or (0, 0)
            doing = f"to move {coin_name(number)} like a {KINDS[kind]}"
        stall = f" · {s.quiet_rounds} of {s.stall_limit} quiet rounds" if s.quiet_rounds else ""
        left = f"{len(s.pyramids)} pyramid{'' if len(s.pyramids) == 1 else 's'} left"
        return f"{who} {doing} · {left}{stall} · Scores: {shown}."

    # -- storage --------------------------------------------------------------------------------

    def to_json(self, s: TreasureState) -> dict[str, Any]:
        """A JSON-ready dict; squares are written as names like ``c5``."""

        def sq(x: Sq | None) -> str | None:
            return None if x is None else square_name(x)

        return {
            "game": self.name,
            "players": s.players,
            "stall_limit": s.stall_limit,
            "phase": str(s.phase),
            "turn": s.turn,
            "first": s.first,
            "arranged": list(s.arranged),
            "coins": [[sq(x) for x in row] for row in s.coins],
            "pyramids": [[square_name(p), c, n] for p, c, n in s.pyramids],
            "treasure": [[f"{c}{n}" for c, n in pile] for pile in s.treasure],
            "prisoners": [[[o, v] for o, v in pile] for pile in s.prisoners],
            "dice": None if s.dice is None else list(s.dice),
            "quiet": s.quiet,
            "quiet_rounds": s.quiet_rounds,
            "quiet_seen": list(s.quiet_seen),
            "pending": [None if order is None else list(order) for order in s.pending],
            "out": list(s.out),
            "ranks": None if s.ranks is None else list(s.ranks),
            "reason": s.reason,
            "last": {
                "seat": s.last_seat,
                "from": sq(s.last_from),
                "to": sq(s.last_to),
                "lost": s.last_lost,
                "pyramid": None if s.last_pyramid is None else f"{s.last_pyramid[0]}{s.last_pyramid[1]}",
                "coin": None if s.last_coin is None else list(s.last_coin),
            },
        }

    def from_json(self, d: dict[str, Any]) -> TreasureState:
        """The state back from ``to_json``; raises ``BadState`` on damaged data."""
        try:
            return _decode(d)
        except BadState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise _READ.bad("a field is missing or of the wrong kind") from None


def _placed(home: tuple[Sq, ...], order: Sequence[int]) -> tuple[Sq | None, ...]:
    """Coin squares by value for ``order`` (values left to right along ``home``)."""
    squares: list[Sq | None] = [None] * 6
    for sq, value in zip(home, order, strict=True):
        squares[value] = sq
    return tuple(squares)


def _move_coin(s: TreasureState, seat: int, value: int, here: Sq, dst: Sq) -> TreasureState:
    """Move the coin, capture what stands on ``dst`` and end the turn."""
    coins = [list(row) for row in s.coins]
    pyramids = s.pyramids
    treasure, prisoners = list(s.treasure), list(s.prisoners)
    taken_pyramid: tuple[str, int] | None = None
    taken_coin: tuple[int, int] | None = None
    for sq, colour, pips in s.pyramids:
        if sq == dst:
            pyramid = (colour, pips)
            taken_pyramid = pyramid
            pyramids = tuple(p for p in s.pyramids if p[0] != dst)
            treasure[seat] = (*treasure[seat], pyramid)
            break
    for owner, row in enumerate(s.coins):
        for v, where in enumerate(row):
            if where == dst:
                coin = (owner, v)
                taken_coin = coin
                coins[owner][v] = None
                prisoners[seat] = (*prisoners[seat], coin)
    coins[seat][value] = dst
    s = frozen_replace(
        s,
        coins=tuple(tuple(row) for row in coins),
        pyramids=pyramids,
        treasure=tuple(treasure),
        prisoners=tuple(prisoners),
        last_seat=seat,
        last_from=here,
        last_to=dst,
        last_lost=False,
        last_pyramid=taken_pyramid,
        last_coin=taken_coin,
    )
    return _end_turn(s, captured=taken_pyramid is not None or taken_coin is not None)


@lru_cache(maxsize=4)
def _orders(seat: int) -> tuple[Arrange, ...]:
    """Every arrangement of ``seat``, the standard order first."""
    return tuple(Arrange(p, seat) for p in permutations(DEFAULT_ORDER))


def _arrange_refusal(s: TreasureState, seat: int) -> str | None:
    """Why ``seat`` may not set out its coins now, or None when it may."""
    if s.phase != Phase.ARRANGE:
        return "The coins are already set out; arranging happens only before the first roll."
    if not isinstance(seat, int) or not 0 <= seat < s.players or seat in s.out:
        return "That seat is not in the game."
    if s.arranged[seat]:
        return f"{seat_label(s, seat)} has already set out their coins; each player arranges once."
    return None


# ---------------------------------------------------------------------------------------------
# JSON validation


_READ = JsonReader("Martian Treasure Hunt")


def _square(geo: Geometry, value: Any, what: str) -> Sq:
    _READ.require(isinstance(value, str), what)
    match = _SQUARE_RE.match(value)
    _READ.require(match is not None, what)
    assert match is not None
    sq = (ord(match.group(1)) - 97, int(match.group(2)) - 1)
    _READ.require(sq in geo.squares, what)
    return sq


def _piece(value: Any, colours: str, what: str) -> tuple[str, int]:
    _READ.require(isinstance(value, str) and len(value) == 2 and value[0] in colours and value[1] in "123", what)
    return value[0], int(value[1])


def _decode(d: dict[str, Any]) -> TreasureState:
    d = _READ.record(d)
    _READ.require(d.get("game", "treasure") == "treasure", "another game")
    players = _READ.read_int(d, "players", 2, 4, "players")
    geo = geometry(players)
    stall = _READ.read_int(d, "stall_limit", 1, 500, "stall limit")
    phase = _READ.read_enum(d, "phase", Phase)
    turn = _READ.read_int(d, "turn", 0, players - 1, "turn")
    first = _READ.read_int(d, "first", 0, players - 1, "first player")
    arranged = _READ.check_list(_READ.field(d, "arranged"), "arranged", players)
    _READ.require(all(isinstance(x, bool) for x in arranged), "arranged")
    rows = _READ.check_list(_READ.field(d, "coins"), "coins", players)
    coins = tuple(
        tuple(None if x is None else _square(geo, x, "coin square") for x in _READ.check_list(row, "coins", 6))
        for row in rows
    )
    pyramids = []
    for item in _READ.check_list(_READ.field(d, "pyramids"), "pyramids"):
        entry = _READ.check_list(item, "pyramid", 3)
        sq = _square(geo, entry[0], "pyramid square")
        colour, pips = _piece(f"{entry[1]}{entry[2]}" if isinstance(entry[1], str) else None, "YPCW", "pyramid")
        pyramids.append((sq, colour, pips))
    pyramids_t = tuple(sorted(pyramids))
    treasure = tuple(
        tuple(_piece(x, "YPCW", "treasure pile") for x in _READ.check_list(pile, "treasure pile"))
        for pile in _READ.check_list(_READ.field(d, "treasure"), "treasure piles", players)
    )
    prisoners = tuple(
        tuple(
            (
                _READ.check_int(_READ.check_list(x, "prisoner", 2)[0], 0, players - 1, "prisoner"),
                _READ.check_int(x[1], 0, 5, "prisoner"),
            )
            for x in _READ.check_list(pile, "prisoners")
        )
        for pile in _READ.check_list(_READ.field(d, "prisoners"), "prisoner piles", players)
    )
    dice_raw = _READ.field(d, "dice")
    dice = (
        None
        if dice_raw is None
        else tuple(_READ.check_int(x, 0, 5, "dice") for x in _READ.check_list(dice_raw, "dice", 2))
    )
    quiet = _READ.read_int(d, "quiet", 0, 10**6, "quiet turns")
    out = tuple(
        _READ.check_int(x, 0, players - 1, "seat out") for x in _READ.check_list(_READ.field(d, "out"), "seats out")
    )
    _READ.require(len(set(out)) == len(out) and len(out) < players, "seats out")
    ranks_raw = _READ.field(d, "ranks")
    ranks = (
        None
        if ranks_raw is None
        else tuple(_READ.check_int(x, 1, players, "ranks") for x in _READ.check_list(ranks_raw, "ranks", players))
    )
    _READ.require((ranks is None) == (phase != "over"), "ranks")
    reason = _READ.field(d, "reason")
    _READ.require(isinstance(reason, str), "reason")
    last = _READ.field(d, "last")
    _READ.require(isinstance(last, dict), "last move")
    last_seat = (
        None
        if _READ.field(last, "seat") is None
        else _READ.check_int(_READ.field(last, "seat"), 0, players - 1, "last seat")
    )
    last_from = None if _READ.field(last, "from") is None else _square(geo, _READ.field(last, "from"), "last square")
    last_to = None if _READ.field(last, "to") is None else _square(geo, _READ.field(last, "to"), "last square")
    _READ.require(isinstance(_READ.field(last, "lost"), bool), "last lost")
    last_pyramid = (
        None if _READ.field(last, "pyramid") is None else _piece(_READ.field(last, "pyramid"), "YPCW", "last pyramid")
    )
    last_coin = None
    if _READ.field(last, "coin") is not None:
        pair = _READ.check_list(_READ.field(last, "coin"), "last coin", 2)
        last_coin = (_READ.check_int(pair[0], 0, players - 1, "last coin"), _READ.check_int(pair[1], 0, 5, "last coin"))
    active = [seat for seat in range(players) if seat not in out]
    if "quiet_rounds" in d:
        quiet_rounds = _READ.read_int(d, "quiet_rounds", 0, 500, "quiet rounds")
        quiet_seen = tuple(
            _READ.check_int(x, 0, players - 1, "quiet seats")
            for x in _READ.check_list(_READ.field(d, "quiet_seen"), "quiet seats")
        )
    else:  # stored before rounds were counted: the quiet turns as whole rounds, the rest as the round under way
        quiet_rounds, partial = divmod(quiet, len(active))
        quiet_rounds = min(quiet_rounds, stall)
        at = active.index(turn) if turn in active else 0
        before = list(reversed(active[at:] + active[:at]))  # the seats that played last, latest first
        quiet_seen = tuple(before[:partial]) if phase != "over" else ()
    _READ.require(len(set(quiet_seen)) == len(quiet_seen) and not set(quiet_seen) & set(out), "quiet seats")
    _READ.require(phase == "over" or quiet_rounds < stall, "quiet rounds")
    _READ.require(phase == "over" or not quiet_seen or not set(active) <= set(quiet_seen), "quiet seats")
    pending: tuple[tuple[int, ...] | None, ...] = ()
    if d.get("pending"):
        pending = tuple(
            None
            if order is None
            else tuple(_READ.check_int(v, 0, 5, "arrangement") for v in _READ.check_list(order, "arrangement", 6))
            for order in _READ.check_list(_READ.field(d, "pending"), "arrangements", players)
        )
        _READ.require(phase == "arrange", "arrangements kept after the coins were set out")
        _READ.require(
            all(order is None or tuple(sorted(order)) == DEFAULT_ORDER for order in pending), "arrangement values"
        )
        _READ.require(all((order is not None) <= arranged[seat] for seat, order in enumerate(pending)), "arrangements")
    # consistency: one piece per square, the phase matches the dice
    placed = [sq for row in coins for sq in row if sq is not None] + [p[0] for p in pyramids_t]
    _READ.require(len(placed) == len(set(placed)), "two pieces on one square")
    _READ.require(phase != "move" or (dice is not None and coins[turn][dice[0]] is not None), "dice")
    _READ.require(phase == "over" or turn not in out, "turn")
    _READ.require(phase == "over" or bool(pyramids_t), "a running game with no pyramid left")
    for seat, row in enumerate(coins):
        _READ.require(
            not any(sq in geo.barred[seat] for sq in row if sq is not None), "a coin in another player's back rows"
        )
    return TreasureState(
        players=players,
        stall_limit=stall,
        phase=phase,
        turn=turn,
        first=first,
        arranged=tuple(arranged),
        coins=coins,
        pyramids=pyramids_t,
        treasure=treasure,
        prisoners=prisoners,
        dice=dice,  # type: ignore[arg-type]
        quiet=quiet,
        out=out,
        ranks=ranks,
        reason=reason,
        last_seat=last_seat,
        last_from=last_from,
        last_to=last_to,
        last_lost=_READ.field(last, "lost"),
        last_pyramid=last_pyramid,
        last_coin=last_coin,
        quiet_rounds=quiet_rounds,
        quiet_seen=quiet_seen,
        pending=pending,
    )


RULES: Rules[TreasureState, Move] = TreasureRules()  # mypy checks the engine against the protocol
