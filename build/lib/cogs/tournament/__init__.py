"""The tournament extension (``cogs.tournament``): ``/tournament ...`` commands, buttons and the Discord host.

Private modules: ``_commands`` (the GroupCog), ``_host`` (``DiscordHost``, the manager's ``Host``),
``_wording`` (every sentence and embed), ``_buttons`` (Join / Check in), ``_parsing`` (start times and
game options as typed) and ``_images`` (the standings and bracket images).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.tournament._commands import TournamentCommands

if TYPE_CHECKING:
    from bot.client import PyramidBot

__all__ = ["TournamentCommands", "setup"]


async def setup(bot: PyramidBot) -> None:
    """Load the tournament commands."""
    await bot.add_cog(TournamentCommands(bot))
