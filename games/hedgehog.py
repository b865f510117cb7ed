"""Der Marsigelwettkampf (Martian Hedgehog Battle): race to stack your own tree on a shrinking ring.

Every player owns one trio (large, medium, small) of their colour.  The pieces start upright in a
ring, one per space.  On a turn the player rolls a d6 and spends the points moving their own pieces
around the ring (pips per space), carrying whatever sits on them, always ending on a pyramid of the
same size or larger.  A space left empty disappears.  The first to stand large, medium and small of
their colour in one stack, in that order and with nothing foreign between them, wins.

The rules as the bot plays them, notation included, are in ``docs/rules/hedgehog.md``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

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
    resolve_options,
)

LETTERS = "RYGBKOPCWX"
COLOUR_NAMES = ("red", "yellow", "green", "blue", "black", "orange", "purple", "cyan", "white", "clear")
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}
RAINBOW_COLOURS = 5
MAX_PLAYERS = 10
DIE_FACES = 6
CLOCKWISE = 1
ANTICLOCKWISE = -1

# Why a game ended; "" while it is running.
FINISH_TREE = "tree"
FINISH_PASSES = "passes"
FINISH_LIMIT = "limit"
FINISH_RESIGNED = "resigned"
FINISHES = ("", FINISH_TREE, FINISH_PASSES, FINISH_LIMIT, FINISH_RESIGNED)

TRACE_KINDS = ("roll", "move", "pass")


class Phase(StrEnum):
    """The step of the turn a game stands at.

    Not stored: a hedgehog state already tells it (``roll`` is None until the die is rolled and
    ``finish`` is set once the game has ended), so ``HedgehogState.phase`` derives it.
    """

    ROLL = "roll"
    MOVE = "move"
    OVER = "over"


ROUND_LIMIT = 40  # rounds before a game of several players is drawn (docs/rules/hedgehog.md)
SOLITAIRE_TURN_LIMIT = 200  # turns before a solitaire attempt fails


class Piece(NamedTuple):
    """One pyramid: the seat index of its colour and its pips (1 small, 2 medium, 3 large)."""

    colour: int
    pips: int

    @property
    def code(self) -> str:
        """Text code, e.g. ``R3`` for the red large."""
        return f"{LETTERS[self.colour]}{self.pips}"

    @property
    def words(self) -> str:
        """E.g. "red large"."""
        return f"{COLOUR_NAMES[self.colour]} {SIZE_WORDS[self.pips]}"


@dataclass(frozen=True)
class Space:
    """A space of the ring: its fixed label (1..3n, kept for the whole game) and its stack, bottom to top."""

    label: int
    stack: tuple[Piece, ...]

    @property
    def top(self) -> Piece:
        """The uppermost pyramid."""
        return self.stack[-1]

    @property
    def code(self) -> str:
        """The stack written bottom to top, e.g. ``R3/Y2/G1``."""
        return "/".join(p.code for p in self.stack)


@dataclass(frozen=True)
class Roll:
    """The die result of the turn, applied as a move."""

    value: int


@dataclass(frozen=True)
class Step:
    """Move ``piece`` (with everything above it) ``distance`` spaces; direction +1 clockwise, -1 anticlockwise."""

    piece: Piece
    direction: int
    distance: int


@dataclass(frozen=True)
class Pass:
    """End the turn, spending nothing more."""


Move = Roll | Step | Pass


@dataclass(frozen=True)
class Trace:
    """What the last action did, kept for the picture and the channel log.

    ``origin`` and ``target`` are space labels; ``vanished`` tells that the origin space disappeared;
    ``carried`` counts the pieces that moved, the moving piece included.  ``turn_over`` is set when
    the turn ended with this action, ``forced`` when it ended because nothing more could be done.
    """

    seat: int
    kind: str
    roll: int = 0
    piece: Piece | None = None
    direction: int = 0
    distance: int = 0
    origin: int = 0
    target: int = 0
    vanished: bool = False
    carried: int = 0
    cost: int = 0
    turn_over: bool = False
    forced: bool = False


@dataclass(frozen=True)
class HedgehogState:
    """A whole game position.

    ``spaces`` run clockwise.  ``roll`` is None until the player to move has rolled; ``points`` are
    the movement points still to spend; ``moved`` tells whether the current turn has moved a piece.
    ``passed`` lists the seats that have passed since a piece last moved; ``turns`` counts finished
    turns (the winning turn included).  ``out`` lists seats that left, in order.

    The limit (docs/rules/hedgehog.md, "Winning and the end of the game"): with several players it
    counts rounds, ``round_limit``, and ``seat_turns[seat]`` counts the turns each seat has had; the
    game stops once every seat still playing has had ``round_limit`` turns.  ``turn_limit`` is then
    ``round_limit`` times the players, the most turns the game can last.  In solitaire
    ``turn_limit`` is the solitaire limit and ``round_limit`` is 0.  A game stored before rounds
    were counted also has ``round_limit`` 0 and keeps its limit of ``turn_limit`` turns in all.
    """

    players: int
    xeno: bool
    turn_limit: int
    spaces: tuple[Space, ...]
    current: int
    roll: int | None
    points: int
    moved: bool
    passed: tuple[int, ...]
    turns: int
    out: tuple[int, ...]
    winner: int | None
    finish: str
    last: Trace | None = None
    round_limit: int = 0
    seat_turns: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.finish != ""

    @property
    def phase(self) -> Phase:
        """``OVER`` once ended, ``ROLL`` until the player to move has rolled, else ``MOVE``."""
        if self.over:
            return Phase.OVER
        return Phase.ROLL if self.roll is None else Phase.MOVE

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still playing, in seat order."""
        return tuple(seat for seat in range(self.players) if seat not in self.out)


# ---------------------------------------------------------------------------------------------
# Setup


def initial_ring(players: int) -> tuple[Space, ...]:
    """The starting ring: position i holds colour i mod n and size (large, medium, small)[k mod 3].

    k is i, or i + floor(i / n) when n is a multiple of 3, so that no colour repeats a size
    (docs/rules/hedgehog.md, Setup).
    """
    spaces = []
    for i in range(3 * players):
        shift = i // players if players % 3 == 0 else 0
        pips = 3 - (i + shift) % 3
        spaces.append(Space(i + 1, (Piece(i % players, pips),)))
    return tuple(spaces)


def colour_name(seat: int) -> str:
    """The capitalised colour of ``seat``, e.g. "Red"."""
    return COLOUR_NAMES[seat].capitalize()


# ---------------------------------------------------------------------------------------------
# Movement


def topmost_own(stack: tuple[Piece, ...], colour: int) -> int | None:
    """Index in ``stack`` of the uppermost piece of ``colour`` (the only one of them that may move)."""
    for index in range(len(stack) - 1, -1, -1):
        if stack[index].colour == colour:
            return index
    return None


def find_piece(spaces: tuple[Space, ...], piece: Piece) -> tuple[int, int]:
    """(space index, height in stack) of ``piece``."""
    for s_index, space in enumerate(spaces):
        for height, other in enumerate(space.stack):
            if other == piece:
                return s_index, height
    raise BadState(f"{piece.code} is missing from the ring.")


def destination(ring_size: int, origin: int, vanishes: bool, direction: int, distance: int) -> int | None:
    """Index (in the ring before the move) where a move ends, or None when it would end on its own space.

    When the origin empties it is removed before counting, so the other spaces form a ring of
    ``ring_size - 1`` and a long move may wrap past the gap (docs/rules/hedgehog.md, Vanishing spaces).
    """
    if vanishes:
        others = ring_size - 1
        if others < 1:
            return None
        steps = (distance - 1) % others + 1
        return (origin + direction * steps) % ring_size
    if distance % ring_size == 0:
        return None
    return (origin + direction * distance) % ring_size


def move_piece(spaces: tuple[Space, ...], origin: int, height: int, target: int) -> tuple[Space, ...]:
    """The ring after lifting ``spaces[origin].stack[height:]`` onto ``spaces[target]``.

    An emptied origin is removed from the ring.
    """
    lifted = spaces[origin].stack[height:]
    left = spaces[origin].stack[:height]
    out = []
    for index, space in enumerate(spaces):
        if index == origin:
            if left:
                out.append(Space(space.label, left))
        elif index == target:
            out.append(Space(space.label, space.stack + lifted))
        else:
            out.append(space)
    return tuple(out)


def trees(spaces: tuple[Space, ...]) -> dict[int, int]:
    """Colour -> label of the space where that colour stands large, medium, small in a row, bottom to top.

    Only consecutive pieces count: no piece of another colour may come between them.
    """
    found: dict[int, int] = {}
    for space in spaces:
        stack = space.stack
        for start in range(len(stack) - 2):
            low, mid, high = stack[start], stack[start + 1], stack[start + 2]
            if low.pips == 3 and mid.pips == 2 and high.pips == 1 and low.colour == mid.colour == high.colour:
                found[low.colour] = space.label
    return found


def has_tree(spaces: tuple[Space, ...], colour: int) -> int | None:
    """Label of the space where ``colour`` has its tree, or None."""
    return trees(spaces).get(colour)


def legal_steps(s: HedgehogState) -> list[Step]:
    """Every affordable step of the player to move: by piece (large first), clockwise first, nearest first."""
    if s.over or s.roll is None or s.points <= 0:
        return []
    colour = s.current
    ring = len(s.spaces)
    movers: list[tuple[Piece, int, int]] = []
    for index, space in enumerate(s.spaces):
        height = topmost_own(space.stack, colour)
        if height is not None:
            movers.append((space.stack[height], index, height))
    movers.sort(key=lambda item: -item[0].pips)
    steps: list[Step] = []
    for piece, index, height in movers:
        reach = s.points // piece.pips
        for direction in (CLOCKWISE, ANTICLOCKWISE):
            for distance in range(1, reach + 1):
                target = destination(ring, index, height == 0, direction, distance)
                if target is not None and s.spaces[target].top.pips >= piece.pips:
                    steps.append(Step(piece, direction, distance))
    return steps


def check_step(s: HedgehogState, m: Step) -> tuple[int, int, int]:
    """(origin index, height, target index) of a legal step; raises ``IllegalMove`` with the reason."""
    _check_turn(s)
    piece = m.piece
    mover = colour_name(s.current)
    if not (
        isinstance(piece, Piece)
        and 0 <= piece.colour < len(LETTERS)
        and piece.pips in (1, 2, 3)
        and m.direction in (CLOCKWISE, ANTICLOCKWISE)
        and isinstance(m.distance, int)
    ):
        raise IllegalMove("That is not a move of this game.")
    if piece.colour >= s.players:
        raise IllegalMove(f"There is no {COLOUR_NAMES[piece.colour]} piece in this game.")
    if piece.colour != s.current:
        raise IllegalMove(
            f"{piece.code} is {colour_name(piece.colour)}'s piece; {mover} moves only {COLOUR_NAMES[s.current]} pieces."
        )
    if m.distance < 1:
        raise IllegalMove("A move must go at least one space.")
    origin, height = find_piece(s.spaces, piece)
    stack = s.spaces[origin].stack
    top_own = topmost_own(stack, s.current)
    if top_own != height:
        above = stack[top_own].code if top_own is not None else "another of your pieces"
        raise IllegalMove(
            f"Only your topmost piece in a stack may move: {above} sits above "
            f"{piece.code} on space {s.spaces[origin].label}."
        )
    cost = piece.pips * m.distance
    if cost > s.points:
        raise IllegalMove(
            f"Moving {piece.code} {plural(m.distance, 'space')} costs {plural(cost, 'point')} "
            f"but {mover} has {s.points} left."
        )
    target = destination(len(s.spaces), origin, height == 0, m.direction, m.distance)
    if target is None:
        if len(s.spaces) == 1:
            raise IllegalMove(f"{piece.code} has no other space to go to.")
        raise IllegalMove(f"Moving {piece.code} {m.distance} spaces would end on its own space.")
    top = s.spaces[target].top
    if top.pips < piece.pips:
        raise IllegalMove(
            f"{piece.code} cannot end on space {s.spaces[target].label}: its top piece {top.code} is smaller."
        )
    return origin, height, target


def _check_turn(s: HedgehogState) -> None:
    if s.over:
        raise IllegalMove("The game is over.")
    if s.roll is None:
        raise IllegalMove(f"{colour_name(s.current)} must roll the die first.")


# ---------------------------------------------------------------------------------------------
# Turn flow


def everyone_passed(s: HedgehogState) -> bool:
    """True when every seat still playing has passed since a piece last moved (never in solitaire)."""
    return s.players > 1 and set(s.active) <= set(s.passed)


def next_seat(s: HedgehogState, seat: int) -> int:
    """The next seat after ``seat`` in colour order that is still playing."""
    for k in range(1, s.players + 1):
        candidate = (seat + k) % s.players
        if candidate not in s.out:
            return candidate
    return seat


def limit_reached(s: HedgehogState) -> bool:
    """True when the turn or round limit has been played out (docs/rules/hedgehog.md, "Winning")."""
    if s.round_limit:
        return all(s.seat_turns[seat] >= s.round_limit for seat in s.active)
    return s.turns >= s.turn_limit


def rounds_played(s: HedgehogState) -> int:
    """Complete rounds so far: the fewest turns any seat still playing has had (the turns, in solitaire)."""
    if s.players == 1 or not s.seat_turns:
        return s.turns
    return min(s.seat_turns[seat] for seat in s.active) if s.active else 0


def end_turn(s: HedgehogState, trace: Trace, forced: bool) -> HedgehogState:
    """Close the current turn: count a pass when no piece moved, then the draw and limit tests, then hand on."""
    passed = () if s.moved else s.passed if s.current in s.passed else (*s.passed, s.current)
    turns = s.turns + 1
    seat_turns = _counted(s.seat_turns, s.current)
    trace = frozen_replace(trace, turn_over=True, forced=forced)
    done = frozen_replace(
        s, passed=passed, turns=turns, seat_turns=seat_turns, roll=None, points=0, moved=False, last=trace
    )
    if everyone_passed(done):
        return frozen_replace(done, finish=FINISH_PASSES)
    if limit_reached(done):
        return frozen_replace(done, finish=FINISH_LIMIT)
    return frozen_replace(done, current=next_seat(s, s.current))


def _counted(seat_turns: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``seat_turns`` with one more turn for ``seat`` (a stored game without the counts keeps none)."""
    if not seat_turns:
        return seat_turns
    return (*seat_turns[:seat], seat_turns[seat] + 1, *seat_turns[seat + 1 :])


def apply_step(s: HedgehogState, m: Step) -> HedgehogState:
    """The state after a legal step, with the win test and the automatic end of an exhausted turn."""
    origin, height, target = check_step(s, m)
    before = s.spaces
    spaces = move_piece(before, origin, height, target)
    cost = m.piece.pips * m.distance
    trace = Trace(
        seat=s.current,
        kind="move",
        roll=s.roll or 0,
        piece=m.piece,
        direction=m.direction,
        distance=m.distance,
        origin=before[origin].label,
        target=before[target].label,
        vanished=height == 0,
        carried=len(before[origin].stack) - height,
        cost=cost,
    )
    after = frozen_replace(s, spaces=spaces, points=s.points - cost, moved=True, last=trace)
    # Win test after every move; the mover is tested first (docs/rules/hedgehog.md, Winning).
    standing = trees(spaces)
    if standing:
        for seat in (s.current, *(x for x in after.active if x != s.current)):
            if seat in standing:
                return frozen_replace(
                    after,
                    winner=seat,
                    finish=FINISH_TREE,
                    turns=s.turns + 1,
                    seat_turns=_counted(s.seat_turns, s.current),
                    roll=None,
                    points=0,
                )
    if not legal_steps(after):
        return end_turn(after, trace, forced=True)
    return after


def apply_roll(s: HedgehogState, m: Roll) -> HedgehogState:
    """The state after the die is rolled; a roll that allows no move ends the turn as a pass."""
    trace = Trace(seat=s.current, kind="roll", roll=m.value)
    rolled = frozen_replace(s, roll=m.value, points=m.value, moved=False, last=trace)
    if not legal_steps(rolled):
        return end_turn(rolled, frozen_replace(trace, kind="pass"), forced=True)
    return rolled


# ---------------------------------------------------------------------------------------------
# Notation

_STEP = re.compile(r"^([a-z])\s*([0-9])\s*([+-])\s*([0-9]{1,2})$")
_ROLL = re.compile(r"^roll\s*([0-9]{1,2})$")
_DASHES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\uff0b": "+"})


def normalise(text: str) -> str:
    """Lower case, no outer spaces, inner runs of spaces collapsed, typographic dashes made plain."""
    return " ".join(text.translate(_DASHES).strip().lower().split())


def parse(s: HedgehogState, text: str) -> Move:
    """A move from notation (see docs/rules/hedgehog.md, Notation); checks it against the position."""
    t = normalise(text)
    if not t:
        raise BadNotation("Type a move such as G2+3 (green medium 3 spaces clockwise), G2-3, or pass.")
    roll = _ROLL.match(t)
    if roll:
        value = int(roll.group(1))
        if not 1 <= value <= DIE_FACES:
            raise BadNotation(f"A die shows 1 to {DIE_FACES}, not {value}.")
        if s.over:
            raise IllegalMove("The game is over.")
        if s.roll is not None:
            raise IllegalMove(f"{colour_name(s.current)} has already rolled {s.roll} this turn.")
        return Roll(value)
    if t == "pass":
        _check_turn(s)
        return Pass()
    step = _STEP.match(t)
    if not step:
        raise BadNotation("That is not a move: write a piece, + or - and a number of spaces (G2+3, G2-3), or pass.")
    letter, pips = step.group(1).upper(), int(step.group(2))
    if letter not in LETTERS:
        raise BadNotation(f"{letter} is not a piece colour; colours are {', '.join(LETTERS)}.")
    if not 1 <= pips <= 3:
        raise BadNotation(f"A piece has 1, 2 or 3 pips, not {pips}.")
    move = Step(
        Piece(LETTERS.index(letter), pips), CLOCKWISE if step.group(3) == "+" else ANTICLOCKWISE, int(step.group(4))
    )
    check_step(s, move)
    return move


def notation(m: Move) -> str:
    """The notation of ``m``: ``roll 4``, ``G2+3``, ``G2-3`` or ``pass``."""
    if isinstance(m, Roll):
        return f"roll {m.value}"
    if isinstance(m, Step):
        return f"{m.piece.code}{'+' if m.direction == CLOCKWISE else '-'}{m.distance}"
    return "pass"


def points_text(points: int) -> str:
    """The count with its noun: "1 point", "3 points"."""
    return plural(points, "point")


def describe_step(s: HedgehogState, m: Step, after: HedgehogState) -> str:
    """The channel-log sentence for a legal step from ``s`` that led to ``after``."""
    origin, height, target = check_step(s, m)
    way = "clockwise" if m.direction == CLOCKWISE else "anticlockwise"
    carried = s.spaces[origin].stack[height + 1 :]
    carry = f" (carrying {'/'.join(p.code for p in carried)})" if carried else ""
    text = (
        f"{colour_name(s.current)} moves {m.piece.code}{carry} {m.distance} space{'s' if m.distance != 1 else ''} "
        f"{way} from space {s.spaces[origin].label} onto {s.spaces[target].top.code} on space "
        f"{s.spaces[target].label} for {points_text(m.piece.pips * m.distance)}."
    )
    if height == 0:
        text += f" Space {s.spaces[origin].label} vanishes."
    if after.over:
        return text
    if after.last is not None and after.last.turn_over:
        left = s.points - m.piece.pips * m.distance
        if left == 0:
            return text + " No points left: the turn ends."
        return text + f" No move can use the {points_text(left)} left: the turn ends."
    return text + f" {points_text(after.points)} left."


# ---------------------------------------------------------------------------------------------
# JSON

_READ = JsonReader("Marsigelwettkampf")


def _piece_json(p: Piece) -> str:
    return p.code


def _piece_from(value: Any, players: int) -> Piece:
    if not isinstance(value, str) or len(value) != 2 or value[0] not in LETTERS or value[1] not in "123":
        raise _READ.bad(f"{value!r} is not a piece code")
    piece = Piece(LETTERS.index(value[0]), int(value[1]))
    if piece.colour >= players:
        raise _READ.bad(f"{value} is not in a {players}-player game")
    return piece


def trace_to_json(t: Trace | None) -> dict[str, Any] | None:
    """The trace as a JSON-ready dict."""
    if t is None:
        return None
    return {
        "seat": t.seat,
        "kind": t.kind,
        "roll": t.roll,
        "piece": t.piece.code if t.piece else None,
        "direction": t.direction,
        "distance": t.distance,
        "origin": t.origin,
        "target": t.target,
        "vanished": t.vanished,
        "carried": t.carried,
        "cost": t.cost,
        "turn_over": t.turn_over,
        "forced": t.forced,
    }


def trace_from_json(d: Any, players: int) -> Trace | None:
    """The trace back from JSON; raises ``BadState``."""
    if d is None:
        return None
    d = _READ.record(d, "last")
    kind = _READ.read_str(d, "kind", choices=TRACE_KINDS, what="last.kind")
    piece = None if _READ.field(d, "piece") is None else _piece_from(_READ.field(d, "piece"), players)
    direction = _READ.field(d, "direction")
    if direction not in (-1, 0, 1) or isinstance(direction, bool):
        raise _READ.bad("last.direction must be -1, 0 or 1")
    big = 3 * MAX_PLAYERS
    return Trace(
        seat=_READ.read_int(d, "seat", 0, players - 1),
        kind=kind,
        roll=_READ.read_int(d, "roll", 0, DIE_FACES),
        piece=piece,
        direction=direction,
        distance=_READ.read_int(d, "distance", 0, 99),
        origin=_READ.read_int(d, "origin", 0, big),
        target=_READ.read_int(d, "target", 0, big),
        vanished=_READ.read_flag(d, "vanished"),
        carried=_READ.read_int(d, "carried", 0, big),
        cost=_READ.read_int(d, "cost", 0, DIE_FACES),
        turn_over=_READ.read_flag(d, "turn_over"),
        forced=_READ.read_flag(d, "forced"),
    )


def state_to_json(s: HedgehogState) -> dict[str, Any]:
    """The state as a JSON-ready dict."""
    return {
        "players": s.players,
        "xeno": s.xeno,
        "turn_limit": s.turn_limit,
        "spaces": [[space.label, [_piece_json(p) for p in space.stack]] for space in s.spaces],
        "current": s.current,
        "roll": s.roll,
        "points": s.points,
        "moved": s.moved,
        "passed": list(s.passed),
        "turns": s.turns,
        "out": list(s.out),
        "winner": s.winner,
        "finish": s.finish,
        "last": trace_to_json(s.last),
        "round_limit": s.round_limit,
        "seat_turns": list(s.seat_turns),
    }


def state_from_json(d: Any) -> HedgehogState:
    """The state back from ``state_to_json``; raises ``BadState`` on damaged data."""
    d = _READ.record(d)
    players = _READ.read_int(d, "players", 1, MAX_PLAYERS)
    xeno = _READ.read_flag(d, "xeno")
    if players > RAINBOW_COLOURS and not xeno:
        raise _READ.bad("more than 5 players need the xeno option")
    raw_spaces = _READ.read_list(d, "spaces")
    if not raw_spaces:
        raise _READ.bad("spaces must be a non-empty list")
    spaces = []
    for entry in raw_spaces:
        if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], list) or not entry[1]:
            raise _READ.bad("each space must be [label, [pieces...]] with at least one piece")
        label = entry[0]
        if not isinstance(label, int) or isinstance(label, bool) or not 1 <= label <= 3 * players:
            raise _READ.bad(f"space label {label!r} is out of range")
        spaces.append(Space(label, tuple(_piece_from(p, players) for p in entry[1])))
    labels = [space.label for space in spaces]
    if len(set(labels)) != len(labels):
        raise _READ.bad("two spaces share a label")
    pieces = sorted(p for space in spaces for p in space.stack)
    if pieces != sorted(Piece(c, pips) for c in range(players) for pips in (1, 2, 3)):
        raise _READ.bad("the ring must hold each player's large, medium and small exactly once")
    out = _READ.read_seats(d, "out", players)
    finish = _READ.read_str(d, "finish", choices=FINISHES)
    roll = _READ.read_int_or_none(d, "roll", 1, DIE_FACES)
    points = _READ.read_int(d, "points", 0, DIE_FACES)
    if roll is None and points:
        raise _READ.bad("there can be no points left before the roll")
    if roll is not None and points > roll:
        raise _READ.bad("more points are left than were rolled")
    state = HedgehogState(
        players=players,
        xeno=xeno,
        turn_limit=_READ.read_int(d, "turn_limit", 1, 100_000),
        spaces=tuple(spaces),
        current=_READ.read_int(d, "current", 0, players - 1),
        roll=roll,
        points=points,
        moved=_READ.read_flag(d, "moved"),
        passed=_READ.read_seats(d, "passed", players),
        turns=_READ.read_int(d, "turns", 0, 100_000),
        out=tuple(out),
        winner=_READ.read_int_or_none(d, "winner", 0, players - 1),
        finish=finish,
        last=trace_from_json(_READ.field(d, "last"), players),
        # Games stored before rounds were counted have neither: they keep their total-turn limit.
        round_limit=_READ.read_int(d, "round_limit", 0, 100_000) if "round_limit" in d else 0,
        seat_turns=_turn_counts(d, players),
    )
    if state.round_limit and (players == 1 or state.turn_limit != state.round_limit * players):
        raise _READ.bad("the round limit does not match the turn limit")
    if state.seat_turns and (
        sum(state.seat_turns) != state.turns or max(state.seat_turns) > max(state.round_limit, state.turn_limit)
    ):
        raise _READ.bad("the turns counted per seat do not add up")
    if state.round_limit and not state.seat_turns:
        raise _READ.bad("a game with a round limit must count each seat's turns")
    if (state.winner is not None) != (finish in (FINISH_TREE,) or (finish == FINISH_RESIGNED and players > 1)):
        raise _READ.bad("the winner does not match how the game ended")
    if state.turns > state.turn_limit:
        raise _READ.bad("more turns were played than the turn limit allows")
    if not state.over and state.current in state.out:
        raise _READ.bad("the seat to move has left the game")
    if not state.over and any(seat in trees(state.spaces) for seat in state.active):
        raise _READ.bad("it is marked as running, but a player has built a tree")
    return state


def _turn_counts(d: Mapping[str, Any], players: int) -> tuple[int, ...]:
    # Games stored before rounds were counted have no seat_turns: an empty list.
    value = _READ.check_list(d.get("seat_turns", []), "seat_turns")
    _READ.require(not value or len(value) == players, "seat_turns must give one count per seat")
    return tuple(_READ.check_int(x, 0, 100_000, "a count in seat_turns") for x in value)


# ---------------------------------------------------------------------------------------------
# The Rules object


class HedgehogRules:
    """Der Marsigelwettkampf for 1-5 players (up to 10 with the Xeno option); 1 player is solitaire."""

    name = "hedgehog"
    title = "Der Marsigelwettkampf"
    min_players = 1
    max_players = MAX_PLAYERS
    options: tuple[OptionSpec, ...] = (
        OptionSpec("xeno", "Add the Xeno set's colours (orange, purple, cyan, white, clear) for 6-10 players.", False),
        OptionSpec(
            "round_limit",
            "Rounds before the game is drawn: it stops once every player has had this many turns.",
            ROUND_LIMIT,
            minimum=1,
            maximum=2_000,
        ),
        OptionSpec(
            "turn_limit",
            "Solitaire only: turns before the attempt fails.",
            SOLITAIRE_TURN_LIMIT,
            minimum=1,
            maximum=10_000,
        ),
    )

    def new_game(self, players: int, options: Mapping[str, Any], rng: random.Random) -> HedgehogState:
        """The ring laid out for ``players``; the first player drawn from ``rng``."""
        opts = resolve_options(self.options, options)
        if not 1 <= players <= MAX_PLAYERS:
            raise BadOptions(f"Der Marsigelwettkampf is for 1 to {MAX_PLAYERS} players.")
        if players > RAINBOW_COLOURS and not opts["xeno"]:
            raise BadOptions("More than 5 players need the xeno option (the Xeno set adds five colours).")
        solitaire = players == 1
        rounds = 0 if solitaire else opts["round_limit"]
        return HedgehogState(
            players=players,
            xeno=opts["xeno"],
            turn_limit=opts["turn_limit"] if solitaire else rounds * players,
            spaces=initial_ring(players),
            current=rng.randrange(players),
            roll=None,
            points=0,
            moved=False,
            passed=(),
            turns=0,
            out=(),
            winner=None,
            finish="",
            round_limit=rounds,
            seat_turns=(0,) * players,
        )

    def to_move(self, s: HedgehogState) -> int | None:
        """The seat whose turn it is; None once over."""
        return None if s.over else s.current

    def pending_roll(self, s: HedgehogState) -> bool:
        """True at the start of a turn, before the die is rolled."""
        return not s.over and s.roll is None

    def roll(self, s: HedgehogState, rng: random.Random) -> Roll:
        """One d6."""
        return Roll(rng.randint(1, DIE_FACES))

    def legal_moves(self, s: HedgehogState) -> Sequence[Move]:
        """Every affordable step, then ``pass``; empty while a roll is pending or once over."""
        if s.over or s.roll is None:
            return ()
        return (*legal_steps(s), Pass())

    def apply(self, s: HedgehogState, m: Move) -> HedgehogState:
        """The state after ``m``; raises ``IllegalMove``."""
        if isinstance(m, Roll):
            if s.over:
                raise IllegalMove("The game is over.")
            if s.roll is not None:
                raise IllegalMove(f"{colour_name(s.current)} has already rolled {s.roll} this turn.")
            if not isinstance(m.value, int) or not 1 <= m.value <= DIE_FACES:
                raise IllegalMove(f"A die shows 1 to {DIE_FACES}.")
            return apply_roll(s, m)
        if isinstance(m, Step):
            return apply_step(s, m)
        if isinstance(m, Pass):
            _check_turn(s)
            return end_turn(s, Trace(seat=s.current, kind="pass", roll=s.roll or 0), forced=False)
        raise IllegalMove("That is not a move of this game.")

    def resign(self, s: HedgehogState, seat: int) -> HedgehogState:
        """``seat`` leaves; its pieces stay in the ring where they stand (docs/rules/hedgehog.md, Leaving)."""
        if s.over or seat in s.out or not 0 <= seat < s.players:
            return s
        left = frozen_replace(s, out=(*s.out, seat))
        if s.players == 1:
            return frozen_replace(left, finish=FINISH_RESIGNED, roll=None, points=0)
        active = left.active
        if len(active) == 1:
            return frozen_replace(left, finish=FINISH_RESIGNED, winner=active[0], roll=None, points=0)
        if seat == s.current:
            passed = () if s.moved else s.passed
            left = frozen_replace(left, current=next_seat(left, seat), roll=None, points=0, moved=False, passed=passed)
        if everyone_passed(left):
            return frozen_replace(left, finish=FINISH_PASSES, roll=None, points=0)
        if s.round_limit and limit_reached(left):  # the leaver was the only one short of the last round
            return frozen_replace(left, finish=FINISH_LIMIT, roll=None, points=0)
        return left

    def timeout_move(self, s: HedgehogState) -> Move | None:
        """A player out of time passes (ending the turn, keeping the moves already made)."""
        if s.over or s.roll is None:
            return None
        return Pass()

    def outcome(self, s: HedgehogState) -> Outcome | None:
        """Ranks and reason once over; solitaire records the turns taken as its score."""
        if not s.over:
            return None
        if s.players == 1:
            scores = (float(s.turns),)
            if s.finish == FINISH_TREE:
                return Outcome((1,), f"Red built a tree in {plural(s.turns, 'turn')}.", scores)
            if s.finish == FINISH_LIMIT:
                return Outcome((2,), f"Failed: no tree within the limit of {plural(s.turn_limit, 'turn')}.", scores)
            return Outcome((2,), f"Failed: Red gave up after {plural(s.turns, 'turn')}.", scores)
        if s.finish == FINISH_TREE and s.winner is not None:
            where = has_tree(s.spaces, s.winner)
            return Outcome(
                default_resign_ranks(s.out, s.players, [s.winner]),
                f"{colour_name(s.winner)} built a tree on space {where}.",
            )
        if s.finish == FINISH_RESIGNED and s.winner is not None:
            return Outcome(
                default_resign_ranks(s.out, s.players, [s.winner]),
                "Every other player left the game.",
            )
        if s.finish == FINISH_PASSES:
            reason = "Every player passed in one full round."
        elif s.round_limit:
            reason = (
                f"The limit of {plural(s.round_limit, 'round')} was reached "
                f"(every player has had {plural(s.round_limit, 'turn')})."
            )
        else:
            reason = f"The turn limit of {plural(s.turn_limit, 'turn')} was reached."
        return Outcome(default_resign_ranks(s.out, s.players, s.active), reason)

    def parse_move(self, s: HedgehogState, text: str) -> Move:
        """``roll N``, ``G2+3`` (clockwise), ``G2-3`` (anticlockwise) or ``pass``; forgiving about case and spaces."""
        return parse(s, text)

    def format_move(self, s: HedgehogState, m: Move) -> str:
        """The notation of ``m``."""
        return notation(m)

    def public_notation(self, s: HedgehogState, notation: str) -> str:
        """Every move of this game is public: its notation as logged."""
        return notation

    def play(self, s: HedgehogState, m: Move) -> Played[HedgehogState]:
        """The state after ``m`` and a sentence for the channel log, with what followed (a vanished
        space, the end of turn, the result)."""
        after = self.apply(s, m)
        return Played(after, self._describe(s, m, after))

    def _describe(self, s: HedgehogState, m: Move, after: HedgehogState) -> str:
        who = colour_name(s.current)
        if isinstance(m, Roll):
            text = f"{who} rolls {m.value}."
            if after.last is not None and after.last.kind == "pass":
                text = f"{who} rolls {m.value} and has no legal move, so passes."
        elif isinstance(m, Step):
            text = describe_step(s, m, after)
        elif s.moved:
            text = f"{who} ends the turn with {points_text(s.points)} unused."
        else:
            text = f"{who} passes."
        result = self.outcome(after)
        if result is not None:
            text += f" {result.reason}"
        return text

    def choice(self, s: HedgehogState, m: Move) -> Choice:
        """Pass (or End turn, once a piece has moved) is a button; each step goes in the menu."""
        if isinstance(m, Pass):
            if s.moved:
                return make_choice("end", "End turn", f"End the turn with {points_text(s.points)} unused.")
            return make_choice("pass", "Pass", "Spend nothing and end the turn.")
        if isinstance(m, Roll):
            return make_choice("roll", "Roll", "Roll the die.")
        way = "clockwise" if m.direction == CLOCKWISE else "anticlockwise"
        cost = m.piece.pips * m.distance
        try:
            _, _, target = check_step(s, m)
            onto = f" onto space {s.spaces[target].label}"
        except IllegalMove:
            onto = ""
        return make_choice(
            "move",
            f"{notation(m)}{onto}",
            f"The {m.piece.words} goes {m.distance} {'space' if m.distance == 1 else 'spaces'} {way}{onto}, "
            f"costing {points_text(cost)}.",
        )

    def seat_name(self, s: HedgehogState, seat: int) -> str:
        """The seat's colour, e.g. "Red"."""
        return colour_name(seat)

    def status_line(self, s: HedgehogState) -> str:
        """Whose turn, rolled or not, points left, turn count."""
        result = self.outcome(s)
        if result is not None:
            return f"Game over. {result.reason}"
        who = colour_name(s.current)
        if s.round_limit:
            turn = f"round {rounds_played(s) + 1} of {s.round_limit}"
        else:
            turn = f"turn {s.turns + 1} of {s.turn_limit}"
        if s.roll is None:
            return f"{who} to roll ({turn})."
        return f"{who} to move: rolled {s.roll}, {s.points} point{'s' if s.points != 1 else ''} left ({turn})."

    def to_json(self, s: HedgehogState) -> dict[str, Any]:
        """A JSON-ready dict of the state."""
        return state_to_json(s)

    def from_json(self, d: dict[str, Any]) -> HedgehogState:
        """The state back from ``to_json``; raises ``BadState``."""
        return state_from_json(d)


RULES: Rules[HedgehogState, Move] = HedgehogRules()  # mypy checks the engine against the protocol
