"""Random-playout speed of every engine (plies per second, no rendering, no storage).

Usage: ``python -m bench.engine [game ...] [--seconds S]``; prints JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import games
from bench import refuse_unknown_games
from games.playout import playout


def measure(game: str, seconds: float, players: int | None = None) -> dict[str, Any]:
    """Play seeded random games of ``game`` for about ``seconds``; count plies and games."""
    rules = games.REGISTRY[game]
    seats = players or max(2, rules.min_players)
    plies = played = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in playout(rules, seats, seed=played):
            plies += 1
        plies -= 1  # the first state is not a ply
        played += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game,
        "players": seats,
        "games": played,
        "plies": plies,
        "plies_per_second": round(plies / elapsed),
        "games_per_second": round(played / elapsed, 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(games.REGISTRY))
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    if refuse_unknown_games(args.games, games.REGISTRY):
        return 2
    results = [measure(g, args.seconds) for g in args.games]
    json.dump({"benchmark": "random playouts", "results": results}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
