"""What a player hears when a command fails: a refusal in one sentence, or an apology with a reference."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.session import ServiceError
from cogs.replies import apologise, refuse

if TYPE_CHECKING:
    from bot.client import PyramidBot


class Errors(commands.Cog):
    """Installs the command tree's error handler."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.on_error = on_app_command_error  # type: ignore[method-assign]


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Refusals become one ephemeral sentence; anything unexpected is logged and apologised for."""
    original = getattr(error, "original", error)
    if isinstance(original, ServiceError):
        await refuse(interaction, str(original))
    elif isinstance(error, app_commands.CheckFailure):
        await refuse(interaction, "You do not have permission to do that here.")
    elif isinstance(error, app_commands.TransformerError):
        await refuse(interaction, "One of the options is not valid here; check it and try again.")
    else:
        command = interaction.command.qualified_name if interaction.command else "interaction"
        await apologise(interaction, original, f"/{command}")


async def setup(bot: PyramidBot) -> None:
    """Load the error handler."""
    await bot.add_cog(Errors(bot))
