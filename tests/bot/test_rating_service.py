"""Ratings per server and game: updated once when a rated game finishes, never for aborted or unrated games."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import inspect

from bot.rating_model import Rating, rate_game
from bot.session import schema
from bot.session.ratings import RatingService
from bot.session.service import Actor, GameService
from bot.session.store import Store
from games.base import Outcome

NOW = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)
GUILD = 42
ALICE, BOB, CAROL, DAVE = (Actor(100 + i, n) for i, n in enumerate(("alice", "bob", "carol", "dave")))


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
async def env(db_url):
    store = await Store.open(db_url)
    clock = Clock()
    service = GameService(store, clock=clock, render=False)
    ratings = RatingService(store, clock=clock)
    service.listeners.append(ratings.on_report)
    yield store, service, ratings
    await store.close()


async def start(service, channel, players, game="hedgehog", guild=GUILD):
    await service.new_game(guild_id=guild, channel_id=channel, game=game, actor=players[0], max_players=len(players))
    for player in players[1:]:
        await service.join(channel, player)
    return await service.start(channel, players[0])


async def test_a_finished_game_updates_each_players_rating_once(env):
    _store, service, ratings = env
    await start(service, 1, [ALICE, BOB])
    report = await service.resign(1, BOB)
    assert report.outcome.ranks == (1, 2)
    alice = await ratings.rating(GUILD, "hedgehog", ALICE.user_id)
    bob = await ratings.rating(GUILD, "hedgehog", BOB.user_id)
    expected = rate_game([Rating(), Rating()], [1, 2])
    assert alice.rating == expected[0] and bob.rating == expected[1]
    assert (alice.games, alice.wins, alice.rank) == (1, 1, 1)
    assert (bob.games, bob.wins, bob.rank) == (1, 0, 2)
    assert alice.ordinal > bob.ordinal
    # the same end reported again (a second listener call, the catch-up) changes nothing
    await ratings.on_report(report)
    assert await ratings.catch_up() == 0
    assert (await ratings.rating(GUILD, "hedgehog", ALICE.user_id)).games == 1
    assert await ratings.count_rated(GUILD) == 1
    # ratings are per server and per game
    assert await ratings.rating(GUILD + 1, "hedgehog", ALICE.user_id) is None
    assert await ratings.rating(GUILD, "whist", ALICE.user_id) is None


async def test_aborted_unrated_solo_and_serverless_games_are_not_rated(env):
    store, service, ratings = env
    await start(service, 1, [ALICE, BOB])
    await service.abort(1, ALICE)
    # an unrated game (e.g. one with an AI seat)
    game_id = await store.create_game(
        guild_id=GUILD,
        channel_id=2,
        game="hedgehog",
        options={"xeno": False, "turn_limit": 200},
        seed="s",
        creator_id=ALICE.user_id,
        creator_name="alice",
        max_players=2,
        now=NOW,
        rated=False,
    )
    await service.join(2, BOB)
    await service.start(2, ALICE)
    await service.resign(2, BOB)
    assert (await store.game(game_id)).status == "finished"
    await start(service, 3, [ALICE])  # a solo game of Der Marsigelwettkampf
    await service.resign(3, ALICE)
    await start(service, 4, [ALICE, BOB], guild=None)
    await service.resign(4, ALICE)
    assert await ratings.count_rated(GUILD) == 0
    assert await ratings.ratings_of(GUILD, ALICE.user_id) == []
    assert await ratings.catch_up() == 0


async def test_a_game_that_ended_unheard_is_rated_by_the_catch_up(env):
    _store, service, ratings = env
    service.listeners.clear()
    await start(service, 1, [ALICE, BOB])
    await service.resign(1, ALICE)
    assert await ratings.rating(GUILD, "hedgehog", BOB.user_id) is None
    assert await ratings.catch_up() == 1
    assert (await ratings.rating(GUILD, "hedgehog", BOB.user_id)).wins == 1
    assert await ratings.catch_up() == 0


async def test_a_four_player_finishing_order_leaderboard_and_recent_results(env):
    _store, service, ratings = env
    await start(service, 1, [ALICE, BOB, CAROL, DAVE])
    for leaver in (DAVE, BOB, CAROL):  # the first to leave ranks last
        report = await service.resign(1, leaver)
    assert report.outcome.ranks == (1, 3, 2, 4)
    await start(service, 2, [BOB, CAROL])
    await service.resign(2, BOB)
    board = await ratings.leaderboard(GUILD, "hedgehog")
    assert board[0].name in ("alice", "carol")
    assert [p.rank for p in board] == sorted(p.rank for p in board)
    ordinals = [p.ordinal for p in board]
    assert ordinals == sorted(ordinals, reverse=True)
    carol = next(p for p in board if p.name == "carol")
    assert (carol.games, carol.wins) == (2, 1)
    recent = await ratings.recent_results(GUILD, CAROL.user_id)
    assert [r.game_id for r in recent] == sorted((r.game_id for r in recent), reverse=True)
    assert recent[0].opponents == ("bob",) and recent[0].place == 1 and recent[0].players == 2
    assert recent[1].opponents == ("alice", "bob", "dave") and recent[1].place == 2
    assert recent[0].change == recent[0].after.display - recent[0].before.display
    assert recent[0].before == recent[1].after  # each game starts from the last one's rating
    seeds = await ratings.ordinals(GUILD, "hedgehog", [ALICE.user_id, 999])
    assert set(seeds) == {ALICE.user_id}


async def test_the_new_tables_match_their_migration(db_url):
    store = await Store.open(db_url)
    async with store.engine.connect() as conn:

        def columns(sync_conn):
            inspector = inspect(sync_conn)
            return {name: {c["name"] for c in inspector.get_columns(name)} for name in inspector.get_table_names()}

        found = await conn.run_sync(columns)
    for table in (
        schema.ratings,
        schema.rated_games,
        schema.rating_results,
        schema.tournaments,
        schema.tournament_players,
        schema.tournament_matches,
    ):
        assert found[table.name] == {c.name for c in table.columns}, table.name
    assert schema.LATEST_VERSION >= 3
    await store.close()


async def test_two_processes_rating_the_same_new_players_at_once_lose_no_update(db_url):
    """Two bot processes (each its own engine) rate two games of the same two players at the same
    instant, before either player has a rating row: both games count, one after the other."""
    stores = [await Store.open(db_url), await Store.open(db_url)]
    try:
        clock = Clock()
        service = GameService(stores[0], clock=clock, render=False)
        finished = []
        for channel in (1, 2):
            await start(service, channel, [ALICE, BOB])
            finished.append((await service.resign(channel, BOB)).game)
        services = [RatingService(store, clock=clock) for store in stores]
        changes = await asyncio.gather(*(s.rate(g) for s, g in zip(services, finished, strict=True)))
        assert all(changes)  # each process rated its game
        alice = await services[0].rating(GUILD, "hedgehog", ALICE.user_id)
        bob = await services[0].rating(GUILD, "hedgehog", BOB.user_id)
        assert (alice.games, alice.wins, bob.games, bob.wins) == (2, 2, 2, 0)
        once = rate_game([Rating(), Rating()], [1, 2])
        twice = rate_game(once, [1, 2])  # the second game rated from the first one's result
        assert alice.rating == twice[0] and bob.rating == twice[1]
        assert await services[0].count_rated(GUILD) == 2
    finally:
        for store in stores:
            await store.close()


async def test_rating_gives_the_leaderboards_place_players_shown_alike_share_it(env):
    store, _service, ratings = env
    sigma = 2.0  # ordinal = 1500 + 25 * (mu - 3 * sigma)
    shown = {ALICE: 1523.4, BOB: 1523.2, CAROL: 1510.0, DAVE: 1600.0}
    rows = [
        {"guild_id": GUILD, "game": "hedgehog", "user_id": who.user_id, "display_name": who.name, "games": 3, "wins": 1}
        | {"mu": (ordinal - 1500) / 25 + 3 * sigma, "sigma": sigma, "updated_at": NOW}
        for who, ordinal in shown.items()
    ]
    rows[-1]["games"] = 0  # never played a rated game: not on the board, so no one's place counts it
    async with store.engine.begin() as conn:
        await conn.execute(schema.ratings.insert(), rows)

    board = {p.user_id: p.rank for p in await ratings.leaderboard(GUILD, "hedgehog")}
    assert board == {ALICE.user_id: 1, BOB.user_id: 1, CAROL.user_id: 3}
    for who in (ALICE, BOB, CAROL):
        assert (await ratings.rating(GUILD, "hedgehog", who.user_id)).rank == board[who.user_id]


async def test_a_shared_first_place_is_not_counted_as_a_win(env):
    """docs/commands.md: a win is first place alone; a first place shared, as in a draw, is not one."""
    _store, service, ratings = env
    report = await start(service, 1, [ALICE, BOB, CAROL])
    ended = replace(report.game, status="finished")
    changes = await ratings.rate(ended, Outcome(ranks=(1, 1, 3), reason="Red and Green share first."))
    assert [c.place for c in changes] == [1, 1, 3]
    found = [await ratings.rating(GUILD, "hedgehog", who.user_id) for who in (ALICE, BOB, CAROL)]
    assert [(r.games, r.wins, r.rank) for r in found] == [(1, 0, 1), (1, 0, 1), (1, 0, 3)]


async def test_catch_up_does_not_reload_every_finished_solitaire_game_at_each_start(env, monkeypatch):
    """A game of one is never rated: the catch-up at every start does not load it again and again."""
    store, service, ratings = env
    for channel in (1, 2, 3):
        await service.new_game(guild_id=GUILD, channel_id=channel, game="hedgehog", actor=ALICE, max_players=1)
        await service.start(channel, ALICE)
        await service.resign(channel, ALICE)
    assert await ratings.catch_up() == 0  # nothing to rate, as it should be

    loaded: list[int] = []
    original = store.game

    async def counting(game_id, *args, **kwargs):
        loaded.append(game_id)
        return await original(game_id, *args, **kwargs)

    monkeypatch.setattr(store, "game", counting)
    assert await ratings.catch_up() == 0  # the next start
    assert loaded == [], f"catch_up reloaded {len(loaded)} unrateable games again"


async def test_leaderboard_orders_equal_displayed_ratings_by_games_as_its_docstring_says(env):
    """Players shown with the same rating share the place and are listed by games played, not by the
    decimals nobody sees."""
    store, _service, ratings = env
    sigma = 2.0  # ordinal = 1500 + 25 * (mu - 3 * sigma)
    rows = [
        {"user_id": ALICE.user_id, "display_name": "alice", "ordinal": 1523.4, "games": 1},
        {"user_id": BOB.user_id, "display_name": "bob", "ordinal": 1523.2, "games": 30},
    ]
    async with store.engine.begin() as conn:
        await conn.execute(
            schema.ratings.insert(),
            [
                {
                    "guild_id": GUILD,
                    "game": "hedgehog",
                    "user_id": r["user_id"],
                    "display_name": r["display_name"],
                    "mu": (r["ordinal"] - 1500) / 25 + 3 * sigma,
                    "sigma": sigma,
                    "games": r["games"],
                    "wins": 0,
                    "updated_at": NOW,
                }
                for r in rows
            ],
        )
    board = await ratings.leaderboard(GUILD, "hedgehog")
    assert [p.rating.display for p in board] == [1523, 1523]
    assert [p.rank for p in board] == [1, 1]
    assert [p.name for p in board] == ["bob", "alice"], "equal displayed ratings: more games first"
