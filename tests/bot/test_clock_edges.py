"""The move clock at its edges: a clock per move even when the same seat acts again, vacations that
come too late to save a turn, and the yearly allowance counted by the calendar year each day falls in.

Time is the session tests' hand-moved clock; nothing sleeps.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime, timedelta

import pytest

from bot.session import open_session
from bot.session.service import Actor, ServiceError
from tests.bot.failing import fail_once

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


async def test_a_solitaire_player_who_plays_a_turn_every_five_hours_never_runs_out_of_time(world):
    """README: "A game created with clock gives each player that many days per move."  In a game of one
    the seat to act never changes, so ``_turn_fields`` never starts a new clock: the one day of the first
    turn is all the player gets for the whole game, reminders come while they play, and the game is lost
    on time although they never took more than five hours over a turn."""
    session, clock = world
    alice = Actor(1, "alice")
    await session.games.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=1, clock_days=1)
    await session.games.start(5, alice)
    for _ in range(6):  # six turns, one every five hours: thirty hours in all
        clock.now += 5 * HOUR
        await session.games.roll(5, alice)
        options = await session.games.legal_moves(5, alice.user_id)
        await session.games.move(5, alice, next(o for o in options if o.notation == "pass").value)
        result = await session.timekeeper.tick()
        assert result.timeouts == 0 and result.reminders == 0, f"after a turn ended at {clock.now}: {result}"
    game = await session.games.live_game(5)
    assert game is not None and game.status == "active"
    assert game.deadline == clock.now + DAY  # a new turn: a new day on the clock


async def test_every_whist_move_gets_the_whole_clock_even_when_the_same_player_acts_next(world):
    """In Martian Whist the player who takes the last pyramid of the draft leads the first trick, and the
    winner of a trick leads the next: the same seat acts twice in a row.  Each is a move of its own
    (docs/commands.md: ``clock`` is "time allowed per move"), but the deadline of the first is kept for
    the second: a player who took 23 hours over their last pick has one hour left to lead (and no
    reminder comes: both were sent), then loses on time."""
    session, clock = world
    people = {1: Actor(1, "alice"), 2: Actor(2, "bob")}
    await session.games.new_game(guild_id=1, channel_id=5, game="whist", actor=people[1], max_players=2, clock_days=1)
    await session.games.join(5, people[2])
    await session.games.start(5, people[1])
    seen_same_seat = False
    for _ in range(200):
        game = await session.games.live_game(5)
        if game is None or game.status != "active":
            break
        seat = game.turn_seat
        user = game.user_at(seat)
        clock.now += 23 * HOUR  # every move made in time, near the end of its day
        report = await session.games.move(5, people[user], (await session.games.legal_moves(5, user))[0].value)
        after = report.game
        if after.status == "active" and after.turn_seat == seat:
            seen_same_seat = True
            assert after.deadline - clock.now == DAY, f"after {report.lines[-1]!r} the next move has only " + str(
                after.deadline - clock.now
            )
        assert (await session.timekeeper.tick()).timeouts == 0
    assert seen_same_seat


async def test_a_vacation_asked_for_once_the_deadline_has_passed_does_not_save_the_game(world):
    """A clock that has run out cannot be paused: a vacation asked for after the deadline (before the next
    clock check, up to SCHEDULER_INTERVAL_SECONDS later, or longer when a check of that game fails) adds
    its days to the old deadline in ``Timekeeper.vacation`` and the turn that was over runs again."""
    session, clock = world
    alice, bob = Actor(11, "alice"), Actor(12, "bob")
    await session.games.new_game(guild_id=1, channel_id=1, game="hedgehog", actor=alice, max_players=2, clock_days=1)
    await session.games.join(1, bob)
    game = (await session.games.start(1, alice)).game
    late = game.user_at(game.turn_seat)
    clock.now = game.deadline + timedelta(seconds=30)  # the time is up; the clock check has not run yet
    with contextlib.suppress(ServiceError):  # refusing it is a fix too
        await session.timekeeper.vacation(1, late, 3)
    assert (await session.timekeeper.tick()).timeouts == 1  # the player ran out of time and loses
    assert (await session.games.live_game(1)) is None or (await session.games.live_game(1)).status != "active"


async def _on_turn_in_two_games(session) -> tuple[int, list]:
    """A player whose turn it is in two running one-day games (channels 1 and 2); the games."""
    ann, ben, cat = Actor(21, "ann"), Actor(22, "ben"), Actor(23, "cat")
    for channel, other in ((1, ben), (2, cat)):
        await session.games.new_game(
            guild_id=1, channel_id=channel, game="hedgehog", actor=ann, max_players=2, clock_days=1
        )
        await session.games.join(channel, other)
        game = (await session.games.start(channel, ann)).game
        while game.user_at(game.turn_seat) != ann.user_id:  # let the other move first
            mover = ben if channel == 1 else cat
            await session.games.roll(channel, mover)
            game = (await session.games.move(channel, mover, "pass")).game
    return ann.user_id, [await session.games.live_game(1), await session.games.live_game(2)]


async def test_a_vacation_is_granted_whole_or_not_at_all(world, monkeypatch):
    # the days spent and every deadline pushed are one write: when pushing the second game's clock
    # fails, the first game's is not pushed and no day is spent, and asking again grants it once
    session, _clock = world
    user, games = await _on_turn_in_two_games(session)
    store = session.games.store
    real_bump, bumps = store._bump, []

    def second_fails(conn, game, now, **values):
        bumps.append(game.id)
        if len(bumps) == 2:
            raise OSError("disk full")
        real_bump(conn, game, now, **values)

    monkeypatch.setattr(store, "_bump", second_fails)
    with pytest.raises(OSError):  # the player is told the bot could not do it
        await session.timekeeper.vacation(1, user, 3)
    monkeypatch.setattr(store, "_bump", real_bump)
    assert (await session.games.player_prefs(1, user))["vacation_until"] is None
    assert [(await session.games.live_game(g.channel_id)).deadline for g in games] == [g.deadline for g in games]
    _, left, _ = await session.timekeeper.vacation(1, user, 3)
    assert left == 11
    assert [(await session.games.live_game(g.channel_id)).deadline for g in games] == [
        g.deadline + timedelta(days=3) for g in games
    ]


async def test_a_vacation_whose_game_moved_meanwhile_is_worked_out_again(world, monkeypatch):
    # another write came first: the vacation is worked out again on the game as it now stands
    session, _clock = world
    user, games = await _on_turn_in_two_games(session)
    fail_once(monkeypatch, session.games.store, "grant_vacation")
    _, left, _ = await session.timekeeper.vacation(1, user, 2)
    assert left == 12
    assert [(await session.games.live_game(g.channel_id)).deadline for g in games] == [
        g.deadline + timedelta(days=2) for g in games
    ]


async def test_two_vacations_asked_at_the_same_instant_push_the_clocks_only_for_the_days_spent(world):
    """Two `/game vacation days:10` at once (a double submit): the second starts where the first ends, so
    with 14 days a year it is refused; never 20 days of pause for 10 days spent."""
    import asyncio

    session, _clock = world
    user, games = await _on_turn_in_two_games(session)
    asked = [session.timekeeper.vacation(1, user, 10), session.timekeeper.vacation(1, user, 10)]
    results = await asyncio.gather(*asked, return_exceptions=True)
    refused = [str(r) for r in results if isinstance(r, ServiceError)]
    assert refused == ["You have 4 vacation days left this year."]
    prefs = await session.games.player_prefs(1, user)
    assert prefs["vacation_used_days"] == 10
    assert [(await session.games.live_game(g.channel_id)).deadline for g in games] == [
        g.deadline + timedelta(days=10) for g in games
    ]


async def test_a_player_never_has_more_vacation_days_in_a_calendar_year_than_the_allowance(world):
    """README: VACATION_DAYS_PER_YEAR is "vacation days each player may take per calendar year" (14).  Days
    are charged to the year the vacation is asked for, and a second vacation starts where the first
    ends: 14 days asked for on 31 December and 14 more on 1 January are 28 vacation days in a row, all
    but half a day of them in January."""
    session, clock = world
    clock.now = datetime(2026, 12, 31, 12, tzinfo=UTC)
    await session.timekeeper.vacation(1, 99, 14)  # until 14 January 2027
    clock.now = datetime(2027, 1, 1, 12, tzinfo=UTC)
    with pytest.raises(ServiceError):
        await session.timekeeper.vacation(1, 99, 14)  # would run from 14 to 28 January
    prefs = await session.games.store.player_prefs(1, 99)
    assert prefs["vacation_until"] <= datetime(2027, 1, 15, 12, tzinfo=UTC)


async def test_a_vacation_across_new_year_spends_the_days_of_the_year_they_fall_in(world):
    session, clock = world
    clock.now = datetime(2026, 12, 31, 12, tzinfo=UTC)
    _, left, year = await session.timekeeper.vacation(1, 99, 5)  # one day of 2026, four of 2027
    assert (left, year) == (10, 2027)
    clock.now = datetime(2027, 1, 1, 12, tzinfo=UTC)
    _, left, year = await session.timekeeper.vacation(1, 99, 10)  # from 5 January: all of 2027
    assert (left, year) == (0, 2027)


async def test_vacations_turned_off_say_so(db_url):
    session = await open_session(db_url, clock=lambda: datetime(2026, 5, 1, tzinfo=UTC), vacation_days_per_year=0)
    try:
        with pytest.raises(ServiceError, match="Vacations are turned off"):
            await session.timekeeper.vacation(1, 99, 1)
    finally:
        await session.close()


async def _solitaire_turns(session, clock, alice, turns: int) -> None:
    """Play ``turns`` hedgehog turns (roll, pass), one every five hours, on alice's solitaire table."""
    for _ in range(turns):
        clock.now += 5 * HOUR
        await session.games.roll(5, alice)
        options = await session.games.legal_moves(5, alice.user_id)
        await session.games.move(5, alice, next(o for o in options if o.notation == "pass").value)


async def test_a_fresh_clock_after_a_move_in_the_same_turn_reminds_at_half_and_80_percent_of_it(world):
    """The player is reminded once at half and once at 80 % of their time: of the fresh clock a move
    starts, also when the same player moves again."""
    session, clock = world
    alice = Actor(1, "alice")
    await session.games.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=1, clock_days=1)
    await session.games.start(5, alice)
    await _solitaire_turns(session, clock, alice, 6)  # thirty hours played, every turn in time
    moved = clock.now
    game = await session.games.live_game(5)
    assert game.deadline == moved + DAY  # a fresh clock: one day from the last move

    clock.now = moved + 12 * HOUR + timedelta(seconds=1)  # half of the fresh clock
    first = (await session.timekeeper.tick()).reminders
    clock.now = moved + 19 * HOUR  # not yet 80 % (19.2 hours)
    early = (await session.timekeeper.tick()).reminders
    clock.now = moved + 19 * HOUR + 15 * timedelta(minutes=1)  # past 80 %
    late = (await session.timekeeper.tick()).reminders
    assert (first, early, late) == (1, 0, 1)


async def test_a_long_solitaire_still_gets_its_80_percent_reminder(world):
    """Fifty hours into a game of one, both reminders of the fresh clock still come, one at a time."""
    session, clock = world
    alice = Actor(1, "alice")
    await session.games.new_game(guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=1, clock_days=1)
    await session.games.start(5, alice)
    await _solitaire_turns(session, clock, alice, 10)
    moved = clock.now
    sent = 0
    for hours in (12.1, 19.5):  # after half, after 80 % of the fresh day
        clock.now = moved + timedelta(hours=hours)
        sent += (await session.timekeeper.tick()).reminders
    assert sent == 2


async def test_a_tournament_player_who_times_out_is_not_pointed_to_game_bot(world):
    """A tournament match's seat never goes to a computer player: its missed-turn line does not offer
    /game bot."""
    session, clock = world
    people = [Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")]
    report = await session.games.create_seated_game(
        guild_id=1, channel_id=5, game="hedgehog", players=people, clock_days=1, tournament_id=99
    )
    late = report.game.name_at(report.game.turn_seat)
    clock.now = report.game.deadline + timedelta(seconds=1)
    assert (await session.timekeeper.tick()).timeouts == 1
    items = await session.games.claim_deliveries()
    lines = [line for item in items if item.report is not None for line in item.report.lines]
    said = next(line for line in lines if line.startswith(f"{late} ran out of time"))
    assert "/game bot" not in said, said
