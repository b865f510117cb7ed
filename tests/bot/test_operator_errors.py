"""What an admin sees when the bot or ``python -m bot selfplay`` cannot run as configured: one line on
stderr naming what to fix, and a non-zero exit (2 for a command line or a setting), never a traceback."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot import render_pool
from bot.__main__ import main
from bot.client import create_bot
from bot.settings import DatabaseUnavailable, Settings


def _settings(url: str, workers: int = 0) -> Settings:
    return Settings(
        token="x",
        database_url=url,
        sync_commands=False,
        render_workers=workers,
        ai_workers=workers,
        memory_trim_seconds=0,
        ack_after_seconds=1.0,
        shard_count=None,
    )


async def test_a_database_that_cannot_be_opened_is_one_line_naming_the_file(tmp_path):
    """A DATABASE_URL whose file cannot be created (here a folder): the driver's own words and the file's
    full path, in one line without SQLAlchemy's "Background on this error" link."""
    bot = create_bot(_settings(f"sqlite+aiosqlite:///{tmp_path}"))
    with pytest.raises(DatabaseUnavailable) as caught:
        await bot.setup_hook()
    await bot.close_session()
    await asyncio.sleep(0.1)  # aiosqlite's thread answers the failed connection's stop: not after the loop closed
    said = str(caught.value)
    assert "\n" not in said and "sqlalche.me" not in said, said
    assert f"the SQLite file {tmp_path}:" in said and "unable to open database file" in said, said


async def test_a_database_that_cannot_be_opened_stops_the_worker_processes_started_before_it(tmp_path):
    """The board and search processes started before the database are stopped with it: the process
    exits on its one line instead of a pool's "Event loop is closed" traceback."""
    (tmp_path / "afile").write_text("a file, not a folder")
    bot = create_bot(_settings(f"sqlite+aiosqlite:///{tmp_path}/afile/bot.db", workers=1))
    try:
        with pytest.raises(DatabaseUnavailable):
            await bot.setup_hook()
        assert render_pool._POOLS == {}  # the process's one registry of worker pools
    finally:
        render_pool.shutdown_pools()
        await bot.close_session()


def _selfplay(tmp_path: Path, monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """``python -m bot selfplay *args`` in ``tmp_path`` without DISCORD_TOKEN or DATABASE_URL: its exit
    status, stdout and stderr."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    try:
        status = main(["selfplay", *(arg.replace("{tmp}", str(tmp_path)) for arg in args)])
    except SystemExit as exit_:  # argparse's
        status = int(exit_.code or 0)
    done = capsys.readouterr()
    return status, done.out, done.err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("whist", "--ai", "hard", "--ai-iterations", "0"), "--ai-iterations: must be 1 or more, not 0"),
        (("whist", "--ai", "hard", "--ai-iterations", "-1"), "--ai-iterations: must be 1 or more, not -1"),
        (("hedgehog", "--players", "-3"), "--players: must be 1 or more, not -3"),
        (("hedgehog", "--players", "0"), "--players: must be 1 or more, not 0"),
        (("hedgehog", "--games", "-2"), "--games: must be 1 or more, not -2"),
        (("hedgehog", "--database", "mysql://x/y"), "--database must start with sqlite+aiosqlite://"),
        (("hedgehog", "--database", "not a url"), "--database must be a database URL"),
        (("hedgehog", "--database", "sqlite+aiosqlite:///{tmp}/afile/x.db"), "--database: cannot open the SQLite"),
        (("hedgehog", "--out", "{tmp}/afile/boards"), "--out: cannot create the folder"),
    ],
    ids=[
        "ai-iterations-0",
        "ai-iterations-negative",
        "players-negative",
        "players-0",
        "games-negative",
        "database-scheme",
        "database-garbage",
        "database-under-a-file",
        "out-under-a-file",
    ],
)
def test_selfplay_refuses_what_it_cannot_use_in_one_line(tmp_path, monkeypatch, capsys, args, said):
    """Each names the option at fault (never --ai for a number of players), plays nothing, exits 2."""
    (tmp_path / "afile").write_text("a file, not a folder")
    status, out, err = _selfplay(tmp_path, monkeypatch, capsys, *args, "--games", "1")
    assert status == 2 and " games" not in out, out
    assert len(err.strip().splitlines()) == 1 and said in err, err
    assert "--ai " not in err and "sqlalche.me" not in err, err
