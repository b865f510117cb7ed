"""The base of every game's command group: join, leave, start, move, roll and board.

A game's cog subclasses ``GameCog`` with its ``group_name`` and adds its own ``new`` command
(with the game's options) that calls ``create``.  Refusals are ephemeral single sentences.
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import Actor, Report, ServiceError, rules_for
from cogs.buttons import buttons
from cogs.messages import NO_PINGS, lobby_embed, players_line, report_payload

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

CLOCK_CHOICES = [
    app_commands.Choice(name="no clock", value=0),
    *[app_commands.Choice(name=f"{d} day{'s' if d > 1 else ''} per move", value=d) for d in (1, 2, 3, 5, 7, 14)],
]
AUTOCOMPLETE_LIMIT = 25
NEW_GAME_DESCRIPTIONS = {
    "clock": "Time allowed per move",
    "bank": "Extra days each player may draw on when a move takes longer (needs a clock)",
    "thread": "Play in a new thread of this channel",
}


def refusals(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Let a command's ``ServiceError`` become its ephemeral reply instead of an error.

    The wrapper carries the callback's resolved signature, so discord.py still sees every option.
    """
    hints = typing.get_type_hints(func, include_extras=True)
    signature = inspect.signature(func)
    signature = signature.replace(
        parameters=[p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()]
    )

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except ServiceError as error:
            await refuse(interaction, str(error))

    del wrapper.__wrapped__  # type: ignore[attr-defined]
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    return wrapper


def actor_of(interaction: discord.Interaction) -> Actor:
    """The service's view of the user behind ``interaction``."""
    user = interaction.user
    perms = getattr(interaction, "permissions", None)
    can_manage = bool(perms and (perms.manage_guild or perms.administrator))
    return Actor(user.id, getattr(user, "display_name", user.name), can_manage)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """Tell only the caller, in one sentence, why nothing happened."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(message, ephemeral=True, allowed_mentions=NO_PINGS)


def report_view(report: Report) -> discord.ui.View | None:
    """The buttons under a move's reply: Roll when the next player must roll, Rematch at the end."""
    if report.outcome is not None or report.game.status in ("finished", "aborted"):
        return buttons(report.game.id, "rematch")
    if report.needs_roll:
        return buttons(report.game.id, "roll")
    return None


async def post_report(interaction: discord.Interaction, report: Report) -> None:
    """Reply to ``interaction`` with the embed and board of ``report``."""
    payload = report_payload(report, report_view(report))
    if interaction.response.is_done():
        await interaction.followup.send(**payload)
    else:
        await interaction.response.send_message(**payload)


async def post_lobby(interaction: discord.Interaction, bot: PyramidBot, channel_id: int, note: str) -> None:
    """Show the open game's players with Join and Start buttons."""
    game = await bot.service.store.live_game(channel_id)
    if game is None:
        await interaction.response.send_message(note, allowed_mentions=NO_PINGS)
        return
    rules = rules_for(game.game)
    await interaction.response.send_message(
        note,
        embed=lobby_embed(game, rules.title, rules.min_players),
        view=buttons(game.id, "join", "start"),
        allowed_mentions=NO_PINGS,
    )


async def post_board(interaction: discord.Interaction, bot: PyramidBot, with_players: bool = False) -> None:
    """Show the channel's game to anyone who asks (no pings): the lobby, or the board and status."""
    report = await bot.service.board(interaction.channel_id)
    if report.state is None:
        await post_lobby(interaction, bot, interaction.channel_id, "Waiting for players.")
        return
    payload = report_payload(report)
    payload.pop("content", None)
    payload["allowed_mentions"] = NO_PINGS
    if with_players:
        payload["embed"].insert_field_at(0, name="Players", value=players_line(report.game)[:1024], inline=False)
    await interaction.response.send_message(**payload)


class GameCog(commands.GroupCog):
    """Shared commands of a game group; subclasses set ``game_name`` and add ``new``."""

    game_name: ClassVar[str] = ""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def rules(self) -> Any:
        """The game's rules object."""
        return rules_for(self.game_name)

    async def create(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        *,
        players: int | None = None,
        clock: int = 0,
        bank: int = 0,
        thread: bool = False,
    ) -> None:
        """Open a new game of this cog's kind in the channel (or a new thread) with the caller seated."""
        await self.bot.open_game(
            interaction, self.game_name, options, players=players, clock=clock, bank=bank, thread=thread
        )

    @app_commands.command(name="join", description="Join the game waiting for players in this channel.")
    @refusals
    async def join(self, interaction: discord.Interaction) -> None:
        actor = actor_of(interaction)
        game = await self.bot.service.join(interaction.channel_id, actor)
        await post_lobby(
            interaction, self.bot, interaction.channel_id, f"{actor.name} joins ({len(game.seats)}/{game.max_players})."
        )

    @app_commands.command(name="leave", description="Leave the game before it starts.")
    @refusals
    async def leave(self, interaction: discord.Interaction) -> None:
        actor = actor_of(interaction)
        game = await self.bot.service.leave(interaction.channel_id, actor)
        if game.status == "aborted":
            await interaction.response.send_message(
                f"{actor.name} leaves; the game is closed.", allowed_mentions=NO_PINGS
            )
        else:
            await post_lobby(interaction, self.bot, interaction.channel_id, f"{actor.name} leaves.")

    @app_commands.command(name="start", description="Start the game once enough players have joined.")
    @refusals
    async def start(self, interaction: discord.Interaction) -> None:
        report = await self.bot.service.start(interaction.channel_id, actor_of(interaction))
        await post_report(interaction, report)

    @app_commands.command(name="move", description="Make a move in this channel's game (type to see your legal moves).")
    @app_commands.describe(notation="Your move in the game's notation; suggestions list your legal moves.")
    @refusals
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]) -> None:
        report = await self.bot.service.move(interaction.channel_id, actor_of(interaction), notation)
        await post_report(interaction, report)

    @move.autocomplete("notation")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal moves that fit what they typed."""
        return await self.suggestions(interaction, current)

    @staticmethod
    def choice_label(notation: str, description: str) -> str:
        """How a legal move is shown in the suggestions (a game may say it more briefly)."""
        return notation if description.lower().startswith(notation.lower()) else f"{notation} — {description}"

    @staticmethod
    def matches(typed: str, notation: str, label: str) -> bool:
        """True when what the player typed fits a suggestion: part of the notation or of its label."""
        key = "".join(typed.lower().split())
        return not key or key in "".join(notation.lower().split()) or typed.strip().lower() in label.lower()

    async def suggestions(
        self,
        interaction: discord.Interaction,
        current: str,
        keep: Callable[[str], bool] | None = None,
        value: Callable[[str], str] | None = None,
    ) -> list[app_commands.Choice[str]]:
        """Up to 25 of the caller's legal moves (those ``keep`` accepts) that fit what they typed."""
        moves = await self.bot.service.legal_moves(interaction.channel_id, interaction.user.id)
        out: list[app_commands.Choice[str]] = []
        for notation, description in moves:
            if keep is not None and not keep(notation):
                continue
            label = self.choice_label(notation, description)
            if self.matches(current, notation, label):
                shown = value(notation) if value is not None else notation
                out.append(app_commands.Choice(name=label[:100], value=shown[:100]))
                if len(out) >= AUTOCOMPLETE_LIMIT:
                    break
        return out

    @app_commands.command(name="roll", description="Roll the dice when it is your turn to roll.")
    @refusals
    async def roll(self, interaction: discord.Interaction) -> None:
        report = await self.bot.service.roll(interaction.channel_id, actor_of(interaction))
        await post_report(interaction, report)

    @app_commands.command(name="board", description="Show the board of this channel's game (anyone may look).")
    @refusals
    async def board(self, interaction: discord.Interaction) -> None:
        await post_board(interaction, self.bot)
