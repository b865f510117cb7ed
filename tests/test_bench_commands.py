"""The small benchmarks run end to end and print their figures as JSON.

Only that a benchmark works is checked here, never a speed: figures are for ``bench/``.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_bench(*arguments: str) -> Any:
    """Run ``python -m bench.<arguments>`` in the project folder; its JSON output."""
    done = subprocess.run(
        [sys.executable, "-m", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    return json.loads(done.stdout)


def test_the_round_trip_bench_plays_moves_through_the_offline_discord():
    figures = run_bench("bench.roundtrip", "whist", "hedgehog", "--actions", "6")
    assert [r["game"] for r in figures["results"]] == ["whist", "hedgehog"]
    for result in figures["results"]:
        assert result["actions"] == 6
        assert 0 < result["roundtrip_ms_p50"] <= result["roundtrip_ms_p99"] <= result["roundtrip_ms_max"]
        assert result["png_kb_median"] > 0  # every move answered with its board


def test_the_render_bench_draws_every_game():
    figures = run_bench("bench.render", "--states", "2")
    assert sorted(r["game"] for r in figures["results"]) == ["assassin", "combat", "hedgehog", "treasure", "whist"]
    assert all(r["states"] == 2 and r["render_ms_median"] > 0 for r in figures["results"])


def test_the_engine_bench_plays_random_games_of_every_game():
    figures = run_bench("bench.engine", "--seconds", "0.05")
    assert sorted(r["game"] for r in figures["results"]) == ["assassin", "combat", "hedgehog", "treasure", "whist"]
    assert all(r["games"] >= 1 and r["plies"] > 0 for r in figures["results"])


def test_the_cover_bench_counts_open_and_covered_rounds_of_larges_and_mediums():
    figures = run_bench("bench.hedgehog_cover", "--seats", "4", "--games", "3")
    assert (figures["seats"], figures["games"]) == (4, 3)
    rows = figures["results"]
    assert [r["piece"] for r in rows] == ["large"] * 3 + ["medium"] * 3
    assert [r["ring"] for r in rows[:3]] == ["more than 6 spaces", "4-6 spaces", "3 spaces or fewer"]
    assert sum(r["open_rounds"] for r in rows) > 0
    for row in rows:
        assert 0.0 <= row["covered_next_round"] <= 1.0
        assert abs(sum(row["covered_by"].values()) - row["covered_next_round"]) < 0.01
        assert all(0.0 <= c["freed_next_round"] <= 1.0 and c["rounds"] > 0 for c in row["covered"].values())
    # no pyramid ever stands on a smaller one: only a small or a medium lies on a medium
    assert all("large" not in r["covered_by"] for r in rows[3:])


def test_the_replay_bench_draws_a_replay_that_fits_discord():
    figures = run_bench("bench.replay", "hedgehog", "--plies", "30")
    (row,) = figures["replays"]
    assert row["game"] == "hedgehog" and row["positions"] == 31 == row["frames"]
    assert row["fits_discord"] and row["gif_mb"] > 0


@pytest.mark.parametrize(
    ("bench", "args"),
    [
        ("engine", ["chess"]),
        ("render", ["chess"]),
        ("replay", ["chess"]),
        ("roundtrip", ["chess"]),
        ("arena", ["--only", "chess"]),
    ],
)
def test_a_bench_given_an_unknown_game_names_it_and_the_games_in_one_line(bench, args, capsys):
    """Exit status 2 before anything is measured, never a traceback or an empty table."""
    module = importlib.import_module(f"bench.{bench}")
    assert module.main(args) == 2
    done = capsys.readouterr()
    assert done.out == ""
    assert done.err == "Unknown game 'chess'; choose from assassin, combat, hedgehog, treasure, whist.\n"


@pytest.mark.parametrize("setting", ["nonsense=3", "RENDER_WORKERS"])
def test_the_load_bench_refuses_a_setting_it_would_ignore(setting, capsys):
    """--setting takes NAME=VALUE with NAME a field of the bot's Settings (any case), listed when not."""
    from bench.load import main

    assert main(["--setting", setting]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"--setting {setting!r}" in err and "RENDER_WORKERS," in err
