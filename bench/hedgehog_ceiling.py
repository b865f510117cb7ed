"""Two-player Der Marsigelwettkampf, solved: the most any bot can score against the easy bot, as JSON.

    python -m bench.hedgehog_ceiling               # the solved values (about a minute)
    python -m bench.hedgehog_ceiling --games 200   # and the best player against easy on the arena's seeds

Every two-player game starts from the same ring, and from it only about 27,500 positions can be
reached (the stacks, the seat to move, the die and the points left, whether the turn has moved a
piece, who has passed since the last move).  The bench builds all of them with the game's own
engine and solves two questions by value iteration, for the player who moves first and for the
one who moves second:

- **against the easy bot** (a uniform random choice among the legal moves, pass included): the best
  score rate any player can reach, win 1, draw half, loss 0;
- **against perfect play**: the value of the game when both sides play their best.

The 40-round limit is left out of the positions (it would multiply them by the rounds played): a
game that goes on for ever counts as a draw, and every step moves a value toward the draw by
``DISCOUNT``, which also makes quicker wins worth a little more.  ``--games N`` plays the best
player against the easy bot over the arena's seeds, dice and easy moves (``bench.arena``'s hard v
easy row), round limit included: the figure the arena's hard bot is measured against.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from typing import Any

import ai
from bench.arena import ending, wilson
from games import REGISTRY
from games.hedgehog import DIE_FACES, HedgehogState, Roll
from games.playout import roll_rng, setup_rng

RULES = REGISTRY["hedgehog"]
DISCOUNT = 0.9999  # per step toward a draw: a game that never ends is drawn
TOLERANCE = 1e-9  # value iteration stops once no value moves more than this in a sweep

Key = tuple[Any, ...]
CHANCE, SOLVER, OTHER, FINISHED = 0, 1, 2, 3  # what happens at a position


def timeless(s: HedgehogState) -> HedgehogState:
    """``s`` without its turn counters and last-move trace, and with no round limit."""
    return dataclasses.replace(s, last=None, turns=0, seat_turns=(0,) * s.players, round_limit=10**9, turn_limit=10**10)


def key(s: HedgehogState) -> Key:
    """What decides a two-player position's future: the stacks and the turn's state."""
    return (
        tuple(space.stack for space in s.spaces),
        s.current,
        s.roll,
        s.points,
        s.moved,
        s.passed,
        s.winner,
        s.finish,
    )


def score(s: HedgehogState, seat: int) -> float | None:
    """``seat``'s score in a finished game (win 1, draw 0.5, loss 0); None while it runs."""
    outcome = RULES.outcome(s)
    if outcome is None:
        return None
    winners = [i for i, rank in enumerate(outcome.ranks) if rank == 1]
    return 0.5 if len(winners) > 1 else 1.0 if winners == [seat] else 0.0


@dataclasses.dataclass
class Graph:
    """Every position reachable from the two starts: its key's index, and what follows each one."""

    index: dict[Key, int]
    seat_to_move: list[int]  # -1 while a roll is pending or once finished
    follow: list[list[int]]  # the positions each legal move (or each die face) leads to
    result: list[float | None]  # seat 0's score where finished


def starts() -> list[HedgehogState]:
    """The two-player start with seat 0 to move, and with seat 1 to move."""
    start = RULES.new_game(2, {}, random.Random(0))
    return [dataclasses.replace(start, current=first) for first in (0, 1)]


def build(origins: list[HedgehogState]) -> Graph:
    """All positions reachable from ``origins`` (two-player positions), which get indexes 0, 1, ..."""
    positions = [timeless(s) for s in origins]
    graph = Graph({key(s): i for i, s in enumerate(positions)}, [], [], [])
    i = 0
    while i < len(positions):
        s = positions[i]
        graph.result.append(score(s, 0))
        if graph.result[-1] is not None:
            graph.seat_to_move.append(-1)
            graph.follow.append([])
        else:
            rolling = RULES.pending_roll(s)
            moves = [Roll(face) for face in range(1, DIE_FACES + 1)] if rolling else RULES.legal_moves(s)
            graph.seat_to_move.append(-1 if rolling else s.current)
            row = []
            for move in moves:
                after = timeless(RULES.apply(s, move))
                j = graph.index.setdefault(key(after), len(positions))
                if j == len(positions):
                    positions.append(after)
                row.append(j)
            graph.follow.append(row)
        i += 1
    return graph


def solve(graph: Graph, solver: int, against_random: bool) -> list[float]:
    """``solver``'s score from every position: it plays its best; the other seat at random or its best."""
    kinds = []
    for seat, result in zip(graph.seat_to_move, graph.result, strict=True):
        if result is not None:
            kinds.append(FINISHED)
        elif seat == -1 or (seat != solver and against_random):
            kinds.append(CHANCE)
        else:
            kinds.append(SOLVER if seat == solver else OTHER)
    values = [0.5 if r is None else (r if solver == 0 else 1.0 - r) for r in graph.result]
    order = range(len(values) - 1, -1, -1)  # later positions first: values travel back faster
    change = 1.0
    while change > TOLERANCE:
        change = 0.0
        for i in order:
            kind = kinds[i]
            if kind == FINISHED:
                continue
            after = [values[j] for j in graph.follow[i]]
            best = max(after) if kind == SOLVER else min(after) if kind == OTHER else sum(after) / len(after)
            value = 0.5 + DISCOUNT * (best - 0.5)
            change = max(change, abs(value - values[i]))
            values[i] = value
    return values


def best_move(graph: Graph, values: list[float], solver: int, s: HedgehogState) -> Any:
    """The legal move in ``s`` with the best solved value for ``solver`` (a finished game by its score)."""

    def worth(move: Any) -> float:
        after = RULES.apply(s, move)
        finished = score(after, solver)
        return finished if finished is not None else values[graph.index[key(timeless(after))]]

    return max(RULES.legal_moves(s), key=worth)


def play_arena_seeds(graph: Graph, tables: dict[int, list[float]], games: int) -> dict[str, Any]:
    """The best player against easy on ``bench.arena``'s hard v easy seeds (seat 0 in even games)."""
    wins = draws = losses = goal = plies = 0
    for k in range(games):
        seed, solver = 1000 + k, k % 2
        s = RULES.new_game(2, {}, setup_rng(seed))
        ply = 0
        while RULES.outcome(s) is None:
            if RULES.pending_roll(s):
                move = RULES.roll(s, roll_rng(seed, ply))
            elif s.current == solver:
                move = best_move(graph, tables[solver], solver, s)
            else:
                move = ai.choose_move(RULES, s, "easy", seed=seed * 100_003 + ply)
            s = RULES.apply(s, move)
            ply += 1
        result = score(s, solver)
        wins, draws, losses = wins + (result == 1.0), draws + (result == 0.5), losses + (result == 0.0)
        goal += ending("hedgehog", s) == "goal"
        plies += ply
    rate = (wins + 0.5 * draws) / games
    low, high = wilson(wins + 0.5 * draws, games)
    return {
        "games": games,
        "W-D-L": f"{wins}-{draws}-{losses}",
        "score rate": round(rate, 3),
        "ci95": [round(low, 3), round(high, 3)],
        "goal": round(goal / games, 3),
        "mean plies": round(plies / games, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Solve the two-player game and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=0, help="also play the best player against easy on N arena seeds")
    args = parser.parse_args(argv)
    graph = build(starts())
    first_mover = {"moving first": 0, "moving second": 1}  # seat 0 moves first at position 0, seat 1 at position 1
    against_random = {seat: solve(graph, seat, True) for seat in (0, 1)}
    against_best = solve(graph, 0, False)
    figures: dict[str, Any] = {"positions": len(graph.result), "discount": DISCOUNT}
    for label, start in first_mover.items():
        figures[label] = {
            "best score against easy": round(against_random[0][start], 4),
            "value against perfect play": round(against_best[start], 4),
        }
    figures["best score against easy, either seat"] = round((against_random[0][0] + against_random[0][1]) / 2, 4)
    if args.games:
        figures["best player against easy, arena seeds"] = play_arena_seeds(graph, against_random, args.games)
    json.dump(figures, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
