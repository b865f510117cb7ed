"""Helpers for playing through SimCord the way a player reads the channel."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import simcord

MENTION = re.compile(r"<@!?(\d+)>")
STAMP = re.compile(r"\s*@\d+(\.[0-9a-f]{8})?$")


@contextlib.asynccontextmanager
async def running(bot: Any, **options: Any) -> AsyncIterator[simcord.Env]:
    """``simcord.run(bot, **options)`` that closes the bot's database at the end, whatever happens.

    SimCord detaches a bot without closing it, so a bot built outside the test fixtures would leave
    its database connection open past the event loop.
    """
    try:
        async with simcord.run(bot, **options) as env:
            yield env
    finally:
        await bot.close_session()


Emitted = tuple[int, int, int, dict[str, Any], dict[str, Any] | None, int | None]


async def emit_at_once(env: Any, guild_id: int | None, interactions: list[Emitted], *, idle: float = 0.05) -> list[Any]:
    """Send every interaction before the bot handles any of them, as clicks at the same instant; their records.

    Each is (user id, interaction type, channel id, data, extra payload fields, source message id).
    SimCord's own actions wait for the bot after each one, so this builds the gateway payloads itself.
    """
    from simcord import interactions as wire

    records = []
    env._begin_operation("at once")
    try:
        for user_id, kind, channel_id, data, extra, source in interactions:
            record, payload = wire.base_payload(
                env.backend, type=kind, channel_id=channel_id, guild_id=guild_id, user_id=user_id, data=data
            )
            if extra:
                payload.update(extra)
            if source is not None:
                record.source_message_id = source
            env._notify_dispatch_observers(record)
            env.backend.emit("INTERACTION_CREATE", payload)
            records.append(record)
        await env._settle_internal(dispatch="INTERACTION_CREATE", idle=idle)
    finally:
        env._end_operation()
    return records


async def press_at_once(env: Any, guild_id: int, presses: list[tuple[Any, Any, str]]) -> list[Any]:
    """Press buttons at the same instant: each (member, message, custom id); the interactions' results."""
    return await _components_at_once(
        env, guild_id, [(m, msg, {"custom_id": c, "component_type": 2}) for m, msg, c in presses]
    )


async def select_at_once(env: Any, guild_id: int, choices: list[tuple[Any, Any, str, list[str]]]) -> list[Any]:
    """Choose in menus at the same instant: each (member, message, custom id, values); the results."""
    return await _components_at_once(
        env,
        guild_id,
        [(m, msg, {"custom_id": c, "component_type": 3, "values": values}) for m, msg, c, values in choices],
    )


async def _components_at_once(env: Any, guild_id: int, uses: list[tuple[Any, Any, dict[str, Any]]]) -> list[Any]:
    from simcord.backend import serializers
    from simcord.enums import InteractionType
    from simcord.results import InteractionResult

    emitted: list[Emitted] = []
    for member, message, data in uses:
        channel_id = getattr(message, "channel_id", None) or message.channel.id
        raw = env.backend.get_message(channel_id, message.id)
        extra = {"message": dict(serializers.message_payload(env.backend, raw))}
        emitted.append((member.id, InteractionType.MESSAGE_COMPONENT, channel_id, data, extra, message.id))
    return [InteractionResult(env, record) for record in await emit_at_once(env, guild_id, emitted)]


def command_data(env: Any, guild_id: int, name: str) -> dict[str, Any]:
    """The interaction data of the slash command ``name`` ("group sub") sent with no options."""
    from simcord import interactions as wire

    root = env.backend.find_command(name.split()[0], guild_id, type=1)
    _leaf, nesting = wire.walk_to_subcommand(root, name.split()[1:])
    return {"id": root["id"], "name": root["name"], "type": 1, "options": wire.nest_options(root, nesting, [])}


async def slash_at_once(env: Any, guild_id: int, channel_id: int, sends: list[tuple[Any, str]]) -> list[Any]:
    """Send slash commands with no options at the same instant: each (member, "group sub"); the results."""
    from simcord.enums import InteractionType
    from simcord.results import InteractionResult

    kind = InteractionType.APPLICATION_COMMAND
    emitted: list[Emitted] = [
        (member.id, kind, channel_id, command_data(env, guild_id, name), None, None) for member, name in sends
    ]
    return [InteractionResult(env, record) for record in await emit_at_once(env, guild_id, emitted)]


def custom_id(message: Any, label: str) -> str:
    """The custom id of the button labelled ``label`` under ``message``."""
    for row in message.components:
        for child in row["components"] if isinstance(row, dict) else row.children:
            get = child.get if isinstance(child, dict) else lambda key, c=child: getattr(c, key, None)
            if get("label") == label:
                return str(get("custom_id"))
    raise AssertionError(f"no {label!r} button under the message")


def notation(choice: dict[str, Any]) -> str:
    """The move notation of an autocomplete choice (its value also carries the ply it was offered at)."""
    return STAMP.sub("", str(choice["value"]))


BOARD_FIELDS = ("To roll", "To move", "Result")


def is_board(message: Any) -> bool:
    """True for a message showing a game's board (its living message), not a summary or a refusal."""
    return bool(
        message is not None
        and not message.flags.ephemeral
        and message.embeds
        and any(f.name in BOARD_FIELDS for f in message.embeds[0].fields)
    )


def living_board(env: Any, channel_id: int) -> Any:
    """The newest board message of a channel, as SimCord holds it."""
    from simcord.results import ResponseMessage

    for raw in sorted(env.backend.messages.get(channel_id, {}).values(), key=lambda m: m.id, reverse=True):
        message = ResponseMessage(env, raw)
        if is_board(message):
            return message
    return None


def showing(result: Any) -> Any:
    """The message that shows the game after ``result``.

    A turn's actions edit the game's living message, and a new one is posted when the turn passes:
    the board is in the reply, in a follow-up, or (after a private "Done") in the channel.
    """
    if not hasattr(result, "followups"):  # a message read from the channel
        return result.response
    for message in (*reversed(result.followups), result.response):
        if is_board(message):
            return message
    return living_board(result._env, result._interaction.channel_id)


def embed_of(result: Any) -> Any:
    """The embed that ``result`` shows: the board it left showing, else its reply's own (history, lists)."""
    assert result.response is not None, "the bot did not reply"
    response = result.response
    if is_board(response):
        return response.embeds[0]
    board = next((m for m in reversed(result.followups) if is_board(m)), None)
    if board is None and response.embeds:
        return response.embeds[0]
    board = board or living_board(result._env, result._interaction.channel_id)
    assert board is not None, f"no embed in {response.content!r}"
    return board.embeds[0]


def field(embed: Any, name: str) -> str | None:
    """The value of the embed field called ``name``."""
    for f in embed.fields:
        if f.name == name:
            return f.value
    return None


def next_actor(result: Any, members: list[Any]) -> tuple[Any | None, str]:
    """Who the board says must act next, and whether they must 'roll' or 'move' ('' when over)."""
    board = showing(result)
    assert board is not None, f"no board after {result!r}"
    embed = board.embeds[0]
    if field(embed, "Result") is not None:
        return None, ""
    for kind in ("roll", "move"):
        value = field(embed, f"To {kind}")
        if value:
            mention = MENTION.search(value)
            assert mention is not None, f"no player named in {value!r}"
            user_id = int(mention.group(1))
            return next(m for m in members if m.id == user_id), kind
    raise AssertionError(f"the board names nobody to act: {embed.to_dict()}")


def accepted(result: Any) -> bool:
    """True when the action was played: a public board, or the private "Done" of a turn going on."""
    return not result.ephemeral or result.response.content.startswith("Done: ")


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
                result = await actor.click(showing(result).message, label="Roll")
            else:
                result = await actor.slash(channel, f"{group} roll")
        else:
            choices = await actor.autocomplete(channel, f"{group} move", "notation", "")
            assert choices, "autocomplete offered no legal move"
            assert len(choices) <= 25
            result = await actor.slash(channel, f"{group} move", notation=rng.choice(choices)["value"])
        assert accepted(result), result.response.content
    raise AssertionError("game did not end")


def button_labels(message: Any) -> list[str]:
    """The labels of the buttons under ``message`` (a message, or a response's raw components)."""
    labels = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else row.children
        for child in children:
            label = child.get("label") if isinstance(child, dict) else getattr(child, "label", None)
            if label:
                labels.append(label)
    return labels


def join_disabled(table: Any, message: Any) -> bool:
    """True when the Join button under the lobby ``message``, as the channel holds it now, cannot be pressed."""
    raw = table.env.backend.messages[table.channel.id][message.id]
    rows = [row if isinstance(row, dict) else row.to_dict() for row in raw.components]
    join = next(c for row in rows for c in row["components"] if c.get("label") == "Join")
    return bool(join.get("disabled"))


def bot_menu_choices(table: Any, message: Any) -> list[str] | None:
    """The choices the lobby ``message``'s computer-player menu offers now (None when it is greyed)."""
    raw = table.env.backend.messages[table.channel.id][message.id]
    rows = [row if isinstance(row, dict) else row.to_dict() for row in raw.components]
    menu = next(c for row in rows for c in row["components"] if c.get("type") == 3)
    return None if menu.get("disabled") else [option["value"] for option in menu["options"]]


def close_dms(env: Any, member: Any) -> None:
    """From now on Discord refuses the bot's direct messages to ``member`` (their DMs are closed)."""
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


async def started_game(table: Any, game: str, players: int, **options: Any) -> Any:
    """A game of ``game`` opened in #games by the first ``players`` members, the others joining by button,
    started by its opener; the start's result."""
    members = table.members[:players]
    if game != "whist":  # Martian Whist is always two players
        options["players"] = players
    opened = await members[0].slash(table.channel, f"{game} new", **options)
    for member in members[1:]:
        await member.click(opened.response.message, label="Join")
    return await members[0].click(opened.response.message, label="Start")


def board_now(table: Any) -> Any:
    """The living board of #games, read like a command's result (for ``next_actor``)."""

    class Read:
        response = living_board(table.env, table.channel.id)

    return Read()
