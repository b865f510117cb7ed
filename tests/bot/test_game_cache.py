"""The games a SQLite store keeps in memory are always the games its database holds.

A move reads nothing from the database when its game is kept: these tests check that what is kept
after every kind of write is what a fresh read returns, that a read racing a write never keeps the
older game, and that a write refused or cancelled forgets the game.
"""

from __future__ import annotations

import asyncio
import random
import threading
from datetime import UTC, datetime

import pytest

from bot.session.game_cache import GameCache
from bot.session.schema import games
from bot.session.service import Actor, GameService, ServiceError
from bot.session.store import NewMove, StaleVersion, Store
from bot.session.table_messages import TableMessage, TableMessages

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")


async def open_store(db_url: str) -> Store:
    store = await Store.open(db_url)
    if store.cache is None:
        await store.close()
        pytest.skip("only a SQLite store, its database's one writer, keeps games")
    return store


async def fresh(db_url: str, game_id: int):
    """The game as the database holds it, read by a store that has kept nothing."""
    other = await Store.open(db_url, migrate=False)
    try:
        return await other._load(games.c.id == game_id)
    finally:
        await other.close()


async def started_game(store: Store, seed: str = "cache") -> tuple[GameService, int]:
    service = GameService(store, clock=lambda: NOW, render=False)
    await service.new_game(guild_id=1, channel_id=5, game="treasure", actor=ALICE, max_players=2, seed=seed)
    await service.join(5, BOB)
    report = await service.start(5, ALICE)
    return service, report.game.id


async def test_after_every_move_the_kept_game_is_the_stored_game(db_url):
    store = await open_store(db_url)
    service, game_id = await started_game(store)
    report = await service.board(5)
    rng = random.Random(3)
    for _ in range(40):  # rolls and moves of a Treasure Hunt game, as the players make them
        if report.outcome is not None:
            break
        actor = ALICE if report.to_move_user == ALICE.user_id else BOB
        if report.needs_roll:
            report = await service.roll(5, actor)
        else:
            report = await service.move(5, actor, rng.choice(report.options()).value)
        kept = store.cache.game(game_id)
        assert kept is not None, "a move leaves its game kept"
        assert kept == await fresh(db_url, game_id)
    assert report.game.ply >= 20
    await store.close()


async def test_a_read_that_raced_a_write_does_not_keep_the_older_game(db_url):
    store = await open_store(db_url)
    _, game_id = await started_game(store, seed="race")
    store.cache.written([game_id])  # nothing kept: the next read goes to the database
    real_load = store._load
    read_done, go_on = asyncio.Event(), asyncio.Event()

    async def slow_load(where, *, newest=False):
        found = await real_load(where, newest=newest)
        read_done.set()
        await go_on.wait()  # the read has its (soon older) game; a write ends meanwhile
        return found

    store._load = slow_load
    reading = asyncio.create_task(store.game(game_id))
    await read_done.wait()
    store._load = real_load
    older = await store.game(game_id)  # a read that is not held up, then the write
    await store.update_game(older, NOW, reminders_sent=older.reminders_sent + 1)
    go_on.set()
    assert (await reading).version == older.version  # the racing read answers with what it read...
    newer = await store.game(game_id)  # ...but did not keep it
    assert newer.version == older.version + 1 and newer == await fresh(db_url, game_id)
    await store.close()


async def test_a_write_another_process_made_is_found_by_the_version_check(db_url):
    store = await open_store(db_url)
    _, game_id = await started_game(store, seed="other")
    kept = await store.game(game_id)
    other = await Store.open(db_url, migrate=False)  # a second writer, which a SQLite file should not have
    await other.update_game(await other.game(game_id), NOW, reminders_sent=1)
    await other.close()
    with pytest.raises(StaleVersion):
        await store.append_moves(kept, [NewMove(0, "x", "x", "move", kept.state)], NOW)
    assert await store.game(game_id) == await fresh(db_url, game_id)  # refused, then read afresh
    await store.close()


async def test_a_write_cancelled_while_it_runs_forgets_its_game_once_it_commits(db_url):
    store = await open_store(db_url)
    if not store.engine.threaded:
        await store.close()
        pytest.skip("the writer thread runs only for a database file")
    _, game_id = await started_game(store, seed="cancel")
    game = await store.game(game_id)
    inside, release = threading.Event(), threading.Event()
    real_bump = Store._bump

    def held_bump(conn, row, now, **values):
        inside.set()
        release.wait(10)
        real_bump(conn, row, now, **values)

    store._bump = held_bump
    writing = asyncio.create_task(store.update_game(game, NOW, reminders_sent=2))
    await asyncio.to_thread(inside.wait, 10)
    writing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writing
    generation = store.cache.generation
    release.set()
    for _ in range(200):  # the transaction goes on in its thread and commits
        if store.cache.generation != generation:
            break
        await asyncio.sleep(0.01)
    del store._bump
    after = await store.game(game_id)
    assert after.reminders_sent == 2 and after == await fresh(db_url, game_id)
    await store.close()


async def test_living_messages_are_kept_and_forgotten_with_their_writes(db_url):
    store = await open_store(db_url)
    _, game_id = await started_game(store, seed="living")
    tables = TableMessages(store)
    assert await tables.get(game_id) is None
    board = TableMessage(game_id, 5, 777, "board", ("a move",))
    await tables.put(board, NOW)
    assert await tables.get(game_id) == board
    await tables.forget([game_id])
    assert await tables.get(game_id) is None
    assert await TableMessages(store).get(game_id) is None  # what the database says, read afresh
    await store.close()


async def test_a_finished_game_is_no_channels_live_game_any_more(db_url):
    store = await open_store(db_url)
    service, game_id = await started_game(store, seed="finish")
    await service.resign(5, ALICE)
    assert await store.live_game(5) is None
    assert (await store.latest_game(5)).id == game_id
    with pytest.raises(ServiceError):
        await service.move(5, BOB, "anything")
    await store.close()


def test_the_cache_forgets_the_least_recently_used_game_first():
    from bot.session.store import GameRow

    def row(game_id: int, channel_id: int, status: str = "active") -> GameRow:
        return GameRow(game_id, 1, channel_id, "whist", {}, "s", status, 0, 0, None, None, 1, 2, NOW, NOW)

    cache = GameCache(size=2)
    cache.keep(row(1, 10))
    cache.keep(row(2, 20))
    assert cache.game(1) is not None  # used: game 2 is now the oldest
    cache.keep(row(3, 30))
    assert cache.game(2) is None and cache.live_game(20) is None
    assert cache.live_game(10).id == 1 and cache.live_game(30).id == 3
    cache.keep(row(1, 10, status="finished"))
    assert cache.live_game(10) is None and cache.game(1).status == "finished"
    generation = cache.generation
    cache.keep(row(4, 40), generation - 1)  # read before a write ended: not kept
    assert cache.game(4) is None


def test_finished_games_have_a_small_budget_of_their_own():
    """Thousands of games end in an hour: only the latest few finished ones stay kept, running ones all do."""
    from bot.session.store import GameRow

    def row(game_id: int, status: str) -> GameRow:
        return GameRow(game_id, 1, game_id, "whist", {}, "s", status, 0, 0, None, None, 1, 2, NOW, NOW)

    cache = GameCache(size=100, finished=3)
    for game_id in range(1, 11):
        cache.keep(row(game_id, "active"))
    for game_id in range(1, 6):  # five games end, oldest first
        cache.keep(row(game_id, "finished"))
    assert [game_id for game_id in range(1, 6) if cache.game(game_id) is not None] == [3, 4, 5]
    assert all(cache.live_game(game_id).id == game_id for game_id in range(6, 11))
    cache.keep(row(3, "active"))  # a kept game that runs again (an undo) leaves the finished budget
    cache.keep(row(11, "finished"))
    cache.keep(row(12, "finished"))
    assert cache.game(3) is not None and cache.game(4) is None
    assert [game_id for game_id in (5, 11, 12) if cache.game(game_id) is not None] == [5, 11, 12]
