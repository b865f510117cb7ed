"""Pure drawing: state -> PNG bytes with Pillow, one module per game plus shared primitives."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from renderers.layout import Layout, recording

Renderer = Callable[..., bytes]


def renderer_for(game: str) -> Renderer:
    """The ``render(state, *, last_move=None, names=None) -> bytes`` function of ``game``."""
    module = importlib.import_module(f"renderers.{game}")
    return module.render


def render_game(game: str, state: Any, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """Render ``state`` of ``game`` as PNG bytes."""
    return renderer_for(game)(state, last_move=last_move, names=names)


def layout_for(game: str, state: Any, *, last_move: Any = None, names: Sequence[str] | None = None) -> Layout:
    """The geometry ``render_game`` draws for ``state`` of ``game``: size, texts with font sizes, pieces.

    Games whose renderer has its own ``board_layout`` use it; for the others the picture is drawn
    while recording what the shared primitives draw.
    """
    module = importlib.import_module(f"renderers.{game}")
    own = getattr(module, "board_layout", None)
    if own is not None:
        return own(state, last_move=last_move, names=names)
    with recording() as drawn:
        module.render(state, last_move=last_move, names=names)
    return drawn
