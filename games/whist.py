"""Martian Whist: a two-player draft of pyramids from a row of trees, then ten tricks of trees.

Rules page: ``docs/rules/whist.md``.  Seats are North (0) and South (1).  The row of draft
trees is lettered a, b, c... from the left; a tree keeps its letter when it empties.

Moves:

- ``Take(tree, piece)``: ``take R1 c`` takes the red small from the top of tree c.
- ``Steal()``: ``steal``, the second drafter's answer to the first pick.
- ``Play(tree)``: ``play R3 Y2 G1`` presents a tree from the stash, written large to small.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

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
    resolve_options,
)

Piece = str  # colour letter + pips, e.g. "R3"
Tree = tuple[Piece, Piece, Piece]  # large, medium, small

COLOUR_ORDER = "KRYGB"  # highest first: black > red > yellow > green > blue
RANK = {c: 5 - i for i, c in enumerate(COLOUR_ORDER)}
COLOUR_WORDS = {"K": "black", "R": "red", "Y": "yellow", "G": "green", "B": "blue"}
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}
SEAT_NAMES = ("North", "South")
SEGMENTS = ("large", "medium", "small")

VARIANTS = {"normal": 4, "short": 2}  # Treehouse sets used


class Phase(StrEnum):
    """The part of the game being played; stored in JSON as the plain string."""

    DRAFT = "draft"
    TRICKS = "tricks"
    OVER = "over"


DRAFT, TRICKS, OVER = Phase.DRAFT, Phase.TRICKS, Phase.OVER


def piece(colour: str, pips: int) -> Piece:
    """The code of a piece, e.g. ``piece("R", 3) == "R3"``."""
    return f"{colour}{pips}"


def pips_of(p: Piece) -> int:
    """Size of a piece in pips (1 small, 2 medium, 3 large)."""
    return int(p[1])


def colour_of(p: Piece) -> str:
    """Colour letter of a piece."""
    return p[0]


def piece_words(p: Piece) -> str:
    """``R3`` -> ``red large``."""
    return f"{COLOUR_WORDS[p[0]]} {SIZE_WORDS[int(p[1])]}"


def _piece_key(p: Piece) -> tuple[int, int]:
    return -int(p[1]), -RANK[p[0]]


def canonical(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    """Pieces in the stash order: large to small, each size by colour rank."""
    return tuple(sorted(pieces, key=_piece_key))


def tree_letter(index: int) -> str:
    """Letter of draft tree ``index`` (0 -> ``a``)."""
    return chr(ord("a") + index)


def is_solid(tree: Tree) -> bool:
    """True when all three pyramids of ``tree`` share one colour."""
    return tree[0][0] == tree[1][0] == tree[2][0]


def tree_text(tree: Sequence[Piece]) -> str:
    """Notation of a tree, large to small: ``R3 Y2 G1``."""
    return " ".join(tree)


# --- moves -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Take:
    """Take ``piece`` from the top of draft tree ``tree`` (0-based index in the row)."""

    tree: int
    piece: Piece


@dataclass(frozen=True)
class Steal:
    """The second drafter takes the first drafter's small instead of drafting."""


@dataclass(frozen=True)
class Play:
    """Present ``tree`` (large, medium, small) from the stash: a lead or a follow."""

    tree: Tree


Move = Take | Steal | Play


# --- trick resolution -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    """How a trick was decided.

    ``segments`` holds, for large, medium and small, +1 when the leader's colour ranks higher,
    -1 when the follower's does and 0 when they are equal (only used between two mixed trees).
    ``kind`` is one of ``solids``, ``solid-mixed``, ``segments``, ``identical``.
    """

    leader_wins: bool
    kind: str
    segments: tuple[int, int, int]


def resolve(led: Tree, followed: Tree) -> Resolution:
    """Decide a trick between the leader's tree ``led`` and the follower's ``followed`` (rules: Tricks)."""
    led_solid, followed_solid = is_solid(led), is_solid(followed)
    if led_solid and followed_solid:
        return Resolution(RANK[led[0][0]] >= RANK[followed[0][0]], "solids", (0, 0, 0))
    if led_solid != followed_solid:
        return Resolution(led_solid, "solid-mixed", (0, 0, 0))
    segments = tuple((RANK[a[0]] > RANK[b[0]]) - (RANK[a[0]] < RANK[b[0]]) for a, b in zip(led, followed, strict=True))
    leader_count, follower_count = segments.count(1), segments.count(-1)
    kind = "identical" if led == followed else "segments"
    # equal segment counts (and identical trees) go to the leader: rules page, Tricks
    return Resolution(leader_count >= follower_count, kind, segments)  # type: ignore[arg-type]


def explain(led: Tree, followed: Tree, leader_name: str, follower_name: str) -> str:
    """One sentence: who wins the trick and why, naming the segments won."""
    res = resolve(led, followed)
    winner, loser = (leader_name, follower_name) if res.leader_wins else (follower_name, leader_name)
    win_tree, lose_tree = (led, followed) if res.leader_wins else (followed, led)
    if res.kind == "solids":
        if led[0][0] == followed[0][0]:
            return f"{winner} wins: equal solid {COLOUR_WORDS[led[0][0]]} trees go to the leader."
        return f"{winner} wins: solid {COLOUR_WORDS[win_tree[0][0]]} beats solid {COLOUR_WORDS[lose_tree[0][0]]}."
    if res.kind == "solid-mixed":
        return f"{winner} wins: a solid {COLOUR_WORDS[win_tree[0][0]]} tree beats a mixed tree."
    if res.kind == "identical":
        return f"{winner} wins: identical trees go to the leader."
    sign = 1 if res.leader_wins else -1
    won = [
        f"the {SEGMENTS[k]} ({COLOUR_WORDS[win_tree[k][0]]} over {COLOUR_WORDS[lose_tree[k][0]]})"
        for k in range(3)
        if res.segments[k] == sign
    ]
    lost = [
        f"the {SEGMENTS[k]} ({COLOUR_WORDS[lose_tree[k][0]]} over {COLOUR_WORDS[win_tree[k][0]]})"
        for k in range(3)
        if res.segments[k] == -sign
    ]
    score = f"{len(won)} segment{'s' if len(won) != 1 else ''} to {len(lost)}"
    if len(won) == len(lost):
        return (
            f"{winner} wins: segments tied 1 to 1 ({winner} the {SEGMENTS[res.segments.index(sign)]}, "
            f"{loser} the {SEGMENTS[res.segments.index(-sign)]}) and ties go to the leader."
        )
    return f"{winner} wins {_join(won)}: {score}."


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --- state ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """A finished trick: the leader's seat and both trees."""

    leader: int
    led: Tree
    followed: Tree

    @property
    def resolution(self) -> Resolution:
        """How the trick was decided."""
        return resolve(self.led, self.followed)

    @property
    def winner(self) -> int:
        """Seat that won the trick and kept its tree."""
        return self.leader if self.resolution.leader_wins else 1 - self.leader

    @property
    def kept(self) -> Tree:
        """The winning tree, kept for scoring."""
        return self.led if self.resolution.leader_wins else self.followed

    @property
    def discarded(self) -> Tree:
        """The losing tree, out of the game."""
        return self.followed if self.resolution.leader_wins else self.led


@dataclass(frozen=True)
class WhistState:
    """A Martian Whist position.

    ``row`` holds the draft trees bottom to top (an emptied tree is ``()`` and keeps its letter);
    ``stashes`` the pieces each seat holds, in ``canonical`` order.  ``turn`` is the seat to act.
    ``steal_open`` is True only while the second drafter may steal the first small.
    ``led`` is the leader's tree while the follower has yet to answer.  ``last_take`` is a display
    field: (seat, tree index or -1 for the steal, piece).
    """

    variant: str
    row: tuple[tuple[Piece, ...], ...]
    stashes: tuple[tuple[Piece, ...], tuple[Piece, ...]]
    first: int
    phase: Phase
    turn: int
    steal_open: bool = False
    stolen: bool = False
    last_take: tuple[int, int, Piece] | None = None
    led: Tree | None = None
    tricks: tuple[Trick, ...] = ()
    resigned: int | None = None

    @property
    def sets(self) -> int:
        """Treehouse sets in play."""
        return VARIANTS[self.variant]

    @property
    def cap(self) -> int:
        """Most pyramids of one size a player may hold (10, or 5 in the short game)."""
        return self.sets * 5 // 2

    @property
    def total_tricks(self) -> int:
        """Tricks in the whole game (10, or 5 in the short game)."""
        return self.cap

    @property
    def picks(self) -> int:
        """Pyramids taken from the row so far."""
        return 15 * self.sets - sum(len(t) for t in self.row)

    @property
    def leader(self) -> int:
        """During tricks: the seat leading the current trick."""
        return self.turn if self.led is None else 1 - self.turn


def kept_trees(s: WhistState, seat: int) -> tuple[Tree, ...]:
    """The trees ``seat`` has won and kept, in the order won."""
    return tuple(t.kept for t in s.tricks if t.winner == seat)


def solid_count(trees: Iterable[Tree]) -> int:
    """Solid trees formable from all the pyramids of ``trees``: per colour, the least size count."""
    counts = Counter(p for t in trees for p in t)
    return sum(min(counts[piece(c, n)] for n in (1, 2, 3)) for c in COLOUR_ORDER)


def score(s: WhistState, seat: int) -> int:
    """Points of ``seat``: 3 per solid tree formable from the kept pyramids, 1 per other kept tree."""
    kept = kept_trees(s, seat)
    return len(kept) + 2 * solid_count(kept)


def score_words(s: WhistState, seat: int) -> str:
    """``South 5 (3 trees + 2 for 1 solid)``, ``North 8 (4 trees + 4 for 2 solids)``: the score, and
    where it has solid trees how it is made up (docs/rules/whist.md, "Scoring": the kept pyramids are
    regrouped into as many solid trees as they form)."""
    kept = kept_trees(s, seat)
    solids = solid_count(kept)
    made_of = f" ({plural(len(kept), 'tree')} + {2 * solids} for {plural(solids, 'solid')})" if solids else ""
    return f"{SEAT_NAMES[seat]} {score(s, seat)}{made_of}"


def scores(s: WhistState) -> tuple[int, int]:
    """Both seats' scores so far."""
    return score(s, 0), score(s, 1)


def _size_count(stash: Sequence[Piece], pips: int) -> int:
    return sum(1 for p in stash if int(p[1]) == pips)


def _can_take(s: WhistState, seat: int, top: Piece) -> bool:
    return _size_count(s.stashes[seat], int(top[1])) < s.cap


def _takes(s: WhistState, seat: int) -> list[Take]:
    cap = s.cap
    full = {n for n in (1, 2, 3) if _size_count(s.stashes[seat], n) >= cap}
    return [Take(index, tree[-1]) for index, tree in enumerate(s.row) if tree and int(tree[-1][1]) not in full]


def _remove(stash: Sequence[Piece], pieces: Iterable[Piece]) -> tuple[Piece, ...]:
    out = list(stash)
    for p in pieces:
        out.remove(p)
    return tuple(out)


def _colours_by_size(stash: Sequence[Piece]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {3: [], 2: [], 1: []}
    for p in stash:
        colours = found[int(p[1])]
        if p[0] not in colours:
            colours.append(p[0])
    for colours in found.values():
        colours.sort(key=lambda c: -RANK[c])
    return found


def _trees(stash: Sequence[Piece]) -> list[Tree]:
    """Every distinct tree buildable from ``stash``, large colour first, by colour rank."""
    by_size = _colours_by_size(stash)
    return [(piece(a, 3), piece(b, 2), piece(c, 1)) for a in by_size[3] for b in by_size[2] for c in by_size[1]]


def _follows(tree: Tree, led: Tree) -> bool:
    colours = {p[0] for p in led}
    return any(p[0] in colours for p in tree)


def can_follow(stash: Sequence[Piece], led: Tree) -> bool:
    """True when ``stash`` holds a pyramid of a colour found in ``led`` (rules: Tricks, following)."""
    colours = {p[0] for p in led}
    return any(p[0] in colours for p in stash)


def _plays(s: WhistState) -> list[Play]:
    trees = _trees(s.stashes[s.turn])
    if s.led is not None and can_follow(s.stashes[s.turn], s.led):
        trees = [t for t in trees if _follows(t, s.led)]
    return [Play(t) for t in trees]


# --- the rules object -------------------------------------------------------------------------------


_TAKE_PIECE_FIRST = re.compile(r"^([a-z])([0-9])([a-z]?)$")
_TAKE_TREE_FIRST = re.compile(r"^([a-z])(?:([a-z])([0-9]))?$")
_PIECES = re.compile(r"^(?:[a-z][0-9]){3}$")
_COLOURS = re.compile(r"^[a-z]{3}$")


class WhistRules:
    """Martian Whist for two players: the draft, then the tricks (docs/rules/whist.md)."""

    name = "whist"
    title = "Martian Whist"
    min_players = 2
    max_players = 2
    options: tuple[OptionSpec, ...] = (
        OptionSpec(
            "variant", "normal: 4 sets, 10 tricks; short: 2 sets, 5 tricks", "normal", choices=("normal", "short")
        ),
    )

    # -- creation and turn order

    def new_game(self, players: int, options: Mapping[str, Any], rng: random.Random) -> WhistState:
        """Shuffle the pyramids into a row of complete trees and choose the first drafter at random."""
        if players != 2:
            raise BadOptions("Martian Whist is for exactly 2 players.")
        variant = resolve_options(self.options, options)["variant"]
        sets = VARIANTS[variant]
        by_size = {n: [piece(c, n) for c in COLOUR_ORDER for _ in range(sets)] for n in (3, 2, 1)}
        for n in (3, 2, 1):
            rng.shuffle(by_size[n])
        row = tuple((by_size[3][k], by_size[2][k], by_size[1][k]) for k in range(5 * sets))
        first = rng.randrange(2)
        return WhistState(variant=variant, row=row, stashes=((), ()), first=first, phase=DRAFT, turn=first)

    def to_move(self, s: WhistState) -> int | None:
        """The seat to take, steal or present a tree; None once over."""
        return None if s.phase == OVER else s.turn

    def pending_roll(self, s: WhistState) -> bool:
        """Never: Martian Whist has no dice."""
        return False

    def roll(self, s: WhistState, rng: random.Random) -> Any:
        """Martian Whist has no dice."""
        raise IllegalMove("Martian Whist uses no dice.")

    # -- moves

    def legal_moves(self, s: WhistState) -> list[Move]:
        """Takes from tree tops (and the steal when open) in the draft; trees to present in the tricks."""
        if s.phase == DRAFT:
            moves: list[Move] = list(_takes(s, s.turn))
            if s.steal_open:
                moves.append(Steal())
            return moves
        if s.phase == TRICKS:
            return list(_plays(s))
        return []

    def apply(self, s: WhistState, m: Move) -> WhistState:
        """The state after ``m``; raises IllegalMove with the reason when ``m`` is not legal now."""
        if s.phase == OVER:
            raise IllegalMove("The game is over.")
        if isinstance(m, Take):
            self._check_take(s, m)
            return self._after_take(s, m)
        if isinstance(m, Steal):
            if s.phase != DRAFT or not s.steal_open:
                raise IllegalMove("You may steal only the very first small, instead of your first pick.")
            return self._after_steal(s)
        if isinstance(m, Play):
            self._check_play(s, m.tree)
            return self._after_play(s, m.tree)
        raise IllegalMove("That is not a Martian Whist move.")

    def _check_take(self, s: WhistState, m: Take) -> None:
        if s.phase != DRAFT:
            raise IllegalMove("The draft is over: present a tree, e.g. play R3 Y2 G1.")
        if not 0 <= m.tree < len(s.row):
            raise IllegalMove(
                f"There is no tree {tree_letter(m.tree) if 0 <= m.tree < 26 else m.tree}: "
                f"the trees are a to {tree_letter(len(s.row) - 1)}."
            )
        letter = tree_letter(m.tree)
        tree = s.row[m.tree]
        if not tree:
            raise IllegalMove(f"Tree {letter} is empty.")
        if tree[-1] != m.piece:
            raise IllegalMove(f"The top of tree {letter} is {tree[-1]}, not {m.piece}: only tops may be taken.")
        if not _can_take(s, s.turn, m.piece):
            raise IllegalMove(f"You already hold {s.cap} {SIZE_WORDS[int(m.piece[1])]} pyramids, the most allowed.")

    def _after_take(self, s: WhistState, m: Take) -> WhistState:
        seat = s.turn
        row = list(s.row)
        row[m.tree] = row[m.tree][:-1]
        stashes = list(s.stashes)
        stashes[seat] = canonical((*stashes[seat], m.piece))
        after = WhistState(
            variant=s.variant,
            row=tuple(row),
            stashes=(stashes[0], stashes[1]),
            first=s.first,
            phase=DRAFT,
            turn=1 - seat,
            steal_open=not s.stashes[0] and not s.stashes[1],
            stolen=s.stolen,
            last_take=(seat, m.tree, m.piece),
        )
        if not any(after.row):
            # whoever took the last pyramid leads the first trick (rules page, Tricks)
            return frozen_replace(after, phase=TRICKS, turn=seat, steal_open=False)
        if not _takes(after, after.turn):
            return frozen_replace(after, turn=seat)  # no legal pick: the other player drafts again
        return after

    def _after_steal(self, s: WhistState) -> WhistState:
        seat = s.turn
        taken = s.stashes[1 - seat][0]
        stashes: list[tuple[str, ...]] = [(), ()]
        stashes[seat] = (taken,)
        return frozen_replace(
            s,
            stashes=(stashes[0], stashes[1]),
            turn=1 - seat,
            steal_open=False,
            stolen=True,
            last_take=(seat, -1, taken),
        )

    def _check_play(self, s: WhistState, tree: Tree) -> None:
        if s.phase != TRICKS:
            raise IllegalMove("The draft is still on: take a pyramid, e.g. take R1 a.")
        if len(tree) != 3 or sorted(pips_of(p) for p in tree) != [1, 2, 3]:  # docs/rules/whist.md, "Stage two: tricks"
            raise IllegalMove("A tree needs one large, one medium and one small, e.g. play R3 Y2 G1.")
        need = Counter(tree)
        have = Counter(s.stashes[s.turn])
        for p in tree:
            if have[p] < need[p]:
                raise IllegalMove(f"You have no {piece_words(p)} ({p}) left in your stash.")
        if s.led is not None and not _follows(tree, s.led) and can_follow(s.stashes[s.turn], s.led):
            colours = sorted({p[0] for p in s.led}, key=lambda c: -RANK[c])
            held = [c for c in colours if any(p[0] == c for p in s.stashes[s.turn])]
            raise IllegalMove(
                f"You must follow with a tree holding {_join_or([COLOUR_WORDS[c] for c in colours])}; "
                f"you have {_join_or([COLOUR_WORDS[c] for c in held], 'and')}."
            )

    def _after_play(self, s: WhistState, tree: Tree) -> WhistState:
        seat = s.turn
        stashes = list(s.stashes)
        stashes[seat] = _remove(stashes[seat], tree)
        if s.led is None:
            return frozen_replace(s, stashes=(stashes[0], stashes[1]), turn=1 - seat, led=tree)
        trick = Trick(leader=1 - seat, led=s.led, followed=tree)
        over = not stashes[0] and not stashes[1]
        return frozen_replace(
            s,
            stashes=(stashes[0], stashes[1]),
            turn=trick.winner,
            led=None,
            tricks=(*s.tricks, trick),
            phase=OVER if over else TRICKS,
        )

    # -- leaving and timeouts

    def resign(self, s: WhistState, seat: int) -> WhistState:
        """``seat`` leaves: the other player wins."""
        if s.phase == OVER:
            raise IllegalMove("The game is already over.")
        if seat not in (0, 1):
            raise IllegalMove("There is no such seat.")
        return frozen_replace(s, phase=OVER, resigned=seat)

    def timeout_move(self, s: WhistState) -> Move | None:
        """None: every draft pick and every trick is the player's own choice (rules page, Time)."""
        return None

    def outcome(self, s: WhistState) -> Outcome | None:
        """Higher score wins, equal scores draw; a resignation loses."""
        if s.phase != OVER:
            return None
        points = scores(s)
        if s.resigned is not None:
            winner = 1 - s.resigned
            ranks = (1, 2) if winner == 0 else (2, 1)
            return Outcome(
                ranks,
                f"{SEAT_NAMES[s.resigned]} left the game.",
                (float(points[0]), float(points[1])),
            )
        if points[0] == points[1]:
            return Outcome((1, 1), f"{points[0]} points each.", (float(points[0]), float(points[1])))
        winner = 0 if points[0] > points[1] else 1
        ranks = (1, 2) if winner == 0 else (2, 1)
        return Outcome(
            ranks,
            f"{max(points)} points to {min(points)}.",
            (float(points[0]), float(points[1])),
        )

    # -- notation

    def parse_move(self, s: WhistState, text: str) -> Move:
        """Read ``take R1 c``, ``take c``, ``steal`` or ``play R3 Y2 G1`` (docs/rules/whist.md, Notation)."""
        if not isinstance(text, str) or not text.strip():
            raise BadNotation("Type a move, e.g. take R1 a or play R3 Y2 G1.")
        if len(text) > 60:
            raise BadNotation("That is too long to be a Martian Whist move.")
        words = re.sub(r"[\s/,;:@.\-]+", " ", text.strip().lower())
        words = re.sub(r"\b(?:from|tree)\b", " ", words).strip()
        if words.startswith("roll"):
            raise IllegalMove("Martian Whist uses no dice.")
        verb, rest = "", words
        for candidate in ("steal", "take", "play"):
            if (
                words == candidate
                or words.startswith(candidate + " ")
                or (candidate != "steal" and words.startswith(candidate))
            ):
                verb, rest = candidate, words[len(candidate) :].strip()
                break
        if s.phase == OVER:
            raise IllegalMove("The game is over.")
        if verb == "steal":
            if rest:
                raise BadNotation("Steal takes nothing after it: just type steal.")
            move: Move = Steal()
        elif verb == "take" or (not verb and s.phase == DRAFT):
            if not rest:
                raise BadNotation("Say which pyramid to take, e.g. take R1 a.")
            move = self._parse_take(s, rest)
        else:
            if not rest:
                raise BadNotation("Say which tree to present, large to small, e.g. play R3 Y2 G1.")
            move = Play(_parse_tree(rest))
        self.apply(s, move)  # raises IllegalMove with the reason
        return move

    def _parse_take(self, s: WhistState, rest: str) -> Take:
        compact = rest.replace(" ", "")
        code = letter = ""
        match = _TAKE_PIECE_FIRST.match(compact)
        if match and match.group(2) in "123":
            code, letter = match.group(1) + match.group(2), match.group(3)
        else:
            match = _TAKE_TREE_FIRST.match(compact)
            if not match:
                raise BadNotation("Write a pick as take, a pyramid and a tree letter, e.g. take R1 a.")
            letter, code = match.group(1), (match.group(2) or "") + (match.group(3) or "")
        if code:
            if code[0].upper() not in COLOUR_ORDER or code[1] not in "123":
                raise BadNotation(f"{code.upper()} is not a pyramid: use K, R, Y, G or B and 1, 2 or 3, e.g. R1.")
            code = code.upper()
        if s.phase != DRAFT:
            raise IllegalMove("The draft is over: present a tree, e.g. play R3 Y2 G1.")
        if letter:
            index = ord(letter) - ord("a")
            if index >= len(s.row):
                raise IllegalMove(f"There is no tree {letter}: the trees are a to {tree_letter(len(s.row) - 1)}.")
            top = s.row[index][-1] if s.row[index] else ""
            return Take(index, code or top)
        candidates = [k for k, tree in enumerate(s.row) if tree and tree[-1] == code]
        if not candidates:
            raise IllegalMove(f"No draft tree has {code} on top.")
        if len(candidates) > 1:
            letters = _join([tree_letter(k) for k in candidates])
            raise BadNotation(
                f"{code} is on top of trees {letters}: name the tree, e.g. take {code} {tree_letter(candidates[0])}."
            )
        return Take(candidates[0], code)

    def format_move(self, s: WhistState, m: Move) -> str:
        """``take R1 c``, ``steal`` or ``play R3 Y2 G1``."""
        if isinstance(m, Take):
            return f"take {m.piece} {tree_letter(m.tree)}"
        if isinstance(m, Steal):
            return "steal"
        return f"play {tree_text(m.tree)}"

    def public_notation(self, s: WhistState, notation: str) -> str:
        """Every move of this game is public: its notation as logged."""
        return notation

    def play(self, s: WhistState, m: Move) -> Played[WhistState]:
        """The state after ``m`` and a sentence for the channel log; a follow also says who won the
        trick and why."""
        after = self.apply(s, m)
        return Played(after, self._describe(s, m, after))

    def _describe(self, s: WhistState, m: Move, after: WhistState) -> str:
        seat = s.turn
        who = SEAT_NAMES[seat]
        if isinstance(m, Take):
            return f"{who} takes the {piece_words(m.piece)} ({m.piece}) from tree {tree_letter(m.tree)}."
        if isinstance(m, Steal):
            taken = s.stashes[1 - seat][0] if s.stashes[1 - seat] else "the first small"
            return f"{who} steals {SEAT_NAMES[1 - seat]}'s first pick, the {piece_words(taken)} ({taken})."
        tree = m.tree
        shown = f"{tree_text(tree)} ({'solid ' + COLOUR_WORDS[tree[0][0]] if is_solid(tree) else 'mixed'})"
        if s.led is None:
            return f"{who} leads {shown}."
        leader = 1 - seat
        shown_scores = ", ".join(score_words(after, k) for k in (0, 1))
        return (
            f"{who} follows with {shown}. "
            + explain(s.led, tree, SEAT_NAMES[leader], who)
            + f" Scores: {shown_scores}."
        )

    def choice(self, s: WhistState, m: Move) -> Choice:
        """The steal is a button; takes and trees go in the menu, a follow saying whether it wins."""
        if isinstance(m, Steal):
            taken = s.stashes[1 - s.turn][0] if s.stashes[1 - s.turn] else None
            what = f"the {piece_words(taken)}" if taken else "the first small"
            return make_choice(
                "steal", f"Steal {what}", f"Take {SEAT_NAMES[1 - s.turn]}'s first pick, {what}, instead of drafting."
            )
        if isinstance(m, Take):
            held = _size_count(s.stashes[s.turn], pips_of(m.piece)) + 1
            return make_choice(
                "move",
                f"Take {m.piece} from tree {tree_letter(m.tree)}",
                f"The {piece_words(m.piece)}; your {SIZE_WORDS[pips_of(m.piece)]} pyramids: {held} of {s.cap}.",
            )
        tree = m.tree
        sort = f"solid {COLOUR_WORDS[tree[0][0]]}" if is_solid(tree) else "mixed"
        label = f"{tree_text(tree)} ({sort})"
        if s.led is None:
            return make_choice("move", label, f"Lead this {sort} tree.")
        wins = not resolve(s.led, tree).leader_wins  # said in the label too: a handful of answers are buttons
        verdict = "wins" if wins else "loses"
        return make_choice("move", f"{label} · {verdict}", f"{verdict.title()} the trick against {tree_text(s.led)}.")

    def seat_name(self, s: WhistState, seat: int) -> str:
        """North for seat 0, South for seat 1."""
        return SEAT_NAMES[seat]

    def status_line(self, s: WhistState) -> str:
        """Whose turn, which phase and what is pending, in one line."""
        if s.phase == OVER:
            outcome = self.outcome(s)
            return f"Game over. {outcome.reason if outcome else ''}".strip()
        who = SEAT_NAMES[s.turn]
        if s.phase == DRAFT:
            pick = f"Draft, pick {s.picks + 1} of {15 * s.sets}"
            if s.steal_open:
                return f"{pick}: {who} to take a top pyramid or steal {SEAT_NAMES[1 - s.turn]}'s small."
            if s.picks == 0:
                return f"{pick}: {who} drafts first and takes any small."
            return f"{pick}: {who} to take a top pyramid."
        number = len(s.tricks) + 1
        north, south = scores(s)
        tally = f"(North {north}, South {south})"
        if s.led is None:
            return f"Trick {number} of {s.total_tricks}: {who} to lead {tally}."
        return f"Trick {number} of {s.total_tricks}: {who} to follow {tree_text(s.led)} {tally}."

    # -- storage

    def to_json(self, s: WhistState) -> dict[str, Any]:
        """A JSON-ready dict; trees are written bottom to top, ``R3/Y2/G1``."""
        return {
            "variant": s.variant,
            "row": ["/".join(t) for t in s.row],
            "stashes": [list(s.stashes[0]), list(s.stashes[1])],
            "first": s.first,
            "phase": str(s.phase),
            "turn": s.turn,
            "steal_open": s.steal_open,
            "stolen": s.stolen,
            "last_take": list(s.last_take) if s.last_take else None,
            "led": "/".join(s.led) if s.led else None,
            "tricks": [
                {"leader": t.leader, "led": "/".join(t.led), "followed": "/".join(t.followed)} for t in s.tricks
            ],
            "resigned": s.resigned,
        }

    def from_json(self, d: dict[str, Any]) -> WhistState:
        """The state back from ``to_json``; raises BadState on damaged data."""
        try:
            return _from_json(d)
        except BadState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise BadState("The stored Martian Whist game is damaged and cannot be read.") from None


def _join_or(items: Sequence[str], word: str = "or") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _parse_tree(rest: str) -> Tree:
    compact = rest.replace(" ", "")
    if _PIECES.match(compact):
        codes = [compact[k : k + 2].upper() for k in (0, 2, 4)]
    elif _COLOURS.match(compact):
        codes = [compact[k].upper() + str(3 - k) for k in range(3)]
    else:
        raise BadNotation("Write a tree as three pyramids, large to small, e.g. play R3 Y2 G1.")
    for code in codes:
        if code[0] not in COLOUR_ORDER:
            raise BadNotation(f"{code[0]} is not a colour in this game: use K, R, Y, G or B.")
        if code[1] not in "123":
            raise BadNotation(f"{code} is not a pyramid: sizes are 1, 2 and 3.")
    if sorted(int(c[1]) for c in codes) != [1, 2, 3]:
        raise BadNotation("A tree needs one large, one medium and one small, e.g. play R3 Y2 G1.")
    ordered = sorted(codes, key=lambda c: -int(c[1]))
    return ordered[0], ordered[1], ordered[2]


# --- validation of stored states --------------------------------------------------------------------


_READ = JsonReader("Martian Whist")


def _code(value: Any) -> Piece:
    if not isinstance(value, str) or len(value) != 2 or value[0] not in COLOUR_ORDER or value[1] not in "123":
        raise _READ.bad(f"{value!r} is not a pyramid")
    return value


def _stored_tree(value: Any, partial: bool = False) -> tuple[Piece, ...]:
    if not isinstance(value, str):
        raise _READ.bad("a tree is not text")
    pieces = tuple(_code(p) for p in value.split("/")) if value else ()
    sizes = tuple(int(p[1]) for p in pieces)
    if (partial and sizes != (3, 2, 1)[: len(sizes)]) or (not partial and sizes != (3, 2, 1)):
        raise _READ.bad(f"{value!r} is not a tree")
    return pieces


def _from_json(d: dict[str, Any]) -> WhistState:
    d = _READ.record(d)
    variant = _READ.read_str(d, "variant", choices=VARIANTS)
    sets = VARIANTS[variant]
    row = tuple(_stored_tree(t, partial=True) for t in _READ.read_list(d, "row", length=5 * sets))
    stash_data = _READ.read_list(d, "stashes", length=2)
    stashes = (
        canonical(_code(p) for p in _READ.check_list(stash_data[0], "the first stash")),
        canonical(_code(p) for p in _READ.check_list(stash_data[1], "the second stash")),
    )
    phase = _READ.read_enum(d, "phase", Phase)
    led = cast(Tree | None, _READ.read_optional(d, "led", _stored_tree))
    tricks = tuple(
        Trick(
            _READ.read_int(t, "leader", 0, 1, "a trick leader"),
            _stored_tree(_READ.field(t, "led")),  # type: ignore[arg-type]
            _stored_tree(_READ.field(t, "followed")),  # type: ignore[arg-type]
        )
        for t in _READ.read_list(d, "tricks", _READ.record)
    )
    last = _READ.read_optional(d, "last_take", lambda v: _READ.check_list(v, "the last pick", length=3))
    last_take = None
    if last is not None:
        last_take = (
            _READ.check_int(last[0], 0, 1, "the last picker"),
            _READ.check_int(last[1], -1, len(row) - 1, "the last pick's tree"),
            _code(last[2]),
        )
    resigned = _READ.read_optional(d, "resigned", lambda v: _READ.check_int(v, 0, 1, "the resigned seat"))
    state = WhistState(
        variant=variant,
        row=row,
        stashes=stashes,
        first=_READ.read_int(d, "first", 0, 1, "the first drafter"),
        phase=phase,
        turn=_READ.read_int(d, "turn", 0, 1, "the seat to move"),
        steal_open=_READ.read_flag(d, "steal_open"),
        stolen=_READ.read_flag(d, "stolen"),
        last_take=last_take,
        led=led,
        tricks=tricks,
        resigned=resigned,
    )
    _check_consistent(state)
    return state


def _check_consistent(s: WhistState) -> None:
    counts: Counter[str] = Counter(p for t in s.row for p in t)
    for stash in s.stashes:
        counts.update(stash)
    for trick in s.tricks:
        counts.update(trick.led)
        counts.update(trick.followed)
    if s.led:
        counts.update(s.led)
    expected = {piece(c, n): s.sets for c in COLOUR_ORDER for n in (1, 2, 3)}
    if counts != expected:
        raise _READ.bad("pyramids are missing or doubled")
    for stash in s.stashes:
        if any(_size_count(stash, n) > s.cap for n in (1, 2, 3)):
            raise _READ.bad("a stash holds too many pyramids of one size")
    if s.phase == DRAFT and (s.tricks or s.led or not any(s.row)):
        raise _READ.bad("the draft is mixed up with the tricks")
    if s.phase == TRICKS and (any(s.row) or len(s.tricks) >= s.total_tricks):
        raise _READ.bad("the tricks started before the draft ended")
    if s.steal_open and s.phase != OVER and (s.phase != DRAFT or s.picks != 1 or s.turn == s.first):
        raise _READ.bad("the steal is open at the wrong time")
    if s.resigned is None and s.phase == OVER and (any(s.row) or any(s.stashes) or s.led):
        raise _READ.bad("the game ended with pyramids still in play")


RULES: Rules[WhistState, Move] = WhistRules()  # mypy checks the engine against the protocol
