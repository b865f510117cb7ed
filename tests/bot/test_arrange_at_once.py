"""Martian Treasure Hunt's coins are set out at the same time: a seat not to move arranges through the session.

docs/rules/treasure.md: "Players arrange at the same time, so nobody sees another's row before choosing
their own: arrangements stay hidden until every player has arranged."  The turn, and the clock, stay
with the first seat still to arrange.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.session.marks import mark_of, stamp
from bot.session.service import Actor, ServiceError
from bot.session.timekeeper import Reminder, Timekeeper
from cogs.messages import reminder_text
from games.treasure import geometry

HOUR = timedelta(hours=1)
ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")
PEOPLE = {a.user_id: a for a in (ALICE, BOB, CAROL)}


async def arranging(session, channel: int = 4) -> list[Actor]:
    """A three-player hunt with a one-day clock and a one-day bank; the players in turn order."""
    games = session.games
    await games.new_game(
        guild_id=1, channel_id=channel, game="treasure", actor=ALICE, max_players=3, clock_days=1, bank_days=1
    )
    await games.join(channel, BOB)
    await games.join(channel, CAROL)
    report = await games.start(channel, ALICE)
    game = report.game
    first = report.to_move_seat
    return [PEOPLE[game.user_at((first + k) % 3)] for k in range(3)]


async def test_the_last_in_turn_arranges_first_and_the_clock_of_the_seat_to_move_is_untouched(world):
    session, clock = world
    games = session.games
    first, second, third = await arranging(session)
    before = await games.live_game(4)
    clock.now += 5 * HOUR
    assert [o.notation for o in await games.legal_moves(4, third.user_id)][:2] == ["arrange 012345", "arrange 012354"]
    report = await games.move(4, third, "arrange 543210")
    assert not report.turn_changed and report.to_move_user == first.user_id
    assert "face down" in report.lines[0] and "5 4 3" not in report.lines[0]
    after = await games.live_game(4)
    assert (after.turn_seat, after.turn_started_at, after.deadline, after.wake_at) == (
        before.turn_seat,
        before.turn_started_at,
        before.deadline,
        before.wake_at,
    )
    assert [(r.bank_seconds, r.missed_turns) for r in after.seats] == [
        (r.bank_seconds, r.missed_turns) for r in before.seats
    ]
    assert await games.legal_moves(4, third.user_id) == []  # arranged once: nothing more to do until play starts
    first_colour = report.rules.seat_name(report.state, before.seat_of(first.user_id)).lower()
    with pytest.raises(ServiceError, match="not one of your legal moves"):  # nobody arranges another's coins
        await games.move(4, second, f"arrange 543210 {first_colour}")
    with pytest.raises(ServiceError, match="You have already played your part of this phase"):
        await games.move(4, third, "arrange 012345")
    with pytest.raises(ServiceError, match=r"^There is nothing to roll yet: Black and Red to set out their coins"):
        await games.roll(4, second)  # arranging out of turn is all a seat not to move may do

    report = await games.move(4, first, "arrange default")  # the seat to move: the turn skips third
    assert report.turn_changed and report.to_move_user == second.user_id
    moved_on = await games.live_game(4)
    assert moved_on.turn_started_at == clock.now and moved_on.deadline is not None
    assert moved_on.deadline > before.deadline
    _, log = await games.history(4)
    assert [row.notation for row in log] == ["arrange (face down)", "arrange (face down)"]
    report = await games.move(4, second, "arrange 2 0 5 1 4 3")
    assert report.to_move_user == first.user_id and report.needs_roll  # every row set out: the first player rolls
    game = await games.live_game(4)
    assert await games.rebuild(game) == report.state  # the log, with the seat of the arrangement out of turn
    _, log = await games.history(4)
    colour = report.rules.seat_name(report.state, game.seat_of(third.user_id)).lower()
    assert [row.notation for row in log] == [f"arrange 543210 {colour}", "arrange 012345", "arrange 205143"]
    assert [row.seat for row in log] == [game.seat_of(a.user_id) for a in (third, first, second)]


async def test_the_standard_order_pressed_by_a_player_still_to_arrange_sets_out_their_own_coins(world):
    session, _ = world
    games = session.games
    first, second, _ = await arranging(session)
    board = await games.board(4)
    standard = next(o for o in board.options() if o.label == "Standard order")
    report = await games.choose(4, second, mark_of(board.game), standard.index)
    seat = board.game.seat_of(second.user_id)
    assert report.state.arranged[seat] and report.state.pending[seat] == (0, 1, 2, 3, 4, 5)
    assert not report.state.arranged[board.game.seat_of(first.user_id)] and report.to_move_user == first.user_id
    with pytest.raises(ServiceError, match="it was already played"):  # the same press again: once only
        await games.choose(4, second, mark_of(board.game), standard.index)


async def test_arrangements_chosen_at_the_same_time_are_all_played_though_each_makes_the_others_stale(world):
    # "Players arrange at the same time": what another player sets out meanwhile changes nothing of
    # one's own choice, so a suggestion or a press offered before it is still played
    session, _ = world
    games = session.games
    first, second, third = await arranging(session)
    board = await games.board(4)
    standard = next(o for o in board.options() if o.label == "Standard order")
    offered = stamp("arrange 543210", mark_of(board.game))  # the suggestion's value, as the menu sent it
    await games.move(4, third, "arrange 012345")
    report = await games.move(4, second, offered)  # stale by one ply
    assert report.state.arranged[board.game.seat_of(second.user_id)]
    report = await games.choose(4, first, mark_of(board.game), standard.index)  # stale by two: the last row
    assert report.state.phase == "roll"  # every row set out: play starts
    with pytest.raises(ServiceError, match="board changed"):  # once play starts a stale choice is refused again
        await games.choose(4, second, mark_of(board.game), standard.index)


async def test_an_undo_takes_back_an_arrangement_made_out_of_turn(world):
    session, _ = world
    games = session.games
    first, second, third = await arranging(session)
    await games.move(4, third, "arrange 543210")
    status = await session.undo.request(4, third)
    assert status.shown == "arrange (face down)"
    game = await games.live_game(4)
    for other in (first, second):
        status = await session.undo.answer(game.id, other, True)
    assert status.report is not None and 'the move "arrange (face down)" is taken back' in status.report.lines[0]
    state = (await games.board(4)).state
    assert not any(state.arranged) and status.report.to_move_user == first.user_id
    assert (await games.move(4, third, "arrange 012345")).to_move_user == first.user_id  # third arranges again


async def test_the_clock_sets_out_the_standard_order_for_the_seat_to_move_only(world):
    session, clock = world
    games = session.games
    first, second, third = await arranging(session)
    await games.move(4, third, "arrange 543210")
    clock.now += 3 * HOUR
    await games.move(4, first, "arrange 2 0 5 1 4 3")  # the turn passes to second, third being done
    clock.now += 2 * timedelta(days=1) + HOUR  # second's day and bank are gone
    result = await Timekeeper(games).tick()
    assert result.timeouts == 1
    board = await games.board(4)
    state, game = board.state, board.game
    assert state.phase == "roll" and board.to_move_user == first.user_id  # everyone has arranged: play starts
    home = geometry(3).home
    seats = [game.seat_of(a.user_id) for a in (first, second, third)]
    assert state.coins[seats[1]] == home[seats[1]]  # the standard order, null to 5 left to right
    assert state.coins[seats[2]] == tuple(reversed(home[seats[2]]))  # third's own order, revealed with the rest
    _, log = await games.history(4)
    assert [row.seat for row in log] == [seats[2], seats[0], seats[1]] and "by the clock" in log[-1].description
    assert game.turn_started_at == clock.now and game.deadline == clock.now + timedelta(days=2)  # a day and the bank


async def test_play_starts_with_a_fresh_clock_when_the_first_player_arranges_last(world):
    """The seat to move while coins are set out is also the first to roll: once the last row is set
    out its turn begins, so the time it spent arranging is not taken from its first roll."""
    session, clock = world
    games = session.games
    first, second, third = await arranging(session)
    await games.move(4, second, "arrange 543210")
    await games.move(4, third, "arrange 012345")
    clock.now += 20 * HOUR
    report = await games.move(4, first, "arrange default")  # the last row: play starts
    assert report.needs_roll and report.to_move_user == first.user_id
    game = await games.live_game(4)
    assert game.turn_started_at == clock.now
    assert game.deadline == clock.now + timedelta(days=2)  # the day's clock and the whole bank, afresh
    seat = next(row for row in game.seats if row.user_id == first.user_id)
    assert seat.bank_seconds == 86_400


async def test_everyone_still_to_arrange_is_reminded_and_only_the_seat_to_move_of_its_time(world):
    session, clock = world
    games = session.games
    first, second, third = await arranging(session)
    await games.move(4, third, "arrange 543210")  # third is done: nothing to remind them of
    game = await games.live_game(4)
    clock.now = game.deadline - HOUR
    result = await Timekeeper(games).tick()
    assert result.reminders == 1 and result.timeouts == 0
    items = await games.claim_deliveries()
    reminders = {
        r.user_id: r for r in (Reminder.from_payload(i.row.payload) for i in items if i.row.kind == "reminder")
    }
    assert set(reminders) == {first.user_id, second.user_id}
    assert not reminders[first.user_id].together and reminders[first.user_id].seconds_left == 3600
    assert reminders[second.user_id].together  # may arrange now; their own clock has not started
    assert "your own clock starts only when the turn comes to you" in reminder_text(reminders[second.user_id]).lower()
    assert reminder_text(reminders[first.user_id]).endswith("Time left: 1 hour.")


async def test_a_reminder_left_unsent_by_a_stop_is_not_sent_to_a_player_who_has_arranged_since(world):
    # the reminders are written at half the clock, the bot stops before sending them, and one of those
    # arranging beside the seat to move arranges meanwhile: nothing is left for them to be reminded of
    session, clock = world
    games = session.games
    first, second, third = await arranging(session)
    await games.delivered(*(item.id for item in await games.claim_deliveries()))
    game = await games.live_game(4)
    clock.now = game.turn_started_at + (game.deadline - game.turn_started_at) * 0.55
    assert (await Timekeeper(games).tick()).reminders == 1  # written for all three; not sent yet
    await games.move(4, third, "arrange 543210")
    items = await games.claim_deliveries()
    due = {Reminder.from_payload(i.row.payload).user_id: not i.overtaken for i in items if i.row.kind == "reminder"}
    assert due == {first.user_id: True, second.user_id: True, third.user_id: False}


async def test_the_arrangement_that_revealed_every_row_cannot_be_taken_back(world):
    # "arrangements stay hidden until every player has arranged": once revealed, nobody may set out
    # their coins again knowing the others' rows
    session, _ = world
    games = session.games
    first, second, third = await arranging(session)
    await games.move(4, second, "arrange 543210")
    await games.move(4, third, "arrange 012345")
    status = await session.undo.request(4, third)  # before the reveal: an ordinary undo request
    assert status.waiting_for and status.report is None
    await session.undo.answer(status.game.id, first, False)
    await games.move(4, first, "arrange default")  # the last row: every row is revealed
    with pytest.raises(ServiceError, match="revealed since"):
        await session.undo.request(4, first)
    with pytest.raises(ServiceError, match="revealed since"):
        await session.undo.request(4, second)
