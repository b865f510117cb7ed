"""What the bot must be allowed to do where a game or a tournament is played, checked before it opens
(README, "Invite the bot"), so an admin who left one out is told which, in one sentence."""

from __future__ import annotations

import discord

# what a game's channel must let the bot do, in the words of a refusal
TABLE = {
    "view_channel": "view the channel",
    "send_messages": "send messages",
    "embed_links": "embed links",
    "attach_files": "attach files",
    "read_message_history": "read message history",
}
IN_THREADS = {
    "create_public_threads": "create public threads",
    "send_messages_in_threads": "send messages in threads",
}


def missing(channel: object, *, threads: bool) -> list[str]:
    """What the bot may not do in ``channel`` (a thread is judged by its parent, where its permissions come
    from) of what a table there needs; with ``threads``, what opening threads of it needs too.  Nothing
    for a channel whose permissions cannot be read (a direct message)."""
    if isinstance(channel, discord.Thread):
        channel, threads = channel.parent, True
    if not isinstance(channel, (discord.TextChannel, discord.ForumChannel)):
        return []
    granted = channel.permissions_for(channel.guild.me)
    needed = {**TABLE, **IN_THREADS} if threads else TABLE
    return [words for name, words in needed.items() if not getattr(granted, name)]


def listed(lacking: list[str]) -> str:
    """``send messages, embed links and attach files``."""
    return lacking[0] if len(lacking) == 1 else ", ".join(lacking[:-1]) + " and " + lacking[-1]


def refusal(lacking: list[str]) -> str:
    """One sentence: what a server manager must let the bot do in this channel before a game opens."""
    return f"I may not {listed(lacking)} in this channel: ask a server manager to allow it, then open the game again."
