"""Render time and PNG size for every game, on states taken from seeded random playouts.

Usage: ``python -m bench.render [game ...] [--states N] [--pictures DIR]``; prints JSON.

With ``--pictures DIR`` it also writes each game's opening, middle and final position as seen on a
phone (scaled to 400 px wide), the pictures in ``docs/images``.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

import games
from bench import refuse_unknown_games
from bench.stats import nearest_rank
from games.playout import playout
from renderers import renderer_for

PICTURE_PLAYERS = {"combat": 4, "treasure": 4, "whist": 2, "assassin": 5, "hedgehog": 4}


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
    times, cpu, sizes = [], [], []
    for state, last in states:
        started, started_cpu = time.perf_counter(), time.process_time()
        data = render(state, last_move=last, names=names)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        sizes.append(len(data))
    return {
        "game": game,
        "states": len(states),
        "render_ms_median": round(statistics.median(times), 2),
        "render_ms_p95": round(nearest_rank(times, 0.95), 2),
        "render_cpu_ms_median": round(statistics.median(cpu), 2),  # steadier than wall time on a busy machine
        "png_kb_median": round(statistics.median(sizes) / 1024, 1),
        "png_kb_max": round(max(sizes) / 1024, 1),
    }


def phone_pictures(game: str, folder: Path, seed: int = 4) -> list[Path]:
    """Write the opening, a middle and the final position of a seeded game, scaled to phone width."""
    from renderers.layout import PHONE_WIDTH

    rules = games.REGISTRY[game]
    players = PICTURE_PLAYERS.get(game, max(2, rules.min_players))
    moves: list[Any] = [None]
    states = list(playout(rules, players, seed=seed, on_ply=lambda ply: moves.append(ply.move)))
    names = ["Alice", "Bob", "Carol", "Dave", "Erin"][:players]
    written = []
    for tag, index in (("opening", 0), ("middle", len(states) // 2), ("final", len(states) - 1)):
        data = renderer_for(game)(states[index], last_move=moves[index], names=names)
        board = Image.open(io.BytesIO(data)).convert("RGB")
        height = round(board.height * PHONE_WIDTH / board.width)
        small = board.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
        path = folder / f"{game}-{tag}.png"
        small.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(path, optimize=True)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(games.REGISTRY))
    parser.add_argument("--states", type=int, default=120)
    parser.add_argument("--pictures", type=Path, default=None, help="also write phone-size pictures here")
    args = parser.parse_args(argv)
    if refuse_unknown_games(args.games, games.REGISTRY):
        return 2
    if args.pictures is not None:
        args.pictures.mkdir(parents=True, exist_ok=True)
        for game in args.games:
            phone_pictures(game, args.pictures)
    json.dump({"benchmark": "render", "results": [measure(g, args.states) for g in args.games]}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
