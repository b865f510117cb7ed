"""Undo by consent: every other player still in the game agrees, and the dice never change."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.session import Thinking, open_session
from bot.session.service import Actor, Report, ServiceError
from bot.session.undo import undo_target
from tests.bot.failing import fail_once

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")
PEOPLE = {a.user_id: a for a in (ALICE, BOB, CAROL)}


@pytest.fixture
async def session(db_url):
    opened = await open_session(db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed")
    yield opened
    await opened.close()


async def one_move_played(session, players=(ALICE, BOB, CAROL)):
    """A Marsigelwettkampf game in channel 9 where the first player rolled and moved."""
    await session.games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=players[0], max_players=len(players))
    for player in players[1:]:
        await session.games.join(9, player)
    report = await session.games.start(9, players[0])
    mover = PEOPLE[report.to_move_user]
    rolled = await session.games.roll(9, mover)
    options = await session.games.legal_moves(9, mover.user_id)
    await session.games.move(9, mover, options[0].value)
    return mover, rolled


async def test_the_move_is_taken_back_once_everyone_else_agrees_and_the_dice_stay(session):
    mover, rolled = await one_move_played(session)
    others = [a for a in (ALICE, BOB, CAROL) if a is not mover]
    before = await session.games.live_game(9)
    status = await session.undo.request(9, mover)
    assert sorted(status.waiting_for) == sorted(a.user_id for a in others) and status.report is None
    status = await session.undo.answer(before.id, others[0], True)
    assert status.waiting_for == [others[1].user_id]
    with pytest.raises(ServiceError, match="already accepted"):
        await session.undo.answer(before.id, others[0], True)
    status = await session.undo.answer(before.id, others[1], True)
    assert status.report is not None and "taken back" in status.report.lines[0]
    after = await session.games.live_game(9)
    assert after.ply == 1 and after.version > before.version  # the roll stays: only the move is taken back
    assert (await session.games.board(9)).state == await session.games.rebuild(after)
    _, log = await session.games.history(9)
    assert [row.kind for row in log] == ["roll"]
    assert rolled.lines[0] == log[0].description  # the same dice, not rolled again
    assert [o.notation for o in await session.games.legal_moves(9, mover.user_id)]  # the mover chooses again


async def test_one_refusal_ends_the_request_and_nothing_changes(session):
    mover, _ = await one_move_played(session)
    other = next(a for a in (ALICE, BOB, CAROL) if a is not mover)
    game = await session.games.live_game(9)
    await session.undo.request(9, mover)
    status = await session.undo.answer(game.id, other, False)
    assert status.refused_by == other.user_id
    assert (await session.games.live_game(9)).ply == game.ply
    with pytest.raises(ServiceError, match="no undo request waiting"):
        await session.undo.answer(game.id, other, True)


async def test_strangers_cannot_ask_and_a_game_with_only_rolls_has_nothing_to_take_back(session):
    await session.games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=2)
    await session.games.join(9, BOB)
    await session.games.start(9, ALICE)
    with pytest.raises(ServiceError, match="Only players"):
        await session.undo.request(9, CAROL)
    with pytest.raises(ServiceError, match="no move to take back"):
        await session.undo.request(9, ALICE)


async def play_until_moved(session, person: Actor, people: dict[int, Actor]) -> str:
    """Play channel 9 (people by their first suggestion, bots by themselves) until ``person`` has made a
    move other than a roll and every bot after it has answered; returns that move."""
    games, moved = session.games, None

    async def show(report: Report) -> None:
        pass

    for _ in range(200):
        await session.autoplay.play(9, show)
        report = await games.board(9)
        actor = people[report.to_move_user]  # never a bot: they have played
        if moved is not None:
            return moved
        if report.needs_roll:
            await games.roll(9, actor)
            continue
        choice = (await games.legal_moves(9, actor.user_id))[0]
        await games.move(9, actor, choice.value)
        moved = choice.notation if actor is person else moved
    raise AssertionError(f"{person.name} never moved")


async def test_computer_players_never_vote_and_their_replies_go_back_with_the_move(db_url):
    session = await open_session(
        db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", thinking=Thinking(None, 20)
    )
    try:
        await session.games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=3)
        await session.games.join(9, BOB)
        await session.games.add_bot(9, ALICE, "easy")
        await session.games.start(9, ALICE)
        moved = await play_until_moved(session, ALICE, PEOPLE)
        status = await session.undo.request(9, ALICE)
        assert status.waiting_for == [BOB.user_id] and status.report is None  # the bot is not asked
        status = await session.undo.answer(status.game.id, BOB, True)
        assert status.report is not None and status.report.lines[0].startswith(
            f'By agreement, the move "{moved}" is taken back'
        )
    finally:
        await session.close()


@contextlib.asynccontextmanager
async def against_a_bot(db_url: str) -> AsyncIterator[tuple[Any, str]]:
    """A practice game of alice against an easy bot, once she has made a move: the session and her move."""
    session = await open_session(
        db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed", thinking=Thinking(None, 20)
    )
    try:
        await session.games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=2)
        await session.games.add_bot(9, ALICE, "easy")
        await session.games.start(9, ALICE)
        yield session, await play_until_moved(session, ALICE, PEOPLE)
    finally:
        await session.close()


async def test_against_computer_players_alone_my_move_is_taken_back_at_once(db_url):
    async with against_a_bot(db_url) as (session, moved):
        status = await session.undo.request(9, ALICE)
        assert status.waiting_for == [] and status.report is not None
        assert status.report.lines == [f'alice takes back the move "{moved}", with the moves after it.']
        assert status.report.to_move_user == ALICE.user_id and not status.report.needs_roll  # her dice stay
        _, log = await session.games.history(9)
        assert (log[-1].seat, log[-1].kind) == (0, "roll")  # the bot's reply went back with her move


def test_the_target_is_the_last_move_and_never_crosses_a_resignation():
    from bot.session.store import MoveRow

    def row(ply, kind):
        return MoveRow(ply, 0, "x", "x", kind, NOW)

    assert undo_target([row(0, "roll"), row(1, "move"), row(2, "roll")]).ply == 1
    assert undo_target([row(0, "move"), row(1, "resign"), row(2, "roll")]) is None
    assert undo_target([row(0, "roll")]) is None


async def test_a_failed_write_while_taking_back_leaves_no_request_behind(db_url, monkeypatch):
    async with against_a_bot(db_url) as (session, moved):
        fail_once(monkeypatch, session._store, "truncate_moves")
        with pytest.raises(ServiceError):
            await session.undo.request(9, ALICE)
        assert await session._store.undo_request((await session.games.live_game(9)).id) is None
        status = await session.undo.request(9, ALICE)  # asked again: done, not "already waiting"
        assert status.report is not None and status.report.lines[0].startswith(f'alice takes back the move "{moved}"')
