"""The three levels: what each one searches with, and its default budget."""

from __future__ import annotations

from ai.budget import Budget
from ai.search import Settings

LEVELS = ("easy", "normal", "hard")

# easy plays a uniform random legal move and has no settings.
SETTINGS: dict[str, Settings] = {
    "normal": Settings(
        exploration=0.8,
        cutoff=6,
        widening=False,
        use_evaluation=True,
        use_policy=False,
        use_prior=False,
        use_endgame=False,
    ),
    "hard": Settings(
        exploration=0.6,
        cutoff=8,
        widening=True,
        use_evaluation=True,
        use_policy=True,
        use_prior=True,
        use_endgame=True,
        expert=True,
    ),
}

DEFAULT_BUDGETS: dict[str, Budget] = {
    "normal": Budget(max_ms=150, max_iterations=100),
    "hard": Budget(max_ms=700, max_iterations=3000),
}

# A game's own budget for a level, where the level's default would not keep the levels apart.
# Martian Treasure Hunt is decided mostly by the dice, and the few squares a rolled coin can reach
# are soon searched through: at 100 iterations normal played almost as well as hard (hard scored
# 0.575 against it over 200 games), so normal thinks a third as long there (docs/ai.md, "Levels").
GAME_BUDGETS: dict[str, dict[str, Budget]] = {
    "treasure": {"normal": Budget(max_ms=150, max_iterations=30)},
}


def default_budget(game: str | None, level: str) -> Budget:
    """The budget ``level`` thinks with in ``game`` (any game: ``None``): the game's own, else the level's."""
    own = GAME_BUDGETS.get(game or "", {}).get(level)
    return own if own is not None else DEFAULT_BUDGETS[level]
