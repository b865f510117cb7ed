"""Entry point: ``python -m bot`` runs the bot; ``python -m bot selfplay ...`` plays without Discord."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path
from typing import NoReturn

from bot.settings import DatabaseUnavailable, Settings, SettingsError

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<your bot token> in a .env file in this folder "
    "or in the environment (see .env.example and the README)."
)


STOP_GRACE_SECONDS = 15.0  # after SIGINT or SIGTERM, the longest the connection to Discord may take to close


class OneLineParser(argparse.ArgumentParser):
    """A command line that cannot be used is one line on stderr, pointing at --help, and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help).\n")


class NoVoiceWarnings(logging.Filter):
    """Drop discord.py's start-up warnings about voice support: the bot never joins a voice channel."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def configure_logging(level: str) -> None:
    """Log to stdout at ``level`` (already checked by ``Settings``), without voice warnings."""
    logging.basicConfig(
        level=getattr(logging, level),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stdout,
    )
    logging.getLogger("discord.client").addFilter(NoVoiceWarnings())


async def cancel_until_done(task: asyncio.Task[None], every: float = 1.0) -> None:
    """Cancel ``task`` again every ``every`` seconds until it has finished.

    One cancellation is not always enough: discord.py retries a shard's connection in a loop that catches
    every error, and on Python 3.11 ``asyncio.wait_for`` loses a cancellation that arrives just as the
    connection attempt fails, so the retry loop carries on as if nothing had been asked.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every)


async def run_bot(settings: Settings) -> None:
    """Run until SIGINT or SIGTERM, then shut down cleanly (moves in flight finish, the database closes)."""
    from bot.client import create_bot

    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # platforms without signal handlers
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            logging.getLogger("bot").info("shutting down")
            await bot.close()
            # a gateway that never answers keeps discord.py reconnecting: stop waiting for it
            await asyncio.wait({runner}, timeout=STOP_GRACE_SECONDS)
            await cancel_until_done(runner)
        stopper.cancel()
        await asyncio.gather(runner, return_exceptions=True)
        if runner.done() and not runner.cancelled() and runner.exception() is not None:
            raise runner.exception()  # type: ignore[misc]


async def migrate_db(source: str, target: str) -> int:
    """Copy ``source`` into the empty database ``target``, verify it, and print what was done; a URL the
    bot cannot use, a source file that is not there, or a database that cannot be reached is one line."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from bot.session.transfer import NotABotDatabase, copy_database
    from bot.settings import check_database_url, database_problem

    try:
        check_database_url("--from", source)
        check_database_url("--to", target)
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    found = make_url(source)
    if found.drivername.startswith("sqlite") and not Path(found.database or "").is_file():
        where = Path(found.database or "").resolve()
        print(
            f"--from: there is no database at {where} (give the bot's DATABASE_URL, with a full path).", file=sys.stderr
        )
        return 2
    try:
        report = await copy_database(source, target)
    except NotABotDatabase:
        sqlite = found.drivername.startswith("sqlite")
        named = str(Path(found.database or "").resolve()) if sqlite else found.render_as_string(hide_password=True)
        print(
            f"--from: {named} is not a database of the bot (no schema_version table); nothing copied.", file=sys.stderr
        )
        return 2
    except DatabaseUnavailable as error:
        print(f"Cannot open {error}.", file=sys.stderr)
        return 1
    except (OSError, SQLAlchemyError) as error:
        print(f"Cannot copy the database ({database_problem(None, error)}).", file=sys.stderr)
        return 1
    for table, count in report.counts.items():
        print(f"{table}: {count} rows copied")
    print(f"{report.games_replayed} games replayed from their move logs")
    for problem in report.problems:
        print(f"problem: {problem}", file=sys.stderr)
    print("copy verified" if report.ok else "the copy is NOT verified: keep using the source")
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run; returns the process exit status."""
    parser = OneLineParser(prog="python -m bot", description="The Pyramid Games Discord bot.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default)")
    from bot.selfplay import add_arguments

    selfplay_help = "play whole games between random players or computer players (--ai), without Discord"
    add_arguments(sub.add_parser("selfplay", help=selfplay_help))
    transfer = sub.add_parser("migrate-db", help="copy the database into another one (e.g. SQLite into PostgreSQL)")
    transfer.add_argument("--to", required=True, help="the target's URL, e.g. postgresql+asyncpg://user:pw@host/db")
    transfer.add_argument("--from", dest="source", default="", help="the source's URL (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if args.command == "migrate-db":
        return asyncio.run(migrate_db(args.source or settings.database_url, args.to))
    if args.command == "selfplay":
        from bot.selfplay import run_selfplay

        return asyncio.run(run_selfplay(args, settings))
    if not settings.token:
        print(MISSING_TOKEN, file=sys.stderr)
        return 2
    import aiohttp
    import discord

    try:
        asyncio.run(run_bot(settings))
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the Developer Portal (Bot tab).",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        pass
    except DatabaseUnavailable as error:
        print(error, file=sys.stderr)
        return 1
    except (OSError, aiohttp.ClientError) as error:
        print(
            f"Cannot reach Discord ({type(error).__name__}): check this machine's network and try again.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
