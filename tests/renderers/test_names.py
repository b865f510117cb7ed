"""Players' names in pictures: any script or emoji is reduced to what the bundled font can draw."""

from __future__ import annotations

import pytest

import games
from games.playout import playout
from renderers import render_game
from renderers.pyramids import ELLIPSIS, display_name, fit_names, fit_player, text_width


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


def test_a_line_too_long_cuts_its_names_never_the_words_around_them():
    long = "Bartholomew Featherstonehaugh-Sm"
    line = fit_names("{}, {} and {} share the win", (long, "Christopher Columbus Junior", "Al"), 24, 400)
    assert line.endswith(" share the win") and text_width(line, 24) <= 400, line
    first, second, third = line.removesuffix(" share the win").replace(" and ", ", ").split(", ")
    assert first.endswith(ELLIPSIS) and second.endswith(ELLIPSIS) and third == "Al"  # the short name is kept whole
    assert abs(len(first) - len(second)) <= 2  # the longest is cut first, so both keep about as much


def test_a_name_is_cut_with_an_ellipsis_only_as_far_as_the_space_needs():
    assert fit_player("Red", "Bartholomew", " (left)", 17, 400) == "Red (Bartholomew) (left)"
    cut = fit_player("Red", "Bartholomew Featherstonehaugh-Sm", " (left)", 17, 200)
    assert cut.startswith("Red (Bart") and cut.endswith(f"{ELLIPSIS}) (left)") and text_width(cut, 17) <= 200
    one_more = cut.replace(f"{ELLIPSIS})", "")[len("Red (") :]
    longer = "Bartholomew Featherstonehaugh-Sm"[: len(one_more) + 1]
    assert text_width(f"Red ({longer}{ELLIPSIS}) (left)", 17) > 200  # a letter more would not fit
    assert fit_player("North", "", " wins", 17, 400) == "North wins"
