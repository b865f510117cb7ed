"""Players' names in pictures: any script or emoji is reduced to what the bundled font can draw."""

from __future__ import annotations

import pytest

import games
from games.playout import playout
from renderers import render_game
from renderers.pyramids import display_name


def test_names_keep_what_the_font_draws_and_drop_the_rest():
    names = ["Zoë 🐉", "李小龙", "Ñandú", "", "plain"]
    assert [display_name(names, seat) for seat in range(6)] == ["Zoe", "player 2", "Nandu", "", "plain", ""]
    assert display_name(None, 0) == ""


def test_a_name_the_font_cannot_draw_at_all_becomes_its_seat():
    names = ["שלום עליכם", "مرحبا بالعالم", "😀😀😀", "李小龙 Bruce", "   "]
    assert [display_name(names, seat) for seat in range(5)] == ["player 1", "player 2", "player 3", "Bruce", ""]


@pytest.mark.parametrize("game", sorted(games.REGISTRY))
def test_every_board_renders_with_names_from_any_script(game):
    rules = games.REGISTRY[game]
    players = {"whist": 2}.get(game, max(3, rules.min_players))
    state = list(playout(rules, players, seed=4))[5]
    exotic = ["李小龙", "Zoë 🐉🐉", "@everyone", "x" * 80, "Ωmega"][:players]
    plain = ["player 1", "Zoe", "@everyone", "x" * 80, "mega"][:players]
    assert render_game(game, state, names=exotic) == render_game(game, state, names=plain)
