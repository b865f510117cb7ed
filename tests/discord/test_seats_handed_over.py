"""A seat handed to a computer player: the moves before it stay its person's, a table is never left to
bots alone, and a practice player is not pointed to a hand-over nobody can agree to."""

from __future__ import annotations

import random

from tests.discord.helpers import accepted, button_labels, living_board
from tests.discord.test_bots import QUICK, acting


async def play_until_bob_has_moved(table, members):
    """Play random turns until bob has made a move and carol has moved after him."""
    rng = random.Random(3)
    _, bob, carol = members
    bob_moved = False
    for _ in range(60):
        member, kind, _ = acting(living_board(table.env, table.channel.id), members)
        if kind == "roll":
            await member.slash(table.channel, "hedgehog roll")
            continue
        choices = await member.autocomplete(table.channel, "hedgehog move", "notation", "")
        await member.slash(table.channel, "hedgehog move", notation=rng.choice(choices)["value"])
        bob_moved = bob_moved or member is bob
        if bob_moved and member is carol:
            return
    raise AssertionError("bob never moved")


async def test_history_keeps_the_moves_a_player_made_before_a_bot_took_over_their_seat(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    for m in (bob, carol):
        await m.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    await play_until_bob_has_moved(table, [alice, bob, carol])
    game = await simcord_env.bot.service.live_game(table.channel.id)
    bob_seat = game.seat_of(bob.id)
    _, log = await simcord_env.bot.service.history(table.channel.id)
    bobs = [row.ply for row in log if row.seat == bob_seat]
    assert bobs

    asked = await bob.slash(table.channel, "game bot", player=str(bob.id), level="easy")
    await alice.click(asked.response.message, label="Agree")
    await carol.click(asked.response.message, label="Agree")
    await simcord_env.bot.autoplay.wait()
    assert (await simcord_env.bot.service.live_game(table.channel.id)).bot_at(bob_seat) is not None

    history = await alice.slash(table.channel, "game history")
    listing = (await history.response.attachments[0].read()).decode().splitlines()
    for ply in bobs:  # bob made these moves himself, before the bot sat down
        line = next(text for text in listing if text.startswith(f"{ply + 1:>4}. "))
        assert " bob: " in line, line
    taken = (await simcord_env.bot.service.live_game(table.channel.id)).seats[bob_seat].taken_over_at
    assert f"Easy bot took over bob's seat from move {taken + 1}." in listing
    assert simcord_env.errors == []


async def test_resigning_instead_of_answering_a_seat_proposal_does_not_leave_bots_playing_alone(
    table, simcord_env, make_bot
):
    # alice, bob and an easy bot; bob asks for his seat to go to a bot, and alice, the only one who must
    # agree, resigns instead.  The bot then carries the proposal out: bob's seat goes to a bot, and no
    # person is left at a table that keeps running, which nobody can play or end.
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, bots=1, bot_level="easy")
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    asked = await bob.slash(table.channel, "game bot", player=str(bob.id), level="hard")
    assert f"<@{alice.id}>: do you agree?" in asked.response.content
    await alice.slash(table.channel, "game resign")
    await simcord_env.bot.autoplay.wait()
    await table.env.advance_time(2 * 3600)  # the clock loop wakes any bot to act
    await simcord_env.bot.autoplay.wait()
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    people = [row.display_name for row in game.seats if not row.is_bot and not row.removed]
    assert people == ["bob"] and game.status == "active"  # bob keeps his seat: bots alone do not play
    question = next(m for m in table.channel.history() if m.id == asked.response.message.id)
    assert button_labels(question) == [] and "lapsed" in question.content  # its buttons are gone
    assert simcord_env.errors == []


async def test_a_practice_player_timed_out_is_not_told_to_hand_the_seat_to_a_bot(table, simcord_env, make_bot):
    # alice alone against two bots, with a clock: when her turn runs out, the board must not suggest
    # /game bot, which refuses her seat ("A table of only computer players does not play")
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, bots=2, bot_level="easy", clock=1)
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    await table.env.advance_time(25 * 3600)
    await simcord_env.bot.autoplay.wait()
    said = "\n".join(e.description or "" for m in table.channel.history() for e in m.embeds)
    assert "ran out of time (missed turn 1 in a row; at 3 a player is removed)" in said
    refused = await alice.slash(table.channel, "game bot", player=str(alice.id))
    assert refused.ephemeral and "only computer players" in refused.response.content
    assert "/game bot" not in said, said
    assert simcord_env.errors == []


async def _four_player_hedgehog(table):
    alice, bob, carol, dave = table.members[:4]
    opened = await alice.slash(table.channel, "hedgehog new", players=4)
    for member in (bob, carol, dave):
        await member.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    return alice, bob, carol, dave


async def test_a_voter_who_left_the_server_does_not_hold_up_handing_over_a_gone_players_seat(
    table, simcord_env, make_bot
):
    """Two of four players leave the server (a game without a clock): the two still here agree to hand one
    of the gone seats to a bot; the other gone player, who can never press Agree, is neither called nor
    waited for."""
    await simcord_env.restart_bot(make_bot(ai_workers=0, ai_max_iterations=20))
    alice, bob, carol, dave = await _four_player_hedgehog(table)
    table.guild.remove_member(carol)
    table.guild.remove_member(dave)
    await simcord_env.settle()
    asked = await alice.slash(table.channel, "game bot", player=str(dave.id), level="easy")
    assert accepted(asked)
    question = asked.response.message
    asked_of = question.content
    await bob.click(question, label="Agree")
    await simcord_env.bot.autoplay.wait()
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and game.seat_of(dave.id) is None  # handed over
    assert f"<@{carol.id}>" not in asked_of  # carol has left the server: she is not called to vote
