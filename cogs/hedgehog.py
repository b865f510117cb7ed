"""``/hedgehog``: Der Marsigelwettkampf (Martian Hedgehog Battle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.base import DiceGameCog, new_command

if TYPE_CHECKING:
    from bot.client import PyramidBot


def choice_label(notation: str, description: str) -> str:
    """``R2+2 — 2 spaces clockwise from space 4 onto G3 on space 6 for 4 points. …``: the notation, then
    the move's sentence without the colour and the piece it names again."""
    words = description.split(" ", 3)
    if len(words) == 4 and words[1] == "moves":
        return f"{notation} — {words[3]}"
    return f"{notation} — {description}"


class HedgehogCog(
    DiceGameCog, group_name="hedgehog", group_description="Der Marsigelwettkampf: race to build your tree"
):
    """Der Marsigelwettkampf commands: the shared ones plus ``new``."""

    game_name = "hedgehog"
    choice_label = staticmethod(choice_label)

    new = new_command("hedgehog", default_players=5)


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(HedgehogCog(bot))
