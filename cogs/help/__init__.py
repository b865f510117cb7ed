"""``/rules``: how to play each game, inside Discord.

The answer is a short quick start (``_quickstart``) with a picture of the opening board, buttons for
the page's sections (``_pages``) and the whole page as a file.  Section buttons keep working after a
restart: their id names the game and the section.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.session import catalogue, opening_picture
from cogs.buttons import STALE, Control
from cogs.help._pages import SECTION_TITLES, page, section_pages, section_text
from cogs.help._quickstart import quick_start
from cogs.messages import players_range
from cogs.replies import answer, refusals, refuse

if TYPE_CHECKING:
    from bot.client import PyramidBot

RULES_COLOUR = discord.Colour(0x009E73)

# What the notes under each opening board point out (the board's own labels name the squares).
OPENING_NOTES: dict[str, tuple[str, ...]] = {
    "combat": (
        "Each colour starts with two nests on its own edge.",
        "Your home squares are on the far edge: build a tree on each.",
        "Codes such as R3 (red large) name the pieces in a move.",
    ),
    "treasure": (
        "The pyramids on the field are the treasure.",
        "Each player's coins start on their home row, one per value.",
        "The dice pick the coin (number) and how it moves (type).",
    ),
    "whist": (
        "The draft row: take only the top pyramid of a tree.",
        "Each player's stash is shown under the row, open to both.",
    ),
    "assassin": (
        "The victim starts in the safehouse in the middle.",
        "The four bases are on the edges: the victim must visit them all.",
        "The assassins start at the corners (from five assassins, beside them).",
    ),
    "hedgehog": (
        "The ring of spaces, numbered; empty spaces vanish.",
        "Each player owns a large, a medium and a small of one colour.",
        "Build yours into one stack, large at the bottom, to win.",
    ),
}


def game_choices() -> list[app_commands.Choice[str]]:
    """Every registered game as a slash-command choice."""
    return [app_commands.Choice(name=info.title, value=info.name) for info in catalogue()]


def titles() -> dict[str, str]:
    """Each registered game's title, by name."""
    return {info.name: info.title for info in catalogue()}


class SectionButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pg:help:(?P<game>[a-z]{1,20}):(?P<section>[a-z]{1,20})",
):
    """A button under ``/rules`` that shows one section of the page, privately."""

    def __init__(self, game: str, section: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=SECTION_TITLES.get(section, section.title()),
                style=discord.ButtonStyle.secondary,
                custom_id=f"pg:help:{game}:{section}",
            )
        )
        self.game, self.section = game, section

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SectionButton:
        return cls(match["game"], match["section"])

    async def callback(self, interaction: discord.Interaction) -> None:
        title = titles().get(self.game)
        texts = section_pages(self.game, self.section) if title else []
        if not texts:
            await refuse(interaction, STALE)
            return
        heading = f"{title} — {SECTION_TITLES[self.section]}"
        embeds = [
            discord.Embed(title=heading if n == 0 else None, description=text, colour=RULES_COLOUR)
            for n, text in enumerate(texts)
        ]
        await answer(interaction, embeds=embeds, ephemeral=True)


def section_buttons(game: str) -> discord.ui.View:
    """The section buttons of ``game``'s rules."""
    view = discord.ui.View(timeout=None)
    for section in SECTION_TITLES:
        if section_text(game, section):
            view.add_item(SectionButton(game, section))
    return view


class RulesCommand(commands.Cog):
    """``/rules <game>``: a quick start, the opening board, section buttons and the full page."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SectionButton)

    @app_commands.command(name="rules", description="How to play a game, and how to write its moves.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=game_choices())
    @refusals
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        info = next((i for i in catalogue() if i.name == game.value), None)
        if info is None:
            await refuse(interaction, "There is no such game here; pick one from the list.")
            return
        embed = discord.Embed(title=f"{info.title} — how to play", colour=RULES_COLOUR)
        embed.description = quick_start(info.name)
        seats = players_range(info.min_players, info.max_players)
        embed.set_footer(text=f"{seats} · start one with /{info.name} new (bots:1 seats a computer player)")
        files = [
            discord.File(
                io.BytesIO(await opening_picture(info.name, OPENING_NOTES.get(info.name, ()))),
                "opening.png",
                description=f"{info.title}: the board as a game starts, with notes on what is where.",
            )
        ]
        embed.set_image(url="attachment://opening.png")
        full = page(info.name)
        if full:
            files.append(discord.File(io.BytesIO(full.encode("utf-8")), filename=f"{info.name}-rules.md"))
        await answer(interaction, embed=embed, view=section_buttons(info.name), files=files, ephemeral=True)
