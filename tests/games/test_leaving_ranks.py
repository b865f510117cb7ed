"""Whoever leaves a game ranks below every player still in it, the first to leave lowest.

Every game's rules say so (``docs/rules/``, "Leaving a game"), and the session relies on it: once the
last person has left a tournament's table of computer players, the people's places are settled and the
game ends there (``GameService.commit_entries``).
"""

from __future__ import annotations

import itertools
import random

import pytest

from games import REGISTRY
from games.playout import next_move, setup_rng, table_options

TABLES = [
    (name, players)
    for name, rules in sorted(REGISTRY.items())
    for players in range(max(3, rules.min_players), rules.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_those_who_leave_rank_below_everyone_still_in_the_first_to_leave_lowest(name: str, players: int) -> None:
    rules = REGISTRY[name]
    checked = 0
    for seed in range(12):
        state = rules.new_game(players, table_options(rules, players), setup_rng(seed))
        chooser = random.Random(f"{seed}/leaving")
        left: list[int] = []
        ply = 0
        while rules.outcome(state) is None:
            assert ply < 20_000
            if len(left) < players - 2 and chooser.random() < 0.02:
                seat = chooser.choice([s for s in range(players) if s not in left])
                state = rules.resign(state, seat)
                left.append(seat)
                continue
            move, _ = next_move(rules, state, seed, ply, chooser)
            state = rules.apply(state, move)
            ply += 1
        outcome = rules.outcome(state)
        assert outcome is not None
        staying = [s for s in range(players) if s not in left]
        for seat in left:
            assert outcome.ranks[seat] > max(outcome.ranks[s] for s in staying), (seed, left, outcome.ranks)
        for earlier, later in itertools.pairwise(left):
            assert outcome.ranks[earlier] > outcome.ranks[later], (seed, left, outcome.ranks)
        # exactly: the last to leave right after everyone still in, and so on back (place points count it)
        for back, seat in enumerate(reversed(left)):
            assert outcome.ranks[seat] == len(staying) + 1 + back, (seed, left, outcome.ranks)
        checked += bool(left)
    assert checked >= 3  # the seeds had players leave
