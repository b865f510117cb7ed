"""Random legal players: used by the conformance suite, the no-Discord mode and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Rules


@dataclass(frozen=True)
class Ply:
    """One step of a playout: the state before, the move taken and who took it."""

    before: Any
    move: Any
    seat: int
    is_roll: bool


def roll_rng(seed: int | str, ply: int) -> random.Random:
    """The RNG for the dice of ply ``ply`` of a game with ``seed``.

    Derived from the seed and the ply alone, so taking a move back and rolling again
    at the same ply gives the same dice.
    """
    return random.Random(f"{seed}/roll/{ply}")


def table_options(rules: Rules, players: int) -> dict[str, Any]:
    """The options a table of ``players`` needs beyond the defaults: Der Marsigelwettkampf seats more
    than five only with the Xeno set's colours (``docs/rules/hedgehog.md``)."""
    from games.hedgehog import RAINBOW_COLOURS

    return {"xeno": True} if rules.name == "hedgehog" and players > RAINBOW_COLOURS else {}


def setup_rng(seed: int | str) -> random.Random:
    """The RNG a game's ``new_game`` receives."""
    return random.Random(f"{seed}/setup")


def next_move(rules: Rules, state: Any, seed: int | str, ply: int, chooser: random.Random) -> tuple[Any, bool]:
    """The next move of a random legal player: the dice when a roll is pending, else a random legal move."""
    if rules.pending_roll(state):
        return rules.roll(state, roll_rng(seed, ply)), True
    moves = rules.legal_moves(state)
    if not moves:
        raise AssertionError(f"{rules.name}: seat {rules.to_move(state)} to move with no legal move and no roll")
    return moves[chooser.randrange(len(moves))], False


def playout(
    rules: Rules,
    players: int,
    options: Mapping[str, Any] | None = None,
    seed: int | str = 0,
    max_plies: int = 100_000,
    on_ply: Callable[[Ply], None] | None = None,
) -> Iterator[Any]:
    """Play a random game to the end, yielding every state from the first to the last."""
    state = rules.new_game(players, dict(options or {}), setup_rng(seed))
    chooser = random.Random(f"{seed}/chooser")
    yield state
    ply = 0
    while rules.outcome(state) is None:
        if ply >= max_plies:
            raise AssertionError(f"{rules.name}: no end after {max_plies} plies (seed {seed})")
        seat = rules.to_move(state)
        move, is_roll = next_move(rules, state, seed, ply, chooser)
        if on_ply is not None:
            on_ply(Ply(state, move, seat if seat is not None else -1, is_roll))
        state = rules.apply(state, move)
        ply += 1
        yield state
