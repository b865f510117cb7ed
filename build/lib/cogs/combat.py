"""``/combat``: Martian Combat.

Every decision of a turn is one ``/combat move`` (steps, attacks, Swap, Hop, Dig, ``choose aim``,
``counter``, ``pass``), with suggestions; the yes/no decisions also have buttons under the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import BOT_LEVEL_CHOICES, CLOCK_CHOICES, NEW_GAME_DESCRIPTIONS, DiceGameCog
from cogs.replies import refusals

if TYPE_CHECKING:
    from bot.client import PyramidBot

VARIANT_CHOICES = [
    app_commands.Choice(name="standard (centre blocked)", value="standard"),
    app_commands.Choice(name="simple (centre open)", value="simple"),
    app_commands.Choice(name="advanced (reserve nests, losers removed)", value="advanced"),
]


def choice_label(notation: str, description: str) -> str:
    """``R1 c1-c2 — moves the stack R1/R2/R3 from c1 to c2``: the notation, then what it does."""
    what = description.split(" ", 1)[1] if " " in description else description
    return f"{notation} — {what}"[:100]


class CombatCog(DiceGameCog, group_name="combat", group_description="Martian Combat: bring both nests home as trees"):
    """Martian Combat commands: the shared ones and ``new``."""

    game_name = "combat"
    choice_label = staticmethod(choice_label)

    @app_commands.command(name="new", description="Open a game of Martian Combat (2-4 players) in this channel.")
    @app_commands.describe(
        players="Most players who may join (2-4)",
        variant="standard, simple (open centre) or advanced (reserve nests, losers removed)",
        blocked="Extra blocked squares for a harder game, e.g. 'b2 e5' (never a start or home square)",
        turn_limit="Turns in all before the game is a draw",
        **NEW_GAME_DESCRIPTIONS,
    )
    @app_commands.choices(variant=VARIANT_CHOICES, clock=CLOCK_CHOICES, bot_level=BOT_LEVEL_CHOICES)
    @refusals
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 2, 4] = 2,
        variant: str = "standard",
        blocked: app_commands.Range[str, 0, 40] = "",
        turn_limit: app_commands.Range[int, 10, 2000] = 300,
        clock: int = 0,
        bank: app_commands.Range[int, 0, 30] = 0,
        thread: bool = False,
        bots: app_commands.Range[int, 0, 9] = 0,
        bot_level: str = "normal",
    ) -> None:
        options = {"variant": variant, "blocked": blocked, "turn_limit": turn_limit}
        await self.create(
            interaction, options, players=players, clock=clock, bank=bank, thread=thread, bots=bots, bot_level=bot_level
        )


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(CombatCog(bot))
