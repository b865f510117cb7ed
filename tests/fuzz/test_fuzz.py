"""Hostile input never goes unanswered: every command, option, autocomplete and button, in every phase.

The cases come from the bot's own command tree (``tests.fuzz.tree``), so a new command is fuzzed
without a line written here.  Each interaction must be answered, log no error, stay within Discord's
limits, ping nobody from user text, and leave the database alone when it is refused.

``FUZZ_EXAMPLES`` sets the number of cases (default 400, a few seconds); the run is derandomised,
so the suite sees the same cases every time; ``python -m bench.fuzz`` draws new ones by the hundred
thousand.  Failures whose fix lies outside the reply path are listed in ``tests.fuzz.known``, each
with a strict xfail test below.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace

import pytest

from tests.fuzz.cases import Case, Press, Step
from tests.fuzz.driver import Finding
from tests.fuzz.known import KNOWN_FAILURES, KnownFailure, known_failure
from tests.fuzz.runner import run

pytestmark = pytest.mark.fuzz
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "400"))


def summary(findings: list[Finding], limit: int = 12) -> str:
    """The distinct findings, one line each, with an input that shows each."""
    seen: Counter[tuple[str, str, str]] = Counter()
    lines: list[str] = []
    for finding in findings:
        key = (finding.kind, finding.label, finding.detail[:60])
        seen[key] += 1
        if seen[key] == 1 and len(lines) < limit:
            lines.append(f"{finding.kind} in {finding.label}: {finding.detail[:300]}\n    input: {finding.case[:300]}")
    return f"{len(findings)} finding(s):\n" + "\n".join(lines)


def test_hostile_input_is_answered_in_one_private_sentence_everywhere(db_url: str) -> None:
    result = run(db_url, EXAMPLES, derandomize=True, known=known_failure)
    tally = result.tally
    assert not result.notes, result.notes  # every phase of play was set up
    assert not tally.findings, summary(tally.findings)
    assert tally.inputs >= EXAMPLES
    assert tally.answered == tally.inputs
    fuzzed = {label.split(" ", 1)[0] for label in tally.per_command}
    assert "autocomplete" in fuzzed and "button" in fuzzed and "select" in fuzzed
    untouched = [name for name in result.commands if f"/{name}" not in tally.per_command]
    assert not untouched, f"commands of the tree never sent: {untouched}"
    assert tally.refused > tally.inputs // 4  # most hostile input is refused, not played


def only(*steps: Step) -> list[Case]:
    return [Case(steps)]


def answered_without_error(db_url: str, case: list[Case]) -> None:
    """Send ``case`` alone: it is answered, refused, and logs no error."""
    tally = run(db_url, 0, only=case, phases=("none",)).tally
    assert not tally.findings, summary(tally.findings)
    assert tally.answered == tally.inputs == tally.refused == 1


def test_a_pick_button_with_a_game_id_beyond_64_bits_is_refused(db_url: str) -> None:
    answered_without_error(db_url, only(Step("alice", "none", Press("pg:pick:9999999999999999999:1:1"))))


def test_a_move_menu_with_a_game_id_beyond_64_bits_is_refused(db_url: str) -> None:
    answered_without_error(db_url, only(Step("alice", "none", Press("pg:menu:9223372036854775808:1", ("1",)))))


def test_a_tournament_button_with_an_id_beyond_64_bits_is_refused(db_url: str) -> None:
    answered_without_error(db_url, only(Step("bob", "none", Press("pt:join:" + "9" * 24))))


def test_every_known_failure_has_a_reason_and_a_narrow_match() -> None:
    for known in KNOWN_FAILURES:  # none today: every failure the fuzzer found has been fixed
        assert known.reason and known.detail and known.labels


def test_a_known_failure_matches_only_its_kind_its_control_and_its_log_line() -> None:
    known = KnownFailure("error", ("pt:join",), "KeyError: 'seat'", "where it fails, and the fix")
    seen = Finding("error", "pt:join:12", "Traceback ... KeyError: 'seat'", "case 7")
    assert known.matches(seen)
    assert not known.matches(replace(seen, kind="silent"))  # another broken promise
    assert not known.matches(replace(seen, label="pt:leave:12"))  # another control
    assert not known.matches(replace(seen, detail="Traceback ... KeyError: 'game'"))  # another failure
    assert known_failure(seen) is None  # and nothing outside the list is excused
