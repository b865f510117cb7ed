"""Pure game rules, one module per game, registered by name in ``REGISTRY``."""

from __future__ import annotations

from games.base import Rules

REGISTRY: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Add ``rules`` to the registry under its name."""
    REGISTRY[rules.name] = rules
    return rules


def _load_builtin_games() -> None:
    from games import assassin, combat, hedgehog, treasure, whist

    for module in (hedgehog, whist, treasure, combat, assassin):
        register(module.RULES)


_load_builtin_games()
