"""A player's interaction is answered before any other message is edited (Discord's 3 s window).

Editing the previous living message is a request of its own, rate-limited per channel; under load it
must never stand between the player and their answer.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.session.table_messages import TableMessage
from cogs import table

OLD = TableMessage(game_id=1, channel_id=10, message_id=99, kind="board", lines=("Alice took R1 a.",))


def _fake(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    class Service:
        async def table_message(self, game_id: int) -> TableMessage:
            return OLD

        async def set_table_message(self, message: TableMessage, *delivered: Any) -> None:
            calls.append("remember")

    bot = SimpleNamespace(service=Service())

    async def answer(interaction: Any, **payload: Any) -> Any:
        calls.append("answer")
        return SimpleNamespace(channel=SimpleNamespace(id=10), id=100)

    async def tell(interaction: Any, message: str) -> None:
        calls.append("answer")

    async def retire(bot: Any, record: TableMessage, game: Any) -> None:
        calls.append("edit old message")

    async def edit(bot: Any, record: TableMessage, payload: Any, **kwargs: Any) -> bool:
        calls.append("edit old message")
        return True

    monkeypatch.setattr(table, "bot_of", lambda interaction: bot)
    monkeypatch.setattr(table, "answer", answer)
    monkeypatch.setattr(table, "tell", tell)
    monkeypatch.setattr(table, "retire", retire)
    monkeypatch.setattr(table, "edit", edit)
    monkeypatch.setattr(table, "report_payload", lambda *args, **kwargs: {})
    monkeypatch.setattr(table, "report_view", lambda report: None)
    monkeypatch.setattr(table, "after", lambda bot, report: None)


def _slash_command() -> Any:
    """A typed command: not a press on the living message."""
    return SimpleNamespace(message=None, response=SimpleNamespace(is_done=lambda: False))


@pytest.mark.parametrize("turn_changed", [True, False], ids=["turn passes", "turn goes on"])
async def test_the_player_is_answered_before_the_old_living_message_is_edited(
    monkeypatch: pytest.MonkeyPatch, turn_changed: bool
) -> None:
    calls: list[str] = []
    _fake(monkeypatch, calls)
    report = SimpleNamespace(
        game=SimpleNamespace(id=1), turn_changed=turn_changed, outcome=None, lines=["Bob took R2 b."], delivery_id=7
    )
    await table.show(_slash_command(), report)  # type: ignore[arg-type]
    assert calls == ["answer", "edit old message", "remember"]
