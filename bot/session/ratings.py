"""Ratings per server and game, updated when a rated game finishes, with each player's recent results.

The service listens to the ``GameService``: every report that carries an outcome is a game that
just finished.  It is rated when it is marked rated (games with an AI seat are not), belongs to a
server, and has at least two different players; an aborted game never reports an outcome, so it is
never rated.  The update (the ratings, the game's ``rated_games`` row and every player's
``rating_results`` line) is one transaction, and ``rated_games`` is keyed by the game, so a game is
rated exactly once even if its end is reported twice or the bot stops half-way; ``catch_up`` rates,
at start-up, any finished game whose report was lost.

The numbers are ``bot.rating_model``: openskill's Plackett-Luce, shown as the scaled ordinal
(1500 for a new player).
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from bot.rating_model import Rating, rate_game
from bot.session.schema import games, rated_games, rating_results, ratings, seats
from bot.session.service import Report
from bot.session.store import GameRow, Store, aware
from games.base import Outcome

RECENT = 10
LEADERBOARD_SIZE = 20


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class PlayerRating:
    """A player's standing in one game on one server (what the leaderboard and ``/rating`` show)."""

    user_id: int
    name: str
    game: str
    rating: Rating
    games: int
    wins: int
    rank: int = 0

    @property
    def ordinal(self) -> float:
        """The displayed rating."""
        return self.rating.ordinal


@dataclass(frozen=True)
class RecentResult:
    """One line of a player's recent results."""

    game_id: int
    game: str
    place: int
    players: int
    before: Rating
    after: Rating
    opponents: tuple[str, ...]
    channel_id: int | None
    at: datetime
    shared: bool = False  # another player of the game holds the same place (a draw, a tie)

    @property
    def change(self) -> int:
        """The change of the displayed rating."""
        return self.after.display - self.before.display


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player."""

    user_id: int
    name: str
    place: int
    before: Rating
    after: Rating


def rateable(game: GameRow) -> bool:
    """True when ``game`` counts for ratings: rated, on a server, two or more different players."""
    return (
        bool(game.rated)
        and game.guild_id is not None
        and len({s.user_id for s in game.seats}) >= 2
        and len({s.user_id for s in game.seats}) == len(game.seats)
    )


class RatingService:
    """Updates and reads ratings; register ``on_report`` as a ``GameService`` listener."""

    def __init__(self, store: Store, *, clock: Callable[[], datetime] = _utcnow) -> None:
        self.store = store
        self.clock = clock
        self._locks: defaultdict[tuple[int, str], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def on_report(self, report: Report) -> None:
        """The service listener: rate a game the moment it finishes."""
        if report.outcome is None:
            return
        await self.rate(report.game, report.outcome)

    async def rate(self, game: GameRow, outcome: Outcome | None = None) -> list[RatingChange]:
        """Rate a finished game once; returns the changes (empty when unrated or rated already)."""
        if outcome is None:
            from bot.session.service import outcome_from_json

            outcome = outcome_from_json(game.outcome)
        if outcome is None or game.status != "finished" or not rateable(game):
            return []
        assert game.guild_id is not None
        if len(outcome.ranks) != len(game.seats):
            return []
        key = (game.guild_id, game.game)
        async with self._locks[key]:  # one writer per leaderboard: no lost updates
            now = self.clock()
            users = [s.user_id for s in game.seats]
            names = {s.user_id: s.display_name for s in game.seats}
            try:
                async with self.store.engine.begin() as conn:
                    await conn.execute(
                        insert(rated_games).values(
                            game_id=game.id, guild_id=game.guild_id, game=game.game, rated_at=now
                        )
                    )
                    # every player gets a row first (a new player's at the initial rating), so that
                    # the rows exist to be locked: another process rating these players waits at the
                    # lock and reads what this one wrote, instead of both inserting the same new row
                    initial = Rating.initial()
                    await conn.execute(
                        self.store.insert_missing(ratings, ["guild_id", "game", "user_id"]),
                        [
                            {
                                "guild_id": game.guild_id,
                                "game": game.game,
                                "user_id": user,
                                "display_name": names[user][:100],
                                "mu": initial.mu,
                                "sigma": initial.sigma,
                                "games": 0,
                                "wins": 0,
                                "updated_at": now,
                            }
                            for user in sorted(users)  # the lock order of the select below
                        ],
                    )
                    rows = (
                        (
                            await conn.execute(
                                select(ratings)
                                .where(
                                    ratings.c.guild_id == game.guild_id,
                                    ratings.c.game == game.game,
                                    ratings.c.user_id.in_(users),
                                )
                                .order_by(ratings.c.user_id)
                                .with_for_update()  # PostgreSQL: other processes rating these players wait
                            )
                        )
                        .mappings()
                        .all()
                    )
                    known = {r["user_id"]: r for r in rows}
                    before = [Rating(known[u]["mu"], known[u]["sigma"]) for u in users]
                    after = rate_game(before, list(outcome.ranks))
                    winners = [seat for seat, rank in enumerate(outcome.ranks) if rank == 1]
                    changes = []
                    for seat, user in enumerate(users):
                        won = int(len(winners) == 1 and winners[0] == seat)
                        await conn.execute(
                            update(ratings)
                            .where(
                                ratings.c.guild_id == game.guild_id,
                                ratings.c.game == game.game,
                                ratings.c.user_id == user,
                            )
                            .values(
                                display_name=names[user][:100],
                                mu=after[seat].mu,
                                sigma=after[seat].sigma,
                                updated_at=now,
                                games=ratings.c.games + 1,
                                wins=ratings.c.wins + won,
                            )
                        )
                        await conn.execute(
                            insert(rating_results).values(
                                game_id=game.id,
                                user_id=user,
                                guild_id=game.guild_id,
                                game=game.game,
                                place=outcome.ranks[seat],
                                players=len(users),
                                mu_before=before[seat].mu,
                                sigma_before=before[seat].sigma,
                                mu_after=after[seat].mu,
                                sigma_after=after[seat].sigma,
                                created_at=now,
                            )
                        )
                        changes.append(RatingChange(user, names[user], outcome.ranks[seat], before[seat], after[seat]))
            except IntegrityError:  # rated already
                return []
        return changes

    async def catch_up(self) -> int:
        """Rate finished games whose end was never rated (the bot stopped in between); returns how many."""
        async with self.store.engine.connect() as conn:
            ids = (
                (
                    await conn.execute(
                        select(games.c.id)
                        .outerjoin(rated_games, rated_games.c.game_id == games.c.id)
                        .where(
                            games.c.status == "finished",
                            games.c.rated == 1,
                            games.c.guild_id.is_not(None),
                            rated_games.c.game_id.is_(None),
                            games.c.id.in_(  # a game of one (solitaire) is never rated
                                select(seats.c.game_id).group_by(seats.c.game_id).having(func.count() > 1)
                            ),
                        )
                        .order_by(games.c.updated_at, games.c.id)
                    )
                )
                .scalars()
                .all()
            )
        count = 0
        for game_id in ids:
            game = await self.store.game(game_id)
            if game is not None and await self.rate(game):
                count += 1
        return count

    # ------------------------------------------------------------------ reading

    async def rating(self, guild_id: int, game: str, user_id: int) -> PlayerRating | None:
        """A player's rating in one game, with their place on the leaderboard."""
        async with self.store.engine.connect() as conn:
            row = (
                (
                    await conn.execute(
                        select(ratings).where(
                            ratings.c.guild_id == guild_id, ratings.c.game == game, ratings.c.user_id == user_id
                        )
                    )
                )
                .mappings()
                .first()
            )
            if row is None:
                return None
            mine = _player(row)
            others = (
                await conn.execute(
                    select(ratings.c.mu, ratings.c.sigma).where(
                        ratings.c.guild_id == guild_id, ratings.c.game == game, ratings.c.games > 0
                    )
                )
            ).all()
        # the leaderboard's place: players shown with the same rating share it (see ``leaderboard``)
        above = sum(1 for mu, sigma in others if round(Rating(mu, sigma).ordinal) > round(mine.ordinal))
        return PlayerRating(mine.user_id, mine.name, mine.game, mine.rating, mine.games, mine.wins, above + 1)

    async def ratings_of(self, guild_id: int, user_id: int) -> list[PlayerRating]:
        """A player's rating in every game they have played on the server."""
        async with self.store.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(ratings.c.game).where(ratings.c.guild_id == guild_id, ratings.c.user_id == user_id)
                    )
                )
                .scalars()
                .all()
            )
        out = []
        for game in sorted(rows):
            found = await self.rating(guild_id, game, user_id)
            if found is not None:
                out.append(found)
        return out

    async def ordinals(self, guild_id: int, game: str, user_ids: Sequence[int]) -> dict[int, float]:
        """Displayed ratings of those of ``user_ids`` who have one (for tournament seeding)."""
        if not user_ids:
            return {}
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(ratings.c.user_id, ratings.c.mu, ratings.c.sigma).where(
                        ratings.c.guild_id == guild_id, ratings.c.game == game, ratings.c.user_id.in_(list(user_ids))
                    )
                )
            ).all()
        return {user: Rating(mu, sigma).ordinal for user, mu, sigma in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = LEADERBOARD_SIZE) -> list[PlayerRating]:
        """The best ``limit`` players of a game on a server, by displayed rating (then games, then name)."""
        async with self.store.engine.connect() as conn:
            rows = (
                (
                    await conn.execute(
                        select(ratings).where(
                            ratings.c.guild_id == guild_id, ratings.c.game == game, ratings.c.games > 0
                        )
                    )
                )
                .mappings()
                .all()
            )
        players = sorted((_player(r) for r in rows), key=_board_order)
        out: list[PlayerRating] = []
        for index, player in enumerate(players[:limit]):
            rank = index + 1
            if index and round(player.ordinal) == round(out[-1].ordinal):
                rank = out[-1].rank  # equal displayed ratings share a rank
            out.append(PlayerRating(player.user_id, player.name, game, player.rating, player.games, player.wins, rank))
        return out

    async def recent_results(
        self, guild_id: int, user_id: int, game: str | None = None, limit: int = RECENT
    ) -> list[RecentResult]:
        """A player's last rated games (newest first), with their opponents' names."""
        query = select(rating_results, games.c.channel_id).join(games, games.c.id == rating_results.c.game_id)
        query = query.where(rating_results.c.guild_id == guild_id, rating_results.c.user_id == user_id)
        if game is not None:
            query = query.where(rating_results.c.game == game)
        query = query.order_by(rating_results.c.created_at.desc(), rating_results.c.game_id.desc()).limit(limit)
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
            ids = [r["game_id"] for r in rows]
            seat_rows = (
                (
                    await conn.execute(
                        select(seats.c.game_id, seats.c.user_id, seats.c.display_name)
                        .where(seats.c.game_id.in_(ids), seats.c.user_id != user_id)
                        .order_by(seats.c.game_id, seats.c.seat)
                    )
                ).all()
                if ids
                else []
            )
            placed = select(rating_results.c.game_id, rating_results.c.place).where(rating_results.c.game_id.in_(ids))
            places = (
                Counter((game_id, place) for game_id, place in (await conn.execute(placed)).all()) if ids else Counter()
            )
        opponents: dict[int, list[str]] = defaultdict(list)
        for game_id, _user, name in seat_rows:
            opponents[game_id].append(name)
        return [
            RecentResult(
                game_id=r["game_id"],
                game=r["game"],
                place=r["place"],
                players=r["players"],
                before=Rating(r["mu_before"], r["sigma_before"]),
                after=Rating(r["mu_after"], r["sigma_after"]),
                opponents=tuple(opponents[r["game_id"]]),
                channel_id=r["channel_id"],
                at=aware(r["created_at"]),
                shared=places[(r["game_id"], r["place"])] > 1,
            )
            for r in rows
        ]

    async def count_rated(self, guild_id: int, game: str | None = None) -> int:
        """How many games have been rated on the server (in one game when given)."""
        condition = [rated_games.c.guild_id == guild_id]
        if game is not None:
            condition.append(rated_games.c.game == game)
        async with self.store.engine.connect() as conn:
            return int(
                (await conn.execute(select(func.count()).select_from(rated_games).where(and_(*condition)))).scalar()
                or 0
            )


def _board_order(player: PlayerRating) -> tuple[int, int, str, int]:
    """Leaderboard order: the rating as displayed (rounded), then more games, then the name."""
    return (-round(player.ordinal), -player.games, player.name.lower(), player.user_id)


def _player(row: Any) -> PlayerRating:
    return PlayerRating(
        user_id=row["user_id"],
        name=row["display_name"],
        game=row["game"],
        rating=Rating(row["mu"], row["sigma"]),
        games=row["games"],
        wins=row["wins"],
    )
