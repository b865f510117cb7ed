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
