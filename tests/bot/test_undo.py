"""Undo by consent: every other player still in the game agrees, and the dice never change."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.session import open_session
from bot.session.service import Actor, ServiceError
from bot.session.undo import undo_target

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


def test_the_target_is_the_last_move_and_never_crosses_a_resignation():
    from bot.session.store import MoveRow

    def row(ply, kind):
        return MoveRow(ply, 0, "x", "x", kind, NOW)

    assert undo_target([row(0, "roll"), row(1, "move"), row(2, "roll")]).ply == 1
    assert undo_target([row(0, "move"), row(1, "resign"), row(2, "roll")]) is None
    assert undo_target([row(0, "roll")]) is None
