"""Martian Whist board: the draft row, both stashes by colour and size, the trick, kept trees, scores.

Phone first: a narrow portrait (``WIDTH`` pixels, no text under 12 px when Discord shows it 400 px
wide), its height following what there is to show.  During the draft the picture shows the draft
trees in rows of ten (each lettered, with the code of its top pyramid, the one a ``take`` names;
the last pick outlined) above the two stashes.  During the tricks it shows the current or the last
trick with both trees side by side and how each segment went, then each player's kept trees and
score, then the stashes, where every pyramid is listed by its code (``R3 x2``), the codes a
``play`` names.  The seat to move is named in the header and its stash is outlined.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from games.whist import (
    COLOUR_ORDER,
    COLOUR_WORDS,
    DRAFT,
    OVER,
    RULES,
    SEAT_NAMES,
    SEGMENTS,
    WhistState,
    explain,
    is_solid,
    kept_trees,
    resolve,
    scores,
    solid_count,
    tree_letter,
    tree_text,
)
from renderers import layout as geometry
from renderers.pyramids import (
    BACKGROUND,
    GRID_LINE,
    HIGHLIGHT,
    PANEL,
    RGB,
    TEXT,
    display_name,
    draw_stack_side,
    fit_player,
    fit_text,
    fixed_palette,
    last_move_frame,
    paste_pyramid,
    paste_tile,
    png_bytes,
    text,
    text_width,
    word_groups,
)

WIDTH = 560
MIN_PX = -(-geometry.MIN_PHONE_TEXT * WIDTH // geometry.PHONE_WIDTH)  # 17 px: 12 px on a phone
MARGIN = 14
HEADER = 72
PER_ROW = 10  # draft trees in a row
DRAFT_SCALE = 38.0
ROW_H = 150  # one row of draft trees with its letters and codes
TRICK = 296
TRICK_SCALE = 46.0
TRICK_X = (150, WIDTH - 150)  # the led and the followed tree
KEPT_SCALE = 20.0
KEPT_STEP = 52
STASH = 220
MAX_HEIGHT = 2400
DIM: RGB = (0xD2, 0xD6, 0xDC)
WIN: RGB = (0x9B, 0xF0, 0xB0)
PIECE_COLOURS = "KRYGB"


def render(state: WhistState, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes; pure and deterministic."""
    del last_move  # the state keeps the last pick and the last trick as display fields
    canvas, height = _draw_canvas(state, names)
    return png_bytes(canvas, PALETTE, height=height)


def board_layout(state: WhistState, *, last_move: Any = None, names: Sequence[str] | None = None) -> geometry.Layout:
    """The geometry ``render`` draws: size, every text with its font size."""
    del last_move
    with geometry.recording() as promised:
        image = draw_board(state, names)
        geometry.note_size(image.width, image.height)
    return promised


def _height_bound(s: WhistState, drafting: bool) -> int:
    """A height the picture fits in (it is cut to what was drawn), cheaper than a huge canvas."""
    stashes = 2 * STASH + 16
    if drafting:
        return min(MAX_HEIGHT, HEADER + -(-len(s.row) // PER_ROW) * ROW_H + 6 * 22 + stashes)
    per_row = (WIDTH - 2 * MARGIN) // KEPT_STEP
    kept = sum(64 + -(-len(kept_trees(s, seat)) // per_row) * 70 for seat in (0, 1))
    return min(MAX_HEIGHT, HEADER + TRICK + 5 * 22 + kept + stashes)


def draw_board(state: WhistState, names: Sequence[str] | None = None) -> Image.Image:
    """The picture as an RGB image: drawn on a tall canvas, then cut to what was drawn."""
    canvas, height = _draw_canvas(state, names)
    return canvas.crop((0, 0, WIDTH, height))


def _draw_canvas(state: WhistState, names: Sequence[str] | None) -> tuple[Image.Image, int]:
    """The picture drawn on a canvas at least as tall as it, and its height."""
    drafting = any(state.row)  # the draft layout, also for a game that ended (by leaving) in the draft
    image = Image.new("RGB", (WIDTH, _height_bound(state, drafting)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _header(image, draw, state, names)
    y = HEADER
    if drafting:
        y = _draft_row(image, draw, state, y)
    else:
        y = _trick(image, draw, state, y, names)
        y = _kept(image, draw, state, y, names)
    y = _stashes(image, draw, state, y, names)
    return image, y + 8


# --- encoding -------------------------------------------------------------------------------------


PALETTE = fixed_palette(extra=[DIM, WIN], grounds=[GRID_LINE], inks=[DIM, WIN])


# --- header ---------------------------------------------------------------------------------------


def _fit_label(seat: int, names: Sequence[str] | None, after: str, size: int, width: float) -> str:
    """``North (name)`` followed by ``after`` in at most ``width`` pixels: only the display name is shortened."""
    return fit_player(SEAT_NAMES[seat], display_name(names, seat), after, size, width)


def _pieces(tree: Sequence[str]) -> list[tuple[str, int]]:
    return [(p[0], int(p[1])) for p in tree]


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, names: Sequence[str] | None) -> None:
    draw.rectangle([0, 0, WIDTH, HEADER - 8], fill=GRID_LINE)
    if s.phase == DRAFT:
        phase = f"Draft: pick {s.picks + 1} of {15 * s.sets}"
    elif s.phase == OVER:
        phase = "Game over"
    else:
        phase = f"Trick {len(s.tricks) + 1} of {s.total_tricks}"
    variant = "" if s.variant == "normal" else " (short)"
    text(image, (MARGIN, 18), f"Martian Whist{variant}  ·  {phase}", size=MIN_PX + 2, anchor="lm")
    if s.phase == OVER:
        outcome = RULES.outcome(s)
        reason = outcome.reason if outcome else ""  # why it ended; who won is said here
        if outcome is None or outcome.is_draw:
            line = fit_text(f"Drawn: {reason}" if outcome else reason, MIN_PX + 2, WIDTH - 2 * MARGIN)
        else:
            line = _fit_label(outcome.winners[0], names, f" wins: {reason}", MIN_PX + 2, WIDTH - 2 * MARGIN)
        text(image, (MARGIN, 46), line, size=MIN_PX + 2, fill=HIGHLIGHT, anchor="lm")
        return
    if s.phase == DRAFT:
        action = "to take or steal" if s.steal_open else "to take"
    else:
        action = "to lead" if s.led is None else "to follow"
    line = _fit_label(s.turn, names, f" {action}", MIN_PX + 3, WIDTH - 2 * MARGIN)
    text(image, (MARGIN, 46), line, size=MIN_PX + 3, fill=HIGHLIGHT, anchor="lm")


def _wrap(message: str, size: int, width: float) -> list[str]:
    """``message`` broken into lines of at most ``width`` pixels."""
    lines: list[str] = []
    for word in word_groups(message, size, width):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# --- draft ----------------------------------------------------------------------------------------


def draft_slot(index: int, count: int, top: int = HEADER) -> tuple[float, float, float]:
    """(centre x, base y, slot width) of draft tree ``index`` of ``count``: rows of ``PER_ROW``."""
    per = min(count, PER_ROW)
    slot = (WIDTH - 2 * MARGIN) / per
    return MARGIN + slot * (index % per + 0.5), top + 100 + (index // per) * ROW_H, slot


def _draft_row(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int) -> int:
    last_tree = s.last_take[1] if s.last_take and s.last_take[1] >= 0 else None
    for index, tree in enumerate(s.row):
        cx, base_y, slot = draft_slot(index, len(s.row), top)
        left, tile_top = round(cx - slot / 2), round(base_y) - TILE_TOP
        paste_tile(image, _tree_tile(tuple(tree), slot), (left, tile_top))
        last = index == last_tree
        if last:
            last_move_frame(draw, (left, tile_top + TILE_TOP - 98, left + round(slot) - 1, tile_top + TILE_TOP + 44), 5)
        letter_at = (left + slot / 2, tile_top + TILE_TOP + 13)
        text(image, letter_at, tree_letter(index), size=MIN_PX + 1, anchor="mm", fill=HIGHLIGHT if last else TEXT)
    rows = -(-len(s.row) // PER_ROW)
    y = top + 100 + (rows - 1) * ROW_H + 62
    note = ""
    if s.last_take is not None:
        seat, index, piece = s.last_take
        if index < 0:
            note = f"Last: {SEAT_NAMES[seat]} stole {SEAT_NAMES[1 - seat]}'s first small ({piece})."
        else:
            note = f"Last: {SEAT_NAMES[seat]} took {piece} from tree {tree_letter(index)}."
        if s.steal_open and s.phase == DRAFT:
            note += f"  {SEAT_NAMES[s.turn]} may take a top pyramid or steal that {piece}."
    elif s.phase == OVER:
        note = "The game ended during the draft."
    else:
        note = f"{SEAT_NAMES[s.turn]} drafts first: take any small from the top of a tree."
    note += "  Under each tree: its letter and its top pyramid (take R1 c)."
    for line in _wrap(note, MIN_PX, WIDTH - 2 * MARGIN):
        text(image, (MARGIN, y), line, size=MIN_PX, anchor="lm", fill=DIM)
        y += 22
    return y + 4


TILE_TOP = 100  # a draft tile reaches this far above its tree's base


@lru_cache(maxsize=256)
def _tree_tile(tree: tuple[str, ...], slot: float) -> tuple[Image.Image, tuple[geometry.TextBox, ...]]:
    """One draft tree with its top code below it, on the background, and its texts.

    Cached by the tree alone (its letter and the last-pick frame are drawn over it): a game deals
    only a hundred and fifty-odd different trees and part-trees, so at any number of games at once
    nearly every tree comes from the cache.
    """
    with geometry.recording() as drawn:
        image = Image.new("RGB", (round(slot), TILE_TOP + 48), BACKGROUND)
        cx, base_y = slot / 2, TILE_TOP
        if tree:
            draw_stack_side(image, cx, base_y, _pieces(tree), DRAFT_SCALE)
            text(image, (cx, base_y + 32), tree[-1], size=MIN_PX, anchor="mm", fill=DIM)  # what a take names
        else:
            draw = ImageDraw.Draw(image)
            draw.line([(cx - DRAFT_SCALE * 0.4, base_y), (cx + DRAFT_SCALE * 0.4, base_y)], fill=DIM, width=2)
    return image, tuple(drawn.texts)


# --- tricks ---------------------------------------------------------------------------------------


def _trick(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int, names: Sequence[str] | None) -> int:
    draw.rounded_rectangle([MARGIN, top + 4, WIDTH - MARGIN, top + TRICK - 8], radius=10, fill=PANEL)
    left_x, right_x = TRICK_X
    centre = WIDTH // 2
    scale = TRICK_SCALE
    base_y = top + 150
    if s.led is not None:
        leader = 1 - s.turn
        line = _fit_label(leader, names, " leads", MIN_PX, 250)
        text(image, (left_x, top + 24), line, size=MIN_PX, anchor="mm")
        draw_stack_side(image, left_x, base_y, _pieces(s.led), scale)
        text(image, (left_x, base_y + 14), tree_text(s.led), size=MIN_PX, anchor="mm")
        line = _fit_label(s.turn, names, " to follow", MIN_PX, 250)
        text(image, (right_x, top + 24), line, size=MIN_PX, anchor="mm", fill=HIGHLIGHT)
        text(image, (right_x, top + 100), "?", size=64, anchor="mm", fill=HIGHLIGHT)
        colours = sorted({p[0] for p in s.led}, key=COLOUR_ORDER.index)
        words = [COLOUR_WORDS[c] for c in colours]
        must = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        text(image, (centre, top + 70), f"Trick {len(s.tricks) + 1}", size=MIN_PX + 1, anchor="mm")
        y = base_y + 40
        for line in _wrap(f"{SEAT_NAMES[s.turn]} must include {must} if able", MIN_PX, WIDTH - 4 * MARGIN):
            text(image, (centre, y), line, size=MIN_PX, anchor="mm")
            y += 22
        return top + TRICK
    if not s.tricks and s.phase == OVER:
        text(image, (centre, top + 100), "The game ended before the first trick.", size=MIN_PX + 1, anchor="mm")
        return top + TRICK
    if not s.tricks:
        taker = _fit_label(s.turn, names, "", MIN_PX + 2, WIDTH - 4 * MARGIN)  # has a line to itself at most
        message = f"The draft is over: {taker} took the last pyramid"
        y = top + 70
        for line in _wrap(message, MIN_PX + 2, WIDTH - 4 * MARGIN):
            text(image, (centre, y), line, size=MIN_PX + 2, anchor="mm")
            y += 26
        for line in _wrap("and leads the first trick with any tree from their stash.", MIN_PX, WIDTH - 4 * MARGIN):
            text(image, (centre, y + 6), line, size=MIN_PX, anchor="mm", fill=DIM)
            y += 22
        return top + TRICK
    trick = s.tricks[-1]
    res = resolve(trick.led, trick.followed)
    follower = 1 - trick.leader
    sides = ((trick.leader, left_x, trick.led, "led"), (follower, right_x, trick.followed, "followed"))
    for seat, x, tree, role in sides:
        won = seat == trick.winner
        label = _fit_label(seat, names, f" {role}" + (" and won" if won else ""), MIN_PX, 250)
        text(image, (x, top + 24), label, size=MIN_PX, anchor="mm", fill=HIGHLIGHT if won else DIM)
        draw_stack_side(image, x, base_y, _pieces(tree), scale, outlines=[HIGHLIGHT] * 3 if won else None)
        text(image, (x, base_y + 14), tree_text(tree), size=MIN_PX, anchor="mm")  # large to small, as written
    text(image, (centre, top + 60), f"Trick {len(s.tricks)}", size=MIN_PX + 1, anchor="mm")
    y = base_y + 40
    if res.kind in ("segments", "identical"):
        for k, name in enumerate(SEGMENTS):
            mark = res.segments[k]
            a, b = COLOUR_WORDS[trick.led[k][0]], COLOUR_WORDS[trick.followed[k][0]]
            text(image, (MARGIN + 100, y), f"{name}:", size=MIN_PX, anchor="rm", fill=DIM)
            if mark == 0:
                text(image, (MARGIN + 110, y), f"tie ({a})", size=MIN_PX, anchor="lm")
            else:
                winner = trick.leader if mark > 0 else follower
                high, low = (a, b) if mark > 0 else (b, a)
                line = f"{SEAT_NAMES[winner]} ({high} over {low})"
                text(image, (MARGIN + 110, y), line, size=MIN_PX, anchor="lm", fill=WIN)
            y += 22
    else:
        kind = "solid v solid" if res.kind == "solids" else "solid v mixed"
        text(image, (centre, y), kind, size=MIN_PX + 1, anchor="mm", fill=DIM)
        y += 24
    line = explain(trick.led, trick.followed, SEAT_NAMES[trick.leader], SEAT_NAMES[follower])
    for part in _wrap(line, MIN_PX, WIDTH - 4 * MARGIN)[:2]:
        text(image, (centre, y), part, size=MIN_PX, anchor="mm")
        y += 22
    return max(top + TRICK, y + 12)


def _kept(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int, names: Sequence[str] | None) -> int:
    points = scores(s)
    last = s.tricks[-1] if s.tricks else None
    per_row = (WIDTH - 2 * MARGIN) // KEPT_STEP
    y0 = top
    for seat in (0, 1):
        kept = kept_trees(s, seat)
        solids = solid_count(kept)
        text(image, (MARGIN, y0 + 14), _fit_label(seat, names, "", MIN_PX + 1, 330), size=MIN_PX + 1, anchor="lm")
        text(
            image,
            (WIDTH - MARGIN, y0 + 14),
            f"{points[seat]} point{'s' if points[seat] != 1 else ''}",
            size=MIN_PX + 5,
            anchor="rm",
            fill=HIGHLIGHT,
        )
        detail = f"{len(kept)} trick{'s' if len(kept) != 1 else ''} won + 2 x {solids} solid"
        text(image, (MARGIN, y0 + 38), detail, size=MIN_PX, anchor="lm", fill=DIM)
        y = y0 + 56
        for index, tree in enumerate(kept):
            cx = MARGIN + KEPT_STEP / 2 + (index % per_row) * KEPT_STEP
            ty = y + (index // per_row) * 70
            if last is not None and last.winner == seat and index == len(kept) - 1:
                last_move_frame(draw, (cx - 24, ty, cx + 24, ty + 66), 4)
            draw_stack_side(image, cx, ty + 44, _pieces(tree), KEPT_SCALE)
            if is_solid(tree):
                text(image, (cx, ty + 56), "solid", size=MIN_PX, anchor="mm", fill=DIM)
        rows = -(-len(kept) // per_row) if kept else 0
        y0 = y + rows * 70 + (0 if kept else -8) + 8
    return y0


# --- stashes --------------------------------------------------------------------------------------


def _stashes(
    image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int, names: Sequence[str] | None
) -> int:
    width = WIDTH - 2 * MARGIN
    highlight: tuple[int, str] | None = None
    if s.phase == DRAFT and s.last_take is not None:
        highlight = (s.last_take[0], s.last_take[2])
    y = top
    for seat in (0, 1):
        if s.phase == OVER and not s.stashes[seat]:  # every tree played: nothing left to show
            continue
        _stash_panel(image, draw, s, seat, (MARGIN, y + 4, width), names, highlight)
        y += STASH
    return y


def _stash_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    s: WhistState,
    seat: int,
    box: tuple[float, float, float],
    names: Sequence[str] | None,
    highlight: tuple[int, str] | None,
) -> None:
    x0, y0, width = box
    to_move = s.phase != OVER and s.turn == seat
    draw.rounded_rectangle(
        [x0, y0, x0 + width, y0 + STASH - 12],
        radius=10,
        fill=PANEL,
        outline=HIGHLIGHT if to_move else GRID_LINE,
        width=3,
    )
    counts = Counter(s.stashes[seat])
    sizes = Counter(int(p[1]) for p in s.stashes[seat])
    text(
        image,
        (x0 + 14, y0 + 17),
        _fit_label(seat, names, f": stash of {len(s.stashes[seat])}", MIN_PX + 1, width - 28),
        size=MIN_PX + 1,
        anchor="lm",
        fill=HIGHLIGHT if to_move else TEXT,
    )
    columns = (3, 2, 1)
    col_x = [x0 + 92 + k * (width - 100) / 3 for k in range(3)]
    for k, pips in enumerate(columns):
        heading = f"{SEGMENTS[k]} {sizes[pips]}/{s.cap}"
        text(image, (col_x[k] + 40, y0 + 42), heading, size=MIN_PX, anchor="mm", fill=DIM)
    shown = tuple(counts[f"{colour}{pips}"] for colour in COLOUR_ORDER for pips in columns)
    marked = highlight[1] if highlight is not None and highlight[0] == seat else ""
    corner = (round(x0) + 4, round(y0) + BODY_TOP)  # inside the panel's outline
    paste_tile(image, _stash_body(shown, marked, round(width)), corner)


BODY_TOP = 54  # where a stash's table of pyramids starts, below its title and size headings


@lru_cache(maxsize=64)
def _stash_body(shown: tuple[int, ...], marked: str, width: int) -> tuple[Image.Image, tuple[geometry.TextBox, ...]]:
    """A stash's table (colour rows, size columns, ``code xN`` cells) on the panel colour, and its texts.

    Cached: one move changes one stash, so the other player's table is drawn from the cache.  A table
    is about 290 KB of pixels; with hundreds of games at once the cache would miss anyway (every other
    game's boards come between two of one game's), so it is kept small.
    """
    with geometry.recording() as drawn:
        image = Image.new("RGB", (width - 8, 5 * 27 + 4), PANEL)
        draw = ImageDraw.Draw(image)
        columns = (3, 2, 1)
        col_x = [88 + k * (width - 100) / 3 for k in range(3)]
        for r, colour in enumerate(COLOUR_ORDER):
            y = 70 - BODY_TOP + r * 27
            text(image, (8, y), COLOUR_WORDS[colour], size=MIN_PX, anchor="lm", fill=DIM)
            for k, pips in enumerate(columns):
                code = f"{colour}{pips}"
                n = shown[r * 3 + k]
                cx = col_x[k] + 8
                paste_tile(image, _stash_cell(colour, pips, n), (round(cx) - 13, y - 14))
                if marked == code:
                    last_move_frame(draw, (cx - 15, y - 14, cx + 86, y + 13), 4)
    return image, tuple(drawn.texts)


@lru_cache(maxsize=512)
def _stash_cell(colour: str, pips: int, n: int) -> tuple[Image.Image, tuple[geometry.TextBox, ...]]:
    """One cell of a stash table (the pyramid and ``R3 x2``, or a dash) on the panel colour, and its text."""
    with geometry.recording() as drawn:
        image = Image.new("RGB", (96, 27), PANEL)
        cx, y = 13, 14
        if n:
            paste_pyramid(image, cx, y + 11, pips, colour, 15.0, outline_width=1)
            text(image, (cx + 15, y), f"{colour}{pips} x{n}", size=MIN_PX, anchor="lm")
        else:
            text(image, (cx + 14, y), "-", size=MIN_PX, anchor="lm", fill=DIM)
    return image, tuple(drawn.texts)
