"""Load test: K busy channels playing Martian Whist at once through the real bot, in process.

The bot runs unmodified inside SimCord (the offline Discord used by the tests), which creates the
server, its members and channels.  Interactions then go through a lean in-process Discord
(``bench/wire.py``, ``--transport wire``) or SimCord all the way (``--transport simcord``).  Tables are
set up with ordinary slash commands; then every channel plays on its own: its player to move waits
``--think`` seconds (a player reading the board), then sends ``/whist move`` with one of their legal
moves.  Interactions are sent without waiting for the bot to settle, so many are in flight at once, as
on a busy Discord.  ``--stagger`` plays each table's game forward by a random share of a game before
the run, so that games end at a steady pace; ``--warmup S`` plays S seconds first and reports them
apart.

Measured, in real time: moves per second; p50/p95/p99 from the command to its answer with the board
(and the p99 of each 10 seconds); the acknowledgement time (first response or deferral) and how many
exceeded Discord's 3-second window; failed moves (no board in the answer); the process RSS and the
database size.

Usage::

    python -m bench.load --channels 100 --seconds 30 [--think 5] [--stagger] [--warmup 15] [--database URL]
    python -m bench.load --channels 100 --processes 2 --database postgresql+asyncpg://...

prints one JSON object.  With ``--processes N`` N bot processes, each with its own offline Discord and
K/N of the channels, play at once over the one database; the figures are summed (moves/s, late and
failed moves) or the worst of the processes (latencies), with each process's own figures beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import logging
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.stats import rank_of
from bench.wire import Timing, Wire

ACK_WINDOW = 3.0  # Discord's deadline for the first response to an interaction
SUPPORT_GAME = "whist"  # no dice: every action is a move
# a move that keeps the turn edits the living board in place and answers with this line (cogs/table.py)
PLAYED_ON_THE_LIVING_BOARD = "Done: "


@dataclass
class Stats:
    """Everything measured during the run."""

    timings: dict[int, Timing] = field(default_factory=dict)
    moves_sent: int = 0
    games_finished: int = 0
    read_errors: int = 0
    refusals: Counter[str] = field(default_factory=Counter)  # what answered a move without a board
    last_read_error: str = ""


class Histogram:
    """Durations counted in bins of ``resolution`` seconds (0.1 ms by default): quantiles to that
    precision, in memory bounded by how widely the durations spread, not by how many there are."""

    def __init__(self, resolution: float = 0.0001) -> None:
        self.per_second = round(1 / resolution)  # bins per second
        self.bins: Counter[int] = Counter()
        self.count = 0
        self.max = 0.0

    def add(self, seconds: float) -> None:
        """Count one duration."""
        self.bins[round(seconds * self.per_second)] += 1
        self.count += 1
        self.max = max(self.max, seconds)

    def quantile(self, q: float) -> float | None:
        """The ``q`` quantile (0..1) in seconds, nearest rank; None when nothing was counted."""
        if not self.count:
            return None
        rank = rank_of(q, self.count)
        seen = 0
        for key in sorted(self.bins):
            seen += self.bins[key]
            if seen > rank:
                return key / self.per_second
        return self.max


class Tally:
    """The figures of the moves played, added up as they are answered: an hour's run keeps no record
    per move, so the harness's own memory stays out of the RSS series."""

    INTERVAL = 10.0  # seconds: the run's latencies are also counted per interval, to see when they grew

    def __init__(self, start_at: float, stop_at: float) -> None:
        self.stop_at = stop_at
        self.started = start_at
        self.latencies = Histogram()  # command to answer with the board
        self.by_interval: dict[int, Histogram] = {}  # the same, in 10 ms bins, by the interval it was sent in
        self.acks = Histogram()  # command to first response
        self.moves = self.answered_in_time = self.deferred = self.failed = self.edited = 0
        self.late = {"short line": 0, "board": 0, "none": 0}  # first responses after 3 s, by what they were

    def add(self, timing: Timing) -> None:
        """Count one move whose interaction is over."""
        self.moves += 1
        if timing.done is not None:
            self.latencies.add(timing.done - timing.sent)
            interval = int((timing.sent - self.started) // self.INTERVAL)
            self.by_interval.setdefault(interval, Histogram(0.01)).add(timing.done - timing.sent)
            self.answered_in_time += timing.done <= self.stop_at
        if timing.acked is not None:
            self.acks.add(timing.acked - timing.sent)
        self.deferred += timing.deferred
        self.failed += timing.done is None or not (timing.board or timing.edited)
        self.edited += timing.edited
        if _late(timing):
            self.late["none" if timing.acked is None else "short line" if timing.short_answer else "board"] += 1


def rss_mb() -> float:
    """The peak resident set size of this process, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / 1024 if sys.platform != "darwin" else peak / 1024 / 1024, 1)


def current_rss_mb() -> float:
    """The current resident set size, in MB (Linux), else the peak."""
    try:
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[1])
        return round(pages * os.sysconf("SC_PAGE_SIZE") / 1024 / 1024, 1)
    except OSError:
        return rss_mb()


def gc_pauses() -> list[tuple[int, float]]:
    """A list that fills with (generation, seconds) for every garbage collection from now on: a long
    one stops the event loop, and every interaction waiting in it, for that long."""
    pauses: list[tuple[int, float]] = []
    started = [0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            pauses.append((info["generation"], time.perf_counter() - started[0]))

    gc.callbacks.append(timed)
    return pauses


class ErrorCount(logging.Handler):
    """Counts what the bot logs as an error (a failure it answered with an apology, a crash in a task):
    a run that looks fast while every hand-over fails must not pass unseen."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.count = 0
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        self.last = record.getMessage()[:200]


def gc_summary(pauses: list[tuple[int, float]]) -> dict[str, dict[str, Any]]:
    """Per generation: how many collections, how many over 100 ms, the longest and the total (ms)."""
    summary: dict[str, dict[str, Any]] = {}
    for generation in sorted({generation for generation, _ in pauses}):
        lengths = [pause for gen, pause in pauses if gen == generation]
        summary[str(generation)] = {
            "collections": len(lengths),
            "over_100ms": sum(1 for pause in lengths if pause > 0.1),
            "max_ms": _ms(max(lengths)),
            "total_ms": _ms(sum(lengths)),
        }
    return summary


def plain_loop() -> Callable[[], None]:
    """Run the load phase on the event loop as deployed, and return what puts SimCord's back.

    To know when a test has settled, SimCord wraps every callback the loop schedules (a closure, a
    record and a handle each, all garbage with cycles in them) and serves a virtual clock to the bot's
    code.  The load phase never settles, and on a real Discord the loop runs bare with real time: with
    the wrapping on, a third of the garbage collector's work and a share of every callback were the
    harness's.  The loop's own methods and the real clock are used until the run is measured.
    """
    from simcord import _dpy_internals

    loop = asyncio.get_running_loop()
    wrapped = {name: loop.__dict__.pop(name) for name in _LOOP_HOOKS if name in loop.__dict__}
    envs = list(_dpy_internals._clock_owners)
    for env in envs:
        _dpy_internals.release_clocks(env)

    def restore() -> None:
        for env in envs:
            _dpy_internals.acquire_clocks(env)
        loop.__dict__.update(wrapped)

    return restore


_LOOP_HOOKS = ("create_task", "call_soon", "call_later", "call_at", "call_soon_threadsafe", "run_in_executor")


class CallbackSet:
    """SimCord's list of pending bot callbacks, with O(1) removal.

    SimCord prunes that list only when an operation settles; the load phase never settles (many
    interactions are in flight at once), so the list grows and every ``remove`` scans it.  Swapping
    in this container keeps the harness out of the figures.
    """

    def __init__(self, items: Any = ()) -> None:
        self._items: dict[int, Any] = {id(item): item for item in items}

    def append(self, item: Any) -> None:
        self._items[id(item)] = item

    def remove(self, item: Any) -> None:
        if self._items.pop(id(item), None) is None:
            raise ValueError(item)

    def clear(self) -> None:
        self._items.clear()

    def __iter__(self) -> Any:
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        return len(self._items)


def real_timers() -> None:
    """Let the bot's timers fire in real time only, as on a live Discord connection.

    SimCord runs each due bot timer by advancing its virtual clock and settling every task of the bot
    (a scan of all of them); with hundreds of actions in flight that scan, not the bot, would dominate
    the figures.  The load phase needs no virtual time, so timers simply fire when they are due.
    """
    from simcord import _dpy_internals
    from simcord.env import Env

    def schedule(self: Any, record: Any, callback: Any, args: Any, schedule_context: Any) -> None:
        def fire() -> None:
            if record.handle is not None and not record.handle.cancelled():
                record.handle._run()

        remaining = max(record.when - self._virtual_time, 0.0)
        record.real_handle = self._runtime.call_at(
            _dpy_internals.real_monotonic() + remaining, fire, context=schedule_context
        )

    Env._schedule_timer = schedule  # type: ignore[method-assign]


class History:
    """Forgets what the offline Discord keeps of exchanges that are over.

    SimCord keeps every gateway event and HTTP request in its logs, every interaction and message, and
    every board PNG in its CDN, for tests to read.  A real Discord keeps those on its own servers, not in
    the bot's process; kept here, they grow by tens of kilobytes per move and would be counted as the
    bot's memory.  Every few seconds the logs are emptied, finished interactions and the CDN's pictures
    forgotten, and each channel keeps only its last ``keep`` messages (the bot edits only its latest
    boards).
    """

    def __init__(self, backend: Any, keep: int = 4) -> None:
        self.backend = backend
        self.keep = keep
        self.answered: list[int] = []  # interactions answered since the last trim

    def trim(self) -> None:
        """Drop the logs, the answered interactions and the old messages with their attachments."""
        backend = self.backend
        backend.transcript.clear()
        backend.http_requests.clear()
        # SimCord records every id it hands out, so as never to hand it out again; ids of a later
        # millisecond are all new, so the record can start over (it held ~2.4 million ids an hour)
        backend.advance_clock(0.001)
        backend._reserved_ids.clear()
        backend._sequences.clear()
        answered, self.answered = self.answered, []
        for interaction_id in answered:
            record = backend.interactions.pop(interaction_id, None)
            if record is not None:
                backend.interaction_tokens.pop(record.token, None)
        for channel in backend.messages.values():
            while len(channel) > self.keep:
                channel.pop(next(iter(channel)))
        # the pictures live on Discord's CDN, which the bot never reads back
        blobs = backend.cdn._blobs
        for url in [url for url in blobs if "/attachments/" in url]:
            del blobs[url]


class Mirror:
    """A player's view of one table: the game as the engine plays it, kept beside the bot.

    Players choose from what the board shows them; the harness reads the game from the bot once when a
    table opens (or after a move that failed) and then follows it with the pure engine, so choosing a
    move costs the bot process no database read that a real player would not cause.
    """

    def __init__(self, game: Any, state: Any) -> None:
        from bot.session import rules_for

        self.rules = rules_for(game.game)
        self.state = state
        self.ply = game.ply
        self.users = {row.seat: row.user_id for row in game.seats}

    def options(self) -> tuple[int | None, Sequence[Any]]:
        """The user to move and their legal moves (none when the game is over)."""
        seat = self.rules.to_move(self.state)
        if seat is None or self.rules.outcome(self.state) is not None:
            return None, []
        return self.users.get(seat), self.rules.legal_moves(self.state)

    def notation(self, move: Any) -> str:
        """``move`` as the player types it, stamped with the ply the board showed."""
        from bot.session.service import stamp

        return stamp(self.rules.format_move(self.state, move), self.ply)

    def play(self, move: Any) -> None:
        """Follow the move the bot has just played."""
        self.state = self.rules.apply(self.state, move)
        self.ply += 1


class Transport:
    """Emits slash commands into SimCord without waiting, and watches their records."""

    def __init__(self, env: Any, stats: Stats) -> None:
        from simcord.backend.models.interaction import Interaction

        self.env = env
        self.stats = stats
        self._roots: dict[str, dict[str, Any]] = {}
        timings = stats.timings

        def wrap(name: str) -> None:
            original = getattr(Interaction, name)

            def patched(record: Any, *args: Any, **kwargs: Any) -> Any:
                timing = timings.get(record.id)
                if timing is not None and timing.acked is None:
                    timing.acked = time.perf_counter()
                    timing.deferred = name in ("defer", "defer_update")
                    timing.short_answer = bool(kwargs.get("ephemeral"))
                return original(record, *args, **kwargs)

            setattr(Interaction, name, patched)

        for name in ("respond_with_message", "defer", "defer_update", "update_source"):
            wrap(name)

    def slash(self, actor: Any, channel: Any, name: str, **options: Any) -> int:
        """Send ``/name options`` as ``actor`` in ``channel``; returns the interaction id."""
        from discord.enums import AppCommandType, InteractionType
        from simcord import actors, interactions

        parts = name.split()
        root = self._roots.get(parts[0])
        if root is None:
            root = self._roots[parts[0]] = actors._resolve_visible_command(
                actor, channel.id, parts[0], AppCommandType.chat_input.value
            )
        leaf, nesting = interactions.walk_to_subcommand(root, parts[1:])
        leaf_options, resolved = interactions.build_options(actor, name, leaf, options, channel_id=channel.id)
        data: dict[str, Any] = {
            "id": root["id"],
            "name": root["name"],
            "type": root.get("type", 1),
            "options": interactions.nest_options(root, nesting, leaf_options),
        }
        if resolved:
            data["resolved"] = resolved
        record, payload = interactions.base_payload(
            self.env.backend,
            type=InteractionType.application_command.value,
            channel_id=channel.id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        self.stats.timings[record.id] = Timing(time.perf_counter())
        self.env.backend.emit("INTERACTION_CREATE", payload)
        return record.id

    def answer_text(self, interaction_id: int) -> str:
        """The texts of the interaction's answers (its response and follow-ups), one per line."""
        backend = self.env.backend
        record = backend.interactions.get(interaction_id)
        if record is None:
            return "(no answer)"
        kept = backend.messages.get(record.channel_id, {})
        texts = [str(getattr(kept.get(i), "content", "") or "") for i in (record.message_id, *record.followup_ids)]
        return "\n".join(text for text in texts if text) or "(no text)"

    def has_board(self, interaction_id: int) -> bool:
        """True when the interaction's answer (its response or a follow-up) shows a board."""
        backend = self.env.backend
        record = backend.interactions.get(interaction_id) if hasattr(backend, "interactions") else None
        if record is None:
            return False
        ids = [record.message_id, *record.followup_ids]
        for message_id in ids:
            if message_id is None:
                continue
            stored = backend.messages.get(record.channel_id, {}).get(message_id)
            if stored is not None and getattr(stored, "attachments", None):
                return True
        return False


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Set up ``args.channels`` tables, play for ``args.seconds``, and measure."""
    import discord

    from bot.client import create_bot
    from bot.render_pool import RenderPool, auto_workers
    from bot.settings import Settings
    from tests.discord.helpers import running

    workdir = Path(tempfile.mkdtemp(prefix="pyramid-load-"))
    url = args.database or f"sqlite+aiosqlite:///{workdir}/load.db"
    seeds = iter(range(10**9))
    overrides = dict(kv.split("=", 1) for kv in args.setting)  # e.g. RENDER_WORKERS=0
    environment = {
        "DISCORD_TOKEN": "bench",
        "DATABASE_URL": url,
        "SCHEDULER_INTERVAL_SECONDS": "3600",
        "SHARD_COUNT": "1",
        "AI_WORKERS": "0",  # no computer players here (and see tests/conftest.py on worker processes)
        **{k.upper(): v for k, v in overrides.items()},
    }
    settings = Settings.from_env(environment, dotenv=None)
    # the board workers start before SimCord's virtual clock does: under a frozen clock, starting a
    # second process waits forever for the first (multiprocessing polls it with a deadline)
    await RenderPool(auto_workers(settings.render_workers)).start()
    bot = create_bot(settings, new_seed=lambda: f"load-{next(seeds)}")
    stats = Stats()
    done_events: dict[int, asyncio.Event] = {}

    def finished(interaction_id: int) -> None:
        timing = stats.timings.get(interaction_id)
        if timing is not None:
            timing.done = time.perf_counter()
        event = done_events.get(interaction_id)
        if event is not None:
            event.set()

    call = bot.tree._call

    async def timed_call(interaction: discord.Interaction[Any]) -> None:
        try:
            await call(interaction)
        finally:
            finished(interaction.id)

    bot.tree._call = timed_call  # type: ignore[method-assign]
    real_timers()
    async with running(bot, settle_timeout=600.0, check_errors=False) as env:
        transport = Transport(env, stats)
        history = History(env.backend)
        env._work.callbacks = CallbackSet(env._work.callbacks)  # type: ignore[assignment]  # a list that also counts
        # SimCord's clock starts at the same moment in every process, so its ids would too: each process
        # of a --processes run starts a day apart, and its channels and players never share an id.
        env.backend.clock._epoch += timedelta(days=args.process_index)
        guild = env.create_guild("Load Club")
        users = [guild.add_member(env.create_user(f"player{i}")) for i in range(min(400, 2 * args.channels))]
        channels = [guild.create_text_channel(f"table-{i}") for i in range(args.channels)]
        rng = random.Random(7)
        pairs = [(users[(2 * i) % len(users)], users[(2 * i + 1) % len(users)]) for i in range(args.channels)]

        wire: Wire | None = None  # the lean Discord (--transport wire)

        async def send(actor: Any, channel: Any, name: str, **options: Any) -> Timing:
            if wire is not None:
                interaction_id = wire.slash(actor.id, channel.id, name, **options)
            else:
                interaction_id = transport.slash(actor, channel, name, **options)
            event = done_events[interaction_id] = asyncio.Event()
            timing = stats.timings[interaction_id]
            await event.wait()
            done_events.pop(interaction_id, None)
            if wire is None:
                timing.board = transport.has_board(interaction_id)
                timing.text = transport.answer_text(interaction_id)
            if not timing.board and name.endswith(" move"):
                text = timing.text or "(no answer)"
                timing.edited = any(line.startswith(PLAYED_ON_THE_LIVING_BOARD) for line in text.split("\n"))
                if not timing.edited:
                    stats.refusals[text.replace("\n", " | ")[:160]] += 1
            stats.timings.pop(interaction_id, None)
            history.answered.append(interaction_id)
            return timing

        async def open_table(index: int) -> None:
            a, b = pairs[index]
            channel = channels[index]
            await send(a, channel, f"{SUPPORT_GAME} new", variant="normal")
            await send(b, channel, f"{SUPPORT_GAME} join")
            await send(a, channel, f"{SUPPORT_GAME} start")

        if args.transport == "wire":
            # the tables are set up through the wire too: SimCord's copies of 3,000 set-up exchanges,
            # freed among the bot's long-lived objects, would stay in the process as fragmented memory
            wire = lean_wire(bot, env, guild, users, channels, stats)
            wire.install()
        setup_started = time.perf_counter()
        gate = asyncio.Semaphore(50)

        async def gated(index: int) -> None:
            async with gate:
                await open_table(index)

        await asyncio.gather(*(gated(i) for i in range(args.channels)))
        staggered = 0  # plies played ahead by --stagger
        if args.stagger:
            staggered = sum(await asyncio.gather(*(stagger(bot, channel, rng, gate) for channel in channels)))
        setup_seconds = time.perf_counter() - setup_started
        for timing in stats.timings.values():
            timing.board = False
        stats.timings.clear()

        # the first --warmup seconds are played but counted apart: a thousand tables starting at once
        # and every cache cold is a restart's burst, not the sustained load the figures describe
        warm_at = time.perf_counter() + args.warmup
        stop_at = warm_at + args.seconds
        tally, warmup = Tally(warm_at, stop_at), Tally(warm_at - args.warmup, warm_at)

        async def play(index: int) -> None:
            a, b = pairs[index]
            channel = channels[index]
            await asyncio.sleep(rng.random() * args.think)  # spread the first moves
            mirror: Mirror | None = None
            while time.perf_counter() < stop_at:
                if mirror is None:
                    try:  # the board as it stands, read once per table (and after a failed move)
                        game = await bot.service.live_game(channel.id)
                        mirror = Mirror(game, bot.service.state_of(game)) if game else None
                    except Exception as error:  # the database refused even a read: count it and look again
                        stats.read_errors += 1
                        stats.last_read_error = repr(error)[:200]
                        await asyncio.sleep(1)
                        continue
                user_id, options = mirror.options() if mirror else (None, [])
                if mirror is None or not options:  # the game ended: open the next one
                    stats.games_finished += 1
                    await open_table(index)
                    mirror = None
                    continue
                actor = a if user_id == a.id else b
                choice = rng.choice(options)
                stats.moves_sent += 1
                timing = await send(actor, channel, f"{SUPPORT_GAME} move", notation=mirror.notation(choice))
                if (timing.board or timing.edited) and mirror is not None:
                    mirror.play(choice)
                else:
                    mirror = None
                (tally if timing.sent >= warm_at else warmup).add(timing)
                await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)

        rss_series: list[float] = []

        async def housekeeping() -> None:  # what Discord's servers would keep, and the memory figures
            last_sample = 0.0
            while time.perf_counter() < stop_at:
                history.trim()
                if time.perf_counter() - last_sample >= args.sample:
                    last_sample = time.perf_counter()
                    rss_series.append(current_rss_mb())
                await asyncio.sleep(2.0)

        history.trim()
        errors = ErrorCount()
        logging.getLogger().addHandler(errors)
        pauses = gc_pauses()
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        restore = plain_loop()
        started = time.perf_counter()
        try:
            await asyncio.gather(housekeeping(), *(play(i) for i in range(args.channels)))
        finally:
            restore()
            logging.getLogger().removeHandler(errors)
            if wire is not None:
                wire.uninstall()
        elapsed = time.perf_counter() - started
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)

        latencies, acks = tally.latencies, tally.acks
        db_bytes = 0
        if url.startswith("sqlite"):
            db_bytes = sum(p.stat().st_size for p in workdir.glob("load.db*"))
        result = {
            "benchmark": "load",
            "database": url.split(":", 1)[0],
            "channels": args.channels,
            "seconds": round(elapsed - args.warmup, 1),
            "warmup": {
                "seconds": args.warmup,
                "moves": warmup.moves,
                "latency_p99_ms": _ms(warmup.latencies.quantile(0.99)),
                "late_acks": sum(warmup.late.values()),
                "failed_moves": warmup.failed,
            },
            "think_seconds": args.think,
            "setup_seconds": round(setup_seconds, 1),
            "stagger_plies": staggered,
            "moves": tally.moves,
            "moves_per_second": round(tally.answered_in_time / args.seconds, 1),
            "games_finished": stats.games_finished,
            "latency_p50_ms": _ms(latencies.quantile(0.50)),
            "latency_p95_ms": _ms(latencies.quantile(0.95)),
            "latency_p99_ms": _ms(latencies.quantile(0.99)),
            "latency_max_ms": _ms(latencies.max if latencies.count else None),
            "latency_p99_ms_by_10s": [_ms(tally.by_interval[k].quantile(0.99)) for k in sorted(tally.by_interval)],
            "ack_p50_ms": _ms(acks.quantile(0.50)),
            "ack_p99_ms": _ms(acks.quantile(0.99)),
            "ack_max_ms": _ms(acks.max if acks.count else None),
            "deferred": tally.deferred,
            "late_acks": sum(tally.late.values()),
            "late_acks_first_answer": tally.late,
            "failed_moves": tally.failed,
            "moves_shown_by_editing_the_board": tally.edited,
            "failed_answers": dict(stats.refusals.most_common(5)),
            "board_read_errors": stats.read_errors,
            "last_board_read_error": stats.last_read_error,
            "gc_pause_max_ms": _ms(max((pause for _, pause in pauses), default=0.0)),
            "gc_pauses_over_100ms": sum(1 for _, pause in pauses if pause > 0.1),
            "gc_total_ms": _ms(sum(pause for _, pause in pauses)),
            "gc_by_generation": gc_summary(pauses),
            "rss_mb": current_rss_mb(),
            "rss_series_mb": rss_series,
            "rss_growth_mb": _growth(rss_series),
            "rss_peak_mb": rss_mb(),
            "database_mb": round(db_bytes / 1024 / 1024, 1) if db_bytes else None,
            "transport": args.transport,
            "unanswered_routes": dict(wire.unknown_routes) if wire is not None else {},
            "errors_logged": errors.count,
            "last_error_logged": errors.last,
            "settings": overrides,
        }
    return result


async def stagger(bot: Any, channel: Any, rng: random.Random, gate: asyncio.Semaphore) -> int:
    """Play the channel's new game forward by a random share of a game, through the session service;
    returns the plies played.

    Tables set up together would otherwise all end their games together, and a thousand tables opening
    new games in the same seconds is a burst no real server sees; spread over a game's length, games
    end and start at a steady pace, as on a server whose games began at different times.
    """
    from bot.session.service import Actor

    game = await bot.service.live_game(channel.id)
    mirror = Mirror(game, bot.service.state_of(game))
    length = 0  # of a random game from this start, played by the pure engine
    while (options := mirror.options()[1]) and length < 10_000:
        mirror.play(rng.choice(options))
        length += 1
    mirror = Mirror(game, bot.service.state_of(game))
    plies = rng.randrange(max(1, length))
    for played in range(plies):
        user_id, options = mirror.options()
        if not options or user_id is None:
            return played
        choice = rng.choice(options)
        async with gate:
            await bot.service.move(channel.id, Actor(user_id, f"player-{user_id}"), mirror.notation(choice))
        mirror.play(choice)
    return plies


def lean_wire(bot: Any, env: Any, guild: Any, users: list[Any], channels: list[Any], stats: Stats) -> Wire:
    """The lean Discord for the measured phase, knowing the guild SimCord set up."""
    from discord.enums import AppCommandType, InteractionType
    from simcord import actors, interactions

    _, template = interactions.base_payload(
        env.backend,
        type=InteractionType.application_command.value,
        channel_id=channels[0].id,
        guild_id=guild.id,
        user_id=users[0].id,
        data={},
    )
    wire = Wire(bot, stats.timings, template)
    for user in users:
        wire.add_member(user.id, user.name)
    for channel in channels:
        wire.add_channel(channel.id, channel.name)
    wire.add_command(
        actors._resolve_visible_command(users[0], channels[0].id, SUPPORT_GAME, AppCommandType.chat_input.value)
    )
    return wire


def _growth(series: list[float]) -> float | None:
    """How much the RSS grew from the end of the first quarter of the run (after warming up) to its end."""
    if len(series) < 4:
        return None
    return round(series[-1] - series[len(series) // 4], 1)


def _late(timing: Timing) -> bool:
    return timing.acked is None or timing.acked - timing.sent > ACK_WINDOW


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def run_processes(args: argparse.Namespace) -> dict[str, Any]:
    """Run ``args.processes`` copies of this bench at once over ``args.database`` and combine their figures."""
    if not args.database:
        raise SystemExit("--processes needs --database: a database all the processes share (PostgreSQL)")
    share = max(1, args.channels // args.processes)
    children = []
    for index in range(args.processes):
        command = [sys.executable, "-m", "bench.load", "--channels", str(share), "--seconds", str(args.seconds)]
        command += ["--warmup", str(args.warmup)] + (["--stagger"] if args.stagger else [])
        command += ["--think", str(args.think), "--database", args.database, "--process-index", str(index)]
        command += ["--transport", args.transport]
        command += [arg for setting in args.setting for arg in ("--setting", setting)]
        children.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    parts = [json.loads(child.communicate()[0]) for child in children]
    worst = ("latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms", "ack_p99_ms", "ack_max_ms")
    return {
        "benchmark": "load",
        "database": parts[0]["database"],
        "processes": args.processes,
        "channels": share * args.processes,
        "think_seconds": args.think,
        "moves": sum(p["moves"] for p in parts),
        "moves_per_second": round(sum(p["moves_per_second"] for p in parts), 1),
        **{key: max((p[key] for p in parts if p[key] is not None), default=None) for key in worst},
        "late_acks": sum(p["late_acks"] for p in parts),
        "failed_moves": sum(p["failed_moves"] for p in parts),
        "rss_mb": [p["rss_mb"] for p in parts],
        "each": parts,
    }


def bad_setting(pairs: Sequence[str]) -> str:
    """What is wrong with the ``--setting`` overrides, in one line ("" when nothing): each must be
    name=value with the name of a field of ``bot.settings.Settings`` (any case)."""
    from dataclasses import fields

    from bot.settings import Settings

    names = sorted(f.name.upper() for f in fields(Settings) if f.name != "token")
    for pair in pairs:
        name, equals, _ = pair.partition("=")
        if not equals or name.upper() not in names:
            return f"--setting {pair!r}: give NAME=VALUE with NAME one of {', '.join(names)}."
    return ""


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the load and print the figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n")[0])
    parser.add_argument("--channels", type=int, default=10, help="channels playing at once (K)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play and measure")
    parser.add_argument(
        "--stagger",
        action="store_true",
        help="before the run, play each table's game forward by a random share of a game (see stagger)",
    )
    parser.add_argument(
        "--warmup", type=float, default=0.0, help="seconds played first and reported apart (every table starts at once)"
    )
    parser.add_argument("--think", type=float, default=5.0, help="a player's mean pause between moves, seconds")
    parser.add_argument("--database", default="", help="DATABASE_URL (default: a fresh SQLite file)")
    parser.add_argument("--profile", default="", help="write a cProfile of the run to this file")
    parser.add_argument("--setting", action="append", default=[], help="a Settings field override, name=value")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between RSS samples")
    parser.add_argument(
        "--transport",
        choices=("wire", "simcord"),
        default="wire",
        help="the measured phase's Discord: the lean wire (default) or SimCord's full emulation",
    )
    parser.add_argument("--processes", type=int, default=1, help="bot processes over one database (PostgreSQL)")
    parser.add_argument("--process-index", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    problem = bad_setting(args.setting)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    result = run_processes(args) if args.processes > 1 else asyncio.run(run(args))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
