"""The Martian Assassination Game: one victim runs for the four bases while the assassins hunt it.

The rules this engine follows, with every decision the table rules leave open, are on the
project's rules page ``docs/rules/assassin.md``; comments below point to its sections (§).

Squares are numbered ``rank * size + file`` from a1 = 0; the safehouse, the missing centre tile,
is one space of its own, ``SAFE``.  The legal moves after a roll are the squares the mover can
reach; the engine picks the path shown for a chosen square (§ Moves and notation).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
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
    frozen_replace,
    make_choice,
    plural,
    quote_typed,
    resolve_options,
)

SAFE = -1
"""The safehouse as a position: one space adjacent to the eight squares around it."""

FILES = "abcdefghijkl"
SEAT_COLOURS = ("R", "B", "Y", "G", "K", "P", "C", "O", "W")
COLOUR_WORDS = {
    "R": "Red",
    "B": "Blue",
    "Y": "Yellow",
    "G": "Green",
    "K": "Black",
    "P": "Purple",
    "C": "Cyan",
    "O": "Orange",
    "W": "White",
}
TURN_LIMIT = 200
DIE_FACES = ("null", "ace", "2", "3", "4", "5")


class Phase(StrEnum):
    """The step of the turn the game stands at; stored in JSON as the plain string."""

    ROLL = "roll"
    MOVE = "move"
    NULL = "null"
    OVER = "over"


PHASES = tuple(Phase)
ENDS = ("bases", "limit", "alone")


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class Board:
    """The geometry of one board size: safehouse, bases, start squares and neighbours."""

    size: int
    safehouse: frozenset[int]
    exits: tuple[int, ...]
    bases: tuple[int, ...]
    corners: tuple[int, ...]
    beside_corners: tuple[int, ...]
    orthogonal: tuple[tuple[int, ...], ...]
    diagonal: tuple[tuple[int, ...], ...]

    def square(self, file: int, rank: int) -> int:
        """The square index of 0-based ``file`` and ``rank``."""
        return rank * self.size + file

    def coords(self, square: int) -> tuple[int, int]:
        """(file, rank), both 0-based."""
        return square % self.size, square // self.size

    def name(self, square: int) -> str:
        """``e4`` for a square, ``safehouse`` for the safehouse."""
        if square == SAFE:
            return "safehouse"
        file, rank = self.coords(square)
        return f"{FILES[file]}{rank + 1}"

    def neighbours(self, square: int, diagonal: bool) -> tuple[int, ...]:
        """Where one step from ``square`` can go; the safehouse is left orthogonally only (§ Movement)."""
        if square == SAFE:
            return self.exits
        if diagonal:
            return self.orthogonal[square] + self.diagonal[square]
        return self.orthogonal[square]


@lru_cache(maxsize=4)
def board(size: int) -> Board:
    """The board of ``size`` x ``size`` squares (10 or 12)."""
    half = size // 2
    lo, hi = half - 1, half

    def sq(file: int, rank: int) -> int:
        return rank * size + file

    safehouse = frozenset(sq(f, r) for f in (lo, hi) for r in (lo, hi))
    exits = (
        sq(lo - 1, lo),
        sq(lo - 1, hi),
        sq(hi + 1, lo),
        sq(hi + 1, hi),
        sq(lo, lo - 1),
        sq(hi, lo - 1),
        sq(lo, hi + 1),
        sq(hi, hi + 1),
    )
    bases = (sq(lo, 0), sq(size - 1, lo), sq(hi, size - 1), sq(0, hi))
    top = size - 1
    corners = (sq(0, 0), sq(top, top), sq(top, 0), sq(0, top))
    beside = (
        sq(0, 1),
        sq(1, 0),
        sq(top, top - 1),
        sq(top - 1, top),
        sq(top, 1),
        sq(top - 1, 0),
        sq(0, top - 1),
        sq(1, top),
    )

    def steps(square: int, deltas: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        if square in safehouse:
            return ()
        file, rank = square % size, square // size
        out = []
        for df, dr in deltas:
            f, r = file + df, rank + dr
            if 0 <= f < size and 0 <= r < size and sq(f, r) not in safehouse:
                out.append(sq(f, r))
        return tuple(out)

    orth_deltas = ((0, 1), (1, 0), (0, -1), (-1, 0))
    diag_deltas = ((1, 1), (1, -1), (-1, -1), (-1, 1))
    return Board(
        size=size,
        safehouse=safehouse,
        exits=exits,
        bases=bases,
        corners=corners,
        beside_corners=beside,
        orthogonal=tuple(steps(s, orth_deltas) for s in range(size * size)),
        diagonal=tuple(steps(s, diag_deltas) for s in range(size * size)),
    )


def assassin_starts(size: int, assassins: int) -> tuple[int, ...]:
    """Starting squares for ``assassins`` assassins, in turn order (§ Setup)."""
    geometry = board(size)
    if assassins <= 4:
        return geometry.corners[:assassins]
    return geometry.beside_corners[:assassins]


@lru_cache(maxsize=8192)
def reach(
    size: int,
    diagonal: bool,
    start: int,
    steps: int,
    no_pass: frozenset[int],
    no_end: frozenset[int],
) -> tuple[int, ...]:
    """Every square reachable in exactly ``steps`` steps, sorted by file, then rank.

    A step never goes straight back to the square just left; ``no_pass`` squares may not be
    stepped on before the last step and ``no_end`` squares may not be the last.  Squares may be
    revisited (§ Movement).
    """
    geometry = board(size)
    layer: set[tuple[int, int]] = {(start, SAFE - 1)}
    for k in range(1, steps + 1):
        blocked = no_end if k == steps else no_pass
        layer = {
            (step, pos)
            for pos, prev in layer
            for step in geometry.neighbours(pos, diagonal)
            if step != prev and step not in blocked
        }
    return tuple(sorted({pos for pos, _ in layer}, key=lambda s: (s % size, s // size)))


@lru_cache(maxsize=1024)
def steps_between(size: int, diagonal: bool, start: int, end: int) -> int:
    """The fewest steps from ``start`` (``SAFE``: the safehouse) to ``end``, around the safehouse."""
    geometry = board(size)
    seen, layer, count = {start}, [start], 0
    while layer and end not in seen:
        count += 1
        layer = [step for pos in layer for step in geometry.neighbours(pos, diagonal) if step not in seen]
        seen.update(layer)
    return count


@lru_cache(maxsize=512)
def _distances(size: int, diagonal: bool, end: int) -> tuple[int, ...]:
    """Steps from every square to ``end`` on an empty board (a lower bound used to prune paths)."""
    end_file, end_rank = end % size, end // size
    out = []
    for square in range(size * size):
        df, dr = abs(square % size - end_file), abs(square // size - end_rank)
        out.append(max(df, dr) if diagonal else df + dr)
    return tuple(out)


@lru_cache(maxsize=1024)
def route(
    size: int,
    diagonal: bool,
    start: int,
    steps: int,
    no_pass: frozenset[int],
    no_end: frozenset[int],
    end: int,
) -> tuple[int, ...]:
    """The path shown for a move to ``end``: the fewest turns, then the lowest squares (§ Moves and notation).

    Returns the squares from ``start`` to ``end``; empty when ``end`` cannot be reached.
    """
    geometry = board(size)
    distance = _distances(size, diagonal, end)
    layer: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(start, SAFE - 1): (0, (start,))}
    for k in range(1, steps + 1):
        blocked = no_end if k == steps else no_pass
        nxt: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (pos, prev), (turns, path) in layer.items():
            for step in geometry.neighbours(pos, diagonal):
                if step == prev or step in blocked or distance[step] > steps - k:
                    continue
                cost = turns + (prev >= 0 and step - pos != pos - prev)
                candidate = (cost, (*path, step))
                best = nxt.get((step, pos))
                if best is None or candidate < best:
                    nxt[(step, pos)] = candidate
        layer = nxt
    return min(layer.values())[1] if layer else ()


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Last:
    """What just happened, for pictures and the log: who acted, the die, the path, a capture, a base."""

    seat: int | None = None
    roll: int | None = None
    path: tuple[int, ...] = ()
    captured: int | None = None
    base: int | None = None
    passed: bool = False


@dataclass(frozen=True)
class State:
    """A whole game position.

    ``positions[seat]`` is a square, ``SAFE`` or None for a seat that has left.  ``markers[seat]``
    holds the bases (square numbers, sorted) the seat has marked.  ``turn`` is the seat whose turn
    it is and ``anchor`` the assassin who moved last, from which the next assassin is counted.
    ``phase`` is ``roll``, ``move`` (``die`` is set), ``null`` (the victim rolled a null) or ``over``.
    """

    players: int
    size: int
    short_game: bool
    limit: int
    victim: int
    positions: tuple[int | None, ...]
    markers: tuple[tuple[int, ...], ...]
    captures: tuple[int, ...]
    turn: int
    anchor: int
    phase: Phase
    die: int | None
    victim_turns: int
    out: tuple[int, ...] = ()
    winner: int | None = None
    end: str | None = None
    last: Last = field(default_factory=Last)

    @property
    def diagonal(self) -> bool:
        """The victim may step diagonally: 5 or more assassins at the start (§ Movement)."""
        return self.players >= 6

    @property
    def board(self) -> Board:
        """The board geometry."""
        return board(self.size)

    @cached_property
    def reachable(self) -> tuple[int, ...]:
        """The squares the mover may choose now (empty outside the move phase); computed once per state."""
        if self.phase != "move" or self.die is None:
            return ()
        return reach(*_walk(self))

    def active(self) -> tuple[int, ...]:
        """Seats still playing."""
        return tuple(seat for seat in range(self.players) if seat not in self.out)

    def assassins(self) -> tuple[int, ...]:
        """Seats still playing as assassins."""
        return tuple(seat for seat in self.active() if seat != self.victim)

    def occupant(self, square: int) -> int | None:
        """The seat whose piece stands on ``square``."""
        for seat, pos in enumerate(self.positions):
            if pos == square:
                return seat
        return None


@dataclass(frozen=True)
class Roll:
    """The die result: 0 is the null, 1 the ace."""

    value: int


@dataclass(frozen=True)
class Move:
    """Move the piece to ``to``, one of the squares the roll reaches."""

    to: int


@dataclass(frozen=True)
class Reroll:
    """After a null, the victim rolls again."""


@dataclass(frozen=True)
class Stay:
    """After a null, the victim keeps it and does not move this turn."""


AssassinMove = Roll | Move | Reroll | Stay


def die_word(value: int) -> str:
    """``null``, ``ace``, ``2``... for a die value."""
    return DIE_FACES[value]


def _a_die(value: int) -> str:
    return {0: "a null", 1: "an ace"}.get(value, f"a {value}")


# --------------------------------------------------------------------------- rules helpers


def _and_list(words: Sequence[str]) -> str:
    """``e1``, ``e1 and j5``, ``e1, j5 and a6``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def _walk(s: State) -> tuple[int, bool, int, int, frozenset[int], frozenset[int]]:
    """The arguments of ``reach`` and ``route`` for the mover's current die."""
    mover = s.turn
    start = s.positions[mover]
    assert start is not None and s.die is not None
    assassin_squares = frozenset(
        pos for seat, pos in enumerate(s.positions) if pos is not None and pos != SAFE and seat != s.victim
    )
    if mover == s.victim:
        # § Movement, victim: never over or onto an assassin; the safehouse is not re-entered
        return s.size, s.diagonal, start, s.die, assassin_squares, assassin_squares | {start}
    victim_square = s.positions[s.victim]
    no_pass = frozenset() if victim_square in (None, SAFE) else frozenset({victim_square})
    others = assassin_squares - {start}
    # § Movement, assassin: over assassins and bases but not the victim; ends on neither
    return s.size, False, start, s.die, no_pass, others | frozenset(s.board.bases) | {start}


def targets(s: State) -> tuple[int, ...]:
    """The reachable end squares for the mover's current die."""
    return s.reachable


def path_to(s: State, end: int) -> tuple[int, ...]:
    """The path shown for the mover's move to ``end`` (empty when unreachable)."""
    if s.phase != "move" or s.die is None:
        return ()
    return route(*_walk(s), end)


def next_assassin(s: State, after: int) -> int | None:
    """The first seat after ``after`` (cyclically) still playing as an assassin."""
    for k in range(1, s.players + 1):
        seat = (after + k) % s.players
        if seat != s.victim and seat not in s.out:
            return seat
    return None


def _end_turn(s: State, last: Last) -> State:
    """Hand the turn on: an assassin's turn is followed by the victim's and the victim's by the next assassin's."""
    if s.turn != s.victim:
        return frozen_replace(s, turn=s.victim, phase=Phase.ROLL, die=None, last=last)
    done = s.victim_turns + 1
    if s.limit and done >= s.limit:
        return frozen_replace(s, phase=Phase.OVER, die=None, victim_turns=done, end="limit", last=last)
    following = next_assassin(s, s.anchor)
    assert following is not None
    return frozen_replace(s, turn=following, anchor=following, phase=Phase.ROLL, die=None, victim_turns=done, last=last)


def _after_roll(s: State, value: int) -> State:
    mover = s.turn
    if value == 0:
        if mover == s.victim:
            return frozen_replace(s, phase=Phase.NULL, die=0, last=Last(seat=mover, roll=0))
        return _end_turn(s, Last(seat=mover, roll=0, passed=True))
    rolled = frozen_replace(s, phase=Phase.MOVE, die=value, last=Last(seat=mover, roll=value))
    if not targets(rolled):
        return _end_turn(s, Last(seat=mover, roll=value, passed=True))
    return rolled


def _after_move(s: State, to: int, path: tuple[int, ...]) -> State:
    mover = s.turn
    assert s.die is not None
    positions = list(s.positions)
    if mover != s.victim:
        if s.positions[s.victim] == to:
            return _capture(s, mover, path)
        positions[mover] = to
        return _end_turn(frozen_replace(s, positions=tuple(positions)), Last(seat=mover, roll=s.die, path=path))
    positions[mover] = to
    markers = list(s.markers)
    new_base = None
    if to in s.board.bases and to not in markers[mover]:
        new_base = to
        markers[mover] = tuple(sorted((*markers[mover], to)))
    last = Last(seat=mover, roll=s.die, path=path, base=new_base)
    moved = frozen_replace(s, positions=tuple(positions), markers=tuple(markers))
    if len(markers[mover]) == len(s.board.bases):
        return frozen_replace(
            moved, phase=Phase.OVER, die=None, winner=mover, end="bases", last=last, victim_turns=s.victim_turns + 1
        )
    return _end_turn(moved, last)


def _capture(s: State, capturer: int, path: tuple[int, ...]) -> State:
    """§ Capture: the capturer becomes the victim in the safehouse and moves next."""
    old = s.victim
    positions = list(s.positions)
    positions[capturer] = SAFE
    markers = list(s.markers)
    if not s.short_game:
        markers[old] = ()
    captures = list(s.captures)
    captures[capturer] += 1
    return frozen_replace(
        s,
        victim=capturer,
        positions=tuple(positions),
        markers=tuple(markers),
        captures=tuple(captures),
        turn=capturer,
        anchor=capturer,
        phase=Phase.ROLL,
        die=None,
        last=Last(seat=capturer, roll=s.die, path=path, captured=old),
    )


def _competition_ranks(seats: Sequence[int], key: Any, first: int) -> dict[int, int]:
    """Ranks from ``first`` by ``key`` (higher is better); equal keys share a rank."""
    return {seat: first + sum(1 for other in seats if key(other) > key(seat)) for seat in seats}


# --------------------------------------------------------------------------- notation

_SQUARE = re.compile(r"^([a-z])(\d{1,2})$")
_DIE_WORDS = {"null": 0, "n": 0, "0": 0, "ace": 1, "a": 1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
_REROLL = {"reroll", "re-roll", "re roll", "roll again"}
_STAY = {"stay", "keep", "keep null", "stay put"}


# --------------------------------------------------------------------------- the rules object


class AssassinRules:
    """The Martian Assassination Game for 3 to 9 players."""

    name = "assassin"
    title = "The Martian Assassination Game"
    min_players = 3
    max_players = 9
    options: tuple[OptionSpec, ...] = (
        OptionSpec("board", "Board size: 10 (10x10), or 12 (12x12, for 6 to 9 players)", 10, choices=(10, 12)),
        OptionSpec("short_game", "Short game: base markers survive captures; four bases in total wins", False),
        OptionSpec("turn_limit", f"Finish the game at {TURN_LIMIT} victim turns, ranked by bases then captures", True),
    )

    # ----------------------------------------------------------------- setup and turn

    def new_game(self, players: int, options: Mapping[str, Any], rng: random.Random) -> State:
        """A fresh game: a random victim in the safehouse, the assassins on their start squares."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise BadOptions(f"The Martian Assassination Game is for {self.min_players} to {self.max_players} players.")
        opts = resolve_options(self.options, options)
        size = opts["board"]
        if size == 12 and players < 6:
            raise BadOptions("The 12x12 board is for 6 to 9 players.")
        victim = rng.randrange(players)
        order = [(victim + k) % players for k in range(1, players)]
        positions: list[int | None] = [SAFE] * players
        for seat, square in zip(order, assassin_starts(size, len(order)), strict=True):
            positions[seat] = square
        return State(
            players=players,
            size=size,
            short_game=opts["short_game"],
            limit=TURN_LIMIT if opts["turn_limit"] else 0,
            victim=victim,
            positions=tuple(positions),
            markers=((),) * players,
            captures=(0,) * players,
            turn=order[0],
            anchor=order[0],
            phase=Phase.ROLL,
            die=None,
            victim_turns=0,
        )

    def to_move(self, s: State) -> int | None:
        """The seat whose turn it is; None once over."""
        return None if s.phase == "over" else s.turn

    def pending_roll(self, s: State) -> bool:
        """True when the seat to move must roll the die."""
        return s.phase == "roll"

    def roll(self, s: State, rng: random.Random) -> Roll:
        """A piecepack die: null, ace, 2, 3, 4 or 5 with equal chance."""
        return Roll(rng.randrange(6))

    def legal_moves(self, s: State) -> Sequence[AssassinMove]:
        """The reachable squares after a roll, or re-roll/stay after the victim's null."""
        if s.phase == "move":
            return tuple(Move(square) for square in targets(s))
        if s.phase == "null":
            return (Reroll(), Stay())
        return ()

    def apply(self, s: State, m: AssassinMove) -> State:
        """The state after ``m``; raises ``IllegalMove``."""
        if s.phase == "over":
            raise IllegalMove("The game is over.")
        if isinstance(m, Roll):
            if s.phase != "roll":
                raise IllegalMove(self._not_rolling(s))
            if not isinstance(m.value, int) or isinstance(m.value, bool) or not 0 <= m.value <= 5:
                raise IllegalMove("A piecepack die shows null, ace or 2 to 5.")
            return _after_roll(s, m.value)
        if s.phase == "roll":
            raise IllegalMove(f"{self._who(s, s.turn)} must roll the die first.")
        if isinstance(m, (Reroll, Stay)):
            if s.phase != "null":
                raise IllegalMove("Re-roll and stay are only for the victim after rolling a null.")
            if isinstance(m, Reroll):
                return frozen_replace(s, phase=Phase.ROLL, die=None)
            return _end_turn(s, Last(seat=s.turn, roll=0, passed=True))
        if isinstance(m, Move):
            if s.phase != "move":
                raise IllegalMove("After a null the victim may only re-roll or stay.")
            if m.to in targets(s):
                return _after_move(s, m.to, path_to(s, m.to))
            raise IllegalMove(self._why_not(s, m.to))
        raise IllegalMove("That is not a move in this game.")

    def resign(self, s: State, seat: int) -> State:
        """``seat`` leaves: its piece goes; a departing victim is replaced by the next seat (§ Leaving)."""
        if s.phase == "over":
            raise IllegalMove("The game is over.")
        if not 0 <= seat < s.players or seat in s.out:
            raise IllegalMove("That seat is not in the game.")
        positions = list(s.positions)
        positions[seat] = None
        left = frozen_replace(s, positions=tuple(positions), out=(*s.out, seat))
        remaining = left.active()
        if len(remaining) == 1:
            return frozen_replace(left, phase=Phase.OVER, die=None, winner=remaining[0], end="alone")
        if seat == s.victim:
            heir = next(x for k in range(1, s.players) if (x := (seat + k) % s.players) in remaining)
            positions[heir] = SAFE
            return frozen_replace(
                left,
                victim=heir,
                positions=tuple(positions),
                turn=heir,
                anchor=heir,
                phase=Phase.ROLL,
                die=None,
                last=Last(),
            )
        if seat == s.turn:
            return frozen_replace(left, turn=s.victim, phase=Phase.ROLL, die=None, last=Last())
        return left

    def timeout_move(self, s: State) -> AssassinMove | None:
        """Stay after a null; after a roll, the first reachable square in the list (§ Decisions, time)."""
        if s.phase == "null":
            return Stay()
        if s.phase == "move":
            moves = self.legal_moves(s)
            return moves[0] if moves else None
        return None

    def outcome(self, s: State) -> Outcome | None:
        """Ranks once over: a winner first, the rest by bases marked then captures; leavers last."""
        if s.phase != "over":
            return None
        active = s.active()

        def key(seat: int) -> tuple[int, int]:
            return len(s.markers[seat]), s.captures[seat]

        ranks = [0] * s.players
        winners: tuple[int, ...] = ()
        if s.end != "limit":
            assert s.winner is not None
            winners = (s.winner,)
        for seat in winners:
            ranks[seat] = 1
        rest = [seat for seat in active if seat not in winners]
        for seat, rank in _competition_ranks(rest, key, len(winners) + 1).items():
            ranks[seat] = rank
        next_rank = len(active) + 1
        for seat in reversed(s.out):
            ranks[seat] = next_rank
            next_rank += 1
        if s.end == "limit":
            reason = self._limit_reason(s, ranks)
        else:
            assert s.winner is not None
            name = self.seat_name(s, s.winner)
            if s.end == "alone":
                reason = f"{name} is the last player left."
            elif s.short_game:
                reason = f"{name} has marked all four bases."
            else:
                reason = f"{name} touched all four bases in one run as the victim."
        tally = [f"{self.seat_name(s, seat)} {s.captures[seat]}" for seat in range(s.players) if s.captures[seat]]
        reason += f" Captures: {', '.join(tally)}." if tally else " No captures."
        details = tuple(
            f"{plural(len(s.markers[seat]), 'base')}, {plural(s.captures[seat], 'capture')}"
            for seat in range(s.players)
        )
        return Outcome(ranks=tuple(ranks), reason=reason, scores=tuple(float(c) for c in s.captures), details=details)

    # ----------------------------------------------------------------- notation

    def parse_move(self, s: State, text: str) -> AssassinMove:
        """``roll 3`` / ``roll null``, a square such as ``d4`` (or ``to d4``), ``reroll``, ``stay``."""
        if not isinstance(text, str):
            raise BadNotation("Type a square such as d4.")
        t = " ".join(text.strip().lower().split())
        if not t:
            raise BadNotation("Type a square such as d4, or roll.")
        if t in _REROLL:
            return self._checked(s, Reroll())
        if t in _STAY:
            return self._checked(s, Stay())
        if t.startswith("roll"):
            rest = t[4:].strip()
            if not rest:
                raise BadNotation("Say what the die shows, e.g. roll 3.")
            if rest not in _DIE_WORDS:
                raise BadNotation("A piecepack die shows null, ace or 2 to 5.")
            value = _DIE_WORDS[rest]
            if s.phase != "roll":
                raise IllegalMove(self._not_rolling(s))
            return Roll(value)
        for prefix in ("move ", "to "):
            if t.startswith(prefix):
                t = t[len(prefix) :].strip()
        t = t.replace(" ", "")
        match = _SQUARE.match(t)
        if not match:
            raise BadNotation(f"{quote_typed(text)} is not a move: type a square such as d4.")
        file, rank = FILES.find(match.group(1)), int(match.group(2)) - 1
        if file < 0 or file >= s.size or not 0 <= rank < s.size:
            raise BadNotation(f"{t} is not a square of the {s.size}x{s.size} board.")
        return self._checked(s, Move(rank * s.size + file))

    def _checked(self, s: State, m: AssassinMove) -> AssassinMove:
        if s.phase == "over":
            raise IllegalMove("The game is over.")
        if s.phase == "roll":
            raise IllegalMove(f"{self._who(s, s.turn)} must roll the die first.")
        if isinstance(m, (Reroll, Stay)):
            if s.phase != "null":
                raise IllegalMove("Re-roll and stay are only for the victim after rolling a null.")
            return m
        if s.phase == "null":
            raise IllegalMove("After a null the victim may only re-roll or stay.")
        assert isinstance(m, Move)
        if m.to not in targets(s):
            raise IllegalMove(self._why_not(s, m.to))
        return m

    def format_move(self, s: State, m: AssassinMove) -> str:
        """The notation of ``m``."""
        if isinstance(m, Roll):
            return f"roll {m.value}"
        if isinstance(m, Reroll):
            return "reroll"
        if isinstance(m, Stay):
            return "stay"
        return s.board.name(m.to)

    def public_notation(self, s: State, notation: str) -> str:
        """Every move of this game is public: its notation as logged."""
        return notation

    def play(self, s: State, m: AssassinMove) -> Played[State]:
        """The state after ``m`` and a sentence for the channel log: the roll, the path, bases marked,
        any capture."""
        after = self.apply(s, m)
        return Played(after, self._describe(s, m, after))

    def _describe(self, s: State, m: AssassinMove, after: State) -> str:
        who = self._who(s, s.turn)
        if isinstance(m, Reroll):
            return f"{who} re-rolls the null."
        if isinstance(m, Roll):
            if m.value == 0 and s.turn == s.victim:
                return f"{who} rolls a null and may re-roll or stay."
            if m.value == 0:
                return f"{who} rolls a null and cannot move." + self._limit_note(after)
            if after.last.passed:
                note = self._limit_note(after)
                return f"{who} rolls {_a_die(m.value)} but has no legal move; the turn passes." + note
            count = len(targets(after))
            return f"{who} rolls {_a_die(m.value)}: {count} square{'s' if count != 1 else ''} to choose from."
        if isinstance(m, Stay):
            return f"{who} keeps the null and stays {self._place(s, s.turn)}." + self._limit_note(after)
        assert isinstance(m, Move)
        route = " → ".join(s.board.name(square) for square in after.last.path)
        sentence = f"{who} moves {route}"
        if after.last.captured is not None:
            # the old victim stays on the square, now an assassin; its markers go unless the short game keeps them
            old = self.seat_name(s, after.last.captured)
            marks = s.markers[after.last.captured]
            markers = ""
            if marks:
                kept = "keeps" if s.short_game else "loses"
                listed = _and_list([s.board.name(b) for b in marks])
                markers = f" and {kept} its base marker{'s' if len(marks) != 1 else ''} on {listed}"
            return (
                f"{sentence} and captures {old}! {self.seat_name(s, s.turn)} becomes the victim and goes to the "
                f"safehouse; {old} becomes an assassin on {s.board.name(after.last.path[-1])}{markers}."
            )
        if s.turn != s.victim:
            return sentence + "."
        bases = self._bases_text(after, s.turn)
        if after.last.base is not None:
            sentence += f" and marks base {s.board.name(after.last.base)}"
        if after.end == "bases":
            listed = ", ".join(s.board.name(b) for b in after.markers[s.turn])
            return f"{sentence}: all four bases ({listed})! {self.seat_name(s, s.turn)} wins."
        return f"{sentence}. Bases marked: {bases}." + self._limit_note(after)

    def choice(self, s: State, m: AssassinMove) -> Choice:
        """Re-roll and stay are buttons; a square to move to goes in the menu, marked when it scores."""
        if isinstance(m, Reroll):
            return make_choice("reroll", "Re-roll", "Roll the die again; another null may come up.")
        if isinstance(m, Stay):
            return make_choice("stay", "Stay", "Keep the null and stay where you are this turn.")
        if isinstance(m, Roll):
            return make_choice("roll", "Roll", "Roll the piecepack die.")
        name = s.board.name(m.to)
        steps = s.die or 0
        moving = f"Move {steps} step{'s' if steps != 1 else ''}"
        if s.turn != s.victim and s.positions[s.victim] == m.to:
            return make_choice("move", f"{name} · capture", f"Capture {self.seat_name(s, s.victim)} on {name}.")
        if s.turn == s.victim and m.to in s.board.bases and m.to not in s.markers[s.turn]:
            return make_choice("move", f"{name} · base", f"{moving} and mark the base on {name}.")
        return make_choice("move", name, f"{moving} to {name}.")

    def seat_name(self, s: State, seat: int) -> str:
        """The seat's colour: Red, Blue, Yellow, Green, Black, Purple, Cyan, Orange, White."""
        return COLOUR_WORDS[SEAT_COLOURS[seat]]

    def status_line(self, s: State) -> str:
        """Whose turn, what they must do, the victim's bases and the turn count."""
        if s.phase == "over":
            outcome = self.outcome(s)
            return f"Game over. {outcome.reason if outcome else ''}".strip()
        who = self._who(s, s.turn)
        if s.phase == "roll":
            doing = f"{who} to roll"
        elif s.phase == "null":
            doing = f"{who} rolled a null: reroll or stay"
        else:
            count = len(targets(s))
            doing = f"{who} rolled {_a_die(s.die or 0)}: pick one of {count} square{'s' if count != 1 else ''}"
        victim = (
            f"victim {self.seat_name(s, s.victim)} {self._place(s, s.victim)}, bases {self._bases_text(s, s.victim)}"
        )
        limit = f", victim turn {s.victim_turns + 1} of {s.limit}" if s.limit else ""
        return f"{doing} · {victim}{limit}"

    # ----------------------------------------------------------------- JSON

    def to_json(self, s: State) -> dict[str, Any]:
        """A JSON-ready dict with squares by name."""
        name = s.board.name
        return {
            "players": s.players,
            "board": s.size,
            "short_game": s.short_game,
            "limit": s.limit,
            "victim": s.victim,
            "positions": [None if pos is None else name(pos) for pos in s.positions],
            "markers": [[name(b) for b in marks] for marks in s.markers],
            "captures": list(s.captures),
            "turn": s.turn,
            "anchor": s.anchor,
            "phase": str(s.phase),
            "die": s.die,
            "victim_turns": s.victim_turns,
            "out": list(s.out),
            "winner": s.winner,
            "end": s.end,
            "last": {
                "seat": s.last.seat,
                "roll": s.last.roll,
                "path": [name(square) for square in s.last.path],
                "captured": s.last.captured,
                "base": None if s.last.base is None else name(s.last.base),
                "passed": s.last.passed,
            },
        }

    def from_json(self, d: dict[str, Any]) -> State:
        """The state back from ``to_json``; raises ``BadState`` on damaged data."""
        try:
            return _decode(d)
        except BadState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise _READ.bad("a field is missing or of the wrong kind") from None

    # ----------------------------------------------------------------- wording

    def _who(self, s: State, seat: int) -> str:
        role = "victim" if seat == s.victim else "assassin"
        return f"{self.seat_name(s, seat)} ({role})"

    def _place(self, s: State, seat: int) -> str:
        where = s.positions[seat]
        if where is None:
            return "off the board"
        return "in the safehouse" if where == SAFE else f"on {s.board.name(where)}"

    def _bases_text(self, s: State, seat: int) -> str:
        marks = s.markers[seat]
        if not marks:
            return "none"
        return ", ".join(s.board.name(b) for b in marks) + f" ({len(marks)} of 4)"

    def _limit_note(self, after: State) -> str:
        if after.end == "limit":
            outcome = self.outcome(after)
            assert outcome is not None
            if outcome.is_draw:
                return f" The limit of {after.limit} victim turns is reached: every player is level, so it is drawn."
            return f" The limit of {after.limit} victim turns is reached: the game is finished at the limit."
        return ""

    def _limit_reason(self, s: State, ranks: Sequence[int]) -> str:
        """The result at the victim-turn limit: a ranked finish, drawn only when every seat shares first."""
        if len(ranks) > 1 and all(rank == 1 for rank in ranks):
            return (
                f"The game finished at the limit of {s.limit} victim turns and is drawn: "
                "every player is level on bases held and captures."
            )
        first = [seat for seat, rank in enumerate(ranks) if rank == 1]
        leaders = " and ".join(self.seat_name(s, seat) for seat in first)
        bases = len(s.markers[first[0]])
        return (
            f"The game finished at the limit of {s.limit} victim turns, ranked by bases held, then captures: "
            f"{leaders} first with {bases} base{'s' if bases != 1 else ''}."
        )

    def _not_rolling(self, s: State) -> str:
        if s.phase == "null":
            return "You rolled a null: reroll or stay."
        return "The die has been rolled: pick a square to move to."

    def _why_not(self, s: State, square: int) -> str:
        """One sentence on why ``square`` is not a legal end square now."""
        geometry = s.board
        mover = s.turn
        start = s.positions[mover]
        is_victim = mover == s.victim
        if square in geometry.safehouse:
            if is_victim and start == SAFE:  # still inside: the move leaves it (docs/rules/assassin.md)
                return "A move must end outside the safehouse: leaving it is the victim's first step."
            if is_victim:
                return "Once out of the safehouse, the victim may not go back in."
            return "Assassins may never enter the safehouse."
        name = geometry.name(square)
        if square == start:
            return "A move must end on a different square from where it began."
        holder = s.occupant(square)
        if holder is not None and holder != s.victim:
            if is_victim:
                return f"The victim may not land on an assassin: {self.seat_name(s, holder)} is on {name}."
            return f"Assassins may not end on another assassin: {self.seat_name(s, holder)} is on {name}."
        if not is_victim and square in geometry.bases:
            return f"{name} is a base: assassins may pass over bases but not stop on one."
        die = s.die or 0
        steps = f"{die} step{'s' if die != 1 else ''}"
        diagonal = is_victim and s.diagonal
        if start is not None and square not in reach(s.size, diagonal, start, die, frozenset(), frozenset({start})):
            # out of reach on a board without pieces: neither the victim nor an assassin is to blame
            away = steps_between(s.size, diagonal, start, square)
            if away > die:
                return f"{name} is {away} steps away: a roll of {die} cannot reach it."
            return f"{name} is {away} step{'s' if away != 1 else ''} away: exactly {steps} can never end there."
        if is_victim:
            rule = "without passing over an assassin or stepping straight back"
        else:
            rule = "without passing over the victim or stepping straight back"
        return f"{name} cannot be reached in exactly {steps} {rule}."


# --------------------------------------------------------------------------- JSON decoding


_READ = JsonReader("Martian Assassination")


def _square(geometry: Board, value: Any, what: str, *, safe_ok: bool = False) -> int:
    if safe_ok and value == "safehouse":
        return SAFE
    if not isinstance(value, str):
        raise _READ.bad(f"{what} is not valid")
    match = _SQUARE.match(value)
    if not match:
        raise _READ.bad(f"{what} is not valid")
    file, rank = FILES.find(match.group(1)), int(match.group(2)) - 1
    if not (0 <= file < geometry.size and 0 <= rank < geometry.size):
        raise _READ.bad(f"{what} is not valid")
    square = geometry.square(file, rank)
    if square in geometry.safehouse:
        raise _READ.bad(f"{what} is not valid")
    return square


def _decode(d: dict[str, Any]) -> State:
    d = _READ.record(d)
    players = _READ.read_int(d, "players", 3, 9)
    size = _READ.read_int(d, "board", 10, 12)
    if size not in (10, 12) or (size == 12 and players < 6):
        raise _READ.bad("board size is not valid")
    geometry = board(size)
    short_game = _READ.read_flag(d, "short_game")
    limit = _READ.read_int(d, "limit", 0, TURN_LIMIT)
    if limit not in (0, TURN_LIMIT):
        raise _READ.bad("limit is not valid")
    victim = _READ.read_int(d, "victim", 0, players - 1)
    out = _READ.field(d, "out")
    if not isinstance(out, list) or len(set(map(repr, out))) != len(out):
        raise _READ.bad("list of leavers is not valid")
    out_t = tuple(_READ.check_int(x, 0, players - 1, "out") for x in out)
    if victim in out_t and len(out_t) < players - 1:
        raise _READ.bad("its victim has left")
    raw_positions = _READ.field(d, "positions")
    if not isinstance(raw_positions, list) or len(raw_positions) != players:
        raise _READ.bad("it has bad positions")
    positions: list[int | None] = []
    for seat, raw in enumerate(raw_positions):
        if seat in out_t:
            if raw is not None:
                raise _READ.bad("it has a piece for a seat that left")
            positions.append(None)
        else:
            positions.append(_square(geometry, raw, "position", safe_ok=seat == victim))
    on_board = [p for p in positions if p is not None]
    if len(set(on_board)) != len(on_board):
        raise _READ.bad("it has two pieces on one square")
    if any(pos in geometry.bases for seat, pos in enumerate(positions) if seat != victim):
        raise _READ.bad("it has an assassin on a base, where no assassin may end")
    raw_markers = _READ.field(d, "markers")
    if not isinstance(raw_markers, list) or len(raw_markers) != players:
        raise _READ.bad("it has bad base markers")
    markers = []
    for marks in raw_markers:
        if not isinstance(marks, list):
            raise _READ.bad("it has bad base markers")
        squares = tuple(_square(geometry, b, "base marker") for b in marks)
        if any(b not in geometry.bases for b in squares) or list(squares) != sorted(set(squares)):
            raise _READ.bad("it has bad base markers")
        markers.append(squares)
    raw_captures = _READ.field(d, "captures")
    if not isinstance(raw_captures, list) or len(raw_captures) != players:
        raise _READ.bad("it has bad capture counts")
    captures = tuple(_READ.check_int(c, 0, 10**9, "captures") for c in raw_captures)
    turn = _READ.read_int(d, "turn", 0, players - 1)
    anchor = _READ.read_int(d, "anchor", 0, players - 1)
    phase = _READ.read_enum(d, "phase", Phase)
    die = _READ.read_int_or_none(d, "die", 0, 5)
    if (phase == "move") != (die is not None and die > 0) or (phase == "null") != (die == 0):
        raise _READ.bad("die is not valid")
    victim_turns = _READ.read_int(d, "victim_turns", 0, 10**9)
    winner = _READ.read_int_or_none(d, "winner", 0, players - 1)
    end = _READ.field(d, "end")
    if end is not None and end not in ENDS:
        raise _READ.bad("ending is not valid")
    if (phase == "over") != (end is not None) or (end in ("bases", "alone")) != (winner is not None):
        raise _READ.bad("ending is not valid")
    if phase != "over" and (turn in out_t or len(out_t) >= players - 1):
        raise _READ.bad("turn is not valid")
    if phase != "over" and len(markers[victim]) == len(geometry.bases):
        raise _READ.bad("it is marked as running, but its victim has marked all four bases")
    if phase != "over" and limit and victim_turns >= limit:
        raise _READ.bad("it is marked as running past its victim-turn limit")
    last_raw = _READ.field(d, "last")
    if not isinstance(last_raw, dict):
        raise _READ.bad("last move is not valid")
    path_raw = _READ.field(last_raw, "path")
    if not isinstance(path_raw, list):
        raise _READ.bad("last path is not valid")
    path = tuple(_square(geometry, p, "last path", safe_ok=k == 0) for k, p in enumerate(path_raw))
    base = _READ.field(last_raw, "base")
    last = Last(
        seat=_READ.read_int_or_none(last_raw, "seat", 0, players - 1),
        roll=_READ.read_int_or_none(last_raw, "roll", 0, 5),
        path=path,
        captured=_READ.read_int_or_none(last_raw, "captured", 0, players - 1),
        base=None if base is None else _square(geometry, base, "last base"),
        passed=_READ.read_flag(last_raw, "passed"),
    )
    return State(
        players=players,
        size=size,
        short_game=short_game,
        limit=limit,
        victim=victim,
        positions=tuple(positions),
        markers=tuple(markers),
        captures=captures,
        turn=turn,
        anchor=anchor,
        phase=phase,
        die=die,
        victim_turns=victim_turns,
        out=out_t,
        winner=winner,
        end=end,
        last=last,
    )


RULES: Rules[State, AssassinMove] = AssassinRules()  # mypy checks the engine against the protocol
