"""``/treasure``: Martian Treasure Hunt, with ``arrange`` for the coins and readable move suggestions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.session import ServiceError
from cogs.base import DiceGameCog, new_command
from cogs.replies import refusals

if TYPE_CHECKING:
    from bot.client import PyramidBot


def _compact(text: str) -> str:
    return "".join(ch for ch in text.lower() if not ch.isspace())


def choice_label(notation: str, description: str) -> str:
    """A short suggestion label: ``3:c2xd3 — takes a medium yellow pyramid (+2)``, ``arrange 012345 — null ace …``."""
    if notation.startswith("arrange"):  # the channel sentence never names an arrangement: spell the digits
        words = " ".join(("null", "ace", "2", "3", "4", "5")[int(d)] for d in notation.split()[-1] if d in "012345")
        return f"{notation} — {words}"
    for verb, shown in ((", taking ", "takes "), (", capturing ", "captures ")):
        if verb in description:
            return f"{notation} — {shown}{description.split(verb, 1)[1].split('. Scores')[0]}"
    return notation


def arrangement_typed(current: str) -> str:
    """What was typed for an arrangement, as the digits of its notation: ``default`` (or its start) is the
    standard order, as ``arrange default`` is (docs/rules/treasure.md); commas and spaces go."""
    typed = "".join(ch for ch in current.lower() if ch.isalnum())
    if "arrange".startswith(typed):  # the verb, or its start: every arrangement
        return ""
    key = typed.removeprefix("arrange")
    return "012345" if key and "default".startswith(key) else key


class TreasureCog(
    DiceGameCog, group_name="treasure", group_description="Martian Treasure Hunt: the dice pick a coin and its move"
):
    """Martian Treasure Hunt commands: the shared ones plus ``new`` and ``arrange``; ``move`` refuses ``forfeit``."""

    game_name = "treasure"
    choice_label = staticmethod(choice_label)

    new = new_command("treasure", default_players=4)

    @app_commands.command(
        name="arrange", description="Before the first roll, without waiting for your turn: set out your coins."
    )
    @app_commands.describe(order="Coin values left to right from your seat, e.g. 543210 (0 null, 1 ace); or default")
    @refusals
    async def arrange(self, interaction: discord.Interaction, order: app_commands.Range[str, 1, 60]) -> None:
        notation = order.strip()
        if not notation.lower().startswith("arrange"):
            notation = f"arrange {notation}"
        await self._play(interaction, notation)

    @app_commands.command(name="move", description="Move the coin the dice picked (type to see your legal moves).")
    @app_commands.describe(notation="e.g. 3:c2-c5, or just the square c5; suggestions list your legal moves")
    @refusals
    async def move(  # type: ignore[override]  # this game's own /move replaces the shared one
        self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]
    ) -> None:
        if _compact(notation) == "forfeit":
            raise ServiceError("A coin the dice picked must move if it can; only the clock forfeits a turn.")
        await self._play(interaction, notation)

    @arrange.autocomplete("order")
    async def arrange_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The arrangements matching what was typed, the standard order first."""
        return await self._choices(interaction, current, arranging=True)

    @move.autocomplete("notation")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal moves, each with what it captures."""
        return await self._choices(interaction, current, arranging=False)

    async def _play(self, interaction: discord.Interaction, notation: str) -> None:
        await self.submit(interaction, notation)

    async def _choices(
        self, interaction: discord.Interaction, current: str, *, arranging: bool
    ) -> list[app_commands.Choice[str]]:
        if not arranging:
            return await self.suggestions(interaction, current)
        typed = current if isinstance(current, str) else str(current)
        as_command = typed if typed.strip().lower().startswith("arrange") else f"arrange {typed}"  # as /arrange
        return await self.suggestions(
            interaction,
            arrangement_typed(typed),
            keep=lambda option: option.notation.startswith("arrange"),
            read_as=as_command,
        )


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(TreasureCog(bot))
