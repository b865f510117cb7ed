"""Martian Whist board: the draft row, both stashes by colour and size, the trick, kept trees, scores.

During the draft the picture shows the row of draft trees (lettered along the bottom edge, the
last pick outlined) above the two stashes.  During the tricks it shows the current or the last
trick with both trees side by side and how each segment went, then each player's kept trees and
score, then the stashes.  The seat to move is named in the header and its stash is outlined.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
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
)
from renderers.pyramids import (
    BACKGROUND,
    GRID_LINE,
    HIGHLIGHT,
    PANEL,
    RGB,
    TEXT,
    display_name,
    draw_stack_side,
    fixed_palette,
    paste_pyramid,
    png_bytes,
    text,
)

WIDTH = 960
MARGIN = 20
HEADER = 52
DRAFT_ROW = 160
TRICK = 224
KEPT = 172
STASH = 222
DIM: RGB = (0xD2, 0xD6, 0xDC)
WIN: RGB = (0x9B, 0xF0, 0xB0)
PIECE_COLOURS = "KRYGB"


def render(state: WhistState, *, last_move: Any = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes; pure and deterministic."""
    del last_move  # the state keeps the last pick and the last trick as display fields
    drafting = any(state.row)  # the draft layout, also for a game that ended (by leaving) in the draft
    body = DRAFT_ROW if drafting else TRICK + KEPT
    image = Image.new("RGB", (WIDTH, HEADER + body + STASH), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _header(image, draw, state, names)
    y = HEADER
    if drafting:
        y = _draft_row(image, draw, state, y)
    else:
        y = _trick(image, draw, state, y, names)
        y = _kept(image, draw, state, y, names)
    _stashes(image, draw, state, y, names)
    return _png(image)


# --- encoding -------------------------------------------------------------------------------------


PALETTE = fixed_palette(extra=[DIM, WIN], grounds=[GRID_LINE], inks=[DIM, WIN])


def _png(image: Image.Image) -> bytes:
    """PNG of ``image`` mapped onto the fixed palette (fast and small; no adaptive quantising)."""
    return png_bytes(image, PALETTE)


# --- header ---------------------------------------------------------------------------------------


def _label(seat: int, names: Sequence[str] | None) -> str:
    if name := display_name(names, seat):
        return f"{SEAT_NAMES[seat]} ({name[:20]})"
    return SEAT_NAMES[seat]


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
    text(image, (MARGIN, 22), f"Martian Whist{variant}  ·  {phase}", size=20, anchor="lm")
    if s.phase == OVER:
        outcome = RULES.outcome(s)
        text(image, (WIDTH - MARGIN, 22), outcome.reason if outcome else "", size=20, fill=HIGHLIGHT, anchor="rm")
        return
    if s.phase == DRAFT:
        action = "to take or steal" if s.steal_open else "to take"
    else:
        action = "to lead" if s.led is None else "to follow"
    text(image, (WIDTH - MARGIN, 22), f"{_label(s.turn, names)} {action}", size=20, fill=HIGHLIGHT, anchor="rm")


# --- draft ----------------------------------------------------------------------------------------


def _draft_row(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int) -> int:
    slot = (WIDTH - 2 * MARGIN) / len(s.row)
    scale = min(42.0, slot * 0.86)
    base_y = top + 108
    last_tree = s.last_take[1] if s.last_take and s.last_take[1] >= 0 else None
    for index, tree in enumerate(s.row):
        cx = MARGIN + slot * (index + 0.5)
        if index == last_tree:
            draw.rounded_rectangle(
                [cx - slot / 2 + 1, top + 2, cx + slot / 2 - 1, base_y + 28], radius=6, outline=HIGHLIGHT, width=3
            )
        if tree:
            draw_stack_side(image, cx, base_y, _pieces(tree), scale)
        else:
            draw.line([(cx - scale * 0.4, base_y), (cx + scale * 0.4, base_y)], fill=DIM, width=2)
        text(
            image,
            (cx, base_y + 15),
            tree_letter(index),
            size=18,
            anchor="mm",
            fill=HIGHLIGHT if index == last_tree else TEXT,
        )
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
    text(image, (MARGIN, top + 148), note, size=17, anchor="lm", fill=DIM)
    return top + DRAFT_ROW


# --- tricks ---------------------------------------------------------------------------------------


def _trick(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int, names: Sequence[str] | None) -> int:
    draw.rounded_rectangle([MARGIN, top + 4, WIDTH - MARGIN, top + TRICK - 8], radius=10, fill=PANEL)
    left_x, right_x, centre = 230, WIDTH - 230, WIDTH // 2
    scale = 52.0
    base_y = top + 168
    if s.led is not None:
        leader = 1 - s.turn
        text(image, (left_x, top + 24), f"{_label(leader, names)} leads", size=18, anchor="mm")
        draw_stack_side(image, left_x, base_y, _pieces(s.led), scale)
        text(image, (right_x, top + 24), f"{_label(s.turn, names)} to follow", size=18, anchor="mm", fill=HIGHLIGHT)
        text(image, (right_x, top + 100), "?", size=64, anchor="mm", fill=HIGHLIGHT)
        colours = sorted({p[0] for p in s.led}, key=COLOUR_ORDER.index)
        words = [COLOUR_WORDS[c] for c in colours]
        must = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        text(image, (centre, top + 70), f"Trick {len(s.tricks) + 1}", size=18, anchor="mm")
        text(image, (centre, base_y + 30), f"{SEAT_NAMES[s.turn]} must include {must} if able", size=17, anchor="mm")
        return top + TRICK
    if not s.tricks and s.phase == OVER:
        text(image, (centre, top + 100), "The game ended before the first trick.", size=20, anchor="mm")
        return top + TRICK
    if not s.tricks:
        text(
            image,
            (centre, top + 86),
            f"The draft is over: {_label(s.turn, names)} took the last pyramid",
            size=20,
            anchor="mm",
        )
        text(
            image,
            (centre, top + 118),
            "and leads the first trick with any tree from their stash.",
            size=18,
            anchor="mm",
            fill=DIM,
        )
        return top + TRICK
    trick = s.tricks[-1]
    res = resolve(trick.led, trick.followed)
    follower = 1 - trick.leader
    sides = ((trick.leader, left_x, trick.led, "led"), (follower, right_x, trick.followed, "followed"))
    for seat, x, tree, role in sides:
        won = seat == trick.winner
        label = f"{_label(seat, names)} {role}" + (" and won" if won else "")
        text(image, (x, top + 24), label, size=18, anchor="mm", fill=HIGHLIGHT if won else DIM)
        draw_stack_side(image, x, base_y, _pieces(tree), scale, outlines=[HIGHLIGHT] * 3 if won else None)
    text(image, (centre, top + 24), f"Trick {len(s.tricks)}", size=18, anchor="mm")
    if res.kind in ("segments", "identical"):
        for k, name in enumerate(SEGMENTS):
            mark = res.segments[k]
            a, b = COLOUR_WORDS[trick.led[k][0]], COLOUR_WORDS[trick.followed[k][0]]
            y = top + 62 + k * 30
            text(image, (centre - 6, y), f"{name}:", size=17, anchor="rm", fill=DIM)
            if mark == 0:
                text(image, (centre + 6, y), f"tie ({a})", size=17, anchor="lm")
            else:
                winner = trick.leader if mark > 0 else follower
                high, low = (a, b) if mark > 0 else (b, a)
                text(
                    image, (centre + 6, y), f"{SEAT_NAMES[winner]} ({high} over {low})", size=17, anchor="lm", fill=WIN
                )
    else:
        kind = "solid v solid" if res.kind == "solids" else "solid v mixed"
        text(image, (centre, top + 92), kind, size=18, anchor="mm", fill=DIM)
    line = explain(trick.led, trick.followed, SEAT_NAMES[trick.leader], SEAT_NAMES[follower])
    text(image, (centre, base_y + 30), line, size=17, anchor="mm")
    return top + TRICK


def _kept(image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int, names: Sequence[str] | None) -> int:
    points = scores(s)
    last = s.tricks[-1] if s.tricks else None
    for row, seat in enumerate((0, 1)):
        y0 = top + row * 84
        kept = kept_trees(s, seat)
        solids = solid_count(kept)
        text(image, (MARGIN, y0 + 16), _label(seat, names), size=18, anchor="lm")
        text(image, (MARGIN, y0 + 42), f"{points[seat]} points", size=22, anchor="lm", fill=HIGHLIGHT)
        detail = f"{len(kept)} trick{'s' if len(kept) != 1 else ''} + 2 x {solids} solid"
        text(image, (MARGIN, y0 + 66), detail, size=15, anchor="lm", fill=DIM)
        x = 250.0
        for index, tree in enumerate(kept):
            cx = x + index * 70
            if last is not None and last.winner == seat and index == len(kept) - 1:
                draw.rounded_rectangle([cx - 30, y0 + 2, cx + 30, y0 + 80], radius=6, outline=HIGHLIGHT, width=2)
            draw_stack_side(image, cx, y0 + 64, _pieces(tree), 22.0)
            if is_solid(tree):
                text(image, (cx, y0 + 72), "solid", size=12, anchor="mm", fill=DIM)
        if not kept:
            text(image, (x - 20, y0 + 42), "no tricks won yet", size=16, anchor="lm", fill=DIM)
    return top + KEPT


# --- stashes --------------------------------------------------------------------------------------


def _stashes(
    image: Image.Image, draw: ImageDraw.ImageDraw, s: WhistState, top: int, names: Sequence[str] | None
) -> None:
    width = (WIDTH - 3 * MARGIN) / 2
    highlight: tuple[int, str] | None = None
    if s.phase == DRAFT and s.last_take is not None:
        highlight = (s.last_take[0], s.last_take[2])
    for seat in (0, 1):
        x0 = MARGIN + seat * (width + MARGIN)
        _stash_panel(image, draw, s, seat, (x0, top + 4, width), names, highlight)


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
        [x0, y0, x0 + width, y0 + STASH - 16],
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
        f"{_label(seat, names)}: stash of {len(s.stashes[seat])}",
        size=18,
        anchor="lm",
        fill=HIGHLIGHT if to_move else TEXT,
    )
    columns = (3, 2, 1)
    col_x = [x0 + 120 + k * (width - 140) / 3 for k in range(3)]
    for k, pips in enumerate(columns):
        text(image, (col_x[k] + 18, y0 + 42), f"{SEGMENTS[k]} {sizes[pips]}/{s.cap}", size=15, anchor="mm", fill=DIM)
    for r, colour in enumerate(COLOUR_ORDER):
        y = y0 + 72 + r * 27
        text(image, (x0 + 14, y), COLOUR_WORDS[colour], size=16, anchor="lm", fill=DIM)
        for k, pips in enumerate(columns):
            code = f"{colour}{pips}"
            n = counts[code]
            cx = col_x[k]
            if highlight == (seat, code):
                draw.rounded_rectangle([cx - 15, y - 14, cx + 54, y + 13], radius=4, outline=HIGHLIGHT, width=2)
            if n:
                paste_pyramid(image, cx, y + 11, pips, colour, 15.0, outline_width=1)
                text(image, (cx + 15, y), f"x{n}", size=18, anchor="lm")
            else:
                text(image, (cx + 14, y), "-", size=17, anchor="lm", fill=DIM)
