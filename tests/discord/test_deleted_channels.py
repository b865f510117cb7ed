"""A deleted channel or thread takes its games with it: they end with no result and leave `/game mine`."""

from __future__ import annotations

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
