"""Move clocks: deadlines, time banks and reminder thresholds, as pure functions of the times involved.

A game with a clock gives the player to act ``clock_days`` per move.  An optional time bank adds to
that: time used beyond ``clock_days`` is taken from the player's bank, and the deadline is the end
of the move time plus whatever is left in the bank.  A player on vacation has their deadline pushed
back until the vacation ends.  Reminders go out once each at half and at 80 % of the time allowed (the
time after the vacation, when one runs into the turn).
"""

from __future__ import annotations

from datetime import datetime, timedelta

REMINDER_FRACTIONS = (0.5, 0.8)
DAY = 86_400


def turn_deadline(
    start: datetime, clock_days: int, bank_seconds: int | None, vacation_until: datetime | None
) -> datetime:
    """When the player who starts acting at ``start`` runs out of time."""
    deadline = start + timedelta(days=clock_days, seconds=max(0, bank_seconds or 0))
    if vacation_until is not None and vacation_until > start:
        deadline += vacation_until - start
    return deadline


def bank_after_move(
    deadline: datetime | None, end: datetime, bank_seconds: int | None, vacation_until: datetime | None = None
) -> int | None:
    """The bank left after a move (or a timeout) at ``end`` of a turn due at ``deadline``.

    The deadline is the move time, the bank and any vacation after the turn began: the bank is what
    was still left before it, so vacation days are never charged as overtime.  A player who moves while
    still on vacation (until ``vacation_until``) did not use the rest of it: that part of the deadline
    is not theirs to keep, so overtime used before the vacation is still charged.  None when the game
    has no bank; the bank as it was when the turn has no deadline.
    """
    if bank_seconds is None or deadline is None:
        return bank_seconds
    if vacation_until is not None and vacation_until > end:
        deadline -= vacation_until - end
    return max(0, min(bank_seconds, int((deadline - end).total_seconds())))


def reminder_times(start: datetime, deadline: datetime, vacation_until: datetime | None = None) -> tuple[datetime, ...]:
    """The moments the reminders fall due: half and 80 % of the time allowed, counted from the end of a
    vacation that runs into the turn (a paused clock does not remind; the player is reminded once back)."""
    if vacation_until is not None and start < vacation_until < deadline:
        start = vacation_until
    allowed = deadline - start
    return tuple(start + allowed * fraction for fraction in REMINDER_FRACTIONS)


def reminders_due(
    start: datetime, deadline: datetime, sent: int, now: datetime, vacation_until: datetime | None = None
) -> int:
    """How many reminders should have gone out by ``now`` (0, 1 or 2, never fewer than ``sent``); at most
    one is sent per check."""
    if sent >= 2:
        return sent
    return max(sent, sum(1 for moment in reminder_times(start, deadline, vacation_until) if moment <= now))


def next_wake(start: datetime, deadline: datetime, sent: int, vacation_until: datetime | None = None) -> datetime:
    """When the scheduler must next look at the game: the next unsent reminder, else the deadline."""
    pending = reminder_times(start, deadline, vacation_until)[sent:]
    return pending[0] if pending else deadline
