"""The base of every game's command group: join, leave, start, move and board (and roll, with dice).

A game's cog subclasses ``GameCog`` (``DiceGameCog`` when the game has dice) with its ``group_name``
and adds its own ``new`` command (with the game's options) that calls ``create``.
Refusals are ephemeral single sentences.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.session import MoveOption, OptionSpec, ServiceError, TableRefused, catalogue, rules_for
from cogs import lobby, seats, table
from cogs.messages import NO_PINGS, players_line, plural, report_payload
from cogs.replies import actor_of, answer, channel_of, paced_here, refusals
from cogs.text import CHOICE_TEXT, shorten

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

CLOCK_CHOICES = [
    app_commands.Choice(name="no clock", value=0),
    *[app_commands.Choice(name=f"{d} day{'s' if d > 1 else ''} per move", value=d) for d in (1, 2, 3, 5, 7, 14)],
]
AUTOCOMPLETE_LIMIT = 25
NEW_GAME_DESCRIPTIONS = {
    "bots": "Computer players to seat at once (the game is then unrated)",
    "bot_level": "How well those computer players play (default normal)",
    "clock": "Time allowed per move",
    "bank": "Extra days each player may draw on when a move takes longer (needs a clock)",
    "thread": "Play in a new thread of this channel",
}


async def post_board(interaction: discord.Interaction, bot: PyramidBot, with_players: bool = False) -> None:
    """Show the channel's game to anyone who asks (no pings): the lobby, or the board and status."""
    report = await bot.service.board(channel_of(interaction))
    if report.state is None:  # the lobby's refresh may wait for another change of it being shown
        await paced_here(interaction, table.show_lobby_copy(interaction, report.game))
        return
    payload = report_payload(report)
    payload.pop("content", None)
    payload["allowed_mentions"] = NO_PINGS
    embed = payload["embed"]
    if with_players:
        embed.insert_field_at(0, name="Players", value=players_line(report.game)[:1024], inline=False)
    living = await bot.service.table_message(report.game.id)
    if report.game.status == "active":  # a copy that will not follow the game: say so, and where the live one is
        embed.title = f"{embed.title} · as of move {report.game.ply}"
        link = table.message_link(interaction.guild_id, living) if living and living.kind == "board" else None
        if link:
            embed.add_field(name="Live board", value=f"[The game's own message]({link}) follows every move.")
    await answer(interaction, **payload)


SHARED_OPTIONS = ("clock", "bank", "thread", "bots", "bot_level")
TEXT_LIMIT = 100  # characters of a typed option value


def option_parameter(spec: OptionSpec) -> tuple[inspect.Parameter, list[app_commands.Choice[Any]]]:
    """A game option as a slash-command parameter (type, range, default) and its choices, if any."""
    kind = type(spec.default)
    choices = [app_commands.Choice(name=str(value), value=value) for value in spec.choices]
    annotation: Any = kind
    if kind is int and not choices and spec.minimum is not None and spec.maximum is not None:
        annotation = app_commands.Range[int, spec.minimum, spec.maximum]
    elif kind is str and not choices:
        annotation = app_commands.Range[str, 0, TEXT_LIMIT]
    parameter = inspect.Parameter(
        spec.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=spec.default
    )
    return parameter, choices


def table_size(chosen: int | None, bots: int, usual: int, most: int) -> int:
    """The table ``/<game> new`` opens: the size chosen, else the game's usual one, made big enough
    for the caller and the bots asked for (never above the most the game seats)."""
    if chosen is not None:
        return chosen
    return min(most, max(usual, bots + 1))


def new_command(game: str, default_players: int | None = None) -> app_commands.Command[Any, Any, None]:
    """``/<game> new``, its options read from the game's ``OptionSpec``s (declared once, in the engine).

    ``players`` (when the table size may vary, default ``default_players`` or the most the game
    seats) comes first, then the game's own options, then those every game shares.
    """
    info = next(i for i in catalogue() if i.name == game)
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
    ]
    descriptions: dict[str, str] = {}
    choices: dict[str, list[app_commands.Choice[Any]]] = {}
    usual = default_players or info.max_players
    if info.min_players < info.max_players:
        players = app_commands.Range[int, info.min_players, info.max_players]
        parameters.append(inspect.Parameter("players", keyword, annotation=players, default=None))
        grows = ", more to fit your bots" if usual < info.max_players else ""
        span = f"{info.min_players}-{info.max_players}"
        descriptions["players"] = f"Most players who may join ({span}; default {usual}{grows})"
    for spec in info.options:
        parameter, listed = option_parameter(spec)
        parameters.append(parameter)
        descriptions[spec.name] = spec.description[:TEXT_LIMIT]
        if listed:
            choices[spec.name] = listed
    most_bots = max(info.max_players - 1, 0)
    parameters += [
        inspect.Parameter("clock", keyword, annotation=int, default=0),
        inspect.Parameter("bank", keyword, annotation=app_commands.Range[int, 0, 30], default=0),
        inspect.Parameter("thread", keyword, annotation=bool, default=False),
        inspect.Parameter("bots", keyword, annotation=app_commands.Range[int, 0, most_bots], default=0),
        inspect.Parameter("bot_level", keyword, annotation=str, default="normal"),
    ]
    descriptions.update(NEW_GAME_DESCRIPTIONS)
    choices.update(clock=CLOCK_CHOICES, bot_level=seats.LEVEL_CHOICES)

    async def new(self: GameCog, interaction: discord.Interaction, **values: Any) -> None:
        shared = {name: values.pop(name) for name in SHARED_OPTIONS}
        chosen = values.pop("players", None)
        players = table_size(chosen, shared["bots"], usual, info.max_players)
        try:
            await self.create(interaction, values, players=players, **shared)
        except TableRefused as refused:
            if chosen is not None or players <= usual:
                raise
            # the size came from the bots asked for, not from the player: say so
            grown = f"You and {plural(shared['bots'], 'bot')} make a table of {players}."
            raise TableRefused(f"{grown} {refused}") from None

    new.__qualname__ = "GameCog.new"  # a method of the cog: discord.py passes the cog, then the interaction
    new.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    new.__discord_app_commands_param_description__ = descriptions  # type: ignore[attr-defined]
    new.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    return app_commands.Command(
        name="new", description=f"Open a game of {info.title} in this channel."[:100], callback=refusals(new)
    )


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
        bots: int = 0,
        bot_level: str = "normal",
    ) -> None:
        """Open a new game of this cog's kind in the channel (or a new thread) with the caller seated."""
        await lobby.open_game(
            interaction,
            self.game_name,
            options,
            players=players,
            clock=clock,
            bank=bank,
            thread=thread,
            bots=bots,
            bot_level=bot_level,
        )

    async def channel_here(self, interaction: discord.Interaction) -> int:
        """The channel of the interaction, once its game is of this cog's kind: another game's command
        (``/whist move`` where Martian Combat is played) is refused, and changes nothing, and so is one
        where no game is open or running (with how to open one)."""
        channel_id = channel_of(interaction)
        game = await self.bot.service.live_game(channel_id)
        if game is None:
            raise ServiceError(f"There is no game running in this channel: open one with /{self.game_name} new.")
        if game.game != self.game_name:
            playing = rules_for(game.game)
            raise ServiceError(f"This channel is playing {playing.title}: use /{game.game}.")
        return channel_id

    @app_commands.command(name="join", description="Join the game waiting for players in this channel.")
    @refusals
    async def join(self, interaction: discord.Interaction) -> None:
        await lobby.join(interaction, await self.channel_here(interaction))

    @app_commands.command(name="leave", description="Leave the game before it starts.")
    @refusals
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobby.leave(interaction, await self.channel_here(interaction))

    @app_commands.command(name="start", description="Start the game once enough players have joined.")
    @refusals
    async def start(self, interaction: discord.Interaction) -> None:
        await lobby.start(interaction, await self.channel_here(interaction))

    @app_commands.command(name="move", description="Make a move in this channel's game (type to see your legal moves).")
    @app_commands.describe(notation="Your move in the game's notation; suggestions list your legal moves.")
    @refusals
    async def move(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]) -> None:
        await self.submit(interaction, notation)

    async def submit(self, interaction: discord.Interaction, notation: str) -> None:
        """Play ``notation`` (typed, or a stamped suggestion) for the caller and post the result."""
        channel_id = await self.channel_here(interaction)
        work = self.bot.service.move(channel_id, actor_of(interaction), notation, token=interaction.token)
        await table.act(interaction, channel_id, work)

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
        keep: Callable[[MoveOption], bool] | None = None,
        *,
        read_as: str | None = None,
    ) -> list[app_commands.Choice[str]]:
        """Up to 25 of the caller's legal moves (those ``keep`` accepts) that fit what they typed; the move
        what they typed reads as (``read_as`` when the command reads it so), in any form the game
        accepts, comes first.

        Each choice's value carries the ply it was offered at, so a stale choice is refused.
        """
        if interaction.channel_id is None:
            return []
        game = await self.bot.service.live_game(interaction.channel_id)
        if game is not None and game.game != self.game_name:  # another game's moves are not this one's
            return []
        typed = current if isinstance(current, str) else str(current)
        moves = await self.bot.service.legal_moves(interaction.channel_id, interaction.user.id, read_as or typed)
        out: list[app_commands.Choice[str]] = []
        for option in moves:
            if keep is not None and not keep(option):
                continue
            label = self.choice_label(option.notation, option.description)
            if option.as_typed or self.matches(typed, option.notation, label):
                out.append(app_commands.Choice(name=shorten(label, CHOICE_TEXT), value=option.value[:100]))
                if len(out) >= AUTOCOMPLETE_LIMIT:
                    break
        return out

    @app_commands.command(name="board", description="Show the board of this channel's game (anyone may look).")
    @refusals
    async def board(self, interaction: discord.Interaction) -> None:
        await post_board(interaction, self.bot)


class DiceGameCog(GameCog):
    """A game group with dice: the shared commands plus ``roll`` (the Roll button does the same)."""

    @app_commands.command(name="roll", description="Roll the dice when it is your turn to roll.")
    @refusals
    async def roll(self, interaction: discord.Interaction) -> None:
        channel_id = await self.channel_here(interaction)
        work = self.bot.service.roll(channel_id, actor_of(interaction), token=interaction.token)
        await table.act(interaction, channel_id, work)
