"""The Martian Assassination Game board as a PNG: board, safehouse, bases, pieces, last path, die, players.

Phone first: a narrow portrait (``WIDTH`` pixels; no text under 12 px when Discord shows it 400 px
wide).  A header naming the player to move, the board (10x10: 51 px squares; 12x12: 43 px) with rank
numbers on the left and file letters below, then a panel with the die (the null drawn as a slashed
circle), what just happened and one row per player (role, base markers, captures, place).  The last
path is a black and white line ending in a black and white frame; squares the mover may reach carry
a mint dot, except a capture: the victim there is ringed in mint instead, so no dot hides it.  The
static board (tiles, coordinates, safehouse, base coins) is drawn once per size and copied; labels
use the shared cached text.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

from PIL import Image, ImageDraw

from games.assassin import COLOUR_WORDS, RULES, SAFE, SEAT_COLOURS, State, board, die_word
from renderers import layout as geometry_record
from renderers.pyramids import (
    COLOURS,
    GRID_LINE,
    HIGHLIGHT,
    LAST_INNER,
    LAST_OUTER,
    MARK,
    OUTLINE_PX,
    PANEL,
    RGB,
    TEXT,
    TEXT_SHADOW,
    display_name,
    fit_name,
    fit_names,
    fit_text,
    fixed_palette,
    font,
    last_move_frame,
    new_canvas,
    outline_for,
    paste_die,
    paste_pyramid,
    paste_tile,
    png_bytes,
    text,
    text_width,
)

WIDTH = 560
MIN_PX = -(-geometry_record.MIN_PHONE_TEXT * WIDTH // geometry_record.PHONE_WIDTH)  # 17: 12 px on a phone
HEADER = 70
LEFT = 32
BOARD_PX = {10: 510, 12: 516}
ROW = 50  # one player's row in the panel
TILE: RGB = (0x9D, 0xA4, 0xAF)
TILE_EDGE: RGB = (0x3C, 0x41, 0x49)
SQUARE_LINE: RGB = (0x84, 0x8B, 0x96)
SAFEHOUSE: RGB = (0x3A, 0x3F, 0x47)
COIN: RGB = (0xEE, 0xE4, 0xC8)
DIM: RGB = (0xC4, 0xC8, 0xCE)


def _cell(size: int) -> int:
    return BOARD_PX[size] // size


def _height(size: int) -> int:
    """Height of the board part: header, board and file letters."""
    return HEADER + BOARD_PX[size] + 36


def _panel_height(s: State) -> int:
    return 10 + 66 + 28 + 30 + s.players * ROW + 8 + 2 * 24 + 10


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


PALETTE = fixed_palette(
    extra=[TILE, TILE_EDGE, SQUARE_LINE, SAFEHOUSE, COIN, DIM], grounds=[TILE, SAFEHOUSE, COIN], inks=[DIM]
)


# ------------------------------------------------------------------ static board


@lru_cache(maxsize=2)
def _background(size: int) -> tuple[Image.Image, tuple[geometry_record.TextBox, ...]]:
    """Tiles, coordinates, safehouse and base coins for one board size, and the texts drawn on them."""
    with geometry_record.recording() as drawn:
        image = _draw_background(size)
    return image, tuple(drawn.texts)


def _draw_background(size: int) -> Image.Image:
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
    text(image, (sx0 + cell, sy0 + 14), "SAFE", size=MIN_PX, fill=DIM, anchor="mm", shadow=False)
    text(image, (sx0 + cell, sy0 + 2 * cell - 14), "HOUSE", size=MIN_PX, fill=DIM, anchor="mm", shadow=False)
    coin_px = max(MIN_PX, int(cell * 0.36))
    for base in geometry.bases:
        cx, cy = square_centre(size, base)
        r = cell * 0.3
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=COIN, outline=TEXT_SHADOW, width=2)
        draw.text((cx, cy + 1), "A", font=font(coin_px), fill=TEXT_SHADOW, anchor="mm")
        a_left, a_top, a_right, a_bottom = font(coin_px).getbbox("A", anchor="mm")  # its glyph's box, as text() notes
        geometry_record.note_text("A", coin_px, (cx + a_left, cy + 1 + a_top, cx + a_right, cy + 1 + a_bottom))
    for k in range(size):
        x = left + (k + 0.5) * cell
        text(image, (x, top + px + 18), "abcdefghijkl"[k], size=MIN_PX + 1, anchor="mm")
        y = top + (size - k - 0.5) * cell
        text(image, (left - 16, y), str(k + 1), size=MIN_PX, anchor="mm")
    return image


# ------------------------------------------------------------------ pieces and overlays


TICK = 7  # how far the crosshair's ticks reach inside and outside its ring
CROSSHAIR_CLEAR = 2  # pixels between the ticks' ends and the edge of the victim's square


def _crosshair(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, height: float | None = None
) -> None:
    """The victim's mark: a ring with four ticks; given a ``height`` (half), an oval ticked left and right only."""
    cx, cy = centre
    ry = radius if height is None else height
    draw.ellipse([cx - radius, cy - ry, cx + radius, cy + ry], outline=MARK, width=4)
    ticks = ((1, 0), (-1, 0), (0, 1), (0, -1)) if height is None else ((1, 0), (-1, 0))
    for dx, dy in ticks:
        draw.line(
            [(cx + dx * (radius - TICK), cy + dy * (ry - TICK)), (cx + dx * (radius + TICK), cy + dy * (ry + TICK))],
            fill=MARK,
            width=4,
        )


def _safehouse_gap(size: int) -> tuple[float, float]:
    """The rows free between the words SAFE and HOUSE: (top, bottom) in pixels."""
    boxes = {t.text: t.box for t in _background(size)[1]}
    return boxes["SAFE"][3] + 2, boxes["HOUSE"][1] - 2


LETTER_PX = MIN_PX  # the seat's colour letter beside its piece: 12 px on a phone
LETTER_GAP = 3  # pixels between a piece and its letter (the letter's outline not counted)
SAFE_OVAL = 0.7  # the victim's oval in the safehouse: its half-width in squares, room for piece and letter


def piece_place(size: int, square: int, seat: int) -> tuple[float, float, float, tuple[float, float]]:
    """Where a seat's pyramid and colour letter go on ``square``: (centre x, base y, scale, letter's right-baseline).

    The letter stands at the bottom right of the square, beside the pyramid's base, and the pyramid is
    centred in the room left of it; clear of the base coin's ``A`` (the victim may stand on a base), of the
    base markers along the top and of the crosshair's ticks.  In the safehouse the two sit side by side
    between the words SAFE and HOUSE, the letter level with the oval's middle, inside its ticks.
    """
    cell = _cell(size)
    cx, cy = square_centre(size, square)
    letter = SEAT_COLOURS[seat]
    glyph = font(LETTER_PX).getbbox(letter, anchor="rs")
    letter_w = glyph[2] - glyph[0]
    scale = cell * 0.46
    width, height = scale, scale * 1.75  # a large pyramid
    if square == SAFE:
        top, bottom = _safehouse_gap(size)
        middle = (top + bottom) / 2
        scale = min(scale, (bottom - top - 14) / 1.75)  # inside the oval on the small squares of 12x12
        width, height = scale, scale * 1.75
        base_y = middle + height / 2
        baseline = middle - (glyph[1] + glyph[3]) / 2  # the letter's middle on the oval's middle row
        rise = base_y - baseline  # the pyramid's half-width where the letter's foot is
        half_there = width / 2 * (1 - rise / height)
        # the pyramid's base and the letter centred together in the oval
        centre = cx - (half_there + LETTER_GAP + OUTLINE_PX + letter_w - width / 2) / 2
        right = centre + half_there + LETTER_GAP + OUTLINE_PX + letter_w
        return centre, base_y, scale, (right, baseline)
    right = cx + cell / 2 - 3 - OUTLINE_PX
    baseline = cy + cell / 2 - 3.5  # below the base coin's A on a base square (12x12 too)
    room_left = cx - cell / 2 + 3
    room_right = right - letter_w - OUTLINE_PX - LETTER_GAP
    return min(cx, (room_left + room_right) / 2), cy + scale * 0.8, scale, (right, baseline)


def _draw_piece(image: Image.Image, draw: ImageDraw.ImageDraw, size: int, square: int, seat: int, victim: bool) -> None:
    """A seat's pyramid with its colour letter beside it: nine colours are more than hue alone can tell apart."""
    cell = _cell(size)
    cx, cy = square_centre(size, square)
    centre, base_y, scale, (right, baseline) = piece_place(size, square, seat)
    if square == SAFE and victim:  # an oval clear of the words SAFE and HOUSE, round piece and letter
        top, bottom = _safehouse_gap(size)
        _crosshair(draw, (cx, (top + bottom) / 2), cell * SAFE_OVAL, (bottom - top) / 2 - 2)
    elif victim:  # ring and ticks inside the square: the ticks stop CROSSHAIR_CLEAR short of its edge
        _crosshair(draw, (cx, cy), cell / 2 - CROSSHAIR_CLEAR - TICK)
    letter = SEAT_COLOURS[seat]
    paste_pyramid(image, centre, base_y, 3, letter, scale)
    text(image, (right, baseline), letter, size=LETTER_PX, anchor="rs")
    geometry_record.note_piece(
        letter, board(size).name(square), (centre - scale / 2, base_y - scale * 1.75, centre + scale / 2, base_y)
    )


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
            x = x1 - scale * 0.32 - 2 - k * step
            paste_pyramid(image, x, y0 + scale + 3, 1, SEAT_COLOURS[seat], scale, outline_width=1)


def _draw_path(draw: ImageDraw.ImageDraw, s: State) -> None:
    path = s.last.path
    if len(path) < 2:
        return
    points = [square_centre(s.size, square) for square in path]
    draw.line(points, fill=LAST_OUTER, width=9, joint="curve")
    draw.line(points, fill=LAST_INNER, width=5, joint="curve")
    sx, sy = points[0]
    draw.ellipse([sx - 9, sy - 9, sx + 9, sy + 9], outline=LAST_INNER, width=3, fill=LAST_OUTER)
    for x, y in points[1:-1]:
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=LAST_OUTER)
    x0, y0, x1, y1 = _box(s.size, path[-1])
    last_move_frame(draw, (x0 + 1, y0 + 1, x1 - 1, y1 - 1), 5)


def capture_square(s: State) -> int | None:
    """The victim's square when the assassin to move may land on it (a capture), else None."""
    if s.turn == s.victim or s.phase != "move":
        return None
    square = s.positions[s.victim]
    return square if square in s.reachable else None


def _draw_capture(draw: ImageDraw.ImageDraw, s: State) -> None:
    """A capture: a mint ring round the victim, outside its crosshair, drawn under the piece (no dot over it)."""
    square = capture_square(s)
    if square is None:
        return
    cx, cy = square_centre(s.size, square)
    r = _cell(s.size) * (0.58 if square != SAFE else 0.76)
    draw.ellipse([cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2], outline=TEXT_SHADOW, width=9)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=HIGHLIGHT, width=5)


def _draw_targets(draw: ImageDraw.ImageDraw, s: State) -> None:
    """A mint dot on every square the mover may reach, except a capture (the victim is ringed)."""
    capture = capture_square(s)
    for square in s.reachable:
        if square == capture:
            continue
        cx, cy = square_centre(s.size, square)
        draw.ellipse([cx - 9, cy - 9, cx + 9, cy + 9], fill=HIGHLIGHT, outline=TEXT_SHADOW, width=3)


# ------------------------------------------------------------------ header and panel


def _player_parts(seat: int, names: Sequence[str] | None) -> tuple[str, str]:
    """A player as (name, " (Colour)"), or ("", "Colour") without a name: only the name may be cut."""
    colour = COLOUR_WORDS[SEAT_COLOURS[seat]]
    if (name := display_name(names, seat)) and name != colour:
        return name, f" ({colour})"
    return "", colour


Title = tuple[str, tuple[str, ...]]  # a line's words with a {} per name, and the names: only names are cut


def _title(seat: int, names: Sequence[str] | None, rest: str) -> Title:
    """``Name (Colour)`` followed by ``rest``, as a ``Title``."""
    name, colour = _player_parts(seat, names)
    return ("{}" + colour + rest, (name,)) if name else (colour + rest, ())


def _headline(s: State, names: Sequence[str] | None) -> tuple[Title, str]:
    if s.phase == "over":
        if s.end == "limit":
            return _limit_headline(s, names)
        assert s.winner is not None
        why = "last player left" if s.end == "alone" else "all four bases"
        return _title(s.winner, names, " wins!"), why
    role = "victim" if s.turn == s.victim else "assassin"
    if s.phase == "roll":
        return _title(s.turn, names, " to roll"), role
    if s.phase == "null":
        return _title(s.turn, names, ": reroll or stay"), f"{role} rolled a null"
    count = len(s.reachable)
    steps = f"{s.die} step{'s' if s.die != 1 else ''}"
    title = _title(s.turn, names, f" to move {steps}")
    capture = capture_square(s)
    if capture is not None:
        where = s.board.name(capture)
        if count == 1:
            return title, f"{role} - capture on {where} (ringed)"
        dots = f"{count - 1} dotted square{'s' if count != 2 else ''}"
        return title, f"{role} - capture on {where} (ringed) or one of {dots}"
    return title, f"{role} - pick one of the {count} dotted square{'s' if count != 1 else ''}"


def _limit_headline(s: State, names: Sequence[str] | None) -> tuple[Title, str]:
    """The finish at the victim-turn limit: a ranked finish, drawn only when every player shares first."""
    outcome = RULES.outcome(s)
    ranks = outcome.ranks if outcome else (1,) * s.players
    if len(ranks) > 1 and all(rank == 1 for rank in ranks):
        return ("Game over: drawn at the turn limit", ()), "every player level on bases held and captures"
    first = [seat for seat, rank in enumerate(ranks) if rank == 1]
    bases, captures = len(s.markers[first[0]]), s.captures[first[0]]
    record = f"{bases} base{'s' if bases != 1 else ''}, {captures} capture{'s' if captures != 1 else ''}"
    why = f"turn limit: most bases held, then captures ({record})"
    if len(first) == 1:
        return _title(first[0], names, " wins at the turn limit"), why
    listed = ", ".join(["{}"] * (len(first) - 1)) + " and {}"
    return (f"{listed} share the win", tuple(_name(seat, names) for seat in first)), why


def _name(seat: int, names: Sequence[str] | None) -> str:
    """The player's display name, or their colour without one."""
    return display_name(names, seat) or COLOUR_WORDS[SEAT_COLOURS[seat]]


def _event(s: State, names: Sequence[str] | None) -> tuple[Title, RGB] | None:
    """What just happened, as a ``Title``, and its colour."""
    last = s.last
    if s.out and (last.seat is None or s.end == "alone"):  # a resignation resets what just happened
        return ("{} left the game", (_name(s.out[-1], names),)), TEXT
    if last.seat is None:
        return None
    who = (_name(last.seat, names),)
    name = s.board.name
    if last.captured is not None:
        return ("{} captured {}!", (*who, _name(last.captured, names))), MARK
    if last.base is not None:
        return (f"{{}} marked base {name(last.base)}", who), HIGHLIGHT
    if last.passed and last.roll == 0:
        return ("{}: null, no move", who), TEXT
    if last.passed:
        return ("{}: no legal move", who), TEXT
    if last.path:
        return (f"{{}}: {name(last.path[0])} to {name(last.path[-1])}", who), TEXT
    return None


def _draw_panel(image: Image.Image, draw: ImageDraw.ImageDraw, s: State, names: Sequence[str] | None) -> None:
    top = _height(s.size)
    draw.rounded_rectangle([8, top, WIDTH - 9, top + _panel_height(s) - 6], radius=10, fill=PANEL)
    x0 = 20
    y = top + 10
    if s.last.roll is not None and s.phase != "roll":
        face = {0: "null", 1: "A"}.get(s.last.roll, str(s.last.roll))
        paste_die(image, (x0, y), 52, face)
        rolled = fit_names(
            f"{{}} rolled {die_word(s.last.roll)}", (_name(s.last.seat or 0, names),), MIN_PX + 2, WIDTH - x0 - 88
        )
        text(image, (x0 + 68, y + 14), rolled, size=MIN_PX + 2, anchor="lm")
    else:
        draw.rounded_rectangle([x0, y, x0 + 52, y + 52], radius=9, outline=DIM, width=2)
        text(image, (x0 + 26, y + 26), "?", size=24, fill=DIM, anchor="mm")
        text(image, (x0 + 68, y + 14), "die not rolled yet", size=MIN_PX + 1, fill=DIM, anchor="lm")
    info = f"victim turn {min(s.victim_turns + (s.phase != 'over'), s.limit or 10**9)}"
    info += f" of {s.limit}" if s.limit else ""
    text(image, (x0 + 68, y + 40), info, size=MIN_PX, fill=DIM, anchor="lm")
    y += 66
    event = _event(s, names)
    if event:
        text(
            image,
            (x0, y + 4),
            fit_names(*event[0], MIN_PX + 1, WIDTH - 2 * x0),
            size=MIN_PX + 1,
            fill=event[1],
            anchor="lm",
        )
    y += 28
    draw.line([(x0, y), (WIDTH - 20, y)], fill=GRID_LINE, width=2)
    y += 16
    text(image, (x0 + NAME_DX, y), "players", size=MIN_PX, fill=DIM, anchor="lm", shadow=False)
    text(image, (BASES_X - 8, y), "bases", size=MIN_PX, fill=DIM, anchor="rm", shadow=False)
    for k, base in enumerate(s.board.bases):
        text(image, (BASES_X + 16 + k * BASE_STEP, y), s.board.name(base), size=MIN_PX, fill=DIM, anchor="mm")
    y += 14
    outcome = RULES.outcome(s)
    for seat in range(s.players):
        _draw_row(image, draw, s, seat, names, x0, y, ROW, outcome.ranks[seat] if outcome else None)
        y += ROW
    draw.line([(x0, y + 2), (WIDTH - 20, y + 2)], fill=GRID_LINE, width=2)
    if s.short_game:
        text(image, (x0 + 4, y + 18), "short game: markers are kept", size=MIN_PX, fill=DIM, anchor="lm")
    text(image, (x0 + 4, y + 42 if s.short_game else y + 18), KEY, size=MIN_PX, fill=DIM, anchor="lm")


KEY = "pink crosshair: the victim · filled box: base marked"
BASES_X = WIDTH - 4 * 40 - 14  # the base-marker columns of the player rows
BASE_STEP = 40
NAME_DX = 48  # where a player row's name and role start, right of the pyramid and its letter


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
    paste_pyramid(image, x0 + 12, y + row - 7, 3, colour, 20)
    # the seat's letter beside its pyramid, as on the board
    text(image, (x0 + 33, y + row - 7), colour, size=LETTER_PX, fill=DIM if gone else TEXT, anchor="ms")
    # the name has the first line to itself; role, place and captures share the second
    name, colour_word = _player_parts(seat, names)
    label = fit_name("", name, colour_word, MIN_PX + 1, BASES_X - 8 - (x0 + NAME_DX))
    text(image, (x0 + NAME_DX, mid - row * 0.22), label, size=MIN_PX + 1, fill=DIM if gone else TEXT, anchor="lm")
    if gone:
        role, tint = "left the game", DIM
    elif seat == s.victim:
        role, tint = "VICTIM", MARK
    else:
        role, tint = "assassin", DIM
    text(image, (x0 + NAME_DX, mid + row * 0.24), role, size=MIN_PX, fill=tint, anchor="lm")
    captures = s.captures[seat]
    note = f"{captures} capture{'s' if captures != 1 else ''}" if captures else ""
    if rank is not None:
        note = f"{_ordinal(rank)} place" + (f", {note}" if note else "")
    if note:
        room = BASES_X - 8 - (x0 + NAME_DX + text_width(role, MIN_PX) + 12)
        note = fit_text(note, MIN_PX, room)
        fill = HIGHLIGHT if rank == 1 else TEXT
        text(image, (BASES_X - 8, mid + row * 0.24), note, size=MIN_PX, fill=fill, anchor="rm")
    for k, base in enumerate(s.board.bases):
        bx = BASES_X + 9 + k * BASE_STEP
        by = mid - 7
        if base in s.markers[seat] and not gone:
            fill = COLOURS[colour]
            draw.rectangle([bx, by, bx + 14, by + 14], fill=fill, outline=outline_for(fill), width=2)
        else:
            draw.rectangle([bx, by, bx + 14, by + 14], outline=GRID_LINE, width=2)


# ------------------------------------------------------------------ entry point


def render(state: State, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """The board PNG for ``state``; ``names[seat]`` are the players' display names when given."""
    del last_move  # the state itself carries the last roll, path, base and capture
    return png_bytes(draw_board(state, names), PALETTE)


def board_layout(state: State, *, last_move: Any = None, names: Sequence[str] | None = None) -> Any:
    """The geometry ``render`` draws: size, every text with its font size."""
    del last_move
    with geometry_record.recording() as promised:
        image = draw_board(state, names)
        geometry_record.note_size(image.width, image.height)
    return promised


def draw_board(state: State, names: Sequence[str] | None = None) -> Image.Image:
    """The picture as an RGB image (``render`` encodes it)."""
    s = state
    background = _background(s.size)
    base = background[0]
    image = Image.new("RGB", (WIDTH, _height(s.size) + _panel_height(s)), PANEL)
    paste_tile(image, background)
    image.paste(cast(tuple[int, ...], base.getpixel((5, 5))), (0, base.height, WIDTH, image.height))
    draw = ImageDraw.Draw(image)
    title, sub = _headline(s, names)
    if s.phase != "over":
        draw.polygon([(14, 14), (14, 38), (30, 26)], fill=COLOURS[SEAT_COLOURS[s.turn]], outline=TEXT_SHADOW)
    text(image, (40, 24), fit_names(*title, MIN_PX + 7, WIDTH - 52), size=MIN_PX + 7, anchor="lm", fill=HIGHLIGHT)
    text(image, (40, 52), fit_text(sub, MIN_PX, WIDTH - 52), size=MIN_PX, fill=DIM, anchor="lm")
    _draw_markers(image, draw, s)
    _draw_path(draw, s)
    _draw_capture(draw, s)
    for seat, square in enumerate(s.positions):
        if square is not None:
            _draw_piece(image, draw, s.size, square, seat, seat == s.victim)
    _draw_targets(draw, s)
    _draw_panel(image, draw, s, names)
    return image
