"""Move clocks as pure arithmetic: deadlines, banks, vacations and reminder thresholds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot import clocks

START = datetime(2026, 1, 10, 8, 0, tzinfo=UTC)
DAY = timedelta(days=1)
DAY_S = 86_400
HOUR = timedelta(hours=1)


def test_the_deadline_is_the_move_time_plus_the_bank():
    assert clocks.turn_deadline(START, 2, None, None) == START + 2 * DAY
    assert clocks.turn_deadline(START, 2, 3600, None) == START + 2 * DAY + timedelta(hours=1)
    assert clocks.turn_deadline(START, 2, -50, None) == START + 2 * DAY  # a spent bank adds nothing


def test_a_vacation_pushes_the_deadline_back_by_what_is_left_of_it():
    until = START + 3 * DAY
    assert clocks.turn_deadline(START, 1, None, until) == START + 4 * DAY
    assert clocks.turn_deadline(START, 1, None, START - DAY) == START + DAY  # an old vacation changes nothing


def test_overtime_is_taken_from_the_bank_and_never_below_zero():
    due = clocks.turn_deadline(START, 1, 7200, None)
    assert clocks.bank_after_move(due, START + DAY / 2, 7200) == 7200
    assert clocks.bank_after_move(due, START + DAY + timedelta(minutes=30), 7200) == 5400
    assert clocks.bank_after_move(due, START + 3 * DAY, 7200) == 0
    assert clocks.bank_after_move(due, START + 3 * DAY, None) is None


def test_vacation_days_are_not_overtime():
    due = clocks.turn_deadline(START, 1, 7200, START + 3 * DAY)  # on vacation for the turn's first 3 days
    assert clocks.bank_after_move(due, START + 3 * DAY + DAY / 2, 7200) == 7200
    assert clocks.bank_after_move(due, START + 4 * DAY + timedelta(minutes=30), 7200) == 5400


def test_overtime_used_before_a_vacation_is_charged_when_the_player_moves_during_it():
    # a one-day clock and a one-day bank: a day and a half gone, then three days' vacation pushed the deadline
    vacation_from = START + DAY + DAY / 2
    due = clocks.turn_deadline(START, 1, DAY_S, None) + 3 * DAY
    back = vacation_from + 3 * DAY
    assert clocks.bank_after_move(due, vacation_from + HOUR, DAY_S, back) == DAY_S // 2  # the hour was vacation
    assert clocks.bank_after_move(due, back + HOUR, DAY_S, back) == DAY_S // 2 - 3600  # back an hour: charged
    assert clocks.bank_after_move(due, back + HOUR, DAY_S, None) == DAY_S // 2 - 3600


def test_reminders_during_a_vacation_wait_for_its_end_and_split_the_time_left():
    deadline = START + 8 * DAY  # a one-day clock, and seven days' vacation from the turn's start
    back = START + 7 * DAY
    assert clocks.reminder_times(START, deadline, back) == (back + DAY / 2, back + DAY * 0.8)
    assert clocks.reminders_due(START, deadline, 0, START + 6 * DAY, back) == 0
    assert clocks.next_wake(START, deadline, 0, back) == back + DAY / 2
    # one reminder already sent before the vacation is never taken back
    assert clocks.reminders_due(START, deadline, 1, START + 6 * DAY, back) == 1
    assert clocks.reminder_times(START, deadline, START - DAY) == clocks.reminder_times(START, deadline)


def test_reminders_fall_at_half_and_80_percent_once_each():
    deadline = START + 10 * DAY
    half, late = clocks.reminder_times(START, deadline)
    assert (half, late) == (START + 5 * DAY, START + 8 * DAY)
    assert clocks.reminders_due(START, deadline, 0, START + 4 * DAY) == 0
    assert clocks.reminders_due(START, deadline, 0, START + 5 * DAY) == 1
    assert clocks.reminders_due(START, deadline, 1, START + 9 * DAY) == 2
    assert clocks.reminders_due(START, deadline, 2, START + 20 * DAY) == 2


def test_the_scheduler_wakes_at_the_next_unsent_reminder_then_the_deadline():
    deadline = START + 10 * DAY
    assert clocks.next_wake(START, deadline, 0) == START + 5 * DAY
    assert clocks.next_wake(START, deadline, 1) == START + 8 * DAY
    assert clocks.next_wake(START, deadline, 2) == deadline
