"""A reminder of a player's turn, as recorded for delivery with the clock check that made it due."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.session.store import GameRow


@dataclass(frozen=True)
class Reminder:
    """A reminder to send to ``user_id``: their turn in a game, with the time they have left."""

    user_id: int
    game_id: int
    channel_id: int
    title: str
    seconds_left: int
    together: bool = False  # may act now beside the seat to move, whose clock this is (Treasure Hunt's coins)
    turn: str = ""  # when the turn it reminds of began (ISO 8601): once another began, it is not sent

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Reminder:
        """The reminder back from its delivery record."""
        return cls(
            int(payload["user_id"]),
            int(payload["game_id"]),
            int(payload["channel_id"]),
            str(payload["title"]),
            int(payload["seconds_left"]),
            bool(payload.get("together", False)),
            str(payload.get("turn", "")),
        )

    def of_turn(self, game: GameRow) -> bool:
        """True while ``game`` is still in the turn this reminder is about (the player has not acted since)."""
        if game.status != "active" or game.turn_started_at is None:
            return False
        return not self.turn or self.turn == game.turn_started_at.isoformat()
