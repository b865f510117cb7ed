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
from games import REGISTRY
from renderers import render_game
from renderers.replay import animate, frame_count, pick_frames

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
