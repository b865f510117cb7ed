"""Run many fuzz cases against one bot: shared by the test suite and ``python -m bench.fuzz``.

Hypothesis draws the cases (``tests.fuzz.cases``) over the commands read from the bot's own tree
(``tests.fuzz.tree``); each is sent and judged by ``tests.fuzz.driver``.  The bot, its database and
SimCord live in one event loop owned here, so thousands of cases share one start-up.
"""

from __future__ import annotations

import asyncio
import random
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import seed as seeded

from tests.fuzz.cases import PHASES, Case, cases, explicit_cases
from tests.fuzz.driver import Finding, Tally, run_case
from tests.fuzz.tree import leaves
from tests.fuzz.world import World, captured_logs, close_world, open_world

REFRESH_EVERY = 20  # cases between checks that every phase is still in its phase
EXPIRE_EVERY = 10  # refreshes between jumps of the clock that let private replies' buttons expire
BATCH = 2000  # cases per Hypothesis run in long runs (each with its own seed and command order)


@dataclass
class Run:
    """What a run did: the tally, the commands it read from the tree, and set-up notes."""

    tally: Tally = field(default_factory=Tally)
    commands: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def run(
    db_url: str,
    examples: int,
    *,
    seed: int | None = None,
    derandomize: bool = False,
    fast: bool = False,
    explicit: bool = True,
    only: list[Case] | None = None,
    phases: tuple[str, ...] = PHASES,
    known: Callable[[Finding], Any] | None = None,
    progress: Callable[[Tally], None] | None = None,
    limit: int | None = None,
) -> Run:
    """Send ``examples`` cases to a new bot on ``db_url`` and judge each.

    ``explicit`` sends ``explicit_cases`` first (they count in ``examples``); ``only`` sends just
    the given cases, without Hypothesis.  ``fast`` tells state changes by SQLite's change counter
    instead of comparing every row (which also names the tables that changed).  ``known`` tells a
    known failure (counted apart) from a new one.  With ``limit``, the run goes on (past ``examples``
    if need be) until that many interactions were sent.
    """
    loop = asyncio.new_event_loop()
    result = Run()
    try:
        with captured_logs() as capture:
            world = loop.run_until_complete(open_world(db_url, phases))
            if fast:
                world.watch(db_url)
            commands = leaves(world.bot.tree)
            result.commands = [c.name for c in commands]
            sent = 0

            def send(case: Case) -> None:
                nonlocal sent
                if limit is not None and result.tally.inputs >= limit:
                    return
                try:
                    loop.run_until_complete(run_case(world, case, capture, result.tally, known))
                except Exception:
                    result.tally.problems["harness_errors"] += 1
                    trace = traceback.format_exc(limit=8)
                    result.tally.findings.append(Finding("harness_error", case.label, trace, repr(case)[:300]))
                sent += 1
                if sent % REFRESH_EVERY == 0:
                    loop.run_until_complete(_refresh(world))
                if progress is not None:
                    progress(result.tally)

            with world.env.time_context():
                if only is not None:
                    for case in only:
                        send(case)
                for batch, size in enumerate(_batches(examples if only is None else 0, derandomize)):
                    if limit is not None and result.tally.inputs >= limit:
                        break
                    order = list(commands)
                    if batch:  # Hypothesis favours the first commands of a list: spread that over all
                        random.Random(f"{seed}-{batch}").shuffle(order)
                    turn = None if seed is None else seed + batch
                    _hypothesis(send, order, size, turn, derandomize, explicit and batch == 0)()
                result.notes = list(world.notes)
                loop.run_until_complete(close_world(world))
    finally:
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()
    return result


async def _refresh(world: World) -> None:
    """Set drifted phases up again, and forget SimCord's records of the cases already judged."""
    await world.refresh()
    world.forget()
    world.refreshes += 1
    if world.refreshes % EXPIRE_EVERY == 0:
        await world.expire_views()


def _batches(examples: int, derandomize: bool) -> Iterator[int]:
    """Case counts of the Hypothesis runs: one run, or runs of ``BATCH`` for long random runs, then
    more of them (for a run with a ``limit`` of interactions not reached yet)."""
    if derandomize or examples <= BATCH:
        if examples:
            yield examples
        return
    yield from [BATCH] * (examples // BATCH) + ([examples % BATCH] if examples % BATCH else [])
    while True:
        yield BATCH


def _hypothesis(
    send: Callable[[Case], None],
    commands: list[Any],
    examples: int,
    seed: int | None,
    derandomize: bool,
    explicit: bool,
) -> Callable[[], None]:
    """A Hypothesis test that sends ``examples`` cases: the explicit ones, then drawn ones."""
    test = given(cases(commands))(send)
    fixed = explicit_cases(commands)[:examples] if explicit else []
    for case in reversed(fixed):
        test = example(case)(test)
    test = settings(
        max_examples=max(1, examples - len(fixed)),
        deadline=None,
        database=None,
        derandomize=derandomize,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )(test)
    if seed is not None and not derandomize:
        test = seeded(seed)(test)
    return test
