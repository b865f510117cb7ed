"""Shared drawing primitives: colours, fonts, pyramids in side and top view, stacks, labels.

Proportions follow the physical pieces: bases 9/16, 25/32 and 1 inch, heights 1, 1 3/8 and
1 3/4 inch for small, medium and large.  Stacks are drawn bottom to top with each piece set a
little higher than the one below it, so a tree tapers upward and a nest widens upward: the two
are told apart at a glance.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# Okabe-Ito colours by piece letter (README: R red, Y yellow, G green, B blue, K black, ...).
COLOURS: dict[str, RGB] = {
    "R": (0xD5, 0x5E, 0x00),
    "Y": (0xF0, 0xE4, 0x42),
    "G": (0x00, 0x9E, 0x73),
    "B": (0x00, 0x72, 0xB2),
    "K": (0x3A, 0x3A, 0x3A),
    "O": (0xE6, 0x9F, 0x00),
    "P": (0xCC, 0x79, 0xA7),
    "C": (0x56, 0xB4, 0xE9),
    "W": (0xF4, 0xF4, 0xF4),
    "X": (0xC8, 0xD8, 0xE0),
}
COLOUR_NAMES: dict[str, str] = {
    "R": "red",
    "Y": "yellow",
    "G": "green",
    "B": "blue",
    "K": "black",
    "O": "orange",
    "P": "purple",
    "C": "cyan",
    "W": "white",
    "X": "clear",
}

BACKGROUND: RGB = (0x6B, 0x71, 0x7C)  # mid-tone: reads on Discord's dark and light themes
PANEL: RGB = (0x80, 0x86, 0x91)
GRID_LINE: RGB = (0x4A, 0x4F, 0x58)
TEXT: RGB = (0xFA, 0xFA, 0xFA)
TEXT_SHADOW: RGB = (0x20, 0x22, 0x26)
HIGHLIGHT: RGB = (0xFF, 0xD8, 0x4D)  # last move
MARK: RGB = (0xFF, 0x4D, 0x6D)  # warnings: pinned, captured

# Inches: (base width, height) per pip count.
PROPORTIONS: dict[int, tuple[float, float]] = {1: (9 / 16, 1.0), 2: (25 / 32, 1.375), 3: (1.0, 1.75)}
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}


def piece_code(colour: str, pips: int) -> str:
    """Text code of a piece, e.g. ``R3`` for the red large."""
    return f"{colour}{pips}"


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A scalable font; Pillow's bundled face, so nothing has to be installed."""
    del bold  # one bundled face; kept in the signature for callers that ask for emphasis
    return ImageFont.load_default(size=size)


def outline_for(fill: RGB) -> RGB:
    """A contrasting outline: light around dark pieces, dark around light ones."""
    luminance = 0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]
    return (0xE8, 0xE8, 0xE8) if luminance < 90 else (0x22, 0x22, 0x22)


def shade(fill: RGB, factor: float) -> RGB:
    """``fill`` darkened (factor < 1) or lightened (factor > 1)."""
    if factor <= 1:
        return tuple(int(c * factor) for c in fill)  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * (factor - 1)) for c in fill)  # type: ignore[return-value]


def new_canvas(width: int, height: int, colour: RGB = BACKGROUND) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An RGB image and its drawing context."""
    image = Image.new("RGB", (width, height), colour)
    return image, ImageDraw.Draw(image)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def fixed_palette(extra: Sequence[RGB] = (), grounds: Sequence[RGB] = (), inks: Sequence[RGB] = ()) -> Image.Image:
    """A palette image holding every colour a board draws, for fast exact PNG encoding.

    It holds the piece colours (with their lit faces and outlines), the interface colours, ``extra``,
    and the in-between shades where text (``TEXT`` and ``inks``, outlined in ``TEXT_SHADOW``) meets
    ``BACKGROUND``, ``PANEL`` and ``grounds`` -- the soft edges of anti-aliased lettering.
    """
    colours: list[RGB] = [BACKGROUND, PANEL, GRID_LINE, TEXT, TEXT_SHADOW, HIGHLIGHT, MARK, *extra]
    for fill in COLOURS.values():
        colours += [fill, shade(fill, 1.18), shade(fill, 0.7), outline_for(fill)]
    for ground in (BACKGROUND, PANEL, *grounds):
        colours += [blend(TEXT_SHADOW, ground, t) for t in (0.2, 0.4, 0.6, 0.8)]
    for ink in (TEXT, HIGHLIGHT, MARK, *inks):
        colours += [blend(TEXT_SHADOW, ink, t) for t in (0.15, 0.3, 0.45, 0.6, 0.75, 0.9)]
    colours += [(level, level, level) for level in range(0, 256, 17)]
    unique = list(dict.fromkeys(colours))[:256]
    flat = [channel for colour in unique for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


DEFAULT_PALETTE = fixed_palette()


def png_bytes(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """Encode ``image`` as PNG mapped onto a fixed palette: exact for flat colours, fast and small."""
    buffer = io.BytesIO()
    image.quantize(palette=palette or DEFAULT_PALETTE, dither=Image.Dither.NONE).save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    message: str,
    size: int = 18,
    fill: RGB = TEXT,
    anchor: str = "la",
    shadow: bool = True,
) -> None:
    """Draw ``message`` with a thin dark outline so it reads on any background."""
    face = font(size)
    if shadow:
        draw.text(xy, message, font=face, fill=fill, anchor=anchor, stroke_width=2, stroke_fill=TEXT_SHADOW)
    else:
        draw.text(xy, message, font=face, fill=fill, anchor=anchor)


def pyramid_size_px(pips: int, scale: float) -> tuple[float, float]:
    """(base width, height) in pixels of a pyramid at ``scale`` pixels per inch."""
    base, height = PROPORTIONS[pips]
    return base * scale, height * scale


def draw_pyramid_side(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    base_y: float,
    pips: int,
    colour: str,
    scale: float,
    *,
    outline: RGB | None = None,
    outline_width: int = 2,
) -> tuple[float, float, float, float]:
    """A pyramid seen from the side, standing on ``base_y``, with its pips near the base.

    Returns the bounding box (left, top, right, bottom).
    """
    fill = COLOURS[colour]
    width, height = pyramid_size_px(pips, scale)
    left, right, top = centre_x - width / 2, centre_x + width / 2, base_y - height
    edge = outline or outline_for(fill)
    draw.polygon([(left, base_y), (right, base_y), (centre_x, top)], fill=fill, outline=edge, width=outline_width)
    # a lit face on the left third gives depth without hiding the colour
    draw.polygon(
        [
            (left + outline_width, base_y - outline_width),
            (centre_x - width / 6, base_y - outline_width),
            (centre_x, top + outline_width * 2),
        ],
        fill=shade(fill, 1.18),
    )
    pip_r = max(1.5, scale * 0.045)
    pip_y = base_y - max(pip_r * 2.2, height * 0.13)
    gap = pip_r * 2.8
    pip_fill = outline_for(fill)
    for k in range(pips):
        x = centre_x + (k - (pips - 1) / 2) * gap
        draw.ellipse([x - pip_r, pip_y - pip_r, x + pip_r, pip_y + pip_r], fill=pip_fill)
    return left, top, right, base_y


def stack_step(scale: float) -> float:
    """Vertical offset between consecutive pieces of a side-view stack."""
    return scale * 0.62


def stack_height_px(pieces: Sequence[tuple[str, int]], scale: float) -> float:
    """Pixel height of a side-view stack of ``pieces`` (bottom to top)."""
    if not pieces:
        return 0.0
    step = stack_step(scale)
    return max(k * step + pyramid_size_px(p, scale)[1] for k, (_, p) in enumerate(pieces))


def draw_stack_side(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    base_y: float,
    pieces: Sequence[tuple[str, int]],
    scale: float,
    *,
    outlines: Sequence[RGB | None] | None = None,
) -> tuple[float, float, float, float]:
    """A stack (bottom to top) in side view; each piece sits ``stack_step`` above the one below.

    ``outlines`` may give a highlight colour per piece (None keeps the default outline).
    Returns the bounding box of the whole stack.
    """
    step = stack_step(scale)
    left, top, right = centre_x, base_y, centre_x
    for k, (colour, pips) in enumerate(pieces):
        edge = outlines[k] if outlines else None
        box = draw_pyramid_side(
            draw,
            centre_x,
            base_y - k * step,
            pips,
            colour,
            scale,
            outline=edge,
            outline_width=3 if edge else 2,
        )
        left, top, right = min(left, box[0]), min(top, box[1]), max(right, box[2])
    return left, top, right, base_y


def draw_pyramid_top(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    pips: int,
    colour: str,
    scale: float,
    *,
    outline: RGB | None = None,
) -> None:
    """A pyramid seen from above: a square with its diagonals and pips along one edge."""
    fill = COLOURS[colour]
    half = PROPORTIONS[pips][0] * scale / 2
    cx, cy = centre
    edge = outline or outline_for(fill)
    draw.rectangle([cx - half, cy - half, cx + half, cy + half], fill=fill, outline=edge, width=2)
    draw.line([(cx - half, cy - half), (cx + half, cy + half)], fill=shade(fill, 0.7), width=1)
    draw.line([(cx - half, cy + half), (cx + half, cy - half)], fill=shade(fill, 0.7), width=1)
    pip_r = max(1.5, scale * 0.04)
    for k in range(pips):
        x = cx + (k - (pips - 1) / 2) * pip_r * 2.8
        y = cy + half - pip_r * 2.2
        draw.ellipse([x - pip_r, y - pip_r, x + pip_r, y + pip_r], fill=outline_for(fill))


def draw_die(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float, face: str, label: str | None = None
) -> None:
    """A die showing ``face`` (a number or word), with an optional caption under it."""
    x, y = xy
    draw.rounded_rectangle(
        [x, y, x + size, y + size], radius=size * 0.18, fill=(0xF7, 0xF7, 0xF2), outline=TEXT_SHADOW, width=2
    )
    draw.text((x + size / 2, y + size / 2), face, font=font(int(size * 0.55)), fill=TEXT_SHADOW, anchor="mm")
    if label:
        text(draw, (x + size / 2, y + size + 4), label, size=max(12, int(size * 0.3)), anchor="ma")


def colour_swatch(draw: ImageDraw.ImageDraw, xy: tuple[float, float], colour: str, size: int = 16) -> None:
    """A small square of a player's colour, for legends and turn lines."""
    x, y = xy
    fill = COLOURS[colour]
    draw.rectangle([x, y, x + size, y + size], fill=fill, outline=outline_for(fill), width=2)
