"""Sprites pasted straight through Pillow's core land exactly as ``Image.paste`` puts them."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from renderers import layout_for
from renderers.pyramids import _die_sprite, paste_sprite
from tests.renderers.test_treasure_render import state_after


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


def test_a_side_view_tree_of_one_colour_reads_as_that_colour_not_as_stripes_of_outline() -> None:
    """Whist's trees and Der Marsigelwettkampf's stacks: one outline round the stack, none between its pieces."""
    from renderers.pyramids import COLOURS, draw_stack_side, outline_for, shade

    canvas = Image.new("RGB", (200, 200), (40, 40, 40))
    left, top, right, bottom = draw_stack_side(canvas, 100, 180, [("R", 3), ("R", 2), ("R", 1)], 46.0)
    reds = (COLOURS["R"], shade(COLOURS["R"], 1.18), shade(COLOURS["R"], 0.7))
    light = outline_for(COLOURS["R"])
    inside = []
    for y in range(round(top) + 6, round(bottom) - 2):
        half = (right - left) / 2 * (y - top) / (bottom - top) - 4  # well inside the silhouette
        inside += [canvas.getpixel((x, y)) for x in range(round(100 - half), round(100 + half) + 1)]

    def near(p: object, c: tuple[int, int, int]) -> bool:
        assert isinstance(p, tuple)
        return all(abs(a - b) <= 10 for a, b in zip(p[:3], c, strict=True))

    red = sum(any(near(p, c) for c in reds) for p in inside)
    outline = sum(near(p, light) for p in inside)
    assert red > 0.8 * len(inside) and outline < 0.08 * len(inside), (red, outline, len(inside))


def test_a_die_drawn_for_the_first_time_records_its_caption_once_where_it_is_pasted() -> None:
    """A die is drawn once into a cached sprite and pasted where the panel puts it: the layout holds its
    caption once, under the pasted die, also on the board that first draws that die."""
    state = state_after(2, 1, 3)
    assert state.dice is not None
    _die_sprite.cache_clear()  # the next board draws its dice afresh
    fresh = layout_for("treasure", state)
    cached = layout_for("treasure", state)
    assert fresh.texts == cached.texts
    captions = [t for t in fresh.texts if t.text.startswith("coin ")]
    assert len(captions) == 1 and captions[0].box[1] > fresh.height / 2  # in the panel, under the die
