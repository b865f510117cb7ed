"""The Martian Assassination Game renderer: format, size, determinism and key pixels."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

from games.assassin import RULES, SAFE, SEAT_COLOURS, Phase, Roll, State
from games.playout import playout
from renderers import layout_for
from renderers.assassin import HEADER, LEFT, SAFEHOUSE, WIDTH, _box, _cell, piece_place, render, square_centre
from renderers.layout import MIN_PHONE_TEXT
from renderers.pyramids import COLOURS, HIGHLIGHT, LAST_INNER, MARK, OUTLINE_PX, TEXT, TEXT_SHADOW

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = ["alice", "bob", "a_rather_long_display_name", "dan", "eve", "frank", "gina", "hal", "ivy"]


def sq(name: str, size: int = 10) -> int:
    return (int(name[1:]) - 1) * size + "abcdefghijkl".index(name[0])


def position(**changes) -> State:
    """Four players, Red (seat 0) the victim on c3, the others in three corners; Red to roll."""
    base = State(
        players=4,
        size=10,
        short_game=False,
        limit=200,
        victim=0,
        positions=(sq("c3"), sq("a1"), sq("j10"), sq("j1")),
        markers=((), (), (), ()),
        captures=(0, 0, 0, 0),
        turn=0,
        anchor=3,
        phase=Phase.ROLL,
        die=None,
        victim_turns=0,
    )
    return dataclasses.replace(base, **changes)


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def at(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    pixel = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(pixel, tuple) and len(pixel) == 3, pixel
    return pixel


def close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 12) -> bool:
    """Colours equal up to the small shifts of palette mapping."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def sample_states() -> list[State]:
    states = []
    for players, options, seed in ((3, {}, 1), (6, {}, 2), (9, {"board": 12}, 3), (4, {"short_game": True}, 4)):
        game = list(playout(RULES, players, options, seed=seed))
        states += [game[0], game[len(game) // 3], game[len(game) // 2 + 1], game[-1]]
    return states


@pytest.mark.parametrize("state", sample_states())
def test_png_signature_dimensions_and_size(state):
    png = render(state, names=NAMES[: state.players])
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) < 200 * 1024
    width, height = pixels(png).size
    assert width == WIDTH and 700 <= height <= 1500  # a phone portrait


def test_same_state_gives_same_bytes():
    state = list(playout(RULES, 5, {}, seed=9))[120]
    assert render(state) == render(state)
    assert render(state, names=NAMES[:5]) == render(state, names=NAMES[:5])


def test_victim_carries_the_crosshair():
    image = pixels(render(position()))
    x, y = square_centre(10, sq("c3"))
    tick = _cell(10) / 2 - 4  # the ticks reach out to near the square's edge
    assert close(at(image, (x + tick, y)), MARK)
    # an assassin carries no crosshair
    ax, ay = square_centre(10, sq("j10"))
    assert not close(at(image, (ax + tick, ay)), MARK)


@pytest.mark.parametrize(("size", "name"), [(10, "i1"), (10, "c3"), (10, "j5"), (12, "a12"), (12, "e5")])
def test_the_victims_crosshair_stays_inside_its_square(size, name):
    """The pink crosshair, ring and ticks, is drawn inside the victim's square: it never crosses the board's
    thick edge on an edge square, nor reaches into a neighbouring square."""
    others = [square for square in (sq("b1", size), sq("j10", size), sq("j1", size)) if square != sq(name, size)]
    image = pixels(render(position(size=size, positions=(sq(name, size), *others[:3]))))
    cx, cy = square_centre(size, sq(name, size))
    half = _cell(size) / 2
    inside, outside = 0, 0
    for x in range(round(cx - half) - 10, round(cx + half) + 11):
        for y in range(round(cy - half) - 10, round(cy + half) + 11):
            if close(at(image, (x, y)), MARK, 20):
                if abs(x - cx) < half and abs(y - cy) < half:
                    inside += 1
                else:
                    outside += 1
    assert inside > 100 and outside == 0


def test_empty_safehouse_is_drawn_dark_and_the_victim_shows_inside_it():
    empty = pixels(render(position()))
    x, y = square_centre(10, SAFE)
    assert close(at(empty, (x + 40, y + 20)), SAFEHOUSE)
    inside = pixels(render(position(positions=(SAFE, sq("a1"), sq("j10"), sq("j1")))))
    assert close(at(inside, (x, y + 10)), COLOURS[SEAT_COLOURS[0]])


def test_last_path_is_highlighted():
    state = RULES.apply(position(), Roll(2))
    moved = RULES.apply(state, RULES.parse_move(state, "c5"))
    image = pixels(render(moved))
    (x0, y0), (x1, y1) = square_centre(10, sq("c3")), square_centre(10, sq("c4"))
    assert close(at(image, ((x0 + x1) / 2, (y0 + y1) / 2)), LAST_INNER)  # white inside a black edge


def test_reachable_squares_are_dotted_after_a_roll():
    rolled = RULES.apply(position(), Roll(1))
    image = pixels(render(rolled))
    for name in ("c2", "c4", "b3", "d3"):
        assert close(at(image, square_centre(10, sq(name))), HIGHLIGHT)
    assert not close(at(image, square_centre(10, sq("e3"))), HIGHLIGHT)


def test_bases_marked_by_the_victim_are_ringed_in_its_colour():
    state = position(markers=((sq("e1"),), (), (), ()))
    image = pixels(render(state))
    x, y = square_centre(10, sq("e1"))
    radius = _cell(10) * 0.3 + 3
    assert close(at(image, (x - radius + 1.5, y)), COLOURS[SEAT_COLOURS[0]])
    jx, jy = square_centre(10, sq("j5"))
    assert not close(at(image, (jx - radius + 1.5, jy)), COLOURS[SEAT_COLOURS[0]])


def _mint_pixels(image: Image.Image, square: int, reach: float) -> list[tuple[int, int]]:
    """The mint pixels within ``reach`` of the centre of ``square``."""
    cx, cy = square_centre(10, square)
    r = round(reach)
    return [
        (x, y)
        for x in range(round(cx) - r, round(cx) + r + 1)
        for y in range(round(cy) - r, round(cy) + r + 1)
        if (x - cx) ** 2 + (y - cy) ** 2 <= reach**2 and close(at(image, (x, y)), HIGHLIGHT)
    ]


def test_a_capture_rings_the_victim_and_leaves_it_in_sight():
    """The square of a capture is not dotted over the victim: the victim is ringed in mint instead."""
    rolled = RULES.apply(position(turn=1, anchor=0, positions=(sq("c3"), sq("c1"), sq("j10"), sq("j1"))), Roll(2))
    assert sq("c3") in rolled.reachable  # Blue may capture Red on c3
    image = pixels(render(rolled))
    cell = _cell(10)
    assert not _mint_pixels(image, sq("c3"), cell * 0.3)  # nothing mint over the victim's piece
    cx, cy = square_centre(10, sq("c3"))
    piece_x = piece_place(10, sq("c3"), 0)[0]  # the pyramid stands left of its letter
    assert close(at(image, (piece_x, cy + cell * 0.2)), COLOURS[SEAT_COLOURS[0]], 30)  # the red pyramid shows
    ring = _mint_pixels(image, sq("c3"), cell * 0.75)
    assert len(ring) > 300  # a ring round it, far more than a dot
    assert min((x - cx) ** 2 + (y - cy) ** 2 for x, y in ring) ** 0.5 > cell * 0.44  # outside the crosshair
    dotted = [square for square in rolled.reachable if square != sq("c3")]
    assert dotted and all(close(at(image, square_centre(10, square)), HIGHLIGHT) for square in dotted)
    texts = layout_for("assassin", rolled).joined_text()
    assert "capture on c3" in texts
    # the victim to move: no ring
    assert not _mint_pixels(pixels(render(position())), sq("c3"), cell * 0.75)


def _overlapping(texts) -> list[tuple[str, str]]:
    """Pairs of drawn texts whose boxes overlap by more than a pixel each way."""
    pairs = []
    for k, a in enumerate(texts):
        for b in texts[k + 1 :]:
            dx = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
            dy = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
            if dx > 1 and dy > 1:
                pairs.append((a.text, b.text))
    return pairs


def test_a_finish_at_the_turn_limit_names_its_winner_and_why():
    # a ranked finish (docs/rules/assassin.md): the most bases held wins, "drawn" only when all share first
    state = position(
        phase=Phase.OVER, end="limit", victim_turns=200, markers=((), (sq("a6"),), (), ()), captures=(1, 0, 2, 0)
    )
    drawn = layout_for("assassin", state, names=NAMES[:4])
    header = [t.text for t in drawn.texts if t.box[1] < 70]
    assert "bob (Blue) wins at the turn limit" in header
    assert any("most bases held, then captures (1 base, 0 captures)" in line for line in header)
    assert "drawn" not in drawn.joined_text()
    level = dataclasses.replace(state, markers=((), (), (), ()), captures=(0, 0, 0, 0))
    assert "Game over: drawn at the turn limit" in layout_for("assassin", level, names=NAMES[:4]).joined_text()


def test_a_long_winners_name_is_cut_but_not_what_they_won():
    state = position(phase=Phase.OVER, end="limit", victim_turns=200, markers=((), (sq("a6"),), (), ()))
    names = ["alice", "Bartholomew Featherstonehaugh-Smythe", "carol", "dan"]
    title = layout_for("assassin", state, names=names).texts_in((0, 0, WIDTH, 40))
    assert any(t.text.endswith("(Blue) wins at the turn limit") and "…" in t.text for t in title)


def test_the_place_note_never_overlaps_a_players_name():
    state = position(phase=Phase.OVER, end="limit", victim_turns=200, captures=(2, 12, 3, 1))
    names = ["Normal bot 2", "Bartholomew Featherstonehaugh-Sm", "WWWWWWWWWWWWWWWWWWWW", "Hard bot 3"]
    drawn = layout_for("assassin", state, names=names)
    panel = [t for t in drawn.texts if t.box[1] > 700]
    assert any("place" in t.text for t in panel)
    assert _overlapping(panel) == []


def test_a_resignation_says_who_left():
    state = RULES.resign(position(), 0)  # the victim leaves: the next seat becomes the victim
    assert "alice left the game" in layout_for("assassin", state, names=NAMES[:4]).joined_text()


@pytest.mark.parametrize("size, players", [(10, 4), (12, 7)])
def test_the_victims_mark_in_the_safehouse_leaves_its_words_clear(size, players):
    state = RULES.new_game(players, {"board": size} if size == 12 else {}, random.Random(1))
    assert state.positions[state.victim] == SAFE
    image = pixels(render(state))
    words = [t for t in layout_for("assassin", state).texts if t.text in ("SAFE", "HOUSE")]
    assert len(words) == 2
    for word in words:
        left, top, right, bottom = (round(v) for v in word.box)
        marked = [
            (x, y) for x in range(left, right) for y in range(top - 1, bottom + 2) if close(at(image, (x, y)), MARK)
        ]
        assert marked == [], word.text


# Discord display names are at most 32 characters.
LONG_NAMES = [
    "Christopher Columbus Junior III",
    "Maximilian_the_Magnificent_2000",
    "Alexandria Ocasio Smithsonian",
    "Bartholomew Feathersby-Wolfgang",
    "Guinevere Pendragon of Camelot",
    "Anastasia Romanova Nikolaevna",
    "Sir Lancelot du Lac the Brave",
    "Wilhelmina Montgomery-Whitmore",
    "Persephone Underworld Queen",
]


def test_a_shared_win_at_the_turn_limit_says_share_the_win_however_long_the_names():
    # 9 players, seed 3: the game ends at the turn limit with three players sharing first place
    final = list(playout(RULES, 9, {}, seed=3))[-1]
    assert final.phase == "over" and final.end == "limit"
    texts = [t.text for t in layout_for("assassin", final, names=LONG_NAMES).texts]
    header = [t for t in texts if t.endswith(" share the win")]
    assert header and "…" in header[0] and ", " in header[0] and " and " in header[0], texts[:3]


def test_a_name_is_shown_whole_when_the_line_has_room():
    states = list(playout(RULES, 3, {}, seed=7))
    state = next(s for s in states if s.last.roll is not None and s.phase != "roll")
    names = ["Seat 1 (random)", "Seat 2 (random)", "Seat 3 (random)"]
    texts = [t.text for t in layout_for("assassin", state, names=names).texts]
    assert f"{names[state.last.seat or 0]} rolled" in " ".join(texts), [t for t in texts if "rolled" in t]
    assert not any("…" in t or "." in t for t in texts if "random" in t)


def test_a_long_name_in_the_die_line_is_cut_with_an_ellipsis_and_keeps_the_roll():
    states = list(playout(RULES, 3, {}, seed=7))
    state = next(s for s in states if s.last.roll is not None and s.phase != "roll")
    texts = [t.text for t in layout_for("assassin", state, names=["W" * 32] * 3).texts]
    rolled = [t for t in texts if " rolled " in t]
    assert rolled and "…" in rolled[0] and not rolled[0].endswith("…"), rolled


# ---------------------------------------------------------------- colour letters
# Nine seat colours cannot all be told apart by hue: with some colour vision red, green and orange look
# alike (deuteranopia), or blue, cyan and green (tritanopia).  Each piece carries its seat's letter.


def _board_area(size: int) -> tuple[float, float, float, float]:
    cell = _cell(size)
    return LEFT, HEADER, LEFT + size * cell, HEADER + size * cell


def _room(size: int, square: int) -> tuple[float, float, float, float]:
    """Where a piece's letter must stay: its square, or the safehouse inside its frame."""
    if square != SAFE:
        return _box(size, square)
    cx, cy = square_centre(size, SAFE)
    cell = _cell(size)
    return cx - cell + 4, cy - cell + 4, cx + cell - 4, cy + cell - 4


def _check_letters(state: State) -> int:
    """Each piece's letter on its square, large, whole inside it, and no two texts on the board overlapping."""
    drawn = layout_for("assassin", state, names=NAMES[: state.players])
    checked = 0
    for seat, square in enumerate(state.positions):
        if square is None:
            continue
        letter = SEAT_COLOURS[seat]
        on_square = [t for t in drawn.texts_in(_box(state.size, square)) if t.text == letter]
        assert len(on_square) == 1, (letter, state.board.name(square), drawn.texts_in(_box(state.size, square)))
        mark = on_square[0]
        assert drawn.phone_px(mark.px) >= MIN_PHONE_TEXT
        left, top, right, bottom = _room(state.size, square)
        pad = OUTLINE_PX  # the letter's dark outline stays inside too
        assert left <= mark.box[0] - pad and mark.box[2] + pad <= right, (letter, mark.box, (left, right))
        assert top <= mark.box[1] - pad and mark.box[3] + pad <= bottom, (letter, mark.box, (top, bottom))
        assert [p.code for p in drawn.pieces if p.square == state.board.name(square)] == [letter]
        checked += 1
    assert _overlapping(drawn.texts_in(_board_area(state.size))) == []
    return checked


@pytest.mark.parametrize("size", [10, 12])
def test_every_piece_carries_its_colour_letter_on_its_square(size):
    checked = 0
    for seed in (3, 5):
        game = list(playout(RULES, 9, {"board": size} if size == 12 else {}, seed=seed))
        for state in [*game[:: max(1, len(game) // 40)], game[-1]]:
            checked += _check_letters(state)
    assert checked > 500


@pytest.mark.parametrize("size", [10, 12])
def test_letters_of_adjacent_pieces_and_of_a_victim_on_a_marked_base_stay_apart(size):
    """Nine pieces packed round a base, the victim (White, the widest letter) on it with every marker."""
    start = RULES.new_game(9, {"board": size} if size == 12 else {}, random.Random(1))
    base = start.board.bases[0]
    file, rank = base % size, base // size
    block = [
        (rank + dr) * size + file + df
        for dr in (0, 1, 2)
        for df in (-1, 0, 1)
        if 0 <= file + df < size and 0 <= rank + dr < size
    ]
    block.remove(base)
    for victim in (8, 3):  # W and G
        others = [seat for seat in range(9) if seat != victim]
        positions = [0] * 9
        positions[victim] = base
        for seat, square in zip(others, block, strict=True):
            positions[seat] = square
        state = dataclasses.replace(
            start, victim=victim, positions=tuple(positions), markers=tuple((base,) for _ in range(9)), turn=victim
        )
        assert _check_letters(state) == 9
        image = pixels(render(state))
        drawn = layout_for("assassin", state)
        for seat in range(9):
            mark = next(t for t in drawn.texts_in(_box(size, positions[seat])) if t.text == SEAT_COLOURS[seat])
            x0, y0, x1, y1 = (round(v) for v in mark.box)
            ink = [at(image, (x, y)) for x in range(x0, x1) for y in range(y0, y1)]
            assert sum(close(p, TEXT, 20) for p in ink) >= 12, SEAT_COLOURS[seat]  # white letter drawn there
            assert sum(close(p, TEXT_SHADOW, 20) for p in ink) >= 12, SEAT_COLOURS[seat]  # with its dark outline


@pytest.mark.parametrize("size", [10, 12])
def test_the_victims_letter_shows_in_the_safehouse(size):
    state = RULES.new_game(9 if size == 12 else 4, {"board": size} if size == 12 else {}, random.Random(1))
    assert state.positions[state.victim] == SAFE
    _check_letters(state)
    words = [t for t in layout_for("assassin", state).texts if t.text in ("SAFE", "HOUSE")]
    mark = next(t for t in layout_for("assassin", state).texts if t.text == SEAT_COLOURS[state.victim])
    assert all(_overlapping([word, mark]) == [] for word in words)


def test_each_player_row_shows_the_seat_letter_beside_its_pyramid():
    state = RULES.new_game(9, {}, random.Random(2))
    drawn = layout_for("assassin", state, names=LONG_NAMES)
    panel = [t for t in drawn.texts if t.box[1] > _board_area(10)[3] + 40]
    letters = [t.text for t in panel if len(t.text) == 1 and t.text in SEAT_COLOURS]
    assert letters == list(SEAT_COLOURS)
    assert all(drawn.phone_px(t.px) >= MIN_PHONE_TEXT for t in panel)
    assert _overlapping(panel) == []
