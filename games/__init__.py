"""Pure game rules, one module per game, registered by name in ``REGISTRY``."""

from __future__ import annotations

from typing import Any

from games.base import Rules

# Games of different kinds side by side: the registry cannot name one state type.  Each engine's
# ``RULES`` is declared as ``Rules[ItsState, ItsMove]``, and the session service's helpers are generic
# over the pair, so a state never meets another game's rules unchecked.
REGISTRY: dict[str, Rules[Any, Any]] = {}


def register(rules: Rules[Any, Any]) -> Rules[Any, Any]:
    """Add ``rules`` to the registry under its name."""
    REGISTRY[rules.name] = rules
    return rules


def _load_builtin_games() -> None:
    from games import assassin, combat, hedgehog, treasure, whist

    for module in (hedgehog, whist, treasure, combat, assassin):
        register(module.RULES)


_load_builtin_games()
