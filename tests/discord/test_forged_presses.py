"""Controls pressed away from their game: a modified client sends a game's button or menu choice from a
message in another channel, or from a direct message with the bot.

Discord sends a press only from the message that holds the control, and every control of a game lies
in its game's channel; the bot assumes nothing of the kind (docs/robustness.md). Such a press is
refused with one private sentence before anything is played, and the game's board stays in its
channel.
"""

from __future__ import annotations

import copy
from typing import Any

from simcord.backend import serializers
from simcord.builders import UserHandle
from simcord.enums import InteractionType
from simcord.results import InteractionResult

from cogs.buttons import ELSEWHERE
from tests.discord.helpers import emit_at_once, living_board, next_actor


async def forged_press(env: Any, guild_id: int | None, user_id: int, message: Any, control: dict) -> InteractionResult:
    """A press of ``control`` (a button or a menu's first option, as the bot sent it) as if it sat under
    ``message``, a message of the bot in another channel."""
    raw = env.backend.get_message(message.channel_id, message.id)
    payload = copy.deepcopy(dict(serializers.message_payload(env.backend, raw)))
    if control["type"] == 2:
        data = {"custom_id": control["custom_id"], "component_type": 2}
        component = {"type": 2, "style": 1, "label": "Press", "custom_id": control["custom_id"]}
    else:
        value = control["options"][0]["value"]
        data = {"custom_id": control["custom_id"], "component_type": 3, "values": [value]}
        component = {"type": 3, "custom_id": control["custom_id"], "options": [{"label": value, "value": value}]}
    payload["components"] = [{"type": 1, "components": [component]}]
    extra = {"message": payload}
    kind = InteractionType.MESSAGE_COMPONENT
    [record] = await emit_at_once(env, guild_id, [(user_id, kind, message.channel_id, data, extra, message.id)])
    return InteractionResult(env, record)


def controls_of(message: Any, label: str | None = None) -> list[dict]:
    """The controls under ``message``: buttons and menus (only the button ``label``, if given)."""
    found = [c for row in message.components for c in row["components"]]
    return [c for c in found if label is None or c.get("label") == label]


async def started_and_rolled(table: Any) -> tuple[Any, Any]:
    """A two-player Der Marsigelwettkampf in #games whose first player has rolled: (that player, the board)."""
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    started = await alice.slash(table.channel, "hedgehog start")
    actor, _kind = next_actor(started, [alice, bob])
    assert actor is not None
    await actor.click(living_board(table.env, table.channel.id).message, label="Roll")
    return actor, living_board(table.env, table.channel.id)


async def refused_and_unplayed(table: Any, pressed: InteractionResult, ply: int, record: Any) -> None:
    assert pressed.ephemeral and pressed.response is not None and pressed.response.content == ELSEWHERE
    game = await table.env.bot.service.live_game(table.channel.id)
    assert game.ply == ply  # nothing played
    assert await table.env.bot.service.table_message(game.id) == record  # the board stays in #games


async def test_a_move_pressed_from_a_message_in_another_channel_is_refused_and_the_board_stays(table):
    actor, board = await started_and_rolled(table)
    game = await table.env.bot.service.live_game(table.channel.id)
    record = await table.env.bot.service.table_message(game.id)
    carol = table.members[2]
    elsewhere = table.guild.create_text_channel("elsewhere")
    opened = await carol.slash(elsewhere, "combat new", players=2)  # a message of the bot there
    pressed = await forged_press(table.env, table.guild.id, actor.id, opened.response, controls_of(board)[0])
    await refused_and_unplayed(table, pressed, game.ply, record)
    assert [m for m in elsewhere.history() if m.embeds and m.embeds[0].image] == []


async def test_a_move_pressed_from_a_direct_message_is_refused_and_the_board_stays(table):
    actor, board = await started_and_rolled(table)
    game = await table.env.bot.service.live_game(table.channel.id)
    record = await table.env.bot.service.table_message(game.id)
    mine = await UserHandle(table.env, table.env.backend.users[actor.id]).slash("game mine")
    pressed = await forged_press(table.env, None, actor.id, mine.response, controls_of(board)[0])
    await refused_and_unplayed(table, pressed, game.ply, record)


async def test_a_start_pressed_from_another_channel_is_refused_and_the_lobby_waits(table):
    alice, bob, carol = table.members[:3]
    opened = await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    lobby = table.env.backend.messages[table.channel.id][opened.response.id]
    elsewhere = table.guild.create_text_channel("elsewhere")
    other = await carol.slash(elsewhere, "combat new", players=2)
    pressed = await forged_press(table.env, table.guild.id, alice.id, other.response, controls_of(lobby, "Start")[0])
    assert pressed.ephemeral and pressed.response is not None and pressed.response.content == ELSEWHERE
    game = await table.env.bot.service.game((await table.env.bot.service.latest_game(table.channel.id)).id)
    assert game.status == "open"
    started = await alice.click(opened.response.message, label="Start")  # from its own channel it starts
    assert next_actor(started, [alice, bob])[1] == "roll"
