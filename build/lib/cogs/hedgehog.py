"""``/hedgehog``: Der Marsigelwettkampf (Martian Hedgehog Battle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.base import BOT_LEVEL_CHOICES, CLOCK_CHOICES, NEW_GAME_DESCRIPTIONS, DiceGameCog
from cogs.replies import refusals

if TYPE_CHECKING:
    from bot.client import PyramidBot


class HedgehogCog(
    DiceGameCog, group_name="hedgehog", group_description="Der Marsigelwettkampf: race to build your tree"
):
    """Der Marsigelwettkampf commands: the shared ones plus ``new``."""

    game_name = "hedgehog"

    @app_commands.command(name="new", description="Open a game of Der Marsigelwettkampf in this channel.")
    @app_commands.describe(
        players="Most players who may join (1-5, up to 10 with the Xeno set)",
        xeno="Add the Xeno set's colours for 6-10 players",
        round_limit="Rounds before the game is drawn (every player has had this many turns)",
        turn_limit="Solitaire only: turns before the attempt fails",
        **NEW_GAME_DESCRIPTIONS,
    )
    @app_commands.choices(clock=CLOCK_CHOICES, bot_level=BOT_LEVEL_CHOICES)
    @refusals
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 1, 10] = 5,
        xeno: bool = False,
        round_limit: app_commands.Range[int, 1, 2000] = 40,
        turn_limit: app_commands.Range[int, 1, 2000] = 200,
        clock: int = 0,
        bank: app_commands.Range[int, 0, 30] = 0,
        thread: bool = False,
        bots: app_commands.Range[int, 0, 9] = 0,
        bot_level: str = "normal",
    ) -> None:
        await self.create(
            interaction,
            {"xeno": xeno, "round_limit": round_limit, "turn_limit": turn_limit},
            players=players,
            clock=clock,
            bank=bank,
            thread=thread,
            bots=bots,
            bot_level=bot_level,
        )


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(HedgehogCog(bot))
