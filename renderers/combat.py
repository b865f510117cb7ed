"""Martian Combat board picture, phone first: the 6x6 grid above, players, dice and combat below.

Discord shows a picture about 400 pixels wide on a phone, so the picture is a narrow portrait
(``WIDTH`` pixels) and no text is smaller than ``MIN_PX`` (12 pixels at phone size).  Every pyramid
carries its code (``R2``), the code a move names (``R2 c1-c2``).  Pure and deterministic: the same
state always gives the same PNG bytes.  The static part of the board (grid, coordinates, blocked and
home squares) is drawn once per set-up and copied.

Home squares follow the ruling: a player's home is the pair of start squares on the *opposite*
edge (Red, South, goes home to c6 d6).  They are not tinted (a tint in Red's colour on the north
edge reads as "North is red"); instead each gets a frame in its owner's colour, a bar in that colour
outside the board edge beside it, and the panel says in words whose home it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.combat import (
    ACTIONS,
    COMBAT_ROLL,
    COUNTER,
    COUNTER_ROLL,
    HOP_ROLL,
    OVER,
    POSITIONS,
    RULES,
    SIZE,
    TIEBREAK_ROLL,
    Attack,
    CombatState,
    Dig,
    Fight,
    Hop,
    HopTry,
    Piece,
    Step,
    Swap,
    home_squares,
    prompt,
    seat_letter,
    single_owner,
    square_name,
    stack_pips,
    turn_order,
)
from renderers import layout as geometry
from renderers.pyramids import (
    BACKGROUND,
    COLOURS,
    ELLIPSIS,
    GRID_LINE,
    HIGHLIGHT,
    LAST_INNER,
    LAST_OUTER,
    MARK,
    PANEL,
    TEXT,
    TEXT_SHADOW,
    colour_swatch,
    display_name,
    fit_player,
    fit_text,
    fixed_palette,
    last_move_frame,
    new_canvas,
    outline_for,
    paste_die,
    paste_pyramid,
    paste_stack,
    paste_tile,
    png_bytes,
    pyramid_size_px,
    text,
    text_box,
    text_width,
    wrap_phrases,
)

WIDTH = 560
MIN_PX = math.ceil(geometry.MIN_PHONE_TEXT * WIDTH / geometry.PHONE_WIDTH)  # 17: 12 px on a phone
SQ = 83  # square size in pixels
BX = 44  # board left edge: rank numbers, then the West home bar
HEADER = 92  # title and the line saying who is to do what
STRIP = 14  # home bars outside the board edges
BY = HEADER + STRIP + 4  # board top edge
BOARD_BOTTOM = BY + SIZE * SQ
PANEL_TOP = BOARD_BOTTOM + STRIP + 4 + 40  # below the home bar and the file letters
SCALE = 35.0  # pixels per inch: a large pyramid is 35 x 61 px (25 x 44 on a phone; it was 12 x 22)
OLD_SCALE, OLD_WIDTH = 30.0, 960  # the wide layout this one replaced, for the size promise
STEP = SCALE * 0.22  # rise between the pieces of a stack
BASE_UP = 5  # a stack stands this far above its square's bottom edge
TOP_ROOM = 9  # a stack's tip stays this far below its square's top edge: clear of the home frame (3 to 6)
CODE_BOTTOM = 16  # the bottom code's middle, above the square's bottom edge: clear of the frames
CODE_STEP = 17  # between the codes beside a stack
STACK_X = 27  # stack centre, from the square's left edge
CODE_X = 50  # code column, from the square's left edge
LINE = 23  # panel line height
PLAYER_W = WIDTH - 76  # room for a player's line in the panel
LIGHT = (0x8E, 0x94, 0x9E)
DARK = (0x80, 0x86, 0x91)
BLOCKED = (0x3C, 0x40, 0x48)
HATCH = (0x52, 0x57, 0x60)
DIM = (0xD4, 0xD7, 0xDC)
LAST = LAST_INNER  # last move: a black and white band, unlike any player colour
FIGHT_PHASES = (COMBAT_ROLL, COUNTER, COUNTER_ROLL, TIEBREAK_ROLL)
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}
RANK_WORDS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def render(state: CombatState, *, last_move: object | None = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes: stacks with their codes, last move, combat, dice, players and whose turn it is."""
    return png_bytes(_compose(state, last_move, names), PALETTE)


def layout(
    state: CombatState, *, last_move: object | None = None, names: Sequence[str] | None = None
) -> geometry.Layout:
    """The geometry ``render`` draws for these arguments: size, every text with its font, every pyramid."""
    with geometry.recording() as promised:
        image = _compose(state, last_move, names)
        geometry.note_size(image.width, image.height)
    return promised


board_layout = layout  # the name renderers.layout_for looks for


def _compose(state: CombatState, last_move: object | None, names: Sequence[str] | None) -> Image.Image:
    panel = _panel_lines(state, names)
    height = PANEL_TOP + _panel_height(state, panel)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    paste_tile(image, _background(state.players, state.variant, state.blocked))
    _draw_header(image, state, names)
    draw = ImageDraw.Draw(image)
    for index in state.trail:
        last_move_frame(draw, _inset(square_box(index), 2), 5)
    pieces = _draw_stacks(image, state)
    labels = _stack_labels(state)
    _draw_last_move(image, state, last_move, [_label_box(label) for label in labels], pieces)
    _draw_stack_labels(image, labels)  # over the arrows, so no arrow hides a code or a pip count
    _draw_panel(image, state, panel)
    return image


# ----------------------------------------------------------------------------------------------
# Geometry
# ----------------------------------------------------------------------------------------------


def square_box(index: int) -> tuple[int, int, int, int]:
    """Pixel box (left, top, right, bottom) of a square; rank 1 is at the bottom."""
    file, rank = index % SIZE, index // SIZE
    left = BX + file * SQ
    top = BY + (SIZE - 1 - rank) * SQ
    return left, top, left + SQ, top + SQ


def _inset(box: tuple[float, float, float, float], by: float) -> tuple[float, float, float, float]:
    return box[0] + by, box[1] + by, box[2] - by, box[3] - by


def _anchor(index: int) -> tuple[float, float]:
    """Where arrows start and end: the square's centre, a little to the right of the stack."""
    left, top, _, _ = square_box(index)
    return left + SQ * 0.55, top + SQ * 0.5


def _home_edge(index: int) -> str:
    """Which board edge a home square lies on."""
    file, rank = index % SIZE, index // SIZE
    if rank == SIZE - 1:
        return "north"
    if rank == 0:
        return "south"
    return "west" if file == 0 else "east"


def _home_bar(index: int) -> tuple[float, float, float, float]:
    """The bar outside the board edge beside a home square."""
    left, top, right, bottom = square_box(index)
    edge = _home_edge(index)
    if edge == "north":
        return left + 3, top - STRIP - 2, right - 3, top - 3
    if edge == "south":
        return left + 3, bottom + 3, right - 3, bottom + STRIP + 2
    if edge == "west":
        return left - STRIP - 2, top + 3, left - 3, bottom - 3
    return right + 3, top + 3, right + STRIP + 2, bottom - 3


# ----------------------------------------------------------------------------------------------
# Static layer and palette
# ----------------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _background(
    players: int, variant: str, blocked: tuple[int, ...]
) -> tuple[Image.Image, tuple[geometry.TextBox, ...]]:
    """The board without pieces, and the texts on it."""
    with geometry.recording() as drawn:
        image, draw = new_canvas(WIDTH, PANEL_TOP - 8, BACKGROUND)
        homes = {sq: seat for seat in range(players) for sq in home_squares(seat)}
        for index in range(SIZE * SIZE):
            box = square_box(index)
            tone = LIGHT if (index % SIZE + index // SIZE) % 2 else DARK
            if index in blocked:
                draw.rectangle(box, fill=BLOCKED)
                for k in range(-SQ, SQ, 14):
                    start = (box[0] + max(k, 0), box[1] + max(-k, 0))
                    draw.line([start, (box[0] + min(SQ, SQ + k), box[1] + min(SQ, SQ - k))], fill=HATCH, width=3)
            else:
                draw.rectangle(box, fill=tone)
            if index in homes:
                colour = COLOURS[seat_letter(homes[index])]
                draw.rectangle(_inset(box, 3), outline=colour, width=3)
                draw.rectangle(_home_bar(index), fill=colour, outline=outline_for(colour), width=2)
        for k in range(SIZE + 1):
            draw.line([(BX + k * SQ, BY), (BX + k * SQ, BOARD_BOTTOM)], fill=GRID_LINE, width=2)
            draw.line([(BX, BY + k * SQ), (BX + SIZE * SQ, BY + k * SQ)], fill=GRID_LINE, width=2)
        for k in range(SIZE):
            text(image, (BX + k * SQ + SQ / 2, BOARD_BOTTOM + STRIP + 4), "abcdef"[k], size=MIN_PX + 3, anchor="ma")
            text(image, (14, BY + (SIZE - 1 - k) * SQ + SQ / 2), str(k + 1), size=MIN_PX + 3, anchor="mm")
    return image, tuple(drawn.texts)


PALETTE = fixed_palette(extra=[LIGHT, DARK, BLOCKED, HATCH, DIM], grounds=[LIGHT, DARK], inks=[DIM])


# ----------------------------------------------------------------------------------------------
# Header
# ----------------------------------------------------------------------------------------------


def _prompt_lines(state: CombatState, seat: int, names: Sequence[str] | None) -> list[str]:
    """The prompt in at most two lines of the header, with as much of the player's name as they allow.

    The sentence must stay whole and break where ``wrap_phrases`` breaks it without a name (after a
    colon or a comma); only the name is shortened, ended with an ellipsis.
    """
    colour = RULES.seat_name(state, seat)
    size, width = MIN_PX + 3, WIDTH - 56

    def wrapped(who: str) -> list[str] | None:
        message = prompt(state, who=who)
        lines = wrap_phrases(message, size, width, 2)
        whole = " ".join(lines) == " ".join(message.split())
        phrased = len(lines) < 2 or lines[0].endswith((":", ",")) or not any(c in message for c in ":,")
        return lines if whole and phrased else None

    name = display_name(names, seat)
    if name and (lines := wrapped(f"{colour} ({name})")):
        return lines
    low, high, best = 1, len(name) - 1, None  # the longest cut name with which the sentence fits
    while low <= high:
        keep = (low + high) // 2
        if lines := wrapped(f"{colour} ({name[:keep].rstrip()}{ELLIPSIS})"):
            best, low = lines, keep + 1
        else:
            high = keep - 1
    return best or wrap_phrases(prompt(state, who=colour), size, width, 2)


def shown_turn(state: CombatState) -> int:
    """The turn number the picture names: the current turn (the last one once the limit is reached)."""
    return min(state.turn, state.turn_limit)


def _draw_header(image: Image.Image, state: CombatState, names: Sequence[str] | None) -> None:
    draw = ImageDraw.Draw(image)
    title = f"Martian Combat · turn {shown_turn(state)} of {state.turn_limit}"
    text(image, (12, 8), title, size=MIN_PX + 5)
    seat = RULES.to_move(state)
    if seat is None:
        verdict = "Game over, a draw:" if is_draw(state) else "Game over:"
        lines = wrap_phrases(f"{verdict} {state.reason}", MIN_PX + 3, WIDTH - 24, 2)
        for k, line in enumerate(lines):
            text(image, (12, 40 + k * 25), line, size=MIN_PX + 3, fill=HIGHLIGHT)
        return
    colour_swatch(draw, (12, 42), seat_letter(seat), size=22)
    # one sentence in one colour, its lines broken between phrases ("...dice:" / "Red 5 pips on b1 v ...")
    lines = _prompt_lines(state, seat, names)
    for k, line in enumerate(lines):
        text(image, (42, 40 + k * 25), line, size=MIN_PX + 3, fill=HIGHLIGHT)


# ----------------------------------------------------------------------------------------------
# Pieces
# ----------------------------------------------------------------------------------------------


def _pinned(stack: Sequence[Piece], k: int) -> bool:
    """True when the ``k``-th pyramid of ``stack`` has an opponent's above it: it cannot move."""
    return any(q.owner != stack[k].owner for q in stack[k + 1 :])


def _draw_stacks(image: Image.Image, state: CombatState) -> list[geometry.Box]:
    """The pyramids of every square, and the caps (their codes and pip counts come after the arrows); returns
    the pyramids' boxes.

    A stack is drawn as one piece: a contrasting outline round its silhouette, and each pyramid sitting
    on another edged in a darker shade of its own colour, so a tree keeps its colour.
    """
    boxes: list[geometry.Box] = []
    for index, stack in enumerate(state.board):
        if not stack:
            continue
        left, _, _, bottom = square_box(index)
        name = square_name(index)
        cx, base = left + STACK_X, bottom - BASE_UP
        pieces = [(seat_letter(piece.owner), piece.pips) for piece in stack]
        step = stack_rise(pieces)
        # a pyramid with an opponent pyramid above it cannot move: edged in the warning colour
        marks = [MARK if _pinned(stack, k) else None for k in range(len(stack))]
        paste_stack(image, cx, base, pieces, SCALE, step, marks)
        for k, (letter, pips) in enumerate(pieces):
            y = base - k * step
            w, h = pyramid_size_px(pips, SCALE)
            boxes.append((cx - w / 2, y - h, cx + w / 2, y))
            geometry.note_piece(f"{letter}{pips}", name, boxes[-1])
        if index in state.capped:
            paste_pyramid(image, cx, base - len(stack) * step, 1, "K", SCALE * 0.8)
    return boxes


def stack_rise(pieces: Sequence[tuple[str, int]]) -> float:
    """How far each pyramid of a stack (bottom to top) stands above the one below: ``STEP``, or less when
    the stack would otherwise reach into the top ``TOP_ROOM`` pixels of its square (three large pyramids)."""
    room = SQ - BASE_UP - TOP_ROOM
    fits = [(room - pyramid_size_px(pips, SCALE)[1]) / k for k, (_, pips) in enumerate(pieces) if k]
    return min([STEP, *fits])


Label = tuple[str, str, tuple[float, float], tuple[int, int, int]]  # kind ("code" or "tag"), words, anchor, ink


def _stack_labels(state: CombatState) -> list[Label]:
    """Every label on the board: beside each stack its codes, top piece first, and in the corner its pips, cap or
    spare tag.  The arrows are laid out round these, then the labels are drawn over them."""
    labels: list[Label] = []
    reserve = {r for r in state.reserve if r >= 0}
    for index, stack in enumerate(state.board):
        if not stack:
            continue
        left, top, right, bottom = square_box(index)
        codes = [(f"{seat_letter(piece.owner)}{piece.pips}", _pinned(stack, k)) for k, piece in enumerate(stack)]
        # codes, top piece first, in a column beside the stack
        for row, (code, pinned) in enumerate(reversed(codes)):
            cy = bottom - CODE_BOTTOM - (len(codes) - 1 - row) * CODE_STEP  # clear of the pip tag above
            labels.append(("code", code, (left + CODE_X, cy), MARK if pinned else TEXT))
        owner = single_owner(stack)
        if index in reserve:
            labels.append(("tag", "spare", (right - 4, top + 4), DIM))
        elif index in state.capped:
            labels.append(("tag", "cap", (right - 4, top + 4), TEXT))
        elif owner >= 0:
            labels.append(("tag", f"{stack_pips(stack)}p", (right - 4, top + 4), TEXT))
    return labels


def _label_box(label: Label) -> geometry.Box:
    """The box a label covers: a code with its outline, a tag with its dark plate."""
    kind, words, (x, y), _ = label
    if kind == "code":
        return text_box((x, y), words, MIN_PX, "lm")
    return x - text_width(words, MIN_PX) - 8, y, x, y + MIN_PX + 4


def _draw_stack_labels(image: Image.Image, labels: Sequence[Label]) -> None:
    """The codes and tags, over the arrows."""
    draw = ImageDraw.Draw(image)
    for kind, words, xy, ink in labels:
        if kind == "code":
            text(image, xy, words, size=MIN_PX, fill=ink, anchor="lm")
        else:
            _tag(draw, image, xy, words, ink)


def _tag(draw: ImageDraw.ImageDraw, image: Image.Image, corner: tuple[float, float], label: str, fill: tuple) -> None:
    """A small dark label whose top-right corner is ``corner``."""
    x, y = corner
    w = text_width(label, MIN_PX) + 8
    draw.rounded_rectangle((x - w, y, x, y + MIN_PX + 4), radius=5, fill=TEXT_SHADOW)
    geometry.note_plate((x - w, y, x, y + MIN_PX + 4))
    text(image, (x - 4, y + (MIN_PX + 4) / 2), label, size=MIN_PX, fill=fill, anchor="rm", shadow=False)


# ----------------------------------------------------------------------------------------------
# Marks: last move, combat, hop
# ----------------------------------------------------------------------------------------------


def _edge_point(start: tuple[float, float], end: tuple[float, float], index: int) -> tuple[float, float]:
    """Where the line from ``start`` to ``end`` (inside square ``index``) enters that square."""
    left, top, right, bottom = _inset(square_box(index), 2)
    (x1, y1), (x2, y2) = start, end
    enter = 0.0
    for a, b, low, high in ((x1, x2, left, right), (y1, y2, top, bottom)):
        if a < low and b != a:
            enter = max(enter, (low - a) / (b - a))
        elif a > high and b != a:
            enter = max(enter, (high - a) / (b - a))
    return x1 + (x2 - x1) * enter, y1 + (y2 - y1) * enter


ARROW_TAIL = 14  # the last-move arrow starts at least this far from its square's anchor, clear of the stack
ARROW_MIN = 24  # the shortest last-move arrow that starts later: its head (22 px) and a stub of shaft
ARROW_SHIFTS = (0, 6, -6, 12, -12, 18, -18, 24, -24, 30, -30)  # sideways moves tried, in order
ARROW_DEPTHS = (0, 12, 24, 36)  # how far past the target square's edge the head may reach, clear of its pyramids
LABEL_ROOM = 2  # pixels kept between an arrow and a label


def _arrow(
    image: Image.Image,
    a: int,
    b: int,
    colour: tuple[int, int, int],
    labels: Sequence[geometry.Box] = (),
    pieces: Sequence[geometry.Box] = (),
    both: bool = False,
) -> None:
    """An arrow from square ``a`` to square ``b`` whose head stops at ``b``'s edge, so it hides no pyramid there,
    and which keeps clear of every code and tag on the board (they are drawn over the arrows, and a white code
    on a white arrow cannot be read).

    From the straight line between the squares' anchors the arrow starts later, then shifts sideways, until it
    crosses no label (and, where it can, no pyramid) and stays on its path; a two-headed arrow (a swap) only
    shifts.  Where nothing fits (a long swap over a crowded board, a step out of a tall stack) it keeps the
    straight line, and each label it crosses is drawn on a dark plate, as the pip tags are.
    """
    (x1, y1), (x2, y2) = _anchor(a), _anchor(b)
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    near = _inset(_bounds(square_box(a), square_box(b)), -SQ)
    marks = [_inset(box, -LABEL_ROOM) for box in labels if _overlap(box, near)]
    shapes = [box for box in pieces if _overlap(box, near)]
    target = [box for box in shapes if _overlap(box, square_box(b))]  # never covered: the head stops short of them
    candidates: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for depth in ARROW_DEPTHS if not both else (0,):
        for shift in ARROW_SHIFTS:
            sx, sy = -uy * shift, ux * shift
            p1, p2 = (x1 + sx, y1 + sy), (x2 + sx, y2 + sy)
            edge = _edge_point(p1, p2, b)
            if not _on_edge(edge, b) or not _inside_box(p1, square_box(a)):
                continue
            tip = edge[0] + ux * depth, edge[1] + uy * depth
            if both:
                candidates.append((_edge_point(p2, p1, a), tip))
                continue
            reach = math.dist(p1, tip)
            for t in range(ARROW_TAIL, max(ARROW_TAIL, int(reach) - ARROW_MIN) + 1, 4):
                candidates.append(((p1[0] + ux * t, p1[1] + uy * t), tip))
    for obstacles in (marks + shapes, marks + target):
        for start, tip in candidates:
            if not any(_crosses(polygon, box) for polygon in _arrow_shape(start, tip, both) for box in obstacles):
                _draw_arrow(ImageDraw.Draw(image), start, tip, colour, both)
                return
    tip = _edge_point((x1, y1), (x2, y2), b)
    start = _edge_point((x2, y2), (x1, y1), a) if both else (x1 + ux * ARROW_TAIL, y1 + uy * ARROW_TAIL)
    _draw_arrow(ImageDraw.Draw(image), start, tip, colour, both)
    draw = ImageDraw.Draw(image)
    for box in labels:  # nothing fits: the labels the arrow crosses stand on a dark plate
        if any(_crosses(polygon, _inset(box, -LABEL_ROOM)) for polygon in _arrow_shape(start, tip, both)):
            draw.rounded_rectangle(_inset(box, -1), radius=4, fill=TEXT_SHADOW)
            geometry.note_plate(_inset(box, -1))


def _bounds(*boxes: geometry.Box) -> geometry.Box:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _overlap(a: geometry.Box, b: geometry.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside_box(point: tuple[float, float], box: geometry.Box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _on_edge(point: tuple[float, float], index: int) -> bool:
    """True when ``point`` lies on the edge of square ``index`` (where ``_edge_point`` stops a head)."""
    return _inside_box(point, _inset(square_box(index), 1.5))


def _crosses(polygon: Sequence[tuple[float, float]], box: geometry.Box) -> bool:
    """True when the convex ``polygon`` and the box overlap (separating axes)."""
    xs, ys = [x for x, _ in polygon], [y for _, y in polygon]
    if max(xs) <= box[0] or min(xs) >= box[2] or max(ys) <= box[1] or min(ys) >= box[3]:
        return False
    corners = ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))
    for (ax, ay), (bx, by) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        nx, ny = ay - by, bx - ax  # the edge's normal
        ours = [nx * x + ny * y for x, y in polygon]
        theirs = [nx * x + ny * y for x, y in corners]
        if max(ours) <= min(theirs) or max(theirs) <= min(ours):
            return False
    return True


COMBAT_FROM, COMBAT_INTO = 30, 14  # how far the combat arrow reaches into the attacker's and the defender's squares


def _combat_arrow(image: Image.Image, a: int, b: int) -> None:
    """The pink arrow of a combat between the neighbours ``a`` (attacker) and ``b``: across the edge or
    corner they share, its shaft in ``a`` and its head over the edge into ``b``.  The codes and pip tags
    are drawn over it, so it hides none of them."""
    (x1, y1), (x2, y2) = _centre(a), _centre(b)
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    start, tip = (mx - ux * COMBAT_FROM, my - uy * COMBAT_FROM), (mx + ux * COMBAT_INTO, my + uy * COMBAT_INTO)
    _draw_arrow(ImageDraw.Draw(image), start, tip, MARK)


def _centre(index: int) -> tuple[float, float]:
    left, top, right, bottom = square_box(index)
    return (left + right) / 2, (top + bottom) / 2


def _arrow_shape(
    start: tuple[float, float], tip: tuple[float, float], both: bool = False
) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The polygons an arrow from ``start`` to ``tip`` covers, edge included: its shaft, then its head(s)."""
    (x1, y1), (x2, y2) = start, tip
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    ex, ey = x2 - ux * 8, y2 - uy * 8
    sx, sy = (x1 + ux * 8, y1 + uy * 8) if both else (x1, y1)
    ends = [(ex, ey, ux, uy)] + ([(sx, sy, -ux, -uy)] if both else [])
    heads = tuple(
        (
            (x + dx * 8, y + dy * 8),
            (x - dx * 14 - dy * 11, y - dy * 14 + dx * 11),
            (x - dx * 14 + dy * 11, y - dy * 14 - dx * 11),
        )
        for x, y, dx, dy in ends
    )
    nx, ny = -uy * 4.5, ux * 4.5  # half the edged shaft's width, across it
    shaft = ((sx + nx, sy + ny), (ex + nx, ey + ny), (ex - nx, ey - ny), (sx - nx, sy - ny))
    return (shaft, *heads)


def _draw_arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    tip: tuple[float, float],
    colour: tuple[int, int, int],
    both: bool = False,
) -> None:
    """A shaft from ``start`` to a head whose point is ``tip`` (a head at each end when ``both``), edged black."""
    shape = _arrow_shape(start, tip, both)
    shaft, heads = shape[0], shape[1:]
    ends = [((shaft[0][0] + shaft[3][0]) / 2, (shaft[0][1] + shaft[3][1]) / 2)]
    ends.append(((shaft[1][0] + shaft[2][0]) / 2, (shaft[1][1] + shaft[2][1]) / 2))
    draw.line(ends, fill=LAST_OUTER, width=9)
    draw.line(ends, fill=colour, width=4)
    for head in heads:
        draw.polygon(head, fill=colour, outline=LAST_OUTER, width=2)
    geometry.note_arrow(colour, shape)


def _shown_fight(state: CombatState) -> Fight | None:
    """The fight to show: the one under way, or one fought this turn or the turn before."""
    fight = state.fight
    if fight is None or (state.phase not in FIGHT_PHASES and fight.turn < state.turn - 1):
        return None
    return fight


def _shown_hop(state: CombatState) -> HopTry | None:
    hop = state.hop
    if hop is None or (state.phase != HOP_ROLL and hop.turn < state.turn - 1):
        return None
    return hop


def _when(state: CombatState, turn: int) -> str:
    """ "this turn" or "last turn (12)": a past turn is never shown as if it were the current one."""
    return "this turn" if turn == state.turn else f"last turn ({turn})"


def _draw_last_move(
    image: Image.Image,
    state: CombatState,
    last_move: object | None,
    labels: Sequence[geometry.Box] = (),
    pieces: Sequence[geometry.Box] = (),
) -> None:
    draw = ImageDraw.Draw(image)
    fight = _shown_fight(state)
    if fight is not None and (state.phase in FIGHT_PHASES or fight.turn == state.turn):
        for index in (fight.att_sq, fight.def_sq):
            draw.rectangle(_inset(square_box(index), 1), outline=MARK, width=4)
        if state.phase in FIGHT_PHASES:
            _combat_arrow(image, fight.att_sq, fight.def_sq)
    hop = state.hop
    if state.phase == HOP_ROLL and hop is not None:
        _arrow(image, hop.frm, hop.to, LAST, labels, pieces)
        return
    if isinstance(last_move, (Step, Hop, Dig)):
        _arrow(image, last_move.frm, last_move.to, LAST, labels, pieces)
    elif isinstance(last_move, Swap):
        _arrow(image, last_move.mine, last_move.theirs, LAST, labels, pieces, both=True)
    elif isinstance(last_move, Attack):
        if state.phase not in FIGHT_PHASES:
            _combat_arrow(image, last_move.frm, last_move.to)
    elif (step := turn_step(state)) is not None:  # a roll (or a pass) since: the step's squares are still framed
        _arrow(image, *step, LAST, labels, pieces)


def turn_step(state: CombatState) -> tuple[int, int] | None:
    """This turn's last step as (from, to) while the picture still frames its squares, else None.

    A step leaves the trail (from, to) ending where the turn's stack now stands; a tip, swap, dig,
    hop or fight leaves other squares, and a fight's squares get the pink arrow instead.
    """
    trail = state.trail
    if len(trail) != 2 or trail[1] != state.moved_to:
        return None
    fight = _shown_fight(state)
    if fight is not None and set(trail) == {fight.att_sq, fight.def_sq}:
        return None
    return trail[0], trail[1]


# ----------------------------------------------------------------------------------------------
# Panel: players, dice, combat, hop, key
# ----------------------------------------------------------------------------------------------


Line = tuple[str, tuple[int, int, int], int]  # words, colour, indent


def _panel_lines(state: CombatState, names: Sequence[str] | None) -> list[Line]:
    """The players' lines: colour, edge, name, place or status, and (advanced) what each has lost."""
    lines: list[Line] = []
    drawn = is_draw(state)
    for seat in turn_order(state.players):
        out = seat in state.out
        colour = RULES.seat_name(state, seat)
        home = " ".join(square_name(sq) for sq in home_squares(seat))
        status = ""
        if state.phase == OVER and state.ranks:
            rank = state.ranks[seat]
            status = " · draw" if drawn and rank == 1 else f" · {RANK_WORDS.get(rank, str(rank))} place"
        elif out:
            status = " · out"
        if name := display_name(names, seat):  # only the name is shortened: the place stays whole
            label = fit_player(colour, name, f" · home {home}{status}", MIN_PX + 1, PLAYER_W)
        else:
            label = fit_text(f"{colour} · starts {POSITIONS[seat].lower()} · home {home}{status}", MIN_PX + 1, PLAYER_W)
        lines.append((label, TEXT if not out else DIM, 0))
        lost = state.lost[seat] if state.variant == "advanced" else ()
        if lost:
            parts = [f"{lost.count(p)} {SIZE_WORDS[p]}" for p in (1, 2, 3) if p in lost]
            lines.append(("lost: " + ", ".join(parts), DIM, 1))
    return lines


def is_draw(state: CombatState) -> bool:
    """True when the game is over without a single winner: the turn limit draws those still in."""
    return state.phase == OVER and sum(rank == 1 for rank in state.ranks) > 1


def _panel_height(state: CombatState, lines: list[Line]) -> int:
    height = 8 + LINE + len(lines) * LINE + 10 + 86
    fight, hop = _shown_fight(state), _shown_hop(state)
    if fight is not None:
        height += LINE * (4 + min(3, len(fight.first)) + bool(fight.counter) + min(2, len(fight.bare))) + 10
    if hop is not None:
        height += LINE * (3 + min(3, len(hop.rolls))) + 10
    return height + 6 * LINE + 20


def _draw_panel(image: Image.Image, state: CombatState, lines: list[Line]) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((6, PANEL_TOP - 6, WIDTH - 7, image.height - 7), fill=PANEL)
    x, y = 16, PANEL_TOP
    text(image, (x, y), f"Players in turn order · {state.variant} rules", size=MIN_PX, fill=DIM)
    y += LINE + 2
    to_move = RULES.to_move(state)
    seats = iter(turn_order(state.players))
    for label, fill, indent in lines:
        if indent == 0:
            seat = next(seats)
            if seat == to_move:
                draw.polygon([(x, y + 3), (x + 11, y + 10), (x, y + 17)], fill=HIGHLIGHT, outline=TEXT_SHADOW)
            colour_swatch(draw, (x + 16, y + 1), seat_letter(seat), size=18)
            ink = HIGHLIGHT if seat == to_move else fill
            text(image, (x + 42, y), label, size=MIN_PX + 1, fill=ink)
        else:
            text(image, (x + 42, y), fit_text(label, MIN_PX, WIDTH - x - 60), size=MIN_PX, fill=fill)
        y += LINE
    y += 10
    y = _draw_dice(image, state, x, y)
    fight = _shown_fight(state)
    if fight is not None:
        y = _draw_fight(image, fight, state, x, y + 6)
    hop = _shown_hop(state)
    if hop is not None:
        y = _draw_hop(image, hop, state, x, y + 6)
    _draw_key(image, x, y + 8)


def _draw_dice(image: Image.Image, state: CombatState, x: int, y: int) -> int:
    if not state.action or state.action_turn < state.turn - 1:
        if state.phase != OVER:
            waiting = f"Action die: not rolled yet in turn {shown_turn(state)}"  # the header's "turn 1 of 300"
            text(image, (x, y), waiting, size=MIN_PX, fill=DIM)
        return y + 86
    seat = state.current if state.action_turn == state.turn else _previous(state)
    who = RULES.seat_name(state, seat)
    text(image, (x, y), f"{who}'s action die, {_when(state, state.action_turn)}", size=MIN_PX, fill=DIM)
    y += LINE
    label = ACTIONS[state.action]
    if state.action == 6 and state.chosen:
        label = f"Wild: {ACTIONS[state.chosen]}"
    paste_die(image, (x + 4, y), 50, str(state.action))
    text(image, (x + 66, y + 4), label, size=MIN_PX + 3)
    if state.aim_die:
        paste_die(image, (x + 250, y), 50, str(state.aim_die))
        text(image, (x + 312, y + 4), "Aim die", size=MIN_PX)
        if state.aim_left and state.action_turn == state.turn and state.phase != OVER:
            steps = f"{state.aim_left} step{'s' if state.aim_left > 1 else ''} left"
            text(image, (x + 312, y + 28), steps, size=MIN_PX, fill=DIM)
    return y + 63


def _previous(state: CombatState) -> int:
    """The seat whose turn came just before the current one."""
    order = [seat for seat in turn_order(state.players) if seat not in state.out or seat == state.current]
    k = order.index(state.current)
    return order[k - 1]


def _pips(n: int) -> str:
    return f"{n} pip{'s' if n != 1 else ''}"


def _draw_fight(image: Image.Image, fight: Fight, state: CombatState, x: int, y: int) -> int:
    att, dfn = RULES.seat_name(state, fight.attacker), RULES.seat_name(state, fight.defender)
    text(image, (x, y), f"Combat, {_when(state, fight.turn)}", size=MIN_PX + 1, fill=MARK)
    y += LINE
    line = f"{att} on {square_name(fight.att_sq)} ({_pips(fight.att_pips)}) attacks"
    text(image, (x, y), line, size=MIN_PX)
    y += LINE
    text(image, (x, y), f"{dfn} on {square_name(fight.def_sq)} ({_pips(fight.def_pips)})", size=MIN_PX)
    y += LINE
    for a, d in fight.first[-3:]:
        ours, theirs = a + fight.att_pips, d + fight.def_pips
        line = f"{att} {a}+{fight.att_pips} = {ours}   v   {dfn} {d}+{fight.def_pips} = {theirs}"
        text(image, (x, y), line, size=MIN_PX)
        y += LINE
    if fight.counter:
        (a1, d1), (a2, d2) = fight.first[-1], fight.counter[0]
        total_a = a1 + a2 + 2 * fight.att_pips
        total_d = d1 + d2 + 2 * fight.def_pips
        text(image, (x, y), f"counter attack: {att} {total_a}  v  {dfn} {total_d}", size=MIN_PX)
        y += LINE
    for a, d in fight.bare[-2:]:
        text(image, (x, y), f"bare dice: {att} {a}  v  {dfn} {d}", size=MIN_PX)
        y += LINE
    if fight.winner >= 0:
        text(image, (x, y), f"{RULES.seat_name(state, fight.winner)} wins the combat", size=MIN_PX + 1, fill=HIGHLIGHT)
    elif state.phase == COUNTER:
        text(image, (x, y), f"{dfn} may counter attack", size=MIN_PX, fill=HIGHLIGHT)
    else:
        text(image, (x, y), "dice to roll", size=MIN_PX, fill=HIGHLIGHT)
    return y + LINE + 4


def _draw_hop(image: Image.Image, hop: HopTry, state: CombatState, x: int, y: int) -> int:
    text(image, (x, y), f"Hop, {_when(state, hop.turn)}", size=MIN_PX + 1, fill=HIGHLIGHT)
    y += LINE
    hopper, other = RULES.seat_name(state, hop.hopper), RULES.seat_name(state, hop.opponent)
    text(image, (x, y), f"{hopper} {square_name(hop.frm)} onto {other} {square_name(hop.to)}", size=MIN_PX)
    y += LINE
    for a, d in hop.rolls[-3:]:
        text(image, (x, y), f"{hopper} {a}  v  {other} {d}", size=MIN_PX)
        y += LINE
    outcome = {None: "dice to roll", True: "the hop holds", False: "repelled"}[hop.success]
    text(image, (x, y), outcome, size=MIN_PX, fill=HIGHLIGHT)
    return y + LINE + 4


def _draw_key(image: Image.Image, x: int, y: int) -> None:
    """The key, in words."""
    draw = ImageDraw.Draw(image)
    text(image, (x, y), "Key", size=MIN_PX, fill=DIM)
    y += LINE
    last_move_frame(draw, (x, y + 1, x + 20, y + 19), 5)
    text(image, (x + 30, y), "black and white frame: last move", size=MIN_PX)
    y += LINE
    draw.rectangle((x, y + 1, x + 20, y + 19), outline=MARK, width=4)
    fill = COLOURS["R"]
    text(image, (x + 30, y), "pink frame: combat · pink code: can't move", size=MIN_PX)
    y += LINE
    draw.polygon([(x + 2, y + 19), (x + 18, y + 19), (x + 10, y + 1)], fill=fill, outline=outline_for(fill))
    text(image, (x + 30, y), "R2 = red medium (1 small, 2 medium, 3 large)", size=MIN_PX)
    y += LINE
    text(image, (x, y), "5p = pips on a one-player square · cap = capped tree", size=MIN_PX)
    y += LINE
    draw.rectangle((x, y + 4, x + 20, y + 16), fill=COLOURS["R"], outline=outline_for(COLOURS["R"]), width=2)
    text(image, (x + 30, y), "bar outside the edge: that colour's home squares", size=MIN_PX)
