"""What each round plays: the plan fixed at the start, and the matches of the next round of every format."""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any

from bot.session.tournament_records import BYE, DONE, PENDING, REST, MatchRecord, TournamentRow
from bot.tournaments.formats import (
    ELIMINATION,
    ROUND_ROBIN,
    SWISS,
    TABLES,
    default_rounds,
    minimum_players,
    table_range,
)
from bot.tournaments.pairings import (
    Bracket,
    PairingError,
    elimination_bracket,
    next_swiss_round,
    next_table_round,
    round_robin,
)
from bot.tournaments.results import bracket_of, elimination_winner, results_of, user_of
from games.base import Rules

log = logging.getLogger(__name__)

Planned = dict[str, Any]  # a match to store: board, players, status (and ranks, winner, note when settled)


def plan(tournament: TournamentRow, seeds: Sequence[int]) -> tuple[int, dict[str, Any]]:
    """The number of rounds and the format data fixed at the start."""
    data: dict[str, Any] = {**tournament.data, "seeds": list(seeds)}  # keeps the choices made at creation
    if tournament.format == ROUND_ROBIN:
        schedule = round_robin(list(seeds))
        data["schedule"] = [[list(table) for table in rnd.tables] for rnd in schedule]
        data["rests"] = [list(rnd.byes) for rnd in schedule]
        return len(schedule), data
    if tournament.format == ELIMINATION:
        return len(elimination_bracket(list(seeds)).rounds), data
    return tournament.rounds or default_rounds(tournament.format, len(seeds)), data


def next_round(
    tournament: TournamentRow, rules: Rules, active: Sequence[int], matches: Sequence[MatchRecord]
) -> list[Planned] | None:
    """The matches of round ``current_round + 1``, or None when the tournament is over instead.

    ``active`` are the players still in, ``matches`` every match played so far.
    """
    number = tournament.current_round + 1
    fmt = tournament.format
    if fmt == ELIMINATION:
        bracket = bracket_of(tournament, matches)
        if bracket.is_complete or number > len(bracket.rounds):
            return None
        return elimination_round(tournament, bracket, number, set(active))
    bots = bool(tournament.data.get("bots"))
    # with bots on, table Swiss fills a short table with them: it goes on while two people remain
    enough = 2 if fmt == TABLES and bots else minimum_players(rules, fmt, tournament.options)
    if number > (tournament.rounds or 0) or len(active) < enough:
        return None
    if fmt == SWISS:
        pairing = next_swiss_round(active, results_of(matches))
        return planned(pairing.tables, pairing.byes, fill=2 if bots else 0)
    if fmt == TABLES:
        low, high = table_range(rules, tournament.options)
        size = min(high, tournament.table_size) if tournament.table_size else 0
        if bots and len(active) < low:  # too few people left for a table of their own: they play together
            return planned([], list(active), fill=size or low)
        try:
            pairing = next_table_round(
                active,
                results_of(matches, table_byes=True),
                min_size=low,
                max_size=high,
                preferred=tournament.table_size,
            )
        except PairingError as error:  # pragma: no cover - guarded by the player count above
            log.warning("tournament %s cannot pair: %s", tournament.id, error)
            return None
        if not bots:
            return planned(pairing.tables, pairing.byes)
        return planned(pairing.tables, pairing.byes, fill=size or low, seats=size)
    return round_robin_round(tournament, number, set(active))


def planned(tables: Sequence[Sequence[Any]], byes: Sequence[Any], *, fill: int = 0, seats: int = 0) -> list[Planned]:
    """Tables to play, then byes, numbered from board 1.

    With ``fill`` (the organiser's ``bots`` option: a table size), the players who would have a bye
    play instead, at one more table filled up to ``fill`` seats with computer players (ids -1, -2...
    at each table, after its people).  With ``seats`` (the table size the organiser chose, when bots
    are on) every table short of it has its empty seats filled with computer players too.
    """
    tables = [_filled([int(p) for p in table], seats) for table in tables]
    if fill and byes:
        tables.append(_filled([int(p) for p in byes], fill))
        byes = ()
    out = [{"board": i, "players": table, "status": PENDING} for i, table in enumerate(tables, 1)]
    out += [{"board": len(tables) + i, "players": [int(p)], "status": BYE} for i, p in enumerate(byes, 1)]
    return out


def _filled(people: list[int], seats: int) -> list[int]:
    """``people`` and then computer players (ids -1, -2...) up to ``seats`` seats."""
    return people + [-(i + 1) for i in range(max(0, seats - len(people)))]


def round_robin_round(tournament: TournamentRow, number: int, active: Collection[int]) -> list[Planned]:
    """A scheduled round robin round; a game against a withdrawn player is a forfeit win (a bye)."""
    schedule = tournament.data["schedule"][number - 1]
    rests = tournament.data["rests"][number - 1]
    out: list[Planned] = []
    board = 0
    for table in schedule:
        a, b = (int(p) for p in table)
        present = [p for p in (a, b) if p in active]
        board += 1
        if len(present) == 2:
            out.append({"board": board, "players": [a, b], "status": PENDING})
        elif len(present) == 1:
            out.append({"board": board, "players": present, "status": BYE, "note": "opponent withdrew"})
    for player in rests:
        if int(player) in active:
            board += 1
            out.append({"board": board, "players": [int(player)], "status": REST})
    return out


def elimination_round(
    tournament: TournamentRow, bracket: Bracket, number: int, active: Collection[int]
) -> list[Planned]:
    """The ready matches of bracket round ``number``; a withdrawn player forfeits (board = slot + 1)."""
    out: list[Planned] = []
    for match in bracket.rounds[number - 1]:
        if match.bye:
            continue
        players = [user_of(p) for p in match.players if p is not None]
        if len(players) != 2:  # pragma: no cover - every feeder is decided when a round is paired
            continue
        row: Planned = {"board": match.slot + 1, "players": players, "status": PENDING}
        present = [p for p in players if p in active]
        if len(present) < 2:
            winner = present[0] if present else elimination_winner(tournament, players, (1, 1))
            row.update(
                status=DONE,
                ranks=[1 if p == winner else 2 for p in players],
                winner=winner,
                note="forfeit: opponent withdrew" if present else "both withdrew: the higher seed goes through",
            )
        out.append(row)
    return out
