"""Martian Combat end to end through slash commands and buttons, offline with SimCord.

Whole advanced games of 2 and 4 players are played until someone wins, by players who read the
Status line of each reply and answer with the matching shortcut (``step``, ``attack``, ``counter``,
``pass``, ``choose``, ``action``) or roll by button and command.  Wrong input is tried along the
way and must be refused in one private sentence that changes nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from tests.discord.helpers import accepted, embed_of, field, next_actor, notation, refusal, showing

DICE = re.compile(r"rolls \d \+ \d = \d+")


async def open_game(table: Any, players: int, **options: Any) -> Any:
    members = table.members[:players]
    opened = await members[0].slash(table.channel, "combat new", players=players, **options)
    assert "alice opened a game of Martian Combat" in opened.response.content
    for count, member in enumerate(members[1:], start=2):
        joined = await member.click(opened.response.message, label="Join")
        assert f"{member.name} joins ({count}/{players})" in joined.response.content
    return await members[0].click(opened.response.message, label="Start")


def status(result: Any) -> str:
    return field(embed_of(result), "Status") or ""


class Player:
    """Plays a turn's decisions through the shortcut commands, attacking whenever it can."""

    def __init__(self, table: Any, rng: random.Random) -> None:
        self.table = table
        self.rng = rng
        self.descriptions: list[str] = []
        self.refused: set[str] = set()

    async def act(self, result: Any, actor: Any, kind: str, count: int) -> Any:
        channel = self.table.channel
        if kind == "roll":
            if "roll" not in self.refused:
                await self.refuse(actor, "combat step", "Roll first", notation="R1 c1-c2")
                self.refused.add("roll")
            if count % 2:
                return await actor.click(showing(result).message, label="Roll")
            return await actor.slash(channel, "combat roll")
        line = status(result)
        if "may attack" in line:
            if "offer" not in self.refused and "the stack on" in line:
                await self.refuse(actor, "combat counter", "Not now")
                self.refused.add("offer")
            choices = await actor.autocomplete(channel, "combat attack", "notation", "")
            assert choices and all("x" in notation(c) for c in choices)
            return await actor.slash(channel, "combat attack", notation=choices[0]["value"])
        if "counter" in line:
            return await actor.slash(channel, "combat counter" if self.rng.random() < 0.7 else "combat pass")
        if "rolled Wild" in line:
            if "wild" not in self.refused:
                await self.refuse(actor, "combat step", "Not now", notation="R1 c1-c2")
                self.refused.add("wild")
            action = self.rng.choice(["tip", "swap", "hop", "dig", "aim", "none"])
            return await actor.slash(channel, "combat choose", action=action)
        if any(f"may {word}" in line for word in ("swap", "hop", "dig")):
            choices = await actor.autocomplete(channel, "combat action", "notation", "")
            assert len(choices) <= 25
            if not choices or self.rng.random() < 0.2:
                return await actor.slash(channel, "combat pass")
            return await actor.slash(channel, "combat action", notation=self.rng.choice(choices)["value"])
        # a step: the turn's move or an Aim step; prefer one that opens an attack
        assert "step" in line, line
        keen = await actor.autocomplete(channel, "combat step", "notation", "may attack")
        choices = keen or await actor.autocomplete(channel, "combat step", "notation", "")
        if not choices or (not keen and self.rng.random() < 0.15):
            return await actor.slash(channel, "combat pass")
        return await actor.slash(channel, "combat step", notation=self.rng.choice(choices)["value"])

    async def refuse(self, actor: Any, command: str, start: str, **options: Any) -> None:
        text = refusal(await actor.slash(self.table.channel, command, **options))
        assert text.startswith(start), text
        assert "\n" not in text

    async def play_to_the_end(self, result: Any, members: list[Any], restart: Callable | None = None) -> Any:
        for count in range(4000):
            actor, kind = next_actor(result, members)
            if actor is None:
                return result
            if restart is not None and count == 40:
                await restart()
            result = await self.act(result, actor, kind, count)
            assert accepted(result), result.response.content
            self.descriptions.append(embed_of(result).description)
        raise AssertionError("the game did not end")


async def test_two_players_play_an_advanced_game_until_someone_wins(table, simcord_env, make_bot):
    alice, bob, _, dave, _ = table.members
    started = await open_game(table, 2, variant="advanced")
    assert embed_of(started).image.url == "attachment://board.png"
    assert showing(started).attachments[0].filename == "board.png"
    first, kind = next_actor(started, table.members)
    second = bob if first is alice else alice
    assert kind == "move" and "step a pyramid" in status(started)
    assert showing(started).content == f"{first.mention}, your turn."

    # refusals: one private sentence each, and nothing changes
    assert refusal(await dave.slash(table.channel, "combat pass")) == "You are not playing in this game."
    assert refusal(await second.slash(table.channel, "combat pass")).startswith("It is not your turn")
    assert refusal(await first.slash(table.channel, "combat roll")).startswith("There is nothing to roll now")
    assert refusal(await first.slash(table.channel, "combat counter")).startswith("Not now")
    assert refusal(await first.slash(table.channel, "combat choose", action="aim")).startswith("Not now")
    home = "c1" if first is alice else "c6"  # alice joined first: Red, South
    letter = "R" if first is alice else "Y"
    ahead = "c2" if home == "c1" else "c5"
    assert "could mean" in refusal(await first.slash(table.channel, "combat move", notation=f"{home}-{ahead}"))
    jump = "c3" if home == "c1" else "c4"
    too_far = await first.slash(table.channel, "combat step", notation=f"{letter}3 {home}-{jump}")
    assert "not next to" in refusal(too_far)
    for garbage in ("???", "zz99", "'; DROP TABLE games; --", "@everyone", "roll 9"):
        text = refusal(await first.slash(table.channel, "combat move", notation=garbage))
        assert text and "\n" not in text and "@everyone" not in text
    history = await dave.slash(table.channel, "game history")
    assert embed_of(history).footer.text.startswith("0 moves")

    # the step suggestions are exactly the caller's steps
    suggested = await first.autocomplete(table.channel, "combat step", "notation", "")
    assert suggested and all(notation(c).startswith(letter) for c in suggested)
    assert await second.autocomplete(table.channel, "combat step", "notation", "") == []

    async def restart() -> None:
        await table.env.restart_bot(make_bot())

    player = Player(table, random.Random(3))
    final = await player.play_to_the_end(started, table.members, restart=restart)
    result = field(embed_of(final), "Result")
    assert result and "wins" in result
    text = "\n".join(player.descriptions)
    assert " attacks " in text and DICE.search(text), "every combat reply shows its dice and totals"
    assert "for the action:" in text
    assert "roll" in player.refused
    late = await first.slash(table.channel, "combat pass")
    assert refusal(late) == "There is no game running in this channel."


async def test_four_players_play_an_advanced_game_until_someone_wins(table, simcord_env):
    started = await open_game(table, 4, variant="advanced", turn_limit=600)
    player = Player(table, random.Random(8))
    final = await player.play_to_the_end(started, table.members[:4])
    result = field(embed_of(final), "Result")
    assert result and "wins" in result
    assert " attacks " in "\n".join(player.descriptions)
    assert simcord_env.errors == []


async def test_new_game_options_are_checked(table):
    alice = table.members[0]
    bad = await alice.slash(table.channel, "combat new", blocked="c1")
    assert refusal(bad) == "c1 is a start or home square and cannot be blocked."
    ok = await alice.slash(table.channel, "combat new", players=2, variant="simple", blocked="b2 e5")
    assert "opened a game of Martian Combat" in ok.response.content
    assert "blocked: b2 e5" in embed_of(ok).fields[1].value
