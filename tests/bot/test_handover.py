"""Handing a running game's seat to a computer player: who may ask, who must agree, what changes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.session import open_session
from bot.session.service import Actor, ServiceError
from tests.bot.failing import fail_once

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE, BOB, CAROL, DAVE = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol"), Actor(4, "dave")
MANAGER = Actor(9, "mod", can_manage=True)
PEOPLE = {a.user_id: a for a in (ALICE, BOB, CAROL)}


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def session(db_url, clock):
    opened = await open_session(db_url, clock=clock, render=False, new_seed=lambda: "seed")
    yield opened
    await opened.close()


async def started(session, players=(ALICE, BOB, CAROL), game="hedgehog", **options):
    """A running game in channel 9 with a one-day clock: the report of its start."""
    await session.games.new_game(
        guild_id=1, channel_id=9, game=game, actor=players[0], max_players=len(players), clock_days=1, **options
    )
    for player in players[1:]:
        await session.games.join(9, player)
    return await session.games.start(9, players[0])


async def snapshot(session):
    game = await session.games.live_game(9)
    return game, await session._store.seat_request(game.id)


async def test_a_player_hands_their_own_seat_over_once_everyone_else_agrees(session):
    report = await started(session)
    leaver = PEOPLE[report.to_move_user]  # the seat to act: the bot must take the turn at once
    others = [a for a in (ALICE, BOB, CAROL) if a is not leaver]
    status = await session.handover.request(9, leaver, leaver.user_id, "hard")
    assert status.report is None and sorted(status.waiting_for) == sorted(a.user_id for a in others)
    assert status.reason == f"{leaver.name} asked for it"
    status = await session.handover.answer(status.game.id, others[0], True)
    assert status.waiting_for == [others[1].user_id]
    with pytest.raises(ServiceError, match="already agreed"):
        await session.handover.answer(status.game.id, others[0], True)
    status = await session.handover.answer(status.game.id, others[1], True)
    assert status.report is not None
    colour = status.report.rules.seat_name(status.report.state, report.to_move_seat)
    assert status.report.lines == [
        f"Hard bot takes over {leaver.name}'s seat ({colour}). This game is no longer rated."
    ]
    game = await session.games.live_game(9)
    seat = game.bot_at(report.to_move_seat)
    assert seat is not None and seat.ai_level == "hard" and seat.display_name == "Hard bot" and seat.user_id < 0
    assert game.seat_of(leaver.user_id) is None  # the person is no longer at the table
    assert not game.rated
    assert game.deadline is None  # a bot's turn has no clock
    assert await session.autoplay.waiting_channels() == [9]
    assert (await snapshot(session))[1] is None


async def test_a_present_player_who_has_missed_nothing_keeps_the_seat(session):
    await started(session)
    with pytest.raises(ServiceError, match="bob is still playing"):
        await session.handover.request(9, ALICE, BOB.user_id, "hard")
    assert (await snapshot(session))[1] is None


async def test_a_player_who_left_the_server_or_missed_a_turn_may_be_replaced(session, clock):
    report = await started(session)
    absent = PEOPLE[report.to_move_user]
    asker = next(a for a in (ALICE, BOB, CAROL) if a is not absent)
    status = await session.handover.request(9, asker, absent.user_id, "easy", absent=True)
    assert status.reason == f"{absent.name} has left the server" and status.waiting_for
    await session.handover.answer(status.game.id, asker, False)  # withdrawn by a refusal

    clock.now = NOW + timedelta(days=1, minutes=1)  # past the deadline on their turn
    status = await session.handover.request(9, asker, absent.user_id, "easy")
    assert status.reason == f"{absent.name} has let the clock run out"


async def test_without_a_clock_a_turn_left_three_days_may_go_to_a_bot(session, clock):
    await session.games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=3)
    for player in (BOB, CAROL):
        await session.games.join(9, player)
    report = await session.games.start(9, ALICE)
    idle = PEOPLE[report.to_move_user]
    idle_seat = report.game.seat_of(idle.user_id)
    waiting = next(a for a in (ALICE, BOB, CAROL) if a is not idle)
    asker = next(a for a in (ALICE, BOB, CAROL) if a not in (idle, waiting))
    clock.now = NOW + timedelta(days=2, hours=23)
    with pytest.raises(ServiceError, match=f"{idle.name} is still playing"):
        await session.handover.request(9, asker, idle.user_id, "hard")
    with pytest.raises(ServiceError, match=f"{waiting.name} is still playing"):  # not their turn
        await session.handover.request(9, asker, waiting.user_id, "hard")
    clock.now = NOW + timedelta(days=3)
    status = await session.handover.request(9, asker, idle.user_id, "hard")
    assert status.reason == f"{idle.name} has not moved for 3 days"
    assert (await session.handover.answer(status.game.id, waiting, True)).report is not None
    game = (await snapshot(session))[0]
    (bot,) = [row for row in game.seats if row.is_bot]
    assert bot.seat == idle_seat and bot.ai_level == "hard" and not game.rated


async def test_one_refusal_ends_the_proposal_and_nothing_changes(session):
    report = await started(session)
    absent = PEOPLE[report.to_move_user]
    asker, other = [a for a in (ALICE, BOB, CAROL) if a is not absent]
    status = await session.handover.request(9, asker, absent.user_id, "hard", absent=True)
    before = await session.games.live_game(9)
    refused = await session.handover.answer(status.game.id, other, False)
    assert refused.refused_by == other.user_id and refused.report is None
    game, pending = await snapshot(session)
    assert pending is None and game.version == before.version and not game.has_bots
    with pytest.raises(ServiceError, match="no proposal waiting"):
        await session.handover.answer(game.id, other, True)


async def test_the_player_who_comes_back_may_withdraw_the_proposal(session):
    report = await started(session)
    absent = PEOPLE[report.to_move_user]
    asker = next(a for a in (ALICE, BOB, CAROL) if a is not absent)
    status = await session.handover.request(9, asker, absent.user_id, "hard", absent=True)
    back = await session.handover.answer(status.game.id, absent, False)
    assert back.refused_by == absent.user_id
    assert (await snapshot(session))[1] is None and not (await snapshot(session))[0].has_bots


async def test_a_seat_that_left_the_game_cannot_come_back(session):
    await started(session, players=(ALICE, BOB, CAROL, DAVE))
    await session.games.resign(9, DAVE)
    with pytest.raises(ServiceError, match="dave is out of the game already"):
        await session.handover.request(9, ALICE, DAVE.user_id, "hard")


async def test_only_people_still_playing_or_a_manager_may_ask_and_only_players_answer(session):
    report = await started(session)
    absent = PEOPLE[report.to_move_user]
    stranger = Actor(77, "stranger")
    with pytest.raises(ServiceError, match="Only players still in this game"):
        await session.handover.request(9, stranger, absent.user_id, "hard", absent=True)
    with pytest.raises(ServiceError, match="not playing in this game"):
        await session.handover.request(9, ALICE, stranger.user_id, "hard")
    with pytest.raises(ServiceError, match="level is one of"):
        await session.handover.request(9, ALICE, absent.user_id, "grandmaster", absent=True)
    status = await session.handover.request(9, MANAGER, absent.user_id, "hard", absent=True)
    others = [a for a in (ALICE, BOB, CAROL) if a is not absent]
    assert sorted(status.waiting_for) == sorted(a.user_id for a in others)  # a manager does not vote
    with pytest.raises(ServiceError, match="already waiting"):
        await session.handover.request(9, others[0], absent.user_id, "hard", absent=True)
    with pytest.raises(ServiceError, match="Only the other players"):
        await session.handover.answer(status.game.id, stranger, True)


async def test_a_table_of_only_bots_is_refused(session):
    await session.games.new_game(guild_id=1, channel_id=9, game="whist", actor=ALICE, max_players=2)
    await session.games.add_bot(9, ALICE, "easy")
    await session.games.start(9, ALICE)
    with pytest.raises(ServiceError, match="only computer players does not play"):
        await session.handover.request(9, ALICE, ALICE.user_id, "hard")
    with pytest.raises(ServiceError, match="already a computer player"):
        await session.handover.request(9, ALICE, -1, "hard")


async def test_in_a_two_player_game_the_other_player_decides_alone(session):
    report = await started(session, players=(ALICE, BOB), game="whist")
    assert report.game.rated
    status = await session.handover.request(9, ALICE, BOB.user_id, "normal", absent=True)
    assert status.report is not None and not status.waiting_for
    game = await session.games.live_game(9)
    assert [row.display_name for row in game.seats] == ["alice", "Normal bot"] and not game.rated


async def test_an_agreement_withdraws_the_proposal_once_its_player_is_back(session):
    report = await started(session)
    absent = PEOPLE[report.to_move_user]
    asker, other = [a for a in (ALICE, BOB, CAROL) if a is not absent]
    status = await session.handover.request(9, asker, absent.user_id, "hard", absent=True)
    assert await session.handover.proposed_player(status.game.id) == absent.user_id
    back = await session.handover.answer(status.game.id, other, True)  # no longer out of the server
    assert back.withdrawn and back.report is None
    game, pending = await snapshot(session)
    assert pending is None and game.seat_of(absent.user_id) is not None and not game.has_bots
    status = await session.handover.request(9, asker, absent.user_id, "hard", absent=True)
    still_gone = await session.handover.answer(status.game.id, other, True, left_server=[absent.user_id])
    assert still_gone.report is not None and not still_gone.withdrawn


async def test_a_proposal_whose_player_resigned_is_cleared_and_blocks_nothing(session):
    report = await started(session)
    target = PEOPLE[report.to_move_user]
    asker, other = [a for a in (ALICE, BOB, CAROL) if a is not target]
    status = await session.handover.request(9, asker, target.user_id, "hard", absent=True)
    assert status.waiting_for == [other.user_id]
    await session.games.resign(9, target)  # the seat leaves the game, and its proposal with it
    with pytest.raises(ServiceError, match="There is no proposal waiting"):
        await session.handover.answer(status.game.id, other, True, left_server=[target.user_id])
    assert (await snapshot(session))[1] is None
    status = await session.handover.request(9, asker, asker.user_id, "normal")  # a new proposal is heard
    assert status.waiting_for == [other.user_id]


async def test_an_agreement_is_refused_for_now_when_discord_cannot_tell_whether_the_player_is_back(session):
    report = await started(session)
    absent = PEOPLE[report.to_move_user]
    asker, other = [a for a in (ALICE, BOB, CAROL) if a is not absent]
    status = await session.handover.request(9, asker, absent.user_id, "hard", absent=True)
    with pytest.raises(ServiceError, match=f"Discord did not say whether {absent.name} is still in the server"):
        await session.handover.answer(status.game.id, other, True, unsure=[absent.user_id])
    _game, pending = await snapshot(session)
    assert pending is not None and pending["accepted"] == [asker.user_id]  # the proposal stays as it was
    done = await session.handover.answer(status.game.id, other, True, left_server=[absent.user_id])
    assert done.report is not None and (await snapshot(session))[0].seat_of(absent.user_id) is None
    # a proposal made while Discord cannot tell is not turned into "still playing"
    with pytest.raises(ServiceError, match="Discord did not say whether"):
        await session.handover.request(9, asker, other.user_id, "hard", absent=None)


async def test_a_proposal_everyone_left_playing_agreed_to_is_carried_out_once_the_last_voter_leaves(session):
    await started(session, players=(ALICE, BOB, CAROL, DAVE))
    status = await session.handover.request(9, BOB, BOB.user_id, "normal")  # bob asks for a bot himself
    assert sorted(status.waiting_for) == [ALICE.user_id, CAROL.user_id, DAVE.user_id]
    await session.handover.answer(status.game.id, ALICE, True)
    assert await session.handover.settle(status.game.id) is None  # carol and dave have not answered
    await session.games.resign(9, CAROL)  # carol leaves without answering; dave still must
    assert await session.handover.settle(status.game.id) is None
    with pytest.raises(ServiceError, match="already agreed"):
        await session.handover.answer(status.game.id, ALICE, True)
    await session.games.resign(9, DAVE)  # now alice, who agreed, is the only one left to ask
    settled = await session.handover.settle(status.game.id)
    assert settled is not None and settled.report is not None
    assert settled.report.lines[0].startswith("Normal bot takes over bob's seat")
    game, pending = await snapshot(session)
    assert pending is None and game.seat_of(BOB.user_id) is None and game.has_bots


async def test_an_agree_pressed_again_carries_out_a_proposal_nobody_is_left_to_answer(session):
    await started(session, players=(ALICE, BOB, CAROL, DAVE))
    status = await session.handover.request(9, BOB, BOB.user_id, "normal")
    await session.handover.answer(status.game.id, ALICE, True)
    await session.games.resign(9, CAROL)
    await session.games.resign(9, DAVE)
    # a new proposal is told how to finish this one, and replaces nothing
    agreed = "Everyone still playing has agreed to hand bob's seat to a computer player: press Agree under it."
    with pytest.raises(ServiceError, match=agreed):
        await session.handover.request(9, ALICE, ALICE.user_id, "hard")
    game, pending = await snapshot(session)
    assert pending is not None and pending["seat"] == game.seat_of(BOB.user_id)
    again = await session.handover.answer(status.game.id, ALICE, True)
    assert again.report is not None and (await snapshot(session))[0].seat_of(BOB.user_id) is None


async def test_a_failed_write_while_seating_the_bot_leaves_no_proposal_behind(session, monkeypatch):
    await started(session, players=(ALICE, BOB), game="whist")
    fail_once(monkeypatch, session._store, "hand_seat_to_bot")
    with pytest.raises(ServiceError):
        await session.handover.request(9, ALICE, BOB.user_id, "normal", absent=True)
    game, pending = await snapshot(session)
    assert pending is None and not game.has_bots  # nothing half done: the same request may be made again
    status = await session.handover.request(9, ALICE, BOB.user_id, "normal", absent=True)
    assert status.report is not None and (await session.games.live_game(9)).has_bots


async def test_an_answer_told_late_after_a_seat_was_handed_over_at_the_same_move_is_told_as_late(session, clock):
    """An event is overtaken by any newer event of its game, not only by a later move: a seat handed to a
    bot adds an event at the same move.  The older one, told late, must not show as the current board
    (nor call anyone to play): it comes ``overtaken``."""
    report = await started(session)
    mover = PEOPLE[report.to_move_user]
    await session.games.delivered(report.delivery_id)
    moved = await session.games.roll(9, mover)  # its answer never went out
    leaver = next(a for a in (ALICE, BOB, CAROL) if a is not mover)
    status = await session.handover.request(9, leaver, leaver.user_id, "easy")
    for voter in status.waiting_for:
        status = await session.handover.answer(status.game.id, PEOPLE[voter], True)
    assert status.report is not None and status.report.game.ply == moved.game.ply  # the same move
    await session.games.delivered(status.report.delivery_id)
    clock.now += timedelta(minutes=2)
    (late,) = [item for item in await session.games.claim_deliveries() if item.id == moved.delivery_id]
    assert late.overtaken and late.report is not None and not late.report.turn_changed
