"""Bot against bot: win rates with 95% Wilson intervals, goal-finish shares and decision times, as JSON.

    python -m bench.arena --games 60            # every pairing, 60 seeded games each
    python -m bench.arena --games 20 --only whist combat --pairings hard-easy
    python -m bench.arena --merge part1.json part2.json   # one table from runs of the same rows

A row can be played in parts: ``--first 100 --games 100`` plays games 100-199 of each row (the same
seeds and seats as a run of 200 would), and ``--merge`` adds the parts' counts up.  Decision times
are not merged.

Pairings (2 players, in every game that seats two): hard v easy, hard v normal, normal v easy; the
first bot takes seat 0 in even games and seat 1 in odd ones.  Multi-player: one hard bot and easy
bots at every table size of three or more the game seats (``--seats`` picks some), the hard bot's
seat rotating.  A draw counts half a win in the score rate.
Games run in a pool of two worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import ai
from ai.budget import cpu_stopwatch, stopwatch
from bench import refuse_unknown_games
from bench.stats import nearest_rank
from games import REGISTRY
from games.playout import playout, roll_rng, setup_rng, table_options

TWO_PLAYER_GAMES = ("combat", "treasure", "whist", "hedgehog")
# every table of three or more that each game seats
MULTI = {name: range(max(3, rules.min_players), rules.max_players + 1) for name, rules in REGISTRY.items()}
PAIRINGS = {"hard-easy": ("hard", "easy"), "hard-normal": ("hard", "normal"), "normal-easy": ("normal", "easy")}
MAX_PLIES = 20_000


@dataclass(frozen=True)
class Task:
    """One game to play: which game, the level of every seat, the seed and the budgets."""

    game: str
    levels: tuple[str, ...]
    seed: int
    # each bound: None keeps the level's own in this game, 0 lifts it
    hard_ms: float | None = None
    hard_iterations: int | None = None
    normal_ms: float | None = None
    normal_iterations: int | None = None


def ending(game: str, state: Any) -> str:
    """How the game ended: ``goal`` (someone reached the game's goal), ``all passed`` (a locked
    Marsigelwettkampf ring where every player passed a round), or ``limit`` (a turn, round or stall limit)."""
    if game == "combat":
        return "limit" if "turn limit" in state.reason else "goal"
    if game == "treasure":
        return "limit" if state.pyramids else "goal"
    if game == "assassin":
        return "goal" if state.end == "bases" else "limit"
    if game == "hedgehog":
        return {"tree": "goal", "passes": "all passed"}.get(state.finish, "limit")
    return "goal"


def level_budget(game: str, level: str, ms: float | None, iterations: int | None) -> ai.Budget:
    """A level's budget in ``game``: its own, each bound replaced where given (0: no bound)."""
    own = ai.default_budget(game, level)
    return ai.Budget(
        max_ms=own.max_ms if ms is None else (ms or None),
        max_iterations=own.max_iterations if iterations is None else (iterations or None),
    )


def play(task: Task) -> dict[str, Any]:
    """Play one game to its end; the result, whether it ended by goal, and the hard seats' decision times."""
    rules = REGISTRY[task.game]
    state = rules.new_game(len(task.levels), table_options(rules, len(task.levels)), setup_rng(task.seed))
    budgets = {
        "hard": level_budget(task.game, "hard", task.hard_ms, task.hard_iterations),
        "normal": level_budget(task.game, "normal", task.normal_ms, task.normal_iterations),
        "easy": None,
    }
    times: list[float] = []
    cpu: list[float] = []
    ply = 0
    while rules.outcome(state) is None:
        if ply >= MAX_PLIES:
            raise RuntimeError(f"{task.game} seed {task.seed}: no end after {MAX_PLIES} plies")
        seat = rules.to_move(state)
        if rules.pending_roll(state):
            move = rules.roll(state, roll_rng(task.seed, ply))
        else:
            assert seat is not None
            level = task.levels[seat]
            started, started_cpu = stopwatch(), cpu_stopwatch()
            move = ai.choose_move(rules, state, level, seed=task.seed * 100_003 + ply, budget=budgets[level])
            if level == "hard":
                times.append((stopwatch() - started) * 1000.0)
                cpu.append((cpu_stopwatch() - started_cpu) * 1000.0)
        state = rules.apply(state, move)
        ply += 1
    outcome = rules.outcome(state)
    assert outcome is not None
    return {
        "ranks": list(outcome.ranks),
        "ending": ending(task.game, state),
        "times": times,
        "cpu": cpu,
        "plies": ply,
    }


def table_budget(game: str) -> ai.Budget:
    """What a hard bot seat thinks with in ``game`` at the bot's default settings: the level's time
    (``AI_BUDGET_MS``'s default) given alone, as the bot asks for it, so the time bounds the search."""
    return ai.budget_for("hard", ai.default_budget(None, "hard").max_ms, game=game)


def time_decisions(game: str, players: int, count: int, seed: int) -> dict[str, list[float]]:
    """Wall and CPU milliseconds of ``count`` hard decisions at a bot seat's budget, on states of a random game."""
    rules = REGISTRY[game]
    budget = table_budget(game)
    options = table_options(rules, players)
    states = [
        s for s in playout(rules, players, options, seed=seed) if rules.outcome(s) is None and not rules.pending_roll(s)
    ]
    picks = states[:: max(1, len(states) // count)][:count]
    wall, cpu = [], []
    for k, state in enumerate(picks):
        started, started_cpu = stopwatch(), cpu_stopwatch()
        ai.choose_move(rules, state, "hard", seed=k, budget=budget)
        wall.append((stopwatch() - started) * 1000.0)
        cpu.append((cpu_stopwatch() - started_cpu) * 1000.0)
    return {"wall": wall, "cpu": cpu}


def summary(values: list[float]) -> dict[str, float]:
    """Count, median, p99 and maximum of some milliseconds."""
    ordered = sorted(values)
    return {
        "decisions": len(ordered),
        "median_ms": round(statistics.median(ordered), 1),
        "p99_ms": round(nearest_rank(ordered, 0.99), 1),
        "max_ms": round(ordered[-1], 1),
    }


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (draws may make ``successes`` fractional)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)


def _budgets(args: argparse.Namespace) -> tuple[float | None, int | None, float | None, int | None]:
    """hard ms, hard iterations, normal ms, normal iterations (None: the level's own in each game; 0: none)."""
    return args.hard_ms, args.hard_iterations, args.normal_ms, args.normal_iterations


def tasks_for(args: argparse.Namespace) -> list[tuple[str, Task, int]]:
    """Every game to play, tagged with its table key and the seat of the bot measured."""
    out = []
    for game in args.only:
        if game in TWO_PLAYER_GAMES:
            for key in args.pairings:
                first, second = PAIRINGS[key]
                for k in range(args.first, args.first + args.games):
                    levels: tuple[str, ...] = (first, second) if k % 2 == 0 else (second, first)
                    out.append((f"{game} {key}", Task(game, levels, 1000 + k, *_budgets(args)), k % 2))
        if args.multi:
            for n in (x for x in MULTI[game] if args.seats is None or x in args.seats):
                for k in range(args.first, args.first + args.games):
                    seat = k % n
                    levels = tuple("hard" if i == seat else "easy" for i in range(n))
                    out.append(
                        (
                            f"{game} {n}p hard+easy",
                            Task(game, levels, 5000 + k, *_budgets(args)),
                            seat,
                        )
                    )
    # interleave the pairings, so a run stopped early still has games in every row
    out.sort(key=lambda item: item[1].seed % 1000)
    return out


def table_json(results: dict[str, dict[str, Any]], times: dict[str, list[float]], budget: dict[str, Any]) -> str:
    """The JSON report of what has been played so far."""
    table = {}
    for key, row in results.items():
        n = row["games"]
        score = row["wins"] + 0.5 * row["draws"]
        table[key] = {
            "games": n,
            "wins": row["wins"],
            "draws": row["draws"],
            "losses": row["losses"],
            "score_rate": round(score / n, 3),
            "ci95": wilson(score, n),
            "first_place_rate": round((row["wins"] + row["draws"]) / n, 3),
            "goal_finish_rate": round(row["goal"] / n, 3),
            "limit_finish_rate": round(row["limit"] / n, 3),
            "all_passed_rate": round(row["all passed"] / n, 3),
            "mean_plies": round(row["plies"] / n),
            "counts": row,
        }
    decision = {game: summary(values) for game, values in times.items() if values}
    return json.dumps({"budget": budget, "results": table, "hard_decision_times": decision}, indent=2)


def empty_counts() -> dict[str, int]:
    """A row's counts before any game: games, the measured bot's wins, draws and losses, plies, and endings."""
    return {"games": 0, "wins": 0, "draws": 0, "losses": 0, "plies": 0, "goal": 0, "limit": 0, "all passed": 0}


def merged(tables: list[dict[str, Any]]) -> str:
    """One JSON table from several runs' tables: each row's counts added up, its rates worked out again."""
    budget = tables[0]["budget"]
    if any(table["budget"] != budget for table in tables):
        raise ValueError("These runs were played with different budgets: their rows cannot be added up.")
    results: dict[str, dict[str, Any]] = {}
    for table in tables:
        for key, row in table["results"].items():
            total = results.setdefault(key, empty_counts())
            for name, count in row["counts"].items():
                total[name] += count
    return table_json(results, {}, budget)


def timing(args: argparse.Namespace) -> int:
    """Time hard decisions at a bot seat's budget (``table_budget``) and print wall and CPU summaries,
    at two seats (four in the Assassination Game) and at the game's largest table."""
    report: dict[str, Any] = {"games": {}}
    tables = []
    for game in args.only:
        rules = REGISTRY[game]
        first = 4 if game == "assassin" else max(2, rules.min_players)
        sizes = dict.fromkeys(n for n in (first, rules.max_players) if args.seats is None or n in args.seats)
        tables += [(game, n) for n in sizes]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        jobs = {
            (game, n): [pool.submit(time_decisions, game, n, args.timing, seed) for seed in (1, 2)]
            for game, n in tables
        }
        for (game, n), futures in jobs.items():
            wall: list[float] = []
            cpu: list[float] = []
            for future in futures:
                result = future.result()
                wall += result["wall"]
                cpu += result["cpu"]
            report["games"][f"{game} {n}p"] = {
                "budget": str(table_budget(game)),
                "wall": summary(wall),
                "cpu": summary(cpu),
            }
    print(json.dumps(report, indent=2))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the arena and print the JSON table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="seeded games per pairing and player count")
    parser.add_argument(
        "--first", type=int, default=0, help="index of the first game of each row (to play a row in parts)"
    )
    parser.add_argument("--only", nargs="*", default=sorted(REGISTRY), help="games to play")
    parser.add_argument("--pairings", nargs="*", default=list(PAIRINGS), choices=list(PAIRINGS))
    parser.add_argument("--no-multi", dest="multi", action="store_false", help="skip the multi-player tables")
    parser.add_argument("--hard-ms", type=float, help="hard bot's time per decision (0: none; default: its own)")
    parser.add_argument("--hard-iterations", type=int, help="hard bot's iterations (0: no cap; default: its own)")
    parser.add_argument(
        "--normal-ms", type=float, help="normal bot's time per decision (0: none; default: its own in each game)"
    )
    parser.add_argument(
        "--normal-iterations", type=int, help="normal bot's iterations (0: no cap; default: its own in each game)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seats", nargs="*", type=int, help="multi-player seat counts (default: every one)")
    parser.add_argument("--out", help="also rewrite this file with the table after every game")
    parser.add_argument("--timing", type=int, default=0, help="only time N hard decisions per game")
    parser.add_argument("--merge", nargs="+", metavar="JSON", help="only print one table from these runs' tables")
    args = parser.parse_args(argv)
    if refuse_unknown_games(args.only, REGISTRY):
        return 2
    if args.merge:
        tables = []
        for path in args.merge:
            with open(path, encoding="utf-8") as handle:
                tables.append(json.load(handle))
        print(merged(tables))
        return 0
    if args.timing:
        return timing(args)
    tagged = tasks_for(args)
    bounds = ("hard_ms", "hard_iterations", "normal_ms", "normal_iterations")
    budget = {name: "its own" if value is None else value for name, value in zip(bounds, _budgets(args), strict=True)}
    results: dict[str, dict[str, Any]] = {}
    times: dict[str, list[float]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = {pool.submit(play, task): (key, task, seat) for key, task, seat in tagged}
        for future in as_completed(futures):
            key, task, seat = futures[future]
            result = future.result()
            row = results.setdefault(key, empty_counts())
            ranks = result["ranks"]
            first = [i for i, r in enumerate(ranks) if r == 1]
            row["games"] += 1
            row["plies"] += result["plies"]
            if first == [seat]:
                row["wins"] += 1
            elif seat in first:
                row["draws"] += 1
            else:
                row["losses"] += 1
            row[result["ending"]] += 1
            times.setdefault(task.game, []).extend(result["times"])
            times.setdefault(task.game + " cpu", []).extend(result["cpu"])
            print(f"{key}: {row['wins']}-{row['draws']}-{row['losses']}", file=sys.stderr, flush=True)
            if args.out:
                with open(args.out, "w", encoding="utf-8") as handle:
                    handle.write(table_json(results, times, budget))
    print(table_json(results, times, budget))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
