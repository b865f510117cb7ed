"""Replay GIFs of long games: frames drawn, bytes and time for each game, as JSON.

Usage: ``python -m bench.replay [game ...] [--plies N]``.  For each game it plays a random game
(four players where the game allows, two for Martian Whist) until it ends or reaches ``--plies``
(default 800), then draws its replay as ``/game replay`` does: at most ``MAX_FRAMES`` positions,
joined into one GIF that must fit Discord's 8 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from typing import Any

import games
from bench import refuse_unknown_games
from games.playout import playout
from renderers import render_game
from renderers.replay import DISCORD_LIMIT, animate, frame_count, pick_frames

PLAYERS = {"combat": 4, "treasure": 4, "whist": 2, "assassin": 5, "hedgehog": 4}


def measure(game: str, plies: int) -> dict[str, Any]:
    """Draw the replay of a random game of ``game`` cut at ``plies``; its figures."""
    rules = games.REGISTRY[game]
    states = []
    for state in playout(rules, PLAYERS[game], seed=1):
        states.append(state)
        if len(states) > plies:
            break
    started = time.perf_counter()
    picked = pick_frames(len(states))
    boards = [render_game(game, states[i]) for i in picked]
    drawn = time.perf_counter()
    gif = animate(boards, [f"{i}/{len(states) - 1}" for i in picked])
    done = time.perf_counter()
    return {
        "game": game,
        "positions": len(states),
        "frames": frame_count(gif),
        "gif_mb": round(len(gif) / 1024 / 1024, 2),
        "fits_discord": len(gif) <= DISCORD_LIMIT,
        "draw_s": round(drawn - started, 1),
        "animate_s": round(done - drawn, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the replay figures of every game asked for (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=sorted(PLAYERS))
    parser.add_argument("--plies", type=int, default=800)
    args = parser.parse_args(argv)
    if refuse_unknown_games(args.games, PLAYERS):
        return 2
    figures = [measure(game, args.plies) for game in args.games]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    json.dump({"replays": figures, "peak_rss_mb": round(peak_mb)}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
