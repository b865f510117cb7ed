"""The no-Discord mode plays every game to its end through the real service and database."""

from __future__ import annotations

import random

import pytest

from bot.selfplay import play_one, seat_names, tally_line
from bot.session.service import GameService
from bot.session.store import Store

# Short settings keep random games brief; every game still ends by its own rules.
CASES = [
    ("hedgehog", 4, {"round_limit": 10}),
    ("combat", 2, {"turn_limit": 30}),
    ("combat", 4, {"variant": "advanced", "turn_limit": 30}),
    ("treasure", 2, {"stall_limit": 8}),
    ("treasure", 4, {"stall_limit": 8}),
    ("whist", 2, {"variant": "short"}),
    ("assassin", 3, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
async def test_selfplay_plays_the_game_to_its_end(db_url, game, players, options):
    store = await Store.open(db_url)
    try:
        service = GameService(store, render=False)
        seed = "selfplay-3-140" if game == "assassin" else f"{game}-{players}"  # a short assassination
        report, plies = await play_one(service, game, players, options, seed, 1, random.Random(players))
        stored = await store.game(report.game.id)
        assert stored.status == "finished" and stored.outcome is not None
        assert len(report.outcome.ranks) == players
        assert len(await store.moves(stored.id)) == plies == stored.ply
        assert not stored.rated  # random players are never rated
    finally:
        await store.close()


def test_seats_are_named_by_who_plays_them():
    assert seat_names(3, ["hard", "normal"]) == ["Seat 1 (hard)", "Seat 2 (normal)", "Seat 3 (random)"]


def test_the_tally_counts_first_places_and_whole_table_draws():
    names = seat_names(3, ["hard"])
    line = tally_line(names, [7, 2, 1], 1, 10)
    assert line == "Seat 1 (hard) first in 7 of 10 games, Seat 2 (random) 2, Seat 3 (random) 1; 1 drawn"
