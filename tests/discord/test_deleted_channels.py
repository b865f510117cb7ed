"""A deleted channel or thread takes its games with it: they end with no result and leave `/game mine`.
So does a server that removes the bot, with its tournaments."""

from __future__ import annotations

import discord

from tests.discord.helpers import accepted


async def test_a_running_game_ends_with_no_result_when_its_channel_is_deleted(table, simcord_env):
    alice, bob = table.members[:2]
    room = table.guild.create_text_channel("room")
    opened = await alice.slash(room, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    assert accepted(await alice.slash(room, "hedgehog start"))
    lobby = await alice.slash(table.channel, "whist new")  # another channel's lobby is not touched
    assert accepted(lobby)
    game = await simcord_env.bot.service.live_game(room.id)
    table.env.backend.delete_channel(room.id)
    await table.env.settle()
    ended = await simcord_env.bot.service.game(game.id)
    assert ended.status == "aborted" and ended.outcome is None and ended.deadline is None
    assert (await simcord_env.bot.service.live_game(table.channel.id)).status == "open"
    mine = await bob.slash(table.channel, "game mine")
    assert f"#{game.id}" not in mine.response.content
    assert simcord_env.errors == []


async def test_a_game_in_a_thread_ends_when_the_thread_or_its_channel_is_deleted(table, simcord_env):
    alice, bob = table.members[:2]
    room = table.guild.create_text_channel("room")
    await alice.slash(room, "hedgehog new", players=2, thread=True)
    thread = room.threads[0]
    game = await simcord_env.bot.service.live_game(thread.id)
    assert game is not None and game.status == "open"
    table.env.backend.delete_channel(room.id)  # the channel goes, and its threads with it
    await table.env.settle()
    assert (await simcord_env.bot.service.game(game.id)).status == "aborted"

    opened = await alice.slash(table.channel, "whist new", thread=True)
    await bob.click(opened.response.message, label="Join")
    thread = table.channel.threads[-1]
    assert accepted(await alice.slash(thread, "whist start"))
    game = await simcord_env.bot.service.live_game(thread.id)
    table.env.backend.delete_channel(thread.id)
    await table.env.settle()
    assert (await simcord_env.bot.service.game(game.id)).status == "aborted"
    assert simcord_env.errors == []


async def another_server_at_play(table, simcord_env):
    """A second server, Elsewhere, with a running two-player game on a one-day clock and a tournament open
    for registration, and a lobby open in the first server's #games: (Elsewhere, its game)."""
    other = simcord_env.create_guild("Elsewhere")
    room = other.create_text_channel("games")
    alice, bob = (other.add_member(m.user) for m in table.members[:2])
    role = other.create_role("Organisers", permissions=discord.Permissions(manage_guild=True))
    olga = other.add_member(simcord_env.create_user("olga"), roles=[role])
    await alice.slash(room, "hedgehog new", players=2, clock=1)
    await bob.slash(room, "hedgehog join")
    assert accepted(await alice.slash(room, "hedgehog start"))
    assert accepted(await olga.slash(room, "tournament create", name="Gone Cup", game="whist", format="swiss"))
    assert accepted(await table.members[0].slash(table.channel, "whist new"))  # this server's: not touched
    return other, await simcord_env.bot.service.live_game(room.id)


async def test_a_server_that_removes_the_bot_ends_its_games_with_no_result_and_cancels_its_tournaments(
    table, simcord_env
):
    """Nobody can play in a server the bot has left: its games end with no result, so a clock does not
    go on handing a rated loss on time to the player whose turn it was, and its tournaments are cancelled.
    Another server's games go on."""
    other, game = await another_server_at_play(table, simcord_env)
    service = simcord_env.bot.service
    simcord_env.backend.remove_guild(other.id)
    await simcord_env.settle()
    ended = await service.game(game.id)
    assert ended.status == "aborted" and ended.outcome is None and ended.deadline is None
    await simcord_env.advance_time(26 * 3600)  # the turn's day is long over
    assert (await service.game(game.id)).outcome is None
    assert await simcord_env.bot.session.ratings.count_rated(other.id) == 0
    [cup] = await simcord_env.bot.session.records.tournaments(guild_id=other.id)
    assert cup.status == "cancelled"
    assert (await service.live_game(table.channel.id)).status == "open"
    assert simcord_env.errors == []


async def test_a_server_that_removed_the_bot_while_it_was_stopped_has_its_games_ended_when_it_comes_back(
    table, simcord_env, make_bot
):
    """No word of a removal comes while the bot is stopped: when it connects again, the games of a server
    it is no longer in end with no result, and its tournaments are cancelled; its own server's go on."""
    from simcord.env import _attach_bot

    other, game = await another_server_at_play(table, simcord_env)
    await simcord_env._detach_bot()  # the bot is stopped
    simcord_env.backend.remove_guild(other.id)  # and the server removes it meanwhile
    await _attach_bot(simcord_env, make_bot())
    await simcord_env.advance_time(26 * 3600)  # the turn's day is long over
    service = simcord_env.bot.service
    ended = await service.game(game.id)
    assert ended.status == "aborted" and ended.outcome is None
    assert await simcord_env.bot.session.ratings.count_rated(other.id) == 0
    [cup] = await simcord_env.bot.session.records.tournaments(guild_id=other.id)
    assert cup.status == "cancelled"
    assert (await service.live_game(table.channel.id)).status == "open"
