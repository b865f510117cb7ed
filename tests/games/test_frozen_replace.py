"""``games.base.frozen_replace``: a state copied with some fields changed, as ``dataclasses.replace`` would."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from games.base import frozen_replace


@dataclasses.dataclass(frozen=True)
class Counted:
    items: tuple[int, ...]
    label: str = "x"

    @cached_property
    def total(self) -> int:
        return sum(self.items)


@dataclasses.dataclass(frozen=True)
class Checked:
    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise ValueError("negative")


@dataclasses.dataclass(frozen=True)
class Derived:
    value: int
    double: int = dataclasses.field(init=False, default=0)


def test_the_copy_equals_what_dataclasses_replace_makes():
    state = Counted((1, 2, 3), "a")
    assert frozen_replace(state, label="b") == dataclasses.replace(state, label="b") == Counted((1, 2, 3), "b")
    assert frozen_replace(state) == state and frozen_replace(state) is not state


def test_a_value_cached_on_the_original_is_worked_out_again_for_the_copy():
    state = Counted((1, 2, 3))
    assert state.total == 6
    changed = frozen_replace(state, items=(10,))
    assert changed.total == 10
    assert state.total == 6


def test_the_copy_stays_frozen_and_hashable():
    changed = frozen_replace(Counted((1,)), label="y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.label = "z"
    assert hash(changed) == hash(Counted((1,), "y"))


def test_an_unknown_field_is_refused():
    with pytest.raises(TypeError, match="nothing"):
        frozen_replace(Counted((1,)), nothing=1)


def test_a_class_that_checks_its_values_still_checks_them():
    with pytest.raises(ValueError, match="negative"):
        frozen_replace(Checked(1), value=-1)


def test_a_field_outside_init_goes_through_dataclasses_replace():
    assert frozen_replace(Derived(1), value=2) == Derived(2)
    with pytest.raises(ValueError):
        frozen_replace(Derived(1), double=2)
