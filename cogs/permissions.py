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


# what a game in a thread the bot did not open (a member's thread, a forum post) must let it do
IN_A_THREAD = {
    "view_channel": "view the channel",
    "send_messages_in_threads": "send messages in threads",
    "embed_links": "embed links",
    "attach_files": "attach files",
    "read_message_history": "read message history",
}
# the channels where a game can be played: text channels, forum posts' parents, voice and stage chats
CHANNELS = (discord.TextChannel, discord.ForumChannel, discord.VoiceChannel, discord.StageChannel)


def missing(channel: object, *, threads: bool) -> list[str]:
    """What the bot may not do in ``channel`` of what a table there needs; with ``threads``, what opening
    threads of it needs too (a thread's threads open in its parent, which is judged instead).  A thread
    the bot does not open (one a member opened, a forum post) needs only to be posted in.  Nothing for a
    channel whose permissions cannot be read (a direct message)."""
    if isinstance(channel, discord.Thread):
        if channel.parent is None:
            return []
        if not threads:
            granted = channel.permissions_for(channel.guild.me)
            return [words for name, words in IN_A_THREAD.items() if not getattr(granted, name)]
        channel = channel.parent
    if not isinstance(channel, CHANNELS):
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
