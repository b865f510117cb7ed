"""Shared drawing primitives: colours, fonts, pyramids in side and top view, stacks, labels.

Proportions follow the physical pieces: bases 9/16, 25/32 and 1 inch, heights 1, 1 3/8 and
1 3/4 inch for small, medium and large.  Stacks are drawn bottom to top with each piece set a
little higher than the one below it, so a tree tapers upward and a nest widens upward: the two
are told apart at a glance.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from renderers import layout as _layout
from renderers.png import encode_palette_png

RGB = tuple[int, int, int]
Canvas = ImageDraw.ImageDraw | Image.Image  # a drawing context, or the image it would draw on

# Piece colours by letter (R red, Y yellow, G green, B blue, K black, ...): Okabe-Ito, except red,
# which is a true red (#D62728) rather than Okabe-Ito's vermilion, which players read as orange.
# Every pair within a set, the highlight and the background stay at least ``MIN_CVD_DISTANCE`` apart
# (CAM02-UCS) under full protanopia, deuteranopia and tritanopia (tests/renderers/test_colours.py);
# white and clear, the closest pair, are also told apart by a mark (see ``XENO_MARKS``).
COLOURS: dict[str, RGB] = {
    "R": (0xD6, 0x27, 0x28),
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

MIN_CVD_DISTANCE = 10.0  # CAM02-UCS delta E, between any two colours a player must tell apart

BACKGROUND: RGB = (0x6B, 0x71, 0x7C)  # mid-tone: reads on Discord's dark and light themes
PANEL: RGB = (0x80, 0x86, 0x91)
GRID_LINE: RGB = (0x4A, 0x4F, 0x58)
TEXT: RGB = (0xFA, 0xFA, 0xFA)
TEXT_SHADOW: RGB = (0x20, 0x22, 0x26)
# Emphasis (who is to move, winners): a mint no palette uses, >= 15 CAM02-UCS from every piece colour,
# the background and the text under every kind of colour blindness.
HIGHLIGHT: RGB = (0x3C, 0xFF, 0xA5)
# The last move: a two-tone band, black outside and white inside, which no piece colour looks like.
LAST_OUTER: RGB = (0x00, 0x00, 0x00)
LAST_INNER: RGB = (0xFA, 0xFA, 0xFA)  # the text white: the palette keeps one white
BORDER: RGB = (0xD8, 0xDB, 0xE0)  # light frame round every picture: it stands out on Discord's dark theme
BORDER_PX = 3
MARK: RGB = (0xFF, 0x4D, 0x6D)  # warnings: pinned, captured
DIE_FACE: RGB = (0xF7, 0xF7, 0xF2)

# Inches: (base width, height) per pip count.
PROPORTIONS: dict[int, tuple[float, float]] = {1: (9 / 16, 1.0), 2: (25 / 32, 1.375), 3: (1.0, 1.75)}
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A scalable font; Pillow's bundled face, so nothing has to be installed."""
    del bold  # one bundled face; kept in the signature for callers that ask for emphasis
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=1)
def _notdef() -> bytes:
    return bytes(font(20).getmask("\uffff"))


@lru_cache(maxsize=4096)
def drawable(ch: str) -> bool:
    """True when the bundled font has a glyph for ``ch`` (it covers Latin letters and common signs)."""
    if ch == " ":
        return True
    if not ch.isprintable():
        return False
    mask = font(20).getmask(ch)
    return mask.size[0] > 0 and bytes(mask) != _notdef()


def clean_name(name: object, empty: str = "?") -> str:
    """``name`` reduced to what the font can draw: accents dropped ("Zoë" -> "Zoe"), other signs left out.

    Discord names may hold any script or emoji; the embeds show them as they are, the pictures
    as far as the font allows.  ``empty`` stands in when nothing drawable is left.
    """
    out = []
    for ch in str(name):
        if drawable(ch):
            out.append(ch)
            continue
        out.extend(
            part for part in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(part) and drawable(part)
        )
    return " ".join("".join(out).split()) or empty


def display_name(names: Sequence[str] | None, seat: int) -> str:
    """The display name ``names`` gives ``seat`` as the font can draw it, or "" when there is none.

    A name of which the font can draw nothing (Hebrew, Arabic, Chinese, emoji only) becomes
    ``player 3`` (the seat counted from 1, as the game's embeds list the players), so that its row
    still says whose it is.
    """
    if not names or seat >= len(names) or not str(names[seat]).strip():
        return ""
    return clean_name(names[seat], empty=f"player {seat + 1}")


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
    ``BACKGROUND``, ``PANEL``, ``DIE_FACE`` and ``grounds`` -- the soft edges of anti-aliased lettering.
    """
    # BORDER first: it is at BORDER_INDEX in every palette
    colours: list[RGB] = [
        BORDER, BACKGROUND, PANEL, GRID_LINE, TEXT, TEXT_SHADOW, HIGHLIGHT, MARK, DIE_FACE, LAST_OUTER, LAST_INNER,
        *extra,
    ]  # fmt: skip
    for fill in COLOURS.values():
        colours += [fill, shade(fill, 1.18), shade(fill, 0.7), outline_for(fill)]
    for ground in (BACKGROUND, PANEL, DIE_FACE, *grounds):
        colours += [blend(TEXT_SHADOW, ground, t) for t in (0.2, 0.4, 0.6, 0.8)]
    for ink in (TEXT, HIGHLIGHT, MARK, *inks):
        colours += [blend(TEXT_SHADOW, ink, t) for t in (0.15, 0.3, 0.45, 0.6, 0.75, 0.9)]
    colours += [(level, level, level) for level in range(0, 256, 17)]
    unique = list(dict.fromkeys(colours))[:256]
    flat = [channel for colour in unique for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


BORDER_INDEX = 0  # fixed_palette puts BORDER first
DEFAULT_PALETTE = fixed_palette()


def png_bytes(image: Image.Image, palette: Image.Image | None = None, *, height: int | None = None) -> bytes:
    """Encode ``image`` as PNG mapped onto a fixed palette: exact for flat colours, fast and small.

    With ``height``, only the picture's top ``height`` rows (a board drawn on a taller canvas): they
    are cut after mapping to the palette, where a row is a quarter of its size in RGB.  The picture
    gets a light ``BORDER`` round its edge, so that it stands out on Discord's dark theme as its
    mid-tone background does on the light one.
    """
    quantized = image.quantize(palette=palette or DEFAULT_PALETTE, dither=Image.Dither.NONE)
    if height is not None and height != image.height:
        quantized = quantized.crop((0, 0, image.width, height))
    _layout.note_size(quantized.width, quantized.height)
    frame = (0, 0, quantized.width - 1, quantized.height - 1)
    ImageDraw.Draw(quantized).rectangle(frame, outline=BORDER_INDEX, width=BORDER_PX)
    return encode_palette_png(quantized)


def paste_sprite(image: Image.Image, sprite: Image.Image, corner: tuple[int, int], *, masked: bool = True) -> None:
    """Paste ``sprite`` with its top-left at ``corner`` of ``image``, through its own alpha when ``masked``.

    Both are pictures made in memory (never lazily loaded from a file): an RGBA sprite (or, not
    ``masked``, an RGB tile) on an RGB canvas.  This goes straight to Pillow's core: ``Image.paste``
    checks and converts its arguments first, which costs more than pasting a small sprite, and a
    board pastes a hundred of them.
    """
    left, top = corner
    box = (left, top, left + sprite.width, top + sprite.height)
    if masked:
        image.im.paste(sprite.im, box, sprite.im)
    else:
        image.im.paste(sprite.im, box)


@contextmanager
def unrecorded() -> Iterator[None]:
    """Draw a picture that is cached without noting its texts in the layout being recorded.

    A cached picture is drawn once, at its own origin, and pasted many times: whoever pastes it notes
    its texts where they land (``paste_tile``, ``paste_die``).  Inside this block the primitives note
    into a layout that is thrown away.
    """
    with _layout.recording():
        yield


def paste_tile(
    image: Image.Image, tile: tuple[Image.Image, Sequence[_layout.TextBox]], corner: tuple[int, int] = (0, 0)
) -> None:
    """Paste a cached ``tile`` (an RGB picture and the texts drawn on it) with its top-left at
    ``corner``, and note its texts there: the layout check knows them as if they were drawn now."""
    picture, texts = tile
    paste_sprite(image, picture, corner, masked=False)
    left, top = corner
    for t in texts:
        _layout.note_text(t.text, t.px, (t.box[0] + left, t.box[1] + top, t.box[2] + left, t.box[3] + top))


def last_move_frame(draw: ImageDraw.ImageDraw, box: Sequence[float], width: int = 5) -> None:
    """The last-move mark round ``box``: a black band with a white line inside it."""
    left, top, right, bottom = box
    draw.rectangle((left, top, right, bottom), outline=LAST_OUTER, width=width)
    inset = max(1, width // 3)
    draw.rectangle(
        (left + inset, top + inset, right - inset, bottom - inset), outline=LAST_INNER, width=max(1, width - 2 * inset)
    )


OUTLINE_PX = 2  # width of the dark outline around text


def _pixel(position: int) -> int:
    """A pen position in 1/64 pixel rounded to a whole pixel, the way FreeType and Pillow round it."""
    return (position + 32) >> 6


@lru_cache(maxsize=4096)
def _glyph(char: str, size: int, outline: bool) -> tuple[Image.Image, int, int, int]:
    """One character's mask (outlined when ``outline``), its placing and its advance.

    Returns the mask, the offset of its corner from the pen position on the baseline, and the
    advance in 1/64 pixel.
    """
    face = font(size)
    stroke = OUTLINE_PX if outline else 0
    left, top, right, bottom = (int(v) for v in face.getbbox(char, stroke_width=stroke, anchor="ls"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), char, font=face, fill=255, anchor="ls", stroke_width=stroke, stroke_fill=255
    )
    return mask, left, top, round(face.getlength(char) * 64)


@lru_cache(maxsize=64)
def _line_anchor(size: int, vertical: str) -> int:
    """How far the ascender (a), middle (m) or descender (d) line lies above the baseline, in pixels."""
    face = font(size)
    return int(face.getbbox("x", anchor="l" + vertical)[1] - face.getbbox("x", anchor="ls")[1])


@lru_cache(maxsize=2048)
def _text_masks(message: str, size: int, anchor: str) -> tuple[Image.Image, Image.Image, int, int]:
    """Greyscale masks of ``message`` with and without its outline, and their corner's offset from the anchor.

    Stroking outlines is by far the slowest part of drawing text, so each character's masks are
    made once (``_glyph``) and a label is put together from them at the pen positions Pillow uses,
    overlapping edges combined as FreeType's renderer does; the result matches ``ImageDraw.text``.
    """
    if len(anchor) != 2 or anchor[0] not in "lmr" or anchor[1] not in "atmsbd":
        raise ValueError(f"bad anchor specified: {anchor}")
    face = font(size)
    left, top, right, bottom = (int(v) for v in face.getbbox(message, stroke_width=OUTLINE_PX, anchor="ls"))
    box = (max(1, right - left), max(1, bottom - top))
    outline, body = Image.new("L", box, 0), Image.new("L", box, 0)
    advances = [_glyph(char, size, False)[3] for char in message]
    length = sum(advances)
    if length != round(face.getlength(message) * 64):  # pairs moved by kerning: let Pillow place them
        ImageDraw.Draw(outline).text(
            (-left, -top), message, font=face, fill=255, anchor="ls", stroke_width=OUTLINE_PX, stroke_fill=255
        )
        ImageDraw.Draw(body).text((-left, -top), message, font=face, fill=255, anchor="ls")
    else:
        position = 0
        for char, advance in zip(message, advances, strict=True):
            x = _pixel(position) - left
            for mask, (glyph, gx, gy, _) in ((outline, _glyph(char, size, True)), (body, _glyph(char, size, False))):
                mask.paste(255, (x + gx, gy - top), glyph)  # "screen" blend, as FreeType joins overlapping glyphs
            position += advance
    x_anchor = {"l": 0, "m": _pixel(length // 2), "r": _pixel(length)}[anchor[0]]
    if anchor[1] == "t":
        y_anchor = -top - OUTLINE_PX
    elif anchor[1] == "b":
        y_anchor = OUTLINE_PX - bottom
    else:
        y_anchor = _line_anchor(size, anchor[1]) if anchor[1] != "s" else 0
    return outline, body, left - x_anchor, top + y_anchor


@lru_cache(maxsize=2048)
def _text_sprite(message: str, size: int, anchor: str, fill: RGB, shadow: bool) -> Image.Image:
    """``message`` in ``fill`` (outlined when ``shadow``) on a transparent sprite the size of its masks.

    Pasting it gives what drawing the outline and then the letters gives: its alpha is the union of
    the two masks, its colour their mix (worked out premultiplied, then divided back by alpha).
    """
    outline, body, _, _ = _text_masks(message, size, anchor)
    if not shadow:
        sprite = Image.new("RGBA", body.size, (*fill, 0))
        sprite.putalpha(body)
        return sprite
    if fill == TEXT_SHADOW:  # letters in the outline colour add nothing (Pillow skips them too)
        body = Image.new("L", body.size, 0)
    colour = Image.new("RGB", body.size, (0, 0, 0))
    colour.paste(TEXT_SHADOW, (0, 0, *body.size), outline)
    colour.paste(fill, (0, 0, *body.size), body)
    return Image.merge("RGBa", (*colour.split(), ImageChops.screen(outline, body))).convert("RGBA")


@lru_cache(maxsize=2048)
def _words(message: str, size: int) -> tuple[tuple[float, str], ...]:
    """The words of ``message`` with the pen offset at which each starts (word widths plus spaces)."""
    space = _word_width(" ", size)
    out, pen = [], 0.0
    for word in message.split(" "):
        if word:
            out.append((pen, word))
            pen += _word_width(word, size)
        pen += space
    return tuple(out)


@lru_cache(maxsize=8192)
def _word_width(word: str, size: int) -> float:
    return font(size).getlength(word)


def _paste_text(
    image: Image.Image, xy: tuple[float, float], message: str, size: int, anchor: str, fill: RGB, shadow: bool
) -> None:
    """One cached, ready-coloured text sprite pasted at the nearest whole pixel."""
    _, _, dx, dy = _text_masks(message, size, anchor)
    sprite = _text_sprite(message, size, anchor, fill, shadow)
    paste_sprite(image, sprite, (round(xy[0]) + dx, round(xy[1]) + dy))


def text(
    draw: Canvas,
    xy: tuple[float, float],
    message: str,
    size: int = 18,
    fill: RGB = TEXT,
    anchor: str = "la",
    shadow: bool = True,
) -> None:
    """Draw ``message`` with a thin dark outline so it reads on any background.

    ``draw`` is a drawing context or the image itself; ``anchor`` is Pillow's two-letter text
    anchor.  Single lines come from cached masks, placed at the nearest whole pixel; on an RGB
    image they are pasted as one ready-coloured sprite, the fastest way.
    """
    if not message:
        return
    face = font(size)
    if _layout.current() is not None:
        left, top, right, bottom = _bbox(message, size, anchor) if "\n" not in message else (0, 0, 0, size)
        _layout.note_text(message, size, (xy[0] + left, xy[1] + top, xy[0] + right, xy[1] + bottom))
    cacheable = "\n" not in message and isinstance(face, ImageFont.FreeTypeFont)
    if cacheable and isinstance(draw, Image.Image) and draw.mode == "RGB":
        if len(message) > 14 and " " in message and anchor[1] in "amsd":
            # sentences change from board to board, their words much less: paste word by word
            left = xy[0] - {"l": 0.0, "m": text_width(message, size) / 2, "r": text_width(message, size)}[anchor[0]]
            for offset, word in _words(message, size):
                _paste_text(draw, (left + offset, xy[1]), word, size, "l" + anchor[1], fill, shadow)
            return
        _paste_text(draw, xy, message, size, anchor, fill, shadow)
        return
    pen = draw if isinstance(draw, ImageDraw.ImageDraw) else ImageDraw.Draw(draw)
    if not cacheable or pen.fontmode != "L":
        stroke: dict[str, Any] = {"stroke_width": OUTLINE_PX, "stroke_fill": TEXT_SHADOW} if shadow else {}
        pen.text(xy, message, font=face, fill=fill, anchor=anchor, **stroke)
        return
    outline, body, dx, dy = _text_masks(message, size, anchor)
    corner = (round(xy[0]) + dx, round(xy[1]) + dy)
    if shadow:
        pen.bitmap(corner, outline, fill=TEXT_SHADOW)
    if not shadow or fill != TEXT_SHADOW:
        pen.bitmap(corner, body, fill=fill)


@lru_cache(maxsize=4096)
def _bbox(message: str, size: int, anchor: str) -> tuple[float, float, float, float]:
    """The box ``message`` covers at ``size`` around its ``anchor`` point (outline not included)."""
    return font(size).getbbox(message, anchor=anchor)


def text_box(xy: tuple[float, float], message: str, size: int, anchor: str = "la") -> tuple[float, float, float, float]:
    """The box ``text`` covers drawing ``message`` at ``xy``, its dark outline included."""
    left, top, right, bottom = _bbox(message, size, anchor)
    pad = OUTLINE_PX
    return xy[0] + left - pad, xy[1] + top - pad, xy[0] + right + pad, xy[1] + bottom + pad


@lru_cache(maxsize=4096)
def text_width(message: str, size: int) -> float:
    """Advance width in pixels of ``message`` at ``size``, without its outline.

    Measured word by word (cached) plus the spaces, which is how ``text`` places the words.
    """
    if " " not in message:
        return _word_width(message, size)
    return sum(_word_width(word, size) for word in message.split(" ")) + message.count(" ") * _word_width(" ", size)


ELLIPSIS = "…"  # ends whatever is cut to fit: one character, narrower than "..."


@lru_cache(maxsize=1024)
def fit_text(message: str, size: int, width: float, tail: str = ELLIPSIS) -> str:
    """``message``, cut and ended with ``tail`` when needed, so it is at most ``width`` pixels wide."""
    if text_width(message, size) <= width:
        return message
    while message and text_width(message + tail, size) > width:
        message = message[:-1]
    return message.rstrip() + tail


def fit_name(before: str, name: str, after: str, size: int, width: float, tail: str = ELLIPSIS) -> str:
    """``before + name + after`` in at most ``width`` pixels, shortening only ``name`` (see ``fit_names``)."""
    return fit_names(f"{_brace(before)}{{}}{_brace(after)}", (name,), size, width, tail)


def fit_player(seat: str, name: str, after: str, size: int, width: float) -> str:
    """``Red (name)`` followed by ``after`` (``Red`` and ``after`` without a name), in ``width`` pixels.

    ``seat`` is how the game calls the seat (its colour, ``North``); only ``name`` is shortened.
    """
    if name:
        return fit_name(f"{seat} (", name, f"){after}", size, width)
    return fit_text(f"{seat}{after}", size, width)


def _brace(words: str) -> str:
    return words.replace("{", "{{").replace("}", "}}")


@lru_cache(maxsize=1024)
def fit_names(template: str, names: tuple[str, ...], size: int, width: float, tail: str = ELLIPSIS) -> str:
    """``template`` with each ``{}`` filled by the next of ``names``, in at most ``width`` pixels.

    Only the names are shortened, each ended with ``tail``: what is said about the players (their
    place, role, colour, ``share the win``) stays whole.  The longest name is cut first, a letter at
    a time, so every name keeps as much of itself as the line allows.  When even one-letter names
    leave no room, the whole line is cut.
    """
    whole = template.format(*names)
    if text_width(whole, size) <= width:
        return whole
    kept = [len(name) for name in names]

    def shown(k: int) -> str:
        name = names[k]
        return name if kept[k] == len(name) else name[: kept[k]].rstrip() + tail

    while True:
        cuttable = [k for k in range(len(names)) if kept[k] > 1]
        if not cuttable:
            return fit_text(whole, size, width, tail)
        longest = max(cuttable, key=lambda k: text_width(shown(k), size))
        kept[longest] -= 1
        line = template.format(*(shown(k) for k in range(len(names))))
        if text_width(line, size) <= width:
            return line


def word_groups(message: str, size: int, width: float) -> list[str]:
    """The words of ``message``, a bracketed aside (``(take R1 c).``) kept as one group when it fits a line.

    Wrapping by these groups never leaves a closing fragment such as ``c).`` alone on a line.
    """
    groups: list[str] = []
    opened = -1  # where the aside under way began
    for word in message.split():
        groups.append(word)
        if opened < 0 and "(" in word and ")" not in word.split("(", 1)[1]:
            opened = len(groups) - 1
        elif opened >= 0 and ")" in word:
            aside = " ".join(groups[opened:])
            if text_width(aside, size) <= width:
                groups[opened:] = [aside]
            elif text_width(" ".join(groups[-2:]), size) <= width:  # too wide: at least keep its last two words
                groups[-2:] = [" ".join(groups[-2:])]
            opened = -1
    return groups


def wrap_text(message: str, size: int, width: float, lines: int) -> list[str]:
    """``message`` broken into at most ``lines`` lines of at most ``width`` pixels (the last cut to fit).

    A bracketed aside stays on one line when that still fits ``lines`` lines.
    """
    grouped = _wrap_words(word_groups(message, size, width), size, width, lines)
    if len(grouped) <= lines and all(text_width(line, size) <= width for line in grouped):
        return grouped
    return [fit_text(line, size, width) for line in _wrap_words(message.split(), size, width, lines)]


def _wrap_words(words: list[str], size: int, width: float, lines: int) -> list[str]:
    """``words`` filled greedily into lines of ``width`` pixels; past ``lines`` lines, the rest joins the last."""
    out: list[str] = []
    words = list(words)
    while words and len(out) < lines:
        line = words.pop(0)
        while words and text_width(f"{line} {words[0]}", size) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = out[-1] + " " + " ".join(words)
    return out


def wrap_phrases(message: str, size: int, width: float, lines: int) -> list[str]:
    """``message`` in at most ``lines`` lines of at most ``width`` pixels, broken between phrases.

    A phrase ends after a colon, then (if the lines need it) after a semicolon or a comma, so
    ``Red 5 pips on b1 v Yellow 2 pips on c1`` and ``tip, swap, hop, dig or aim`` after a colon stay
    whole when they fit a line; a quotation (``'no move'``) is never broken.  Lines are filled with
    whole phrases; only when no such split fits ``lines`` lines are they filled word by word,
    quotations still whole, and failing that as ``wrap_text`` does.
    """
    units: list[str] = []  # words, with a quotation kept as one unit
    for word in message.split():
        if units and units[-1].startswith("'") and not (len(units[-1]) > 1 and units[-1].endswith("'")):
            units[-1] += " " + word
        else:
            units.append(word)

    def fill(pieces: list[str]) -> list[str] | None:
        out: list[str] = []
        for piece in pieces:
            if out and text_width(f"{out[-1]} {piece}", size) <= width:
                out[-1] += " " + piece
            elif text_width(piece, size) <= width:
                out.append(piece)
            else:
                return None
        return out if len(out) <= lines else None

    for ends in ((":",), (":", ";"), (":", ";", ",")):
        phrases: list[list[str]] = []
        for k, unit in enumerate(units):
            if not phrases or units[k - 1].endswith(ends):
                phrases.append([])
            phrases[-1].append(unit)
        if out := fill([" ".join(phrase) for phrase in phrases]):
            return out
    return fill(units) or wrap_text(message, size, width, lines)


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
    pip_fill: RGB | None = None,
) -> tuple[float, float, float, float]:
    """A pyramid seen from the side, standing on ``base_y``, with its pips near the base.

    The pips are in the outline's contrast colour unless ``pip_fill`` gives one.  Returns the
    bounding box (left, top, right, bottom).
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
    _xeno_mark(draw, colour, [(left, base_y), (right, base_y), (centre_x, top)], centre_x, top + height * 0.45, scale)
    pip_r = max(1.5, scale * 0.045)
    pip_y = base_y - max(pip_r * 2.2, height * 0.13)
    gap = pip_r * 2.8
    pip_fill = pip_fill or outline_for(fill)
    for k in range(pips):
        x = centre_x + (k - (pips - 1) / 2) * gap
        draw.ellipse([x - pip_r, pip_y - pip_r, x + pip_r, pip_y + pip_r], fill=pip_fill)
    return left, top, right, base_y


# White and clear are the closest pair of colours: clear is drawn hatched, white carries a dark dot.
XENO_MARKS = {"W": "dot", "X": "hatch"}


def _xeno_mark(
    draw: ImageDraw.ImageDraw,
    colour: str,
    outline: Sequence[tuple[float, float]],
    cx: float,
    cy: float,
    scale: float,
) -> None:
    """The mark telling white (a dot) from clear (diagonal hatching inside ``outline``)."""
    mark = XENO_MARKS.get(colour)
    if mark == "dot":
        r = max(2.0, scale * 0.09)
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=TEXT_SHADOW)
    elif mark == "hatch":
        xs = [x for x, _ in outline]
        ys = [y for _, y in outline]
        mask = Image.new("1", (math.ceil(max(xs)) + 2, math.ceil(max(ys)) + 2), 0)
        ImageDraw.Draw(mask).polygon(list(outline), fill=1)
        lines = Image.new("1", mask.size, 0)
        pen = ImageDraw.Draw(lines)
        step = max(4, int(scale * 0.16))
        for k in range(-mask.height, mask.width, step):
            pen.line([(k, mask.height), (k + mask.height, 0)], fill=1, width=1)
        both = ImageChops.logical_and(mask, lines)
        draw.bitmap((0, 0), both, fill=shade(COLOURS["X"], 0.55))


SPRITE_PAD = 3  # transparent margin around a pyramid sprite, room for its outline


@lru_cache(maxsize=512)
def pyramid_sprite(
    colour: str,
    pips: int,
    scale: float,
    outline: RGB | None = None,
    outline_width: int = 2,
    pip_fill: RGB | None = None,
) -> Image.Image:
    """A side-view pyramid (as ``draw_pyramid_side``) drawn once on a transparent sprite.

    The pyramid is centred and stands ``SPRITE_PAD`` pixels above the sprite's bottom edge.
    """
    width, height = pyramid_size_px(pips, scale)
    size = (2 * math.ceil(width / 2) + 2 * SPRITE_PAD, math.ceil(height) + 2 * SPRITE_PAD)  # centre on a whole pixel
    sprite = Image.new("RGBA", size, (0, 0, 0, 0))
    draw_pyramid_side(
        ImageDraw.Draw(sprite),
        size[0] / 2,
        size[1] - SPRITE_PAD,
        pips,
        colour,
        scale,
        outline=outline,
        outline_width=outline_width,
        pip_fill=pip_fill,
    )
    return sprite


def paste_pyramid(
    image: Image.Image,
    centre_x: float,
    base_y: float,
    pips: int,
    colour: str,
    scale: float,
    *,
    outline: RGB | None = None,
    outline_width: int = 2,
) -> None:
    """A side-view pyramid standing on ``base_y``, pasted from its cached sprite (to the nearest pixel)."""
    sprite = pyramid_sprite(colour, pips, scale, outline, outline_width)
    corner = (round(centre_x) - sprite.width // 2, round(base_y) - sprite.height + SPRITE_PAD)
    paste_sprite(image, sprite, corner)


@lru_cache(maxsize=512)
def _stack_sprite(
    pieces: tuple[tuple[str, int], ...], scale: float, step: float, marks: tuple[RGB | None, ...]
) -> tuple[Image.Image, int, int]:
    """A close-set stack drawn once: its sprite and the offset of its base centre in the sprite."""
    sprites = []
    for k, ((colour, pips), mark) in enumerate(zip(pieces, marks, strict=True)):
        if k == 0 or mark:  # the bottom piece as drawn alone; a marked one in its warning outline
            sprites.append(pyramid_sprite(colour, pips, scale, mark, 3))
        else:  # on another piece: edged and pipped in a darker shade of its own colour
            dark = shade(COLOURS[colour], 0.7)
            sprites.append(pyramid_sprite(colour, pips, scale, dark, 1, dark))
    width = max(sprite.width for sprite in sprites)
    height = max(sprite.height + round(k * step) for k, sprite in enumerate(sprites))
    canvas = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    masks = []
    for k, sprite in enumerate(sprites):
        corner = ((width - sprite.width) // 2, canvas.height - sprite.height - round(k * step))
        canvas.alpha_composite(sprite, corner)
        mask = Image.new("L", canvas.size, 0)
        mask.paste(sprite.getchannel("A"), corner)
        masks.append(mask.point(lambda a: 255 if a else 0))
    # the stack's outline: a 2 px band inside its silhouette, each part in the contrast of the piece it edges
    solid = canvas.getchannel("A").point(lambda a: 255 if a else 0)
    band = ImageChops.subtract(solid, solid.filter(ImageFilter.MinFilter(5)))
    above = Image.new("L", canvas.size, 0)
    for k in range(len(pieces) - 1, 0, -1):  # the bottom piece keeps its own outline
        if marks[k] is None:
            own = ImageChops.multiply(band, ImageChops.subtract(masks[k], above))
            canvas.paste((*outline_for(COLOURS[pieces[k][0]]), 255), (0, 0), own)
        above = ImageChops.lighter(above, masks[k])
    return canvas, width // 2, height - SPRITE_PAD


def paste_stack(
    image: Image.Image,
    centre_x: float,
    base_y: float,
    pieces: Sequence[tuple[str, int]],
    scale: float,
    step: float,
    marks: Sequence[RGB | None] = (),
) -> None:
    """A stack whose pieces sit close (``step`` pixels apart), bottom to top, as one cached sprite.

    The stack keeps a contrasting outline round its silhouette, but a piece sitting on another one is
    edged inside it by a thin line in a darker shade of its own colour, so that a tree of one colour
    reads as that colour, not as stripes of outline.  ``marks`` may give a piece a warning outline
    (3 px in that colour, such as the pink of a pinned pyramid); the others get none.
    """
    edges = tuple(marks) if marks else (None,) * len(pieces)
    sprite, dx, dy = _stack_sprite(tuple(pieces), scale, step, edges)
    paste_sprite(image, sprite, (round(centre_x) - dx, round(base_y) - dy))


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
    image: Image.Image,
    centre_x: float,
    base_y: float,
    pieces: Sequence[tuple[str, int]],
    scale: float,
    *,
    outlines: Sequence[RGB | None] | None = None,
) -> tuple[float, float, float, float]:
    """A stack (bottom to top) in side view; each piece sits ``stack_step`` above the one below.

    Pasted as one cached sprite (``paste_stack``: one outline round it, so a tree of one colour reads
    as that colour).  ``outlines`` may give a piece a highlight outline (None keeps it plain).
    Returns the bounding box of the whole stack.
    """
    step = stack_step(scale)
    if pieces:
        paste_stack(image, centre_x, base_y, pieces, scale, step, outlines or ())
    left, top, right = centre_x, base_y, centre_x
    for k, (_, pips) in enumerate(pieces):
        width, height = pyramid_size_px(pips, scale)
        y = base_y - k * step
        left, top, right = min(left, centre_x - width / 2), min(top, y - height), max(right, centre_x + width / 2)
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
    square = [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)]
    _xeno_mark(draw, colour, square, cx, cy - half * 0.4, scale)
    pip_r = max(1.5, scale * 0.04)
    for k in range(pips):
        x = cx + (k - (pips - 1) / 2) * pip_r * 2.8
        y = cy + half - pip_r * 2.2
        draw.ellipse([x - pip_r, y - pip_r, x + pip_r, y + pip_r], fill=outline_for(fill))


def _label_px(size: float) -> int:
    """Caption size under a die of ``size`` pixels: never below 17 px (12 px on a phone at 560 wide)."""
    return max(17, int(size * 0.3))


NULL_FACES = frozenset({"", "0", "null", "n"})  # die faces drawn as the null symbol


def draw_null(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill: RGB = TEXT_SHADOW) -> None:
    """The piecepack null: a circle struck through by a slash, like ⊘."""
    cx, cy = centre
    width = max(2, round(radius * 0.28))
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=fill, width=width)
    reach = radius * 1.05
    draw.line([(cx - reach * 0.72, cy + reach * 0.72), (cx + reach * 0.72, cy - reach * 0.72)], fill=fill, width=width)


def draw_die(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float, face: str, label: str | None = None
) -> None:
    """A die showing ``face`` (a number or word), with an optional caption under it."""
    x, y = xy
    draw.rounded_rectangle([x, y, x + size, y + size], radius=size * 0.18, fill=DIE_FACE, outline=TEXT_SHADOW, width=2)
    if face.strip().lower() in NULL_FACES:
        draw_null(draw, (x + size / 2, y + size / 2), size * 0.3)
    else:
        draw.text((x + size / 2, y + size / 2), face, font=font(int(size * 0.55)), fill=TEXT_SHADOW, anchor="mm")
    if label:
        text(draw, (x + size / 2, y + size + 4), label, size=_label_px(size), anchor="ma")


@lru_cache(maxsize=128)
def _die_sprite(size: int, face: str, label: str | None) -> tuple[Image.Image, int]:
    """``draw_die`` on a transparent sprite and how far right of the sprite's corner the die stands."""
    right, bottom = size + 1, size + 1
    margin = 0
    if label:
        label_size = _label_px(size)
        left, _, label_right, label_bottom = font(label_size).getbbox(label, stroke_width=OUTLINE_PX, anchor="ma")
        margin = max(0, math.ceil(-(size / 2 + left)))
        right = max(right, math.ceil(size / 2 + label_right))
        bottom = max(bottom, size + 4 + math.ceil(label_bottom))
    sprite = Image.new("RGBA", (margin + right + 1, bottom + 1), (0, 0, 0, 0))
    with unrecorded():  # paste_die notes the caption where the die is pasted
        draw_die(ImageDraw.Draw(sprite), (margin, 0), size, face, label)
    return sprite, margin


def paste_die(image: Image.Image, xy: tuple[float, float], size: int, face: str, label: str | None = None) -> None:
    """``draw_die`` pasted from a cached sprite: the same die, drawn once per face and caption."""
    sprite, margin = _die_sprite(size, face, label)
    if face.strip().lower() not in NULL_FACES:  # the face's number, drawn inside the cached sprite
        px = int(size * 0.55)
        cx, cy = xy[0] + size / 2, xy[1] + size / 2
        _layout.note_text(face, px, (cx - px / 2, cy - px / 2, cx + px / 2, cy + px / 2))
    if label:  # the sprite is cached, so its caption is recorded here rather than when it was drawn
        px = _label_px(size)
        left, top, right, bottom = font(px).getbbox(label, anchor="ma")
        cx, cy = xy[0] + size / 2, xy[1] + size + 4
        _layout.note_text(label, px, (cx + left, cy + top, cx + right, cy + bottom))
    paste_sprite(image, sprite, (round(xy[0]) - margin, round(xy[1])))


def colour_swatch(draw: ImageDraw.ImageDraw, xy: tuple[float, float], colour: str, size: int = 16) -> None:
    """A small square of a player's colour, for legends and turn lines."""
    x, y = xy
    fill = COLOURS[colour]
    draw.rectangle([x, y, x + size, y + size], fill=fill, outline=outline_for(fill), width=2)
    square = [(x + 2, y + 2), (x + size - 2, y + 2), (x + size - 2, y + size - 2), (x + 2, y + size - 2)]
    _xeno_mark(draw, colour, square, x + size / 2, y + size / 2, size * 1.2)
