"""Leaderboard, tournament standings and elimination bracket pictures (PNG bytes, pure Pillow).

The inputs are read by attribute only, so this module needs nothing from ``bot`` (layers import one
way): any object with the attributes listed in each function will do, e.g. the rows of
``bot.tournaments.standings`` and the ``Bracket`` of ``bot.tournaments.pairings``.

Drawn in the shared style of ``renderers.pyramids``: the mid-tone background, outlined text, about
900 px wide, the top three marked with a large, medium and small pyramid.  The bundled font covers
basic Latin only, so names are reduced to characters it can draw (accents are dropped, other
scripts and emoji left out; a name with nothing left shows as "?").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from renderers.pyramids import (
    GRID_LINE,
    HIGHLIGHT,
    PANEL,
    TEXT,
    clean_name,
    draw_pyramid_side,
    fit_text,
    new_canvas,
    png_bytes,
    text,
)

__all__ = ["LeaderboardRow", "clean_name", "format_number", "render_bracket", "render_leaderboard", "render_standings"]

WIDTH = 900
MARGIN = 24
DIM: tuple[int, int, int] = (0xC4, 0xC8, 0xCF)
BEATEN: tuple[int, int, int] = (0xA4, 0xA9, 0xB2)  # a player knocked out, in the bracket
ROW_ALT: tuple[int, int, int] = (0x76, 0x7C, 0x87)
PODIUM = ("Y", "W", "O")  # pyramid colours for places 1-3 (gold, silver, bronze-ish)
MAX_LEADERBOARD = 20


@dataclass(frozen=True)
class LeaderboardRow:
    """One leaderboard line. ``rating`` is a number or anything with an ``ordinal`` attribute."""

    rank: int
    name: str
    rating: Any
    games: int
    wins: int


# --------------------------------------------------------------------------------------------
# text helpers


def format_number(value: float | None) -> str:
    """Whole numbers without decimals, others with up to two ("7", "2.5", "1.33"); None as "-"."""
    if value is None:
        return "-"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _rating_value(rating: Any) -> float:
    return float(getattr(rating, "ordinal", rating))


def _title(draw: ImageDraw.ImageDraw, title: str, subtitle: str | None) -> int:
    text(draw, (MARGIN, 18), fit_text(clean_name(title), 32, WIDTH - 2 * MARGIN, "…"), size=32)
    y = 62
    if subtitle:
        text(draw, (MARGIN, y), fit_text(clean_name(subtitle), 20, WIDTH - 2 * MARGIN, "…"), size=20, fill=DIM)
        y += 30
    return y + 6


def _podium(draw: ImageDraw.ImageDraw, place: int, centre_x: float, base_y: float, scale: float) -> None:
    if 1 <= place <= 3:
        draw_pyramid_side(draw, centre_x, base_y, 4 - place, PODIUM[place - 1], scale)


@dataclass(frozen=True)
class _Column:
    label: str
    x: float  # anchor x
    anchor: str  # "l" left or "r" right aligned


def _numeric_columns(labels: Sequence[str], step: float) -> list[_Column]:
    """Right-aligned number columns, ``step`` apart, ending at the right margin."""
    right = WIDTH - MARGIN - 16
    return [_Column(label, right - (len(labels) - 1 - i) * step, "r") for i, label in enumerate(labels)]


def _table(
    title: str,
    subtitle: str | None,
    columns: Sequence[_Column],
    lines: Sequence[tuple[int, Sequence[str]]],
    empty: str,
    name_width: float,
) -> bytes:
    """A titled table: ``lines`` of (place, cells); column 1 is the name (cut to ``name_width``)."""
    count = len(lines)
    row_h, size = (40, 24) if count <= 20 else (32, 20) if count <= 40 else (26, 17)
    header_y = 62 + (30 if subtitle else 0) + 6
    top = header_y + 34
    height = top + max(1, count) * row_h + MARGIN
    image, draw = new_canvas(WIDTH, height)
    _title(draw, title, subtitle)
    draw.line([(MARGIN, top - 4), (WIDTH - MARGIN, top - 4)], fill=GRID_LINE, width=2)
    for column in columns:
        anchor = "ls" if column.anchor == "l" else "rs"
        text(draw, (column.x, top - 12), column.label, size=17, fill=DIM, anchor=anchor)
    if not lines:
        text(draw, (WIDTH / 2, top + row_h / 2), empty, size=size, fill=DIM, anchor="mm")
    for index, (place, cells) in enumerate(lines):
        y = top + index * row_h
        if index % 2 == 0:
            draw.rectangle([MARGIN, y, WIDTH - MARGIN, y + row_h - 1], fill=ROW_ALT)
        mid = y + row_h / 2
        _podium(draw, place, MARGIN + 78, y + row_h - 4, (row_h - 7) / 1.75)
        for column, cell in zip(columns, cells, strict=True):
            value = fit_text(cell, size, name_width, "…") if column is columns[1] else cell
            anchor = "lm" if column.anchor == "l" else "rm"
            text(draw, (column.x, mid), value, size=size, fill=TEXT, anchor=anchor)
    return png_bytes(image)


# --------------------------------------------------------------------------------------------
# leaderboard


def render_leaderboard(rows: Sequence[Any], title: str = "Leaderboard", subtitle: str | None = None) -> bytes:
    """The top 20 of a leaderboard: rank, name, rating (the ordinal), games, wins.

    Each row needs ``rank``, ``name``, ``rating`` (a number, or an object with ``ordinal`` such as
    ``bot.rating_model.Rating``), ``games`` and ``wins``.  Rows are drawn in the order given.
    """
    columns = [_Column("#", MARGIN + 52, "r"), _Column("Player", MARGIN + 104, "l")]
    columns += _numeric_columns(("Rating", "Games", "Wins"), 130)
    lines = [
        (
            int(row.rank),
            (str(row.rank), clean_name(row.name), str(round(_rating_value(row.rating))), str(row.games), str(row.wins)),
        )
        for row in list(rows)[:MAX_LEADERBOARD]
    ]
    name_width = columns[2].x - columns[1].x - 110
    return _table(title, subtitle, columns, lines, "No rated games yet.", name_width)


# --------------------------------------------------------------------------------------------
# standings


def render_standings(
    rows: Sequence[Any],
    title: str,
    names: Mapping[Any, str] | None = None,
    subtitle: str | None = None,
) -> bytes:
    """Tournament standings with the format's tiebreak columns.

    Each row needs ``place``, ``player``, ``points``, ``games`` and ``tiebreaks`` (a sequence of
    (label, value) pairs, as ``bot.tournaments.standings.StandingRow`` gives); ``names`` maps players to
    display names (default ``str(player)``).  Players sharing a place show the same number.
    """
    names = names or {}
    rows = list(rows)
    labels = [label for label, _ in rows[0].tiebreaks] if rows else []
    short = {"Buchholz cut-1": "Buch. c1", "Sonneborn-Berger": "S-B", "Head-to-head": "H2H", "Buchholz": "Buchholz"}
    columns = [_Column("#", MARGIN + 52, "r"), _Column("Player", MARGIN + 104, "l")]
    columns += _numeric_columns(("Points", "Games", *(short.get(label, label) for label in labels)), 104)
    lines = []
    for row in rows:
        cells = [
            str(row.place),
            clean_name(names.get(row.player, str(row.player))),
            format_number(row.points),
            str(row.games),
        ]
        cells += [format_number(value) for _, value in row.tiebreaks]
        lines.append((int(row.place), cells))
    name_width = columns[2].x - columns[1].x - 80
    return _table(title, subtitle, columns, lines, "No players yet.", name_width)


# --------------------------------------------------------------------------------------------
# bracket


def _round_label(bracket: Any, number: int, total: int) -> str:
    namer = getattr(bracket, "round_name", None)
    if callable(namer):
        return str(namer(number))
    return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(total - number, f"Round {number}")


def render_bracket(bracket: Any, names: Mapping[Any, str] | None = None, title: str = "Bracket") -> bytes:
    """A single-elimination tree: rounds left to right, winners highlighted, the champion at the right.

    ``bracket.rounds`` is a sequence of rounds, each a sequence of matches with ``players`` (two,
    None for a bye or a player not known yet), ``seeds`` (likewise), ``winner`` and ``bye``, as
    ``bot.tournaments.pairings.Bracket`` gives; ``names`` maps players to display names.
    """
    names = names or {}
    rounds = [list(rnd) for rnd in bracket.rounds]
    total = len(rounds)
    first = len(rounds[0]) if rounds else 1
    line_h, size = (28, 18) if first <= 8 else (22, 15) if first <= 16 else (18, 13)
    box_h = 2 * line_h
    pitch = box_h + (22 if first <= 8 else 12)
    columns = total + 1
    width = WIDTH if columns <= 5 else min(1000, 160 * columns + 2 * MARGIN)
    gap = 26
    col_w = (width - 2 * MARGIN - (columns - 1) * gap) / columns
    top = 62 + 6 + 34
    height = top + first * pitch + MARGIN
    image, draw = new_canvas(int(width), int(height))
    text(draw, (MARGIN, 18), fit_text(clean_name(title), 32, width - 2 * MARGIN, "…"), size=32)

    def label(player: Any, seed: Any, bye: bool) -> str:
        if player is None:
            return "bye" if bye else "TBD"
        name = clean_name(names.get(player, str(player)))
        return f"{seed}  {name}" if seed is not None else name

    xs = [MARGIN + r * (col_w + gap) for r in range(columns)]
    centres: list[list[float]] = []
    for r, rnd in enumerate(rounds):
        if r == 0:
            centres.append([top + (slot + 0.5) * pitch for slot in range(len(rnd))])
        else:
            centres.append([(centres[r - 1][2 * s] + centres[r - 1][2 * s + 1]) / 2 for s in range(len(rnd))])

    # connectors: grey first, then the winners' paths in the highlight colour on top
    for lit in (False, True):
        for r in range(1, total):
            xm = xs[r] - gap / 2
            for slot, cy in enumerate(centres[r]):
                for feeder_slot in (2 * slot, 2 * slot + 1):
                    if (rounds[r - 1][feeder_slot].winner is not None) != lit:
                        continue
                    fy = centres[r - 1][feeder_slot]
                    draw.line(
                        [(xs[r - 1] + col_w, fy), (xm, fy), (xm, cy), (xs[r], cy)],
                        fill=HIGHLIGHT if lit else GRID_LINE,
                        width=3 if lit else 2,
                        joint="curve",
                    )

    for r, rnd in enumerate(rounds):
        x0 = xs[r]
        text(draw, (x0 + col_w / 2, top - 14), _round_label(bracket, r + 1, total), size=17, fill=DIM, anchor="ms")
        for slot, match in enumerate(rnd):
            cy = centres[r][slot]
            y0 = cy - line_h
            winner = match.winner
            bye = bool(getattr(match, "bye", False))
            draw.rectangle([x0, y0, x0 + col_w, y0 + box_h], fill=PANEL, outline=GRID_LINE, width=2)
            draw.line([(x0, cy), (x0 + col_w, cy)], fill=GRID_LINE, width=1)
            seeds = tuple(getattr(match, "seeds", (None, None)))
            for k in range(2):
                player = match.players[k]
                ly = y0 + k * line_h
                won = winner is not None and player is not None and player == winner
                lost = winner is not None and player is not None and player != winner
                if won and not bye:
                    draw.rectangle([x0 + 3, ly + 3, x0 + 7, ly + line_h - 3], fill=HIGHLIGHT)
                colour = HIGHLIGHT if won and not bye else BEATEN if lost else DIM if player is None else TEXT
                message = fit_text(label(player, seeds[k], bye), size, col_w - 18, "…")
                text(draw, (x0 + 12, ly + line_h / 2), message, size=size, fill=colour, anchor="lm")

    # the champion
    if rounds:
        champion = rounds[-1][0].winner
        xc = xs[total]
        cy = centres[-1][0]
        scale = min(56.0, col_w / 1.8)
        draw.line(
            [(xs[total - 1] + col_w, cy), (xc + col_w / 2 - scale * 0.6, cy)],
            fill=HIGHLIGHT if champion is not None else GRID_LINE,
            width=3 if champion is not None else 2,
        )
        draw_pyramid_side(draw, xc + col_w / 2, cy - 10, 3, "Y", scale)
        text(draw, (xc + col_w / 2, cy - 10 - scale * 1.75 - 10), "Champion", size=17, fill=DIM, anchor="ms")
        who = clean_name(names.get(champion, str(champion))) if champion is not None else "TBD"
        text(
            draw,
            (xc + col_w / 2, cy + 8),
            fit_text(who, 20, col_w, "…"),
            size=20,
            fill=HIGHLIGHT if champion is not None else DIM,
            anchor="ma",
        )
    return png_bytes(image)
