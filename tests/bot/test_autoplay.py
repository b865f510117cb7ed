"""Computer players in the session layer: seated in the lobby, acting through the service, never rated.

A bot's search runs in a process pool: a slow bot never holds up another channel's moves.  With an
iteration budget, a game against bots is the same every time it is played.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import random
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from datetime import UTC, datetime

import pytest

import ai.budget
import bot.session.autoplay as autoplay
from ai import choose_move, choose_notation
from bot.render_pool import ai_pool, shutdown_pools
from bot.session import Autoplayer, BotTurn, Thinking, open_session
from bot.session.service import Actor, ServiceError, bot_name, rules_for
from bot.settings import Settings
from tests.bot.gated import gated_search

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


async def test_bots_asked_for_when_a_game_opens_are_seated_in_the_same_write(db_url):
    session = await open_table(db_url)
    games = session.games
    try:
        with pytest.raises(ServiceError, match="At most 2 bots: a game needs at least one person at its table of 3"):
            await games.new_game(
                guild_id=1, channel_id=5, game="hedgehog", actor=ALICE, max_players=3, bots=["easy"] * 3
            )
        with pytest.raises(ServiceError, match="level"):
            await games.new_game(guild_id=1, channel_id=5, game="whist", actor=ALICE, bots=["grandmaster"])
        assert await games.live_game(5) is None  # a refusal opens nothing
        game = await games.new_game(
            guild_id=1, channel_id=5, game="hedgehog", actor=ALICE, max_players=4, bots=["hard", "easy", "hard"]
        )
        assert [s.display_name for s in game.seats] == ["alice", "Hard bot", "Easy bot", "Hard bot 2"]
        assert [s.seat for s in game.seats] == [0, 1, 2, 3]
        assert len({s.user_id for s in game.seats}) == 4 and all(s.user_id < 0 for s in game.seats if s.is_bot)
        assert game.version == 0  # written once, with the game: no join could come between
        with pytest.raises(ServiceError, match="full"):
            await games.join(5, BOB)
        started = await games.start(5, ALICE)
        await games.resign(5, ALICE)  # the last person leaves: the game ends
        again = await games.rematch(started.game, ALICE)
        assert [s.display_name for s in again.seats] == ["alice", "Hard bot", "Easy bot", "Hard bot 2"]
        assert again.version == 0
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


async def play_practice_game(db_url, game="hedgehog", level="normal", plies=400, thinking=FAST) -> list[str]:
    """alice (random, seeded) against a bot (by default a normal bot at Der Marsigelwettkampf); the move log."""
    session = await open_table(db_url, thinking)
    games = session.games

    async def show(_report):
        return None

    try:
        await games.new_game(guild_id=1, channel_id=7, game=game, actor=ALICE, max_players=2)
        await games.add_bot(7, ALICE, level)
        report = await games.start(7, ALICE)
        rng = random.Random(9)
        for _ in range(plies):
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


async def test_a_slow_bot_never_holds_up_another_channel(db_url, tmp_path, monkeypatch):
    gate = tmp_path / "the search may end"
    # the bot's search, in its process, lasts until the other table has played (see tests/bot/gated.py)
    monkeypatch.setattr(autoplay, "choose_notation", functools.partial(gated_search, str(gate)))
    session = await open_table(db_url, Thinking(budget_ms=300, max_iterations=None), ai_pool(1))
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
        gate.touch()
        await asyncio.wait_for(thinker, 60)
        assert shown, "the bot never played"
    finally:
        await session.close()


# ---------------------------------------------------------------------------------- a table never stalls


async def whist_against(session, channel, level="normal"):
    """A practice game of Martian Whist, alice against a bot, where the bot is to act; its report."""
    games = session.games
    await games.new_game(guild_id=1, channel_id=channel, game="whist", actor=ALICE, max_players=2)
    await games.add_bot(channel, ALICE, level)
    report = await games.start(channel, ALICE)
    if report.game.bot_at(report.to_move_seat) is None:
        moves = await games.legal_moves(channel, ALICE.user_id)
        report = await games.move(channel, ALICE, moves[0].value)
    return report


def decision(report):
    """The bot's decision in ``report``: the turn as the autoplayer sees it."""
    return BotTurn(report.game, report.game.bot_at(report.to_move_seat), report.needs_roll)


def easy_choice(report):
    """The fallback of the bot to act in ``report``: the easy level's move with the decision's seed."""
    rules = rules_for(report.game.game)
    state = rules.from_json(report.game.state)
    return rules.format_move(state, choose_move(rules, state, "easy", decision(report).seed))


async def bot_reply(session, channel, report):
    """The notation the bot played at the ply of ``report``."""
    _, log = await session.games.history(channel)
    return next(row.notation for row in log if row.ply == report.game.ply)


async def nothing(_report):
    return None


async def test_a_search_worker_that_dies_is_replaced_and_the_bot_plays_its_searched_move(db_url):
    pool = ai_pool(1)
    session = await open_table(db_url, FAST, pool)
    try:
        report = await whist_against(session, 5)
        assert await asyncio.get_running_loop().run_in_executor(pool, int, "7") == 7  # its process is up
        for process in list(pool._processes.values()):  # the OOM killer
            process.kill()
            await asyncio.to_thread(process.join)
        assert await session.autoplay.play(5, nothing) >= 1
        turn = decision(report)
        searched = choose_notation("whist", report.game.state, "normal", turn.seed, None, FAST.max_iterations)
        assert await bot_reply(session, 5, report) == searched  # searched again, not a fallback
        assert session.autoplay.executor is not pool
        assert ai_pool(1) is session.autoplay.executor  # the broken pool is handed to no one again
    finally:
        await session.close()
        shutdown_pools()


class BrokenPool(Executor):
    """A pool whose processes die as soon as they start."""

    def submit(self, fn, /, *args, **kwargs):
        raise BrokenProcessPool("A child process terminated abruptly")


async def test_search_workers_that_die_again_at_once_leave_bots_searching_in_threads(db_url, monkeypatch):
    retired = []
    monkeypatch.setattr(autoplay, "renew_search_pool", lambda broken, kill=False: BrokenPool(), raising=False)
    monkeypatch.setattr(autoplay, "retire_pool", retired.append, raising=False)
    session = await open_table(db_url, FAST, BrokenPool())
    try:
        report = await whist_against(session, 5)
        assert await session.autoplay.play(5, nothing) >= 1
        assert await bot_reply(session, 5, report) == easy_choice(report)  # this decision: the fallback
        assert session.autoplay.executor is None and len(retired) == 1  # the next ones: threads
    finally:
        await session.close()


async def test_a_search_that_fails_is_logged_with_its_game_and_the_bot_plays_a_random_move(db_url, monkeypatch, caplog):
    def failing(*_arguments):
        raise ZeroDivisionError("a bug in an evaluation")

    monkeypatch.setattr(autoplay, "choose_notation", failing)
    session = await open_table(db_url)
    shown = []

    async def show(report):
        shown.append(report)

    try:
        report = await whist_against(session, 5)
        with caplog.at_level(logging.ERROR, logger="bot.session.autoplay"):
            assert await session.autoplay.play(5, show) >= 1
        assert shown and await bot_reply(session, 5, report) == easy_choice(report)
        failure = next(r for r in caplog.records if r.exc_info and r.exc_info[0] is ZeroDivisionError)
        assert f"game {report.game.id}" in failure.getMessage()
    finally:
        await session.close()


async def test_a_runaway_search_in_a_thread_is_abandoned_for_the_fallback_move(db_url, monkeypatch):
    release = threading.Event()

    def runaway(*_arguments):
        release.wait()
        return "never played"

    monkeypatch.setattr(autoplay, "choose_notation", runaway)
    threads = ThreadPoolExecutor(1)
    session = await open_table(db_url, replace(FAST, timeout_s=0.01), threads)
    try:
        report = await whist_against(session, 5)
        assert await session.autoplay.play(5, nothing) >= 1
        assert await bot_reply(session, 5, report) == easy_choice(report)
    finally:
        release.set()
        threads.shutdown()
        await session.close()


async def test_a_runaway_search_in_a_process_is_stopped_with_its_pool(db_url):
    pool = ai_pool(1)
    session = await open_table(db_url, replace(FAST, timeout_s=0.5), pool)
    loop = asyncio.get_running_loop()
    try:
        report = await whist_against(session, 5)
        assert await loop.run_in_executor(pool, int, "7") == 7
        stuck = list(pool._processes.values())
        runaway = loop.run_in_executor(pool, time.sleep, 3600)  # holds the only worker: the search queues
        runaway.add_done_callback(lambda done: done.cancelled() or done.exception())
        assert await session.autoplay.play(5, nothing) >= 1
        assert await bot_reply(session, 5, report) == easy_choice(report)
        for process in stuck:
            await asyncio.to_thread(process.join, 60)
            assert process.exitcode is not None, "the stuck worker still runs"
        assert session.autoplay.executor is not pool and ai_pool(1) is session.autoplay.executor
        assert await loop.run_in_executor(session.autoplay.executor, int, "8") == 8
    finally:
        await session.close()
        shutdown_pools()


# ------------------------------------------------------------------------- a stale choice is never played


class GatedThreads(ThreadPoolExecutor):
    """Searches that finish when the gate opens (a busy pool), each recorded with its answer."""

    def __init__(self) -> None:
        super().__init__(1)
        self.gate = threading.Event()
        self.submitted = asyncio.Event()
        self.searches: list[tuple[tuple, str]] = []

    def submit(self, fn, /, *args, **kwargs):
        def gated():
            self.gate.wait()
            answer = fn(*args, **kwargs)
            self.searches.append((args, answer))
            return answer

        self.submitted.set()  # run_in_executor submits from the event loop's thread
        return super().submit(gated)


@contextlib.asynccontextmanager
async def bot_thinking_after_my_move(db_url):
    """A Whist table of alice and a normal bot, alice's first pick made and the bot's search held at its
    start: the session, the held searcher, alice's report and the bot's task."""
    searcher = GatedThreads()
    session = await open_table(db_url, executor=searcher)
    games = session.games
    try:
        await games.new_game(guild_id=1, channel_id=5, game="whist", actor=ALICE, max_players=2)
        await games.add_bot(5, ALICE, "normal")
        await games.start(5, ALICE)
        first = await games.move(5, ALICE, "take B1 b")
        thinking = asyncio.create_task(session.autoplay.play(5, nothing))
        await asyncio.wait_for(searcher.submitted.wait(), 60)  # the bot searches the position after B1 b
        yield session, searcher, first, thinking
    finally:
        searcher.gate.set()
        searcher.shutdown()
        await session.close()


async def test_a_choice_searched_before_an_undo_and_another_move_is_not_played(db_url):
    async with bot_thinking_after_my_move(db_url) as (session, searcher, first, thinking):
        games = session.games
        await session.undo.request(5, ALICE)
        second = await games.move(5, ALICE, "take B1 c")
        assert second.game.ply == first.game.ply and second.game.state != first.game.state
        searcher.gate.set()
        await asyncio.wait_for(thinking, 60)
        (old, stale), (again, fresh) = searcher.searches
        assert old[1] == first.game.state and again[1] == second.game.state and stale != fresh
        assert await bot_reply(session, 5, second) == fresh


async def test_a_pending_search_is_never_played_in_the_next_game_of_the_channel(db_url):
    async with bot_thinking_after_my_move(db_url) as (session, searcher, _first, thinking):
        games = session.games
        old = await games.abort(5, ALICE)
        await games.new_game(guild_id=1, channel_id=5, game="whist", actor=ALICE, max_players=2)
        await games.add_bot(5, ALICE, "hard")
        await games.start(5, ALICE)
        new = await games.move(5, ALICE, "take B1 c")
        assert new.game.id != old.id and new.game.ply == old.ply
        searcher.gate.set()
        await asyncio.wait_for(thinking, 60)
        (_, _), (again, fresh) = searcher.searches
        assert again[1] == new.game.state and again[2] == "hard"
        assert await bot_reply(session, 5, new) == fresh


async def test_a_service_that_checks_the_game_and_its_version_itself_is_given_them(db_url, monkeypatch):
    session = await open_table(db_url)
    try:
        report = await whist_against(session, 5)
        original, guards = session.games.move, []

        async def move(channel_id, actor, notation, *, token=None, game_id=None, version=None):
            guards.append((game_id, version))
            return await original(channel_id, actor, notation, token=token)

        monkeypatch.setattr(session.games, "move", move)
        assert await Autoplayer(session.games, None, FAST).play(5, nothing) >= 1
        assert guards[0] == (report.game.id, report.game.version)
    finally:
        await session.close()


# ------------------------------------------------------------------------------ who acts, and when not


async def test_finding_the_bots_to_act_draws_no_board(db_url):
    drawn = []

    class CountingBoards:
        async def render(self, game, state_json, last_move, names):
            drawn.append(game)
            return b"png"

    session = await open_session(db_url, clock=lambda: NOW, render=True, new_seed=lambda: "seed", thinking=FAST)
    session.games.renderer = CountingBoards()
    games = session.games
    try:
        for channel in (10, 11, 12):
            person = Actor(channel, f"player {channel}")
            await games.new_game(guild_id=1, channel_id=channel, game="hedgehog", actor=person, max_players=2)
            await games.add_bot(channel, person, "easy")
            await games.start(channel, person)
            if channel != 12:  # 10 and 11 wait for their person; at 12 the bot is left to act
                await session.autoplay.play(channel, nothing)
        report = await games.board(12)
        while report.game.bot_at(report.to_move_seat) is None:
            person = Actor(12, "player 12")
            if report.needs_roll:
                report = await games.roll(12, person)
            else:
                report = await games.move(12, person, (await games.legal_moves(12, 12))[0].value)
        drawn.clear()
        assert await session.autoplay.waiting_channels() == [12]
        turn = await session.autoplay.bot_turn(12)
        assert turn is not None and turn.needs_roll == report.needs_roll
        assert drawn == []
    finally:
        await session.close()


async def test_bots_do_not_play_on_alone_once_every_person_has_left(db_url, monkeypatch):
    session = await open_table(db_url)
    games = session.games
    try:
        report = await whist_against(session, 5)
        assert await session.autoplay.bot_turn(5) is not None
        await games.store.update_seat(report.game, report.game.seat_of(ALICE.user_id), NOW, removed=1)
        alone = await games.live_game(5)
        assert alone.status == "active" and not any(not row.removed for row in alone.humans)
        assert await session.autoplay.bot_turn(5) is None
        assert await session.autoplay.play(5, nothing) == 0
        assert 5 not in await session.autoplay.waiting_channels()
        # nor at a tournament's table: its result is settled once nobody is left to play against
        monkeypatch.setattr(games, "live_game", lambda _channel: asyncio.sleep(0, replace(alone, tournament_id=1)))
        assert await session.autoplay.bot_turn(5) is None
    finally:
        await session.close()


async def test_a_capped_game_against_a_hard_bot_replays_the_same_on_a_slower_machine(tmp_path, db_url, monkeypatch):
    """With ``AI_MAX_ITERATIONS`` set (reproducible play), the search is bounded by iterations alone."""
    if not db_url.startswith("sqlite"):
        pytest.skip("two databases of one test: SQLite files")
    settings = Settings(token="x", ai_max_iterations=60)  # AI_MAX_ITERATIONS=60, AI_BUDGET_MS its default
    thinking = Thinking.configured(settings.ai_budget_ms, settings.ai_max_iterations)  # as the bot builds it
    first = await play_practice_game(f"sqlite+aiosqlite:///{tmp_path}/a.db", "whist", "hard", 40, thinking)
    ticks = itertools.count()
    monkeypatch.setattr(ai.budget.time, "perf_counter", lambda: next(ticks) * 0.5)  # a loaded machine: 0.5 s a look
    second = await play_practice_game(f"sqlite+aiosqlite:///{tmp_path}/b.db", "whist", "hard", 40, thinking)
    assert len(first) > 10
    assert first == second, "the same seed and the same iteration cap gave the hard bot other moves"


def stuck_when_hard(game, state, level, *rest):
    """A search that never ends for a hard bot (a runaway), the real one otherwise."""
    if level == "hard":
        time.sleep(3600)
    return choose_notation(game, state, level, *rest)


async def test_a_runaway_search_does_not_stop_the_bots_queued_behind_it(db_url, monkeypatch):
    """A search stuck in the shared pool is stopped with its pool; the searches of other channels waiting
    in that pool are cancelled with it, and searched again in the new one: no bot stops playing."""
    monkeypatch.setattr(autoplay, "choose_notation", stuck_when_hard)
    session = await open_table(db_url, Thinking(None, 20, timeout_s=2.0), ai_pool(1))
    bots = session.autoplay

    async def nothing(_report):
        return None

    try:
        await whist_against(session, 10, "hard")  # its search holds the only worker and never ends
        queued = [11, 12, 13]  # behind it: the pool hands the first two to its worker's queue, the last waits
        for channel in queued:
            await whist_against(session, channel, "normal")
        pool = bots.executor
        assert pool is not None
        bots.start(10, nothing)
        await asyncio.sleep(0.5)
        for channel in queued:
            bots.start(channel, nothing)
            await asyncio.sleep(0.05)
        await asyncio.wait_for(bots.wait(), 120)
        assert bots.executor is not pool  # the runaway's worker was stopped with its pool
        assert await bots.bot_turn(10) is None  # the runaway's bot played its fallback
        stopped = [channel for channel in queued if await bots.bot_turn(channel) is not None]
        assert stopped == [], f"the bots of channels {stopped}, queued behind the runaway, never played"
    finally:
        await session.close()
        shutdown_pools()


async def test_a_game_that_cannot_be_read_back_does_not_keep_other_tables_bots_asleep(db_url, caplog):
    from sqlalchemy import update

    from bot.session.schema import games as games_table

    session = await open_session(db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", thinking=FAST)
    games = session.games
    try:
        for channel in (20, 21):
            person = Actor(channel, f"player {channel}")
            await games.new_game(guild_id=1, channel_id=channel, game="hedgehog", actor=person, max_players=2)
            await games.add_bot(channel, person, "easy")
            await games.start(channel, person)
            report = await games.board(channel)
            while report.game.bot_at(report.to_move_seat) is None:  # the person plays until the bot is to act
                if report.needs_roll:
                    report = await games.roll(channel, person)
                else:
                    report = await games.move(channel, person, (await games.legal_moves(channel, channel))[0].value)
        assert sorted(await session.autoplay.waiting_channels()) == [20, 21]
        damaged = await games.live_game(20)
        assert damaged is not None
        async with games.store.engine.begin() as conn:  # its engine can no longer read its position
            await conn.execute(update(games_table).where(games_table.c.id == damaged.id).values(state={"broken": 1}))
        games._cache.clear()
        if games.store.cache is not None:  # SQLite's cache of game rows (PostgreSQL reads every time)
            games.store.cache.written({damaged.id})
        with caplog.at_level(logging.ERROR, logger="bot.session.autoplay"):
            assert await session.autoplay.waiting_channels() == [21]
        assert "channel 20 cannot be woken" in caplog.text
    finally:
        await session.close()
