"""``/combat``: Martian Combat, with one-tap shortcuts for every decision of a turn.

Besides the shared ``move`` (any notation, with suggestions), players on a phone can use:
``step`` (a move or an Aim step), ``attack`` (also to take up an offered attack), ``counter``,
``pass`` (decline whatever is offered now), ``choose`` (the action after a Wild roll) and
``action`` (a Swap, Hop or Dig).  Each only narrows the suggestions and forwards the notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.session import MoveOption
from cogs.base import CLOCK_CHOICES, NEW_GAME_DESCRIPTIONS, GameCog
from cogs.replies import refusals

if TYPE_CHECKING:
    from bot.client import PyramidBot

STEP = re.compile(r"^[RYGB][1-3] [a-f][1-6]-[a-f][1-6]$")
ATTACK = re.compile(r"^[a-f][1-6]x[a-f][1-6]$")
ACTION_WORDS = ("swap ", "hop ", "dig ")
VARIANT_CHOICES = [
    app_commands.Choice(name="standard (centre blocked)", value="standard"),
    app_commands.Choice(name="simple (centre open)", value="simple"),
    app_commands.Choice(name="advanced (reserve nests, losers removed)", value="advanced"),
]
WILD_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (
        ("Tip", "tip"),
        ("Swap", "swap"),
        ("Hop", "hop"),
        ("Dig", "dig"),
        ("Aim", "aim"),
        ("No action", "none"),
    )
]


def choice_label(notation: str, description: str) -> str:
    """``R1 c1-c2 — moves the stack R1/R2/R3 from c1 to c2``: the notation, then what it does."""
    what = description.split(" ", 1)[1] if " " in description else description
    return f"{notation} — {what}"[:100]


class CombatCog(GameCog, group_name="combat", group_description="Martian Combat: bring both nests home as trees"):
    """Martian Combat commands: the shared ones, ``new`` and the shortcuts for each kind of decision."""

    game_name = "combat"
    choice_label = staticmethod(choice_label)

    @app_commands.command(name="new", description="Open a game of Martian Combat (2-4 players) in this channel.")
    @app_commands.describe(
        players="Most players who may join (2-4)",
        variant="standard, simple (open centre) or advanced (reserve nests, losers removed)",
        blocked="Up to 4 extra blocked squares for a harder game, e.g. 'b2 e5'",
        turn_limit="Turns in all before the game is a draw",
        **NEW_GAME_DESCRIPTIONS,
    )
    @app_commands.choices(variant=VARIANT_CHOICES, clock=CLOCK_CHOICES)
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
    ) -> None:
        options = {"variant": variant, "blocked": blocked, "turn_limit": turn_limit}
        await self.create(interaction, options, players=players, clock=clock, bank=bank, thread=thread)

    @app_commands.command(name="step", description="Step a pyramid one square: your turn's move or an Aim step.")
    @app_commands.describe(notation="e.g. R1 c1-c2 (R1 and everything above it); suggestions list your steps")
    @refusals
    async def step(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]) -> None:
        await self._play(interaction, notation)

    @app_commands.command(name="attack", description="Attack a stack next to the one that moved, or take up an offer.")
    @app_commands.describe(notation="e.g. c2xd3 (from c2 onto d3); suggestions list your attacks")
    @refusals
    async def attack(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]) -> None:
        await self._play(interaction, notation)

    @app_commands.command(name="counter", description="Call a counter attack (equal pips, first roll lost).")
    @refusals
    async def counter(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "counter")

    @app_commands.command(name="pass", description="Decline: no move, no attack, no counter, no action; or end an Aim.")
    @refusals
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._play(interaction, "pass")

    @app_commands.command(name="choose", description="After a Wild roll: choose Tip, Swap, Hop, Dig or Aim.")
    @app_commands.describe(action="The action to take")
    @app_commands.choices(action=WILD_CHOICES)
    @refusals
    async def choose(self, interaction: discord.Interaction, action: str) -> None:
        await self._play(interaction, "no action" if action == "none" else f"choose {action}")

    @app_commands.command(name="action", description="Make your Swap, Hop or Dig (suggestions list the legal ones).")
    @app_commands.describe(notation="e.g. swap R2 b3 with Y2 e4, hop R1 b3-d4, dig R2 b3-e5 under Y3")
    @refusals
    async def action(self, interaction: discord.Interaction, notation: app_commands.Range[str, 1, 100]) -> None:
        await self._play(interaction, notation)

    @step.autocomplete("notation")
    async def step_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's legal steps."""
        return await self._choices(interaction, current, lambda n: bool(STEP.match(n)))

    @attack.autocomplete("notation")
    async def attack_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal attacks."""
        return await self._choices(interaction, current, lambda n: bool(ATTACK.match(n)))

    @action.autocomplete("notation")
    async def action_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's legal swaps, hops and digs."""
        return await self._choices(interaction, current, lambda n: n.startswith(ACTION_WORDS))

    async def _play(self, interaction: discord.Interaction, notation: str) -> None:
        await self.submit(interaction, notation)

    async def _choices(
        self, interaction: discord.Interaction, current: str, kind: Callable[[str], bool]
    ) -> list[app_commands.Choice[str]]:
        def keep(option: MoveOption) -> bool:
            return kind(option.notation)

        return await self.suggestions(interaction, current, keep=keep)


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(CombatCog(bot))
