"""The entry point and settings: a missing token is one clear line and exit status 2."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE_URL, Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]


def run_bot(args: list[str], cwd: Path, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra_env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_without_a_token_the_bot_says_what_is_missing_and_exits_2(tmp_path):
    done = run_bot([], tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in done.stderr


def test_a_malformed_setting_is_one_line_too(tmp_path):
    done = run_bot([], tmp_path, {"DISCORD_TOKEN": "x", "DEV_GUILD_ID": "not-a-number"})
    assert done.returncode == 2 and "DEV_GUILD_ID" in done.stderr and "Traceback" not in done.stderr


def test_settings_read_the_dotenv_file_and_never_show_the_token(tmp_path, monkeypatch):
    for key in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=secret-token-value\nDEV_GUILD_ID=42\nLOG_LEVEL=debug\n")
    settings = Settings.from_env(dotenv=tmp_path / ".env")
    assert settings.token == "secret-token-value"
    assert settings.dev_guild_id == 42 and settings.log_level == "DEBUG"
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert "secret-token-value" not in repr(settings)


def test_settings_refuse_garbage_numbers():
    with pytest.raises(SettingsError):
        Settings.from_env({"DEV_GUILD_ID": "abc"})


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("RENDER_WORKERS", "-5", "RENDER_WORKERS must be -1 or more"),
        ("ACK_AFTER_SECONDS", "-1", "ACK_AFTER_SECONDS must be 0 or more"),
        ("ACK_AFTER_SECONDS", "nan", "ACK_AFTER_SECONDS must be a number"),
        ("MEMORY_TRIM_SECONDS", "-5", "MEMORY_TRIM_SECONDS must be 0 or more"),
        # past these, discord.py's loop stops with an OverflowError: the trim or the clock check would die
        ("MEMORY_TRIM_SECONDS", "1e15", "MEMORY_TRIM_SECONDS must be 86400 or less, not 1000000000000000.0 "),
        ("SCHEDULER_INTERVAL_SECONDS", "1000000000000", "SCHEDULER_INTERVAL_SECONDS must be 2592000 or less"),
        ("AI_WORKERS", "-1", "AI_WORKERS must be 0 or more, not -1 "),
        ("AI_BUDGET_MS", "0", "^AI_BUDGET_MS must be more than 0 milliseconds, not 0.0[.]$"),
        ("DB_POOL_TIMEOUT", "-1", "DB_POOL_TIMEOUT must be more than 0 seconds"),
        ("SYNC_COMMANDS", "maybe", "SYNC_COMMANDS must be true or false"),
    ],
)
def test_settings_out_of_range_are_refused_in_one_sentence(name, value, said):
    with pytest.raises(SettingsError, match=said):
        Settings.from_env({name: value}, dotenv=None)


def test_sync_commands_reads_the_usual_words():
    assert Settings.from_env({"SYNC_COMMANDS": "off"}, dotenv=None).sync_commands is False
    assert Settings.from_env({"SYNC_COMMANDS": "Yes"}, dotenv=None).sync_commands is True


def test_selfplay_plays_whole_games_and_writes_the_boards(tmp_path):
    done = run_bot(
        [
            "selfplay",
            "hedgehog",
            "--players",
            "4",
            "--games",
            "3",
            "--seed",
            "1",
            "--out",
            str(tmp_path),
            "--option",
            "round_limit=10",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Der Marsigelwettkampf:") == 3
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [f"hedgehog-00{i}.png" for i in (1, 2, 3)]


def test_selfplay_every_keeps_each_board_of_a_game(tmp_path):
    argv = ["selfplay", "whist", "--games", "1", "--out", str(tmp_path), "--every", "--option", "variant=short"]
    done = run_bot(argv, tmp_path)
    assert done.returncode == 0, done.stderr
    plies = int(done.stdout.split(" after ")[1].split(" plies")[0])
    boards = sorted(p.name for p in tmp_path.glob("whist-001-*.png"))
    assert boards == [f"whist-001-{ply:04d}.png" for ply in range(plies + 1)]


def test_a_log_level_that_does_not_exist_is_refused_with_the_choices():
    with pytest.raises(SettingsError, match="LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL"):
        Settings.from_env({"LOG_LEVEL": "verbose"})
    assert Settings.from_env({"LOG_LEVEL": "warning"}).log_level == "WARNING"


def test_zero_vacation_days_turn_vacations_off_and_a_setting_out_of_range_is_refused():
    settings = Settings.from_env({"VACATION_DAYS_PER_YEAR": "0", "MISSED_TURNS_LIMIT": "1", "DB_MAX_OVERFLOW": "0"})
    assert (settings.vacation_days_per_year, settings.missed_turns_limit, settings.db_max_overflow) == (0, 1, 0)
    assert Settings.from_env({}).vacation_days_per_year == 14
    refused = {
        "VACATION_DAYS_PER_YEAR": "-5",
        "MISSED_TURNS_LIMIT": "0",
        "SCHEDULER_INTERVAL_SECONDS": "0",
        "BUSY_IN_FLIGHT": "-1",
        "DB_POOL_SIZE": "0",
        "AI_MAX_ITERATIONS": "0",
    }
    for name, value in refused.items():
        with pytest.raises(SettingsError, match=f"{name} must be [01] or more, not {value}"):
            Settings.from_env({name: value})


def test_discord_voice_warnings_are_not_logged():
    from bot.__main__ import NoVoiceWarnings

    voice = logging.LogRecord(
        "discord.client", logging.WARNING, "", 0, "PyNaCl is not installed, voice will NOT be supported", None, None
    )
    other = logging.LogRecord("discord.client", logging.WARNING, "", 0, "logging in using static token", None, None)
    assert not NoVoiceWarnings().filter(voice) and NoVoiceWarnings().filter(other)


def test_selfplay_seats_computer_players_by_level(tmp_path):
    argv = ["selfplay", "whist", "--games", "1", "--ai", "hard", "--ai-iterations", "10", "--option", "variant=short"]
    done = run_bot(argv, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Martian Whist:" in done.stdout
    refused = run_bot(["selfplay", "whist", "--ai", "hard,hard,hard"], tmp_path)
    assert refused.returncode == 2 and "--ai takes up to 2" in refused.stderr


def test_selfplay_seats_one_player_per_level_and_tallies_the_results(tmp_path):
    # Der Marsigelwettkampf's minimum is one player (solitaire): two levels make a two-player game
    argv = ["selfplay", "hedgehog", "--games", "3", "--ai", "hard,easy", "--ai-iterations", "10"]
    done = run_bot([*argv, "--option", "round_limit=6"], tmp_path)
    assert done.returncode == 0, done.stderr
    results = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert len(results) == 3
    won = [line.split("won by ")[1].split(" after")[0] for line in results if "won by" in line]
    assert set(won) <= {"Seat 1 (hard)", "Seat 2 (easy)"}
    tally = next(line for line in done.stdout.splitlines() if line.startswith("Seat 1 (hard) first in"))
    drawn = len(results) - len(won)
    expected = (
        f"Seat 1 (hard) first in {won.count('Seat 1 (hard)')} of 3 games, Seat 2 (easy) {won.count('Seat 2 (easy)')}"
    )
    assert tally == f"{expected}; {drawn} drawn"


async def test_a_task_that_swallows_a_cancellation_is_cancelled_again_until_it_ends():
    # Python 3.11's wait_for can lose a cancellation that arrives as the awaited attempt fails, and
    # discord.py's shard connection retries after any error: one cancel() left the bot running for good
    import asyncio

    from bot.__main__ import cancel_until_done

    attempts = 0

    async def retrying_forever() -> None:
        nonlocal attempts
        while True:
            attempts += 1
            try:
                await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                if attempts < 3:
                    continue  # lost, as inside the race
                raise

    task = asyncio.create_task(retrying_forever())
    await asyncio.sleep(0)
    await cancel_until_done(task, every=0.01)
    assert task.cancelled()
    assert attempts >= 3
