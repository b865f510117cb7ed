"""Computer players at the table: when a bot is to act, it acts, through the same service as people.

A bot's dice are rolled by the service like anyone's.  Its choices are searched in a process pool
(``ai.choose_notation``) so the event loop keeps answering other channels meanwhile, and are played
as a suggestion stamped with the ply they were searched at: if the board changed in between (a
resignation, an undo), the service refuses the stale choice and the bot looks again.  Each search
is seeded from the game's seed and the ply, so a bot's game replays exactly from its log.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ai import choose_notation
from bot.session.service import Actor, GameService, Report, ServiceError, stamp
from bot.session.store import GameRow, SeatRow

log = logging.getLogger(__name__)

MAX_ACTIONS = 2_000  # one call never plays more than this (a table of bots ends long before)
STALE_RETRIES = 3  # a choice refused as stale is searched again this many times


@dataclass(frozen=True)
class BotTurn:
    """A bot that must act now in a game: who, at which ply, and whether it rolls."""

    game: GameRow
    seat: SeatRow
    needs_roll: bool

    @property
    def actor(self) -> Actor:
        """The bot as the service knows players."""
        return Actor(self.seat.user_id, self.seat.display_name)

    @property
    def seed(self) -> int:
        """The search seed of this decision: the game's seed and the ply."""
        return zlib.crc32(f"{self.game.seed}/{self.game.ply}".encode())


@dataclass(frozen=True)
class Thinking:
    """How bots search: a hard bot's time per decision and, for reproducible play, an iteration cap."""

    budget_ms: float | None = 700.0
    max_iterations: int | None = None


Show = Callable[[Report], Awaitable[None]]


class Autoplayer:
    """Plays the bots of every game, one game at a time per channel, off the event loop."""

    def __init__(self, service: GameService, executor: Executor | None, thinking: Thinking = Thinking()) -> None:
        self.service = service
        self.executor = executor
        self.thinking = thinking
        self.running = True  # False once stopped: no bot starts again in this process
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: dict[int, asyncio.Task[int]] = {}

    async def bot_turn(self, channel_id: int) -> BotTurn | None:
        """The bot that must act now in the running game of ``channel_id``, if any."""
        game = await self.service.live_game(channel_id)
        if game is None or game.status != "active" or not game.has_bots:
            return None
        report = await self.service.board(channel_id)
        if report.outcome is not None or report.state is None:
            return None
        seat = game.bot_at(report.to_move_seat)
        if seat is None or seat.removed:
            return None
        return BotTurn(report.game, seat, report.needs_roll)

    async def waiting_channels(self) -> list[int]:
        """The channels of running games with computer players where a bot is to act now."""
        waiting = []
        for channel_id in await self.service.store.channels_with_bots():
            if await self.bot_turn(channel_id) is not None:
                waiting.append(channel_id)
        return waiting

    def start(self, channel_id: int, show: Show) -> None:
        """Let the bots of ``channel_id`` act in the background (once: a running task is left alone)."""
        running = self._tasks.get(channel_id)
        if not self.running or (running is not None and not running.done()):
            return
        task = asyncio.get_running_loop().create_task(self.play(channel_id, show), name=f"bots in {channel_id}")
        self._tasks[channel_id] = task
        task.add_done_callback(lambda done: self._finished(channel_id, done))

    def _finished(self, channel_id: int, task: asyncio.Task[int]) -> None:
        if self._tasks.get(channel_id) is task:
            del self._tasks[channel_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("bots in channel %s stopped", channel_id, exc_info=task.exception())

    async def stop(self) -> None:
        """Stop every bot between two actions (shutdown): each action is one unit of work, never half done."""
        self.running = False
        for task in list(self._tasks.values()):
            task.cancel()
        await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
        self._tasks.clear()

    async def wait(self) -> None:
        """Wait until no bot is acting (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def play(self, channel_id: int, show: Show) -> int:
        """Play every bot action due in ``channel_id``, showing each report; returns how many were played."""
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        played = stale = 0
        async with lock:
            while played < MAX_ACTIONS:
                turn = await self.bot_turn(channel_id)
                if turn is None:
                    break
                try:
                    report = await self.act(turn)
                except ServiceError as error:  # the board changed under the search: look again
                    stale += 1
                    log.info("bot %s in channel %s: %s", turn.seat.display_name, channel_id, error)
                    if stale > STALE_RETRIES:
                        break
                    continue
                played += 1
                await show(report)
        return played

    async def act(self, turn: BotTurn) -> Report:
        """One action of the bot to act: its roll, or its searched choice stamped with the ply."""
        channel_id = turn.game.channel_id
        if turn.needs_roll:
            return await self.service.roll(channel_id, turn.actor)
        notation = await self.search(turn)
        return await self.service.move(channel_id, turn.actor, stamp(notation, turn.game.ply))

    async def search(self, turn: BotTurn) -> str:
        """The bot's choice, searched in the executor (a process pool) with the game's state as JSON."""
        level = turn.seat.ai_level or "normal"
        state: dict[str, Any] = turn.game.state or {}
        budget_ms = self.thinking.budget_ms if level == "hard" else None  # normal keeps its small default
        arguments = (turn.game.game, state, level, turn.seed, budget_ms, self.thinking.max_iterations)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, choose_notation, *arguments)
