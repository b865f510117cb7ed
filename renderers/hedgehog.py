"""Board picture for Der Marsigelwettkampf: the ring of stacks drawn as a loop.

The top row runs clockwise from left to right and the next row comes back from right to left, so
the ring reads as one loop with every stack standing upright on its numbered tile (past 20 spaces
the loop snakes over four rows).  Each pyramid's code is written beside it.  The header names the
player to move with the die and the points left; the footer says what happened last.

Speed: labels are stamped from the shared cached text masks, and the finished picture is mapped
onto a fixed palette of the colours this board uses, which keeps a render to a few milliseconds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.base import plural
from games.hedgehog import (
    COLOUR_NAMES,
    LETTERS,
    HedgehogState,
    Piece,
    Space,
    Trace,
    colour_name,
    notation,
    rounds_played,
    trees,
)
from games.hedgehog import Step as StepMove
from renderers import layout as geometry
from renderers.pyramids import (
    BACKGROUND,
    GRID_LINE,
    HIGHLIGHT,
    MARK,
    PANEL,
    RGB,
    TEXT,
    colour_swatch,
    display_name,
    draw_stack_side,
    fit_player,
    fixed_palette,
    paste_die,
    png_bytes,
    pyramid_size_px,
    stack_height_px,
    stack_step,
    text,
    text_width,
    wrap_text,
)

WIDTH = 560  # phone first: Discord shows pictures about 400 px wide on a phone
MIN_PX = math.ceil(geometry.MIN_PHONE_TEXT * WIDTH / geometry.PHONE_WIDTH)  # 17 px: 12 px on a phone
MARGIN = 16
SIDE = 26  # room at each end of a row for the loop's turn
RETURN = 16  # extra room on the left for the loop's way back up
HEADER = 178
LEGEND_ROW = 26
FOOTER = 62
TILE = 28
ROW_GAP = 18
MAX_SCALE = 58.0
MIN_SCALE = 31.0  # keeps the rise between pieces above the code size, so codes never overlap
MAX_SLOT = 150.0
MAX_TILE = 70.0
PER_ROW = 4  # spaces in a row of the loop
CODE_W = 30  # room for a piece code beside its stack
TRACK: RGB = (0x9A, 0xA0, 0xAB)
DARK: RGB = (0x1E, 0x20, 0x24)


@dataclass(frozen=True)
class Slot:
    """Where one space is drawn: its ring index, left edge, slot width, tile top and row (0 = top)."""

    index: int
    left: float
    width: float
    tile_top: float
    row: int

    @property
    def centre(self) -> float:
        """Horizontal centre of the slot."""
        return self.left + self.width / 2


@dataclass(frozen=True)
class Pen:
    """The picture and its drawing context, passed together to the drawing steps."""

    image: Image.Image
    draw: ImageDraw.ImageDraw


# ---------------------------------------------------------------------------------------------
# Palette


PALETTE = fixed_palette(extra=[TRACK, DARK], grounds=[HIGHLIGHT])


def encode(image: Image.Image) -> bytes:
    """PNG bytes of ``image`` mapped onto the board's palette (exact for every solid colour drawn)."""
    return png_bytes(image, PALETTE)


# ---------------------------------------------------------------------------------------------
# Layout


def stack_need(pieces: int, scale: float) -> float:
    """Pixel height a stack of ``pieces`` needs at ``scale``, with room for a label above it."""
    return (max(pieces, 1) - 1) * stack_step(scale) + 1.75 * scale + 24


def legend_height(players: int) -> int:
    """Height of the legend: two seats a row."""
    return 8 + math.ceil(players / 2) * LEGEND_ROW + 4


def row_sizes(count: int) -> list[int]:
    """How many of ``count`` spaces each row of the loop holds, top row first.

    One row for a single space; otherwise an even number of rows (so the loop, running left to right
    and back, ends where it began), at most ``PER_ROW`` spaces a row (five for rings over 16 spaces),
    the spaces shared out so that the rows differ by one at most and none is empty.
    """
    if count <= 1:
        return [count]
    per_row = PER_ROW + 1 if count > 4 * PER_ROW else PER_ROW  # big rings: five a row, fewer rows
    rows = max(2, math.ceil(count / per_row))
    rows += rows % 2
    base, extra = divmod(count, rows)
    return [base + (r < extra) for r in range(rows)]


def layout(state: HedgehogState) -> tuple[list[Slot], float, int]:
    """The slots of every space, the pyramid scale and the height of the picture.

    The loop snakes over an even number of rows of at most ``PER_ROW`` spaces, so pieces and codes
    stay legible on a narrow picture; even rows run left to right, odd rows right to left:
    clockwise order all the way.  Tall stacks make the picture taller rather than the pieces smaller.
    """
    count = len(state.spaces)
    sizes = row_sizes(count)
    rows, per = len(sizes), max(sizes)
    width = min(MAX_SLOT, (WIDTH - 2 * MARGIN - 2 * SIDE - (RETURN if rows > 2 else 0)) / per)
    start = (WIDTH - per * width) / 2 + (RETURN / 2 if rows > 2 else 0)
    scale = max(MIN_SCALE, min(MAX_SCALE, width - CODE_W - 12))
    firsts = [sum(sizes[:r]) for r in range(rows)]
    y = float(HEADER + legend_height(state.players))
    slots = []
    for r, (first, size) in enumerate(zip(firsts, sizes, strict=True)):
        y += stack_need(max(len(space.stack) for space in state.spaces[first : first + size]), scale)
        for k in range(size):
            column = k if r % 2 == 0 else per - 1 - k
            slots.append(Slot(first + k, start + column * width, width, y, r))
        y += TILE + ROW_GAP
    height = int(y - ROW_GAP + 12 + FOOTER)
    return slots, scale, height


# ---------------------------------------------------------------------------------------------
# Words


def who(seat: int, names: Sequence[str] | None, after: str, size: int, width: float) -> str:
    """The seat as shown, "Red" or "Red (alice)", then ``after``, in ``width`` pixels: only the name is cut."""
    return fit_player(colour_name(seat), display_name(names, seat), after, size, width)


def trace_text(trace: Trace | None, passed: Sequence[int] = ()) -> str:
    """The last action in a few words, for the footer, in the channel log's words.

    ``passed`` is the state's list of seats that passed since a piece last moved: a turn ended with no
    piece moved puts its seat there ("Yellow passes." in the log), one ended after a move empties it
    ("Yellow ends the turn with 2 points unused.").
    """
    if trace is None:
        return ""
    seat = colour_name(trace.seat)
    if trace.kind == "roll":
        return f"Last: {seat} rolled {trace.roll}."
    if trace.kind == "pass":
        if trace.forced:
            return f"Last: {seat} rolled {trace.roll} and could not move, so passed."
        if trace.seat in passed:
            return f"Last: {seat} passed."
        return f"Last: {seat} ended the turn."
    assert trace.piece is not None
    move = notation(StepMove(trace.piece, trace.direction, trace.distance))
    words = f"Last: {seat} {move}, space {trace.origin} to {trace.target} ({trace.cost} pt)"
    if trace.carried > 1:
        words += f", carrying {trace.carried - 1}"
    if trace.vanished:
        words += f"; space {trace.origin} vanished"
    if trace.turn_over:
        words += "; turn over"
    return words + "."


def result_lines(state: HedgehogState) -> tuple[str, str]:
    """Headline and detail of a finished game."""
    if state.winner is not None and state.finish == "tree":
        where = trees(state.spaces).get(state.winner)
        return (
            f"{colour_name(state.winner)} wins!",
            f"A {COLOUR_NAMES[state.winner]} tree stands on space {where} after {plural(state.turns, 'turn')}."
            if not state.round_limit
            else f"A {COLOUR_NAMES[state.winner]} tree stands on space {where}, in {count_text(state)}.",
        )
    if state.winner is not None:
        return f"{colour_name(state.winner)} wins!", "Every other player left the game."
    if state.players == 1:
        if state.finish == "limit":
            return "No tree", f"The turn limit of {state.turn_limit} was reached."
        return "No tree", f"Given up after {plural(state.turns, 'turn')}."
    if state.finish == "passes":
        return "Draw", "Every player passed in one full round."
    if state.round_limit:
        return "Draw", f"The limit of {plural(state.round_limit, 'round')} was reached."
    return "Draw", f"The turn limit of {plural(state.turn_limit, 'turn')} was reached."


# ---------------------------------------------------------------------------------------------
# Drawing


def count_text(state: HedgehogState) -> str:
    """How far the game is, counted as the game's limit and the status line count it.

    With several players the limit is in rounds (``round 2 of 8``): the round under way, or once over
    the last one reached.  Solitaire, and a game stored before rounds were counted, count turns
    against ``turn_limit`` (``turn 5 of 200``).
    """
    if state.round_limit:
        # once over, the furthest any seat got: the round the game ended in
        reached = max(state.seat_turns, default=0) if state.over else rounds_played(state) + 1
        return f"round {max(1, min(reached, state.round_limit))} of {state.round_limit}"
    turn = min(state.turns + (0 if state.over else 1), state.turn_limit)
    return f"turn {turn} of {state.turn_limit}"


def draw_header(pen: Pen, state: HedgehogState, names: Sequence[str] | None) -> None:
    """Title, turn count, the player to move (or the result), the die and the points left."""
    pen.draw.rectangle([0, 0, WIDTH, HEADER - 6], fill=PANEL)
    text(pen.image, (MARGIN, 10), f"Der Marsigelwettkampf · {count_text(state)}", size=MIN_PX + 1)
    key = "+ = clockwise"
    text(pen.image, (WIDTH - MARGIN - 22, 10), key, size=MIN_PX, anchor="ra")
    arrow(pen.draw, WIDTH - MARGIN - 8, 21, "right", size=7)
    if state.over:
        headline, detail = result_lines(state)
        text(pen.image, (MARGIN, 40), headline, size=MIN_PX + 11, fill=HIGHLIGHT)
        for k, line in enumerate(wrap_text(detail, MIN_PX + 1, WIDTH - 2 * MARGIN, 3)):
            text(pen.image, (MARGIN, 82 + k * 24), line, size=MIN_PX + 1)
        return
    colour_swatch(pen.draw, (MARGIN, 42), LETTERS[state.current], size=26)
    action = "to roll" if state.roll is None else "to move"
    headline = who(state.current, names, f" {action}", MIN_PX + 9, WIDTH - 2 * MARGIN - 40)
    text(pen.image, (MARGIN + 38, 38), headline, size=MIN_PX + 9)
    die_size = 50
    paste_die(pen.image, (MARGIN, 76), die_size, str(state.roll) if state.roll else "?")
    info_x = MARGIN + die_size + 14
    if state.roll is None:
        text(pen.image, (info_x, 88), "the die is to roll", size=MIN_PX + 5, fill=HIGHLIGHT)
        hint = "Roll the die: /hedgehog roll or the Roll button."
    else:
        points = f"{state.points} point{'s' if state.points != 1 else ''} left to spend"
        text(pen.image, (info_x, 76), points, size=MIN_PX + 5, fill=HIGHLIGHT)
        text(pen.image, (info_x, 104), f"rolled {state.roll}", size=MIN_PX)
        letter, colour = LETTERS[state.current], COLOUR_NAMES[state.current]
        hint = f"Move with /hedgehog move (e.g. {letter}2+3 = {colour} medium 3 clockwise) or pass."
    for k, line in enumerate(wrap_text(hint, MIN_PX, WIDTH - 2 * MARGIN, 2)):
        text(pen.image, (MARGIN, 132 + k * 21), line, size=MIN_PX)


def draw_legend(pen: Pen, state: HedgehogState, names: Sequence[str] | None) -> None:
    """One swatch per seat with its name; the seat to move underlined, seats that left struck out."""
    column = (WIDTH - 2 * MARGIN) / 2
    size = MIN_PX
    for seat in range(state.players):
        x = MARGIN + (seat % 2) * column
        y = HEADER + 4 + (seat // 2) * LEGEND_ROW
        left = " (left)" if seat in state.out else ""
        alone = seat % 2 == 0 and seat == state.players - 1  # the last row's only seat has the whole row
        label = who(seat, names, left, size, (2 * column if alone else column) - 30)
        colour_swatch(pen.draw, (x, y + 2), LETTERS[seat], size=17)
        text(pen.image, (x + 24, y), label, size=size)
        end = x + 24 + text_width(label, size) + 4
        if seat in state.out:  # the name struck through, "(left)" after it left legible
            struck = x + 24 + text_width(label.removesuffix(left), size) + 2
            pen.draw.line([(x + 22, y + 11), (struck, y + 11)], fill=MARK, width=3)
        elif not state.over and seat == state.current:
            pen.draw.line([(x, y + 23), (end, y + 23)], fill=HIGHLIGHT, width=3)


def draw_track(draw: ImageDraw.ImageDraw, slots: list[Slot]) -> None:
    """The loop the spaces sit on, with arrowheads pointing clockwise (the + direction)."""
    if len(slots) < 2:
        return
    rows = slots[-1].row + 1
    ys = [next(slot for slot in slots if slot.row == r).tile_top + TILE / 2 for r in range(rows)]
    left = min(slot.left for slot in slots) - SIDE / 2
    right = max(slot.left + slot.width for slot in slots) + SIDE / 2
    path = []
    for r, y in enumerate(ys):
        path += [(left, y), (right, y)] if r % 2 == 0 else [(right, y), (left, y)]
    outer = left - RETURN if rows > 2 else left
    path += [(outer, ys[-1]), (outer, ys[0]), (left, ys[0])]
    draw.line(path, fill=TRACK, width=4, joint="curve")
    for r in range(rows - 1):
        arrow(draw, right if r % 2 == 0 else left, (ys[r] + ys[r + 1]) / 2, "down")
    arrow(draw, outer, (ys[0] + ys[1]) / 2, "up")
    for before, after in itertools.pairwise(slots):
        if before.row == after.row:
            x = (before.centre + after.centre) / 2
            arrow(draw, x, before.tile_top + TILE / 2, "right" if before.row % 2 == 0 else "left", size=6)


def arrow(draw: ImageDraw.ImageDraw, x: float, y: float, way: str, size: float = 9) -> None:
    """An arrowhead centred on (x, y) pointing ``way`` (up, down, left, right)."""
    d = size
    points = {
        "down": [(x - d, y - d), (x + d, y - d), (x, y + d)],
        "up": [(x - d, y + d), (x + d, y + d), (x, y - d)],
        "right": [(x - d, y - d), (x - d, y + d), (x + d, y)],
        "left": [(x + d, y - d), (x + d, y + d), (x - d, y)],
    }[way]
    draw.polygon(points, fill=TRACK, outline=DARK)


def draw_space(
    pen: Pen, space: Space, slot: Slot, scale: float, *, moved: int, role: str, tree_colour: int | None
) -> None:
    """A space's numbered tile with its stack standing on it and each pyramid's code beside it.

    ``role`` is "target" (the last move ended here), "origin" (it started here) or "".  The top
    ``moved`` pieces are marked as the last move; ``tree_colour`` names the tree standing here.
    """
    draw = pen.draw
    half = min(MAX_TILE, slot.width - 22) / 2
    tile = [slot.centre - half, slot.tile_top, slot.centre + half, slot.tile_top + TILE]
    fill, edge = (HIGHLIGHT, DARK) if role == "target" else (PANEL, HIGHLIGHT if role else GRID_LINE)
    draw.rounded_rectangle(tile, radius=6, fill=fill, outline=edge, width=3 if role else 2)
    number_at = (slot.centre, slot.tile_top + TILE / 2)
    size = MIN_PX
    if role == "target":
        text(pen.image, number_at, str(space.label), size=size, fill=DARK, anchor="mm", shadow=False)
    else:
        text(pen.image, number_at, str(space.label), size=size, anchor="mm")

    pieces = [(LETTERS[p.colour], p.pips) for p in space.stack]
    low = len(pieces) - moved
    marks = [HIGHLIGHT if k >= low else None for k in range(len(pieces))]
    centre_x = slot.left + (slot.width - CODE_W) / 2 + 2
    base_y = slot.tile_top - 3
    draw_stack_side(pen.image, centre_x, base_y, pieces, scale, outlines=marks if moved else None)
    step = stack_step(scale)
    code_size = MIN_PX
    code_x = centre_x + scale / 2 + 3
    for k, piece in enumerate(space.stack):
        y = base_y - k * step - min(step, scale) / 2
        text(pen.image, (code_x, y), piece.code, size=code_size, anchor="lm", fill=marks[k] or TEXT)
    top_y = base_y - stack_height_px(pieces, scale)
    if moved:
        # a bar beside the pieces that moved last, visible whatever their colour
        widest = max(pyramid_size_px(pips, scale)[0] for _, pips in pieces[low:])
        x = centre_x - widest / 2 - 6
        draw.line([(x, base_y - low * step), (x, top_y + 4)], fill=HIGHLIGHT, width=4)
    if tree_colour is not None:
        text(pen.image, (centre_x, top_y - 3), "TREE", size=MIN_PX, fill=HIGHLIGHT, anchor="md")
        want = (Piece(tree_colour, 3), Piece(tree_colour, 2), Piece(tree_colour, 1))
        start = next(k for k in range(len(pieces) - 2) if space.stack[k : k + 3] == want)
        x = code_x + code_size * 1.6
        y_low, y_high = base_y - start * step, base_y - (start + 3) * step
        draw.line([(x - 5, y_low), (x, y_low), (x, y_high), (x - 5, y_high)], fill=HIGHLIGHT, width=3)


def vanished_marker(pen: Pen, state: HedgehogState, slots: list[Slot], label: int) -> None:
    """A small cross on the loop where space ``label`` used to be, between its former neighbours."""
    # Labels keep the clockwise order, so the vanished space sat just before the first higher label.
    slot = slots[sum(1 for space in state.spaces if space.label < label) % len(slots)]
    y = slot.tile_top + TILE / 2
    x = slot.left if slot.row % 2 == 0 else slot.left + slot.width
    r = 9
    pen.draw.ellipse([x - r, y - r, x + r, y + r], fill=MARK, outline=DARK, width=2)
    pen.draw.line([(x - 4, y - 4), (x + 4, y + 4)], fill=TEXT, width=2)
    pen.draw.line([(x - 4, y + 4), (x + 4, y - 4)], fill=TEXT, width=2)
    text(pen.image, (x, y + r + 2), str(label), size=MIN_PX, fill=MARK, anchor="ma")


def draw_board(state: HedgehogState, names: Sequence[str] | None = None) -> Image.Image:
    """The whole picture as an RGB image."""
    slots, scale, height = layout(state)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    pen = Pen(image, ImageDraw.Draw(image))
    draw_header(pen, state, names)
    draw_legend(pen, state, names)
    draw_track(pen.draw, slots)
    trace = state.last if state.last is not None and state.last.kind == "move" else None
    tree_label = trees(state.spaces).get(state.winner) if state.finish == "tree" and state.winner is not None else None
    for space, slot in zip(state.spaces, slots, strict=True):
        role = ""
        if trace is not None and space.label == trace.target:
            role = "target"
        elif trace is not None and space.label == trace.origin:
            role = "origin"
        draw_space(
            pen,
            space,
            slot,
            scale,
            moved=trace.carried if trace and role == "target" else 0,
            role=role,
            tree_colour=state.winner if space.label == tree_label else None,
        )
    if trace is not None and trace.vanished:
        vanished_marker(pen, state, slots, trace.origin)
    footer = trace_text(state.last, state.passed) or ("The game has just begun." if state.turns == 0 else "")
    for k, line in enumerate(wrap_text(footer, MIN_PX, WIDTH - 2 * MARGIN, 2) if footer else []):
        text(pen.image, (MARGIN, height - FOOTER + 8 + k * 22), line, size=MIN_PX)
    return image


def render(state: HedgehogState, *, last_move: object = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes; ``names[seat]`` are the players' display names when given.

    The state keeps its own record of the last action, which is what the picture highlights, so
    ``last_move`` is accepted for the common renderer signature and not needed here.
    """
    del last_move
    return encode(draw_board(state, names))


def board_layout(
    state: HedgehogState, *, last_move: object = None, names: Sequence[str] | None = None
) -> geometry.Layout:
    """The geometry ``render`` draws: size, every text with its font size, every piece."""
    del last_move
    with geometry.recording() as promised:
        image = draw_board(state, names)
        geometry.note_size(image.width, image.height)
    return promised
