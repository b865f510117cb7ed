"""The five engines share one shape: phases are ``Phase`` members, JSON holds plain strings.

Every state met in seeded playouts has its phase as a member of the engine's ``Phase`` enum, and
``to_json`` writes it (and everything else) as plain JSON types.
"""

from __future__ import annotations

import importlib
import json
from enum import Enum, StrEnum
from typing import Any

import pytest

import games
from games.playout import playout

NAMES = sorted(games.REGISTRY)
SEEDS = range(3)


def _options(name: str) -> dict[str, Any]:
    rules = games.REGISTRY[name]
    return {"turn_limit": 60} if any(o.name == "turn_limit" for o in rules.options) else {}


def _players(name: str) -> int:
    return max(games.REGISTRY[name].min_players, 2)


def _states(name: str, seed: int) -> list[Any]:
    return list(playout(games.REGISTRY[name], _players(name), _options(name), seed=seed))


def _phase_enum(name: str) -> type[StrEnum]:
    module = importlib.import_module(type(games.REGISTRY[name]).__module__)
    phase = module.Phase
    assert issubclass(phase, StrEnum)
    return phase  # type: ignore[no-any-return]


def _plain(value: Any) -> bool:
    """True when ``value`` holds only plain JSON types (no enum members, no tuples)."""
    if isinstance(value, Enum):
        return False
    if isinstance(value, dict):
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or type(value) in (str, int, float, bool)


@pytest.mark.parametrize("name", NAMES)
def test_every_engine_has_a_phase_enum_with_an_over_member(name: str) -> None:
    phase = _phase_enum(name)
    assert phase("over") is phase.OVER  # type: ignore[attr-defined]
    assert all(member == member.value and str(member) == member.value for member in phase)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", NAMES)
def test_the_phase_of_every_state_is_a_member_and_json_is_plain(name: str, seed: int) -> None:
    rules = games.REGISTRY[name]
    phase = _phase_enum(name)
    seen = set()
    for state in _states(name, seed):
        assert isinstance(state.phase, phase), (name, state.phase)
        seen.add(state.phase)
        data = rules.to_json(state)
        assert _plain(data), name
        if "phase" in data:
            assert type(data["phase"]) is str and data["phase"] == state.phase.value
        back = rules.from_json(json.loads(json.dumps(data)))
        assert type(back.phase) is phase and back.phase is state.phase
    assert phase.OVER in seen  # type: ignore[attr-defined]


def test_old_phase_names_are_the_members() -> None:
    from games import combat, whist

    assert combat.MOVE is combat.Phase.MOVE and combat.OVER == "over"
    assert combat.ROLL_PHASES[combat.Phase.HOP_ROLL] == 2 and "hop_roll" in combat.ROLL_PHASES
    assert whist.DRAFT is whist.Phase.DRAFT and whist.TRICKS == "tricks" and whist.OVER == "over"
