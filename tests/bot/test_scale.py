"""Answering in time, drawing off the event loop, serialised SQLite writes, shards and migrations."""

from __future__ import annotations

import asyncio
import gc
import json
import multiprocessing
import os
from datetime import UTC, datetime, timedelta

import pytest

from bot.client import GC_YOUNG_THRESHOLD, settle_garbage_collector
from bot.pacing import OVERLOADED, QUEUED, WORKING, Pacer
from bot.render_pool import (
    WORKER_NICENESS,
    RenderPool,
    auto_workers,
    draw,
    shutdown_pools,
    start_search_workers,
)
from bot.session import open_session
from bot.session.service import Actor
from bot.session.store import SerialWriter, Store
from bot.settings import Settings, SettingsError, owns_guild
from tests.bot import shard_process

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")


async def test_a_quick_action_is_not_acknowledged_early() -> None:
    pacer = Pacer(ack_after=600)
    said: list[str] = []

    async def work() -> str:
        return "board"

    assert await pacer.run(5, work(), _say(said)) == "board"
    assert said == []
    assert pacer.depth(5) == 0


async def test_a_slow_action_is_acknowledged_then_answered() -> None:
    pacer = Pacer(ack_after=0)
    said: list[str] = []
    release = asyncio.Event()

    async def work() -> str:
        await release.wait()
        return "board"

    running = asyncio.create_task(pacer.run(5, work(), _say(said)))
    while not said:
        await asyncio.sleep(0)
    assert said == [WORKING]
    release.set()
    assert await running == "board"
    assert pacer.stats.slow == 1


async def test_actions_queued_in_a_channel_are_told_their_place_and_run_in_order() -> None:
    pacer = Pacer(ack_after=600)
    said: list[str] = []
    order: list[int] = []
    lock = asyncio.Lock()  # the service's channel lock: first come, first served
    gate = asyncio.Event()

    async def work(n: int) -> int:
        async with lock:
            await gate.wait()
            order.append(n)
            return n

    runs = [asyncio.create_task(pacer.run(7, work(n), _say(said))) for n in range(3)]
    while len(said) < 2:
        await asyncio.sleep(0)
    assert said == [QUEUED.format(ahead=1), QUEUED.format(ahead=2)]
    assert pacer.depth(7) == 3
    gate.set()
    assert await asyncio.gather(*runs) == [0, 1, 2]
    assert order == [0, 1, 2]
    assert pacer.depth(7) == 0


async def test_an_overloaded_process_acknowledges_at_once() -> None:
    pacer = Pacer(ack_after=600, busy_in_flight=1)
    said: list[str] = []
    gate = asyncio.Event()

    async def work() -> None:
        await gate.wait()

    runs = [asyncio.create_task(pacer.run(channel, work(), _say(said))) for channel in (1, 2)]
    while not said:
        await asyncio.sleep(0)
    assert said == [OVERLOADED]
    gate.set()
    await asyncio.gather(*runs)


async def test_a_failed_acknowledgement_never_stops_the_action() -> None:
    pacer = Pacer(ack_after=0)

    async def broken(_line: str) -> None:
        raise RuntimeError("gateway gone")

    async def work() -> str:
        await asyncio.sleep(0.01)
        return "board"

    assert await pacer.run(1, work(), broken) == "board"


def _say(said: list[str]):
    async def acknowledge(line: str) -> None:
        said.append(line)

    return acknowledge


# ---------------------------------------------------------------------------------------------- render


def test_render_workers_follow_the_setting_then_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    assert auto_workers(3) == 3
    monkeypatch.setenv("RENDER_WORKERS", "0")
    assert auto_workers(-1) == 0
    monkeypatch.delenv("RENDER_WORKERS")
    assert 1 <= auto_workers(-1) <= 8


async def test_boards_drawn_in_a_worker_process_match_boards_drawn_in_process(db_url: str) -> None:
    session = await open_session(db_url, render=False)
    try:
        game = await _started_whist(session)
        state = session.games.state_of(game)
        names = [s.display_name for s in game.seats]
        local = draw("whist", game.state, None, names)
        pool = RenderPool(1)
        await pool.start()
        assert await pool.render("whist", game.state, None, names) == local
        assert local.startswith(b"\x89PNG")
        session.games.renderer = pool
        session.games.render_enabled = True
        assert await session.games.render(game, state) == local
    finally:
        await session.close()
        shutdown_pools()  # no worker process outlives the test


@pytest.mark.skipif(not hasattr(os, "nice"), reason="no process priorities on this system")
async def test_board_workers_yield_the_cpu_to_the_bots_process() -> None:
    pool = RenderPool(1)
    try:
        await pool.start()
        assert pool._executor is not None
        worker_niceness = await asyncio.get_running_loop().run_in_executor(pool._executor, os.nice, 0)
        assert worker_niceness == min(19, os.nice(0) + WORKER_NICENESS)
    finally:
        shutdown_pools()


async def test_search_workers_are_all_started_with_the_bot_not_at_the_first_decision() -> None:
    before = {child.pid for child in multiprocessing.active_children()}
    try:
        assert await start_search_workers(2) is not None
        assert len({child.pid for child in multiprocessing.active_children()} - before) == 2
    finally:
        shutdown_pools()


# ---------------------------------------------------------------------------------------------- storage


async def test_concurrent_moves_in_many_channels_all_commit_on_sqlite(tmp_path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/busy.db"
    session = await open_session(url, render=False, pool_size=4, max_overflow=4)
    try:
        assert isinstance(session._store.engine, SerialWriter)
        channels = range(100, 140)
        games = [await _started_whist(session, channel) for channel in channels]

        async def play(channel: int) -> int:
            played = 0
            for _ in range(6):
                for actor in (ALICE, BOB):
                    options = await session.games.legal_moves(channel, actor.user_id)
                    if options:
                        await session.games.move(channel, actor, options[0].value)
                        played += 1
                        break
            return played

        played = await asyncio.gather(*(play(channel) for channel in channels))
        assert all(count == 6 for count in played)
        for game in games:
            fresh = await session._store.game(game.id)
            assert fresh is not None and fresh.ply == game.ply + 6
            assert len(await session._store.moves(game.id)) == fresh.ply
    finally:
        await session.close()


async def test_migrations_run_once_when_processes_open_an_empty_database_together(db_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(db_url) for _ in range(3)))
    try:
        assert await stores[0].count_games() == 0
    finally:
        for store in stores:
            await store.close()


# ---------------------------------------------------------------------------------------------- shards


def test_shard_settings_are_read_and_checked() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0, 2"}, dotenv=None)
    assert settings.shard_count == 4 and settings.shard_ids == (0, 2)
    with pytest.raises(SettingsError):
        Settings.from_env({"SHARD_IDS": "one"}, dotenv=None)
    guild = 5 << 22  # shard 1 of 4
    assert not settings.owns_guild(guild)
    assert settings.owns_guild((6 << 22) + 12345)
    assert settings.owns_guild(None)  # direct messages: the process running shard 0
    assert owns_guild(guild, None, None)


async def test_each_shard_process_handles_only_the_deadlines_of_its_guilds(db_url: str) -> None:
    now = datetime(2026, 3, 1, tzinfo=UTC)
    clock = [now]
    sessions = [
        await open_session(db_url, render=False, clock=lambda: clock[0], shards=(2, (shard,))) for shard in (0, 1)
    ]
    try:
        guilds = {0: 2 << 22, 1: 3 << 22}  # one guild on each shard
        made = {}
        for shard, guild in guilds.items():
            made[shard] = await _started_whist(sessions[0], 500 + shard, guild_id=guild, clock_days=1)
        clock[0] = now + timedelta(days=3)
        due = [await s._store.games_due(clock[0]) for s in sessions]
        assert due == [[made[0].id], [made[1].id]]
        results = await asyncio.gather(*(s.timekeeper.tick() for s in sessions))
        assert sum(r.timeouts + r.reminders for r in results) >= 2
        again = await asyncio.gather(*(s.timekeeper.tick() for s in sessions))
        assert all(r.timeouts == 0 for r in again)
    finally:
        for session in sessions:
            await session.close()


async def _started_whist(session, channel: int = 42, guild_id: int = 9, clock_days: int | None = None):
    games = session.games
    await games.new_game(guild_id=guild_id, channel_id=channel, game="whist", actor=ALICE, clock_days=clock_days)
    await games.join(channel, BOB)
    report = await games.start(channel, ALICE)
    return report.game


async def test_two_sessions_over_one_database_fire_each_deadline_once_and_never_double_a_move(db_url: str) -> None:
    """Two sessions with engines of their own (as two bot processes, or a shard handing over) work the
    same games at once: every due clock event is written once, every delivery claimed once, no move twice."""
    now = datetime(2026, 3, 1, tzinfo=UTC)
    clock = [now]
    one, two = [await open_session(db_url, render=False, clock=lambda: clock[0]) for _ in range(2)]
    try:
        channels = list(range(600, 612))
        for channel in channels:
            await _started_whist(one, channel, clock_days=1)
        # both processes receive a move for every game at the same moment: one wins, one is refused
        options = [
            await one.games.legal_moves(c, ALICE.user_id) or await one.games.legal_moves(c, BOB.user_id)
            for c in channels
        ]

        async def attempt(session, channel: int, option) -> bool:
            actor = ALICE if await session.games.legal_moves(channel, ALICE.user_id) else BOB
            try:
                await session.games.move(channel, actor, option.value)
                return True
            except Exception:
                return False

        results = await asyncio.gather(
            *(attempt(s, c, o[0]) for c, o in zip(channels, options, strict=True) for s in (one, two))
        )
        assert sum(results) == len(channels)
        # deadlines and reminders fall due: both processes tick together, twice
        for days in (1, 2, 4, 8):
            clock[0] = now + timedelta(days=days, minutes=1)
            await asyncio.gather(one.timekeeper.tick(), two.timekeeper.tick())
            await asyncio.gather(one.timekeeper.tick(), two.timekeeper.tick())
        pending = await one._store.undelivered()
        keys = [(d.game_id, d.ply, d.kind, d.user_id, json.dumps(d.payload, sort_keys=True)) for d in pending]
        assert keys
        assert len(keys) == len(set(keys))  # each reminder and timeout report written once
        claimed = await asyncio.gather(one.games.claim_deliveries(), two.games.claim_deliveries())
        ids = [d.id for batch in claimed for d in batch]
        assert ids and len(ids) == len(set(ids))  # no event is claimed by both
        timeouts = 0
        # read back through a session of its own: with SQLite each session keeps the games it wrote in
        # memory (one process owns a SQLite file, docs/deploy.md), so session one's copy of a game the
        # other session wrote last is behind the database; the database is what is checked here
        check = await open_session(db_url, render=False, clock=lambda: clock[0])
        for channel in channels:
            game, log = await check.games.history(channel)
            plies = [row.ply for row in log]
            assert plies == list(range(len(log)))  # no ply written twice, none missing
            assert game.ply == len(log)
            timeouts += sum(1 for row in log if row.kind == "removed")
        assert timeouts  # the deadlines did fire
        await check.close()
    finally:
        await one.close()
        await two.close()


async def test_two_processes_over_one_database_fire_each_deadline_once_and_never_double_a_move(db_url: str) -> None:
    """Two bot processes (OS processes, each with its own session) work the same games together: both
    send every game's move at the same moment, then tick their clocks through the deadlines together,
    then claim the deliveries together.  Each move lands once, each event is written once, each
    delivery is claimed by one process."""
    now = datetime(2026, 3, 1, tzinfo=UTC)
    setup = await open_session(db_url, render=False, clock=lambda: now)
    channels = list(range(700, 712))
    try:
        for channel in channels:
            await _started_whist(setup, channel, clock_days=1)
    finally:
        await setup.close()
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(3)  # the two processes and this test
    out = context.Queue()
    processes = [
        context.Process(target=shard_process.run, args=(db_url, channels, now.isoformat(), barrier, out))
        for _ in range(2)
    ]
    for process in processes:
        process.start()
    try:
        for _ in range(1 + len(shard_process.TICK_DAYS)):  # the moves, then each day's ticks
            await asyncio.to_thread(barrier.wait, 120)
        await asyncio.to_thread(barrier.wait, 120)  # both have ticked through every deadline
        reader = await open_session(db_url, render=False, clock=lambda: now)
        try:
            pending = await reader._store.undelivered()
        finally:
            await reader.close()
        keys = [(d.game_id, d.ply, d.kind, d.user_id, json.dumps(d.payload, sort_keys=True)) for d in pending]
        assert keys
        assert len(keys) == len(set(keys))  # each reminder and timeout report written once
        await asyncio.to_thread(barrier.wait, 120)  # now both claim
        reports = [await asyncio.to_thread(out.get, True, 120) for _ in processes]
    finally:
        for process in processes:
            process.join(60)
            if process.is_alive():
                process.kill()
    assert [process.exitcode for process in processes] == [0, 0]
    moved = sorted(channel for channels_moved, _ in reports for channel in channels_moved)
    assert moved == channels  # every game's move landed once, in one process or the other
    claimed = [delivery for _, ids in reports for delivery in ids]
    assert sorted(claimed) == sorted(d.id for d in pending)  # every delivery claimed, none by both
    check = await open_session(db_url, render=False, clock=lambda: now)
    try:
        timeouts = 0
        for channel in channels:
            game, log = await check.games.history(channel)
            assert [row.ply for row in log] == list(range(len(log)))  # no ply written twice, none missing
            assert game.ply == len(log)
            timeouts += sum(1 for row in log if row.kind == "removed")
        assert timeouts  # the deadlines did fire
    finally:
        await check.close()


# ---------------------------------------------------------------------------------------------- memory


def test_the_garbage_collector_is_settled_once_per_process() -> None:
    threshold = gc.get_threshold()
    gc.set_threshold(700, *threshold[1:])
    try:
        settle_garbage_collector()
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, *threshold[1:])
        assert gc.get_freeze_count() > 0  # what start-up built is out of later collections
        frozen = gc.get_freeze_count()
        settle_garbage_collector()  # a second bot in the same process changes nothing
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
