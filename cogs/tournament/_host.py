"""``DiscordHost``: the manager's ``Host`` in Discord, opening match threads and posting what happened."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.session import GameRow, Report, ServiceError
from bot.session.tournament_records import MatchRecord, TournamentRow
from bot.tournaments.pairings import Bracket
from bot.tournaments.views import Standings
from cogs import table
from cogs.announcer import reopen
from cogs.messages import NO_PINGS, mention, report_payload, report_view
from cogs.text import CONTENT_LIMIT
from cogs.tournament import _wording as wording
from cogs.tournament._buttons import button_actions, tournament_buttons
from cogs.tournament._images import standings_file

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: match threads stay open while a game waits on its clock


def people(players: Sequence[int]) -> list[int]:
    """The people of a match (computer players have negative ids and no Discord account)."""
    return [p for p in players if p > 0]


def named_in(text: str, user_ids: Sequence[int]) -> list[int]:
    """Those of ``user_ids`` that ``text`` mentions: a message may let at most 100 users be pinged, so each
    part of a long call allows only its own."""
    return [user_id for user_id in user_ids if mention(user_id) in text]


def pinging(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly ``user_ids`` (nobody when empty)."""
    if not user_ids:
        return NO_PINGS
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in user_ids], replied_user=False
    )


class DiscordHost:
    """Implements ``bot.tournaments.host.Host``: threads, greetings and announcements, worded here."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ asked of Discord

    async def open_match_thread(
        self, tournament: TournamentRow, match: MatchRecord, names: Mapping[int, str]
    ) -> tuple[int, int]:
        channel = await self._channel(tournament.channel_id)
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("The tournament's channel cannot hold threads; use a text channel.")
        thread = await channel.create_thread(
            name=wording.thread_title(tournament, match, names),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
        for user_id in people(match.players):
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException:
                log.info("could not add %s to thread %s", user_id, thread.id)
        return thread.id, channel.id

    async def greet_match(self, tournament: TournamentRow, match: MatchRecord, title: str) -> None:
        assert match.thread_id is not None
        thread = await self._channel(match.thread_id)
        # the greeting is a message of its own: the board's text goes once its turn is over, the greeting
        # stays at the top of the thread; it pings every person, so the board pings nobody again
        intro = wording.match_intro(tournament, match, title)
        await thread.send(intro[:CONTENT_LIMIT], allowed_mentions=pinging(people(match.players)))

    async def match_started(
        self, tournament: TournamentRow, match: MatchRecord, report: Report, names: Mapping[int, str]
    ) -> None:
        assert match.thread_id is not None
        thread = await self._channel(match.thread_id)
        message = await thread.send(**{**report_payload(report, report_view(report)), "allowed_mentions": NO_PINGS})
        await self.bot.service.delivered(report.delivery_id)
        await table.adopt(self.bot, report, message)  # the opening board is the game's living message

    # ------------------------------------------------------------------ told to the tournament's channel

    async def checkin_opened(self, tournament: TournamentRow, until: datetime, players: Sequence[int]) -> None:
        await self.refresh_cards(tournament)  # the card gets its Check in button
        view = tournament_buttons(tournament)
        texts = wording.checkin_opened(tournament, until, players)
        called = await self._announce_parts(tournament, texts, mentions=players, view=view)
        if view is not None:
            await self.keep_card(tournament, called.channel.id, called.id)

    async def tournament_began(
        self, tournament: TournamentRow, seeds: Sequence[int], absent: Sequence[int], names: Mapping[int, str]
    ) -> None:
        await self.refresh_cards(tournament)  # registration is over: Join and Check in go
        await self._announce_parts(tournament, wording.began(tournament, seeds, absent, names))

    async def round_started(
        self,
        tournament: TournamentRow,
        number: int,
        matches: Sequence[MatchRecord],
        names: Mapping[int, str],
        bracket: Bracket | None,
    ) -> None:
        await self._announce_parts(tournament, wording.round_started(tournament, number, matches, names, bracket))

    async def tournament_finished(self, tournament: TournamentRow, standings: Standings) -> None:
        image = await standings_file(standings, f"{wording.standings_kind(standings)}.png")  # as /tournament standings
        await self._announce(
            tournament, wording.finished(tournament, standings), file=image, mentions=standings.winners
        )

    async def cancelled(self, tournament: TournamentRow, reason: str) -> None:
        await self.refresh_cards(tournament)
        await self._announce(tournament, wording.cancelled(tournament, reason))

    async def match_aborted(self, tournament: TournamentRow, match: MatchRecord, names: Mapping[int, str]) -> None:
        await self._announce(tournament, wording.match_aborted(match, names))

    # ------------------------------------------------------------------ told to a match thread

    async def result_set(self, tournament: TournamentRow, match: MatchRecord, names: Mapping[int, str]) -> None:
        assert match.thread_id is not None
        await self._post(match.thread_id, wording.result_set(match, names, tournament.format))

    async def player_withdrew(self, tournament: TournamentRow, report: Report, name: str, *, kicked: bool) -> None:
        await self._post(report.game.channel_id, wording.player_withdrew(tournament, name, kicked=kicked))
        await table.show_in_channel(self.bot, report)  # the board goes on without them, bots playing at once

    async def game_stopped(self, game: GameRow) -> None:
        await table.close(self.bot, game)

    async def match_stopped(self, tournament: TournamentRow, channel_id: int) -> None:
        await self._post(channel_id, wording.match_stopped(tournament))

    # ------------------------------------------------------------------ sending

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        if isinstance(channel, discord.Thread) and channel.archived:
            await reopen(channel)
        return channel

    async def _announce(
        self,
        tournament: TournamentRow,
        text: str,
        *,
        file: discord.File | None = None,
        mentions: Sequence[int] = (),
        view: discord.ui.View | None = None,
    ) -> discord.Message:
        """Post in the tournament's channel, pinging only ``mentions``; the message posted."""
        channel = await self._channel(tournament.channel_id)
        extra: dict[str, Any] = {"file": file} if file is not None else {}
        if view is not None:
            extra["view"] = view
        message: discord.Message = await channel.send(text[:CONTENT_LIMIT], allowed_mentions=pinging(mentions), **extra)
        return message

    async def _announce_parts(
        self,
        tournament: TournamentRow,
        texts: Sequence[str],
        *,
        mentions: Sequence[int] = (),
        view: discord.ui.View | None = None,
    ) -> discord.Message:
        """Post an announcement too long for one message as its parts, in order (``view`` under the first);
        the first part posted.  The first part's failure is raised (the milestone is told again at the
        next check); a later part's is logged and the rest still posted: an announcement is told once."""
        first, *rest = texts
        posted = await self._announce(tournament, first, mentions=named_in(first, mentions), view=view)
        for part in rest:
            try:
                await self._announce(tournament, part, mentions=named_in(part, mentions))
            except discord.HTTPException as error:
                log.warning("tournament %s: part of an announcement was not posted: %s", tournament.id, error)
        return posted

    async def refresh_cards(self, tournament: TournamentRow) -> None:
        """Give the messages that carry the tournament's buttons the buttons its registration has now:
        Join, then Join and Check in during check-in, none once it is over (then they are forgotten)."""
        records = self.bot.session.records
        fresh = await records.tournament(tournament.id) or tournament
        cards = await records.cards(tournament.id)
        for channel_id, message_id in cards:
            await self._set_buttons(fresh, channel_id, message_id)
        if not button_actions(fresh):  # only the cards read here: one recorded meanwhile checks itself
            await records.drop_cards(tournament.id, [message_id for _, message_id in cards])

    async def keep_card(self, posted_for: TournamentRow, channel_id: int, message_id: int) -> None:
        """Remember a message just posted with ``posted_for``'s buttons, so they follow the registration.
        The tournament is read again once it is remembered: check-in or the start may have refreshed the
        cards while it was being posted, before it was known."""
        records = self.bot.session.records
        await records.add_card(posted_for.id, channel_id, message_id)
        fresh = await records.tournament(posted_for.id) or posted_for
        if button_actions(fresh) == button_actions(posted_for):
            return
        await self._set_buttons(fresh, channel_id, message_id)
        if not button_actions(fresh):
            await records.drop_cards(fresh.id, [message_id])

    async def _set_buttons(self, tournament: TournamentRow, channel_id: int, message_id: int) -> None:
        try:
            channel = await self._channel(channel_id)
            await channel.get_partial_message(message_id).edit(view=tournament_buttons(tournament))
        except discord.HTTPException as error:  # a card deleted meanwhile has no buttons to change
            log.info("tournament %s: card %s not updated: %s", tournament.id, message_id, error)

    async def _post(self, channel_id: int, text: str) -> None:
        """Post a plain note in a channel or thread (no pings)."""
        channel = await self._channel(channel_id)
        await channel.send(text[:CONTENT_LIMIT], allowed_mentions=NO_PINGS)
