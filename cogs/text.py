"""Text from players and servers made safe to show: what Discord can store, and what it shows as typed."""

from __future__ import annotations

import re

import discord


def clean(text: str) -> str:
    """``text`` without lone surrogates (each becomes U+FFFD): what Discord can store and show."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return text


# marks that change the direction of the text after them: in a name they would turn the bot's own words
# around it backwards (Arabic and Hebrew letters need none of them to read right)
DIRECTION_MARKS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def without_direction_marks(text: str) -> str:
    """``text`` as Discord can store it, without direction marks: for places Discord shows as written
    (a thread's title), where a mark in a name would still turn the words after it backwards."""
    return clean(str(text)).translate(DIRECTION_MARKS)


def escape_user_text(text: str) -> str:
    """Text a player typed, safe to show in a message: no markdown, no mentions, no lone surrogates, no
    direction marks."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(without_direction_marks(text)))


def without_backticks(name: str) -> str:
    """A name a player chose, with each backtick shown as ``ˋ``: a name never opens or closes a code
    span, so in a refusal only the input it quotes is in backticks (``escape_outside_code``)."""
    return name.replace("`", "ˋ")


_CODE_SPAN = re.compile(r"(`[^`\n]*`)")


def escape_outside_code(text: str) -> str:
    """``text`` with markdown and mentions escaped everywhere but inside its `code spans`, which Discord
    shows as written already: for sentences that name players and quote what they typed."""
    parts = _CODE_SPAN.split(text)
    return "".join(part if index % 2 else escape_user_text(part) for index, part in enumerate(parts))
