"""Der Marsigelwettkampf end to end through slash commands and buttons, offline with SimCord."""

from __future__ import annotations

import random

from tests.discord.helpers import (
    accepted,
    embed_of,
    field,
    join_disabled,
    next_actor,
    notation,
    play_turns,
    refusal,
    showing,
)


async def open_game(table, players: int = 3, **options):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=players, **options)
    assert "alice opened a game of Der Marsigelwettkampf" in opened.response.content
    joined = await bob.click(opened.response.message, label="Join")
    assert "bob joins (2/3)" in joined.response.content
    await carol.slash(table.channel, "hedgehog join")
    return await alice.click(opened.response.message, label="Start")


async def test_three_players_play_a_whole_game_through_commands_and_buttons(table):
    started = await open_game(table)
    embed = embed_of(started)
    assert embed.image.url == "attachment://board.png"
    assert showing(started).attachments[0].filename == "board.png"
    first, kind = next_actor(started, table.members)
    assert kind == "roll"
    assert showing(started).content == f"{first.mention}, your turn."
    final = await play_turns(table.env, table.channel, "hedgehog", started, table.members, random.Random(7))
    result = field(embed_of(final), "Result")
    assert result and ("wins" in result or "Draw" in result)
    # a finished game offers a rematch and refuses further play
    assert any(c["components"][0]["label"] == "Rematch" for c in showing(final).components)
    late = await table.members[0].slash(table.channel, "hedgehog roll")
    assert refusal(late) == "There is no game running in this channel: open one with /hedgehog new."


async def test_bad_input_is_refused_with_one_private_sentence(table):
    alice, bob, carol, dave, _ = table.members
    started = await open_game(table)
    first, _ = next_actor(started, table.members)
    others = [m for m in (alice, bob, carol) if m is not first]

    out_of_turn = await others[0].slash(table.channel, "hedgehog roll")
    assert refusal(out_of_turn).startswith("It is not your turn")
    stranger = await dave.slash(table.channel, "hedgehog roll")
    assert refusal(stranger) == "You are not playing in this game."
    stranger_button = await dave.click(showing(started).message, label="Roll")
    assert refusal(stranger_button) == "You are not playing in this game."
    must_roll = await first.slash(table.channel, "hedgehog move", notation="R1+1")
    assert refusal(must_roll).startswith("Roll first")

    rolled = await first.slash(table.channel, "hedgehog roll")
    assert rolled.response.content.startswith("Done: ") and " rolls " in rolled.response.content
    for garbage in ("???", "R9+1", "pass pass", "'; DROP TABLE games; --", "@everyone"):
        refused = await first.slash(table.channel, "hedgehog move", notation=garbage)
        assert refusal(refused) and "\n" not in refusal(refused)
    again = await first.slash(table.channel, "hedgehog roll")
    assert refusal(again).startswith("There is nothing to roll now")

    busy = await dave.slash(table.channel, "hedgehog new")
    assert refusal(busy).startswith("This channel already has a game")
    late_join = await dave.slash(table.channel, "hedgehog join")
    assert refusal(late_join) == "This game has already started."
    abort = await dave.slash(table.channel, "game abort")
    assert refusal(abort) == "Only the game's creator or a server manager can abort it."

    # nothing above changed the game: the log holds the one roll
    history = await dave.slash(table.channel, "game history")
    assert history.response.attachments[0].filename.startswith("game-")
    assert embed_of(history).footer.text.startswith("1 move ")


async def test_a_restarted_bot_continues_the_game_and_old_buttons_still_work(table, make_bot):
    started = await open_game(table)
    first, _ = next_actor(started, table.members)
    await table.env.restart_bot(make_bot())
    rolled = await first.click(showing(started).message, label="Roll")  # a button posted before the restart
    assert accepted(rolled)
    actor, kind = next_actor(rolled, table.members)
    assert kind == "move" and actor is first
    await table.env.restart_bot(make_bot())
    final = await play_turns(table.env, table.channel, "hedgehog", rolled, table.members, random.Random(1))
    assert field(embed_of(final), "Result")


async def test_autocomplete_lists_only_the_callers_legal_moves(table):
    started = await open_game(table)
    first, _ = next_actor(started, table.members)
    others = [m for m in table.members[:3] if m is not first]
    assert await first.autocomplete(table.channel, "hedgehog move", "notation", "") == []  # must roll first
    await first.slash(table.channel, "hedgehog roll")
    mine = await first.autocomplete(table.channel, "hedgehog move", "notation", "")
    assert mine and any(notation(c) == "pass" for c in mine)
    assert await others[0].autocomplete(table.channel, "hedgehog move", "notation", "") == []
    typed = await first.autocomplete(table.channel, "hedgehog move", "notation", "pass")
    assert [notation(c) for c in typed] == ["pass"]


async def test_lobby_refusals(table):
    alice, bob, carol, dave, erin = table.members
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    assert refusal(await alice.click(opened.response.message, label="Join")) == "You are already in this game."
    assert refusal(await bob.click(opened.response.message, label="Start")).startswith("Only the player who opened")
    await bob.click(opened.response.message, label="Join")
    assert join_disabled(table, opened.response.message)  # a full table offers no seat
    assert refusal(await carol.slash(table.channel, "hedgehog join")) == "This game is full (2 players)."
    assert refusal(await carol.slash(table.channel, "hedgehog leave")) == "You are not in this game."
    too_many = await dave.slash(table.guild.create_text_channel("other"), "hedgehog new", players=8)
    assert refusal(too_many) == "More than 5 players need the xeno option (the Xeno set adds five colours)."
    left = await bob.slash(table.channel, "hedgehog leave")
    assert "bob leaves" in left.response.content
    solo_start = await alice.click(opened.response.message, label="Start")
    assert refusal(solo_start) == "Only you have joined. Start Der Marsigelwettkampf as solitaire, on your own?"
    begun = await alice.click(solo_start.response.message, label="Start now")  # one player is solitaire
    assert next_actor(begun, table.members) == (alice, "roll")
    assert erin  # present but silent


async def test_one_lobby_message_is_edited_and_its_buttons_close_at_the_start(table):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=3)
    await bob.click(opened.response.message, label="Join")
    joined = await carol.slash(table.channel, "hedgehog join")
    assert refusal(joined) == "carol joins (3/3)."  # told privately; the lobby message itself is edited
    lobby = table.channel.history()[0]
    assert len([m for m in table.channel.history() if m.embeds]) == 1
    assert lobby.embeds[0].fields[0].value == "1. alice, 2. bob, 3. carol (3/3)"
    started = await alice.slash(table.channel, "hedgehog start")
    assert next_actor(started, table.members)[1] == "roll"
    closed = table.channel.history()[0]
    assert closed.components and all(button.disabled for row in closed.components for button in row.children)


async def test_rematch_status_and_rules(table):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    started = await alice.slash(table.channel, "hedgehog start")
    status = await carol.slash(table.channel, "game status")  # a spectator may look
    assert field(embed_of(status), "Players") == "1. alice, 2. bob"
    assert status.response.attachments[0].filename == "board.png"
    # a copy that will not follow the game says when it was taken, and links the living message
    assert embed_of(status).title == "Der Marsigelwettkampf · as of move 0"
    assert f"/{table.channel.id}/{showing(started).id})" in field(embed_of(status), "Live board")
    first, _ = next_actor(started, table.members)
    resigned = await first.slash(table.channel, "game resign")
    winner = bob if first is alice else alice
    assert field(embed_of(resigned), "Result").startswith(f"**{winner.name} wins!**")
    assert refusal(await carol.click(resigned.response.message, label="Rematch")).startswith("Only the players")
    rematch = await winner.click(resigned.response.message, label="Rematch")
    assert "asks for a rematch" in rematch.response.content
    joined = await first.click(rematch.response.message, label="Join")
    assert "joins (2/2)" in joined.response.content
    rules = await carol.slash(table.channel, "rules", game="hedgehog")
    assert rules.ephemeral and embed_of(rules).title == "Der Marsigelwettkampf — how to play"
    assert [a.filename for a in rules.response.attachments] == ["opening.png", "hedgehog-rules.md"]


async def test_with_a_development_server_the_commands_are_synced_there(table, make_bot):
    await table.env.restart_bot(make_bot(dev_guild_id=table.guild.id))
    alice = table.members[0]
    assert "hedgehog new" in alice.available_commands(table.channel)
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    assert "alice opened a game" in opened.response.content


async def _options_in_history(table, member) -> str:
    history = await member.slash(table.channel, "game history")
    text = (await history.response.attachments[0].read()).decode()
    return next(line for line in text.splitlines() if line.startswith("Options:"))


async def test_history_lists_only_the_options_that_apply_at_the_table_size(table):
    # The history file of a game of two reads "Options: xeno: off, round limit: 40": the turn limit is
    # solitaire's only, so it is not listed (it said "..., turn limit: 200"); a solitaire lists its turn
    # limit and not the round limit, which only a table of two or more plays to.
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    assert await _options_in_history(table, alice) == "Options: xeno: off, round limit: 40"
    assert accepted(await alice.slash(table.channel, "game abort"))
    solo = await alice.slash(table.channel, "hedgehog new", players=1)
    await alice.click(solo.response.message, label="Start")
    assert await _options_in_history(table, alice) == "Options: xeno: off, turn limit: 200"
