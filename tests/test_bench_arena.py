"""The arena plays each level with its own budget in each game unless told otherwise."""

from __future__ import annotations

import ai
from ai.budget import Budget
from bench.arena import level_budget


def test_the_normal_bot_keeps_its_own_budget_in_each_game_unless_a_bound_is_given() -> None:
    for game in ("treasure", "combat"):
        own = ai.default_budget(game, "normal")
        assert level_budget(game, "normal", None, None) == own
        assert level_budget(game, "normal", 0, None) == Budget(
            max_iterations=own.max_iterations
        )  # no time bound: replays
    assert level_budget("treasure", "normal", 0, None) != level_budget("combat", "normal", 0, None)
    assert (
        level_budget("treasure", "normal", 0, 7) == level_budget("combat", "normal", 0, 7) == Budget(max_iterations=7)
    )
    assert level_budget("whist", "normal", 250, 0) == Budget(max_ms=250)


def test_the_hard_bot_follows_the_same_rule() -> None:
    assert level_budget("combat", "hard", None, None) == ai.default_budget("combat", "hard")
    assert level_budget("combat", "hard", 0, 300) == Budget(max_iterations=300)  # the measured rows


def test_the_multi_player_rows_cover_every_table_size_each_game_seats() -> None:
    from bench.arena import MULTI
    from games import REGISTRY
    from games.playout import setup_rng, table_options

    assert list(MULTI["assassin"]) == list(range(3, 10))  # up to nine players
    assert list(MULTI["hedgehog"]) == list(range(3, 11))  # up to ten, with the Xeno colours
    assert list(MULTI["whist"]) == []  # a two-player game has no such row
    for game, sizes in MULTI.items():
        for players in sizes:
            state = REGISTRY[game].new_game(players, table_options(REGISTRY[game], players), setup_rng(1))
            assert REGISTRY[game].outcome(state) is None
