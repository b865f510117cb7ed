"""Computer players in the session layer: seated in the lobby, acting through the service, never rated.

A bot's search runs in a process pool: a slow bot never holds up another channel's moves.  With an
iteration budget, a game against bots is the same every time it is played.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest

from bot.render_pool import ai_pool
from bot.session import Thinking, open_session
from bot.session.service import Actor, ServiceError, bot_name

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")
FAST = Thinking(budget_ms=None, max_iterations=20)


async def open_table(db_url, thinking=FAST, executor=None):
    return await open_session(
        db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", ai_executor=executor, thinking=thinking
    )


def test_bots_are_named_by_level_and_numbered_when_several():
    assert bot_name("hard", []) == "Hard bot"
    assert bot_name("hard", ["alice", "Hard bot"]) == "Hard bot 2"
    assert bot_name("easy", ["Hard bot"]) == "Easy bot"


async def test_seating_bots_follows_the_lobby_rules(db_url):
    session = await open_table(db_url)
    games = session.games
    try:
        await games.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=ALICE, max_players=3)
        with pytest.raises(ServiceError, match="level"):
            await games.add_bot(5, ALICE, "grandmaster")
        with pytest.raises(ServiceError, match="Only the players"):
            await games.add_bot(5, CAROL, "easy")
        await games.add_bot(5, ALICE, "hard")
        game = await games.add_bot(5, ALICE, "hard")
        assert [s.display_name for s in game.seats] == ["alice", "Hard bot", "Hard bot 2"]
        assert [s.ai_level for s in game.seats] == [None, "hard", "hard"]
        assert len({s.user_id for s in game.seats}) == 3 and all(s.user_id < 0 for s in game.seats if s.is_bot)
        with pytest.raises(ServiceError, match="full"):
            await games.add_bot(5, ALICE, "easy")
        left = await games.leave(5, ALICE)  # the last person leaves: bots alone never play
        assert left.status == "aborted"
    finally:
        await session.close()


async def test_a_game_with_a_bot_is_unrated_and_the_bot_plays_its_turns(db_url):
    session = await open_table(db_url)
    games, shown = session.games, []
    try:
        await games.new_game(guild_id=1, channel_id=5, game="whist", actor=ALICE, max_players=2)
        await games.add_bot(5, ALICE, "normal")
        report = await games.start(5, ALICE)
        assert not report.game.rated

        async def show(report):
            shown.append(report)

        rng = random.Random(4)
        for _ in range(200):
            if report.outcome is not None:
                break
            if report.game.bot_at(report.to_move_seat) is not None:
                await session.autoplay.play(5, show)
                report = shown[-1]
                continue
            moves = await games.legal_moves(5, ALICE.user_id)
            report = await games.move(5, ALICE, rng.choice(moves).value)
        assert report.outcome is not None, "the game did not end"
        assert shown and all(r.game.id == report.game.id for r in shown)
        _, log = await games.history(5)
        assert {row.seat for row in log} == {0, 1}  # both seats played
    finally:
        await session.close()


async def play_practice_game(db_url) -> list[str]:
    """alice (random, seeded) against a normal bot at Der Marsigelwettkampf; the move log."""
    session = await open_table(db_url)
    games = session.games

    async def show(_report):
        return None

    try:
        await games.new_game(guild_id=1, channel_id=7, game="hedgehog", actor=ALICE, max_players=2)
        await games.add_bot(7, ALICE, "normal")
        report = await games.start(7, ALICE)
        rng = random.Random(9)
        for _ in range(400):
            if report.outcome is not None:
                break
            if report.game.bot_at(report.to_move_seat) is not None:
                await session.autoplay.play(7, show)
            elif report.needs_roll:
                await games.roll(7, ALICE)
            else:
                moves = await games.legal_moves(7, ALICE.user_id)
                await games.move(7, ALICE, rng.choice(moves).value)
            report = await games.board(7)
        _, log = await games.history(7)
        return [row.notation for row in log]
    finally:
        await session.close()


async def test_a_game_against_a_bot_with_an_iteration_budget_plays_the_same_every_time(tmp_path, db_url):
    if not db_url.startswith("sqlite"):
        pytest.skip("two databases of one test: SQLite files")
    first = await play_practice_game(f"sqlite+aiosqlite:///{tmp_path}/a.db")
    second = await play_practice_game(f"sqlite+aiosqlite:///{tmp_path}/b.db")
    assert first == second and len(first) > 10


async def test_a_slow_bot_never_holds_up_another_channel(db_url):
    session = await open_table(db_url, Thinking(budget_ms=6000, max_iterations=None), ai_pool(1))
    games = session.games
    try:
        await games.new_game(guild_id=1, channel_id=5, game="whist", actor=ALICE, max_players=2)
        await games.add_bot(5, ALICE, "hard")
        report = await games.start(5, ALICE)
        if report.game.bot_at(report.to_move_seat) is None:
            moves = await games.legal_moves(5, ALICE.user_id)
            await games.move(5, ALICE, moves[0].value)
        shown = []

        async def show(report):
            shown.append(report)

        thinker = asyncio.create_task(session.autoplay.play(5, show))
        await asyncio.sleep(0)
        await games.new_game(guild_id=1, channel_id=6, game="hedgehog", actor=BOB, max_players=2)
        await games.join(6, CAROL)
        other = await games.start(6, BOB)
        played_while_thinking = []
        for _ in range(8):  # another table plays on while the bot searches in its process
            actor = BOB if other.to_move_user == BOB.user_id else CAROL
            if other.needs_roll:
                other = await games.roll(6, actor)
            else:
                moves = await games.legal_moves(6, actor.user_id)
                other = await games.move(6, actor, moves[0].value)
            played_while_thinking.append(not shown)
        assert all(played_while_thinking), "the other table waited for the bot"
        await asyncio.wait_for(thinker, 60)
        assert shown, "the bot never played"
    finally:
        await session.close()
