"""A player's interaction is answered in Discord's 3 s window, and answered first exactly once.

Editing the previous living message is a request of its own, rate-limited per channel; under load it
must never stand between the player and their answer.  The pacer's short line may fire while the
board is being sent: one of the two is the first response, never both.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot.keyed_locks import KeyedLocks
from bot.pacing import WORKING, Pacer
from bot.session.table_messages import TableMessage
from cogs import table
from cogs.replies import answer, paced

RETIRE = table.retire
OLD = TableMessage(game_id=1, channel_id=10, message_id=99, kind="board", lines=("Alice took R1 a.",))


def _fake(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    class Service:
        async def table_message(self, game_id: int) -> TableMessage:
            return OLD

        async def set_table_message(self, message: TableMessage, *delivered: Any) -> None:
            calls.append("remember")

        async def game(self, game_id: int) -> None:
            return None  # the game as stored is the report's: nothing was shown since

    class Questions:
        async def of_game(self, game_id: int) -> list[Any]:
            return []  # no question open at this table

    bot = SimpleNamespace(service=Service(), living_messages=KeyedLocks())
    bot.service.questions = Questions()

    async def answer_at(interaction: Any, **payload: Any) -> int:
        calls.append("answer")
        return 100

    async def tell(interaction: Any, message: str) -> None:
        calls.append("answer")

    async def retire(bot: Any, record: TableMessage, game: Any) -> None:
        calls.append("edit old message")

    async def edit(bot: Any, record: TableMessage, payload: Any, **kwargs: Any) -> bool:
        calls.append("edit old message")
        return True

    monkeypatch.setattr(table, "bot_of", lambda interaction: bot)
    monkeypatch.setattr(table, "answer_at", answer_at)
    monkeypatch.setattr(table, "tell", tell)
    monkeypatch.setattr(table, "retire", retire)
    monkeypatch.setattr(table, "edit", edit)
    monkeypatch.setattr(table, "report_payload", lambda *args, **kwargs: {})
    monkeypatch.setattr(table, "report_view", lambda report: None)
    monkeypatch.setattr(table, "after", lambda bot, report: None)


def _report(*, turn_changed: bool, bot_to_move: bool = False) -> Any:
    """A report of Bob's move in a running game, seat 1 (a person, or a bot) to move next."""
    return SimpleNamespace(
        game=SimpleNamespace(id=1, status="active", ply=5, bot_at=lambda seat: object() if bot_to_move else None),
        to_move_seat=1,
        turn_changed=turn_changed,
        together=False,
        outcome=None,
        lines=["Bob took R2 b."],
        delivery_id=7,
    )


def _slash_command() -> Any:
    """A typed command: not a press on the living message."""
    return SimpleNamespace(message=None, extras={}, channel_id=10, response=SimpleNamespace(is_done=lambda: False))


@pytest.mark.parametrize("turn_changed", [True, False], ids=["turn passes", "turn goes on"])
async def test_the_player_is_answered_before_the_old_living_message_is_edited(
    monkeypatch: pytest.MonkeyPatch, turn_changed: bool
) -> None:
    calls: list[str] = []
    _fake(monkeypatch, calls)
    report = _report(turn_changed=turn_changed)  # a person to move: a new message calls them
    await table.show(_slash_command(), report)
    # a new board is recorded as the game's before the old one is retired
    expected = (
        ["answer", "remember", "edit old message"] if turn_changed else ["answer", "edit old message", "remember"]
    )
    assert calls == expected


async def test_an_old_board_that_cannot_be_retired_leaves_the_new_one_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    _fake(monkeypatch, calls)
    monkeypatch.setattr(table, "retire", RETIRE)  # the real one, over an edit that fails unexpectedly

    async def edit(bot: Any, record: TableMessage, payload: Any, **kwargs: Any) -> bool:
        raise TypeError("expected string or bytes-like object")

    monkeypatch.setattr(table, "edit", edit)
    monkeypatch.setattr(table, "retired", lambda record, game: {})
    report = _report(turn_changed=True)
    await table.show(_slash_command(), report)
    assert calls == ["answer", "remember"]  # answered, the new board recorded; the failure only logged


class SlowResponse:
    """Discord's interaction response, taking a moment to send (``is_done`` turns true once sent)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def send_message(self, content: str = "", **kwargs: Any) -> None:
        if self._done:
            raise AssertionError("a second first response: Discord refuses it")
        await asyncio.sleep(0.05)
        self.sent.append(content)
        self._done = True


async def _answered(pacer: Pacer, think: float) -> tuple[list[str], list[str]]:
    """Pace an action that answers with the board after ``think`` seconds; returns what was sent as
    the first response and what as follow-ups."""
    followups: list[str] = []

    async def follow_up(content: str = "", **kwargs: Any) -> None:
        followups.append(content)

    response = SlowResponse()
    interaction = SimpleNamespace(
        extras={}, response=response, followup=SimpleNamespace(send=follow_up), client=SimpleNamespace(pacer=pacer)
    )

    async def action() -> None:
        await asyncio.sleep(think)
        await answer(interaction, content="the board")  # type: ignore[arg-type]

    await paced(interaction, 1, action())  # type: ignore[arg-type]
    return response.sent, followups


async def test_the_short_line_and_the_answer_are_never_both_the_first_response() -> None:
    pacer = Pacer(ack_after=0.01)  # the short line is due while the board is still being sent
    assert await _answered(pacer, think=0.005) == (["the board"], [])
    assert pacer.stats.slow == 1  # the short line was due, found the answer out, and stayed silent
    assert await _answered(pacer, think=0.05) == ([WORKING], ["the board"])  # sent first: the board follows


async def test_start_undo_its_answer_and_resign_are_acknowledged_first_when_the_process_is_busy(
    table: Any, simcord_env: Any, make_bot: Any
) -> None:
    # every action that may wait for its channel or draw a board goes through the pacer, not moves only:
    # with the process counted as overloaded each is acknowledged at once, and its answer follows
    from bot.pacing import OVERLOADED
    from tests.discord.helpers import next_actor, notation

    await simcord_env.restart_bot(make_bot(busy_in_flight=0))
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    started = await alice.click(opened.response.message, label="Start")
    assert started.response.content == OVERLOADED and started.followups[-1].embeds[0].title == "Der Marsigelwettkampf"
    result = started
    for _ in range(4):  # the first player rolls and moves
        actor, kind = next_actor(result, table.members)
        assert actor is not None
        if kind == "roll":
            result = await actor.slash(table.channel, "hedgehog roll")
            continue
        choices = await actor.autocomplete(table.channel, "hedgehog move", "notation", "")
        result = await actor.slash(table.channel, "hedgehog move", notation=notation(choices[-1]))
        break
    assert actor is not None
    asked = await actor.slash(table.channel, "game undo")
    assert asked.response.content == OVERLOADED and "asks to take back" in asked.followups[-1].content
    other = bob if actor is alice else alice
    taken = await other.click(asked.followups[-1], label="Accept undo")
    assert taken.response.content == OVERLOADED and "is taken back" in taken.followups[-1].embeds[0].description
    resigned = await alice.slash(table.channel, "game resign")
    assert resigned.response.content == OVERLOADED and "resigns" in resigned.followups[-1].embeds[0].description
    assert simcord_env.errors == []


async def test_a_board_followed_on_by_a_computer_players_turn_loses_the_call_of_the_person_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[str] = []
    _fake(monkeypatch, calls)
    sent: list[dict[str, Any]] = []

    async def edit(bot: Any, record: TableMessage, payload: Any, **kwargs: Any) -> bool:
        sent.append(payload)
        return True

    monkeypatch.setattr(table, "edit", edit)
    report = _report(turn_changed=True, bot_to_move=True)
    await table.show(_slash_command(), report)
    assert len(sent) == 1 and sent[0]["content"] is None  # the board follows on, without "@bob, your turn."
