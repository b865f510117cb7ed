"""What a player does happens once, and what happens is always told.

A move committed by a process that stops before answering is announced in the channel after the
restart, once; the player's retry of the same suggestion is refused, so it is never played twice.
Two clicks of the same suggestion at the same instant apply it once.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

import cogs.table
from bot.session.service import BOARD_CHANGED
from tests.discord.helpers import next_actor, refusal


async def start_hedgehog(table):
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    return await alice.slash(table.channel, "hedgehog start")


def boards_saying(channel, text: str) -> list:
    return [m for m in channel.history() if m.embeds and text in (m.embeds[0].description or "")]


async def test_a_move_committed_before_a_crash_is_announced_once_and_its_retry_is_refused(table, make_bot, monkeypatch):
    started = await start_hedgehog(table)
    actor, kind = next_actor(started, table.members)
    rolled = await actor.slash(table.channel, "hedgehog roll")
    actor, kind = next_actor(rolled, table.members)
    assert kind == "move"
    choices = await actor.autocomplete(table.channel, "hedgehog move", "notation", "")
    chosen = next(c for c in choices if not c["value"].startswith("pass")) if len(choices) > 1 else choices[0]

    async def process_dies_before_answering(interaction, report):
        raise asyncio.CancelledError  # the move is committed; the reply never goes out

    monkeypatch.setattr(cogs.table, "show", process_dies_before_answering)
    with contextlib.suppress(asyncio.CancelledError):
        await actor.slash(table.channel, "hedgehog move", notation=chosen["value"])
    monkeypatch.undo()
    described = chosen["name"].split(" — ")[-1]
    assert boards_saying(table.channel, described) == []

    await table.env.restart_bot(make_bot(offset=timedelta(minutes=2)))
    assert len(boards_saying(table.channel, described)) == 1  # told in the channel after the restart

    retry = await actor.slash(table.channel, "hedgehog move", notation=chosen["value"])
    assert refusal(retry) == BOARD_CHANGED
    await table.env.restart_bot(make_bot(offset=timedelta(minutes=10)))
    assert len(boards_saying(table.channel, described)) == 1  # and only once
