"""The ``/rules`` texts: a quick start that fits a phone, sections without tables or cut sentences."""

from __future__ import annotations

import random
import re

import pytest

import games
from cogs.help import OPENING_NOTES
from cogs.help._pages import EMBED_TEXT, SECTION_TITLES, fit, page, plain, section_pages, section_text, sections
from cogs.help._quickstart import QUICK_LIMIT, QUICK_STARTS, quick_start
from games.combat import RULES as COMBAT

NAMES = sorted(games.REGISTRY)
ENDINGS = (".", ")", "`", "*", ":", '."')


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_a_quick_start_that_fits_a_phone(name: str) -> None:
    text = quick_start(name)
    assert 300 < len(text) <= QUICK_LIMIT
    assert "**Goal:**" in text and "move" in text and f"/{name} move" in text
    assert "|" not in text
    assert OPENING_NOTES[name]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("section", list(SECTION_TITLES))
def test_every_section_button_has_text_without_tables_or_cut_sentences(name: str, section: str) -> None:
    text = section_text(name, section)
    pages = section_pages(name, section)
    assert text and "\n\n".join(pages) == text and all(len(p) <= EMBED_TEXT for p in pages)
    assert len(text) + len(pages) * 80 <= 6_000  # Discord's limit across a message's embeds, with titles
    assert not any(line.lstrip().startswith("|") for line in text.splitlines())
    last = text.rstrip().splitlines()[-1]
    assert last.endswith(ENDINGS) or last.startswith("• "), text[-80:]  # a whole sentence or a whole row


@pytest.mark.parametrize("name", NAMES)
def test_the_page_shipped_with_the_bot_is_the_rules_page(name: str) -> None:
    assert page(name).startswith("# ")
    assert [s.heading for s in sections(name)]


def test_unknown_or_hostile_game_names_have_no_page() -> None:
    assert page("../../pyproject") == "" and page("nosuchgame") == "" and section_text("nosuch", "setup") == ""


def test_tables_become_bullet_lines_and_wrapped_lines_join() -> None:
    markdown = "| a | b |\n|---|---|\n| `x` | does x |\n\nOne sentence\nwrapped here.\n- item\n  goes on"
    assert plain(markdown) == "• `x`: does x\n\nOne sentence wrapped here.\n- item goes on"


def test_long_text_is_cut_between_paragraphs_with_a_pointer_to_the_page() -> None:
    text = "\n\n".join(f"Paragraph {n} says something complete." for n in range(400))
    cut = fit(text, 1000, "More in the page.")
    assert len(cut) <= 1000 and cut.endswith("complete.\n\nMore in the page.")


def test_a_long_section_runs_on_into_a_second_embed_instead_of_being_cut() -> None:
    pages = section_pages("combat", "turn")
    assert len(pages) == 2 and "The full page" not in pages[-1]
    assert "**Result.**" in pages[-1] and "**Advanced.**" in pages[-1]  # how a combat ends, the part once cut


def button_labels(name: str, games_played: int = 6) -> set[str]:
    """Every label a legal move of ``name`` shows on a button or in a menu, over a few random games."""
    from games.playout import playout, table_options

    rules = games.REGISTRY[name]
    players = max(2, rules.min_players)
    labels: set[str] = set()
    for seed in range(games_played):
        for state in playout(rules, players, table_options(rules, players), seed=seed):
            if rules.outcome(state) is None and not rules.pending_roll(state):
                labels |= {rules.choice(state, move).label for move in rules.legal_moves(state)}
    return labels


@pytest.mark.parametrize("name", NAMES)
def test_the_buttons_a_quick_start_names_are_the_ones_the_game_shows(name: str) -> None:
    named = set(re.findall(r"\*\*([A-Z][\w -]*)\*\*", quick_start(name))) - {"Goal", "Roll"}
    assert named <= button_labels(name), named - button_labels(name)


def _standard_blocked() -> set[str]:
    state = COMBAT.new_game(2, {}, random.Random(0))  # default variant: standard
    return {f"{'abcdef'[i % 6]}{i // 6 + 1}" for i in state.blocked}


@pytest.mark.parametrize(
    "text",
    [
        QUICK_STARTS["combat"],
        page("combat"),
    ],
    ids=["quick-start", "rules-page"],
)
def test_combat_attack_and_hop_examples_do_not_target_blocked_centre_squares(text: str) -> None:
    """docs/rules/combat.md: the corners and, in standard and advanced, the centre c3, d3, c4, d4 are
    blocked, and blocked squares cannot be entered: an example must not aim at one in the default game."""
    blocked = _standard_blocked()
    assert {"d3", "d4"} <= blocked
    targets = re.findall(r"`[a-f][1-6] ?x ?([a-f][1-6])`", text) + re.findall(
        r"`hop (?:[RYGB]?[1-3] )?[a-f][1-6]-([a-f][1-6])`", text
    )
    assert targets, "no attack/hop example found"
    bad = [t for t in targets if t in blocked]
    assert not bad, f"examples target blocked squares: {bad}"
