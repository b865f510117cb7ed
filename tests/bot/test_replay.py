"""Replays of long games: a bounded number of frames, the start and the final position always among them."""

from __future__ import annotations

import io
import itertools
import random
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.session import open_session
from bot.session.service import Actor
from bot.session.store import MoveRow
from games import REGISTRY
from renderers import render_game
from renderers.replay import animate, frame_count, pick_frames
from tests.games.test_combat_rules import BOXED, RED, YELLOW, position

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
PEOPLE = {a.user_id: a for a in (ALICE, BOB)}


def test_a_short_game_keeps_every_position():
    assert pick_frames(5, 120) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("count, limit", [(121, 120), (501, 120), (801, 120), (1000, 7), (3, 2)])
def test_a_long_game_keeps_evenly_spaced_positions_with_its_start_and_its_end(count, limit):
    picked = pick_frames(count, limit)
    assert len(picked) == limit and picked[0] == 0 and picked[-1] == count - 1
    gaps = [b - a for a, b in itertools.pairwise(picked)]
    assert min(gaps) >= 1 and max(gaps) - min(gaps) <= 1


def boards(count: int) -> list[bytes]:
    """The boards of a random two-player Marsigelwettkampf game, ``count`` of them (the game restarts as needed)."""
    rules, rng = REGISTRY["hedgehog"], random.Random(3)
    out: list[bytes] = []
    state = rules.new_game(2, {}, random.Random(3))
    while len(out) < count:
        out.append(render_game("hedgehog", state))
        if rules.outcome(state) is not None:
            state = rules.new_game(2, {}, random.Random(len(out)))
            continue
        move = rules.roll(state, rng) if rules.pending_roll(state) else rng.choice(rules.legal_moves(state))
        state = rules.apply(state, move)
    return out


def test_a_replay_too_big_for_the_limit_keeps_fewer_frames_at_the_same_width():
    pngs = boards(24)
    captions = [f"{i}/23" for i in range(24)]
    whole = animate(pngs, captions)
    assert frame_count(whole) == 24
    fewer = animate(pngs, captions, max_bytes=len(whole) // 3)
    assert len(fewer) <= len(whole) // 3 and 2 <= frame_count(fewer) < 24
    assert Image.open(io.BytesIO(fewer)).size == Image.open(io.BytesIO(whole)).size
    assert frame_count(animate(pngs, captions, max_bytes=1)) == 2  # the start and the end at the least


async def test_the_replay_of_a_long_game_draws_a_bounded_number_of_frames(db_url):
    session = await open_session(db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed")
    games = session.games
    try:
        await games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=2)
        await games.join(9, BOB)
        report = await games.start(9, ALICE)
        rng = random.Random(4)
        while report.outcome is None and report.game.ply < 60:
            actor = PEOPLE[report.to_move_user]
            if report.needs_roll:
                report = await games.roll(9, actor)
            else:
                options = await games.legal_moves(9, actor.user_id)
                report = await games.move(9, actor, rng.choice(options).value)
        game, log = await games.history(9)
        assert len(log) >= 30
        seen: list[tuple[int, int]] = []
        drawn, captions = await games.replay_boards(game, lambda done, total: seen.append((done, total)), limit=26)
        assert len(drawn) == len(captions) == 26
        assert captions[0] == "Start" and captions[-1].startswith(f"{len(log)}/{len(log)}: ")
        assert seen == [(25, 26)]
    finally:
        await session.close()


def _old_combat_log() -> list[MoveRow]:
    """The log an earlier engine wrote for Red's turn with an Aim and no step: the action roll (5, Aim),
    then the Aim die Red was asked to roll, which did nothing but end the turn."""
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        MoveRow(0, RED, "roll 5", "Red rolls 5 for the action: Aim.", "roll", at),
        MoveRow(1, RED, "roll 3", "Red rolls 3 for the Aim: up to 3 single-square steps.", "roll", at),
    ]


async def _old_combat_game(monkeypatch, db_url):
    """A running two-player Combat game whose start is the boxed-in position and whose log is the old one."""
    rules = REGISTRY["combat"]
    start = position(2, BOXED, current=RED, phase="action_roll")
    monkeypatch.setattr(rules, "new_game", lambda players, options, rng: start)
    session = await open_session(db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed")
    games = session.games
    await games.new_game(guild_id=1, channel_id=9, game="combat", actor=ALICE, max_players=2)
    await games.join(9, BOB)
    await games.start(9, ALICE)
    game = await games.live_game(9)
    log = _old_combat_log()

    async def moves(game_id: int, *args, **kwargs):
        return list(log)

    monkeypatch.setattr(games.store, "moves", moves)
    return session, game


async def test_replay_of_an_old_combat_game_with_an_aim_roll_and_no_step_draws_its_boards(db_url, monkeypatch):
    # a Combat game logged when an Aim with no step still asked for its die: undo and /game replay read it
    session, game = await _old_combat_game(monkeypatch, db_url)
    try:
        rebuilt = await session.games.rebuild(game)  # the state itself replays fine
        assert rebuilt.current == YELLOW
        boards, captions = await session.games.replay_boards(game)
        assert len(boards) == 3 and len(captions) == 3
    finally:
        await session.close()


def test_a_long_caption_is_wrapped_on_two_lines_inside_the_frame():
    """A move's whole description is its frame's caption: a long one takes two lines and is shortened
    only past them, never running off the frame's right edge."""
    from renderers.pyramids import BACKGROUND
    from renderers.replay import CAPTION_HEIGHT

    board = render_game("combat", REGISTRY["combat"].new_game(2, {}, random.Random(1)), names=["Alice", "Bob"])
    caption = "2/1666: Yellow rolls 1 for the action: Tip. Every stack is tipped over: c1 R3/R2/R1, d1 R3/R2/R1"
    frame = Image.open(io.BytesIO(animate([board, board], [caption, "Start"], width=560))).convert("RGB")

    def ink(box: tuple[int, int, int, int]) -> int:
        pixels = frame.crop(box).getdata()
        return sum(1 for p in pixels if max(abs(a - b) for a, b in zip(p, BACKGROUND, strict=True)) > 24)

    assert ink((frame.width - 8, 0, frame.width, CAPTION_HEIGHT)) == 0  # clear of the right edge
    half = CAPTION_HEIGHT // 2
    assert ink((0, 0, frame.width, half)) > 0 and ink((0, half, frame.width, CAPTION_HEIGHT)) > 0  # two lines
