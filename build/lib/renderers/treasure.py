"""Martian Treasure Hunt board: tiles, back rows, coins, pyramids, the dice and the score piles.

The board sits on the left with coordinates on all four edges; the panel on the right shows the
dice of the latest roll and every player's score pile.  The last move is drawn as a yellow path
from its start square to its end square; while a coin waits to move it is ringed and the squares
it can reach are marked.

Speed: the tiles and coordinates are drawn once per board and copied; coins are pasted from
cached sprites; the PNG is quantised to one fixed palette (computed once), which is much faster
than computing a palette per picture and keeps the output deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.treasure import (
    KINDS,
    NUMBER_WORDS,
    RULES,
    SIDES,
    TreasureState,
    geometry,
    score,
    seat_label,
    square_name,
)
from renderers.pyramids import (
    BACKGROUND,
    COLOURS,
    HIGHLIGHT,
    MARK,
    PANEL,
    RGB,
    TEXT,
    TEXT_SHADOW,
    blend,
    colour_swatch,
    display_name,
    draw_pyramid_top,
    fit_text,
    fixed_palette,
    font,
    outline_for,
    paste_die,
    png_bytes,
    shade,
    text,
    text_width,
)

SQUARE = 62
MARGIN = 28  # room for coordinates around the board
HEADER = 50
PANEL_GAP = 8
TILE: RGB = (0xBD, 0xB3, 0xA0)  # face-down piecepack tile
TILE_EDGE: RGB = (0x33, 0x36, 0x3C)
SQUARE_LINE: RGB = (0x80, 0x78, 0x6A)
DIM_TEXT: RGB = (0xD0, 0xD0, 0xD0)
KEY = "Points: large 3 · medium 2 · small 1 · coin 2"

Sq = tuple[int, int]


def _columns(players: int) -> int:
    """Files drawn: the three-player board stops at file h (no East arm)."""
    return max(f for f, _ in geometry(players).squares) + 1


def _layout(players: int) -> tuple[int, int, int, int, int]:
    """(canvas width, canvas height, board left, board top, panel left) for a player count."""
    geo = geometry(players)
    board_w, board_h = _columns(players) * SQUARE, geo.height * SQUARE
    panel_w = 360 if players == 2 else 300
    panel_x = MARGIN * 2 + board_w + PANEL_GAP
    return panel_x + panel_w + 10, HEADER + MARGIN * 2 + board_h, MARGIN, HEADER + MARGIN, panel_x


def _player_name(s: TreasureState, seat: int, names: Sequence[str] | None) -> str:
    colour = seat_label(s, seat)
    if name := display_name(names, seat):
        return f"{name} ({colour})"
    return colour


def _headline(s: TreasureState, names: Sequence[str] | None) -> str:
    if s.phase == "over":
        outcome = RULES.outcome(s)
        winners = outcome.winners if outcome else ()
        who = " and ".join(_player_name(s, w, names) for w in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        return f"Game over: {who} {verb}"
    who = _player_name(s, s.turn, names)
    if s.phase == "arrange":
        return f"{who} to set out their coins"
    if s.phase == "roll":
        return f"{who} to roll"
    number, kind = s.dice or (0, 0)
    return f"{who} to move the {NUMBER_WORDS[number]} like a {KINDS[kind]}"


def _box(players: int, sq: Sq) -> tuple[int, int, int, int]:
    geo = geometry(players)
    x = MARGIN + sq[0] * SQUARE
    y = HEADER + MARGIN + (geo.height - 1 - sq[1]) * SQUARE
    return x, y, x + SQUARE, y + SQUARE


def _centre(players: int, sq: Sq) -> tuple[float, float]:
    x0, y0, x1, y1 = _box(players, sq)
    return (x0 + x1) / 2, (y0 + y1) / 2


@lru_cache(maxsize=24)
def _base(players: int, out: tuple[int, ...]) -> Image.Image:
    """The empty board: tiles, back rows tinted per seat (faded for seats that left), coordinates."""
    width, height, left, top, _ = _layout(players)
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
    columns = _columns(players)
    for f in range(columns):
        cx = left + f * SQUARE + SQUARE // 2
        text(draw, (cx, top + geo.height * SQUARE + 5), chr(97 + f), size=18, anchor="ma")
        text(draw, (cx, top - 5), chr(97 + f), size=18, anchor="md")
    for r in range(geo.height):
        cy = top + (geo.height - 1 - r) * SQUARE + SQUARE // 2
        text(draw, (left - 7, cy), str(r + 1), size=18, anchor="rm")
        text(draw, (left + columns * SQUARE + 7, cy), str(r + 1), size=18, anchor="lm")
    return image


@lru_cache(maxsize=64)
def _coin_sprite(letter: str, value: int, radius: int) -> Image.Image:
    """A piecepack coin of a suit colour showing its value (0 null, 1 ace), with transparency."""
    size = radius * 2 + 2
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    fill = COLOURS[letter]
    edge = outline_for(fill)
    c = size / 2
    draw.ellipse([c - radius, c - radius, c + radius, c + radius], fill=fill, outline=edge, width=max(2, radius // 8))
    inner = radius * 0.76
    draw.ellipse([c - inner, c - inner, c + inner, c + inner], outline=shade(fill, 1.35), width=1)
    draw.text((c, c + 1), str(value), font=font(int(radius * 1.25)), fill=edge, anchor="mm")
    return sprite


def _paste_coin(image: Image.Image, centre: tuple[float, float], letter: str, value: int, radius: int) -> None:
    sprite = _coin_sprite(letter, value, radius)
    half = sprite.size[0] // 2
    image.paste(sprite, (int(centre[0]) - half, int(centre[1]) - half), sprite)


def _ring(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: RGB, width: int) -> None:
    cx, cy = centre
    draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=colour, width=width)


def _draw_pieces(image: Image.Image, draw: ImageDraw.ImageDraw, s: TreasureState) -> None:
    geo = geometry(s.players)
    n = s.players
    if s.last_from is not None and s.last_to is not None:
        for sq in (s.last_from, s.last_to):
            x0, y0, x1, y1 = _box(n, sq)
            draw.rectangle([x0 + 2, y0 + 2, x1 - 2, y1 - 2], outline=HIGHLIGHT, width=4)
        draw.line([_centre(n, s.last_from), _centre(n, s.last_to)], fill=HIGHLIGHT, width=6)
    for sq, colour, pips in s.pyramids:
        draw_pyramid_top(draw, _centre(n, sq), pips, colour, SQUARE * 0.8)
    radius = int(SQUARE * 0.4)
    for seat, row in enumerate(s.coins):
        letter = SIDES[geo.sides[seat]].letter
        for value, sq in enumerate(row):
            if sq is not None:
                _paste_coin(image, _centre(n, sq), letter, value, radius)
    if s.phase == "move" and s.dice is not None:
        for move in RULES.legal_moves(s):
            cx, cy = _centre(n, move.dst)
            draw.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], fill=HIGHLIGHT, outline=TEXT_SHADOW, width=4)
        here = s.coins[s.turn][s.dice[0]]
        if here is not None:
            _ring(draw, _centre(n, here), SQUARE * 0.47, HIGHLIGHT, 4)
    if s.last_lost and s.last_seat is not None and s.dice is not None and s.phase != "move":
        stuck = s.coins[s.last_seat][s.dice[0]]
        if stuck is not None:
            _ring(draw, _centre(n, stuck), SQUARE * 0.47, MARK, 4)


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
    pad, die = 14, 52
    text(
        image,
        (x + w - pad, y + pad),
        f"{len(s.pyramids)} pyramid{'' if len(s.pyramids) == 1 else 's'} left",
        size=16,
        anchor="ra",
    )
    if s.dice is not None:
        number, kind = s.dice
        if s.phase == "move":
            title, who = "Dice to play", s.turn
        else:
            title, who = ("Last roll: turn lost" if s.last_lost else "Last roll"), s.last_seat
        text(image, (x + pad, y + pad), title, size=16, fill=MARK if title.endswith("lost") else TEXT)
        paste_die(image, (x + pad, y + pad + 26), die, str(number), f"coin {NUMBER_WORDS[number]}")
        paste_die(image, (x + pad + die + 30, y + pad + 26), die, str(kind), KINDS[kind])
        if who is not None:
            label = fit_text(_player_name(s, who, names), 15, w - (2 * die + 2 * pad + 40))
            text(image, (x + pad + 2 * die + 46, y + pad + 44), label, size=15)
    else:
        text(image, (x + pad, y + pad), "No roll yet", size=16)
    if s.phase == "arrange":
        text(image, (x + pad, y + pad + 30), "Set out your coins left to right", size=15)
        text(image, (x + pad, y + pad + 52), "from your seat: arrange 012345", size=15)
    else:
        text(
            image,
            (x + pad, y + pad + 26 + die + 30),
            fit_text(_last_action(s), 15, w - 2 * pad),
            size=15,
            fill=DIM_TEXT,
        )
    top = y + pad + 26 + die + 62
    bottom = y + h - 30
    text(image, (x + w / 2, y + h - 10), KEY, size=13, anchor="md")
    row_h = min(170, (bottom - top) // s.players)
    for seat in range(s.players):
        ry = top + seat * row_h
        side = SIDES[geo.sides[seat]]
        if s.phase != "over" and seat == s.turn:
            draw.rounded_rectangle([x + 5, ry - 5, x + w - 5, ry + row_h - 9], radius=8, outline=HIGHLIGHT, width=3)
        colour_swatch(draw, (x + pad, ry + 2), side.letter, size=18)
        left_game = seat in s.out
        points = str(score(s, seat))
        name_w = w - 2 * pad - 30 - text_width(points, 22) - 8
        name = fit_text(_player_name(s, seat, names) + (" - left" if left_game else ""), 17, name_w)
        text(image, (x + pad + 26, ry + 1), name, size=17, fill=DIM_TEXT if left_game else TEXT)
        text(image, (x + w - pad, ry - 1), points, size=22, anchor="ra")
        text(image, (x + pad + 26, ry + 22), f"{side.compass} · {side.suit}", size=13, fill=DIM_TEXT)
        _draw_pile(image, draw, s, seat, x + pad, ry + 40, w - 2 * pad, row_h - 52)


def _last_action(s: TreasureState) -> str:
    """A few words on the previous move for the panel: "Black 5:e7-f8 took a small"."""
    if s.last_seat is None:
        return ""
    who = "Last move: " + seat_label(s, s.last_seat)
    if s.last_lost:
        return f"{who} lost the turn"
    if s.last_from is None or s.last_to is None or s.last_to not in s.coins[s.last_seat]:
        return ""
    value = s.coins[s.last_seat].index(s.last_to)  # the last move is the latest: its coin still stands there
    move = f"{who} {value}:{square_name(s.last_from)}-{square_name(s.last_to)}"
    if s.last_pyramid is not None:
        return f"{move} took a {('small', 'medium', 'large')[s.last_pyramid[1] - 1]} pyramid"
    if s.last_coin is not None:
        return f"{move} took {seat_label(s, s.last_coin[0])}'s {s.last_coin[1]}"
    return move


def _draw_pile(
    image: Image.Image, draw: ImageDraw.ImageDraw, s: TreasureState, seat: int, x: int, y: int, w: int, h: int
) -> None:
    """Captured pyramids (largest first) then captured coins, in as many rows as fit."""
    geo = geometry(s.players)
    cell = 34 if h >= 100 else 26
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
            draw_pyramid_top(draw, (cx, cy), item[1], item[0], cell * 0.9)
        else:
            owner, value = item
            _paste_coin(image, (cx, cy), SIDES[geo.sides[owner]].letter, value, int(cell * 0.45))
    if hidden:
        i = len(items)
        text(image, (x + (i % per_row) * cell + 2, y + (i // per_row) * cell + 4), f"+{hidden}", size=13)


def draw_board(state: TreasureState, names: Sequence[str] | None = None) -> Image.Image:
    """The picture as an RGB image (``render`` encodes it)."""
    width, height, _, _, panel_x = _layout(state.players)
    image = _base(state.players, tuple(sorted(state.out))).copy()
    draw = ImageDraw.Draw(image)
    _draw_pieces(image, draw, state)
    _draw_panel(image, draw, state, panel_x, HEADER + 4, width - panel_x - 10, height - HEADER - 14, names)
    headline = fit_text(_headline(state, names), 22, width - 60)
    if state.phase != "over":
        colour_swatch(draw, (14, 15), SIDES[geometry(state.players).sides[state.turn]].letter, size=20)
        text(image, (44, 13), headline, size=22)
    else:
        text(image, (14, 13), headline, size=22)
    return image


TINTS = [blend(TILE, COLOURS[side.letter], t) for side in SIDES.values() for t in (0.16, 0.42)]
PALETTE = fixed_palette(extra=[TILE, TILE_EDGE, SQUARE_LINE, DIM_TEXT, *TINTS], grounds=[TILE], inks=[DIM_TEXT])


def render(state: TreasureState, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes: pure and deterministic.

    ``last_move`` is accepted for the common renderer contract; the state already records the
    last move for display.  ``names[seat]`` are the players' display names.
    """
    del last_move
    return png_bytes(draw_board(state, names), PALETTE)
