"""Persistent buttons (Join, Start, Roll, Rematch, answers to proposals) that keep working after a restart.

The game id lives in the custom id, so a button posted days ago still finds its game.  Each feature's
cog registers what its buttons do (``on_press``) when it loads; the button's callback runs that work
itself, in the Discord layer.  A press that cannot be handled (an action no cog handles any more, an
id out of range) is answered with one private sentence.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.pacing import STOPPING

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # the database's integer range
LABELS = {
    "join": "Join",
    "leave": "Leave",
    "start": "Start",
    "start-now": "Start now",
    "roll": "Roll",
    "rematch": "Rematch",
    "undo-yes": "Accept undo",
    "undo-no": "Refuse undo",
    "seat-yes": "Agree",
    "seat-no": "Refuse",
}
STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "start-now": discord.ButtonStyle.primary,
    "roll": discord.ButtonStyle.primary,
    "rematch": discord.ButtonStyle.secondary,
    "undo-yes": discord.ButtonStyle.success,
    "undo-no": discord.ButtonStyle.danger,
    "seat-yes": discord.ButtonStyle.success,
    "seat-no": discord.ButtonStyle.danger,
}
Handler = Callable[[discord.Interaction, int], Awaitable[None]]
HANDLERS: dict[str, Handler] = {}
STALE = "That button does nothing any more."
ELSEWHERE = "That button belongs to a game in another channel: use it there."


def pressed_elsewhere(interaction: discord.Interaction, channel_id: int, *also: int | None) -> bool:
    """True when a control of the game in ``channel_id`` was pressed from another channel (nor one of
    ``also``) or a direct message.  Discord sends a press only from the message holding it, which lies in
    its game's channel, so only a forged press lands here: it is refused before anything is played, and
    the game's board never moves out of its channel."""
    return interaction.channel_id != channel_id and interaction.channel_id not in also


def valid_id(number: int) -> bool:
    """True when ``number`` can name a row: a positive 64-bit integer (a forged id may be longer)."""
    return 0 < number <= MAX_ID


def on_press(action: str, handler: Handler) -> None:
    """Let ``handler(interaction, game_id)`` answer presses of ``action`` buttons."""
    HANDLERS[action] = handler


class Control:
    """What every persistent control (a ``DynamicItem`` of the bot's) checks before its callback: while the
    bot stops, a press or a menu choice is told privately that the bot is restarting, and nothing is
    played.  The controls stay registered to the end, so no press goes unanswered."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """False (and the presser told) while the bot stops."""
        from cogs.replies import tell

        if not getattr(interaction.client, "stopping", False):
            return True
        try:
            await tell(interaction, STOPPING)
        except discord.HTTPException:
            log.info("could not tell a press sent while stopping")
        return False


class GameButton(
    Control, discord.ui.DynamicItem[discord.ui.Button], template=r"pg:(?P<action>[a-z-]{1,20}):(?P<game_id>[0-9]{1,24})"
):
    """A button bound to one game and one action."""

    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABELS.get(action, action.title()),
                style=STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"pg:{action}:{game_id}",
                emoji="🎲" if action == "roll" else None,
            )
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(match["action"], int(match["game_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.replies import bot_of, refuse

        handler = HANDLERS.get(self.action)
        if handler is None or not valid_id(self.game_id):
            await refuse(interaction, STALE)
            return
        game = await bot_of(interaction).service.game(self.game_id)
        # a thread game's notice in the channel the thread was opened from carries its Join
        notice = game.parent_channel_id if game is not None and self.action == "join" else None
        if game is not None and pressed_elsewhere(interaction, game.channel_id, notice):
            await refuse(interaction, ELSEWHERE)
            return
        await handler(interaction, self.game_id)


def buttons(game_id: int, *actions: str, disabled: bool = False) -> discord.ui.View:
    """A persistent view holding buttons for ``actions`` of ``game_id``."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        button = GameButton(action, game_id)
        button.item.disabled = disabled
        view.add_item(button)
    return view
