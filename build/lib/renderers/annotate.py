"""Notes drawn under a board picture: the annotated opening boards of ``/rules``."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.pyramids import font

INK = (0x1E, 0x1F, 0x22)
PAPER = (0xF4, 0xF1, 0xE8)
RULE = (0xB8, 0xB2, 0xA4)
PHONE_WIDTH = 400  # Discord shows a picture about this wide on a phone
PHONE_TEXT = 13  # text px at phone width


def notes_size(board_width: int) -> int:
    """The font size that reads as ``PHONE_TEXT`` px when the picture is shown ``PHONE_WIDTH`` wide."""
    return max(14, round(PHONE_TEXT * board_width / PHONE_WIDTH))


def wrap(message: str, size: int, width: int) -> list[str]:
    """``message`` broken into lines no wider than ``width`` px at ``size``."""
    face = font(size)
    lines: list[str] = []
    line = ""
    for word in message.split():
        candidate = f"{line} {word}".strip()
        if line and face.getlength(candidate) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def with_notes(png: bytes, notes: Sequence[str]) -> bytes:
    """``png`` with numbered ``notes`` written under it, readable on a phone."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    size = notes_size(board.width)
    margin = size
    numbered = [wrap(f"{index}. {note}", size, board.width - 2 * margin) for index, note in enumerate(notes, 1)]
    line_height = round(size * 1.3)
    height = margin + sum(len(lines) * line_height + size // 2 for lines in numbered) + margin // 2
    image = Image.new("RGB", (board.width, board.height + height), PAPER)
    image.paste(board, (0, 0))
    draw = ImageDraw.Draw(image)
    draw.line([(0, board.height), (board.width, board.height)], fill=RULE, width=max(2, size // 8))
    y = board.height + margin
    for lines in numbered:
        for line in lines:
            draw.text((margin, y), line, font=font(size), fill=INK)
            y += line_height
        y += size // 2
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
