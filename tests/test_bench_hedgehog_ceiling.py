"""The two-player Marsigelwettkampf solver behind ``bench.hedgehog_ceiling``, on small late positions.

The positions are written from docs/rules/hedgehog.md: a tree is large, medium, small of one colour
stacked in that order; a piece ends on a top of its size or larger; a space left empty vanishes.
"""

from __future__ import annotations

import dataclasses
import random

from bench.hedgehog_ceiling import RULES, best_move, build, score, solve, timeless
from games.hedgehog import HedgehogState, Piece, Space

COLOURS = {"R": 0, "Y": 1}


def position(*stacks: str, current: int) -> HedgehogState:
    """A two-player position with ``current`` about to roll; stacks bottom to top, e.g. ``R3/R2``."""
    start = RULES.new_game(2, {}, random.Random(0))
    spaces = tuple(
        Space(label, tuple(Piece(COLOURS[code[0]], int(code[1])) for code in stack.split("/")))
        for label, stack in enumerate(stacks, start=1)
    )
    return dataclasses.replace(start, spaces=spaces, current=current, passed=())


def test_a_tree_one_step_away_is_won_against_anyone():
    # Red's small lies on yellow's medium, one space from red's large and medium: any roll builds
    # red's tree before yellow can move its small onto its medium.
    s = position("R3/R2", "Y3/Y2/R1", "Y1", current=0)
    graph = build([s])
    assert solve(graph, 0, against_random=True)[0] > 0.999
    assert solve(graph, 0, against_random=False)[0] > 0.999
    rolled = RULES.apply(s, RULES.roll(s, random.Random(1)))
    win = RULES.apply(rolled, best_move(graph, solve(graph, 0, True), 0, rolled))
    assert score(win, 0) == 1.0


def test_the_solved_value_is_what_the_solved_moves_score_against_random_play():
    # Red's large carries yellow's small; red's medium sits on yellow's medium: each colour needs
    # the other to move first, and the game is won, lost or drawn by what the dice and the random
    # player do.  Playing the solved moves against random moves must score the solved value.
    s = position("R3/Y1", "R1", "Y3/Y2/R2", current=0)
    graph = build([s])
    values = solve(graph, 0, against_random=True)
    rng = random.Random(7)
    games, total = 1500, 0.0
    for _ in range(games):
        state = timeless(s)
        for _ply in range(600):  # a game that goes on this long counts as drawn, as in the solver
            if RULES.outcome(state) is not None:
                break
            if RULES.pending_roll(state):
                move = RULES.roll(state, rng)
            elif state.current == 0:
                move = best_move(graph, values, 0, state)
            else:
                moves = RULES.legal_moves(state)
                move = moves[rng.randrange(len(moves))]
            state = RULES.apply(state, move)
        finished = score(state, 0)
        total += 0.5 if finished is None else finished
    expected = values[0]
    assert 0.05 < expected < 0.95  # neither side is sure of the result
    standard_error = (expected * (1 - expected) / games) ** 0.5
    assert abs(total / games - expected) < 4 * standard_error + 0.01


def test_perfect_play_is_worth_no_more_than_play_against_random_moves():
    s = position("R3/Y1", "R1", "Y3/Y2/R2", current=0)
    graph = build([s])
    against_random = solve(graph, 0, against_random=True)
    against_best = solve(graph, 0, against_random=False)
    assert all(b <= r + 1e-9 for b, r in zip(against_best, against_random, strict=True))
    assert against_best[0] < against_random[0]
