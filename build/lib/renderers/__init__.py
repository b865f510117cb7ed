"""Pure drawing: state -> PNG bytes with Pillow, one module per game plus shared primitives."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

Renderer = Callable[..., bytes]


def renderer_for(game: str) -> Renderer:
    """The ``render(state, *, last_move=None, names=None) -> bytes`` function of ``game``."""
    module = importlib.import_module(f"renderers.{game}")
    return module.render


def render_game(game: str, state: Any, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """Render ``state`` of ``game`` as PNG bytes."""
    return renderer_for(game)(state, last_move=last_move, names=names)
