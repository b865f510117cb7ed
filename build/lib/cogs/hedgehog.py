"""``/hedgehog``: Der Marsigelwettkampf (Martian Hedgehog Battle)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.base import DiceGameCog, new_command

if TYPE_CHECKING:
    from bot.client import PyramidBot


class HedgehogCog(
    DiceGameCog, group_name="hedgehog", group_description="Der Marsigelwettkampf: race to build your tree"
):
    """Der Marsigelwettkampf commands: the shared ones plus ``new``."""

    game_name = "hedgehog"

    new = new_command("hedgehog", default_players=5)


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(HedgehogCog(bot))
