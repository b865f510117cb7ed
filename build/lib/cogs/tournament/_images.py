"""The standings table or the bracket of a tournament as a PNG, drawn in a worker thread."""

from __future__ import annotations

import asyncio
import io

import discord

from bot.tournaments.views import Standings
from renderers.standings import render_bracket, render_standings


async def standings_png(standings: Standings) -> bytes:
    """The standings table (or the bracket, for elimination) as PNG bytes."""
    if standings.bracket is not None:
        return await asyncio.to_thread(render_bracket, standings.bracket, standings.names, standings.title)
    return await asyncio.to_thread(
        render_standings, standings.rows, standings.title, standings.names, standings.subtitle
    )


async def standings_file(standings: Standings, filename: str) -> discord.File:
    """The standings image as an attachment called ``filename``."""
    return discord.File(io.BytesIO(await standings_png(standings)), filename=filename)
