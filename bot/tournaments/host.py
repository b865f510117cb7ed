"""The ``Host``: what the tournament manager asks of Discord and tells it, as data (the cog words it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from bot.session import GameRow, Report
from bot.session.tournament_records import MatchRecord, TournamentRow
from bot.tournaments.pairings import Bracket
from bot.tournaments.views import Standings

Names = Mapping[int, str]  # user id -> display name


class Host(Protocol):
    """The manager's hands and voice in Discord (the cog implements it; tests fake it).

    Every call carries data, never a sentence: the Discord side writes each message, with its markup,
    mentions and images.  The manager calls a method once the change it reports is stored.
    """

    async def open_match_thread(self, tournament: TournamentRow, match: MatchRecord, names: Names) -> tuple[int, int]:
        """Open a thread for one match with its players added; returns (thread id, parent channel id)."""

    async def greet_match(self, tournament: TournamentRow, match: MatchRecord, title: str) -> None:
        """Greet a match's players in its thread (``match.thread_id``), pinging each person: the tournament,
        the round and the game (``title``) they play.  Posted again later when Discord refused it."""

    async def match_started(self, tournament: TournamentRow, match: MatchRecord, report: Report, names: Names) -> None:
        """A match's game began in its thread (``match.thread_id``): show its opening board, pinging nobody
        (the greeting did)."""

    async def checkin_opened(self, tournament: TournamentRow, until: datetime, players: Sequence[int]) -> None:
        """Check-in is open until ``until``; ``players`` are the registered players who must confirm."""

    async def tournament_began(
        self, tournament: TournamentRow, seeds: Sequence[int], absent: Sequence[int], names: Names
    ) -> None:
        """Registration closed: ``seeds`` play in seeding order, ``absent`` did not check in and are left out."""

    async def round_started(
        self,
        tournament: TournamentRow,
        number: int,
        matches: Sequence[MatchRecord],
        names: Names,
        bracket: Bracket | None,
    ) -> None:
        """Round ``number`` is paired and its matches opened (``bracket``: elimination only)."""

    async def tournament_finished(self, tournament: TournamentRow, standings: Standings) -> None:
        """The last round is over: the final standings (or bracket) and its winners."""

    async def cancelled(self, tournament: TournamentRow, reason: str) -> None:
        """The tournament was cancelled by itself (its start time came with too few players): ``reason`` says why."""

    async def match_aborted(self, tournament: TournamentRow, match: MatchRecord, names: Names) -> None:
        """A match's game was aborted without a result: an organiser must set it."""

    async def result_set(self, tournament: TournamentRow, match: MatchRecord, names: Names) -> None:
        """An organiser set a match's result (``match`` as now stored); its thread is told."""

    async def player_withdrew(self, tournament: TournamentRow, report: Report, name: str, *, kicked: bool) -> None:
        """A player left a running game (withdrew, or was removed by an organiser); ``report`` is their
        resignation, to be shown on the game's board at once (computer players may play on after it)."""

    async def match_stopped(self, tournament: TournamentRow, channel_id: int) -> None:
        """The game of ``channel_id`` was stopped because the tournament was cancelled."""

    async def game_stopped(self, game: GameRow) -> None:
        """A match's game was stopped without a result (adjudicated or cancelled): its board keeps no controls."""
