"""The tournament manager: runs registration, check-in, rounds, matches, results and deadlines.

No Discord here: whatever must happen in Discord (opening a match thread, announcing a round) goes
through a ``Host`` the cog provides, told as data, so the manager runs the same against a fake host in
tests.  The only storage it touches is its ``TournamentRecords``; games are played through the public
methods of ``GameService``.

Life of a tournament
--------------------
``registration`` (players ``join``/``leave``) -> optional ``checkin`` (a window before the start in
which registered players confirm; whoever has not checked in when it closes is left out) ->
``running`` (round after round) -> ``finished``; an organiser may ``cancel`` at any time.

Rounds
------
Each round is stored with the ``current_round`` bump it depends on in one transaction, so a round
is never paired twice (``TournamentRecords.create_round``).  Every match is then launched: claimed
first (``TournamentRecords.claim_launch``, so with several processes on one database only one opens
it), then given its own thread with the players added, then a game created in it by
``GameService.create_seated_game`` with the tournament's move clock.  When a game finishes, the service
listener (``on_report``) records the result exactly once (``WHERE status = 'playing'``) and the next
round is paired as soon as every match of the round is settled.  Everything lives in the database,
and ``tick`` (run by the cog's loop, the first time at start-up) catches up on whatever a restart
interrupted: results of games that ended unseen, matches whose thread or game was not created yet,
rounds not yet paired, announcements not yet posted (a check-in window's opening, the start, a round's
pairings, the final standings: each is marked told only once posted, see ``_tell``), and start times,
check-in windows and round deadlines that passed while the bot was away.

Withdrawals: a player who drops or is kicked is resigned from their running game of the round.  A
match launched after its player left (its thread was slow to open, or its launch failed and is
retried) seats them all the same; every ``advance`` ends by resigning, outside the lock, the seats
that players who have left still hold (``_resign_withdrawn``), so such a match is settled as after any
resignation once its game exists, in whichever process and after whatever crash.

Round deadline: when a round has one and it passes, every game of the round still running has its
turns timed out at once through the game clocks (``enforce_deadlines``): a two-player game is lost
on time by the player to move; at a bigger table the absent turns are skipped and players removed
after the missed-turn limit until the game ends.  Organisers can ``adjudicate`` a match instead.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Coroutine, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.session import (
    Actor,
    GameRow,
    GameService,
    Report,
    ServiceError,
    TickResult,
    outcome_from_json,
    people_left,
    rules_for,
)
from bot.session.tournament_records import (
    ABSENT,
    ACTIVE,
    BYE,
    CANCELLED,
    CHECKIN,
    DONE,
    DROPPED,
    FINISHED,
    KICKED,
    LAUNCHING,
    LIVE_STATUSES,
    OPEN_STATUSES,
    PENDING,
    PLAYING,
    REGISTRATION,
    REST,
    RUNNING,
    AlreadyRegistered,
    EntrantRow,
    MatchRecord,
    TournamentFull,
    TournamentRecords,
    TournamentRow,
    milestone,
)
from bot.tournaments import rounds
from bot.tournaments.errors import CheckinNotOpen, TournamentError
from bot.tournaments.formats import (
    BOT_FORMATS,
    ELIMINATION,
    FORMAT_NAMES,
    MAX_PLAYERS,
    MAX_ROUNDS,
    ROUND_ROBIN,
    TABLES,
    check_format,
    format_key,
    minimum_players,
    table_range,
)
from bot.tournaments.host import Host
from bot.tournaments.launcher import REFEREE, MatchLauncher
from bot.tournaments.pairings import seed_players
from bot.tournaments.results import (
    ADJUDICATED,
    DRAW_NOTE,
    GAME_ABORTED,
    bracket_of,
    elimination_winner,
    parse_result,
)
from bot.tournaments.views import Standings, TournamentView, export_of, standings_of
from games.base import GameError, Outcome, resolve_options

log = logging.getLogger(__name__)

MAX_CHECKIN_MINUTES = 7 * 24 * 60
MAX_ROUND_STEPS = 64
MAX_FORCED_PASSES = 500


class RatingLookup(Protocol):
    """Where seeding finds players' ratings (``bot.session.ratings.RatingService``)."""

    async def ordinals(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, float]: ...


def require_organiser(actor: Actor, what: str) -> None:
    """Refuse ``actor`` unless they may run tournaments here (``can_manage``, as the cog decides)."""
    if not actor.can_manage:
        raise TournamentError(f"Only members with Manage Server or the tournament role can {what}.")


class TournamentManager:
    """Runs every tournament of the bot; one instance per bot process."""

    def __init__(
        self,
        service: GameService,
        records: TournamentRecords,
        host: Host,
        *,
        ratings: RatingLookup | None = None,
        clock: Callable[[], datetime] | None = None,
        spawn: Callable[[Coroutine[Any, Any, Any]], Any] | None = None,
    ) -> None:
        self.service = service
        self.records = records
        self.host = host
        self.ratings = ratings
        self.clock = clock or service.clock
        self.spawn = spawn
        self.launcher = MatchLauncher(service, records, host, self.clock, on_finished=self.record_game)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # ------------------------------------------------------------------ lookups

    async def get(self, tournament_id: int, guild_id: int | None = None) -> TournamentRow:
        """The tournament ``tournament_id`` (of ``guild_id`` when given); refuses when there is none."""
        tournament = await self.records.tournament(tournament_id)
        if tournament is None or (guild_id is not None and tournament.guild_id != guild_id):
            raise TournamentError(f"There is no tournament #{tournament_id} on this server.")
        return tournament

    async def resolve(
        self, guild_id: int | None, channel_id: int | None, tournament_id: int | None = None, *, live_only: bool = False
    ) -> TournamentRow:
        """The tournament a command means: the one named, else the one of this channel or match thread,
        else the only live one on the server (else the latest one, unless ``live_only``)."""
        if guild_id is None:
            raise TournamentError("Tournaments run in servers, not in direct messages.")
        if tournament_id is not None:
            return await self.get(tournament_id, guild_id)
        if channel_id is not None:
            owner = await self.records.tournament_of_thread(channel_id)
            if owner is not None:
                return await self.get(owner, guild_id)
            here = [
                t for t in await self.records.tournaments(guild_id=guild_id, channel_id=channel_id) if not t.is_over
            ]
            if len(here) == 1:
                return here[0]
        live = await self.records.tournaments(guild_id=guild_id, statuses=LIVE_STATUSES)
        if len(live) == 1:
            return live[0]
        if len(live) > 1:
            raise TournamentError("Several tournaments are on here: choose one with the tournament option.")
        if not live_only:
            everything = await self.records.tournaments(guild_id=guild_id)
            if everything:
                return everything[0]
        raise TournamentError("There is no tournament on this server right now.")

    async def listing(self, guild_id: int) -> list[TournamentRow]:
        """The server's tournaments, live ones first, newest first."""
        rows = await self.records.tournaments(guild_id=guild_id)
        return sorted(rows, key=lambda t: (t.is_over, -t.id))

    # ------------------------------------------------------------------ registration

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        actor: Actor,
        name: str,
        game: str,
        format: str,
        options: dict[str, Any] | None = None,
        rounds: int | None = None,
        clock_days: int | None = None,
        round_days: int | None = None,
        start_at: datetime | None = None,
        checkin_minutes: int | None = None,
        max_players: int | None = None,
        table_size: int | None = None,
        bots: bool = False,
    ) -> TournamentRow:
        """Create a tournament in registration (organisers only).

        ``bots``: instead of byes, the players who would have one play at a table filled with hard
        computer players (Swiss and table Swiss; those games are unrated like any game with a bot).
        """
        if guild_id is None:
            raise TournamentError("Tournaments run in servers, not in direct messages.")
        require_organiser(actor, "create a tournament")
        rules = rules_for(game)
        fmt = format_key(format)
        try:
            resolved = resolve_options(rules.options, {k: v for k, v in (options or {}).items() if v is not None})
        except GameError as error:
            raise TournamentError(str(error)) from None
        check_format(rules, fmt, resolved)
        if rounds is not None:
            if fmt in (ROUND_ROBIN, ELIMINATION):
                raise TournamentError(f"A {FORMAT_NAMES[fmt].lower()} sets its own number of rounds; leave rounds out.")
            if not 1 <= rounds <= MAX_ROUNDS:
                raise TournamentError(f"Rounds must be between 1 and {MAX_ROUNDS}.")
        low, high = table_range(rules, resolved) if fmt == TABLES else (2, 2)
        if table_size is not None:
            if fmt != TABLES:
                raise TournamentError("A table size only applies to table swiss.")
            if not low <= table_size <= high:
                raise TournamentError(f"Tables of {rules.title} seat {low} to {high} players.")
        need = minimum_players(rules, fmt, resolved)
        if max_players is not None and not need <= max_players <= MAX_PLAYERS:
            raise TournamentError(f"The player limit must be between {need} and {MAX_PLAYERS}.")
        if bots and fmt not in BOT_FORMATS:
            raise TournamentError(
                "Computer players fill byes only in Swiss and table Swiss: a round robin rests, a knockout "
                "bye goes through."
            )
        if clock_days is not None and clock_days <= 0:
            clock_days = None
        if round_days is not None and not 1 <= round_days <= 90:
            raise TournamentError("A round deadline must be between 1 and 90 days.")
        if checkin_minutes is not None and checkin_minutes <= 0:
            checkin_minutes = None
        if checkin_minutes is not None and checkin_minutes > MAX_CHECKIN_MINUTES:
            raise TournamentError("The check-in window can be at most 7 days (10080 minutes).")
        now = self.clock()
        if start_at is not None and start_at <= now:
            raise TournamentError("The start time must be in the future.")
        title = " ".join(name.split())[:100] or f"{rules.title} {FORMAT_NAMES[fmt].lower()}"
        tournament_id = await self.records.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            name=title,
            game=rules.name,
            options=resolved,
            format=fmt,
            rounds=rounds,
            clock_days=clock_days,
            round_days=round_days,
            max_players=max_players,
            table_size=table_size,
            checkin_minutes=checkin_minutes,
            start_at=start_at,
            checkin_until=None,
            status=REGISTRATION,
            current_round=0,
            round_deadline=None,
            creator_id=actor.user_id,
            seed=secrets.token_hex(8),
            data={"bots": True} if bots else {},
            created_at=now,
            updated_at=now,
        )
        return await self.get(tournament_id)

    async def join(self, tournament_id: int, actor: Actor) -> tuple[TournamentRow, int]:
        """Register ``actor``; returns the tournament and the number of players now registered."""
        async with self._locks[tournament_id]:
            tournament = await self.get(tournament_id)
            if not tournament.is_open:
                raise TournamentError(f"Registration for {tournament.name} is closed.")
            try:
                count = await self.records.add_player(
                    tournament.id,
                    actor.user_id,
                    actor.name,
                    self.clock(),
                    limit=tournament.max_players,
                    checked_in=tournament.status == CHECKIN,
                )
            except AlreadyRegistered:
                raise TournamentError(f"You are already registered for {tournament.name}.") from None
            except TournamentFull:
                raise TournamentError(f"{tournament.name} is full ({tournament.max_players} players).") from None
        return tournament, count

    async def leave(self, tournament_id: int, actor: Actor) -> TournamentRow:
        """Withdraw a registration before the start."""
        async with self._locks[tournament_id]:
            tournament = await self.get(tournament_id)
            if not tournament.is_open:
                if tournament.status == RUNNING:
                    raise TournamentError(f"{tournament.name} has started: use /tournament drop to withdraw.")
                raise TournamentError(f"{tournament.name} is over.")
            if not await self.records.remove_player(tournament.id, actor.user_id):
                raise TournamentError(f"You are not registered for {tournament.name}.")
        return tournament

    async def checkin(self, tournament_id: int, actor: Actor) -> TournamentRow:
        """Confirm a registered player will play (during the check-in window).

        Before the window opens this refuses with ``CheckinNotOpen``, which carries when it opens.
        """
        tournament = await self.get(tournament_id)
        entrant = await self.records.player(tournament.id, actor.user_id)
        if not tournament.checkin_minutes:
            if entrant is None:
                raise TournamentError(f"{tournament.name} has no check-in; use /tournament join to register.")
            raise TournamentError(f"{tournament.name} has no check-in: being registered is enough.")
        if tournament.status == REGISTRATION:
            opens = tournament.start_at - timedelta(minutes=tournament.checkin_minutes) if tournament.start_at else None
            raise CheckinNotOpen(tournament.name, opens)
        if tournament.status != CHECKIN:
            raise TournamentError(f"Check-in for {tournament.name} is closed.")
        if entrant is None:
            raise TournamentError(f"You are not registered for {tournament.name}; use /tournament join.")
        if entrant.checked_in:
            raise TournamentError(f"You are already checked in for {tournament.name}.")
        async with self._locks[tournament.id]:  # not while the window closes: counted, or told it closed
            if (await self.get(tournament.id)).status != CHECKIN:
                raise TournamentError(f"Check-in for {tournament.name} is closed.")
            if not await self.records.update_player(tournament.id, actor.user_id, {"checked_in": 0}, checked_in=1):
                if await self.records.player(tournament.id, actor.user_id) is None:  # left at the same moment
                    raise TournamentError(f"You are not registered for {tournament.name}; use /tournament join.")
                raise TournamentError(f"You are already checked in for {tournament.name}.")  # a second press
        return tournament

    async def start(self, tournament_id: int, actor: Actor) -> str:
        """An organiser starts: opens the check-in window when there is one, else (or during it) begins.

        Returns ``"checkin"`` or ``"started"``.
        """
        tournament = await self.get(tournament_id)
        require_organiser(actor, "start a tournament")
        if tournament.status == RUNNING:
            raise TournamentError(f"{tournament.name} has already started.")
        if tournament.is_over:
            raise TournamentError(f"{tournament.name} is over.")
        if tournament.status == REGISTRATION and tournament.checkin_minutes:
            await self._open_checkin(tournament, self.clock() + timedelta(minutes=tournament.checkin_minutes))
            return "checkin"
        if not await self.begin(tournament.id) and (now := await self.get(tournament.id)).is_over:
            raise TournamentError(f"{now.name} is over.")  # cancelled while this start was under way
        return "started"

    async def _open_checkin(self, tournament: TournamentRow, until: datetime, *, check_count: bool = True) -> None:
        players = await self.records.players(tournament.id)
        need = minimum_players(rules_for(tournament.game), tournament.format, tournament.options)
        if check_count and len(players) < need:  # an organiser's start; at a start time, late joins may come
            raise TournamentError(
                f"{tournament.name} needs at least {need} players to start; {len(players)} registered."
            )
        if not await self.records.update_tournament(
            tournament.id, {"status": REGISTRATION}, status=CHECKIN, checkin_until=until, updated_at=self.clock()
        ):
            return
        async with self._locks[tournament.id]:
            await self._tell(tournament.id)

    async def begin(self, tournament_id: int) -> bool:
        """Close registration, seed the players and pair round 1; refuses with too few players."""
        async with self._locks[tournament_id]:
            tournament = await self.get(tournament_id)
            if tournament.status not in OPEN_STATUSES:
                return False
            rules = rules_for(tournament.game)
            players = await self.records.players(tournament.id)
            checking = bool(tournament.checkin_minutes) and tournament.status == CHECKIN
            present = [p for p in players if p.checked_in] if checking else list(players)
            absent = [p.user_id for p in players if p not in present]
            need = minimum_players(rules, tournament.format, tournament.options)
            if len(present) < need:
                counted = "checked in" if checking else "registered"
                raise TournamentError(
                    f"{tournament.name} needs at least {need} players to start; {len(present)} {counted}."
                )
            ids = [p.user_id for p in present]
            ordinals = await self.ratings.ordinals(tournament.guild_id, tournament.game, ids) if self.ratings else {}
            seeds = [int(p) for p in seed_players(ids, random.Random(tournament.seed), ordinals)]
            count, data = rounds.plan(tournament, seeds)
            if not await self.records.begin(
                tournament.id, self.clock(), seeds=seeds, absent=absent, rounds=count, data=data
            ):
                return False
            await self._tell(tournament.id)
        await self.schedule_advance(tournament.id)
        return True

    # ------------------------------------------------------------------ withdrawals and organiser actions

    async def drop(self, tournament_id: int, actor: Actor) -> TournamentRow:
        """A player withdraws from a running tournament (their running game is resigned)."""
        tournament = await self.get(tournament_id)
        if tournament.is_open:
            raise TournamentError(f"{tournament.name} has not started: use /tournament leave.")
        if tournament.status != RUNNING:
            raise TournamentError(f"{tournament.name} is over.")
        entrant = await self.records.player(tournament.id, actor.user_id)
        if entrant is None or entrant.status == ABSENT:
            raise TournamentError(f"You are not playing in {tournament.name}.")
        if not entrant.active or not await self._withdraw(tournament, entrant, DROPPED):
            raise TournamentError(f"You have already left {tournament.name}.")
        return tournament

    async def kick(self, tournament_id: int, actor: Actor, user_id: int) -> tuple[TournamentRow, str]:
        """An organiser removes a player (before the start: the registration; after: as a drop)."""
        tournament = await self.get(tournament_id)
        require_organiser(actor, "remove players")
        entrant = await self.records.player(tournament.id, user_id)
        if entrant is None:
            raise TournamentError(f"That member is not registered for {tournament.name}.")
        if tournament.is_open:
            async with self._locks[tournament.id]:
                if (await self.get(tournament.id)).is_open:  # else it began meanwhile: removed as a drop
                    await self.records.remove_player(tournament.id, user_id)
                    return tournament, entrant.display_name
            tournament = await self.get(tournament.id)
            entrant = await self.records.player(tournament.id, user_id) or entrant
        if tournament.status != RUNNING:
            raise TournamentError(f"{tournament.name} is over.")
        if not entrant.active or not await self._withdraw(tournament, entrant, KICKED):
            raise TournamentError(f"{entrant.display_name} is no longer playing in {tournament.name}.")
        return tournament, entrant.display_name

    async def _withdraw(self, tournament: TournamentRow, entrant: EntrantRow, status: str) -> bool:
        """Mark ``entrant`` as having left with ``status`` and resign their game; False when they had
        already left (a second drop, or a drop and a kick, at the same moment): nothing is done twice."""
        async with self._locks[tournament.id]:
            fresh = await self.get(tournament.id)
            if not await self.records.update_player(
                tournament.id, entrant.user_id, {"status": ACTIVE}, status=status, left_round=fresh.current_round
            ):
                return False
        # outside the lock: resigning reports the game's end, which may pair the next round
        await self._resign_withdrawn(tournament.id)
        await self.schedule_advance(tournament.id)
        return True

    async def _resign_withdrawn(self, tournament_id: int) -> None:
        """Resign every seat a player who has left still holds in a running game of the current round.

        Runs after a withdrawal and after every ``advance``, outside the lock (a resignation reports the
        game's end, which advances).  A match whose game did not exist yet when its player left (its
        thread was slow to open, its launch failed and is retried, or another process was launching it)
        is so put right as soon as its game is linked; the state alone decides, so a launch resumed
        after a crash ends up right too.
        """
        tournament = await self.records.tournament(tournament_id)
        if tournament is None or tournament.status != RUNNING or not tournament.current_round:
            return
        gone = {p.user_id: p for p in await self.records.players(tournament.id) if not p.active}
        if not gone:
            return
        for match in await self.records.matches(tournament.id, tournament.current_round):
            if match.status != PLAYING or match.game_id is None:
                continue
            for entrant in (gone[p] for p in match.players if p in gone):
                game = await self.service.game(match.game_id)
                if game is None or game.status != "active":
                    break
                if any(s.user_id == entrant.user_id and s.removed for s in game.seats):
                    continue
                try:
                    report = await self.service.resign(game.channel_id, Actor(entrant.user_id, entrant.display_name))
                except ServiceError as error:  # e.g. resigned at the same moment by another process
                    log.info("could not resign %s from game %s: %s", entrant.user_id, game.id, error)
                else:
                    kicked = entrant.status == KICKED
                    withdrew = self.host.player_withdrew(tournament, report, entrant.display_name, kicked=kicked)
                    await self._safely(withdrew)

    async def adjudicate(
        self, tournament_id: int, actor: Actor, user_id: int, result: str, round: int | None = None
    ) -> tuple[TournamentRow, MatchRecord]:
        """An organiser sets the result of ``user_id``'s match (stopping its game if it still runs)."""
        tournament = await self.get(tournament_id)
        require_organiser(actor, "set results")
        if tournament.status != RUNNING:
            raise TournamentError(f"{tournament.name} is not running.")
        number = round or tournament.current_round
        if number != tournament.current_round:
            state = "is closed" if number < tournament.current_round else "has not been paired yet"
            raise TournamentError(
                f"Round {number} {state}: only results of the current round ({tournament.current_round}) can be set."
            )
        match = next((m for m in await self.records.matches(tournament.id, number) if user_id in m.players), None)
        if match is None:
            raise TournamentError(f"That member has no match in round {number} of {tournament.name}.")
        if match.status in (BYE, REST):
            raise TournamentError("That is a bye: there is no result to set.")
        ranks, points = parse_result(result, match.players, user_id)
        winner = None
        if tournament.format == ELIMINATION:
            if points is not None:
                raise TournamentError("A knockout match needs a winner: give win, loss or draw.")
            winner = elimination_winner(tournament, match.players, ranks)
        organiser = Actor(actor.user_id, actor.name, can_manage=True)
        stopped = await self._stop_game(match.game_id, organiser) if match.game_id is not None else None
        async with self._locks[tournament.id]:  # the round cannot close between the check and the write
            if (await self.get(tournament.id)).current_round != number:  # the game ended as it was stopped
                raise TournamentError(
                    f"Round {number} closed at this moment (its last game ended): its results stand as played."
                )
            if match.game_id is not None and stopped is None and match.status != DONE:
                game = await self.service.game(match.game_id)
                if game is not None and game.status == "finished":  # it ended by itself as the organiser decided
                    raise TournamentError(
                        "That match's game ended at this moment: its result stands as played "
                        "(set the result again to change it)."
                    )
            done = await self.records.update_match(
                match.id,
                {"status": (match.status,)},  # as read: a result recorded meanwhile is not overwritten unseen
                status=DONE,
                ranks=list(ranks),
                points=list(points) if points is not None else None,
                winner=winner,
                note=f"{ADJUDICATED}; {DRAW_NOTE}" if winner is not None and len(set(ranks)) == 1 else ADJUDICATED,
                finished_at=self.clock(),
            )
        if not done:  # the match changed under us (its game's result was recorded meanwhile)
            raise TournamentError("That match changed at the same moment; look at the status and try again.")
        settled = await self.records.match(match.id)
        assert settled is not None
        if settled.thread_id is not None:
            await self._safely(self.host.result_set(tournament, settled, await self._names(tournament.id)))
        await self.schedule_advance(tournament.id)
        return tournament, settled

    async def cancel(self, tournament_id: int, actor: Actor) -> TournamentRow:
        """An organiser cancels the tournament; its running games are stopped (unrated)."""
        tournament = await self.get(tournament_id)
        require_organiser(actor, "cancel a tournament")
        if tournament.is_over:
            raise TournamentError(f"{tournament.name} is already over.")
        async with self._locks[tournament.id]:  # a round being paired is paired (and launched) first
            if not await self.records.update_tournament(
                tournament.id, {"status": LIVE_STATUSES}, status=CANCELLED, updated_at=self.clock()
            ):
                raise TournamentError(f"{tournament.name} is already over.")
            current = (await self.get(tournament.id)).current_round
            matches = await self.records.matches(tournament.id, current) if current else []
        for match in matches:
            if match.game_id is None:
                continue
            stopped = await self._stop_game(match.game_id, Actor(actor.user_id, actor.name, can_manage=True))
            if stopped is not None:
                await self._safely(self.host.match_stopped(tournament, stopped.channel_id))
        return tournament

    async def guild_left(self, guild_id: int) -> list[TournamentRow]:
        """Cancel the live tournaments of a server the bot was removed from, telling nobody (it can no
        longer post there); their games are ended by the service.  The tournaments cancelled."""
        cancelled = []
        for tournament in await self.records.tournaments(guild_id=guild_id, statuses=LIVE_STATUSES):
            async with self._locks[tournament.id]:
                if await self.records.update_tournament(
                    tournament.id, {"status": LIVE_STATUSES}, status=CANCELLED, updated_at=self.clock()
                ):
                    cancelled.append(tournament)
        return cancelled

    async def guilds_gone(self, present: Collection[int]) -> list[TournamentRow]:
        """Cancel as ``guild_left`` does the live tournaments of every server (of this process's shards)
        not among ``present``, the servers the bot is in.  The tournaments cancelled."""
        gone = {t.guild_id for t in await self.records.tournaments(statuses=LIVE_STATUSES)} - set(present)
        cancelled = []
        for guild_id in gone:
            cancelled += await self.guild_left(guild_id)
        return cancelled

    async def _stop_game(self, game_id: int, actor: Actor) -> GameRow | None:
        """Abort a match's game while it is open or running; the stopped game, else None."""
        game = await self.service.game(game_id)
        if game is None or game.status not in ("open", "active"):
            return None
        try:
            stopped = await self.service.abort(game.channel_id, actor)
        except ServiceError as error:
            log.info("could not stop game %s: %s", game.id, error)
            return None
        await self._safely(self.host.game_stopped(stopped))
        return stopped

    # ------------------------------------------------------------------ results

    async def on_report(self, report: Report) -> None:
        """The service listener: a tournament game that just finished records its result."""
        if report.outcome is None or report.game.tournament_id is None:
            return
        if await self.record_game(report.game, report.outcome):
            await self.schedule_advance(report.game.tournament_id)

    async def record_game(self, game: GameRow, outcome: Outcome) -> MatchRecord | None:
        """Store a finished game's result in its match, once; the match when this call recorded it."""
        match = await self.records.match_for_game(game.id, game.channel_id)
        if match is None or match.tournament_id != game.tournament_id:
            return None
        tournament = await self.records.tournament(match.tournament_id)
        if tournament is None or tournament.status != RUNNING:
            return None
        if match.game_id is None:  # it ended before its launch stored the link
            await self.records.update_match(
                match.id,
                {"game_id": None, "status": (PENDING, LAUNCHING)},
                game_id=game.id,
                status=PLAYING,
                finished_at=None,
            )
        by_user = {s.user_id: outcome.ranks[s.seat] for s in game.seats if s.seat < len(outcome.ranks)}
        if set(by_user) != set(match.players):
            log.warning("game %s does not seat the players of match %s", game.id, match.id)
            return None
        ranks = [by_user[p] for p in match.players]
        winner = None
        note = None
        if tournament.format == ELIMINATION:
            winner = elimination_winner(tournament, match.players, ranks)
            if len(set(ranks)) == 1:
                note = DRAW_NOTE
        if not await self.records.record_game(game.id, ranks, self.clock(), winner=winner, note=note):
            return None
        return await self.records.match(match.id)

    async def schedule_advance(self, tournament_id: int) -> None:
        """Pair the next round when the current one is settled: in the background when the cog gave a spawner."""
        if self.spawn is not None:
            self.spawn(self.advance(tournament_id))
        else:
            await self.advance(tournament_id)

    async def advance(self, tournament_id: int) -> None:
        """Launch unlaunched matches, and pair the next round (or finish) once the current one is settled.

        Idempotent: safe to call any number of times, from any number of places (and processes).
        Then, outside the lock, the players who have left are resigned from the games of the round
        (``_resign_withdrawn``): a match launched after its player left is not held up by them.
        """
        async with self._locks[tournament_id]:
            for _ in range(MAX_ROUND_STEPS):
                tournament = await self.records.tournament(tournament_id)
                if tournament is None or tournament.status != RUNNING:
                    return
                if tournament.current_round:
                    matches = await self.records.matches(tournament.id, tournament.current_round)
                    if any(m.status in (PENDING, LAUNCHING) for m in matches):
                        await self.launcher.launch_all(tournament, matches)
                        matches = await self.records.matches(tournament.id, tournament.current_round)
                    if not all(m.settled for m in matches):
                        break
                if not await self._next_round(tournament):
                    break
        await self._resign_withdrawn(tournament_id)

    async def _next_round(self, tournament: TournamentRow) -> bool:
        """Pair and store the next round (False when the tournament finished instead, or lost a race)."""
        players = await self.records.players(tournament.id)
        active = [p.user_id for p in players if p.active]
        matches = await self.records.matches(tournament.id)
        planned = rounds.next_round(tournament, rules_for(tournament.game), active, matches)
        if planned is None:
            await self._finish(tournament)
            return False
        number = tournament.current_round + 1
        now = self.clock()
        deadline = now + timedelta(days=tournament.round_days) if tournament.round_days else None
        if not await self.records.create_round(tournament.id, number, planned, now, deadline):
            return False
        fresh = await self.get(tournament.id)
        await self.launcher.launch_all(fresh, await self.records.matches(tournament.id, number))
        await self._tell(tournament.id)
        return True

    async def _finish(self, tournament: TournamentRow) -> None:
        if await self.records.update_tournament(
            tournament.id, {"status": RUNNING}, status=FINISHED, round_deadline=None, updated_at=self.clock()
        ):
            await self._tell(tournament.id)

    # ------------------------------------------------------------------ announcing

    async def _tell(self, tournament_id: int) -> None:
        """Post the milestones the tournament's channel has not been told: the check-in window's opening,
        the start, the current round's pairings, the final standings.  Each is marked told (``told``) only
        once posted, so one that failed, or was lost to a stop between its write and its post, is posted by
        the next ``tick``.

        Called with the tournament's lock held (after each milestone is stored, and by ``tick``); a
        failing post is logged, never raised: the command or game that reached the milestone is answered.
        """
        tournament = await self.get(tournament_id)
        due = milestone(tournament)
        if due is None or tournament.told == due:
            return
        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = []
        if due == "finished":
            steps.append((due, lambda: self._announce_end(tournament)))
        elif due == "checkin":
            steps.append((due, lambda: self._announce_checkin(tournament)))
        else:
            if tournament.told in (None, "checkin"):  # the seeds first; a round's pairings replace older ones
                steps.append(("began", lambda: self._announce_start(tournament)))
            if tournament.current_round:
                steps.append((due, lambda: self._announce_round(tournament, tournament.current_round)))
        told = tournament.told
        for step, post in steps:
            try:
                await post()
            except Exception:
                log.exception("tournament %s: could not announce %s; trying at the next tick", tournament_id, step)
                return
            if not await self.records.update_tournament(tournament_id, {"told": told}, told=step):
                return
            told = step

    async def _announce_checkin(self, tournament: TournamentRow) -> None:
        assert tournament.checkin_until is not None
        players = await self.records.players(tournament.id)
        await self.host.checkin_opened(tournament, tournament.checkin_until, [p.user_id for p in players])

    async def _announce_start(self, tournament: TournamentRow) -> None:
        players = await self.records.players(tournament.id)
        seeds = [p.user_id for p in players if p.seed is not None]  # listed by seed
        absent = [p.user_id for p in players if p.status == ABSENT]
        names = {p.user_id: p.display_name for p in players}
        await self.host.tournament_began(tournament, seeds, absent, names)

    async def _announce_round(self, tournament: TournamentRow, number: int) -> None:
        names = await self._names(tournament.id)
        matches = await self.records.matches(tournament.id, number)
        bracket = (
            bracket_of(tournament, await self.records.matches(tournament.id))
            if tournament.format == ELIMINATION
            else None
        )
        await self.host.round_started(tournament, number, matches, names, bracket)

    async def _announce_end(self, tournament: TournamentRow) -> None:
        await self.host.tournament_finished(tournament, await self.standings(tournament.id))

    async def _safely(self, telling: Awaitable[None]) -> None:
        """Tell the host something that must not stop the work under way (a note in a match thread)."""
        try:
            await telling
        except Exception:
            log.exception("could not tell Discord")

    # ------------------------------------------------------------------ periodic work

    async def tick(self) -> None:
        """Start times, check-in windows, catching up on running tournaments and on announcements that
        were lost (also at start-up)."""
        now = self.clock()
        for tournament in await self.records.tournaments(statuses=LIVE_STATUSES):
            try:
                await self._tick_one(tournament, now)
            except TournamentError as error:
                if tournament.status in OPEN_STATUSES:  # the start time came with too few players
                    await self._cancel_unplayable(tournament, str(error))
            except Exception:
                log.exception("tournament %s: periodic check failed", tournament.id)
        for tournament in await self.records.tournaments(statuses=(FINISHED,), told_other_than="finished"):
            async with self._locks[tournament.id]:
                await self._tell(tournament.id)
        await self._finish_cancels()

    async def _finish_cancels(self) -> None:
        """Stop the games a cancel cut short left running (the tournament is marked cancelled first, then
        its games are stopped one by one): a cancelled tournament's games do not play on."""
        for game_id in await self.records.live_games_of_cancelled():
            try:
                game = await self.service.game(game_id)
                if game is None or game.tournament_id is None:
                    continue
                tournament = await self.get(game.tournament_id)
                stopped = await self._stop_game(game_id, REFEREE)
                if stopped is not None:
                    await self._safely(self.host.match_stopped(tournament, stopped.channel_id))
            except Exception:
                log.exception("tournament game %s: could not stop it after its tournament's cancel", game_id)

    async def _tick_one(self, tournament: TournamentRow, now: datetime) -> None:
        if tournament.status == REGISTRATION:
            if tournament.checkin_minutes and tournament.start_at:
                opens = tournament.start_at - timedelta(minutes=tournament.checkin_minutes)
                if now >= opens:
                    # a window missed while the bot was away is given again in full
                    until = (
                        tournament.start_at
                        if now < tournament.start_at
                        else now + timedelta(minutes=tournament.checkin_minutes)
                    )
                    await self._open_checkin(tournament, until, check_count=False)
            elif tournament.start_at and now >= tournament.start_at:
                await self.begin(tournament.id)
        elif tournament.status == CHECKIN:
            if tournament.checkin_until and now >= tournament.checkin_until:
                await self.begin(tournament.id)
            else:
                async with self._locks[tournament.id]:
                    await self._tell(tournament.id)  # the window's opening, if a stop lost it
        elif tournament.status == RUNNING:
            await self._recover(tournament)
            await self.advance(tournament.id)
            async with self._locks[tournament.id]:
                await self._tell(tournament.id)
                await self.launcher.greet_missing(await self.get(tournament.id))

    async def _cancel_unplayable(self, tournament: TournamentRow, reason: str) -> None:
        if await self.records.update_tournament(
            tournament.id, {"status": OPEN_STATUSES}, status=CANCELLED, updated_at=self.clock()
        ):
            await self._safely(self.host.cancelled(await self.get(tournament.id), reason))

    async def _recover(self, tournament: TournamentRow) -> None:
        """Record results of games that ended unseen; flag games stopped without a result; end tables that
        every person left while their bots played on (before such a table ended with its last person)."""
        if not tournament.current_round:
            return
        for match in await self.records.matches(tournament.id, tournament.current_round):
            if match.status != PLAYING or match.game_id is None:
                continue
            game = await self.service.game(match.game_id)
            if game is None:
                continue
            if game.status == "active" and game.has_bots and not people_left(game):
                await self.service.end_deserted_table(game.id)  # its result is recorded as it ends
            elif game.status == "finished":
                outcome = outcome_from_json(game.outcome)
                if outcome is not None:
                    await self.record_game(game, outcome)
            elif game.status == "aborted" and match.note != GAME_ABORTED:
                flagged = await self.records.update_match(
                    match.id, {"status": PLAYING, "note": match.note}, note=GAME_ABORTED
                )
                if flagged:
                    await self._safely(self.host.match_aborted(tournament, match, await self._names(tournament.id)))

    async def force_overdue(self) -> int:
        """Make every running game of a round past its deadline due on its clock now; returns how many."""
        now = self.clock()
        forced = 0
        for tournament in await self.records.tournaments(statuses=(RUNNING,)):
            if tournament.round_deadline is None or tournament.round_deadline > now or not tournament.current_round:
                continue
            for match in await self.records.matches(tournament.id, tournament.current_round):
                if match.status != PLAYING or match.game_id is None:
                    continue
                try:
                    forced += await self.service.force_deadline(match.game_id)
                except ServiceError:  # a move landed at the same moment: look again next time
                    continue
        return forced

    async def enforce_deadlines(self, tick: Callable[[], Awaitable[TickResult]]) -> int:
        """Time out the games of rounds past their deadline, turn after turn, until they end.

        ``tick`` is the timekeeper's (``Timekeeper.tick``); what it commits is announced from its
        delivery records.  Returns how many timeouts were played.
        """
        played = 0
        for _ in range(MAX_FORCED_PASSES):
            if not await self.force_overdue():
                break
            try:
                result = await tick()
            except Exception:  # what was committed stays committed and announced; the next check goes on
                log.exception("forcing the round deadline failed")
                break
            if not result.timeouts:  # the clock could not act (a move landed at the same moment): next time
                break
            played += result.timeouts
        return played

    # ------------------------------------------------------------------ reading

    async def view(self, tournament_id: int) -> TournamentView:
        """The tournament with its players and the matches of the current round."""
        tournament = await self.get(tournament_id)
        players = await self.records.players(tournament.id)
        matches = (
            await self.records.matches(tournament.id, tournament.current_round) if tournament.current_round else []
        )
        return TournamentView(tournament, rules_for(tournament.game), players, matches, tournament.rounds)

    async def _names(self, tournament_id: int) -> dict[int, str]:
        return {p.user_id: p.display_name for p in await self.records.players(tournament_id)}

    async def standings(self, tournament_id: int) -> Standings:
        """Standings with tiebreaks (or the bracket, for elimination)."""
        tournament = await self.get(tournament_id)
        return standings_of(
            tournament, await self.records.players(tournament.id), await self.records.matches(tournament.id)
        )

    async def export(self, tournament_id: int) -> dict[str, Any]:
        """The whole tournament as JSON-ready data: settings, players, rounds, matches and standings."""
        tournament = await self.get(tournament_id)
        players = await self.records.players(tournament.id)
        matches = await self.records.matches(tournament.id)
        return export_of(tournament, players, matches, standings_of(tournament, players, matches))
