"""The conformance checks every registered game must pass (DESIGN.md, Tests).

``check_playouts`` plays seeded random games to the end and checks at every ply: the JSON
round trip, ``parse(format(m)) == m`` for every legal move (and the roll), that ``apply``
never mutates its input, and that replaying the notation log reproduces the game.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from games.base import BadNotation, GameError, IllegalMove, Rules
from games.playout import next_move, setup_rng

GARBAGE = [
    "",
    " ",
    "???",
    "zz99",
    "roll",
    "roll 99",
    "pass pass",
    "a1-a1-a1",
    "R9",
    "\u0000",
    "x" * 300,
    "'; DROP TABLE games; --",
    "-1",
    "9" * 40,
    "take",
    "play",
    "🙂",
    "a0",
    "k11",
]


def check_playouts(
    rules: Rules,
    players: int,
    options: Mapping[str, Any] | None = None,
    seeds: range = range(10),
    deep: bool = True,
) -> dict[str, int]:
    """Run random playouts for ``seeds``; ``deep`` adds every per-ply property. Returns counts."""
    plies_total = games = 0
    for seed in seeds:
        state = rules.new_game(players, dict(options or {}), setup_rng(seed))
        chooser = random.Random(f"{seed}/chooser")
        log: list[str] = []
        ply = 0
        initial = state
        while rules.outcome(state) is None:
            assert ply < 20_000, f"{rules.name} seed {seed}: no end after {ply} plies"
            seat = rules.to_move(state)
            assert seat is not None and 0 <= seat < players
            move, is_roll = next_move(rules, state, seed, ply, chooser)
            if deep:
                _check_state(rules, state)
                _check_resignations(rules, state, players)
                if is_roll:
                    assert not rules.legal_moves(state), "legal moves offered while a roll is pending"
                    _check_notation(rules, state, move)
                else:
                    for legal in rules.legal_moves(state):
                        _check_notation(rules, state, legal)
                snapshot = copy.deepcopy(state)
            notation = rules.format_move(state, move)
            after, description = rules.play(state, move)
            assert description and isinstance(description, str)
            assert rules.apply(state, move) == after, f"play and apply disagree at ply {ply}"
            if deep:
                assert state == snapshot, f"apply mutated its input at ply {ply}"
            log.append(notation)
            state = after
            ply += 1
        outcome = rules.outcome(state)
        assert outcome is not None and len(outcome.ranks) == players
        assert rules.to_move(state) is None
        assert not rules.legal_moves(state)
        if deep:
            _check_state(rules, state)
            replayed = initial
            for notation in log:
                replayed = rules.apply(replayed, rules.parse_move(replayed, notation))
            assert replayed == state, "replaying the notation log did not reproduce the game"
        plies_total += ply
        games += 1
    return {"games": games, "plies": plies_total}


def _check_resignations(rules: Rules, state: Any, players: int) -> None:
    """Any seat may leave at any ply (a resignation or a timeout): what is left is a state the codec stores."""
    for seat in range(players):
        try:
            left = rules.resign(state, seat)
        except GameError:
            continue  # a seat already out
        _check_state(rules, left)


def _check_state(rules: Rules, state: Any) -> None:
    data = rules.to_json(state)
    text = json.dumps(data)
    assert rules.from_json(json.loads(text)) == state, "JSON round trip changed the state"
    assert isinstance(rules.status_line(state), str)


def _check_notation(rules: Rules, state: Any, move: Any) -> None:
    notation = rules.format_move(state, move)
    assert isinstance(notation, str) and notation.strip() == notation and notation
    assert rules.parse_move(state, notation) == move, f"parse(format(m)) != m for {notation!r}"


def check_garbage(rules: Rules, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> None:
    """Garbage notation is refused with a typed error and a readable message, at every phase."""
    state = rules.new_game(players, dict(options or {}), setup_rng(seed))
    chooser = random.Random(seed)
    for ply in range(60):
        if rules.outcome(state) is not None:
            break
        legal = {rules.format_move(state, m) for m in rules.legal_moves(state)}
        for text in GARBAGE:
            if text in legal:
                continue
            with pytest.raises(GameError) as info:
                rules.parse_move(state, text)
            assert isinstance(info.value, (BadNotation, IllegalMove))
            assert str(info.value) and "Traceback" not in str(info.value)
        move, _ = next_move(rules, state, seed, ply, chooser)
        state = rules.apply(state, move)


def check_bad_state(rules: Rules, players: int, options: Mapping[str, Any] | None = None) -> None:
    """``from_json`` refuses damaged data with ``BadState`` rather than a raw exception."""
    from games.base import BadState

    state = rules.new_game(players, dict(options or {}), setup_rng(1))
    data = rules.to_json(state)
    for broken in ({}, {"nonsense": 1}, {k: None for k in data}):
        with pytest.raises(BadState):
            rules.from_json(broken)
