"""Where a server admin left the bot short of permissions: the player or organiser is told in one
sentence what to grant, nothing is half opened, and what cannot be posted is not retried for ever."""

from __future__ import annotations

import contextlib
import logging

import discord
from simcord.backend.models.channel import Overwrite
from simcord.builders import ChannelHandle
from simcord.enums import OverwriteType

from tests.discord.helpers import accepted, close_dms, next_actor, refusal

HOUR = 3600


def deny_bot(table, channel, **perms) -> None:
    """Deny the bot ``perms`` in ``channel`` from now on (an admin editing the channel's overwrites)."""
    deny = discord.PermissionOverwrite(**{name: False for name in perms}).pair()[1]
    table.env.backend.set_overwrite(
        channel.id, Overwrite(target_id=table.guild.me.id, type=OverwriteType.MEMBER, deny=deny.value)
    )


def errors_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def take_errors(env) -> list[BaseException]:
    """The errors the bot raised (acknowledged, so the test reports its own assertion instead)."""
    errors = list(env.errors)
    with contextlib.suppress(BaseException):
        env.raise_errors()
    return errors


async def start_hedgehog(table, channel, clock: int = 1, players: int = 2):
    members = table.members[:players]
    await members[0].slash(channel, "hedgehog new", players=players, clock=clock)
    for member in members[1:]:
        await member.slash(channel, "hedgehog join")
    return await members[0].slash(channel, "hedgehog start")


# A thread game where the bot may create public threads but not send messages in threads.


async def test_thread_game_without_send_messages_in_threads_is_refused_in_one_sentence(table, caplog):
    """One private sentence naming the missing permission (send messages in threads), no game
    left open and no empty thread left behind (as for a refused create_thread, cogs/lobby.py:_open_thread).
    """
    alice = table.members[0]
    deny_bot(table, table.channel, send_messages_in_threads=True)
    with caplog.at_level(logging.INFO):
        result = await alice.slash(table.channel, "hedgehog new", players=2, thread=True)
    take_errors(table.env)
    said = refusal(result)
    assert "send messages in threads" in said.lower(), said
    assert table.channel.threads == [], "an empty thread was left behind"
    for thread in table.channel.threads:
        assert await table.env.bot.service.live_game(thread.id) is None, "a game was left open with no lobby"


# A game in a channel where the bot may not send messages: its clock's announcements.


async def test_a_timeout_the_bot_may_not_post_is_not_retried_with_a_traceback_forever(table, caplog):
    """A 2-player game with a 1-day clock in a channel where the bot lost Send Messages.  The loss on
    time is committed (state intact), but the announcer cannot post it.

    a permanent refusal (403: Missing Permissions/Access) is logged once, as a warning
    naming the channel and the permission, and the event is settled (or retried with a backoff,
    quietly); the log is not filled with tracebacks.
    """
    first_started = await start_hedgehog(table, table.channel, clock=1)
    assert next_actor(first_started, table.members)[0] is not None
    deny_bot(table, table.channel, send_messages=True)
    await table.env.settle()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await table.env.advance_time(25 * HOUR)  # the loss on time
        await table.env.advance_time(HOUR)  # an hour later
    take_errors(table.env)
    game = await table.env.bot.service.game((await table.env.bot.service.latest_game(table.channel.id)).id)
    assert game.status == "finished"  # the state is intact: the loss on time stands
    failures = [r for r in caplog.records if r.getMessage().startswith("could not deliver event")]
    assert len(failures) <= 1, f"{len(failures)} tracebacks for the same undeliverable event in one hour"


async def test_a_reminder_with_dms_closed_where_the_bot_may_not_post_is_not_retried_forever(table, caplog):
    """The player's DMs are closed, and the game's channel does not let the bot post.

    the reminder is given up after one try of each way (logged once, as a warning); it is
    a reminder, nothing depends on it.
    """
    started = await start_hedgehog(table, table.channel, clock=1)
    first, _ = next_actor(started, table.members)
    close_dms(table.env, first)
    deny_bot(table, table.channel, send_messages=True)
    await table.env.settle()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await table.env.advance_time(13 * HOUR)  # past half of the day: the first reminder
        await table.env.advance_time(HOUR)
    take_errors(table.env)
    failures = [r for r in caplog.records if r.getMessage().startswith("could not deliver event")]
    dm_tries = [r for r in caplog.records if r.getMessage().startswith("DMs closed for")]
    assert len(failures) <= 1 and len(dm_tries) <= 1, (len(failures), len(dm_tries))


# Tournaments: what the channel must let the bot do.


async def test_tournament_create_refuses_a_channel_without_embed_links(table, club):
    """README (Creating the Discord application) lists Embed Links; the card, every board and every
    standings post is an embed, which Discord drops silently from a bot's message without it.

    ``/tournament create`` in such a channel is refused, naming "embed links", as it is for
    send messages / attach files / create public threads / send messages in threads.
    """
    olga, _ = club
    deny_bot(table, table.channel, embed_links=True)
    await table.env.settle()
    result = await olga.slash(table.channel, "tournament create", name="T", game="whist", format="swiss")
    said = refusal(result)
    assert "embed links" in said, said


async def test_starting_a_tournament_whose_channel_lost_its_permissions_says_so(table, club, caplog):
    """The tournament was created while the bot could open threads; the admin then took Create Public
    Threads away.

    ``/tournament start`` tells the organiser, privately, what the bot may no longer do in
    the channel (as ``/tournament create`` checks), and nothing is half started; or at least the
    periodic check logs the permanent refusal once rather than a traceback each minute.
    """
    olga, members = club
    created = await olga.slash(table.channel, "tournament create", name="T", game="whist", format="swiss")
    assert not created.ephemeral, created.response.content
    for member in members[:4]:
        await member.slash(table.channel, "tournament join")
    deny_bot(table, table.channel, create_public_threads=True)
    await table.env.settle()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        started = await olga.slash(table.channel, "tournament start")
        for _ in range(3):
            await table.env.advance_time(HOUR)  # three scheduler checks (the tests' interval is an hour)
    take_errors(table.env)
    said = (started.followups or [started.response])[-1].content
    launches = [m for m in errors_logged(caplog) if m.startswith("could not open match")]
    assert "create public threads" in said or len(launches) <= 2, (said, len(launches))


# A game against a computer player where the bot may not send messages.


async def test_a_game_with_a_computer_player_where_the_bot_may_not_post_is_refused_or_told(
    table, simcord_env, make_bot, caplog
):
    """#quiet does not let the bot send messages.  The bot's own moves are shown by posting (a new
    board pinging the person whose turn comes), which it may not do there.

    ``/whist new bots:1`` there is refused in one sentence naming Send Messages (as
    ``/tournament create`` is), or at the least the player learns the bot's move: nothing is logged
    as an error and the board the player sees shows the bot's move.
    """
    from tests.discord.test_bots import QUICK

    await simcord_env.restart_bot(make_bot(**QUICK))
    bot = simcord_env.bot
    alice = table.members[0]
    quiet = table.guild.create_text_channel(
        "quiet", overwrites={table.guild.me: discord.PermissionOverwrite(send_messages=False)}
    )
    caplog.clear()
    with caplog.at_level(logging.INFO):
        opened = await alice.slash(quiet, "whist new", bots=1, bot_level="easy")
        if opened.ephemeral:  # refused up front: the sentence must say what to grant
            assert "send messages" in opened.response.content.lower(), opened.response.content
            return
        await alice.click(opened.response.message, label="Start")
        await bot.autoplay.wait()
        for _ in range(3):
            choices = await alice.autocomplete(quiet, "whist move", "notation", "")
            if not choices:
                break
            await alice.slash(quiet, "whist move", notation=choices[0]["value"])
            await bot.autoplay.wait()
    take_errors(simcord_env)
    assert errors_logged(caplog) == [], errors_logged(caplog)


# The bot's role is removed mid-game, in a game's own thread.


async def thread_game_started(table):
    """A two-player Der Marsigelwettkampf with a one-day clock, in a thread of #games, started; its thread."""
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2, thread=True, clock=1)
    thread = table.channel.threads[0]
    await bob.click(opened.response.message, label="Join")
    started = await alice.slash(thread, "hedgehog start")
    assert next_actor(started, table.members)[0] is not None
    return thread


def remove_bot_role(table) -> None:
    """The admin takes the bot's own (managed) role away: it keeps @everyone's permissions only."""
    backend = table.env.backend
    me = backend.get_member(table.guild.id, backend.bot_user.id)
    for role_id in list(me.role_ids):
        backend.remove_member_role(table.guild.id, backend.bot_user.id, role_id)


async def test_a_game_thread_archived_after_the_bot_lost_its_role_raises_nothing(table, caplog):
    """A game runs in its own thread.  The admin removes the bot's role, and #games does not let
    @everyone send messages in threads; Discord then archives the quiet thread.

    the bot tries to reopen the thread and, refused, logs it once (info/warning); no
    exception escapes an event handler.
    """
    thread = await thread_game_started(table)

    remove_bot_role(table)
    table.env.backend.set_overwrite(
        table.channel.id,
        Overwrite(
            target_id=table.guild.id,  # @everyone
            type=OverwriteType.ROLE,
            deny=discord.Permissions(send_messages_in_threads=True).value,
        ),
    )
    await table.env.settle()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        table.env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
        table.env.backend.announce_channel_update(thread.id)
        await table.env.settle()
    raised = take_errors(table.env)
    assert raised == [] and errors_logged(caplog) == [], (raised, errors_logged(caplog))


# A move where the bot can no longer see the channel (View Channel taken away mid-game).


async def test_a_move_whose_board_cannot_be_edited_is_not_only_told_privately(table):
    """Mid-game the admin takes View Channel from the bot in #games (interactions still reach it, and
    its interaction answers still go out).  The player rolls with ``/hedgehog roll``: the turn goes
    on, so the roll is shown by editing the living board with the bot's token, which is now refused.

    the roll is shown publicly anyway (the board posted as the command's public answer, the
    way a new turn's board is), or the player is told in the same sentence that the board could not
    be updated and what to grant.
    """
    started = await start_hedgehog(table, table.channel, clock=0)
    actor, kind = next_actor(started, table.members)
    assert kind == "roll"
    board_id = started.response.message.id if started.response else None
    deny_bot(table, table.channel, view_channel=True)
    await table.env.settle()
    rolled = await actor.slash(table.channel, "hedgehog roll")
    take_errors(table.env)
    public = [m for m in (rolled.response, *rolled.followups) if m is not None and not m.flags.ephemeral]
    said = " ".join(m.content for m in (rolled.response, *rolled.followups) if m is not None)
    raw = table.env.backend.messages[table.channel.id].get(board_id) if board_id else None
    edited = raw is not None and raw.embeds and "roll" in str(raw.embeds[0]).lower() and raw.edited_timestamp
    assert public or edited or "view channel" in said.lower(), said


# Threads the bot did not open, and voice channels' chats.


async def test_a_game_in_a_thread_a_member_opened_needs_no_permission_to_create_threads(table):
    """The bot may not create public threads (only `thread:True` needs it). A member opened a thread by
    hand and opens a plain game in it: the bot opens no thread there, so the game opens."""
    alice = table.members[0]
    deny_bot(table, table.channel, create_public_threads=True)
    thread = ChannelHandle(table.env, table.guild, table.env.backend.create_thread(table.channel.id, "chat", alice.id))
    opened = await alice.slash(thread, "hedgehog new", players=2)
    assert accepted(opened), opened.response.content


async def test_a_game_in_a_thread_where_the_bot_may_not_post_in_threads_is_refused_in_one_sentence(table):
    alice = table.members[0]
    thread = ChannelHandle(table.env, table.guild, table.env.backend.create_thread(table.channel.id, "chat", alice.id))
    deny_bot(table, table.channel, send_messages_in_threads=True)
    opened = await alice.slash(thread, "hedgehog new", players=2)
    assert "send messages in threads" in refusal(opened)
    assert await table.env.bot.service.live_game(thread.id) is None


async def test_a_game_in_a_voice_channels_chat_where_the_bot_may_not_post_is_refused_in_one_sentence(table):
    """A voice channel's text chat is checked as a text channel is: the game is refused up front, naming
    the permission, instead of opening a table whose clock and bots could never post there."""
    alice = table.members[0]
    voice = table.guild.create_voice_channel("lounge")
    deny_bot(table, voice, send_messages=True)
    opened = await alice.slash(voice, "hedgehog new", players=2, clock=1)
    take_errors(table.env)
    assert "send messages" in refusal(opened)
    assert await table.env.bot.service.live_game(voice.id) is None


async def test_a_game_thread_a_moderator_locked_is_not_retried_with_a_traceback_forever(table, caplog):
    """A moderator locks (and so archives) a game's thread; the bot, without Manage Threads, may not
    reopen it (Discord: 403) nor post there (Discord: 400, code 50083, "Operation cannot be performed on
    an archived thread"). The loss on time that follows is logged once as a warning and settled, not
    retried with a traceback at every check for ever."""
    thread = await thread_game_started(table)
    env = table.env
    env.inject_error(
        "PATCH", f"/channels/{thread.id}", status=403, code=50013, message="Missing Permissions", times=None
    )
    archived = {"status": 400, "code": 50083, "message": "Operation cannot be performed on an archived thread"}
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=None, **archived)
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", times=None, **archived)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True, "locked": True})
        env.backend.announce_channel_update(thread.id)
        await env.settle()
        for _ in range(30):
            await env.advance_time(HOUR)
    take_errors(env)
    game = await env.bot.service.game((await env.bot.service.latest_game(thread.id)).id)
    assert game.status == "finished"  # the loss on time stands
    failures = [r for r in caplog.records if r.getMessage().startswith("could not deliver event")]
    assert failures == []
    assert any(r.levelno == logging.WARNING and "not posted" in r.getMessage() for r in caplog.records)
