"""Hypothesis strategies for hostile input: every command, option, autocomplete and button of the tree.

A ``Case`` is one or two interactions sent at the same instant.  Option values are drawn from what
the option declares (valid values, to reach deep code) mixed with what a hostile client could send
instead: empty and huge text, unicode digits, lone surrogates, direction marks, mentions, markdown,
numbers out of range or of the wrong type, choices not offered, ids that resolve to nothing.
Values that name a member, channel or role are ``Ref`` objects, resolved in the world at send time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from discord.enums import AppCommandOptionType as T
from hypothesis import strategies as st

from tests.fuzz.tree import CommandSpec, OptionSpec

PHASES = ("none", "lobby", "running", "finished", "tournament-open", "tournament-running")
ACTORS = ("alice", "bob", "carol", "dave", "olga")  # mallory never acts: nothing may ever ping her
BUTTON_ACTIONS = ("join", "start", "start-now", "roll", "rematch", "undo-yes", "undo-no")
KNOWN_ACTIONS = (*BUTTON_ACTIONS, "pick", "menu", "checkin")

HOSTILE_TEXT = (
    "",
    " ",
    "\t\n ",
    "\n" * 40,
    "a" * 6000,
    "x " * 3000,
    "R1 c1-c2 " * 700,
    "٣",
    "١٢٣",
    "１２",
    "𝟙𝟚",
    "\u0663\u0660",
    "\ud800",
    "a\udfffb",
    "\u202eevil\u202c",
    "\u200b",
    "\u200b" * 30,
    "\u2066R1 c1-c2\u2069",
    "@everyone",
    "@here",
    "<@{mallory}>",
    "<@!{mallory}>",
    "<@&{role}>",
    "hi @everyone <@{mallory}> <@&{role}>",
    "**bold** __under__ ~~strike~~ ||spoiler|| `code` ```block``` > quote # head",
    "`",
    "```",
    "\\",
    "\x00",
    "\x1b[31mred",
    "None",
    "null",
    "-1",
    "0",
    "9" * 30,
    "1e309",
    "NaN",
    "inf",
    "%s %d {0} {name}",
    "'; DROP TABLE games; --",
    "c" * 101,
)
PLAUSIBLE_TEXT = (
    "R1 c1-c2",
    "c2xd3",
    "pass",
    "counter",
    "no action",
    "choose swap",
    "swap R2 b3 with Y2 e4",
    "b2 e5",
    "d4",
    "reroll",
    "stay",
    "543210",
    "default",
    "3:c2-c5",
    "R1 c",
    "R3 Y2 G1",
    "2h",
    "1d 6h",
    "2026-05-01 18:00",
    "win",
    "loss",
    "draw",
    "double forfeit",
    "2 1 3",
    "turn_limit=100",
    "short",
    "simple",
    "advanced",
    "Fuzz Cup",
)
HOSTILE_INTS = (
    -1,
    0,
    1,
    2**31,
    2**53 - 1,
    2**53,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    -(10**30),
)
WRONG_TYPES: tuple[Any, ...] = (
    "abc",
    "12",
    "٣",
    1.5,
    -0.0,
    float("nan"),
    float("inf"),
    True,
    False,
    None,
    [],
    {},
    7,
    [1, 2],
    {"a": 1},
)
FORGED_IDS = ("abc", "0", "-1", "9" * 25, str(2**64), str(2**63), "12345", 12345, None, "", "<@1>")


@dataclass(frozen=True)
class Ref:
    """A member, channel or role of the world, named by its role in it: ``Ref("member", "bob")``."""

    kind: str
    key: str


@dataclass(frozen=True)
class Forged:
    """An id no Discord client would send, put in the payload as it is (a string or a bare number)."""

    value: str | int


@dataclass(frozen=True)
class Missing:
    """The marker of an option left out, required or not."""


MISSING = Missing()


@dataclass(frozen=True)
class Slash:
    """A slash command with options exactly as given (Discord's validation bypassed)."""

    command: CommandSpec
    options: tuple[tuple[str, int, Any], ...]  # (name, wire type, value)

    @property
    def label(self) -> str:
        return f"/{self.command.name}"


@dataclass(frozen=True)
class Autocomplete:
    """An autocomplete request for one option, with ``current`` of any type."""

    command: CommandSpec
    option: OptionSpec
    current: Any
    filled: tuple[tuple[str, int, Any], ...] = ()

    @property
    def label(self) -> str:
        return f"autocomplete /{self.command.name} {self.option.name}"


@dataclass(frozen=True)
class Press:
    """A press on a component with ``custom_id`` (a button, or a select with ``values``)."""

    custom_id: str
    values: tuple[Any, ...] | None = None

    @property
    def label(self) -> str:
        if self.custom_id.startswith("@live"):
            return "live control"
        kind = "select" if self.values is not None else "button"
        prefix, _, rest = self.custom_id.partition(":")
        action = rest.split(":")[0]
        if prefix not in ("pg", "pt"):
            return f"{kind} <forged>"
        return f"{kind} {prefix}:{action if action in KNOWN_ACTIONS else '<unknown>'}"


Action = Slash | Autocomplete | Press


@dataclass(frozen=True)
class Step:
    """One interaction: who, where (a phase's channel) and what."""

    actor: str
    phase: str
    action: Action


@dataclass(frozen=True)
class Case:
    """One interaction, or two sent at the same instant (a double click)."""

    steps: tuple[Step, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def label(self) -> str:
        return self.steps[0].action.label


# ------------------------------------------------------------------------------------------ values


def _text(spec: OptionSpec) -> st.SearchStrategy[str]:
    low = int(spec.min_value or 0)
    high = int(spec.max_value or 100)
    fitting = [t for t in PLAUSIBLE_TEXT if low <= len(t) <= high]
    typed = st.text(min_size=low, max_size=min(high, 40))
    return st.one_of(st.sampled_from(fitting), typed) if fitting else typed


def valid_value(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """A value Discord would accept for ``spec``."""
    if spec.choices:
        return st.sampled_from(spec.choices)
    if spec.type is T.string:
        return _text(spec)
    if spec.type is T.integer:
        low = int(spec.min_value) if spec.min_value is not None else -(2**53 - 1)
        high = int(spec.max_value) if spec.max_value is not None else 2**53 - 1
        edges = st.sampled_from(sorted({low, high, max(low, min(high, 1))}))
        return st.one_of(edges, st.integers(low, high))
    if spec.type is T.number:
        least = float(spec.min_value) if spec.min_value is not None else -1e9
        most = float(spec.max_value) if spec.max_value is not None else 1e9
        return st.floats(least, most, allow_nan=False)
    if spec.type is T.boolean:
        return st.booleans()
    if spec.type is T.user:
        return st.sampled_from([Ref("member", a) for a in ACTORS])
    if spec.type is T.channel:
        return st.sampled_from([Ref("channel", p) for p in PHASES])
    if spec.type is T.role:
        return st.just(Ref("role", "organisers"))
    if spec.type is T.mentionable:
        return st.sampled_from([Ref("member", "bob"), Ref("role", "organisers")])
    if spec.type is T.attachment:
        return st.just(Ref("attachment", "notes.txt"))
    return st.none()


def hostile_value(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """A value no Discord client sends for ``spec``: wrong type, out of range, too long, unresolved."""
    wrong = st.sampled_from(WRONG_TYPES)
    if spec.snowflake:
        return st.one_of(st.sampled_from(FORGED_IDS).map(lambda v: Forged(v) if v is not None else v), wrong)
    ints = st.one_of(st.sampled_from(HOSTILE_INTS), st.integers())
    if spec.type is T.integer or spec.type is T.number:
        outside = []
        if spec.min_value is not None:
            outside.append(st.just(int(spec.min_value) - 1))
        if spec.max_value is not None:
            outside.append(st.just(int(spec.max_value) + 1))
        return st.one_of(ints, wrong, *outside)
    if spec.type is T.boolean:
        return st.one_of(wrong, ints)
    texts = st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=30),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=150, max_size=300),
    )
    if spec.choices:
        texts = st.one_of(texts, st.just("bogus-choice"))
    return st.one_of(texts, ints, wrong)


def option_value(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """What the fuzzer sends for ``spec``: mostly valid values, often hostile ones, sometimes nothing."""
    return weighted((60, valid_value(spec)), (30, hostile_value(spec)), (10, st.just(MISSING)))


def options_for(command: CommandSpec, skip: str | None = None) -> st.SearchStrategy[tuple[tuple[str, int, Any], ...]]:
    """Values for some of ``command``'s options (required ones usually present)."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[tuple[str, int, Any], ...]:
        out = []
        for spec in command.options:
            if spec.name == skip:
                continue
            if not spec.required and draw(st.booleans()):
                continue
            value = draw(option_value(spec))
            if value is MISSING:
                continue
            out.append((spec.name, int(spec.type.value), value))
        if draw(st.integers(0, 19)) == 0:  # an option the command does not have
            out.append(("no_such_option", int(T.string.value), draw(st.sampled_from(HOSTILE_TEXT))))
        return tuple(out)

    return build()


# ------------------------------------------------------------------------------------------- cases


def slash(commands: list[CommandSpec]) -> st.SearchStrategy[Slash]:
    """Any command of the tree with drawn options."""
    return st.sampled_from(commands).flatmap(lambda c: options_for(c).map(lambda o: Slash(c, o)))


def autocomplete(commands: list[CommandSpec]) -> st.SearchStrategy[Autocomplete]:
    """An autocomplete request of any option that has one, with ``current`` of any type."""
    pairs = [(c, o) for c in commands for o in c.autocompleted]
    current = st.one_of(
        st.sampled_from(PLAUSIBLE_TEXT),
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=20),
        st.sampled_from(HOSTILE_INTS),
        st.sampled_from(WRONG_TYPES),
    )

    @st.composite
    def build(draw: st.DrawFn) -> Autocomplete:
        command, option = draw(st.sampled_from(pairs))
        return Autocomplete(command, option, draw(current), draw(options_for(command, skip=option.name)))

    return build()


def custom_ids() -> st.SearchStrategy[str]:
    """Button ids as the bot writes them (``pg:<action>:<id>``), and forged ones."""
    action = st.one_of(
        st.sampled_from(BUTTON_ACTIONS),
        st.sampled_from(("bogus", "a" * 20, "x-y", "JOIN", "join!", "", "pick", "menu")),
        st.from_regex(r"[a-z-]{1,20}", fullmatch=True),
    )
    number = st.one_of(
        st.sampled_from(("1", "2", "3", "0", "-1", "abc", "", "٣", "9" * 19, "9" * 24, "9" * 60, str(2**63))),
        st.integers(1, 12).map(str),
        st.integers(0, 10**25).map(str),
    )
    game_button = st.builds(lambda a, n: f"pg:{a}:{n}", action, number)
    pick = st.builds(lambda g, p, i: f"pg:pick:{g}:{p}:{i}", number, number, number)
    tournament = st.builds(lambda a, n: f"pt:{a}:{n}", st.sampled_from(("join", "checkin", "drop", "")), number)
    other = st.builds(lambda p, t: p + t, st.sampled_from(("pg:", "pt:")), st.text(max_size=40))
    return weighted((50, game_button), (20, pick), (20, tournament), (10, other))


def press() -> st.SearchStrategy[Press]:
    """A button press, or a select on a move menu with forged values."""
    buttons = st.builds(Press, custom_ids())
    number = st.one_of(st.integers(0, 40).map(str), st.sampled_from(("-1", "abc", "9" * 30, "")))
    menu_id = st.builds(lambda g, p: f"pg:menu:{g}:{p}", number, number)
    values = st.lists(st.one_of(number, st.sampled_from(HOSTILE_TEXT).map(lambda t: t[:100])), max_size=3)
    menus = st.builds(lambda c, v: Press(c, tuple(v)), menu_id, values)
    live = st.integers(0, 30).map(lambda n: Press(f"@live{n}"))  # a real control of the channel
    return weighted((45, buttons), (15, menus), (40, live))


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each drawn in proportion to its weight (``st.one_of`` is not uniform)."""
    total = sum(weight for weight, _ in choices)

    def pick(number: int) -> st.SearchStrategy[Any]:
        for weight, strategy in choices:
            if number < weight:
                return strategy
            number -= weight
        raise AssertionError("unreachable")

    return st.integers(0, total - 1).flatmap(pick)


def steps(commands: list[CommandSpec]) -> st.SearchStrategy[Step]:
    """One interaction by anyone, in any phase: 60% commands, 15% autocomplete, 25% controls."""
    action = weighted((60, slash(commands)), (15, autocomplete(commands)), (25, press()))
    return st.builds(Step, st.sampled_from(ACTORS), st.sampled_from(PHASES), action)


def cases(commands: list[CommandSpec]) -> st.SearchStrategy[Case]:
    """Mostly single interactions; sometimes the same one twice at once, or two players at once."""
    one = steps(commands)
    twice = one.map(lambda s: Case((s, s), ("same interaction twice at the same instant",)))
    pair = st.tuples(one, one).map(lambda p: Case(p, ("two interactions at the same instant",)))
    return weighted((80, one.map(lambda s: Case((s,)))), (10, twice), (10, pair))


# ----------------------------------------------------------------------------------- explicit cases

ISSUE_BUTTONS = (
    "pg:bogus:1",
    "pg:join:" + "9" * 24,
    "pg:join:-1",
    "pg:join:abc",
    "pg:roll:0",
    "pg:JOIN:1",
    "pg:join:",
    "pt:join:abc",
    "pt:drop:1",
)


def _worst(spec: OptionSpec, turn: int) -> Any:
    """A value Discord never sends for ``spec`` (which one depends on ``turn``)."""
    if spec.snowflake:
        return Forged(("9" * 25, "abc", str(2**64))[turn % 3])
    if spec.type is T.string:
        return ("a" * 6000, 12345, "\ud800", "")[turn % 4]
    if spec.type is T.integer:
        return (2**64, "abc", -(2**63) - 1, 1.5)[turn % 4]
    if spec.type is T.number:
        return (float("nan"), "abc", 10**30)[turn % 3]
    return ("abc", 7, None)[turn % 3]


def explicit_cases(commands: list[CommandSpec]) -> list[Case]:
    """Cases every run sends, whatever Hypothesis draws: each command with every option hostile and
    with none at all, each autocomplete with a number and with a lone surrogate, forged buttons, and
    a double click on a real control of the lobby and of the running game."""
    out = []
    for turn, command in enumerate(commands):
        phase = PHASES[turn % len(PHASES)]
        hostile = tuple((o.name, int(o.type.value), _worst(o, turn)) for o in command.options)
        out.append(Case((Step(ACTORS[turn % len(ACTORS)], phase, Slash(command, hostile)),)))
        out.append(Case((Step("olga", PHASES[(turn + 1) % len(PHASES)], Slash(command, ())),)))
        for option in command.autocompleted:
            out.append(Case((Step("alice", phase, Autocomplete(command, option, 12345)),)))
            out.append(Case((Step("bob", phase, Autocomplete(command, option, "\ud800" + "x" * 200)),)))
    for turn, custom_id in enumerate(ISSUE_BUTTONS):
        out.append(Case((Step(ACTORS[turn % len(ACTORS)], PHASES[turn % len(PHASES)], Press(custom_id)),)))
    for phase in ("lobby", "running"):
        for who in ("alice", "bob"):
            step = Step(who, phase, Press("@live0"))
            out.append(Case((step, step), ("same interaction twice at the same instant",)))
    return out
