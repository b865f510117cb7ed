"""Martian Treasure Hunt board: tiles, back rows, coins, pyramids, the dice and the score piles.

Phone first: a narrow portrait (``WIDTH`` pixels, no text under 12 px when Discord shows it 400 px
wide).  The board sits on top with coordinates on all four edges; the panel below shows the dice of
the latest roll and every player's score pile.  The last move is drawn as a black and white band
round its start and end squares joined by a line; while a coin waits to move it is ringed and the
squares it can reach are marked.  Each coin shows its number, the number a move names (``5:e7-f8``),
except while the players set out their coins: then every coin lies face down (``revealed_rows``), drawn
from its suit alone, so no arrangement reaches the picture, and the panel says who has arranged.

Speed: the tiles and coordinates are drawn once per board and copied; coins are pasted from
cached sprites; the PNG is quantised to one fixed palette (computed once), which is much faster
than computing a palette per picture and keeps the output deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from games.base import plural
from games.treasure import (
    KINDS,
    NUMBER_WORDS,
    RULES,
    SIDES,
    Step,
    TreasureState,
    coin_name,
    geometry,
    revealed_rows,
    score,
    seat_label,
    square_name,
)
from renderers import layout as geometry_record
from renderers.pyramids import (
    BACKGROUND,
    COLOURS,
    HIGHLIGHT,
    LAST_INNER,
    LAST_OUTER,
    MARK,
    PANEL,
    RGB,
    TEXT,
    TEXT_SHADOW,
    blend,
    colour_swatch,
    display_name,
    draw_pyramid_top,
    fit_name,
    fit_text,
    fixed_palette,
    font,
    last_move_frame,
    outline_for,
    paste_die,
    paste_sprite,
    paste_tile,
    png_bytes,
    shade,
    text,
    text_width,
    wrap_phrases,
    wrap_text,
)

WIDTH = 560
MIN_PX = -(-geometry_record.MIN_PHONE_TEXT * WIDTH // geometry_record.PHONE_WIDTH)  # 17: 12 px on a phone
MAX_SQUARE = 60
MARGIN = 28  # room for coordinates around the board
HEADER = 50
PANEL_GAP = 8
SQUARE = MAX_SQUARE  # the two- and three-player boards; the four-player plus is narrower (see square_px)
TILE: RGB = (0xBD, 0xB3, 0xA0)  # face-down piecepack tile
TILE_EDGE: RGB = (0x33, 0x36, 0x3C)
SQUARE_LINE: RGB = (0x80, 0x78, 0x6A)
DIM_TEXT: RGB = (0xD0, 0xD0, 0xD0)
KEY = "Points: large 3 · medium 2 · small 1 · coin 2"

Sq = tuple[int, int]


def _columns(players: int) -> int:
    """Files drawn: the three-player board stops at file h (no East arm)."""
    return max(f for f, _ in geometry(players).squares) + 1


@lru_cache(maxsize=8)
def square_px(players: int) -> int:
    """Side of a square in pixels: the board fills the picture's width, up to ``MAX_SQUARE``."""
    return min(MAX_SQUARE, (WIDTH - 2 * MARGIN) // _columns(players))


def _layout(players: int) -> tuple[int, int, int, int, int]:
    """(canvas width, board part height, board left, board top, panel top) for a player count."""
    geo = geometry(players)
    side = square_px(players)
    board_w, board_h = _columns(players) * side, geo.height * side
    left = (WIDTH - board_w) // 2
    bottom = HEADER + MARGIN * 2 + board_h
    return WIDTH, bottom, left, HEADER + MARGIN, bottom + PANEL_GAP


def _player_name(s: TreasureState, seat: int, names: Sequence[str] | None) -> str:
    colour = seat_label(s, seat)
    if name := display_name(names, seat):
        return f"{name} ({colour})"
    return colour


def _headline(s: TreasureState, names: Sequence[str] | None, width: float) -> str:
    """The header line, at most ``width`` pixels wide: only the players' names are shortened to fit."""
    size = MIN_PX + 3
    if s.phase == "over":
        outcome = RULES.outcome(s)
        winners = outcome.winners if outcome else ()
        verb = " share the win" if len(winners) > 1 else " wins"
        if len(winners) != 1:
            who = " and ".join(_player_name(s, w, names) for w in winners)
            return fit_text(f"Game over: {who}{verb}", size, width)
        name, colour = _name_parts(s, winners[0], names)
        return fit_name("Game over: ", name, f"{colour}{verb}", size, width)
    name, colour = _name_parts(s, s.turn, names)
    if s.phase == "arrange":
        rest = " to set out their coins"
    elif s.phase == "roll":
        rest = " to roll"
    else:
        number, kind = s.dice or (0, 0)
        rest = f" to move the {NUMBER_WORDS[number]} like a {KINDS[kind]}"
    return fit_name("", name, colour + rest, size, width)


def _name_parts(s: TreasureState, seat: int, names: Sequence[str] | None) -> tuple[str, str]:
    """A player as (name, " (Colour)"), or ("", "Colour") without a name: only the name may be cut."""
    colour = seat_label(s, seat)
    if name := display_name(names, seat):
        return name, f" ({colour})"
    return "", colour


def _reason_lines(s: TreasureState, width: float) -> list[str]:
    """Why the game ended (the engine's reason), in up to three lines, once it is over."""
    if s.phase != "over" or not s.reason:
        return []
    return wrap_phrases(s.reason, MIN_PX, width, 3)


def _box(players: int, sq: Sq) -> tuple[int, int, int, int]:
    geo = geometry(players)
    side = square_px(players)
    _, _, left, top, _ = _layout(players)
    x = left + sq[0] * side
    y = top + (geo.height - 1 - sq[1]) * side
    return x, y, x + side, y + side


def _centre(players: int, sq: Sq) -> tuple[float, float]:
    x0, y0, x1, y1 = _box(players, sq)
    return (x0 + x1) / 2, (y0 + y1) / 2


@lru_cache(maxsize=24)
def _base(players: int, out: tuple[int, ...]) -> tuple[Image.Image, tuple[geometry_record.TextBox, ...]]:
    """The empty board and its texts: tiles, back rows tinted per seat (faded for seats that left), coordinates."""
    with geometry_record.recording() as drawn:
        image = _draw_base(players, out)
    return image, tuple(drawn.texts)


def _draw_base(players: int, out: tuple[int, ...]) -> Image.Image:
    width, height, left, top, _ = _layout(players)
    SQUARE = square_px(players)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    geo = geometry(players)
    tint: dict[Sq, RGB] = {}
    for seat in range(players):
        colour = COLOURS[SIDES[geo.sides[seat]].letter]
        for sq in geo.back[seat]:
            tint[sq] = blend(TILE, colour, 0.16 if seat in out else 0.42)
    for f in range(0, geo.width, 2):
        for r in range(0, geo.height, 2):
            if (f, r) not in geo.squares:
                continue
            for df in (0, 1):
                for dr in (0, 1):
                    draw.rectangle(_box(players, (f + df, r + dr)), fill=tint.get((f + df, r + dr), TILE))
            x0, _, _, y1 = _box(players, (f, r))
            _, y0, x1, _ = _box(players, (f + 1, r + 1))
            mx, my = (x0 + x1) // 2, (y0 + y1) // 2
            draw.line([(mx, y0), (mx, y1)], fill=SQUARE_LINE, width=2)
            draw.line([(x0, my), (x1, my)], fill=SQUARE_LINE, width=2)
            draw.rectangle([x0, y0, x1, y1], outline=TILE_EDGE, width=3)
    for seat in range(players):
        colour = COLOURS[SIDES[geo.sides[seat]].letter]
        _back_row_label(image, players, seat, blend(TILE, colour, 0.16 if seat in out else 0.42))
    columns = _columns(players)
    for f in range(columns):
        cx = left + f * SQUARE + SQUARE // 2
        text(draw, (cx, top + geo.height * SQUARE + 4), chr(97 + f), size=MIN_PX, anchor="ma")
        text(draw, (cx, top - 4), chr(97 + f), size=MIN_PX, anchor="md")
    for r in range(geo.height):
        cy = top + (geo.height - 1 - r) * SQUARE + SQUARE // 2
        text(draw, (left - 5, cy), str(r + 1), size=MIN_PX, anchor="rm")
        text(draw, (left + columns * SQUARE + 5, cy), str(r + 1), size=MIN_PX, anchor="lm")
    return image


LABEL_H = 24  # height of a back-row label's plate
LABEL_GAP = 4  # between the plate and the rows it names


def _back_row_label(image: Image.Image, players: int, seat: int, tint: RGB) -> None:
    """The owner's colour in words on a plate of the rows' tint, beside their back rows.

    The rows are told apart without telling their tints apart (red, green and black tints look alike
    to red-green colour blindness).  The plate stands off the board, where no coin, pyramid or
    last-move line can cover it: at an end of the rows, in the empty corner of the plus-shaped board
    or in the side margin beyond the rank numbers.
    """
    side = SIDES[geometry(players).sides[seat]]
    word = side.colour
    width = text_width(word, MIN_PX) + 14
    x0, y0, x1, y1 = _label_box(players, seat, width)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([x0, y0, x1, y1], radius=6, fill=tint, outline=TILE_EDGE, width=2)
    text(image, ((x0 + x1) / 2, (y0 + y1) / 2), word, size=MIN_PX, anchor="mm")


def back_row_label_box(players: int, seat: int) -> tuple[float, float, float, float]:
    """Where the label naming ``seat``'s back rows is drawn: off the board, beside those rows."""
    return _label_box(players, seat, text_width(SIDES[geometry(players).sides[seat]].colour, MIN_PX) + 14)


def _label_box(players: int, seat: int, width: float) -> tuple[float, float, float, float]:
    geo = geometry(players)
    side = SIDES[geo.sides[seat]]
    boxes = [_box(players, sq) for sq in geo.back[seat]]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    _, _, board_left, board_top, _ = _layout(players)
    board_right = board_left + _columns(players) * square_px(players)
    board_bottom = board_top + geo.height * square_px(players)
    numbers = 24  # the rank numbers beside the board
    spots: list[tuple[float, float, float, float]] = []  # free strips beside the rows, first choice first
    if side.key in "SN":  # rows across the board: a strip at their west or east end
        cy = (top + bottom) / 2
        # (from, to, where the plate goes in it): hugging the rows in a corner, centred in a margin
        west = (board_left, left - LABEL_GAP, 1.0) if left > board_left else (10, board_left - numbers, 0.5)
        east = (right + LABEL_GAP, board_right, 0.0)
        if right >= board_right:
            east = (board_right + numbers, WIDTH - 10, 0.5)
        for lo, hi, at in (west, east) if side.key == "S" else (east, west):
            if hi - lo >= width:
                x = lo + (hi - lo - width) * at
                spots.append((x, cy - LABEL_H / 2, x + width, cy + LABEL_H / 2))
    else:  # rows down the board: a strip above or below them, in the board's empty corner
        cx = (left + right) / 2
        above = (board_top, top - LABEL_GAP) if top > board_top else None
        below = (bottom + LABEL_GAP, board_bottom) if bottom < board_bottom else None
        for strip, hugs_top in ((above, False), (below, True)) if side.key == "W" else ((below, True), (above, False)):
            if strip and strip[1] - strip[0] >= LABEL_H:
                y = strip[0] if hugs_top else strip[1] - LABEL_H
                spots.append((cx - width / 2, y, cx + width / 2, y + LABEL_H))
    if spots:
        return spots[0]
    cx, cy = (left + right) / 2, (top + bottom) / 2  # no room off the board: on the rows, as a last resort
    return cx - width / 2, cy - LABEL_H / 2, cx + width / 2, cy + LABEL_H / 2


def _coin_disc(letter: str, radius: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent sprite holding a coin's disc in its suit colour and rim, and a pen to finish it."""
    size = radius * 2 + 2
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    fill, c = COLOURS[letter], size / 2
    rim = max(2, radius // 8)
    draw.ellipse([c - radius, c - radius, c + radius, c + radius], fill=fill, outline=outline_for(fill), width=rim)
    return sprite, draw


def _luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2])


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio between two colours, 1 to 21."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


NUMBER_INKS = (outline_for((0, 0, 0)), outline_for((255, 255, 255)))  # the light and the dark outline colours


@lru_cache(maxsize=16)
def number_ink(fill: RGB) -> RGB:
    """The ink of a coin's number: of the light and the dark outline colour, the one of higher contrast on ``fill``.

    ``outline_for`` picks by a threshold on a weighted sum of the uncorrected sRGB values, which gave blue
    coins dark numbers like green ones: under tritanopia the two suits look alike, the ink then told them
    apart no better.  By
    WCAG contrast blue takes light ink (4.2:1 against 3.1:1), green keeps dark (4.7:1 against 2.8:1).
    """
    return max(NUMBER_INKS, key=lambda ink: contrast_ratio(ink, fill))


@lru_cache(maxsize=64)
def _coin_sprite(letter: str, value: int, radius: int) -> Image.Image:
    """A piecepack coin of a suit colour showing its value (0 null, 1 ace), with transparency."""
    sprite, draw = _coin_disc(letter, radius)
    fill, c = COLOURS[letter], radius + 1
    inner = radius * 0.76
    draw.ellipse([c - inner, c - inner, c + inner, c + inner], outline=shade(fill, 1.35), width=1)
    draw.text((c, c + 1), str(value), font=font(int(radius * 1.25)), fill=number_ink(fill), anchor="mm")
    return sprite


@lru_cache(maxsize=16)
def _coin_back(letter: str, radius: int) -> Image.Image:
    """A piecepack coin of a suit colour lying face down: its rim, then a darker cross-hatched back, no number.

    The sprite depends on the suit alone, so a face-down row says nothing about its order.
    """
    sprite, draw = _coin_disc(letter, radius)
    fill, c, size = COLOURS[letter], radius + 1, radius * 2 + 2
    edge = outline_for(fill)
    inner = radius * 0.72
    back = shade(fill, 0.7)  # the palette holds these shades of every piece colour
    draw.ellipse([c - inner, c - inner, c + inner, c + inner], fill=back, outline=edge, width=2)
    hatch = Image.new("L", (size, size), 0)
    lines = ImageDraw.Draw(hatch)
    step = max(5, radius // 4)
    for k in range(-size, size, step):
        lines.line([(k, 0), (k + size, size)], fill=255, width=2)
        lines.line([(k, size), (k + size, 0)], fill=255, width=2)
    disc = Image.new("L", (size, size), 0)
    ImageDraw.Draw(disc).ellipse([c - inner + 3, c - inner + 3, c + inner - 3, c + inner - 3], fill=255)
    sprite.paste((*shade(fill, 1.18), 255), mask=ImageChops.multiply(hatch, disc))
    return sprite


@lru_cache(maxsize=128)
def _top_sprite(colour: str, pips: int, scale: float) -> Image.Image:
    """A pyramid seen from above (``draw_pyramid_top``), drawn once on a transparent sprite."""
    size = int(scale) + 6
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw_pyramid_top(ImageDraw.Draw(sprite), (size / 2, size / 2), pips, colour, scale)
    return sprite


def _paste_top(image: Image.Image, centre: tuple[float, float], pips: int, colour: str, scale: float) -> None:
    sprite = _top_sprite(colour, pips, scale)
    half = sprite.size[0] / 2
    paste_sprite(image, sprite, (round(centre[0] - half), round(centre[1] - half)))


def _paste_coin(image: Image.Image, centre: tuple[float, float], letter: str, value: int, radius: int) -> None:
    sprite = _coin_sprite(letter, value, radius)
    px = int(radius * 1.25)
    geometry_record.note_text(
        str(value), px, (centre[0] - px / 2, centre[1] - px / 2, centre[0] + px / 2, centre[1] + px / 2)
    )
    half = sprite.size[0] // 2
    paste_sprite(image, sprite, (int(centre[0]) - half, int(centre[1]) - half))


def _paste_coin_back(image: Image.Image, centre: tuple[float, float], letter: str, radius: int) -> None:
    sprite = _coin_back(letter, radius)
    half = sprite.size[0] // 2
    paste_sprite(image, sprite, (int(centre[0]) - half, int(centre[1]) - half))


def _ring(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: RGB, width: int) -> None:
    cx, cy = centre
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=colour, width=width)


def _draw_pieces(image: Image.Image, draw: ImageDraw.ImageDraw, s: TreasureState) -> None:
    geo = geometry(s.players)
    n = s.players
    SQUARE = square_px(n)
    if (last := _last_step(s)) is not None:
        for sq in last:
            x0, y0, x1, y1 = _box(n, sq)
            last_move_frame(draw, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), 5)
        draw.line([_centre(n, last[0]), _centre(n, last[1])], fill=LAST_OUTER, width=8)
        draw.line([_centre(n, last[0]), _centre(n, last[1])], fill=LAST_INNER, width=4)
    for sq, colour, pips in s.pyramids:
        _paste_top(image, _centre(n, sq), pips, colour, SQUARE * 0.8)
    radius = int(SQUARE * 0.4)
    shown = revealed_rows(s)
    for seat, row in enumerate(s.coins):
        letter = SIDES[geo.sides[seat]].letter
        for value, where in enumerate(row):
            if where is None:
                continue
            if shown[seat]:
                _paste_coin(image, _centre(n, where), letter, value, radius)
            else:  # set out secretly (or the stand-in order): face down, the same whatever the order
                _paste_coin_back(image, _centre(n, where), letter, radius)
    if s.phase == "move" and s.dice is not None:
        for move in RULES.legal_moves(s):
            if not isinstance(move, Step):
                continue
            cx, cy = _centre(n, move.dst)
            draw.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], fill=HIGHLIGHT, outline=TEXT_SHADOW, width=4)
        here = s.coins[s.turn][s.dice[0]]
        if here is not None:
            _ring(draw, _centre(n, here), SQUARE * 0.47, HIGHLIGHT, 4)
    if s.last_lost and s.last_seat is not None and s.dice is not None and s.phase != "move":
        stuck = s.coins[s.last_seat][s.dice[0]]
        if stuck is not None:
            _ring(draw, _centre(n, stuck), SQUARE * 0.47, MARK, 4)


PILE_CELL = 34  # a captured pyramid or coin in a score pile
PAD = 14


def _pile_rows(s: TreasureState, seat: int, width: int) -> int:
    """Rows of ``PILE_CELL`` a player's score pile needs across ``width`` pixels."""
    items = len(s.treasure[seat]) + len(s.prisoners[seat])
    return max(1, -(-items // max(1, width // PILE_CELL)))


def _panel_height(s: TreasureState, width: int) -> int:
    rows = sum(52 + _pile_rows(s, seat, width - 2 * PAD) * PILE_CELL + 10 for seat in range(s.players))
    reason = len(_reason_lines(s, width - 2 * PAD))
    extra = _last_action_extra(s, width - 2 * PAD)
    return 8 + 26 + 100 + 30 + rows + 34 + extra + (REASON_LINE * reason + 6 if reason else 0)


REASON_LINE = 23  # one line of why the game ended
LAST_LINE = 22  # the second line of the last move, when it needs one


def _draw_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    s: TreasureState,
    x: int,
    y: int,
    w: int,
    h: int,
    names: Sequence[str] | None,
) -> None:
    geo = geometry(s.players)
    draw.rounded_rectangle([x, y, x + w, y + h], radius=10, fill=PANEL)
    pad, die = PAD, 52
    text(
        image,
        (x + w - pad, y + pad),
        f"{len(s.pyramids)} pyramid{'' if len(s.pyramids) == 1 else 's'} left",
        size=MIN_PX + 1,
        anchor="ra",
    )
    if s.dice is not None:
        number, kind = s.dice
        who: int | None
        if s.phase == "move":
            title, who = "Dice to play", s.turn
        else:
            title, who = ("Last roll: turn lost" if s.last_lost else "Last roll"), s.last_seat
        text(image, (x + pad, y + pad), title, size=MIN_PX + 1, fill=MARK if title.endswith("lost") else TEXT)
        paste_die(image, (x + pad + 20, y + pad + 28), die, str(number), f"coin {NUMBER_WORDS[number]}")
        paste_die(image, (x + pad + die + 70, y + pad + 28), die, str(kind), KINDS[kind])
        if who is not None:
            first, rest = _name_parts(s, who, names)
            label = fit_name("", first, rest, MIN_PX + 1, w - (2 * die + 2 * pad + 110))
            text(image, (x + pad + 2 * die + 100, y + pad + 44), label, size=MIN_PX + 1)
    else:
        text(image, (x + pad, y + pad), "No roll yet", size=MIN_PX + 1)
    if s.phase == "arrange":
        text(image, (x + pad, y + pad + 34), "Set out your coins left to right", size=MIN_PX)
        text(image, (x + pad, y + pad + 58), "from your seat: arrange 012345", size=MIN_PX)
        hidden = "Every row stays face down until all have arranged"
        text(image, (x + pad, y + pad + 88), fit_text(hidden, MIN_PX, w - 2 * pad), size=MIN_PX, fill=DIM_TEXT)
    else:
        for k, line in enumerate(_last_action_lines(s, w - 2 * pad)):
            text(image, (x + pad, y + pad + 28 + die + 34 + k * LAST_LINE), line, size=MIN_PX, fill=DIM_TEXT)
    ry = y + pad + 28 + die + 66 + _last_action_extra(s, w - 2 * pad)
    reason = _reason_lines(s, w - 2 * pad)
    for line in reason:  # why the game ended, under the last move
        text(image, (x + pad, ry - 8), line, size=MIN_PX, fill=HIGHLIGHT)
        ry += REASON_LINE
    ry += 6 if reason else 0
    for seat in range(s.players):
        side = SIDES[geo.sides[seat]]
        row_h = 52 + _pile_rows(s, seat, w - 2 * pad) * PILE_CELL
        if s.phase != "over" and seat == s.turn:
            draw.rounded_rectangle([x + 5, ry - 5, x + w - 5, ry + row_h], radius=8, outline=HIGHLIGHT, width=3)
        colour_swatch(draw, (x + pad, ry + 2), side.letter, size=18)
        left_game = seat in s.out
        points, points_fill = plural(score(s, seat), "point"), TEXT
        if s.phase == "arrange" and not left_game:  # who has set out their coins, never how
            points, points_fill = ("arranged", TEXT) if s.arranged[seat] else ("not yet", DIM_TEXT)
        name_w = w - 2 * pad - 30 - text_width(points, MIN_PX + 3) - 8
        first, rest = _name_parts(s, seat, names)
        name = fit_name("", first, rest + (" - left" if left_game else ""), MIN_PX + 1, name_w)
        text(image, (x + pad + 26, ry), name, size=MIN_PX + 1, fill=DIM_TEXT if left_game else TEXT)
        text(image, (x + w - pad, ry - 2), points, size=MIN_PX + 3, anchor="ra", fill=points_fill)
        text(image, (x + pad + 26, ry + 23), f"{side.compass} · {side.suit}", size=MIN_PX, fill=DIM_TEXT)
        if s.phase == "over" and s.ranks:
            rank = s.ranks[seat]
            fill = HIGHLIGHT if rank == 1 else TEXT
            text(image, (x + w - pad, ry + 23), f"{_ordinal(rank)} place", size=MIN_PX, anchor="ra", fill=fill)
        _draw_pile(image, draw, s, seat, x + pad, ry + 48, w - 2 * pad, row_h - 52)
        ry += row_h + 10
    text(image, (x + w / 2, y + h - 8), KEY, size=MIN_PX, anchor="md")


def _ordinal(n: int) -> str:
    return f"{n}" + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def _last_step(s: TreasureState) -> tuple[Sq, Sq] | None:
    """The last move as (from, to) while its coin still stands where it went, else None.

    A player who leaves takes their coins off the board, and with them their last move: the board
    frames no empty squares and the panel has no "Last move" line.
    """
    if s.last_seat is None or s.last_from is None or s.last_to is None or s.last_to not in s.coins[s.last_seat]:
        return None
    return s.last_from, s.last_to


def _last_action(s: TreasureState) -> str:
    """The previous move in the channel log's words, for the panel: "Last move: Black moved the ace f9-e8 and
    took a small pyramid" (the log: "Black ... moves the ace f9-e8, taking a small red pyramid")."""
    if s.last_seat is None:
        return ""
    who = "Last move: " + seat_label(s, s.last_seat)
    if s.last_lost:
        return f"{who} lost the turn"
    if (last := _last_step(s)) is None:
        return ""
    value = s.coins[s.last_seat].index(last[1])  # the last move is the latest: its coin still stands there
    move = f"{who} moved {coin_name(value)} {square_name(last[0])}-{square_name(last[1])}"
    if s.last_pyramid is not None:
        return f"{move} and took a {('small', 'medium', 'large')[s.last_pyramid[1] - 1]} pyramid"
    if s.last_coin is not None:
        return f"{move} and captured {seat_label(s, s.last_coin[0])}'s {NUMBER_WORDS[s.last_coin[1]]}"
    return move


def _last_action_lines(s: TreasureState, width: float) -> list[str]:
    """The last move in one line, or two when it is wider than the panel (broken before what it took)."""
    words = _last_action(s)
    if not words or s.phase == "arrange":
        return []
    move, _, took = words.partition(" and ")
    if text_width(words, MIN_PX) > width and took and text_width(move, MIN_PX) <= width:
        return [move, *wrap_text("and " + took, MIN_PX, width, 1)]
    return wrap_text(words, MIN_PX, width, 2)


def _last_action_extra(s: TreasureState, width: float) -> int:
    """The height the last move's second line adds to the panel."""
    return LAST_LINE * max(0, len(_last_action_lines(s, width)) - 1)


def _draw_pile(
    image: Image.Image, draw: ImageDraw.ImageDraw, s: TreasureState, seat: int, x: int, y: int, w: int, h: int
) -> None:
    """Captured pyramids (largest first) then captured coins, in as many rows as fit."""
    geo = geometry(s.players)
    cell = PILE_CELL
    per_row = max(1, w // cell)
    rows = max(1, h // cell)
    items: list[tuple[str, Any]] = [("p", p) for p in sorted(s.treasure[seat], key=lambda p: (-p[1], p[0]))]
    items += [("c", c) for c in s.prisoners[seat]]
    hidden = 0
    if len(items) > per_row * rows:
        keep = per_row * rows - 1
        hidden, items = len(items) - keep, items[:keep]
    for i, (kind, item) in enumerate(items):
        cx = x + (i % per_row) * cell + cell / 2
        cy = y + (i // per_row) * cell + cell / 2
        if kind == "p":
            _paste_top(image, (cx, cy), item[1], item[0], cell * 0.9)
        else:
            owner, value = item
            _paste_coin(image, (cx, cy), SIDES[geo.sides[owner]].letter, value, int(cell * 0.45))
    if hidden:
        i = len(items)
        text(image, (x + (i % per_row) * cell + 2, y + (i // per_row) * cell + 4), f"+{hidden}", size=MIN_PX)


def draw_board(state: TreasureState, names: Sequence[str] | None = None) -> Image.Image:
    """The picture as an RGB image (``render`` encodes it)."""
    width, _, _, _, panel_y = _layout(state.players)
    panel_h = _panel_height(state, width - 20)
    image = Image.new("RGB", (width, panel_y + panel_h + 10), BACKGROUND)
    paste_tile(image, _base(state.players, tuple(sorted(state.out))))
    draw = ImageDraw.Draw(image)
    _draw_pieces(image, draw, state)
    _draw_panel(image, draw, state, 10, panel_y, width - 20, panel_h, names)
    headline = _headline(state, names, width - 60)
    if state.phase != "over":
        colour_swatch(draw, (14, 15), SIDES[geometry(state.players).sides[state.turn]].letter, size=20)
        text(image, (44, 13), headline, size=MIN_PX + 3, fill=HIGHLIGHT)
    else:
        text(image, (14, 13), headline, size=MIN_PX + 3, fill=HIGHLIGHT)
    return image


def board_layout(state: TreasureState, *, last_move: Any = None, names: Sequence[str] | None = None) -> Any:
    """The geometry ``render`` draws: size, every text (coin numbers included) with its font size."""
    del last_move
    with geometry_record.recording() as promised:
        image = draw_board(state, names)
        geometry_record.note_size(image.width, image.height)
    return promised


TINTS = [blend(TILE, COLOURS[side.letter], t) for side in SIDES.values() for t in (0.16, 0.42)]
PALETTE = fixed_palette(extra=[TILE, TILE_EDGE, SQUARE_LINE, DIM_TEXT, *TINTS], grounds=[TILE], inks=[DIM_TEXT])


def render(state: TreasureState, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes: pure and deterministic.

    ``last_move`` is accepted for the common renderer contract; the state already records the
    last move for display.  ``names[seat]`` are the players' display names.
    """
    del last_move
    return png_bytes(draw_board(state, names), PALETTE)
