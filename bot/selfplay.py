"""No-Discord mode: whole games between random players or computer players, through the real service and storage."""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

import games
from ai import LEVELS, choose_notation
from bot.session import Actor, GameService, ServiceError, open_session, rules_for
from bot.settings import Settings, SettingsError, check_database_url, database_problem


def one_or_more(raw: str) -> int:
    """An argparse type: a whole number of 1 or more."""
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {raw!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The selfplay options."""
    parser.add_argument("game", help=f"one of: {', '.join(sorted(games.REGISTRY))}")
    parser.add_argument(
        "--players",
        type=one_or_more,
        default=None,
        help="seats per game (default: the game's minimum, or one per --ai level if more)",
    )
    parser.add_argument("--games", type=one_or_more, default=10, help="how many games to play")
    parser.add_argument("--seed", type=int, default=1, help="seed for dice and the random players")
    parser.add_argument("--out", type=Path, default=None, help="folder for the final board PNGs")
    parser.add_argument(
        "--ai",
        default="",
        metavar="LEVELS",
        help="computer players for the first seats, e.g. hard,normal (easy, normal, hard); other seats play randomly",
    )
    parser.add_argument(
        "--ai-iterations",
        type=one_or_more,
        default=None,
        help="cap each search (reproducible and quick); default: time (AI_* settings are not used here)",
    )
    parser.add_argument(
        "--every", action="store_true", help="with --out: keep every board of each game, not just the last"
    )
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    parser.add_argument("--database", default=None, help="database URL (default: a temporary SQLite file)")


def prepare(args: argparse.Namespace) -> str | None:
    """Check ``--database`` as the bot checks DATABASE_URL and create ``--out``; what is wrong, in one line."""
    try:
        if args.database is not None:
            check_database_url("--database", args.database)
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
    except SettingsError as error:
        return str(error)
    except OSError as error:
        return f"--out: cannot create the folder {args.out.resolve()} ({error.strerror or error})."
    return None


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["variant=short", "xeno=true"]`` -> a dict (values coerced by the game's option specs)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        out[name.strip()] = value.strip()
    return out


async def play_one(
    service: GameService,
    game_name: str,
    players: int,
    options: dict[str, Any],
    seed: str,
    channel_id: int,
    chooser: random.Random,
    on_report: Callable[[Any, int], None] | None = None,
    levels: Sequence[str] = (),
    max_iterations: int | None = None,
) -> tuple[Any, int]:
    """Play one game through the service; returns (final report, plies).

    Seat ``i`` is a computer player of ``levels[i]`` when given (searching up to ``max_iterations``),
    else a random player.  ``on_report(report, ply)`` sees every report, the start's included (ply 0).
    """
    actors = [Actor(1000 + i, name) for i, name in enumerate(seat_names(players, levels))]
    await service.new_game(
        guild_id=1,
        channel_id=channel_id,
        game=game_name,
        actor=actors[0],
        options=options,
        max_players=players,
        seed=seed,
        rated=False,  # random and computer players: never rated
    )
    for actor in actors[1:]:
        await service.join(channel_id, actor)
    report = await service.start(channel_id, actors[0])
    plies = 0
    if on_report is not None:
        on_report(report, plies)
    while report.outcome is None:
        seat = report.to_move_seat
        assert seat is not None
        actor = actors[seat]
        if report.needs_roll:
            report = await service.roll(channel_id, actor)
        elif seat < len(levels):
            state = report.rules.to_json(report.state)
            decision_seed = zlib.crc32(f"{seed}/{report.game.ply}".encode())
            notation = choose_notation(game_name, state, levels[seat], decision_seed, None, max_iterations)
            report = await service.move(channel_id, actor, notation)
        else:
            moves = await service.legal_moves(channel_id, actor.user_id)
            notation = moves[chooser.randrange(len(moves))].value
            report = await service.move(channel_id, actor, notation)
        plies = report.game.ply  # one decision may store two entries (a re-roll and its roll)
        if on_report is not None:
            on_report(report, plies)
    return report, plies


def seat_names(players: int, levels: Sequence[str]) -> list[str]:
    """Who plays each seat, as results name them: ``Seat 1 (hard)``, ``Seat 3 (random)``."""
    return [f"Seat {i + 1} ({levels[i] if i < len(levels) else 'random'})" for i in range(players)]


def tally_line(names: Sequence[str], firsts: Sequence[int], draws: int, played: int) -> str:
    """Each seat's first places (a shared first counts for each) and the games drawn by the whole table.

    ``Seat 1 (hard) first in 9 of 10 games, Seat 2 (normal) 1; 0 drawn``.
    """
    counts = [f"{names[0]} first in {firsts[0]} of {played} games"]
    counts += [f"{name} {count}" for name, count in zip(names[1:], firsts[1:], strict=True)]
    return f"{', '.join(counts)}; {draws} drawn"


def board_keeper(folder: Path, stem: str) -> Callable[[Any, int], None]:
    """A report callback that writes each board as ``<stem>-<ply>.png`` in ``folder``."""

    def keep(report: Any, ply: int) -> None:
        if report.png is not None:
            (folder / f"{stem}-{ply:04d}.png").write_bytes(report.png)

    return keep


async def run_selfplay(args: argparse.Namespace, settings: Settings) -> int:
    """Play ``args.games`` games and print progress and outcomes; returns an exit status."""
    if args.game not in games.REGISTRY:
        print(f"Unknown game {args.game!r}; choose one of {', '.join(sorted(games.REGISTRY))}.", file=sys.stderr)
        return 2
    rules = rules_for(args.game)
    options = parse_options(args.option)
    levels = [level.strip() for level in args.ai.split(",") if level.strip()]
    seats = args.players or rules.max_players
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or len(levels) > seats:
        print(f"--ai takes up to {seats} of {', '.join(LEVELS)}, comma-separated.", file=sys.stderr)
        return 2
    players = args.players or max(rules.min_players, len(levels))
    problem = prepare(args)
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite+aiosqlite:///{tmp}/selfplay.db"
        try:
            session = await open_session(url, render=args.out is not None)
        except (OSError, SQLAlchemyError) as error:
            print(f"--database: cannot open {database_problem(url, error)}.", file=sys.stderr)
            return 2
        service = session.games
        chooser = random.Random(args.seed)
        started = time.perf_counter()
        total_plies = draws = 0
        firsts = [0] * players
        try:
            for number in range(1, args.games + 1):
                keep = board_keeper(args.out, f"{args.game}-{number:03d}") if args.every and args.out else None
                try:
                    report, plies = await play_one(
                        service,
                        args.game,
                        players,
                        options,
                        f"{args.seed}-{number}",
                        number,
                        chooser,
                        keep,
                        levels,
                        args.ai_iterations,
                    )
                except ServiceError as error:
                    print(f"Cannot play {rules.title}: {error}", file=sys.stderr)
                    return 2
                total_plies += plies
                outcome = report.outcome
                if outcome.is_draw:
                    draws += 1
                else:
                    for seat in outcome.winners:
                        firsts[seat] += 1
                winners = ", ".join(report.game.name_at(s) for s in outcome.winners) or "nobody"
                result = "draw" if outcome.is_draw else f"won by {winners}"
                print(
                    f"[{number}/{args.games}] {rules.title}: {result} after {plies} plies — {outcome.reason}",
                    flush=True,
                )
                if args.out is not None and report.png is not None:
                    (args.out / f"{args.game}-{number:03d}.png").write_bytes(report.png)
        finally:
            await session.close()
        elapsed = time.perf_counter() - started
        print(tally_line(seat_names(players, levels), firsts, draws, args.games))
        print(
            f"{args.games} games, {total_plies} plies in {elapsed:.1f}s "
            f"({total_plies / max(elapsed, 1e-9):.0f} plies/s through the service and database)"
        )
    return 0
