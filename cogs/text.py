"""Text from players and servers made safe to show: what Discord can store, and what it shows as typed."""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

# Discord's limits on what a bot may send (https://discord.com/developers/docs/resources/message).
CONTENT_LIMIT = 2000
EMBED_COUNT = 10
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
AUTHOR_LIMIT = 256
EMBED_TOTAL = 6000
ROW_COUNT = 5
COMPONENT_COUNT = 25
CHOICE_COUNT = 25
CHOICE_TEXT = 100
ALT_TEXT_LIMIT = 1024  # an attachment's description (alt text)
ELLIPSIS = "…"
_SPACE = re.compile(r"\s")


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a space when one is near the end, with "…"."""
    text = clean(text)
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    cut = text[: limit - len(ELLIPSIS)]
    spaces = [m.start() for m in _SPACE.finditer(cut, len(cut) * 2 // 3)]
    if spaces:
        cut = cut[: spaces[-1]]
    return cut.rstrip() + ELLIPSIS


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


# what Discord draws from text in angle brackets besides mentions: channel links, timestamps, command
# links, custom emoji and a server's pages (``<#1>``, ``<t:0:R>``, ``</tournament join:1>``, ``<:name:1>``,
# ``<a:name:1>``, ``<id:browse>``)
MARKUP_OPENING = re.compile(r"<(?=#|t:|/|a?:|id:)")


def escape_user_text(text: str) -> str:
    """Text a player typed, safe to show in a message: no markdown, no mentions, no other Discord markup,
    no lone surrogates, no direction marks."""
    plain = discord.utils.escape_mentions(discord.utils.escape_markdown(without_direction_marks(text)))
    return MARKUP_OPENING.sub(r"\\<", plain)


def without_backticks(name: str) -> str:
    """A name a player chose, with each backtick shown as ``ˋ``: a name never opens or closes a code
    span, so in a refusal only the input it quotes is in backticks (``escape_outside_code``)."""
    return name.replace("`", "ˋ")


_CODE_SPAN = re.compile(r"(`[^`\n]*`)")


# the markup the bot itself writes into a sentence that also names players: a timestamp of a real moment
# and a link to a real channel (a name holding one of these shows it drawn, which misleads nobody)
OWN_MARKUP = re.compile(r"<(?:t:\d{9,}(?::[tTdDfFR])?|#\d{15,})>")


def escape_outside_code(text: str) -> str:
    """``text`` with markdown, mentions and other markup escaped everywhere but inside its `code spans`,
    which Discord shows as written already: for sentences that name players and quote what they typed.
    The bot's own timestamps and channel links in them still show (``OWN_MARKUP``)."""
    parts = _CODE_SPAN.split(text)
    return "".join(part if index % 2 else _escape_keeping_own_markup(part) for index, part in enumerate(parts))


def _escape_keeping_own_markup(text: str) -> str:
    pieces = OWN_MARKUP.split(text)
    kept = OWN_MARKUP.findall(text)
    escaped = [escape_user_text(piece) for piece in pieces]
    return "".join(part for pair in zip(escaped, [*kept, ""], strict=True) for part in pair)


def whole_items(items: Sequence[str], limit: int, *, sep: str = "\n", count_more: bool = True) -> str:
    """``items`` joined by ``sep``, as many whole ones as fit in ``limit`` characters, in order; with
    ``count_more``, those left out are counted at the end ("…and 3 more")."""
    text = sep.join(items)
    if len(text) <= limit:
        return text
    shown: list[str] = []
    for item in items:
        left = len(items) - len(shown) - 1
        tail = [f"…and {left} more"] if count_more and left else []
        if len(sep.join([*shown, item, *tail])) > limit:
            break
        shown.append(item)
    if count_more:
        return sep.join([*shown, f"…and {len(items) - len(shown)} more"])
    return sep.join(shown)


def packed(items: Sequence[str], limit: int = CONTENT_LIMIT, *, sep: str = "\n") -> list[str]:
    """``items`` joined by ``sep`` into as few texts of at most ``limit`` characters as hold them all,
    each item whole (one longer than ``limit`` alone is cut): a long list posted as several messages."""
    texts: list[str] = []
    current = ""
    for item in items:
        item = item[:limit]
        if current and len(current) + len(sep) + len(item) > limit:
            texts.append(current)
            current = item
        else:
            current = f"{current}{sep}{item}" if current else item
    return [*texts, current] if current else texts
