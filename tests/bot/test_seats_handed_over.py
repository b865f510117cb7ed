"""A seat handed to a computer player never holds up an undo nor leaves a table of bots alone."""

from __future__ import annotations

from bot.session.service import Actor, ServiceError
from tests.bot.playing import act_once

ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")
PEOPLE = {a.user_id: a for a in (ALICE, BOB, CAROL)}


async def nothing(_report):
    return None


async def test_an_undo_waiting_only_on_a_player_whose_seat_went_to_a_bot_can_still_be_carried_out(bots_session):
    # alice asks to take her move back; carol accepts; bob, the one still to answer, hands his seat to a
    # bot instead (the table agrees).  Nobody who still plays is left to answer the undo: it must not
    # stay stuck, neither carried out nor askable again, until the next person's move voids it.
    session, games = bots_session, bots_session.games
    await games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=3)
    await games.join(9, BOB)
    await games.join(9, CAROL)
    report = await games.start(9, ALICE)
    for _ in range(200):  # play until alice has made a move and the turn has left her
        rolling = report.needs_roll
        actor, report = await act_once(games, 9, report, PEOPLE)
        if not rolling and actor is ALICE and report.to_move_user != ALICE.user_id:
            break
    else:
        raise AssertionError("alice never moved")
    asked = await session.undo.request(9, ALICE)
    assert sorted(asked.waiting_for) == [BOB.user_id, CAROL.user_id]
    await session.undo.answer(asked.game.id, CAROL, True)

    handing = await session.handover.request(9, BOB, BOB.user_id, "easy")  # bob asks to leave to a bot
    await session.handover.answer(handing.game.id, ALICE, True)
    handed = await session.handover.answer(handing.game.id, CAROL, True)
    assert handed.report is not None  # bob's seat is the bot's now
    await session.autoplay.play(9, nothing)  # its reply, if it was its turn, leaves the request standing

    # everyone still playing (alice, carol) has agreed: pressing Accept again, or asking again, takes
    # the move back
    try:
        status = await session.undo.answer(asked.game.id, CAROL, True)
    except ServiceError as first:
        try:
            status = await session.undo.request(9, ALICE)
        except ServiceError as second:
            raise AssertionError(f"the undo is stuck: {first} / {second}") from None
    assert status.report is not None, status.waiting_for


async def test_a_proposal_carried_out_after_the_last_other_person_resigns_never_leaves_only_bots(bots_session):
    # alice, bob and an easy bot.  bob asks for his seat to go to a bot; alice, the only one to agree,
    # resigns instead.  Carrying the proposal out now would leave a table of only computer players
    # (refused when asked for: "A table of only computer players does not play"), which nobody plays:
    # the game must not be left running with bots alone.
    session, games = bots_session, bots_session.games
    await games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=3)
    await games.join(9, BOB)
    await games.add_bot(9, ALICE, "easy")
    await games.start(9, ALICE)
    await session.autoplay.play(9, nothing)
    asked = await session.handover.request(9, BOB, BOB.user_id, "hard")
    assert asked.waiting_for == [ALICE.user_id]
    resigned = await games.resign(9, ALICE)
    assert resigned.game.status == "active"  # bob and the bot play on
    await session.handover.settle(asked.game.id)  # what the bot does after every resignation
    game = await games.latest_game(9)
    people = [row.display_name for row in game.seats if not row.is_bot and not row.removed]
    assert people == ["bob"] and game.status == "active"  # the proposal lapsed: bob keeps his seat
    assert await session.handover.stands(game.id) is False
