"""Every slash command in a direct message with the bot: games and tournaments live in servers.

A command that makes no sense in a DM gets one clear private sentence saying why, never opens
anything there and never logs an error; /game mine, /rules and autocompletes work quietly.
"""

from __future__ import annotations

import logging

import pytest

from cogs.replies import IN_SERVERS
from tests.discord.helpers import refusal

GAMES = ["hedgehog", "combat", "treasure", "whist", "assassin"]


def no_errors(env, caplog) -> None:
    assert env.errors == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def running_server_game(table):
    """alice and bob play Der Marsigelwettkampf in #games; it is alice's turn."""
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2, clock=1)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog start")
    return alice, bob


# ---------------------------------------------------------------- games


@pytest.mark.parametrize("game", GAMES)
async def test_opening_a_game_in_direct_messages_is_refused(table, simcord_env, caplog, game):
    alice = table.members[0]
    result = await alice.user.slash(f"{game} new")
    assert refusal(result) == IN_SERVERS  # no lobby whose Join button nobody else could ever press
    assert await simcord_env.bot.service.live_game(alice.user.dm_channel.id) is None
    no_errors(simcord_env, caplog)


async def test_a_thread_game_asked_for_in_direct_messages_says_games_are_played_in_servers(table, simcord_env, caplog):
    alice = table.members[0]
    result = await alice.user.slash("hedgehog new", players=2, thread=True)
    assert refusal(result) == IN_SERVERS  # not "Threads can only be opened from a text channel."
    no_errors(simcord_env, caplog)


DM_GAME_COMMANDS = [
    ("hedgehog roll", {}),
    ("hedgehog move", {"notation": "pass"}),
    ("hedgehog join", {}),
    ("hedgehog start", {}),
    ("hedgehog board", {}),
    ("game board", {}),
    ("game status", {}),
    ("game history", {}),
    ("game replay", {}),
    ("game resign", {}),
    ("game undo", {}),
    ("game abort", {}),
    ("game bot", {"player": "bob"}),
]


@pytest.mark.parametrize(("name", "options"), DM_GAME_COMMANDS, ids=[c[0] for c in DM_GAME_COMMANDS])
async def test_a_game_command_in_direct_messages_points_to_the_server_not_to_this_channel(
    table, simcord_env, caplog, name, options
):
    """Not "There is no game in this channel yet." (as if a game could come to the DM), nor "`bob` is
    not a player of this game": the player's game is in a server, and is left as it was."""
    alice, _bob = await running_server_game(table)
    before = await simcord_env.bot.service.live_game(table.channel.id)
    result = await alice.user.slash(name, **options)
    assert refusal(result) == IN_SERVERS
    after = await simcord_env.bot.service.live_game(table.channel.id)
    assert after is not None and after.ply == before.ply and after.status == before.status
    no_errors(simcord_env, caplog)


async def test_tournament_create_in_direct_messages_says_tournaments_run_in_servers(table, simcord_env, caplog):
    alice = table.members[0]
    result = await alice.user.slash("tournament create", name="Cup", game="hedgehog", format="swiss")
    assert refusal(result) == "Tournaments run in servers, not in direct messages."
    no_errors(simcord_env, caplog)


# ---------------------------------------------------------------- tournaments and personal commands


async def test_server_only_top_level_commands_are_not_offered_in_direct_messages(table):
    offered = table.members[0].user.available_commands()
    assert "rating" not in offered and "leaderboard" not in offered
    assert "rules" in offered and "game mine" in offered


TOURNAMENT = [
    ("tournament join", {}),
    ("tournament join", {"tournament": 1}),
    ("tournament leave", {}),
    ("tournament checkin", {}),
    ("tournament start", {}),
    ("tournament status", {}),
    ("tournament standings", {"tournament": 1}),
    ("tournament drop", {}),
    ("tournament cancel", {}),
    ("tournament export", {"tournament": 1}),
]


@pytest.mark.parametrize(("name", "options"), TOURNAMENT, ids=[f"{c[0]}-{i}" for i, c in enumerate(TOURNAMENT)])
async def test_tournament_subcommands_in_direct_messages_refuse_in_one_sentence(
    table, simcord_env, caplog, name, options
):
    result = await table.members[0].user.slash(name, **options)
    assert refusal(result) == "Tournaments run in servers, not in direct messages."
    no_errors(simcord_env, caplog)


async def test_kick_and_adjudicate_in_direct_messages_refuse(table, simcord_env, caplog):
    alice, bob = table.members[:2]
    kicked = await alice.user.slash("tournament kick", player=bob.user)
    assert refusal(kicked) == "Tournaments run in servers, not in direct messages."
    no_errors(simcord_env, caplog)


async def test_personal_commands_in_direct_messages_with_a_server_game(table, simcord_env, caplog):
    alice, _bob = await running_server_game(table)
    assert refusal(await alice.user.slash("game vacation", days=3)).startswith("Use /game vacation in the server")
    assert refusal(await alice.user.slash("game notify", mode="dm")).startswith("Use /game notify in the server")
    mine = await alice.user.slash("game mine")
    assert mine.ephemeral and "(Pyramid Club)" in mine.response.embeds[0].description
    rules = await alice.user.slash("rules", game="hedgehog")
    assert rules.ephemeral and rules.response.embeds
    no_errors(simcord_env, caplog)


async def test_autocompletes_in_direct_messages_offer_nothing_quietly(table, simcord_env, caplog):
    alice, _bob = await running_server_game(table)
    for name, option in [
        ("hedgehog move", "notation"),
        ("combat move", "notation"),
        ("treasure arrange", "order"),
        ("game bot", "player"),
        ("tournament join", "tournament"),
        ("tournament status", "tournament"),
        ("tournament create", "variant"),
    ]:
        assert await alice.user.autocomplete(name, option, "") == []
    no_errors(simcord_env, caplog)
