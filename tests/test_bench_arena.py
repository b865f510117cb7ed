"""The arena plays each level with its own budget in each game unless told otherwise."""

from __future__ import annotations

import ai
from ai.budget import Budget
from bench.arena import normal_budget


def test_the_normal_bot_keeps_its_own_budget_in_each_game_unless_a_bound_is_given() -> None:
    for game in ("treasure", "combat"):
        own = ai.default_budget(game, "normal")
        assert normal_budget(game, None, None) == own
        assert normal_budget(game, 0, None) == Budget(max_iterations=own.max_iterations)  # no time bound: replays
    assert normal_budget("treasure", 0, None) != normal_budget("combat", 0, None)
    assert normal_budget("treasure", 0, 7) == normal_budget("combat", 0, 7) == Budget(max_iterations=7)
    assert normal_budget("whist", 250, 0) == Budget(max_ms=250)
