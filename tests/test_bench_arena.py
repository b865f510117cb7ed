"""The arena plays each level with its own budget in each game unless told otherwise."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

import ai
from ai.budget import Budget
from bench.arena import empty_counts, level_budget, merged, table_budget, table_json, tasks_for, time_decisions


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


def test_decisions_are_timed_with_what_a_bot_seat_thinks_with() -> None:
    """``--timing`` uses the bot's time per decision (``AI_BUDGET_MS``): the time bounds the search."""
    assert table_budget("combat") == ai.budget_for("hard", 700, game="combat") == Budget(700, 30_000)
    assert table_budget("treasure") == Budget(700, 30_000)  # normal has a game's own budget there, not hard
    times = time_decisions("hedgehog", 2, 2, seed=1)
    assert len(times["wall"]) == len(times["cpu"]) == 2


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


def test_a_row_played_in_parts_adds_up_to_the_whole_row() -> None:
    def args(first: int, games: int) -> Any:
        return SimpleNamespace(
            only=["hedgehog"],
            pairings=[],
            multi=True,
            seats=[3],
            games=games,
            first=first,
            hard_ms=0,
            hard_iterations=300,
            normal_ms=0,
            normal_iterations=None,
        )

    whole = [(key, task.seed, task.levels, seat) for key, task, seat in tasks_for(args(0, 6))]
    parts = [(key, task.seed, task.levels, seat) for key, task, seat in tasks_for(args(0, 4)) + tasks_for(args(4, 2))]
    assert sorted(parts) == sorted(whole)  # the same seeds, each with the hard bot in the same seat
    assert [task.seed for _, task, _ in tasks_for(args(4, 2))] == [5004, 5005]

    def row(wins: int, draws: int, losses: int, goal: int) -> dict[str, Any]:
        games = wins + draws + losses
        counts = {"games": games, "wins": wins, "draws": draws, "losses": losses, "plies": 100 * games}
        return {**empty_counts(), **counts, "goal": goal, "limit": games - goal}

    budget = {"hard_ms": 0.0}
    first = json.loads(table_json({"hedgehog 3p hard+easy": row(3, 1, 0, 3)}, {}, budget))
    second = json.loads(table_json({"hedgehog 3p hard+easy": row(1, 0, 1, 1)}, {}, budget))
    total = json.loads(merged([first, second]))["results"]["hedgehog 3p hard+easy"]
    assert (total["games"], total["wins"], total["draws"], total["losses"]) == (6, 4, 1, 1)
    assert total["score_rate"] == 0.75 and total["goal_finish_rate"] == round(4 / 6, 3)
    assert total["ci95"] == json.loads(table_json({"x": row(4, 1, 1, 4)}, {}, budget))["results"]["x"]["ci95"]
    with pytest.raises(ValueError, match="different budgets"):
        merged([first, {**second, "budget": {"hard_ms": 700.0}}])
