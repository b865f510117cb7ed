"""``/tournament ...``: the GroupCog that parses options, checks organisers and replies to members.

The work is done by ``bot.tournaments.manager.TournamentManager``, given a ``DiscordHost`` to open
match threads and post what happens.  A ``tasks`` loop handles start times, check-in windows and
round deadlines, and catches up after a restart (its first run is at start-up).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.session import Actor, ServiceError, rules_for
from bot.session.tournament_records import CANCELLED, TournamentRow
from bot.tournaments.errors import CheckinNotOpen, TournamentError
from bot.tournaments.manager import TournamentManager
from cogs import permissions
from cogs.base import CLOCK_CHOICES
from cogs.help import game_choices
from cogs.loops import cancel_between_iterations
from cogs.messages import NO_PINGS
from cogs.replies import actor_of, answer, answer_at, refusals, tell
from cogs.text import without_backticks
from cogs.tournament import _wording as wording
from cogs.tournament._buttons import TournamentButton, tournament_buttons
from cogs.tournament._host import DiscordHost
from cogs.tournament._images import standings_file
from cogs.tournament._parsing import parse_options, parse_start

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (two-player games)", value="swiss"),
    app_commands.Choice(name="Round robin (two-player games)", value="roundrobin"),
    app_commands.Choice(name="Single elimination (two-player games)", value="elimination"),
    app_commands.Choice(name="Table Swiss (games of 3 or more players)", value="tables"),
]
TOURNAMENT_CLOCK_CHOICES = [c for c in CLOCK_CHOICES if c.value != 0] + [app_commands.Choice(name="no clock", value=0)]
RESULT_SUGGESTIONS = ("win", "loss", "draw", "double forfeit")

TournamentOption = app_commands.Range[int, 1, 1_000_000_000]


def has_tournament_role(member: Any, setting: str) -> bool:
    """True when ``member`` holds the configured tournament role (matched by id or by name)."""
    wanted = setting.strip()
    if not wanted:
        return False
    roles = getattr(member, "roles", ())
    return any(str(role.id) == wanted or role.name.lower() == wanted.lower() for role in roles)


def with_buttons(tournament: TournamentRow, **payload: Any) -> dict[str, Any]:
    """``payload`` with the tournament's Join / Check in buttons when it has any."""
    buttons = tournament_buttons(tournament)
    return {**payload, "view": buttons} if buttons is not None else payload


class TournamentCommands(commands.GroupCog, group_name="tournament", group_description="Tournaments on this server"):
    """``/tournament create|join|leave|checkin|start|status|standings|drop|kick|adjudicate|cancel|export``."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        self.manager: TournamentManager | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._checking = asyncio.Lock()  # held while a scheduler check runs
        super().__init__()

    # ------------------------------------------------------------------ lifecycle

    async def cog_load(self) -> None:
        service = self.bot.service
        self.host = DiscordHost(self.bot)
        self.manager = TournamentManager(
            service,
            self.bot.session.records,
            self.host,
            ratings=self.bot.session.ratings,
            clock=service.clock,
            spawn=self._spawn,
        )
        service.listeners.append(self.manager.on_report)
        self.bot.add_dynamic_items(TournamentButton)
        self.scheduler.change_interval(seconds=self.bot.settings.scheduler_interval_seconds)
        self.scheduler.start()

    async def cog_unload(self) -> None:
        await cancel_between_iterations(self.scheduler, self._checking)
        if self.manager is not None and self.manager.on_report in self.bot.service.listeners:
            self.bot.service.listeners.remove(self.manager.on_report)
        if self._tasks:  # let rounds being paired finish: every step is stored, but a clean stop is nicer
            await asyncio.wait(list(self._tasks), timeout=10)

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._guarded(coroutine))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        try:
            await coroutine
        except Exception:
            log.exception("tournament work failed")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: its live tournaments are cancelled (their games end with no
        result, by the announcer), so no deadline goes on deciding rounds nobody can play."""
        try:
            cancelled = await self.tournaments.guild_left(guild.id)
        except Exception:
            log.exception("could not cancel the tournaments of server %s, which the bot left", guild.id)
            return
        for tournament in cancelled:
            log.info("tournament %s cancelled: the bot left its server %s", tournament.id, guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): the live tournaments of a server that removed the bot while it was stopped are
        cancelled now, as at ``on_guild_remove``.  Nothing is cancelled while the bot sees no server."""
        present = [guild.id for guild in self.bot.guilds]
        if not present:
            return
        try:
            cancelled = await self.tournaments.guilds_gone(present)
        except Exception:
            log.exception("could not cancel the tournaments of servers the bot has left")
            return
        for tournament in cancelled:
            log.info(
                "tournament %s cancelled: the bot is no longer in its server %s", tournament.id, tournament.guild_id
            )

    @tasks.loop(seconds=60)
    async def scheduler(self) -> None:
        """Start times, check-in windows, round deadlines and catch-up (the first run is at start-up)."""
        async with self._checking:
            try:
                await self.tournaments.tick()
                await self.tournaments.enforce_deadlines(self.bot.timekeeper.tick)
            except Exception:
                log.exception("tournament check failed")
            # looked up now: the announcer extension may have been loaded again since this module was
            from cogs.announcer import announcer_of

            await announcer_of(self.bot).flush()

    @scheduler.before_loop
    async def _before_scheduler(self) -> None:
        await self.bot.wait_until_ready()

    @property
    def tournaments(self) -> TournamentManager:
        """The manager (set up in ``cog_load``)."""
        assert self.manager is not None
        return self.manager

    # ------------------------------------------------------------------ helpers

    def organiser(self, interaction: discord.Interaction) -> Actor:
        """The caller as an actor whose ``can_manage`` means: may run tournaments here."""
        actor = actor_of(interaction)
        allowed = actor.can_manage or has_tournament_role(interaction.user, self.bot.settings.tournament_role)
        return replace(actor, can_manage=allowed)

    async def _pick(
        self, interaction: discord.Interaction, tournament: int | None, *, live_only: bool = False
    ) -> TournamentRow:
        return await self.tournaments.resolve(
            interaction.guild_id, interaction.channel_id, tournament, live_only=live_only
        )

    async def tournament_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The server's tournaments, live ones first."""
        if interaction.guild_id is None:
            return []
        typed = current.strip().lower().lstrip("#")
        out = []
        for t in await self.tournaments.listing(interaction.guild_id):
            label = wording.choice_label(t)
            if not typed or typed in label.lower():
                out.append(app_commands.Choice(name=label, value=t.id))
        return out[:25]

    async def press(self, interaction: discord.Interaction, action: str, tournament_id: int) -> None:
        """A Join or Check in button (run guarded: a refusal is one private sentence)."""
        if action == "join":
            await self._join(interaction, tournament_id)
        else:
            await self._checkin(interaction, tournament_id)

    async def _join(self, interaction: discord.Interaction, tournament_id: int) -> None:
        tournament, count = await self.tournaments.join(tournament_id, actor_of(interaction))
        await answer(interaction, content=wording.joined(interaction.user.display_name, tournament, count))

    async def _checkin(self, interaction: discord.Interaction, tournament_id: int) -> None:
        try:
            tournament = await self.tournaments.checkin(tournament_id, actor_of(interaction))
        except CheckinNotOpen as refusal:
            raise ServiceError(wording.checkin_not_open(refusal)) from None
        await answer(interaction, content=wording.checked_in(interaction.user.display_name, tournament))

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="create", description="Create a tournament (Manage Server or the tournament role).")
    @app_commands.describe(
        name="The tournament's name",
        game="The game played",
        format="Swiss, round robin or single elimination (two players), or table Swiss (3+ players)",
        rounds="Swiss and table Swiss: number of rounds (default: log2 of the field for Swiss, 3 for tables)",
        clock="Time allowed per move in every match (default 3 days)",
        round_days="Optional round deadline in days: then unfinished games are timed out",
        start="Optional start time: a delay like 2h or 1d 6h, or a UTC date like 2026-05-01 18:00",
        checkin="Optional check-in window in minutes before the start (players confirm with /tournament checkin)",
        max_players="Optional player limit",
        table_size="Table Swiss: the preferred table size",
        bots="Swiss and table Swiss: hard computer players play byes and fill tables up to table_size",
        channel="Where to announce and open the match threads (default: here, a channel or a thread)",
        variant="The game's variant, if it has one (e.g. short for Martian Whist)",
        options="Other game options as name=value, separated by commas",
    )
    @app_commands.choices(game=game_choices(), format=FORMAT_CHOICES)
    @app_commands.choices(clock=TOURNAMENT_CLOCK_CHOICES)
    @app_commands.guild_only()
    @refusals
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        clock: int = 3,
        round_days: app_commands.Range[int, 1, 90] | None = None,
        start: app_commands.Range[str, 1, 40] | None = None,
        checkin: app_commands.Range[int, 0, 10080] | None = None,
        max_players: app_commands.Range[int, 2, 512] | None = None,
        table_size: app_commands.Range[int, 3, 10] | None = None,
        bots: bool = False,
        channel: discord.TextChannel | None = None,
        variant: app_commands.Range[str, 1, 40] | None = None,
        options: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        actor = self.organiser(interaction)
        rules = rules_for(game)
        settings: dict[str, Any] = parse_options(options)
        if variant is not None:
            if "variant" in settings:
                raise ServiceError("Give the variant once: with the variant option or in options, not both.")
            if not any(spec.name == "variant" for spec in rules.options):
                raise ServiceError(f"{rules.title} has no variants.")
            settings["variant"] = variant
        start_at = parse_start(start, self.bot.service.clock()) if start else None
        if interaction.guild_id is None:
            raise ServiceError("Tournaments run in servers, not in direct messages.")
        target = channel or interaction.channel
        hosted_in_thread = isinstance(target, discord.Thread) and isinstance(target.parent, discord.TextChannel)
        if not isinstance(target, discord.TextChannel) and not hosted_in_thread:
            raise ServiceError("Create tournaments in a text channel or one of its threads (match threads open there).")
        assert isinstance(target, discord.TextChannel | discord.Thread)
        missing = permissions.missing(target, threads=True)  # match threads open there
        if missing:
            raise ServiceError(
                f"I may not {permissions.listed(missing)} in {target.mention}: choose another channel, "
                "or ask a server manager for those permissions."
            )
        tournament = await self.tournaments.create(
            guild_id=interaction.guild_id,
            channel_id=target.id,
            actor=actor,
            name=without_backticks(name),
            game=game,
            format=format,
            options=settings,
            rounds=rounds,
            clock_days=clock or None,
            round_days=round_days,
            start_at=start_at,
            checkin_minutes=checkin,
            max_players=max_players,
            table_size=table_size,
            bots=bots,
        )
        view = await self.tournaments.view(tournament.id)
        card = with_buttons(
            tournament,
            content=wording.created(interaction.user.display_name, tournament),
            embed=wording.tournament_embed(view),
        )
        if target.id != interaction.channel_id:
            posted = (await target.send(**card, allowed_mentions=NO_PINGS)).id
            await tell(interaction, wording.created_elsewhere(tournament, target.mention))
        else:
            posted = await answer_at(interaction, **card)
        # its buttons follow the registration: Check in added with the check-in, all gone at the start
        await self.host.keep_card(tournament, target.id, posted)

    @create.autocomplete("variant")
    async def variant_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The chosen game's variants."""
        game = getattr(interaction.namespace, "game", None)
        try:
            rules = rules_for(game) if game else None
        except ServiceError:
            return []
        spec = next((s for s in rules.options if s.name == "variant"), None) if rules else None
        if spec is None:
            return []
        return [app_commands.Choice(name=str(c), value=str(c)) for c in spec.choices if current.lower() in str(c)][:25]

    @app_commands.command(name="join", description="Register for a tournament.")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def join(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        await self._join(interaction, picked.id)

    @app_commands.command(name="leave", description="Withdraw your registration before the tournament starts.")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def leave(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        left = await self.tournaments.leave(picked.id, actor_of(interaction))
        await answer(interaction, content=wording.left(interaction.user.display_name, left))

    @app_commands.command(name="checkin", description="Confirm you will play (during the check-in window).")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def checkin(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        await self._checkin(interaction, picked.id)

    @app_commands.command(
        name="start",
        description="Start a tournament, or open its check-in first (Manage Server or the tournament role).",
    )
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def start(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        channel = self.bot.get_channel(picked.channel_id)
        if missing := permissions.missing(channel, threads=True):  # the channel may have changed since its creation
            raise ServiceError(
                f"I may not {permissions.listed(missing)} in <#{picked.channel_id}> any more: ask a server manager "
                "for those permissions, then start it again."
            )
        what = await self.tournaments.start(picked.id, self.organiser(interaction))
        # the channel was told (the check-in call with its buttons, or the start): the organiser is answered alone
        if what == "checkin":
            await tell(interaction, wording.checkin_started(await self.tournaments.get(picked.id)))
            return
        await tell(interaction, wording.started(picked))

    @app_commands.command(name="status", description="A tournament's settings, players and current round.")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def status(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        if tournament is None and interaction.guild_id is not None:
            try:
                picked = await self._pick(interaction, None)
            except TournamentError as error:
                if not str(error).startswith("Several"):
                    raise
                rows = [t for t in await self.tournaments.listing(interaction.guild_id) if not t.is_over]
                await answer(interaction, embed=wording.listing_embed(rows))
                return
        else:
            picked = await self._pick(interaction, tournament)
        view = await self.tournaments.view(picked.id)
        shown = with_buttons(view.tournament, embed=wording.tournament_embed(view))
        posted = await answer_at(interaction, **shown)
        if "view" in shown and interaction.channel_id is not None:  # its buttons follow the registration too
            await self.host.keep_card(view.tournament, interaction.channel_id, posted)

    @app_commands.command(name="standings", description="Standings with tiebreaks (the bracket, for elimination).")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def standings(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament)
        if picked.is_open or (picked.status == CANCELLED and not picked.current_round):
            raise ServiceError(f"{picked.name} has not started: there are no standings yet.")
        standings = await self.tournaments.standings(picked.id)
        image = await standings_file(standings, f"{wording.standings_kind(standings)}.png")
        await answer(interaction, content=wording.standings_caption(picked, standings), file=image)

    @app_commands.command(
        name="drop", description="Withdraw from a running tournament (your current game is resigned)."
    )
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def drop(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        await self.tournaments.drop(picked.id, actor_of(interaction))
        await answer(interaction, content=wording.dropped(interaction.user.display_name, picked))

    @app_commands.command(
        name="kick", description="Remove a player from a tournament (Manage Server or the tournament role)."
    )
    @app_commands.describe(player="The player to remove", tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def kick(
        self, interaction: discord.Interaction, player: discord.User, tournament: TournamentOption | None = None
    ) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        _done, name = await self.tournaments.kick(picked.id, self.organiser(interaction), player.id)
        await answer(interaction, content=wording.kicked(name, picked, interaction.user.display_name))

    @app_commands.command(
        name="adjudicate", description="Set the result of a player's match (Manage Server or the tournament role)."
    )
    @app_commands.describe(
        player="A player of the match",
        result="For that player: win, loss, draw, or double forfeit; at a table: every place in seat order (2 1 3)",
        round="The round (default: the current one)",
        tournament="Which tournament (default: the one here)",
    )
    @app_commands.guild_only()
    @refusals
    async def adjudicate(
        self,
        interaction: discord.Interaction,
        player: discord.User,
        result: app_commands.Range[str, 1, 60],
        round: app_commands.Range[int, 1, 100] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        done, match = await self.tournaments.adjudicate(
            picked.id, self.organiser(interaction), player.id, result, round
        )
        names = (await self.tournaments.view(done.id)).names
        await answer(interaction, content=wording.adjudicated(interaction.user.display_name, match, names, done.format))

    @adjudicate.autocomplete("result")
    async def result_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The usual two-player results."""
        return [app_commands.Choice(name=r, value=r) for r in RESULT_SUGGESTIONS if current.lower() in r]

    @app_commands.command(name="cancel", description="Cancel a tournament (Manage Server or the tournament role).")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def cancel(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        await self.tournaments.cancel(picked.id, self.organiser(interaction))
        await answer(interaction, content=wording.cancelled_by(picked, interaction.user.display_name))
        await self.host.refresh_cards(picked)  # nothing left to join

    @app_commands.command(
        name="export", description="Download a tournament as JSON: settings, players, rounds, results."
    )
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def export(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament)
        data = await self.tournaments.export(picked.id)
        raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
        await answer(
            interaction,
            content=wording.exported(picked),
            file=discord.File(io.BytesIO(raw), filename=f"tournament-{picked.id}.json"),
        )

    for _command in (join, leave, checkin, start, status, standings, drop, kick, adjudicate, cancel, export):
        _command.autocomplete("tournament")(tournament_autocomplete)
    del _command
