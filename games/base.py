"""The game protocol every engine implements, with its errors and outcome type.

Engines are pure: no discord, no PIL, no database, no clock and no global random.
States and moves are immutable values; ``apply`` returns a new state.  Dice are moves:
the service hands a seeded ``random.Random`` to ``roll`` and stores the result in the
move log, so replaying the log reproduces a game exactly.
"""

from __future__ import annotations

import dataclasses
import random
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)


class GameError(Exception):
    """A refusal fit to show a player as one sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class BadNotation(GameError):
    """The text is not a move in the game's notation."""


class IllegalMove(GameError):
    """The move is well formed but the rules forbid it now."""


class NotYourTurn(GameError):
    """The actor is not the seat that must act now."""


class BadState(GameError):
    """A stored state failed validation."""


class BadOptions(GameError):
    """The options or player count given at creation do not make a playable game."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``ranks[seat]`` is 1 for the winner(s); equal numbers share a place, so a draw is all 1s.
    ``scores`` holds per-seat numbers when the game keeps a score (points, turns taken...), and
    ``details`` says them in words, with what the places were decided on.
    ``reason`` says why the game ended ("Red left the game.", "17 points to 1."); the ranks say who
    won, and whoever shows the result names the winners beside it.
    """

    ranks: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None
    details: tuple[str, ...] | None = None  # per seat, what the result shows beside its place ("2 bases, 1 capture")

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats ranked first."""
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)

    @property
    def is_draw(self) -> bool:
        """True when every seat shares first place."""
        return len(self.ranks) > 1 and all(r == 1 for r in self.ranks)


# Kinds of decision the Discord layer shows as buttons; every other kind (``move``...) goes in a menu.
BUTTON_KINDS = frozenset(
    {"counter", "decline", "pass", "end", "steal", "reroll", "stay", "choose", "accept", "attack-offer", "yes", "no"}
)
LABEL_LIMIT = 80  # characters of a choice's label (a Discord button)
HINT_LIMIT = 100  # characters of a choice's hint (a select option's description)


@dataclass(frozen=True)
class Choice:
    """What one legal move is, as a player sees it on a button or in a menu.

    ``kind`` is the game's word for the decision (``counter``, ``reroll``, ``move``...; the kinds in
    ``BUTTON_KINDS`` become buttons), ``label`` a short name readable on a phone (at most 80
    characters), ``hint`` one sentence about it (at most 100 characters, may be empty).
    """

    kind: str
    label: str
    hint: str = ""


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def make_choice(kind: str, label: str, hint: str = "") -> Choice:
    """A ``Choice`` with the label and hint clipped to their limits."""
    return Choice(kind, clip(label, LABEL_LIMIT), clip(hint, HINT_LIMIT))


@dataclass(frozen=True)
class OptionSpec:
    """One creation-time setting a game offers (shown in ``/x new`` and validated)."""

    name: str
    description: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any) -> Any:
        """Convert ``value`` to the option's type and check it, raising ``BadOptions``."""
        if value is None:
            return self.default
        kind = type(self.default)
        try:
            if kind is bool and isinstance(value, str):
                lowered = value.strip().lower()
                if lowered not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                    raise ValueError(value)
                out: Any = lowered in ("true", "yes", "on", "1")
            else:
                out = kind(value)
        except (TypeError, ValueError):
            raise BadOptions(
                f"{self.name} must be {KIND_WORDS.get(kind, kind.__name__)}, not {quote_typed(value)}."
            ) from None
        if self.choices and out not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise BadOptions(f"{self.name} must be one of {shown}.")
        if self.minimum is not None and out < self.minimum:
            raise BadOptions(f"{self.name} must be at least {self.minimum}.")
        if self.maximum is not None and out > self.maximum:
            raise BadOptions(f"{self.name} must be at most {self.maximum}.")
        return out


# what an option's type is called in a refusal
KIND_WORDS: dict[type, str] = {bool: "yes or no", int: "a whole number", float: "a number", str: "text"}

_BIDI = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def quote_typed(text: Any, limit: int = 24) -> str:
    """A short excerpt of what a player typed, in backticks, to echo it in a refusal:
    ``f"{quote_typed(text)} is not a square."`` reads "`xxxxxxxxxxxxxxxxxxxxxxx…` is not a square."

    Whitespace runs become one space; control, direction-changing and backtick characters cannot break
    out of the excerpt (a backtick is shown as ``ˋ``), so no markup typed in it is drawn.
    """
    whole = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in str(text))  # lone surrogates
    flat = " ".join(whole.translate(_BIDI).split())
    flat = "".join(c for c in flat if unicodedata.category(c) != "Cc").replace("`", "ˋ")
    if not flat:
        return "`(empty)`"
    if len(flat) > limit:
        flat = flat[: max(1, limit - 1)].rstrip() + "…"
    return f"`{flat}`"


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults and validate ``given`` against ``specs``; unknown names are refused."""
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise BadOptions(f"Unknown option {quote_typed(unknown[0])}.")
    return {name: spec.coerce(given.get(name)) for name, spec in known.items()}


class Played(NamedTuple, Generic[S]):
    """A move played: the state after it and the sentence for the channel log, from one step."""

    state: S
    description: str


class Rules(Protocol, Generic[S, M]):
    """What the session service, renderers and cogs need from a game."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]

    def new_game(self, players: int, options: Mapping[str, Any], rng: random.Random) -> S:
        """A fresh state for ``players`` seats; raises ``BadOptions``."""

    def to_move(self, s: S) -> int | None:
        """The seat that must act now; None once the game is over."""

    def pending_roll(self, s: S) -> bool:
        """True when the seat to move must roll before anything else."""

    def roll(self, s: S, rng: random.Random) -> M:
        """The dice result as a move, to be applied."""

    def legal_moves(self, s: S) -> Sequence[M]:
        """Every legal move in a deterministic order; empty while a roll is pending."""

    def apply(self, s: S, m: M) -> S:
        """The state after ``m``; raises ``IllegalMove``; never mutates ``s``."""

    def resign(self, s: S, seat: int) -> S:
        """The state after ``seat`` leaves the game (resignation, timeout removal).

        In a two-seat game the other seat wins; otherwise play goes on without the seat,
        which is ranked below every seat still playing.
        """

    def timeout_move(self, s: S) -> M | None:
        """The safe default taken when the seat to move runs out of time.

        A pass, a skipped turn or a declined offer, where the rules have one; None when the
        game cannot go on without that player's own choice (the service then resigns the seat).
        Never called while a roll is pending: the service rolls for the absent player.
        """

    def outcome(self, s: S) -> Outcome | None:
        """Ranks per seat and the reason, once the game is over."""

    def parse_move(self, s: S, text: str) -> M:
        """A move from the game's notation; raises ``BadNotation`` or ``IllegalMove``."""

    def format_move(self, s: S, m: M) -> str:
        """The notation of ``m``; ``parse_move(s, format_move(s, m)) == m``."""

    def public_notation(self, s: S, notation: str) -> str:
        """A logged move's notation as anyone may read it while the game stands at ``s`` (hides secrets)."""
        ...

    def play(self, s: S, m: M) -> Played[S]:
        """The state after ``m`` and a sentence for the channel log saying what it did, e.g. "Red moves
        the medium 3 spaces clockwise": both from one application of the move.  Raises ``IllegalMove``.

        ``apply`` is the same step without the words, for search.
        """

    def choice(self, s: S, m: M) -> Choice:
        """What the legal move ``m`` is, for a button or a menu entry (see ``Choice``).

        Yes/no offers (attack or not, counter, steal, re-roll or stay, pass, end) have kinds in
        ``BUTTON_KINDS``; ordinary moves are ``move``.
        """

    def seat_name(self, s: S, seat: int) -> str:
        """How the seat is called in this game (usually its colour)."""

    def status_line(self, s: S) -> str:
        """One line: whose turn, which phase, what is pending."""

    def to_json(self, s: S) -> dict[str, Any]:
        """A JSON-ready dict of the state."""

    def from_json(self, d: dict[str, Any]) -> S:
        """The state back from ``to_json``; validates and raises ``BadState``."""

    # Optional, outside the protocol (most games have no use for them; see ``seat_state`` and ``turn_owner``):
    #     def acting_state(self, s: S, seat: int) -> S | None
    #     def turn_owner(self, s: S) -> int | None


def acting_together(rules: Rules[S, M], s: S) -> bool:
    """True while the players of ``s`` act at the same time (the optional ``acting_together(s)`` of a game
    with ``acting_state``); when such a phase ends, the seat to move starts its turn afresh."""
    together: Callable[[S], bool] | None = getattr(rules, "acting_together", None)
    return bool(together is not None and together(s))


def turn_owner(rules: Rules[S, M], s: S) -> int | None:
    """The seat whose turn it is in ``s``: the seat to move, unless the game asks another seat for a
    decision inside someone's turn (Martian Combat's offered attack and counter attack); such a game's
    rules have the optional method ``turn_owner(s)``.  None once the game is over."""
    owner: Callable[[S], int | None] | None = getattr(rules, "turn_owner", None)
    return rules.to_move(s) if owner is None else owner(s)


def seat_state(rules: Rules[S, M], s: S, seat: int) -> S | None:
    """The state in which ``seat`` reads and checks its moves now, or None when it may not act now.

    The seat to move acts in ``s`` itself.  Another seat acts only in a game whose players may act
    at the same time (Martian Treasure Hunt's face-down arrangements); such a game's rules have the
    optional method ``acting_state(s, seat)``: ``s`` as ``seat`` may act in it, or None.  In the state
    it returns ``seat`` is to move, so ``parse_move``, ``legal_moves`` and ``choice`` there give that
    seat's moves, each carrying its seat; such a move is played on ``s`` itself (``play``, ``apply``;
    ``format_move`` on ``s`` names the seat, so the log replays) and leaves the turn with the seat to
    move.  Without the method (the default), nobody acts out of turn.
    """
    if rules.to_move(s) == seat:
        return s
    acting: Callable[[S, int], S | None] | None = getattr(rules, "acting_state", None)
    return None if acting is None else acting(s, seat)


def acting_seats(rules: Rules[S, M], s: S, seats: Sequence[int]) -> list[int]:
    """The seats among ``seats`` that may act in ``s`` now: the seat to move first, then, in a phase
    played at the same time (``acting_together``), every other seat that may act (``seat_state``)."""
    to_move = rules.to_move(s)
    first = [seat for seat in seats if seat == to_move]
    if not acting_together(rules, s):
        return first
    return first + [seat for seat in seats if seat != to_move and seat_state(rules, s, seat) is not None]


def plural(count: int, noun: str) -> str:
    """``1 turn``, ``3 turns``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def default_resign_ranks(out_order: Sequence[int], players: int, winners: Sequence[int]) -> tuple[int, ...]:
    """Ranks where ``winners`` share first, players still in follow, and those who left last.

    ``out_order`` lists seats in the order they left; the one who left first ranks lowest.
    """
    ranks = [0] * players
    for seat in winners:
        ranks[seat] = 1
    still_in = [seat for seat in range(players) if seat not in winners and seat not in out_order]
    next_rank = len(winners) + 1 if winners else 1
    for seat in still_in:
        ranks[seat] = next_rank
    next_rank += len(still_in) if still_in else 0
    for seat in reversed(list(out_order)):
        ranks[seat] = next_rank
        next_rank += 1
    return tuple(ranks)


def frozen_replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the engines' frozen states, without running ``__init__``.

    Step functions copy states hundreds of thousands of times in a search or a playout, and the
    generated ``__init__`` with its frozen ``object.__setattr__`` per field was most of a copy's cost.
    The copy takes the fields alone: whatever a state keeps on itself besides them (a
    ``cached_property``, a value an engine stores in ``__dict__``) is left behind and worked out
    again for the new state.  A class that validates or derives in ``__post_init__``, uses slots, or
    has fields outside ``__init__`` gets ``dataclasses.replace``.
    """
    cls = type(obj)
    names = _PLAIN_FIELDS.get(cls)
    if names is None:
        names = _plain_fields(cls)
    if not names:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - names)[0]!r}")
    new = object.__new__(cls)
    values = new.__dict__
    values.update(obj.__dict__)
    if len(values) != len(names):  # something kept besides the fields
        for name in [name for name in values if name not in names]:
            del values[name]
    values.update(changes)
    return new


# per dataclass, its field names, or an empty set when ``frozen_replace`` must use ``dataclasses.replace``
_PLAIN_FIELDS: dict[type, frozenset[str]] = {}


def _plain_fields(cls: type) -> frozenset[str]:
    """The field names of a dataclass ``frozen_replace`` may copy directly, or an empty set when it may not."""
    fields = dataclasses.fields(cls)
    plain = not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__") and all(f.init for f in fields)
    _PLAIN_FIELDS[cls] = frozenset(f.name for f in fields) if plain else frozenset()
    return _PLAIN_FIELDS[cls]


# --- reading stored states ---------------------------------------------------------------------------
#
# Every codec reads its JSON through these helpers, so a damaged state is refused the same way in
# every game: ``BadState`` with one sentence naming the game and the field at fault.

_MISSING = object()


def damaged(game: str, why: str) -> BadState:
    """The refusal for a stored ``game`` state that cannot be read: ``why`` names the field at fault."""
    return BadState(f"The stored {game} game is damaged: {why}.")


class JsonReader:
    """Typed access to a stored state's JSON that raises ``BadState`` naming the field at fault.

    ``game`` is the game's title, used in every message.  Each ``read_*`` method takes the record
    (a dict) and the key; the ``check_*`` methods check a value already taken out of a record
    (an item of a list), with ``what`` naming it.
    """

    def __init__(self, game: str) -> None:
        self.game = game

    def bad(self, why: str) -> BadState:
        """The ``BadState`` for this game with the reason ``why``."""
        return damaged(self.game, why)

    def require(self, condition: bool, why: str) -> None:
        """Refuse the state, saying ``why``, unless ``condition`` holds (a check between fields)."""
        if not condition:
            raise self.bad(why)

    def record(self, value: Any, what: str = "the state") -> dict[str, Any]:
        """``value`` if it is a JSON object (a dict)."""
        if not isinstance(value, dict):
            raise self.bad(f"{what} is not a record")
        return value

    @staticmethod
    def _name(key: str, what: str | None) -> str:
        return key if what is None or what == key else f"{what} ({key})"

    def field(self, d: Mapping[str, Any], key: str) -> Any:
        """The raw value of ``key``; a missing key is refused."""
        if not isinstance(d, Mapping):
            raise self.bad(f"the record holding {key} is not a record")
        value = d.get(key, _MISSING)
        if value is _MISSING:
            raise self.bad(f"{key} is missing")
        return value

    def check_int(self, value: Any, low: int, high: int, what: str) -> int:
        """``value`` if it is a whole number (not a bool) from ``low`` to ``high``."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.bad(f"{what} is not a whole number")
        if not low <= value <= high:
            raise self.bad(f"{what} is {value}, outside {low} to {high}")
        return value

    def read_int(self, d: Mapping[str, Any], key: str, low: int, high: int, what: str | None = None) -> int:
        """The whole number under ``key``, from ``low`` to ``high``."""
        return self.check_int(self.field(d, key), low, high, self._name(key, what))

    def read_int_or_none(
        self, d: Mapping[str, Any], key: str, low: int, high: int, what: str | None = None
    ) -> int | None:
        """None when ``key`` holds null, else the whole number under it, from ``low`` to ``high``."""
        return self.read_optional(d, key, lambda value: self.check_int(value, low, high, self._name(key, what)))

    def check_flag(self, value: Any, what: str) -> bool:
        """``value`` if it is true or false."""
        if not isinstance(value, bool):
            raise self.bad(f"{what} is not true or false")
        return value

    def read_flag(self, d: Mapping[str, Any], key: str, what: str | None = None) -> bool:
        """The true-or-false value under ``key``."""
        return self.check_flag(self.field(d, key), self._name(key, what))

    def check_str(self, value: Any, what: str, choices: Collection[str] | None = None) -> str:
        """``value`` if it is text (one of ``choices`` when given)."""
        if not isinstance(value, str):
            raise self.bad(f"{what} is not text")
        if choices is not None and value not in choices:
            raise self.bad(f"{what} {value!r} is not one of {', '.join(repr(c) for c in choices)}")
        return value

    def read_str(
        self, d: Mapping[str, Any], key: str, choices: Collection[str] | None = None, what: str | None = None
    ) -> str:
        """The text under ``key`` (one of ``choices`` when given)."""
        return self.check_str(self.field(d, key), self._name(key, what), choices)

    def check_enum(self, value: Any, enum: type[E], what: str) -> E:
        """The member of the string enum ``enum`` stored as ``value``."""
        if not isinstance(value, str):
            raise self.bad(f"{what} is not text")
        try:
            return enum(value)
        except ValueError:
            raise self.bad(f"{what} {value!r} is unknown") from None

    def read_enum(self, d: Mapping[str, Any], key: str, enum: type[E], what: str | None = None) -> E:
        """The member of ``enum`` stored under ``key`` (a phase, a variant...)."""
        return self.check_enum(self.field(d, key), enum, self._name(key, what))

    def check_list(self, value: Any, what: str, length: int | None = None) -> list[Any]:
        """``value`` if it is a list (of exactly ``length`` items when given)."""
        if not isinstance(value, list):
            raise self.bad(f"{what} is not a list")
        if length is not None and len(value) != length:
            raise self.bad(f"{what} holds {len(value)} items instead of {length}")
        return value

    def read_list(
        self,
        d: Mapping[str, Any],
        key: str,
        item: Callable[[Any], Any] | None = None,
        length: int | None = None,
        what: str | None = None,
    ) -> list[Any]:
        """The list under ``key``, each item passed through ``item`` when given."""
        values = self.check_list(self.field(d, key), self._name(key, what), length)
        return [item(v) for v in values] if item is not None else values

    def read_seats(self, d: Mapping[str, Any], key: str, players: int, what: str | None = None) -> tuple[int, ...]:
        """The list under ``key`` of distinct seats of a ``players``-seat game."""
        name = self._name(key, what)
        seats = tuple(self.check_int(x, 0, players - 1, f"a seat in {name}") for x in self.read_list(d, key, what=name))
        self.require(len(set(seats)) == len(seats), f"{name} lists a seat twice")
        return seats

    def read_optional(self, d: Mapping[str, Any], key: str, read: Callable[[Any], T]) -> T | None:
        """None when ``key`` holds null, else its value passed through ``read``; a missing key is refused."""
        value = self.field(d, key)
        return None if value is None else read(value)
