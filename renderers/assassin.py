"""The Martian Assassination Game board as a PNG: board, safehouse, bases, pieces, last path, die, players.

Layout (10x10: 62 px squares; 12x12: 52 px): a header naming the player to move, the board with
rank numbers on the left and file letters below, and a side panel with the die, what just happened
and one row per player (role, base markers, captures).  The static board (tiles, coordinates,
safehouse, base coins) is drawn once per size and copied; text is drawn once per label and pasted.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from games.assassin import COLOUR_WORDS, RULES, SAFE, SEAT_COLOURS, State, board, die_word
from renderers.pyramids import (
    BACKGROUND,
    COLOURS,
    GRID_LINE,
    HIGHLIGHT,
    MARK,
    PANEL,
    TEXT,
    TEXT_SHADOW,
    draw_die,
    draw_pyramid_side,
    font,
    new_canvas,
    outline_for,
    pyramid_size_px,
    shade,
)

RGB = tuple[int, int, int]

WIDTH = 960
HEADER = 60
LEFT = 34
BOARD_PX = {10: 620, 12: 624}
TILE: RGB = (0x9D, 0xA4, 0xAF)
TILE_EDGE: RGB = (0x3C, 0x41, 0x49)
SQUARE_LINE: RGB = (0x84, 0x8B, 0x96)
SAFEHOUSE: RGB = (0x3A, 0x3F, 0x47)
COIN: RGB = (0xEE, 0xE4, 0xC8)
DIM: RGB = (0xC4, 0xC8, 0xCE)
SPRITE_PAD = 3


def _cell(size: int) -> int:
    return BOARD_PX[size] // size


def _height(size: int) -> int:
    return HEADER + BOARD_PX[size] + 40


def square_centre(size: int, square: int) -> tuple[float, float]:
    """Pixel centre of ``square`` (or of the safehouse for ``SAFE``) on a board of ``size``."""
    cell = _cell(size)
    if square == SAFE:
        half = size // 2
        return LEFT + half * cell, HEADER + (size - half) * cell
    file, rank = square % size, square // size
    return LEFT + (file + 0.5) * cell, HEADER + (size - rank - 0.5) * cell


def _box(size: int, square: int) -> tuple[float, float, float, float]:
    cell = _cell(size)
    x, y = square_centre(size, square)
    return x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2


# ------------------------------------------------------------------ encoding


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette of every colour the board uses plus grey ramps for text edges.

    Mapping to a fixed palette is several times faster than computing one per image, which keeps a
    render well under 10 ms.
    """
    colours: list[RGB] = [
        BACKGROUND,
        PANEL,
        GRID_LINE,
        TEXT,
        TEXT_SHADOW,
        HIGHLIGHT,
        MARK,
        TILE,
        TILE_EDGE,
        SQUARE_LINE,
        SAFEHOUSE,
        COIN,
        DIM,
        (0xF7, 0xF7, 0xF2),
        (0xE8, 0xE8, 0xE8),
        (0x22, 0x22, 0x22),
    ]
    for fill in COLOURS.values():
        colours += [fill, shade(fill, 1.18), shade(fill, 0.7), shade(fill, 0.55)]
    for level in range(0, 256, 9):
        colours.append((level, level, level))
    for base in (BACKGROUND, PANEL, TILE, SAFEHOUSE):
        for target in (TEXT, TEXT_SHADOW, HIGHLIGHT, MARK):
            for k in (1, 2, 3):
                colours.append(tuple(int(b + (t - b) * k / 4) for b, t in zip(base, target, strict=True)))  # type: ignore[misc]
    unique = list(dict.fromkeys(colours))[:256]
    flat = [channel for colour in unique for channel in colour]
    flat += flat[:3] * (256 - len(unique))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def encode(image: Image.Image) -> bytes:
    """PNG bytes of ``image`` mapped onto the fixed palette."""
    buffer = io.BytesIO()
    image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()


# ------------------------------------------------------------------ text


@lru_cache(maxsize=16)
def _face(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The shared face with the basic layout engine: plain labels need no shaping and it is faster."""
    face = font(size)
    if isinstance(face, ImageFont.FreeTypeFont):
        return face.font_variant(layout_engine=ImageFont.Layout.BASIC)
    return face


@lru_cache(maxsize=1024)
def _label(message: str, size: int, fill: RGB, stroke: bool) -> Image.Image:
    """``message`` drawn once on a transparent sprite, with a dark halo when ``stroke``."""
    face = _face(size)
    pad = 4
    left, _, right, _ = (int(v) for v in face.getbbox(message))
    ascent, descent = face.getmetrics() if isinstance(face, ImageFont.FreeTypeFont) else (size, 0)
    width, height = max(1, right - left + 2 * pad), ascent + descent + 2 * pad
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).text((pad - left, pad), message, font=face, fill=255)
    if not stroke:
        sprite = Image.new("RGBA", (width, height), (*fill, 0))
        sprite.putalpha(mask)
        return sprite
    halo = mask.filter(ImageFilter.MaxFilter(3)).filter(ImageFilter.GaussianBlur(1)).point(lambda v: min(255, v * 3))
    sprite = Image.new("RGBA", (width, height), (*TEXT_SHADOW, 0))
    sprite.putalpha(halo)
    sprite.paste(Image.new("RGBA", (width, height), (*fill, 255)), (0, 0), mask)
    return sprite


@lru_cache(maxsize=256)
def _pyramid_sprite(colour: str, pips: int, scale: float) -> Image.Image:
    """A side-view pyramid drawn once on a transparent sprite, standing ``SPRITE_PAD`` above its bottom edge."""
    width, height = pyramid_size_px(pips, scale)
    sprite = Image.new("RGBA", (math.ceil(width) + 2 * SPRITE_PAD, math.ceil(height) + 2 * SPRITE_PAD), (0, 0, 0, 0))
    draw_pyramid_side(
        ImageDraw.Draw(sprite),
        sprite.width / 2,
        sprite.height - SPRITE_PAD,
        pips,
        colour,
        scale,
        outline_width=1 if pips == 1 else 2,
    )
    return sprite


def _pyramid(image: Image.Image, centre_x: float, base_y: float, pips: int, colour: str, scale: float) -> None:
    """Paste a side-view pyramid standing on ``base_y``."""
    sprite = _pyramid_sprite(colour, pips, round(scale, 1))
    image.paste(sprite, (round(centre_x - sprite.width / 2), round(base_y - sprite.height + SPRITE_PAD)), sprite)


def _text(
    image: Image.Image,
    xy: tuple[float, float],
    message: str,
    size: int = 18,
    *,
    fill: RGB = TEXT,
    anchor: str = "l",
    stroke: bool = True,
) -> int:
    """Paste a label; ``anchor`` l/c/r aligns ``xy`` to its left, centre or right, vertically centred.

    Returns the label's width.
    """
    sprite = _label(message, size, fill, stroke)
    w, h = sprite.size
    x, y = xy
    x = {"l": x, "c": x - w / 2, "r": x - w}[anchor]
    image.paste(sprite, (round(x), round(y - h / 2)), sprite)
    return w


def _fit(message: str, limit: int) -> str:
    return message if len(message) <= limit else message[: limit - 1] + "."


# ------------------------------------------------------------------ static board


@lru_cache(maxsize=2)
def _background(size: int) -> Image.Image:
    """Tiles, coordinates, safehouse and base coins for one board size."""
    image, draw = new_canvas(WIDTH, _height(size))
    geometry = board(size)
    cell = _cell(size)
    top, left = HEADER, LEFT
    px = BOARD_PX[size]
    draw.rectangle([left - 3, top - 3, left + size * cell + 3, top + size * cell + 3], fill=TILE_EDGE)
    for square in range(size * size):
        if square in geometry.safehouse:
            continue
        file, rank = geometry.coords(square)
        x0, y0 = left + file * cell, top + (size - 1 - rank) * cell
        # squares pair up into 2x2 piecepack tiles: wide gaps between tiles, thin ones inside
        gl, gr = (3, 1) if file % 2 == 0 else (1, 3)
        gt, gb = (1, 3) if rank % 2 == 0 else (3, 1)
        draw.rectangle([x0 + gl, y0 + gt, x0 + cell - gr, y0 + cell - gb], fill=TILE)
    half = size // 2
    sx0, sy0 = left + (half - 1) * cell, top + (size - half - 1) * cell
    draw.rounded_rectangle(
        [sx0 + 2, sy0 + 2, sx0 + 2 * cell - 2, sy0 + 2 * cell - 2], radius=8, fill=SAFEHOUSE, outline=DIM, width=2
    )
    _text(image, (sx0 + cell, sy0 + 13), "SAFEHOUSE", 12, fill=DIM, anchor="c", stroke=False)
    for base in geometry.bases:
        cx, cy = square_centre(size, base)
        r = cell * 0.3
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=COIN, outline=TEXT_SHADOW, width=2)
        draw.text((cx, cy + 1), "A", font=font(int(cell * 0.36)), fill=TEXT_SHADOW, anchor="mm")
    for k in range(size):
        x = left + (k + 0.5) * cell
        _text(image, (x, top + px + 18), "abcdefghijkl"[k], 18, anchor="c")
        y = top + (size - k - 0.5) * cell
        _text(image, (left - 17, y), str(k + 1), 16, anchor="c")
    draw.rectangle([WIDTH - 270, top - 3, WIDTH - 10, top + px + 3], fill=PANEL)
    return image


# ------------------------------------------------------------------ pieces and overlays


def _crosshair(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float) -> None:
    """The victim's mark: a ring with four ticks."""
    cx, cy = centre
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=MARK, width=4)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        draw.line(
            [(cx + dx * (radius - 7), cy + dy * (radius - 7)), (cx + dx * (radius + 7), cy + dy * (radius + 7))],
            fill=MARK,
            width=4,
        )


def _draw_piece(image: Image.Image, draw: ImageDraw.ImageDraw, size: int, square: int, seat: int, victim: bool) -> None:
    cell = _cell(size)
    cx, cy = square_centre(size, square)
    if victim:
        _crosshair(draw, (cx, cy), cell * 0.44 if square != SAFE else cell * 0.62)
    scale = cell * 0.46
    _pyramid(image, cx, cy + scale * 0.8, 3, SEAT_COLOURS[seat], scale)


def _draw_markers(image: Image.Image, draw: ImageDraw.ImageDraw, s: State) -> None:
    """Small pyramids in each marker's colour along the top of every marked base square."""
    cell = _cell(s.size)
    for base in s.board.bases:
        owners = [seat for seat in s.active() if base in s.markers[seat]]
        if not owners:
            continue
        _, y0, x1, _ = _box(s.size, base)
        if s.victim in owners:
            cx, cy = square_centre(s.size, base)
            r = cell * 0.3 + 3
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=COLOURS[SEAT_COLOURS[s.victim]], width=4)
        scale = cell * 0.36
        step = min(scale * 0.62, (cell * 0.7) / len(owners))
        for k, seat in enumerate(owners):
            _pyramid(image, x1 - scale * 0.32 - 2 - k * step, y0 + scale + 3, 1, SEAT_COLOURS[seat], scale)


def _draw_path(draw: ImageDraw.ImageDraw, s: State) -> None:
    path = s.last.path
    if len(path) < 2:
        return
    points = [square_centre(s.size, square) for square in path]
    draw.line(points, fill=TEXT_SHADOW, width=9, joint="curve")
    draw.line(points, fill=HIGHLIGHT, width=5, joint="curve")
    sx, sy = points[0]
    draw.ellipse([sx - 9, sy - 9, sx + 9, sy + 9], outline=HIGHLIGHT, width=3, fill=TEXT_SHADOW)
    for x, y in points[1:-1]:
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=HIGHLIGHT)
    x0, y0, x1, y1 = _box(s.size, path[-1])
    draw.rectangle([x0 + 1, y0 + 1, x1 - 1, y1 - 1], outline=HIGHLIGHT, width=4)


def _draw_targets(draw: ImageDraw.ImageDraw, s: State) -> None:
    for square in s.reachable:
        cx, cy = square_centre(s.size, square)
        draw.ellipse([cx - 8, cy - 8, cx + 8, cy + 8], fill=TEXT, outline=TEXT_SHADOW, width=3)


# ------------------------------------------------------------------ header and panel


def _player(s: State, seat: int, names: Sequence[str] | None) -> str:
    colour = COLOUR_WORDS[SEAT_COLOURS[seat]]
    if names and seat < len(names) and names[seat] and names[seat] != colour:
        return f"{_fit(names[seat], 18)} ({colour})"
    return colour


def _headline(s: State, names: Sequence[str] | None) -> tuple[str, str]:
    if s.phase == "over":
        if s.end == "limit":
            return "Game over: drawn at the turn limit", "ranked by bases, then captures"
        assert s.winner is not None
        why = "last player left" if s.end == "alone" else "all four bases"
        return f"{_player(s, s.winner, names)} wins!", why
    who = _player(s, s.turn, names)
    role = "victim" if s.turn == s.victim else "assassin"
    if s.phase == "roll":
        return f"{who} to roll", role
    if s.phase == "null":
        return f"{who}: reroll or stay", f"{role} rolled a null"
    count = len(s.reachable)
    steps = f"{s.die} step{'s' if s.die != 1 else ''}"
    return f"{who} to move {steps}", f"{role} - pick one of the {count} dotted square{'s' if count != 1 else ''}"


def _short_name(seat: int, names: Sequence[str] | None) -> str:
    if names and seat < len(names) and names[seat]:
        return _fit(names[seat], 14)
    return COLOUR_WORDS[SEAT_COLOURS[seat]]


def _event(s: State, names: Sequence[str] | None) -> tuple[str, RGB] | None:
    last = s.last
    if last.seat is None:
        return None
    who = _short_name(last.seat, names)
    name = s.board.name
    if last.captured is not None:
        return f"{who} captured {_short_name(last.captured, names)}!", MARK
    if last.base is not None:
        return f"{who} marked base {name(last.base)}", HIGHLIGHT
    if last.passed and last.roll == 0:
        return f"{who}: null, no move", TEXT
    if last.passed:
        return f"{who}: no legal move", TEXT
    if last.path:
        return f"{who}: {name(last.path[0])} to {name(last.path[-1])}", TEXT
    return None


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, s: State, names: Sequence[str] | None) -> None:
    x0 = WIDTH - 262
    y = HEADER + 6
    if s.last.roll is not None and s.phase != "roll":
        face = {0: "", 1: "A"}.get(s.last.roll, str(s.last.roll))
        draw_die(draw, (x0, y), 52, face)
        _text(image, (x0 + 64, y + 14), f"rolled {die_word(s.last.roll)}", 18)
        _text(image, (x0 + 64, y + 38), _short_name(s.last.seat or 0, names), 16, fill=DIM)
    else:
        draw.rounded_rectangle([x0, y, x0 + 52, y + 52], radius=9, outline=DIM, width=2)
        _text(image, (x0 + 26, y + 26), "?", 24, anchor="c", fill=DIM)
        _text(image, (x0 + 64, y + 26), "die not rolled yet", 16, fill=DIM)
    y += 70
    event = _event(s, names)
    if event:
        _text(image, (x0, y), _fit(event[0], 30), 17, fill=event[1])
    y += 22
    draw.line([(x0, y), (WIDTH - 18, y)], fill=GRID_LINE, width=2)
    y += 12
    _text(image, (x0 + 30, y), "players", 12, fill=DIM, stroke=False)
    for k, base in enumerate(s.board.bases):
        _text(image, (WIDTH - 90 + k * 18, y), s.board.name(base), 11, fill=DIM, anchor="c", stroke=False)
    y += 8
    row = 46 if s.players <= 7 else 40
    outcome = RULES.outcome(s)
    for seat in range(s.players):
        _draw_row(image, draw, s, seat, names, x0, y, row, outcome.ranks[seat] if outcome else None)
        y += row
    draw.line([(x0, y + 2), (WIDTH - 18, y + 2)], fill=GRID_LINE, width=2)
    info = f"victim turn {min(s.victim_turns + (s.phase != 'over'), s.limit or 10**9)}"
    info += f" of {s.limit}" if s.limit else ""
    _text(image, (x0, y + 18), info, 15, fill=DIM)
    if s.short_game:
        _text(image, (x0, y + 38), "short game: markers are kept", 15, fill=DIM)


def _ordinal(n: int) -> str:
    return f"{n}" + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def _draw_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    s: State,
    seat: int,
    names: Sequence[str] | None,
    x0: int,
    y: int,
    row: int,
    rank: int | None,
) -> None:
    gone = seat in s.out
    colour = SEAT_COLOURS[seat]
    mid = y + row / 2
    if not gone and seat == s.turn and s.phase != "over":
        draw.rounded_rectangle([x0 - 6, y + 1, WIDTH - 16, y + row - 2], radius=6, outline=HIGHLIGHT, width=3)
    _pyramid(image, x0 + 12, y + row - 7, 3, colour, 17)
    label = _fit(names[seat], 18) if names and seat < len(names) and names[seat] else COLOUR_WORDS[colour]
    _text(image, (x0 + 30, mid - row * 0.2), label, 17, fill=DIM if gone else TEXT)
    if gone:
        role, tint = "left the game", DIM
    elif seat == s.victim:
        role, tint = "VICTIM", MARK
    else:
        role, tint = "assassin", DIM
    _text(image, (x0 + 30, mid + row * 0.2), role, 13, fill=tint)
    captures = s.captures[seat]
    note = f"{captures} capture{'s' if captures != 1 else ''}" if captures else ""
    if rank is not None:
        note = f"{_ordinal(rank)}" + (f" - {note}" if note else "")
    if note:
        _text(image, (WIDTH - 26, mid - 9), note, 13, anchor="r", fill=HIGHLIGHT if rank == 1 else TEXT)
    for k, base in enumerate(s.board.bases):
        bx = WIDTH - 96 + k * 18
        by = mid + 6
        if base in s.markers[seat] and not gone:
            fill = COLOURS[colour]
            draw.rectangle([bx, by, bx + 12, by + 12], fill=fill, outline=outline_for(fill), width=2)
        else:
            draw.rectangle([bx, by, bx + 12, by + 12], outline=GRID_LINE, width=2)


# ------------------------------------------------------------------ entry point


def render(state: State, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """The board PNG for ``state``; ``names[seat]`` are the players' display names when given."""
    del last_move  # the state itself carries the last roll, path, base and capture
    s = state
    image = _background(s.size).copy()
    draw = ImageDraw.Draw(image)
    title, sub = _headline(s, names)
    if s.phase != "over":
        draw.polygon([(14, 16), (14, 40), (30, 28)], fill=COLOURS[SEAT_COLOURS[s.turn]], outline=TEXT_SHADOW)
    _text(image, (40, 22), _fit(title, 52), 26)
    _text(image, (40, 46), sub, 15, fill=DIM)
    _draw_markers(image, draw, s)
    _draw_path(draw, s)
    for seat, square in enumerate(s.positions):
        if square is not None:
            _draw_piece(image, draw, s.size, square, seat, seat == s.victim)
    _draw_targets(draw, s)
    _draw_panel(image, draw, s, names)
    return encode(image)
