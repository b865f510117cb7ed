"""Deadlines, reminders, timeouts and vacations: the session side of asynchronous play.

``Timekeeper.tick`` is called by the scheduler (and once at start-up, to catch up after downtime).
Each due game is handled as its own unit of work: written under the version check together with the
delivery record of what must be told, *before* anything is sent.  A deadline that passed while the
bot was offline is therefore acted on exactly once, no reminder is written twice, and one game's
failure is logged with its id and never stops the others: what each game committed is announced by
the announcer from its delivery record, whatever happens to the games after it.

A turn that runs out spends the player's time bank like a move made at that moment (so the bank is
gone: it is never refilled).  A computer player has no clock and is never timed out: it plays its
turn by itself.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot import clocks
from bot.session.reminders import Reminder
from bot.session.service import GameService, ServiceError, people_acting, replayed, report_event, rules_for
from bot.session.store import GameRow, NewDelivery, NewMove, StaleVersion, StoreError
from games.base import Rules, acting_together, plural, turn_owner
from games.playout import roll_rng

S = TypeVar("S")
M = TypeVar("M")

log = logging.getLogger(__name__)

MAX_FORCED_STEPS = 64
BY_THE_CLOCK = " (by the clock)"  # ends the description of a move the clock made for an absent player
VACATION_ATTEMPTS = 3  # a vacation's games moved under it this often in a row: the player is asked to try again


@dataclass(frozen=True)
class TickResult:
    """What one clock check did."""

    reminders: int = 0
    timeouts: int = 0
    failed: tuple[int, ...] = ()  # ids of games whose check failed (logged; tried again next tick)


def days_by_year(start: datetime, days: int) -> Counter[int]:
    """How many of ``days`` whole days from ``start`` begin in each calendar year."""
    return Counter((start + timedelta(days=day)).year for day in range(days))


class Timekeeper:
    """Acts on due deadlines and reminders; grants vacations."""

    def __init__(self, service: GameService, *, missed_turns_limit: int = 3, vacation_days_per_year: int = 14) -> None:
        self.service = service
        self.missed_turns_limit = max(1, missed_turns_limit)
        self.vacation_days_per_year = vacation_days_per_year

    async def tick(self) -> TickResult:
        """Handle every game whose next reminder or deadline has come, each on its own."""
        reminders = timeouts = 0
        failed: list[int] = []
        for game_id in await self.service.store.games_due(self.service.clock()):
            try:
                done = await self._handle(game_id)
            except ServiceError as error:  # a move landed at the same moment: look again next tick
                log.info("clock check of game %s skipped: %s", game_id, error)
                continue
            except Exception:
                log.exception("clock check of game %s failed", game_id)
                failed.append(game_id)
                continue
            reminders += done == "reminder"
            timeouts += done == "timeout"
        return TickResult(reminders, timeouts, tuple(failed))

    async def _handle(self, game_id: int) -> str | None:
        store = self.service.store
        game = await store.game(game_id)
        if game is None:
            return None
        async with self.service.unit(game.channel_id):
            game = await store.game(game_id)
            now = self.service.clock()
            if game is None or game.status != "active" or game.deadline is None or game.wake_at is None:
                return None
            if game.wake_at > now:
                return None
            if game.bot_at(game.turn_seat) is not None:  # a computer player has no clock: it acts by itself
                await store.update_game(game, now, deadline=None, wake_at=None)
                return None
            if now >= game.deadline:
                await self._time_out(game)
                return "timeout"
            return "reminder" if await self._remind(game) else None

    async def _remind(self, game: GameRow) -> bool:
        now = self.service.clock()
        assert game.turn_started_at is not None and game.deadline is not None
        user_id = game.user_at(game.turn_seat) if game.turn_seat is not None else None
        prefs = await self.service.store.player_prefs(game.guild_id, user_id) if user_id is not None else {}
        away = prefs.get("vacation_until")
        due = clocks.reminders_due(game.turn_started_at, game.deadline, game.reminders_sent, now, away)
        wake = clocks.next_wake(game.turn_started_at, game.deadline, due, away)
        events = []
        if due > game.reminders_sent:
            # the seat to move, and in a phase played at the same time everyone else who may act in it
            rules = rules_for(game.game)
            for seat in people_acting(game, rules, self.service.state_of(game)):
                user_id = game.user_at(seat)
                if user_id is None:
                    continue
                left = int((game.deadline - now).total_seconds())
                together = seat != game.turn_seat
                turn = game.turn_started_at.isoformat()
                reminder = Reminder(user_id, game.id, game.channel_id, rules.title, left, together, turn)
                events.append(NewDelivery("reminder", "scheduler", reminder.__dict__, user_id=user_id))
        # written with its delivery record: a reminder is never sent twice, nor lost if the bot stops here
        await self.service.store.update_game(game, now, events=events, reminders_sent=due, wake_at=wake)
        return bool(events)

    async def _time_out(self, game: GameRow) -> None:
        service = self.service
        rules = rules_for(game.game)
        state = service.state_of(game)
        seat = game.turn_seat
        assert seat is not None
        name = game.name_at(seat)
        active = [row for row in game.seats if not row.removed]
        row = next(row for row in game.seats if row.seat == seat)
        # a turn comes back after another player's decision inside it (Combat's counter attack): it counts once
        again = await self._played_by_the_clock_this_turn(game, rules, seat)
        missed = row.missed_turns + (0 if again else 1)
        others_still = [other for other in people_acting(game, rules, state) if other != seat]
        if len(active) <= 2 and others_still and acting_together(rules, state) and game.tournament_id is None:
            # both players left a part played at the same time unplayed: neither wins by the other's absence
            # (a tournament's match keeps its result on time: the tournament needs one)
            other = game.name_at(others_still[0])
            line = f"Neither {name} nor {other} played their part in time: the game ends with no result."
            await service.end_unplayed(game, rules, state, [line])
            return
        lines: list[str] = []
        entries: list[NewMove] = []
        seat_updates: dict[int, dict[str, Any]] = {seat: {"missed_turns": missed}}
        if game.clock_days and row.bank_seconds is not None:
            # the turn ran out: charged like a move made now, which spends the bank (it is never refilled)
            seat_updates[seat]["bank_seconds"] = clocks.bank_after_move(
                game.deadline, service.clock(), row.bank_seconds
            )
        if len(active) <= 2 or missed >= self.missed_turns_limit:
            removed = f"missed {plural(missed, 'turn')} and is removed from the game"
            # the last person at a casual table of computer players: the game ends without a result
            last_person = (
                game.has_bots and game.tournament_id is None and all(r.is_bot for r in active if r.seat != seat)
            )
            verb = removed if len(active) > 2 else ("leaves the game" if last_person else "loses on time")
            line = f"{name} ran out of time and {verb}."
            state = rules.resign(state, seat)
            entries.append(NewMove(seat, "timeout", line, "removed", rules.to_json(state)))
            seat_updates[seat]["removed"] = 1
            lines.append(line)
        else:
            limit = self.missed_turns_limit
            # a seat goes to a bot only with another person to agree, and never at a tournament's table
            others = [r for r in active if not r.is_bot and r.seat != seat]
            may_hand = others and game.tournament_id is None
            handing = " The table may hand the seat to a computer player: /game bot." if may_hand else ""
            what = "again in this turn" if again else f"(missed turn {missed} in a row; at {limit} a player is removed)"
            if turn_owner(rules, state) in (seat, None):
                rest = "the rest of it is" if again else "the turn is"
                lines.append(f"{name} ran out of time {what}: {rest} played for them.{handing}")
            else:  # asked inside another's turn (Combat's offered attack, counter attack): only the answer is theirs
                lines.append(f"{name} did not answer in time {what}: the clock answers for them.{handing}")
            state = await self._forced_turn(game, rules, state, seat, entries, lines, seat_updates)
        event = report_event(lines, None, "scheduler")
        await service.commit_entries(game, rules, state, entries, lines, seat_updates, event=event)

    async def _played_by_the_clock_this_turn(self, game: GameRow, rules: Rules[S, M], seat: int) -> bool:
        """True when the clock already played for ``seat`` in the turn still under way: the forced turn
        stopped at another player's decision inside it, and the turn has come back to the absent player."""
        if getattr(rules, "turn_owner", None) is None:
            return False  # every turn is its seat's to move: a forced turn always hands it on
        log = await self.service.store.moves(game.id)
        if not any(row.seat == seat and row.description.endswith(BY_THE_CLOCK) for row in log):
            return False  # the usual case, with no replay
        start = 0  # the first entry of the turn under way: every entry from there on was made in ``seat``'s turn
        for index, (_row, before, _after) in enumerate(replayed(game, rules, log)):
            if turn_owner(rules, before) != seat:
                start = index + 1
        return any(row.seat == seat and row.description.endswith(BY_THE_CLOCK) for row in log[start:])

    async def _forced_turn(
        self,
        game: GameRow,
        rules: Rules[S, M],
        state: S,
        seat: int,
        entries: list[NewMove],
        lines: list[str],
        seat_updates: dict[int, dict[str, Any]],
    ) -> S:
        """Roll and take the safe default for an absent player until the turn leaves them."""
        rolls = await self.service.store.count_rolls(game.id)
        for _ in range(MAX_FORCED_STEPS):
            if rules.outcome(state) is not None or rules.to_move(state) != seat:
                return state
            if rules.pending_roll(state):
                move, kind = rules.roll(state, roll_rng(game.seed, rolls)), "roll"
                rolls += 1
            else:
                default = rules.timeout_move(state)
                if default is None:
                    line = f"{game.name_at(seat)} must decide here and cannot be replaced, so leaves the game."
                    state = rules.resign(state, seat)
                    entries.append(NewMove(seat, "timeout", line, "removed", rules.to_json(state)))
                    seat_updates[seat]["removed"] = 1
                    lines.append(line)
                    return state
                move, kind = default, "move"
            after, said = rules.play(state, move)
            description = said + BY_THE_CLOCK
            entries.append(NewMove(seat, rules.format_move(state, move), description, kind, rules.to_json(after)))
            state = after
            lines.append(description)
        return state

    async def _vacation_push(
        self, game: GameRow, user_id: int, days: int, until: datetime
    ) -> tuple[GameRow, dict[str, Any]] | None:
        """The game as it stands and its clock pushed ``days`` later, when ``user_id`` is the one to move
        there and their time has not run out yet (a turn already lost on time is not saved)."""
        fresh = await self.service.store.game(game.id)
        if fresh is None or fresh.status != "active" or fresh.deadline is None or fresh.turn_started_at is None:
            return None
        if fresh.turn_seat is None or fresh.user_at(fresh.turn_seat) != user_id:
            return None  # the turn is someone else's: that deadline is not theirs
        if fresh.deadline <= self.service.clock():
            return None  # the time has run out already: the next check times the turn out
        deadline = fresh.deadline + timedelta(days=days)
        wake = clocks.next_wake(fresh.turn_started_at, deadline, fresh.reminders_sent, until)
        return fresh, {"deadline": deadline, "wake_at": wake}

    def _vacation_span(self, prefs: dict[str, Any], now: datetime, days: int) -> tuple[datetime, int, int]:
        """A vacation of ``days`` after the player's vacation so far (``prefs``): when it ends, the calendar
        year it ends in and the days spent in that year with it.  Refused past the yearly allowance."""

        def used_in(year: int) -> int:
            return int(prefs["vacation_used_days"] or 0) if prefs.get("vacation_year") == year else 0

        start = max(now, prefs["vacation_until"] or now)
        needed = days_by_year(start, days)
        for year, count in sorted(needed.items()):
            left = self.vacation_days_per_year - used_in(year)
            if count > left:
                when = "this year" if year == now.year else f"in {year}"
                raise ServiceError(f"You have {plural(left, 'vacation day')} left {when}.")
        year = max(needed)
        return start + timedelta(days=days), year, used_in(year) + needed[year]

    async def vacation(self, guild_id: int | None, user_id: int, days: int) -> tuple[list[GameRow], int, int]:
        """Pause ``user_id``'s clocks for ``days``; returns their running games with a clock in the guild
        (those whose players are told), the days left and the calendar year they are left in (the year
        the vacation ends in).  A clock that starts during the vacation (a game begun, a turn come round)
        waits for its end too; a turn whose time has already run out is not saved by it.

        Each day counts against the calendar year it falls in, so a vacation asked for on 31 December
        spends the next year's days; a new vacation starts where the current one ends, so the days
        already counted are always of an earlier year or of the year it starts in."""
        if days < 1:
            raise ServiceError("A vacation lasts at least one day.")
        allowance = self.vacation_days_per_year
        if allowance <= 0:
            raise ServiceError("Vacations are turned off on this bot: move clocks cannot be paused.")
        now = self.service.clock()
        store = self.service.store
        affected = [g for g in await store.games_of_user(user_id, guild_id) if g.status == "active" and g.clock_days]
        for _attempt in range(VACATION_ATTEMPTS):
            # read again each time: another vacation granted meanwhile starts this one where it ends
            prefs = await store.player_prefs(guild_id, user_id)
            until, year, used = self._vacation_span(prefs, now, days)
            pushes = [push for game in affected if (push := await self._vacation_push(game, user_id, days, until))]
            granted = {"vacation_until": until, "vacation_year": year, "vacation_used_days": used}
            try:
                await store.grant_vacation(guild_id, user_id, prefs, granted, pushes, now)
                break
            except StaleVersion:
                continue  # a game moved, or another vacation was granted, while this one was worked out
            except StoreError as error:
                raise ServiceError(str(error)) from None
        else:
            raise ServiceError("Your games are busy right now: nothing was changed, so try again in a moment.")
        return affected, allowance - used, year
