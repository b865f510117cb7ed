"""Martian Treasure Hunt renderer: format, size, determinism and the key regions of the picture."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from games.base import frozen_replace
from games.playout import playout, setup_rng
from games.treasure import RULES, SIDES, Arrange, Roll, Step, TreasureState, geometry
from renderers import layout_for
from renderers.pyramids import BACKGROUND, COLOURS, HIGHLIGHT, LAST_INNER
from renderers.treasure import (
    MARGIN,
    PAD,
    TILE,
    WIDTH,
    _box,
    _centre,
    _last_action,
    _last_action_lines,
    _layout,
    back_row_label_box,
    render,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def sq(name: str) -> tuple[int, int]:
    return ord(name[0]) - 97, int(name[1:]) - 1


def state_after(players: int, seed: int, plies: int) -> TreasureState:
    state = None
    for i, state in enumerate(playout(RULES, players, {}, seed)):  # noqa: B007
        if i >= plies:
            break
    assert state is not None
    return state


def pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def rgb(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """The colour at ``xy`` of an RGB picture."""
    pixel = image.getpixel(xy)
    assert isinstance(pixel, tuple), pixel
    return pixel


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_png_signature_size_and_limits(players: int) -> None:
    for plies in (0, 60, 10_000):
        data = render(state_after(players, 4, plies), names=["alice", "bob", "carol", "dave"][:players])
        assert data.startswith(PNG_SIGNATURE)
        assert len(data) < 200 * 1024
        image = pixels(data)
        assert image.width == WIDTH and 700 <= image.height <= 1500  # a phone portrait


def test_same_state_gives_the_same_bytes() -> None:
    state = state_after(4, 2, 150)
    assert render(state) == render(state)
    assert render(state, names=["a", "b", "c", "d"]) == render(state, names=["a", "b", "c", "d"])
    assert render(state) != render(state, names=["a", "b", "c", "d"])


def test_missing_corners_show_the_background_and_tiles_show_the_tile_colour() -> None:
    image = pixels(render(RULES.new_game(4, {"arrange": False}, setup_rng(0))))
    for corner in ("a1", "j10", "a10", "j1"):
        x0, y0, x1, y1 = _box(4, sq(corner))
        assert close(rgb(image, ((x0 + x1) // 2, (y0 + y1) // 2)), BACKGROUND, 6)
    empty = pixels(render(replace(RULES.new_game(4, {"arrange": False}, setup_rng(0)), pyramids=())))
    x0, y0, _, _ = _box(4, sq("e5"))
    assert close(rgb(empty, (x0 + 8, y0 + 8)), TILE, 8)


def test_back_rows_are_tinted_in_their_players_colour() -> None:
    image = pixels(render(RULES.new_game(4, {"arrange": False}, setup_rng(0))))
    for corner, letter in (("d2", "R"), ("b5", "G"), ("e9", "K"), ("i6", "B")):
        x0, y0, _, _ = _box(4, sq(corner))
        tint = rgb(image, (x0 + 8, y0 + 8))
        assert not close(tint, TILE, 8)
        towards = sum(abs(t - c) for t, c in zip(tint, COLOURS[letter], strict=True))
        away = sum(abs(t - c) for t, c in zip(TILE, COLOURS[letter], strict=True))
        assert towards < away, corner


def test_coins_are_drawn_in_their_suit_colour() -> None:
    image = pixels(render(RULES.new_game(2, {"arrange": False}, setup_rng(0))))
    for name, letter in (("a1", "R"), ("c1", "R"), ("a10", "K"), ("f10", "K")):
        cx, cy = _centre(2, sq(name))
        assert close(rgb(image, (int(cx - 16), int(cy))), COLOURS[letter]), name


def test_last_move_and_reachable_squares_are_highlighted() -> None:
    state = RULES.new_game(2, {"arrange": False}, setup_rng(0))
    state = replace(state, turn=0)
    state = RULES.apply(state, Roll(0, 0))  # Red's null on a1 steps to a2 as a pawn
    image = pixels(render(state))
    cx, cy = _centre(2, sq("a2"))
    assert close(rgb(image, (int(cx), int(cy))), HIGHLIGHT)  # the dot on the only reachable square
    moved = RULES.apply(state, Step(0, sq("a1"), sq("a2")))
    image = pixels(render(moved, last_move=Step(0, sq("a1"), sq("a2"))))
    x0, y0, _, _ = _box(2, sq("a1"))
    assert close(rgb(image, (x0 + 4, y0 + 20)), LAST_INNER)  # the start square is framed black and white


def test_the_player_to_move_is_named_with_their_colour() -> None:
    state = RULES.new_game(4, {"arrange": False}, setup_rng(0))
    for seat, letter in enumerate("RGKB"):
        image = pixels(render(replace(state, turn=seat)))
        assert close(rgb(image, (24, 25)), COLOURS[letter], 12)


def _arranging(players: int, *orders: tuple[int, ...]) -> TreasureState:
    """A game still setting out its coins, after the first seats arranged ``orders`` (secretly)."""
    state = replace(RULES.new_game(players, {}, setup_rng(0)), turn=0, first=0)
    for order in orders:
        state = RULES.apply(state, Arrange(order, state.turn))
    assert state.phase == "arrange"
    return state


def _board_texts(state: TreasureState) -> list[str]:
    """The texts drawn on the board (not the header nor the panel)."""
    drawn = layout_for("treasure", state, names=["alice", "bob", "carol"])
    _, bottom, left, top, _ = _layout(state.players)
    return [t.text for t in drawn.texts_in((left, top, WIDTH - left, bottom - MARGIN))]


def test_coins_stay_face_down_while_the_players_arrange() -> None:
    """docs/rules/treasure.md: until every player has arranged, the board shows every row face down."""
    for state in (
        _arranging(3),
        _arranging(3, (5, 3, 1, 0, 2, 4)),
        _arranging(3, (5, 3, 1, 0, 2, 4), (4, 2, 0, 1, 3, 5)),
    ):
        assert not any(t.isdigit() for t in _board_texts(state))  # no coin shows its number
        image = pixels(render(state))
        for value, where in enumerate(state.coins[0]):
            assert where is not None
            cx, cy = _centre(3, where)
            assert close(rgb(image, (int(cx - 19), int(cy))), COLOURS["R"]), value  # its rim: a Red coin, face down
    # the picture does not depend on the secret order: only on who has arranged
    assert render(_arranging(3, (5, 3, 1, 0, 2, 4))) == render(_arranging(3, (0, 1, 2, 3, 4, 5)))
    assert render(_arranging(3, (5, 3, 1, 0, 2, 4))) != render(_arranging(3))


def test_the_panel_says_who_has_arranged_and_the_rows_are_revealed_at_the_end() -> None:
    state = _arranging(3, (5, 3, 1, 0, 2, 4))
    texts = layout_for("treasure", state, names=["alice", "bob", "carol"]).joined_text().splitlines()
    assert texts.count("arranged") == 1 and "5 3 1 0 2 4" not in texts
    done = RULES.apply(RULES.apply(state, Arrange((0, 1, 2, 3, 4, 5), 1)), Arrange((0, 1, 2, 3, 4, 5), 2))
    assert done.phase == "roll"
    shown = _board_texts(done)
    assert [t for t in shown if t in "012345" and len(t) == 1]  # face up once everyone has arranged
    assert "arranged" not in layout_for("treasure", done).joined_text().splitlines()
    placed = sorted((where, value) for value, where in enumerate(done.coins[0]) if where is not None)
    assert [value for _, value in placed] == [5, 3, 1, 0, 2, 4]  # Red's row from its left, as arranged


def _finished(players: int, seed: int) -> TreasureState:
    *_, last = playout(RULES, players, {"stall_limit": 5}, seed)
    assert last.phase == "over"
    return last


def test_the_end_board_says_why_the_game_ended_and_each_players_place() -> None:
    state = _finished(2, 1)
    drawn = layout_for("treasure", state, names=["alice", "bob"])
    texts = drawn.joined_text()
    assert state.reason and state.reason in texts.replace("\n", " ") and state.ranks
    places = [t.text for t in drawn.texts if t.text.endswith(" place")]
    ordinals = {1: "1st", 2: "2nd", 3: "3rd"}
    assert sorted(places) == sorted(f"{ordinals[rank]} place" for rank in state.ranks)


def test_a_resignation_that_ends_the_game_is_explained() -> None:
    state = RULES.resign(state_after(2, 3, 30), 0)
    texts = layout_for("treasure", state, names=["alice", "bob"]).joined_text().replace("\n", " ")
    assert "Red left the game." in texts and "1st place" in texts


def test_a_long_winners_name_is_shortened_but_not_the_verdict() -> None:
    state = RULES.resign(state_after(2, 3, 30), 0)
    names = ["alice", "Bartholomew Featherstonehaugh-Smythe the Third"]
    header = layout_for("treasure", state, names=names).texts[-1].text
    assert header.startswith("Game over: Bartholomew") and header.endswith("… (Black) wins")
    rows = [t.text for t in layout_for("treasure", state, names=names).texts if "(Black)" in t.text]
    assert rows and all(row.endswith("(Black)") for row in rows if not row.startswith("Game over"))


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_back_row_is_labelled_with_its_owners_colour_in_words_beside_the_rows(players: int) -> None:
    """Red, green and black tints look alike to red-green colour blindness: the words tell the rows apart.

    Each word stands off the board, beside its rows, so no coin, pyramid or last-move line covers it.
    """
    state = RULES.new_game(players, {}, setup_rng(1))
    drawn = layout_for("treasure", state)
    geo = geometry(players)
    labels = []
    for seat in range(players):
        word = SIDES[geo.sides[seat]].colour
        plate = back_row_label_box(players, seat)
        assert word in [t.text for t in drawn.texts_in(plate)], seat
        assert not any(_overlap(plate, _box(players, sq)) for sq in geo.squares), (seat, plate)
        assert plate[0] >= 0 and plate[2] <= WIDTH
        rows = [_box(players, sq) for sq in geo.back[seat]]
        near = (
            min(b[0] for b in rows) - 90,
            min(b[1] for b in rows) - 30,
            max(b[2] for b in rows) + 90,
            max(b[3] for b in rows) + 30,
        )
        assert _overlap(plate, near), (seat, plate)  # beside its own rows
        labels.append(plate)
    assert not any(_overlap(a, b) for a in labels for b in labels if a is not b)


def test_a_move_whose_coin_left_with_its_player_is_not_framed() -> None:
    """The last move is framed, and named in the panel, only while its coin still stands where it went:
    a player who leaves takes their coins off the board, and the board then frames no empty squares."""
    states = list(playout(RULES, 4, {}, 3))
    before = states[len(states) // 3]
    assert before.last_seat == 1 and before.last_to is not None  # Green moved last
    after = RULES.resign(before, 1)  # Green leaves: their coins leave the board
    assert after.last_to not in after.coins[1]
    names = ["Alice", "Bob", "Carol", "Dave"]
    unframed = frozen_replace(after, last_from=None, last_to=None)
    assert render(after, names=names) == render(unframed, names=names)
    assert "Last move" not in layout_for("treasure", after, names=names).joined_text()


def _played_moves(players: int, seed: int):
    """Every coin move of a seeded game: (what the chat said, the state after it)."""
    plies: list = []
    states = list(playout(RULES, players, {}, seed, on_ply=plies.append))
    for ply, after in zip(plies, states[1:], strict=False):
        if isinstance(ply.move, Step):
            yield RULES.play(ply.before, ply.move).description, after


def test_the_last_move_line_uses_the_players_words_not_the_notation() -> None:
    """The player pressed "f9 → e8" and the chat says "moves the ace f9-e8, taking a small ... pyramid": the
    picture says "Last move: Black moved the ace f9-e8 and took a small pyramid", never "1:f9-e8", on one
    line or two, never cut."""
    seen = {"plain": 0, "pyramid": 0, "coin": 0}
    for players, seed in ((4, 3), (2, 1), (3, 2)):
        for said, after in _played_moves(players, seed):
            drawn = layout_for("treasure", after, names=["Alice", "Bob", "Carol", "Dave"][:players])
            words = _last_action(after)
            drawn_lines = [t.text for t in drawn.texts]
            first = drawn_lines.index(next(t for t in drawn_lines if t.startswith("Last move:")))
            lines = _last_action_lines(after, WIDTH - 20 - 2 * PAD)
            assert drawn_lines[first : first + len(lines)] == lines and " ".join(lines) == words, (lines, words)
            assert ":" not in words.removeprefix("Last move:") and "…" not in words, words
            moved = said.split(") ", 1)[1].split(",")[0].split(".")[0]  # "moves the ace f9-e8"
            assert moved.replace("moves ", "moved ", 1) in words, (said, words)
            if ", taking a " in said:
                size = said.split(", taking a ")[1].split()[0]
                assert words.endswith(f"and took a {size} pyramid"), (said, words)
                seen["pyramid"] += 1
            elif ", capturing " in said:
                coin = said.split(", capturing ")[1].split(" (+")[0]  # "Red's ace"
                assert words.endswith(f"and captured {coin}"), (said, words)
                seen["coin"] += 1
            else:
                assert words.endswith(moved.split()[-1]), (said, words)
                seen["plain"] += 1
    assert all(seen.values()), seen


def test_blue_coins_show_light_numbers_and_green_coins_dark_ones() -> None:
    """Green and blue look alike under tritanopia: the ink of higher contrast on each tells them apart."""
    state = RULES.new_game(4, {"arrange": False}, setup_rng(0))
    image = pixels(render(state))
    seats = {SIDES[side].letter: seat for seat, side in enumerate(geometry(4).sides)}
    radius = int(_box(4, sq("a1"))[2] - _box(4, sq("a1"))[0]) * 0.4
    for letter, light in (("B", True), ("G", False)):
        for where in state.coins[seats[letter]]:
            assert where is not None
            cx, cy = _centre(4, where)
            inside = [
                rgb(image, (round(cx + dx), round(cy + dy)))
                for dx in range(-int(radius * 0.5), int(radius * 0.5) + 1)
                for dy in range(-int(radius * 0.6), int(radius * 0.6) + 1)
            ]
            lit = sum(1 for p in inside if sum(p) > 3 * 200)
            dark = sum(1 for p in inside if sum(p) < 3 * 70)
            assert (lit > 15 and dark < 5) if light else (dark > 15 and lit < 5), (letter, where, lit, dark)
