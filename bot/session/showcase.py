"""Pictures of a game that is not being played: the opening board that ``/rules`` shows."""

from __future__ import annotations

import asyncio
from functools import lru_cache

from bot.session.service import rules_for
from games.base import resolve_options
from games.playout import setup_rng
from renderers import render_game
from renderers.annotate import with_notes

SHOWCASE_SEED = 1  # the same opening every time
# a picture meant to explain the game shows what a game's first moments hide: Treasure Hunt's coins
# are set out face down when players arrange them, so its opening is shown with the standard order
SHOWCASE_OPTIONS: dict[str, dict[str, object]] = {"treasure": {"arrange": False}}


def opening_state(game: str) -> tuple[object, int]:
    """The opening position ``/rules`` shows for ``game`` and its number of players."""
    rules = rules_for(game)
    players = max(2, rules.min_players) if rules.max_players >= 2 else rules.min_players
    options = resolve_options(rules.options, SHOWCASE_OPTIONS.get(game, {}))
    return rules.new_game(players, options, setup_rng(SHOWCASE_SEED)), players


@lru_cache(maxsize=8)
def opening_board(game: str, notes: tuple[str, ...] = ()) -> bytes:
    """A new game of ``game`` at its smallest usual table, with ``notes`` written under the board."""
    state, players = opening_state(game)
    png = render_game(game, state, names=[f"Player {seat + 1}" for seat in range(players)])
    return with_notes(png, notes) if notes else png


async def opening_picture(game: str, notes: tuple[str, ...] = ()) -> bytes:
    """``opening_board`` drawn off the event loop."""
    return await asyncio.to_thread(opening_board, game, notes)
