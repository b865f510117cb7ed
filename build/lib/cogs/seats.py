"""Computer players at a Discord table: the lobby's "Add a bot" menu, and bots acting on their turns.

Whenever a report leaves a bot to act, its turn is played in the background by the session layer's
``Autoplayer`` and each of its actions is shown like anyone's, on the game's living message.  The
clock loop calls ``resume`` so bots whose turn came while the bot process was down act on restart.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord

from bot.session import Actor, Report, ServiceError
from cogs.buttons import STALE, valid_id

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

LEVELS = {
    "easy": "plays any legal move",
    "normal": "searches a little",
    "hard": "searches hard",
}


class AddBotMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:seat:(?P<game_id>[0-9]{1,19}):bot",
):
    """The lobby's menu that seats a computer player of the chosen level."""

    def __init__(self, game_id: int, disabled: bool = False) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"pg:seat:{game_id}:bot",
            placeholder="Add a computer player…",
            options=[
                discord.SelectOption(label=f"{level.title()} bot", value=level, description=what)
                for level, what in LEVELS.items()
            ],
            disabled=disabled,
        )
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> AddBotMenu:
        made = cls(int(match["game_id"]))
        made.item = item
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs import table
        from cogs.replies import actor_of, bot_of, refuse, run_guarded

        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        level = values[0] if values else ""
        if not valid_id(self.game_id) or level not in LEVELS:
            await refuse(interaction, STALE)
            return

        async def work() -> None:
            service = bot_of(interaction).service
            game = await service.game(self.game_id)
            if game is None or game.status != "open":
                raise ServiceError("This game is not waiting for players any more.")
            seated = await service.add_bot(game.channel_id, actor_of(interaction), level)
            added = seated.seats[-1].display_name
            await table.show_lobby(interaction, seated, f"{added} takes a seat (a computer player).")

        await run_guarded(interaction, f"add-bot menu of game {self.game_id}", work())


async def add_bots(bot: PyramidBot, channel_id: int, actor: Actor, count: int, level: str) -> None:
    """Seat ``count`` bots of ``level`` in the open game of ``channel_id`` (the ``bots`` option of ``new``)."""
    for _ in range(count):
        await bot.service.add_bot(channel_id, actor, level)


def after(bot: PyramidBot, report: Report) -> None:
    """Let the bots act if ``report`` leaves one of them to play."""
    game = report.game
    if not game.has_bots or report.outcome is not None or game.status != "active":
        return
    if game.bot_at(report.to_move_seat) is None:
        return
    bot.autoplay.start(game.channel_id, lambda shown: deliver(bot, shown))


async def deliver(bot: PyramidBot, report: Report) -> None:
    """Show a bot's action on the living message and record it delivered."""
    from cogs import table

    await table.show_in_channel(bot, report)
    await bot.service.delivered(report.delivery_id)


async def resume(bot: PyramidBot) -> None:
    """Start the bots of every game where one is to act (after a restart, or a failed search)."""
    for channel_id in await bot.autoplay.waiting_channels():
        bot.autoplay.start(channel_id, lambda shown: deliver(bot, shown))
