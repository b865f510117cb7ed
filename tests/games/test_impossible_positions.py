"""A stored game that no play can reach is refused with ``BadState``, never loaded.

Each case starts from a real position, changes one thing into something the rules forbid, and checks
that ``from_json`` refuses it, while the real position still loads.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games import assassin, combat, hedgehog, treasure
from games.base import BadState
from tests.games.test_assassin_rules import FAR, make
from tests.games.test_assassin_rules import sq as asq
from tests.games.test_combat_rules import _put
from tests.games.test_combat_rules import position as combat_position
from tests.games.test_combat_rules import sq as csq
from tests.games.test_hedgehog_rules import position as ring
from tests.games.test_treasure_rules import position as treasure_position
from tests.games.test_treasure_rules import sq as tsq


def refused(rules, state, **changes) -> None:
    """``state`` stored with ``changes`` made to its JSON is refused; the real state loads."""
    data = rules.to_json(state)
    assert rules.from_json(data) == state
    with pytest.raises(BadState):
        rules.from_json({**data, **changes})


def test_combat_a_won_position_marked_as_running_is_refused() -> None:
    state = combat_position(2, {"e6": "Y1", "e2": "Y2"})
    c6_board = _put(state, "c6", "R3@c1/R2@c1/R1@c1")
    both = replace(state, board=_put(replace(state, board=c6_board), "d6", "R3@d1/R2@d1/R1@d1"))
    capped = replace(both, capped=csq("c6 d6"))
    with pytest.raises(BadState, match="capped both home squares"):
        combat.RULES.from_json(combat.RULES.to_json(capped))
    d6 = csq("d6")[0]
    one = replace(both, board=tuple(() if i == d6 else stack for i, stack in enumerate(both.board)), capped=csq("c6"))
    assert combat.RULES.from_json(combat.RULES.to_json(one)) == one


def test_combat_a_large_on_a_small_is_refused() -> None:
    state = combat_position(2, {"b2": "R1", "e6": "Y1"})
    data = combat.RULES.to_json(state)
    board = dict(data["board"])
    board["b4"] = ["R2@c1", "R1@d1", "R3@d1"]  # a large on a small on a medium: neither tree nor nest
    with pytest.raises(BadState):
        combat.RULES.from_json({**data, "board": board})


def test_assassin_an_assassin_on_a_base_is_refused() -> None:
    state = make(4, 0, {0: "c3", **FAR})
    data = assassin.RULES.to_json(state)
    positions = list(data["positions"])
    positions[1] = "e1"
    with pytest.raises(BadState, match="assassin on a base"):
        assassin.RULES.from_json({**data, "positions": positions})
    on_base = make(4, 0, {0: "e1", **FAR})  # the victim may stand on a base
    assert assassin.RULES.from_json(assassin.RULES.to_json(on_base)) == on_base


def test_assassin_a_victim_with_all_four_bases_marked_as_running_is_refused() -> None:
    state = make(4, 0, {0: "c3", **FAR}, markers={0: ("e1", "j5", "f10")})
    data = assassin.RULES.to_json(state)
    assert assassin.RULES.from_json(data) == state
    markers = list(data["markers"])
    markers[0] = sorted(markers[0] + ["a6"], key=asq)
    with pytest.raises(BadState, match="all four bases"):
        assassin.RULES.from_json({**data, "markers": markers})


def test_hedgehog_a_tree_of_a_player_still_in_on_a_running_board_is_refused() -> None:
    state = ring("R3", "Y2", "G1", "R2", "Y1", "G3", "R1", "Y3", "G2", players=3, roll=None)
    data = hedgehog.RULES.to_json(state)
    stacks = {1: ["R3", "R2", "R1"], 2: ["Y2"], 3: ["G1"], 5: ["Y1"], 6: ["G3"], 8: ["Y3"], 9: ["G2"]}
    tree = {**data, "spaces": [[label, stack] for label, stack in stacks.items()]}
    with pytest.raises(BadState, match="built a tree"):
        hedgehog.RULES.from_json(tree)
    # the tree of a player who has left does not end the game
    assert hedgehog.RULES.from_json({**tree, "out": [0], "current": 1}).out == (0,)


def test_treasure_a_running_game_without_pyramids_is_refused() -> None:
    state = treasure_position(2, coins={0: {0: "a1", 1: "b1"}, 1: {0: "a10", 1: "b10"}}, pyramids={"c5": 1})
    refused(treasure.RULES, state, pyramids=[])


def test_treasure_a_coin_in_another_players_back_rows_is_refused() -> None:
    state = treasure_position(2, coins={0: {0: "a1", 1: "b1"}, 1: {0: "a10", 1: "b10"}}, pyramids={"c5": 1})
    data = treasure.RULES.to_json(state)
    coins = [list(row) for row in data["coins"]]
    coins[0][1] = "b9"  # South's ace in North's back two rows
    with pytest.raises(BadState, match="back rows"):
        treasure.RULES.from_json({**data, "coins": coins})
    assert tsq("b9") not in state.coins[0]
