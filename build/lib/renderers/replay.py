"""Animated replays: board PNGs of every ply joined into one GIF small enough for Discord."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.pyramids import BACKGROUND, text

DISCORD_LIMIT = 8 * 1024 * 1024
CAPTION_HEIGHT = 30


def _frame(png: bytes, caption: str, width: int, frame_height: int = 0) -> Image.Image:
    """One captioned frame ``width`` wide, padded at the bottom to ``frame_height`` when that is larger.

    Phone-first boards grow taller as their panels fill, so the frames of one replay are padded
    to the tallest: every GIF frame then has the same size.
    """
    board = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(board.height * width / board.width)
    board = board.resize((width, height), Image.Resampling.LANCZOS) if board.width != width else board
    frame = Image.new("RGB", (width, max(height + CAPTION_HEIGHT, frame_height)), BACKGROUND)
    frame.paste(board, (0, CAPTION_HEIGHT))
    text(ImageDraw.Draw(frame), (10, CAPTION_HEIGHT // 2), caption, size=18, anchor="lm")
    return frame


def animate(
    boards: Sequence[bytes],
    captions: Sequence[str],
    *,
    frame_ms: int = 900,
    width: int = 720,
    max_bytes: int = DISCORD_LIMIT,
) -> bytes:
    """One GIF frame per board (captioned, so no two frames merge), shrunk until under ``max_bytes``."""
    if not boards or len(boards) != len(captions):
        raise ValueError("a replay needs one caption per board")
    sizes = [Image.open(io.BytesIO(png)).size for png in boards]
    width = min(width, max(w for w, _ in sizes))  # never blow a narrow phone-first board up
    while True:
        tallest = max(round(h * width / w) for w, h in sizes) + CAPTION_HEIGHT
        frames = [
            _frame(png, caption, width, tallest).quantize(colors=128, dither=Image.Dither.NONE)
            for png, caption in zip(boards, captions, strict=True)
        ]
        out = io.BytesIO()
        durations = [frame_ms] * len(frames)
        durations[-1] = frame_ms * 4  # linger on the final position
        frames[0].save(
            out, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False, disposal=1
        )
        data = out.getvalue()
        if len(data) <= max_bytes or width <= 240:
            return data
        width = int(width * 0.75)


def frame_count(gif: bytes) -> int:
    """How many frames a GIF holds."""
    with Image.open(io.BytesIO(gif)) as image:
        return getattr(image, "n_frames", 1)
