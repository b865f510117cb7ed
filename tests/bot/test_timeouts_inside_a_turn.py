"""A turn that runs out at a table of three or more counts once, even when another player decides inside
it (Martian Combat's counter attack) and the turn comes back to the absent player.

README, "Clocks, reminders and timeouts": "their turn is played for them ... and when
MISSED_TURNS_LIMIT turns in a row have run out they are removed".  The forced turn stops at another
player's decision; when the turn comes back to the absent player and its clock runs out again, the
rest of the turn is played for them without counting another missed turn.
"""

from __future__ import annotations

from datetime import timedelta

from bot.session import open_session
from bot.session.service import Actor
from tests.bot.hand_clock import Clock

MINUTE = timedelta(minutes=1)

# A three-player Martian Combat (simple variant, seed "seed"): Red p1 (seat 0), Yellow p2 (seat 1),
# Blue p3 (seat 2).  Blue, Red and then Yellow play their first turns by hand; in turn 3 Yellow steps
# next to Blue with equal pips and attacks, and then goes away: from the combat roll on, Yellow lets
# the clock run out.
OPENING = [
    (3, "B1 f3-e4"),
    (3, "roll"),
    (1, "R3 d1-e2"),
    (1, "roll"),
    (2, "Y1 c6-d5"),
    (2, "d5xe4"),  # Yellow attacks Blue: the combat roll is Yellow's, and Yellow is gone from here
]


async def combat_where_yellow_attacks_then_leaves(db_url, limit):
    clock = Clock()
    session = await open_session(db_url, clock=clock, render=False, new_seed=lambda: "seed", missed_turns_limit=limit)
    people = {i: Actor(i, f"p{i}") for i in (1, 2, 3)}
    await session.games.new_game(
        guild_id=1,
        channel_id=5,
        game="combat",
        actor=people[1],
        max_players=3,
        clock_days=1,
        options={"variant": "simple"},
    )
    await session.games.join(5, people[2])
    await session.games.join(5, people[3])
    await session.games.start(5, people[1])
    for user, notation in OPENING:
        clock.now += 5 * MINUTE
        if notation == "roll":
            await session.games.roll(5, people[user])
        else:
            await session.games.move(5, people[user], notation)
    return session, clock, people


async def announced(session):
    items = await session.games.claim_deliveries()
    await session.games.delivered(*(item.id for item in items))
    return [line for item in items if item.report is not None for line in item.report.lines]


async def blue_counters(session, clock, people):
    """Blue, the defender, calls the counter attack and rolls its dice; the game as it then stands."""
    clock.now += 5 * MINUTE
    await session.games.move(5, people[3], "counter")
    clock.now += 5 * MINUTE
    await session.games.roll(5, people[3])
    await announced(session)
    return await session.games.live_game(5)


def yellow(game):
    return next(row for row in game.seats if row.seat == 1)


async def test_one_absent_combat_turn_counts_as_one_missed_turn(db_url):
    """README ("Clocks, reminders and timeouts"): in a larger game "their turn is played for them ...
    and when MISSED_TURNS_LIMIT turns in a row have run out they are removed"; docs/commands.md: the
    channel is told "bob ran out of time (missed turn 1 in a row; ...): the turn is played for them."

    Expected: Yellow, absent for the rest of one turn (turn 3), has missed one turn; their turn is
    played to its end for them."""
    session, clock, people = await combat_where_yellow_attacks_then_leaves(db_url, 3)
    await announced(session)
    game = await session.games.live_game(5)
    assert game.turn_seat == 1  # Yellow to roll the combat dice
    clock.now = game.deadline
    assert (await session.timekeeper.tick()).timeouts == 1
    first = await announced(session)
    assert any("missed turn 1 in a row" in line for line in first)
    game = await session.games.live_game(5)
    assert game.turn_seat == 2  # Blue, the defender, may call a counter attack: Blue is here and does
    turn = session.games.state_of(game).turn
    game = await blue_counters(session, clock, people)
    assert game.turn_seat == 1 and session.games.state_of(game).turn == turn  # still Yellow's turn 3
    clock.now = game.deadline
    assert (await session.timekeeper.tick()).timeouts == 1
    second = await announced(session)
    game = await session.games.latest_game(5)
    await session.close()
    # one turn of Yellow's ran out, not two
    assert yellow(game).missed_turns == 1, second
    assert not any("missed turn 2 in a row" in line for line in second), second
    assert any(
        line.startswith("p2 ran out of time again in this turn: the rest of it is played for them.") for line in second
    )


async def test_a_player_is_not_removed_after_a_single_absent_turn(db_url):
    """Same game with MISSED_TURNS_LIMIT=2.  README: removed "when MISSED_TURNS_LIMIT turns in a row
    have run out".  Expected: after one absent turn Yellow is still in the game (one turn missed)."""
    session, clock, people = await combat_where_yellow_attacks_then_leaves(db_url, 2)
    game = await session.games.live_game(5)
    clock.now = game.deadline
    await session.timekeeper.tick()
    game = await blue_counters(session, clock, people)
    assert game.turn_seat == 1
    clock.now = game.deadline
    await session.timekeeper.tick()
    lines = await announced(session)
    game = await session.games.latest_game(5)
    await session.close()
    assert not yellow(game).removed, lines


async def test_an_answer_asked_inside_another_players_turn_is_answered_by_the_clock_not_played_as_a_turn(db_url):
    """docs/commands.md: a player asked to decide inside another's turn (Combat's counter attack) who
    lets the clock run out is told that the clock answered for them; the turn is not theirs to be
    played for them.  It still counts as a missed turn in a row."""
    session, clock, _people = await combat_where_yellow_attacks_then_leaves(db_url, 3)
    game = await session.games.live_game(5)
    clock.now = game.deadline
    await session.timekeeper.tick()  # Yellow's combat dice are rolled for them; Blue is asked to counter
    await announced(session)
    game = await session.games.live_game(5)
    assert game.turn_seat == 2
    blue = game.name_at(2)
    clock.now = game.deadline
    assert (await session.timekeeper.tick()).timeouts == 1
    lines = await announced(session)
    game = await session.games.latest_game(5)
    await session.close()
    assert lines[0].startswith(
        f"{blue} did not answer in time (missed turn 1 in a row; at 3 a player is removed): the clock answers for them."
    ), lines
    assert lines[1].endswith("(by the clock)")
    assert not any("the turn is played for them" in line for line in lines)
    assert next(row for row in game.seats if row.seat == 2).missed_turns == 1
