"""Suggestions and results as players of Treasure Hunt, the Assassination Game and Der Marsigelwettkampf
meet them: what a phone types is suggested, another game's moves are not, a failed solitaire says so."""

from __future__ import annotations

import random
from typing import Any

from bot.client import PyramidBot
from games.assassin import RULES
from tests.discord.helpers import accepted, board_now, field, next_actor, notation, started_game


async def state_of(bot: PyramidBot, channel_id: int) -> Any:
    game = await bot.service.store.live_game(channel_id)
    assert game is not None
    return bot.service.state_of(game)


# --------------------------------------------------------------------------- Marsigelwettkampf


async def test_a_failed_solitaire_says_there_is_no_winner_and_why(table):
    # Ruling: "Solitaire (1 player): ... the result records the number of turns taken, or a failure".
    # a failed attempt ranks nobody first: the result says there is no winner, then how it failed
    alice = table.members[0]
    opened = await alice.slash(table.channel, "hedgehog new", players=1)
    await alice.click(opened.response.message, label="Start")
    assert accepted(await alice.slash(table.channel, "game resign"))
    result = field(table.channel.last_message.embeds[0], "Result")
    assert result is not None and "Failed" in result
    assert result.startswith("**No winner.** Failed: Red gave up after 0 turns."), result


# --------------------------------------------------------------------------- Assassination


async def test_assassin_move_suggests_nothing_while_another_game_is_played_here(table):
    # /treasure move and /hedgehog move suggest nothing in a channel playing another game; /assassin move
    # (cogs/assassin.py move_squares, no game-kind check) lists that game's moves, each refused when picked.
    started = await started_game(table, "hedgehog", 3)
    first, _ = next_actor(started, table.members)
    assert accepted(await first.slash(table.channel, "hedgehog roll"))
    assert await first.autocomplete(table.channel, "treasure move", "notation", "") == []
    offered = await first.autocomplete(table.channel, "assassin move", "notation", "")
    assert offered == [], [c["name"] for c in offered[:3]]


async def _to_phase(table: Any, bot: PyramidBot, phase: str, rng: random.Random) -> tuple[Any, Any]:
    """Play a 4-player game by the board's controls until the player to act is in ``phase``."""
    for _ in range(600):
        actor, kind = next_actor(board_now(table), table.members)
        assert actor is not None, "the game ended first"
        state = await state_of(bot, table.channel.id)
        if state.phase == phase:
            return actor, state
        if kind == "roll":
            assert accepted(await actor.slash(table.channel, "assassin roll"))
        else:
            choices = await actor.autocomplete(table.channel, "assassin move", "notation", "")
            assert accepted(await actor.slash(table.channel, "assassin move", notation=rng.choice(choices)["value"]))
    raise AssertionError(f"no {phase} phase came")


async def test_assassin_typed_reroll_is_suggested_after_a_null(table, simcord_env):
    # docs/rules/assassin.md, "Moves and notation": you type `reroll` after a null.  The suggestion box
    # matches what is typed against the label only ("Re-roll — Roll the die again; ..."), never the
    # notation (cogs/assassin.py matches).
    await started_game(table, "assassin", 4)
    victim, _ = await _to_phase(table, simcord_env.bot, "null", random.Random(5))
    assert [notation(c) for c in await victim.autocomplete(table.channel, "assassin move", "notation", "")] == [
        "reroll",
        "stay",
    ]
    for typed in ("reroll", "Reroll"):
        offered = await victim.autocomplete(table.channel, "assassin move", "notation", typed)
        assert [notation(c) for c in offered] == ["reroll"], (typed, offered)


async def test_assassin_square_typed_with_a_space_is_suggested(table, simcord_env):
    # docs/rules/assassin.md: "Text is forgiving about case and spaces"; /assassin move accepts "d 4" typed
    # in full, but the suggestion box (cogs/assassin.py matches) keeps the inner space and offers nothing.
    await started_game(table, "assassin", 4)
    actor, state = await _to_phase(table, simcord_env.bot, "move", random.Random(2))
    offered = await actor.autocomplete(table.channel, "assassin move", "notation", "")
    square = notation(offered[0])
    spaced = f"{square[0]} {square[1:]}"
    assert [notation(c) for c in await actor.autocomplete(table.channel, "assassin move", "notation", square)]
    assert RULES.format_move(state, RULES.parse_move(state, spaced.upper())) == square  # typed in full: accepted
    narrowed = await actor.autocomplete(table.channel, "assassin move", "notation", spaced)
    assert square in [notation(c) for c in narrowed], (spaced, narrowed)


# --------------------------------------------------------------------------- Treasure Hunt


async def test_treasure_arrange_suggests_the_standard_order_for_default(table):
    # /treasure arrange's own hint: "Coin values left to right from your seat, e.g. 543210 (0 null, 1 ace);
    # or default", and docs/rules/treasure.md: "`arrange default` (= `arrange 012345`)".  Typed and sent,
    # "default" is accepted, but the suggestion box matches neither it nor "arrange default".
    started = await started_game(table, "treasure", 2)
    first, _ = next_actor(started, table.members)
    for typed in ("default", "Default", "arrange default"):
        offered = await first.autocomplete(table.channel, "treasure arrange", "order", typed)
        assert offered and notation(offered[0]) == "arrange 012345", (typed, offered)
    for typed in ("arr", "Arrange", "0,1,2,3,4,5"):  # the verb's start lists them all; commas go
        assert await first.autocomplete(table.channel, "treasure arrange", "order", typed), typed
