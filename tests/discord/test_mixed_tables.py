"""Tables of two or three people and computer players: results, seats left and handed over, pings."""

from __future__ import annotations

import random

import pytest

from tests.discord.helpers import accepted, button_labels, field, living_board
from tests.discord.test_bots import QUICK, acting


async def start_mixed(table, simcord_env, make_bot, **options):
    """alice, bob and carol with one easy bot at a four-seat Der Marsigelwettkampf, started."""
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=4, bots=1, bot_level="easy", **options)
    for member in (bob, carol):
        await member.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    return alice, bob, carol


async def test_a_game_i_resigned_from_is_not_listed_as_mine_nor_paused_by_my_vacation(table, simcord_env, make_bot):
    _alice, _bob, carol = await start_mixed(table, simcord_env, make_bot, clock=1)
    resigned = await carol.slash(table.channel, "game resign")
    assert "carol resigns." in resigned.response.content
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.status == "active"  # alice, bob and the bot play on

    mine = await carol.slash(table.channel, "game mine")
    listed = mine.response.embeds[0].description if mine.response.embeds else ""
    assert "Der Marsigelwettkampf" not in listed, listed  # carol has left that game
    assert mine.response.content == "You are not in any game in this server."

    away = await carol.slash(table.channel, "game vacation", days=2)
    assert "none of their games has a clock running now" in away.response.content, away.response.content
    assert simcord_env.errors == []


async def test_handing_a_seat_to_a_bot_at_a_table_with_a_bot_does_not_say_the_game_stops_being_rated(
    table, simcord_env, make_bot
):
    alice, bob, carol = await start_mixed(table, simcord_env, make_bot)
    before = await simcord_env.bot.service.live_game(table.channel.id)
    assert before is not None and not before.rated  # a computer player sat at the table from the start

    asked = await bob.slash(table.channel, "game bot", player=str(bob.id), level="normal")
    asked_words = asked.response.content
    assert "proposes that a normal computer player takes over bob's seat" in asked_words
    question = asked.response.message
    await alice.click(question, label="Agree")
    agreed = await carol.click(question, label="Agree")
    await table.env.settle()
    closed = table.env.backend.messages[table.channel.id][question.id].content
    assert "Normal bot takes over bob's seat" in closed
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.seat_of(bob.id) is None
    # the game was never rated: nothing about it changes, and saying so misleads the table
    assert "rated" not in asked_words, asked_words
    assert "no longer rated" not in closed, closed
    assert "no longer rated" not in agreed.response.content, agreed.response.content
    assert simcord_env.errors == []


async def test_a_draw_between_those_still_playing_after_a_resignation_names_no_single_winner_and_calls_only_them(
    table, simcord_env, make_bot
):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "hedgehog new", players=3, round_limit=1, bots=1, bot_level="easy")
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    await bob.slash(table.channel, "game resign")  # alice and the bot play on, for one round
    for _ in range(20):
        await simcord_env.bot.autoplay.wait()
        board = living_board(table.env, table.channel.id)
        member, kind, _ = acting(board, table.members)
        if not kind:
            break
        assert member is alice
        if kind == "roll":
            await alice.click(board, label="Roll")
        else:
            await alice.slash(table.channel, "hedgehog move", notation="pass")
    final = living_board(table.env, table.channel.id)
    result = field(final.embeds[0], "Result") or ""
    assert "The limit of 1 round was reached (every player has had 1 turn)." in result
    head = result.split("\n")[0]
    # a draw among the players still in: nobody won it alone
    assert head.startswith("**alice and Easy bot share first place.**"), head
    # the end calls the people still at the table; bob, who left it, is not called back
    assert final.content == f"<@{alice.id}> — the game is over.", final.content
    assert simcord_env.errors == []


def record_pings(table) -> list[tuple[int, list[int]]]:
    """Every message posted in the channel from now on, with the users it pinged when it was posted."""
    posted: list[tuple[int, list[int]]] = []

    def listen(event, payload):
        if event == "MESSAGE_CREATE" and int(payload["channel_id"]) == table.channel.id:
            raw = table.env.backend.messages[table.channel.id][int(payload["id"])]
            posted.append((raw.id, list(raw.ping_user_ids)))

    table.env.backend.subscribers.append(listen)
    return posted


async def test_a_bot_setting_out_its_coins_first_does_not_call_the_people_a_second_time(table, simcord_env, make_bot):
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob = table.members[:2]
    for _ in range(2):  # the third game's seed draws the second seat, the bot's, to set out its coins first
        await alice.slash(table.channel, "treasure new", players=3)
        await alice.slash(table.channel, "game abort")
    opened = await alice.slash(table.channel, "treasure new", players=3, bots=1, bot_level="easy", clock=1)
    await bob.click(opened.response.message, label="Join")
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert [row.display_name for row in game.seats] == ["alice", "Easy bot", "bob"]
    posted = record_pings(table)
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    state = simcord_env.bot.service.state_of(await simcord_env.bot.service.live_game(table.channel.id))
    assert state.first == 1 and state.arranged == (False, True, False)  # the bot has set out its coins

    # alice and bob were both called to set out their coins at the start; the bot's part, played at
    # once, is no new turn for either of them
    pinged = [user for _, users in posted for user in users]
    assert sorted(pinged) == sorted([alice.id, bob.id]), (posted, alice.id, bob.id)
    assert simcord_env.errors == []


async def test_a_rematch_leaves_the_seat_a_bot_took_over_open_and_its_player_may_ask_for_it(
    table, simcord_env, make_bot
):
    """The bot that took bob's seat stood in for him: a rematch seats the bots invited to the table, not
    the stand-in, and bob, whose seat it was, may press Rematch himself."""
    alice, bob, carol = await start_mixed(table, simcord_env, make_bot)
    asked = await bob.slash(table.channel, "game bot", player=str(bob.id), level="normal")
    for member in (alice, carol):
        await member.click(asked.response.message, label="Agree")
    await simcord_env.bot.autoplay.wait()
    for member in (alice, carol):
        assert accepted(await member.slash(table.channel, "game resign"))
    board = next(m for m in reversed(table.channel.history()) if "Rematch" in button_labels(m))
    again = await bob.click(board, label="Rematch")
    assert again.response.content == (
        "bob asks for a rematch against the same computer player: press Join to play again."
    ), again.response.content
    lobby = await simcord_env.bot.service.live_game(table.channel.id)
    assert [(row.display_name, row.ai_level) for row in lobby.seats] == [("bob", None), ("Easy bot", "easy")]
    assert lobby.max_players == 4  # two seats open: alice, carol, or anyone
    assert simcord_env.errors == []


async def test_a_proposal_waiting_only_for_someone_who_resigns_is_carried_out_at_once(table, simcord_env, make_bot):
    alice, bob, carol = await start_mixed(table, simcord_env, make_bot)
    asked = await bob.slash(table.channel, "game bot", player=str(bob.id), level="normal")
    question = asked.response.message
    agreed = await alice.click(question, label="Agree")
    assert "still waiting for" in agreed.response.content
    resigned = await carol.slash(table.channel, "game resign")  # carol never answered
    assert "carol resigns." in resigned.response.content
    await table.env.settle()
    await simcord_env.bot.autoplay.wait()
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.seat_of(bob.id) is None  # alice, the one left to ask, had agreed
    board = living_board(table.env, table.channel.id)
    shown = " ".join(m.embeds[0].description or "" for m in [board])
    assert "Normal bot takes over bob's seat" in shown, shown
    closed = table.env.backend.messages[table.channel.id][question.id]  # the question, as the channel shows it
    assert button_labels(closed) == [], closed.components
    assert closed.content.endswith("Normal bot takes over bob's seat (Green)."), closed.content
    assert "lapsed" not in closed.content
    assert simcord_env.errors == []


async def test_an_agreement_waits_when_discord_cannot_tell_whether_the_player_left(table, simcord_env, make_bot):
    alice, bob, carol = await start_mixed(table, simcord_env, make_bot)
    table.guild.remove_member(bob)
    asked = await alice.slash(table.channel, "game bot", player=str(bob.id), level="normal")
    assert "(bob has left the server)" in asked.response.content
    simcord_env.inject_error("GET", f"/guilds/*/members/{bob.id}", status=503, times=None)
    unsure = await carol.click(asked.response.message, label="Agree")
    assert unsure.response.content == (
        "Discord did not say whether bob is still in the server: try again in a moment."
    ), unsure.response.content
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and await simcord_env.bot.service.store.seat_request(game.id) is not None
    simcord_env.backend.faults.clear()  # Discord answers again: bob is still gone
    agreed = await carol.click(asked.response.message, label="Agree")
    assert "Normal bot takes over bob's seat" in agreed.response.content, agreed.response.content
    game = await simcord_env.bot.service.live_game(table.channel.id)
    assert game is not None and game.seat_of(bob.id) is None
    assert simcord_env.errors == []


async def two_people_and_a_bot(table, simcord_env, make_bot, game: str, actions: int) -> tuple:
    """alice and bob with one easy bot at a three-seat ``game``, started and played ``actions`` times by
    whoever of them is to act (suggested moves, Roll, the standard order of Treasure Hunt's coins)."""
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, f"{game} new", players=3, bots=1, bot_level="easy")
    await bob.click(opened.response.message, label="Join")
    await alice.click(opened.response.message, label="Start")
    await play_people(table, simcord_env, game, actions, random.Random(4))
    return alice, bob


async def play_people(table, simcord_env, game: str, actions: int, rng: random.Random) -> None:
    """Play ``actions`` actions of the people at the table, whoever is to act, while the game runs."""
    for _ in range(actions):
        await simcord_env.bot.autoplay.wait()
        board = living_board(table.env, table.channel.id)
        member, kind, _text = acting(board, table.members)
        if not kind:
            return
        assert member is not None
        if kind == "roll":
            await member.click(board, label="Roll")
            continue
        choices = await member.autocomplete(table.channel, f"{game} move", "notation", "")
        if choices:
            await member.slash(table.channel, f"{game} move", notation=rng.choice(choices)["value"])
        else:  # Treasure Hunt's coins: set out in their own command
            await member.slash(table.channel, "treasure arrange", order="default")


@pytest.mark.parametrize("game", ["hedgehog", "combat", "treasure"])
async def test_the_last_person_leaving_a_table_of_one_bot_ends_it_without_a_result(table, simcord_env, make_bot, game):
    """docs/commands.md, /game resign: "When the last person leaves a table of computer players, the game
    ends there: without a result", also where the game itself would give the one bot left the win."""
    alice, bob = await two_people_and_a_bot(table, simcord_env, make_bot, game, actions=12)
    await bob.slash(table.channel, "game resign")
    await simcord_env.bot.autoplay.wait()
    await alice.slash(table.channel, "game resign")
    await simcord_env.bot.autoplay.wait()
    game_row = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game_row is not None and game_row.status == "aborted" and game_row.outcome is None
    board = living_board(table.env, table.channel.id)
    said = board.embeds[0].description or ""
    assert said.endswith("Nobody is left to play against the computer players: the game ends here, without a result.")
    assert board.embeds[0].title.endswith("· practice")  # alice was one person against a bot once bob left
    assert board.embeds[0].footer.text.endswith("practice game, unrated")
    assert field(board.embeds[0], "Result") == "The game ended without a result; it is unrated."
    assert not board.attachments  # no picture of the position, whose engine would name the bot the winner
    status = await alice.slash(table.channel, "game status")
    assert status.response is not None
    assert field(status.response.embeds[0], "Result") == "The game ended without a result; it is unrated."


@pytest.mark.parametrize("game", ["hedgehog", "combat", "treasure"])
async def test_a_table_the_other_person_left_is_a_practice_game_from_then_on(table, simcord_env, make_bot, game):
    """docs/commands.md: one person against bots is a practice game, which the board's title says; after
    bob resigns, alice is one person against a bot, as after his seat was handed to one."""
    _alice, bob = await two_people_and_a_bot(table, simcord_env, make_bot, game, actions=12)
    await bob.slash(table.channel, "game resign")
    await simcord_env.bot.autoplay.wait()
    await play_people(table, simcord_env, game, 3, random.Random(5))
    board = living_board(table.env, table.channel.id)
    assert board.embeds[0].title.endswith("· practice")
    assert board.embeds[0].footer.text.endswith("practice game, unrated")


async def test_the_one_person_of_a_practice_game_whose_clock_runs_out_leaves_it_without_a_result(
    table, simcord_env, make_bot
):
    """docs/ai.md: bots do not play on alone once every person has left the game; the person is told they
    left on time, not that they lost to the bot, and the game ends without a result."""
    await simcord_env.restart_bot(make_bot(**QUICK))
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=2, bots=1, clock=1)
    await alice.click(opened.response.message, label="Start")
    await simcord_env.bot.autoplay.wait()
    await table.env.advance_time(25 * 3600)
    await simcord_env.bot.autoplay.wait()
    game = await simcord_env.bot.service.latest_game(table.channel.id)
    assert game is not None and game.status == "aborted" and game.outcome is None
    said = living_board(table.env, table.channel.id).embeds[0].description or ""
    assert "alice ran out of time and leaves the game." in said and "wins" not in said
    assert said.endswith("Nobody is left to play against the computer players: the game ends here, without a result.")
