"""Tournament refusals: one sentence for the member, nothing changed."""

from __future__ import annotations

from datetime import datetime

from bot.session import ServiceError


class TournamentError(ServiceError):
    """A tournament refusal: one sentence for the member, nothing changed."""


class CheckinNotOpen(TournamentError):
    """Check-in has not opened yet: at ``opens_at``, or (when None) once an organiser starts the tournament.

    The sentence gives the time in UTC; the Discord side words it again in each reader's own time zone.
    """

    def __init__(self, tournament_name: str, opens_at: datetime | None) -> None:
        self.tournament_name = tournament_name
        self.opens_at = opens_at
        when = (
            f"opens at {opens_at:%Y-%m-%d %H:%M} UTC"
            if opens_at is not None
            else "opens when an organiser starts the tournament"
        )
        super().__init__(f"Check-in for {tournament_name} {when}.")
