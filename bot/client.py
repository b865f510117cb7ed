"""The Discord client: wires settings, the session layer and the extensions together, and nothing else.

Everything players see (commands, buttons, lobby and board messages, reminders, error answers) lives in
``cogs``, loaded here as extensions by name.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands, tasks
from sqlalchemy.exc import SQLAlchemyError

from bot.keyed_locks import KeyedLocks
from bot.memory import can_release_memory, release_free_memory
from bot.pacing import STOPPING, Pacer
from bot.render_pool import RenderPool, auto_workers, shutdown_pools, start_search_workers
from bot.session import Autoplayer, GameService, HandoverDesk, Session, Thinking, Timekeeper, UndoDesk, open_session
from bot.settings import DatabaseUnavailable, Settings, database_problem

log = logging.getLogger(__name__)

GAME_COGS = ("cogs.hedgehog", "cogs.whist", "cogs.treasure", "cogs.combat", "cogs.assassin")
CORE_COGS = ("cogs.errors", "cogs.lobby", "cogs.announcer", "cogs.core", "cogs.ratings", "cogs.tournament")


class PyramidBot(commands.AutoShardedBot):
    """The bot: one ``Session`` over one database, a cog per game and the core extensions.

    It runs every shard Discord asks for in one process, or the shards ``SHARD_IDS`` of ``SHARD_COUNT``
    when several processes share the bot (each acts only on the games of its own guilds).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        game_cogs: tuple[str, ...] | None = None,
        new_seed: Callable[[], str] | None = None,
    ) -> None:
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            # slash commands and buttons arrive whatever the intents; the bot reads no chat, reaction or
            # typing event, so it subscribes to none: Discord would send it every message of every
            # channel it can see (its own boards included), each one decoded and parsed (docs/deploy.md)
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False),
            help_command=None,
            # the bot reads no message from discord.py's cache (it keeps its living messages in the
            # database); 1,000 boards with their menus in that cache cost about 40 MB (docs/deploy.md)
            max_messages=None,
            **shards,
        )
        self.settings = settings
        self.pacer = Pacer(settings.ack_after_seconds, settings.busy_in_flight)
        # one update of a game's living message at a time: each reads the lines of the turn so far, edits
        # the message and stores the lines with its own; two at once would lose one's lines (cogs/table.py)
        self.living_messages: KeyedLocks[int] = KeyedLocks()
        self.clock = clock
        self.game_cogs = game_cogs if game_cogs is not None else GAME_COGS
        self.new_seed = new_seed  # games' dice seeds; random unless given (tests fix them)
        self._session: Session | None = None
        self._upkeep: tasks.Loop[Any] | None = None  # gives freed memory back to the system (bot/memory.py)
        self.stopping = False  # set when stopping begins: commands and presses are then told to come back

    @property
    def session(self) -> Session:
        """The session layer (available once ``setup_hook`` has run)."""
        assert self._session is not None, "the bot has not been set up"
        return self._session

    @property
    def service(self) -> GameService:
        """The game service of the session layer."""
        return self.session.games

    @property
    def autoplay(self) -> Autoplayer:
        """The computer players of the session layer."""
        return self.session.autoplay

    @property
    def timekeeper(self) -> Timekeeper:
        """Clocks, reminders and vacations."""
        return self.session.timekeeper

    @property
    def undo(self) -> UndoDesk:
        """Undo by consent."""
        return self.session.undo

    @property
    def handover(self) -> HandoverDesk:
        """Seats handed to computer players by consent."""
        return self.session.handover

    async def setup_hook(self) -> None:
        settings = self.settings
        renderer = RenderPool(auto_workers(settings.render_workers))
        await renderer.start()
        searcher = await start_search_workers(settings.ai_workers)
        shards = None
        if settings.shard_count and settings.shard_ids is not None:
            shards = (settings.shard_count, tuple(settings.shard_ids))
        try:
            self._session = await open_session(
                settings.database_url,
                clock=self.clock,
                new_seed=self.new_seed,
                missed_turns_limit=settings.missed_turns_limit,
                vacation_days_per_year=settings.vacation_days_per_year,
                renderer=renderer,
                shards=shards,
                pool_size=settings.db_pool_size,
                max_overflow=settings.db_max_overflow,
                pool_timeout=settings.db_pool_timeout,
                ai_executor=searcher,
                thinking=Thinking.configured(settings.ai_budget_ms, settings.ai_max_iterations),
            )
        except (OSError, SQLAlchemyError) as error:
            shutdown_pools()  # the board and search processes started above: nothing will use them
            raise DatabaseUnavailable(
                f"Cannot open the database in DATABASE_URL ({database_problem(settings.database_url, error)}): "
                "check the path (its folder must be writable) or the database server, then start again."
            ) from error
        log.info("boards drawn by %s worker processes", renderer.workers or "no")
        for name in (*self.game_cogs, *CORE_COGS):
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_commands()
        settle_garbage_collector()
        if settings.memory_trim_seconds > 0 and can_release_memory():
            self._upkeep = tasks.loop(seconds=settings.memory_trim_seconds)(self._give_back_memory)
            self._upkeep.start()
        elif settings.memory_trim_seconds > 0:
            log.info("no malloc_trim in this C library: freed memory stays with the process")

    async def _give_back_memory(self) -> None:
        """Return the allocator's free pages to the system (in a thread: it walks the whole heap)."""
        await asyncio.to_thread(release_free_memory)

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
        """Stop the extensions and the computer players, let moves in flight finish and be answered,
        disconnect, then close the database (a bot's move stored after the disconnect could only be posted
        after a restart)."""
        if self._upkeep is not None:
            self._upkeep.cancel()
            self._upkeep = None
        self.stopping = True  # from here every control answers a press that the bot is restarting (cogs/buttons.py)
        for name in list(self.extensions):
            await self.unload_extension(name)
        self.tree.interaction_check = refuse_while_stopping  # type: ignore[method-assign]
        if self._session is not None:
            await self._session.autoplay.stop()  # between two actions: each is one unit of work
            await self.pacer.drain()  # the players' actions under way, until their answers are out
            await self._session.games.drain()
        await super().close()
        await self.close_session()

    async def close_session(self) -> None:
        """Stop the computer players, let work in flight finish and close the database (once; none before set-up)."""
        if self._session is not None:
            session, self._session = self._session, None
            await session.close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %s servers", self.user, len(self.guilds))


async def refuse_while_stopping(interaction: discord.Interaction) -> bool:
    """The command tree's check while the bot stops: its commands are gone with their extensions, and
    the moves in flight are being finished; a command sent meanwhile is told so privately, in time.
    (The one answer sent outside ``cogs.replies``: the process entry does not import the extensions'
    code, and those are unloaded by now.)"""
    if interaction.type is discord.InteractionType.application_command and not interaction.response.is_done():
        try:
            await interaction.response.send_message(STOPPING, ephemeral=True)
        except discord.HTTPException:
            log.info("could not tell a command sent while stopping")
    return False


GC_YOUNG_THRESHOLD = 50_000  # Python's default is 700


def settle_garbage_collector() -> None:
    """Keep the garbage collector from pausing the event loop (every interaction waits while it runs).

    What was built at start-up (modules, commands, engines) lives as long as the process: after one
    full collection, ``gc.freeze`` takes it out of every later one.  An action allocates thousands of
    short-lived objects, nearly all freed at once by reference counting; collecting the youngest
    generation every 50,000 allocations instead of every 700 lets far fewer survivors be promoted into
    the old generations, whose full collections are the long pauses.  Done once per process.
    """
    if gc.get_threshold()[0] >= GC_YOUNG_THRESHOLD:
        return
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def create_bot(settings: Settings | None = None, **kwargs: Any) -> PyramidBot:
    """Build the bot from ``settings`` (default: the environment)."""
    return PyramidBot(settings or Settings.from_env(), **kwargs)
