"""The session layer: the one gateway to every game and the only code that touches the database.

Everything outside this package goes through ``Session``: its ``games`` service (lobby, moves,
rolls, resignations, boards, deliveries), ``timekeeper`` (reminders, timeouts, vacations), ``undo``,
``handover`` (seats handed to computer players by consent),
``ratings`` and the tournament ``records``.  Every write to a game runs as one unit of work
(``GameService.unit``).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.session.autoplay import Autoplayer, BotTurn, Thinking
from bot.session.handover import HandoverDesk, HandoverStatus
from bot.session.marks import MARK, Mark, mark_of
from bot.session.options_in_play import options_in_play
from bot.session.ratings import RatingService
from bot.session.service import (
    Actor,
    Delivery,
    GameInfo,
    GameService,
    MoveOption,
    OptionSpec,
    Report,
    ServiceError,
    TableRefused,
    catalogue,
    fewest_players,
    opening_board,
    outcome_from_json,
    people_left,
    quote_typed,
    rules_for,
)
from bot.session.showcase import opening_picture
from bot.session.store import GameRow, MoveRow, SeatRow, Store
from bot.session.timekeeper import Reminder, TickResult, Timekeeper
from bot.session.tournament_records import TournamentRecords
from bot.session.undo import UndoDesk, UndoStatus

__all__ = [
    "MARK",
    "Actor",
    "Autoplayer",
    "BotTurn",
    "Delivery",
    "GameInfo",
    "GameRow",
    "GameService",
    "HandoverDesk",
    "HandoverStatus",
    "Mark",
    "MoveOption",
    "MoveRow",
    "OptionSpec",
    "RatingService",
    "Reminder",
    "Report",
    "SeatRow",
    "ServiceError",
    "Session",
    "TableRefused",
    "Thinking",
    "TickResult",
    "Timekeeper",
    "UndoDesk",
    "UndoStatus",
    "catalogue",
    "fewest_players",
    "mark_of",
    "open_session",
    "opening_board",
    "opening_picture",
    "options_in_play",
    "outcome_from_json",
    "people_left",
    "quote_typed",
    "rules_for",
]


@dataclass
class Session:
    """Every service of the session layer over one database, built once per process."""

    games: GameService
    timekeeper: Timekeeper
    undo: UndoDesk
    handover: HandoverDesk
    ratings: RatingService
    records: TournamentRecords
    autoplay: Autoplayer
    _store: Store

    async def close(self) -> None:
        """Stop the bots, wait for the work in flight, then close the database."""
        await self.autoplay.stop()
        await self.games.drain()
        await self._store.close()


async def open_session(
    database_url: str,
    *,
    clock: Callable[[], datetime] | None = None,
    new_seed: Callable[[], str] | None = None,
    render: bool = True,
    missed_turns_limit: int = 3,
    vacation_days_per_year: int = 14,
    renderer: Any = None,
    shards: tuple[int, tuple[int, ...]] | None = None,
    ai_executor: Executor | None = None,
    thinking: Thinking | None = None,
    **pool: Any,
) -> Session:
    """Open (and migrate) the database and build the services over it.

    ``renderer`` draws the boards (a ``bot.render_pool.RenderPool``; default: threads of this process).
    ``shards`` (shard count, this process's shard ids) keeps the scheduler and the announcer to this
    process's guilds when the bot runs as several shard processes.  ``pool`` holds the connection
    pool's settings (``pool_size``, ``max_overflow``, ``pool_timeout``).  Bots search in ``ai_executor``
    (a process pool; default: threads) with ``thinking``'s budget.
    """
    store = await Store.open(database_url, **pool)
    store.shards = shards
    kwargs = {"clock": clock} if clock is not None else {}
    games = GameService(store, render=render, new_seed=new_seed, **kwargs)
    games.renderer = renderer
    ratings = RatingService(store, **kwargs)
    games.listeners.append(ratings.on_report)
    return Session(
        games=games,
        timekeeper=Timekeeper(
            games, missed_turns_limit=missed_turns_limit, vacation_days_per_year=vacation_days_per_year
        ),
        undo=UndoDesk(games),
        handover=HandoverDesk(games),
        ratings=ratings,
        records=TournamentRecords(store),
        autoplay=Autoplayer(games, ai_executor, thinking or Thinking()),
        _store=store,
    )
