"""The session service: every player action goes through here, with no Discord in sight.

Lock the channel -> load -> check the actor's seat and turn -> parse -> apply -> in ONE transaction
append the move and store the state under the version check -> render -> report.  The cogs turn a
``Report`` into a Discord reply and a ``ServiceError`` into one ephemeral sentence.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import games as games_pkg
from bot import clocks
from bot.clocks import DAY
from bot.store import ChannelBusy, GameRow, MoveRow, NewMove, StaleVersion, Store, StoreError
from games.base import GameError, NotYourTurn, Outcome, Rules
from games.playout import roll_rng, setup_rng
from renderers import render_game

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
STATE_CACHE_SIZE = 1024  # decoded states kept in memory; older ones are decoded again from the database


def utcnow() -> datetime:
    """The current UTC time."""
    return datetime.now(UTC)


class ServiceError(Exception):
    """A refusal: one sentence for the player, nothing changed."""


@dataclass(frozen=True)
class Actor:
    """Who is acting: a Discord member as the service sees them."""

    user_id: int
    name: str
    can_manage: bool = False


@dataclass
class Report:
    """What an action did, for the Discord layer to post."""

    game: GameRow
    rules: Rules
    state: Any
    lines: list[str] = field(default_factory=list)
    png: bytes | None = None
    last_move: Any = None
    outcome: Outcome | None = None
    turn_changed: bool = False

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
    def needs_roll(self) -> bool:
        """True when the player to move must roll next."""
        return self.state is not None and self.outcome is None and self.rules.pending_roll(self.state)


def rules_for(name: str) -> Rules:
    """The registered rules called ``name``."""
    try:
        return games_pkg.REGISTRY[name]
    except KeyError:
        raise ServiceError(f"There is no game called {name!r}.") from None


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """The stored form of an outcome."""
    return {
        "ranks": list(outcome.ranks),
        "reason": outcome.reason,
        "scores": list(outcome.scores) if outcome.scores is not None else None,
    }


def outcome_from_json(data: dict[str, Any] | None) -> Outcome | None:
    """An outcome back from its stored form."""
    if not data:
        return None
    scores = data.get("scores")
    return Outcome(tuple(data["ranks"]), data["reason"], tuple(scores) if scores is not None else None)


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

    # ------------------------------------------------------------------ plumbing

    class _Flight:
        def __init__(self, service: GameService) -> None:
            self.service = service

        async def __aenter__(self) -> None:
            self.service._in_flight += 1
            self.service._idle.clear()

        async def __aexit__(self, *exc: object) -> None:
            self.service._in_flight -= 1
            if self.service._in_flight == 0:
                self.service._idle.set()

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock serialising every write in ``channel_id``."""
        return self._locks[channel_id]

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
        """The board of ``state`` as PNG bytes (drawn in a worker thread)."""
        if not self.render_enabled or state is None:
            return None
        names = [game.name_at(s.seat) for s in game.seats]
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
    ) -> GameRow:
        """Open a game in ``channel_id`` with ``actor`` seated first."""
        rules = rules_for(game)
        from games.base import resolve_options

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
            raise ServiceError(str(error)) from None
        async with self._Flight(self), self.lock(channel_id):
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
                )
            except ChannelBusy as error:
                raise ServiceError(str(error)) from None
        loaded = await self.store.game(game_id)
        assert loaded is not None
        return loaded

    async def join(self, channel_id: int, actor: Actor) -> GameRow:
        """Take the next free seat of the open game in ``channel_id``."""
        async with self._Flight(self), self.lock(channel_id):
            game = await self._live(channel_id)
            if game.status != "open":
                raise ServiceError("This game has already started.")
            if game.seat_of(actor.user_id) is not None:
                raise ServiceError("You are already in this game.")
            if len(game.seats) >= game.max_players:
                raise ServiceError(f"This game is full ({game.max_players} players).")
            seated = [(s.user_id, s.display_name) for s in game.seats] + [(actor.user_id, actor.name)]
            await self._write(self.store.set_seats(game, seated, self.clock()))
            return await self._reload(game)

    async def leave(self, channel_id: int, actor: Actor) -> GameRow:
        """Give up a seat before the start; the game closes when its last player leaves."""
        async with self._Flight(self), self.lock(channel_id):
            game = await self._live(channel_id)
            if game.status != "open":
                raise ServiceError("The game has started: use `/game resign` to leave it.")
            if game.seat_of(actor.user_id) is None:
                raise ServiceError("You are not in this game.")
            seated = [(s.user_id, s.display_name) for s in game.seats if s.user_id != actor.user_id]
            now = self.clock()
            if not seated:
                await self._write(self.store.update_game(game, now, status="aborted"))
            else:
                await self._write(self.store.set_seats(game, seated, now))
            return await self._reload(game)

    async def start(self, channel_id: int, actor: Actor) -> Report:
        """Deal the game out and begin.

        The creator starts it, or a server manager; if the creator has left the lobby, any seated player.
        """
        async with self._Flight(self), self.lock(channel_id):
            game = await self._live(channel_id)
            rules = rules_for(game.game)
            if game.status != "open":
                raise ServiceError("This game has already started.")
            creator_seated = game.seat_of(game.creator_id) is not None
            may_start = actor.user_id == game.creator_id or actor.can_manage
            if not may_start and not (not creator_seated and game.seat_of(actor.user_id) is not None):
                raise ServiceError("Only the player who opened this game (or a server manager) can start it.")
            count = len(game.seats)
            if count < rules.min_players:
                need = rules.min_players - count
                raise ServiceError(f"{rules.title} needs {rules.min_players} players; {need} more must join.")
            try:
                state = rules.new_game(count, game.options, setup_rng(game.seed))
            except GameError as error:
                raise ServiceError(str(error)) from None
            now = self.clock()
            if game.bank_days:
                for row in game.seats:
                    await self._write(self.store.update_seat(game, row.seat, now, bank_seconds=game.bank_days * DAY))
                    game = await self._reload(game)
            values = {
                "status": "active",
                "state": rules.to_json(state),
                **await self._turn_fields(game, rules, state, now),
            }
            await self._write(self.store.update_game(game, now, **values))
            game = await self._reload(game)
            self.remember(game, state)
            report = Report(game, rules, state, [f"The game begins. {rules.status_line(state)}"], turn_changed=True)
            report.png = await self.render(game, state)
            await self._notify(report)
            return report

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
    ) -> Report:
        """Create a game with ``players`` seated in order and start it at once (tournament matches)."""
        first = players[0]
        await self.new_game(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            actor=first,
            options=options,
            max_players=len(players),
            clock_days=clock_days,
            tournament_id=tournament_id,
            thread_id=thread_id,
            parent_channel_id=parent_channel_id,
        )
        for player in players[1:]:
            await self.join(channel_id, player)
        return await self.start(channel_id, first)

    # ------------------------------------------------------------------ play

    async def move(self, channel_id: int, actor: Actor, notation: str) -> Report:
        """Play ``notation`` for ``actor`` in the channel's game."""
        async with self._Flight(self), self.lock(channel_id):
            game, rules, state, seat = await self._turn_of(channel_id, actor)
            if rules.pending_roll(state):
                raise ServiceError("Roll first: use the Roll button or the `roll` command.")
            try:
                move = rules.parse_move(state, notation)
                if move not in rules.legal_moves(state):  # e.g. a clock-only default typed by hand
                    raise ServiceError(f"{notation.strip()} is not one of your legal moves now.")
                after = rules.apply(state, move)
            except GameError as error:
                raise ServiceError(str(error)) from None
            return await self._commit(game, rules, state, [(seat, move, after, "move")])

    async def roll(self, channel_id: int, actor: Actor) -> Report:
        """Roll the dice for ``actor`` with the game's seeded RNG."""
        async with self._Flight(self), self.lock(channel_id):
            game, rules, state, seat = await self._turn_of(channel_id, actor)
            if not rules.pending_roll(state):
                raise ServiceError("There is nothing to roll now: make your move.")
            move = rules.roll(state, roll_rng(game.seed, await self.store.count_rolls(game.id)))
            after = rules.apply(state, move)
            return await self._commit(game, rules, state, [(seat, move, after, "roll")])

    async def resign(self, channel_id: int, actor: Actor) -> Report:
        """``actor`` leaves the running game; the engine decides what follows."""
        async with self._Flight(self), self.lock(channel_id):
            game = await self._live(channel_id)
            if game.status != "active":
                raise ServiceError("The game has not started: use `leave` instead.")
            seat = self._seat_in_play(game, actor)
            rules = rules_for(game.game)
            state = self.state_of(game)
            return await self._remove_seat(game, rules, state, seat, "resign", f"{game.name_at(seat)} resigns.")

    async def abort(self, channel_id: int, actor: Actor) -> GameRow:
        """End the channel's game with no result (creator or server manager)."""
        async with self._Flight(self), self.lock(channel_id):
            game = await self._live(channel_id)
            if game.tournament_id is not None and not actor.can_manage:
                raise ServiceError("This is a tournament match: ask an organiser to adjudicate it.")
            if actor.user_id != game.creator_id and not actor.can_manage:
                raise ServiceError("Only the game's creator or a server manager can abort it.")
            await self._write(self.store.update_game(game, self.clock(), status="aborted", deadline=None))
            self._cache.pop(game.id, None)
            return await self._reload(game)

    async def rematch(self, old: GameRow, actor: Actor) -> GameRow:
        """Open a new game like ``old`` (same game, options, size and clock) in its channel."""
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
        )

    async def legal_moves(self, channel_id: int, user_id: int) -> list[tuple[str, str]]:
        """(notation, label) of every move ``user_id`` may make now; empty when it is not their turn."""
        game = await self.store.live_game(channel_id)
        if game is None or game.status != "active":
            return []
        rules = rules_for(game.game)
        state = self.state_of(game)
        seat = rules.to_move(state)
        if seat is None or game.user_at(seat) != user_id or rules.pending_roll(state):
            return []
        out = []
        for move in rules.legal_moves(state):
            notation = rules.format_move(state, move)
            out.append((notation, rules.describe_move(state, move)))
        return out

    async def board(self, channel_id: int) -> Report:
        """The current (or last finished) game of the channel, rendered."""
        game = await self.store.latest_game(channel_id)
        if game is None:
            raise ServiceError("There is no game in this channel yet.")
        rules = rules_for(game.game)
        if game.state is None:
            return Report(game, rules, None, ["Waiting for players."])
        state = self.state_of(game)
        report = Report(game, rules, state, [rules.status_line(state)], outcome=outcome_from_json(game.outcome))
        report.png = await self.render(game, state)
        return report

    async def history(self, channel_id: int) -> tuple[GameRow, list[MoveRow]]:
        """The channel's current or last game and its move log."""
        game = await self.store.latest_game(channel_id)
        if game is None:
            raise ServiceError("There is no game in this channel yet.")
        return game, await self.store.moves(game.id)

    async def rebuild(self, game: GameRow, upto: int | None = None) -> Any:
        """The state after the first ``upto`` plies (all by default), replayed from the move log."""
        rules = rules_for(game.game)
        state = rules.new_game(len(game.seats), game.options, setup_rng(game.seed))
        for row in (await self.store.moves(game.id))[:upto]:
            state = replay_row(rules, state, row)
        return state

    async def replay_boards(
        self, game: GameRow, progress: Callable[[int, int], Any] | None = None
    ) -> tuple[list[bytes], list[str]]:
        """The board after every ply, rebuilt from the log (first the starting position), with captions."""
        rules = rules_for(game.game)
        names = [game.name_at(s.seat) for s in game.seats]
        state = rules.new_game(len(game.seats), game.options, setup_rng(game.seed))
        log_rows = await self.store.moves(game.id)
        states: list[tuple[Any, Any]] = [(state, None)]
        for row in log_rows:
            move = None if row.kind in ("resign", "removed") else rules.parse_move(state, row.notation)
            state = replay_row(rules, state, row)
            states.append((state, move))
        boards: list[bytes] = []
        captions = ["Start"] + [f"{row.ply + 1}/{len(log_rows)}: {row.description}"[:90] for row in log_rows]
        for index, (frame_state, move) in enumerate(states):
            boards.append(await asyncio.to_thread(render_game, game.game, frame_state, last_move=move, names=names))
            if progress is not None and (index + 1) % 25 == 0:
                result = progress(index + 1, len(states))
                if asyncio.iscoroutine(result):
                    await result
        return boards, captions

    # ------------------------------------------------------------------ internals

    async def _turn_of(self, channel_id: int, actor: Actor) -> tuple[GameRow, Rules, Any, int]:
        game = await self._live(channel_id)
        if game.status != "active":
            raise ServiceError("The game has not started yet: wait for the start.")
        seat = self._seat_in_play(game, actor)
        rules = rules_for(game.game)
        state = self.state_of(game)
        to_move = rules.to_move(state)
        if to_move != seat:
            who = game.name_at(to_move) if to_move is not None else "nobody"
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

    async def _write(self, coroutine: Any) -> Any:
        try:
            return await coroutine
        except StaleVersion as error:
            raise ServiceError(str(error)) from None
        except StoreError as error:
            raise ServiceError(str(error)) from None

    async def _reload(self, game: GameRow) -> GameRow:
        loaded = await self.store.game(game.id)
        assert loaded is not None
        return loaded

    async def _turn_fields(
        self, game: GameRow, rules: Rules, state: Any, now: datetime, banks: dict[int, int | None] | None = None
    ) -> dict[str, Any]:
        """Turn tracking and the clock: a new deadline whenever the seat to act changes."""
        seat = rules.to_move(state)
        if rules.outcome(state) is not None or seat is None:
            return {"turn_seat": None, "turn_started_at": None, "deadline": None, "reminders_sent": 0, "wake_at": None}
        if seat == game.turn_seat and game.status == "active" and game.turn_started_at is not None:
            return {}
        fields: dict[str, Any] = {
            "turn_seat": seat,
            "turn_started_at": now,
            "deadline": None,
            "reminders_sent": 0,
            "wake_at": None,
        }
        if game.clock_days:
            bank = (banks or {}).get(seat, next((r.bank_seconds for r in game.seats if r.seat == seat), None))
            user_id = game.user_at(seat)
            prefs = await self.store.player_prefs(game.guild_id, user_id) if user_id is not None else {}
            deadline = clocks.turn_deadline(now, game.clock_days, bank, prefs.get("vacation_until"))
            fields["deadline"] = deadline
            fields["wake_at"] = clocks.next_wake(now, deadline, 0)
        return fields

    async def turn_fields_after_undo(self, game: GameRow, rules: Rules, state: Any, now: datetime) -> dict[str, Any]:
        """Clock fields for a state restored by undo: the player to act gets a fresh deadline."""
        return await self._turn_fields(replace(game, turn_seat=None, turn_started_at=None), rules, state, now)

    def remember(self, game: GameRow, state: Any) -> None:
        """Cache ``state`` as the state of ``game`` at its current version (the most recent games only)."""
        self._cache[game.id] = (game.version, state)
        self._cache.move_to_end(game.id)
        while len(self._cache) > STATE_CACHE_SIZE:
            self._cache.popitem(last=False)

    def _charge_clock(self, game: GameRow, rules: Rules, after: Any, now: datetime) -> dict[int, dict[str, Any]]:
        """When the turn leaves a seat: take overtime from its bank and clear its missed turns."""
        seat = game.turn_seat
        if seat is None or rules.to_move(after) == seat or game.turn_started_at is None:
            return {}
        updates: dict[str, Any] = {"missed_turns": 0}
        row = next((r for r in game.seats if r.seat == seat), None)
        if game.clock_days and row is not None and row.bank_seconds is not None:
            updates["bank_seconds"] = clocks.bank_after_move(
                game.turn_started_at, now, game.clock_days, row.bank_seconds
            )
        return {seat: updates}

    async def _commit(
        self,
        game: GameRow,
        rules: Rules,
        before: Any,
        steps: Sequence[tuple[int | None, Any, Any, str]],
    ) -> Report:
        """Store moves a player made (charging their clock) and report them."""
        entries: list[NewMove] = []
        lines: list[str] = []
        state = before
        for seat, move, after, kind in steps:
            description = rules.describe_move(state, move)
            lines.append(description)
            entries.append(NewMove(seat, rules.format_move(state, move), description, kind, rules.to_json(after)))
            state = after
        charged = self._charge_clock(game, rules, state, self.clock())
        return await self.commit_entries(game, rules, state, entries, lines, charged, last_move=steps[-1][1])

    async def commit_entries(
        self,
        game: GameRow,
        rules: Rules,
        state: Any,
        entries: Sequence[NewMove],
        lines: Sequence[str],
        seat_updates: dict[int, dict[str, Any]],
        last_move: Any = None,
    ) -> Report:
        """Append ``entries`` leading to ``state`` in one transaction, then render and report.

        Used for players' moves and for entries the service builds itself (resignations, clock timeouts).
        """
        now = self.clock()
        outcome = rules.outcome(state)
        last = entries[-1]
        last.state = rules.to_json(state)
        if outcome is not None:
            last.status = "finished"
            last.outcome = outcome_to_json(outcome)
        banks = {seat: values["bank_seconds"] for seat, values in seat_updates.items() if "bank_seconds" in values}
        last.extra_updates = await self._turn_fields(game, rules, state, now, banks)
        game = await self._write(self.store.append_moves(game, entries, now, seat_updates))
        self.remember(game, state)
        report = Report(
            game,
            rules,
            state,
            list(lines),
            last_move=last_move,
            outcome=outcome,
            turn_changed=bool(last.extra_updates.get("turn_started_at")),
        )
        report.png = await self.render(game, state, last_move)
        await self._notify(report)
        return report

    async def _remove_seat(self, game: GameRow, rules: Rules, state: Any, seat: int, kind: str, line: str) -> Report:
        after = rules.resign(state, seat)
        entry = NewMove(seat, kind, line, kind, {})
        return await self.commit_entries(game, rules, after, [entry], [line], {seat: {"removed": 1}})

    async def _notify(self, report: Report) -> None:
        for listener in self.listeners:
            result = listener(report)
            if asyncio.iscoroutine(result):
                await result


def replay_row(rules: Rules, state: Any, row: MoveRow) -> Any:
    """Apply one logged entry to ``state``: a move or roll by notation, or a seat leaving."""
    if row.kind in ("resign", "removed"):
        assert row.seat is not None
        return rules.resign(state, row.seat)
    return rules.apply(state, rules.parse_move(state, row.notation))
