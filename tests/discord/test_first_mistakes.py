"""A newcomer's first half hour: the sentences the bot answers to a player's first mistakes say what
is wrong and what to do instead, with commands that exist (docs/commands.md, docs/rules/)."""

from __future__ import annotations

from tests.discord.helpers import embed_of, next_actor, refusal, showing, started_game


async def test_combat_roll_typed_as_a_move_is_not_told_to_name_its_dice(table):
    # a newcomer who thinks a turn starts with a roll types `roll` in /combat move: the dice are the bot's
    # (docs/rules/combat.md: "The bot rolls these when you press Roll"), so "e.g. 'roll 4'" is no way forward
    started = await started_game(table, "combat", 2)
    members = table.members[:2]
    actor, kind = next_actor(started, members)
    assert kind == "move"
    typed = refusal(await actor.slash(table.channel, "combat move", notation="roll"))
    assert typed == "There is nothing to roll now: make your move."
    garbage = refusal(await actor.slash(table.channel, "combat move", notation="R4 c1-c2"))
    assert "'roll 4'" not in garbage, garbage  # the hint for a typo offers only moves a player may type


async def test_assassin_roll_typed_after_the_roll_is_not_told_to_say_what_the_die_shows(table):
    started = await started_game(table, "assassin", 3)
    members = table.members[:3]
    actor, kind = next_actor(started, members)
    assert kind == "roll"
    await actor.click(showing(started), label="Roll")
    typed = refusal(await actor.slash(table.channel, "assassin move", notation="roll"))
    assert typed == "There is nothing to roll now: make your move."


async def test_treasure_roll_typed_while_setting_out_coins_is_not_told_to_name_both_dice(table):
    started = await started_game(table, "treasure", 2)
    members = table.members[:2]
    actor, _ = next_actor(started, members)
    typed = refusal(await actor.slash(table.channel, "treasure move", notation="roll"))
    assert typed.startswith("There is nothing to roll yet: Red and Black to set out their coins")


# -- "Roll first" names a command that exists ----------------------------------------------------------


async def test_roll_first_names_the_games_own_roll_command(table):
    # there is no `/roll`: the command is `/hedgehog roll` (docs/commands.md, "Every game")
    started = await started_game(table, "hedgehog", 2)
    members = table.members[:2]
    actor, kind = next_actor(started, members)
    assert kind == "roll"
    typed = refusal(await actor.slash(table.channel, "hedgehog move", notation="pass"))
    assert typed == "Roll first: use the Roll button or /hedgehog roll."
    typed = refusal(await actor.slash(table.channel, "hedgehog move", notation="roll 4"))
    assert typed == "The bot throws the dice: use the Roll button or /hedgehog roll."


# -- Treasure Hunt: rolling before the coins are set out ------------------------------------------------


async def test_treasure_roll_before_the_coins_are_set_out_says_to_arrange_them(table):
    # the board calls both players at once ("Red and Black to set out their coins face down"), so the
    # player not on the clock is not told "It is not your turn", and neither is told to "make your move"
    started = await started_game(table, "treasure", 2)
    members = table.members[:2]
    on_clock, _ = next_actor(started, members)
    other = next(m for m in members if m is not on_clock)
    for member in (other, on_clock):
        said = refusal(await member.slash(table.channel, "treasure roll"))
        assert "not your turn" not in said, said
        assert "arrange" in said, said


# -- words of a finished game ----------------------------------------------------------------------------


async def test_combat_ended_in_its_first_turn_says_one_turn(table):
    started = await started_game(table, "combat", 2)
    members = table.members[:2]
    actor, _ = next_actor(started, members)
    leaver = next(m for m in members if m is not actor)
    await leaver.slash(table.channel, "game resign")
    status = await actor.slash(table.channel, "game status")
    description = embed_of(status).description
    assert "Game over after 1 turn." in description, description


# -- nothing open in the channel: say how to open one ----------------------------------------------------


async def test_join_with_no_game_in_the_channel_says_how_to_open_one(table):
    said = refusal(await table.members[0].slash(table.channel, "combat join"))
    assert said == "There is no game running in this channel: open one with /combat new."


async def test_game_status_with_no_game_in_the_channel_says_how_to_open_one(table):
    said = refusal(await table.members[0].slash(table.channel, "game status"))
    assert said == "There is no game in this channel yet: open one with a game's new command, such as /hedgehog new."
