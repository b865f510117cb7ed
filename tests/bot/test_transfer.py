"""``python -m bot migrate-db``: a SQLite database copied into another (PostgreSQL under CI) and verified."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.__main__ import main
from bot.session import open_session
from bot.session.service import Actor
from bot.session.transfer import copy_database

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")


async def fill(url: str, games: int = 3, moves: int = 30) -> None:
    """Play a few games of Martian Whist part-way (one to its end if it gets there)."""
    session = await open_session(url, render=False)
    rng = random.Random(3)
    try:
        for channel in range(10, 10 + games):
            await session.games.new_game(guild_id=77, channel_id=channel, game="whist", actor=ALICE)
            await session.games.join(channel, BOB)
            await session.games.start(channel, ALICE)
            for _ in range(moves):
                for actor in (ALICE, BOB):
                    options = await session.games.legal_moves(channel, actor.user_id)
                    if options:
                        await session.games.move(channel, actor, rng.choice(options).value)
                        break
    finally:
        await session.close()


async def test_a_database_is_copied_counted_and_replayed(tmp_path, db_url: str) -> None:
    source = f"sqlite+aiosqlite:///{tmp_path}/old.db"
    await fill(source)
    report = await copy_database(source, db_url)
    assert report.ok, report.problems
    assert report.counts["games"] == 3
    assert report.counts["moves"] == 90
    assert report.games_replayed == 3
    session = await open_session(db_url, render=False)  # the copy plays on, with fresh ids
    try:
        game = await session.games.new_game(guild_id=77, channel_id=99, game="whist", actor=ALICE)
        assert game.id == 4
    finally:
        await session.close()


async def test_copying_into_a_database_with_games_is_refused(tmp_path, db_url: str) -> None:
    source = f"sqlite+aiosqlite:///{tmp_path}/old.db"
    await fill(source, games=1, moves=2)
    await fill(db_url, games=1, moves=0)
    report = await copy_database(source, db_url)
    assert not report.ok and "already holds games" in report.problems[0]


def test_the_command_line_copies_and_says_so(tmp_path, capsys) -> None:
    source = f"sqlite+aiosqlite:///{tmp_path}/old.db"
    asyncio.run(fill(source, games=1, moves=4))
    target = f"sqlite+aiosqlite:///{tmp_path}/new.db"
    assert main(["migrate-db", "--from", source, "--to", target]) == 0
    out = capsys.readouterr().out
    assert "moves: 4 rows copied" in out and "copy verified" in out


@pytest.mark.parametrize("kind", ["another program's", "empty"])
def test_a_source_that_is_not_a_bot_database_is_refused_and_left_untouched(tmp_path, capsys, kind) -> None:
    """A SQLite --from without the bot's schema_version table (another program's file, or an empty one) is
    one line naming its full path and exit status 2: nothing is copied and not a byte of it is written."""
    source = tmp_path / "notes.db"
    if kind == "empty":
        source.write_bytes(b"")
    else:
        with sqlite3.connect(source) as conn:
            conn.execute("CREATE TABLE notes (x)")
    before = source.read_bytes()
    status = main(
        ["migrate-db", "--from", f"sqlite+aiosqlite:///{source}", "--to", f"sqlite+aiosqlite:///{tmp_path}/new.db"]
    )
    done = capsys.readouterr()
    assert status == 2 and "copy verified" not in done.out
    assert (
        done.err.strip() == f"--from: {source} is not a database of the bot (no schema_version table); nothing copied."
    )
    assert source.read_bytes() == before


def test_a_target_that_cannot_be_opened_is_one_line_naming_it(tmp_path, capsys) -> None:
    """The driver's own words and the target file's full path, without SQLAlchemy's link to its docs."""
    source = f"sqlite+aiosqlite:///{tmp_path}/old.db"
    asyncio.run(fill(source, games=1, moves=2))
    capsys.readouterr()
    assert main(["migrate-db", "--from", source, "--to", f"sqlite+aiosqlite:///{tmp_path}"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"Cannot open the SQLite file {tmp_path}: OperationalError: unable to open database file.", err
