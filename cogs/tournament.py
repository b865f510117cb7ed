"""``/tournament ...``: create, join, check in, run and follow tournaments inside Discord.

The work is done by ``bot.tournaments.manager.TournamentManager``; this cog parses options, checks who may
organise (Manage Server, or the role named by the ``TOURNAMENT_ROLE`` setting), and gives the
manager a ``DiscordHost`` to open match threads and post announcements.  A ``tasks`` loop handles
start times, check-in windows and round deadlines, and catches up after a restart (its first run is
at start-up).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from collections.abc import Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.session import Actor, Report, ServiceError, rules_for
from bot.session.tournament_records import CHECKIN, FINISHED, REGISTRATION, RUNNING, MatchRecord, TournamentRow
from bot.tournaments.manager import (
    ELIMINATION,
    FORMAT_NAMES,
    TournamentError,
    TournamentManager,
    TournamentView,
    describe_match,
    parse_start,
    render_standings_image,
    timestamp,
)
from cogs.announcer import announcer_of
from cogs.base import CLOCK_CHOICES
from cogs.core import game_choices
from cogs.messages import NO_PINGS, report_payload, report_view
from cogs.replies import actor_of, refusals, refuse

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0xCC79A7)
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (two-player games)", value="swiss"),
    app_commands.Choice(name="Round robin (two-player games)", value="roundrobin"),
    app_commands.Choice(name="Single elimination (two-player games)", value="elimination"),
    app_commands.Choice(name="Table Swiss (games of 3 or more players)", value="tables"),
]
TOURNAMENT_CLOCK_CHOICES = [c for c in CLOCK_CHOICES if c.value != 0] + [app_commands.Choice(name="no clock", value=0)]
RESULT_SUGGESTIONS = ("win", "loss", "draw", "double forfeit")
STATUS_WORDS = {
    REGISTRATION: "registration open",
    CHECKIN: "check-in open",
    RUNNING: "running",
    FINISHED: "finished",
    "cancelled": "cancelled",
}


def has_tournament_role(member: Any, setting: str) -> bool:
    """True when ``member`` holds the configured tournament role (matched by id or by name)."""
    wanted = setting.strip()
    if not wanted:
        return False
    roles = getattr(member, "roles", ())
    return any(str(role.id) == wanted or role.name.lower() == wanted.lower() for role in roles)


def parse_options(text: str | None) -> dict[str, str]:
    """``name=value, name=value`` as a dict (values are checked by the game's option specs)."""
    out: dict[str, str] = {}
    for part in re.split(r"[,;]", text or ""):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ServiceError("Write game options as name=value, separated by commas (e.g. turn_limit=100).")
        out[name.strip()] = value.strip()
    return out


class DiscordHost:
    """The manager's hands in Discord: threads, greetings and announcements."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        if isinstance(channel, discord.Thread) and channel.archived:
            await channel.edit(archived=False)
        return channel

    async def open_match_thread(
        self, tournament: TournamentRow, title: str, user_ids: Sequence[int]
    ) -> tuple[int, int]:
        channel = await self._channel(tournament.channel_id)
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("The tournament's channel cannot hold threads; use a text channel.")
        thread = await channel.create_thread(
            name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
        for user_id in user_ids:
            try:
                await thread.add_user(discord.Object(user_id))
            except discord.HTTPException:
                log.info("could not add %s to thread %s", user_id, thread.id)
        return thread.id, channel.id

    async def post_match_start(self, tournament: TournamentRow, match: MatchRecord, report: Report, intro: str) -> None:
        assert match.thread_id is not None
        thread = await self._channel(match.thread_id)
        payload = report_payload(report, report_view(report))
        turn = payload.get("content")
        payload["content"] = intro + (f"\n{turn}" if turn else "")
        payload["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in match.players], replied_user=False
        )
        await thread.send(**payload)
        await self.bot.service.delivered(report.delivery_id)

    async def announce(
        self,
        tournament: TournamentRow,
        text: str,
        *,
        image: tuple[str, bytes] | None = None,
        mentions: Sequence[int] = (),
    ) -> None:
        channel = await self._channel(tournament.channel_id)
        kwargs: dict[str, Any] = {}
        if image is not None:
            kwargs["file"] = discord.File(io.BytesIO(image[1]), filename=image[0])
        allowed = (
            discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in mentions])
            if mentions
            else NO_PINGS
        )
        await channel.send(text[:2000], allowed_mentions=allowed, **kwargs)

    async def post(self, channel_id: int, text: str) -> None:
        channel = await self._channel(channel_id)
        await channel.send(text[:2000], allowed_mentions=NO_PINGS)


class TournamentButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"pt:(?P<action>join|checkin):(?P<tournament>[0-9]+)"
):
    """Join or Check in under a tournament's announcement; keeps working after a restart."""

    def __init__(self, action: str, tournament_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join" if action == "join" else "Check in",
                style=discord.ButtonStyle.success,
                custom_id=f"pt:{action}:{tournament_id}",
            )
        )
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> TournamentButton:
        return cls(match["action"], int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("TournamentCommands")  # type: ignore[attr-defined]
        if cog is None:
            await refuse(interaction, "Tournaments are not available right now.")
            return
        await cog.press(interaction, self.action, self.tournament_id)


def tournament_buttons(tournament: TournamentRow) -> discord.ui.View | None:
    """Join (while registration is open) and Check in (during check-in) buttons."""
    if not tournament.is_open:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("join", tournament.id))
    if tournament.status == CHECKIN:
        view.add_item(TournamentButton("checkin", tournament.id))
    return view


def tournament_embed(view: TournamentView) -> discord.Embed:
    """The tournament card: settings, players and the current round."""
    t = view.tournament
    rules = view.rules
    embed = discord.Embed(title=f"{t.name} (#{t.id})", colour=COLOUR)
    options = ", ".join(f"{k}: {v}" for k, v in t.options.items()) or "standard"
    rounds = f"{t.rounds}" if t.rounds else ("decided at the start" if t.format != ELIMINATION else "by the bracket")
    embed.description = (
        f"{FORMAT_NAMES[t.format]} of **{rules.title}** ({options}) · {STATUS_WORDS.get(t.status, t.status)}"
    )
    active = [p for p in view.players if p.status == "active"]
    shown = active if t.status in (RUNNING, FINISHED) else view.players
    limit = f"/{t.max_players}" if t.max_players else ""
    names = ", ".join(p.display_name for p in shown) or "nobody yet"
    embed.add_field(name=f"Players ({len(shown)}{limit})", value=names[:1024], inline=False)
    if t.status == RUNNING:
        embed.add_field(name="Round", value=f"{t.current_round} of {t.rounds}", inline=True)
    else:
        embed.add_field(name="Rounds", value=rounds, inline=True)
    embed.add_field(name="Move clock", value=f"{t.clock_days} day(s)" if t.clock_days else "none", inline=True)
    if t.round_days:
        embed.add_field(name="Round deadline", value=f"{t.round_days} day(s) per round", inline=True)
    if t.start_at and t.is_open:
        embed.add_field(name="Start", value=f"{timestamp(t.start_at)} ({timestamp(t.start_at, 'R')})", inline=True)
    if t.checkin_minutes:
        if t.status == CHECKIN and t.checkin_until:
            checked = sum(1 for p in view.players if p.checked_in)
            value = f"open until {timestamp(t.checkin_until, 'R')} · {checked} checked in"
        else:
            value = f"{t.checkin_minutes} minutes before the start"
        embed.add_field(name="Check-in", value=value, inline=True)
    if view.matches:
        lines = [describe_match(m, view.names, t.format) for m in view.matches]
        if t.round_deadline:
            lines.append(f"Round deadline: {timestamp(t.round_deadline)}")
        embed.add_field(name=f"Round {t.current_round}", value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=f"Tournament #{t.id} · /tournament join · /tournament standings")
    return embed


TournamentOption = app_commands.Range[int, 1, 1_000_000_000]


class TournamentCommands(commands.GroupCog, group_name="tournament", group_description="Tournaments on this server"):
    """``/tournament create|join|leave|checkin|start|status|standings|drop|kick|adjudicate|cancel|export``."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        self.manager: TournamentManager | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        super().__init__()

    # ------------------------------------------------------------------ lifecycle

    async def cog_load(self) -> None:
        service = self.bot.service
        self.manager = TournamentManager(
            service,
            self.bot.session.records,
            DiscordHost(self.bot),
            ratings=self.bot.session.ratings,
            clock=service.clock,
            spawn=self._spawn,
        )
        service.listeners.append(self.manager.on_report)
        self.bot.add_dynamic_items(TournamentButton)
        self.scheduler.change_interval(seconds=self.bot.settings.scheduler_interval_seconds)
        self.scheduler.start()

    async def cog_unload(self) -> None:
        self.scheduler.cancel()
        if self.manager is not None and self.manager.on_report in self.bot.service.listeners:
            self.bot.service.listeners.remove(self.manager.on_report)
        self.bot.remove_dynamic_items(TournamentButton)
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

    @tasks.loop(seconds=60)
    async def scheduler(self) -> None:
        """Start times, check-in windows, round deadlines and catch-up (the first run is at start-up)."""
        try:
            await self.tournaments.tick()
            await self.tournaments.enforce_deadlines(self.bot.timekeeper.tick)
        except Exception:
            log.exception("tournament check failed")
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
            label = f"#{t.id} {t.name} — {FORMAT_NAMES[t.format]}, {STATUS_WORDS.get(t.status, t.status)}"
            if not typed or typed in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=t.id))
        return out[:25]

    async def press(self, interaction: discord.Interaction, action: str, tournament_id: int) -> None:
        """A Join or Check in button."""
        try:
            if action == "join":
                tournament, count = await self.tournaments.join(tournament_id, actor_of(interaction))
                await self._joined(interaction, tournament, count)
            else:
                tournament = await self.tournaments.checkin(tournament_id, actor_of(interaction))
                await interaction.response.send_message(
                    f"{interaction.user.display_name} is checked in for {tournament.name}.", allowed_mentions=NO_PINGS
                )
        except ServiceError as error:
            await refuse(interaction, str(error))

    async def _joined(self, interaction: discord.Interaction, tournament: TournamentRow, count: int) -> None:
        limit = f"/{tournament.max_players}" if tournament.max_players else ""
        checked = " and checked in" if tournament.status == CHECKIN else ""
        await interaction.response.send_message(
            f"{interaction.user.display_name} joins {tournament.name}{checked} "
            f"({count}{limit} player{'' if count == 1 and not limit else 's'}).",
            allowed_mentions=NO_PINGS,
        )

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
        channel="Where to announce and open the match threads (default: here, a channel or a thread)",
        variant="The game's variant, if it has one (e.g. short for Martian Whist)",
        options="Other game options as name=value, separated by commas",
    )
    @app_commands.choices(game=game_choices(), format=FORMAT_CHOICES, clock=TOURNAMENT_CLOCK_CHOICES)
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
        channel: discord.TextChannel | None = None,
        variant: app_commands.Range[str, 1, 40] | None = None,
        options: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        actor = self.organiser(interaction)
        rules = rules_for(game)
        settings: dict[str, Any] = parse_options(options)
        if variant is not None:
            if not any(spec.name == "variant" for spec in rules.options):
                raise ServiceError(f"{rules.title} has no variants.")
            settings["variant"] = variant
        now = self.bot.service.clock()
        start_at = parse_start(start, now) if start else None
        target = channel or interaction.channel
        hosted_in_thread = isinstance(target, discord.Thread) and isinstance(target.parent, discord.TextChannel)
        if not isinstance(target, discord.TextChannel) and not hosted_in_thread:
            raise ServiceError("Create tournaments in a text channel or one of its threads (match threads open there).")
        tournament = await self.tournaments.create(
            guild_id=interaction.guild_id,
            channel_id=target.id,
            actor=actor,
            name=name,
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
        )
        view = await self.tournaments.view(tournament.id)
        text = f"{interaction.user.display_name} created **{tournament.name}**: join with `/tournament join`."
        buttons = tournament_buttons(tournament)
        if target.id != interaction.channel_id:
            await target.send(
                text, embed=tournament_embed(view), view=buttons or discord.utils.MISSING, allowed_mentions=NO_PINGS
            )
            await interaction.response.send_message(
                f"Created {tournament.name} (#{tournament.id}) in {target.mention}.", ephemeral=True
            )
            return
        await interaction.response.send_message(
            text, embed=tournament_embed(view), view=buttons or discord.utils.MISSING, allowed_mentions=NO_PINGS
        )

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
        joined, count = await self.tournaments.join(picked.id, actor_of(interaction))
        await self._joined(interaction, joined, count)

    @app_commands.command(name="leave", description="Withdraw your registration before the tournament starts.")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def leave(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        left = await self.tournaments.leave(picked.id, actor_of(interaction))
        await interaction.response.send_message(
            f"{interaction.user.display_name} is no longer registered for {left.name}.", allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="checkin", description="Confirm you will play (during the check-in window).")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def checkin(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        done = await self.tournaments.checkin(picked.id, actor_of(interaction))
        await interaction.response.send_message(
            f"{interaction.user.display_name} is checked in for {done.name}.", allowed_mentions=NO_PINGS
        )

    @app_commands.command(
        name="start",
        description="Start a tournament, or open its check-in first (Manage Server or the tournament role).",
    )
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def start(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        what = await self.tournaments.start(picked.id, self.organiser(interaction))
        if what == "checkin":
            fresh = await self.tournaments.get(picked.id)
            await interaction.response.send_message(
                f"Check-in for {fresh.name} is open; it starts when the window closes "
                f"({timestamp(fresh.checkin_until, 'R') if fresh.checkin_until else 'soon'}).",
                view=tournament_buttons(fresh) or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
            )
            return
        await interaction.response.send_message(
            f"{picked.name} has started: the pairings and match threads are posted in <#{picked.channel_id}>.",
            allowed_mentions=NO_PINGS,
        )

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
                lines = [
                    f"#{t.id} **{t.name}** — {FORMAT_NAMES[t.format]} of {rules_for(t.game).title}, "
                    f"{STATUS_WORDS.get(t.status, t.status)}"
                    for t in rows
                ]
                embed = discord.Embed(title="Tournaments on this server", description="\n".join(lines)[:4000])
                embed.set_footer(text="Pick one with the tournament option.")
                await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)
                return
        else:
            picked = await self._pick(interaction, tournament)
        view = await self.tournaments.view(picked.id)
        await interaction.response.send_message(
            embed=tournament_embed(view),
            view=tournament_buttons(view.tournament) or discord.utils.MISSING,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="standings", description="Standings with tiebreaks (the bracket, for elimination).")
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def standings(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament)
        if picked.is_open or (picked.status == "cancelled" and not picked.current_round):
            raise ServiceError(f"{picked.name} has not started: there are no standings yet.")
        standings = await self.tournaments.standings(picked.id)
        png = await render_standings_image(standings)
        kind = "bracket" if standings.bracket is not None else "standings"
        await interaction.response.send_message(
            f"**{picked.name}** — {kind} ({standings.subtitle}).",
            file=discord.File(io.BytesIO(png), filename=f"{kind}.png"),
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(
        name="drop", description="Withdraw from a running tournament (your current game is resigned)."
    )
    @app_commands.describe(tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def drop(self, interaction: discord.Interaction, tournament: TournamentOption | None = None) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        await self.tournaments.drop(picked.id, actor_of(interaction))
        await interaction.response.send_message(
            f"{interaction.user.display_name} withdraws from {picked.name}.", allowed_mentions=NO_PINGS
        )

    @app_commands.command(
        name="kick", description="Remove a player from a tournament (Manage Server or the tournament role)."
    )
    @app_commands.describe(player="The player to remove", tournament="Which tournament (default: the one here)")
    @app_commands.guild_only()
    @refusals
    async def kick(
        self, interaction: discord.Interaction, player: discord.Member, tournament: TournamentOption | None = None
    ) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        _done, name = await self.tournaments.kick(picked.id, self.organiser(interaction), player.id)
        await interaction.response.send_message(
            f"{name} was removed from {picked.name} by {interaction.user.display_name}.", allowed_mentions=NO_PINGS
        )

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
        player: discord.Member,
        result: app_commands.Range[str, 1, 60],
        round: app_commands.Range[int, 1, 100] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        picked = await self._pick(interaction, tournament, live_only=True)
        done, match = await self.tournaments.adjudicate(
            picked.id, self.organiser(interaction), player.id, result, round
        )
        names = (await self.tournaments.view(done.id)).names
        await interaction.response.send_message(
            f"Result set by {interaction.user.display_name}: " + describe_match(match, names, done.format),
            allowed_mentions=NO_PINGS,
        )

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
        await interaction.response.send_message(
            f"{picked.name} was cancelled by {interaction.user.display_name}; its running games are stopped.",
            allowed_mentions=NO_PINGS,
        )

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
        await interaction.response.send_message(
            f"**{picked.name}** as JSON.",
            file=discord.File(io.BytesIO(raw), filename=f"tournament-{picked.id}.json"),
            allowed_mentions=NO_PINGS,
        )

    for _command in (join, leave, checkin, start, status, standings, drop, kick, adjudicate, cancel, export):
        _command.autocomplete("tournament")(tournament_autocomplete)
    del _command


async def setup(bot: PyramidBot) -> None:
    """Load the tournament commands."""
    await bot.add_cog(TournamentCommands(bot))
