"""Storage for tournaments: the tournament, its players and its matches (SQLAlchemy Core, async).

Every write that other writes could race with is a conditional ``UPDATE ... WHERE`` inside one
transaction, and the caller learns whether it won:

- a round is created together with the ``current_round`` bump it depends on
  (``WHERE current_round = :previous``), so a round is never paired twice;
- a game's result is recorded with ``WHERE game_id = :game AND status = 'playing'``, so a result
  is recorded exactly once however many times the game's end is reported;
- a paired match is launched by one process only: ``claim_launch`` turns it from ``pending`` to
  ``launching`` (``WHERE status = 'pending'``) *before* its thread is opened, and only the holder of
  the claim stores the thread (``WHERE thread_id IS NULL``) and then the game, which makes the match
  ``playing``.  A claim whose process stopped half-way is taken over once it is older than the lease.

While a match is ``launching``, the time of its claim is kept in its ``finished_at`` column (empty until
a result, so free until then); ``MatchRecord`` shows it as ``claimed_at``, never as ``finished_at``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from bot.session.schema import (
    ACTIVE_STATUSES,
    games,
    tournament_cards,
    tournament_matches,
    tournament_players,
    tournaments,
)
from bot.session.store import Store, aware

REGISTRATION = "registration"
CHECKIN = "checkin"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"
OPEN_STATUSES = (REGISTRATION, CHECKIN)
LIVE_STATUSES = (REGISTRATION, CHECKIN, RUNNING)

# player statuses
ACTIVE = "active"
DROPPED = "dropped"
KICKED = "kicked"
ABSENT = "absent"  # did not check in

# match statuses
PENDING = "pending"  # paired; its thread and game are not created yet
LAUNCHING = "launching"  # claimed by the process opening its thread and game
PLAYING = "playing"
DONE = "finished"
BYE = "bye"  # a free point (Swiss bye, forfeit by an opponent who left)
REST = "rest"  # the rest seat of an odd round robin: nothing is scored
SETTLED = (DONE, BYE, REST)


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int | None
    clock_days: int | None
    round_days: int | None
    max_players: int | None
    table_size: int | None
    checkin_minutes: int | None
    start_at: datetime | None
    checkin_until: datetime | None
    status: str
    current_round: int
    round_deadline: datetime | None
    creator_id: int
    seed: str
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    told: str | None = None  # the last milestone posted to the channel (see ``milestone``)

    @property
    def is_open(self) -> bool:
        """Registration is open (before the start, check-in included)."""
        return self.status in OPEN_STATUSES

    @property
    def is_over(self) -> bool:
        """Finished or cancelled."""
        return self.status in (FINISHED, CANCELLED)


@dataclass(frozen=True)
class EntrantRow:
    """A registered player."""

    tournament_id: int
    user_id: int
    display_name: str
    seed: int | None
    checked_in: bool
    status: str
    left_round: int | None
    joined_at: datetime

    @property
    def active(self) -> bool:
        """Still playing (not dropped, kicked or absent at check-in)."""
        return self.status == ACTIVE


@dataclass(frozen=True)
class MatchRecord:
    """One match (a game, a bye or a rest) of one round."""

    id: int
    tournament_id: int
    round: int
    board: int
    players: tuple[int, ...]
    status: str
    game_id: int | None
    thread_id: int | None
    ranks: tuple[int, ...] | None
    points: tuple[float, ...] | None
    winner: int | None
    note: str | None
    created_at: datetime
    finished_at: datetime | None
    claimed_at: datetime | None = None  # while launching: when the launching process claimed it
    greeted: bool = True  # its players were greeted in its thread (a new match is not yet)

    @property
    def settled(self) -> bool:
        """Nothing is left to play in this match."""
        return self.status in SETTLED


def _tournament(row: Any) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        name=row["name"],
        game=row["game"],
        options=dict(row["options"] or {}),
        format=row["format"],
        rounds=row["rounds"],
        clock_days=row["clock_days"],
        round_days=row["round_days"],
        max_players=row["max_players"],
        table_size=row["table_size"],
        checkin_minutes=row["checkin_minutes"],
        start_at=aware(row["start_at"]),
        checkin_until=aware(row["checkin_until"]),
        status=row["status"],
        current_round=row["current_round"] or 0,
        round_deadline=aware(row["round_deadline"]),
        creator_id=row["creator_id"],
        seed=row["seed"],
        data=dict(row["data"] or {}),
        created_at=aware(row["created_at"]),
        updated_at=aware(row["updated_at"]),
        told=row["told"],
    )


def milestone(tournament: TournamentRow) -> str | None:
    """The last milestone the tournament's channel is owed: ``"checkin"`` (the check-in window opened),
    ``"began"`` (seeds, before round 1 is paired), ``"round N"`` (round N's pairings) or ``"finished"``
    (the final standings); None during registration or once cancelled.  Stored in ``told`` once posted,
    so a lost announcement is posted again."""
    if tournament.status == FINISHED:
        return "finished"
    if tournament.status == CHECKIN:
        return "checkin"
    if tournament.status != RUNNING:
        return None
    return f"round {tournament.current_round}" if tournament.current_round else "began"


def _entrant(row: Any) -> EntrantRow:
    return EntrantRow(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        seed=row["seed"],
        checked_in=bool(row["checked_in"]),
        status=row["status"],
        left_round=row["left_round"],
        joined_at=aware(row["joined_at"]),
    )


def _match(row: Any) -> MatchRecord:
    ranks = row["ranks"]
    points = row["points"]
    launching = row["status"] == LAUNCHING  # its finished_at column holds the claim's time
    return MatchRecord(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round=row["round"],
        board=row["board"],
        players=tuple(int(p) for p in row["players"]),
        status=row["status"],
        game_id=row["game_id"],
        thread_id=row["thread_id"],
        ranks=tuple(int(r) for r in ranks) if ranks is not None else None,
        points=tuple(float(p) for p in points) if points is not None else None,
        winner=row["winner"],
        note=row["note"],
        created_at=aware(row["created_at"]),
        finished_at=None if launching else aware(row["finished_at"]),
        claimed_at=aware(row["finished_at"]) if launching else None,
        greeted=bool(row["greeted"]),
    )


def _conditions(table: Any, expect: Mapping[str, Any]) -> list[Any]:
    out = []
    for name, value in expect.items():
        column = table.c[name]
        if value is None:
            out.append(column.is_(None))
        elif isinstance(value, tuple | list | set | frozenset):
            out.append(column.in_(list(value)))
        else:
            out.append(column == value)
    return out


class AlreadyRegistered(Exception):
    """The player is registered already."""


class TournamentFull(Exception):
    """Every place is taken."""


class TournamentRecords:
    """Queries for the tournament tables, over the bot's ``Store`` engine."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # ------------------------------------------------------------------ tournaments

    async def create_tournament(self, **values: Any) -> int:
        """Insert a tournament; returns its id."""
        async with self.engine.begin() as conn:
            result = await conn.execute(insert(tournaments).values(**values))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament with ``tournament_id``."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tournaments).where(tournaments.c.id == tournament_id))).mappings().first()
        return _tournament(row) if row else None

    async def tournaments(
        self,
        *,
        guild_id: int | None = None,
        statuses: Iterable[str] | None = None,
        channel_id: int | None = None,
        told_other_than: str | None = None,
    ) -> list[TournamentRow]:
        """Tournaments, newest first, filtered by server, status, announcement channel and last milestone told."""
        query = select(tournaments)
        if told_other_than is not None:
            query = query.where(or_(tournaments.c.told.is_(None), tournaments.c.told != told_other_than))
        if guild_id is not None:
            query = query.where(tournaments.c.guild_id == guild_id)
        if statuses is not None:
            query = query.where(tournaments.c.status.in_(list(statuses)))
        if channel_id is not None:
            query = query.where(tournaments.c.channel_id == channel_id)
        query = query.where(self.store.owned(tournaments.c.guild_id))  # shard processes: this one's guilds
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(tournaments.c.id.desc()))).mappings().all()
        return [_tournament(r) for r in rows]

    async def live_games_of_cancelled(self) -> list[int]:
        """Ids of the games still open or running in cancelled tournaments (of this process's guilds): a
        cancel cut short after its tournament was marked, before it stopped them all."""
        cancelled = select(tournaments.c.id).where(tournaments.c.status == CANCELLED)
        query = select(games.c.id).where(
            games.c.tournament_id.in_(cancelled),
            games.c.status.in_(ACTIVE_STATUSES),
            self.store.owned(games.c.guild_id),
        )
        async with self.engine.connect() as conn:
            return list((await conn.execute(query.order_by(games.c.id))).scalars())

    async def update_tournament(
        self, tournament_id: int, expect: Mapping[str, Any] | None = None, **values: Any
    ) -> bool:
        """Change columns when the row still matches ``expect``; True when the write happened."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id, *_conditions(tournaments, expect or {}))
                .values(**values)
            )
            return result.rowcount == 1

    # ------------------------------------------------------------------ messages with buttons

    async def add_card(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        """Remember a message that carries the tournament's buttons."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(tournament_cards).values(
                    tournament_id=tournament_id, channel_id=channel_id, message_id=message_id
                )
            )

    async def cards(self, tournament_id: int) -> list[tuple[int, int]]:
        """The (channel, message) of every message that carries the tournament's buttons."""
        query = select(tournament_cards.c.channel_id, tournament_cards.c.message_id).where(
            tournament_cards.c.tournament_id == tournament_id
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(tournament_cards.c.message_id))).all()
        return [(int(r.channel_id), int(r.message_id)) for r in rows]

    async def drop_cards(self, tournament_id: int, message_ids: Sequence[int]) -> None:
        """Forget these button messages of the tournament (their buttons are gone)."""
        if not message_ids:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(tournament_cards).where(
                    tournament_cards.c.tournament_id == tournament_id,
                    tournament_cards.c.message_id.in_(list(message_ids)),
                )
            )

    # ------------------------------------------------------------------ players

    async def players(self, tournament_id: int) -> list[EntrantRow]:
        """Every registered player: by seed once seeded, else in the order they joined."""
        async with self.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(tournament_players)
                        .where(tournament_players.c.tournament_id == tournament_id)
                        .order_by(
                            tournament_players.c.seed.is_(None),
                            tournament_players.c.seed,
                            tournament_players.c.joined_at,
                            tournament_players.c.user_id,
                        )
                    )
                )
                .mappings()
                .all()
            )
        return [_entrant(r) for r in rows]

    async def player(self, tournament_id: int, user_id: int) -> EntrantRow | None:
        """One registration."""
        async with self.engine.connect() as conn:
            row = (
                (
                    await conn.execute(
                        select(tournament_players).where(
                            tournament_players.c.tournament_id == tournament_id,
                            tournament_players.c.user_id == user_id,
                        )
                    )
                )
                .mappings()
                .first()
            )
        return _entrant(row) if row else None

    async def add_player(
        self,
        tournament_id: int,
        user_id: int,
        name: str,
        now: datetime,
        *,
        limit: int | None,
        checked_in: bool = False,
    ) -> int:
        """Register a player in one transaction with the capacity check; returns the new count.

        Raises ``AlreadyRegistered`` or ``TournamentFull``.
        """
        try:
            async with self.engine.begin() as conn:
                count = int(
                    (
                        await conn.execute(
                            select(func.count())
                            .select_from(tournament_players)
                            .where(tournament_players.c.tournament_id == tournament_id)
                        )
                    ).scalar()
                    or 0
                )
                exists = (
                    await conn.execute(
                        select(tournament_players.c.user_id).where(
                            tournament_players.c.tournament_id == tournament_id,
                            tournament_players.c.user_id == user_id,
                        )
                    )
                ).first()
                if exists:
                    raise AlreadyRegistered
                if limit is not None and count >= limit:
                    raise TournamentFull
                await conn.execute(
                    insert(tournament_players).values(
                        tournament_id=tournament_id,
                        user_id=user_id,
                        display_name=name[:100],
                        checked_in=int(checked_in),
                        status=ACTIVE,
                        joined_at=now,
                    )
                )
                return count + 1
        except IntegrityError:
            raise AlreadyRegistered from None

    async def remove_player(self, tournament_id: int, user_id: int) -> bool:
        """Delete a registration (before the start); True when there was one."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                tournament_players.delete().where(
                    tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id
                )
            )
            return result.rowcount == 1

    async def update_player(
        self, tournament_id: int, user_id: int, expect: Mapping[str, Any] | None = None, **values: Any
    ) -> bool:
        """Change a registration when it still matches ``expect``; True when the write happened."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournament_players)
                .where(
                    tournament_players.c.tournament_id == tournament_id,
                    tournament_players.c.user_id == user_id,
                    *_conditions(tournament_players, expect or {}),
                )
                .values(**values)
            )
            return result.rowcount == 1

    async def begin(
        self,
        tournament_id: int,
        now: datetime,
        *,
        seeds: Sequence[int],
        absent: Sequence[int],
        rounds: int,
        data: dict[str, Any],
    ) -> bool:
        """Close registration and fix seeds, absentees, rounds and format data, in one transaction.

        Only a tournament still in registration or check-in begins; False when another call did it.
        """
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tournament_id, tournaments.c.status.in_(OPEN_STATUSES))
                .values(status=RUNNING, rounds=rounds, data=data, current_round=0, updated_at=now, checkin_until=None)
            )
            if result.rowcount != 1:  # nothing was written yet
                return False
            for number, user_id in enumerate(seeds, start=1):
                await conn.execute(
                    update(tournament_players)
                    .where(tournament_players.c.tournament_id == tournament_id, tournament_players.c.user_id == user_id)
                    .values(seed=number)
                )
            if absent:
                await conn.execute(
                    update(tournament_players)
                    .where(
                        tournament_players.c.tournament_id == tournament_id,
                        tournament_players.c.user_id.in_(list(absent)),
                    )
                    .values(status=ABSENT)
                )
            return True

    # ------------------------------------------------------------------ matches

    async def matches(self, tournament_id: int, round: int | None = None) -> list[MatchRecord]:
        """The tournament's matches (of one round when given), by round and board."""
        query = select(tournament_matches).where(tournament_matches.c.tournament_id == tournament_id)
        if round is not None:
            query = query.where(tournament_matches.c.round == round)
        async with self.engine.connect() as conn:
            rows = (
                (await conn.execute(query.order_by(tournament_matches.c.round, tournament_matches.c.board)))
                .mappings()
                .all()
            )
        return [_match(r) for r in rows]

    async def match(self, match_id: int) -> MatchRecord | None:
        """One match by id."""
        async with self.engine.connect() as conn:
            row = (
                (await conn.execute(select(tournament_matches).where(tournament_matches.c.id == match_id)))
                .mappings()
                .first()
            )
        return _match(row) if row else None

    async def match_for_game(self, game_id: int, thread_id: int | None = None) -> MatchRecord | None:
        """The match played as game ``game_id`` (or, before the link is stored, in ``thread_id``)."""
        async with self.engine.connect() as conn:
            condition = tournament_matches.c.game_id == game_id
            if thread_id is not None:
                condition = or_(
                    condition, and_(tournament_matches.c.thread_id == thread_id, tournament_matches.c.game_id.is_(None))
                )
            row = (
                (await conn.execute(select(tournament_matches).where(condition).order_by(tournament_matches.c.id)))
                .mappings()
                .first()
            )
        return _match(row) if row else None

    async def tournament_of_thread(self, thread_id: int) -> int | None:
        """The tournament whose match is played in ``thread_id``."""
        async with self.engine.connect() as conn:
            return (
                await conn.execute(
                    select(tournament_matches.c.tournament_id)
                    .where(tournament_matches.c.thread_id == thread_id)
                    .order_by(tournament_matches.c.id.desc())
                    .limit(1)
                )
            ).scalar()

    async def create_round(
        self,
        tournament_id: int,
        number: int,
        matches: Sequence[Mapping[str, Any]],
        now: datetime,
        round_deadline: datetime | None,
    ) -> bool:
        """Store round ``number`` and make it current, in one transaction.

        Only when the tournament is running with round ``number - 1`` current: False when the round
        was created already (the caller lost a race, or this is a repeat after a restart).
        """
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournaments)
                .where(
                    tournaments.c.id == tournament_id,
                    tournaments.c.status == RUNNING,
                    tournaments.c.current_round == number - 1,
                )
                .values(current_round=number, round_deadline=round_deadline, updated_at=now)
            )
            if result.rowcount != 1:  # nothing was written yet
                return False
            if matches:
                await conn.execute(
                    insert(tournament_matches),
                    [
                        {
                            "tournament_id": tournament_id,
                            "round": number,
                            "created_at": now,
                            "game_id": None,
                            "thread_id": None,
                            "ranks": None,
                            "points": None,
                            "winner": None,
                            "note": None,
                            "finished_at": None,
                            "greeted": 0,
                            **dict(match),
                        }
                        for match in matches
                    ],
                )
            return True

    async def update_match(self, match_id: int, expect: Mapping[str, Any] | None = None, **values: Any) -> bool:
        """Change a match when it still matches ``expect``; True when the write happened."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournament_matches)
                .where(tournament_matches.c.id == match_id, *_conditions(tournament_matches, expect or {}))
                .values(**values)
            )
            return result.rowcount == 1

    async def claim_launch(self, match_id: int, now: datetime, *, stale_before: datetime) -> bool:
        """Claim a paired match to open its thread and game; True only for the one call that may.

        A ``pending`` match is claimed, and so is one whose claim was taken before ``stale_before`` (the
        process holding it stopped half-way).  The claim's time (``now``) identifies it afterwards.
        """
        claimable = or_(
            tournament_matches.c.status == PENDING,
            and_(tournament_matches.c.status == LAUNCHING, tournament_matches.c.finished_at < stale_before),
        )
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournament_matches)
                .where(tournament_matches.c.id == match_id, claimable)
                .values(status=LAUNCHING, finished_at=now)
            )
            return result.rowcount == 1

    async def link_thread(self, match_id: int, thread_id: int, claimed_at: datetime) -> bool:
        """Store the thread opened under the claim taken at ``claimed_at``; False when the claim was lost."""
        return await self._under_claim(match_id, claimed_at, {"thread_id": None}, thread_id=thread_id)

    async def launched(self, match_id: int, game_id: int, claimed_at: datetime) -> bool:
        """Link the match's game and make it ``playing``, ending the claim; False when the claim was lost."""
        return await self._under_claim(match_id, claimed_at, {}, game_id=game_id, status=PLAYING, finished_at=None)

    async def release_launch(self, match_id: int, claimed_at: datetime) -> bool:
        """Give a claim back after a failed launch: the match is ``pending`` again (its thread, if any, kept)."""
        return await self._under_claim(match_id, claimed_at, {}, status=PENDING, finished_at=None)

    async def _under_claim(self, match_id: int, claimed_at: datetime, expect: Mapping[str, Any], **values: Any) -> bool:
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournament_matches)
                .where(
                    tournament_matches.c.id == match_id,
                    tournament_matches.c.status == LAUNCHING,
                    tournament_matches.c.finished_at == claimed_at,
                    *_conditions(tournament_matches, expect),
                )
                .values(**values)
            )
            return result.rowcount == 1

    async def record_game(
        self, game_id: int, ranks: Sequence[int], now: datetime, *, winner: int | None = None, note: str | None = None
    ) -> bool:
        """Store the result of the match played as ``game_id``, once: True only for the call that did."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(tournament_matches)
                .where(tournament_matches.c.game_id == game_id, tournament_matches.c.status == PLAYING)
                .values(status=DONE, ranks=list(ranks), winner=winner, note=note, finished_at=now)
            )
            return result.rowcount == 1
