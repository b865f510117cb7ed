"""Playing a session test's game forward: one person's roll or first legal move at a time."""

from __future__ import annotations

from typing import Any

from bot.session.service import Actor


async def act_once(games: Any, channel_id: int, report: Any, people: dict[int, Actor]) -> tuple[Actor, Any]:
    """The person to act rolls if the dice are due, else plays their first legal move: who, and the report."""
    actor = people[report.to_move_user]
    if report.needs_roll:
        return actor, await games.roll(channel_id, actor)
    choice = (await games.legal_moves(channel_id, actor.user_id))[0]
    return actor, await games.move(channel_id, actor, choice.value)
