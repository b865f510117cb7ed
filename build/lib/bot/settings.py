"""Settings read from the environment (and a ``.env`` file beside the working directory)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/pyramids.db"


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
            sync_commands=env.get("SYNC_COMMANDS", "true").strip().lower() not in ("0", "false", "no", "off"),
            missed_turns_limit=_int_or_none("MISSED_TURNS_LIMIT", env.get("MISSED_TURNS_LIMIT")) or 3,
            vacation_days_per_year=_int_or_none("VACATION_DAYS_PER_YEAR", env.get("VACATION_DAYS_PER_YEAR")) or 14,
            scheduler_interval_seconds=_int_or_none("SCHEDULER_INTERVAL_SECONDS", env.get("SCHEDULER_INTERVAL_SECONDS"))
            or 60,
            tournament_role=env.get("TOURNAMENT_ROLE", "").strip(),
        )
