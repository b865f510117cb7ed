"""A count of one is written with a singular noun everywhere a board or an engine says it ("1 point",
"1 space", "1 round"), as the engines' ``plural`` does."""

from __future__ import annotations

import re

from games.hedgehog import RULES as HEDGEHOG
from games.hedgehog import Step, topmost_own
from games.playout import playout
from games.treasure import RULES as TREASURE
from renderers import hedgehog as hedgehog_board
from renderers import treasure as treasure_board

ONE_PLURAL = re.compile(r"\b1 (points|spaces|rounds|turns)\b")


def test_treasure_score_panel_says_1_point_not_1_points():
    state = next(
        s
        for s in playout(TREASURE, 4, {}, seed=0)
        if s.phase != "arrange" and any(treasure_board.score(s, seat) == 1 for seat in range(4))
    )
    texts = [t.text for t in treasure_board.board_layout(state).texts]
    assert not [t for t in texts if ONE_PLURAL.search(t)], [t for t in texts if "point" in t]
    assert "1 point" in texts


def test_hedgehog_refusal_of_a_typed_move_says_1_space():
    for seed in range(50):
        for state in playout(HEDGEHOG, 3, {}, seed=seed):
            if state.phase != "move" or state.points != 1:
                continue
            for space in state.spaces:
                top = topmost_own(space.stack, state.current)
                if top is not None and space.stack[top].pips > 1:
                    try:
                        HEDGEHOG.apply(state, Step(space.stack[top], 1, 1))
                    except Exception as error:
                        message = str(error)
                        assert "costs" in message
                        assert not ONE_PLURAL.search(message), message
                        return
    raise AssertionError("no position with 1 point left and a bigger piece to move")


def test_hedgehog_board_of_a_one_round_game_says_1_round():
    final = list(playout(HEDGEHOG, 2, {"round_limit": 1}, seed=1))[-1]
    outcome = HEDGEHOG.outcome(final)
    assert outcome is not None and "1 round " in outcome.reason
    texts = [t.text for t in hedgehog_board.board_layout(final).texts]
    assert not [t for t in texts if ONE_PLURAL.search(t)], texts


def test_treasure_stall_limit_of_one_round_says_1_round():
    for seed in range(20):
        outcome = TREASURE.outcome(list(playout(TREASURE, 2, {"stall_limit": 1}, seed=seed))[-1])
        if outcome is not None and "No capture" in outcome.reason:
            assert not ONE_PLURAL.search(outcome.reason), outcome.reason
            return
    raise AssertionError("no game ended by the stall limit")
