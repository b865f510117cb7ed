"""The core commands shared by every game: ``/game ...`` and ``/rules``."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.service import ServiceError, outcome_from_json, rules_for
from cogs.base import actor_of, post_report
from cogs.messages import NO_PINGS, outcome_text, players_line, report_payload

if TYPE_CHECKING:
    from bot.client import PyramidBot

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a slash-command choice."""
    return [app_commands.Choice(name=r.title, value=name) for name, r in sorted(games.REGISTRY.items())]


def rules_sections(game: str) -> list[tuple[str, str]]:
    """The ``## `` sections of a game's rules page as (heading, body)."""
    path = DOCS / f"{game}.md"
    if not path.is_file():
        return []
    sections: list[tuple[str, str]] = []
    heading, body = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            if heading or body:
                sections.append((heading, "\n".join(body).strip()))
            heading, body = line[3:].strip(), []
        elif not line.startswith("# "):
            body.append(line)
    sections.append((heading, "\n".join(body).strip()))
    return [(h, b) for h, b in sections if b]


class GameCommands(commands.GroupCog, group_name="game", group_description="Commands for any game"):
    """``/game status|resign|abort|history|mine``."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="status", description="Players, whose turn it is and the board of this channel's game.")
    async def status(self, interaction: discord.Interaction) -> None:
        report = await self.bot.service.board(interaction.channel_id)
        game = report.game
        if report.state is None:
            await interaction.response.send_message(
                f"**{report.rules.title}** (game #{game.id}) is waiting for players: {players_line(game)}.",
                allowed_mentions=NO_PINGS,
            )
            return
        payload = report_payload(report)
        payload.pop("content", None)
        payload["allowed_mentions"] = NO_PINGS
        payload["embed"].insert_field_at(0, name="Players", value=players_line(game)[:1024], inline=False)
        await interaction.response.send_message(**payload)

    @app_commands.command(name="resign", description="Resign from this channel's game.")
    async def resign(self, interaction: discord.Interaction) -> None:
        report = await self.bot.service.resign(interaction.channel_id, actor_of(interaction))
        await post_report(interaction, report)

    @app_commands.command(name="abort", description="End this channel's game without a result (creator or server manager).")
    async def abort(self, interaction: discord.Interaction) -> None:
        game = await self.bot.service.abort(interaction.channel_id, actor_of(interaction))
        await interaction.response.send_message(
            f"Game #{game.id} ({rules_for(game.game).title}) was aborted by {interaction.user.display_name}; it is unrated.",
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="history", description="The move list of this channel's game, with a text file to keep.")
    async def history(self, interaction: discord.Interaction) -> None:
        game, moves = await self.bot.service.history(interaction.channel_id)
        rules = rules_for(game.game)
        lines = [f"{rules.title} — game #{game.id}", f"Players: {players_line(game)}",
                 f"Options: {game.options}", f"Seed: {game.seed}", ""]
        for row in moves:
            who = game.name_at(row.seat) if row.seat is not None else "—"
            lines.append(f"{row.ply + 1:>4}. {row.notation:<16} {who}: {row.description}")
        outcome = outcome_from_json(game.outcome)
        if outcome is not None:
            lines += ["", f"Result: {outcome.reason}"]
        text = "\n".join(lines)
        shown = "\n".join(f"`{row.ply + 1}.` **{row.notation}** — {row.description}" for row in moves[-15:])
        embed = discord.Embed(title=f"{rules.title} — history of game #{game.id}",
                              description=(shown or "No moves yet.")[:4000])
        embed.set_footer(text=f"{len(moves)} moves · the attached file holds all of them")
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(text.encode()), filename=f"game-{game.id}.txt"),
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="mine", description="Your games in this server, where it is your turn first.")
    async def mine(self, interaction: discord.Interaction) -> None:
        mine = await self.bot.service.store.games_of_user(interaction.user.id, interaction.guild_id)
        if not mine:
            await interaction.response.send_message("You are not in any game in this server.", ephemeral=True)
            return
        rows = []
        for game in mine:
            rules = rules_for(game.game)
            if game.status == "open":
                rows.append((2, None, f"<#{game.channel_id}> {rules.title}: waiting for players"))
                continue
            state = self.bot.service.state_of(game)
            seat = rules.to_move(state)
            yours = seat is not None and game.user_at(seat) == interaction.user.id
            left = f", deadline {discord.utils.format_dt(game.deadline, 'R')}" if game.deadline else ""
            label = "**your turn**" if yours else f"{game.name_at(seat) if seat is not None else '—'} to play"
            rows.append((0 if yours else 1, game.deadline, f"<#{game.channel_id}> {rules.title}: {label}{left}"))
        rows.sort(key=lambda r: (r[0], r[1] is None, r[1] or interaction.created_at))
        embed = discord.Embed(title="Your games", description="\n".join(r[2] for r in rows)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def answer_undo(self, interaction: discord.Interaction, game: object, actor: object, accept: bool) -> None:
        """Undo requests are answered here (async play)."""
        raise ServiceError("There is no undo request to answer.")


class RulesCommand(commands.Cog):
    """``/rules <game>``: the rules as the bot explains them."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="How to play a game, and how to write its moves.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        rules = rules_for(game.value)
        sections = rules_sections(game.value)
        embed = discord.Embed(title=f"{rules.title} — rules", colour=discord.Colour(0x009E73))
        embed.description = f"{rules.min_players}-{rules.max_players} players. Start with `/{game.value} new`."
        total = len(embed.description)
        for heading, body in sections:
            value = re.sub(r"\n{3,}", "\n\n", body)
            if len(value) > 1024:
                value = value[:1000].rsplit("\n", 1)[0] + "\n…"
            if total + len(heading) + len(value) > 5500 or len(embed.fields) >= 24:
                break
            embed.add_field(name=heading[:256] or "Overview", value=value, inline=False)
            total += len(heading) + len(value)
        path = DOCS / f"{game.value}.md"
        kwargs = {}
        if path.is_file():
            kwargs["file"] = discord.File(path, filename=f"{game.value}-rules.md")
        await interaction.response.send_message(embed=embed, ephemeral=True, **kwargs)


async def setup(bot: PyramidBot) -> None:
    """Load the core commands."""
    await bot.add_cog(GameCommands(bot))
    await bot.add_cog(RulesCommand(bot))
