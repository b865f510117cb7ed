"""``/rules`` inside Discord: a quick start with the opening board, section buttons and the full page."""

from __future__ import annotations

import io

from PIL import Image

from tests.discord.helpers import button_labels, embed_of

SECTIONS = ["Setup", "A turn", "Winning", "Notation"]


async def test_rules_answer_with_a_quick_start_a_picture_sections_and_the_page(table, simcord_env):
    carol = table.members[2]
    for game, title in (("combat", "Martian Combat"), ("whist", "Martian Whist"), ("assassin", None)):
        shown = await carol.slash(table.channel, "rules", game=game)
        assert shown.ephemeral
        embed = embed_of(shown)
        if title:
            assert embed.title == f"{title} — how to play"
        assert len(embed.description) <= 1200 and "**Goal:**" in embed.description
        assert embed.footer.text.endswith(f"start one with /{game} new (bots:1 seats a computer player)")
        assert embed.image.url == "attachment://opening.png"
        names = [a.filename for a in shown.response.attachments]
        assert names == ["opening.png", f"{game}-rules.md"]
        picture = Image.open(io.BytesIO(await shown.response.attachments[0].read()))
        assert picture.width >= 400
        assert button_labels(shown.response) == SECTIONS
        for label in SECTIONS:
            section = await carol.click(shown.response, label=label)
            assert section.ephemeral
            text = embed_of(section).description
            assert text and len(text) <= 4096 and "|---" not in text and "| --- |" not in text
            assert embed_of(section).title.endswith(f"— {label}")
            if (game, label) == ("combat", "A turn"):  # the longest section runs on into a second embed
                assert len(section.response.embeds) == 2 and "**Result.**" in section.response.embeds[1].description
    assert simcord_env.errors == []


async def test_a_section_button_keeps_working_after_a_restart(table, simcord_env, make_bot):
    dave = table.members[3]
    shown = await dave.slash(table.channel, "rules", game="treasure")
    await simcord_env.restart_bot(make_bot())
    section = await dave.click(shown.response, label="Notation")
    assert section.ephemeral and "arrange" in embed_of(section).description


def test_the_treasure_hunt_opening_shows_its_coins_face_up():
    """Its notes explain the coins by their numbers, which a game being arranged keeps face down."""
    from bot.session.showcase import opening_state
    from games.treasure import revealed_rows

    state, players = opening_state("treasure")
    assert players == 2 and all(revealed_rows(state))


async def test_the_opening_board_picture_is_described_for_screen_readers(table):
    result = await table.members[0].slash(table.channel, "rules", game="combat")
    [picture] = [a for a in result.response.attachments if a.filename == "opening.png"]
    assert picture.description == "Martian Combat: the board as a game starts, with notes on what is where."
