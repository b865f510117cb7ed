"""The load bench runs end to end: its players follow their games without a refused move, the offline
Discord's history is trimmed as it goes, and the figures come out as JSON.

Only what the harness guarantees is checked here, never a speed: figures are for ``bench/``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("transport", "options"), [("wire", ["--stagger", "--warmup", "1"]), ("simcord", [])], ids=["wire", "simcord"]
)
def test_a_short_load_run_plays_every_move_it_sends(transport, options):
    command = [sys.executable, "-m", "bench.load", "--channels", "3", "--seconds", "4", "--think", "0.3"]
    command += ["--sample", "1", "--transport", transport, *options]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    figures = json.loads(done.stdout)
    assert figures["transport"] == transport
    assert figures["moves"] > 0
    if "--stagger" in options:  # the games were played ahead through the service, and the run went on from there
        assert figures["stagger_plies"] > 0
        assert figures["warmup"]["moves"] > 0 and figures["warmup"]["failed_moves"] == 0
    # a move the harness chose from its copy of the game was refused, or got no board: none may be
    assert figures["failed_moves"] == 0 and figures["board_read_errors"] == 0
    assert figures["late_acks_first_answer"]["none"] == 0  # every move was answered
    assert figures["unanswered_routes"] == {}  # the bot asked the lean Discord for nothing it does not serve
    assert figures["errors_logged"] == 0, figures["last_error_logged"]  # and nothing failed on the way
    assert figures["rss_series_mb"] and all(value > 0 for value in figures["rss_series_mb"])


def test_the_latency_histogram_gives_the_nearest_rank_quantiles_of_what_it_counted():
    from bench.load import Histogram
    from bench.stats import nearest_rank

    durations = [0.0123, 0.0124, 0.5, 0.0123, 2.75, 0.031, 0.0009, 0.2]
    histogram = Histogram()
    for seconds in durations:
        histogram.add(seconds)
    for q in (0.0, 0.1, 0.25, 0.5, 0.95, 0.99, 1.0):
        assert histogram.quantile(q) == round(nearest_rank(durations, q), 4)
    assert histogram.max == 2.75 and histogram.count == len(durations)
    assert Histogram().quantile(0.5) is None


def test_garbage_collections_are_summed_per_generation():
    from bench.load import gc_summary

    pauses = [(0, 0.09), (0, 0.12), (1, 0.2), (0, 0.01)]
    assert gc_summary(pauses) == {
        "0": {"collections": 3, "over_100ms": 1, "max_ms": 120.0, "total_ms": 220.0},
        "1": {"collections": 1, "over_100ms": 1, "max_ms": 200.0, "total_ms": 200.0},
    }
    assert gc_summary([]) == {}
