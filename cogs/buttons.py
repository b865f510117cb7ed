"""Persistent buttons (Join, Start, Roll, Rematch, undo answers) that keep working after a restart.

The game id lives in the custom id, so a button posted days ago still finds its game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.client import PyramidBot

ACTIONS = ("join", "start", "roll", "rematch", "undo-yes", "undo-no")
LABELS = {
    "join": "Join",
    "start": "Start",
    "roll": "Roll",
    "rematch": "Rematch",
    "undo-yes": "Accept undo",
    "undo-no": "Refuse undo",
}
STYLES = {
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
    "roll": discord.ButtonStyle.primary,
    "rematch": discord.ButtonStyle.secondary,
    "undo-yes": discord.ButtonStyle.success,
    "undo-no": discord.ButtonStyle.danger,
}


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"pg:(?P<action>[a-z-]+):(?P<game_id>[0-9]+)"):
    """A button bound to one game and one action."""

    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABELS[action],
                style=STYLES[action],
                custom_id=f"pg:{action}:{game_id}",
                emoji="🎲" if action == "roll" else None,
            )
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> GameButton:
        action = match["action"]
        if action not in ACTIONS:
            raise ValueError(action)
        return cls(action, int(match["game_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: PyramidBot = interaction.client  # type: ignore[assignment]
        await bot.handle_button(interaction, self.action, self.game_id)


def buttons(game_id: int, *actions: str) -> discord.ui.View:
    """A persistent view holding buttons for ``actions`` of ``game_id``."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(GameButton(action, game_id))
    return view
