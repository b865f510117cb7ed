"""Der Marsigelwettkampf among random movers: how soon an open large or medium is covered, and for how long, as JSON.

    python -m bench.hedgehog_cover                       # ten seats, 200 random games
    python -m bench.hedgehog_cover --seats 6 --games 400

A colour's medium must land directly on its large and its small directly on its medium.  A piece of
another colour lying there stays until its owner moves it (``docs/rules/hedgehog.md``, "Moving"),
which at a table of easy bots may be a long time.  The bench plays random games (every seat a
uniform random choice among its legal moves, pass included, as the easy bot plays) and looks at
every colour at the start of each of its turns: is its large, and its medium, on top of its stack
(open), or is another colour's small, medium or large lying directly on it (covered)?  From one of
a colour's turns to its next, one round, it counts how often an open piece was covered, by what,
and how often a covered one was freed.  The ring shrinks as the game goes on, so the figures are
given for three ring sizes: more than one and a half spaces per seat, down to three quarters of a
space per seat, and fewer.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

from games import REGISTRY
from games.hedgehog import HedgehogState, Piece, find_piece
from games.playout import playout, table_options

RULES = REGISTRY["hedgehog"]
PIECES = {3: "large", 2: "medium"}
SIZES = {1: "small", 2: "medium", 3: "large"}
OPEN, OWN = "open", "own"  # on top of its stack; under the colour's own piece


def ring_band(spaces: int, seats: int) -> str:
    """The ring size as one of three bands, in spaces per seat."""
    if spaces > 1.5 * seats:
        return f"more than {int(1.5 * seats)} spaces"
    if spaces > 0.75 * seats:
        return f"{int(0.75 * seats) + 1}-{int(1.5 * seats)} spaces"
    return f"{int(0.75 * seats)} spaces or fewer"


def looks(s: HedgehogState, colour: int) -> dict[str, str]:
    """For ``colour``'s large and medium: what lies directly on it."""
    found: dict[str, str] = {}
    for pips, name in PIECES.items():
        index, height = find_piece(s.spaces, Piece(colour, pips))
        stack = s.spaces[index].stack
        if height + 1 == len(stack):
            found[name] = OPEN
        else:
            above = stack[height + 1]
            found[name] = OWN if above.colour == colour else SIZES[above.pips]
    return found


def turn_starts(seats: int, seed: int) -> Iterator[tuple[int, str, dict[str, str]]]:
    """(colour, ring band, looks) at the start of every turn of a random game: where its die is to be rolled."""
    for state in playout(RULES, seats, table_options(RULES, seats), seed=f"cover/{seed}"):
        if RULES.outcome(state) is None and RULES.pending_roll(state):
            colour = RULES.to_move(state)
            assert colour is not None
            yield colour, ring_band(len(state.spaces), seats), looks(state, colour)


def count(seats: int, games: int) -> tuple[Counter[tuple[str, str, str]], Counter[tuple[str, str, str, str]]]:
    """Rounds a piece started in each state (piece, band, look) and what it was at the colour's next turn."""
    started: Counter[tuple[str, str, str]] = Counter()
    became: Counter[tuple[str, str, str, str]] = Counter()
    for seed in range(games):
        last: dict[int, tuple[str, dict[str, str]]] = {}
        for colour, band, now in turn_starts(seats, seed):
            if colour in last:
                then_band, then = last[colour]
                for piece, look in then.items():
                    started[(piece, then_band, look)] += 1
                    became[(piece, then_band, look, now[piece])] += 1
            last[colour] = (band, now)
    return started, became


def share(part: int, whole: int) -> float:
    """``part / whole`` to three places (0 when nothing was seen)."""
    return round(part / whole, 3) if whole else 0.0


def report(seats: int, games: int) -> dict[str, Any]:
    """The figures as a JSON-ready dict: per piece and ring band, open rounds covered and covered rounds freed."""
    started, became = count(seats, games)
    bands = [ring_band(spaces, seats) for spaces in (3 * seats, seats, 1)]
    rows = []
    for piece in PIECES.values():
        for band in bands:
            opened = started[(piece, band, OPEN)]
            covered_by = {
                size: became[(piece, band, OPEN, size)] for size in SIZES.values() if became[(piece, band, OPEN, size)]
            }
            freed = {}
            for size in SIZES.values():
                rounds = started[(piece, band, size)]
                if rounds:
                    left = became[(piece, band, size, OPEN)] + became[(piece, band, size, OWN)]
                    freed[size] = {"rounds": rounds, "freed_next_round": share(left, rounds)}
            rows.append(
                {
                    "piece": piece,
                    "ring": band,
                    "open_rounds": opened,
                    "covered_next_round": share(sum(covered_by.values()), opened),
                    "covered_by": {size: share(n, opened) for size, n in covered_by.items()},
                    "covered": freed,
                }
            )
    return {"seats": seats, "games": games, "results": rows}


def main(argv: list[str] | None = None) -> int:
    """Play the random games and print the figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.hedgehog_cover", description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=10, help="players at the table, 3 to 10 (default 10)")
    parser.add_argument("--games", type=int, default=200, help="random games to play (default 200)")
    args = parser.parse_args(argv)
    if not 3 <= args.seats <= RULES.max_players:
        parser.error(f"--seats must be 3 to {RULES.max_players}")
    json.dump(report(args.seats, args.games), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
