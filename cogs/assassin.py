"""``/assassin``: The Martian Assassination Game — ``new`` with its options and a ``move`` that suggests squares."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import (
    AUTOCOMPLETE_LIMIT,
    DiceGameCog,
    new_command,
)
from cogs.replies import refusals
from cogs.text import CHOICE_TEXT, shorten

if TYPE_CHECKING:
    from bot.client import PyramidBot


URGENT = ("· capture", "· base")  # how the game labels a capture and a base still to mark (``f10 · base``)


def suggestion(label: str, notation: str, hint: str) -> str:
    """A suggestion's name: the square, and what a capture, a base or a null's choice does."""
    return label if label == notation else f"{label} — {hint}"


def matches(typed: str, notation: str, label: str) -> bool:
    """What the player typed fits a suggestion: the start of its notation (``c``, ``c4``, ``c 4``,
    ``rer``), case and spaces aside, or any words of its label."""
    key = typed.strip().lower().removeprefix("to ").strip()
    compact = "".join(key.split())
    return (
        not compact
        or notation.lower().startswith(compact)
        or label.lower().startswith(key)
        or (len(key) > 2 and key in label.lower())
    )


class AssassinCog(
    DiceGameCog,
    group_name="assassin",
    group_description="The Martian Assassination Game: the victim runs for four bases, the assassins hunt",
):
    """The Martian Assassination Game commands: the shared ones, ``new`` and a square-suggesting ``move``."""

    game_name = "assassin"

    new = new_command("assassin", default_players=9)

    @app_commands.command(name="move", description="Move to a square your roll reaches (suggestions list them).")
    @app_commands.describe(notation="The square to end on, e.g. d4 (or reroll / stay after a null)")
    @refusals
    async def move(  # type: ignore[override]  # this game's own /move replaces the shared one
        self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]
    ) -> None:
        await self.submit(interaction, notation)

    @move.autocomplete("notation")
    async def move_squares(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's reachable squares, captures and new bases first, narrowed by what is typed."""
        if interaction.channel_id is None:
            return []
        game = await self.bot.service.live_game(interaction.channel_id)
        if game is not None and game.game != self.game_name:  # another game's moves are not this one's
            return []
        typed = str(current)
        moves = await self.bot.service.legal_moves(interaction.channel_id, interaction.user.id, typed)
        labelled = sorted(  # what was typed reads as first, then captures and new bases
            ((option, suggestion(option.label, option.notation, option.hint)) for option in moves),
            key=lambda pair: (not pair[0].as_typed, not pair[0].label.endswith(URGENT)),
        )
        return [
            app_commands.Choice(name=shorten(label, CHOICE_TEXT), value=option.value)
            for option, label in labelled
            if option.as_typed or matches(typed, option.notation, label)
        ][:AUTOCOMPLETE_LIMIT]


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(AssassinCog(bot))
