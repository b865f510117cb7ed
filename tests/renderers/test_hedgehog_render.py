"""Board pictures of Der Marsigelwettkampf: format, size, determinism and the key regions."""

from __future__ import annotations

import dataclasses
import io
import itertools
import random
import re

import pytest
from PIL import Image

from games.hedgehog import RULES, HedgehogState, Pass, Piece, Roll, Space, Step, rounds_played
from games.playout import playout
from renderers import layout_for
from renderers.hedgehog import CODE_W, MARGIN, TILE, WIDTH, draw_track, layout, render, result_lines
from renderers.pyramids import BACKGROUND, COLOURS, HIGHLIGHT, MARK, PANEL, pyramid_size_px

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
LIMIT = 200 * 1024


def picture(data: bytes) -> Image.Image:
    """The PNG as an RGB image."""
    return Image.open(io.BytesIO(data)).convert("RGB")


def sample_states() -> list[HedgehogState]:
    """Starts for every player count, and states from random games at several points."""
    states = [RULES.new_game(n, {"xeno": n > 5}, random.Random(n)) for n in range(1, 11)]
    for players, seed in ((1, 2), (2, 3), (4, 5), (5, 1), (10, 4)):
        game = list(playout(RULES, players, {"xeno": players > 5}, seed))
        states += [game[len(game) // 3], game[2 * len(game) // 3], game[-1]]
    return states


def one_stack() -> HedgehogState:
    """Every pyramid of a five-player game in one stack: the tallest picture there can be."""
    pieces = tuple(sorted((Piece(c, p) for c in range(5) for p in (1, 2, 3)), key=lambda x: (-x.pips, x.colour)))
    return HedgehogState(
        players=5,
        xeno=False,
        turn_limit=200,
        spaces=(Space(1, pieces),),
        current=0,
        roll=4,
        points=4,
        moved=False,
        passed=(),
        turns=30,
        out=(),
        winner=None,
        finish="",
    )


def mid_move() -> HedgehogState:
    """Four players; Red has rolled 6 and moved R1 (space 9) one space clockwise onto Y3 (space 10)."""
    state = RULES.new_game(4, {}, random.Random(1))
    state = dataclasses.replace(state, current=0)
    state = RULES.apply(state, Roll(6))
    return RULES.apply(state, Step(Piece(0, 1), 1, 1))


@pytest.mark.parametrize("state", [*sample_states(), one_stack()])
def test_png_format_width_and_size(state: HedgehogState):
    data = render(state)
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < LIMIT
    image = picture(data)
    assert image.width == WIDTH and 400 <= image.height <= 1800  # a phone portrait: scrolls, never shrinks


def test_same_state_same_bytes():
    for state in (*sample_states()[::3], mid_move()):
        copy = RULES.from_json(RULES.to_json(state))
        assert render(state) == render(copy) == render(state, last_move=Pass())
    names = ["alice", "bob", "carol", "dave"]
    assert render(mid_move(), names=names) == render(mid_move(), names=names)
    assert render(mid_move(), names=names) != render(mid_move())


def test_background_and_header_panel():
    image = picture(render(mid_move()))
    assert image.getpixel((WIDTH - 4, image.height // 2)) == BACKGROUND
    assert image.getpixel((WIDTH // 2 - 40, 100)) == PANEL


def test_player_to_move_swatch_in_the_header():
    state = mid_move()
    image = picture(render(state))
    assert image.getpixel((MARGIN + 14, 57)) == COLOURS["R"]


def test_last_move_target_tile_is_highlighted_and_moved_pieces_marked():
    state = mid_move()
    slots, scale, _ = layout(state)
    index = next(i for i, space in enumerate(state.spaces) if space.label == 10)
    slot = slots[index]
    image = picture(render(state))
    # the tile of space 10, left of its number
    assert image.getpixel((int(slot.centre - 26), int(slot.tile_top + TILE / 2))) == HIGHLIGHT
    # the bar beside the moved piece (R1 on top of Y3)
    centre_x = slot.left + (slot.width - CODE_W) / 2 + 2
    bar_x = centre_x - pyramid_size_px(1, scale)[0] / 2 - 6
    bar_y = slot.tile_top - 3 - scale * 0.62 - 4
    assert image.getpixel((round(bar_x), round(bar_y))) == HIGHLIGHT


def test_each_pyramid_is_drawn_in_its_colour_on_its_space():
    state = RULES.new_game(4, {}, random.Random(1))
    slots, scale, _ = layout(state)
    image = picture(render(state))
    for space, slot in zip(state.spaces, slots, strict=True):
        piece = space.stack[0]
        width, height = pyramid_size_px(piece.pips, scale)
        centre_x = slot.left + (slot.width - CODE_W) / 2 + 2
        base_y = slot.tile_top - 3
        spot = (round(centre_x + 0.2 * width), round(base_y - 0.25 * height))
        assert image.getpixel(spot) == COLOURS["RYGB"[piece.colour]], space.code


def test_a_vanished_space_is_marked_on_the_loop():
    state = mid_move()  # space 9 emptied when R1 left it
    slots, _, _ = layout(state)
    after = next(i for i, space in enumerate(state.spaces) if space.label == 10)
    slot = slots[after]
    x = slot.left if slot.row % 2 == 0 else slot.left + slot.width
    image = picture(render(state))
    assert image.getpixel((round(x), round(slot.tile_top + TILE / 2 - 7))) == MARK


def test_game_over_headline_replaces_the_turn_line():
    over = next(s for s in reversed(list(playout(RULES, 3, {}, 5))) if s.over)
    image = picture(render(over))
    assert any(image.getpixel((x, y)) == HIGHLIGHT for x in range(MARGIN, MARGIN + 200) for y in range(40, 70))


def _title(state: HedgehogState) -> str:
    drawn = layout_for("hedgehog", state)
    return next(t.text for t in drawn.texts if t.text.startswith("Der Marsigelwettkampf"))


def _count_words(status: str) -> str:
    """``round 2 of 8`` or ``turn 5 of 200``, as the status line (the embed) writes it."""
    match = re.search(r"(round|turn) \d+ of \d+", status)
    assert match, status
    return match.group(0)


def test_the_header_counts_rounds_as_the_option_and_the_embed_do():
    game = list(playout(RULES, 3, {"round_limit": 8}, 7))
    states = [s for s in game if not s.over]
    assert rounds_played(states[-1]) >= 1
    for state in states[:: max(1, len(states) // 12)]:
        title = _title(state)
        assert title == f"Der Marsigelwettkampf · {_count_words(RULES.status_line(state))}", title
        assert title.endswith(f"round {rounds_played(state) + 1} of 8")
    over = game[-1]
    assert over.over and "turn" not in _title(over)
    assert _title(over).endswith("of 8") and " round " in _title(over)


def test_solitaire_keeps_counting_turns_against_its_own_limit():
    game = list(playout(RULES, 1, {"turn_limit": 30}, 3))
    for state in game[:: max(1, len(game) // 8)]:
        if not state.over:
            assert _title(state) == f"Der Marsigelwettkampf · {_count_words(RULES.status_line(state))}"
            assert _title(state).endswith(f"turn {state.turns + 1} of 30")
    assert _title(game[-1]).endswith(f"turn {min(game[-1].turns, 30)} of 30")


class _TrackPen:
    """Stands in for a drawing context: keeps the lines and arrowheads ``draw_track`` draws."""

    def __init__(self) -> None:
        self.lines: list[list[tuple[float, float]]] = []
        self.heads: list[list[tuple[float, float]]] = []

    def line(self, points, **_: object) -> None:
        self.lines.append([tuple(p) for p in points])

    def polygon(self, points, **_: object) -> None:
        self.heads.append([tuple(p) for p in points])


def _ring(count: int) -> HedgehogState:
    """A state whose ring holds ``count`` spaces, one small pyramid each."""
    state = RULES.new_game(4, {}, random.Random(0))
    spaces = tuple(Space(i + 1, (Piece(i % 4, 1),)) for i in range(count))
    return dataclasses.replace(state, spaces=spaces)


# every ring the game can start with (3 to 30 spaces), every ring left as spaces vanish, and a few beyond
@pytest.mark.parametrize("count", range(1, 41))
def test_the_loop_is_closed_and_every_row_holds_spaces(count):
    slots, _, height = layout(_ring(count))
    assert [slot.index for slot in slots] == list(range(count))
    rows = sorted({slot.row for slot in slots})
    assert rows == list(range(len(rows)))  # no empty row leaving a gap
    assert len(rows) == 1 or len(rows) % 2 == 0  # right and back again: the loop ends where it began
    for before, after in itertools.pairwise(slots):  # clockwise: rows left to right, then right to left
        if before.row == after.row:
            assert (after.centre > before.centre) == (before.row % 2 == 0)
    pen = _TrackPen()
    draw_track(pen, slots)
    if count < 2:
        assert pen.lines == []
        return
    path = pen.lines[0]
    assert path[0] == path[-1]  # closed
    # every space sits on a stretch of the loop running its row's way, and no stretch is walked twice
    stretches = list(itertools.pairwise(path))
    assert len(set(stretches)) == len(stretches)
    for slot in slots:
        y = slot.tile_top + TILE / 2
        on = [(a, b) for a, b in stretches if a[1] == b[1] == y and min(a[0], b[0]) <= slot.centre <= max(a[0], b[0])]
        assert len(on) == 1, (count, slot)
        (a, b), forward = on[0], slot.row % 2 == 0
        assert (b[0] > a[0]) == forward
    xs = [x for x, _ in path]
    assert min(xs) >= 0 and max(xs) <= WIDTH and height > 0


@pytest.mark.parametrize("turns, words", [(1, "after 1 turn."), (2, "after 2 turns.")])
def test_the_result_counts_turns_in_the_singular_and_the_plural(turns, words):
    solo = RULES.new_game(1, {}, random.Random(0))
    tree = dataclasses.replace(solo, finish="tree", winner=0, turns=turns)
    given_up = dataclasses.replace(solo, finish="resigned", winner=None, turns=turns)
    assert result_lines(tree)[1].endswith(words)
    assert result_lines(given_up)[1] == f"Given up {words}"


def test_a_player_who_left_still_reads_left_with_a_long_name():
    state = next(iter(playout(RULES, 4, {}, seed=3)))
    state = dataclasses.replace(state, out=(0,), current=1)
    names = ["Bartholomew Feathersby-Wolfgang", "Bob", "Carol", "Dave"]
    red = [t.text for t in layout_for("hedgehog", state, names=names).texts if t.text.startswith("Red (")]
    assert red and red[0].startswith("Red (Bartholomew") and red[0].endswith("…) (left)"), red


def test_the_last_action_line_uses_the_channel_logs_word_for_a_pass():
    """A turn ended with no piece moved is a pass, in the picture as in the log ("Red passes."); a turn ended
    after a move is "ended the turn", as the log says "ends the turn with ... unused"."""
    state = dataclasses.replace(RULES.new_game(4, {}, random.Random(1)), current=0)
    rolled = RULES.apply(state, Roll(6))
    played = RULES.play(rolled, Pass())
    assert played.description.startswith("Red passes.")
    texts = layout_for("hedgehog", played.state, last_move=Pass()).joined_text()
    assert "Last: Red passed." in texts and "ended the turn" not in texts

    moved = mid_move()
    assert not moved.last.turn_over
    ended = RULES.play(moved, Pass())
    assert ended.description.startswith("Red ends the turn with")
    texts = layout_for("hedgehog", ended.state, last_move=Pass()).joined_text()
    assert "Last: Red ended the turn." in texts and "passed" not in texts


@pytest.mark.parametrize("players", [1, 5])
def test_a_player_alone_on_the_legends_last_row_has_the_whole_row_for_their_name(players):
    """The legend sets the players two to a row; one alone on the last row (solitaire, the fifth of
    five) has the whole row, so a long name is not cut to half of it."""
    long = [
        "Bartholomew Featherstonehaugh",
        "Christopher Montgomery",
        "Guinevere Applethwaite",
        "Maximilian Vandersloot",
        "Alexandria Konstantinopoulou",
    ]
    state = next(iter(playout(RULES, players, seed=3)))
    names = long[:players]
    colour = ["Red", "Yellow", "Green", "Blue", "Black"][players - 1]
    shown = [t.text for t in layout_for("hedgehog", state, names=names).texts if t.text.startswith(f"{colour} (")]
    assert f"{colour} ({names[-1]})" in shown
