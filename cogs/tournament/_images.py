"""The standings table or the bracket of a tournament as a PNG, drawn in a worker thread."""

from __future__ import annotations

import asyncio
import io

import discord

from bot.tournaments.views import Standings
from cogs.text import ALT_TEXT_LIMIT
from cogs.tournament._wording import name_of
from renderers.standings import render_bracket, render_standings


async def standings_png(standings: Standings) -> bytes:
    """The standings table (or the bracket, for elimination) as PNG bytes."""
    if standings.bracket is not None:
        return await asyncio.to_thread(render_bracket, standings.bracket, standings.names, standings.title)
    return await asyncio.to_thread(
        render_standings, standings.rows, standings.title, standings.names, standings.subtitle
    )


async def standings_file(standings: Standings, filename: str) -> discord.File:
    """The standings image as an attachment called ``filename``, described for screen readers."""
    return discord.File(io.BytesIO(await standings_png(standings)), filename=filename, description=alt_text(standings))


def alt_text(standings: Standings) -> str:
    """What the standings picture shows, in words: its title and the leading places, or a bracket's
    champion."""
    if standings.bracket is not None:
        champion = standings.bracket.champion
        led = f" Champion: {shown(standings, champion)}." if champion is not None else " No champion yet."
    else:
        leaders = [f"{row.place}. {shown(standings, row.player)} ({row.points:g})" for row in standings.rows[:5]]
        led = f" Leading: {', '.join(leaders)}." if leaders else ""
    return f"{standings.title}. {standings.subtitle}.{led}"[:ALT_TEXT_LIMIT]


def shown(standings: Standings, player: object) -> str:
    """The name the standings show for ``player`` (a user id, or a computer player's)."""
    return name_of(standings.names, player) if isinstance(player, int) else str(player)
