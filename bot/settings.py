"""Settings read from the environment (and a ``.env`` file beside the working directory)."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/pyramids.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DAY_SECONDS = 86_400


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and where to put it."""


def _int_or_none(name: str, raw: str | None) -> int | None:
    if raw is None or raw.strip() == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {raw!r} (check your environment or .env).") from None


@dataclass(frozen=True)
class Settings:
    """Everything the bot can be configured with; see ``.env.example``."""

    token: str = field(default="", repr=False)
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    sync_commands: bool = True
    missed_turns_limit: int = 3
    vacation_days_per_year: int = 14
    scheduler_interval_seconds: int = 60
    tournament_role: str = ""
    # scale: answering in time, rendering, the database pool and shards (see docs/deploy.md)
    # a move not answered by then is acknowledged first, then answered (default: ACK_AFTER_SECONDS or 1.0)
    ack_after_seconds: float = field(default_factory=lambda: _env_float("ACK_AFTER_SECONDS", 1.0))
    busy_in_flight: int = 64  # above this many actions in progress, new ones are acknowledged at once
    # board-drawing processes: 0 draws in threads of this process, -1 sizes to the machine (or RENDER_WORKERS)
    render_workers: int = field(default_factory=lambda: _env_int("RENDER_WORKERS", -1))
    db_pool_size: int = 10  # connections kept open (PostgreSQL; SQLite readers)
    db_max_overflow: int = 20  # extra connections under bursts
    db_pool_timeout: float = 30.0  # seconds an action waits for a connection before it fails
    # how often freed memory is given back to the system, seconds (0: never; default MEMORY_TRIM_SECONDS or 60)
    memory_trim_seconds: float = field(default_factory=lambda: _env_float("MEMORY_TRIM_SECONDS", 60.0))
    # Discord shards of the whole bot (default: SHARD_COUNT, else Discord's recommendation at login)
    shard_count: int | None = field(default_factory=lambda: _int_or_none("SHARD_COUNT", os.environ.get("SHARD_COUNT")))
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all of them)
    # computer players (see docs/ai.md)
    ai_budget_ms: float = 700.0  # thinking time per decision of a hard bot (normal keeps its own)
    ai_max_iterations: int | None = None  # a cap on search iterations (fixed: bots play the same game every run)
    # processes that search bots' moves, started with the bot; 0 searches in a thread of this process
    ai_workers: int = field(default_factory=lambda: _env_int("AI_WORKERS", 1))

    def __post_init__(self) -> None:
        if self.log_level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {self.log_level!r}.")
        at_least = {
            "MISSED_TURNS_LIMIT": (self.missed_turns_limit, 1),
            "VACATION_DAYS_PER_YEAR": (self.vacation_days_per_year, 0),  # 0 turns vacations off
            "SCHEDULER_INTERVAL_SECONDS": (self.scheduler_interval_seconds, 1),
            "BUSY_IN_FLIGHT": (self.busy_in_flight, 0),  # 0 acknowledges every action first
            "DB_POOL_SIZE": (self.db_pool_size, 1),
            "DB_MAX_OVERFLOW": (self.db_max_overflow, 0),
            "AI_MAX_ITERATIONS": (1 if self.ai_max_iterations is None else self.ai_max_iterations, 1),
            "RENDER_WORKERS": (self.render_workers, -1),  # -1 sizes the pool to the machine
            "ACK_AFTER_SECONDS": (self.ack_after_seconds, 0),
            "MEMORY_TRIM_SECONDS": (self.memory_trim_seconds, 0),  # 0 never trims
            "AI_WORKERS": (self.ai_workers, 0),  # 0 searches in a thread of the bot
        }
        for name, (value, least) in at_least.items():
            if value < least:
                raise SettingsError(f"{name} must be {least} or more, not {value} (check your environment or .env).")
        # the loops these drive stop with an OverflowError when the next run is past the year 9999
        at_most = {
            # 30 days: longer than any move clock, so a check that long is as good as none (tests use it so)
            "SCHEDULER_INTERVAL_SECONDS": (self.scheduler_interval_seconds, 30 * DAY_SECONDS),
            "MEMORY_TRIM_SECONDS": (self.memory_trim_seconds, DAY_SECONDS),
        }
        for name, (value, most) in at_most.items():
            if value > most:
                raise SettingsError(f"{name} must be {most} or less, not {value} (check your environment or .env).")
        if self.db_pool_timeout <= 0:
            raise SettingsError(f"DB_POOL_TIMEOUT must be more than 0 seconds, not {self.db_pool_timeout}.")
        if self.ai_budget_ms <= 0:
            raise SettingsError(f"AI_BUDGET_MS must be more than 0 milliseconds, not {self.ai_budget_ms}.")
        check_database_url("DATABASE_URL", self.database_url)
        if self.shard_ids is not None and not self.shard_count:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT: the number of shards of the whole bot.")
        if self.shard_count is not None and self.shard_count < 1:
            raise SettingsError(f"SHARD_COUNT must be 1 or more, not {self.shard_count}.")
        count = self.shard_count
        if self.shard_ids is not None and count and any(not 0 <= shard < count for shard in self.shard_ids):
            raise SettingsError(f"SHARD_IDS must be shards 0 to {count - 1} of SHARD_COUNT {count}.")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        """Build settings from ``env`` (default ``os.environ``), after loading ``dotenv`` if it exists."""
        if env is None:
            if dotenv is not None and dotenv.is_file():
                from dotenv import load_dotenv

                load_dotenv(dotenv, override=False)
            env = dict(os.environ)
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip(),
            database_url=env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=_int_or_none("DEV_GUILD_ID", env.get("DEV_GUILD_ID")),
            log_level=(env.get("LOG_LEVEL", "INFO").strip() or "INFO").upper(),
            sync_commands=_flag("SYNC_COMMANDS", env.get("SYNC_COMMANDS"), True),
            missed_turns_limit=_int_or_default("MISSED_TURNS_LIMIT", env.get("MISSED_TURNS_LIMIT"), 3),
            vacation_days_per_year=_int_or_default("VACATION_DAYS_PER_YEAR", env.get("VACATION_DAYS_PER_YEAR"), 14),
            scheduler_interval_seconds=_int_or_default(
                "SCHEDULER_INTERVAL_SECONDS", env.get("SCHEDULER_INTERVAL_SECONDS"), 60
            ),
            tournament_role=env.get("TOURNAMENT_ROLE", "").strip(),
            ack_after_seconds=_float("ACK_AFTER_SECONDS", env.get("ACK_AFTER_SECONDS"), 1.0),
            busy_in_flight=_int_or_default("BUSY_IN_FLIGHT", env.get("BUSY_IN_FLIGHT"), 64),
            render_workers=_int_or_default("RENDER_WORKERS", env.get("RENDER_WORKERS"), -1),
            db_pool_size=_int_or_default("DB_POOL_SIZE", env.get("DB_POOL_SIZE"), 10),
            db_max_overflow=_int_or_default("DB_MAX_OVERFLOW", env.get("DB_MAX_OVERFLOW"), 20),
            db_pool_timeout=_float("DB_POOL_TIMEOUT", env.get("DB_POOL_TIMEOUT"), 30.0),
            memory_trim_seconds=_float("MEMORY_TRIM_SECONDS", env.get("MEMORY_TRIM_SECONDS"), 60.0),
            shard_count=_int_or_none("SHARD_COUNT", env.get("SHARD_COUNT")),
            shard_ids=_id_list("SHARD_IDS", env.get("SHARD_IDS")),
            ai_budget_ms=_float("AI_BUDGET_MS", env.get("AI_BUDGET_MS"), 700.0),
            ai_max_iterations=_int_or_none("AI_MAX_ITERATIONS", env.get("AI_MAX_ITERATIONS")),
            ai_workers=_int_or_default("AI_WORKERS", env.get("AI_WORKERS"), 1),
        )

    def owns_guild(self, guild_id: int | None) -> bool:
        """True when this process handles ``guild_id``'s games (direct messages: the process running shard 0)."""
        return owns_guild(guild_id, self.shard_count, self.shard_ids)


class DatabaseUnavailable(Exception):
    """The database in DATABASE_URL could not be opened (the message says why, in one sentence)."""


DATABASE_DRIVERS = {"sqlite+aiosqlite": "aiosqlite", "postgresql+asyncpg": "asyncpg"}  # URL scheme: its module


def check_database_url(name: str, url: str) -> None:
    """Refuse a database URL the bot cannot use, in one sentence: a scheme it does not speak, a driver
    that is not installed, or text that is no URL at all."""
    from importlib.util import find_spec

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    schemes = " or ".join(f"{scheme}://..." for scheme in DATABASE_DRIVERS)
    try:
        scheme = make_url(url).drivername
    except ArgumentError:
        raise SettingsError(f"{name} must be a database URL ({schemes}), not {url!r}.") from None
    if scheme not in DATABASE_DRIVERS:
        raise SettingsError(f"{name} must start with {schemes}, not {scheme}://.")
    if find_spec(DATABASE_DRIVERS[scheme]) is None:
        raise SettingsError(f"{name} is a {scheme} URL, which needs `pip install -e .[postgres]`.")


def database_problem(url: str | None, error: BaseException) -> str:
    """What went wrong with the database at ``url``, in one line: where it is (a SQLite file's full path,
    else the URL without its password; nothing without ``url``) and the driver's own words, without
    SQLAlchemy's wrapping and its "Background on this error" link."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, DBAPIError

    cause = error.orig if isinstance(error, DBAPIError) and error.orig is not None else error
    words = (str(cause).strip().splitlines() or [""])[0]
    try:
        found = make_url(url or "")
    except ArgumentError:
        return f"{type(cause).__name__}: {words}"
    if found.drivername.startswith("sqlite") and found.database not in (None, "", ":memory:"):
        where = f"the SQLite file {Path(found.database or '').resolve()}"
    else:
        where = found.render_as_string(hide_password=True)
    return f"{where}: {type(cause).__name__}: {words}"


def owns_guild(guild_id: int | None, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> bool:
    """Discord's rule: a guild belongs to shard ``(guild_id >> 22) % shard_count``; DMs to shard 0."""
    if not shard_count or shard_ids is None:
        return True
    shard = 0 if not guild_id else (guild_id >> 22) % shard_count
    return shard in shard_ids


def _env_float(name: str, default: float) -> float:
    return _float(name, os.environ.get(name), default)


def _env_int(name: str, default: int) -> int:
    return _int_or_default(name, os.environ.get(name), default)


def _int_or_default(name: str, raw: str | None, default: int) -> int:
    value = _int_or_none(name, raw)
    return default if value is None else value


def _float(name: str, raw: str | None, default: float) -> float:
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise SettingsError(f"{name} must be a number, not {raw!r} (check your environment or .env).")
    return value


def _flag(name: str, raw: str | None, default: bool) -> bool:
    if raw is None or raw.strip() == "":
        return default
    word = raw.strip().lower()
    if word not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
        raise SettingsError(f"{name} must be true or false, not {raw!r} (check your environment or .env).")
    return word in ("true", "1", "yes", "on")


def _id_list(name: str, raw: str | None) -> tuple[int, ...] | None:
    if raw is None or raw.strip() == "":
        return None
    try:
        return tuple(int(part) for part in raw.replace(",", " ").split())
    except ValueError:
        raise SettingsError(f"{name} must be whole numbers separated by commas, not {raw!r}.") from None
