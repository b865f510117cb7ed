"""Hostile input at scale: every command, option, autocomplete and button of the bot, through SimCord.

Usage: ``python -m bench.fuzz [--inputs N] [--seed S] [--database-url URL]``; prints JSON.

Sends N interactions (default 100,000) drawn by Hypothesis from the bot's own command tree (see
``tests/fuzz`` and docs/robustness.md) in every phase of a game and a tournament, and counts what the
bot promises never happens: an interaction left unanswered, an error logged, a reply over Discord's
limits, a refusal that changed the database, a public message pinging from user text.  Failures
already known (``tests.fuzz.known``, to be fixed outside the reply path) are counted apart.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.fuzz.driver import PROBLEMS, Tally
from tests.fuzz.known import known_failure
from tests.fuzz.runner import run

STEPS_PER_CASE = 1.3  # fewer than the average (a case is one interaction, or two at once)


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def report(tally: Tally, commands: list[str], notes: list[str], seconds: float, seed: int) -> dict[str, Any]:
    """The JSON printed: totals, known failures apart, per-command counts and answer times."""
    known = Counter(f.kind for f in tally.expected)
    samples: list[dict[str, str]] = []
    seen = set()
    for finding in tally.findings:
        key = (finding.kind, finding.label, finding.detail[:60])
        if key not in seen and len(samples) < 10:
            seen.add(key)
            samples.append({"kind": finding.kind, "where": finding.label, "detail": finding.detail[:300]})
    return {
        "benchmark": "fuzz",
        "seed": seed,
        "inputs": tally.inputs,
        "answered": tally.answered,
        "unanswered": tally.problems["unanswered"] + known["unanswered"],
        "errors_logged": tally.problems["errors_logged"] + known["errors_logged"],
        "over_limit": tally.problems["over_limit"] + known["over_limit"],
        "state_changed_by_refusal": tally.problems["state_changed_by_refusal"] + known["state_changed_by_refusal"],
        "unescaped_public": tally.problems["unescaped_public"] + known["unescaped_public"],
        "refused": tally.refused,
        "known_outside_scope": dict(known),
        "new_findings": {kind: tally.problems[kind] for kind in (*PROBLEMS, "harness_errors") if tally.problems[kind]},
        "answer_ms": {
            "p50": round(percentile(tally.times, 0.50) * 1000, 2),
            "p99": round(percentile(tally.times, 0.99) * 1000, 2),
        },
        "seconds": round(seconds, 1),
        "commands_in_tree": len(commands),
        "setup_notes": notes,
        "samples": samples,
        "per_command": {label: dict(counts) for label, counts in sorted(tally.per_command.items())},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="interactions to send (default 100000)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000, help="Hypothesis seed")
    parser.add_argument("--database-url", default="", help="default: a new SQLite file in a temporary folder")
    args = parser.parse_args(argv)
    folder = tempfile.TemporaryDirectory()
    url = args.database_url or f"sqlite+aiosqlite:///{Path(folder.name) / 'fuzz.db'}"
    marks = iter(range(5_000, 10**9, 5_000))
    next_mark = next(marks)

    def progress(tally: Tally) -> None:
        nonlocal next_mark
        if tally.inputs >= next_mark:
            print(f"{tally.inputs} inputs, {sum(tally.problems.values())} findings", file=sys.stderr, flush=True)
            next_mark = next(marks)

    started = time.perf_counter()
    result = run(
        url,
        math.ceil(args.inputs / STEPS_PER_CASE),
        seed=args.seed,
        fast=True,
        known=known_failure,
        progress=progress,
        limit=args.inputs,
    )
    seconds = time.perf_counter() - started
    json.dump(report(result.tally, result.commands, result.notes, seconds, args.seed), sys.stdout, indent=2)
    print()
    folder.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
