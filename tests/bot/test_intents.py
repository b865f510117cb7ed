"""The bot subscribes to the gateway events it uses and no others (docs/deploy.md, "Gateway intents").

Slash commands, buttons and menus reach a bot whatever its intents.  What it reads from the gateway is the
servers' channels and threads (the guilds intent); a subscription to messages would have Discord send it
every message of every channel it can see, its own boards included, each one decoded and parsed.
"""

from __future__ import annotations

import discord

from bot.client import create_bot
from bot.settings import Settings


def test_the_bot_subscribes_to_servers_channels_and_threads_only() -> None:
    settings = Settings(token="t", database_url="sqlite+aiosqlite:///:memory:", shard_count=1, render_workers=0)
    bot = create_bot(settings)
    assert bot.intents == discord.Intents(guilds=True)
    assert not bot.intents.guild_messages and not bot.intents.dm_messages and not bot.intents.message_content
    assert not bot.intents.guild_typing and not bot.intents.guild_reactions
