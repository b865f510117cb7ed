"""Martian Combat: race both of your nests across a 6x6 board and cap them as trees at home.

The rules as played here are in ``docs/rules/combat.md``; section names in comments point there.
A turn has three parts: an optional one-square move, an optional combat right after it, and a
mandatory action roll (Tip, Swap, Hop, Dig, Aim or Wild).  Every die is a ``Roll`` move, and
every decision, including a defender's, is a move of the seat that ``to_move`` names.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
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
    quote_typed,
    resolve_options,
)

# ----------------------------------------------------------------------------------------------
# Board geometry
# ----------------------------------------------------------------------------------------------

SIZE = 6
FILES = "abcdef"
SQUARES = SIZE * SIZE


def square(name: str) -> int:
    """Index of a square name such as ``c4`` (files a-f, ranks 1-6); ``ValueError`` otherwise."""
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "123456":
        raise ValueError(name)
    return (int(name[1]) - 1) * SIZE + FILES.index(name[0])


def square_name(index: int) -> str:
    """Name of square ``index``: a1 is 0, f1 is 5, a2 is 6, ... f6 is 35."""
    return f"{FILES[index % SIZE]}{index // SIZE + 1}"


def distance(a: int, b: int) -> int:
    """King distance between two squares."""
    return _DIST[a][b]


_DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE)) for b in range(SQUARES)) for a in range(SQUARES)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(SQUARES) if _DIST[a][b] == 1) for a in range(SQUARES)
)
NEAR: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(SQUARES) if 1 <= _DIST[a][b] <= 2) for a in range(SQUARES)
)

CORNERS = tuple(square(n) for n in ("a1", "f1", "a6", "f6"))
CENTRE = tuple(square(n) for n in ("c3", "d3", "c4", "d4"))

# Seats take the edges in this order, so seat 2 is East with three or four players.
POSITIONS = ("South", "North", "East", "West")
CLOCKWISE = ("South", "West", "North", "East")
COLOUR_LETTER = {"South": "R", "North": "Y", "West": "G", "East": "B"}
COLOUR_WORD = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"}
START_SQUARES = {
    "South": (square("c1"), square("d1")),
    "North": (square("c6"), square("d6")),
    "West": (square("a3"), square("a4")),
    "East": (square("f3"), square("f4")),
}
OPPOSITE = {"South": "North", "North": "South", "West": "East", "East": "West"}
RESERVE_SQUARE = {"South": square("c3"), "North": square("d3"), "West": square("c4"), "East": square("d4")}

VARIANTS = ("standard", "simple", "advanced")
ACTIONS = {1: "Tip", 2: "Swap", 3: "Hop", 4: "Dig", 5: "Aim", 6: "Wild"}
SIZE_WORD = {1: "small", 2: "medium", 3: "large"}
# Start and home squares of every edge, seated or not: never blocked (docs/rules/combat.md, "The board").
PROTECTED_SQUARES = frozenset(sq for pair in START_SQUARES.values() for sq in pair)


def seat_position(seat: int) -> str:
    """The board edge of ``seat`` (South, North, East, West in join order)."""
    return POSITIONS[seat]


def seat_letter(seat: int) -> str:
    """The colour letter of ``seat``'s pyramids (R, Y, B, G in join order)."""
    return COLOUR_LETTER[POSITIONS[seat]]


def start_squares(seat: int) -> tuple[int, int]:
    """The two squares ``seat``'s nests start on."""
    return START_SQUARES[POSITIONS[seat]]


def home_squares(seat: int) -> tuple[int, int]:
    """The two squares ``seat`` must cap trees on: the start squares of the opposite edge."""
    return START_SQUARES[OPPOSITE[POSITIONS[seat]]]


def turn_order(players: int) -> tuple[int, ...]:
    """Seats in clockwise order: South, West, North, East among those seated."""
    return tuple(sorted(range(players), key=lambda seat: CLOCKWISE.index(POSITIONS[seat])))


# ----------------------------------------------------------------------------------------------
# Values: pieces, moves, fights, state
# ----------------------------------------------------------------------------------------------


class Piece(NamedTuple):
    """A pyramid: its owner's seat, its pips (1-3) and the square it began the game on."""

    owner: int
    pips: int
    origin: int


Stack = tuple[Piece, ...]


@dataclass(frozen=True)
class Roll:
    """Dice as a move: one die (action, Aim) or a pair (combat: attacker, defender; hop: hopper, opponent)."""

    dice: tuple[int, ...]


@dataclass(frozen=True)
class Step:
    """Move the pyramid of ``pips`` on ``frm`` (and everything above it) one square to ``to``."""

    frm: int
    pips: int
    to: int


@dataclass(frozen=True)
class Attack:
    """Start a combat: the stack on ``frm`` attacks the stack on ``to``."""

    frm: int
    to: int


@dataclass(frozen=True)
class Counter:
    """The defender calls the counter attack (equal pips, first roll lost)."""


@dataclass(frozen=True)
class Choose:
    """After a Wild roll: take action ``action`` (1 Tip ... 5 Aim)."""

    action: int


@dataclass(frozen=True)
class Swap:
    """Exchange your pyramid of ``pips`` on ``mine`` with the opponent pyramid of the same size on ``theirs``."""

    mine: int
    pips: int
    theirs: int


@dataclass(frozen=True)
class Hop:
    """Hop your top pyramid of ``pips`` on ``frm`` onto the opponent's top pyramid on ``to``."""

    frm: int
    pips: int
    to: int


@dataclass(frozen=True)
class Dig:
    """Put your top pyramid of ``pips`` on ``frm`` directly under the opponent pyramid of ``under`` pips on ``to``."""

    frm: int
    pips: int
    to: int
    under: int


@dataclass(frozen=True)
class Pass:
    """Decline what is offered now: no move, no attack, no counter, no action, end of an Aim."""


Move = Roll | Step | Attack | Counter | Choose | Swap | Hop | Dig | Pass


@dataclass(frozen=True)
class Fight:
    """A combat between two squares, kept after it ends so the board can show it.

    Dice pairs are (attacker's die, defender's die).  ``first`` holds the opening rolls (ties
    re-rolled), ``counter`` the counter attack roll, ``bare`` the bare-die tie-breaks.
    """

    attacker: int
    defender: int
    att_sq: int
    def_sq: int
    att_pips: int
    def_pips: int
    turn: int
    first: tuple[tuple[int, int], ...] = ()
    counter: tuple[tuple[int, int], ...] = ()
    bare: tuple[tuple[int, int], ...] = ()
    called: bool = False
    winner: int = -1


@dataclass(frozen=True)
class HopTry:
    """A hop and its contest: dice pairs are (hopper's die, opponent's die); ``success`` once decided."""

    hopper: int
    opponent: int
    frm: int
    pips: int
    to: int
    turn: int
    rolls: tuple[tuple[int, int], ...] = ()
    success: bool | None = None


# Phases: who acts and what they may do (docs/rules/combat.md, "A turn").
class Phase(StrEnum):
    """Who acts and what they may do; stored in JSON as the plain string."""

    MOVE = "move"  # turn owner: a step or no move
    ATTACK = "attack"  # turn owner: attack an adjacent stack or not
    OFFER = "offer"  # offers[0]: attack the mover or not
    COMBAT_ROLL = "combat_roll"  # attacker rolls both combat dice
    COUNTER = "counter"  # defender: counter attack or not
    COUNTER_ROLL = "counter_roll"  # defender rolls both counter-attack dice
    TIEBREAK_ROLL = "tiebreak_roll"  # defender rolls both bare dice
    ACTION_ROLL = "action_roll"  # turn owner rolls the action die
    WILD = "wild"  # turn owner chooses an action
    SWAP = "swap"
    HOP = "hop"
    HOP_ROLL = "hop_roll"  # hopper rolls both contest dice
    DIG = "dig"
    AIM_ROLL = "aim_roll"  # turn owner rolls the Aim die
    AIM = "aim"  # turn owner: steps while aim_left > 0, or end
    OVER = "over"


MOVE = Phase.MOVE
ATTACK = Phase.ATTACK
OFFER = Phase.OFFER
COMBAT_ROLL = Phase.COMBAT_ROLL
COUNTER = Phase.COUNTER
COUNTER_ROLL = Phase.COUNTER_ROLL
TIEBREAK_ROLL = Phase.TIEBREAK_ROLL
ACTION_ROLL = Phase.ACTION_ROLL
WILD = Phase.WILD
SWAP = Phase.SWAP
HOP = Phase.HOP
HOP_ROLL = Phase.HOP_ROLL
DIG = Phase.DIG
AIM_ROLL = Phase.AIM_ROLL
AIM = Phase.AIM
OVER = Phase.OVER

PHASES = (
    MOVE,
    ATTACK,
    OFFER,
    COMBAT_ROLL,
    COUNTER,
    COUNTER_ROLL,
    TIEBREAK_ROLL,
    ACTION_ROLL,
    WILD,
    SWAP,
    HOP,
    HOP_ROLL,
    DIG,
    AIM_ROLL,
    AIM,
    OVER,
)
ROLL_PHASES = {COMBAT_ROLL: 2, COUNTER_ROLL: 2, TIEBREAK_ROLL: 2, ACTION_ROLL: 1, HOP_ROLL: 2, AIM_ROLL: 1}
FIGHT_PHASES = (COMBAT_ROLL, COUNTER, COUNTER_ROLL, TIEBREAK_ROLL)
PASS_WORDS = {
    MOVE: "no move",
    ATTACK: "no attack",
    OFFER: "no attack",
    COUNTER: "no counter",
    WILD: "no action",
    SWAP: "no swap",
    HOP: "no hop",
    DIG: "no dig",
    AIM: "end aim",
}


@dataclass(frozen=True)
class CombatState:
    """A whole game of Martian Combat: board, turn, phase and what the picture needs to show."""

    players: int
    variant: str
    extra: tuple[int, ...]  # extra blocked squares chosen at creation
    blocked: tuple[int, ...]  # every square no pyramid may enter
    turn_limit: int
    board: tuple[Stack, ...]  # 36 stacks, bottom to top
    reserve: tuple[int, ...]  # per seat: square of its unreleased reserve nest, or -1
    capped: tuple[int, ...]  # squares holding capped trees
    lost: tuple[tuple[int, ...], ...]  # per seat: pips of its pyramids removed from the game
    out: tuple[int, ...]  # seats that have left the game, in order
    current: int  # the turn owner
    turn: int  # number of the current turn, from 1
    phase: Phase
    moved_to: int = -1  # where this turn's step ended (combat is fought from there)
    offers: tuple[int, ...] = ()  # seats still to be offered the attack on the mover
    aim_left: int = 0
    fight: Fight | None = None  # current fight, or the last one (display)
    hop: HopTry | None = None  # pending hop, or the last one (display)
    action: int = 0  # latest action die
    chosen: int = 0  # action taken for it (Wild's choice; 0 while undecided)
    aim_die: int = 0
    action_turn: int = 0  # turn those three belong to
    trail: tuple[int, ...] = ()  # squares the latest move touched (highlight)
    ranks: tuple[int, ...] = ()
    reason: str = ""


# ----------------------------------------------------------------------------------------------
# Small pure helpers
# ----------------------------------------------------------------------------------------------


def is_tree_or_nest(sizes: Sequence[int]) -> bool:
    """True when ``sizes`` (bottom to top) strictly decrease (tree) or strictly increase (nest)."""
    return tuple(sizes) in _TREES_AND_NESTS


_TREES_AND_NESTS = frozenset(
    t
    for n in range(4)
    for t in itertools.permutations((1, 2, 3), n)
    if all(a > b for a, b in itertools.pairwise(t)) or all(a < b for a, b in itertools.pairwise(t))
)


def _sizes(stack: Iterable[Piece]) -> tuple[int, ...]:
    return tuple(p.pips for p in stack)


def stack_pips(stack: Iterable[Piece]) -> int:
    """The pips of a square: the sum of its pyramids."""
    return sum(p.pips for p in stack)


def single_owner(stack: Stack) -> int:
    """The seat owning every pyramid of ``stack``, or -1 when it is empty or mixed."""
    if not stack:
        return -1
    owner = stack[0].owner
    return owner if all(p.owner == owner for p in stack) else -1


def code(seat: int, pips: int) -> str:
    """Piece code such as ``R3``."""
    return f"{seat_letter(seat)}{pips}"


def stack_code(stack: Iterable[Piece]) -> str:
    """A stack written bottom to top, e.g. ``R3/Y2/R1``."""
    return "/".join(code(p.owner, p.pips) for p in stack)


def blocked_squares(variant: str, extra: Iterable[int]) -> tuple[int, ...]:
    """Every blocked square of a board: corners, the centre (not in simple) and the extra ones."""
    squares = set(CORNERS) | set(extra)
    if variant != "simple":
        squares |= set(CENTRE)
    return tuple(sorted(squares))


@lru_cache(maxsize=64)
def _blocked_flags(blocked: tuple[int, ...]) -> tuple[bool, ...]:
    marks = set(blocked)
    return tuple(i in marks for i in range(SQUARES))


def _connected(blocked: set[int], a: int, b: int) -> bool:
    seen, frontier = {a}, [a]
    while frontier:
        here = frontier.pop()
        if here == b:
            return True
        for nxt in NEIGHBOURS[here]:
            if nxt not in seen and nxt not in blocked:
                seen.add(nxt)
                frontier.append(nxt)
    return False


def parse_extra_blocked(text: str, players: int | None = None, variant: str = "standard") -> tuple[int, ...]:
    """The extra blocked squares of the ``blocked`` option, validated; raises ``BadOptions``.

    Every start and home square of every edge is refused, seated or not, and the choice must keep
    every start square connected to every home square (docs/rules/combat.md, "The board").
    There is no fixed maximum.  ``players``, when given, is checked first (2-4).
    """
    if players is not None and not 2 <= players <= len(POSITIONS):
        raise BadOptions(f"Martian Combat is for 2 to {len(POSITIONS)} players.")
    if variant not in VARIANTS:
        raise BadOptions(f"variant must be one of {', '.join(VARIANTS)}.")
    names = [n for n in re.split(r"[\s,;]+", text.strip().lower()) if n]
    chosen: list[int] = []
    base = set(blocked_squares(variant, ()))
    for name in names:
        try:
            index = square(name)
        except ValueError:
            raise BadOptions(f"{quote_typed(name)} is not a square: use a1 to f6, e.g. 'b2 e5'.") from None
        if index in chosen:
            raise BadOptions(f"{name} is named twice: name each square to block once.")
        if index in base:
            raise BadOptions(f"{name} is already blocked.")
        if index in PROTECTED_SQUARES:
            raise BadOptions(f"{name} is a start or home square and cannot be blocked.")
        chosen.append(index)
    blocked = base | set(chosen)
    for position in POSITIONS:
        for start in START_SQUARES[position]:
            for home in START_SQUARES[OPPOSITE[position]]:
                if not _connected(blocked, start, home):
                    raise BadOptions(
                        f"Those blocked squares cut {square_name(start)} off from {square_name(home)}: "
                        "every start square must still reach every home square."
                    )
    return tuple(sorted(chosen))


def _nearest_empty(board: Sequence[Stack], flags: Sequence[bool], targets: Sequence[int]) -> int:
    """The empty unblocked square nearest (king distance) to any of ``targets``; ties go a1, b1 ... f6."""
    best, best_d = -1, 99
    for index in range(SQUARES):
        if flags[index] or board[index]:
            continue
        d = min(_DIST[t][index] for t in targets)
        if d < best_d:
            best, best_d = index, d
    return best


# ----------------------------------------------------------------------------------------------
# The rules object
# ----------------------------------------------------------------------------------------------

_SQ = r"[a-f][1-6]"
_PC = r"(?:[rygb]?[1-3]|[sml])"
_RE_ROLL = re.compile(r"^roll(?:\s*(\d+)(?:\s*[\s,/&+-]\s*(\d+))?)?$")
_PASS_ACCEPTED = {
    MOVE: {"no move"},
    ATTACK: {"no attack", "decline"},
    OFFER: {"no attack", "decline"},
    COUNTER: {"no counter", "decline"},
    WILD: {"no action"},
    SWAP: {"no swap", "no action"},
    HOP: {"no hop", "no action"},
    DIG: {"no dig", "no action"},
    AIM: {"end aim", "end", "stop", "done"},
}
_RE_PASS = re.compile(r"^(pass|decline|no (?:move|attack|counter|swap|hop|dig|action)|end aim|end|stop|done)$")
_RE_COUNTER = re.compile(r"^counter(?:[ -]?attack)?$")
_RE_CHOOSE = re.compile(r"^(?:(?:choose|wild|pick|take) )?(tip|swap|hop|dig|aim)$")
_RE_CHOOSE_N = re.compile(r"^(?:choose|wild|pick|take) ([1-6])$")
_RE_ATTACK_X = re.compile(rf"^(?:attack )?({_SQ}) ?x ?({_SQ})$")
_RE_ATTACK = re.compile(rf"^attack(?: (?:from |on |onto )?({_SQ}))?$")
_RE_STEP = re.compile(rf"^(?:({_PC}) ?)?({_SQ}) ?(?:-|to |->|>)? ?({_SQ})$")
_RE_HOP = re.compile(rf"^hop (?:({_PC}) ?)?({_SQ}) ?(?:-|to |onto |on |->|>)? ?({_SQ})$")
_RE_HOP_TO = re.compile(rf"^hop (?:({_PC}) ?)?(?:to |onto |on )?({_SQ})$")
_RE_DIG = re.compile(rf"^dig (?:({_PC}) ?)?({_SQ}) ?(?:-|to |->|>)? ?({_SQ})(?: ?(?:under )?({_PC}))?$")
_RE_SWAP = re.compile(rf"^swap (?:({_PC}) ?)?({_SQ}) ?(?:with |and |for |<->|-)? ?(?:({_PC}) ?)?({_SQ})$")
_SIZE_LETTER = {"s": 1, "m": 2, "l": 3}
_ACTION_WORD = {"tip": 1, "swap": 2, "hop": 3, "dig": 4, "aim": 5}


def _piece_spec(token: str | None) -> tuple[str | None, int | None]:
    """(colour letter or None, pips or None) from a piece token such as ``r3``, ``3`` or ``l``."""
    if not token:
        return None, None
    if token in _SIZE_LETTER:
        return None, _SIZE_LETTER[token]
    if len(token) == 2:
        return token[0].upper(), int(token[1])
    return None, int(token)


class CombatRules:
    """Martian Combat for 2-4 players: standard, simple and advanced variants."""

    name = "combat"
    title = "Martian Combat"
    min_players = 2
    max_players = 4
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "variant",
            "standard, simple (open centre) or advanced (reserve nests, losers removed)",
            "standard",
            choices=VARIANTS,
        ),
        OptionSpec("blocked", "extra blocked squares, e.g. 'b2 e5' (never a start or home square)", ""),
        OptionSpec("turn_limit", "turns in all before the game is a draw", 300, minimum=10, maximum=2000),
    )

    # -- creation ------------------------------------------------------------------------------

    def new_game(self, players: int, options: Mapping[str, Any], rng: random.Random) -> CombatState:
        """Set up the board: two nests per player on its start squares (and reserves in advanced)."""
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"Martian Combat is for {self.min_players} to {self.max_players} players.")
        opts = resolve_options(self.options, options)
        variant = opts["variant"]
        extra = parse_extra_blocked(opts["blocked"], players, variant)
        board: list[Stack] = [() for _ in range(SQUARES)]
        reserve = [-1] * players
        for seat in range(players):
            for start in start_squares(seat):
                board[start] = tuple(Piece(seat, pips, start) for pips in (1, 2, 3))
            if variant == "advanced":
                centre = RESERVE_SQUARE[POSITIONS[seat]]
                board[centre] = tuple(Piece(seat, pips, centre) for pips in (1, 2, 3))
                reserve[seat] = centre
        first = rng.randrange(players)  # the roll for first player
        return CombatState(
            players=players,
            variant=variant,
            extra=extra,
            blocked=blocked_squares(variant, extra),
            turn_limit=opts["turn_limit"],
            board=tuple(board),
            reserve=tuple(reserve),
            capped=(),
            lost=tuple(() for _ in range(players)),
            out=(),
            current=first,
            turn=1,
            phase=MOVE,
        )

    # -- who acts ------------------------------------------------------------------------------

    def to_move(self, s: CombatState) -> int | None:
        """The seat that must act now; a defender or an offered opponent during combat."""
        if s.phase == OVER:
            return None
        if s.phase == OFFER:
            return s.offers[0]
        if s.phase == COMBAT_ROLL:
            assert s.fight is not None
            return s.fight.attacker
        if s.phase in (COUNTER, COUNTER_ROLL, TIEBREAK_ROLL):
            assert s.fight is not None
            return s.fight.defender
        return s.current

    def turn_owner(self, s: CombatState) -> int | None:
        """The seat whose turn it is, also while an opponent decides or rolls in a fight inside it."""
        return None if s.phase == OVER else s.current

    def pending_roll(self, s: CombatState) -> bool:
        """True in the phases where dice must be rolled before anything else."""
        return s.phase in ROLL_PHASES

    def roll(self, s: CombatState, rng: random.Random) -> Roll:
        """The dice due now: one d6 for the action and Aim, two for combat and the hop contest."""
        count = ROLL_PHASES.get(s.phase)
        if count is None:
            raise IllegalMove("No roll is due now.")
        return Roll(tuple(rng.randint(1, 6) for _ in range(count)))

    # -- legal moves ---------------------------------------------------------------------------

    def legal_moves(self, s: CombatState) -> list[Move]:
        """Every legal decision now, passes first; empty while a roll is pending or once over."""
        phase = s.phase
        if phase in ROLL_PHASES or phase == OVER:
            return []
        moves: list[Move] = [Pass()]
        if phase in (MOVE, AIM):
            moves.extend(_steps(s, s.current))
        elif phase == ATTACK:
            moves.extend(Attack(s.moved_to, t) for t in _attackable(s))
        elif phase == OFFER:
            moves.extend(Attack(f, s.moved_to) for f in _offer_squares(s, s.offers[0]))
        elif phase == COUNTER:
            moves.append(Counter())
        elif phase == WILD:
            moves.extend(Choose(k) for k in range(1, 6))
        elif phase == SWAP:
            moves.extend(_swaps(s, s.current))
        elif phase == HOP:
            moves.extend(_hops(s, s.current))
        elif phase == DIG:
            moves.extend(_digs(s, s.current))
        return moves

    # -- applying ------------------------------------------------------------------------------

    def apply(self, s: CombatState, m: Move) -> CombatState:
        """The state after ``m``; raises ``IllegalMove`` with the reason; never mutates ``s``."""
        return _apply(s, m, None)

    def public_notation(self, s: CombatState, notation: str) -> str:
        """Every move of this game is public: its notation as logged."""
        return notation

    def play(self, s: CombatState, m: Move) -> Played[CombatState]:
        """The state after ``m`` and what it did, in words, with every die, combat total and consequence."""
        notes: list[str] = []
        after = _apply(s, m, notes)
        return Played(after, " ".join(notes))

    def choice(self, s: CombatState, m: Move) -> Choice:
        """What ``m`` is for a button or menu: the yes/no offers are buttons, steps and actions a menu."""
        return choice(s, m)

    def resign(self, s: CombatState, seat: int) -> CombatState:
        """``seat`` leaves: with one opponent left that opponent wins; otherwise its pyramids leave the board."""
        if s.phase == OVER:
            raise IllegalMove("The game is already over.")
        if not 0 <= seat < s.players or seat in s.out:
            raise IllegalMove("That seat is not playing.")
        return _resign(s, seat, None)

    def timeout_move(self, s: CombatState) -> Move | None:
        """The safe choice: no move, no attack, no action, end of Aim; but always the counter.

        A counter is only ever offered to a defender who lost the opening roll, so calling it can
        only help them (docs/rules/combat.md, "Leaving a game").
        """
        if s.phase == COUNTER:
            return Counter()
        if s.phase in PASS_WORDS:
            return Pass()
        return None

    def outcome(self, s: CombatState) -> Outcome | None:
        """Ranks and reason once the game is over."""
        if s.phase != OVER:
            return None
        return Outcome(ranks=s.ranks, reason=s.reason)

    # -- notation ------------------------------------------------------------------------------

    def format_move(self, s: CombatState, m: Move) -> str:
        """Canonical notation (see docs/rules/combat.md, "Notation")."""
        return format_move(s, m)

    def parse_move(self, s: CombatState, text: str) -> Move:
        """A move from notation; forgiving about case, spaces and omitted details when unambiguous."""
        return _parse(s, text)

    def seat_name(self, s: CombatState, seat: int) -> str:
        """The colour of ``seat``: Red, Yellow, Blue, Green in join order."""
        return COLOUR_WORD[seat_letter(seat)]

    def status_line(self, s: CombatState) -> str:
        """Turn, whose decision it is and what is pending."""
        if s.phase == OVER:  # a game ended by the turn limit says its turns in the reason
            if s.turn >= s.turn_limit:
                return f"Game over. {s.reason}"
            return f"Game over after {plural(s.turn, 'turn')}. {s.reason}"
        return f"Turn {s.turn}/{s.turn_limit} · {prompt(s)}"

    # -- storage -------------------------------------------------------------------------------

    def to_json(self, s: CombatState) -> dict[str, Any]:
        """A JSON-ready dict of the state."""
        return _to_json(s)

    def from_json(self, d: dict[str, Any]) -> CombatState:
        """The state back from ``to_json``; raises ``BadState`` when the data is damaged."""
        try:
            state = _from_json(d)
        except BadState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise _READ.bad("a field is missing or of the wrong kind") from None
        _validate(state)
        return state


RULES: Rules[CombatState, Move] = CombatRules()  # mypy checks the engine against the protocol


# ----------------------------------------------------------------------------------------------
# Move generation (docs/rules/combat.md, "A turn" and "Actions")
# ----------------------------------------------------------------------------------------------


def _frozen_squares(s: CombatState) -> set[int]:
    """Squares whose pyramids nothing may touch: capped trees and unreleased reserve nests."""
    return set(s.capped) | {r for r in s.reserve if r >= 0}


def _steps(s: CombatState, seat: int) -> list[Step]:
    return list(_iter_steps(s, seat))


def _has_step(s: CombatState, seat: int) -> bool:
    return next(_iter_steps(s, seat), None) is not None


def _iter_steps(s: CombatState, seat: int) -> Iterator[Step]:
    flags = _blocked_flags(s.blocked)
    frozen = _frozen_squares(s)
    board = s.board
    valid = _TREES_AND_NESTS
    # what each square can take on top: its sizes, or None when a step may not end there
    landing: list[tuple[int, ...] | None] = [None if flag else () for flag in flags]
    for i, st in enumerate(board):
        if st and landing[i] is not None:
            landing[i] = None if i in frozen else _own_sizes(st, seat)
    for frm in range(SQUARES):
        stack = board[frm]
        if not stack or stack[-1].owner != seat or frm in frozen:
            continue
        low = len(stack)
        while low > 0 and stack[low - 1].owner == seat:
            low -= 1
        sizes = _sizes(stack)
        for i in range(low, len(stack)):
            moving = sizes[i:]
            pips = sizes[i]
            for to in NEIGHBOURS[frm]:
                below = landing[to]
                if below is not None and below + moving in valid:
                    yield Step(frm, pips, to)


def _own_sizes(stack: Stack, seat: int) -> tuple[int, ...] | None:
    """The sizes of a stack that is all ``seat``'s, bottom to top; None when another colour is in it."""
    sizes = []
    for piece in stack:
        if piece.owner != seat:
            return None
        sizes.append(piece.pips)
    return tuple(sizes)


def _free_pieces(s: CombatState, seat: int, frozen: set[int]) -> list[tuple[int, int]]:
    """(square, pips) of ``seat``'s pyramids with no opponent pyramid above them."""
    found = []
    for index, stack in enumerate(s.board):
        if not stack or index in frozen:
            continue
        for k in range(len(stack) - 1, -1, -1):
            if stack[k].owner != seat:
                break
            found.append((index, stack[k].pips))
    return sorted(found)


def _swaps(s: CombatState, seat: int) -> list[Swap]:
    frozen = _frozen_squares(s)
    homes = set(home_squares(seat))
    theirs_by_size: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for index, stack in enumerate(s.board):
        if not stack or index in frozen or index in homes:
            continue
        for p in stack:
            if p.owner != seat:
                theirs_by_size[p.pips].append(index)
    return [Swap(mine, pips, theirs) for mine, pips in _free_pieces(s, seat, frozen) for theirs in theirs_by_size[pips]]


def _tops(s: CombatState, seat: int, frozen: set[int]) -> list[int]:
    return [i for i, st in enumerate(s.board) if st and i not in frozen and st[-1].owner == seat]


def _hops(s: CombatState, seat: int) -> list[Hop]:
    frozen = _frozen_squares(s)
    board = s.board
    out: list[Hop] = []
    for frm in _tops(s, seat, frozen):
        pips = board[frm][-1].pips
        for to in NEAR[frm]:
            target = board[to]
            if target and to not in frozen and target[-1].owner != seat and is_tree_or_nest([*_sizes(target), pips]):
                out.append(Hop(frm, pips, to))
    return out


def _dig_result(board: Sequence[Stack], frm: int, to: int, under: int) -> Stack | None:
    """The stack on ``to`` after the top of ``frm`` goes directly under the pyramid of ``under`` pips."""
    digger = board[frm][-1]
    target = board[to][:-1] if to == frm else board[to]
    for k, p in enumerate(target):
        if p.pips == under:
            return (*target[:k], digger, *target[k:])
    return None


def _digs(s: CombatState, seat: int) -> list[Dig]:
    frozen = _frozen_squares(s)
    homes = set(home_squares(seat))
    board = s.board
    out: list[Dig] = []
    for frm in _tops(s, seat, frozen):
        digger = board[frm][-1]
        for to in range(SQUARES):
            if not board[to] or to in frozen or to in homes:
                continue
            target = board[to][:-1] if to == frm else board[to]
            for k, p in enumerate(target):
                if p.owner != seat and is_tree_or_nest([*_sizes(target[:k]), digger.pips, *_sizes(target[k:])]):
                    out.append(Dig(frm, digger.pips, to, p.pips))
    return out


def _eligible(s: CombatState) -> list[tuple[int, int, int]]:
    """(square, owner, pips) of the one-owner opponent stacks next to the stack that just moved."""
    frozen = _frozen_squares(s)
    found = []
    for t in NEIGHBOURS[s.moved_to]:
        owner = single_owner(s.board[t])
        if owner >= 0 and owner != s.current and t not in frozen:
            found.append((t, owner, stack_pips(s.board[t])))
    return found


def _attackable(s: CombatState) -> list[int]:
    mine = stack_pips(s.board[s.moved_to])
    return [t for t, _, pips in _eligible(s) if mine >= pips]


def _offer_squares(s: CombatState, seat: int) -> list[int]:
    mine = stack_pips(s.board[s.moved_to])
    return [t for t, owner, pips in _eligible(s) if owner == seat and pips >= mine]


def _offer_seats(s: CombatState) -> tuple[int, ...]:
    mine = stack_pips(s.board[s.moved_to])
    willing = {owner for _, owner, pips in _eligible(s) if pips >= mine}
    return tuple(seat for seat in _seats_after(s, s.current) if seat in willing)


def _seats_after(s: CombatState, seat: int) -> list[int]:
    """Seats still playing, in turn order, starting after ``seat``."""
    order = turn_order(s.players)
    k = order.index(seat)
    return [x for x in order[k + 1 :] + order[:k] if x not in s.out]


# ----------------------------------------------------------------------------------------------
# Legality with reasons
# ----------------------------------------------------------------------------------------------


def _phase_error(s: CombatState) -> IllegalMove:
    return IllegalMove(f"Not now: {prompt(s)}.")


def _piece_at(stack: Stack, pips: int) -> int:
    for k, p in enumerate(stack):
        if p.pips == pips:
            return k
    return -1


def _check_own_piece(s: CombatState, sq: int, pips: int, seat: int) -> tuple[Stack, int]:
    """The stack and index of ``seat``'s pyramid of ``pips`` on ``sq``; raises when it cannot act."""
    stack = s.board[sq]
    k = _piece_at(stack, pips)
    where = square_name(sq)
    if k < 0 or stack[k].owner != seat:
        raise IllegalMove(f"You have no {SIZE_WORD[pips]} pyramid ({code(seat, pips)}) on {where}.")
    if sq in s.capped:
        raise IllegalMove(f"The tree on {where} is capped and can no longer move.")
    if sq in s.reserve:
        raise IllegalMove(f"The reserve nest on {where} cannot be used until it is released.")
    if any(p.owner != seat for p in stack[k + 1 :]):
        raise IllegalMove(f"{code(seat, pips)} on {where} has an opponent pyramid above it and cannot move.")
    return stack, k


def _check_target(s: CombatState, sq: int, what: str) -> None:
    where = square_name(sq)
    if sq in s.capped:
        raise IllegalMove(f"The tree on {where} is capped: it cannot be {what}.")
    if sq in s.reserve:
        raise IllegalMove(f"The reserve nest on {where} cannot be {what} until it is released.")


def _check(s: CombatState, m: Move) -> None:
    """Raise ``IllegalMove`` with the reason unless ``m`` is legal in ``s``."""
    phase = s.phase
    if phase == OVER:
        raise IllegalMove("The game is over.")
    if isinstance(m, Roll):
        count = ROLL_PHASES.get(phase)
        if count is None:
            raise IllegalMove(f"No roll is due now: {prompt(s)}.")
        if len(m.dice) != count:
            example = "one die, e.g. roll 4." if count == 1 else "two dice, e.g. roll 4 2."
            raise IllegalMove(f"This roll takes {example}")
        if any(not 1 <= d <= 6 for d in m.dice):
            raise IllegalMove("A die shows 1 to 6.")
        return
    if phase in ROLL_PHASES:
        raise IllegalMove(f"Roll first: {prompt(s)}.")
    if not _fields_ok(m):
        raise IllegalMove("That move names a square or pyramid that does not exist.")
    seat = s.current
    if isinstance(m, Pass):
        if phase not in PASS_WORDS:
            raise _phase_error(s)
        return
    if isinstance(m, Step):
        if phase not in (MOVE, AIM):
            raise _phase_error(s)
        stack, k = _check_own_piece(s, m.frm, m.pips, seat)
        _check_step_target(s, m, stack[k:], seat)
        return
    if isinstance(m, Attack):
        _check_attack(s, m)
        return
    if isinstance(m, Counter):
        if phase != COUNTER:
            raise _phase_error(s)
        return
    if isinstance(m, Choose):
        if phase != WILD:
            raise _phase_error(s)
        if m.action not in (1, 2, 3, 4, 5):
            raise IllegalMove("After a Wild roll choose tip, swap, hop, dig or aim.")
        return
    if isinstance(m, Swap):
        if phase != SWAP:
            raise _phase_error(s)
        _check_own_piece(s, m.mine, m.pips, seat)
        stack = s.board[m.theirs]
        k = _piece_at(stack, m.pips)
        if k < 0 or stack[k].owner == seat:
            raise IllegalMove(f"There is no opponent {SIZE_WORD[m.pips]} pyramid on {square_name(m.theirs)}.")
        _check_target(s, m.theirs, "swapped")
        if m.theirs in home_squares(seat):
            raise IllegalMove(f"{square_name(m.theirs)} is one of your home squares: its pyramids cannot be swapped.")
        return
    if isinstance(m, Hop):
        if phase != HOP:
            raise _phase_error(s)
        _check_top(s, m.frm, m.pips, seat)
        target = s.board[m.to]
        if not target or target[-1].owner == seat:
            raise IllegalMove(f"A hop lands on an opponent's top pyramid; {square_name(m.to)} has none.")
        _check_target(s, m.to, "hopped onto")
        if not 1 <= distance(m.frm, m.to) <= 2:
            raise IllegalMove(f"{square_name(m.to)} is more than two squares from {square_name(m.frm)}.")
        sizes = [*_sizes(target), m.pips]
        if not is_tree_or_nest(sizes):
            raise IllegalMove(f"{code(seat, m.pips)} on {stack_code(target)} would be neither a tree nor a nest.")
        return
    if isinstance(m, Dig):
        if phase != DIG:
            raise _phase_error(s)
        _check_top(s, m.frm, m.pips, seat)
        stack = s.board[m.to][:-1] if m.to == m.frm else s.board[m.to]
        k = _piece_at(stack, m.under)
        if k < 0 or stack[k].owner == seat:
            raise IllegalMove(f"There is no opponent {SIZE_WORD[m.under]} pyramid on {square_name(m.to)}.")
        _check_target(s, m.to, "dug under")
        if m.to in home_squares(seat):
            raise IllegalMove(f"{square_name(m.to)} is one of your home squares: you cannot dig under its pyramids.")
        result = _dig_result(s.board, m.frm, m.to, m.under)
        if result is None or not is_tree_or_nest(_sizes(result)):
            raise IllegalMove(f"The stack on {square_name(m.to)} would be neither a tree nor a nest.")
        return
    raise IllegalMove("That is not a Martian Combat move.")


def _fields_ok(m: Move) -> bool:
    """Squares are 0-35 and sizes 1-3 in every field of ``m``."""
    squares = [getattr(m, f) for f in ("frm", "to", "mine", "theirs") if hasattr(m, f)]
    sizes = [getattr(m, f) for f in ("pips", "under") if hasattr(m, f)]
    return all(isinstance(x, int) and 0 <= x < SQUARES for x in squares) and all(
        isinstance(x, int) and 1 <= x <= 3 for x in sizes
    )


def _check_top(s: CombatState, sq: int, pips: int, seat: int) -> None:
    stack = s.board[sq]
    where = square_name(sq)
    if not stack or stack[-1].owner != seat or stack[-1].pips != pips:
        raise IllegalMove(f"{code(seat, pips)} is not on top of {where}: only a pyramid with nothing on it can go.")
    if sq in s.capped:
        raise IllegalMove(f"The tree on {where} is capped and can no longer move.")
    if sq in s.reserve:
        raise IllegalMove(f"The reserve nest on {where} cannot be used until it is released.")


def _check_step_target(s: CombatState, m: Step, moving: Stack, seat: int) -> None:
    where = square_name(m.to)
    if distance(m.frm, m.to) != 1:
        raise IllegalMove(f"A step goes to a neighbouring square; {where} is not next to {square_name(m.frm)}.")
    if m.to in s.blocked:
        raise IllegalMove(f"{where} is blocked.")
    dest = s.board[m.to]
    if m.to in s.capped:
        raise IllegalMove(f"{where} holds a capped tree.")
    if any(p.owner != seat for p in dest):
        raise IllegalMove(f"{where} holds an opponent's pyramid: a step may only end on your own pyramids.")
    if not is_tree_or_nest(_sizes(dest) + _sizes(moving)):
        raise IllegalMove(f"{stack_code(dest + moving)} on {where} would be neither a tree nor a nest.")


def _check_attack(s: CombatState, m: Attack) -> None:
    if s.phase == ATTACK:
        if m.frm != s.moved_to:
            raise IllegalMove(f"Only the stack that just moved, on {square_name(s.moved_to)}, can attack.")
        for t, _, pips in _eligible(s):
            if t == m.to:
                if pips > stack_pips(s.board[s.moved_to]):
                    raise IllegalMove(f"{square_name(t)} has more pips ({pips}) than your stack: you cannot attack it.")
                return
        raise IllegalMove(f"{square_name(m.to)} is not an opponent stack you can attack from {square_name(m.frm)}.")
    if s.phase == OFFER:
        if m.to != s.moved_to:
            raise IllegalMove(f"You may only attack the stack that just moved, on {square_name(s.moved_to)}.")
        if m.frm not in _offer_squares(s, s.offers[0]):
            raise IllegalMove(
                f"{square_name(m.frm)} is not one of your stacks next to {square_name(s.moved_to)} "
                "with at least as many pips."
            )
        return
    raise _phase_error(s)


# ----------------------------------------------------------------------------------------------
# Applying moves
# ----------------------------------------------------------------------------------------------


def _name(seat: int) -> str:
    return COLOUR_WORD[seat_letter(seat)]


def _pips(n: int) -> str:
    return f"{n} pip" if n == 1 else f"{n} pips"


def _say(notes: list[str] | None, text: str) -> None:
    if notes is not None:
        notes.append(text)


def _apply(s: CombatState, m: Move, notes: list[str] | None) -> CombatState:
    _check(s, m)
    phase = s.phase
    if isinstance(m, Roll):
        return _apply_roll(s, m, notes)
    if isinstance(m, Pass):
        return _apply_pass(s, notes)
    if isinstance(m, Step):
        return _apply_step(s, m, notes)
    if isinstance(m, Attack):
        return _start_fight(s, m, notes)
    if isinstance(m, Counter):
        assert s.fight is not None
        _say(notes, f"{_name(s.fight.defender)} calls a counter attack.")
        return frozen_replace(s, phase=COUNTER_ROLL, fight=replace(s.fight, called=True))
    if isinstance(m, Choose):
        _say(notes, f"{_name(s.current)} chooses {ACTIONS[m.action]}.")
        return _take_action(frozen_replace(s, chosen=m.action), m.action, notes)
    if isinstance(m, Swap):
        return _apply_swap(s, m, notes)
    if isinstance(m, Hop):
        opponent = s.board[m.to][-1].owner
        _say(
            notes,
            f"{_name(s.current)} hops {code(s.current, m.pips)} from {square_name(m.frm)} onto "
            f"{code(opponent, s.board[m.to][-1].pips)} on {square_name(m.to)}; the hop contest dice decide.",
        )
        hop = HopTry(s.current, opponent, m.frm, m.pips, m.to, s.turn)
        return frozen_replace(s, phase=HOP_ROLL, hop=hop, trail=(m.frm, m.to))
    if isinstance(m, Dig):
        return _apply_dig(s, m, notes)
    raise IllegalMove(f"Unexpected move in phase {phase}.")  # pragma: no cover - _check refuses it first


def _apply_pass(s: CombatState, notes: list[str] | None) -> CombatState:
    who = _name(s.current)
    phase = s.phase
    if phase == MOVE:
        _say(notes, f"{who} makes no move.")
        return _to_action_roll(_clear_display(s))
    if phase == ATTACK:
        _say(notes, f"{who} does not attack.")
        return _offer_or_roll(s, _offer_seats(s), notes)
    if phase == OFFER:
        _say(notes, f"{_name(s.offers[0])} does not attack.")
        return _offer_or_roll(s, s.offers[1:], notes)
    if phase == COUNTER:
        assert s.fight is not None
        _say(notes, f"{_name(s.fight.defender)} does not counter attack.")
        return _resolve_fight(s, s.fight.attacker, notes)
    if phase == AIM:
        _say(notes, f"{who} ends the Aim.")
    elif phase in (SWAP, HOP, DIG):
        _say(notes, f"{who} does not {phase}.")
    else:
        _say(notes, f"{who} takes no action.")
    return _end_turn(s, notes)


def _clear_display(s: CombatState) -> CombatState:
    """A new turn's first decision clears last turn's dice and combat from the picture."""
    return frozen_replace(s, trail=())


def _apply_step(s: CombatState, m: Step, notes: list[str] | None) -> CombatState:
    seat = s.current
    stack = s.board[m.frm]
    k = _piece_at(stack, m.pips)
    moving = stack[k:]
    board = list(s.board)
    board[m.frm] = stack[:k]
    board[m.to] = s.board[m.to] + moving
    what = code(seat, m.pips) if len(moving) == 1 else f"the stack {stack_code(moving)}"
    if s.phase == AIM:
        left = s.aim_left - 1
        _say(
            notes,
            f"{_name(seat)} moves {what} from {square_name(m.frm)} to {square_name(m.to)} "
            f"(Aim: {left} step{'s' if left != 1 else ''} left).",
        )
        s = _settle(frozen_replace(s, board=tuple(board), aim_left=left, trail=(m.frm, m.to)), notes)
        if s.phase == OVER:
            return s
        if left == 0:
            return _end_turn(s, notes)
        if not _has_step(s, seat):
            _say(notes, f"{_name(seat)} has no further step.")
            return _end_turn(s, notes)
        return s
    _say(notes, f"{_name(seat)} moves {what} from {square_name(m.frm)} to {square_name(m.to)}.")
    s = _settle(frozen_replace(_clear_display(s), board=tuple(board), moved_to=m.to, trail=(m.frm, m.to)), notes)
    if s.phase == OVER:
        return s
    if m.to in s.capped or not _eligible(s):
        return _to_action_roll(s)
    targets = _attackable(s)
    if targets:
        _say(notes, f"{_name(seat)} may attack {' or '.join(square_name(t) for t in targets)}.")
        return frozen_replace(s, phase=ATTACK)
    return _offer_or_roll(s, _offer_seats(s), notes)


def _offer_or_roll(s: CombatState, offers: tuple[int, ...], notes: list[str] | None) -> CombatState:
    if offers:
        _say(notes, f"{_name(offers[0])} may attack the stack on {square_name(s.moved_to)}.")
        return frozen_replace(s, phase=OFFER, offers=offers)
    return _to_action_roll(frozen_replace(s, offers=()))


def _to_action_roll(s: CombatState) -> CombatState:
    return frozen_replace(s, phase=ACTION_ROLL, offers=())


def _start_fight(s: CombatState, m: Attack, notes: list[str] | None) -> CombatState:
    attacker = s.current if s.phase == ATTACK else s.offers[0]
    defender = single_owner(s.board[m.to])
    fight = Fight(
        attacker=attacker,
        defender=defender,
        att_sq=m.frm,
        def_sq=m.to,
        att_pips=stack_pips(s.board[m.frm]),
        def_pips=stack_pips(s.board[m.to]),
        turn=s.turn,
    )
    _say(
        notes,
        f"{_name(attacker)} ({square_name(m.frm)}, {_pips(fight.att_pips)}) attacks "
        f"{_name(defender)} ({square_name(m.to)}, {_pips(fight.def_pips)}).",
    )
    return frozen_replace(s, phase=COMBAT_ROLL, fight=fight, offers=(), trail=(m.frm, m.to))


def _apply_roll(s: CombatState, m: Roll, notes: list[str] | None) -> CombatState:
    phase = s.phase
    who = _name(s.current)
    if phase == ACTION_ROLL:
        die = m.dice[0]
        s = frozen_replace(s, action=die, chosen=0 if die == 6 else die, aim_die=0, action_turn=s.turn)
        _say(notes, f"{who} rolls {die} for the action: {ACTIONS[die]}.")
        if die == 6:
            return frozen_replace(s, phase=WILD)
        return _take_action(s, die, notes)
    if phase == AIM_ROLL:
        die = m.dice[0]
        _say(notes, f"{who} rolls {die} for the Aim: up to {die} single-square step{'s' if die > 1 else ''}.")
        s = frozen_replace(s, aim_die=die, aim_left=die, phase=AIM)
        if not _has_step(s, s.current):
            _say(notes, f"{who} has no step to make.")
            return _end_turn(s, notes)
        return s
    if phase == HOP_ROLL:
        return _hop_roll(s, m, notes)
    return _fight_roll(s, m, notes)


def _take_action(s: CombatState, action: int, notes: list[str] | None) -> CombatState:
    who = _name(s.current)
    if action == 1:
        s = _tip(s, notes)
        return s if s.phase == OVER else _end_turn(s, notes)
    if action == 5:
        if not _has_step(s, s.current):  # nothing to aim at: no die to roll for it (docs/rules/combat.md, "A turn")
            _say(notes, f"{who} has no step to make.")
            return _end_turn(s, notes)
        return frozen_replace(s, phase=AIM_ROLL)
    phase, finder = {2: (SWAP, _swaps), 3: (HOP, _hops), 4: (DIG, _digs)}[action]
    if not finder(s, s.current):
        _say(notes, f"{who} has no legal {ACTIONS[action].lower()}.")
        return _end_turn(s, notes)
    return frozen_replace(s, phase=phase)


def _tip(s: CombatState, notes: list[str] | None) -> CombatState:
    frozen = _frozen_squares(s)
    board = list(s.board)
    tipped = []
    for index, stack in enumerate(board):
        if len(stack) >= 2 and index not in frozen:
            board[index] = stack[::-1]
            tipped.append(index)
    if tipped:
        _say(
            notes,
            "Every stack is tipped over: "
            + ", ".join(f"{square_name(i)} {stack_code(board[i])}" for i in tipped)
            + ".",
        )
    else:
        _say(notes, "There is no stack to tip.")
    return _settle(frozen_replace(s, board=tuple(board), trail=tuple(tipped)), notes)


def _apply_swap(s: CombatState, m: Swap, notes: list[str] | None) -> CombatState:
    board = list(s.board)
    a, b = board[m.mine], board[m.theirs]
    ka, kb = _piece_at(a, m.pips), _piece_at(b, m.pips)
    mine, theirs = a[ka], b[kb]
    board[m.mine] = (*a[:ka], theirs, *a[ka + 1 :])
    board[m.theirs] = (*b[:kb], mine, *b[kb + 1 :])
    _say(
        notes,
        f"{_name(s.current)} swaps {code(mine.owner, m.pips)} on {square_name(m.mine)} with "
        f"{code(theirs.owner, m.pips)} on {square_name(m.theirs)}.",
    )
    s = _settle(frozen_replace(s, board=tuple(board), trail=(m.mine, m.theirs)), notes)
    return s if s.phase == OVER else _end_turn(s, notes)


def _apply_dig(s: CombatState, m: Dig, notes: list[str] | None) -> CombatState:
    board = list(s.board)
    result = _dig_result(s.board, m.frm, m.to, m.under)
    assert result is not None
    under_owner = next(p.owner for p in board[m.to] if p.pips == m.under)
    board[m.frm] = board[m.frm][:-1]
    board[m.to] = result
    _say(
        notes,
        f"{_name(s.current)} digs {code(s.current, m.pips)} from {square_name(m.frm)} under "
        f"{code(under_owner, m.under)} on {square_name(m.to)}: {stack_code(result)}.",
    )
    s = _settle(frozen_replace(s, board=tuple(board), trail=(m.frm, m.to)), notes)
    return s if s.phase == OVER else _end_turn(s, notes)


def _hop_roll(s: CombatState, m: Roll, notes: list[str] | None) -> CombatState:
    hop = s.hop
    assert hop is not None
    mine, theirs = m.dice
    hop = replace(hop, rolls=(*hop.rolls, (mine, theirs)))
    head = f"Hop contest: {_name(hop.hopper)} rolls {mine}, {_name(hop.opponent)} rolls {theirs}"
    if mine == theirs:
        _say(notes, f"{head}: a tie, roll again.")
        return frozen_replace(s, hop=hop)
    if mine < theirs:
        _say(notes, f"{head}: the hopper is repelled and stays on {square_name(hop.frm)}.")
        return _end_turn(frozen_replace(s, hop=replace(hop, success=False), trail=(hop.frm, hop.to)), notes)
    board = list(s.board)
    hopper = board[hop.frm][-1]
    board[hop.frm] = board[hop.frm][:-1]
    board[hop.to] = (*board[hop.to], hopper)
    _say(
        notes,
        f"{head}: the hop succeeds; {code(hopper.owner, hopper.pips)} now pins {stack_code(s.board[hop.to])} "
        f"on {square_name(hop.to)}.",
    )
    s = _settle(frozen_replace(s, board=tuple(board), hop=replace(hop, success=True), trail=(hop.frm, hop.to)), notes)
    return s if s.phase == OVER else _end_turn(s, notes)


def _fight_roll(s: CombatState, m: Roll, notes: list[str] | None) -> CombatState:
    """Combat dice (docs/rules/combat.md, "Combat"): first roll, counter attack roll, bare tie-break."""
    fight = s.fight
    assert fight is not None
    a, d = m.dice
    att, dfn = _name(fight.attacker), _name(fight.defender)
    if s.phase == COMBAT_ROLL:
        fight = replace(fight, first=(*fight.first, (a, d)))
        ta, td = a + fight.att_pips, d + fight.def_pips
        head = f"{att} rolls {a} + {fight.att_pips} = {ta}, {dfn} rolls {d} + {fight.def_pips} = {td}"
        if ta == td:
            _say(notes, f"{head}: a tie, roll again.")
            return frozen_replace(s, fight=fight)
        if ta > td and fight.att_pips == fight.def_pips:
            _say(notes, f"{head}: {att} is ahead; with equal pips {dfn} may call a counter attack.")
            return frozen_replace(s, fight=fight, phase=COUNTER)
        winner = fight.attacker if ta > td else fight.defender
        _say(notes, f"{head}: {_name(winner)} wins.")
        return _resolve_fight(frozen_replace(s, fight=fight), winner, notes)
    if s.phase == COUNTER_ROLL:
        fight = replace(fight, counter=((a, d),))
        a1, d1 = fight.first[-1]
        sa = a1 + a + 2 * fight.att_pips
        sd = d1 + d + 2 * fight.def_pips
        head = (
            f"Counter attack: {att} rolls {a} + {fight.att_pips} = {a + fight.att_pips}, two rolls "
            f"{a1 + fight.att_pips} + {a + fight.att_pips} = {sa}; {dfn} rolls {d} + {fight.def_pips} = "
            f"{d + fight.def_pips}, two rolls {d1 + fight.def_pips} + {d + fight.def_pips} = {sd}"
        )
        if sa == sd:
            _say(notes, f"{head}: tied, so both roll a bare die.")
            return frozen_replace(s, fight=fight, phase=TIEBREAK_ROLL)
        winner = fight.attacker if sa > sd else fight.defender
        _say(notes, f"{head}: {_name(winner)} wins.")
        return _resolve_fight(frozen_replace(s, fight=fight), winner, notes)
    fight = replace(fight, bare=(*fight.bare, (a, d)))
    head = f"Tie-break: {att} rolls {a}, {dfn} rolls {d}"
    if a == d:
        _say(notes, f"{head}: a tie, roll again.")
        return frozen_replace(s, fight=fight)
    winner = fight.attacker if a > d else fight.defender
    _say(notes, f"{head}: {_name(winner)} wins.")
    return _resolve_fight(frozen_replace(s, fight=fight), winner, notes)


def _resolve_fight(s: CombatState, winner: int, notes: list[str] | None) -> CombatState:
    """Lift the loser, move the winner in, then return or remove the loser's pyramids ("Combat")."""
    fight = s.fight
    assert fight is not None
    fight = replace(fight, winner=winner)
    win_sq, lose_sq = (fight.att_sq, fight.def_sq) if winner == fight.attacker else (fight.def_sq, fight.att_sq)
    loser = fight.defender if winner == fight.attacker else fight.attacker
    board = list(s.board)
    lifted = board[lose_sq]
    board[lose_sq] = board[win_sq]
    board[win_sq] = ()
    _say(notes, f"{_name(winner)}'s {stack_code(board[lose_sq])} moves into {square_name(lose_sq)}.")
    trail = [win_sq, lose_sq]
    lost = list(s.lost)
    reserve = list(s.reserve)
    if s.variant == "advanced":
        lost[loser] = tuple(sorted(lost[loser] + tuple(p.pips for p in lifted)))
        _say(
            notes, f"{_name(loser)}'s {stack_code(lifted)} {'is' if len(lifted) == 1 else 'are'} removed from the game."
        )
        if reserve[loser] >= 0 and {1, 2, 3} <= set(lost[loser]):
            centre = reserve[loser]
            nest = board[centre]
            board[centre] = ()
            reserve[loser] = -1
            starts = start_squares(loser)
            free = [sq for sq in sorted(starts) if not board[sq]]
            place = free[0] if free else _nearest_empty(board, _blocked_flags(s.blocked), starts)
            board[place] = nest
            trail += [centre, place]
            _say(
                notes,
                f"{_name(loser)} has lost a large, a medium and a small: the reserve nest is released "
                f"from {square_name(centre)} to {square_name(place)}.",
            )
    else:
        flags = _blocked_flags(s.blocked)
        groups: dict[int, list[Piece]] = {}
        for p in lifted:
            groups.setdefault(p.origin, []).append(p)
        for origin in sorted(groups):
            nest = tuple(sorted(groups[origin], key=lambda p: p.pips))
            place = origin if not board[origin] and not flags[origin] else _nearest_empty(board, flags, (origin,))
            board[place] = nest
            trail.append(place)
            where = square_name(place)
            if place == origin:
                _say(notes, f"{_name(loser)}'s {stack_code(nest)} returns to its start square {where}.")
            else:
                _say(
                    notes,
                    f"{_name(loser)}'s {stack_code(nest)} returns to {where}, the nearest empty square "
                    f"to its start square {square_name(origin)}.",
                )
    s = frozen_replace(s, board=tuple(board), fight=fight, lost=tuple(lost), reserve=tuple(reserve), trail=tuple(trail))
    s = _settle(s, notes)
    if s.phase == OVER:
        return s
    if s.current in s.out:
        return _end_turn(s, notes)
    return _to_action_roll(s)


# ----------------------------------------------------------------------------------------------
# Caps, wins, turn changes, resignation
# ----------------------------------------------------------------------------------------------


def _settle(s: CombatState, notes: list[str] | None) -> CombatState:
    """After every step: cap finished trees, then look for a winner ("Winning")."""
    capped = set(s.capped)
    for seat in range(s.players):
        if seat in s.out:
            continue
        for home in home_squares(seat):
            stack = s.board[home]
            if (
                home not in capped
                and len(stack) == 3
                and all(p.owner == seat for p in stack)
                and _sizes(stack) == (3, 2, 1)
            ):
                capped.add(home)
                _say(notes, f"{_name(seat)}'s tree on {square_name(home)} is capped.")
    if len(capped) != len(s.capped):
        s = frozen_replace(s, capped=tuple(sorted(capped)))
    complete = [seat for seat in range(s.players) if seat not in s.out and all(h in capped for h in home_squares(seat))]
    if complete:
        winner = s.current if s.current in complete else next(x for x in _seats_after(s, s.current) if x in complete)
        reason = f"{_name(winner)} has capped trees on both home squares."
        _say(notes, f"{_name(winner)} wins: capped trees on both home squares.")
        return _finish(s, (winner,), reason)
    counts = [0] * s.players
    for stack in s.board:
        for p in stack:
            counts[p.owner] += 1
    out = list(s.out)
    for seat in turn_order(s.players):
        if seat not in out and counts[seat] == 0:
            out.append(seat)
            _say(notes, f"{_name(seat)} has no pyramids left and is out.")
    if len(out) != len(s.out):
        s = frozen_replace(s, out=tuple(out), offers=tuple(x for x in s.offers if x not in out))
        alive = [seat for seat in range(s.players) if seat not in out]
        if len(alive) <= 1:
            if not alive:  # cannot arise in play: combat removes one player's pyramids at a time
                return _finish(s, (), "No player has pyramids left.")
            reason = f"{_name(alive[0])} is the last player with pyramids."
            _say(notes, f"{_name(alive[0])} wins: the last player with pyramids on the board.")
            return _finish(s, (alive[0],), reason)
    return s


def _finish(s: CombatState, winners: Sequence[int], reason: str) -> CombatState:
    ranks = default_resign_ranks(s.out, s.players, winners)
    return frozen_replace(s, phase=OVER, ranks=ranks, reason=reason, offers=(), aim_left=0)


def _end_turn(s: CombatState, notes: list[str] | None) -> CombatState:
    if s.turn >= s.turn_limit:
        alive = tuple(seat for seat in range(s.players) if seat not in s.out)
        _say(notes, f"The turn limit ({s.turn_limit}) is reached: the game is a draw.")
        return _finish(s, alive, f"The turn limit of {s.turn_limit} turns was reached.")
    nxt = _seats_after(s, s.current)[0]
    s = frozen_replace(s, current=nxt, turn=s.turn + 1, phase=MOVE, moved_to=-1, offers=(), aim_left=0)
    if not _has_step(s, nxt):
        _say(notes, f"{_name(nxt)} has no legal step and goes straight to the action roll.")
        return frozen_replace(s, phase=ACTION_ROLL)
    return s


def _resign(s: CombatState, seat: int, notes: list[str] | None) -> CombatState:
    """Resignation (docs/rules/combat.md, "Leaving a game")."""
    alive = [x for x in range(s.players) if x not in s.out and x != seat]
    s = frozen_replace(s, out=(*s.out, seat))
    if len(alive) == 1:
        return _finish(s, (alive[0],), f"{_name(seat)} left the game.")
    board = tuple(tuple(p for p in stack if p.owner != seat) for stack in s.board)
    reserve = tuple(-1 if x == seat else r for x, r in enumerate(s.reserve))
    capped = tuple(sq for sq in s.capped if board[sq])
    s = frozen_replace(s, board=board, reserve=reserve, capped=capped, offers=tuple(x for x in s.offers if x != seat))
    if seat == s.current:
        return _end_turn(frozen_replace(s, fight=None, hop=None) if s.phase in (*FIGHT_PHASES, HOP_ROLL) else s, notes)
    if s.phase in FIGHT_PHASES and s.fight is not None and seat in (s.fight.attacker, s.fight.defender):
        return _to_action_roll(frozen_replace(s, fight=None))
    if s.phase == HOP_ROLL and s.hop is not None and s.hop.opponent == seat:
        return _end_turn(frozen_replace(s, hop=None), notes)
    if s.phase == OFFER and not s.offers:
        return _to_action_roll(s)
    if s.phase == ATTACK and not _attackable(s):
        return _offer_or_roll(s, _offer_seats(s), notes)
    if s.phase in (SWAP, HOP, DIG) and len(RULES.legal_moves(s)) == 1:
        return _end_turn(s, notes)
    return s


# ----------------------------------------------------------------------------------------------
# Prompts and notation
# ----------------------------------------------------------------------------------------------


def prompt(s: CombatState, who: str | None = None) -> str:
    """What the seat to move is asked to do now, in words; ``who`` overrides the colour name."""
    seat = RULES.to_move(s)
    if who is None:
        who = _name(seat) if seat is not None else ""
    phase = s.phase
    fight = s.fight
    if phase == MOVE:
        return f"{who} to move: step a pyramid one square, or 'no move'"
    if phase == ATTACK:
        return f"{who} may attack from {square_name(s.moved_to)}, or 'no attack'"
    if phase == OFFER:
        return f"{who} may attack the stack on {square_name(s.moved_to)}, or 'no attack'"
    if phase == COMBAT_ROLL and fight:
        return (
            f"{who} to roll the combat dice: {_name(fight.attacker)} {_pips(fight.att_pips)} on "
            f"{square_name(fight.att_sq)} v {_name(fight.defender)} {_pips(fight.def_pips)} on "
            f"{square_name(fight.def_sq)}"
        )
    if phase == COUNTER:
        return f"{who} lost the first roll with equal pips: 'counter' or 'no counter'"
    if phase == COUNTER_ROLL:
        return f"{who} to roll the counter attack dice"
    if phase == TIEBREAK_ROLL:
        return f"{who} to roll the bare tie-break dice"
    if phase == ACTION_ROLL:
        return f"{who} to roll the action die"
    if phase == WILD:
        return f"{who} rolled Wild: choose tip, swap, hop, dig or aim"
    if phase == SWAP:
        return f"{who} may swap a pyramid, or 'no swap'"
    if phase == HOP:
        return f"{who} may hop a pyramid, or 'no hop'"
    if phase == HOP_ROLL:
        return f"{who} to roll the hop contest dice"
    if phase == DIG:
        return f"{who} may dig a pyramid under an opponent's, or 'no dig'"
    if phase == AIM_ROLL:
        return f"{who} to roll the Aim die"
    if phase == AIM:
        return f"{who} has {s.aim_left} Aim step{'s' if s.aim_left != 1 else ''} left, or 'end aim'"
    return "the game is over"


_PASS_CHOICES = {
    MOVE: ("pass", "No move", "Skip the step and go straight to the action roll."),
    ATTACK: ("decline", "No attack", "Do not fight; an opponent next to you may then be offered the attack."),
    OFFER: ("decline", "No attack", "Let the mover's stack be; the turn goes on."),
    COUNTER: ("decline", "No counter", "Accept the loss of the opening roll."),
    WILD: ("pass", "No action", "Take no action; the turn ends."),
    SWAP: ("pass", "No swap", "Skip the swap; the turn ends."),
    HOP: ("pass", "No hop", "Skip the hop; the turn ends."),
    DIG: ("pass", "No dig", "Skip the dig; the turn ends."),
    AIM: ("end", "End aim", "Stop the Aim here; the turn ends."),
}
_ACTION_HINTS = {
    1: "Reverse every stack of two or more: trees become nests and nests trees.",
    2: "Exchange one of your pyramids with an opponent's of the same size.",
    3: "Hop a top pyramid onto an opponent's within 2 squares; dice decide.",
    4: "Put a top pyramid of yours under an opponent's, anywhere on the board.",
    5: "Roll again and make up to that many single-square steps.",
}


def choice(s: CombatState, m: Move) -> Choice:
    """What ``m`` is, for a button or a menu entry (docs/rules/combat.md, "Notation")."""
    if isinstance(m, Pass):
        kind, label, hint = _PASS_CHOICES.get(s.phase, ("pass", "Pass", ""))
        return make_choice(kind, label, hint)
    if isinstance(m, Counter):
        return make_choice("counter", "Counter", "Both roll again and add both totals; the higher sum wins.")
    if isinstance(m, Attack):
        mine, theirs = stack_pips(s.board[m.frm]), stack_pips(s.board[m.to])
        return make_choice(
            "attack-offer",
            f"Attack {square_name(m.to)} from {square_name(m.frm)}",
            f"Your {_pips(mine)} against {_pips(theirs)}: each side rolls a die and adds its pips.",
        )
    if isinstance(m, Choose):
        name = ACTIONS.get(m.action, str(m.action))
        return make_choice("choose", name, _ACTION_HINTS.get(m.action, ""))
    if isinstance(m, Roll):
        return make_choice("roll", "Roll", "Roll the dice.")
    label = format_move(s, m)
    if isinstance(m, Step):
        carried = len(s.board[m.frm]) - _piece_at(s.board[m.frm], m.pips) - 1
        extra = {0: "", 1: " and the pyramid above it"}.get(carried, f" and the {carried} pyramids above it")
        hint = f"Step {code(s.current, m.pips)}{extra} from {square_name(m.frm)} to {square_name(m.to)}."
        return make_choice("move", label, hint)
    label = label[0].upper() + label[1:]
    if isinstance(m, Swap):
        return make_choice("move", label, "Each pyramid takes the other's place in its stack.")
    if isinstance(m, Hop):
        return make_choice("move", label, "The hop contest dice decide whether it stays or is repelled.")
    return make_choice("move", label, "Your pyramid goes directly under the opponent's.")


def format_move(s: CombatState, m: Move) -> str:
    """Canonical notation of ``m`` in state ``s`` (docs/rules/combat.md, "Notation")."""
    seat = s.current
    if isinstance(m, Roll):
        return "roll " + " ".join(str(d) for d in m.dice)
    if isinstance(m, Pass):
        return PASS_WORDS.get(s.phase, "pass")
    if isinstance(m, Step):
        return f"{code(seat, m.pips)} {square_name(m.frm)}-{square_name(m.to)}"
    if isinstance(m, Attack):
        return f"{square_name(m.frm)}x{square_name(m.to)}"
    if isinstance(m, Counter):
        return "counter"
    if isinstance(m, Choose):
        return f"choose {ACTIONS.get(m.action, str(m.action)).lower()}"
    if isinstance(m, Swap):
        k = _piece_at(s.board[m.theirs], m.pips)
        other = s.board[m.theirs][k].owner if k >= 0 else seat
        return f"swap {code(seat, m.pips)} {square_name(m.mine)} with {code(other, m.pips)} {square_name(m.theirs)}"
    if isinstance(m, Hop):
        return f"hop {code(seat, m.pips)} {square_name(m.frm)}-{square_name(m.to)}"
    if isinstance(m, Dig):
        k = _piece_at(s.board[m.to], m.under)
        other = s.board[m.to][k].owner if k >= 0 else seat
        return f"dig {code(seat, m.pips)} {square_name(m.frm)}-{square_name(m.to)} under {code(other, m.under)}"
    raise BadNotation("That is not a Martian Combat move.")


def _parse(s: CombatState, text: str) -> Move:
    if not isinstance(text, str) or len(text) > 80:
        raise BadNotation("That is not a Martian Combat move.")
    t = " ".join(text.strip().lower().replace("\u2013", "-").split())
    t = re.sub(r" ?- ?", "-", t)
    found = _RE_ROLL.match(t)
    if found:
        if not found.group(1):
            raise BadNotation("A roll names its dice, e.g. 'roll 4' or 'roll 4 2'.")
        dice = tuple(int(g) for g in found.groups() if g)
        if any(not 1 <= d <= 6 for d in dice):
            raise BadNotation("A die shows 1 to 6.")
        m: Move = Roll(dice)
        _check(s, m)
        return m
    if s.phase in ROLL_PHASES:
        _syntax(s, t, resolve=False)  # garbage is still refused as notation
        raise IllegalMove(f"Roll first: {prompt(s)}.")
    return _syntax(s, t, resolve=True)


def _syntax(s: CombatState, t: str, resolve: bool) -> Move:
    """Recognise the notation ``t``; with ``resolve``, also fill omitted details and check legality."""
    found = _RE_PASS.match(t)
    if found:
        if resolve and t != "pass" and s.phase in PASS_WORDS and t not in _PASS_ACCEPTED[s.phase]:
            raise _phase_error(s)
        return _checked(s, Pass(), resolve)
    if _RE_COUNTER.match(t):
        return _checked(s, Counter(), resolve)
    found = _RE_CHOOSE.match(t) or _RE_CHOOSE_N.match(t)
    if found:
        word = found.group(1)
        action = int(word) if word.isdigit() else _ACTION_WORD[word]
        if resolve and t in ("swap", "hop", "dig") and s.phase != WILD:
            raise BadNotation(f"Say which pyramids, e.g. {_example(t)}.")
        return _checked(s, Choose(action), resolve)
    found = _RE_ATTACK_X.match(t)
    if found:
        return _checked(s, Attack(square(found.group(1)), square(found.group(2))), resolve)
    found = _RE_ATTACK.match(t)
    if found:
        where = square(found.group(1)) if found.group(1) else None
        return _unique(s, t, resolve, Attack, lambda m: where is None or where in (m.frm, m.to))
    found = _RE_SWAP.match(t)
    if found:
        c1, p1 = _piece_spec(found.group(1))
        c2, p2 = _piece_spec(found.group(3))
        if p1 and p2 and p1 != p2:
            raise IllegalMove("A swap exchanges two pyramids of the same size.")
        pips = p1 or p2
        mine, theirs = square(found.group(2)), square(found.group(4))
        return _unique(
            s,
            t,
            resolve,
            Swap,
            lambda m: (
                m.mine == mine
                and m.theirs == theirs
                and pips in (None, m.pips)
                and _colour_ok(s, c1, m.mine, m.pips)
                and _colour_ok(s, c2, m.theirs, m.pips)
            ),
            full=Swap(mine, pips, theirs) if pips else None,
            colours=((c1, mine, pips), (c2, theirs, pips)),
        )
    found = _RE_HOP.match(t) or _RE_HOP_TO.match(t)
    if found:
        colour, pips = _piece_spec(found.group(1))
        squares = [square(g) for g in found.groups()[1:]]
        frm, to = (squares[0], squares[1]) if len(squares) == 2 else (None, squares[0])
        full: Move | None = Hop(frm, pips, to) if pips and frm is not None else None
        return _unique(
            s,
            t,
            resolve,
            Hop,
            lambda m: (
                m.to == to and frm in (None, m.frm) and pips in (None, m.pips) and _colour_ok(s, colour, m.frm, m.pips)
            ),
            full=full,
            colours=((colour, frm, pips),),
        )
    found = _RE_DIG.match(t)
    if found:
        colour, pips = _piece_spec(found.group(1))
        c2, under = _piece_spec(found.group(4))
        frm, to = square(found.group(2)), square(found.group(3))
        full = Dig(frm, pips, to, under) if pips and under else None
        return _unique(
            s,
            t,
            resolve,
            Dig,
            lambda m: (
                m.frm == frm
                and m.to == to
                and pips in (None, m.pips)
                and under in (None, m.under)
                and _colour_ok(s, colour, m.frm, m.pips)
                and _colour_ok(s, c2, m.to, m.under)
            ),
            full=full,
            colours=((colour, frm, pips), (c2, to, under)),
        )
    found = _RE_STEP.match(t)
    if found:
        colour, pips = _piece_spec(found.group(1))
        frm, to = square(found.group(2)), square(found.group(3))
        full = Step(frm, pips, to) if pips else None
        return _unique(
            s,
            t,
            resolve,
            Step,
            lambda m: m.frm == frm and m.to == to and pips in (None, m.pips) and _colour_ok(s, colour, m.frm, m.pips),
            full=full,
            colours=((colour, frm, pips),),
        )
    raise BadNotation("That is not a Martian Combat move; try e.g. 'R3 c1-c2' or 'no move'.")


def _example(word: str) -> str:
    return {"swap": "'swap R2 b3 with Y2 e4'", "hop": "'hop R1 b3-e4'", "dig": "'dig R2 b3-e5 under Y3'"}[word]


def _checked(s: CombatState, m: Move, resolve: bool) -> Move:
    if resolve:
        _check(s, m)
    return m


def _colour_ok(s: CombatState, colour: str | None, sq: int | None, pips: int | None) -> bool:
    if colour is None or sq is None or pips is None:
        return True
    k = _piece_at(s.board[sq], pips)
    return k >= 0 and seat_letter(s.board[sq][k].owner) == colour


def _unique(
    s: CombatState,
    t: str,
    resolve: bool,
    kind: type,
    match: Any,
    full: Move | None = None,
    colours: Sequence[tuple[str | None, int | None, int | None]] = (),
) -> Move:
    """The one legal move of ``kind`` that ``match`` accepts; a fully written move gets its exact reason."""
    if not resolve:
        return Pass()
    phase_ok = {Step: (MOVE, AIM), Attack: (ATTACK, OFFER), Swap: (SWAP,), Hop: (HOP,), Dig: (DIG,)}[kind]
    if s.phase not in phase_ok:
        raise _phase_error(s)
    for colour, sq, pips in colours:
        if colour is not None and colour not in {seat_letter(x) for x in range(s.players)}:
            raise IllegalMove(f"No player has the colour {colour} in this game.")
        if colour is not None and sq is not None and pips is not None and not _colour_ok(s, colour, sq, pips):
            raise IllegalMove(f"There is no {colour}{pips} on {square_name(sq)}.")
    if full is not None:
        _check(s, full)
        return full
    candidates = [m for m in RULES.legal_moves(s) if isinstance(m, kind) and match(m)]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise IllegalMove(f"'{t}' is not a legal move now: {prompt(s)}.")
    shown = " or ".join(f"'{format_move(s, m)}'" for m in candidates[:3])
    raise BadNotation(f"'{t}' could mean {shown}: say which.")


# ----------------------------------------------------------------------------------------------
# JSON
# ----------------------------------------------------------------------------------------------


def _piece_text(p: Piece) -> str:
    return f"{code(p.owner, p.pips)}@{square_name(p.origin)}"


def _fight_json(f: Fight | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {
        "attacker": f.attacker,
        "defender": f.defender,
        "att_sq": square_name(f.att_sq),
        "def_sq": square_name(f.def_sq),
        "att_pips": f.att_pips,
        "def_pips": f.def_pips,
        "turn": f.turn,
        "first": [list(p) for p in f.first],
        "counter": [list(p) for p in f.counter],
        "bare": [list(p) for p in f.bare],
        "called": f.called,
        "winner": f.winner,
    }


def _hop_json(h: HopTry | None) -> dict[str, Any] | None:
    if h is None:
        return None
    return {
        "hopper": h.hopper,
        "opponent": h.opponent,
        "frm": square_name(h.frm),
        "pips": h.pips,
        "to": square_name(h.to),
        "turn": h.turn,
        "rolls": [list(p) for p in h.rolls],
        "success": h.success,
    }


def _to_json(s: CombatState) -> dict[str, Any]:
    return {
        "game": "combat",
        "version": 1,
        "players": s.players,
        "variant": s.variant,
        "extra": [square_name(x) for x in s.extra],
        "turn_limit": s.turn_limit,
        "board": {square_name(i): [_piece_text(p) for p in st] for i, st in enumerate(s.board) if st},
        "reserve": [square_name(r) if r >= 0 else None for r in s.reserve],
        "capped": [square_name(x) for x in s.capped],
        "lost": [list(x) for x in s.lost],
        "out": list(s.out),
        "current": s.current,
        "turn": s.turn,
        "phase": str(s.phase),
        "moved_to": square_name(s.moved_to) if s.moved_to >= 0 else None,
        "offers": list(s.offers),
        "aim_left": s.aim_left,
        "fight": _fight_json(s.fight),
        "hop": _hop_json(s.hop),
        "action": s.action,
        "chosen": s.chosen,
        "aim_die": s.aim_die,
        "action_turn": s.action_turn,
        "trail": [square_name(x) for x in s.trail],
        "ranks": list(s.ranks),
        "reason": s.reason,
    }


_READ = JsonReader("Martian Combat")
_RE_PIECE = re.compile(r"^([RYGB])([1-3])@([a-f][1-6])$")


def _sq(value: Any, what: str, allow_none: bool = False) -> int:
    if value is None and allow_none:
        return -1
    try:
        return square(_READ.check_str(value, what))
    except ValueError:
        raise _READ.bad(f"{what} {value!r} is not a square") from None


def _squares(d: dict[str, Any], key: str) -> tuple[int, ...]:
    return tuple(_sq(x, f"a square in {key}") for x in _READ.read_list(d, key))


def _dice(d: dict[str, Any], key: str) -> tuple[tuple[int, int], ...]:
    pairs = (_READ.check_list(pair, f"a roll in {key}", length=2) for pair in _READ.read_list(d, key))
    return tuple(
        (_READ.check_int(a, 1, 6, f"a die in {key}"), _READ.check_int(b, 1, 6, f"a die in {key}")) for a, b in pairs
    )


def _from_json(d: dict[str, Any]) -> CombatState:
    d = _READ.record(d)
    _READ.read_str(d, "game", choices=("combat",))
    if "version" in d:  # the only version so far is 1; the key is not needed to read a state
        _READ.read_int(d, "version", 1, 1)
    players = _READ.read_int(d, "players", 2, 4)
    letters = {seat_letter(x): x for x in range(players)}
    board: list[Stack] = [() for _ in range(SQUARES)]
    for name, pieces in _READ.record(_READ.field(d, "board"), "board").items():
        stack = []
        for text in _READ.check_list(pieces, f"the stack on {name}"):
            found = _RE_PIECE.match(_READ.check_str(text, f"a pyramid on {name}"))
            if not found or found.group(1) not in letters:
                raise _READ.bad(f"the pyramid {text!r} on {name} is unknown")
            stack.append(Piece(letters[found.group(1)], int(found.group(2)), square(found.group(3))))
        board[_sq(name, "a board square")] = tuple(stack)
    seat_max = players - 1
    f = _READ.read_optional(d, "fight", lambda v: _READ.record(v, "fight"))
    fight = None
    if f is not None:
        fight = Fight(
            attacker=_READ.read_int(f, "attacker", 0, seat_max, "fight.attacker"),
            defender=_READ.read_int(f, "defender", 0, seat_max, "fight.defender"),
            att_sq=_sq(_READ.field(f, "att_sq"), "fight.att_sq"),
            def_sq=_sq(_READ.field(f, "def_sq"), "fight.def_sq"),
            att_pips=_READ.read_int(f, "att_pips", 1, 6, "fight.att_pips"),
            def_pips=_READ.read_int(f, "def_pips", 1, 6, "fight.def_pips"),
            turn=_READ.read_int(f, "turn", 1, 10_000, "fight.turn"),
            first=_dice(f, "first"),
            counter=_dice(f, "counter"),
            bare=_dice(f, "bare"),
            called=bool(_READ.field(f, "called")),
            winner=_READ.read_int(f, "winner", -1, seat_max, "fight.winner"),
        )
    h = _READ.read_optional(d, "hop", lambda v: _READ.record(v, "hop"))
    hop = None
    if h is not None:
        success = _READ.read_optional(h, "success", lambda v: _READ.check_flag(v, "hop.success"))
        hop = HopTry(
            hopper=_READ.read_int(h, "hopper", 0, seat_max, "hop.hopper"),
            opponent=_READ.read_int(h, "opponent", 0, seat_max, "hop.opponent"),
            frm=_sq(_READ.field(h, "frm"), "hop.frm"),
            pips=_READ.read_int(h, "pips", 1, 3, "hop.pips"),
            to=_sq(_READ.field(h, "to"), "hop.to"),
            turn=_READ.read_int(h, "turn", 1, 10_000, "hop.turn"),
            rolls=_dice(h, "rolls"),
            success=success,
        )
    variant = _READ.read_str(d, "variant", choices=VARIANTS)
    extra = tuple(sorted(_squares(d, "extra")))
    reason = _READ.read_str(d, "reason")
    phase = _READ.read_enum(d, "phase", Phase)
    return CombatState(
        players=players,
        variant=variant,
        extra=extra,
        blocked=blocked_squares(variant, extra),
        turn_limit=_READ.read_int(d, "turn_limit", 10, 2000),
        board=tuple(board),
        reserve=tuple(_sq(r, "a reserve square", allow_none=True) for r in _READ.read_list(d, "reserve")),
        capped=tuple(sorted(_squares(d, "capped"))),
        lost=tuple(
            tuple(_READ.check_int(p, 1, 3, "a lost pyramid") for p in _READ.check_list(x, "a seat's lost pyramids"))
            for x in _READ.read_list(d, "lost")
        ),
        out=tuple(_READ.check_int(x, 0, seat_max, "a seat in out") for x in _READ.read_list(d, "out")),
        current=_READ.read_int(d, "current", 0, seat_max),
        turn=_READ.read_int(d, "turn", 1, 10_000),
        phase=phase,
        moved_to=_sq(_READ.field(d, "moved_to"), "moved_to", allow_none=True),
        offers=tuple(_READ.check_int(x, 0, seat_max, "a seat in offers") for x in _READ.read_list(d, "offers")),
        aim_left=_READ.read_int(d, "aim_left", 0, 6),
        fight=fight,
        hop=hop,
        action=_READ.read_int(d, "action", 0, 6),
        chosen=_READ.read_int(d, "chosen", 0, 5),
        aim_die=_READ.read_int(d, "aim_die", 0, 6),
        action_turn=_READ.read_int(d, "action_turn", 0, 10_000),
        trail=_squares(d, "trail"),
        ranks=tuple(_READ.check_int(r, 1, 4, "a rank") for r in _READ.read_list(d, "ranks")),
        reason=reason,
    )


def _validate(s: CombatState) -> None:
    """Semantic checks of a loaded state: pieces, stacks, seats and phase data agree."""

    if len(s.reserve) != s.players or len(s.lost) != s.players:
        raise _READ.bad("wrong number of seats")
    flags = _blocked_flags(s.blocked)
    seen: set[Piece] = set()
    for index, stack in enumerate(s.board):
        if stack and flags[index] and index not in s.reserve:
            raise _READ.bad(f"pyramids on the blocked square {square_name(index)}")
        if not is_tree_or_nest(_sizes(stack)) or len(stack) > 3:
            raise _READ.bad(f"{square_name(index)} is neither a tree nor a nest")
        for p in stack:
            allowed = set(start_squares(p.owner))
            if s.variant == "advanced":
                allowed.add(RESERVE_SQUARE[POSITIONS[p.owner]])
            if p in seen or p.origin not in allowed:
                raise _READ.bad(f"the pyramid {code(p.owner, p.pips)} on {square_name(index)} is unknown or doubled")
            seen.add(p)
    for seat, r in enumerate(s.reserve):
        if r >= 0 and (s.variant != "advanced" or r != RESERVE_SQUARE[POSITIONS[seat]]):
            raise _READ.bad("misplaced reserve nest")
    for sq in s.capped:
        if single_owner(s.board[sq]) < 0 or sq not in home_squares(single_owner(s.board[sq])):
            raise _READ.bad(f"the cap on {square_name(sq)}")
    if len(set(s.out)) != len(s.out) or (s.current in s.out and s.phase != OVER):
        raise _READ.bad("seats out of the game")
    owners = {p.owner for stack in s.board for p in stack}
    if s.phase != OVER and (
        s.players - len(s.out) < 2 or any((seat in s.out) == (seat in owners) for seat in range(s.players))
    ):
        raise _READ.bad("the players still in the game and their pyramids disagree")
    if s.phase == OFFER and any(seat in s.out or seat == s.current for seat in s.offers):
        raise _READ.bad("the pending offer")
    if s.phase == OVER and len(s.ranks) != s.players:
        raise _READ.bad("the result")
    if (s.phase in FIGHT_PHASES and s.fight is None) or (s.phase == HOP_ROLL and s.hop is None):
        raise _READ.bad("the pending fight or hop")
    if (s.phase in (ATTACK, OFFER) and s.moved_to < 0) or (s.phase == OFFER and not s.offers):
        raise _READ.bad("the combat choice")
    if s.turn > s.turn_limit:
        raise _READ.bad("the turn count")
    if s.phase != OVER and any(
        all(sq in s.capped for sq in home_squares(seat)) for seat in range(s.players) if seat not in s.out
    ):
        raise _READ.bad("a player has capped both home squares, yet the game is running")
