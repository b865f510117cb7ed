"""Martian Combat board picture: the 6x6 grid in side view, with dice, combat and whose turn it is.

Pure and deterministic: the same state always gives the same PNG bytes.  The static part of the
board (grid, coordinates, blocked and home squares) is drawn once per layout and copied.
"""

from __future__ import annotations

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
from renderers.pyramids import (
    BACKGROUND,
    COLOURS,
    GRID_LINE,
    HIGHLIGHT,
    MARK,
    PANEL,
    TEXT,
    TEXT_SHADOW,
    blend,
    colour_swatch,
    display_name,
    draw_stack_side,
    fixed_palette,
    new_canvas,
    outline_for,
    paste_die,
    png_bytes,
    text,
)

WIDTH, HEIGHT = 960, 790
SQ = 112  # square size in pixels
BX, BY = 36, 76  # board top-left corner
PX = BX + SIZE * SQ + 18  # panel left edge
SCALE = 30.0  # pixels per inch for the pyramids
LIGHT = (0x8E, 0x94, 0x9E)
DARK = (0x80, 0x86, 0x91)
BLOCKED = (0x3C, 0x40, 0x48)
HATCH = (0x52, 0x57, 0x60)
DIM = (0xC8, 0xCC, 0xD2)
LAST = (0xFA, 0xFA, 0xFA)  # last move: white, unlike any player colour or home tint
FIGHT_PHASES = (COMBAT_ROLL, COUNTER, COUNTER_ROLL, TIEBREAK_ROLL)


def render(state: CombatState, *, last_move: object | None = None, names: Sequence[str] | None = None) -> bytes:
    """The board as PNG bytes: stacks, last move, combat, dice, players and whose turn it is."""
    image = _background(state.players, state.variant, state.blocked).copy()
    _draw_header(image, state, names)
    for index in state.trail:
        _outline_square(image, index, LAST, 4)
    _draw_stacks(image, state)
    _draw_last_move(image, state, last_move)
    _draw_panel(image, state, names)
    return png_bytes(image, PALETTE)


# ----------------------------------------------------------------------------------------------
# Geometry
# ----------------------------------------------------------------------------------------------


def square_box(index: int) -> tuple[int, int, int, int]:
    """Pixel box (left, top, right, bottom) of a square; rank 1 is at the bottom."""
    file, rank = index % SIZE, index // SIZE
    left = BX + file * SQ
    top = BY + (SIZE - 1 - rank) * SQ
    return left, top, left + SQ, top + SQ


def _centre(index: int) -> tuple[float, float]:
    left, top, right, bottom = square_box(index)
    return (left + right) / 2, (top + bottom) / 2


def _anchor(index: int) -> tuple[float, float]:
    """Where arrows start and end: near the top-left corner, clear of the centred pyramids."""
    left, top, _, _ = square_box(index)
    return left + 24, top + 30


# ----------------------------------------------------------------------------------------------
# Static layer and palette
# ----------------------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _background(players: int, variant: str, blocked: tuple[int, ...]) -> Image.Image:
    image, draw = new_canvas(WIDTH, HEIGHT, BACKGROUND)
    homes = {sq: seat for seat in range(players) for sq in home_squares(seat)}
    for index in range(SIZE * SIZE):
        box = square_box(index)
        tone = LIGHT if (index % SIZE + index // SIZE) % 2 else DARK
        if index in blocked:
            draw.rectangle(box, fill=BLOCKED)
            for k in range(-SQ, SQ, 16):
                start = (box[0] + max(k, 0), box[1] + max(-k, 0))
                draw.line([start, (box[0] + min(SQ, SQ + k), box[1] + min(SQ, SQ - k))], fill=HATCH, width=3)
        elif index in homes:
            colour = COLOURS[seat_letter(homes[index])]
            draw.rectangle(box, fill=blend(tone, colour, 0.42))
            draw.rectangle((box[0] + 3, box[1] + 3, box[2] - 4, box[3] - 4), outline=colour, width=3)
            text(draw, (box[0] + 7, box[1] + 5), "home", size=13, fill=TEXT)
        else:
            draw.rectangle(box, fill=tone)
    for k in range(SIZE + 1):
        draw.line([(BX + k * SQ, BY), (BX + k * SQ, BY + SIZE * SQ)], fill=GRID_LINE, width=2)
        draw.line([(BX, BY + k * SQ), (BX + SIZE * SQ, BY + k * SQ)], fill=GRID_LINE, width=2)
    for k in range(SIZE):
        text(draw, (BX + k * SQ + SQ / 2, BY + SIZE * SQ + 6), "abcdef"[k], size=20, anchor="ma")
        text(draw, (BX - 12, BY + (SIZE - 1 - k) * SQ + SQ / 2), str(k + 1), size=20, anchor="mm")
    draw.rectangle((PX - 6, BY, WIDTH - 8, BY + SIZE * SQ), fill=PANEL)
    subtitle = f"{variant} · {players} players"
    text(draw, (WIDTH - 14, 12), subtitle, size=16, fill=DIM, anchor="ra")
    return image


HOME_TINTS = [blend(tone, COLOURS[seat_letter(seat)], 0.42) for tone in (LIGHT, DARK) for seat in range(4)]
PALETTE = fixed_palette(
    extra=[LIGHT, DARK, BLOCKED, HATCH, DIM, LAST, *HOME_TINTS], grounds=[LIGHT, *HOME_TINTS], inks=[DIM]
)


# ----------------------------------------------------------------------------------------------
# Dynamic layer
# ----------------------------------------------------------------------------------------------


def _seat_label(state: CombatState, seat: int, names: Sequence[str] | None) -> str:
    colour = RULES.seat_name(state, seat)
    if name := display_name(names, seat):
        return f"{colour} ({_short(name, 18)})"
    return colour


def _short(value: str, limit: int) -> str:
    value = " ".join(str(value).split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _draw_header(image: Image.Image, state: CombatState, names: Sequence[str] | None) -> None:
    draw = ImageDraw.Draw(image)
    text(image, (14, 10), f"Martian Combat · turn {min(state.turn, state.turn_limit)}/{state.turn_limit}", size=22)
    seat = RULES.to_move(state)
    if seat is None:
        line = _short(f"Game over: {state.reason}", 88)
        text(image, (14, 42), line, size=19, fill=HIGHLIGHT)
        return
    colour_swatch(draw, (14, 43), seat_letter(seat), size=20)
    who = _seat_label(state, seat, names)
    text(image, (42, 42), _short(prompt(state, who=who), 86), size=19)


def _draw_stacks(image: Image.Image, state: CombatState) -> None:
    reserve = {r for r in state.reserve if r >= 0}
    for index, stack in enumerate(state.board):
        if not stack:
            continue
        left, top, right, bottom = square_box(index)
        pieces = [(seat_letter(p.owner), p.pips) for p in stack]
        # a pyramid with an opponent pyramid above it is stuck: outline it in the warning colour
        outlines = [MARK if any(q.owner != p.owner for q in stack[k + 1 :]) else None for k, p in enumerate(stack)]
        capped = index in state.capped
        if capped:
            pieces.append(("K", 1))
            outlines.append(None)
        draw_stack_side(image, (left + right) / 2, bottom - 9, pieces, SCALE, outlines=outlines)
        owner = single_owner(stack)
        if index in reserve:
            text(image, (left + 6, top + 5), "reserve", size=13, fill=DIM)
        elif capped:
            text(image, (right - 6, top + 5), "capped", size=13, fill=TEXT, anchor="ra")
        elif owner >= 0:
            text(image, (right - 7, top + 4), str(stack_pips(stack)), size=17, fill=TEXT, anchor="ra")


def _outline_square(image: Image.Image, index: int, colour: tuple[int, int, int], width: int) -> None:
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = square_box(index)
    draw.rectangle((left + 2, top + 2, right - 2, bottom - 2), outline=colour, width=width)


def _arrow(image: Image.Image, a: int, b: int, colour: tuple[int, int, int], both: bool = False) -> None:
    draw = ImageDraw.Draw(image)
    (x1, y1), (x2, y2) = _anchor(a), _anchor(b)
    length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    # stop short of the centres so the pyramids stay visible
    sx, sy, ex, ey = x1 + ux * 12, y1 + uy * 12, x2 - ux * 12, y2 - uy * 12
    draw.line([(sx, sy), (ex, ey)], fill=TEXT_SHADOW, width=9)
    draw.line([(sx, sy), (ex, ey)], fill=colour, width=5)
    ends = [(ex, ey, ux, uy)] + ([(sx, sy, -ux, -uy)] if both else [])
    for x, y, dx, dy in ends:
        head = [
            (x + dx * 8, y + dy * 8),
            (x - dx * 14 - dy * 11, y - dy * 14 + dx * 11),
            (x - dx * 14 + dy * 11, y - dy * 14 - dx * 11),
        ]
        draw.polygon(head, fill=colour, outline=TEXT_SHADOW, width=2)


def _shown_fight(state: CombatState) -> Fight | None:
    fight = state.fight
    if fight is None or (state.phase not in FIGHT_PHASES and fight.turn < state.turn - 1):
        return None
    return fight


def _shown_hop(state: CombatState) -> HopTry | None:
    hop = state.hop
    if hop is None or (state.phase != HOP_ROLL and hop.turn < state.turn - 1):
        return None
    return hop


def _draw_last_move(image: Image.Image, state: CombatState, last_move: object | None) -> None:
    fight = _shown_fight(state)
    if fight is not None and (state.phase in FIGHT_PHASES or fight.turn == state.turn):
        _outline_square(image, fight.att_sq, MARK, 4)
        _outline_square(image, fight.def_sq, MARK, 4)
        if state.phase in FIGHT_PHASES:
            _arrow(image, fight.att_sq, fight.def_sq, MARK)
    hop = state.hop
    if state.phase == HOP_ROLL and hop is not None:
        _arrow(image, hop.frm, hop.to, LAST)
        left, top, _, _ = square_box(hop.to)
        text(image, (left + 40, top + 6), "hop?", size=17, fill=LAST)
        return
    if isinstance(last_move, (Step, Hop, Dig)):
        _arrow(image, last_move.frm, last_move.to, LAST)
    elif isinstance(last_move, Swap):
        _arrow(image, last_move.mine, last_move.theirs, LAST, both=True)
    elif isinstance(last_move, Attack) and state.phase not in FIGHT_PHASES:
        _arrow(image, last_move.frm, last_move.to, MARK)


def _draw_panel(image: Image.Image, state: CombatState, names: Sequence[str] | None) -> None:
    draw = ImageDraw.Draw(image)
    x, y = PX + 6, BY + 10
    text(image, (x, y), "Players (turn order)", size=16, fill=DIM)
    y += 24
    to_move = RULES.to_move(state)
    for seat in turn_order(state.players):
        out = seat in state.out
        if seat == state.current and state.phase != OVER:
            draw.polygon([(x, y + 3), (x + 10, y + 10), (x, y + 17)], fill=HIGHLIGHT, outline=TEXT_SHADOW)
        colour_swatch(draw, (x + 14, y + 1), seat_letter(seat), size=18)
        label = f"{RULES.seat_name(state, seat)} · {POSITIONS[seat]}"
        if state.phase == OVER and state.ranks:
            label += f" · #{state.ranks[seat]}"
        elif out:
            label += " · out"
        text(image, (x + 40, y), label, size=17, fill=DIM if out else (HIGHLIGHT if seat == to_move else TEXT))
        y += 21
        detail = []
        if name := display_name(names, seat):
            detail.append(_short(name, 11))
        if state.variant == "advanced" and state.lost[seat]:
            lost = state.lost[seat]
            detail.append("lost " + " ".join(f"{lost.count(p)}{'SML'[p - 1]}" for p in (1, 2, 3) if p in lost))
        if detail:
            text(image, (x + 40, y), _short(" · ".join(detail), 25), size=14, fill=DIM)
            y += 18
        y += 4
    y += 6
    y = _draw_dice(image, state, x, y)
    fight = _shown_fight(state)
    if fight is not None:
        y = _draw_fight(image, fight, state, x, y + 8)
    hop = _shown_hop(state)
    if hop is not None:
        y = _draw_hop(image, hop, state, x, y + 8)
    _draw_legend(image, BY + SIZE * SQ - 88)


def _draw_dice(image: Image.Image, state: CombatState, x: int, y: int) -> int:
    if not state.action or state.action_turn < state.turn - 1:
        if state.phase != OVER:
            text(image, (x, y), "Action die: not rolled yet", size=15, fill=DIM)
            return y + 24
        return y
    who = RULES.seat_name(state, state.current if state.action_turn == state.turn else _previous(state))
    text(image, (x, y), f"{who}'s action die", size=15, fill=DIM)
    y += 20
    label = ACTIONS[state.action]
    if state.action == 6 and state.chosen:
        label = f"Wild: {ACTIONS[state.chosen]}"
    paste_die(image, (x + 4, y), 46, str(state.action))
    text(image, (x + 60, y + 12), label, size=19)
    if state.aim_die:
        paste_die(image, (x + 150, y), 46, str(state.aim_die))
        text(image, (x + 173, y + 50), "Aim die", size=14, anchor="ma")
        if state.aim_left and state.action_turn == state.turn and state.phase != OVER:
            steps = f"{state.aim_left} step{'s' if state.aim_left > 1 else ''} left"
            text(image, (x + 60, y + 36), steps, size=14, fill=DIM)
    return y + 70


def _previous(state: CombatState) -> int:
    """The seat whose turn came just before the current one."""
    order = [seat for seat in turn_order(state.players) if seat not in state.out or seat == state.current]
    k = order.index(state.current)
    return order[k - 1]


def _draw_fight(image: Image.Image, fight: Fight, state: CombatState, x: int, y: int) -> int:
    att, dfn = RULES.seat_name(state, fight.attacker), RULES.seat_name(state, fight.defender)
    text(image, (x, y), f"Combat · turn {fight.turn}", size=17, fill=MARK)
    y += 22
    text(image, (x, y), f"{att} {square_name(fight.att_sq)} ({fight.att_pips}) attacks", size=15)
    y += 19
    text(image, (x, y), f"{dfn} {square_name(fight.def_sq)} ({fight.def_pips})", size=15)
    y += 21
    for a, d in fight.first[-3:]:
        line = f"{a}+{fight.att_pips}={a + fight.att_pips}  v  {d}+{fight.def_pips}={d + fight.def_pips}"
        text(image, (x, y), line, size=15)
        y += 19
    if fight.counter:
        (a1, d1), (a2, d2) = fight.first[-1], fight.counter[0]
        total_a = a1 + a2 + 2 * fight.att_pips
        total_d = d1 + d2 + 2 * fight.def_pips
        text(image, (x, y), f"counter: {total_a}  v  {total_d}", size=15)
        y += 19
    for a, d in fight.bare[-2:]:
        text(image, (x, y), f"bare dice: {a}  v  {d}", size=15)
        y += 19
    if fight.winner >= 0:
        text(image, (x, y), f"{RULES.seat_name(state, fight.winner)} wins", size=17, fill=HIGHLIGHT)
    elif state.phase == COUNTER:
        text(image, (x, y), f"{dfn} may counter attack", size=15, fill=HIGHLIGHT)
    else:
        text(image, (x, y), "dice to roll", size=15, fill=HIGHLIGHT)
    return y + 24


def _draw_hop(image: Image.Image, hop: HopTry, state: CombatState, x: int, y: int) -> int:
    text(image, (x, y), f"Hop · turn {hop.turn}", size=17, fill=HIGHLIGHT)
    y += 22
    hopper, other = RULES.seat_name(state, hop.hopper), RULES.seat_name(state, hop.opponent)
    text(image, (x, y), f"{hopper} {square_name(hop.frm)} onto {other} {square_name(hop.to)}", size=15)
    y += 19
    for a, d in hop.rolls[-3:]:
        text(image, (x, y), f"{hopper} {a}  v  {other} {d}", size=15)
        y += 19
    outcome = {None: "dice to roll", True: "the hop holds", False: "repelled"}[hop.success]
    text(image, (x, y), outcome, size=15, fill=HIGHLIGHT)
    return y + 24


def _draw_legend(image: Image.Image, y: int) -> None:
    draw = ImageDraw.Draw(image)
    x = PX + 6
    fill = COLOURS["R"]
    draw.polygon([(x + 1, y + 18), (x + 15, y + 18), (x + 8, y + 2)], fill=fill, outline=MARK, width=3)
    text(image, (x + 24, y), "red-edged pyramid: pinned", size=14, fill=DIM)
    y += 21
    draw.rectangle((x, y + 2, x + 16, y + 18), outline=MARK, width=3)
    text(image, (x + 24, y), "red frame: combat", size=14, fill=DIM)
    y += 21
    draw.rectangle((x, y + 2, x + 16, y + 18), outline=LAST, width=3)
    text(image, (x + 24, y), "white frame: last move", size=14, fill=DIM)
    y += 21
    fill = COLOURS["K"]
    draw.polygon([(x, y + 18), (x + 16, y + 18), (x + 8, y + 2)], fill=fill, outline=outline_for(fill))
    text(image, (x + 24, y), "black cap: capped tree", size=14, fill=DIM)
