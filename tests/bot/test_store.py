"""Storage: migrations upgrade in place, the log rebuilds every state, writes are all-or-nothing."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.selfplay import play_one
from bot.session import schema
from bot.session.service import Actor, GameService, ServiceError
from bot.session.store import NewMove, StaleVersion, Store
from bot.session.tournament_records import TournamentRecords, milestone

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def test_fresh_database_is_created_at_latest_version(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/sub/dir/bot.db"
    store = await Store.open(url)
    async with store.engine.connect() as conn:
        assert await conn.run_sync(schema.current_version) == schema.LATEST_VERSION
        mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar()
    assert mode == "wal"
    assert (tmp_path / "sub" / "dir" / "bot.db").exists()
    await store.close()


async def test_database_of_an_older_version_upgrades_in_place(db_url):
    engine = create_async_engine(db_url)
    async with engine.begin() as conn:
        await conn.run_sync(schema.migrate, 1)
        await conn.execute(
            text(
                "INSERT INTO games (guild_id, channel_id, game, options, seed, status, version, ply, state, outcome,"
                " creator_id, max_players, created_at, updated_at) VALUES (1, 77, 'hedgehog', '{}', 'abc', 'open',"
                " 0, 0, NULL, NULL, 5, 4, '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            )
        )
        await conn.execute(text("INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (1, 0, 5, 'old')"))
    await engine.dispose()

    store = await Store.open(db_url)
    game = await store.live_game(77)
    assert game is not None and game.seats[0].display_name == "old" and game.seats[0].stands_in_for is None
    assert game.clock_days is None and game.deadline is None and game.rated
    async with store.engine.connect() as conn:
        assert await conn.run_sync(schema.current_version) == schema.LATEST_VERSION
    # the upgraded database takes new games and the old one goes on
    service = GameService(store, clock=lambda: NOW, render=False)
    await service.join(77, Actor(6, "new"))
    assert [s.display_name for s in (await store.live_game(77)).seats] == ["old", "new"]
    await store.close()


async def test_tournaments_under_way_count_as_told_up_to_where_they_stand_after_the_upgrade(db_url):
    engine = create_async_engine(db_url)
    async with engine.begin() as conn:
        await conn.run_sync(schema.migrate, 8)
        for status, current in (("registration", 0), ("checkin", 0), ("running", 0), ("running", 3), ("finished", 4)):
            await conn.execute(
                text(
                    "INSERT INTO tournaments (guild_id, channel_id, name, game, options, format, status,"
                    " current_round, creator_id, seed, created_at, updated_at) VALUES (1, 2, 'cup', 'whist', '{}',"
                    " 'swiss', :status, :current, 5, 'abc', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
                ),
                {"status": status, "current": current},
            )
    await engine.dispose()

    store = await Store.open(db_url)
    records = TournamentRecords(store)
    told = [(t.status, t.current_round, t.told) for t in reversed(await records.tournaments())]
    assert told == [
        ("registration", 0, None),
        ("checkin", 0, "checkin"),  # its window's opening was posted before the upgrade
        ("running", 0, "began"),
        ("running", 3, "round 3"),
        ("finished", 4, "finished"),
    ]
    assert [milestone(t) == t.told for t in reversed(await records.tournaments())] == [True] * 5
    await store.close()


async def test_matches_under_way_count_as_greeted_after_the_upgrade(db_url):
    engine = create_async_engine(db_url)
    async with engine.begin() as conn:
        await conn.run_sync(schema.migrate, 9)
        await conn.execute(
            text(
                "INSERT INTO tournaments (guild_id, channel_id, name, game, options, format, status,"
                " current_round, creator_id, seed, created_at, updated_at) VALUES (1, 2, 'cup', 'whist', '{}',"
                " 'swiss', 'running', 1, 5, 'abc', '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO tournament_matches (tournament_id, round, board, players, status, created_at)"
                " VALUES (1, 1, 1, '[5, 6]', 'playing', '2026-01-01 00:00:00'),"
                " (1, 1, 2, '[7, 8]', 'pending', '2026-01-01 00:00:00')"
            )
        )
    await engine.dispose()

    store = await Store.open(db_url)
    records = TournamentRecords(store)
    under_way, waiting = await records.matches(1)
    assert under_way.greeted and not waiting.greeted  # a match not yet opened is greeted when it opens
    await store.close()


async def test_every_state_rebuilds_from_the_move_log(db_url):
    store = await Store.open(db_url)
    service = GameService(store, clock=lambda: NOW, render=False)
    chooser = random.Random(3)
    for channel in range(1, 5):
        options = {"turn_limit": 60}
        report, plies = await play_one(
            service, "hedgehog", 2 + channel % 3, options, f"seed{channel}", channel, chooser
        )
        game = await store.game(report.game.id)
        assert report.game == game  # the service's view after its last write is what the database holds
        assert plies == game.ply == len(await store.moves(game.id))
        rebuilt = await service.rebuild(game)
        assert rebuilt == service.rules_state(game)
        # and every prefix of the log replays
        middle = await service.rebuild(game, upto=plies // 2)
        assert middle is not None
    await store.close()


async def test_stale_write_is_refused_and_writes_nothing(db_url):
    store = await Store.open(db_url)
    game_id = await store.create_game(
        guild_id=1,
        channel_id=9,
        game="hedgehog",
        options={},
        seed="s",
        creator_id=1,
        creator_name="a",
        max_players=2,
        now=NOW,
    )
    game = await store.game(game_id)
    await store.update_game(game, NOW, status="active", state={"x": 1})
    with pytest.raises(StaleVersion):
        await store.append_moves(game, [NewMove(0, "pass", "passes", "move", {"x": 2})], NOW)
    after = await store.game(game_id)
    assert after.ply == 0 and after.state == {"x": 1} and await store.moves(game_id) == []
    await store.close()


async def test_a_crash_between_the_two_writes_leaves_no_half_move(db_url, monkeypatch):
    store = await Store.open(db_url)
    service = GameService(store, clock=lambda: NOW, render=False)
    alice, bob = Actor(1, "alice"), Actor(2, "bob")
    await service.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=2, seed="crash")
    await service.join(5, bob)
    report = await service.start(5, alice)
    first = alice if report.to_move_user == 1 else bob
    before = await store.live_game(5)

    from bot.session import store as store_module

    real_insert = store_module.insert

    def exploding_insert(table):
        if table is store_module.moves:
            raise RuntimeError("power cut")
        return real_insert(table)

    monkeypatch.setattr(store_module, "insert", exploding_insert)
    with pytest.raises(RuntimeError):
        await service.roll(5, first)
    monkeypatch.setattr(store_module, "insert", real_insert)

    after = await store.live_game(5)
    assert (after.version, after.ply, after.state) == (before.version, before.ply, before.state)
    assert await store.moves(after.id) == []
    # the game goes on normally afterwards
    report = await service.roll(5, first)
    assert report.game.ply == 1
    await store.close()


async def test_two_processes_racing_on_one_database_never_lose_or_double_a_move(db_url):
    store_a, store_b = await Store.open(db_url), await Store.open(db_url)
    service_a = GameService(store_a, clock=lambda: NOW, render=False)
    service_b = GameService(store_b, clock=lambda: NOW, render=False)
    alice, bob = Actor(1, "alice"), Actor(2, "bob")
    await service_a.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=2, seed="race")
    await service_a.join(5, bob)
    report = await service_a.start(5, alice)
    first = alice if report.to_move_user == 1 else bob
    outcomes = await asyncio.gather(service_a.roll(5, first), service_b.roll(5, first), return_exceptions=True)
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(applied) == 1 and len(refused) == 1
    game = await store_a.live_game(5)
    assert game.ply == 1 and len(await store_a.moves(game.id)) == 1
    assert await service_a.rebuild(game) == service_a.rules_state(game)
    await store_a.close()
    await store_b.close()


async def test_concurrent_moves_in_one_channel_apply_once_each_in_order(db_url):
    store = await Store.open(db_url)
    service = GameService(store, clock=lambda: NOW, render=False)
    alice, bob = Actor(1, "alice"), Actor(2, "bob")
    await service.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=2, seed="double")
    await service.join(5, bob)
    report = await service.start(5, alice)
    first = alice if report.to_move_user == 1 else bob
    other = bob if first is alice else alice
    # a double click on Roll from the right player, and the wrong player rolling at the same instant
    outcomes = await asyncio.gather(
        service.roll(5, first), service.roll(5, first), service.roll(5, other), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert all(isinstance(o, ServiceError) for o in outcomes if isinstance(o, BaseException))
    game = await store.live_game(5)
    assert game.ply == 1
    assert [m.ply for m in await store.moves(game.id)] == [0]
    await store.close()


async def test_shutdown_waits_for_the_move_in_flight(db_url, monkeypatch):
    store = await Store.open(db_url)
    service = GameService(store, clock=lambda: NOW)
    alice, bob = Actor(1, "alice"), Actor(2, "bob")
    await service.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=2, seed="drain")
    await service.join(5, bob)
    report = await service.start(5, alice)
    first = alice if report.to_move_user == 1 else bob
    gate = asyncio.Event()

    async def slow_render(*args, **kwargs):
        await gate.wait()
        return b"png"

    monkeypatch.setattr(service, "render", slow_render)
    moving = asyncio.create_task(service.roll(5, first))
    await asyncio.sleep(0.01)
    draining = asyncio.create_task(service.drain())
    await asyncio.sleep(0.01)
    assert not draining.done()  # shutdown is waiting for the roll
    gate.set()
    await draining
    assert moving.done() and (await moving).game.ply == 1
    await store.close()


async def test_the_state_cache_keeps_only_the_most_recent_games(db_url, monkeypatch):
    from bot.session import service as service_module

    monkeypatch.setattr(service_module, "STATE_CACHE_SIZE", 2)
    store = await Store.open(db_url)
    service = GameService(store, clock=lambda: NOW, render=False)
    for channel in (1, 2, 3):
        await service.new_game(guild_id=1, channel_id=channel, game="hedgehog", actor=Actor(1, "a"), max_players=1)
        await service.start(channel, Actor(1, "a"))
    assert len(service._cache) == 2
    # an evicted game is decoded again from the database, unchanged
    first = await store.live_game(1)
    assert service.state_of(first) == service.rules_state(first)
    await store.close()
