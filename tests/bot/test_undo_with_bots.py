"""An undo asked right after one's move names that move: computer players' replies after it leave it
standing (they are taken back with it), so the others can still agree a moment later."""

from __future__ import annotations

from bot.session.service import Actor
from tests.bot.playing import act_once

ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")
PEOPLE = {ALICE.user_id: ALICE, BOB.user_id: BOB}


async def nothing(_report):
    return None


async def test_an_undo_asked_before_the_bot_replies_survives_the_reply(bots_session):
    session, games = bots_session, bots_session.games
    await games.new_game(guild_id=1, channel_id=9, game="hedgehog", actor=ALICE, max_players=3)
    await games.add_bot(9, ALICE, "easy")  # seat 1: the bot plays right after alice
    await games.join(9, BOB)
    report = await games.start(9, ALICE)
    for _ in range(200):  # play until alice makes a move (not a roll) and the bot is to reply
        if report.game.bot_at(report.to_move_seat) is not None:
            await session.autoplay.play(9, nothing)
            report = await games.board(9)
            continue
        rolling = report.needs_roll
        actor, report = await act_once(games, 9, report, PEOPLE)
        if not rolling and actor is ALICE and report.game.bot_at(report.to_move_seat) is not None:
            break
    else:
        raise AssertionError("alice never handed the turn to the bot")
    moved = (await games.history(9))[1][-1].notation  # alice's move, the last in the log
    asked = await session.undo.request(9, ALICE)  # at once, before the bot's reply
    assert asked.waiting_for == [BOB.user_id] and asked.target.notation == moved
    assert await session.autoplay.play(9, nothing) >= 1  # the bot replies, as it does within a second
    status = await session.undo.answer(asked.game.id, BOB, True)  # bob agrees a moment later
    assert status.report is not None
    assert status.report.lines[0].startswith(f'By agreement, the move "{moved}" is taken back')
