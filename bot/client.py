"""The Discord client: wires settings, storage, the service and the cogs together."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.service import GameService, ServiceError, rules_for
from bot.settings import Settings
from bot.store import Store
from bot.timekeeper import Reminder, Timekeeper, Timeout
from bot.undo import UndoDesk
from cogs.base import actor_of, post_lobby, post_report, refuse, report_view
from cogs.buttons import GameButton
from cogs.messages import NO_PINGS, only_user, report_payload

log = logging.getLogger(__name__)

GAME_COGS = ("cogs.hedgehog", "cogs.whist", "cogs.treasure", "cogs.combat", "cogs.assassin")
CORE_COGS = ("cogs.core", "cogs.ratings", "cogs.tournament")


class PyramidBot(commands.Bot):
    """The bot: one ``GameService`` over one ``Store``, a cog per game and the core commands."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        game_cogs: tuple[str, ...] | None = None,
        new_seed: Callable[[], str] | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            help_command=None,
        )
        self.settings = settings
        self.clock = clock
        self.game_cogs = game_cogs if game_cogs is not None else GAME_COGS
        self.new_seed = new_seed  # games' dice seeds; random unless given (tests fix them)
        self.store: Store | None = None
        self._service: GameService | None = None
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    @property
    def service(self) -> GameService:
        """The session service (available once ``setup_hook`` has run)."""
        assert self._service is not None, "the bot has not been set up"
        return self._service

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_url)
        self._service = GameService(self.store, clock=self.clock, new_seed=self.new_seed)
        self.timekeeper = Timekeeper(
            self._service,
            missed_turns_limit=self.settings.missed_turns_limit,
            vacation_days_per_year=self.settings.vacation_days_per_year,
        )
        self.undo = UndoDesk(self._service)
        for name in (*self.game_cogs, *CORE_COGS):
            await self.load_extension(name)
        self.add_dynamic_items(GameButton)
        if self.settings.sync_commands:
            await self.sync_commands()
        self.clock_loop.change_interval(seconds=self.settings.scheduler_interval_seconds)
        self.clock_loop.start()

    @tasks.loop(seconds=60)
    async def clock_loop(self) -> None:
        """Act on due deadlines and reminders; the first run at start-up catches up after downtime."""
        try:
            events = await self.timekeeper.tick()
        except Exception:
            log.exception("clock check failed")
            return
        for event in events:
            try:
                await self.deliver(event)
            except Exception:
                log.exception("could not deliver %s", type(event).__name__)

    @clock_loop.before_loop
    async def _before_clock(self) -> None:
        await self.wait_until_ready()

    async def deliver(self, event: Reminder | Timeout) -> None:
        """Send a reminder (DM, or a channel mention when DMs are closed) or post a timeout."""
        if isinstance(event, Timeout):
            channel = await self._channel(event.report.game.channel_id)
            if channel is not None:
                await channel.send(**report_payload(event.report, report_view(event.report)))
            return
        prefs = await self.service.store.player_prefs(event.game.guild_id, event.user_id)
        if prefs["notify"] == "off":
            return
        if prefs["notify"] == "dm":
            try:
                user = self.get_user(event.user_id) or await self.fetch_user(event.user_id)
                await user.send(event.text, allowed_mentions=NO_PINGS)
                return
            except (discord.Forbidden, discord.HTTPException):
                log.info("DMs closed for %s; reminding in the channel", event.user_id)
        channel = await self._channel(event.channel_id)
        if channel is not None:
            await channel.send(f"<@{event.user_id}> {event.text}", allowed_mentions=only_user(event.user_id))

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        if isinstance(channel, discord.Thread) and channel.archived:
            await channel.edit(archived=False)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """Keep a game's thread from archiving while the game runs."""
        if after.archived and not before.archived and self._service is not None:
            game = await self.service.store.live_game(after.id)
            if game is not None and game.status in ("open", "active"):
                await after.edit(archived=False)

    async def sync_commands(self) -> None:
        """Register the slash commands: to the development server when set (instant), else globally."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %s commands to development server %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %s commands globally", len(synced))

    async def close(self) -> None:
        """Let moves in flight finish, disconnect, then close the database."""
        self.clock_loop.cancel()
        if self._service is not None:
            await self._service.drain()
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def on_ready(self) -> None:
        log.info("connected as %s to %s servers", self.user, len(self.guilds))

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Refusals become one ephemeral sentence; anything unexpected is logged and apologised for."""
        original = getattr(error, "original", error)
        if isinstance(original, ServiceError):
            await refuse(interaction, str(original))
        elif isinstance(error, app_commands.CheckFailure):
            await refuse(interaction, "You do not have permission to do that here.")
        else:
            log.error("command failed", exc_info=original)
            await refuse(interaction, "Something went wrong on our side; nothing was changed. Please try again.")

    # ------------------------------------------------------------------ shared flows

    async def open_game(
        self,
        interaction: discord.Interaction,
        game_name: str,
        options: dict[str, Any],
        *,
        players: int | None = None,
        clock: int = 0,
        bank: int = 0,
        thread: bool = False,
    ) -> None:
        """Create a game in the channel, or in a new thread of it, with the caller seated."""
        if bank and not clock:
            raise ServiceError("A time bank needs a move clock: choose a clock too.")
        actor = actor_of(interaction)
        rules = rules_for(game_name)
        channel_id = interaction.channel_id
        parent_id = None
        created_thread = None
        if thread:
            channel = interaction.channel
            if not isinstance(channel, discord.TextChannel):
                raise ServiceError("Threads can only be opened from a text channel.")
            created_thread = await channel.create_thread(
                name=f"{rules.title} — {actor.name}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            await created_thread.add_user(interaction.user)
            parent_id, channel_id = channel.id, created_thread.id
        game = await self.service.new_game(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game=game_name,
            actor=actor,
            options=options,
            max_players=players,
            clock_days=clock or None,
            bank_days=bank or None,
            thread_id=created_thread.id if created_thread else None,
            parent_channel_id=parent_id,
        )
        if created_thread is not None:
            from cogs.buttons import buttons
            from cogs.messages import lobby_embed

            await created_thread.send(
                f"{actor.name} opened a game of {rules.title}.",
                embed=lobby_embed(game, rules.title, rules.min_players),
                view=buttons(game.id, "join", "start"),
                allowed_mentions=NO_PINGS,
            )
            await interaction.response.send_message(
                f"{actor.name} opened a game of {rules.title} in {created_thread.mention}: join it there.",
                view=buttons(game.id, "join"),
                allowed_mentions=NO_PINGS,
            )
            return
        await post_lobby(interaction, self, channel_id, f"{actor.name} opened a game of {rules.title}.")

    async def handle_button(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        """Run a button press; every refusal is an ephemeral sentence."""
        try:
            await self._button(interaction, action, game_id)
        except ServiceError as error:
            await refuse(interaction, str(error))
        except Exception:
            log.exception("button %s on game %s failed", action, game_id)
            await refuse(interaction, "Something went wrong on our side; nothing was changed. Please try again.")

    async def _button(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        game = await self.service.store.game(game_id)
        if game is None:
            raise ServiceError("This button belongs to a game that no longer exists.")
        actor = actor_of(interaction)
        channel_id = game.channel_id
        if action == "rematch":
            if game.status not in ("finished", "aborted"):
                raise ServiceError("That game is still running.")
            if game.seat_of(actor.user_id) is None:
                raise ServiceError("Only the players of that game can ask for a rematch.")
            await self.service.rematch(game, actor)
            await post_lobby(
                interaction, self, channel_id, f"{actor.name} asks for a rematch: press Join to play again."
            )
            return
        if game.status not in ("open", "active"):
            raise ServiceError("This button belongs to a game that has ended.")
        if action == "join":
            joined = await self.service.join(channel_id, actor)
            note = f"{actor.name} joins ({len(joined.seats)}/{joined.max_players})."
            if interaction.channel_id != channel_id and joined.thread_id:
                thread = self.get_channel(joined.thread_id)
                if isinstance(thread, discord.Thread):
                    await thread.add_user(interaction.user)
                await interaction.response.send_message(
                    f"{note} The game is in <#{joined.thread_id}>.", allowed_mentions=NO_PINGS
                )
                return
            await post_lobby(interaction, self, channel_id, note)
        elif action == "start":
            await post_report(interaction, await self.service.start(channel_id, actor))
        elif action == "roll":
            live = await self.service.store.live_game(channel_id)
            if live is None or live.id != game_id:
                raise ServiceError("This button belongs to a game that has ended.")
            await post_report(interaction, await self.service.roll(channel_id, actor))
        elif action in ("undo-yes", "undo-no"):
            await self.answer_undo(interaction, game, actor, accept=action == "undo-yes")
        else:
            raise ServiceError("That button does nothing any more.")

    async def answer_undo(self, interaction: discord.Interaction, game: Any, actor: Any, accept: bool) -> None:
        """Record a player's answer to an undo request (see cogs.core)."""
        core = self.get_cog("GameCommands")
        if core is None:
            raise ServiceError("Undo is not available.")
        await core.answer_undo(interaction, game, actor, accept)  # type: ignore[attr-defined]


def create_bot(settings: Settings | None = None, **kwargs: Any) -> PyramidBot:
    """Build the bot from ``settings`` (default: the environment)."""
    return PyramidBot(settings or Settings.from_env(), **kwargs)
