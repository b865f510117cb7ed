"""Martian Whist renderer: format, size, determinism and a few key pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.playout import playout, setup_rng
from games.whist import RULES, TRICKS, Play, Steal, Take, WhistState, canonical, tree_text
from renderers import layout_for
from renderers.pyramids import COLOURS, GRID_LINE, HIGHLIGHT, LAST_INNER, LAST_OUTER
from renderers.whist import DRAFT_SCALE, HEADER, TRICK_X, WIDTH, draft_slot, render

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def short_game() -> list[WhistState]:
    return list(playout(RULES, 2, {"variant": "short"}, seed=21))


def test_every_state_renders_a_small_png_of_the_right_width(short_game):
    for state in short_game:
        data = render(state, names=["alice", "bob"])
        assert data.startswith(PNG_SIGNATURE)
        assert len(data) < 200 * 1024
        image = _image(data)
        assert image.width == WIDTH and 400 <= image.height <= 1400


def test_normal_game_mid_draft_and_mid_tricks_render():
    states = list(playout(RULES, 2, {"variant": "normal"}, seed=5))
    for state in (states[0], states[30], states[64], states[-1]):
        data = render(state)
        assert data.startswith(PNG_SIGNATURE) and len(data) < 200 * 1024


def test_rendering_is_deterministic(short_game):
    for state in short_game[::5]:
        assert render(state, names=["a", "b"]) == render(state, names=["a", "b"])


def test_names_are_drawn_when_given(short_game):
    state = short_game[3]
    assert render(state, names=["alice", "bob"]) != render(state)


def test_header_band_and_draft_tree_colours():
    state = RULES.new_game(2, {"variant": "short"}, setup_rng(9))
    image = _image(render(state))
    assert image.getpixel((4, 4)) == GRID_LINE
    scale = DRAFT_SCALE
    for index, tree in enumerate(state.row):
        cx, base_y, _ = draft_slot(index, len(state.row))
        large = tree[0][0]
        assert image.getpixel((round(cx + scale * 0.25), base_y - 4)) == COLOURS[large], tree


def test_last_pick_is_outlined_and_emptied_tree_is_bare():
    state = RULES.new_game(2, {"variant": "short"}, setup_rng(9))
    index = 4
    for _ in range(3):  # the small, the medium and the large of tree e, by alternate players
        state = RULES.apply(state, Take(index, state.row[index][-1]))
    assert state.row[index] == ()
    image = _image(render(state))
    cx, base_y, slot = draft_slot(index, len(state.row))
    left = int(cx - slot / 2 + 1)
    assert image.getpixel((left, base_y - 40)) == LAST_OUTER  # framed black outside,
    assert image.getpixel((left + 2, base_y - 40)) == LAST_INNER  # white inside
    # nothing stands on the emptied tree: the background shows where its large was
    assert image.getpixel((round(cx + 8), base_y - 4)) == image.getpixel((6, base_y - 4))  # inside the light border


def tricks_between(north: list[str], south: list[str]) -> WhistState:
    """A short game at its first trick, North to lead, each holding one tree."""
    return WhistState(
        variant="short",
        row=((),) * 10,
        stashes=(canonical(north), canonical(south)),
        first=0,
        phase=TRICKS,
        turn=0,
    )


def test_the_trick_shows_both_trees_and_the_winner():
    state = tricks_between(["R3", "Y2", "G1"], ["K3", "K2", "K1"])
    state = RULES.apply(state, Play(("R3", "Y2", "G1")))
    state = RULES.apply(state, Play(("K3", "K2", "K1")))
    image = _image(render(state))
    base_y = HEADER + 150
    left_x, right_x = TRICK_X
    assert image.getpixel((left_x + 12, base_y - 5)) == COLOURS["R"]
    assert image.getpixel((right_x + 12, base_y - 5)) == COLOURS["K"]
    # the winning (right) tree has a highlighted outline at its base edge, the losing one does not
    assert image.getpixel((right_x + 20, base_y - 1)) == HIGHLIGHT
    assert image.getpixel((left_x + 20, base_y - 1)) != HIGHLIGHT


def test_a_steal_and_a_resignation_render():
    state = RULES.new_game(2, {"variant": "short"}, setup_rng(2))
    state = RULES.apply(state, RULES.legal_moves(state)[0])
    state = RULES.apply(state, Steal())
    assert state.stolen
    stolen = render(state, names=["alice", "bob"])
    assert stolen.startswith(PNG_SIGNATURE)
    left = RULES.resign(state, state.turn)
    image = _image(render(left))
    assert image.width == WIDTH
    assert image.getpixel((4, 4)) == GRID_LINE


def _texts_under(state: WhistState, x: float) -> list[str]:
    """The texts drawn just under the tree of the trick at ``x``."""
    drawn = layout_for("whist", state)
    base_y = HEADER + 150
    return [t.text for t in drawn.texts_in((x - 100, base_y + 2, x + 100, base_y + 26))]


def test_played_trees_are_labelled_large_to_small_as_the_notation_writes_them():
    state = tricks_between(["B3", "G2", "B1"], ["G3", "G2", "K1"])
    led = RULES.apply(state, Play(("B3", "G2", "B1")))
    left_x, right_x = TRICK_X
    assert _texts_under(led, left_x) == ["B3 G2 B1"]  # the led tree while the follower thinks
    played = RULES.apply(led, Play(("G3", "G2", "K1")))
    assert _texts_under(played, left_x) == ["B3 G2 B1"]
    assert _texts_under(played, right_x) == ["G3 G2 K1"]
    assert tree_text(played.tricks[-1].led) == "B3 G2 B1"  # as the log and the embed write it


LONG = ["Bartholomew Featherstonehaugh-Smythe", "WWWWWWWWWWWWWWWWWWWWWWWW"]


def test_a_long_name_above_the_trick_is_shortened_but_never_the_role(short_game):
    labels: set[str] = set()
    for state in short_game:
        texts = [t.text for t in layout_for("whist", state, names=LONG).texts_in((0, HEADER, WIDTH, HEADER + 40))]
        labels.update(t for t in texts if t.startswith(("North", "South")))
    roles = (" leads", " to follow", " led", " followed", " led and won", " followed and won")
    assert labels and all(label.endswith(roles) for label in labels), labels
    assert any(label.endswith(" and won") and "…" in label for label in labels)


def test_the_end_board_leaves_out_the_empty_stashes(short_game):
    end = short_game[-1]
    assert end.phase == "over" and not any(end.stashes)
    drawn = layout_for("whist", end, names=["alice", "bob"])
    assert "stash of" not in drawn.joined_text()
    assert drawn.height < 800


def test_the_end_board_names_the_winner_beside_why_the_game_ended(short_game):
    end = short_game[-1]
    outcome = RULES.outcome(end)
    assert outcome is not None
    header = layout_for("whist", end, names=["alice", "bob"]).texts_in((0, 30, WIDTH, 60))
    if outcome.is_draw:
        expected = f"Drawn: {outcome.reason}"
    else:
        seat = outcome.winners[0]
        expected = f"{('North', 'South')[seat]} ({('alice', 'bob')[seat]}) wins: {outcome.reason}"
    assert [t.text for t in header] == [expected]
    left = RULES.resign(RULES.new_game(2, {"variant": "short"}, setup_rng(2)), 1)  # South leaves
    header = layout_for("whist", left, names=["alice", "bob"]).texts_in((0, 30, WIDTH, 60))
    assert [t.text for t in header] == ["North (alice) wins: South left the game."]


def test_the_game_over_header_keeps_the_score_and_cuts_a_long_name():
    final = list(playout(RULES, 2, {}, seed=3))[-1]
    header = [t.text for t in layout_for("whist", final, names=["W" * 32, "M" * 32]).texts if " wins: " in t.text]
    assert header and header[0].endswith(" points to 4.") and "…) wins: " in header[0], header


def test_a_cut_name_ends_with_an_ellipsis():
    final = list(playout(RULES, 2, {}, seed=3))[-1]
    names = ["Bartholomew Feathersby-Wolfgang", "Christopher Columbus Junior III"]
    texts = [t.text for t in layout_for("whist", final, names=names).texts]
    labels = [t for t in texts if t.startswith(("North (B", "South (C"))]
    assert labels and all(names[0] in t or names[1] in t or "…)" in t for t in labels), labels
