"""The tournament manager: registration, check-in, rounds, pairings, matches, results and standings.

No Discord here: whatever must happen in Discord (opening a match thread, posting a message) goes
through a ``Host`` the cog provides, so the manager runs the same against a fake host in tests.

Life of a tournament
--------------------
``registration`` (players ``join``/``leave``) -> optional ``checkin`` (a window before the start in
which registered players confirm; whoever has not checked in when it closes is left out) ->
``running`` (round after round) -> ``finished``; an organiser may ``cancel`` at any time.

Rounds
------
Each round is stored with the ``current_round`` bump it depends on in one transaction, so a round
is never paired twice (``TournamentRecords.create_round``).  Every match then gets its own thread,
with the players added, and a game created in it by ``GameService.create_seated_game`` with the
tournament's move clock.  When a game finishes, the service listener (``on_report``) records the
result exactly once (``WHERE status = 'playing'``) and the next round is paired as soon as every
match of the round is settled.  Everything lives in the database, and ``tick`` (run by the cog's
loop, the first time at start-up) catches up on whatever a restart interrupted: results of games
that ended unseen, matches whose thread or game was not created yet, rounds not yet paired, and
start times, check-in windows and round deadlines that passed while the bot was away.

Round deadline: when a round has one and it passes, every game of the round still running has its
turns timed out at once through the game clocks (``enforce_deadlines``): a two-player game is lost
on time by the player to move; at a bigger table the absent turns are skipped and players removed
after the missed-turn limit until the game ends.  Organisers can ``adjudicate`` a match instead.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import re
import secrets
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.session.service import Actor, GameService, Report, ServiceError, outcome_from_json, rules_for
from bot.session.store import GameRow
from bot.session.timekeeper import TickResult
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
)
from bot.tournaments.pairings import (
    Bracket,
    PairingError,
    elimination_bracket,
    next_swiss_round,
    next_table_round,
    round_robin,
)
from bot.tournaments.pairings import seed_players as seed_order
from bot.tournaments.standings import Result, StandingRow, duel_standings, table_standings
from games.base import GameError, Outcome, Rules, resolve_options

log = logging.getLogger(__name__)

SWISS = "swiss"
ROUND_ROBIN = "roundrobin"
ELIMINATION = "elimination"
TABLES = "tables"
FORMAT_NAMES = {
    SWISS: "Swiss",
    ROUND_ROBIN: "Round robin",
    ELIMINATION: "Single elimination",
    TABLES: "Table Swiss",
}
DUEL_FORMATS = (SWISS, ROUND_ROBIN, ELIMINATION)
MAX_ROUNDS = 30
MAX_PLAYERS = 512
DEFAULT_TABLE_ROUNDS = 3
MAX_CHECKIN_MINUTES = 7 * 24 * 60
MAX_ROUND_STEPS = 64
MAX_FORCED_PASSES = 500
DRAW_NOTE = "draw: the higher seed goes through"


class TournamentError(ServiceError):
    """A tournament refusal: one sentence for the member, nothing changed."""


class Host(Protocol):
    """What the manager needs from Discord (the cog implements it; tests fake it)."""

    async def open_match_thread(
        self, tournament: TournamentRow, title: str, user_ids: Sequence[int]
    ) -> tuple[int, int]:
        """Open a thread for one match with the players added; returns (thread id, parent channel id)."""

    async def post_match_start(self, tournament: TournamentRow, match: MatchRecord, report: Report, intro: str) -> None:
        """Post the opening board of a match's game in its thread, greeting its players."""

    async def announce(
        self,
        tournament: TournamentRow,
        text: str,
        *,
        image: tuple[str, bytes] | None = None,
        mentions: Sequence[int] = (),
    ) -> None:
        """Post in the tournament's channel (pinging only ``mentions``)."""

    async def post(self, channel_id: int, text: str) -> None:
        """Post a plain note in a channel or thread (no pings)."""


class RatingLookup(Protocol):
    """Where seeding finds players' ratings (``bot.session.ratings.RatingService``)."""

    async def ordinals(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, float]: ...


# --------------------------------------------------------------------------------------------
# pure helpers


def format_key(value: str) -> str:
    """The stored name of a format, from what a member typed or chose."""
    cleaned = re.sub(r"[^a-z]", "", value.lower())
    aliases = {
        "swiss": SWISS,
        "roundrobin": ROUND_ROBIN,
        "rr": ROUND_ROBIN,
        "elimination": ELIMINATION,
        "singleelimination": ELIMINATION,
        "knockout": ELIMINATION,
        "tables": TABLES,
        "tableswiss": TABLES,
    }
    if cleaned not in aliases:
        raise TournamentError("The format must be swiss, round robin, single elimination or table swiss.")
    return aliases[cleaned]


def _deals(rules: Rules, players: int, options: Mapping[str, Any]) -> bool:
    """True when a game of ``players`` can be dealt with these options (some options limit the count)."""
    try:
        rules.new_game(players, options, random.Random(0))
    except GameError:
        return False
    return True


def table_range(rules: Rules, options: Mapping[str, Any]) -> tuple[int, int]:
    """The table sizes a table Swiss of this game uses: from 3 (or the game's minimum, if higher) up to the
    largest count the game can be dealt for with these options (e.g. Der Marsigelwettkampf seats six or
    more only with its xeno option)."""
    low = max(3, rules.min_players)
    high = low - 1
    while high < rules.max_players and _deals(rules, high + 1, options):
        high += 1
    if high < low:
        raise TournamentError(f"{rules.title} cannot seat {low} or more players with these options.")
    return low, high


def check_format(rules: Rules, fmt: str, options: Mapping[str, Any]) -> None:
    """Refuse a format the game's player counts (with these options) cannot play."""
    if fmt in DUEL_FORMATS:
        if not rules.min_players <= 2 <= rules.max_players:
            raise TournamentError(
                f"{rules.title} is played by {rules.min_players} to {rules.max_players} players, not two: "
                "use table swiss."
            )
        if not _deals(rules, 2, options):
            raise TournamentError(f"{rules.title} cannot be played by two players with these options.")
    elif rules.max_players < 3:
        raise TournamentError(
            f"{rules.title} is a two-player game: use swiss, round robin or single elimination, not table swiss."
        )
    else:
        table_range(rules, options)


def minimum_players(rules: Rules, fmt: str, options: Mapping[str, Any]) -> int:
    """The fewest players a tournament of ``fmt`` can start with."""
    return table_range(rules, options)[0] if fmt == TABLES else 2


def default_rounds(fmt: str, players: int) -> int:
    """Swiss: enough rounds to find a sole winner (log2 of the field, rounded up, at most n - 1)."""
    if fmt == SWISS:
        return max(1, min(players - 1, math.ceil(math.log2(max(players, 2)))))
    return DEFAULT_TABLE_ROUNDS


_DELAY = re.compile(r"(\d+)\s*(d|days?|h|hours?|hrs?|m|mins?|minutes?)\b")


def parse_start(text: str, now: datetime) -> datetime:
    """A start time: a delay (``2h``, ``in 1d 6h``, ``90m``), a UTC date-time (``2026-05-01 18:00``),
    or a Discord timestamp (``<t:1777777777>``) / Unix time."""
    raw = text.strip().lower()
    stamp = re.fullmatch(r"<t:(\d+)(?::[a-z])?>|(\d{9,11})", raw)
    if stamp:
        return datetime.fromtimestamp(int(stamp.group(1) or stamp.group(2)), tz=now.tzinfo)
    delay = raw.removeprefix("in ").strip()
    parts = _DELAY.findall(delay)
    if parts and not _DELAY.sub("", delay).replace(",", "").replace("and", "").strip():
        seconds = 0
        for amount, unit in parts:
            seconds += int(amount) * {"d": 86400, "h": 3600, "m": 60}[unit[0]]
        return now + timedelta(seconds=seconds)
    cleaned = raw.removesuffix("utc").strip().replace("t", " ")
    for pattern in ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
        try:
            return datetime.strptime(cleaned, pattern).replace(tzinfo=now.tzinfo)
        except ValueError:
            continue
    raise TournamentError(
        "Give the start as a delay such as 2h or 1d 6h, or a UTC date and time such as 2026-05-01 18:00."
    )


DUEL_WORDS = {
    "win": (1, 2),
    "won": (1, 2),
    "1-0": (1, 2),
    "loss": (2, 1),
    "lose": (2, 1),
    "lost": (2, 1),
    "0-1": (2, 1),
    "draw": (1, 1),
    "1/2-1/2": (1, 1),
    "½-½": (1, 1),
}
DOUBLE_FORFEIT = ("double forfeit", "forfeit both", "0-0", "both lose")


def parse_result(text: str, players: Sequence[int], subject: int) -> tuple[tuple[int, ...], tuple[float, ...] | None]:
    """Ranks (seat order) and optional points from an organiser's result text.

    Two players: ``win``/``loss``/``draw`` for ``subject``, or ``double forfeit`` (both score 0).
    Any table: the places in seat order, e.g. ``2 1 3 3`` (equal numbers share a place).
    """
    words = " ".join(text.strip().lower().split())
    if len(players) == 2 and words in DUEL_WORDS:
        mine, other = DUEL_WORDS[words]
        return ((mine, other) if players[0] == subject else (other, mine)), None
    if len(players) == 2 and words in DOUBLE_FORFEIT:
        return (2, 2), (0.0, 0.0)
    numbers = [int(n) for n in re.findall(r"\d+", words)]
    if len(numbers) == len(players) and all(1 <= n <= len(players) for n in numbers) and not re.search(r"[a-z]", words):
        return tuple(numbers), None
    if len(players) == 2:
        raise TournamentError("Give the result as win, loss or draw for that player, or double forfeit.")
    raise TournamentError(
        f"Give the {len(players)} places in seat order, e.g. {' '.join(str(i + 1) for i in range(len(players)))}."
    )


def timestamp(moment: datetime, style: str = "f") -> str:
    """A Discord timestamp (shown in each reader's own time zone)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def ordinal_word(place: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


@dataclass(frozen=True)
class TournamentView:
    """Everything ``/tournament status`` shows."""

    tournament: TournamentRow
    rules: Rules
    players: list[EntrantRow]
    matches: list[MatchRecord]
    total_rounds: int | None

    @property
    def names(self) -> dict[int, str]:
        """User id -> display name."""
        return {p.user_id: p.display_name for p in self.players}


@dataclass(frozen=True)
class Standings:
    """Standings of a tournament: rows for points formats, the bracket for elimination."""

    tournament: TournamentRow
    rows: list[StandingRow]
    bracket: Bracket | None
    names: dict[int, str]
    title: str
    subtitle: str


def describe_match(match: MatchRecord, names: dict[int, str], fmt: str) -> str:
    """One line about a match and its result so far (no pings)."""

    def name(user: int) -> str:
        return f"**{names.get(user, str(user))}**"

    where = f" <#{match.thread_id}>" if match.thread_id else ""
    if match.status == BYE:
        why = f" ({match.note})" if match.note else ""
        return f"Bye: {name(match.players[0])}{why}"
    if match.status == REST:
        return f"Rests this round: {name(match.players[0])}"
    label = " vs ".join(name(p) for p in match.players)
    if match.status in (PENDING, PLAYING):
        extra = f" ({match.note})" if match.note else ""
        return f"Table {match.board}: {label} — playing{where}{extra}"
    assert match.ranks is not None
    if match.points is not None and not any(match.points):
        result = "double forfeit"
    elif len(match.players) == 2:
        if match.ranks[0] == match.ranks[1]:
            result = "draw"
            if fmt == ELIMINATION and match.winner is not None:
                result += f", {name(match.winner)} goes through as the higher seed"
        else:
            winner = match.players[0] if match.ranks[0] < match.ranks[1] else match.players[1]
            result = f"{name(winner)} wins"
    else:
        order = sorted(range(len(match.players)), key=lambda i: (match.ranks[i], i))
        result = ", ".join(f"{ordinal_word(match.ranks[i])} {name(match.players[i])}" for i in order)
    note = f" ({match.note})" if match.note and match.note not in ("adjudicated", DRAW_NOTE) else ""
    adjudicated = " (set by an organiser)" if match.note == "adjudicated" else ""
    return f"Table {match.board}: {label} — {result}{adjudicated}{note}{where}"


def results_of(matches: Sequence[MatchRecord]) -> list[Result]:
    """The scored results of settled matches (rests and unfinished games count nothing)."""
    out = []
    for match in matches:
        if match.status == BYE:
            out.append(Result.bye(match.round, match.players[0]))
        elif match.status == DONE and match.ranks is not None:
            out.append(Result(match.round, match.players, match.ranks, match.points))
    return out


def bracket_of(tournament: TournamentRow, matches: Sequence[MatchRecord]) -> Bracket:
    """The elimination bracket: the seeds fixed at the start and every recorded winner."""
    bracket = elimination_bracket([int(s) for s in tournament.data["seeds"]])
    for match in sorted(matches, key=lambda m: (m.round, m.board)):
        if match.status == DONE and match.winner is not None:
            bracket = bracket.with_winner(match.round, match.board - 1, match.winner)
    return bracket


# --------------------------------------------------------------------------------------------
# the manager


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
    ) -> TournamentRow:
        """Create a tournament in registration (organisers only)."""
        if guild_id is None:
            raise TournamentError("Tournaments run in servers, not in direct messages.")
        _require_organiser(actor, "create a tournament")
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
            data={},
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
        """Confirm a registered player will play (during the check-in window)."""
        tournament = await self.get(tournament_id)
        entrant = await self.records.player(tournament.id, actor.user_id)
        if not tournament.checkin_minutes:
            if entrant is None:
                raise TournamentError(f"{tournament.name} has no check-in; use /tournament join to register.")
            raise TournamentError(f"{tournament.name} has no check-in: being registered is enough.")
        if tournament.status == REGISTRATION:
            when = (
                f"opens {timestamp(tournament.start_at - timedelta(minutes=tournament.checkin_minutes), 'R')}"
                if tournament.start_at
                else "opens when an organiser starts the tournament"
            )
            raise TournamentError(f"Check-in for {tournament.name} {when}.")
        if tournament.status != CHECKIN:
            raise TournamentError(f"Check-in for {tournament.name} is closed.")
        if entrant is None:
            raise TournamentError(f"You are not registered for {tournament.name}; use /tournament join.")
        if entrant.checked_in:
            raise TournamentError(f"You are already checked in for {tournament.name}.")
        await self.records.update_player(tournament.id, actor.user_id, checked_in=1)
        return tournament

    async def start(self, tournament_id: int, actor: Actor) -> str:
        """An organiser starts: opens the check-in window when there is one, else (or during it) begins.

        Returns ``"checkin"`` or ``"started"``.
        """
        tournament = await self.get(tournament_id)
        _require_organiser(actor, "start a tournament")
        if tournament.status == RUNNING:
            raise TournamentError(f"{tournament.name} has already started.")
        if tournament.is_over:
            raise TournamentError(f"{tournament.name} is over.")
        if tournament.status == REGISTRATION and tournament.checkin_minutes:
            await self._open_checkin(tournament, self.clock() + timedelta(minutes=tournament.checkin_minutes))
            return "checkin"
        await self.begin(tournament.id)
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
        await self.host.announce(
            tournament,
            f"**{tournament.name}**: check-in is open until {timestamp(until)} ({timestamp(until, 'R')}). "
            f"Registered players, confirm with `/tournament checkin`; whoever has not checked in by then is left out.",
            mentions=[p.user_id for p in players],
        )

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
            seeds = [int(p) for p in seed_order(ids, random.Random(tournament.seed), ordinals)]
            rounds, data = _plan(tournament, seeds)
            if not await self.records.begin(
                tournament.id, self.clock(), seeds=seeds, absent=absent, rounds=rounds, data=data
            ):
                return False
        names = {p.user_id: p.display_name for p in players}
        seeding = ", ".join(f"{i}. {names[u]}" for i, u in enumerate(seeds, start=1))
        left_out = f" Not checked in, left out: {', '.join(names[u] for u in absent)}." if absent else ""
        clock = f"{tournament.clock_days} day(s) per move" if tournament.clock_days else "no move clock"
        await self.host.announce(
            tournament,
            f"**{tournament.name}** begins: {FORMAT_NAMES[tournament.format]} of {rules.title}, {len(seeds)} players, "
            f"{rounds} round(s), {clock}.{left_out}\nSeeding: {seeding}"[:1900],
        )
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
        if not entrant.active:
            raise TournamentError(f"You have already left {tournament.name}.")
        await self._withdraw(tournament, entrant, DROPPED)
        return tournament

    async def kick(self, tournament_id: int, actor: Actor, user_id: int) -> tuple[TournamentRow, str]:
        """An organiser removes a player (before the start: the registration; after: as a drop)."""
        tournament = await self.get(tournament_id)
        _require_organiser(actor, "remove players")
        entrant = await self.records.player(tournament.id, user_id)
        if entrant is None:
            raise TournamentError(f"That member is not registered for {tournament.name}.")
        if tournament.is_open:
            async with self._locks[tournament.id]:
                await self.records.remove_player(tournament.id, user_id)
            return tournament, entrant.display_name
        if tournament.status != RUNNING:
            raise TournamentError(f"{tournament.name} is over.")
        if not entrant.active:
            raise TournamentError(f"{entrant.display_name} is no longer playing in {tournament.name}.")
        await self._withdraw(tournament, entrant, KICKED)
        return tournament, entrant.display_name

    async def _withdraw(self, tournament: TournamentRow, entrant: EntrantRow, status: str) -> None:
        async with self._locks[tournament.id]:
            fresh = await self.get(tournament.id)
            await self.records.update_player(
                tournament.id, entrant.user_id, {"status": ACTIVE}, status=status, left_round=fresh.current_round
            )
            matches = await self.records.matches(tournament.id, fresh.current_round) if fresh.current_round else []
        # outside the lock: resigning reports the game's end, which may pair the next round
        for match in matches:
            if entrant.user_id not in match.players or match.status != PLAYING or match.game_id is None:
                continue
            game = await self.service.game(match.game_id)
            if game is None or game.status != "active":
                continue
            if any(s.user_id == entrant.user_id and s.removed for s in game.seats):
                continue
            try:
                await self.service.resign(game.channel_id, Actor(entrant.user_id, entrant.display_name))
            except ServiceError as error:
                log.info("could not resign %s from game %s: %s", entrant.user_id, game.id, error)
            else:
                verb = "withdrew from" if status == DROPPED else "was removed from"
                await self._post_safely(game.channel_id, f"{entrant.display_name} {verb} {tournament.name}.")
        await self.schedule_advance(tournament.id)

    async def adjudicate(
        self, tournament_id: int, actor: Actor, user_id: int, result: str, round: int | None = None
    ) -> tuple[TournamentRow, MatchRecord]:
        """An organiser sets the result of ``user_id``'s match (stopping its game if it still runs)."""
        tournament = await self.get(tournament_id)
        _require_organiser(actor, "set results")
        if tournament.status != RUNNING:
            raise TournamentError(f"{tournament.name} is not running.")
        number = round or tournament.current_round
        if number != tournament.current_round:
            raise TournamentError(
                f"Round {number} is closed: only results of the current round ({tournament.current_round}) can be set."
            )
        match = next((m for m in await self.records.matches(tournament.id, number) if user_id in m.players), None)
        if match is None:
            raise TournamentError(f"That member has no match in round {number} of {tournament.name}.")
        if match.status in (BYE, REST):
            raise TournamentError("That is a bye: there is no result to set.")
        ranks, points = parse_result(result, match.players, user_id)
        winner = None
        note = "adjudicated"
        if tournament.format == ELIMINATION:
            if points is not None:
                raise TournamentError("A knockout match needs a winner: give win, loss or draw.")
            winner = _elimination_winner(tournament, match.players, ranks)
        if match.game_id is not None:
            game = await self.service.game(match.game_id)
            if game is not None and game.status in ("open", "active"):
                try:
                    await self.service.abort(game.channel_id, Actor(actor.user_id, actor.name, can_manage=True))
                except ServiceError as error:
                    log.info("could not stop game %s for adjudication: %s", game.id, error)
        done = await self.records.update_match(
            match.id,
            {"status": (PENDING, PLAYING, DONE)},
            status=DONE,
            ranks=list(ranks),
            points=list(points) if points is not None else None,
            winner=winner,
            note=note,
            finished_at=self.clock(),
        )
        if not done:  # pragma: no cover - the match changed under us
            raise TournamentError("That match changed at the same moment; look at the status and try again.")
        settled = await self.records.match(match.id)
        assert settled is not None
        if match.thread_id is not None:
            names = await self._names(tournament.id)
            await self._post_safely(
                match.thread_id, "An organiser set the result: " + describe_match(settled, names, tournament.format)
            )
        await self.schedule_advance(tournament.id)
        return tournament, settled

    async def cancel(self, tournament_id: int, actor: Actor) -> TournamentRow:
        """An organiser cancels the tournament; its running games are stopped (unrated)."""
        tournament = await self.get(tournament_id)
        _require_organiser(actor, "cancel a tournament")
        if tournament.is_over:
            raise TournamentError(f"{tournament.name} is already over.")
        async with self._locks[tournament.id]:
            if not await self.records.update_tournament(
                tournament.id, {"status": LIVE_STATUSES}, status=CANCELLED, updated_at=self.clock()
            ):
                raise TournamentError(f"{tournament.name} is already over.")
            matches = (
                await self.records.matches(tournament.id, tournament.current_round) if tournament.current_round else []
            )
        for match in matches:
            if match.game_id is None:
                continue
            game = await self.service.game(match.game_id)
            if game is not None and game.status in ("open", "active"):
                try:
                    await self.service.abort(game.channel_id, Actor(actor.user_id, actor.name, can_manage=True))
                    await self._post_safely(game.channel_id, f"{tournament.name} was cancelled; this game is stopped.")
                except ServiceError as error:
                    log.info("could not stop game %s: %s", game.id, error)
        return tournament

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
        if match.game_id is None:
            await self.records.update_match(match.id, {"game_id": None}, game_id=game.id, status=PLAYING)
        by_user = {s.user_id: outcome.ranks[s.seat] for s in game.seats if s.seat < len(outcome.ranks)}
        if set(by_user) != set(match.players):
            log.warning("game %s does not seat the players of match %s", game.id, match.id)
            return None
        ranks = [by_user[p] for p in match.players]
        winner = None
        note = None
        if tournament.format == ELIMINATION:
            winner = _elimination_winner(tournament, match.players, ranks)
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

        Idempotent: safe to call any number of times, from any number of places.
        """
        async with self._locks[tournament_id]:
            for _ in range(MAX_ROUND_STEPS):
                tournament = await self.records.tournament(tournament_id)
                if tournament is None or tournament.status != RUNNING:
                    return
                if tournament.current_round:
                    matches = await self.records.matches(tournament.id, tournament.current_round)
                    if any(m.status == PENDING for m in matches):
                        await self._launch_all(tournament, matches)
                        matches = await self.records.matches(tournament.id, tournament.current_round)
                    if not all(m.settled for m in matches):
                        return
                if not await self._next_round(tournament):
                    return

    async def _next_round(self, tournament: TournamentRow) -> bool:
        """Pair and store the next round (False when the tournament finished instead, or lost a race)."""
        rules = rules_for(tournament.game)
        players = await self.records.players(tournament.id)
        active = [p.user_id for p in players if p.active]
        matches = await self.records.matches(tournament.id)
        number = tournament.current_round + 1
        planned: list[dict[str, Any]] = []
        fmt = tournament.format
        total = tournament.rounds or 0
        if fmt == ELIMINATION:
            bracket = bracket_of(tournament, matches)
            if bracket.is_complete or number > len(bracket.rounds):
                await self._finish(tournament)
                return False
            planned = _elimination_round(tournament, bracket, number, set(active))
        elif number > total or len(active) < minimum_players(rules, fmt, tournament.options):
            await self._finish(tournament)
            return False
        elif fmt == SWISS:
            pairing = next_swiss_round(active, results_of(matches))
            planned = _planned(pairing.tables, pairing.byes)
        elif fmt == TABLES:
            low, high = table_range(rules, tournament.options)
            try:
                pairing = next_table_round(
                    active, results_of(matches), min_size=low, max_size=high, preferred=tournament.table_size
                )
            except PairingError as error:  # pragma: no cover - guarded by the player count above
                log.warning("tournament %s cannot pair: %s", tournament.id, error)
                await self._finish(tournament)
                return False
            planned = _planned(pairing.tables, pairing.byes)
        else:
            planned = _round_robin_round(tournament, number, set(active))
        now = self.clock()
        deadline = now + timedelta(days=tournament.round_days) if tournament.round_days else None
        if not await self.records.create_round(tournament.id, number, planned, now, deadline):
            return False
        fresh = await self.get(tournament.id)
        created = await self.records.matches(tournament.id, number)
        await self._launch_all(fresh, created)
        await self._announce_round(fresh, number)
        return True

    async def _launch_all(self, tournament: TournamentRow, matches: Sequence[MatchRecord]) -> None:
        names = await self._names(tournament.id)
        for match in matches:
            if match.status != PENDING:
                continue
            try:
                await self._launch(tournament, match, names)
            except Exception:
                log.exception("could not open match %s of tournament %s", match.id, tournament.id)

    async def _launch(self, tournament: TournamentRow, match: MatchRecord, names: dict[int, str]) -> None:
        """Open the match's thread and its game (each step stored, so a restart resumes, not repeats)."""
        rules = rules_for(tournament.game)
        thread_id = match.thread_id
        parent = tournament.channel_id
        if thread_id is None:
            who = " vs ".join(names.get(p, str(p)) for p in match.players) if len(match.players) == 2 else ""
            title = f"{tournament.name} · R{match.round} · " + (who or f"table {match.board}")
            thread_id, parent = await self.host.open_match_thread(tournament, title[:100], match.players)
            if not await self.records.update_match(match.id, {"thread_id": None}, thread_id=thread_id):
                reloaded = await self.records.match(match.id)
                assert reloaded is not None
                thread_id = reloaded.thread_id
        assert thread_id is not None
        existing = await self.service.latest_game(thread_id)
        ours = existing is not None and existing.tournament_id == tournament.id
        report: Report | None = None
        if ours and existing is not None and existing.status == "open":  # stopped half-way through its setup
            seated = {s.user_id for s in existing.seats}
            for player in match.players:
                if player not in seated:
                    await self.service.join(thread_id, Actor(player, names.get(player, str(player))))
            first = match.players[0]
            report = await self.service.start(thread_id, Actor(first, names.get(first, str(first))))
            game = report.game
        elif ours and existing is not None and existing.status in ("active", "finished"):
            game = existing
        else:
            report = await self.service.create_seated_game(
                guild_id=tournament.guild_id,
                channel_id=thread_id,
                game=tournament.game,
                players=[Actor(p, names.get(p, str(p))) for p in match.players],
                options=tournament.options,
                clock_days=tournament.clock_days,
                tournament_id=tournament.id,
                thread_id=thread_id,
                parent_channel_id=parent,
            )
            game = report.game
        await self.records.update_match(match.id, {"game_id": None}, game_id=game.id, status=PLAYING)
        linked = replace(match, thread_id=thread_id, game_id=game.id, status=PLAYING)
        if report is not None:
            total = tournament.rounds
            of = f" of {total}" if total else ""
            players = " vs ".join(f"<@{p}>" for p in match.players)
            clock = f" Clock: {tournament.clock_days} day(s) per move." if tournament.clock_days else ""
            deadline = f" Round deadline: {timestamp(tournament.round_deadline)}." if tournament.round_deadline else ""
            intro = f"**{tournament.name}**, round {match.round}{of}: {players} — {rules.title}.{clock}{deadline}"
            await self.host.post_match_start(tournament, linked, report, intro)
        if game.status == "finished":  # it ended before the link was stored
            outcome = outcome_from_json(game.outcome)
            if outcome is not None:
                await self.record_game(game, outcome)

    async def _announce_round(self, tournament: TournamentRow, number: int) -> None:
        names = await self._names(tournament.id)
        matches = await self.records.matches(tournament.id, number)
        of = f" of {tournament.rounds}" if tournament.rounds else ""
        if tournament.format == ELIMINATION:
            bracket = bracket_of(tournament, await self.records.matches(tournament.id))
            heading = f"**{tournament.name} — {bracket.round_name(number)}** (round {number}{of})"
            if number == 1:
                byes = [m for m in bracket.rounds[0] if m.bye]
                lines = [describe_match(m, names, tournament.format) for m in matches]
                lines += [f"Bye: **{names.get(m.winner, m.winner)}** (seed {m.seeds[0] or m.seeds[1]})" for m in byes]
            else:
                lines = [describe_match(m, names, tournament.format) for m in matches]
        else:
            heading = f"**{tournament.name} — round {number}{of}**"
            lines = [describe_match(m, names, tournament.format) for m in matches]
        if tournament.round_deadline:
            lines.append(
                f"Round deadline: {timestamp(tournament.round_deadline)} ({timestamp(tournament.round_deadline, 'R')})."
            )
        await self.host.announce(tournament, (heading + "\n" + "\n".join(lines))[:1990])

    async def _finish(self, tournament: TournamentRow) -> None:
        if not await self.records.update_tournament(
            tournament.id, {"status": RUNNING}, status=FINISHED, round_deadline=None, updated_at=self.clock()
        ):
            return
        fresh = await self.get(tournament.id)
        standings = await self.standings(fresh.id)
        image = await render_standings_image(standings)
        if standings.bracket is not None:
            champion = standings.bracket.champion
            head = f"**{fresh.name}** is over. Champion: **{standings.names.get(champion, champion)}**!"
            top = [champion] if champion is not None else []
        else:
            top = [row.player for row in standings.rows if row.place == 1]
            winners = " and ".join(f"**{standings.names.get(p, p)}**" for p in top)
            head = f"**{fresh.name}** is over. Winner: {winners}!" if top else f"**{fresh.name}** is over."
        await self.host.announce(fresh, head, image=("standings.png", image), mentions=[int(p) for p in top])

    # ------------------------------------------------------------------ periodic work

    async def tick(self) -> None:
        """Start times, check-in windows, and catching up on running tournaments (also at start-up)."""
        now = self.clock()
        for tournament in await self.records.tournaments(statuses=LIVE_STATUSES):
            try:
                await self._tick_one(tournament, now)
            except TournamentError as error:
                if tournament.status in OPEN_STATUSES:  # the start time came with too few players
                    await self._cancel_unplayable(tournament, str(error))
            except Exception:
                log.exception("tournament %s: periodic check failed", tournament.id)

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
        elif tournament.status == RUNNING:
            await self._recover(tournament)
            await self.advance(tournament.id)

    async def _cancel_unplayable(self, tournament: TournamentRow, reason: str) -> None:
        if await self.records.update_tournament(
            tournament.id, {"status": OPEN_STATUSES}, status=CANCELLED, updated_at=self.clock()
        ):
            await self.host.announce(tournament, f"**{tournament.name}** is cancelled: {reason}")

    async def _recover(self, tournament: TournamentRow) -> None:
        """Record results of games that ended unseen; flag games stopped without a result."""
        if not tournament.current_round:
            return
        for match in await self.records.matches(tournament.id, tournament.current_round):
            if match.status != PLAYING or match.game_id is None:
                continue
            game = await self.service.game(match.game_id)
            if game is None:
                continue
            if game.status == "finished":
                outcome = outcome_from_json(game.outcome)
                if outcome is not None:
                    await self.record_game(game, outcome)
            elif game.status == "aborted" and match.note != "game aborted":
                flagged = await self.records.update_match(
                    match.id, {"status": PLAYING, "note": match.note}, note="game aborted"
                )
                if flagged:
                    names = await self._names(tournament.id)
                    players = " vs ".join(names.get(p, str(p)) for p in match.players)
                    await self.host.announce(
                        tournament,
                        f"The game of {players} (round {match.round}) was aborted without a result: an organiser "
                        "must set it with `/tournament adjudicate`.",
                    )

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
        players = await self.records.players(tournament.id)
        matches = await self.records.matches(tournament.id)
        names = {}
        for p in players:
            suffix = " (withdrew)" if p.status in (DROPPED, KICKED) else ""
            names[p.user_id] = p.display_name + suffix
        rules = rules_for(tournament.game)
        title = tournament.name
        of = f" of {tournament.rounds}" if tournament.rounds else ""
        state = {
            REGISTRATION: "registration open",
            CHECKIN: "check-in open",
            RUNNING: f"round {tournament.current_round}{of}",
            FINISHED: "final",
            CANCELLED: "cancelled",
        }[tournament.status]
        subtitle = f"{FORMAT_NAMES[tournament.format]} · {rules.title} · {state}"
        if tournament.format == ELIMINATION:
            bracket = bracket_of(tournament, matches) if tournament.data.get("seeds") else None
            return Standings(tournament, [], bracket, names, title, subtitle)
        seeded = [p.user_id for p in players if p.status != ABSENT]
        results = results_of(matches)
        rows = (table_standings if tournament.format == TABLES else duel_standings)(results, seeded)
        return Standings(tournament, rows, None, names, title, subtitle)

    async def export(self, tournament_id: int) -> dict[str, Any]:
        """The whole tournament as JSON-ready data: settings, players, rounds, matches and standings."""
        tournament = await self.get(tournament_id)
        players = await self.records.players(tournament.id)
        matches = await self.records.matches(tournament.id)
        standings = await self.standings(tournament.id)
        rounds: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for m in matches:
            rounds[m.round].append(
                {
                    "board": m.board,
                    "players": [str(p) for p in m.players],
                    "status": m.status,
                    "game_id": m.game_id,
                    "thread_id": str(m.thread_id) if m.thread_id else None,
                    "ranks": list(m.ranks) if m.ranks is not None else None,
                    "points": list(m.points) if m.points is not None else None,
                    "winner": str(m.winner) if m.winner is not None else None,
                    "note": m.note,
                    "finished_at": m.finished_at.isoformat() if m.finished_at else None,
                }
            )
        data: dict[str, Any] = {
            "format_version": 1,
            "tournament": {
                "id": tournament.id,
                "name": tournament.name,
                "guild_id": str(tournament.guild_id),
                "channel_id": str(tournament.channel_id),
                "game": tournament.game,
                "options": tournament.options,
                "format": tournament.format,
                "rounds": tournament.rounds,
                "clock_days": tournament.clock_days,
                "round_days": tournament.round_days,
                "max_players": tournament.max_players,
                "table_size": tournament.table_size,
                "checkin_minutes": tournament.checkin_minutes,
                "start_at": tournament.start_at.isoformat() if tournament.start_at else None,
                "status": tournament.status,
                "current_round": tournament.current_round,
                "created_at": tournament.created_at.isoformat(),
            },
            "players": [
                {
                    "user_id": str(p.user_id),
                    "name": p.display_name,
                    "seed": p.seed,
                    "status": p.status,
                    "checked_in": p.checked_in,
                    "left_round": p.left_round,
                }
                for p in players
            ],
            "rounds": [{"round": number, "matches": rounds[number]} for number in sorted(rounds)],
        }
        if standings.bracket is not None:
            data["bracket"] = {
                "seeds": [str(s) for s in standings.bracket.seeds],
                "results": [[r, s, str(w)] for (r, s), w in sorted(standings.bracket.winners().items())],
                "champion": str(standings.bracket.champion) if standings.bracket.champion is not None else None,
                "places": {str(p): place for p, place in standings.bracket.final_ranks().items()},
            }
        else:
            data["standings"] = [
                {
                    "place": row.place,
                    "user_id": str(row.player),
                    "name": standings.names.get(row.player, str(row.player)),
                    "points": row.points,
                    "games": row.games,
                    "wins": row.wins,
                    "draws": row.draws,
                    "losses": row.losses,
                    "byes": row.byes,
                    "tiebreaks": {label: value for label, value in row.tiebreaks},
                }
                for row in standings.rows
            ]
        return data

    async def _post_safely(self, channel_id: int, text: str) -> None:
        try:
            await self.host.post(channel_id, text)
        except Exception:
            log.exception("could not post in %s", channel_id)


# --------------------------------------------------------------------------------------------
# format details


def _require_organiser(actor: Actor, what: str) -> None:
    if not actor.can_manage:
        raise TournamentError(f"Only members with Manage Server or the tournament role can {what}.")


def _plan(tournament: TournamentRow, seeds: Sequence[int]) -> tuple[int, dict[str, Any]]:
    """The number of rounds and the format data fixed at the start."""
    data: dict[str, Any] = {"seeds": list(seeds)}
    if tournament.format == ROUND_ROBIN:
        schedule = round_robin(list(seeds))
        data["schedule"] = [[list(table) for table in rnd.tables] for rnd in schedule]
        data["rests"] = [list(rnd.byes) for rnd in schedule]
        return len(schedule), data
    if tournament.format == ELIMINATION:
        return len(elimination_bracket(list(seeds)).rounds), data
    return tournament.rounds or default_rounds(tournament.format, len(seeds)), data


def _planned(tables: Sequence[Sequence[Any]], byes: Sequence[Any]) -> list[dict[str, Any]]:
    out = [{"board": i, "players": [int(p) for p in table], "status": PENDING} for i, table in enumerate(tables, 1)]
    out += [{"board": len(tables) + i, "players": [int(p)], "status": BYE} for i, p in enumerate(byes, 1)]
    return out


def _round_robin_round(tournament: TournamentRow, number: int, active: set[int]) -> list[dict[str, Any]]:
    """A scheduled round robin round; a game against a withdrawn player is a forfeit win (a bye)."""
    schedule = tournament.data["schedule"][number - 1]
    rests = tournament.data["rests"][number - 1]
    out: list[dict[str, Any]] = []
    board = 0
    for table in schedule:
        a, b = (int(p) for p in table)
        present = [p for p in (a, b) if p in active]
        board += 1
        if len(present) == 2:
            out.append({"board": board, "players": [a, b], "status": PENDING})
        elif len(present) == 1:
            out.append({"board": board, "players": present, "status": BYE, "note": "opponent withdrew"})
    for player in rests:
        if int(player) in active:
            board += 1
            out.append({"board": board, "players": [int(player)], "status": REST})
    return out


def _elimination_round(
    tournament: TournamentRow, bracket: Bracket, number: int, active: set[int]
) -> list[dict[str, Any]]:
    """The ready matches of bracket round ``number``; a withdrawn player forfeits (board = slot + 1)."""
    out: list[dict[str, Any]] = []
    for match in bracket.rounds[number - 1]:
        if match.bye:
            continue
        players = [int(p) for p in match.players if p is not None]
        if len(players) != 2:  # pragma: no cover - every feeder is decided when a round is paired
            continue
        row: dict[str, Any] = {"board": match.slot + 1, "players": players, "status": PENDING}
        present = [p for p in players if p in active]
        if len(present) < 2:
            winner = present[0] if present else _elimination_winner(tournament, players, (1, 1))
            row.update(
                status=DONE,
                ranks=[1 if p == winner else 2 for p in players],
                winner=winner,
                note="forfeit: opponent withdrew" if present else "both withdrew: the higher seed goes through",
            )
        out.append(row)
    return out


def _elimination_winner(tournament: TournamentRow, players: Sequence[int], ranks: Sequence[int]) -> int:
    """The player who goes through: the better place, and on a draw the higher seed."""
    seeds = [int(s) for s in tournament.data.get("seeds", [])]
    seed = {p: seeds.index(p) if p in seeds else len(seeds) for p in players}
    return min(players, key=lambda p: (ranks[list(players).index(p)], seed[p]))


async def render_standings_image(standings: Standings) -> bytes:
    """The standings table (or the bracket) as PNG bytes, drawn in a worker thread."""
    from renderers.standings import render_bracket, render_standings

    if standings.bracket is not None:
        return await asyncio.to_thread(render_bracket, standings.bracket, standings.names, standings.title)
    return await asyncio.to_thread(
        render_standings, standings.rows, standings.title, standings.names, standings.subtitle
    )
