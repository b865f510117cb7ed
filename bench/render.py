"""Render time and PNG size for every game, on states taken from seeded random playouts.

Usage: ``python -m bench.render [game ...] [--states N]``; prints JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import games
from games.playout import playout
from renderers import renderer_for


def sample_states(game: str, count: int) -> list[tuple[Any, Any]]:
    """(state, last move) pairs spread over several random games."""
    rules = games.REGISTRY[game]
    players = max(2, rules.min_players)
    picked: list[tuple[Any, Any]] = []
    seed = 0
    while len(picked) < count:
        last: list[Any] = [None]
        plies: list[Any] = []

        def remember(ply: Any, _plies: list[Any] = plies) -> None:
            _plies.append(ply.move)

        states = list(playout(rules, players, seed=seed, on_ply=remember))
        step = max(1, len(states) // 12)
        for index in range(0, len(states), step):
            last[0] = plies[index - 1] if index > 0 else None
            picked.append((states[index], last[0]))
        seed += 1
    return picked[:count]


def measure(game: str, count: int) -> dict[str, Any]:
    """Median and p95 render time (ms) and PNG sizes (KB) for ``game``."""
    render = renderer_for(game)
    states = sample_states(game, count)
    names = [f"Player {i + 1}" for i in range(12)]
    render(states[0][0], last_move=states[0][1], names=names)  # warm caches (fonts)
    times, sizes = [], []
    for state, last in states:
        started = time.perf_counter()
        data = render(state, last_move=last, names=names)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(data))
    times.sort()
    return {
        "game": game,
        "states": len(states),
        "render_ms_median": round(statistics.median(times), 2),
        "render_ms_p95": round(times[int(0.95 * (len(times) - 1))], 2),
        "png_kb_median": round(statistics.median(sizes) / 1024, 1),
        "png_kb_max": round(max(sizes) / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(games.REGISTRY))
    parser.add_argument("--states", type=int, default=120)
    args = parser.parse_args(argv)
    json.dump({"benchmark": "render", "results": [measure(g, args.states) for g in args.games]}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
