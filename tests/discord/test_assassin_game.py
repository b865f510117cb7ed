"""The Martian Assassination Game end to end through slash commands and buttons, offline with SimCord.

Four players play a whole game: the victim first walks into the assassins until one captures it,
then runs for the bases while the assassins chase; bad input is refused along the way and the bot
is restarted mid-game.  Selfplay then plays whole games of 3, 6 and 9 players through the service.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.client import PyramidBot
from bot.selfplay import play_one
from bot.session.service import GameService, ServiceError
from bot.session.store import Store
from games.assassin import RULES, SAFE, Move, Reroll, State
from tests.discord.helpers import accepted, embed_of, field, next_actor, notation, refusal, showing


def only_refusals(env: Any) -> None:
    """Every error SimCord recorded was a refusal the player saw as one sentence."""
    for error in env.errors:
        assert isinstance(getattr(error, "original", error), ServiceError), repr(error)


async def current_state(bot: PyramidBot, channel_id: int) -> State:
    game = await bot.service.store.live_game(channel_id)
    assert game is not None
    return bot.service.state_of(game)


def distance(state: State, a: int, b: int) -> float:
    """Orthogonal steps between two squares (the safehouse counts as its centre)."""
    size = state.size
    centre = size / 2 - 0.5

    def xy(square: int) -> tuple[float, float]:
        return (centre, centre) if square == SAFE else (square % size, square // size)

    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by)


def pick(state: State, offered: list[str], captured_once: bool) -> str:
    """A sensible player: assassins close in (and capture); the victim seeks the assassins until the
    first capture, then heads for the nearest unmarked base."""
    by_notation = {RULES.format_move(state, m): m for m in RULES.legal_moves(state)}
    moves = [by_notation[n] for n in offered]
    if Reroll() in moves:
        return "reroll"
    squares = [m for m in moves if isinstance(m, Move)]
    if state.turn != state.victim:
        target = state.positions[state.victim]
        assert target is not None  # nobody leaves this game
        best = min(squares, key=lambda m: distance(state, m.to, target))
    elif not captured_once:
        hunters = [p for s, p in enumerate(state.positions) if s != state.victim and p is not None]
        best = min(squares, key=lambda m: min(distance(state, m.to, h) for h in hunters))
    else:
        todo = [b for b in state.board.bases if b not in state.markers[state.victim]]
        best = min(squares, key=lambda m: min(distance(state, m.to, b) for b in todo))
    return RULES.format_move(state, best)


async def open_game(table: Any) -> Any:
    alice, bob, carol, dave, _ = table.members
    opened = await alice.slash(table.channel, "assassin new", players=4)
    assert "alice opened a game of The Martian Assassination Game" in opened.response.content
    joined = await bob.click(opened.response.message, label="Join")
    assert "bob joins (2/4)" in joined.response.content
    await carol.slash(table.channel, "assassin join")
    await dave.click(opened.response.message, label="Join")
    return await alice.click(opened.response.message, label="Start")


async def test_four_players_play_to_the_end_with_a_capture_and_refused_input(table, simcord_env, make_bot):
    erin = table.members[4]
    players = table.members[:4]
    started = await open_game(table)
    embed = embed_of(started)
    assert embed.image.url == "attachment://board.png"
    assert "bases none" in field(embed, "Status")
    first, kind = next_actor(started, table.members)
    assert kind == "roll"
    state = await current_state(simcord_env.bot, table.channel.id)
    assert state.positions[state.victim] == SAFE and first is players[state.turn]

    # refusals before the roll: one private sentence each, nothing changes
    other = next(m for m in players if m is not first)
    assert refusal(await erin.slash(table.channel, "assassin roll")) == "You are not playing in this game."
    assert refusal(await other.slash(table.channel, "assassin roll")).startswith("It is not your turn")
    assert refusal(await first.slash(table.channel, "assassin move", notation="a2")).startswith("Roll first")
    assert await first.autocomplete(table.channel, "assassin move", "notation", "") == []
    too_small = await erin.slash(table.channel, "assassin new", players=4, board=12)
    assert refusal(too_small) == "The 12x12 board is for 6 to 9 players."

    rolled = await first.click(showing(started).message, label="Roll")
    assert accepted(rolled) and " rolls " in embed_of(rolled).description
    if next_actor(rolled, table.members) == (first, "move"):
        assert refusal(await first.slash(table.channel, "assassin roll")).startswith("There is nothing to roll now")
    else:  # a null or no reachable square: the turn has already passed on
        assert "cannot move" in embed_of(rolled).description or "no legal move" in embed_of(rolled).description

    result = rolled
    captures = bases_seen = refused_moves = urgent_offered = 0
    restarted = False
    for action in range(1500):
        actor, kind = next_actor(result, table.members)
        if actor is None:
            break
        bot = simcord_env.bot
        if kind == "roll":
            result = await (
                actor.click(showing(result).message, label="Roll")
                if action % 2
                else actor.slash(table.channel, "assassin roll")
            )
            assert accepted(result), result.response.content
            continue
        state = await current_state(bot, table.channel.id)
        offered = await actor.autocomplete(table.channel, "assassin move", "notation", "")
        legal = {RULES.format_move(state, m) for m in RULES.legal_moves(state)}
        assert offered and len(offered) == min(25, len(legal))
        assert {notation(c) for c in offered} <= legal
        urgent = {RULES.format_move(state, m) for m in RULES.legal_moves(state) if "·" in RULES.choice(state, m).label}
        first = offered[: len(urgent)]  # captures and bases to mark come first, saying so
        assert {notation(c) for c in first} == urgent
        assert all(" · capture — Capture " in c["name"] or " · base — Move " in c["name"] for c in first)
        urgent_offered += len(urgent)
        assert await other_player(players, actor).autocomplete(table.channel, "assassin move", "notation", "") == []
        if refused_moves < 3 and state.phase == "move":
            # a square the die cannot reach, the safehouse, and garbage: refused with the reason
            unreachable = next(
                state.board.name(sq)
                for sq in range(state.size**2)
                if sq not in state.board.safehouse and Move(sq) not in RULES.legal_moves(state)
            )
            for bad in (unreachable, "e5", "@everyone")[refused_moves : refused_moves + 1]:
                text = refusal(await actor.slash(table.channel, "assassin move", notation=bad))
                assert text and "\n" not in text
            refused_moves += 1
        values = [notation(c) for c in offered]
        if len(legal) > 25:  # narrowing by file keeps every choice on that file
            file = sorted(legal)[0][0]
            narrowed = await actor.autocomplete(table.channel, "assassin move", "notation", file)
            assert narrowed and all(notation(c).startswith(file) for c in narrowed)
        choice = pick(state, values if len(legal) <= 25 else sorted(legal), captures > 0)
        result = await actor.slash(table.channel, "assassin move", notation=choice)
        assert accepted(result), result.response.content
        text = embed_of(result).description
        if choice not in ("reroll", "stay"):
            assert " moves " in text and " → " in text and text.rstrip(".!").split(" → ")[-1].startswith(choice)
        if "captures" in text:
            captures += 1
            assert "becomes the victim and goes to the safehouse" in text
            after = await current_state(simcord_env.bot, table.channel.id)
            assert after.positions[after.victim] == SAFE
        if "marks base" in text:
            bases_seen += 1
        status = field(embed_of(result), "Status")
        assert status is None or "bases " in status
        if not restarted and action > 40:
            await simcord_env.restart_bot(make_bot())
            restarted = True
    final = embed_of(result)
    outcome = field(final, "Result")
    assert outcome and ("wins" in outcome or "Draw" in outcome)
    assert captures >= 1 and bases_seen >= 1 and urgent_offered >= 1 and restarted and refused_moves == 3
    late = await players[0].slash(table.channel, "assassin roll")
    assert refusal(late) == "There is no game running in this channel: open one with /assassin new."
    only_refusals(simcord_env)


def other_player(players: list[Any], actor: Any) -> Any:
    return next(m for m in players if m is not actor)


# Seeds whose random games end within a couple of hundred plies, to keep the run short.
SELFPLAY_SEEDS = {3: "selfplay-3-140", 6: "selfplay-6-223", 9: "selfplay-9-271"}


@pytest.mark.parametrize("players", [3, 6, 9])
async def test_selfplay_plays_whole_games(players: int, tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/selfplay.db")
    try:
        service = GameService(store, render=False)
        report, plies = await play_one(
            service, "assassin", players, {}, SELFPLAY_SEEDS[players], 1, random.Random(players)
        )
    finally:
        await store.close()
    assert report.outcome is not None and plies > 0
    assert len(report.outcome.ranks) == players
