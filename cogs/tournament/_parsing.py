"""What organisers type: a start time (a delay, a UTC date or a Discord timestamp) and game options."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from bot.session import ServiceError
from cogs.replies import quote_input

DELAY = re.compile(r"(\d+)\s*(d|days?|h|hours?|hrs?|m|mins?|minutes?)\b")
STAMP = re.compile(r"<t:(\d+)(?::[a-z])?>|(\d{9,11})")
DATE_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d")


LONGEST_WAIT = timedelta(days=366)


def parse_start(text: str, now: datetime) -> datetime:
    """A start time: a delay (``2h``, ``in 1d 6h``, ``90m``), a UTC date-time (``2026-05-01 18:00``),
    or a Discord timestamp (``<t:1777777777>``) / Unix time."""
    raw = text.strip().lower()
    stamp = STAMP.fullmatch(raw)
    if stamp:
        seconds = int(stamp.group(1) or stamp.group(2)) - now.timestamp()
        return _within_reach(now, seconds)
    delay = raw.removeprefix("in ").strip()
    parts = DELAY.findall(delay)
    if parts and not DELAY.sub("", delay).replace(",", "").replace("and", "").strip():
        seconds = 0
        for amount, unit in parts:
            seconds += int(amount) * {"d": 86400, "h": 3600, "m": 60}[unit[0]]
        return _within_reach(now, seconds)
    cleaned = raw.removesuffix("utc").strip().replace("t", " ")
    for pattern in DATE_FORMATS:
        try:
            moment = datetime.strptime(cleaned, pattern).replace(tzinfo=now.tzinfo)
        except ValueError:
            continue
        return _within_reach(now, (moment - now).total_seconds())
    raise ServiceError(
        "Give the start as a delay such as 2h or 1d 6h, or a UTC date and time such as 2026-05-01 18:00."
    )


def _within_reach(now: datetime, seconds: float) -> datetime:
    """``now`` plus ``seconds``, refused beyond a year ahead (a start nobody will wait for, or one past
    the calendar); a start already gone is refused by the tournament itself."""
    if seconds > LONGEST_WAIT.total_seconds():
        raise ServiceError("A tournament starts within a year: give an earlier start.")
    return now + timedelta(seconds=seconds)


def parse_options(text: str | None) -> dict[str, str]:
    """``name=value, name=value`` as a dict (values are checked by the game's option specs)."""
    out: dict[str, str] = {}
    for part in re.split(r"[,;]", text or ""):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise ServiceError("Write game options as name=value, separated by commas (e.g. turn_limit=100).")
        if name.strip() in out:
            raise ServiceError(f"{quote_input(name.strip())} is given twice: give each option once.")
        out[name.strip()] = value.strip()
    return out
