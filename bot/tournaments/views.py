"""What a tournament looks like from outside: its status, its standings (or bracket) and its JSON export."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.session import rules_for
from bot.session.tournament_records import (
    ABSENT,
    CANCELLED,
    CHECKIN,
    DROPPED,
    FINISHED,
    KICKED,
    LAUNCHING,
    PENDING,
    PLAYING,
    REGISTRATION,
    RUNNING,
    EntrantRow,
    MatchRecord,
    TournamentRow,
)
from bot.tournaments.formats import ELIMINATION, FORMAT_NAMES, TABLES
from bot.tournaments.pairings import Bracket
from bot.tournaments.results import bracket_of, results_of, user_of
from bot.tournaments.standings import StandingRow, duel_standings, table_standings
from games.base import Rules

# 2: a standings row's "games" counts a game against computer players (also a bye)
# 3: a cancelled tournament's unfinished matches have the status "stopped"
EXPORT_VERSION = 3


@dataclass(frozen=True)
class TournamentView:
    """Everything ``/tournament status`` shows: the tournament, its players and its current round."""

    tournament: TournamentRow
    rules: Rules
    players: list[EntrantRow]
    matches: list[MatchRecord]
    total_rounds: int | None

    @property
    def names(self) -> dict[int, str]:
        """User id -> display name."""
        return {p.user_id: p.display_name for p in self.players}


@dataclass(frozen=True)
class Standings:
    """Standings of a tournament: rows for points formats, the bracket for elimination.

    ``names`` marks players who withdrew; ``title`` and ``subtitle`` head the standings image.
    """

    tournament: TournamentRow
    rows: list[StandingRow]
    bracket: Bracket | None
    names: dict[int, str]
    title: str
    subtitle: str

    @property
    def winners(self) -> list[int]:
        """The champion, or every player sharing first place (none before any result)."""
        if self.bracket is not None:
            return [user_of(self.bracket.champion)] if self.bracket.champion is not None else []
        return [user_of(row.player) for row in self.rows if row.place == 1]


def stage(tournament: TournamentRow) -> str:
    """Where the tournament stands, in a few words (``round 2 of 3``, ``final``...)."""
    of = f" of {tournament.rounds}" if tournament.rounds else ""
    return {
        REGISTRATION: "registration open",
        CHECKIN: "check-in open",
        RUNNING: f"round {tournament.current_round}{of}",
        FINISHED: "final",
        CANCELLED: "cancelled",
    }[tournament.status]


def standings_of(tournament: TournamentRow, players: Sequence[EntrantRow], matches: Sequence[MatchRecord]) -> Standings:
    """Standings with tiebreaks (or the bracket, for elimination) from every player and match."""
    names = {}
    for p in players:
        suffix = " (withdrew)" if p.status in (DROPPED, KICKED) else ""
        names[p.user_id] = p.display_name + suffix
    rules = rules_for(tournament.game)
    subtitle = f"{FORMAT_NAMES[tournament.format]} · {rules.title} · {stage(tournament)}"
    if tournament.format == ELIMINATION:
        bracket = bracket_of(tournament, matches) if tournament.data.get("seeds") else None
        return Standings(tournament, [], bracket, names, tournament.name, subtitle)
    seeded = [p.user_id for p in players if p.status != ABSENT]
    results = results_of(matches, table_byes=tournament.format == TABLES)
    rows = (table_standings if tournament.format == TABLES else duel_standings)(results, seeded)
    return Standings(tournament, rows, None, names, tournament.name, subtitle)


STOPPED = "stopped"  # an export's word for a match left unfinished when its tournament was cancelled
UNFINISHED = (PENDING, LAUNCHING, PLAYING)


def export_of(
    tournament: TournamentRow, players: Sequence[EntrantRow], matches: Sequence[MatchRecord], standings: Standings
) -> dict[str, Any]:
    """The whole tournament as JSON-ready data: settings, players, rounds, matches and standings."""
    rounds: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for m in matches:
        rounds[m.round].append(
            {
                "board": m.board,
                "players": [str(p) for p in m.players],
                "status": STOPPED if tournament.status == CANCELLED and m.status in UNFINISHED else m.status,
                "game_id": m.game_id,
                "thread_id": str(m.thread_id) if m.thread_id else None,
                "ranks": list(m.ranks) if m.ranks is not None else None,
                "points": list(m.points) if m.points is not None else None,
                "winner": str(m.winner) if m.winner is not None else None,
                "note": m.note,
                "finished_at": m.finished_at.isoformat() if m.finished_at else None,
            }
        )
    data: dict[str, Any] = {
        "format_version": EXPORT_VERSION,
        "tournament": {
            "id": tournament.id,
            "name": tournament.name,
            "guild_id": str(tournament.guild_id),
            "channel_id": str(tournament.channel_id),
            "game": tournament.game,
            "options": tournament.options,
            "format": tournament.format,
            "rounds": tournament.rounds,
            "clock_days": tournament.clock_days,
            "round_days": tournament.round_days,
            "max_players": tournament.max_players,
            "table_size": tournament.table_size,
            "bots": bool(tournament.data.get("bots")),  # byes played at tables of hard bots (ids below 0)
            "checkin_minutes": tournament.checkin_minutes,
            "start_at": tournament.start_at.isoformat() if tournament.start_at else None,
            "status": tournament.status,
            "current_round": tournament.current_round,
            "created_at": tournament.created_at.isoformat(),
        },
        "players": [
            {
                "user_id": str(p.user_id),
                "name": p.display_name,
                "seed": p.seed,
                "status": p.status,
                "checked_in": p.checked_in,
                "left_round": p.left_round,
            }
            for p in players
        ],
        "rounds": [{"round": number, "matches": rounds[number]} for number in sorted(rounds)],
    }
    if standings.bracket is not None:
        bracket = standings.bracket
        data["bracket"] = {
            "seeds": [str(s) for s in bracket.seeds],
            "results": [[r, s, str(w)] for (r, s), w in sorted(bracket.winners().items())],
            "champion": str(bracket.champion) if bracket.champion is not None else None,
            "places": {str(p): place for p, place in bracket.final_ranks().items()},
        }
    else:
        data["standings"] = [
            {
                "place": row.place,
                "user_id": str(row.player),
                "name": standings.names.get(user_of(row.player), str(row.player)),
                "points": row.points,
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "byes": row.byes,
                "tiebreaks": {label: value for label, value in row.tiebreaks},
            }
            for row in standings.rows
        ]
    return data
