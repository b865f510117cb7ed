"""The scheduler isolates games and every event it commits is announced exactly once.

Regression tests for the clock check: a reminder whose write meets a stale version, a game that fails
between two due ones, and events committed before a crash are all handled without losing the events
of the other games in the same tick.
"""

from __future__ import annotations

from datetime import timedelta

from bot.session import open_session
from bot.session.service import ALL_PEOPLE_LEFT, Actor
from bot.session.timekeeper import Reminder, Timekeeper
from tests.bot.hand_clock import T0, Clock

HOUR = timedelta(hours=1)


async def two_player_game(session, channel: int) -> None:
    """A running two-player Marsigelwettkampf game with a one-day clock in ``channel``."""
    alice, bob = Actor(channel * 10 + 1, f"alice{channel}"), Actor(channel * 10 + 2, f"bob{channel}")
    await session.games.new_game(
        guild_id=1, channel_id=channel, game="hedgehog", actor=alice, max_players=2, clock_days=1
    )
    await session.games.join(channel, bob)
    report = await session.games.start(channel, alice)
    await session.games.delivered(report.delivery_id)


async def announced(session) -> list:
    """Claim what is waiting to be announced, and mark it done."""
    items = await session.games.claim_deliveries()
    await session.games.delivered(*(item.id for item in items))
    return items


async def test_a_reminder_write_that_meets_a_stale_version_loses_nothing(world, monkeypatch):
    session, clock = world
    await two_player_game(session, 1)  # its deadline passes first
    clock.now = T0 + 13 * HOUR
    await two_player_game(session, 2)  # its first reminder falls due at T0 + 25 h
    clock.now = T0 + 25 * HOUR
    store = session.games.store
    original = store.update_game

    async def racing_update(game, now, **values):
        if game.channel_id == 2 and "reminders_sent" in values:  # another process writes game 2 first
            fresh = await store.game(game.id)
            await original(fresh, now)
        return await original(game, now, **values)

    monkeypatch.setattr(store, "update_game", racing_update)
    result = await session.timekeeper.tick()
    assert result.timeouts == 1 and result.reminders == 0 and result.failed == ()
    items = await announced(session)
    assert [item.game.channel_id for item in items] == [1]  # the timeout of game 1 is announced
    assert "loses on time" in items[0].report.lines[0]
    assert (await store.live_game(2)).reminders_sent == 0  # not written as reminded: it is due again

    monkeypatch.setattr(store, "update_game", original)
    result = await session.timekeeper.tick()
    assert result.reminders == 1
    (item,) = await announced(session)
    reminder = Reminder.from_payload(item.row.payload)
    assert item.report is None and reminder.channel_id == 2 and reminder.title == "Der Marsigelwettkampf"
    assert await announced(session) == []  # once


async def test_a_game_that_fails_between_two_due_ones_never_stops_the_others(world, monkeypatch, caplog):
    session, clock = world
    for channel in (1, 2, 3):
        await two_player_game(session, channel)
    clock.now = T0 + 25 * HOUR
    broken = (await session.games.live_game(2)).id
    original = Timekeeper._time_out

    async def failing(self, game):
        if game.id == broken:
            raise RuntimeError("a bug in one game")
        return await original(self, game)

    monkeypatch.setattr(Timekeeper, "_time_out", failing)
    result = await session.timekeeper.tick()
    assert result.timeouts == 2 and result.failed == (broken,)
    assert f"clock check of game {broken} failed" in caplog.text
    assert sorted(item.game.channel_id for item in await announced(session)) == [1, 3]
    assert (await session.games.live_game(2)).status == "active"  # untouched, tried again next tick

    monkeypatch.setattr(Timekeeper, "_time_out", original)
    assert (await session.timekeeper.tick()).timeouts == 1
    assert [item.game.channel_id for item in await announced(session)] == [2]


async def test_events_committed_before_a_crash_are_announced_after_the_restart_once(db_url):
    clock = Clock()
    session = await open_session(db_url, clock=clock, render=False, new_seed=lambda: "seed")
    await two_player_game(session, 1)
    clock.now = T0 + 25 * HOUR
    await session.timekeeper.tick()  # committed, and the process stops before announcing it
    await session.close()

    again = await open_session(db_url, clock=clock, render=False)
    items = await announced(again)
    assert len(items) == 1 and "loses on time" in items[0].report.lines[0]
    assert items[0].report.outcome is not None
    assert await announced(again) == []
    await again.close()


async def test_a_claimed_event_that_was_never_marked_is_claimed_again_after_its_lease(world):
    session, clock = world
    await two_player_game(session, 1)
    clock.now = T0 + 25 * HOUR
    await session.timekeeper.tick()
    (first,) = await session.games.claim_deliveries()  # the announcer dies while posting it
    assert await session.games.claim_deliveries() == []  # still claimed
    clock.now += timedelta(minutes=3)
    (second,) = await session.games.claim_deliveries()
    assert second.id == first.id


async def test_a_players_move_is_announced_by_its_reply_and_only_late_by_the_announcer(world):
    session, clock = world
    await two_player_game(session, 1)
    game = await session.games.live_game(1)
    player = Actor(game.user_at(await session.games.to_move(game)), "p")
    report = await session.games.roll(1, player, token="tok")
    assert await session.games.claim_deliveries() == []  # the reply is on its way
    await session.games.delivered(report.delivery_id)
    clock.now += timedelta(minutes=5)
    assert await session.games.claim_deliveries() == []  # answered: nothing to announce

    report = await session.games.resign(1, player, token="tok2")  # committed; the reply never went out
    clock.now += timedelta(minutes=5)
    (late,) = await session.games.claim_deliveries()
    assert late.id == report.delivery_id and late.row.token == "tok2" and late.report.outcome is not None


async def test_vacation_pushes_the_deadline_of_the_game_waiting_for_the_player(world):
    session, clock = world
    await two_player_game(session, 1)
    game = await session.games.live_game(1)
    user = game.user_at(await session.games.to_move(game))
    affected, left, _ = await session.timekeeper.vacation(1, user, 3)
    assert [g.id for g in affected] == [game.id] and left == 11
    assert (await session.games.live_game(1)).deadline == game.deadline + timedelta(days=3)
    clock.now = T0 + 25 * HOUR
    assert (await session.timekeeper.tick()).timeouts == 0


async def test_a_move_landing_while_a_vacation_is_granted_leaves_the_next_players_deadline_alone(world, monkeypatch):
    session, _clock = world
    await two_player_game(session, 1)
    game = await session.games.live_game(1)
    mover = Actor(game.user_at(game.turn_seat), "mover")
    store = session.games.store
    listed = store.games_of_user

    async def list_then_move(user_id, guild_id=None):
        rows = await listed(user_id, guild_id)
        report = await session.games.roll(1, mover)  # the player plays on while the vacation is granted
        while report.to_move_user == mover.user_id:
            options = await session.games.legal_moves(1, mover.user_id)
            report = await session.games.move(1, mover, options[-1].value)
        return rows

    monkeypatch.setattr(store, "games_of_user", list_then_move)
    await session.timekeeper.vacation(1, mover.user_id, 7)
    after = await session.games.live_game(1)
    assert after.user_at(after.turn_seat) != mover.user_id
    assert after.deadline - after.turn_started_at == timedelta(days=1)  # the opponent keeps their own clock


async def test_a_turn_that_times_out_spends_the_time_bank(world):
    session, clock = world
    people = {n: Actor(n, f"player{n}") for n in (1, 2, 3)}
    await session.games.new_game(
        guild_id=1, channel_id=5, game="hedgehog", actor=people[1], max_players=3, clock_days=1, bank_days=2
    )
    for n in (2, 3):
        await session.games.join(5, people[n])
    game = (await session.games.start(5, people[1])).game
    absent = game.turn_seat
    assert game.deadline - game.turn_started_at == timedelta(days=3)  # the day and the whole bank
    clock.now = game.deadline + timedelta(seconds=1)
    assert (await session.timekeeper.tick()).timeouts == 1  # the turn is played for them: 3 players
    for _ in range(40):  # the two others play until the absent player's turn comes round again
        game = await session.games.live_game(5)
        if game.turn_seat == absent:
            break
        report = await session.games.board(5)
        actor = people[report.to_move_user]
        if report.needs_roll:
            await session.games.roll(5, actor)
        else:
            await session.games.move(5, actor, (await session.games.legal_moves(5, actor.user_id))[0].value)
    assert game.turn_seat == absent
    assert game.deadline - game.turn_started_at == timedelta(days=1)  # the bank is spent, never refilled


async def test_a_round_deadline_never_times_out_a_computer_player(world):
    session, clock = world
    alice = Actor(1, "alice")
    await session.games.new_game(guild_id=1, channel_id=5, game="whist", actor=alice, max_players=2, clock_days=3)
    await session.games.add_bot(5, alice, "easy")
    report = await session.games.start(5, alice)
    if report.to_move_user == alice.user_id:
        report = await session.games.move(5, alice, (await session.games.legal_moves(5, alice.user_id))[0].value)
    game = report.game
    assert game.bot_at(game.turn_seat) is not None and game.deadline is None  # a bot has no clock
    clock.now += timedelta(days=1)
    assert not await session.games.force_deadline(game.id)  # the round deadline passes: the bot is not forced
    assert (await session.timekeeper.tick()).timeouts == 0
    assert (await session.games.live_game(5)).status == "active"  # the bot has not lost on time

    async def show(_report):
        return None

    assert await session.autoplay.play(5, show) >= 1  # it plays its turn by itself
    game = await session.games.live_game(5)
    assert game.user_at(game.turn_seat) == alice.user_id
    assert await session.games.force_deadline(game.id)  # then the person's turn runs out
    assert (await session.timekeeper.tick()).timeouts == 1
    timeout = (await announced(session))[-1]
    # the one person of a practice game leaves on time, and the bot does not play on alone
    assert timeout.report.lines == ["alice ran out of time and leaves the game.", ALL_PEOPLE_LEFT]


async def banked_game(session):
    """A running two-player game in channel 5 with a one-day clock and a one-day bank; the game and the
    player to move."""
    alice, bob = Actor(1, "alice"), Actor(2, "bob")
    await session.games.new_game(
        guild_id=1, channel_id=5, game="hedgehog", actor=alice, max_players=2, clock_days=1, bank_days=1
    )
    await session.games.join(5, bob)
    game = (await session.games.start(5, alice)).game
    return game, alice if game.user_at(game.turn_seat) == alice.user_id else bob


async def roll_and_pass(session, mover):
    """``mover`` rolls and passes in channel 5; their seat afterwards, and the roll's report."""
    report = await session.games.roll(5, mover)
    options = await session.games.legal_moves(5, mover.user_id)
    pass_turn = next(o for o in options if o.notation == "pass")
    await session.games.move(5, mover, pass_turn.value)
    seat = next(row for row in (await session.games.live_game(5)).seats if row.user_id == mover.user_id)
    return seat, report


async def test_vacation_days_in_a_turn_are_not_taken_from_the_time_bank(world):
    session, clock = world
    game, mover = await banked_game(session)
    await session.timekeeper.vacation(1, mover.user_id, 3)
    clock.now = game.turn_started_at + timedelta(days=3, hours=12)  # back from vacation, within the day's clock
    seat, report = await roll_and_pass(session, mover)
    assert report.game.turn_seat == seat.seat and seat.bank_seconds == 86_400  # the whole bank is left


async def test_overtime_used_before_a_vacation_is_taken_from_the_bank_when_the_player_moves_during_it(world):
    session, clock = world
    game, mover = await banked_game(session)
    clock.now = game.turn_started_at + timedelta(days=1.5)  # half a day of the bank used
    await session.timekeeper.vacation(1, mover.user_id, 3)
    clock.now += HOUR  # the player moves an hour into the vacation
    seat, _report = await roll_and_pass(session, mover)
    assert seat.bank_seconds == 43_200  # the day and a half before the vacation; not the hour on it
