"""Leaderboard, tournament standings and elimination bracket pictures (PNG bytes, pure Pillow).

The inputs are read by attribute only, so this module needs nothing from ``bot`` (layers import one
way): any object with the attributes listed in each function will do, e.g. the rows of
``bot.tournaments.standings`` and the ``Bracket`` of ``bot.tournaments.pairings``.

Drawn phone first, like the boards (docs/boards.md): ``WIDTH`` (560) pixels wide, the boards' width,
with no text under ``MIN_PX`` (17 px, 12 px on a phone that shows the picture 400 px wide), in the
shared style of ``renderers.pyramids``: the mid-tone background, outlined text, the top three marked
with a large, medium and small pyramid.  A table row takes two lines (the name and the main figure,
then the other figures under their column labels), so the name keeps most of the width; a bracket
is a list of its rounds, one match per box, and grows taller rather than wider.  The bundled font
covers basic Latin only, so names are reduced to characters it can draw (accents and direction
marks dropped, other scripts and emoji left out; a name with nothing left shows as "?").
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from renderers.layout import MIN_PHONE_TEXT, PHONE_WIDTH
from renderers.pyramids import (
    GRID_LINE,
    HIGHLIGHT,
    PANEL,
    TEXT,
    clean_name,
    draw_pyramid_side,
    fit_name,
    fit_names,
    fit_text,
    new_canvas,
    png_bytes,
    text,
    text_width,
    wrap_text,
)

__all__ = ["LeaderboardRow", "clean_name", "format_number", "render_bracket", "render_leaderboard", "render_standings"]

WIDTH = 560  # the boards' width (renderers.combat.WIDTH and the others): phone first
MIN_PX = math.ceil(MIN_PHONE_TEXT * WIDTH / PHONE_WIDTH)  # 17: 12 px on a phone
MARGIN = 14
TITLE_PX = 28
SUBTITLE_PX = 19
LABEL_PX = MIN_PX  # column labels, round names
DIM: tuple[int, int, int] = (0xC4, 0xC8, 0xCF)
BEATEN: tuple[int, int, int] = (0xA4, 0xA9, 0xB2)  # a player knocked out, in the bracket
ROW_ALT: tuple[int, int, int] = (0x76, 0x7C, 0x87)
PODIUM = ("Y", "W", "O")  # pyramid colours for places 1-3 (gold, silver, bronze-ish)
MAX_LEADERBOARD = 20
HEADER_EVERY = 10  # a long table repeats its column labels before every tenth row


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


MARKED = re.compile(r"(.+?)( \([^()]*\))")  # a name with what is said about it: `alice (withdrew)`


def fit_marked(name: str, size: int, width: float) -> str:
    """``name`` in ``width`` pixels; a mark after it in brackets, such as ``(withdrew)``, stays whole and
    only the name is shortened (docs/boards.md: names shortened, never what is said about them)."""
    found = MARKED.fullmatch(name)
    if found is None:
        return fit_text(name, size, width)
    return fit_name("", found.group(1), found.group(2), size, width)


def _rating_value(rating: Any) -> float:
    return float(getattr(rating, "ordinal", rating))


DASHES = str.maketrans({"\u2014": "-", "\u2013": "-"})  # the font has no dashes: `Combat — leaderboard`


def _plain(words: str | None) -> str:
    """A title as the font can draw it, its dashes as hyphens rather than left out."""
    return clean_name(str(words).translate(DASHES))


def _title_lines(title: str, subtitle: str | None) -> tuple[list[str], list[str]]:
    """The title in up to two lines of ``TITLE_PX`` and the subtitle in up to two of ``SUBTITLE_PX``."""
    room = WIDTH - 2 * MARGIN
    heading = wrap_text(_plain(title), TITLE_PX, room, 2)
    below = wrap_text(_plain(subtitle), SUBTITLE_PX, room, 2) if subtitle else []
    return heading, below


def _title_height(lines: tuple[list[str], list[str]]) -> int:
    heading, below = lines
    return 14 + len(heading) * (TITLE_PX + 8) + len(below) * (SUBTITLE_PX + 7) + 8


def _title(draw: ImageDraw.ImageDraw, lines: tuple[list[str], list[str]]) -> int:
    """Draw the title lines; returns the y under them."""
    heading, below = lines
    y = 14
    for line in heading:
        text(draw, (MARGIN, y), line, size=TITLE_PX)
        y += TITLE_PX + 8
    for line in below:
        text(draw, (MARGIN, y), line, size=SUBTITLE_PX, fill=DIM)
        y += SUBTITLE_PX + 7
    return y + 8


def _podium(draw: ImageDraw.ImageDraw, place: int, centre_x: float, base_y: float, scale: float) -> None:
    if 1 <= place <= 3:
        draw_pyramid_side(draw, centre_x, base_y, 4 - place, PODIUM[place - 1], scale)


# --------------------------------------------------------------------------------------------
# tables: two lines a row


@dataclass(frozen=True)
class _Row:
    place: int  # 1-3 get a podium pyramid
    rank: str
    name: str
    main: str  # points or rating, right of the name
    details: tuple[str, ...]  # the other figures, on the second line


PLACE_RIGHT = MARGIN + 34  # the place number's right edge
PODIUM_X = MARGIN + 53  # the podium pyramid's centre
NAME_X = MARGIN + 72
MAIN_RIGHT = WIDTH - MARGIN - 10


def _detail_rights(count: int, end: float) -> list[float]:
    """Right edges of the second line's ``count`` columns, from under the name to ``end``."""
    step = min(120.0, (end - NAME_X) / max(1, count))
    return [end - (count - 1 - k) * step for k in range(count)]


def _table(
    title: str,
    subtitle: str | None,
    main_label: str,
    detail_labels: Sequence[str],
    rows: Sequence[_Row],
    empty: str,
) -> bytes:
    """A titled table of two-line ``rows``: the place, a podium pyramid, the name over the other figures,
    and the main figure (points, rating) at the right across both lines."""
    count = len(rows)
    name_px, detail_px = (22, 18) if count <= 20 else (20, MIN_PX)
    main_px = name_px + 4
    line1, line2 = name_px + 9, detail_px + 8
    row_h = line1 + line2 + 6
    header_h = 2 * (LABEL_PX + 6) + 6
    repeats = (count - 1) // HEADER_EVERY if count > HEADER_EVERY + 2 else 0
    heading = _title_lines(title, subtitle)
    top = _title_height(heading)
    height = top + header_h + max(1, count) * row_h + repeats * header_h + MARGIN
    image, draw = new_canvas(WIDTH, height)
    _title(draw, heading)
    main_w = max([text_width(row.main, main_px) for row in rows] + [text_width(main_label, LABEL_PX)])
    main_left = MAIN_RIGHT - main_w
    name_w = main_left - 16 - NAME_X
    rights = _detail_rights(len(detail_labels), main_left - 28)

    def header(y: float) -> float:
        """The column labels on two lines, as the rows set their figures; returns the y under them."""
        base = y + LABEL_PX + 2
        text(draw, (PLACE_RIGHT, base), "#", size=LABEL_PX, fill=DIM, anchor="rs")
        text(draw, (NAME_X, base), "Player", size=LABEL_PX, fill=DIM, anchor="ls")
        text(draw, (MAIN_RIGHT, y + (header_h - 6) / 2), main_label, size=LABEL_PX, fill=DIM, anchor="rm")
        for label, right in zip(detail_labels, rights, strict=True):
            text(draw, (right, base + LABEL_PX + 6), label, size=LABEL_PX, fill=DIM, anchor="rs")
        y += header_h
        draw.line([(MARGIN, y - 3), (WIDTH - MARGIN, y - 3)], fill=GRID_LINE, width=2)
        return y

    y: float = header(top)
    if not rows:
        text(draw, (WIDTH / 2, y + row_h / 2), empty, size=name_px, fill=DIM, anchor="mm")
    for index, row in enumerate(rows):
        if index and repeats and index % HEADER_EVERY == 0:
            y = header(y)
        if index % 2 == 0:
            draw.rectangle([MARGIN, y, WIDTH - MARGIN, y + row_h - 1], fill=ROW_ALT)
        mid1 = y + 3 + line1 / 2
        mid2 = y + 3 + line1 + line2 / 2 - 2
        _podium(draw, row.place, PODIUM_X, y + row_h - 6, (row_h - 14) / 1.75)
        text(draw, (PLACE_RIGHT, mid1), row.rank, size=name_px, anchor="rm")
        text(draw, (NAME_X, mid1), fit_marked(row.name, name_px, name_w), size=name_px, anchor="lm")
        text(draw, (MAIN_RIGHT, y + row_h / 2), row.main, size=main_px, anchor="rm")
        for value, right in zip(row.details, rights, strict=True):
            text(draw, (right, mid2), value, size=detail_px, anchor="rm")
        y += row_h
    return png_bytes(image)


# --------------------------------------------------------------------------------------------
# leaderboard


def render_leaderboard(rows: Sequence[Any], title: str = "Leaderboard", subtitle: str | None = None) -> bytes:
    """The top 20 of a leaderboard: rank, name and rating (the ordinal); games and wins under them.

    Each row needs ``rank``, ``name``, ``rating`` (a number, or an object with ``ordinal`` such as
    ``bot.rating_model.Rating``), ``games`` and ``wins``.  Rows are drawn in the order given.
    """
    lines = [
        _Row(
            int(row.rank),
            str(row.rank),
            clean_name(row.name),
            str(round(_rating_value(row.rating))),
            (str(row.games), str(row.wins)),
        )
        for row in list(rows)[:MAX_LEADERBOARD]
    ]
    return _table(title, subtitle, "Rating", ("Games", "Wins"), lines, "No rated games yet.")


# --------------------------------------------------------------------------------------------
# standings

SHORT_TIEBREAKS = {"Buchholz cut-1": "Buch. c1", "Sonneborn-Berger": "S-B", "Head-to-head": "H2H"}


def render_standings(
    rows: Sequence[Any],
    title: str,
    names: Mapping[Any, str] | None = None,
    subtitle: str | None = None,
) -> bytes:
    """Tournament standings: place, name and points; games and the format's tiebreaks under them.

    Each row needs ``place``, ``player``, ``points``, ``games`` and ``tiebreaks`` (a sequence of
    (label, value) pairs, as ``bot.tournaments.standings.StandingRow`` gives); ``names`` maps players to
    display names (default ``str(player)``).  Players sharing a place show the same number.
    """
    names = names or {}
    rows = list(rows)
    labels = [SHORT_TIEBREAKS.get(label, label) for label, _ in rows[0].tiebreaks] if rows else []
    lines = [
        _Row(
            int(row.place),
            str(row.place),
            clean_name(names.get(row.player, str(row.player))),
            format_number(row.points),
            (str(row.games), *(format_number(value) for _, value in row.tiebreaks)),
        )
        for row in rows
    ]
    return _table(title, subtitle, "Points", ("Games", *labels), lines, "No players yet.")


# --------------------------------------------------------------------------------------------
# bracket: the rounds one under the other, a box per match

BRACKET_PX = 20  # names in the bracket
BRACKET_LINE = 29  # a player's line in a match box
SEED_RIGHT = 36  # from a box's left edge: the seed's right edge
SEED_GAP = 8  # between the seed and the name
MATCH_GAP = 8  # between two match boxes
ROUND_HEAD = LABEL_PX + 22  # a round's heading, above its matches
BYE_LINE = LABEL_PX + 10
CHAMPION_H = 64


def _round_label(bracket: Any, number: int, total: int) -> str:
    namer = getattr(bracket, "round_name", None)
    if callable(namer):
        return str(namer(number))
    return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(total - number, f"Round {number}")


def _seed_ranges(seeds: Sequence[int]) -> str:
    """``1 to 3, 5 and 7``: the seeds in order, a run of three or more as a range."""
    runs: list[list[int]] = []
    for seed in sorted(seeds):
        if runs and seed == runs[-1][-1] + 1:
            runs[-1].append(seed)
        else:
            runs.append([seed])
    parts: list[str] = []
    for run in runs:
        parts += [f"{run[0]} to {run[-1]}"] if len(run) >= 3 else [str(seed) for seed in run]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def render_bracket(bracket: Any, names: Mapping[Any, str] | None = None, title: str = "Bracket") -> bytes:
    """A single-elimination bracket: the champion, then each round's matches, winners highlighted.

    Each round is a heading and a box per match, in bracket order (the winners of a round's first two
    matches meet in the next round's first match); a player still to come is named by the match
    that decides them (``winner of 8 Ozymandias… vs 9 Theodora…``).  First-round byes are one line
    under that round (``Byes, through to Round 2: seeds 1 to 24``): those players are named, with
    their seeds, in the next round.  The picture's size follows the bracket's shape only.

    ``bracket.rounds`` is a sequence of rounds, each a sequence of matches with ``players`` (two,
    None for a bye or a player not known yet), ``seeds`` (likewise), ``winner`` and ``bye``, as
    ``bot.tournaments.pairings.Bracket`` gives; ``names`` maps players to display names.
    """
    names = names or {}
    rounds = [list(rnd) for rnd in bracket.rounds]
    total = len(rounds)
    heading = _title_lines(title, None)
    box_w = WIDTH - 2 * MARGIN
    match_h = 2 * BRACKET_LINE

    def shown(player: Any) -> str:
        return clean_name(names.get(player, str(player)))

    def played(rnd: list[Any]) -> list[Any]:
        return [m for m in rnd if not getattr(m, "bye", False)]

    def byes_line(r: int) -> list[str]:
        """Who went through round ``r`` by a bye, wrapped to the width: by seed, else by name."""
        through = [
            (p, s)
            for m in rounds[r]
            if getattr(m, "bye", False)
            for p, s in zip(m.players, getattr(m, "seeds", (None, None)), strict=True)
            if p is not None
        ]
        if not through:
            return []
        onward = _round_label(bracket, r + 2, total) if r + 1 < total else "the end"
        onward = onward if onward.startswith(("Round", "the ")) else f"the {onward}"
        if all(isinstance(s, int) for _, s in through):
            who = ("seed " if len(through) == 1 else "seeds ") + _seed_ranges([int(s) for _, s in through])
        else:
            who = ", ".join(shown(p) for p, _ in through)
        return wrap_text(f"Byes, through to {onward}: {who}", LABEL_PX, box_w, 6)

    byes = [byes_line(r) for r in range(total)]

    def round_height(r: int) -> float:
        height = ROUND_HEAD + len(played(rounds[r])) * (match_h + MATCH_GAP)
        return height + (len(byes[r]) * BYE_LINE + 6 if byes[r] else 0)

    top = _title_height(heading)
    height = top + (CHAMPION_H if rounds else 0) + sum(round_height(r) for r in range(total)) + MARGIN
    image, draw = new_canvas(WIDTH, math.ceil(height))
    y: float = _title(draw, heading)

    def seeded(seed: Any) -> str:
        return f"{seed} {{}}" if seed is not None else "{}"

    def to_come(r: int, slot: int, k: int) -> str:
        """Who fills player ``k`` of match ``slot`` in round ``r``: the winner of the match feeding it."""
        feeder = rounds[r - 1][2 * slot + k] if r and 2 * slot + k < len(rounds[r - 1]) else None
        if feeder is None or None in feeder.players:
            return "TBD"
        seeds = tuple(getattr(feeder, "seeds", (None, None)))
        template = "winner of " + " vs ".join(seeded(s) for s in seeds)
        return fit_names(template, tuple(shown(p) for p in feeder.players), BRACKET_PX, box_w - 24)

    # the champion first: what everyone looks for
    if rounds:
        champion = rounds[-1][0].winner
        draw_pyramid_side(draw, MARGIN + 20, y + CHAMPION_H - 8, 3, "Y", (CHAMPION_H - 12) / 1.75)
        text(draw, (MARGIN + 48, y + 4), "Champion", size=LABEL_PX, fill=DIM)
        if champion is not None:
            who = fit_marked(shown(champion), 24, box_w - 48)
            text(draw, (MARGIN + 48, y + LABEL_PX + 10), who, size=24, fill=HIGHLIGHT)
        else:
            text(draw, (MARGIN + 48, y + LABEL_PX + 10), "not decided yet", size=20, fill=DIM)
        y += CHAMPION_H

    for r, rnd in enumerate(rounds):
        label = _round_label(bracket, r + 1, total)
        base = y + ROUND_HEAD - 10
        text(draw, (MARGIN, base), label, size=LABEL_PX + 2, fill=DIM, anchor="ls")
        if label != f"Round {r + 1}":
            text(draw, (WIDTH - MARGIN, base), f"round {r + 1} of {total}", size=LABEL_PX, fill=DIM, anchor="rs")
        draw.line([(MARGIN, y + ROUND_HEAD - 4), (WIDTH - MARGIN, y + ROUND_HEAD - 4)], fill=GRID_LINE, width=2)
        y += ROUND_HEAD
        for slot, match in enumerate(rnd):
            if getattr(match, "bye", False):
                continue
            winner = match.winner
            draw.rectangle([MARGIN, y, MARGIN + box_w, y + match_h], fill=PANEL, outline=GRID_LINE, width=2)
            draw.line([(MARGIN, y + BRACKET_LINE), (MARGIN + box_w, y + BRACKET_LINE)], fill=GRID_LINE, width=1)
            seeds = tuple(getattr(match, "seeds", (None, None)))
            for k in range(2):
                player = match.players[k]
                mid = y + k * BRACKET_LINE + BRACKET_LINE / 2
                if player is None:
                    text(draw, (MARGIN + 12, mid), to_come(r, slot, k), size=BRACKET_PX, fill=DIM, anchor="lm")
                    continue
                won = winner is not None and player == winner
                colour = HIGHLIGHT if won else BEATEN if winner is not None else TEXT
                if won:
                    draw.rectangle(
                        [MARGIN + 3, mid - BRACKET_LINE / 2 + 4, MARGIN + 8, mid + BRACKET_LINE / 2 - 4], fill=HIGHLIGHT
                    )
                if seeds[k] is not None:
                    text(draw, (MARGIN + SEED_RIGHT, mid), str(seeds[k]), size=BRACKET_PX, fill=colour, anchor="rm")
                name_x = MARGIN + SEED_RIGHT + SEED_GAP
                name = fit_marked(shown(player), BRACKET_PX, MARGIN + box_w - 10 - name_x)
                text(draw, (name_x, mid), name, size=BRACKET_PX, fill=colour, anchor="lm")
            y += match_h + MATCH_GAP
        for line in byes[r]:
            text(draw, (MARGIN, y + BYE_LINE / 2), line, size=LABEL_PX, fill=DIM, anchor="lm")
            y += BYE_LINE
        y += 6 if byes[r] else 0
    return png_bytes(image)
