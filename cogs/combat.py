"""``/combat``: Martian Combat.

Every decision of a turn is one ``/combat move`` (steps, attacks, Swap, Hop, Dig, ``choose aim``,
``counter``, ``pass``), with suggestions; the yes/no decisions also have buttons under the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.base import DiceGameCog, new_command

if TYPE_CHECKING:
    from bot.client import PyramidBot


def choice_label(notation: str, description: str) -> str:
    """``R1 c1-c2 — moves the stack R1/R2/R3 from c1 to c2``: the notation, then what it does."""
    what = description.split(" ", 1)[1] if " " in description else description
    return f"{notation} — {what}"


class CombatCog(DiceGameCog, group_name="combat", group_description="Martian Combat: bring both nests home as trees"):
    """Martian Combat commands: the shared ones and ``new``."""

    game_name = "combat"
    choice_label = staticmethod(choice_label)

    new = new_command("combat", default_players=2)


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(CombatCog(bot))
