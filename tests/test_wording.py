"""Counted nouns read right: ``1 move``, ``2 moves``, everywhere the bot counts something."""

from __future__ import annotations

import importlib
import pkgutil
import re
from datetime import timedelta
from pathlib import Path

from cogs.messages import format_span, options_line, plural

ROOT = Path(__file__).resolve().parent.parent
# an f-string that counts with a fixed plural noun: "{len(moves)} moves", "{count} points"
FIXED_PLURAL = re.compile(r"\{(len\([^)]*\)|[a-z_]*(count|total|left))\} [a-z]{2,}s\b")


def test_plural_says_one_and_many() -> None:
    assert plural(1, "move") == "1 move"
    assert plural(0, "move") == "0 moves"
    assert plural(2, "point") == "2 points"
    assert plural(1, "match", "matches") == "1 match"
    assert plural(3, "match", "matches") == "3 matches"


def test_spans_use_plurals() -> None:
    assert format_span(timedelta(days=1, hours=1)) == "1 day 1 hour"
    assert format_span(timedelta(days=2, hours=3)) == "2 days 3 hours"


def test_options_read_as_words_and_a_lobby_shows_only_the_changed_ones() -> None:
    combat = {"variant": "standard", "blocked": "", "turn_limit": 300}
    assert options_line("combat", combat) == "standard"
    assert options_line("combat", {**combat, "blocked": "b2 e5"}) == "blocked: b2 e5"
    assert options_line("combat", combat, changed_only=False) == "variant: standard, blocked: none, turn limit: 300"
    hedgehog = {"xeno": True, "round_limit": 20, "turn_limit": 200}
    assert options_line("hedgehog", hedgehog) == "xeno: on, round limit: 20"
    assert options_line("treasure", {"arrange": False, "stall_limit": 40}) == "arrange: off"


def test_no_message_counts_with_a_fixed_plural() -> None:
    found = []
    for folder in ("cogs",):  # what players read is worded in cogs/
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if FIXED_PLURAL.search(line) or re.search(r"\b[a-z]{3,}\(s\)[ .,]", line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "count with plural():\n" + "\n".join(found)


def test_every_refusal_kept_as_a_constant_is_one_sentence() -> None:
    """A refusal is one sentence: no constant worded for players holds a second one (the apology for
    a failure on our side, which is not a refusal, says what happened and what to do)."""
    found = []
    for package in ("bot.session", "bot.tournaments", "cogs"):
        for module_info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            module = importlib.import_module(module_info.name)
            for name, value in vars(module).items():
                if name.isupper() and name != "SORRY" and isinstance(value, str) and re.search(r"[.!?] +[A-Z]", value):
                    found.append(f"{module_info.name}.{name}: {value}")
    assert not found, "\n".join(found)
