"""Hostile input at scale: every command, option, autocomplete and button of the bot, through SimCord.

Usage: ``python -m bench.fuzz [--inputs N] [--seed S] [--jobs J] [--database-url URL]``; prints JSON.
With ``--jobs J`` the inputs are shared by J processes (seeds S, S+1, ...), each with its own database.

Sends N interactions (default 100,000) drawn by Hypothesis from the bot's own command tree (see
``tests/fuzz`` and docs/robustness.md) in every phase of a game and a tournament, and counts what the
bot promises never happens: an interaction left unanswered, an error logged, a reply over Discord's
limits, a refusal that changed the database, a public message pinging from user text.  Failures
already known (``tests.fuzz.known``, to be fixed outside the reply path) are counted apart.
"""

from __future__ import annotations

import argparse
import json
import pickle
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.stats import nearest_rank
from tests.fuzz.driver import PROBLEMS, Tally
from tests.fuzz.known import known_failure
from tests.fuzz.runner import run
from tests.settling import poll_settling_bots_often


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
            "p50": round(nearest_rank(tally.times, 0.50) * 1000, 2) if tally.times else 0.0,
            "p99": round(nearest_rank(tally.times, 0.99) * 1000, 2) if tally.times else 0.0,
        },
        "seconds": round(seconds, 1),
        "commands_in_tree": len(commands),
        "setup_notes": notes,
        "samples": samples,
        "per_command": {label: dict(counts) for label, counts in sorted(tally.per_command.items())},
    }


def one_run(
    inputs: int, seed: int, database_url: str = "", report_progress: bool = True
) -> tuple[Tally, list[str], list[str]]:
    """One fuzzing run of ``inputs`` interactions drawn with ``seed``: its tally, commands and notes."""
    folder = tempfile.TemporaryDirectory()
    url = database_url or f"sqlite+aiosqlite:///{Path(folder.name) / 'fuzz.db'}"
    marks = iter(range(5_000, 10**9, 5_000))
    next_mark = next(marks)

    def progress(tally: Tally) -> None:
        nonlocal next_mark
        if tally.inputs >= next_mark:
            print(f"seed {seed}: {tally.inputs} inputs, {sum(tally.problems.values())} findings", file=sys.stderr)
            next_mark = next(marks)

    try:
        result = run(
            url,
            inputs,  # at least one interaction a case: enough cases; the limit stops at ``inputs``
            seed=seed,
            fast=True,
            known=known_failure,
            progress=progress,
            limit=inputs,
        )
    finally:
        folder.cleanup()
    return result.tally, result.commands, result.notes


def merged(tallies: list[Tally]) -> Tally:
    """The sum of several runs' tallies."""
    total = Tally()
    for tally in tallies:
        total.inputs += tally.inputs
        total.answered += tally.answered
        total.refused += tally.refused
        total.problems.update(tally.problems)
        for label, counts in tally.per_command.items():
            total.per_command.setdefault(label, Counter()).update(counts)
        total.times.extend(tally.times)
        total.findings.extend(tally.findings)
        total.expected.extend(tally.expected)
    return total


def in_parallel(inputs: int, seed: int, jobs: int) -> tuple[Tally, list[str], list[str]]:
    """Share ``inputs`` over ``jobs`` processes (seeds ``seed``, ``seed + 1``...) and merge their tallies."""
    shares = [inputs // jobs + (1 if j < inputs % jobs else 0) for j in range(jobs)]
    with tempfile.TemporaryDirectory() as folder:
        paths = [Path(folder) / f"job-{j}.pickle" for j in range(jobs)]
        command = [sys.executable, "-m", "bench.fuzz"]
        children = [
            subprocess.Popen([*command, "--inputs", str(share), "--seed", str(seed + j), "--tally-to", str(path)])
            for j, (share, path) in enumerate(zip(shares, paths, strict=True))
        ]
        if any(child.wait() != 0 for child in children):
            raise SystemExit("a fuzzing job failed")
        runs = [pickle.loads(path.read_bytes()) for path in paths]
    return merged([r[0] for r in runs]), runs[0][1], sorted({note for r in runs for note in r[2]})


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000, help="interactions to send (default 100000)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000, help="Hypothesis seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the inputs (default 1)")
    parser.add_argument("--database-url", default="", help="default: a new SQLite file in a temporary folder")
    parser.add_argument("--tally-to", default="", help=argparse.SUPPRESS)  # a job of --jobs writes its tally here
    args = parser.parse_args(argv)
    poll_settling_bots_often()  # an answer's time ends when the bot has answered, not at SimCord's next look
    started = time.perf_counter()
    jobs = max(1, args.jobs)
    if args.tally_to:  # one share of a run of several jobs: hand the tally to the parent
        with open(args.tally_to, "wb") as out:
            pickle.dump(one_run(args.inputs, args.seed, args.database_url), out)
        return 0
    if jobs == 1:
        tally, commands, notes = one_run(args.inputs, args.seed, args.database_url)
    else:
        tally, commands, notes = in_parallel(args.inputs, args.seed, jobs)
    seconds = time.perf_counter() - started
    printed = report(tally, commands, notes, seconds, args.seed)
    printed["jobs"] = jobs
    json.dump(printed, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
