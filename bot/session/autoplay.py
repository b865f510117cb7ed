"""Computer players at the table: when a bot is to act, it acts, through the same service as people.

A bot's dice are rolled by the service like anyone's.  Its choices are searched in a process pool
(``ai.choose_notation``) so the event loop keeps answering other channels meanwhile, and are played
only if the game is still the one searched: the same game, at the same ply, in the same state.  If
the board changed in between (a resignation, an undo and another move, a new game in the channel),
the choice is refused as stale and the bot looks again.  Each search is seeded from the game's seed
and the ply, so a bot's game replays exactly from its log.

A bot never holds its table up: a search worker that dies (the OOM killer) is replaced by new ones
and the search tried again; a search that fails (a bug) or runs far beyond its budget is logged with
the game's id and the bot plays the easy level's random move instead, with the decision's seed.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ai import choose_move, choose_notation
from bot.keyed_locks import KeyedLocks
from bot.render_pool import renew_search_pool, retire_pool
from bot.session.marks import mark_of, stamp
from bot.session.service import Actor, GameService, Report, ServiceError, people_left, rules_for
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
    """How bots search: a hard bot's time per decision and, for reproducible play, an iteration cap.

    ``timeout_s`` is how long a search may take before it counts as a runaway (a level thinks for
    under a second): the bot then plays its fallback move, and a worker process stuck in it is stopped.
    """

    budget_ms: float | None = 700.0
    max_iterations: int | None = None
    timeout_s: float = 60.0

    @classmethod
    def configured(cls, budget_ms: float, max_iterations: int | None) -> Thinking:
        """As the settings ask: a hard bot's time per decision, unless an iteration cap is set, which is for
        reproducible play: the search is then bounded by iterations alone, so a machine's speed cannot
        change a bot's move."""
        return cls(None if max_iterations is not None else budget_ms, max_iterations)

    def timeout_for(self, budget_ms: float | None) -> float:
        """The time a search with ``budget_ms`` may take, queueing for a worker included."""
        return max(self.timeout_s, 10 * budget_ms / 1000) if budget_ms is not None else self.timeout_s


Show = Callable[[Report], Awaitable[None]]


class Autoplayer:
    """Plays the bots of every game, one game at a time per channel, off the event loop."""

    def __init__(self, service: GameService, executor: Executor | None, thinking: Thinking = Thinking()) -> None:
        self.service = service
        self.executor = executor
        self.thinking = thinking
        self.running = True  # False once stopped: no bot starts again in this process
        self._playing: KeyedLocks[int] = KeyedLocks()  # one task plays a channel's bots at a time
        self._tasks: dict[int, asyncio.Task[int]] = {}
        self._again: set[int] = set()  # channels whose running task must look once more before it ends

    async def bot_turn(self, channel_id: int) -> BotTurn | None:
        """The bot that must act now in the running game of ``channel_id``, if any.

        Read from the game's state (no board is drawn).  Bots do not play on alone once every person
        has left the game (the game ends then: ``GameService.commit_entries``).
        """
        game = await self.service.live_game(channel_id)
        if game is None or game.status != "active" or not game.has_bots or game.state is None:
            return None
        if not people_left(game):
            return None
        rules = rules_for(game.game)
        state = self.service.state_of(game)
        if rules.outcome(state) is not None:
            return None
        seat = game.bot_at(rules.to_move(state))
        if seat is None or seat.removed:
            return None
        return BotTurn(game, seat, rules.pending_roll(state))

    async def waiting_channels(self) -> list[int]:
        """The channels of running games with computer players where a bot is to act now.

        A game that cannot be read back (a damaged state) is logged and left out: it costs its own
        table, never the others'."""
        waiting = []
        for channel_id in await self.service.store.channels_with_bots():
            try:
                turn = await self.bot_turn(channel_id)
            except Exception:
                log.exception("the computer players of channel %s cannot be woken", channel_id)
                continue
            if turn is not None:
                waiting.append(channel_id)
        return waiting

    def start(self, channel_id: int, show: Show) -> None:
        """Let the bots of ``channel_id`` act in the background (once: a running task is asked to look
        again before it ends, since it may have read the game just before the change that calls now)."""
        running = self._tasks.get(channel_id)
        if not self.running:
            return
        if running is not None and not running.done():
            self._again.add(channel_id)
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
        played = stale = 0
        async with self._playing.hold(channel_id):
            while played < MAX_ACTIONS:
                self._again.discard(channel_id)
                turn = await self.bot_turn(channel_id)
                if turn is None:
                    if channel_id in self._again:  # a change came while reading: read once more
                        continue
                    break
                try:
                    report = await self.act(turn)
                except ServiceError as error:  # the board changed under the search: look again
                    stale += 1
                    log.info("bot %s in channel %s: %s", turn.seat.display_name, channel_id, error)
                    if stale > STALE_RETRIES:
                        break
                    continue
                if report is None:  # no move could be chosen at all: logged, nothing more to do here
                    break
                played, stale = played + 1, 0
                await show(report)
        return played

    async def act(self, turn: BotTurn) -> Report | None:
        """One action of the bot to act: its roll, or its choice, played if the game is still the one
        searched (else ``ServiceError``); None when no move could be chosen (logged)."""
        channel_id = turn.game.channel_id
        if turn.needs_roll:
            return await self.service.roll(channel_id, turn.actor)
        notation = await self.choose(turn)
        if notation is None:
            return None
        searched = turn.game  # the service refuses the choice unless the game is still this one, unchanged
        stamped = stamp(notation, mark_of(searched))
        return await self.service.move(channel_id, turn.actor, stamped, game_id=searched.id, version=searched.version)

    async def choose(self, turn: BotTurn) -> str | None:
        """The bot's searched choice; if the search fails, the fallback move (None when there is none)."""
        try:
            return await self.search(turn)
        except Exception:
            log.exception(
                "the search of bot %s failed in game %s (channel %s, ply %s): it plays a fallback move",
                turn.seat.display_name,
                turn.game.id,
                turn.game.channel_id,
                turn.game.ply,
            )
        return self.fallback(turn)

    def fallback(self, turn: BotTurn) -> str | None:
        """The easy level's random choice with the decision's seed, else the game's timeout move."""
        rules = rules_for(turn.game.game)
        try:
            state = self.service.state_of(turn.game)
            try:
                return rules.format_move(state, choose_move(rules, state, "easy", turn.seed))
            except Exception:
                log.exception("bot %s in game %s: no random move either", turn.seat.display_name, turn.game.id)
            move = rules.timeout_move(state)
            if move is not None:
                return rules.format_move(state, move)
        except Exception:
            log.exception("bot %s in game %s: no fallback move", turn.seat.display_name, turn.game.id)
        log.error("bot %s cannot choose any move in game %s: its table waits", turn.seat.display_name, turn.game.id)
        return None

    async def search(self, turn: BotTurn) -> str:
        """The bot's choice, searched in the executor (a process pool) with the game's state as JSON.

        When a worker process has died, the pool is replaced by a new one and the search tried once more;
        if the new one breaks at once too, bots search in threads of this process from then on.
        """
        level = turn.seat.ai_level or "normal"
        state: dict[str, Any] = turn.game.state or {}
        budget_ms = self.thinking.budget_ms if level == "hard" else None  # normal keeps its small default
        arguments = (turn.game.game, state, level, turn.seed, budget_ms, self.thinking.max_iterations)
        timeout = self.thinking.timeout_for(budget_ms)
        executor = self.executor
        try:
            return await self._search_in(executor, arguments, timeout)
        except BrokenProcessPool:
            log.warning("a search worker died during game %s: starting new ones, searching again", turn.game.id)
            if executor is not None and self.executor is executor:  # the first search to notice replaces it
                self.executor = renew_search_pool(executor)
        executor = self.executor
        try:
            return await self._search_in(executor, arguments, timeout)
        except BrokenProcessPool:
            if executor is not None and self.executor is executor:
                log.warning("new search workers died at once: bots search in threads of this process from now on")
                retire_pool(executor)
                self.executor = None
            raise

    async def _search_in(self, executor: Executor | None, arguments: tuple[Any, ...], timeout: float) -> str:
        """``choose_notation(*arguments)`` in ``executor``; a search not done after ``timeout`` (queueing
        included) is abandoned (``TimeoutError``), and a worker process stuck running it is stopped with
        its pool.  A search still queued in a pool replaced meanwhile (another search was stuck) is
        cancelled with it: ``BrokenProcessPool``, so that it is searched again in the new one."""
        if executor is None:
            return await asyncio.wait_for(
                asyncio.get_running_loop().run_in_executor(None, choose_notation, *arguments), timeout
            )
        job = executor.submit(choose_notation, *arguments)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(job), timeout)
        except TimeoutError:
            # only a search that had started can hold a worker; one still queued is simply dropped
            if job.running() and isinstance(executor, ProcessPoolExecutor) and self.executor is executor:
                log.warning("a search ran for over %s s: its worker processes are replaced", timeout)
                self.executor = renew_search_pool(executor, kill=True)
            raise
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if job.cancelled() and task is not None and not task.cancelling():  # the pool's doing, not ours
                raise BrokenProcessPool("the search pool was replaced while this search waited") from None
            raise
