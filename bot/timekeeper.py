"""Deadlines, reminders, timeouts and vacations: the service side of asynchronous play.

``Timekeeper.tick`` is called by the scheduler (and once at start-up, to catch up after downtime).
Each due game is handled under its channel lock and written under the version check *before* any
message goes out, so a deadline that passed while the bot was offline is acted on exactly once and
no reminder is sent twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot import clocks
from bot.service import GameService, Report, ServiceError, rules_for
from bot.store import GameRow, NewMove

log = logging.getLogger(__name__)

MAX_FORCED_STEPS = 64


@dataclass
class Reminder:
    """A reminder to send: to ``user_id`` about the game in ``channel_id``."""

    game: GameRow
    user_id: int
    channel_id: int
    text: str


@dataclass
class Timeout:
    """A deadline that passed: what the clock did, as a report to post."""

    report: Report
    user_id: int | None


class Timekeeper:
    """Acts on due deadlines and reminders; grants vacations."""

    def __init__(self, service: GameService, *, missed_turns_limit: int = 3, vacation_days_per_year: int = 14) -> None:
        self.service = service
        self.missed_turns_limit = max(1, missed_turns_limit)
        self.vacation_days_per_year = vacation_days_per_year

    async def tick(self) -> list[Reminder | Timeout]:
        """Handle every game whose next reminder or deadline has come; returns what to tell players."""
        now = self.service.clock()
        events: list[Reminder | Timeout] = []
        for game_id in await self.service.store.games_due(now):
            try:
                event = await self._handle(game_id)
            except ServiceError as error:  # a move landed at the same moment: look again next tick
                log.info("clock check of game %s skipped: %s", game_id, error)
                continue
            if event is not None:
                events.append(event)
        return events

    async def _handle(self, game_id: int) -> Reminder | Timeout | None:
        store = self.service.store
        game = await store.game(game_id)
        if game is None:
            return None
        async with self.service.lock(game.channel_id):
            game = await store.game(game_id)
            now = self.service.clock()
            if game is None or game.status != "active" or game.deadline is None or game.wake_at is None:
                return None
            if game.wake_at > now:
                return None
            if now >= game.deadline:
                return await self._time_out(game)
            return await self._remind(game)

    async def _remind(self, game: GameRow) -> Reminder | None:
        now = self.service.clock()
        assert game.turn_started_at is not None and game.deadline is not None
        due = clocks.reminders_due(game.turn_started_at, game.deadline, game.reminders_sent, now)
        wake = clocks.next_wake(game.turn_started_at, game.deadline, due)
        # written first: a reminder is never sent twice, even if the bot stops right after
        await self.service.store.update_game(game, now, reminders_sent=due, wake_at=wake)
        if due <= game.reminders_sent or game.turn_seat is None:
            return None
        user_id = game.user_at(game.turn_seat)
        if user_id is None:
            return None
        rules = rules_for(game.game)
        left = game.deadline - now
        text = (
            f"Reminder: it is your turn in {rules.title} (game #{game.id}) in <#{game.channel_id}>. "
            f"Time left: {format_span(left)}."
        )
        return Reminder(game, user_id, game.channel_id, text)

    async def _time_out(self, game: GameRow) -> Timeout:
        service = self.service
        rules = rules_for(game.game)
        state = service.state_of(game)
        seat = game.turn_seat
        assert seat is not None
        name = game.name_at(seat)
        active = [row for row in game.seats if not row.removed]
        missed = next((row.missed_turns for row in game.seats if row.seat == seat), 0) + 1
        lines: list[str] = []
        entries: list[NewMove] = []
        seat_updates: dict[int, dict[str, Any]] = {seat: {"missed_turns": missed}}
        if len(active) <= 2 or missed >= self.missed_turns_limit:
            verb = "loses on time" if len(active) <= 2 else f"missed {missed} turns and is removed from the game"
            line = f"{name} ran out of time and {verb}."
            state = rules.resign(state, seat)
            entries.append(NewMove(seat, "timeout", line, "removed", rules.to_json(state)))
            seat_updates[seat]["removed"] = 1
            lines.append(line)
        else:
            lines.append(
                f"{name} ran out of time ({missed} of {self.missed_turns_limit} missed turns allowed): "
                "the turn is played for them."
            )
            state = await self._forced_turn(game, rules, state, seat, entries, lines, seat_updates)
        return Timeout(
            await service.commit_entries(game, rules, state, entries, lines, seat_updates), game.user_at(seat)
        )

    async def _forced_turn(
        self,
        game: GameRow,
        rules: Any,
        state: Any,
        seat: int,
        entries: list[NewMove],
        lines: list[str],
        seat_updates: dict[int, dict[str, Any]],
    ) -> Any:
        """Roll and take the safe default for an absent player until the turn leaves them."""
        from games.playout import roll_rng

        rolls = await self.service.store.count_rolls(game.id)
        for _ in range(MAX_FORCED_STEPS):
            if rules.outcome(state) is not None or rules.to_move(state) != seat:
                return state
            if rules.pending_roll(state):
                move, kind = rules.roll(state, roll_rng(game.seed, rolls)), "roll"
                rolls += 1
            else:
                move, kind = rules.timeout_move(state), "move"
                if move is None:
                    line = f"{game.name_at(seat)} must decide here and cannot be replaced, so leaves the game."
                    state = rules.resign(state, seat)
                    entries.append(NewMove(seat, "timeout", line, "removed", rules.to_json(state)))
                    seat_updates[seat]["removed"] = 1
                    lines.append(line)
                    return state
            description = rules.describe_move(state, move) + " (by the clock)"
            entries.append(NewMove(seat, rules.format_move(state, move), description, kind, {}))
            state = rules.apply(state, move)
            entries[-1].state = rules.to_json(state)
            lines.append(description)
        return state

    async def vacation(self, guild_id: int | None, user_id: int, days: int) -> tuple[list[GameRow], int]:
        """Pause ``user_id``'s clocks for ``days``; returns their games in the guild and days left this year."""
        now = self.service.clock()
        store = self.service.store
        prefs = await store.player_prefs(guild_id, user_id)
        used = prefs["vacation_used_days"] if prefs.get("vacation_year") == now.year else 0
        left = self.vacation_days_per_year - used
        if days < 1:
            raise ServiceError("A vacation lasts at least one day.")
        if days > left:
            raise ServiceError(f"You have {left} vacation day{'s' if left != 1 else ''} left this year.")
        start = max(now, prefs["vacation_until"] or now)
        until = start + timedelta(days=days)
        await store.set_player_prefs(
            guild_id, user_id, vacation_until=until, vacation_year=now.year, vacation_used_days=used + days
        )
        affected = []
        for game in await store.games_of_user(user_id, guild_id):
            affected.append(game)
            if game.status != "active" or game.deadline is None or game.turn_seat is None:
                continue
            if game.user_at(game.turn_seat) != user_id:
                continue
            async with self.service.lock(game.channel_id):
                fresh = await store.game(game.id)
                if fresh is None or fresh.deadline is None or fresh.turn_started_at is None:
                    continue
                deadline = fresh.deadline + timedelta(days=days)
                wake = clocks.next_wake(fresh.turn_started_at, deadline, fresh.reminders_sent)
                await store.update_game(fresh, now, deadline=deadline, wake_at=wake)
        return affected, left - days


def format_span(span: timedelta) -> str:
    """A duration in words: "2 days 3 hours", "45 minutes"."""
    seconds = max(0, int(span.total_seconds()))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
    if not days and minutes:
        parts.append(f"{minutes} minute{'s' if minutes != 1 else ''}")
    return " ".join(parts) or "less than a minute"
