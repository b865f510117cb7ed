"""Helpers for playing through SimCord the way a player reads the channel."""

from __future__ import annotations

import random
import re
from typing import Any

MENTION = re.compile(r"<@!?(\d+)>")
STAMP = re.compile(r"\s*@\d+$")


def notation(choice: dict[str, Any]) -> str:
    """The move notation of an autocomplete choice (its value also carries the ply it was offered at)."""
    return STAMP.sub("", str(choice["value"]))


def embed_of(result: Any) -> Any:
    """The first embed of an interaction's reply."""
    assert result.response is not None, "the bot did not reply"
    assert result.response.embeds, f"no embed in {result.response.content!r}"
    return result.response.embeds[0]


def field(embed: Any, name: str) -> str | None:
    """The value of the embed field called ``name``."""
    for f in embed.fields:
        if f.name == name:
            return f.value
    return None


def next_actor(result: Any, members: list[Any]) -> tuple[Any | None, str]:
    """Who the reply says must act next, and whether they must 'roll' or 'move' ('' when over)."""
    embed = embed_of(result)
    if field(embed, "Result") is not None:
        return None, ""
    for kind in ("roll", "move"):
        value = field(embed, f"To {kind}")
        if value:
            user_id = int(MENTION.search(value).group(1))
            return next(m for m in members if m.id == user_id), kind
    raise AssertionError(f"reply names nobody to act: {embed.to_dict()}")


def refusal(result: Any) -> str:
    """The ephemeral sentence of a refused action (asserts it is ephemeral)."""
    assert result.ephemeral, f"expected an ephemeral refusal, got {result.response!r}"
    return result.response.content


async def play_turns(
    env: Any,
    channel: Any,
    group: str,
    result: Any,
    members: list[Any],
    rng: random.Random,
    max_actions: int = 5000,
    use_buttons: bool = True,
) -> Any:
    """Play from ``result`` to the end: roll by button or command, move by a random autocomplete choice."""
    for count in range(max_actions):
        actor, kind = next_actor(result, members)
        if actor is None:
            return result
        if kind == "roll":
            if use_buttons and count % 2 == 0:
                result = await actor.click(result.response.message, label="Roll")
            else:
                result = await actor.slash(channel, f"{group} roll")
        else:
            choices = await actor.autocomplete(channel, f"{group} move", "notation", "")
            assert choices, "autocomplete offered no legal move"
            assert len(choices) <= 25
            result = await actor.slash(channel, f"{group} move", notation=rng.choice(choices)["value"])
        assert not result.ephemeral, result.response.content
    raise AssertionError("game did not end")
