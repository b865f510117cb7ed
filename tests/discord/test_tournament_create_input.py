"""Hostile values in ``/tournament create`` get one clear private sentence, and nothing is created."""

from __future__ import annotations

import logging

import discord

from tests.discord.helpers import refusal

NOT_CREATED = "There is no tournament on this server right now."


async def refused_cleanly(olga, table, simcord_env, caplog, **options) -> str:
    """Create with ``options``: one private sentence, no error logged, nothing stored; the sentence."""
    caplog.clear()
    with caplog.at_level(logging.ERROR):
        result = await olga.slash(table.channel, "tournament create", name="T", **options)
    text = refusal(result)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert simcord_env.errors == []
    assert refusal(await olga.slash(table.channel, "tournament status")) == NOT_CREATED  # nothing half created
    return text


FAR = "A tournament starts within a year: give an earlier start."


async def test_a_start_past_the_calendar_or_years_ahead_is_refused_in_one_sentence(table, club, simcord_env, caplog):
    olga, _ = club
    for start in ("<t:99999999999999>", "9" * 30 + "d", "400d", "2125-01-01 10:00"):
        text = await refused_cleanly(olga, table, simcord_env, caplog, game="whist", format="swiss", start=start)
        assert text == FAR, (start, text)


async def test_a_channel_the_bot_cannot_post_in_is_refused_and_nothing_is_created(table, club, simcord_env, caplog):
    olga, _ = club
    quiet = table.guild.create_text_channel(
        "quiet", overwrites={table.guild.me: discord.PermissionOverwrite(send_messages=False)}
    )
    text = await refused_cleanly(olga, table, simcord_env, caplog, game="whist", format="swiss", channel=quiet)
    assert text == (
        f"I may not send messages, embed links and attach files in {quiet.mention}: choose another channel, "
        "or ask a server manager for those permissions."
    )
    assert quiet.history() == []


async def test_a_bad_game_option_value_is_refused_in_the_games_own_words(table, club, simcord_env, caplog):
    olga, _ = club
    options = {"game": "combat", "format": "swiss", "options": "blocked=@everyone"}
    text = await refused_cleanly(olga, table, simcord_env, caplog, **options)
    assert text.startswith("`@everyone` is not a square"), text  # as /combat new says it


async def test_an_option_of_the_wrong_type_is_refused_in_plain_words(table, club, simcord_env, caplog):
    olga, _ = club
    wrong = {
        "round_limit=abc": "round\\_limit must be a whole number, not `abc`.",
        "xeno=maybe": "xeno must be yes or no, not `maybe`.",
    }
    for typed, said in wrong.items():
        text = await refused_cleanly(olga, table, simcord_env, caplog, game="hedgehog", format="tables", options=typed)
        assert text == said


async def test_a_game_option_given_twice_is_refused(table, club, simcord_env, caplog):
    olga, _ = club
    twice = {"game": "combat", "format": "swiss", "options": "turn_limit=5, turn_limit=500"}
    assert await refused_cleanly(olga, table, simcord_env, caplog, **twice) == (
        "`turn_limit` is given twice: give each option once."
    )
    both = {"game": "whist", "format": "swiss", "variant": "short", "options": "variant=normal"}
    assert await refused_cleanly(olga, table, simcord_env, caplog, **both) == (
        "Give the variant once: with the variant option or in options, not both."
    )
