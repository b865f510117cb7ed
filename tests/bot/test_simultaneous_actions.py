"""Two actions at the same instant on one game: each gets one answer, none is applied twice, and
the stored game stays whole (its ply, status, outcome and move log agree)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.session.marks import mark_of
from bot.session.service import Actor, ServiceError

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
PEOPLE = {a.user_id: a for a in (ALICE, BOB)}


async def started(session, **kw):
    await session.games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=2, **kw)
    await session.games.join(9, BOB)
    report = await session.games.start(9, ALICE)
    return PEOPLE[report.to_move_user]


def other(actor):
    return BOB if actor is ALICE else ALICE


async def at_once(*calls):
    results = await asyncio.gather(*calls, return_exceptions=True)
    for r in results:
        assert r is None or not isinstance(r, BaseException) or isinstance(r, ServiceError), repr(r)
    return results


async def rolled(session, mover):
    await session.games.roll(9, mover)
    return await session.games.legal_moves(9, mover.user_id)


@pytest.mark.parametrize("resign_first", [True, False])
async def test_resign_at_the_same_instant_as_the_opponents_move(world, resign_first):
    session, _ = world
    mover = await started(session)
    options = await rolled(session, mover)
    game_id = (await session.games.live_game(9)).id
    calls = [session.games.move(9, mover, options[0].value), session.games.resign(9, other(mover))]
    if resign_first:
        calls.reverse()
    results = await at_once(*calls)
    game = await session.games.game(game_id)
    _, log = await session.games.history(9)
    kinds = [row.kind for row in log]
    assert game.status == "finished" and game.outcome is not None
    assert kinds.count("resign") == 1 and kinds.count("move") <= 1
    assert game.ply == len(log)
    moved = not isinstance(results[1 if resign_first else 0], ServiceError)
    assert moved == (kinds.count("move") == 1)
    if moved:  # the move landed before the resignation
        assert kinds.index("move") < kinds.index("resign")


@pytest.mark.parametrize("abort_first", [True, False])
async def test_abort_at_the_same_instant_as_a_move(world, abort_first):
    session, _ = world
    mover = await started(session)
    options = await rolled(session, mover)
    game_id = (await session.games.live_game(9)).id
    ply = (await session.games.live_game(9)).ply
    calls = [session.games.move(9, mover, options[0].value), session.games.abort(9, ALICE)]
    if abort_first:
        calls.reverse()
    results = await at_once(*calls)
    move_result = results[1 if abort_first else 0]
    game = await session.games.game(game_id)
    assert game.status == "aborted" and game.outcome is None and game.deadline is None
    assert await session.games.live_game(9) is None
    _, log = await session.games.history(9)
    moved = not isinstance(move_result, ServiceError)
    assert [row.kind for row in log].count("move") == int(moved)
    assert game.ply == ply + int(moved) == len(log)
    if abort_first:
        assert not moved


@pytest.mark.parametrize("accept_first", [True, False])
async def test_undo_accepted_at_the_same_instant_as_the_next_move(world, accept_first):
    session, _ = world
    mover = await started(session)
    options = await rolled(session, mover)
    await session.games.move(9, mover, options[0].value)
    game = await session.games.live_game(9)
    nxt = other(mover)
    await session.undo.request(9, mover)
    nxt_options = await rolled(session, nxt)
    before = await session.games.live_game(9)
    calls = [session.games.move(9, nxt, nxt_options[0].value), session.undo.answer(game.id, nxt, True)]
    if accept_first:
        calls.reverse()
    results = await at_once(*calls)
    move_result, answer = (results[1], results[0]) if accept_first else results
    assert isinstance(move_result, ServiceError) != isinstance(answer, ServiceError)  # exactly one wins
    after = await session.games.live_game(9)
    _, log = await session.games.history(9)
    assert after.ply == len(log)
    if isinstance(answer, ServiceError):  # the move came first: the request lapsed
        assert [row.kind for row in log] == ["roll", "move", "roll", "move"]
    else:
        assert [row.kind for row in log] == ["roll"]
        assert after.ply == 1 and after.ply < before.ply
        assert (await session.games.board(9)).state == await session.games.rebuild(after)
    assert await session.undo.stands(game.id) is False


@pytest.mark.parametrize("resign_first", [True, False])
async def test_resign_at_the_same_instant_as_the_clock_times_out(world, resign_first):
    session, clock = world
    mover = await started(session, clock_days=1)
    game = await session.games.live_game(9)
    assert game.deadline is not None
    clock.now = game.deadline + timedelta(seconds=1)
    calls = [session.timekeeper.tick(), session.games.resign(9, mover)]
    if resign_first:
        calls.reverse()
    results = await at_once(*calls)
    ended = await session.games.game(game.id)
    _, log = await session.games.history(9)
    leaving = [row for row in log if row.kind in ("resign", "removed")]
    assert ended.status == "finished" and ended.outcome is not None
    assert len(leaving) == 1, [(r.kind, r.description) for r in log]
    assert ended.ply == len(log)
    tick = results[1 if resign_first else 0]
    resign = results[0 if resign_first else 1]
    assert (tick.timeouts == 1) == isinstance(resign, ServiceError)


@pytest.mark.parametrize("stamped", [True, False])
async def test_the_same_move_sent_twice_at_once_is_played_once(world, stamped):
    session, _ = world
    mover = await started(session)
    options = await rolled(session, mover)
    sent = options[0].value if stamped else options[0].notation
    ply = (await session.games.live_game(9)).ply
    results = await at_once(session.games.move(9, mover, sent), session.games.move(9, mover, sent))
    assert sum(not isinstance(r, ServiceError) for r in results) == 1
    game = await session.games.live_game(9)
    _, log = await session.games.history(9)
    assert game.ply == ply + 1 == len(log)


async def test_the_same_roll_pressed_twice_at_once_is_rolled_once(world):
    session, _ = world
    mover = await started(session)
    mark = mark_of(await session.games.live_game(9))
    results = await at_once(
        session.games.roll(9, mover, offered_at=mark), session.games.roll(9, mover, offered_at=mark)
    )
    assert sum(not isinstance(r, ServiceError) for r in results) == 1
    _, log = await session.games.history(9)
    assert [row.kind for row in log] == ["roll"]


async def test_two_choices_at_once_play_one(world):
    session, _ = world
    mover = await started(session)
    await rolled(session, mover)
    game = await session.games.live_game(9)
    results = await at_once(
        session.games.choose(9, mover, mark_of(game), 0), session.games.choose(9, mover, mark_of(game), 1)
    )
    assert sum(not isinstance(r, ServiceError) for r in results) == 1
    _, log = await session.games.history(9)
    assert [row.kind for row in log] == ["roll", "move"]
