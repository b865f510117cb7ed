"""Martian Whist end to end through slash commands, offline with SimCord: a short game to the end."""

from __future__ import annotations

import random
from typing import Any

from bot.client import PyramidBot
from games.whist import RULES, TRICKS, Play, Steal, Take, WhistState, can_follow
from tests.discord.helpers import accepted, embed_of, field, next_actor, notation, refusal


def only_refusals(env: Any) -> None:
    """Refusals are replies, not errors: the bot raised nothing while being refused."""
    assert env.errors == []


async def open_short_game(table: Any) -> Any:
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "whist new", variant="short")
    assert "alice opened a game of Martian Whist" in opened.response.content
    joined = await bob.click(opened.response.message, label="Join")
    assert "bob joins (2/2)" in joined.response.content
    return await alice.click(opened.response.message, label="Start")


async def current_state(bot: PyramidBot, channel_id: int) -> WhistState:
    game = await bot.service.store.live_game(channel_id)
    assert game is not None
    return bot.service.state_of(game)


async def test_a_short_game_is_played_to_the_end_with_refused_input(table, simcord_env):
    bot = simcord_env.bot
    alice, bob, _, dave, _ = table.members
    started = await open_short_game(table)
    assert embed_of(started).image.url == "attachment://board.png"
    first, kind = next_actor(started, table.members)
    second = bob if first is alice else alice
    assert kind == "move"
    assert "takes any small" in field(embed_of(started), "Status")

    # refusals change nothing and say why in one private sentence
    assert refusal(await dave.slash(table.channel, "whist move", notation="take R1 a")) == (
        "You are not playing in this game."
    )
    assert refusal(await second.slash(table.channel, "whist move", notation="a")).startswith("It is not your turn")
    assert refusal(await first.slash(table.channel, "whist move", notation="steal")).startswith("You may steal only")
    assert refusal(await first.slash(table.channel, "whist move", notation="play R3 Y2 G1")).startswith(
        "The draft is still on"
    )
    for garbage in ("zz99", "???", "take take", "'; DROP TABLE games; --", "@everyone"):
        text = refusal(await first.slash(table.channel, "whist move", notation=garbage))
        assert text and "\n" not in text

    # the take autocomplete lists exactly the legal picks
    state = await current_state(bot, table.channel.id)
    offered = await first.autocomplete(table.channel, "whist move", "notation", "")
    legal = [RULES.format_move(state, m) for m in RULES.legal_moves(state)]
    assert sorted(notation(c) for c in offered) == sorted(legal)
    assert all(isinstance(m, Take) for m in RULES.legal_moves(state))  # the first pick of the draft
    assert await second.autocomplete(table.channel, "whist move", "notation", "") == []
    picked = await first.slash(table.channel, "whist move", notation=offered[0]["value"])
    assert accepted(picked) and " takes the " in embed_of(picked).description

    # the second player steals the first small; the first drafter then picks again
    stolen = await second.slash(table.channel, "whist move", notation="steal")
    assert accepted(stolen)
    assert "steals" in embed_of(stolen).description
    actor, _ = next_actor(stolen, table.members)
    assert actor is first
    assert refusal(await second.slash(table.channel, "whist move", notation="steal")).startswith("It is not your turn")

    rng = random.Random(3)
    result = stolen
    follows = 0
    refused_follow = False
    for _ in range(200):
        actor, _ = next_actor(result, table.members)
        if actor is None:
            break
        state = await current_state(bot, table.channel.id)
        if state.phase != TRICKS:
            choices = await actor.autocomplete(table.channel, "whist move", "notation", "")
            assert choices and len(choices) <= 25
            result = await actor.slash(table.channel, "whist move", notation=rng.choice(choices)["value"])
        else:
            choices = await actor.autocomplete(table.channel, "whist move", "notation", "")
            legal = {RULES.format_move(state, m) for m in RULES.legal_moves(state)}
            assert choices and len(choices) == min(25, len(legal))
            assert {notation(c) for c in choices} <= legal
            if state.led is not None:  # a follow's choices tell who would win the trick
                assert all(" wins, " in c["name"] for c in choices), choices
            if state.led is not None and not refused_follow and can_follow(state.stashes[state.turn], state.led):
                off_colour = [t for t in _all_trees(state) if Play(t) not in RULES.legal_moves(state)]
                if off_colour:
                    tree = " ".join(off_colour[0])
                    assert refusal(await actor.slash(table.channel, "whist move", notation=tree)).startswith(
                        "You must follow"
                    )
                    refused_follow = True
            was_follow = state.led is not None
            result = await actor.slash(table.channel, "whist move", notation=rng.choice(choices)["value"])
            if was_follow:
                follows += 1
                text = embed_of(result).description
                assert " wins" in text and "Scores: North" in text, text
        assert accepted(result), result.response.content
    assert follows == 5
    final = embed_of(result)
    outcome = field(final, "Result")
    assert outcome and ("wins" in outcome or "Draw" in outcome)
    late = await first.slash(table.channel, "whist move", notation="R3 Y2 G1")
    assert "no game" in refusal(late)
    only_refusals(simcord_env)


def _all_trees(state: WhistState) -> list[tuple[str, str, str]]:
    stash = state.stashes[state.turn]
    larges = sorted({p for p in stash if p.endswith("3")})
    mediums = sorted({p for p in stash if p.endswith("2")})
    smalls = sorted({p for p in stash if p.endswith("1")})
    return [(a, b, c) for a in larges for b in mediums for c in smalls]


async def test_play_autocomplete_narrows_by_what_is_typed(table, simcord_env):
    bot = simcord_env.bot
    started = await open_short_game(table)
    result = started
    rng = random.Random(5)
    while (await current_state(bot, table.channel.id)).phase != TRICKS:
        actor, _ = next_actor(result, table.members)
        choices = await actor.autocomplete(table.channel, "whist move", "notation", "")
        result = await actor.slash(table.channel, "whist move", notation=rng.choice(choices)["value"])
    state = await current_state(bot, table.channel.id)
    leader, _ = next_actor(result, table.members)
    moves = [RULES.format_move(state, m) for m in RULES.legal_moves(state)]
    target = moves[-1]
    typed = target.removeprefix("play ")
    narrowed = await leader.autocomplete(table.channel, "whist move", "notation", typed.lower())
    assert [notation(c) for c in narrowed] == [target]
    colours = "".join(p[0] for p in typed.split())
    by_colour = await leader.autocomplete(table.channel, "whist move", "notation", colours)
    assert target in [notation(c) for c in by_colour]
    # a tree typed by hand without the verb is accepted
    played = await leader.slash(table.channel, "whist move", notation=typed)
    assert accepted(played) and "leads" in embed_of(played).description
    assert Steal() not in RULES.legal_moves(await current_state(bot, table.channel.id))
    only_refusals(simcord_env)


async def test_a_restarted_bot_continues_the_draft(table, simcord_env, make_bot):
    started = await open_short_game(table)
    first, _ = next_actor(started, table.members)
    choices = await first.autocomplete(table.channel, "whist move", "notation", "")
    await simcord_env.restart_bot(make_bot())
    picked = await first.slash(table.channel, "whist move", notation=choices[0]["value"])
    assert accepted(picked)
    actor, _ = next_actor(picked, table.members)
    assert actor is not first


async def test_a_resignation_names_the_winner_once_on_the_board_and_in_the_history(table, simcord_env):
    _alice, bob = table.members[:2]
    await open_short_game(table)
    resigned = await bob.slash(table.channel, "game resign")
    result = field(embed_of(resigned), "Result") or ""
    # bob sits South; the head says who won and the reason says why, each once
    assert result.split("\n")[0] == "**alice wins!** South left the game.", result
    history = await bob.slash(table.channel, "game history")
    listing = (await history.response.attachments[0].read()).decode()
    assert listing.rstrip().endswith("Result: alice wins! South left the game."), listing
    only_refusals(simcord_env)


async def test_a_suggestion_picked_before_an_undo_is_refused_once_the_board_changed(table, simcord_env):
    """An undo brings a ply back with another position: a suggestion listed before it is refused.

    The first player takes a piece; the second player's suggestions list a steal of *that* piece. The
    first asks to undo, the second accepts, and the first takes another piece: the ply is 1 again. The
    old steal must be refused ("the board changed"), not steal the other piece.
    """
    alice, bob = table.members[:2]
    started = await open_short_game(table)
    first, _ = next_actor(started, table.members)
    second = bob if first is alice else alice
    offered = await first.autocomplete(table.channel, "whist move", "notation", "")
    assert offered[0]["value"] != offered[1]["value"]
    assert accepted(await first.slash(table.channel, "whist move", notation=offered[0]["value"]))
    old = {c["value"] for c in await second.autocomplete(table.channel, "whist move", "notation", "")}
    asked = await first.slash(table.channel, "game undo")
    assert accepted(await second.click(asked.response.message, label="Accept undo"))
    assert accepted(await first.slash(table.channel, "whist move", notation=offered[1]["value"]))
    now = {c["value"] for c in await second.autocomplete(table.channel, "whist move", "notation", "")}
    stale = next(value for value in old if value.startswith("steal"))  # "steal @1": steal the piece just taken
    assert any(value.startswith("steal") for value in now)  # a steal is legal now too: of another piece
    before = await simcord_env.bot.service.live_game(table.channel.id)
    result = await second.slash(table.channel, "whist move", notation=stale)
    after = await simcord_env.bot.service.live_game(table.channel.id)
    assert after.version == before.version, "a suggestion offered for the board before the undo was played"
    assert "changed" in refusal(result)


async def test_suggestions_are_the_same_when_a_phone_capitalises_the_verb(table, simcord_env):
    # docs/rules/whist.md, Notation: "Case and spaces do not matter"
    alice, bob = table.members[:2]
    opened = await alice.slash(table.channel, "whist new", variant="short")
    await bob.click(opened.response.message, label="Join")
    started = await alice.click(opened.response.message, label="Start")
    first, _ = next_actor(started, table.members)
    lower = await first.autocomplete(table.channel, "whist move", "notation", "take")
    upper = await first.autocomplete(table.channel, "whist move", "notation", "Take")
    assert lower, "lower-case 'take' lists the picks"
    piece = notation(lower[0]).split()[1]  # e.g. R1
    narrowed = await first.autocomplete(table.channel, "whist move", "notation", f"take {piece}")
    narrowed_upper = await first.autocomplete(table.channel, "whist move", "notation", f"Take {piece}")
    assert [c["value"] for c in upper] == [c["value"] for c in lower]
    assert [c["value"] for c in narrowed_upper] == [c["value"] for c in narrowed]
