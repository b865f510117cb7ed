"""Computer players for every registered game: one search over the ``Rules`` protocol.

Levels: ``easy`` plays a uniform random legal move; ``normal`` runs a small Monte Carlo tree
search scored by the game's evaluation; ``hard`` adds rollout policies, progressive widening
ordered by the evaluation, exact endgames (Martian Whist) and a larger budget.

The package is pure: no Discord, no database, no event loop.  Only ``ai.budget`` reads a clock.
Searches bounded by ``Budget(max_iterations=...)`` alone are deterministic for a given seed.
"""

from __future__ import annotations

import random
from typing import Any

from ai.budget import Budget
from ai.evaluation import profile_for
from ai.levels import DEFAULT_BUDGETS, LEVELS, SETTINGS, default_budget
from ai.search import Search
from games import REGISTRY
from games.base import Rules

__all__ = ["LEVELS", "Budget", "budget_for", "choose_move", "choose_notation", "default_budget", "roll_or_choose"]


def budget_for(
    level: str, budget_ms: float | None = None, max_iterations: int | None = None, game: str | None = None
) -> Budget:
    """The budget a level thinks with in ``game``: its default, with ``budget_ms`` and ``max_iterations`` overriding.

    ``budget_ms`` replaces the time bound; given alone it lifts the iteration cap tenfold, so the time
    is what bounds the search.  ``max_iterations`` caps the level's own iterations (a cap never makes
    a level think longer than its default, so the levels keep their distance); given alone (no time)
    it makes the search deterministic.
    """
    _check_level(level)
    default = default_budget(game, level) if level in DEFAULT_BUDGETS else Budget(max_iterations=1)
    if budget_ms is None and max_iterations is None:
        return default
    if max_iterations is None:
        max_iterations = 10 * (default.max_iterations or 1000)
    elif default.max_iterations is not None:
        max_iterations = min(max_iterations, default.max_iterations)
    return Budget(max_ms=budget_ms, max_iterations=max_iterations)


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}: choose one of {', '.join(LEVELS)}.")


def _rng(seed: int, what: str) -> random.Random:
    return random.Random(f"{seed}/ai/{what}")


def choose_move(rules: Rules, state: Any, level: str = "hard", seed: int = 0, budget: Budget | None = None) -> Any:
    """A legal move for the seat to move in ``state`` at ``level``.

    While a roll is pending the move is the dice, rolled from an RNG derived from ``seed``
    (a service that logs its own dice should call ``roll_or_choose`` with its roll RNG instead).
    Raises ``ValueError`` for an unknown level or a finished game.
    """
    _check_level(level)
    seat = rules.to_move(state)
    if seat is None or rules.outcome(state) is not None:
        raise ValueError("The game is over: there is no move to choose.")
    if rules.pending_roll(state):
        return rules.roll(state, _rng(seed, "dice"))
    moves = list(rules.legal_moves(state))
    if not moves:
        raise ValueError(f"{rules.name}: seat {seat} has no legal move and no roll is pending.")
    rng = _rng(seed, level)
    if level == "easy" or len(moves) == 1:
        return moves[rng.randrange(len(moves))]
    settings = SETTINGS[level]
    profile = profile_for(rules.name)
    if settings.use_endgame and profile.endgame is not None:
        exact = profile.endgame(rules, state, seat)
        if exact is not None:
            return exact
    return Search(rules, profile, settings, rng).run(state, budget or default_budget(rules.name, level))


def roll_or_choose(
    rules: Rules,
    state: Any,
    level: str,
    seed: int,
    budget: Budget | None = None,
    roll_rng: random.Random | None = None,
) -> Any:
    """The dice when a roll is pending (from ``roll_rng``, the service's own seeded RNG, if given), else a choice."""
    if rules.pending_roll(state) and roll_rng is not None:
        return rules.roll(state, roll_rng)
    return choose_move(rules, state, level, seed, budget)


def choose_notation(
    game_name: str,
    state_json: dict[str, Any],
    level: str,
    seed: int,
    budget_ms: float | None = None,
    max_iterations: int | None = None,
) -> str:
    """``choose_move`` for a process pool: the state as JSON in, the move's notation out.

    A top-level function of plain arguments, so ``ProcessPoolExecutor.submit`` can pickle it.
    With neither ``budget_ms`` nor ``max_iterations`` the level's default budget applies.
    """
    rules = REGISTRY[game_name]
    state = rules.from_json(state_json)
    move = choose_move(rules, state, level, seed, budget_for(level, budget_ms, max_iterations, game_name))
    return rules.format_move(state, move)
