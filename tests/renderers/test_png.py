"""The board encoder: any PNG reader gets back exactly the palette picture that was encoded."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import games
from games.playout import playout
from renderers import pyramids, render_game
from renderers.png import encode_palette_png


def _noisy_palette_image(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("P", (width, height))
    image.putpalette([rng.randrange(256) for _ in range(768)])
    image.putdata([rng.randrange(256) if rng.random() < 0.3 else 7 for _ in range(width * height)])
    return image


@pytest.mark.parametrize(("width", "height"), [(1, 1), (3, 2), (97, 41), (560, 13)])
def test_round_trip_is_exact(width: int, height: int) -> None:
    image = _noisy_palette_image(width, height, seed=width * height)
    decoded = Image.open(io.BytesIO(encode_palette_png(image)))
    decoded.load()
    assert decoded.mode == "P"
    assert decoded.size == (width, height)
    assert decoded.tobytes() == image.tobytes()
    decoded_palette, palette = decoded.getpalette(), image.getpalette()
    assert decoded_palette is not None and palette is not None
    assert decoded_palette[: 3 * 256] == palette[: 3 * 256]


def test_only_palette_pictures_are_encoded() -> None:
    with pytest.raises(ValueError, match="palette"):
        encode_palette_png(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize("game", sorted(games.REGISTRY))
def test_a_board_decodes_to_the_picture_drawn(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bytes a board sends show every pixel as drawn, as Pillow's own encoder would."""
    drawn: list[Image.Image] = []

    def keep(image: Image.Image) -> bytes:
        drawn.append(image.copy())
        return encode_palette_png(image)

    monkeypatch.setattr(pyramids, "encode_palette_png", keep)
    state = list(playout(games.REGISTRY[game], max(2, games.REGISTRY[game].min_players), seed=3))[5]
    data = render_game(game, state)
    Image.open(io.BytesIO(data)).verify()  # chunk lengths and checksums
    shown = Image.open(io.BytesIO(data)).convert("RGB")
    by_pillow = io.BytesIO()
    drawn[-1].save(by_pillow, "PNG")
    assert shown.tobytes() == Image.open(by_pillow).convert("RGB").tobytes()
