"""Animated replays: board PNGs of a game's plies joined into one GIF small enough for Discord.

A long game is not drawn ply by ply: ``pick_frames`` keeps at most ``MAX_FRAMES`` evenly spaced
positions (always the start and the final position), each captioned with its ply, and ``animate``
keeps fewer of them still if the GIF would not fit Discord's upload limit.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.pyramids import BACKGROUND, text, wrap_text

DISCORD_LIMIT = 8 * 1024 * 1024
CAPTION_PX = 18
CAPTION_LINE = 22  # a caption's line height: two lines hold a long move's description
CAPTION_HEIGHT = 2 * CAPTION_LINE + 8
MAX_FRAMES = 120  # at 900 ms a frame, a replay of two minutes at most


def pick_frames(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """The indexes of at most ``limit`` of ``count`` positions, evenly spaced, first and last always kept."""
    if count <= limit:
        return list(range(count))
    if limit < 2:
        raise ValueError("a replay shows at least its start and its final position")
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


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
    pen = ImageDraw.Draw(frame)
    lines = wrap_text(caption, CAPTION_PX, width - 20, 2)
    top = (CAPTION_HEIGHT - len(lines) * CAPTION_LINE) // 2
    for k, line in enumerate(lines):
        text(pen, (10, top + k * CAPTION_LINE + CAPTION_LINE // 2), line, size=CAPTION_PX, anchor="lm")
    return frame


def _gif(boards: Sequence[bytes], captions: Sequence[str], width: int, frame_ms: int) -> bytes:
    """The GIF of ``boards`` at ``width``, lingering on the last frame."""
    sizes = [Image.open(io.BytesIO(png)).size for png in boards]
    tallest = max(round(h * width / w) for w, h in sizes) + CAPTION_HEIGHT
    frames = [
        _frame(png, caption, width, tallest).quantize(colors=128, dither=Image.Dither.NONE)
        for png, caption in zip(boards, captions, strict=True)
    ]
    durations = [frame_ms] * len(frames)
    durations[-1] = frame_ms * 4
    out = io.BytesIO()
    frames[0].save(
        out, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False, disposal=1
    )
    return out.getvalue()


def animate(
    boards: Sequence[bytes],
    captions: Sequence[str],
    *,
    frame_ms: int = 900,
    width: int = 720,
    max_bytes: int = DISCORD_LIMIT,
) -> bytes:
    """One GIF frame per board (captioned, so no two frames merge), within ``max_bytes`` unless even
    the first and the last frame alone are bigger (two boards make well under Discord's 8 MB).

    Too big, frames are left out evenly (the first and the last stay), as many as the size says,
    and again if need be, down to those two.  Frames are not drawn narrower to save bytes: a scaled
    board's smoothed edges compress worse than its flat colours, so a board at 420 px makes a bigger
    GIF than the same board at 560.
    """
    if not boards or len(boards) != len(captions):
        raise ValueError("a replay needs one caption per board")
    width = min(width, max(Image.open(io.BytesIO(png)).width for png in boards))  # never blow a board up
    kept = list(range(len(boards)))
    while True:
        data = _gif([boards[i] for i in kept], [captions[i] for i in kept], width, frame_ms)
        if len(data) <= max_bytes or len(kept) <= 2:
            return data
        # frames cost about the same bytes each: keep as many as should fit, with a margin
        fewer = min(len(kept) - 1, int(len(kept) * max_bytes / len(data) * 0.95))
        kept = [kept[i] for i in pick_frames(len(kept), max(2, fewer))]


def frame_count(gif: bytes) -> int:
    """How many frames a GIF holds."""
    with Image.open(io.BytesIO(gif)) as image:
        return getattr(image, "n_frames", 1)
