"""Which of a started game's options its table size leaves unused (for the game's history file)."""

from __future__ import annotations

import random
from typing import Any

from bot.session.service import rules_for
from bot.session.store import GameRow
from games.base import GameError, OptionSpec


def options_in_play(game: GameRow) -> dict[str, Any]:
    """``game``'s options without those its table size leaves unused, such as Der Marsigelwettkampf's
    solitaire turn limit at a table of two.

    Games do not declare where an option applies, but everything an option does is set in the
    starting state (a move sees only the state): an option is unused when another value of it sets up
    the very same game.
    """
    rules = rules_for(game.game)
    if game.state is None:  # not started: the table size is not known yet
        return dict(game.options)
    specs = {spec.name: spec for spec in rules.options}

    def start(options: dict[str, Any]) -> dict[str, Any]:
        return rules.to_json(rules.new_game(len(game.seats), options, random.Random(0)))

    try:
        played = start(dict(game.options))
    except GameError:
        return dict(game.options)
    kept: dict[str, Any] = {}
    for name, value in game.options.items():
        other = _other_value(specs[name], value) if name in specs else None
        try:
            unused = other is not None and start({**game.options, name: other}) == played
        except GameError:  # the other value is refused at this table: the option still says which game it is
            unused = False
        if not unused:
            kept[name] = value
    return kept


def _other_value(spec: OptionSpec, value: Any) -> Any:
    """A value of ``spec`` other than ``value``, or None when none can be named (free text)."""
    if spec.choices:
        return next((choice for choice in spec.choices if choice != value), None)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        higher = value + 1
        return higher if spec.maximum is None or higher <= spec.maximum else value - 1
    return None
