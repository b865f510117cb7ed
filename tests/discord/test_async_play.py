"""Asynchronous play over days: clocks, reminders, timeouts, vacation, undo, history, replay, threads.

Time is SimCord's virtual clock (``advance_time``) or a bot started with its clock ahead; nothing sleeps.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import simcord

from cogs.text import whole_items
from renderers.replay import frame_count
from tests.discord.helpers import (
    accepted,
    close_dms,
    embed_of,
    field,
    living_board,
    next_actor,
    notation,
    refusal,
    showing,
)

HOUR = 3600


def texts(channel) -> list[str]:
    return [m.content for m in channel.history()]


async def start_game(table, players: int = 2, clock: int = 1, **options):
    members = table.members[:players]
    await members[0].slash(table.channel, "hedgehog new", players=players, clock=clock, **options)
    for member in members[1:]:
        await member.slash(table.channel, "hedgehog join")
    started = await members[0].slash(table.channel, "hedgehog start")
    return started, members


async def finish_turn(actor: simcord.MemberActor, table: Any, real_move: bool = False) -> Any:
    """Roll, optionally make one real move, then pass unless the turn already ended by itself."""
    result: Any = await actor.slash(table.channel, "hedgehog roll")
    if real_move and next_actor(result, table.members)[0] is actor:
        choices = [notation(c) for c in await actor.autocomplete(table.channel, "hedgehog move", "notation", "")]
        real = [c for c in choices if c != "pass"]
        if real:
            result = await actor.slash(table.channel, "hedgehog move", notation=real[0])
    if next_actor(result, table.members)[0] is actor:
        result = await actor.slash(table.channel, "hedgehog move", notation="pass")
    assert accepted(result), result.response.content
    return result


async def test_the_turn_starts_with_one_mention_and_reminders_come_once_at_half_and_80_percent(table):
    started, _ = await start_game(table)
    first, _ = next_actor(started, table.members)
    assert started.response.content == f"{first.mention}, your turn."
    assert field(embed_of(started), "Deadline")
    dms = first.user.dm_channel
    await table.env.advance_time(11 * HOUR)
    assert dms.history() == []
    await table.env.advance_time(2 * HOUR)  # past half of the day
    assert len(dms.history()) == 1 and dms.history()[0].content.startswith("Reminder: it is your turn")
    await table.env.advance_time(2 * HOUR)
    assert len(dms.history()) == 1  # no flood
    await table.env.advance_time(5 * HOUR)  # past 80 %
    assert len(dms.history()) == 2
    await finish_turn(first, table)
    await table.env.advance_time(3 * HOUR)
    assert len(dms.history()) == 2  # none after they have moved


async def test_closed_dms_fall_back_to_a_channel_mention_and_off_means_off(table):
    started, members = await start_game(table)
    first, _ = next_actor(started, table.members)
    close_dms(table.env, first)
    await table.env.advance_time(13 * HOUR)
    reminders = [t for t in texts(table.channel) if "Reminder: it is your turn" in t]
    assert reminders == [f"{first.mention} " + reminders[0].split(" ", 1)[1]]
    other = next(m for m in members if m is not first)
    result = await other.slash(table.channel, "game notify", mode="off")
    assert refusal(result) == "Reminders: off."
    await finish_turn(first, table)
    await table.env.advance_time(23 * HOUR)
    assert len([t for t in texts(table.channel) if "Reminder" in t]) == 1


async def test_a_two_player_game_is_lost_on_time(table):
    started, members = await start_game(table)
    first, _ = next_actor(started, table.members)
    other = next(m for m in members if m is not first)
    await table.env.advance_time(25 * HOUR)
    last = table.channel.last_message
    assert "ran out of time and loses on time" in last.embeds[0].description
    result = field(last.embeds[0], "Result")
    assert result.startswith(f"**{other.name} wins!**")
    late = await first.slash(table.channel, "hedgehog roll")
    assert refusal(late) == "There is no game running in this channel: open one with /hedgehog new."


async def test_in_a_four_player_game_an_absent_player_is_skipped_then_removed_and_ranked_last(table, make_bot):
    await table.env.restart_bot(make_bot(missed_turns_limit=2))
    started, members = await start_game(table, players=4)
    absent, _ = next_actor(started, table.members)
    await table.env.advance_time(25 * HOUR)
    skipped = table.channel.last_message
    assert "ran out of time (missed turn 1 in a row; at 2 a player is removed)" in skipped.embeds[0].description
    assert "hand the seat to a computer player: /game bot" in skipped.embeds[0].description
    assert "(by the clock)" in skipped.embeds[0].description
    for _ in range(3):  # the other three play their turns
        actor, _ = next_actor_from_message(table.channel.last_message, members)
        assert actor is not absent
        await finish_turn(actor, table, real_move=True)
    actor, _ = next_actor_from_message(table.channel.last_message, members)
    assert actor is absent
    await table.env.advance_time(25 * HOUR)
    removed = table.channel.last_message.embeds[0].description
    assert "missed 2 turns and is removed from the game" in removed
    blocked = await absent.slash(table.channel, "hedgehog roll")
    assert refusal(blocked) == "You have left this game."


def thread_members(env, thread) -> list[int]:
    """The user ids the simulated Discord has in ``thread``."""
    return list(env.backend.get_channel(thread.id).thread_members)


def next_actor_from_message(message, members):
    class Wrapped:
        def __init__(self, msg):
            self.response = msg

    return next_actor(Wrapped(message), members)


async def test_a_deadline_that_passed_while_the_bot_was_offline_is_acted_on_once(table, make_bot):
    started, _members = await start_game(table)
    _first, _ = next_actor(started, table.members)
    await table.env.restart_bot(make_bot(offset=timedelta(days=2)))  # back after two days away
    lost = [m for m in table.channel.history() if m.embeds and "ran out of time" in (m.embeds[0].description or "")]
    assert len(lost) == 1
    await table.env.restart_bot(make_bot(offset=timedelta(days=3)))
    again = [m for m in table.channel.history() if m.embeds and "ran out of time" in (m.embeds[0].description or "")]
    assert len(again) == 1


async def test_vacation_pauses_the_clock_within_a_yearly_allowance(table):
    started, _members = await start_game(table)
    first, _ = next_actor(started, table.members)
    result = await first.slash(table.channel, "game vacation", days=3)
    assert "is on vacation for 3 days" in result.response.content and "11 vacation days left" in result.response.content
    await table.env.advance_time(60 * HOUR)  # 2.5 days: without the vacation this was a loss on time
    assert not any("ran out of time" in (m.embeds[0].description or "") for m in table.channel.history() if m.embeds)
    too_long = await first.slash(table.channel, "game vacation", days=12)
    assert refusal(too_long) == "You have 11 vacation days left this year."
    await table.env.advance_time(40 * HOUR)  # now past 1 + 3 days
    assert any("ran out of time" in (m.embeds[0].description or "") for m in table.channel.history() if m.embeds)


async def test_vacation_is_answered_first_even_where_the_bot_may_not_post(table):
    from tests.discord.test_permissions import deny_bot

    alice, bob = table.members[:2]
    quiet = table.guild.create_text_channel("quiet")
    other = table.guild.create_text_channel("games-2")
    for channel in (quiet, other):
        await alice.slash(channel, "hedgehog new", players=2, clock=1)
        await bob.slash(channel, "hedgehog join")
        await alice.slash(channel, "hedgehog start")
    deny_bot(table, quiet, send_messages=True)  # taken away mid-game: #quiet runs on replies to its players alone
    result = await alice.slash(table.channel, "game vacation", days=3)
    assert result.response.content == (
        "alice is on vacation for 3 days; their clocks in 2 games are paused. 11 vacation days left this year."
    )
    (note,) = [m for m in other.history() if "on vacation" in m.content]
    assert note.content == "alice is on vacation for 3 days; their clock is paused."
    assert note.id > result.response.id  # the player's answer came first
    again = await alice.slash(table.channel, "game vacation", days=12)
    assert refusal(again) == "You have 11 vacation days left this year."  # the days were spent once


async def test_undo_by_consent_refused_then_accepted_and_the_dice_stay_the_same(table):
    started, members = await start_game(table, clock=0)
    first, _ = next_actor(started, table.members)
    other = next(m for m in members if m is not first)
    stranger = table.members[4]
    rolled = await first.slash(table.channel, "hedgehog roll")
    roll_line = embed_of(rolled).description
    await first.slash(table.channel, "hedgehog move", notation="pass")
    asked = await first.slash(table.channel, "game undo")
    assert f"{first.mention} asks to take back **pass**" in asked.response.content
    assert refusal(await stranger.click(asked.response.message, label="Accept undo")).startswith("Only players")
    refused = await other.click(asked.response.message, label="Refuse undo")
    assert "refused the undo" in refused.response.content
    closed = table.env.backend.messages[table.channel.id][asked.response.message.id]
    assert closed.content.endswith("refused the undo; the game goes on.") and not closed.components
    asked = await first.slash(table.channel, "game undo")
    accepted = await other.click(asked.response.message, label="Accept undo")
    assert 'By agreement, the move "pass" is taken back.' in embed_of(accepted).description
    actor, kind = next_actor(accepted, table.members)
    assert actor is first and kind == "move"  # the roll stands: no re-roll by undoing
    history = await other.slash(table.channel, "game history")
    assert embed_of(history).footer.text.startswith("1 move ")
    assert roll_line.split(".")[0] in embed_of(history).description or "roll" in embed_of(history).description


async def test_history_and_an_animated_replay_with_one_frame_per_ply_plus_one(table):
    started, _members = await start_game(table, players=3, clock=0)
    rng = random.Random(5)
    result = started
    plies = 0
    while plies < 64 and next_actor(result, table.members)[0] is not None:
        actor, kind = next_actor(result, table.members)
        if kind == "roll":
            result = await actor.slash(table.channel, "hedgehog roll")
        else:
            choices = [notation(c) for c in await actor.autocomplete(table.channel, "hedgehog move", "notation", "")]
            moves = [c for c in choices if c != "pass"] or choices
            result = await actor.slash(table.channel, "hedgehog move", notation=rng.choice(moves))
        plies += 1
    assert plies == 64
    spectator = table.members[4]
    history = await spectator.slash(table.channel, "game history")
    assert history.response.attachments[0].filename.endswith(".txt")
    assert embed_of(history).footer.text.startswith("64 moves")
    listing = (await history.response.attachments[0].read()).decode()
    game = await table.env.bot.service.live_game(table.channel.id)
    # the seed would tell every roll to come: kept back while the game runs
    assert "Seed: told when the game is over" in listing and game.seed not in listing
    replay = await spectator.slash(table.channel, "game replay")
    posted = [replay.response, *replay.followups]
    assert any(m.content == "Replay ready: 65 frames." for m in posted)  # the progress message of a long game
    gif = next(a for message in posted for a in message.attachments if a.filename.endswith(".gif"))
    assert gif.size < 8 * 1024 * 1024
    assert frame_count(await gif.read()) == 64 + 1


async def test_a_game_in_its_own_thread_with_its_players_kept_open(table):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2, thread=True)
    threads = table.channel.threads
    assert len(threads) == 1
    thread = threads[0]
    assert thread.mention in opened.response.content
    joined = await bob.click(opened.response.message, label="Join")
    assert thread.mention in joined.response.content
    started = await alice.slash(thread, "hedgehog start")
    assert accepted(started) and field(embed_of(started), "To roll")
    assert {m.id for m in (alice, bob)} <= set(thread_members(table.env, thread))
    # Discord archives a quiet thread; the bot reopens it while the game runs
    table.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    table.env.backend.announce_channel_update(thread.id)
    await table.env.settle()
    assert table.env.backend.get_channel(thread.id).thread_metadata.archived is False


async def test_the_lobby_in_a_games_thread_follows_every_join_and_is_retired_at_the_start(table):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, thread=True)
    thread = table.channel.threads[0]
    lobby = thread.history()[0]

    def lobby_now() -> Any:
        return next(m for m in thread.history() if m.id == lobby.id)

    await bob.click(opened.response.message, label="Join")  # from the notice in the parent channel
    assert field(lobby_now().embeds[0], "Players") == "1. alice, 2. bob (2/3)"
    await carol.click(lobby, label="Join")  # from the lobby in the thread: the same message, edited
    lobbies = [m for m in thread.history() if m.embeds and "new game" in (m.embeds[0].title or "")]
    assert [m.id for m in lobbies] == [lobby.id]
    assert field(lobby_now().embeds[0], "Players") == "1. alice, 2. bob, 3. carol (3/3)"
    started = await alice.slash(thread, "hedgehog start")
    assert accepted(started)
    retired = table.env.backend.messages[thread.id][lobby.id]
    controls = [c for row in retired.components for c in row["components"]]
    assert controls and all(c.get("disabled") for c in controls)  # no Join or Start left to press


async def test_a_refused_game_leaves_no_thread_behind(table):
    alice = table.members[0]
    refused = await alice.slash(table.channel, "hedgehog new", players=6, thread=True)
    assert refusal(refused) == "More than 5 players need the xeno option (the Xeno set adds five colours)."
    assert table.channel.threads == []


async def test_a_thread_discord_refuses_is_answered_in_one_sentence_and_opens_nothing(table):
    alice = table.members[0]
    table.env.inject_error(
        "POST", f"/channels/{table.channel.id}/threads", status=403, code=50013, message="Missing Permissions"
    )
    refused = await alice.slash(table.channel, "hedgehog new", players=2, thread=True)
    assert refusal(refused) == (
        "I may not create threads in this channel: open the game here without thread, "
        "or ask a server manager to let me create public threads."
    )
    assert table.channel.threads == [] and await table.env.bot.service.live_game(table.channel.id) is None
    table.env.inject_error("PUT", "/channels/*/thread-members/*", status=403, code=50013, message="Missing Permissions")
    opened = await alice.slash(table.channel, "hedgehog new", players=2, thread=True)
    thread = table.channel.threads[0]
    assert thread.mention in opened.response.content  # the game opens: its link lets the creator in
    assert await table.env.bot.service.live_game(thread.id) is not None


async def test_my_games_lists_where_it_is_my_turn_first_with_links(table):
    alice, bob, _carol = table.members[:3]
    first_channel = table.channel
    second_channel = table.guild.create_text_channel("games-2")
    opened = await alice.slash(first_channel, "hedgehog new", players=2, clock=3)
    await bob.click(opened.response.message, label="Join")
    started = await alice.slash(first_channel, "hedgehog start")
    await bob.slash(second_channel, "hedgehog new", players=2, clock=1)
    await alice.slash(second_channel, "hedgehog join")
    await bob.slash(second_channel, "hedgehog start")
    mine = await alice.slash(first_channel, "game mine")
    assert mine.ephemeral
    lines = embed_of(mine).description.splitlines()
    assert len(lines) == 2 and all("<#" in line for line in lines)
    first_to_move, _ = next_actor(started, table.members)
    if first_to_move is alice:
        assert "your turn" in lines[0]


async def test_my_games_in_direct_messages_lists_every_server_by_name(table):
    alice, bob = table.members[:2]
    other = table.env.create_guild("Second *Club*")
    other_channel = other.create_text_channel("tables")
    alice_there, bob_there = other.add_member(alice.user), other.add_member(bob.user)
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog start")
    await bob_there.slash(other_channel, "hedgehog new", players=3)
    await alice_there.slash(other_channel, "hedgehog join")
    here = await alice.slash(table.channel, "game mine")
    assert len(embed_of(here).description.splitlines()) == 1  # in a server: that server's games only
    mine = await alice.user.slash("game mine")
    assert embed_of(mine).title == "Your games in every server"
    lines = embed_of(mine).description.splitlines()
    assert len(lines) == 2
    assert f"<#{table.channel.id}> (Pyramid Club) Der Marsigelwettkampf" in lines[0]
    assert lines[1] == f"<#{other_channel.id}> (Second \\*Club\\*) Der Marsigelwettkampf: waiting for players"
    assert (await table.members[2].user.slash("game mine")).response.content == "You are not in any game."


def deadline_of(result) -> int:
    """The Unix time in the reply's Deadline field (<t:...:R>)."""

    deadline = field(embed_of(result), "Deadline")
    assert deadline is not None
    found = re.search(r"<t:(\d+):R>", deadline)
    assert found is not None, deadline
    return int(found.group(1))


async def test_a_time_bank_absorbs_a_slow_move_and_shrinks(table):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2, clock=1, bank=2)
    assert field(embed_of(opened), "Clock") == "1 day per move + a 2-day time bank"
    await bob.slash(table.channel, "hedgehog join")
    started = await alice.slash(table.channel, "hedgehog start")
    first, _ = next_actor(started, table.members)
    second = bob if first is alice else alice
    begun = table.env.now().timestamp()
    assert deadline_of(started) == int(begun + 3 * 86_400)  # the day plus the whole bank
    await table.env.advance_time(50 * HOUR)  # past the day: only the bank keeps the game alive
    assert not any("ran out of time" in (m.embeds[0].description or "") for m in table.channel.history() if m.embeds)
    await finish_turn(first, table, real_move=True)
    result = await finish_turn(second, table, real_move=True)
    assert next_actor(result, table.members)[0] is first
    # 26 hours of overtime came out of the two-day bank: 22 hours are left on top of the day
    assert deadline_of(result) == int(table.env.now().timestamp() + 86_400 + 22 * 3600)


async def test_a_bank_without_a_clock_is_refused(table):
    result = await table.members[0].slash(table.channel, "hedgehog new", players=2, bank=3)
    assert refusal(result) == "A time bank needs a move clock: choose a clock too."


async def test_a_partial_acceptance_of_an_undo_updates_the_one_question(table):
    started, members = await start_game(table, players=3, clock=0)
    first, _ = next_actor(started, table.members)
    await finish_turn(first, table)
    asked = await first.slash(table.channel, "game undo")
    question = asked.response.message
    second, third = (m for m in members if m is not first)
    accepted = await second.click(question, label="Accept undo")  # one of two: the question says so
    updated = table.env.backend.messages[table.channel.id][question.id]
    assert updated.content.endswith(f"{second.name} accepts; still waiting for {third.mention}.")
    assert updated.components and accepted.response.message.id == question.id  # edited, not posted again
    assert [m.id for m in table.channel.history() if "do you agree?" in (m.content or "")] == [question.id]
    done = await third.click(question, label="Accept undo")
    assert "is taken back" in embed_of(done).description
    closed = table.env.backend.messages[table.channel.id][question.id]
    assert "is taken back" in closed.content and not closed.components  # no live button left on it


async def test_an_undo_question_that_lapses_loses_its_buttons_even_across_a_restart(table, make_bot):
    started, members = await start_game(table, players=3, clock=0)
    first, _ = next_actor(started, table.members)
    passed = await finish_turn(first, table)
    asked = await first.slash(table.channel, "game undo")
    question = asked.response.message
    await table.env.restart_bot(make_bot())
    second, _ = next_actor(passed, table.members)
    await finish_turn(second, table)  # a person's move: the request lapses
    closed = table.env.backend.messages[table.channel.id][question.id]
    assert closed.content.endswith("\nThis request lapsed: the game has moved on.") and not closed.components
    assert closed.content.count("lapsed") == 1
    # a request still standing keeps its buttons until the game ends without it
    asked = await second.slash(table.channel, "game undo")
    assert "do you agree?" in asked.response.content
    open_now = table.env.backend.messages[table.channel.id][asked.response.message.id]
    assert open_now.components
    await members[0].slash(table.channel, "game abort")
    closed = table.env.backend.messages[table.channel.id][asked.response.message.id]
    assert closed.content.endswith("\nThis request lapsed: the game has moved on.") and not closed.components


async def test_a_seat_proposal_waiting_only_for_a_player_removed_on_time_is_carried_out(table, make_bot):
    await table.env.restart_bot(make_bot(missed_turns_limit=1))
    started, members = await start_game(table, players=4)
    absent, _ = next_actor(started, table.members)
    asker, *others = [m for m in members if m is not absent]
    asked = await asker.slash(table.channel, "game bot", player=str(asker.id), level="easy")
    for member in others:
        agreed = await member.click(asked.response.message, label="Agree")
    assert f"still waiting for <@{absent.id}>" in agreed.response.content
    await table.env.advance_time(25 * HOUR)  # the absent player is removed on time, never having answered
    game = await table.env.bot.service.live_game(table.channel.id)
    assert game is not None and all(row.removed for row in game.seats if row.user_id == absent.id)
    assert game.seat_of(asker.id) is None and game.has_bots  # the seat went to the bot everyone agreed to
    descriptions = " ".join(m.embeds[0].description or "" for m in table.channel.history() if m.embeds)
    assert f"Easy bot takes over {asker.name}'s seat" in descriptions, descriptions


async def test_a_proposal_to_hand_over_an_absent_players_seat_calls_them_so_they_may_refuse(table):
    """docs/commands.md, /game bot: "the player coming back and pressing Refuse" withdraws it: the player
    whose clock ran out is called with the proposal, not only the players who must agree."""
    started, members = await start_game(table, players=3, clock=1)
    absent, _ = next_actor(started, members)
    asker = next(m for m in members if m is not absent)
    await table.env.advance_time(25 * HOUR)  # the absent player's turn runs out
    asked = await asker.slash(table.channel, "game bot", player=str(absent.id), level="hard")
    assert asked.response is not None
    said = asked.response.content
    assert "has missed a turn" in said and said.endswith(f"<@{absent.id}>: press Refuse to keep your seat.")
    refused = await absent.click(asked.response.message, label="Refuse")
    assert refused.response is not None and "is back and keeps the seat" in refused.response.content


async def test_the_history_file_names_the_clock_and_the_bank(table):
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2, clock=3, bank=2)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog start")
    history = await bob.slash(table.channel, "game history")
    listing = (await history.response.attachments[0].read()).decode()
    assert "\nClock: 3 days per move + a 2-day time bank\n" in listing, listing


async def test_a_reminder_left_unsent_by_a_stop_is_dropped_once_the_player_has_moved(table, monkeypatch):
    started, _ = await start_game(table)
    first, _ = next_actor(started, table.members)
    bot = table.env.bot
    announcer = bot.get_cog("Announcer")
    monkeypatch.setattr(announcer, "flush", _nothing)  # the bot stops right after the check wrote it
    await table.env.advance_time(13 * HOUR)  # past half of the day: the reminder is written
    monkeypatch.undo()
    await finish_turn(first, table)  # the player moves before it went out
    await table.env.advance_time(HOUR)  # the next check delivers what was left
    dms = first.user.dm_channel
    assert dms is None or not [m for m in dms.history() if m.content.startswith("Reminder:")]
    assert await bot.service.claim_deliveries() == []  # settled, not left to try again


async def _nothing() -> int:
    return 0


async def test_reminders_wait_for_the_end_of_a_vacation_and_come_in_the_time_left(table):
    started, _ = await start_game(table)  # a one-day clock
    first, _ = next_actor(started, table.members)
    await first.slash(table.channel, "game vacation", days=7)
    await table.env.advance_time(7 * 24 * HOUR - 60)  # the whole vacation: a paused clock does not remind
    dms = first.user.dm_channel
    assert dms is None or dms.history() == []
    await table.env.advance_time(13 * HOUR)  # back, and past half of the day left
    (reminder,) = first.user.dm_channel.history()
    assert reminder.content.startswith("Reminder: it is your turn") and reminder.content.endswith(
        "Time left: 12 hours."
    )


async def test_notify_and_vacation_are_set_in_a_server_not_in_direct_messages(table):
    first = table.members[0]
    notify = await first.user.slash("game notify", mode="off")
    assert refusal(notify) == "Use /game notify in the server you play in: each server keeps its own setting."
    away = await first.user.slash("game vacation", days=5)
    assert refusal(away) == "Use /game vacation in the server you play in: each server keeps its own days."


async def test_a_vacation_tells_only_tables_whose_clock_it_pauses(table):
    alice, bob = table.members[:2]
    unclocked = table.guild.create_text_channel("no-clock")
    await alice.slash(unclocked, "hedgehog new", players=2)
    await bob.slash(unclocked, "hedgehog join")
    await alice.slash(unclocked, "hedgehog start")
    lobby = table.guild.create_text_channel("lobby")
    await alice.slash(lobby, "hedgehog new", players=3, clock=1)  # nothing runs yet
    result = await alice.slash(table.channel, "game vacation", days=3)
    assert result.response.content == (
        "alice is on vacation for 3 days; none of their games has a clock running now, and a clock that starts "
        "meanwhile waits for them. 11 vacation days left this year."
    )
    assert not [m for ch in (unclocked, lobby) for m in ch.history() if "on vacation" in (m.content or "")]


async def test_while_a_rematch_lobby_is_open_history_shows_the_game_just_played(table):
    _started, (alice, bob) = await start_game(table, clock=0)
    ended = await alice.slash(table.channel, "game resign")
    await bob.click(ended.response.message, label="Rematch")
    history = await alice.slash(table.channel, "game history")
    listing = (await history.response.attachments[0].read()).decode()
    assert listing.startswith("Der Marsigelwettkampf — game #1\n") and "alice resigns." in listing, listing
    assert "\nResult: " in listing


async def test_a_creator_who_resigned_cannot_abort_the_game_the_others_play_on(table):
    _started, members = await start_game(table, players=3, clock=0)
    creator = members[0]
    await creator.slash(table.channel, "game resign")
    refused = await creator.slash(table.channel, "game abort")
    assert refusal(refused) == "You have left this game: the others play on, and only a server manager can abort it."
    game = await table.env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "active"


async def test_a_creator_who_left_the_lobby_cannot_abort_it_for_those_still_in_it(table):
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=3)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog leave")
    refused = await alice.slash(table.channel, "game abort")
    assert refusal(refused) == (
        "You have left this lobby: the others may start it, and only a server manager can abort it."
    )
    game = await table.env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "open" and [s.display_name for s in game.seats] == ["bob"]


async def test_a_vacation_taken_on_ones_turn_moves_the_deadline_on_the_living_board(table):
    started, _ = await start_game(table)  # a one-day clock
    first, _ = next_actor(started, table.members)
    before = field(embed_of(started), "Deadline")
    await first.slash(table.channel, "game vacation", days=2)
    board = living_board(table.env, table.channel.id)
    game = await table.env.bot.service.live_game(table.channel.id)
    after = field(board.embeds[0], "Deadline")
    assert after != before and str(int(game.deadline.timestamp())) in after, (before, after)
    assert board.content == started.response.content  # still calls the player whose turn it is


async def test_another_games_commands_are_refused_where_a_game_is_played(table):
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "combat new", players=2)
    joined = await bob.slash(table.channel, "whist join")
    assert refusal(joined) == "This channel is playing Martian Combat: use /combat."
    game = await table.env.bot.service.live_game(table.channel.id)
    assert game.game == "combat" and [s.display_name for s in game.seats] == ["alice"]
    await bob.slash(table.channel, "combat join")
    await alice.slash(table.channel, "combat start")
    assert await alice.autocomplete(table.channel, "whist move", "notation", "") == []
    game = await table.env.bot.service.live_game(table.channel.id)
    first = next(m for m in (alice, bob) if game.user_at(game.turn_seat) == m.id)
    rolled = await first.slash(table.channel, "hedgehog roll")
    assert refusal(rolled) == "This channel is playing Martian Combat: use /combat."
    assert (await table.env.bot.service.live_game(table.channel.id)).ply == game.ply


def test_my_games_keeps_whole_lines_and_says_how_many_more():
    lines = [f"<#{i}> Der Marsigelwettkampf: **your turn**" for i in range(200)]
    shown = whole_items(lines, 3900).splitlines()
    assert len("\n".join(shown)) <= 3900 and shown[-1] == f"…and {200 - (len(shown) - 1)} more"
    assert shown[:-1] == lines[: len(shown) - 1]
    assert whole_items(lines[:3], 3900) == "\n".join(lines[:3])


async def test_status_after_an_aborted_lobby_says_there_is_no_game_instead_of_showing_it(table):
    alice = table.members[0]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await alice.slash(table.channel, "game abort")
    status = await alice.slash(table.channel, "game status")
    assert refusal(status) == (
        "There is no game in this channel yet: open one with a game's new command, such as /hedgehog new."
    )


async def test_rematch_never_seats_the_presser_in_a_different_game_opened_by_someone_else(table, simcord_env):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    await alice.slash(table.channel, "hedgehog start")
    board = showing(await alice.slash(table.channel, "game resign"))
    await carol.slash(table.channel, "hedgehog new", players=5, xeno=True)
    pressed = await alice.click(board, label="Rematch")
    assert refusal(pressed) == "This channel already has a game; finish or abort it first, or use another channel."
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert [row.display_name for row in game.seats] == ["carol"]


async def test_joining_a_thread_game_from_its_channel_when_discord_will_not_add_the_player(table, simcord_env):
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, thread=True)
    table.env.inject_error("PUT", "/channels/*/thread-members/*", status=403, code=50013, message="Missing Permissions")
    joined = await bob.click(opened.response.message, label="Join")
    thread = table.channel.threads[0]
    assert joined.response.content == f"bob joins (2/3). The game is in <#{thread.id}>."  # its link lets bob in
    game = await simcord_env.bot.service.live_game(thread.id)
    assert [row.display_name for row in game.seats] == ["alice", "bob"]
    lobby = table.env.backend.messages[thread.id][thread.history()[-1].id]
    assert next(f["value"] for f in lobby.embeds[0]["fields"] if f["name"] == "Players").startswith("1. alice, 2. bob")
    assert simcord_env.errors == []


async def test_a_vacation_with_one_clocked_game_speaks_of_one_clock(table):
    """A player has one clock per game: with one game it reads "their clock in 1 game is paused"."""
    started, _ = await start_game(table, clock=1)
    first, _ = next_actor(started, table.members)
    result = await first.slash(table.channel, "game vacation", days=2)
    assert "; their clock in 1 game is paused. " in result.response.content, result.response.content


async def test_an_undo_asks_to_take_back_the_last_move_a_person_made_not_the_clocks(table):
    """docs/commands.md, /game undo: "ask to take back the last move a person made". The clock's move for
    an absent player is not one: it goes back with the move before it, as a computer player's does."""
    started, members = await start_game(table, players=3, clock=1)
    first, _ = next_actor(started, members)
    assert first is not None
    await finish_turn(first, table, real_move=True)
    await table.env.advance_time(25 * HOUR)  # the next player's time runs out: the clock passes for them
    game, log = await table.env.bot.service.history(table.channel.id)
    assert log[-1].description.endswith("(by the clock)")
    mine = [row for row in log if row.seat == game.seat_of(first.id) and row.kind == "move"]
    asked = await first.slash(table.channel, "game undo")
    assert asked.response is not None and f"**{mine[-1].notation}**" in asked.response.content
    assert "**pass**" not in asked.response.content


async def test_a_player_removed_at_a_missed_turns_limit_of_one_missed_one_turn(table, make_bot):
    """README: MISSED_TURNS_LIMIT may be 1; the removal reads "missed 1 turn", not "1 turns"."""
    await table.env.restart_bot(make_bot(missed_turns_limit=1))
    await start_game(table, players=3, clock=1)
    await table.env.advance_time(25 * HOUR)
    said = table.channel.last_message.embeds[0].description or ""
    assert "ran out of time and missed 1 turn and is removed from the game." in said


async def test_an_undo_request_stored_but_never_asked_can_be_asked_again_after_a_restart(table, make_bot, monkeypatch):
    """The bot stopped between storing an undo request and posting its question (with the buttons): a
    minute on, asking again posts the question, instead of being refused for a request nobody can see."""
    import cogs.questions

    started, members = await start_game(table, clock=0)
    first, _ = next_actor(started, table.members)
    other = next(m for m in members if m is not first)
    await finish_turn(first, table)

    def dies(*_args, **_kwargs):
        raise RuntimeError("the process stops between storing the request and posting its question")

    monkeypatch.setattr(cogs.questions, "ask", dies)
    await first.slash(table.channel, "game undo")  # stored; its question (with the buttons) never posted
    monkeypatch.undo()
    await table.env.restart_bot(make_bot())
    assert not [m for m in table.channel.history() if "do you agree?" in (m.content or "")]  # nothing to press
    await table.env.advance_time(120)  # a question is posted within a minute of its request, or never

    again = await first.slash(table.channel, "game undo")
    theirs = await other.slash(table.channel, "game undo")
    answers = [again.response.content, theirs.response.content]
    asked = [m for m in table.channel.history() if "do you agree?" in (m.content or "") and m.components]
    assert len(asked) == 1 and "An undo request is already waiting for answers." in answers


async def test_a_seat_proposal_stored_but_never_asked_can_be_asked_again_after_a_restart(table, make_bot, monkeypatch):
    """The same for a proposal to hand a seat to a computer player, which play alone would never let lapse."""
    import cogs.questions

    started, members = await start_game(table, players=3, clock=0)
    asker = members[0]

    def dies(*_args, **_kwargs):
        raise RuntimeError("the process stops between storing the proposal and posting its question")

    monkeypatch.setattr(cogs.questions, "ask", dies)
    await asker.slash(table.channel, "game bot", player=str(asker.id), level="easy")
    monkeypatch.undo()
    await table.env.restart_bot(make_bot())
    assert not [m for m in table.channel.history() if m.components and "Agree" in str(m.components)]
    await table.env.advance_time(120)

    first, _ = next_actor(started, table.members)
    await finish_turn(first, table)  # the game goes on: the unseen proposal does not lapse
    again = await asker.slash(table.channel, "game bot", player=str(asker.id), level="easy")
    asked = [m for m in table.channel.history() if m.components and "Agree" in str(m.components)]
    assert asked, again.response.content
