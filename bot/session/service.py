"""The session service: the one gateway to every game, with no Discord in sight.

Every write runs as one unit of work (``GameService.unit``): counted in flight (shutdown waits for it),
under the channel's lock, with storage and rule errors translated into ``ServiceError``.  Inside it:
load -> check the actor's seat and turn -> parse -> apply -> in ONE transaction append the move, store
the state under the version check and record the event's delivery -> render -> tell the listeners
(ratings, tournaments) -> report.  The cogs turn a ``Report`` into a Discord reply and mark its
delivery done; a ``ServiceError`` becomes one ephemeral sentence.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

import games as games_pkg
from ai import LEVELS as AI_LEVELS
from bot import clocks
from bot.clocks import DAY
from bot.session.marks import Mark, mark_of, stamp, unstamp
from bot.session.reminders import Reminder
from bot.session.schema import ACTIVE_STATUSES
from bot.session.store import (
    ChannelBusy,
    DeliveryRow,
    GameRow,
    MoveRow,
    NewDelivery,
    NewMove,
    SeatRow,
    Store,
    StoreError,
)
from bot.session.table_messages import TableMessage, TableMessages
from bot.session.table_questions import TableQuestions
from games.base import (
    BUTTON_KINDS,
    BadOptions,
    GameError,
    NotYourTurn,
    OptionSpec,
    Outcome,
    Rules,
    acting_seats,
    acting_together,
    default_resign_ranks,
    plural,
    quote_typed,
    resolve_options,
    seat_state,
    turn_owner,
)
from games.playout import roll_rng, setup_rng
from renderers import render_game
from renderers.replay import MAX_FRAMES, pick_frames

# A game's state and move types.  The registry holds games of every kind (``Rules[Any, Any]``); the
# helpers below are generic over the pair, so mypy checks that a state only meets its own rules.
S = TypeVar("S")
M = TypeVar("M")

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
STATE_CACHE_SIZE = 1024  # decoded states kept in memory; older ones are decoded again from the database
DELIVERY_GRACE = timedelta(seconds=60)  # an interaction's own reply is overdue after this: announce it
DELIVERY_LEASE = timedelta(seconds=120)  # a claimed delivery not marked done by then is claimed again
ROLLS_AT_ONCE = ("reroll",)  # a decision that asks for the dice again: they are thrown with it, one press
ALL_PEOPLE_LEFT = "Nobody is left to play against the computer players: the game ends here, without a result."
TABLE_LEFT = (
    "Every person has left the table, so the game ends here: those who left rank below the computer "
    "players, the first to leave lowest."
)
NO_TURN = {"turn_seat": None, "turn_started_at": None, "deadline": None, "reminders_sent": 0, "wake_at": None}
LEAVING_KINDS = ("resign", "removed")  # the log entries of a seat leaving the game
TABLE_CHANGED = "The table changed since you chose that: look at the lobby and choose again."
START_CHANGED = "The table changed as you started it ({count} seated now, not {seats}): press Start again."
BOARD_CHANGED = (
    "The board changed since you chose that move (it was already played, or another came first): "
    "look at the board and choose again."
)


def utcnow() -> datetime:
    """The current UTC time."""
    return datetime.now(UTC)


class ServiceError(Exception):
    """A refusal: one sentence for the player, nothing changed."""


class TableRefused(ServiceError):
    """A refusal of the table itself: the game's options cannot seat as many players as asked."""


@dataclass(frozen=True)
class Actor:
    """Who is acting: a Discord member as the service sees them."""

    user_id: int
    name: str
    can_manage: bool = False


GAME_BEGINS = "The game begins."  # the first line of a game's opening board


NO_GAME_YET = "There is no game in this channel yet: open one with a game's new command, such as /hedgehog new."


def asks_to_roll(text: str) -> bool:
    """True for typed notation that asks for a roll ("roll", "roll 4"): the dice are the bot's to throw."""
    return text.strip().lower().split()[:1] == ["roll"]


def nothing_to_roll(rules: Rules[Any, Any], state: Any) -> str:
    """The refusal of a roll asked for when none is due: what the game waits for instead."""
    if acting_together(rules, state):  # e.g. Treasure Hunt's coins, set out by every player at once
        return f"There is nothing to roll yet: {rules.status_line(state).split(' · ')[0]}."
    return "There is nothing to roll now: make your move."


def opening_board(lines: Sequence[str]) -> bool:
    """True when a living board's ``lines`` are the opening board's: its game's start and, at most, the
    computer players' turns after it (a board posted for a person's turn starts with what led to it)."""
    return bool(lines) and lines[0].startswith(GAME_BEGINS)


@dataclass
class Report(Generic[S, M]):
    """What an action did, for the Discord layer to post."""

    game: GameRow
    rules: Rules[S, M]
    state: S | None
    lines: list[str] = field(default_factory=list)
    png: bytes | None = None
    last_move: M | None = None
    outcome: Outcome | None = None
    turn_changed: bool = False
    delivery_id: int | None = None
    _options: list[MoveOption] | None = field(default=None, repr=False, compare=False)

    @property
    def to_move_seat(self) -> int | None:
        """The seat that must act now."""
        return None if self.state is None else self.rules.to_move(self.state)

    @property
    def to_move_user(self) -> int | None:
        """The user who must act now."""
        seat = self.to_move_seat
        return None if seat is None else self.game.user_at(seat)

    @property
    def asked_in_turn_of(self) -> int | None:
        """The seat whose turn it is, while the seat to move only answers inside that turn (an opponent
        offered Martian Combat's attack); None when the seat to move is playing its own turn."""
        if self.state is None:
            return None
        owner, seat = turn_owner(self.rules, self.state), self.to_move_seat
        return owner if owner is not None and seat is not None and owner != seat else None

    @property
    def together(self) -> bool:
        """True while the players act in a phase played at the same time (Treasure Hunt's coins)."""
        return self.state is not None and self.outcome is None and acting_together(self.rules, self.state)

    @property
    def acting_users(self) -> list[int]:
        """The people who may act now: the one to move first, then, in a phase played at the same time
        (Treasure Hunt's face-down arrangements), everyone else who may act in it."""
        if self.state is None or self.outcome is not None or self.game.status != "active":
            return []
        return [user for user in map(self.game.user_at, people_acting(self.game, self.rules, self.state)) if user]

    @property
    def needs_roll(self) -> bool:
        """True when the player to move must roll next."""
        return self.state is not None and self.outcome is None and self.rules.pending_roll(self.state)

    @property
    def acting_seats(self) -> list[int]:
        """The seats named as acting now: the people who may act (the seat to move first), or the seat
        to move when it is a computer player's."""
        if self.state is None or self.outcome is not None:
            return []
        people = people_acting(self.game, self.rules, self.state) if self.game.status == "active" else []
        seat = self.to_move_seat
        return people or ([] if seat is None else [seat])

    def options(self) -> list[MoveOption]:
        """The moves the person to act may make now (empty while a roll is pending, on a computer player's
        turn, or once over), for the buttons and menu under the board: labels and hints, without the
        log's sentence for each."""
        if self.state is None or self.outcome is not None or self.needs_roll or self.game.status != "active":
            return []
        if not self.acting_users:  # a computer player's turn: it plays by itself, nothing to press
            return []
        if self._options is None:  # read by the board's text and its controls alike
            self._options = move_options(self.rules, self.state, mark_of(self.game), describe=False)
        return self._options


@dataclass(frozen=True)
class MoveOption:
    """A legal move as the Discord layer offers it: ``value`` carries where it was offered (``marks``).

    ``kind`` says what sort of decision it is (the game's word: ``move``, ``counter``, ``decline``...),
    ``label`` is short enough for a button or a menu, ``hint`` one sentence about it.
    """

    value: str
    notation: str
    label: str
    description: str
    kind: str = "move"
    hint: str = ""
    index: int = 0
    quick: bool = False  # a yes/no sort of decision, shown as a button of its own
    as_typed: bool = False  # what the player typed reads as this move (``legal_moves`` with ``typed``)


@dataclass(frozen=True)
class GameInfo:
    """What the Discord layer may know of a game kind without importing its engine."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]


def read_as_typed(rules: Rules[S, M], state: S, typed: str) -> int | None:
    """The index among ``state``'s legal moves of the one ``typed`` reads as, as the move command would
    read it; None when it reads as none (a part of a move, a typo, nothing typed)."""
    text, _offered_at = unstamp(typed)  # a suggestion chosen, then edited
    if not text.strip() or asks_to_roll(text):
        return None
    try:
        move = rules.parse_move(state, text)
    except GameError:
        return None
    legal = rules.legal_moves(state)
    return legal.index(move) if move in legal else None


def move_options(rules: Rules[S, M], state: S, mark: Mark, *, describe: bool = True) -> list[MoveOption]:
    """Every legal move of ``state`` as offered to the player, stamped with the ``mark`` of its position.

    With ``describe`` each carries the sentence the log would write for it (which plays the move);
    without, its description is empty.
    """
    out = []
    for index, move in enumerate(rules.legal_moves(state)):
        notation = rules.format_move(state, move)
        description = rules.play(state, move).description if describe else ""
        choice = rules.choice(state, move)
        out.append(
            MoveOption(
                stamp(notation, mark),
                notation,
                choice.label or notation,
                description,
                choice.kind,
                choice.hint,
                index,
                quick=choice.kind in BUTTON_KINDS,
            )
        )
    return out


def moved_on_turn(game: GameRow, entries: Sequence[NewMove]) -> bool:
    """True when the seat whose turn it was made a move among ``entries`` (a roll is not a move)."""
    return game.turn_seat is not None and any(e.kind == "move" and e.seat == game.turn_seat for e in entries)


def catalogue() -> list[GameInfo]:
    """Every registered game, by name."""
    return [
        GameInfo(r.name, r.title, r.min_players, r.max_players, tuple(r.options))
        for _, r in sorted(games_pkg.REGISTRY.items())
    ]


def bot_name(level: str, taken: Sequence[str]) -> str:
    """A computer player's name at the table: ``Hard bot``, then ``Hard bot 2``..."""
    base = f"{level.title()} bot"
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base} {number}"
    return name


def bot_room_refusal(table: int) -> str:
    """Why a table of ``table`` seats cannot take the bots asked for: one seat is always a person's."""
    if table == 1:
        return "A game of one is played alone: a bot cannot take the only seat, which is yours."
    bots = f"{table - 1} bot{'s' if table > 2 else ''}"
    return f"At most {bots}: a game needs at least one person at its table of {table}."


def fewest_players(name: str, options: Mapping[str, Any]) -> tuple[int, str]:
    """The fewest players a game of ``name`` can start with under ``options`` (the 12x12 Assassination
    board needs six), and why, in the game's words, when the options are what asks for more ("")."""
    rules = rules_for(name)
    why = ""
    for count in range(rules.min_players, rules.max_players + 1):
        try:
            rules.new_game(count, dict(options), setup_rng("fewest"))
        except BadOptions as error:
            why = why or str(error)
            continue
        return count, why
    return rules.min_players, why


def rules_for(name: str) -> Rules[Any, Any]:
    """The registered rules called ``name``."""
    try:
        return games_pkg.REGISTRY[name]
    except KeyError:
        raise ServiceError(f"There is no game called {name!r}.") from None


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """The stored form of an outcome."""
    stored: dict[str, Any] = {
        "ranks": list(outcome.ranks),
        "reason": outcome.reason,
        "scores": list(outcome.scores) if outcome.scores is not None else None,
    }
    if outcome.details is not None:
        stored["details"] = list(outcome.details)
    return stored


def outcome_from_json(data: dict[str, Any] | None) -> Outcome | None:
    """An outcome back from its stored form."""
    if not data:
        return None
    scores, details = data.get("scores"), data.get("details")  # details: since results said them in words
    return Outcome(
        tuple(data["ranks"]),
        data["reason"],
        tuple(scores) if scores is not None else None,
        tuple(details) if details is not None else None,
    )


class GameService:
    """Creates, runs and records games; one instance per bot process."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = utcnow,
        render: bool = True,
        new_seed: Callable[[], str] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.new_seed = new_seed or (lambda: secrets.token_hex(8))
        self.render_enabled = render
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()  # game id -> (version, state)
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.listeners: list[Callable[[Report], Any]] = []
        self.tables = TableMessages(store)
        self.questions = TableQuestions(store)
        self.renderer: Any = None  # a bot.render_pool.RenderPool: boards drawn in worker processes

    # ------------------------------------------------------------------ the unit of work

    @asynccontextmanager
    async def unit(self, channel_id: int) -> AsyncIterator[None]:
        """One unit of work on the game of ``channel_id``.

        Counted in flight (shutdown waits for it), serialised by the channel's lock, and with every
        storage or rules error turned into a ``ServiceError``: a refusal in one sentence, nothing written.
        The version check of every write stays the guarantee when another process writes too.
        """
        self._in_flight += 1
        self._idle.clear()
        try:
            async with self._locks[channel_id]:
                try:
                    yield
                except (StoreError, GameError) as error:
                    raise ServiceError(str(error)) from None
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    @asynccontextmanager
    async def game_unit(self, game_id: int) -> AsyncIterator[GameRow]:
        """A unit of work on the game ``game_id`` (a button's game), yielding it as it stands inside."""
        game = await self.store.game(game_id)
        if game is None:
            raise ServiceError("That game no longer exists.")
        async with self.unit(game.channel_id):
            fresh = await self.store.game(game_id)
            if fresh is None:
                raise ServiceError("That game no longer exists.")
            yield fresh

    @property
    def in_flight(self) -> int:
        """Units of work under way."""
        return self._in_flight

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until the actions in progress have finished (clean shutdown)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            log.warning("shutting down with %s actions still in progress", self._in_flight)

    async def _live(self, channel_id: int) -> GameRow:
        game = await self.store.live_game(channel_id)
        if game is None:
            raise ServiceError("There is no game running in this channel.")
        return game

    def rules_state(self, game: GameRow) -> Any:
        """The stored state of ``game`` decoded afresh (bypassing the cache)."""
        if game.state is None:
            raise ServiceError("This game has not started yet.")
        return rules_for(game.game).from_json(game.state)

    def state_of(self, game: GameRow) -> Any:
        """The engine state of a started game (cached by version)."""
        cached = self._cache.get(game.id)
        if cached is not None and cached[0] == game.version:
            self._cache.move_to_end(game.id)
            return cached[1]
        if game.state is None:
            raise ServiceError("This game has not started yet.")
        state = rules_for(game.game).from_json(game.state)
        self.remember(game, state)
        return state

    async def render(self, game: GameRow, state: Any, last_move: Any = None) -> bytes | None:
        """The board of ``state`` as PNG bytes (drawn in a worker thread); None for a game that ended
        before its position did (without a result, or a tournament table every person left), whose last
        position would still name a player to move."""
        if not self.render_enabled or state is None or stopped_early(game, rules_for(game.game), state):
            return None
        names = [game.name_at(s.seat) for s in game.seats]
        if self.renderer is not None:
            return await self.renderer.render(game.game, rules_for(game.game).to_json(state), last_move, names)
        return await asyncio.to_thread(render_game, game.game, state, last_move=last_move, names=names)

    # ------------------------------------------------------------------ lobby

    async def new_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        actor: Actor,
        options: dict[str, Any] | None = None,
        max_players: int | None = None,
        clock_days: int | None = None,
        bank_days: int | None = None,
        thread_id: int | None = None,
        parent_channel_id: int | None = None,
        tournament_id: int | None = None,
        seed: str | None = None,
        seat_creator: bool = True,
        rated: bool = True,
        bots: Sequence[str] = (),
    ) -> GameRow:
        """Open a game in ``channel_id`` with ``actor`` seated first and computer players of the levels
        ``bots`` after them, all in one write (nobody can join in between and take a bot's seat)."""
        rules = rules_for(game)
        try:
            resolved = resolve_options(rules.options, {k: v for k, v in (options or {}).items() if v is not None})
        except GameError as error:
            raise ServiceError(str(error)) from None
        limit = max_players or rules.max_players
        if not rules.min_players <= limit <= rules.max_players:
            raise ServiceError(f"{rules.title} takes {rules.min_players} to {rules.max_players} players, not {limit}.")
        try:  # a dry run at the largest table the lobby allows catches options that cannot seat it
            rules.new_game(limit, resolved, setup_rng("check"))
        except GameError as error:
            raise TableRefused(str(error)) from None
        if any(level not in AI_LEVELS for level in bots):
            raise ServiceError(f"A bot's level is one of {', '.join(AI_LEVELS)}.")
        if bots and len(bots) >= limit:
            raise ServiceError(bot_room_refusal(limit))
        seated_bots: list[SeatRow] = []
        for level in bots:  # named and numbered as the lobby's menu names them
            name = bot_name(level, [actor.name, *(row.display_name for row in seated_bots)])
            seated_bots.append(SeatRow(len(seated_bots) + 1, -(len(seated_bots) + 1), name, ai_level=level))
        async with self.unit(channel_id):
            try:
                game_id = await self.store.create_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game,
                    options=resolved,
                    seed=seed or self.new_seed(),
                    creator_id=actor.user_id,
                    creator_name=actor.name,
                    max_players=limit,
                    now=self.clock(),
                    clock_days=clock_days,
                    bank_days=bank_days,
                    thread_id=thread_id,
                    parent_channel_id=parent_channel_id,
                    tournament_id=tournament_id,
                    seat_creator=seat_creator,
                    rated=rated,
                    bots=seated_bots,
                )
            except ChannelBusy as error:
                raise ServiceError(str(error)) from None
            loaded = await self.store.game(game_id)
            assert loaded is not None
            return loaded

    async def join(self, channel_id: int, actor: Actor) -> GameRow:
        """Take the next free seat of the open game in ``channel_id``."""
        async with self.unit(channel_id):
            game = await self._live(channel_id)
            if game.status != "open":
                raise ServiceError("This game has already started.")
            if game.seat_of(actor.user_id) is not None:
                raise ServiceError("You are already in this game.")
            if len(game.seats) >= game.max_players:
                raise ServiceError(f"This game is full ({plural(game.max_players, 'player')}).")
            seated = [*game.seats, SeatRow(len(game.seats), actor.user_id, actor.name)]
            await self.store.set_seats(game, seated, self.clock())
            return await self._reload(game)

    async def add_bot(self, channel_id: int, actor: Actor, level: str, *, seats: int | None = None) -> GameRow:
        """Seat a computer player of ``level`` in the open game of ``channel_id`` (its opener or a manager);
        ``seats``, when given, is how many seats the table had when asked (a menu's choice sent twice)."""
        if level not in AI_LEVELS:
            raise ServiceError(f"A bot's level is one of {', '.join(AI_LEVELS)}.")
        async with self.unit(channel_id):
            game = await self._lobby_for_bots(channel_id, actor, "add a bot to it", seats)
            if len(game.seats) >= game.max_players:
                raise ServiceError(f"This game is full ({plural(game.max_players, 'player')}).")
            user_id = min([row.user_id for row in game.seats if row.is_bot] + [0]) - 1
            name = bot_name(level, [row.display_name for row in game.seats])
            seated = [*game.seats, SeatRow(len(game.seats), user_id, name, ai_level=level)]
            await self.store.set_seats(game, seated, self.clock())
            return await self._reload(game)

    async def remove_bot(self, channel_id: int, actor: Actor, *, seats: int | None = None) -> tuple[GameRow, str]:
        """Take the computer player seated last off the open game of ``channel_id``; the game and its name.
        ``seats`` as for ``add_bot``."""
        async with self.unit(channel_id):
            game = await self._lobby_for_bots(channel_id, actor, "take a bot off it", seats)
            bots = [row for row in game.seats if row.is_bot]
            if not bots:
                raise ServiceError("There is no computer player at this table.")
            seated = [row for row in game.seats if row is not bots[-1]]
            await self.store.set_seats(game, seated, self.clock())
            return await self._reload(game), bots[-1].display_name

    async def _lobby_for_bots(self, channel_id: int, actor: Actor, doing: str, seats: int | None) -> GameRow:
        """The open game of ``channel_id``, whose seated players (or opener, or a manager) may ``doing``,
        with ``seats`` seats taken when given."""
        game = await self._live(channel_id)
        if game.status != "open":
            raise ServiceError("This game has already started.")
        if actor.user_id != game.creator_id and not actor.can_manage and game.seat_of(actor.user_id) is None:
            raise ServiceError(f"Only the players of this game can {doing}.")
        if seats is not None and seats != len(game.seats):
            raise ServiceError(TABLE_CHANGED)
        return game

    async def leave(self, channel_id: int, actor: Actor) -> GameRow:
        """Give up a seat before the start; the game closes when its last player leaves."""
        async with self.unit(channel_id):
            game = await self._live(channel_id)
            if game.status != "open":
                raise ServiceError("The game has started: use `/game resign` to leave it.")
            if game.seat_of(actor.user_id) is None:
                raise ServiceError("You are not in this game.")
            seated = [row for row in game.seats if row.user_id != actor.user_id]
            now = self.clock()
            if not any(not row.is_bot for row in seated):  # the last person left: bots alone never play
                await self.store.set_seats(game, seated, now, status="aborted")  # the closed lobby lists no one
            else:
                await self.store.set_seats(game, seated, now)
            return await self._reload(game)

    async def start(
        self, channel_id: int, actor: Actor, *, seats: int | None = None, token: str | None = None
    ) -> Report:
        """Deal the game out and begin.

        The creator starts it, or a server manager; if the creator has left the lobby, any seated player.
        ``seats``, when given, is the table size the starter agreed to: a table changed since is refused.
        """
        async with self.unit(channel_id):
            game = self._may_start(await self._live(channel_id), actor)
            if seats is not None and len(game.seats) != seats:
                raise ServiceError(START_CHANGED.format(count=len(game.seats), seats=seats))
            rules = rules_for(game.game)
            count = len(game.seats)
            try:
                state = rules.new_game(count, game.options, setup_rng(game.seed))
            except GameError as error:
                raise ServiceError(str(error)) from None
            now = self.clock()
            if game.bank_days:
                for row in game.seats:
                    await self.store.update_seat(game, row.seat, now, bank_seconds=game.bank_days * DAY)
                    game = await self._reload(game)
            values = {
                "status": "active",
                "state": rules.to_json(state),
                **({"rated": False} if game.has_bots else {}),  # a table with computer players is never rated
                **await self._turn_fields(game, rules, state, now),
            }
            lines = [f"{GAME_BEGINS} {rules.status_line(state)}"]
            ids = await self.store.update_game(
                game, now, events=[report_event(lines, token, turn_changed=True)], **values
            )
            game = await self._reload(game)
            self.remember(game, state)
            report = Report(game, rules, state, lines, turn_changed=True, delivery_id=ids[0])
            report.png = await self.render(game, state)
            await self._notify(report)
            return report

    async def check_start(self, channel_id: int, actor: Actor) -> GameRow:
        """The open game of ``channel_id`` if ``actor`` may start it now; refuses otherwise."""
        return self._may_start(await self._live(channel_id), actor)

    @staticmethod
    def _may_start(game: GameRow, actor: Actor) -> GameRow:
        rules = rules_for(game.game)
        if game.status != "open":
            raise ServiceError("This game has already started.")
        if game.seat_of(game.creator_id) is not None:
            if actor.user_id != game.creator_id and not actor.can_manage:
                raise ServiceError("Only the player who opened this game (or a server manager) can start it.")
        elif game.seat_of(actor.user_id) is None and not actor.can_manage:  # its opener left the lobby
            raise ServiceError("Its opener has left: a player seated at this table (or a server manager) starts it.")
        count = len(game.seats)
        if not game.humans:
            raise ServiceError("A game needs at least one person at the table, not only bots.")
        fewest, why = fewest_players(game.game, game.options)
        if count < fewest:
            need = fewest - count
            needs = f"{why.rstrip('.')}:" if why else f"{rules.title} needs {fewest} players;"
            raise ServiceError(f"{needs} {need} more must join (or add a computer player with the lobby's menu).")
        return game

    async def create_seated_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        players: Sequence[Actor],
        options: dict[str, Any] | None = None,
        clock_days: int | None = None,
        tournament_id: int | None = None,
        thread_id: int | None = None,
        parent_channel_id: int | None = None,
        bots: int = 0,
        bot_level: str = "hard",
    ) -> Report:
        """Create a game with ``players`` seated in order, then ``bots`` computer players of ``bot_level``,
        and start it at once (tournament matches)."""
        first = players[0]
        await self.new_game(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            actor=first,
            options=options,
            max_players=len(players) + bots,
            clock_days=clock_days,
            tournament_id=tournament_id,
            thread_id=thread_id,
            parent_channel_id=parent_channel_id,
        )
        for player in players[1:]:
            await self.join(channel_id, player)
        for _ in range(bots):
            await self.add_bot(channel_id, first, bot_level)
        return await self.start(channel_id, first)

    # ------------------------------------------------------------------ play

    async def move(
        self,
        channel_id: int,
        actor: Actor,
        notation: str,
        *,
        token: str | None = None,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Report:
        """Play ``notation`` for ``actor`` in the channel's game.

        A move chosen from the suggestions carries the mark of the position it was offered in (see
        ``marks``); when the game has moved on since, it is refused, so a retry or a double click never
        plays it twice, and a choice made before an undo is never played in the position after it.
        ``game_id`` and ``version`` (a computer player's choice) name the game and the version it was
        searched in: any other is refused the same way, since an undo brings the ply back with another
        position, and a new game in the channel starts again at ply 0.
        A seat that is not to move may play the moves its game lets it make out of turn (``seat_state``:
        Treasure Hunt's arrangements, made at the same time); the turn and the clock stay as they were.
        """
        text, offered_at = unstamp(notation)
        async with self.unit(channel_id):
            game, rules, state, seat = await self._turn_of(channel_id, actor, offered_at, out_of_turn=True)
            if game_id is not None and (game.id, game.version) != (game_id, version):
                raise ServiceError(BOARD_CHANGED)  # a computer player's choice, searched in another position
            mine = seat_state(rules, state, seat)  # where this seat's moves are read: ``state`` on its turn
            assert mine is not None  # ``_turn_of`` refused every other seat
            if asks_to_roll(text):  # the bot throws the dice: a roll is asked for, never typed
                if mine is state and rules.pending_roll(state):
                    raise ServiceError(f"The bot throws the dice: use the Roll button or /{game.game} roll.")
                raise ServiceError(nothing_to_roll(rules, state))
            if rules.pending_roll(mine):
                raise ServiceError(f"Roll first: use the Roll button or /{game.game} roll.")
            move = rules.parse_move(mine, text)
            if move not in rules.legal_moves(mine):  # e.g. a clock-only default typed by hand
                raise ServiceError(f"{quote_typed(text)} is not one of your legal moves now.")
            steps: list[tuple[int | None, Any, str]] = [(seat, move, "move")]
            if rules.choice(mine, move).kind in ROLLS_AT_ONCE:  # the dice are thrown with the decision
                after = rules.apply(state, move)
                if rules.pending_roll(after):
                    rng = roll_rng(game.seed, await self.store.count_rolls(game.id))
                    steps.append((rules.to_move(after), rules.roll(after, rng), "roll"))
            return await self._commit(game, rules, state, steps, token)

    async def roll(
        self, channel_id: int, actor: Actor, *, offered_at: Mark | None = None, token: str | None = None
    ) -> Report:
        """Roll the dice for ``actor`` with the game's seeded RNG.

        ``offered_at`` is where the Roll button pressed was offered: a second press of it, when the same player
        must roll again (Martian Combat's Aim after an action roll, a tied combat), is refused.
        """
        async with self.unit(channel_id):
            # out of turn too: at a phase all act in together, the seat not on the clock is told what it is
            game, rules, state, seat = await self._turn_of(channel_id, actor, offered_at, out_of_turn=True)
            if rules.to_move(state) != seat or not rules.pending_roll(state):
                raise ServiceError(nothing_to_roll(rules, state))
            move = rules.roll(state, roll_rng(game.seed, await self.store.count_rolls(game.id)))
            return await self._commit(game, rules, state, [(seat, move, "roll")], token)

    async def resign(self, channel_id: int, actor: Actor, *, token: str | None = None) -> Report:
        """``actor`` leaves the running game; the engine decides what follows."""
        async with self.unit(channel_id):
            game = await self._live(channel_id)
            if game.status != "active":
                raise ServiceError("The game has not started: use `leave` instead.")
            seat = self._seat_in_play(game, actor)
            rules = rules_for(game.game)
            state = self.state_of(game)
            line = f"{game.name_at(seat)} resigns."
            after = rules.resign(state, seat)
            entry = NewMove(seat, "resign", line, "resign", {})
            event = report_event([line], token)
            return await self.commit_entries(game, rules, after, [entry], [line], {seat: {"removed": 1}}, event=event)

    async def abort(self, channel_id: int, actor: Actor) -> GameRow:
        """End the channel's game with no result (creator or server manager)."""
        async with self.unit(channel_id):
            game = await self._live(channel_id)
            if game.tournament_id is not None and not actor.can_manage:
                raise ServiceError("This is a tournament match: ask an organiser to adjudicate it.")
            if actor.user_id != game.creator_id and not actor.can_manage:
                raise ServiceError("Only the game's creator or a server manager can abort it.")
            creator = next((s for s in game.seats if s.user_id == actor.user_id), None)
            if not actor.can_manage and (creator is None or creator.removed):  # it is the others' game now
                raise ServiceError(
                    "You have left this game: the others play on, and only a server manager can abort it."
                    if game.status == "active"
                    else "You have left this lobby: the others may start it, and only a server manager can abort it."
                )
            ended, _ = await self._end_without_result(game)
            return ended

    async def channel_deleted(self, channel_id: int) -> list[GameRow]:
        """End with no result the lobbies and games of a deleted channel or thread (a deleted channel takes
        its threads with it): nobody can play them there any more, and they would wait in everyone's
        ``/game mine`` for good.  A tournament match is left to the tournament (its round deadline, or an
        organiser's adjudication, settles it).  The games ended."""
        return await self._end_all(await self.store.live_games_under(channel_id), tournaments=False)

    async def guild_left(self, guild_id: int) -> list[GameRow]:
        """End with no result every lobby and game of a server the bot was removed from (its tournament
        matches too: the tournaments are cancelled): nobody can play them any more, and their clocks
        would otherwise go on timing players out.  The games ended."""
        return await self._end_all(await self.store.live_games_of_guild(guild_id), tournaments=True)

    async def guilds_gone(self, present: Collection[int]) -> list[GameRow]:
        """End as ``guild_left`` does the games of every server (of this process's shards) that is not
        among ``present``, the servers the bot is in: one that removed the bot while it was stopped sends
        no word of it.  The games ended."""
        ended = []
        for guild_id in await self.store.guilds_with_live_games() - set(present):
            ended += await self.guild_left(guild_id)
        return ended

    async def _end_all(self, found: Sequence[GameRow], *, tournaments: bool) -> list[GameRow]:
        """End with no result each of ``found`` still open or running (a tournament's only if
        ``tournaments``), each in its own unit of work; the games ended."""
        ended = []
        for row in found:
            async with self.unit(row.channel_id):
                game = await self.store.game(row.id)
                if game is None or game.status not in ACTIVE_STATUSES:
                    continue
                if game.tournament_id is not None and not tournaments:
                    continue
                ended.append((await self._end_without_result(game))[0])
        return ended

    async def end_unplayed(self, game: GameRow, rules: Rules[S, M], state: S, lines: list[str]) -> Report[S, M]:
        """End ``game`` with no result, telling the table ``lines`` (inside a unit of work): nobody played
        on, so nobody wins by it."""
        ended, ids = await self._end_without_result(game, [report_event(lines, None, "scheduler")])
        report = Report(ended, rules, state, lines, delivery_id=ids[0])
        await self._notify(report)
        return report

    async def _end_without_result(self, game: GameRow, events: Sequence[NewDelivery] = ()) -> tuple[GameRow, list[int]]:
        """Mark ``game`` aborted, with no turn or clock left, recording ``events`` (inside a unit of work):
        the game as it now stands, and the events' delivery ids."""
        ids = await self.store.update_game(game, self.clock(), events=events, status="aborted", **NO_TURN)
        self._cache.pop(game.id, None)
        return await self._reload(game), ids

    async def end_deserted_table(self, game_id: int) -> Report | None:
        """End a running tournament table that every person has left (its bots used to play such a table
        out; now its last person's leaving ends it, ``commit_entries``): with its places, as if the last
        one had just left.  The report of its end, or None when the table is not such a one."""
        async with self.game_unit(game_id) as game:
            if game.status != "active" or game.tournament_id is None or game.state is None or people_left(game):
                return None
            rules = rules_for(game.game)
            state = self.state_of(game)
            if rules.outcome(state) is not None:
                return None
            outcome = await self._table_left_outcome(game, [])
            event = report_event([], None, "scheduler")
            now = self.clock()
            ids = await self.store.update_game(
                game, now, events=[event], status="finished", outcome=outcome_to_json(outcome), **NO_TURN
            )
            self._cache.pop(game.id, None)
            ended = await self._reload(game)
        report = Report(ended, rules, state, [], outcome=outcome, delivery_id=ids[0])
        await self._notify(report)
        return report

    async def rematch(self, old: GameRow, actor: Actor) -> GameRow:
        """Open a new game like ``old`` (same game, options, size and clock) in its channel, with its
        computer players seated again at their levels; one that took over a person's seat (``/game bot``)
        stood in for them and is not: that seat is open again.  A tournament's match has none: the
        tournament pairs its players' next games."""
        if old.tournament_id is not None:
            raise ServiceError("A tournament match has no rematch: the tournament pairs the next games.")
        return await self.new_game(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            game=old.game,
            actor=actor,
            options=old.options,
            max_players=old.max_players,
            clock_days=old.clock_days,
            bank_days=old.bank_days,
            thread_id=old.thread_id,
            parent_channel_id=old.parent_channel_id,
            bots=[
                row.ai_level
                for row in sorted(old.seats, key=lambda r: r.seat)
                if row.ai_level is not None and row.stands_in_for is None
            ],
        )

    async def legal_moves(self, channel_id: int, user_id: int, typed: str = "") -> list[MoveOption]:
        """Every move ``user_id`` may make now (on their turn, or out of turn where the game allows it),
        each stamped with the mark of the position; empty when they may not act.  When ``typed`` reads as
        one of them, in any form the game accepts (``c1 c2`` for ``c1-c2``, pieces in another order),
        that one comes first, marked ``as_typed``: the suggestions offer what the move command would play."""
        game = await self.store.live_game(channel_id)
        if game is None or game.status != "active":
            return []
        seat = game.seat_of(user_id)
        if seat is None or any(row.seat == seat and row.removed for row in game.seats):
            return []
        rules = rules_for(game.game)
        mine = seat_state(rules, self.state_of(game), seat)
        if mine is None or rules.pending_roll(mine):
            return []
        options = move_options(rules, mine, mark_of(game))
        read = read_as_typed(rules, mine, typed)
        if read is None:
            return options
        found = replace(options[read], as_typed=True)
        return [found, *(option for option in options if option.index != read)]

    async def choose(
        self, channel_id: int, actor: Actor, mark: Mark, index: int, *, token: str | None = None
    ) -> Report:
        """Play the ``index``-th legal move offered where ``mark`` says (a button or a menu), if still current."""
        game = await self._live(channel_id)
        if game.status != "active" or game.state is None:
            raise ServiceError("This game is not running.")
        rules = rules_for(game.game)
        state = self.state_of(game)
        seat = game.seat_of(actor.user_id)
        if not mark.current(game) and not (seat is not None and still_together(rules, state, seat)):
            raise ServiceError(BOARD_CHANGED)
        # the presser's own moves: the seat to move's, or those another seat may make out of turn (Treasure
        # Hunt's Standard order, pressed by anyone still to arrange, sets out the presser's coins)
        mine = seat_state(rules, state, seat) if seat is not None else None
        where = state if mine is None else mine
        legal = rules.legal_moves(where)
        if not 0 <= index < len(legal):
            raise ServiceError(BOARD_CHANGED)
        return await self.move(channel_id, actor, stamp(rules.format_move(where, legal[index]), mark), token=token)

    # ------------------------------------------------------------------ the living message

    async def table_message(self, game_id: int) -> TableMessage | None:
        """The game's living message (its lobby, or the board of the turn under way)."""
        return await self.tables.get(game_id)

    async def set_table_message(self, message: TableMessage, *delivered: int | None) -> None:
        """Remember ``message`` as its game's living message, and the events it showed as delivered."""
        await self.tables.put(message, self.clock(), [i for i in delivered if i is not None])

    # ------------------------------------------------------------------ reading

    async def game(self, game_id: int) -> GameRow | None:
        """The game with ``game_id``."""
        return await self.store.game(game_id)

    async def live_game(self, channel_id: int) -> GameRow | None:
        """The open or running game of ``channel_id``."""
        return await self.store.live_game(channel_id)

    async def latest_game(self, channel_id: int) -> GameRow | None:
        """The live game of ``channel_id``, else its most recent one."""
        return await self.store.latest_game(channel_id)

    async def games_of_user(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """The open and running games ``user_id`` sits in."""
        return await self.store.games_of_user(user_id, guild_id)

    async def to_move(self, game: GameRow) -> int | None:
        """The seat that must act now in a started game."""
        return None if game.state is None else rules_for(game.game).to_move(self.state_of(game))

    async def acting_people(self, game: GameRow) -> list[int]:
        """The seats of the people who may act now in a started game (``people_acting``)."""
        if game.state is None or game.status != "active":
            return []
        return people_acting(game, rules_for(game.game), self.state_of(game))

    async def player_prefs(self, guild_id: int | None, user_id: int) -> dict[str, Any]:
        """A player's notification and vacation settings."""
        return await self.store.player_prefs(guild_id, user_id)

    async def set_notify(self, guild_id: int | None, user_id: int, mode: str) -> None:
        """How ``user_id`` is reminded in ``guild_id``: ``dm``, ``mention`` or ``off``."""
        if mode not in ("dm", "mention", "off"):
            raise ServiceError("Reminders can be dm, mention or off.")
        await self.store.set_player_prefs(guild_id, user_id, notify=mode)

    async def force_deadline(self, game_id: int) -> bool:
        """Make a running game's clock fall due now (a tournament round's deadline).

        Returns True when the game is running (its clock is now due), False when it is not, or when a
        computer player is to act: a bot has no clock and is never timed out; it plays its turn by
        itself (the autoplayer), and the next person's turn can then be forced.
        """
        game = await self.store.game(game_id)
        if game is None:
            return False
        async with self.unit(game.channel_id):
            fresh = await self.store.game(game_id)
            if fresh is None or fresh.status != "active":
                return False
            if fresh.turn_seat is not None and fresh.bot_at(fresh.turn_seat) is not None:
                return False
            now = self.clock()
            if fresh.deadline is None or fresh.deadline > now or fresh.wake_at is None:
                await self.store.update_game(fresh, now, deadline=now, wake_at=now)
            return True

    async def board(self, channel_id: int) -> Report:
        """The current (or last finished) game of the channel, rendered; an aborted lobby is passed over
        for the game played before it."""
        game = await self.store.latest_game(channel_id)
        if game is not None and game.state is None and game.status == "aborted":
            game = await self.store.last_started_game(channel_id)
        if game is None:
            raise ServiceError(NO_GAME_YET)
        rules = rules_for(game.game)
        if game.state is None:
            return Report(game, rules, None, ["Waiting for players."])
        state = self.state_of(game)
        outcome = outcome_from_json(game.outcome)
        line = ended_early(game, rules, state, outcome) or rules.status_line(state)
        report = Report(game, rules, state, [line], outcome=outcome)
        report.png = await self.render(game, state)
        return report

    async def has_acted(self, game: GameRow, user_id: int) -> bool:
        """True when ``user_id`` has anything in ``game``'s move log (a roll, a move, or their clock's)."""
        seats = {row.seat for row in game.seats if row.user_id == user_id}
        return any(row.seat in seats for row in await self.store.moves(game.id))

    async def history(self, channel_id: int) -> tuple[GameRow, list[MoveRow]]:
        """The channel's current or last game and its move log (while a new game's lobby is open, the game
        played before it); refused while no game of the channel has started."""
        game = await self.store.latest_game(channel_id)
        if game is None:
            raise ServiceError(NO_GAME_YET)
        if game.state is None:
            game = await self.store.last_started_game(channel_id) or game
        if game.state is None:  # a lobby, open or closed, and no game before it: nothing has been played
            raise ServiceError("This game has not started yet.")
        rows = await self.store.moves(game.id)
        rules, state = rules_for(game.game), self.state_of(game)
        return game, [replace(row, notation=rules.public_notation(state, row.notation)) for row in rows]

    async def rebuild(self, game: GameRow, upto: int | None = None, log: Sequence[MoveRow] | None = None) -> Any:
        """The state after the first ``upto`` plies (all by default), replayed from the move log (``log``
        when the caller has read it already)."""
        rules = rules_for(game.game)
        state = starting_state(game, rules)
        for row in (log if log is not None else await self.store.moves(game.id))[:upto]:
            state = replay_row(rules, state, row)
        return state

    async def replay_boards(
        self, game: GameRow, progress: Callable[[int, int], Any] | None = None, limit: int = MAX_FRAMES
    ) -> tuple[list[bytes], list[str]]:
        """The boards of a replay, rebuilt from the log, with captions: the starting position and the
        board after every ply, or ``limit`` of them evenly spaced (the start and the end always)."""
        rules = rules_for(game.game)
        names = [game.name_at(s.seat) for s in game.seats]
        state = starting_state(game, rules)
        log_rows = await self.store.moves(game.id)
        states: list[tuple[Any, Any]] = [(state, None)]
        for row, before, state in replayed(game, rules, log_rows):
            played = row.kind not in LEAVING_KINDS and not passed_over(rules, before, row)
            states.append((state, rules.parse_move(before, row.notation) if played else None))
        # each caption is fitted to its frame, on two lines at most (renderers/replay.py)
        captions = ["Start"] + [f"{row.ply + 1}/{len(log_rows)}: {row.description}" for row in log_rows]
        if early := ended_early(game, rules, state, outcome_from_json(game.outcome)):
            captions[-1] = f"{captions[-1]} {early}"
            if rules.outcome(state) is not None and len(states) > 1:
                # the last person left a table of one bot: the game, not the position, says who won (nobody)
                states[-1] = (states[-2][0], None)
        picked = pick_frames(len(states), limit)
        boards: list[bytes] = []
        for done, index in enumerate(picked, start=1):
            frame_state, move = states[index]
            boards.append(await asyncio.to_thread(render_game, game.game, frame_state, last_move=move, names=names))
            if progress is not None and done % 25 == 0:
                result = progress(done, len(picked))
                if asyncio.iscoroutine(result):
                    await result
        return boards, [captions[i] for i in picked]

    # ------------------------------------------------------------------ internals

    async def _turn_of(
        self, channel_id: int, actor: Actor, offered_at: Mark | None = None, *, out_of_turn: bool = False
    ) -> tuple[GameRow, Rules[Any, Any], Any, int]:
        """The game, rules, state and seat of ``actor``, who must be the one to act now (with
        ``out_of_turn``, or a seat the game lets act now although it is not to move: ``seat_state``).

        ``offered_at`` is where a chosen suggestion was offered: a stale choice is refused first.
        """
        game = await self._live(channel_id)
        if game.status != "active":
            raise ServiceError("The game has not started yet: wait for the start.")
        seat = self._seat_in_play(game, actor)
        rules = rules_for(game.game)
        state = self.state_of(game)
        if (
            offered_at is not None
            and not offered_at.current(game)
            and not (out_of_turn and still_together(rules, state, seat))
        ):
            raise ServiceError(BOARD_CHANGED)
        to_move = rules.to_move(state)
        if to_move != seat and not (out_of_turn and seat_state(rules, state, seat) is not None):
            who = game.name_at(to_move) if to_move is not None else "nobody"
            if acting_together(rules, state) and seat_state(rules, state, seat) is None:  # e.g. arranging twice
                raise ServiceError(f"You have already played your part of this phase: {who} is to move.")
            raise ServiceError(str(NotYourTurn(f"It is not your turn: {who} is to move.")))
        return game, rules, state, seat

    @staticmethod
    def _seat_in_play(game: GameRow, actor: Actor) -> int:
        """The seat ``actor`` plays in ``game``; refuses outsiders and players who have left."""
        seat = game.seat_of(actor.user_id)
        if seat is None:
            raise ServiceError("You are not playing in this game.")
        if any(row.seat == seat and row.removed for row in game.seats):
            raise ServiceError("You have left this game.")
        return seat

    async def _reload(self, game: GameRow) -> GameRow:
        loaded = await self.store.game(game.id)
        assert loaded is not None
        return loaded

    async def _turn_fields(
        self,
        game: GameRow,
        rules: Rules[S, M],
        state: S,
        now: datetime,
        banks: dict[int, int | None] | None = None,
        *,
        moved: bool = False,
    ) -> dict[str, Any]:
        """Turn tracking and the clock: a new deadline whenever the seat to act changes, and whenever the
        seat that keeps the turn has ``moved`` (the clock is per move: each decision of a turn, a
        solitaire turn, a trick won and led again), without a new turn (the table's message stays the
        turn's).  ``turn_started_at`` is when the clock started, which the reminders count from."""
        seat = rules.to_move(state)
        if rules.outcome(state) is not None or seat is None:
            return dict(NO_TURN)
        fields: dict[str, Any] = {
            "turn_seat": seat,
            "turn_started_at": now,
            "deadline": None,
            "reminders_sent": 0,
            "wake_at": None,
        }
        if seat == game.turn_seat and game.status == "active" and game.turn_started_at is not None:
            if not (moved and game.clock_days):
                return {}
            # the same turn (no "turn_seat": its message goes on), a fresh clock from now
            fields = {"turn_started_at": now, "deadline": None, "reminders_sent": 0, "wake_at": None}
        if game.clock_days and game.bot_at(seat) is None:  # a bot acts at once: no clock, no reminders
            bank = (banks or {}).get(seat, next((r.bank_seconds for r in game.seats if r.seat == seat), None))
            user_id = game.user_at(seat)
            prefs = await self.store.player_prefs(game.guild_id, user_id) if user_id is not None else {}
            deadline = clocks.turn_deadline(now, game.clock_days, bank, prefs.get("vacation_until"))
            fields["deadline"] = deadline
            fields["wake_at"] = clocks.next_wake(now, deadline, 0, prefs.get("vacation_until"))
        return fields

    async def turn_fields_after_undo(
        self, game: GameRow, rules: Rules[S, M], state: S, now: datetime
    ) -> dict[str, Any]:
        """Clock fields for a state restored by undo: the player to act gets a fresh deadline."""
        return await self._turn_fields(replace(game, turn_seat=None, turn_started_at=None), rules, state, now)

    def remember(self, game: GameRow, state: Any) -> None:
        """Cache ``state`` as the state of ``game`` at its current version (the most recent games only).

        A game that is over is not kept: its state is rarely needed again, and decoded once when it is.
        """
        if game.status not in ACTIVE_STATUSES:
            self._cache.pop(game.id, None)
            return
        self._cache[game.id] = (game.version, state)
        self._cache.move_to_end(game.id)
        while len(self._cache) > STATE_CACHE_SIZE:
            self._cache.popitem(last=False)

    async def _charge_clock(
        self, game: GameRow, rules: Rules[S, M], after: S, now: datetime, *, moved: bool = False
    ) -> dict[int, dict[str, Any]]:
        """When the turn leaves a seat, or the seat that keeps it has ``moved`` (its clock starts again):
        take overtime from its bank and clear its missed turns."""
        seat = game.turn_seat
        if seat is None or (rules.to_move(after) == seat and not moved) or game.turn_started_at is None:
            return {}
        updates: dict[str, Any] = {"missed_turns": 0}
        row = next((r for r in game.seats if r.seat == seat), None)
        if game.clock_days and row is not None and row.bank_seconds is not None:
            prefs = await self.store.player_prefs(game.guild_id, row.user_id)
            bank = clocks.bank_after_move(game.deadline, now, row.bank_seconds, prefs.get("vacation_until"))
            updates["bank_seconds"] = bank
        return {seat: updates}

    async def _commit(
        self,
        game: GameRow,
        rules: Rules[S, M],
        before: S,
        steps: Sequence[tuple[int | None, M, str]],
        token: str | None,
    ) -> Report[S, M]:
        """Play ``steps`` (seat, move, kind) from ``before``, store them (charging the player's clock)
        and report them."""
        entries: list[NewMove] = []
        lines: list[str] = []
        state = before
        for seat, move, kind in steps:
            after, description = rules.play(state, move)
            lines.append(description)
            entries.append(NewMove(seat, rules.format_move(state, move), description, kind, rules.to_json(after)))
            state = after
        charged = await self._charge_clock(game, rules, state, self.clock(), moved=moved_on_turn(game, entries))
        event = report_event(lines, token)
        return await self.commit_entries(
            game, rules, state, entries, lines, charged, last_move=steps[-1][1], event=event
        )

    async def commit_entries(
        self,
        game: GameRow,
        rules: Rules[S, M],
        state: S,
        entries: Sequence[NewMove],
        lines: Sequence[str],
        seat_updates: dict[int, dict[str, Any]],
        last_move: M | None = None,
        *,
        event: NewDelivery,
    ) -> Report[S, M]:
        """Append ``entries`` leading to ``state`` and record ``event``, in one transaction; then render,
        tell the listeners and report.  Called inside a unit of work, for players' moves and for entries
        the session builds itself (resignations, clock timeouts)."""
        now = self.clock()
        outcome = rules.outcome(state)
        last = entries[-1]
        last.state = rules.to_json(state)
        if outcome is not None:
            last.status = "finished"
            last.outcome = outcome_to_json(outcome)
        banks = {seat: values["bank_seconds"] for seat, values in seat_updates.items() if "bank_seconds" in values}
        # a phase played at the same time (Treasure Hunt's arrangements) is over: the turn starts afresh
        # for the seat to move, even when it is the one that acted last
        fresh_turn = acting_together(rules, self.state_of(game)) and not acting_together(rules, state)
        clock_game = replace(game, turn_seat=None, turn_started_at=None) if fresh_turn else game
        moved = moved_on_turn(game, entries)
        last.extra_updates = await self._turn_fields(clock_game, rules, state, now, banks, moved=moved)
        casual = game.tournament_id is None
        if game.has_bots and (outcome is None or casual) and not people_left(game, seat_updates):
            # the last person left: computer players do not play on alone.  At a tournament's table the
            # places of the people are settled already (those who leave rank below everyone still in, in
            # the order they left), so its result is final now, and a result the game gave itself stands
            # (one person against one bot); a casual game simply ends, even where the game would have
            # given the one bot left the win.
            if casual:
                lines = [*lines, ALL_PEOPLE_LEFT]
                last.status = "aborted"
                last.outcome = None
                outcome = None
            else:  # the result says why: no line of its own
                outcome = await self._table_left_outcome(game, entries)
                last.status = "finished"
                last.outcome = outcome_to_json(outcome)
            event = replace(event, payload={**event.payload, "lines": list(lines)})
            last.extra_updates = dict(NO_TURN)
        turn_changed = last.extra_updates.get("turn_seat") is not None  # a fresh clock alone is the same turn
        event = replace(event, payload={**event.payload, "turn_changed": turn_changed})
        game, ids = await self.store.append_moves(game, entries, now, seat_updates, events=[event])
        self.remember(game, state)
        report = Report(
            game,
            rules,
            state,
            list(lines),
            last_move=last_move,
            outcome=outcome,
            turn_changed=turn_changed,
            delivery_id=ids[0],
        )
        report.png = await self.render(game, state, last_move)
        await self._notify(report)
        return report

    async def _notify(self, report: Report) -> None:
        """Tell every listener; a listener's failure is logged and never undoes or hides the move."""
        for listener in self.listeners:
            try:
                result = listener(report)
                if asyncio.iscoroutine(result):
                    await result
            except Exception:
                log.exception("listener %r failed on game %s", listener, report.game.id)

    async def _table_left_outcome(self, game: GameRow, entries: Sequence[NewMove]) -> Outcome:
        """The result of a tournament table whose last person has just left (with ``entries``): the
        computer players still in share first place, and those who left follow, the first to leave last."""
        leaving = [row.seat for row in await self.store.moves(game.id) if row.kind in LEAVING_KINDS]
        leaving += [entry.seat for entry in entries if entry.kind in LEAVING_KINDS]
        logged = [seat for seat in dict.fromkeys(leaving) if seat is not None]
        unlogged = [row.seat for row in game.seats if row.removed and row.seat not in logged]  # order unknown
        order = unlogged + logged
        staying = [row.seat for row in game.seats if row.seat not in order]
        ranks = default_resign_ranks(order, len(game.seats), staying)
        return Outcome(ranks, TABLE_LEFT)

    # ------------------------------------------------------------------ deliveries

    async def delivered(self, *delivery_ids: int | None) -> None:
        """Record that these events were announced (an interaction's reply, or the announcer's post)."""
        await self.store.mark_delivered([i for i in delivery_ids if i is not None], self.clock())

    async def claim_deliveries(self) -> list[Delivery]:
        """Events to announce now: the scheduler's, and any whose interaction never got its reply.

        Each is claimed for ``DELIVERY_LEASE``; call ``delivered`` once it is posted.
        """
        now = self.clock()
        rows = await self.store.claim_deliveries(
            now, grace_before=now - DELIVERY_GRACE, lease_before=now - DELIVERY_LEASE
        )
        out = []
        for row in rows:
            try:
                out.append(await self._delivery(row))
            except Exception:
                log.exception("delivery %s of game %s cannot be rebuilt; dropped", row.id, row.game_id)
                await self.store.mark_delivered([row.id], now)
        return out

    def _still_due(self, reminder: Reminder, game: GameRow) -> bool:
        """True while ``reminder`` is still worth sending: its turn goes on and its player may still act in
        it (one playing at the same time as the seat to move may have done their part meanwhile)."""
        if not reminder.of_turn(game):
            return False
        if not reminder.together or game.state is None:
            return True
        state = self.state_of(game)
        return any(game.user_at(seat) == reminder.user_id for seat in people_acting(game, rules_for(game.game), state))

    async def _delivery(self, row: DeliveryRow) -> Delivery:
        """The event of ``row`` to announce.  A report overtaken by later events of a game now over has
        nothing left to show (the end was shown by the last one; its board would show the end again):
        it comes without a report, to be settled unposted.  One overtaken in a running game comes
        ``overtaken``: its board shows the game as it is now, after events its lines did not see."""
        game = await self.store.game(row.game_id)
        if game is None:
            raise LookupError(row.game_id)
        if row.kind == "reminder":  # overtaken once the turn it reminds of is over: then it is not sent
            return Delivery(row, game, None, overtaken=not self._still_due(Reminder.from_payload(row.payload), game))
        # later events (a move, or one at the same move: an undo, a seat handed to a bot) came after it
        newest = await self.store.newest_report(game.id)
        overtaken = row.ply < game.ply or (newest is not None and row.id < newest)
        if overtaken and game.status != "active":
            return Delivery(row, game, None)
        rules = rules_for(game.game)
        state = self.state_of(game) if game.state is not None else None
        outcome = None if overtaken else outcome_from_json(game.outcome)
        lines = [str(line) for line in row.payload.get("lines", [])]
        report = Report(
            game,
            rules,
            state,
            lines,
            outcome=outcome,
            turn_changed=bool(row.payload.get("turn_changed")) and not overtaken,
            delivery_id=row.id,
        )
        report.png = await self.render(game, state)
        return Delivery(row, game, report, overtaken)


@dataclass(frozen=True)
class Delivery:
    """An event to announce: a report to post in the game's channel, or a reminder for one player (a
    report overtaken in a game now over has none: nothing is posted)."""

    row: DeliveryRow
    game: GameRow
    report: Report | None
    overtaken: bool = False  # a report of a running game that has moved on since it was made, or a
    # reminder of a turn that is over

    @property
    def id(self) -> int:
        """The delivery record's id."""
        return self.row.id


def stopped_early(game: GameRow, rules: Rules[S, M], state: S) -> bool:
    """True when ``game`` ended before its position did (stopped without a result, or a tournament table
    every person left): its last position would still name a player to move, or, where the last person
    left a casual table of one bot, the bot as the winner of a game that has no result."""
    return game.status not in ACTIVE_STATUSES and (rules.outcome(state) is None or game.status == "aborted")


def ended_early(game: GameRow, rules: Rules[S, M], state: S, outcome: Outcome | None) -> str | None:
    """How ``game`` ended, when it ``stopped_early``; None otherwise."""
    if not stopped_early(game, rules, state):
        return None
    return outcome.reason if outcome is not None else "The game ended here, without a result."


def still_together(rules: Rules[S, M], state: S, seat: int) -> bool:
    """True when ``seat`` may still act in a phase everyone plays at the same time (Treasure Hunt's coins).

    There a choice offered a few plies ago is still good: what the others did meanwhile changes
    nothing of this seat's own moves, and a seat acts once in such a phase, so nothing is played twice.
    """
    return acting_together(rules, state) and seat_state(rules, state, seat) is not None


def people_acting(game: GameRow, rules: Rules[S, M], state: S) -> list[int]:
    """The seats of the people still in ``game`` who may act in ``state`` now: the seat to move first,
    then, in a phase played at the same time, everyone else who may act in it (``acting_seats``)."""
    return acting_seats(rules, state, [row.seat for row in game.humans if not row.removed])


def people_left(game: GameRow, seat_updates: dict[int, dict[str, Any]] | None = None) -> bool:
    """True when a person still plays in ``game`` (once ``seat_updates``, removals, are applied)."""
    removing = {seat for seat, values in (seat_updates or {}).items() if values.get("removed")}
    return any(not row.removed and row.seat not in removing for row in game.humans)


def report_event(
    lines: Sequence[str], token: str | None, origin: str = "interaction", *, turn_changed: bool = False
) -> NewDelivery:
    """The delivery record of a reported action.

    A player's action (``interaction``) is announced by its own reply, and by the announcer only when
    that reply is overdue; the scheduler's events are announced by the announcer at once.
    """
    return NewDelivery("report", origin, {"lines": list(lines), "turn_changed": turn_changed}, token=token)


def starting_state(game: GameRow, rules: Rules[S, M]) -> S:
    """``game``'s position before its first move, set up from its seed."""
    return rules.new_game(len(game.seats), game.options, setup_rng(game.seed))


def replayed(game: GameRow, rules: Rules[S, M], log: Sequence[MoveRow]) -> Iterator[tuple[MoveRow, S, S]]:
    """Each entry of ``log`` (from the start of ``game``) with the state it was played in and the state after."""
    state = starting_state(game, rules)
    for row in log:
        before, state = state, replay_row(rules, state, row)
        yield row, before, state


def replay_row(rules: Rules[S, M], state: S, row: MoveRow) -> S:
    """Apply one logged entry to ``state``: a move or roll by notation, or a seat leaving.

    A roll logged for a seat the rules no longer ask to roll is passed over: an earlier version of Martian
    Combat had a player with no step roll the Aim die, which then did nothing (docs/rules/combat.md,
    "A turn": such an Aim now ends the turn at once)."""
    if row.kind in LEAVING_KINDS:
        assert row.seat is not None
        return rules.resign(state, row.seat)
    if passed_over(rules, state, row):
        return state
    return rules.apply(state, rules.parse_move(state, row.notation))


def passed_over(rules: Rules[S, M], state: S, row: MoveRow) -> bool:
    """True for a roll logged for a seat the rules no longer ask to roll in ``state`` (see ``replay_row``)."""
    return row.kind == "roll" and row.seat is not None and rules.to_move(state) != row.seat
