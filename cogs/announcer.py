"""The announcer: runs the clock and posts every committed event that no reply has announced.

Each minute (and once at start-up, to catch up after downtime) it asks the timekeeper to act on due
reminders and deadlines, then claims the delivery records still to announce: the scheduler's events
(reminders, timeouts) and any move whose player never got an answer (the process stopped between the
commit and the reply).  Each is posted once (a move's answer edits the player's deferred response
while its token is valid, else goes to the game's channel) and then marked delivered.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import TYPE_CHECKING, TypeGuard

import discord
from discord.ext import commands, tasks

from bot.session import Delivery, Reminder
from cogs import table
from cogs.loops import cancel_between_iterations
from cogs.messages import NO_PINGS, late_lines, only_user, reminder_text, report_payload, report_view
from cogs.seats import resume, settle_handover
from cogs.table import as_edit

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

TOKEN_LIFETIME = timedelta(minutes=14)  # Discord keeps an interaction token for 15 minutes


class Announcer(commands.Cog):
    """Clock checks, reminders and the delivery of recorded events."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        self._checking = asyncio.Lock()  # held while a clock check runs
        self._flushing = asyncio.Lock()  # held while events are announced (the tournament loop flushes too)

    async def cog_load(self) -> None:
        self.clock_loop.change_interval(seconds=self.bot.settings.scheduler_interval_seconds)
        self.clock_loop.start()

    async def cog_unload(self) -> None:
        await cancel_between_iterations(self.clock_loop, self._checking)

    @tasks.loop(seconds=60)
    async def clock_loop(self) -> None:
        """Act on due deadlines and reminders, announce what is pending, and wake bots whose turn it is."""
        async with self._checking:
            try:
                await self.bot.timekeeper.tick()
            except Exception:
                log.exception("clock check failed")
            await self.flush()
            try:
                await resume(self.bot)
            except Exception:
                log.exception("waking computer players failed")

    @clock_loop.before_loop
    async def _before_clock(self) -> None:
        await self.bot.wait_until_ready()

    async def flush(self) -> int:
        """Announce every event waiting for it; returns how many were delivered.

        One flush at a time: a second caller waits for the one under way, so when it returns, every
        event claimed before it has been shown.  (Otherwise the clock check, finding nothing left to
        claim, would wake the bots of a game whose timeout another flush is still showing, and the bots'
        moves would be shown on a board that does not have the timeout's lines yet.)
        """
        async with self._flushing:
            return await self._flush()

    async def _flush(self) -> int:
        delivered = 0
        while True:
            try:
                batch = await self.bot.service.claim_deliveries()
            except Exception:
                log.exception("could not read the deliveries")
                return delivered
            if not batch:
                return delivered
            for item in batch:
                try:
                    await self._deliver(item)
                except Exception as error:
                    if not refused_for_good(error):
                        log.exception("could not deliver event %s of game %s", item.id, item.game.id)
                        continue  # claimed, not marked: tried again once the claim lapses
                    log.warning(  # retrying cannot help until an admin or a moderator acts: settled
                        "event %s of game %s not posted, the bot may not (%s); the next board shows the game",
                        item.id,
                        item.game.id,
                        error.text or error.status,
                    )
                await self.bot.service.delivered(item.id)
                delivered += 1
                if item.report is not None:  # a seat removed on time may have been all a proposal waited for
                    await self._settle(item)

    async def _settle(self, item: Delivery) -> None:
        game = item.report.game if item.report is not None else item.game
        try:
            guild = self.bot.get_guild(game.guild_id) if game.guild_id is not None else None
            await settle_handover(self.bot, guild, game.channel_id)
        except Exception:
            log.exception("could not settle the seat proposal of game %s", game.id)

    async def _deliver(self, item: Delivery) -> None:
        if item.report is None:
            if item.row.kind == "reminder" and not item.overtaken:
                await self._remind(Reminder.from_payload(item.row.payload))
            return  # else a reminder of a turn now over, or a report overtaken in a game now over: not posted
        if item.overtaken:  # the game's board is newer: these lines join it, marked as late
            item.report.lines = late_lines(item.report.lines)
            await table.show_in_channel(self.bot, item.report)
            return
        token = item.row.token
        if token and self.bot.application_id and self.bot.service.clock() - item.row.created_at < TOKEN_LIFETIME:
            try:  # the player's deferred answer is still open: complete it
                webhook = discord.Webhook.partial(self.bot.application_id, token, client=self.bot)
                message = await webhook.edit_message(
                    "@original",  # type: ignore[call-overload]  # Discord's name for the deferred answer
                    **as_edit(report_payload(item.report, report_view(item.report))),
                )
                await table.adopt(self.bot, item.report, message)
                return
            except (discord.HTTPException, ValueError):
                log.info("the answer to event %s goes to the channel instead", item.id)
        await table.show_in_channel(self.bot, item.report)

    async def _remind(self, reminder: Reminder) -> None:
        prefs = await self.bot.service.player_prefs(await self._guild_of(reminder), reminder.user_id)
        if prefs["notify"] == "off":
            return
        text = reminder_text(reminder)
        if prefs["notify"] == "dm":
            try:
                user = self.bot.get_user(reminder.user_id) or await self.bot.fetch_user(reminder.user_id)
                await user.send(text, allowed_mentions=NO_PINGS)
                return
            except (discord.Forbidden, discord.HTTPException):
                log.info("DMs closed for %s; reminding in the channel", reminder.user_id)
        channel = await self.channel(reminder.channel_id)
        if channel is not None:
            await channel.send(f"<@{reminder.user_id}> {text}", allowed_mentions=only_user(reminder.user_id))

    async def _guild_of(self, reminder: Reminder) -> int | None:
        game = await self.bot.service.game(reminder.game_id)
        return game.guild_id if game is not None else None

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """The channel or thread ``channel_id``, reopened if it is an archived thread."""
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        if isinstance(channel, discord.Thread) and channel.archived:
            await reopen(channel)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """Keep a game's thread from archiving while the game runs."""
        if after.archived and not before.archived:
            game = await self.bot.service.live_game(after.id)
            if game is not None and game.status in ("open", "active"):
                await reopen(after)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel takes its games (and its threads' games) with it: they end with no result."""
        await self._channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread takes its game with it: it ends with no result."""
        await self._channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (or the server deleted): its games end with no result, so their
        clocks stop timing out players who can no longer move there."""
        try:
            ended = await self.bot.service.guild_left(guild.id)
        except Exception:
            log.exception("could not end the games of server %s, which the bot left", guild.id)
            return
        log.info("server %s left: %s games ended with no result", guild.id, len(ended))

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): a server that removed the bot while it was stopped sent no word of it, so its
        games end now as at ``on_guild_remove``.  Nothing is ended while the bot sees no server at all."""
        # every server of this process's shards, unavailable ones included (an outage is not a removal):
        # discord.py keeps those in ``guilds``; leaving them out here would end their games
        present = [guild.id for guild in self.bot.guilds]
        if not present:
            return
        try:
            ended = await self.bot.service.guilds_gone(present)
        except Exception:
            log.exception("could not end the games of servers the bot has left")
            return
        for game in ended:
            log.info("game %s ended with no result: the bot is no longer in server %s", game.id, game.guild_id)

    async def _channel_gone(self, channel_id: int) -> None:
        try:
            ended = await self.bot.service.channel_deleted(channel_id)
        except Exception:  # an event handler's failure must not stop the others
            log.exception("could not end the games of deleted channel %s", channel_id)
            return
        for game in ended:
            log.info("game %s ended with no result: its channel %s was deleted", game.id, game.channel_id)


# Discord's codes for a refusal that stays until someone changes the channel: posting in an archived
# thread the bot may not reopen, or in a locked one
LASTING_REFUSALS = {50083, 160005}


def refused_for_good(error: Exception) -> TypeGuard[discord.HTTPException]:
    """True when Discord refused and trying again later cannot help: the bot may not post there (403),
    the channel or message is gone (404), or the thread is archived or locked by a moderator."""
    if not isinstance(error, discord.HTTPException):
        return False
    return isinstance(error, discord.Forbidden | discord.NotFound) or error.code in LASTING_REFUSALS


def announcer_of(bot: PyramidBot) -> Announcer:
    """The loaded announcer."""
    cog = bot.get_cog("Announcer")
    assert isinstance(cog, Announcer), "the announcer is not loaded"
    return cog


async def setup(bot: PyramidBot) -> None:
    """Load the announcer."""
    await bot.add_cog(Announcer(bot))


async def reopen(thread: discord.Thread) -> None:
    """Unarchive a game's thread; one the bot may no longer reopen is logged (posting there fails next)."""
    try:
        await thread.edit(archived=False)
    except discord.HTTPException as error:
        log.info("could not reopen thread %s: %s", thread.id, error)
