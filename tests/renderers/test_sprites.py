"""Sprites pasted straight through Pillow's core land exactly as ``Image.paste`` puts them."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from renderers.pyramids import paste_sprite


def _noise(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    rng = random.Random(seed)
    bands = len(mode)
    return Image.frombytes(mode, size, bytes(rng.randrange(256) for _ in range(size[0] * size[1] * bands)))


@pytest.mark.parametrize("corner", [(5, 7), (0, 0), (-6, -3), (30, 18), (38, 1)])
@pytest.mark.parametrize("masked", [True, False])
def test_paste_sprite_matches_image_paste(corner: tuple[int, int], masked: bool) -> None:
    """Inside the canvas, across its edges, through the sprite's alpha or over it."""
    canvas = _noise("RGB", (40, 24), seed=1)
    sprite = _noise("RGBA", (9, 8), seed=2) if masked else _noise("RGB", (9, 8), seed=3)
    expected = canvas.copy()
    expected.paste(sprite, corner, sprite if masked else None)
    paste_sprite(canvas, sprite, corner, masked=masked)
    assert canvas.tobytes() == expected.tobytes()
