"""Every registered game is complete: conformance playouts, a renderer, a cog, a rules page."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import games
from bot.client import GAME_COGS
from games.base import OptionSpec
from tests.games.conformance import check_bad_state, check_garbage, check_playouts

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(games.REGISTRY)


@pytest.mark.parametrize("name", NAMES)
def test_the_game_declares_itself(name: str) -> None:
    rules = games.REGISTRY[name]
    assert rules.name == name and rules.title
    assert 1 <= rules.min_players <= rules.max_players
    assert all(isinstance(option, OptionSpec) for option in rules.options)


@pytest.mark.parametrize("name", NAMES)
def test_random_games_conform_at_every_player_count(name: str) -> None:
    rules = games.REGISTRY[name]
    options = {"turn_limit": 60} if any(o.name == "turn_limit" for o in rules.options) else {}
    total = 0
    for players in range(max(2, rules.min_players), min(rules.max_players, 5) + 1):
        total += check_playouts(rules, players, options, seeds=range(2), deep=True)["games"]
        total += check_playouts(rules, players, options, seeds=range(500, 540), deep=False)["games"]
        check_garbage(rules, players, options)
        check_bad_state(rules, players, options)
    assert total >= 42


@pytest.mark.parametrize("name", NAMES)
def test_a_thousand_random_games_each(name: str) -> None:
    rules = games.REGISTRY[name]
    players = max(2, rules.min_players)
    options = {"turn_limit": 30} if any(o.name == "turn_limit" for o in rules.options) else {}
    assert check_playouts(rules, players, options, seeds=range(10_000, 11_000), deep=False)["games"] == 1000


@pytest.mark.parametrize("name", NAMES)
def test_the_game_has_a_renderer_a_cog_and_a_rules_page(name: str) -> None:
    assert callable(importlib.import_module(f"renderers.{name}").render)
    assert f"cogs.{name}" in GAME_COGS
    page = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert "otation" in page  # every page explains how moves are written
