"""Match results: an organiser's result text, the scored results of a round, who goes through a knockout."""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence

from bot.session.tournament_records import BYE, DONE, REST, MatchRecord, TournamentRow
from bot.tournaments.errors import TournamentError
from bot.tournaments.formats import is_bot
from bot.tournaments.pairings import Bracket, elimination_bracket
from bot.tournaments.standings import Result, place_points, table_bye_points

DRAW_NOTE = "draw: the higher seed goes through"
ADJUDICATED = "adjudicated"
GAME_ABORTED = "game aborted"
DUEL_WORDS = {
    "win": (1, 2),
    "won": (1, 2),
    "1-0": (1, 2),
    "loss": (2, 1),
    "lose": (2, 1),
    "lost": (2, 1),
    "0-1": (2, 1),
    "draw": (1, 1),
    "1/2-1/2": (1, 1),
    "½-½": (1, 1),
}
DOUBLE_FORFEIT = ("double forfeit", "forfeit both", "0-0", "both lose")


def user_of(player: Hashable) -> int:
    """A tournament player as the pairings hand it back: the user id it was seeded with."""
    assert isinstance(player, int), f"a tournament player is a user id, not {player!r}"
    return player


def parse_result(text: str, players: Sequence[int], subject: int) -> tuple[tuple[int, ...], tuple[float, ...] | None]:
    """Ranks (seat order) and optional points from an organiser's result text.

    Two players: ``win``/``loss``/``draw`` for ``subject``, or ``double forfeit`` (both score 0).
    Any table: the places in seat order, e.g. ``2 1 3 3`` (equal numbers share a place).
    """
    words = " ".join(text.strip().lower().split())
    if len(players) == 2 and words in DUEL_WORDS:
        mine, other = DUEL_WORDS[words]
        return ((mine, other) if players[0] == subject else (other, mine)), None
    if len(players) == 2 and words in DOUBLE_FORFEIT:
        return (2, 2), (0.0, 0.0)
    numbers = [int(n) for n in re.findall(r"\d+", words)]
    if len(numbers) == len(players) and all(1 <= n <= len(players) for n in numbers) and not re.search(r"[a-z]", words):
        return tuple(numbers), None
    if len(players) == 2:
        raise TournamentError("Give the result as win, loss or draw for that player, or double forfeit.")
    raise TournamentError(
        f"Give the {len(players)} places in seat order, e.g. {' '.join(str(i + 1) for i in range(len(players)))}."
    )


def results_of(matches: Sequence[MatchRecord], *, table_byes: bool = False) -> list[Result]:
    """The scored results of settled matches (rests and unfinished games count nothing).

    With ``table_byes`` (table Swiss) a bye is worth the mean points of a seat at its round's tables,
    every seat counted (computer players' too): known from the tables' sizes as soon as the round is
    paired, so the bye scores while the round's games are still played (docs/tournaments.md)."""
    tables: dict[int, list[int]] = {}
    for match in matches:
        if match.status not in (BYE, REST) and len(match.players) > 1:
            tables.setdefault(match.round, []).append(len(match.players))
    out = []
    for match in matches:
        if match.status == BYE:
            points = table_bye_points(tables.get(match.round, [])) if table_byes else None
            out.append(Result.bye(match.round, match.players[0], points))
        elif match.status == DONE and match.ranks is not None:
            out.append(result_of(match.round, match.players, match.ranks, match.points))
    return out


def result_of(round: int, players: Sequence[int], ranks: Sequence[int], points: Sequence[float] | None) -> Result:
    """A settled game's result for the standings.  Computer players are not in the standings: the
    people at their table keep the points and the places the whole table gave them (a person beaten
    only by a bot lost that game), and a person alone with bots counts a bye worth those points (so it
    is their bye, and pairings give them no second one)."""
    if not any(is_bot(p) for p in players):
        return Result(round, tuple(players), tuple(ranks), None if points is None else tuple(points))
    scored = list(points) if points is not None else list(place_points(ranks))
    people = [seat for seat, p in enumerate(players) if not is_bot(p)]
    return Result(
        round,
        tuple(players[s] for s in people),
        tuple(ranks[s] for s in people),
        tuple(scored[s] for s in people),
        played=len(people) == 1,
        unranked=tuple(rank for p, rank in zip(players, ranks, strict=True) if is_bot(p)),
    )


def bracket_of(tournament: TournamentRow, matches: Sequence[MatchRecord]) -> Bracket:
    """The elimination bracket: the seeds fixed at the start and every recorded winner."""
    bracket = elimination_bracket([int(s) for s in tournament.data["seeds"]])
    for match in sorted(matches, key=lambda m: (m.round, m.board)):
        if match.status == DONE and match.winner is not None:
            bracket = bracket.with_winner(match.round, match.board - 1, match.winner)
    return bracket


def elimination_winner(tournament: TournamentRow, players: Sequence[int], ranks: Sequence[int]) -> int:
    """The player who goes through: the better place, and on a draw the higher seed."""
    seeds = [int(s) for s in tournament.data.get("seeds", [])]
    seed = {p: seeds.index(p) if p in seeds else len(seeds) for p in players}
    return min(players, key=lambda p: (ranks[list(players).index(p)], seed[p]))
