"""The Martian Combat board picture: format, size, determinism and the key marks a player relies on."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace

import pytest
from PIL import Image

from games.combat import COMBAT_ROLL, RULES, Fight, Roll, Step, square, stack_pips
from games.playout import playout
from renderers import layout_for
from renderers.combat import (
    BLOCKED,
    HATCH,
    HEADER,
    LAST,
    MIN_PX,
    SQ,
    STACK_X,
    WIDTH,
    _home_bar,
    render,
    square_box,
    turn_step,
)
from renderers.layout import TextBox
from renderers.pyramids import COLOURS, HIGHLIGHT, LAST_OUTER, MARK, TEXT, outline_for, shade, text_width
from tests.games.test_combat_rules import _put, play, position, sq

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _close(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _mid_game_states() -> list:
    states = []
    for variant, players, seed in (("standard", 2, 1), ("simple", 3, 2), ("advanced", 4, 3)):
        game = list(playout(RULES, players, {"variant": variant, "turn_limit": 40}, seed=seed))
        states += [*game[::25], game[-1]]
    return states


def test_png_signature_size_and_width():
    for state in _mid_game_states():
        data = render(state, names=["alice", "bob", "carol", "dave"][: state.players])
        assert data.startswith(PNG_SIGNATURE)
        assert len(data) < 200 * 1024
        width, height = _image(data).size
        assert width == WIDTH and height < 1400  # a phone-shaped portrait


def test_same_state_gives_the_same_bytes():
    state = _mid_game_states()[3]
    copy = RULES.from_json(RULES.to_json(state))
    assert render(state) == render(copy)
    assert render(state, names=["a", "b", "c"]) == render(state, names=["a", "b", "c"])


def test_blocked_squares_are_dark_and_hatched():
    image = _image(render(RULES.new_game(2, {}, random.Random(0))))
    for name in ("a1", "f6", "c3", "d4"):
        left, top, right, bottom = square_box(square(name))
        colours = {image.getpixel((x, (top + bottom) // 2)) for x in range(left + 4, right - 4, 3)}
        assert any(_close(c, BLOCKED) for c in colours) and any(_close(c, HATCH) for c in colours)


def test_home_squares_are_framed_and_barred_in_their_owners_colour():
    image = _image(render(RULES.new_game(4, {}, random.Random(0))))
    for name, letter in (("c6", "R"), ("c1", "Y"), ("a3", "B"), ("f4", "G")):
        left, top, right, _bottom = square_box(square(name))
        # the owner's colour frames the square just inside its edge, not a tint over all of it
        assert _close(image.getpixel((left + 4, top + 60)), COLOURS[letter], tolerance=20)
        assert not _close(image.getpixel(((left + right) // 2 + 20, top + 20)), COLOURS[letter], tolerance=40)
        # and a bar in that colour runs outside the board edge beside it
        bar = _home_bar(square(name))
        centre = (round((bar[0] + bar[2]) / 2), round((bar[1] + bar[3]) / 2))
        assert _close(image.getpixel(centre), COLOURS[letter], tolerance=12)


def test_pyramid_colours_and_the_player_to_move_are_shown():
    state = position(2, {"b2": "R3", "e5": "Y3"}, current=1)
    image = _image(render(state))
    left, top, _right, bottom = square_box(square("e5"))
    column = [image.getpixel((left + STACK_X + 4, y)) for y in range(top + 40, bottom - 12)]
    assert any(_close(c, COLOURS["Y"], tolerance=40) for c in column)
    # the swatch before the turn line is the colour of the seat to move (Yellow)
    assert _close(image.getpixel((24, 53)), COLOURS["Y"], tolerance=10)


def test_last_move_is_outlined_and_pinned_pyramids_marked():
    state = position(2, {"b2": "R1", "d2": "Y2", "f5": "Y1"})
    move = RULES.parse_move(state, "R1 b2-b3")
    after = RULES.apply(state, move)
    image = _image(render(after, last_move=move))
    for name in ("b2", "b3"):
        left, top, right, bottom = square_box(square(name))
        assert _close(image.getpixel((left + 8, bottom - 4)), LAST)  # white inside
        assert _close(image.getpixel((left + 8, bottom - 2)), LAST_OUTER)  # black outside
    pinned = position(2, {"d2": "Y2/R1", "f5": "Y1"})
    picture = _image(render(pinned))
    left, top, right, bottom = square_box(square("d2"))
    box = picture.crop((left, top, right, bottom))
    assert any(_close(c, MARK, tolerance=15) for _, c in box.getcolors(4096))


def test_capped_tree_wears_a_black_cap_and_reserve_nests_are_labelled():
    state = position(2, {"e2": "Y1"}, variant="advanced", reserve=sq("c3 d3"))
    state = _with_reserve_and_cap(state)
    image = _image(render(state))
    left, top, right, bottom = square_box(square("d6"))
    box = image.crop((left, top, right, bottom))
    assert any(_close(c, COLOURS["K"], tolerance=8) for _, c in box.getcolors(4096))
    plain = _image(render(position(2, {"e2": "Y1"})))
    assert image.crop((left, top, right, bottom)) != plain.crop((left, top, right, bottom))


def _with_reserve_and_cap(state):
    board = _put(state, "d6", "R3@d1/R2@c1/R1@c6")
    state = replace(state, board=board, capped=sq("d6"))
    board = _put(state, "c3", "R1@c3/R2@c3/R3@c3")
    state = replace(state, board=board)
    return replace(state, board=_put(state, "d3", "Y1@d3/Y2@d3/Y3@d3"))


def test_every_phase_renders_with_or_without_names():
    seen = set()
    for state in playout(RULES, 3, {"variant": "advanced", "turn_limit": 30}, seed=5):
        if state.phase in seen:
            continue
        seen.add(state.phase)
        assert render(state).startswith(PNG_SIGNATURE)
        assert render(state, names=["x" * 80, ""]).startswith(PNG_SIGNATURE)
    assert len(seen) >= 6


@pytest.mark.parametrize("move", ["counter", "no counter"])
def test_combat_in_progress_and_after(move):
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4", "roll 5 3")
    image = _image(render(state))
    left, top, right, _bottom = square_box(square("b4"))
    assert _close(image.getpixel(((left + right) // 2, top + 3)), MARK, tolerance=15)  # fight squares framed
    done = play(state, move)
    assert render(done, last_move=RULES.parse_move(state, move)).startswith(PNG_SIGNATURE)
    assert render(done, last_move=Step(square("b2"), 2, square("b3"))).startswith(PNG_SIGNATURE)


HEADER_PROMPT = (0, 30, WIDTH, HEADER)  # the lines under the title: who must do what


def _prompt_lines(state, names) -> list[TextBox]:
    return layout_for("combat", state, names=names).texts_in(HEADER_PROMPT)


@pytest.mark.parametrize(
    ("names", "who"),
    [
        (["alice", "bob"], "Red (alice)"),
        (["a_rather_long_name", "bob"], "Red (a_rather_long_name)"),
        (["Bartholomew Featherstonehaugh-Sm", "bob"], "Red (Bartholomew Feathersto…)"),
        (None, "Red"),
    ],
)
def test_the_header_prompt_breaks_between_phrases_and_keeps_one_colour(names, who):
    state = play(position(2, {"b2": "R2", "b4": "Y2", "e6": "Y1"}), "R2 b2-b3", "b3xb4")
    lines = _prompt_lines(state, names)
    assert [t.text for t in lines] == [f"{who} to roll the combat dice:", "Red 2 pips on b3 v Yellow 2 pips on b4"]
    image = _image(render(state, names=names))
    for line in lines:
        left, top, right, bottom = (round(v) for v in line.box)
        colours = {image.getpixel((x, y)) for x in range(left, right) for y in range(top, bottom)}
        assert HIGHLIGHT in colours and TEXT not in colours, line.text  # one sentence, one colour


def test_every_header_prompt_wraps_at_a_phrase_boundary():
    """Two lines break after a colon or a comma, unless the first phrase alone is wider than a line."""
    breaks = 0
    for state in playout(RULES, 4, {"variant": "advanced", "turn_limit": 40}, seed=3):
        for names in (["alice", "bob", "a_rather_long_name", "dave"], None):
            lines = [t.text for t in _prompt_lines(state, names)]
            if len(lines) < 2:
                continue
            first = lines[0]
            assert not first.split()[-1].startswith("'"), lines  # a quotation ('no move') stays whole
            head = re.match(r"[^:,]*[:,]", " ".join(lines))
            if head and text_width(head.group(0), MIN_PX + 3) <= WIDTH - 56:
                assert first.endswith((":", ",")), lines
                breaks += 1
    assert breaks > 10


def _finished_at_the_limit():
    *_, last = playout(RULES, 4, {"turn_limit": 10}, seed=4)
    assert last.turn >= last.turn_limit and last.ranks == (1, 1, 1, 1)
    return last


LONG_NAMES = ["W" * 32, "Bartholomew Featherstonehaugh-Sm", "carol", "dave"]


def test_a_draw_at_the_turn_limit_says_draw_in_the_header_and_every_row():
    drawn = layout_for("combat", _finished_at_the_limit(), names=LONG_NAMES)
    header = " ".join(t.text for t in drawn.texts_in(HEADER_PROMPT))
    assert header.startswith("Game over, a draw:")
    rows = [t.text for t in drawn.texts if " · home " in t.text]
    assert len(rows) == 4 and all(row.endswith(" · draw") for row in rows), rows
    assert "1st place" not in drawn.joined_text()


def test_a_long_name_is_shortened_but_the_place_stays_whole():
    state = replace(_finished_at_the_limit(), ranks=(1, 2, 3, 4))
    rows = [t.text for t in layout_for("combat", state, names=["W" * 32] * 4).texts if " · home " in t.text]
    assert sorted(row[-9:] for row in rows) == ["1st place", "2nd place", "3rd place", "4th place"], rows


def _stack_pixels(image: Image.Image, name: str) -> list[tuple[int, int, int]]:
    """The pixels of the pyramids drawn on square ``name`` (inside their triangles)."""
    drawn = [p for p in layout_for("combat", TREE).pieces if p.square == name]
    left = min(p.box[0] for p in drawn)
    right = max(p.box[2] for p in drawn)
    top, bottom = min(p.box[1] for p in drawn), max(p.box[3] for p in drawn)
    centre = (left + right) / 2
    out = []
    for y in range(round(top) + 6, round(bottom) - 2):
        half = (right - left) / 2 * (y - top) / (bottom - top) - 4  # well inside the silhouette
        for x in range(round(centre - half), round(centre + half) + 1):
            pixel = image.getpixel((x, y))
            assert isinstance(pixel, tuple)
            out.append((pixel[0], pixel[1], pixel[2]))
    return out


TREE = position(2, {"c3": "R3/R2/R1", "e2": "Y1"})


def test_a_tree_of_one_colour_is_drawn_mostly_in_that_colour():
    pixels = _stack_pixels(_image(render(TREE)), "c3")
    red = [COLOURS["R"], shade(COLOURS["R"], 1.18), shade(COLOURS["R"], 0.7)]
    reds = sum(any(_close(p, c, 10) for c in red) for p in pixels)
    light = sum(_close(p, outline_for(COLOURS["R"]), 10) for p in pixels)
    assert reds > 0.8 * len(pixels) and light < 0.08 * len(pixels), (reds, light, len(pixels))


@pytest.mark.parametrize("to", ["c4", "d4", "b3"])
def test_the_last_move_arrow_stops_at_the_edge_of_the_target_square(to):
    state = position(2, {"c3": "R3/R2/R1", to: "R3@c1/R1@d1", "e2": "Y1"})
    drawn = [p for p in layout_for("combat", state).pieces if p.square == to]
    plain = _image(render(state))
    marked = _image(render(state, last_move=Step(square("c3"), 1, square(to))))
    for piece in drawn:
        left, top, right, bottom = (round(v) for v in piece.box)
        for x in range(left, right):
            for y in range(top, bottom):
                assert plain.getpixel((x, y)) == marked.getpixel((x, y)), (piece.code, x, y)


def test_after_the_action_die_the_turns_step_still_has_its_arrow():
    """The roll moves nothing: the picture keeps the step's framed squares and its arrow."""
    plies: list = []
    states = list(playout(RULES, 4, {}, seed=4, on_ply=plies.append))
    k = next(
        k
        for k, ply in enumerate(plies)
        if isinstance(ply.move, Roll) and isinstance(plies[k - 1].move, Step) and turn_step(states[k + 1])
    )
    step, after = plies[k - 1].move, states[k + 1]
    assert turn_step(after) == (step.frm, step.to)
    (arrow,) = [a for a in layout_for("combat", after, last_move=plies[k].move).arrows if a.colour == LAST]
    shaft = arrow.polygons[0]
    tail = ((shaft[0][0] + shaft[3][0]) / 2, (shaft[0][1] + shaft[3][1]) / 2)
    head = arrow.polygons[1][0]  # the point of the head
    assert _within(tail, square_box(step.frm)) and _within(head, _grown(square_box(step.to), 1))
    inside_the_head = tuple(round(sum(c) / 3) for c in zip(*arrow.polygons[1], strict=True))
    assert _close(_image(render(after, last_move=plies[k].move)).getpixel(inside_the_head), LAST)


def _within(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _grown(box, by):
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def test_no_step_arrow_once_the_turn_has_passed_on():
    for state in playout(RULES, 3, {"turn_limit": 20}, seed=2):
        if state.moved_to < 0:
            assert turn_step(state) is None


def test_the_action_die_waiting_line_names_the_turn_in_words():
    state = RULES.new_game(4, {}, random.Random(1))
    texts = [t.text for t in layout_for("combat", state).texts]
    assert "Action die: not rolled yet in turn 1" in texts, [t for t in texts if "Action die" in t]
    assert not any(t.endswith("(1)") for t in texts)


def test_a_name_that_fits_the_players_line_is_shown_whole():
    names = ["Christopher Columbus Junior", "Bob", "Carol", "Dave"]
    state = RULES.new_game(4, {}, random.Random(1))
    rows = [t.text for t in layout_for("combat", state, names=names).texts if " · home " in t.text]
    assert any(row.startswith("Red (Christopher Columbus Junior) · home") for row in rows), rows
    long = ["Bartholomew Featherstonehaugh-Smythe the Third"] * 4
    rows = [t.text for t in layout_for("combat", state, names=long).texts if " · home " in t.text]
    assert rows and all("…) · home " in row and "Bartholomew Featherstone" in row for row in rows), rows


def _fight(attacker: str, defender: str, stacks: dict[str, str]):
    """A combat between the stacks on two neighbouring squares, its dice still to roll."""
    state = position(2, stacks, phase=COMBAT_ROLL)
    a, d = square(attacker), square(defender)
    fight = Fight(0, 1, a, d, stack_pips(state.board[a]), stack_pips(state.board[d]), state.turn)
    return replace(state, fight=fight, trail=(a, d))


@pytest.mark.parametrize(
    ("attacker", "defender", "dx", "dy"),
    [("c2", "d2", 1, 0), ("d5", "c5", -1, 0), ("b2", "b3", 0, -1), ("e5", "e4", 0, 1), ("b3", "c2", 1, 1)],
)
def test_the_combat_arrow_runs_from_the_attackers_square_into_the_defenders(attacker, defender, dx, dy):
    """Between neighbours the pink combat arrow crosses the edge (or corner) the two squares share: pink on
    the attacker's side of it and on the defender's, the arrow's shaft and its head, with every code on top."""
    state = _fight(attacker, defender, {attacker: "R3/R2/R1", defender: "Y3/Y2/Y1"})
    image = _image(render(state, names=["Alice", "Bob"]))
    a = square_box(square(attacker))
    ax, ay = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    ex, ey = ax + dx * SQ / 2, ay + dy * SQ / 2  # the middle of the shared edge (or the shared corner)
    norm = (dx * dx + dy * dy) ** 0.5
    shaft = -20 if dx == 0 or dy == 0 else -10  # (a diagonal's shaft passes under the attacker's bottom code)
    for along in (shaft, -2, 4):  # shaft and head in the attacker's square, the head's point in the defender's
        x, y = ex + dx / norm * along, ey + dy / norm * along
        assert _close(image.getpixel((round(x), round(y))), MARK, 20), (along, image.getpixel((round(x), round(y))))
    codes = {t.text for t in layout_for("combat", state).texts}
    assert {"R1", "R2", "R3", "Y1", "Y2", "Y3"} <= codes


def test_a_full_stack_of_large_pyramids_and_its_codes_keep_clear_of_the_squares_edges():
    """Three large pyramids on a home square: the top one's tip stays below the home frame (3 to 6 px in) with
    a few pixels to spare, and the bottom code stays above the frames along the bottom edge."""
    state = position(2, {"c6": "R3@c1/R3@c1/R3@d1", "d1": "Y3@c6/Y3@c6/Y3@d6"})
    drawn = layout_for("combat", state)
    for name in ("c6", "d1"):
        left, top, right, bottom = square_box(square(name))
        pieces = [p for p in drawn.pieces if p.square == name]
        assert len(pieces) == 3
        assert min(p.box[1] for p in pieces) >= top + 9
        codes = [t for t in drawn.texts if left < t.box[0] < right and top < t.box[1] < bottom and t.text[1:] == "3"]
        assert len(codes) == 3 and max(t.box[3] for t in codes) <= bottom - 9


def _board_labels(drawn) -> list[TextBox]:
    """The codes and tags drawn on the board's squares."""
    right, bottom = square_box(square("f1"))[2:]
    left, top = square_box(square("a6"))[:2]
    return [t for t in drawn.texts if left <= t.box[0] and t.box[2] <= right and top <= t.box[1] and t.box[3] <= bottom]


def _covered(arrow, box) -> bool:
    """True when the arrow covers any pixel of ``box``."""
    left, top, right, bottom = (round(v) for v in box)
    return any(arrow.covers(x + 0.5, y + 0.5) for x in range(left, right) for y in range(top, bottom))


@pytest.mark.parametrize("left_behind", ["R3", "R3/R2", "R3/R2/R1"])
@pytest.mark.parametrize("to", ["d3", "e3", "f3", "d4", "f4", "d5", "e5", "f5"])
def test_the_last_move_arrow_keeps_clear_of_the_codes_and_tags(left_behind, to):
    """The codes are drawn over the arrow with only a thin outline: a white arrow behind a white code (a step
    down out of e6 behind its "Y3") read as "3" on a phone.  In every direction the arrow crosses no code
    and no tag, of the square it leaves nor of any other."""
    state = position(2, {"e4": left_behind, to: "R1@c1", "b2": "Y1"})
    drawn = layout_for("combat", state, last_move=Step(square("e4"), 1, square(to)))
    (arrow,) = [a for a in drawn.arrows if a.colour == LAST]
    labels = _board_labels(drawn)
    assert {t.text for t in labels} >= set(left_behind.split("/"))
    assert not [t.text for t in labels if _covered(arrow, t.box)]


def test_a_label_the_last_move_arrow_must_cross_stands_on_a_dark_plate():
    """Where no path clear of the labels exists (a swap across a crowded board), every code or tag the arrow
    crosses is drawn on a dark plate over it; in seeded games most arrows cross nothing at all."""
    arrows = crossed = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (4, 4)):
        plies: list = []
        states = list(playout(RULES, players, {"turn_limit": 60}, seed=seed, on_ply=plies.append))
        for state, ply in zip(states[1:], plies, strict=False):
            drawn = layout_for("combat", state, last_move=ply.move)
            for arrow in (a for a in drawn.arrows if a.colour == LAST):
                arrows += 1
                hit = [t for t in _board_labels(drawn) if _covered(arrow, t.box)]
                crossed += bool(hit)
                for label in hit:
                    assert any(_inside(label.box, plate) for plate in drawn.plates), (label.text, ply.move)
    assert arrows > 400 and crossed < arrows * 0.05, (arrows, crossed)


def _inside(box, plate) -> bool:
    return plate[0] <= box[0] and plate[1] <= box[1] and box[2] <= plate[2] and box[3] <= plate[3]
