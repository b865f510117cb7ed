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
    return phase


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


# --- damaged JSON is refused by every engine through the shared reader -------------------------------

# Keys a state stored by an older version may lack; the engine then fills a default (documented in the codecs).
OPTIONAL_KEYS = {
    "combat": {"version"},
    "hedgehog": {"round_limit", "seat_turns"},
    "treasure": {"game", "quiet_rounds", "quiet_seen", "pending"},
}
TITLES = {
    "assassin": "Martian Assassination",
    "combat": "Martian Combat",
    "hedgehog": "Marsigelwettkampf",
    "treasure": "Martian Treasure Hunt",
    "whist": "Martian Whist",
}


def _samples(name: str) -> list[dict[str, Any]]:
    """JSON of a fresh game, one in the middle and a finished one."""
    states = _states(name, 7)
    rules = games.REGISTRY[name]
    return [rules.to_json(states[k]) for k in (0, len(states) // 2, -1)]


def _refused(name: str, data: Any, *words: str) -> None:
    rules = games.REGISTRY[name]
    with pytest.raises(games.base.BadState) as caught:
        rules.from_json(data)
    text = str(caught.value)
    assert text.startswith(f"The stored {TITLES[name]} game is damaged: "), text
    assert text.endswith(".") and "\n" not in text
    for word in words:
        assert word in text, (word, text)


@pytest.mark.parametrize("name", NAMES)
def test_samples_load(name: str) -> None:
    rules = games.REGISTRY[name]
    for data in _samples(name):
        assert rules.to_json(rules.from_json(json.loads(json.dumps(data)))) == data


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_phase_is_refused(name: str) -> None:
    key = "finish" if name == "hedgehog" else "phase"  # hedgehog stores its ending, not its phase
    for data in _samples(name):
        for bad in ("nonsense", "OVER", "" if key == "phase" else "roll", 3, None, ["over"]):
            _refused(name, {**data, key: bad}, key)


@pytest.mark.parametrize("name", NAMES)
def test_a_record_that_is_not_a_dict_is_refused(name: str) -> None:
    bad: object
    for bad in (None, [], "state", 3):
        _refused(name, bad)


@pytest.mark.parametrize("name", NAMES)
def test_a_missing_key_is_refused(name: str) -> None:
    for data in _samples(name):
        for key in data:
            if key in OPTIONAL_KEYS.get(name, ()):
                continue
            damaged = {k: v for k, v in data.items() if k != key}
            _refused(name, damaged)


@pytest.mark.parametrize("name", NAMES)
def test_wrong_types_are_refused(name: str) -> None:
    for data in _samples(name):
        for key, value in data.items():
            if isinstance(value, bool):
                wrong: list[Any] = ["yes", 1, [True]]
            elif isinstance(value, int):
                wrong = [str(value), float(value) + 0.5, True, [value]]
            elif isinstance(value, list):
                wrong = ["a list", 5, {"0": value}]
            elif isinstance(value, str):
                wrong = [5, [value], {"x": value}]
            elif isinstance(value, dict):
                wrong = ["a record", 5, [value]]
            else:
                continue
            for bad in wrong:
                _refused(name, {**data, key: bad})


@pytest.mark.parametrize("name", NAMES)
def test_out_of_range_ints_are_refused(name: str) -> None:
    for data in _samples(name):
        for key, value in data.items():
            if isinstance(value, int) and not isinstance(value, bool):
                for bad in (-1000, 10**12):
                    _refused(name, {**data, key: bad}, key)


def test_the_reader_names_the_field_in_one_sentence() -> None:
    from games.base import BadState, JsonReader

    read = JsonReader("Test")
    d = {"n": 3, "flag": True, "word": "b", "items": [1, 2], "none": None, "seats": [0, 0]}
    assert read.read_int(d, "n", 0, 5) == 3 and read.read_flag(d, "flag") is True
    assert read.read_str(d, "word", choices=("a", "b")) == "b"
    assert read.read_list(d, "items", lambda x: x * 2) == [2, 4]
    assert read.read_optional(d, "none", int) is None and read.read_int_or_none(d, "n", 0, 5) == 3
    cases = [
        (lambda: read.read_int(d, "n", 4, 5, "the count"), "the count (n) is 3, outside 4 to 5"),
        (lambda: read.read_int(d, "flag", 0, 5), "flag is not a whole number"),
        (lambda: read.read_flag(d, "n"), "n is not true or false"),
        (lambda: read.read_str(d, "word", choices=("a",)), "word 'b' is not one of 'a'"),
        (lambda: read.read_list(d, "n"), "n is not a list"),
        (lambda: read.read_list(d, "items", length=3), "items holds 2 items instead of 3"),
        (lambda: read.read_int(d, "gone", 0, 1), "gone is missing"),
        (lambda: read.read_seats(d, "seats", 2), "seats lists a seat twice"),
        (lambda: read.record([]), "the state is not a record"),
    ]
    for call, why in cases:
        with pytest.raises(BadState) as caught:
            call()
        assert str(caught.value) == f"The stored Test game is damaged: {why}."
