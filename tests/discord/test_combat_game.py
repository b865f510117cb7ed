"""Martian Combat end to end through slash commands and buttons, offline with SimCord.

Whole advanced games of 2 and 4 players are played until someone wins, by players who read the
Status line of each reply and answer through ``/combat move`` (a suggestion, or ``counter``, ``pass``,
``choose aim``... typed) or a decision button, and roll by button and command.  Wrong input is tried along the
way and must be refused in one private sentence that changes nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from tests.discord.helpers import accepted, button_labels, embed_of, field, next_actor, notation, refusal, showing

DICE = re.compile(r"rolls \d \+ \d = \d+")
STEP = re.compile(r"^[RYGB][1-3] [a-f][1-6]-[a-f][1-6]$")
ATTACK = re.compile(r"^[a-f][1-6]x[a-f][1-6]$")
ACTION = re.compile(r"^(swap|hop|dig) ")


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
                await self.refuse(actor, "combat move", "Roll first", notation="R1 c1-c2")
                self.refused.add("roll")
            if count % 2:
                return await actor.click(showing(result).message, label="Roll")
            return await actor.slash(channel, "combat roll")
        line = status(result)
        if "may attack" in line:
            if "offer" not in self.refused and "the stack on" in line:
                await self.refuse(actor, "combat move", "Not now", notation="counter")
                self.refused.add("offer")
            choices = await self.suggested(actor, "", ATTACK)
            assert choices
            return await actor.slash(channel, "combat move", notation=choices[0]["value"])
        if "counter" in line:
            answer = "counter" if self.rng.random() < 0.7 else "pass"
            if count % 3 == 0:  # the offer's own buttons, as a player on a phone would
                return await actor.click(showing(result).message, label=self.label(result, answer))
            return await actor.slash(channel, "combat move", notation=answer)
        if "rolled Wild" in line:
            if "wild" not in self.refused:
                await self.refuse(actor, "combat move", "Not now", notation="R1 c1-c2")
                self.refused.add("wild")
            action = self.rng.choice(["tip", "swap", "hop", "dig", "aim", "none"])
            typed = "no action" if action == "none" else f"choose {action}"
            return await actor.slash(channel, "combat move", notation=typed)
        if any(f"may {word}" in line for word in ("swap", "hop", "dig")):
            choices = await self.suggested(actor, "", ACTION)
            assert len(choices) <= 25
            if not choices or self.rng.random() < 0.2:
                return await actor.slash(channel, "combat move", notation="pass")
            return await actor.slash(channel, "combat move", notation=self.rng.choice(choices)["value"])
        # a step: the turn's move or an Aim step; prefer one that opens an attack
        assert "step" in line, line
        keen = await self.suggested(actor, "may attack", STEP)
        choices = keen or await self.suggested(actor, "", STEP)
        if not choices or (not keen and self.rng.random() < 0.15):
            return await actor.slash(channel, "combat move", notation="pass")
        return await actor.slash(channel, "combat move", notation=self.rng.choice(choices)["value"])

    async def suggested(self, actor: Any, typed: str, kind: re.Pattern[str]) -> list[dict[str, Any]]:
        """The suggestions of ``/combat move`` for ``typed`` whose notation is of ``kind``."""
        choices = await actor.autocomplete(self.table.channel, "combat move", "notation", typed)
        assert len(choices) <= 25
        return [c for c in choices if kind.match(notation(c))]

    @staticmethod
    def label(result: Any, answer: str) -> str:
        """The label of the button under the living board that plays ``answer``."""
        labels = button_labels(showing(result))
        wanted = {"counter": ("counter",), "pass": ("no counter", "pass", "decline")}[answer]
        found = [label for label in labels if label.lower() in wanted]
        assert found, (answer, labels)
        return found[0]

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
    # read out by screen readers in place of the picture: the game and where it stands
    alt = showing(started).attachments[0].description
    assert alt.startswith("Martian Combat board. Turn 1/300 · ") and "to move" in alt
    first, kind = next_actor(started, table.members)
    second = bob if first is alice else alice
    assert kind == "move" and "step a pyramid" in status(started)
    assert showing(started).content == f"{first.mention}, your turn."

    # refusals: one private sentence each, and nothing changes
    assert (
        refusal(await dave.slash(table.channel, "combat move", notation="pass")) == "You are not playing in this game."
    )
    assert refusal(await second.slash(table.channel, "combat move", notation="pass")).startswith("It is not your turn")
    assert refusal(await first.slash(table.channel, "combat roll")).startswith("There is nothing to roll now")
    assert refusal(await first.slash(table.channel, "combat move", notation="counter")).startswith("Not now")
    assert refusal(await first.slash(table.channel, "combat move", notation="choose aim")).startswith("Not now")
    home = "c1" if first is alice else "c6"  # alice joined first: Red, South
    letter = "R" if first is alice else "Y"
    ahead = "c2" if home == "c1" else "c5"
    assert "could mean" in refusal(await first.slash(table.channel, "combat move", notation=f"{home}-{ahead}"))
    jump = "c3" if home == "c1" else "c4"
    too_far = await first.slash(table.channel, "combat move", notation=f"{letter}3 {home}-{jump}")
    assert "not next to" in refusal(too_far)
    for garbage in ("???", "zz99", "'; DROP TABLE games; --", "@everyone", "roll 9"):
        text = refusal(await first.slash(table.channel, "combat move", notation=garbage))
        assert text and "\n" not in text and "@everyone" not in text
    history = await dave.slash(table.channel, "game history")
    assert embed_of(history).footer.text.startswith("0 moves")
    record = (await history.response.attachments[0].read()).decode()
    assert "\nOptions: variant: advanced, blocked: none, turn limit: 300\n" in record

    # the step suggestions are exactly the caller's steps
    suggested = await first.autocomplete(table.channel, "combat move", "notation", "")
    assert suggested and all(notation(c).startswith(letter) or notation(c) == "no move" for c in suggested)
    assert await second.autocomplete(table.channel, "combat move", "notation", "") == []

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
    late = await first.slash(table.channel, "combat move", notation="pass")
    assert refusal(late) == "There is no game running in this channel: open one with /combat new."


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
    assert embed_of(ok).fields[1].value == "variant: simple, blocked: b2 e5"
    other = table.guild.create_text_channel("more-games")
    default = await table.members[1].slash(other, "combat new", players=2)
    assert embed_of(default).fields[1].value == "standard"


async def test_an_opponent_asked_to_attack_or_counter_is_told_it_is_an_answer_in_the_movers_turn(table, simcord_env):
    # the offered attack and the counter attack are decided inside the mover's turn: the player asked
    # is called to answer in it, not told it is their turn, and the mover is called back to their own
    env = table.env
    alice, bob = table.members[:2]
    colour = {alice.id: "Red", bob.id: "Yellow"}
    result = await open_game(table, 2)
    rng = random.Random(11)
    seen = {m.id for m in env.backend.messages.get(table.channel.id, {}).values()}
    asked: dict[str, list[str]] = {"offer": [], "counter": []}
    for _ in range(1500):
        actor, kind = next_actor(result, [alice, bob])
        if actor is None or (asked["offer"] and asked["counter"]):
            break
        if kind == "roll":
            result = await actor.click(showing(result).message, label="Roll")
        else:
            choices = await actor.autocomplete(table.channel, "combat move", "notation", "")
            eager = [c for c in choices if ATTACK.match(notation(c)) or notation(c) == "counter"]
            keen = await actor.autocomplete(table.channel, "combat move", "notation", "may attack")
            pick = eager[0] if eager else rng.choice(keen or choices)
            result = await actor.slash(table.channel, "combat move", notation=pick["value"])
        assert accepted(result), result.response.content
        game = await env.bot.service.store.live_game(table.channel.id)
        if game is None:
            break
        state = env.bot.service.state_of(game)
        posted = [m for m in env.backend.messages[table.channel.id].values() if m.id not in seen and not m.is_ephemeral]
        seen |= {m.id for m in posted}
        calls = [m.content for m in posted if m.content]
        if state.phase in asked and calls:
            (content,) = calls
            mover = "Red" if state.current == 0 else "Yellow"
            decider = alice if colour[alice.id] != mover else bob
            assert content == f"{decider.mention}, your answer in {mover}'s turn.", content
            asked[str(state.phase)].append(content)
        elif calls:
            assert all(content.endswith("your turn.") for content in calls), calls
    assert asked["offer"] and asked["counter"], asked
