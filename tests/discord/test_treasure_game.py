"""Martian Treasure Hunt end to end through slash commands and buttons, offline with SimCord."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot.client import PyramidBot
from cogs.messages import report_payload
from games.treasure import RULES, Step, TreasureState, geometry
from tests.discord.helpers import (
    accepted,
    custom_id,
    embed_of,
    field,
    living_board,
    next_actor,
    notation,
    press_at_once,
    refusal,
    showing,
)


async def open_game(table: Any, players: int, **options: Any) -> Any:
    members = table.members[:players]
    opened = await members[0].slash(table.channel, "treasure new", players=players, **options)
    assert "alice opened a game of Martian Treasure Hunt" in opened.response.content
    for count, member in enumerate(members[1:], start=2):
        joined = await member.click(opened.response.message, label="Join")
        assert f"{member.name} joins ({count}/{players})" in joined.response.content
    return await members[0].click(opened.response.message, label="Start")


async def hunt_to_end(channel: Any, result: Any, members: list[Any], rng: random.Random) -> Any:
    """Play from ``result`` to the end like a greedy player: roll by button or command, capture when offered."""
    for count in range(3000):
        actor, kind = next_actor(result, members)
        if actor is None:
            return result
        if kind == "roll":
            if count % 2:
                result = await actor.click(showing(result).message, label="Roll")
            else:
                result = await actor.slash(channel, "treasure roll")
        else:
            choices = await actor.autocomplete(channel, "treasure move", "notation", "")
            assert choices and len(choices) <= 25
            takes = [c for c in choices if "x" in notation(c)]
            result = await actor.slash(channel, "treasure move", notation=rng.choice(takes or choices)["value"])
        assert accepted(result), result.response.content
    raise AssertionError("the game did not end")


async def current_state(bot: PyramidBot, channel_id: int) -> TreasureState:
    game = await bot.service.store.live_game(channel_id)
    assert game is not None
    return bot.service.state_of(game)


async def test_two_players_arrange_and_play_to_the_end_with_refused_input(table, simcord_env):
    bot = simcord_env.bot
    alice, bob, _, dave, _ = table.members
    started = await open_game(table, 2)
    assert embed_of(started).image.url == "attachment://board.png"
    first, kind = next_actor(started, table.members)
    second = bob if first is alice else alice
    assert kind == "move" and "to set out their coins" in field(embed_of(started), "Status")

    # setting out the coins: refusals first, each one private sentence that changes nothing
    assert refusal(await dave.slash(table.channel, "treasure arrange", order="012345")) == (
        "You are not playing in this game."
    )
    for member in (second, first):  # the board calls both at once: neither is told it is not their turn
        assert refusal(await member.slash(table.channel, "treasure roll")) == (
            "There is nothing to roll yet: Red and Black to set out their coins face down, in any order"
            " (arrange; 0 of 2 done)."
        )
    assert "six coins" in refusal(await first.slash(table.channel, "treasure arrange", order="0123"))
    assert "set out their coins" in refusal(await first.slash(table.channel, "treasure move", notation="3:c2-c5"))
    offered = await first.autocomplete(table.channel, "treasure arrange", "order", "")
    assert len(offered) == 25 and notation(offered[0]) == "arrange 012345"
    assert offered[0]["name"].startswith("arrange 012345 — null ")
    narrowed = await first.autocomplete(table.channel, "treasure arrange", "order", "5432")
    assert narrowed and all("5432" in notation(c) for c in narrowed)
    assert len(await second.autocomplete(table.channel, "treasure arrange", "order", "")) == 25  # at the same time

    arranged = await first.slash(table.channel, "treasure arrange", order="5 4 3 2 1 0")
    # arrangements stay hidden until both have arranged: the channel is told who, never how
    assert accepted(arranged) and "set out their coins face down" in embed_of(arranged).description
    seat = 0 if first is alice else 1
    state = await current_state(bot, table.channel.id)
    assert state.coins[seat] == geometry(2).home[seat] and state.pending[seat] == (5, 4, 3, 2, 1, 0)
    result = await second.slash(table.channel, "treasure arrange", order="default")
    state = await current_state(bot, table.channel.id)
    assert state.coins[seat] == tuple(reversed(geometry(2).home[seat]))
    actor, kind = next_actor(result, table.members)
    assert (actor, kind) == (first, "roll")
    assert refusal(await first.slash(table.channel, "treasure move", notation="c3")).startswith("Roll first")

    # play until a coin has moved, trying bad moves along the way
    rng = random.Random(11)
    moved = False
    tried = False
    for _ in range(200):
        actor, kind = next_actor(result, table.members)
        assert actor is not None
        if kind == "roll":
            result = await actor.slash(table.channel, "treasure roll")
            assert accepted(result) and " rolls " in embed_of(result).description
            continue
        state = await current_state(bot, table.channel.id)
        if not tried:
            assert "only the clock" in refusal(await actor.slash(table.channel, "treasure move", notation="forfeit"))
            other = (state.dice[0] + 1) % 6
            assert "only it moves" in refusal(await actor.slash(table.channel, "treasure move", notation=f"{other}:c3"))
            for garbage in ("zz99", "???", "'; DROP TABLE games; --", "@everyone", "roll 3 queen"):
                text = refusal(await actor.slash(table.channel, "treasure move", notation=garbage))
                assert text and "\n" not in text
            tried = True
        choices = await actor.autocomplete(table.channel, "treasure move", "notation", "")
        legal = {RULES.format_move(state, m) for m in RULES.legal_moves(state)}
        assert choices and {notation(c) for c in choices} <= legal and len(choices) == min(25, len(legal))
        result = await actor.slash(table.channel, "treasure move", notation=rng.choice(choices)["value"])
        text = embed_of(result).description
        assert "rolled" in text and "Scores: Red" in text and "Black" in text, text
        moved = True
        break
    assert moved

    final = await hunt_to_end(table.channel, result, table.members, rng)
    outcome = field(embed_of(final), "Result")
    assert outcome and ("wins" in outcome or "Draw" in outcome)
    assert any(c["components"][0]["label"] == "Rematch" for c in final.response.components)
    late = await first.slash(table.channel, "treasure roll")
    assert refusal(late).startswith("There is no game")


async def test_ruling_the_third_player_arranges_first_without_waiting_and_nobody_sees_how(table, simcord_env):
    # "Players arrange at the same time, so nobody sees another's row before choosing their own:
    # arrangements stay hidden until every player has arranged."
    bot = simcord_env.bot
    started = await open_game(table, 3, clock=1)
    game = await bot.service.live_game(table.channel.id)
    state = await current_state(bot, table.channel.id)
    by_seat = {seat: next(m for m in table.members if m.id == game.user_at(seat)) for seat in range(3)}
    first, second, third = (by_seat[(state.turn + k) % 3] for k in range(3))
    assert next_actor(started, table.members) == (first, "move")
    deadline, turn_started = game.deadline, game.turn_started_at
    assert deadline is not None
    await table.env.advance_time(3 * 3600)

    offered = await third.autocomplete(table.channel, "treasure arrange", "order", "")
    assert notation(offered[0]) == "arrange 012345"  # offered now, two players ahead of them in turn
    arranged = await third.slash(table.channel, "treasure arrange", order="543210")
    assert arranged.ephemeral and arranged.response.content.startswith("Done: ")  # answered only to them
    assert "set out their coins face down" in arranged.response.content
    state = await current_state(bot, table.channel.id)
    seat = (state.turn + 2) % 3
    assert state.arranged[seat] and state.pending[seat] == (5, 4, 3, 2, 1, 0)
    assert state.coins[seat] == geometry(3).home[seat]  # the board still shows the stand-in row, face down
    after = await bot.service.live_game(table.channel.id)
    assert (after.turn_seat, after.deadline, after.turn_started_at) == (game.turn_seat, deadline, turn_started)
    board = living_board(table.env, table.channel.id)
    assert next_actor(board_result(board), table.members) == (first, "move")  # still the first player's turn
    assert "1 of 3 done" in field(board.embeds[0], "Status")
    assert refusal(await third.slash(table.channel, "treasure arrange", order="012345")) == (
        f"You have already played your part of this phase: {first.name} is to move."
    )  # once is all

    typed = await second.slash(table.channel, "treasure move", notation="arrange 2 0 5 1 4 3")  # out of turn too
    assert typed.ephemeral and typed.response.content.startswith("Done: ")
    for message in table.channel.history():  # nothing the channel can read names either order
        shown = " ".join([message.content or "", *(e.description or "" for e in message.embeds)])
        assert "543210" not in shown and "5 4 3 2 ace null" not in shown and "2 null 5 ace 4 3" not in shown, shown
    _, log = await bot.service.history(table.channel.id)
    assert [row.notation for row in log] == ["arrange (face down)", "arrange (face down)"]
    assert (await bot.service.live_game(table.channel.id)).deadline == deadline

    result = await first.slash(table.channel, "treasure arrange", order="default")  # the last: play starts
    assert next_actor(result, table.members) == (first, "roll")
    assert "5 4 3 2 ace null" in embed_of(result).description  # every row revealed at once
    state = await current_state(bot, table.channel.id)
    assert state.phase == "roll" and state.coins[seat] == tuple(reversed(geometry(3).home[seat]))


def board_result(message: Any) -> Any:
    """A channel message read like a command's result, for ``next_actor``."""

    class Read:
        response = message

    return Read()


async def test_an_undo_of_a_face_down_arrangement_never_shows_it(table, simcord_env):
    started = await open_game(table, 2)
    first, _ = next_actor(started, table.members)
    second = table.members[1] if first is table.members[0] else table.members[0]
    assert accepted(await first.slash(table.channel, "treasure arrange", order="543210"))
    asked = await second.slash(table.channel, "game undo")
    assert not asked.ephemeral
    assert asked.response.content.startswith(f"{second.mention} asks to take back **arrange (face down)**.")
    taken = await first.click(asked.response.message, label="Accept undo")
    assert 'By agreement, the move "arrange (face down)" is taken back.' in embed_of(taken).description
    for message in table.channel.history():  # nothing the channel can read names the order
        shown = " ".join([message.content or "", *(e.description or "" for e in message.embeds)])
        assert "543210" not in shown and "5 4 3 2 1 0" not in shown, shown
    assert next_actor(taken, table.members)[0] is first  # the coins are set out again


async def test_capture_replies_name_the_dice_the_capture_and_the_scores(table, simcord_env):
    bot = simcord_env.bot
    started = await open_game(table, 2, arrange=False)
    rng = random.Random(2)
    result = started
    for _ in range(600):
        actor, kind = next_actor(result, table.members)
        assert actor is not None, "the game ended before any capture"
        if kind == "roll":
            result = await actor.slash(table.channel, "treasure roll")
            continue
        state = await current_state(bot, table.channel.id)
        takes = [m for m in RULES.legal_moves(state) if isinstance(m, Step) and "x" in RULES.format_move(state, m)]
        if takes:
            typed = RULES.format_move(state, takes[0])
            choices = await actor.autocomplete(table.channel, "treasure move", "notation", typed)
            assert notation(choices[0]) == typed
            assert " — takes " in choices[0]["name"] or " — captures " in choices[0]["name"]
            result = await actor.slash(table.channel, "treasure move", notation=typed)
            text = embed_of(result).description
            number = state.dice[0]
            assert f"rolled {('null', 'ace', '2', '3', '4', '5')[number]} and " in text
            assert "taking a" in text or "capturing" in text
            assert "Scores: Red" in text
            return
        choices = await actor.autocomplete(table.channel, "treasure move", "notation", "")
        result = await actor.slash(table.channel, "treasure move", notation=rng.choice(choices)["value"])
    raise AssertionError("no capture happened")


async def test_four_players_play_to_the_end_and_one_resigns_on_the_way(table, simcord_env):
    bot = simcord_env.bot
    carol = table.members[2]
    started = await open_game(table, 4, stall_limit=15)
    rng = random.Random(4)
    result = started
    # everyone takes the suggested (standard) arrangement through the move command
    for _ in range(4):
        actor, kind = next_actor(result, table.members)
        assert kind == "move"
        choices = await actor.autocomplete(table.channel, "treasure move", "notation", "arrange")
        assert notation(choices[0]) == "arrange 012345"
        result = await actor.slash(table.channel, "treasure move", notation=choices[0]["value"])
    state = await current_state(bot, table.channel.id)
    assert state.phase == "roll" and all(state.arranged)
    assert [RULES.seat_name(state, seat) for seat in range(4)] == ["Red", "Green", "Black", "Blue"]

    for _ in range(12):  # a few turns, then carol resigns
        actor, kind = next_actor(result, table.members)
        if kind == "roll":
            result = await actor.slash(table.channel, "treasure roll")
        else:
            choices = await actor.autocomplete(table.channel, "treasure move", "notation", "")
            result = await actor.slash(table.channel, "treasure move", notation=rng.choice(choices)["value"])
    resigned = await carol.slash(table.channel, "game resign")
    assert accepted(resigned)
    state = await current_state(bot, table.channel.id)
    assert state.out == (2,) and state.coins[2] == (None,) * 6 and RULES.outcome(state) is None
    assert refusal(await carol.slash(table.channel, "treasure roll")) == "You have left this game."

    final = await hunt_to_end(table.channel, resigned, table.members, rng)
    outcome = field(embed_of(final), "Result")
    assert outcome and "wins" in outcome
    assert outcome.strip().splitlines()[-1].startswith("**4.** carol")


async def test_a_restarted_bot_continues_the_hunt(table, simcord_env, make_bot):
    started = await open_game(table, 2, arrange=False)
    first, kind = next_actor(started, table.members)
    assert kind == "roll"
    await simcord_env.restart_bot(make_bot())
    rolled = await first.click(showing(started).message, label="Roll")  # a button posted before the restart
    assert accepted(rolled) and " rolls " in embed_of(rolled).description
    actor, kind = next_actor(rolled, table.members)
    if kind == "move":
        assert actor is first
        assert await first.autocomplete(table.channel, "treasure move", "notation", "")


async def test_everyone_still_to_arrange_is_called_at_the_start_and_sees_it_in_game_mine(table, simcord_env):
    # "Players arrange at the same time": the start calls every player, not only the first in turn
    bot = simcord_env.bot
    started = await open_game(table, 3, clock=1)
    state = await current_state(bot, table.channel.id)
    game = await bot.service.live_game(table.channel.id)
    by_seat = {seat: next(m for m in table.members if m.id == game.user_at(seat)) for seat in range(3)}
    first, second, third = (by_seat[(state.turn + k) % 3] for k in range(3))
    call = showing(started).content
    assert call == (
        f"{first.mention}, {second.mention} and {third.mention}, your turn (you all play this part at the same time)."
    )

    board = await bot.service.board(table.channel.id)
    allowed = report_payload(replace(board, turn_changed=True))["allowed_mentions"]
    assert {user.id for user in allowed.users} == {first.id, second.id, third.id}  # and nobody else is pinged

    listed = embed_of(await second.slash(table.channel, "game mine")).description
    assert "**you may play now** (at the same time as others)" in listed and "deadline" not in listed
    assert "**your turn**" in embed_of(await first.slash(table.channel, "game mine")).description

    arranged = await third.slash(table.channel, "treasure arrange", order="543210")
    listed = embed_of(await third.slash(table.channel, "game mine")).description
    assert f"{first.name} to play" in listed  # arranged: nothing more to do until play starts
    # everyone was called at the start: the same message goes on, calling those still to arrange
    assert showing(arranged).id == showing(started).id
    assert (
        showing(arranged).content
        == f"{first.mention} and {second.mention}, your turn (you both play this part at the same time)."
    )

    passed_on = await first.slash(table.channel, "treasure arrange", order="default")
    assert showing(passed_on).id == showing(started).id
    assert showing(passed_on).content == f"{second.mention}, your turn."  # their own clock starts now


async def test_two_players_pressing_standard_order_at_the_same_instant_both_set_out_their_coins(table, simcord_env):
    # "Players arrange at the same time": two presses at once are two arrangements, not a refusal
    bot = simcord_env.bot
    started = await open_game(table, 3)
    state = await current_state(bot, table.channel.id)
    game = await bot.service.live_game(table.channel.id)
    first, second, third = (
        next(m for m in table.members if m.id == game.user_at((state.turn + k) % 3)) for k in range(3)
    )
    board = showing(started)
    press = custom_id(board, "Standard order")
    answers = await press_at_once(table.env, table.guild.id, [(second, board, press), (third, board, press)])
    assert all(answer.acknowledged for answer in answers)
    state = await current_state(bot, table.channel.id)
    assert [state.arranged[game.seat_of(m.id)] for m in (second, third)] == [True, True]
    again = await third.click(living_board(table.env, table.channel.id), label="Standard order")  # once more
    assert refusal(again) == f"You have already played your part of this phase: {first.name} is to move."
    _, log = await bot.service.history(table.channel.id)
    assert [row.notation for row in log] == ["arrange (face down)", "arrange (face down)"]


async def test_the_board_names_everyone_who_may_set_out_coins_now(table):
    # arranging is played at the same time: the "To move" field names both, as the call above it does
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "treasure new", players=2)
    await bob.click(opened.response.message, label="Join")
    board = showing(await alice.click(opened.response.message, label="Start"))
    assert board.content == f"{alice.mention} and {bob.mention}, your turn (you both play this part at the same time)."
    assert field(board.embeds[0], "To move") == f"{alice.mention} (Red) and {bob.mention} (Black)"


async def test_two_players_who_both_leave_their_coins_unset_end_the_game_with_no_result(table, simcord_env):
    # the clock counts for one of them, but both were asked at once: neither wins by the other's absence
    await open_game(table, 2, clock=1)
    game = await simcord_env.bot.service.live_game(table.channel.id)
    await table.env.advance_time(25 * 3600)
    ended = await simcord_env.bot.service.game(game.id)
    assert ended.status == "aborted" and ended.outcome is None and ended.deadline is None
    last = table.channel.last_message
    said = "Neither alice nor bob played their part in time: the game ends with no result."
    assert said in last.embeds[0].description
    assert field(last.embeds[0], "Result") == "The game ended without a result; it is unrated."
    assert simcord_env.errors == []


async def test_a_player_who_set_out_their_coins_wins_on_time_against_one_who_did_not(table, simcord_env):
    started = await open_game(table, 2, clock=1)
    first, _ = next_actor(started, table.members)
    second = next(m for m in table.members[:2] if m is not first)
    assert (await second.slash(table.channel, "treasure arrange", order="543210")).ephemeral
    await table.env.advance_time(25 * 3600)
    last = table.channel.last_message
    assert f"{first.name} ran out of time and loses on time." in last.embeds[0].description
    assert field(last.embeds[0], "Result").startswith(f"**{second.name} wins!**")


async def test_while_arranging_the_typing_hint_names_the_arrange_command_with_a_valid_order(table, simcord_env):
    """The only control while the coins are set out is the "Standard order" button: the field for the other
    orders names `/treasure arrange` and its `order` argument (docs/commands.md), never `/treasure move` or a
    menu, and the example it gives is an order the command takes."""
    started = await open_game(table, 2)
    first, kind = next_actor(started, table.members)
    assert kind == "move"
    embed = living_board(simcord_env, table.channel.id).embeds[0]
    hint = field(embed, "Another order")
    assert hint is not None and field(embed, "More moves than the menus hold") is None
    assert hint.startswith("Type `/treasure arrange` with your order (such as `order: "), hint
    assert "menu" not in hint.lower() and "/treasure move" not in hint
    example = hint.split("`order: ", 1)[1].split("`", 1)[0]
    assert sorted(example) == list("012345"), example
    assert accepted(await first.slash(table.channel, "treasure arrange", order=example))
