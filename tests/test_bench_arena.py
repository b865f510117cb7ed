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
