"""Stopping the bot lets a background check under way finish instead of cutting off its database calls,
and closes its database."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from discord.ext import commands

from bot.client import PyramidBot


class SlowCheck:
    """Stands in for a check: starts, then waits until released; records whether it finished or was cut off."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.finished = False
        self.cut_off = False

    async def __call__(self, *args: Any) -> None:
        self.started.set()
        try:
            await self.env.external_wait(self.release.wait(), reason="a check held open by the test")
        except asyncio.CancelledError:
            self.cut_off = True
            raise
        self.finished = True


async def _stop_during(bot: PyramidBot, env: Any, check: SlowCheck, extension: str) -> None:
    await env.advance_time(3600)  # the next check is due: it starts and waits
    await asyncio.wait_for(check.started.wait(), timeout=60)
    unloading = asyncio.create_task(bot.unload_extension(extension))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not unloading.done()  # waiting for the check, not cancelling it
    check.release.set()
    await unloading
    assert check.finished and not check.cut_off


async def test_unloading_the_announcer_waits_for_its_clock_check(simcord_bot: PyramidBot, simcord_env: Any) -> None:
    check = SlowCheck(simcord_env)
    simcord_bot.timekeeper.tick = check  # type: ignore[method-assign, assignment]
    await _stop_during(simcord_bot, simcord_env, check, "cogs.announcer")


async def test_unloading_tournaments_waits_for_the_scheduler_check(simcord_bot: PyramidBot, simcord_env: Any) -> None:
    cog: Any = next(c for c in simcord_bot.cogs.values() if type(c).__name__ == "TournamentCommands")
    check = SlowCheck(simcord_env)
    cog.manager.tick = check
    await _stop_during(simcord_bot, simcord_env, check, "cogs.tournament")


async def test_a_check_that_never_ends_is_cancelled_after_the_grace(
    simcord_bot: PyramidBot, simcord_env: Any, monkeypatch: Any
) -> None:
    import cogs.loops

    monkeypatch.setattr(cogs.loops, "STOP_GRACE_SECONDS", 0.0)
    check = SlowCheck(simcord_env)
    simcord_bot.timekeeper.tick = check  # type: ignore[method-assign, assignment]
    await simcord_env.advance_time(3600)
    await asyncio.wait_for(check.started.wait(), timeout=60)
    await simcord_bot.unload_extension("cogs.announcer")
    for _ in range(20):
        await asyncio.sleep(0)
    assert check.cut_off and not check.finished


def _database_threads() -> list[threading.Thread]:
    """The worker threads of the open SQLite connections (each connection runs its calls on one)."""
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name]


async def test_closing_the_session_closes_the_database_and_a_second_close_does_nothing(
    simcord_env: Any, make_bot: Any, db_url: str
) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("SQLite connections run on threads of their own; PostgreSQL's do not")
    others = set(_database_threads())
    bot = make_bot()
    await simcord_env.restart_bot(bot)
    await bot.service.latest_game(1)  # a connection in the pool
    own = [thread for thread in _database_threads() if thread not in others]
    assert own
    await bot.close_session()
    await bot.close_session()
    for thread in own:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in own)


async def test_closing_stops_the_computer_players_before_disconnecting(
    simcord_env: Any, make_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot()
    await simcord_env.restart_bot(bot)
    running_at_disconnect: list[bool] = []
    disconnect = commands.AutoShardedBot.close

    async def recording(self: PyramidBot) -> None:
        running_at_disconnect.append(self.autoplay.running)
        await disconnect(self)

    monkeypatch.setattr(commands.AutoShardedBot, "close", recording)
    await bot.close()
    assert running_at_disconnect == [False]  # no bot acts once Discord can no longer be told


class StopDuringRoll:
    """A two-player Der Marsigelwettkampf in #games whose first player's roll is held in flight while the bot
    stops; ``command`` and ``press`` send an interaction meanwhile, without waiting for the bot."""

    def __init__(self, table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.table, self.monkeypatch, self.env = table, monkeypatch, table.env
        self.held, self.release = asyncio.Event(), asyncio.Event()

    async def begin(self) -> None:
        """Start the game, hold the first player's roll in flight and begin stopping the bot."""
        from contextlib import asynccontextmanager

        from tests.discord.helpers import next_actor

        table, env = self.table, self.env
        alice, bob = table.members[:2]
        await alice.slash(table.channel, "hedgehog new", players=2)
        await bob.slash(table.channel, "hedgehog join")
        actor, _ = next_actor(await alice.slash(table.channel, "hedgehog start"), [alice, bob])
        assert actor is not None
        self.actor, self.other = actor, (bob if actor is alice else alice)
        unit = env.bot.service.unit

        @asynccontextmanager
        async def slow_unit(channel_id: int) -> Any:
            async with unit(channel_id):
                if not self.held.is_set():
                    self.held.set()
                    await env.external_wait(self.release.wait(), reason="a move held in flight by the test")
                yield

        self.monkeypatch.setattr(env.bot.service, "unit", slow_unit)
        self.rolling = self.command(actor.id, "hedgehog roll")
        await asyncio.wait_for(self.held.wait(), 30)
        self.closing = asyncio.create_task(env.bot.close())
        for _ in range(50):
            await asyncio.sleep(0)
        assert not self.closing.done()  # waiting for the roll

    def _emit(self, user_id: int, kind: Any, data: dict, extra: dict | None = None, source: int | None = None) -> Any:
        from simcord import interactions as wire
        from simcord.results import InteractionResult

        env, table = self.env, self.table
        record, payload = wire.base_payload(
            env.backend, type=kind, channel_id=table.channel.id, guild_id=table.guild.id, user_id=user_id, data=data
        )
        payload.update(extra or {})
        if source is not None:
            record.source_message_id = source
        env._notify_dispatch_observers(record)
        env.backend.emit("INTERACTION_CREATE", payload)
        return InteractionResult(env, record)

    def command(self, user_id: int, name: str) -> Any:
        """Send the slash command ``name`` (no options) as ``user_id``."""
        from simcord.enums import InteractionType

        from tests.discord.helpers import command_data

        data = command_data(self.env, self.table.guild.id, name)
        return self._emit(user_id, InteractionType.APPLICATION_COMMAND, data)

    def press(self, user_id: int, message: Any, control: dict) -> Any:
        """Press ``control``, a button under ``message`` as the bot sent it, as ``user_id``."""
        from simcord.backend import serializers
        from simcord.enums import InteractionType

        raw = self.env.backend.get_message(message.channel_id, message.id)
        payload = dict(serializers.message_payload(self.env.backend, raw))
        data = {"custom_id": control["custom_id"], "component_type": 2}
        return self._emit(user_id, InteractionType.MESSAGE_COMPONENT, data, {"message": payload}, message.id)

    async def finish(self) -> None:
        """Let the roll go on and the stop end; the roll was played and answered, its board shown."""
        from tests.discord.helpers import living_board

        self.release.set()
        await asyncio.wait_for(self.closing, 30)
        assert self.rolling.acknowledged
        assert " rolls " in (living_board(self.env, self.table.channel.id).embeds[0].description or "")


async def told_stopping(result: Any) -> None:
    from bot.client import STOPPING

    for _ in range(200):
        await asyncio.sleep(0)
    assert result.acknowledged and result.ephemeral and result.response is not None
    assert result.response.content == STOPPING


async def test_a_command_sent_while_the_bot_finishes_a_move_in_flight_to_stop_is_told_to_try_again(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping waits for a move being played; the commands went with their extensions, so a command sent
    meanwhile is answered privately that the bot is restarting instead of being left unanswered."""
    stop = StopDuringRoll(table, monkeypatch)
    await stop.begin()
    await told_stopping(stop.command(stop.other.id, "game status"))
    await stop.finish()


async def test_a_button_pressed_while_the_bot_stops_is_told_to_try_again_and_plays_nothing(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press on a game's control while the bot stops is answered privately that the bot is restarting,
    like a command, and is not played: the game's controls are no longer handled once stopping begins."""
    from tests.discord.helpers import living_board

    stop = StopDuringRoll(table, monkeypatch)
    await stop.begin()
    board = living_board(table.env, table.channel.id)  # the opening board, its roll in flight
    [roll] = [c for row in board.components for c in row["components"] if c.get("label") == "Roll"]
    await told_stopping(stop.press(stop.actor.id, board, roll))
    await stop.finish()
    shown = living_board(table.env, table.channel.id).embeds[0].description or ""
    assert shown.count(" rolls ") == 1  # the roll in flight, and no second one


async def test_a_control_on_a_board_posted_while_the_bot_stops_is_told_to_try_again_and_plays_nothing(
    table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move in flight is played while the bot stops and its board posted with new controls (which
    registers them again); a press on one of them before the bot has disconnected is told that the bot is
    restarting, and is not played."""
    from tests.discord.helpers import living_board

    held, release = asyncio.Event(), asyncio.Event()
    disconnect = commands.AutoShardedBot.close

    async def holding(self: Any) -> None:  # other work still finishing: the disconnect waits
        held.set()
        await release.wait()
        await disconnect(self)

    monkeypatch.setattr(commands.AutoShardedBot, "close", holding)
    stop = StopDuringRoll(table, monkeypatch)
    await stop.begin()
    stop.release.set()  # the roll is played and its board posted with the move controls
    await asyncio.wait_for(held.wait(), 30)
    board = living_board(table.env, table.channel.id)
    before = board.embeds[0].description or ""
    [button, *_] = [c for row in board.components for c in row["components"] if c.get("type") == 2]
    await told_stopping(stop.press(stop.actor.id, board, button))
    release.set()
    await asyncio.wait_for(stop.closing, 30)
    assert (living_board(table.env, table.channel.id).embeds[0].description or "") == before
