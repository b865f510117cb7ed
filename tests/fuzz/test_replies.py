"""The reply path under hostile text: Discord's limits, escaping, excerpts, autocomplete and logging."""

from __future__ import annotations

import io
import logging
import re
import sys

import discord
import pytest
from discord import app_commands
from discord.enums import AppCommandOptionType
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simcord.components import validate_embeds

from bot import logsafe
from cogs import errors
from cogs.replies import (
    REFUSAL_LIMIT,
    as_typed,
    fit_choices,
    fit_embed,
    fit_payload,
    quote_input,
    refusal_text,
    safe_autocomplete,
)
from cogs.text import CHOICE_COUNT, CONTENT_LIMIT, escape_user_text, shorten
from tests.fuzz.cases import HOSTILE_TEXT

pytestmark = pytest.mark.fuzz
HOSTILE = st.one_of(
    st.sampled_from(HOSTILE_TEXT),
    st.text(),
    st.text(min_size=1000, max_size=7000),
    st.builds(lambda a, b: a + "\ud800" + b, st.text(max_size=50), st.text(max_size=50)),
)
FAST = settings(max_examples=60, deadline=None)


@FAST
@given(HOSTILE, st.integers(1, 5000))
def test_shorten_never_passes_the_limit_and_cuts_at_a_space_when_it_can(text: str, limit: int) -> None:
    cut = shorten(text, limit)
    assert len(cut) <= limit
    cut.encode("utf-8")  # no lone surrogate left
    if len(text) <= limit and text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") == text:
        assert cut == text


def test_shorten_cuts_between_words_with_an_ellipsis() -> None:
    assert shorten("the quick brown fox jumps", 18) == "the quick brown…"
    assert shorten("x" * 50, 10) == "x" * 9 + "…"


@FAST
@given(HOSTILE)
def test_content_is_cut_to_2000_characters(text: str) -> None:
    fitted = fit_payload({"content": text, "ephemeral": True})
    assert len(fitted["content"]) <= CONTENT_LIMIT
    assert fitted["ephemeral"] is True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.data_too_large])  # large on purpose
@given(
    title=HOSTILE,
    description=HOSTILE,
    fields=st.lists(st.tuples(HOSTILE, HOSTILE), max_size=40),
    footer=HOSTILE,
)
def test_any_embed_fits_discords_limits(title: str, description: str, fields: list, footer: str) -> None:
    embed = discord.Embed(title=title, description=description)
    for name, value in fields:
        embed.add_field(name=name, value=value)
    embed.set_footer(text=footer)
    fitted = fit_embed(embed)
    validate_embeds([fitted.to_dict()])  # SimCord's copy of Discord's rules
    assert len(fitted.fields) <= 25


def test_embeds_in_one_message_share_6000_characters() -> None:
    embeds = [discord.Embed(description="word " * 900) for _ in range(4)]
    fitted = fit_payload({"embeds": embeds})
    validate_embeds([e.to_dict() for e in fitted["embeds"]])
    assert embeds[0].description == "word " * 900  # the caller's embed is left alone


@FAST
@given(HOSTILE, st.integers(2, 60))
def test_an_echo_of_typed_text_is_a_short_safe_excerpt(text: str, limit: int) -> None:
    quoted = quote_input(text, limit)
    inner = quoted[1:-1]
    assert quoted.startswith("`") and quoted.endswith("`") and "`" not in inner
    assert len(inner.replace("\u200b", "")) <= limit or inner == "(empty)"
    assert "\n" not in quoted and "\u202e" not in quoted
    assert "@everyone" not in quoted and not re.search(r"<@[!&]?[0-9]{17,20}>", quoted)


def test_quote_input_reads_well() -> None:
    assert quote_input("b2 e5") == "`b2 e5`"
    assert quote_input("x" * 100, 10) == "`xxxxxxxxx…`"
    assert quote_input("a`b") == "`aˋb`"
    assert quote_input("   ") == "`(empty)`"


def test_user_text_is_shown_without_markdown_or_mentions() -> None:
    shown = escape_user_text("**hi** @everyone <@123456789012345678>")
    assert "**" not in shown.replace("\\*", "")
    assert "@everyone" not in shown
    assert "<@123456789012345678>" not in shown


@FAST
@given(HOSTILE)
def test_a_refusal_is_one_short_sentence(text: str) -> None:
    sentence = refusal_text(text)
    assert 0 < len(sentence) <= REFUSAL_LIMIT
    assert "\n" not in sentence


def test_a_refusal_echoing_6000_characters_is_cut_to_an_excerpt() -> None:
    sentence = refusal_text(f"{'b2' * 3000} is not a square: use a1 to f6.")
    assert sentence.endswith("is not a square: use a1 to f6.")
    assert len(sentence) < 100


@FAST
@given(
    st.lists(
        st.builds(
            app_commands.Choice,
            name=HOSTILE,
            value=st.one_of(HOSTILE, st.integers(), st.floats(), st.booleans()),
        ),
        max_size=40,
    ),
    st.sampled_from([None, AppCommandOptionType.string, AppCommandOptionType.integer]),
)
def test_autocomplete_choices_always_fit(choices: list, kind: AppCommandOptionType | None) -> None:
    fitted = fit_choices(choices, kind)
    assert len(fitted) <= CHOICE_COUNT
    for choice in fitted:
        assert 0 < len(choice.name) <= 100
        if kind is AppCommandOptionType.string:
            assert isinstance(choice.value, str) and 0 < len(choice.value) <= 100
        if kind is AppCommandOptionType.integer:
            assert type(choice.value) is int and abs(choice.value) < 2**53


async def test_a_failing_autocomplete_answers_nothing_and_sees_a_string(caplog: pytest.LogCaptureFixture) -> None:
    seen = []

    class Cog:
        @safe_autocomplete
        async def suggest(self, interaction: object, current: str) -> list[app_commands.Choice[str]]:
            seen.append(current)
            return [app_commands.Choice(name=current.strip(), value="x" * 200)] if current else []

        @safe_autocomplete(kind=AppCommandOptionType.integer)
        async def broken(self, interaction: object, current: str) -> list[app_commands.Choice[int]]:
            raise RuntimeError("boom")

    class Interaction:
        id = 7

        class user:
            id = 1

    cog = Cog()
    assert await cog.suggest(Interaction(), 12) == []  # a value over 100 characters is dropped
    assert seen == ["12"]
    with caplog.at_level(logging.WARNING):
        assert await cog.broken(Interaction(), None) == []
        assert await cog.broken(Interaction(), None) == []
    errors_logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors_logged) == 1 and "ref" in errors_logged[0].getMessage()
    assert as_typed(3.0) == "3" and as_typed(None) == ""


def test_discord_py_still_reads_a_guarded_autocomplete() -> None:
    @app_commands.command(name="pick", description="Pick")
    async def pick(interaction: discord.Interaction, what: str) -> None: ...

    @pick.autocomplete("what")
    @safe_autocomplete
    async def suggest(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return []

    assert pick.parameters[0].autocomplete is True


def test_every_log_line_can_be_written_whatever_the_text() -> None:
    logsafe.install()
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("tests.fuzz.surrogates")
    logger.addHandler(handler)
    logger.propagate = False
    broken: list[str] = []
    handler.handleError = lambda record: broken.append(str(sys.exc_info()[1]))  # type: ignore[method-assign]
    try:
        logger.warning("typed %s", "a\ud800b")
        try:
            int("\udfff")
        except ValueError:
            logger.exception("failed on %r", "\ud800")
        handler.flush()
    finally:
        logger.removeHandler(handler)
    assert broken == []
    assert "a\\ud800b" in stream.buffer.getvalue().decode()


def test_the_option_check_names_the_option_without_echoing_it() -> None:
    @app_commands.command(name="vacation", description="Days off")
    async def vacation(interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]) -> None: ...

    clocks = [app_commands.Choice(name="no clock", value=0), app_commands.Choice(name="1 day", value=1)]

    @app_commands.command(name="new", description="New")
    @app_commands.choices(clock=clocks)
    async def new(interaction: discord.Interaction, blocked: app_commands.Range[str, 0, 40], clock: int = 0) -> None:
        pass

    def problem(command: app_commands.Command, **values: object) -> str | None:
        options = [{"name": k, "type": 4, "value": v} for k, v in values.items()]
        return errors.command_problem(command, {"options": options})

    assert problem(vacation, days="abc") == "`days` must be a whole number from 1 to 60."
    assert problem(vacation, days=2**64) == "`days` must be a whole number from 1 to 60."
    assert problem(vacation) == "`days` is required."
    assert problem(vacation, days=3) is None
    assert problem(new, blocked="b2 " * 2000) == "`blocked` must be at most 40 characters long."
    assert problem(new, blocked="b2", clock=9) == "`clock` must be one of: no clock, 1 day."
    assert problem(new, blocked="\ud800") == "`blocked` holds characters that cannot be stored; type it again."
