"""Launching a paired match: claim it, open its thread, start its game, greet its players."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot.session import Actor, GameRow, GameService, Report, ServiceError, outcome_from_json, rules_for
from bot.session.tournament_records import LAUNCHING, PENDING, PLAYING, MatchRecord, TournamentRecords, TournamentRow
from bot.tournaments.formats import BOT_LEVEL, is_bot
from bot.tournaments.host import Host
from games.base import Outcome

log = logging.getLogger(__name__)

LAUNCH_LEASE = timedelta(minutes=5)  # a launch claim older than this was left by a stopped process: taken over
REFEREE = Actor(0, "tournament", can_manage=True)  # stops a game its match no longer needs


class MatchLauncher:
    """Opens the matches of a round, each exactly once however many processes try at the same moment.

    Each match is claimed first (``TournamentRecords.claim_launch``); only the holder of the claim
    opens its thread, stores it, creates its game and links it, which makes the match ``playing``.
    Every step is stored as it is taken, so a launch interrupted by a failure (the claim is given back)
    or a stopped process (the claim lapses after ``LAUNCH_LEASE``) resumes where it stopped.
    The players are seated as paired, even one who has left since: the manager resigns them once the
    game is linked (``TournamentManager._resign_withdrawn``, run after every ``advance``).
    """

    def __init__(
        self,
        service: GameService,
        records: TournamentRecords,
        host: Host,
        clock: Callable[[], datetime],
        *,
        on_finished: Callable[[GameRow, Outcome], Awaitable[Any]],
    ) -> None:
        self.service = service
        self.records = records
        self.host = host
        self.clock = clock
        self.on_finished = on_finished

    async def launch_all(self, tournament: TournamentRow, matches: Sequence[MatchRecord]) -> None:
        """Launch every match of ``matches`` not launched yet; one failure never stops the others."""
        names = {p.user_id: p.display_name for p in await self.records.players(tournament.id)}
        for match in matches:
            if match.status not in (PENDING, LAUNCHING):
                continue
            try:
                await self.launch(tournament, match, names)
            except Exception:
                log.exception("could not open match %s of tournament %s", match.id, tournament.id)

    async def launch(self, tournament: TournamentRow, match: MatchRecord, names: dict[int, str]) -> None:
        """Claim the match, then open it; a failure gives the claim back so the next attempt resumes."""
        claimed_at = self.clock()
        if not await self.records.claim_launch(match.id, claimed_at, stale_before=claimed_at - LAUNCH_LEASE):
            return  # launched already, or being launched by someone else
        try:
            await self._open(tournament, match, names, claimed_at)
        except Exception:
            await self.records.release_launch(match.id, claimed_at)
            raise

    async def _open(
        self, tournament: TournamentRow, match: MatchRecord, names: dict[int, str], claimed_at: datetime
    ) -> None:
        """Open the claimed match: its thread (unless stored already), its game, then the greeting."""
        thread_id = match.thread_id
        parent = tournament.channel_id
        if thread_id is None:
            thread_id, parent = await self.host.open_match_thread(tournament, match, names)
            if not await self.records.link_thread(match.id, thread_id, claimed_at):
                log.warning("match %s: the launch claim was lost; thread %s is left unused", match.id, thread_id)
                return
        report, game = await self._game_in(tournament, match, names, thread_id, parent)
        if not await self.records.launched(match.id, game.id, claimed_at):
            await self._lost(match, game)
            return
        linked = replace(match, thread_id=thread_id, game_id=game.id, status=PLAYING, claimed_at=None)
        await self.greet(tournament, linked)
        if report is not None:
            await self.host.match_started(tournament, linked, report, names)
        if game.status == "finished":  # it ended before the link was stored
            outcome = outcome_from_json(game.outcome)
            if outcome is not None:
                await self.on_finished(game, outcome)

    async def greet(self, tournament: TournamentRow, match: MatchRecord) -> None:
        """Greet the players of a playing match in its thread, and mark it greeted once posted.  A greeting
        Discord refuses is logged, not raised: ``greet_missing`` posts it at the next tick.

        The mark is claimed before the post, so two processes sharing the database never both greet; a
        post that fails gives the claim back."""
        if not await self.records.update_match(match.id, {"greeted": 0}, greeted=1):
            return  # greeted already, or being greeted by another process
        try:
            await self.host.greet_match(tournament, match, rules_for(tournament.game).title)
        except Exception:
            log.exception("match %s of tournament %s: could not greet its players", match.id, tournament.id)
            await self.records.update_match(match.id, {"greeted": 1}, greeted=0)

    async def greet_missing(self, tournament: TournamentRow) -> None:
        """Greet the players of the current round's matches whose greeting was refused or lost (the process
        stopped between the game's start and its greeting), while their game runs."""
        if not tournament.current_round:
            return
        for match in await self.records.matches(tournament.id, tournament.current_round):
            if match.status != PLAYING or match.greeted or match.game_id is None or match.thread_id is None:
                continue
            game = await self.service.game(match.game_id)
            if game is not None and game.status == "active":
                await self.greet(tournament, match)

    async def _game_in(
        self, tournament: TournamentRow, match: MatchRecord, names: dict[int, str], thread_id: int, parent: int
    ) -> tuple[Report | None, GameRow]:
        """The match's game in ``thread_id``: created and started, or completed when a crash left it half set up.

        The report is None when the game had started already (its opening was shown then).
        """
        existing = await self.service.latest_game(thread_id)
        ours = existing is not None and existing.tournament_id == tournament.id
        people = [p for p in match.players if not is_bot(p)]
        bots = len(match.players) - len(people)
        if ours and existing is not None and existing.status == "open":  # stopped half-way through its setup
            seated = {s.user_id for s in existing.seats}
            for player in people:
                if player not in seated:
                    await self.service.join(thread_id, Actor(player, names.get(player, str(player))))
            first = people[0]
            for _ in range(bots - sum(s.is_bot for s in existing.seats)):
                await self.service.add_bot(thread_id, Actor(first, names.get(first, str(first))), BOT_LEVEL)
            report = await self.service.start(thread_id, Actor(first, names.get(first, str(first))))
            return report, report.game
        if ours and existing is not None and existing.status in ("active", "finished"):
            return None, existing
        report = await self.service.create_seated_game(
            guild_id=tournament.guild_id,
            channel_id=thread_id,
            game=tournament.game,
            players=[Actor(p, names.get(p, str(p))) for p in people],
            bots=bots,
            bot_level=BOT_LEVEL,
            options=tournament.options,
            clock_days=tournament.clock_days,
            tournament_id=tournament.id,
            thread_id=thread_id,
            parent_channel_id=parent,
        )
        return report, report.game

    async def _lost(self, match: MatchRecord, game: GameRow) -> None:
        """The claim ended before the game was linked: keep the game if it is the match's, else stop it."""
        stored = await self.records.match(match.id)
        if stored is not None and stored.game_id == game.id:
            return  # the game ended at once, and recording its result linked it
        log.warning("match %s changed while its game %s was being created; the game is stopped", match.id, game.id)
        if game.status in ("open", "active"):
            try:
                await self.service.abort(game.channel_id, REFEREE)
            except ServiceError as error:
                log.info("could not stop game %s: %s", game.id, error)
