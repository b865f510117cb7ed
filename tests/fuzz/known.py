"""Failures the fuzzer finds whose fix belongs to code outside the reply path and the error handler.

Each is matched narrowly (kind, the control or command, a piece of the log line), so anything new
still fails the suite; each has a strict xfail test in ``test_fuzz.py`` that starts passing, and so
fails, the day it is fixed: then delete its entry here.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.fuzz.driver import Finding


@dataclass(frozen=True)
class KnownFailure:
    """A failure found by the fuzzer, to be fixed elsewhere."""

    kind: str
    labels: tuple[str, ...]  # the finding's label starts with one of these
    detail: str  # a piece of its log line
    reason: str  # where it fails, and the fix

    def matches(self, finding: Finding) -> bool:
        return finding.kind == self.kind and finding.label.startswith(self.labels) and self.detail in finding.detail


KNOWN_FAILURES: tuple[KnownFailure, ...] = ()


def known_failure(finding: Finding) -> KnownFailure | None:
    """The known failure ``finding`` is an instance of, if any."""
    return next((k for k in KNOWN_FAILURES if k.matches(finding)), None)
