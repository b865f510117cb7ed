"""The tournament manager with the real service and database and a fake Discord host.

Games end by resignation through ``GameService.resign``: the service listener records the result
and pairs the next round, exactly as in Discord.  The host is told what happened as data; how each
event is worded in Discord is tested with the cog (``tests/discord/test_tournament*.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

import games
from bot.session.service import Actor, GameService, ServiceError
from bot.session.store import Store
from bot.session.timekeeper import Timekeeper
from bot.session.tournament_records import (
    ABSENT,
    BYE,
    CANCELLED,
    DONE,
    FINISHED,
    LAUNCHING,
    PENDING,
    PLAYING,
    REST,
    RUNNING,
    TournamentRecords,
)
from bot.tournaments.errors import CheckinNotOpen, TournamentError
from bot.tournaments.formats import default_rounds
from bot.tournaments.launcher import LAUNCH_LEASE
from bot.tournaments.manager import TournamentManager
from bot.tournaments.results import DRAW_NOTE, parse_result, results_of
from bot.tournaments.standings import place_points
from cogs.tournament._wording import tournament_embed

NOW = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)
GUILD = 42
CHANNEL = 500
ORGANISER = Actor(1, "olga", can_manage=True)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class FakeHost:
    """Records what the manager asks of Discord and tells it (as data); threads get fresh ids."""

    def __init__(self, first_thread: int = 90_000) -> None:
        self.next_id = first_thread
        self.threads: dict[int, tuple[int, ...]] = {}
        self.starts: list[tuple[int, int]] = []  # (thread, match id)
        self.greetings: list[int] = []  # match ids, as each match's players were greeted
        self.events: list[tuple[str, dict]] = []
        self.fail_after: int | None = None
        self.pause = 0  # times to yield inside open_match_thread, as a slow Discord would
        self.during_open = None  # something else happening while a thread is being opened
        self.failing: set[str] = set()  # kinds of announcement Discord refuses to post

    def _post(self, kind: str, details: dict) -> None:
        if kind in self.failing:
            raise RuntimeError("Discord is down")
        self.events.append((kind, details))

    async def open_match_thread(self, tournament, match, names):
        if self.fail_after is not None:
            if self.fail_after <= 0:
                raise RuntimeError("Discord is down")
            self.fail_after -= 1
        for _ in range(self.pause):
            await asyncio.sleep(0)
        if self.during_open is not None:
            await self.during_open()
        self.next_id += 1
        self.threads[self.next_id] = tuple(match.players)
        assert {p for p in match.players if p > 0} <= set(names)  # computer players have negative ids
        return self.next_id, tournament.channel_id

    async def greet_match(self, tournament, match, title):
        assert match.status == PLAYING and match.thread_id in self.threads and title
        if "greeting" in self.failing:
            raise RuntimeError("Discord is down")
        self.greetings.append(match.id)

    async def match_started(self, tournament, match, report, names):
        assert report.game.channel_id == match.thread_id and match.status == PLAYING
        self.starts.append((match.thread_id, match.id))

    async def checkin_opened(self, tournament, until, players):
        self._post("checkin_opened", {"tournament": tournament, "until": until, "players": tuple(players)})

    async def tournament_began(self, tournament, seeds, absent, names):
        self._post("began", {"tournament": tournament, "seeds": tuple(seeds), "absent": tuple(absent)})

    async def round_started(self, tournament, number, matches, names, bracket):
        self._post("round", {"number": number, "matches": list(matches), "bracket": bracket})

    async def tournament_finished(self, tournament, standings):
        self._post("finished", {"tournament": tournament, "standings": standings})

    async def cancelled(self, tournament, reason):
        self._post("cancelled", {"tournament": tournament, "reason": reason})

    async def match_aborted(self, tournament, match, names):
        self._post("aborted", {"match": match})

    async def result_set(self, tournament, match, names):
        self.events.append(("result_set", {"match": match}))

    async def player_withdrew(self, tournament, report, name, *, kicked):
        self.events.append(("withdrew", {"channel": report.game.channel_id, "name": name, "kicked": kicked}))

    async def match_stopped(self, tournament, channel_id):
        self.events.append(("stopped", {"channel": channel_id}))

    async def game_stopped(self, game):
        self.events.append(("game_stopped", {"game": game.id, "status": game.status}))

    def told(self, kind: str) -> list[dict]:
        """What the host was told of ``kind``, oldest first."""
        return [details for name, details in self.events if name == kind]

    def kinds(self) -> list[str]:
        return [name for name, _ in self.events]


@pytest.fixture
async def env(db_url):
    store = await Store.open(db_url)
    clock = Clock()
    service = GameService(store, clock=clock, render=False)
    host = FakeHost()
    manager = TournamentManager(service, TournamentRecords(store), host, clock=clock)
    service.listeners.append(manager.on_report)
    yield store, service, manager, host, clock
    await store.close()


def people(count: int, start: int = 100) -> list[Actor]:
    return [Actor(start + i, f"p{i + 1}") for i in range(count)]


async def register(manager, tournament, players):
    for player in players:
        await manager.join(tournament.id, player)


async def two_round_swiss(manager, name, players, game="whist"):
    """A two-round Swiss of ``game`` created here by the organiser, with ``players`` registered."""
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name=name, game=game, format="swiss", rounds=2
    )
    await register(manager, cup, players)
    return cup


async def swiss_with_checkin(manager, name, players, minutes, **options):
    """A Swiss of Martian Whist with a check-in window of ``minutes``, created here by the organiser, with
    ``players`` registered."""
    cup = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ORGANISER,
        name=name,
        game="whist",
        format="swiss",
        checkin_minutes=minutes,
        **options,
    )
    await register(manager, cup, players)
    return cup


@contextlib.asynccontextmanager
async def two_processes(db_url):
    """Two bot processes on one database: their stores, hosts, services and tournament managers."""
    clock = Clock()
    stores = [await Store.open(db_url), await Store.open(db_url)]
    try:
        hosts = [FakeHost(first_thread=90_000), FakeHost(first_thread=95_000)]
        services = [GameService(store, clock=clock, render=False) for store in stores]
        managers = [
            TournamentManager(service, TournamentRecords(store), host, clock=clock)
            for service, store, host in zip(services, stores, hosts, strict=True)
        ]
        for service, manager in zip(services, managers, strict=True):
            service.listeners.append(manager.on_report)
        yield stores, hosts, services, managers
    finally:
        for store in stores:
            await store.close()


async def current(manager, tournament_id):
    t = await manager.get(tournament_id)
    return t, await manager.records.matches(t.id, t.current_round)


async def finish_round(service, manager, tournament_id, rng, names):
    """Every running game of the current round ends: players resign in a random order until it is over."""
    t, matches = await current(manager, tournament_id)
    for match in matches:
        if match.status != PLAYING:
            continue
        order = list(match.players)
        rng.shuffle(order)
        for user in order[:-1]:
            game = await service.game(match.game_id)
            if game.status != "active":
                break
            await service.resign(game.channel_id, Actor(user, names[user]))
    return t


def names_of(actors):
    return {a.user_id: a.name for a in actors}


# --------------------------------------------------------------------------------------------
# pure helpers


def test_results_are_words_for_two_players_and_places_for_tables():
    assert parse_result("win", (7, 8), 8) == ((2, 1), None)
    assert parse_result("Loss", (7, 8), 7) == ((2, 1), None)
    assert parse_result("draw", (7, 8), 7) == ((1, 1), None)
    assert parse_result("double forfeit", (7, 8), 7) == ((2, 2), (0.0, 0.0))
    assert parse_result("2 1 3 3", (1, 2, 3, 4), 1) == ((2, 1, 3, 3), None)
    with pytest.raises(TournamentError, match="places in seat order"):
        parse_result("win", (1, 2, 3), 1)
    with pytest.raises(TournamentError, match="win, loss or draw"):
        parse_result("maybe", (1, 2), 1)


def test_default_rounds():
    assert [default_rounds("swiss", n) for n in (2, 3, 4, 5, 8, 9, 16, 33)] == [1, 2, 2, 3, 3, 4, 4, 6]
    assert default_rounds("tables", 9) == 3


# --------------------------------------------------------------------------------------------
# refusals


async def test_every_refusal_is_one_sentence_and_changes_nothing(env):
    _store, _service, manager, _host, clock = env
    alice, bob, carol = people(3)
    with pytest.raises(TournamentError, match=r"^Only members with Manage Server or the tournament role can create"):
        await manager.create(guild_id=GUILD, channel_id=CHANNEL, actor=alice, name="x", game="hedgehog", format="swiss")
    with pytest.raises(TournamentError, match="is a two-player game: use swiss"):
        await manager.create(
            guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="x", game="whist", format="tables"
        )
    with pytest.raises(ServiceError, match="variant must be one of normal, short"):
        await manager.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=ORGANISER,
            name="x",
            game="whist",
            format="swiss",
            options={"variant": "long"},
        )
    with pytest.raises(TournamentError, match="start time must be in the future"):
        await manager.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=ORGANISER,
            name="x",
            game="whist",
            format="swiss",
            start_at=NOW - timedelta(minutes=1),
        )
    with pytest.raises(TournamentError, match="sets its own number of rounds"):
        await manager.create(
            guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="x", game="whist", format="elimination", rounds=3
        )
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Cup", game="whist", format="swiss", max_players=2
    )
    await manager.join(cup.id, alice)
    with pytest.raises(TournamentError, match=r"^You are already registered for Cup\.$"):
        await manager.join(cup.id, alice)
    with pytest.raises(TournamentError, match="needs at least 2 players to start; 1 registered"):
        await manager.start(cup.id, ORGANISER)
    await manager.join(cup.id, bob)
    with pytest.raises(TournamentError, match=r"^Cup is full \(2 players\)\.$"):
        await manager.join(cup.id, carol)
    with pytest.raises(TournamentError, match=r"^You are not registered for Cup\.$"):
        await manager.leave(cup.id, carol)
    with pytest.raises(TournamentError, match="has no check-in"):
        await manager.checkin(cup.id, alice)
    with pytest.raises(TournamentError, match="has not started: use /tournament leave"):
        await manager.drop(cup.id, alice)
    with pytest.raises(TournamentError, match="can start a tournament"):
        await manager.start(cup.id, alice)
    await manager.start(cup.id, ORGANISER)
    with pytest.raises(TournamentError, match=r"^Registration for Cup is closed\.$"):
        await manager.join(cup.id, carol)
    with pytest.raises(TournamentError, match="has started: use /tournament drop"):
        await manager.leave(cup.id, alice)
    with pytest.raises(TournamentError, match="has already started"):
        await manager.start(cup.id, ORGANISER)
    with pytest.raises(TournamentError, match="can set results"):
        await manager.adjudicate(cup.id, alice, bob.user_id, "win")
    with pytest.raises(TournamentError, match=r"^There is no tournament #999 on this server\.$"):
        await manager.get(999, GUILD)
    assembly = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL + 1, actor=ORGANISER, name="Table", game="treasure", format="tables"
    )
    with pytest.raises(TournamentError, match="Several tournaments are on here"):
        await manager.resolve(GUILD, 12345)
    assert (await manager.resolve(GUILD, CHANNEL + 1)).id == assembly.id
    with pytest.raises(TournamentError, match="Tables of Martian Treasure Hunt seat 3 to 4 players"):
        await manager.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=ORGANISER,
            name="x",
            game="treasure",
            format="tables",
            table_size=5,
        )
    with pytest.raises(TournamentError, match="Tables of Der Marsigelwettkampf seat 3 to 5 players"):
        await manager.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            actor=ORGANISER,
            name="x",
            game="hedgehog",
            format="tables",
            table_size=7,
        )
    xeno = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ORGANISER,
        name="Xeno",
        game="hedgehog",
        format="tables",
        table_size=7,
        options={"xeno": True},
    )
    assert xeno.table_size == 7 and xeno.options["xeno"] is True
    assert clock() == NOW


# --------------------------------------------------------------------------------------------
# Swiss


async def test_a_five_player_swiss_with_byes_no_rematches_and_results_recorded_once(env):
    _store, service, manager, host, _clock = env
    players = people(5)
    names = names_of(players)
    rng = random.Random(1)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Odd Swiss", game="hedgehog", format="swiss"
    )
    await register(manager, cup, players)
    assert await manager.start(cup.id, ORGANISER) == "started"
    t, matches = await current(manager, cup.id)
    assert t.status == RUNNING and t.rounds == 3 and t.current_round == 1
    assert sorted(m.status for m in matches) == [BYE, PLAYING, PLAYING]
    assert len(host.threads) == 2 and len(host.starts) == 2
    assert host.kinds() == ["began", "round"] and host.told("began")[0]["tournament"].status == RUNNING
    assert host.told("round")[0]["number"] == 1 and host.told("round")[0]["bracket"] is None
    # every match runs in its own thread with its players seated in the pairing's order
    for match in matches:
        if match.status == PLAYING:
            game = await service.game(match.game_id)
            assert game.channel_id == match.thread_id and game.tournament_id == cup.id
            assert tuple(s.user_id for s in game.seats) == match.players
            assert game.clock_days is None and game.status == "active"
    # a result reported twice (or by two paths) is recorded once
    first = next(m for m in matches if m.status == PLAYING)
    report = await service.resign(first.thread_id, Actor(first.players[0], "x"))
    assert await manager.record_game(report.game, report.outcome) is None
    await manager.on_report(report)
    recorded = await manager.records.match(first.id)
    assert recorded.status == DONE and recorded.ranks == (2, 1)
    assert sum(1 for m in await manager.records.matches(cup.id) if m.status == DONE) == 1
    for _ in range(3):
        await finish_round(service, manager, cup.id, rng, names)
    t = await manager.get(cup.id)
    assert t.status == FINISHED and t.current_round == 3
    everything = await manager.records.matches(cup.id)
    byes = [m.players[0] for m in everything if m.status == BYE]
    assert len(byes) == 3 and len(set(byes)) == 3  # one bye per round, never twice to a player
    pairs = [frozenset(m.players) for m in everything if len(m.players) == 2]
    assert len(pairs) == len(set(pairs)) == 6  # no rematch
    for number in (1, 2, 3):
        seen = [p for m in everything if m.round == number for p in m.players]
        assert sorted(seen) == sorted(names)  # everybody once per round
    standings = await manager.standings(cup.id)
    assert sum(row.points for row in standings.rows) == 3 * 2 + 3  # two games and a bye per round
    assert [row.place for row in standings.rows] == sorted(row.place for row in standings.rows)
    (final,) = host.told("finished")
    assert final["tournament"].status == FINISHED and final["standings"].rows == standings.rows
    assert final["standings"].winners == [row.player for row in standings.rows if row.place == 1]
    assert [d["number"] for d in host.told("round")] == [1, 2, 3]
    exported = await manager.export(cup.id)
    assert json.loads(json.dumps(exported))["tournament"]["status"] == FINISHED
    assert [len(r["matches"]) for r in exported["rounds"]] == [3, 3, 3]
    assert exported["standings"][0]["place"] == 1 and "Buchholz cut-1" in exported["standings"][0]["tiebreaks"]


async def test_with_bots_the_player_who_would_have_the_bye_plays_a_hard_bot_instead(env):
    _store, service, manager, _host, _clock = env
    players = people(3)
    names = names_of(players)
    with pytest.raises(TournamentError, match="only in Swiss and table Swiss"):
        await manager.create(
            guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="RR", game="whist", format="rr", bots=True
        )
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Bot Swiss", game="whist", format="swiss", bots=True
    )
    await register(manager, cup, players)
    assert await manager.start(cup.id, ORGANISER) == "started"
    t, matches = await current(manager, cup.id)
    assert t.rounds == 2 and [m.status for m in matches] == [PLAYING, PLAYING]  # nobody sits out
    against_bot = next(m for m in matches if -1 in m.players)
    alone = against_bot.players[0]
    assert against_bot.players == (alone, -1)
    game = await service.game(against_bot.game_id)
    assert [(s.user_id, s.display_name, s.ai_level) for s in game.seats] == [
        (alone, names[alone], None),
        (-1, "Hard bot", "hard"),
    ]
    assert not game.rated and game.tournament_id == cup.id
    lost = await service.resign(against_bot.thread_id, Actor(alone, names[alone]))  # the bot wins
    assert (await manager.records.match(against_bot.id)).ranks == (2, 1)
    assert lost.outcome is not None
    human = next(m for m in matches if -1 not in m.players)
    await service.resign(human.thread_id, Actor(human.players[0], names[human.players[0]]))

    t, matches = await current(manager, cup.id)
    assert t.current_round == 2
    again = next(m for m in matches if -1 in m.players)
    assert again.players[0] != alone  # the game against the bot counted as a bye: no second one
    await service.resign(again.thread_id, Actor(-1, "Hard bot"))  # this time the person wins
    other = next(m for m in matches if -1 not in m.players)
    await service.resign(other.thread_id, Actor(other.players[0], names[other.players[0]]))
    standings = await manager.standings(cup.id)
    assert {row.player for row in standings.rows} == set(names)  # the bot is not in the standings
    by_player = {row.player: row for row in standings.rows}
    assert by_player[alone].byes == 1 and by_player[again.players[0]].byes == 1
    assert sum(row.points for row in standings.rows) == 2 + 1  # one game between people a round, one bot win
    assert (await manager.get(cup.id)).status == FINISHED


async def test_a_table_swiss_with_bots_fills_the_table_of_those_who_would_sit_out():
    from bot.tournaments.rounds import planned

    assert planned([[1, 2, 3], [4, 5, 6]], [7], fill=3) == [
        {"board": 1, "players": [1, 2, 3], "status": PENDING},
        {"board": 2, "players": [4, 5, 6], "status": PENDING},
        {"board": 3, "players": [7, -1, -2], "status": PENDING},
    ]
    assert planned([[1, 2, 3]], [4, 5], fill=3)[-1] == {"board": 2, "players": [4, 5, -1], "status": PENDING}
    assert planned([[1, 2, 3]], [4], fill=0)[-1] == {"board": 2, "players": [4], "status": BYE}
    # with a table size chosen, a table short of it has its empty seats filled too
    assert planned([[1, 2, 3, 4], [5, 6, 7]], [8], fill=4, seats=4) == [
        {"board": 1, "players": [1, 2, 3, 4], "status": PENDING},
        {"board": 2, "players": [5, 6, 7, -1], "status": PENDING},
        {"board": 3, "players": [8, -1, -2, -3], "status": PENDING},
    ]
    # a table with bots scores its people by the whole table's places; bots leave the standings
    (result,) = results_of(
        [
            _done_match(players=(7, -1, -2), ranks=(2, 1, 3)),
        ]
    )
    assert result.players == (7,) and result.is_bye and result.points == (1.0,)
    (result,) = results_of([_done_match(players=(7, 8, -1), ranks=(3, 1, 2))])
    assert result.players == (7, 8) and result.ranks == (3, 1) and result.points == (0.0, 2.0)
    assert result.unranked == (2,)  # the bot's place counts in who won, not in the standings


async def test_a_table_swiss_with_bots_and_a_table_size_fills_every_empty_seat(env):
    _store, service, manager, _host, _clock = env
    players = people(6)
    names = names_of(players)
    cup = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ORGANISER,
        name="Full tables",
        game="combat",
        format="tables",
        table_size=4,
        bots=True,
    )
    await register(manager, cup, players)
    assert await manager.start(cup.id, ORGANISER) == "started"
    _t, matches = await current(manager, cup.id)
    # six people at tables of four: two tables of three people, each with a hard bot in its empty seat
    assert [len(m.players) for m in matches] == [4, 4]
    assert sorted(p for m in matches for p in m.players if p > 0) == sorted(names)
    for match in matches:
        assert match.players[3] == -1 and match.status == PLAYING
        game = await service.game(match.game_id)
        assert [s.ai_level for s in game.seats] == [None, None, None, "hard"]
        assert [s.user_id for s in game.seats[:3]] == list(match.players[:3])
        assert not game.rated
    # the last person to leave ends the table: the first to leave lowest, the bot first
    first = matches[0]
    for player in first.players[:3]:
        await service.resign(first.thread_id, Actor(player, names[player]))
    record = await manager.records.match(first.id)
    assert record.status == DONE and record.ranks == (4, 3, 2, 1)
    # the people are scored by the places of the whole table, the bot's included (3, 2, 1, 0)
    (result,) = results_of([record])
    assert result.players == first.players[:3] and result.points == (0.0, 1.0, 2.0)


async def test_a_table_swiss_with_bots_plays_on_while_two_people_remain_after_drops(env):
    """Drops leave fewer people than the smallest table: with bots they play together at one table
    filled with a computer player; alone, the last person has nobody to play and the tournament ends."""
    _store, service, manager, _host, _clock = env
    players = people(3)
    first, second, third = players
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Few", game="combat", format="tables", rounds=3
    )
    few = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        actor=ORGANISER,
        name="Few bots",
        game="combat",
        format="tables",
        rounds=3,
        bots=True,
    )
    for tournament in (cup, few):
        await register(manager, tournament, players)
        assert await manager.start(tournament.id, ORGANISER) == "started"
        await manager.drop(tournament.id, third)  # two people left; the smallest Combat table is three
        _t, (match,) = await current(manager, tournament.id)
        await service.resign(match.thread_id, second)
    assert (await manager.get(cup.id)).status == FINISHED  # without bots no table can be paired
    t, (match,) = await current(manager, few.id)
    assert t.status == RUNNING and t.current_round == 2
    assert sorted(match.players[:2]) == [first.user_id, second.user_id] and match.players[2] == -1
    assert match.status == PLAYING
    await manager.drop(few.id, second)
    await service.resign(match.thread_id, first)  # the last person leaves the table: it ends
    t = await manager.get(few.id)
    assert t.status == FINISHED and t.current_round == 2  # one person cannot make a round


async def test_a_table_swiss_with_bots_and_no_table_size_leaves_tables_as_paired(env):
    _store, _service, manager, _host, _clock = env
    players = people(6)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Free", game="combat", format="tables", bots=True
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    assert all(p > 0 for m in matches for p in m.players)  # no size chosen: no seat is empty


def _done_match(players, ranks):
    from bot.session.tournament_records import MatchRecord

    return MatchRecord(1, 1, 1, 1, players, DONE, 1, 1, ranks, None, None, None, NOW, NOW)


async def test_two_games_ending_at_the_same_instant_pair_the_next_round_once(env):
    _store, service, manager, _host, _clock = env
    players = people(4)
    cup = await two_round_swiss(manager, "Race", players, game="hedgehog")
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    await asyncio.gather(
        *(service.resign(m.thread_id, Actor(m.players[1], "x")) for m in matches),
        manager.advance(cup.id),
        manager.tick(),
    )
    await asyncio.gather(manager.advance(cup.id), manager.advance(cup.id), manager.tick())
    t, second = await current(manager, cup.id)
    assert t.current_round == 2 and len(second) == 2
    assert len(await manager.records.matches(cup.id)) == 4
    first_round = await manager.records.matches(cup.id, 1)
    assert all(m.status == DONE and m.ranks is not None for m in first_round)


async def test_a_failed_launch_is_resumed_by_the_periodic_check_without_repeating_anything(env):
    store, service, manager, host, _clock = env
    players = people(4)
    names = names_of(players)
    cup = await two_round_swiss(manager, "Flaky", players)
    host.fail_after = 1  # Discord fails after the first thread of round 1
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    assert sorted(m.status for m in matches) == ["pending", PLAYING]
    host.fail_after = None
    # a restart: a fresh manager over the same database catches up
    fresh = TournamentManager(service, TournamentRecords(store), host, clock=service.clock)
    service.listeners[:] = [fresh.on_report]
    await fresh.tick()
    await fresh.tick()
    _t, matches = await current(fresh, cup.id)
    assert [m.status for m in matches] == [PLAYING, PLAYING]
    assert len(host.threads) == 2 and len(host.starts) == 2
    await finish_round(service, fresh, cup.id, random.Random(2), names)
    t, second = await current(fresh, cup.id)
    assert t.current_round == 2 and all(m.status == PLAYING for m in second)
    # round 1's pairs are not repeated in round 2
    assert not {frozenset(m.players) for m in matches} & {frozenset(m.players) for m in second}


async def test_a_game_that_ended_while_nobody_listened_is_recorded_at_the_next_check(env):
    _store, service, manager, _host, _clock = env
    players = people(2)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Deaf", game="whist", format="swiss"
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    _t, (match,) = await current(manager, cup.id)
    service.listeners.clear()  # the bot stops right after the game's last move is stored
    await service.resign(match.thread_id, Actor(match.players[0], "x"))
    assert (await manager.records.match(match.id)).status == PLAYING
    await manager.tick()
    assert (await manager.records.match(match.id)).status == DONE
    assert (await manager.get(cup.id)).status == FINISHED


async def test_an_announcement_discord_refused_is_posted_at_the_next_check_once(env):
    store, service, manager, host, _clock = env
    players = people(4)
    names = names_of(players)
    rng = random.Random(5)
    cup = await two_round_swiss(manager, "Loud", players)
    host.failing = {"began"}
    assert await manager.start(cup.id, ORGANISER) == "started"  # the organiser is answered all the same
    t, matches = await current(manager, cup.id)
    assert t.current_round == 1 and [m.status for m in matches] == [PLAYING, PLAYING]
    assert host.kinds() == []  # the seeds come before round 1's pairings, so the round waits for them
    host.failing = set()
    await manager.tick()
    assert host.kinds() == ["began", "round"]
    (began,) = host.told("began")
    seeded = [p.user_id for p in await manager.records.players(cup.id)]
    assert began["seeds"] == tuple(seeded) and sorted(seeded) == sorted(names) and began["absent"] == ()
    assert host.told("round")[0]["number"] == 1 and host.told("round")[0]["matches"] == matches
    await manager.tick()
    assert host.kinds() == ["began", "round"]  # each is told once

    # round 2's pairings are lost, and the bot restarts: the new process posts them
    host.failing = {"round"}
    await finish_round(service, manager, cup.id, rng, names)
    t, second = await current(manager, cup.id)
    assert t.current_round == 2 and t.told == "round 1"
    host.failing = set()
    fresh = TournamentManager(service, TournamentRecords(store), host, clock=service.clock)
    service.listeners[:] = [fresh.on_report]
    await fresh.tick()
    assert [d["number"] for d in host.told("round")] == [1, 2] and host.told("round")[1]["matches"] == second

    # the final standings fail twice, then are posted once
    host.failing = {"finished"}
    await finish_round(service, fresh, cup.id, rng, names)
    assert (await fresh.get(cup.id)).status == FINISHED and not host.told("finished")
    await fresh.tick()
    assert not host.told("finished")
    host.failing = set()
    await fresh.tick()
    await fresh.tick()
    (final,) = host.told("finished")
    assert final["standings"].rows == (await fresh.standings(cup.id)).rows
    assert host.kinds() == ["began", "round", "round", "finished"]
    assert (await fresh.get(cup.id)).told == "finished"


async def test_a_check_in_opening_lost_to_a_stop_is_posted_at_the_next_check_once_before_the_seeds(env):
    store, service, manager, host, clock = env
    players = people(4)
    cup = await swiss_with_checkin(manager, "Roll call", players, 30)
    host.failing = {"checkin_opened"}  # stored, then the bot stops (or Discord refuses) before the post
    assert await manager.start(cup.id, ORGANISER) == "checkin"
    t = await manager.get(cup.id)
    assert t.status == "checkin" and t.told is None and host.kinds() == []
    host.failing = set()
    fresh = TournamentManager(service, TournamentRecords(store), host, clock=service.clock)
    await fresh.tick()  # the restarted bot opens the window in the channel: the players are called
    (opened,) = host.told("checkin_opened")
    assert opened["until"] == t.checkin_until and opened["players"] == tuple(p.user_id for p in players)
    assert (await fresh.get(cup.id)).told == "checkin"
    await fresh.tick()
    assert host.kinds() == ["checkin_opened"]  # told once
    for player in players:
        await fresh.checkin(cup.id, player)
    clock.advance(minutes=31)
    await fresh.tick()  # the window closes: the seeds and round 1, as for a tournament without one
    assert host.kinds() == ["checkin_opened", "began", "round"]
    assert (await fresh.get(cup.id)).told == "round 1"


async def test_a_match_greeting_discord_refused_is_posted_at_the_next_check_once(env):
    _store, service, manager, host, _clock = env
    players = people(4)
    cup = await two_round_swiss(manager, "Hello", players)
    host.failing = {"greeting"}
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    assert [m.status for m in matches] == [PLAYING, PLAYING] and len(host.starts) == 2  # the boards were shown
    assert not host.greetings and not any(m.greeted for m in matches)
    host.failing = set()
    await manager.tick()
    assert sorted(host.greetings) == sorted(m.id for m in matches)
    await manager.tick()
    assert len(host.greetings) == 2  # each match is greeted once
    _t, matches = await current(manager, cup.id)
    assert all(m.greeted for m in matches)

    # a match whose game ended before its greeting could be posted again is not greeted late
    first = matches[0]
    await manager.records.update_match(first.id, greeted=0)
    await service.resign(first.thread_id, Actor(first.players[0], "p"))
    await manager.tick()
    assert len(host.greetings) == 2


async def test_cancel_while_the_next_round_is_being_paired_stops_that_rounds_games(env):
    """/tournament cancel pressed while the bot pairs the next round: every running game is stopped."""
    store, service, manager, _host, _clock = env
    players = people(4)
    names = names_of(players)
    cup = await two_round_swiss(manager, "Race", players)
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    first, last = matches
    await service.resign(first.thread_id, Actor(first.players[0], names[first.players[0]]))

    original = manager.records.create_round
    cancelling: list[asyncio.Task] = []

    async def create_round(*args, **kwargs):
        # the organiser's cancel arrives while the round is being paired (the lock is held)
        cancelling.append(asyncio.create_task(manager.cancel(cup.id, ORGANISER)))
        for _ in range(20):
            await asyncio.sleep(0)
        return await original(*args, **kwargs)

    manager.records.create_round = create_round
    await service.resign(last.thread_id, Actor(last.players[0], names[last.players[0]]))
    await cancelling[0]
    manager.records.create_round = original
    t = await manager.get(cup.id)
    assert t.status == CANCELLED
    running = []
    for m in await manager.records.matches(cup.id, t.current_round):
        if m.game_id is not None:
            game = await store.game(m.game_id)
            if game.status == "active":
                running.append(m.id)
    assert running == [], "games of a cancelled tournament still running"


async def test_a_start_that_a_cancel_overtook_is_refused_instead_of_told_it_started(env):
    """Two organisers: one starts, the other cancels at the same instant, and the cancel is stored first."""
    _store, _service, manager, host, _clock = env
    cup = await two_round_swiss(manager, "Race", people(4))
    original = manager.begin

    async def begin(tournament_id):
        await manager.cancel(cup.id, ORGANISER)  # lands after the start's checks, before it begins
        return await original(tournament_id)

    manager.begin = begin
    with pytest.raises(TournamentError, match=r"^Race is over\.$"):
        await manager.start(cup.id, ORGANISER)
    assert (await manager.get(cup.id)).status == CANCELLED
    assert not {"began", "round"} & set(host.kinds())  # no start told, no round paired


def resigning_as_stopped(manager, service, match, player: int, name: str) -> None:
    """Make ``player`` resign ``match``'s game at the instant an organiser's adjudication stops it."""
    original = manager._stop_game

    async def stop_game(game_id, actor):
        manager._stop_game = original
        await service.resign(match.thread_id, Actor(player, name))  # lands at the same moment
        return await original(game_id, actor)

    manager._stop_game = stop_game


async def test_an_adjudication_racing_the_games_end_does_not_rewrite_a_closed_round(env):
    """The organiser adjudicates the last game of a round just as it ends on the board: the next round is
    paired from the played result, so that result must stay (or the adjudication be refused)."""
    _store, service, manager, _host, _clock = env
    players = people(4)
    names = names_of(players)
    cup = await two_round_swiss(manager, "Race", players)
    await manager.start(cup.id, ORGANISER)
    _t, (first, last) = await current(manager, cup.id)
    await service.resign(first.thread_id, Actor(first.players[0], names[first.players[0]]))
    loser, _winner = last.players  # on the board, `loser` resigns
    resigning_as_stopped(manager, service, last, loser, names[loser])
    with pytest.raises(TournamentError, match=r"^Round 1 closed at this moment \(its last game ended\)"):
        await manager.adjudicate(cup.id, ORGANISER, loser, "win")
    t = await manager.get(cup.id)
    assert t.current_round == 2  # round 2 was paired from round 1 as played
    stored = await manager.records.match(last.id)
    # round 1 is closed: what round 2 was paired from is what it keeps
    assert stored.ranks == (2, 1), (stored.ranks, stored.note)


async def test_an_adjudication_racing_a_games_end_in_a_round_still_running_is_refused(env):
    """The organiser adjudicates a match (its player "wins") at the instant that player resigns on the board,
    while another match of the round still runs.  The played result is what the board, the thread and the
    ratings show: the adjudication is refused ("its result stands as played"), and the match keeps it; a
    second adjudication, made knowing the game is over, may still change it."""
    _store, service, manager, _host, _clock = env
    players = people(4)
    names = names_of(players)
    cup = await two_round_swiss(manager, "Race", players)
    await manager.start(cup.id, ORGANISER)
    _t, (_other, match) = await current(manager, cup.id)
    loser, _winner = match.players  # on the board, `loser` resigns
    resigning_as_stopped(manager, service, match, loser, names[loser])
    with pytest.raises(TournamentError, match=r"^That match's game ended at this moment: its result stands as played"):
        await manager.adjudicate(cup.id, ORGANISER, loser, "win")
    stored = await manager.records.match(match.id)
    assert (await service.game(match.game_id)).status == "finished"
    assert stored.ranks == (2, 1), (stored.ranks, stored.note)  # the result the board shows
    _t, changed = await manager.adjudicate(cup.id, ORGANISER, loser, "win")
    assert changed.ranks == (1, 2)


async def test_a_checkin_that_lands_as_the_window_closes_is_either_counted_or_refused(env):
    _store, _service, manager, _host, clock = env
    players = people(3)
    cup = await swiss_with_checkin(manager, "Late", players, 10)
    assert await manager.start(cup.id, ORGANISER) == "checkin"
    await manager.checkin(cup.id, players[0])
    await manager.checkin(cup.id, players[1])
    original = manager.records.player
    calls = []

    async def player(tournament_id, user_id):
        row = await original(tournament_id, user_id)
        if user_id == players[2].user_id and not calls:
            calls.append(1)
            clock.advance(minutes=11)
            await manager.tick()  # the window closes at this moment: the tournament begins without them
        return row

    manager.records.player = player
    with pytest.raises(TournamentError, match=r"^Check-in for Late is closed\.$"):
        await manager.checkin(cup.id, players[2])
    manager.records.player = original
    entrant = await manager.records.player(cup.id, players[2].user_id)
    t = await manager.get(cup.id)
    assert t.status == RUNNING
    assert entrant.status == ABSENT and not entrant.checked_in  # told the window closed, and left out


async def test_a_kick_landing_as_the_tournament_starts_removes_the_player_from_play(env):
    """The organiser kicks a registered player at the moment the start time arrives: the kick must either
    delete the registration before seeding, or work like a drop after it -- never delete a seeded player's
    row and leave them seated in a running game."""
    _store, service, manager, _host, _clock = env
    players = people(4)
    cup = await two_round_swiss(manager, "Kick", players)
    victim = players[3]
    original = manager.records.player
    fired = []

    async def player(tournament_id, user_id):
        row = await original(tournament_id, user_id)
        if user_id == victim.user_id and not fired:
            fired.append(1)
            await manager.begin(cup.id)  # the start time arrives at this moment (the scheduler's check)
        return row

    manager.records.player = player
    await manager.kick(cup.id, ORGANISER, victim.user_id)
    manager.records.player = original
    t, matches = await current(manager, cup.id)
    assert t.status == RUNNING and t.current_round == 1
    entrant = await manager.records.player(cup.id, victim.user_id)
    seated_in_live_game = False
    for m in matches:
        if victim.user_id in m.players and m.game_id is not None:
            game = await service.game(m.game_id)
            seat = next(s for s in game.seats if s.user_id == victim.user_id)
            seated_in_live_game = game.status == "active" and not seat.removed
    assert not seated_in_live_game, f"kicked player still playing; registration row: {entrant}"


async def test_an_organisers_draw_in_a_knockout_is_marked_higher_seed(env):
    _store, _service, manager, _host, _clock = env
    players = people(4)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="KO", game="hedgehog", format="elimination"
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    _t, settled = await manager.adjudicate(cup.id, ORGANISER, matches[0].players[0], "draw")
    data = await manager.export(cup.id)
    notes = [m["note"] for r in data["rounds"] for m in r["matches"] if m["board"] == settled.board and r["round"] == 1]
    assert notes and DRAW_NOTE in notes[0]


# --------------------------------------------------------------------------------------------
# round robin, elimination, tables


async def test_round_robin_everyone_meets_everyone_and_a_dropout_forfeits(env):
    _store, service, manager, host, _clock = env
    players = people(5)
    names = names_of(players)
    rng = random.Random(3)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Circle", game="hedgehog", format="roundrobin"
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    t, matches = await current(manager, cup.id)
    assert t.rounds == 5 and sorted(m.status for m in matches) == [PLAYING, PLAYING, REST]
    await finish_round(service, manager, cup.id, rng, names)
    # a player drops during round 2: their running game is resigned, later opponents win by forfeit
    _t, matches = await current(manager, cup.id)
    playing = next(m for m in matches if m.status == PLAYING)
    quitter = next(p for p in players if p.user_id == playing.players[0])
    await manager.drop(cup.id, quitter)
    with pytest.raises(TournamentError, match="already left"):
        await manager.drop(cup.id, quitter)
    for _ in range(4):
        await finish_round(service, manager, cup.id, rng, names)
    t = await manager.get(cup.id)
    assert t.status == FINISHED
    everything = await manager.records.matches(cup.id)
    played = Counter(frozenset(m.players) for m in everything if len(m.players) == 2)
    assert all(count == 1 for count in played.values())
    forfeits = [m for m in everything if m.status == BYE]
    assert forfeits and all(m.note == "opponent withdrew" and quitter.user_id not in m.players for m in forfeits)
    met = set(played) | {frozenset((m.players[0], quitter.user_id)) for m in forfeits}
    assert met == {frozenset(pair) for pair in itertools.combinations(names, 2)}
    standings = await manager.standings(cup.id)
    assert standings.names[quitter.user_id].endswith("(withdrew)")
    (withdrew,) = host.told("withdrew")
    assert withdrew == {"channel": playing.thread_id, "name": quitter.name, "kicked": False}


async def test_single_elimination_byes_to_top_seeds_and_a_draw_sends_the_higher_seed_through(env):
    _store, service, manager, host, _clock = env
    players = people(6)
    names = names_of(players)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Knockout", game="hedgehog", format="elimination"
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    t, matches = await current(manager, cup.id)
    seeds = [int(s) for s in t.data["seeds"]]
    assert t.rounds == 3 and len(matches) == 2
    in_round_one = {p for m in matches for p in m.players}
    assert in_round_one == set(seeds[2:])  # seeds 1 and 2 have byes
    bracket = host.told("round")[-1]["bracket"]
    assert [m.winner for m in bracket.rounds[0] if m.bye] == seeds[:2]
    # the organiser calls the first match a draw: the higher seed goes through
    first = matches[0]
    higher = min(first.players, key=seeds.index)
    with pytest.raises(TournamentError, match="needs a winner"):
        await manager.adjudicate(cup.id, ORGANISER, first.players[0], "double forfeit")
    _t, settled = await manager.adjudicate(cup.id, ORGANISER, first.players[0], "draw")
    assert settled.winner == higher and settled.ranks == (1, 1)
    assert (await service.game(first.game_id)).status == "aborted"
    assert [d["match"] for d in host.told("result_set")] == [settled]
    await finish_round(service, manager, cup.id, random.Random(4), names)
    t, semis = await current(manager, cup.id)
    assert t.current_round == 2 and {seeds[0], seeds[1]} <= {p for m in semis for p in m.players}
    assert higher in {p for m in semis for p in m.players}
    with pytest.raises(TournamentError, match=r"^Round 1 is closed: only results of the current round \(2\)"):
        await manager.adjudicate(cup.id, ORGANISER, higher, "win", round=1)
    with pytest.raises(TournamentError, match=r"^Round 3 has not been paired yet: only results of the current round"):
        await manager.adjudicate(cup.id, ORGANISER, higher, "win", round=3)
    for _ in range(2):
        await finish_round(service, manager, cup.id, random.Random(5), names)
    t = await manager.get(cup.id)
    standings = await manager.standings(cup.id)
    assert t.status == FINISHED and standings.bracket.is_complete
    (final,) = host.told("finished")
    assert final["standings"].winners == [standings.bracket.champion]
    assert [d["bracket"].round_name(d["number"]) for d in host.told("round")] == [
        "Quarterfinals",
        "Semifinals",
        "Final",
    ]
    exported = await manager.export(cup.id)
    assert exported["bracket"]["champion"] == str(standings.bracket.champion)
    assert sorted(exported["bracket"]["places"].values()) == [1, 2, 3, 3, 5, 5]


@pytest.mark.parametrize("game", ["assassin", "hedgehog"])
async def test_a_nine_player_table_swiss(env, game):
    if game not in games.REGISTRY:
        pytest.skip(f"{game} is not registered yet")
    _store, service, manager, host, _clock = env
    players = people(9)
    names = names_of(players)
    rng = random.Random(9)
    options = {"table_size": 4} if game == "hedgehog" else {}
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Nine", game=game, format="tables", **options
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    for number in (1, 2, 3):
        t, matches = await current(manager, cup.id)
        assert t.current_round == number
        assert sorted(len(m.players) for m in matches) == [4, 5]
        assert sorted(p for m in matches for p in m.players) == sorted(names)
        for match in matches:
            game_row = await service.game(match.game_id)
            assert len(game_row.seats) == len(match.players) and game_row.tournament_id == cup.id
        await finish_round(service, manager, cup.id, rng, names)
    t = await manager.get(cup.id)
    assert t.status == FINISHED
    everything = await manager.records.matches(cup.id)
    assert all(m.status == DONE for m in everything)
    standings = await manager.standings(cup.id)
    points = {row.player: row.points for row in standings.rows}
    expected = Counter()
    for result in results_of(everything):
        for player, value in zip(result.players, place_points(result.ranks), strict=True):
            expected[player] += value
    assert points == pytest.approx(dict(expected))
    assert sum(points.values()) == 3 * (10 + 6)  # tables of 5 and 4: 5*4/2 + 4*3/2 place points per round
    keys = [(-row.points, -row.buchholz) for row in standings.rows]
    assert keys == sorted(keys)
    assert [label for label, _ in standings.rows[0].tiebreaks] == ["Buchholz"]
    assert host.told("finished")[0]["standings"].rows == standings.rows


# --------------------------------------------------------------------------------------------
# check-in, start times, deadlines, kick, cancel


async def test_check_in_opens_before_the_start_time_and_absentees_are_left_out(env):
    _store, _service, manager, host, clock = env
    players = people(4)
    cup = await swiss_with_checkin(manager, "Timed", players, 60, start_at=NOW + timedelta(hours=2))
    with pytest.raises(CheckinNotOpen, match=r"^Check-in for Timed opens at 2026-04-01 13:00 UTC\.$") as early:
        await manager.checkin(cup.id, players[0])
    assert early.value.opens_at == NOW + timedelta(hours=1)
    clock.advance(minutes=30)
    await manager.tick()
    assert (await manager.get(cup.id)).status == "registration"
    clock.advance(minutes=31)
    await manager.tick()
    assert (await manager.get(cup.id)).status == "checkin"
    (opened,) = host.told("checkin_opened")
    assert opened["until"] == NOW + timedelta(hours=2) and opened["tournament"].status == "checkin"
    assert set(opened["players"]) == {p.user_id for p in players}
    for player in players[:3]:
        await manager.checkin(cup.id, player)
    with pytest.raises(TournamentError, match="already checked in"):
        await manager.checkin(cup.id, players[0])
    late = Actor(200, "late")
    _joined, count = await manager.join(cup.id, late)  # joining during check-in checks in at once
    assert count == 5
    clock.advance(hours=1)
    await manager.tick()
    t = await manager.get(cup.id)
    assert t.status == RUNNING
    roster = {p.user_id: p.status for p in await manager.records.players(cup.id)}
    assert roster[players[3].user_id] == ABSENT and sum(1 for s in roster.values() if s == "active") == 4
    (began,) = host.told("began")
    assert began["absent"] == (players[3].user_id,) and len(began["seeds"]) == 4
    assert host.kinds()[-2:] == ["began", "round"]


async def test_a_start_time_with_too_few_players_cancels_the_tournament(env):
    _store, _service, manager, host, clock = env
    cup = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ORGANISER,
        name="Lonely",
        game="whist",
        format="swiss",
        start_at=NOW + timedelta(hours=1),
    )
    await manager.join(cup.id, people(1)[0])
    clock.advance(hours=2)
    await manager.tick()
    assert (await manager.get(cup.id)).status == CANCELLED
    (cancelled,) = host.told("cancelled")
    assert cancelled["tournament"].status == CANCELLED
    assert cancelled["reason"] == "Lonely needs at least 2 players to start; 1 registered."


async def test_the_round_deadline_times_out_the_games_still_running_and_the_round_advances(env):
    _store, service, manager, _host, clock = env
    players = people(5)
    keeper = Timekeeper(service, missed_turns_limit=2)
    cup = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ORGANISER,
        name="Deadline",
        game="hedgehog",
        format="tables",
        rounds=2,
        round_days=2,
        clock_days=7,
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    t, (table,) = await current(manager, cup.id)
    assert t.round_deadline == NOW + timedelta(days=2)
    clock.advance(days=1)
    assert await manager.enforce_deadlines(keeper.tick) == 0  # not yet
    clock.advance(days=1, minutes=1)
    played = await manager.enforce_deadlines(keeper.tick)
    assert played  # the timeouts, announced in the match threads from their delivery records
    first = await manager.records.match(table.id)
    assert first.status == DONE and len(first.ranks) == 5  # (every forced turn passes: the game ends)
    t, (table2,) = await current(manager, cup.id)
    assert t.current_round == 2 and table2.status == PLAYING
    assert t.round_deadline == clock() + timedelta(days=2)


async def test_kick_resigns_the_running_game_and_cancel_stops_the_rest(env):
    store, _service, manager, host, _clock = env
    players = people(4)
    cup = await two_round_swiss(manager, "Strict", players)
    await manager.kick(cup.id, ORGANISER, players[3].user_id)  # before the start: the registration goes
    assert len(await manager.records.players(cup.id)) == 3
    await manager.join(cup.id, players[3])
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    victim = matches[0].players[0]
    with pytest.raises(TournamentError, match="can remove players"):
        await manager.kick(cup.id, players[0], victim)
    await manager.kick(cup.id, ORGANISER, victim)
    kicked_match = await manager.records.match(matches[0].id)
    assert kicked_match.status == DONE and kicked_match.ranks[kicked_match.players.index(victim)] == 2
    (removed,) = host.told("withdrew")
    assert removed == {"channel": matches[0].thread_id, "name": names_of(players)[victim], "kicked": True}
    await manager.cancel(cup.id, ORGANISER)
    assert (await manager.get(cup.id)).status == CANCELLED
    assert (await store.game(matches[1].game_id)).status == "aborted"
    assert host.told("stopped") == [{"channel": matches[1].thread_id}]
    with pytest.raises(TournamentError, match="already over"):
        await manager.cancel(cup.id, ORGANISER)


async def test_an_aborted_match_game_is_flagged_once_for_adjudication(env):
    _store, service, manager, host, _clock = env
    players = people(2)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Abort", game="whist", format="swiss"
    )
    await register(manager, cup, players)
    await manager.start(cup.id, ORGANISER)
    _t, (match,) = await current(manager, cup.id)
    await service.abort(match.thread_id, ORGANISER)
    await manager.tick()
    await manager.tick()
    assert [d["match"].id for d in host.told("aborted")] == [match.id]
    await manager.adjudicate(cup.id, ORGANISER, match.players[0], "win")
    assert (await manager.get(cup.id)).status == FINISHED


async def test_a_match_game_left_half_set_up_by_a_crash_is_completed_not_duplicated(env):
    store, service, manager, host, _clock = env
    players = people(2)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Crash", game="whist", format="swiss"
    )
    await register(manager, cup, players)
    host.fail_after = 0
    await manager.start(cup.id, ORGANISER)
    _t, (match,) = await current(manager, cup.id)
    assert match.status == "pending" and match.thread_id is None
    # the crash came after the thread and the game's creation, before the second seat was taken
    await manager.records.update_match(match.id, thread_id=777)
    first = players[0] if players[0].user_id == match.players[0] else players[1]
    await service.new_game(
        guild_id=GUILD, channel_id=777, game="whist", actor=first, max_players=2, tournament_id=cup.id
    )
    host.fail_after = None
    await manager.tick()
    _t, (match,) = await current(manager, cup.id)
    game = await store.game(match.game_id)
    assert match.status == PLAYING and match.thread_id == 777 and game.status == "active"
    assert tuple(s.user_id for s in game.seats) == match.players
    assert await store.count_games() == 1 and host.threads == {}


# --------------------------------------------------------------------------------------------
# a player who leaves before their match's game exists


async def test_a_player_who_drops_while_their_launch_waits_for_a_retry_is_resigned_when_it_opens(env):
    _store, service, manager, host, _clock = env
    players = people(4)
    names = names_of(players)
    cup = await two_round_swiss(manager, "Gone", players)
    host.fail_after = 1  # round 1's second thread cannot be opened yet: the next check retries it
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    waiting = next(m for m in matches if m.status == PENDING)
    quitter, opponent = waiting.players
    await manager.drop(cup.id, Actor(quitter, names[quitter]))  # (its retry fails again meanwhile)
    assert (await manager.records.match(waiting.id)).status == PENDING and host.told("withdrew") == []
    host.fail_after = None
    await manager.tick()
    opened = await manager.records.match(waiting.id)
    assert opened.status == DONE and opened.ranks == (2, 1)  # the opponent wins, as after any resignation
    game = await service.game(opened.game_id)
    assert game.status == "finished" and [s.user_id for s in game.seats if s.removed] == [quitter]
    assert (opened.thread_id, opened.id) in host.starts  # the players were greeted in the thread first
    assert host.told("withdrew") == [{"channel": opened.thread_id, "name": names[quitter], "kicked": False}]
    await manager.tick()
    assert len(host.told("withdrew")) == 1
    await finish_round(service, manager, cup.id, random.Random(4), names)
    t, second = await current(manager, cup.id)
    assert t.current_round == 2 and quitter not in {p for m in second for p in m.players}
    assert opponent in {p for m in second for p in m.players}


async def test_a_player_kicked_by_another_process_while_their_thread_opens_is_resigned_once_the_game_exists(db_url):
    """One process opens a match's thread while an organiser's kick is handled by another process."""
    async with two_processes(db_url) as (_stores, hosts, services, (one, other)):
        players = people(2)
        names = names_of(players)
        cup = await one.create(
            guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Ousted", game="whist", format="swiss"
        )
        await register(one, cup, players)
        hosts[0].fail_after = 0
        await one.start(cup.id, ORGANISER)
        _t, (match,) = await current(one, cup.id)
        hosts[0].fail_after = None
        victim, opponent = match.players

        async def kick_meanwhile():
            await other.kick(cup.id, ORGANISER, victim)

        hosts[0].during_open = kick_meanwhile
        await one.advance(cup.id)
        settled = await one.records.match(match.id)
        assert settled.status == DONE and settled.ranks == (2, 1) and settled.winner is None
        game = await services[0].game(settled.game_id)
        assert game.status == "finished" and [s.user_id for s in game.seats if s.removed] == [victim]
        assert hosts[1].told("withdrew") == []  # the kick found no game to resign yet
        assert hosts[0].told("withdrew") == [{"channel": settled.thread_id, "name": names[victim], "kicked": True}]
        t = await one.get(cup.id)
        assert t.status == FINISHED
        assert hosts[0].told("finished")[0]["standings"].rows[0].player == opponent


async def test_a_launch_stopped_right_after_linking_a_withdrawn_players_game_is_put_right_by_the_next_check(env):
    _store, service, manager, host, _clock = env
    players = people(4)
    names = names_of(players)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Table", game="hedgehog", format="tables"
    )
    await register(manager, cup, players)
    host.fail_after = 0
    await manager.start(cup.id, ORGANISER)
    _t, (table,) = await current(manager, cup.id)
    host.fail_after = None
    quitter = table.players[1]

    async def drop_meanwhile():
        await manager.drop(cup.id, Actor(quitter, names[quitter]))

    host.during_open = drop_meanwhile
    # the launch alone, as a process that stops once the game is linked leaves it
    await manager.launcher.launch(await manager.get(cup.id), table, names)
    linked = await manager.records.match(table.id)
    assert linked.status == PLAYING and host.told("withdrew") == []
    await manager.tick()
    game = await service.game(linked.game_id)
    assert [s.user_id for s in game.seats if s.removed] == [quitter]
    assert game.status == "active" and (await manager.records.match(table.id)).status == PLAYING  # play goes on
    assert host.told("withdrew") == [{"channel": linked.thread_id, "name": names[quitter], "kicked": False}]
    await manager.tick()
    assert len(host.told("withdrew")) == 1


# --------------------------------------------------------------------------------------------
# launching a match: claimed first, so one process opens it


async def test_two_processes_launching_the_same_match_open_one_thread(db_url):
    """Two bot processes on one database see the same paired match and launch it at the same moment."""
    async with two_processes(db_url) as (stores, hosts, services, (one, other)):
        players = people(2)
        cup = await one.create(
            guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Twins", game="whist", format="swiss"
        )
        await register(one, cup, players)
        hosts[0].fail_after = 0  # round 1 is paired, but its thread could not be opened yet
        await one.start(cup.id, ORGANISER)
        _t, (match,) = await current(one, cup.id)
        assert match.status == PENDING and match.thread_id is None
        hosts[0].fail_after = None
        for host in hosts:
            host.pause = 5  # Discord takes a moment to open a thread: both processes are inside at once
        await asyncio.gather(one.advance(cup.id), other.advance(cup.id), one.tick(), other.tick())
        opened = {**hosts[0].threads, **hosts[1].threads}
        assert len(opened) == 1  # exactly one thread, whichever process won the claim
        match = await one.records.match(match.id)
        assert match.status == PLAYING and match.thread_id in opened and match.claimed_at is None
        assert len(hosts[0].starts) + len(hosts[1].starts) == 1
        assert await stores[0].count_games() == 1
        game = await services[0].game(match.game_id)
        assert game.channel_id == match.thread_id and tuple(s.user_id for s in game.seats) == match.players


async def test_a_launch_claim_left_by_a_stopped_process_is_taken_over_after_its_lease(env):
    _store, _service, manager, host, clock = env
    players = people(2)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Lapse", game="whist", format="swiss"
    )
    await register(manager, cup, players)
    host.fail_after = 0
    await manager.start(cup.id, ORGANISER)
    _t, (match,) = await current(manager, cup.id)
    host.fail_after = None
    # another process claims the match, then stops before opening its thread
    assert await manager.records.claim_launch(match.id, clock(), stale_before=clock() - LAUNCH_LEASE)
    assert not await manager.records.claim_launch(match.id, clock(), stale_before=clock() - LAUNCH_LEASE)
    claimed = await manager.records.match(match.id)
    assert claimed.status == LAUNCHING and claimed.claimed_at == NOW and claimed.finished_at is None
    assert not claimed.settled
    await manager.tick()  # the claim is fresh: its holder may still be at work
    assert (await manager.records.match(match.id)).status == LAUNCHING and host.threads == {}
    assert (await manager.export(cup.id))["rounds"][0]["matches"][0]["finished_at"] is None
    clock.advance(seconds=LAUNCH_LEASE.total_seconds() + 1)
    await manager.tick()
    launched = await manager.records.match(match.id)
    assert launched.status == PLAYING and launched.claimed_at is None and launched.finished_at is None
    assert list(host.threads) == [launched.thread_id] and len(host.starts) == 1


async def test_a_match_adjudicated_while_its_thread_opens_keeps_its_result_and_gets_no_game(env):
    _store, service, manager, host, _clock = env
    players = people(2)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Quick", game="whist", format="swiss"
    )
    await register(manager, cup, players)
    host.fail_after = 0
    await manager.start(cup.id, ORGANISER)
    _t, (match,) = await current(manager, cup.id)
    host.fail_after = None

    async def settle_meanwhile():
        await manager.adjudicate(cup.id, ORGANISER, match.players[0], "win")

    host.during_open = settle_meanwhile
    await manager.launcher.launch(await manager.get(cup.id), match, names_of(players))
    settled = await manager.records.match(match.id)
    assert settled.status == DONE and settled.ranks == (1, 2) and settled.thread_id is None
    (thread,) = host.threads  # opened, then left unused: the match no longer needed it
    assert await service.latest_game(thread) is None and host.starts == []
    assert (await manager.get(cup.id)).status == FINISHED


async def test_a_match_adjudicated_while_its_game_is_created_keeps_its_result_and_the_game_stops(env):
    _store, service, manager, host, _clock = env
    players = people(2)
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Quicker", game="whist", format="swiss"
    )
    await register(manager, cup, players)
    host.fail_after = 0
    await manager.start(cup.id, ORGANISER)
    _t, (match,) = await current(manager, cup.id)
    host.fail_after = None

    async def settle_meanwhile(report):
        if report.game.tournament_id == cup.id and report.outcome is None:
            await manager.adjudicate(cup.id, ORGANISER, match.players[0], "loss")

    service.listeners.append(settle_meanwhile)  # runs as the game starts, before the launch links it
    await manager.launcher.launch(await manager.get(cup.id), match, names_of(players))
    settled = await manager.records.match(match.id)
    assert settled.status == DONE and settled.ranks == (2, 1) and settled.game_id is None
    game = await service.latest_game(settled.thread_id)
    assert game.status == "aborted" and host.starts == []
    assert (await manager.get(cup.id)).status == FINISHED


async def test_a_table_swiss_bye_is_worth_a_seats_average_while_the_round_is_played(env):
    """docs: "the lowest-ranked players who have had the fewest byes sit out with a bye worth the
    average points of a seat that round".  Five players of a 3-4 seat game: one table of four and a
    bye; a seat at a table of four is worth (3 + 2 + 1 + 0) / 4 = 1.5, from the pairing on, while
    the table still plays."""
    _store, _service, manager, _host, _clock = env
    cup = await manager.create(
        guild_id=GUILD, channel_id=CHANNEL, actor=ORGANISER, name="Five", game="treasure", format="tables"
    )
    await register(manager, cup, people(5))
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    assert sorted(m.status for m in matches) == [BYE, PLAYING]
    (bye,) = [m.players[0] for m in matches if m.status == BYE]
    standings = await manager.standings(cup.id)
    row = next(r for r in standings.rows if r.player == bye)
    assert row.points == 1.5
    exported = await manager.export(cup.id)
    assert next(r for r in exported["standings"] if r["user_id"] == str(bye))["points"] == 1.5


async def test_the_status_of_a_cancelled_tournament_does_not_show_its_stopped_games_as_playing(env):
    """docs: "/tournament cancel: the tournament ends at once; its running games are stopped": the card
    shows each unfinished game as stopped, and no round deadline, and so does the export."""
    _store, service, manager, _host, _clock = env
    cup = await manager.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor=ORGANISER,
        name="Called off",
        game="whist",
        format="swiss",
        round_days=2,
    )
    await register(manager, cup, people(4))
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    await manager.cancel(cup.id, ORGANISER)
    view = await manager.view(cup.id)
    assert view.tournament.status == CANCELLED
    for match in matches:
        assert (await service.game(match.game_id)).status == "aborted"
    shown = "\n".join(f"{f.name}: {f.value}" for f in tournament_embed(view).fields)
    assert "playing" not in shown, shown
    assert "Round deadline: <t:" not in shown, shown
    exported = await manager.export(cup.id)
    assert {m["status"] for r in exported["rounds"] for m in r["matches"]} == {"stopped"}


async def test_the_card_invites_joining_only_while_registration_is_open_and_lists_only_those_still_in(env):
    """docs: registration closes at the start; a player who withdraws is no longer in. The card's footer
    points to /tournament join only while one can join, then to the standings; once started, the card's
    players are those still playing."""
    _store, _service, manager, _host, _clock = env
    players = people(4)
    cup = await two_round_swiss(manager, "Footer", players)
    card = tournament_embed(await manager.view(cup.id))
    assert card.footer.text == f"Tournament #{cup.id} · /tournament join"
    await manager.start(cup.id, ORGANISER)
    await manager.drop(cup.id, players[0])
    card = tournament_embed(await manager.view(cup.id))
    assert card.footer.text == f"Tournament #{cup.id} · /tournament standings"
    listed = next(f for f in card.fields if f.name.startswith("Players"))
    assert listed.name == "Players (3)" and "p1" not in (listed.value or "")
    await manager.cancel(cup.id, ORGANISER)
    card = tournament_embed(await manager.view(cup.id))
    listed = next(f for f in card.fields if f.name.startswith("Players"))
    assert listed.name == "Players (3)" and card.footer.text.endswith("/tournament standings")


async def test_a_cancel_interrupted_after_its_first_write_leaves_no_match_game_running_after_a_restart(
    env, monkeypatch
):
    """/tournament cancel marks the tournament, then stops its games one by one: a cancel cut short
    between the two (the process stopped) is finished at the next check, so no match game plays on."""

    class Died(BaseException):
        """The process dies here (not an error any handler catches)."""

    store, service, manager, host, _clock = env
    cup = await two_round_swiss(manager, "Stopped", people(4))
    await manager.start(cup.id, ORGANISER)
    _t, matches = await current(manager, cup.id)
    assert [m.status for m in matches] == [PLAYING, PLAYING]

    async def dies(*_args, **_kwargs):
        raise Died

    # the tournament is stored as cancelled, then the process stops before its games are stopped
    monkeypatch.setattr(manager, "_stop_game", dies)
    with pytest.raises(Died):
        await manager.cancel(cup.id, ORGANISER)
    assert (await manager.get(cup.id)).status == CANCELLED

    # a restart: a fresh manager over the same database runs its start-up check
    fresh = TournamentManager(service, TournamentRecords(store), host, clock=service.clock)
    service.listeners[:] = [fresh.on_report]
    await fresh.tick()
    statuses = [(await store.game(m.game_id)).status for m in matches]
    # expected: a cancelled tournament's games are stopped, as /tournament cancel promises
    assert statuses == ["aborted", "aborted"], statuses
