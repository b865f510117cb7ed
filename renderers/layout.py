"""The geometry a board picture promises: its size, every text with its font size, every piece box.

Renderers draw through the shared primitives; while ``recording()`` is active those primitives note
what they draw here, so the layout a renderer reports is exactly what it drew, never a separate
estimate that could drift.  Tests check the promises at phone size: Discord shows a board about
``PHONE_WIDTH`` pixels wide on a phone, so a font of ``px`` pixels in an image ``width`` wide is seen
at ``px * PHONE_WIDTH / width``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

PHONE_WIDTH = 400  # pixels: how wide Discord's phone app shows an attached picture
MIN_PHONE_TEXT = 12  # pixels: the smallest text size, as seen at PHONE_WIDTH

Box = tuple[float, float, float, float]
Point = tuple[float, float]


@dataclass(frozen=True)
class TextBox:
    """One line of text as drawn: its words, font size in pixels and bounding box in the image."""

    text: str
    px: int
    box: Box


@dataclass(frozen=True)
class PieceBox:
    """One piece as drawn: its code (``R2``), the square it stands on (``c1``) and its bounding box."""

    code: str
    square: str
    box: Box


@dataclass(frozen=True)
class ArrowShape:
    """One arrow as drawn: its colour and the polygons it covers (its shaft, then its head or heads), edge
    included."""

    colour: tuple[int, int, int]
    polygons: tuple[tuple[Point, ...], ...]

    def covers(self, x: float, y: float) -> bool:
        """True when the point ``(x, y)`` lies inside the arrow."""
        return any(_inside(polygon, x, y) for polygon in self.polygons)


def _inside(polygon: tuple[Point, ...], x: float, y: float) -> bool:
    """Even-odd rule: is ``(x, y)`` inside ``polygon``."""
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@dataclass
class Layout:
    """What a picture holds: its size, texts, pieces and arrows, in image pixels."""

    width: int = 0
    height: int = 0
    texts: list[TextBox] = field(default_factory=list)
    pieces: list[PieceBox] = field(default_factory=list)
    arrows: list[ArrowShape] = field(default_factory=list)
    plates: list[Box] = field(default_factory=list)  # dark plates drawn under labels (tags, codes over an arrow)

    @property
    def phone_scale(self) -> float:
        """How much the picture shrinks when shown ``PHONE_WIDTH`` pixels wide."""
        return PHONE_WIDTH / self.width if self.width else 1.0

    def phone_px(self, px: float) -> float:
        """``px`` image pixels as seen on a phone."""
        return px * self.phone_scale

    def smallest_text(self) -> TextBox | None:
        """The text drawn in the smallest font, or None when there is no text."""
        return min(self.texts, key=lambda t: t.px, default=None)

    def texts_in(self, box: Box) -> list[TextBox]:
        """The texts whose centre lies inside ``box``."""
        left, top, right, bottom = box
        return [
            t
            for t in self.texts
            if left <= (t.box[0] + t.box[2]) / 2 <= right and top <= (t.box[1] + t.box[3]) / 2 <= bottom
        ]

    def joined_text(self) -> str:
        """Every text drawn, one per line, in drawing order."""
        return "\n".join(t.text for t in self.texts)


_CURRENT: ContextVar[Layout | None] = ContextVar("renderers_layout", default=None)


@contextmanager
def recording() -> Iterator[Layout]:
    """Note everything the primitives draw inside the block into a fresh ``Layout``."""
    layout = Layout()
    token = _CURRENT.set(layout)
    try:
        yield layout
    finally:
        _CURRENT.reset(token)


def current() -> Layout | None:
    """The layout being recorded, if any."""
    return _CURRENT.get()


def note_text(message: str, px: int, box: Box) -> None:
    """Record a text (no-op unless recording)."""
    layout = _CURRENT.get()
    if layout is not None:
        layout.texts.append(TextBox(message, px, box))


def note_piece(code: str, square: str, box: Box) -> None:
    """Record a piece (no-op unless recording)."""
    layout = _CURRENT.get()
    if layout is not None:
        layout.pieces.append(PieceBox(code, square, box))


def note_arrow(colour: tuple[int, int, int], polygons: tuple[tuple[Point, ...], ...]) -> None:
    """Record an arrow (no-op unless recording)."""
    layout = _CURRENT.get()
    if layout is not None:
        layout.arrows.append(ArrowShape(colour, polygons))


def note_plate(box: Box) -> None:
    """Record a dark plate drawn under a label (no-op unless recording)."""
    layout = _CURRENT.get()
    if layout is not None:
        layout.plates.append(box)


def note_size(width: int, height: int) -> None:
    """Record the picture's size (no-op unless recording)."""
    layout = _CURRENT.get()
    if layout is not None:
        layout.width, layout.height = width, height
