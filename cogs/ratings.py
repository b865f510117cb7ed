"""``/rating [user] [game]`` and ``/leaderboard game``: ratings per server and game.

The cog registers the rating service as a listener of the game service, so every rated game that
finishes updates the ratings at once; at start-up it rates any finished game whose end was missed.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.session import ServiceError, rules_for
from bot.session.ratings import PlayerRating, RatingService, RecentResult
from cogs.base import refusals
from cogs.help import game_choices
from cogs.replies import answer, defer_publicly
from cogs.text import ALT_TEXT_LIMIT, FIELD_VALUE_LIMIT, escape_user_text, whole_items, without_backticks
from renderers.standings import render_leaderboard

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0xE69F00)
OPPONENTS_ROOM = 40  # characters of opponents' names in one recent result, before "and 5 others"


def place_text(place: int, players: int, shared: bool = False) -> str:
    """``1st of 2``; a place held with others (a draw, a tie) is ``shared 1st of 2``."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{'shared ' if shared else ''}{place}{suffix} of {players}"


def result_line(result: RecentResult, with_game: bool) -> str:
    """One recent result: game, place (shared when others hold it too), opponents and the rating change."""
    title = f"{rules_for(result.game).title} " if with_game else ""
    against = opponents_text(result.opponents)
    change = result.change
    sign = "+" if change >= 0 else "−"
    place = place_text(result.place, result.players, result.shared)
    return (
        f"{discord.utils.format_dt(result.at, 'd')} {title}**{place}** "
        f"vs {against}: {result.before.display} → {result.after.display} ({sign}{abs(change)})"
    )


def opponents_text(names: Sequence[str], room: int = OPPONENTS_ROOM) -> str:
    """The opponents of a result, as many names as ``room`` characters hold, then how many more:
    "bob, carol and 5 others"."""
    if not names:
        return "—"
    shown: list[str] = []
    for name in names:
        if shown and len(", ".join([*shown, name])) > room:
            break
        shown.append(name)
    more = len(names) - len(shown)
    listed = ", ".join(escape_user_text(name) for name in shown)
    if more == 0:
        return listed
    return f"{listed} and {more} other{'s' if more != 1 else ''}"


class RatingCommands(commands.Cog):
    """``/rating`` and ``/leaderboard``."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        self.ratings: RatingService | None = None

    async def cog_load(self) -> None:
        self.ratings = self.bot.session.ratings
        try:
            caught = await self.ratings.catch_up()
        except Exception:
            log.exception("rating catch-up failed")
        else:
            if caught:
                log.info("rated %s finished games that had not been rated", caught)

    @property
    def service(self) -> RatingService:
        """The rating service (set up in ``cog_load``)."""
        assert self.ratings is not None
        return self.ratings

    @app_commands.command(name="rating", description="A player's rating on this server, with their recent results.")
    @app_commands.describe(user="Whose rating (default: yours)", game="One game only (default: every game played)")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    @refusals
    async def rating(
        self, interaction: discord.Interaction, user: discord.Member | None = None, game: str | None = None
    ) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("Ratings are kept per server: use this command in a server.")
        member = user or interaction.user
        name = without_backticks(getattr(member, "display_name", member.name))
        if game is not None:
            rules = rules_for(game)
            found = await self.service.rating(guild_id, game, member.id)
            if found is None:
                raise ServiceError(f"{name} has no rated games of {rules.title} on this server yet.")
            ratings = [found]
        else:
            ratings = await self.service.ratings_of(guild_id, member.id)
            if not ratings:
                raise ServiceError(f"{name} has no rated games on this server yet.")
        recent = await self.service.recent_results(guild_id, member.id, game)
        embed = discord.Embed(title=f"{escape_user_text(name)} — rating", colour=COLOUR)
        for entry in ratings:
            rules = rules_for(entry.game)
            embed.add_field(
                name=rules.title,
                value=(
                    f"**{entry.rating.display}** · #{entry.rank} on this server · {entry.games} game"
                    f"{'s' if entry.games != 1 else ''}, {entry.wins} win{'s' if entry.wins != 1 else ''}"
                ),
                inline=False,
            )
        if recent:
            lines = [result_line(r, with_game=game is None) for r in recent]
            embed.add_field(
                name="Recent results", value=whole_items(lines, FIELD_VALUE_LIMIT, count_more=False), inline=False
            )
        embed.set_footer(
            text="Rating = 1500 + 25 × (μ − 3σ), a cautious estimate that grows as the bot gets sure of you."
        )
        await answer(interaction, embed=embed)

    @app_commands.command(name="leaderboard", description="The top 20 players of a game on this server, as an image.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    @refusals
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        guild_id = interaction.guild_id
        if guild_id is None:
            raise ServiceError("Leaderboards are kept per server: use this command in a server.")
        rules = rules_for(game)
        rows = await self.service.leaderboard(guild_id, game)
        if not rows:
            raise ServiceError(f"Nobody has a rating in {rules.title} on this server yet.")
        await defer_publicly(interaction)  # the picture is drawn before the answer
        total = await self.service.count_rated(guild_id, game)
        guild_name = interaction.guild.name if interaction.guild else "this server"
        subtitle = f"{guild_name} · {total} rated game{'s' if total != 1 else ''}"
        png = await asyncio.to_thread(render_leaderboard, rows, f"{rules.title} — leaderboard", subtitle)
        await answer(
            interaction,
            content=f"**{rules.title}** — top {len(rows)} on this server.",
            file=discord.File(io.BytesIO(png), filename="leaderboard.png", description=alt_text(rules.title, rows)),
        )


def alt_text(title: str, rows: Sequence[PlayerRating]) -> str:
    """What the leaderboard picture shows, in words: the game and the leading players with their ratings."""
    leaders = ", ".join(f"{row.rank}. {row.name} ({row.rating.display})" for row in rows[:5])
    return f"{title} leaderboard. Leading: {leaders}."[:ALT_TEXT_LIMIT]


async def setup(bot: PyramidBot) -> None:
    """Load the rating commands."""
    await bot.add_cog(RatingCommands(bot))
