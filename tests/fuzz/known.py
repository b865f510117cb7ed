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


PICK_IDS = KnownFailure(
    kind="errors_logged",
    labels=("button pg:pick", "select pg:menu"),
    detail="OverflowError",
    reason=(
        "cogs/decisions.py: PickButton and MoveMenu accept 19-digit game ids (up to 9999999999999999999) "
        "and play_choice passes them to the database, which holds 64-bit integers: refuse ids outside "
        "1..cogs.buttons.MAX_ID with cogs.buttons.STALE before touching the service, as GameButton does"
    ),
)
TOURNAMENT_BUTTON_IDS = KnownFailure(
    kind="errors_logged",
    labels=("button pt:join", "button pt:checkin"),
    detail="OverflowError",
    reason=(
        "cogs/tournament/_buttons.py: TournamentButton's template takes any number of digits and the "
        "press reaches the database with ids beyond 64 bits: refuse ids outside 1..2**63-1 in "
        "TournamentButton.callback (or from_custom_id) with one sentence, before cog.press"
    ),
)
KNOWN_FAILURES = (PICK_IDS, TOURNAMENT_BUTTON_IDS)


def known_failure(finding: Finding) -> KnownFailure | None:
    """The known failure ``finding`` is an instance of, if any."""
    return next((k for k in KNOWN_FAILURES if k.matches(finding)), None)
