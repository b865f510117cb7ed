"""Tournament standings with tiebreaks, computed from a plain list of results.

Pure functions: no Discord, no database.  Players are any hashable ids (user ids, names).

Results
-------
A ``Result`` is one finished game of a round: the players in seat order and their ranks exactly as
``Outcome.ranks`` gives them (1 = first, equal numbers share a place).  A **bye** is a result with a
single player (``Result.bye(round, player)``).  An adjudicated result may carry explicit ``points``
per player (e.g. a double forfeit scored 0-0); otherwise points follow from the ranks.

Points
------
One formula for every table size: a player scores one point for every opponent ranked below them
and half a point for every opponent sharing their place.  At a table of ``n`` this gives place
``p`` exactly ``n - p`` points, and tied players share the points of the places they cover (at a
table of four, two players tied first get (3 + 2) / 2 = 2.5 each).  For two players it is the
familiar win 1, draw 1/2, loss 0.

Byes (the usual way)
--------------------
- Two-player formats: a bye scores **1 point** (a win).
- Table Swiss: a bye scores the **mean points of a seat at that round's tables**, ``(n - 1) / 2``
  for tables of ``n`` averaged over every seat played that round (a neutral result; it is final once
  every table of the round has reported).  ``Result.points`` overrides either default.
- For Buchholz and Sonneborn-Berger a bye counts as a game against a **virtual opponent holding the
  player's own final score** (the FIDE 2023 "dummy opponent"), won by the player.
- Rounds a player did not take part in (dropped, joined late) count nothing anywhere.
- Round robin: the bye seat of an odd field is a rest round, not a free win; record no result for
  it (everybody rests exactly once, so nobody gains or loses by it).

Tiebreaks, two-player formats (Swiss, round robin), in order
------------------------------------------------------------
1. points;
2. **Buchholz cut-1**: the sum of the final scores of every opponent met, less the single lowest
   of those scores (a player with one game has 0);
3. **Sonneborn-Berger**: the sum, over games, of the points the player scored in the game times
   that opponent's final score (a win counts the opponent's whole score, a draw half, a loss
   nothing);
4. **head-to-head**: among players still level on all of the above, the points each scored in the
   games between them; it applies only when every pair of the tied group has met (otherwise it is
   left blank and they share the place).

Players still level after every tiebreak share the place; the list keeps them in the order of
``players`` (the seeding order) for display.

Table Swiss, in order
---------------------
1. place points;
2. **Buchholz**: for every game, the mean final score of the opponents at that table, summed over
   games (the mean keeps a nine-player table from counting three times as much as a three-player
   one); a bye adds the player's own score.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = [
    "DUEL_TIEBREAKS",
    "TABLE_TIEBREAKS",
    "Result",
    "StandingRow",
    "StandingsError",
    "duel_standings",
    "place_points",
    "scores",
    "standings_order",
    "table_bye_points",
    "table_standings",
]

DUEL_TIEBREAKS = ("Buchholz cut-1", "Sonneborn-Berger", "Head-to-head")
TABLE_TIEBREAKS = ("Buchholz",)
BYE_DUEL_POINTS = Fraction(1)


class StandingsError(ValueError):
    """A result list that cannot be scored (wrong shapes, a player twice in one round...)."""


def _as_tuple(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


@dataclass(frozen=True)
class Result:
    """One finished game of a round, or a bye (one player).

    ``players`` in seat order; ``ranks`` as ``Outcome.ranks``; ``points`` optionally overrides the
    points each player scores (adjudication).  ``unranked`` are the places of the table's other seats,
    held by players outside the standings (computer players): they count in the points and decide who
    won, drew or lost, but nobody scores for them.
    """

    round: int
    players: tuple[Hashable, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...] | None = None
    played: bool = False  # a one-player result that was a game against computer players, not a rest
    unranked: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _as_tuple(self.players))
        object.__setattr__(self, "ranks", _as_tuple(self.ranks))
        object.__setattr__(self, "unranked", _as_tuple(self.unranked))
        if self.points is not None:
            object.__setattr__(self, "points", _as_tuple(self.points))
        if isinstance(self.round, bool) or not isinstance(self.round, int) or self.round < 1:
            raise StandingsError(f"A round number must be a whole number from 1 up, not {self.round!r}.")
        if not self.players:
            raise StandingsError("A result needs at least one player.")
        if len(set(self.players)) != len(self.players):
            raise StandingsError(f"A player appears twice in one game of round {self.round}.")
        if len(self.ranks) != len(self.players):
            raise StandingsError(
                f"A result of round {self.round} has {len(self.ranks)} ranks for {len(self.players)} players."
            )
        for rank in self.ranks + self.unranked:
            if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
                raise StandingsError(f"Ranks must be whole numbers from 1 up, not {rank!r}.")
        if self.points is not None:
            if len(self.points) != len(self.players):
                raise StandingsError(
                    f"A result of round {self.round} has {len(self.points)} point values for "
                    f"{len(self.players)} players."
                )
            for value in self.points:
                if isinstance(value, bool) or not isinstance(value, int | float | Fraction) or value < 0:
                    raise StandingsError(f"Points must be numbers of 0 or more, not {value!r}.")

    @classmethod
    def bye(cls, round: int, player: Hashable, points: float | None = None) -> Result:
        """A bye for ``player`` in ``round`` (default points: see the module notes)."""
        return cls(round, (player,), (1,), None if points is None else (points,))

    @property
    def is_bye(self) -> bool:
        """True for a one-player result."""
        return len(self.players) == 1


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; ``place`` is shared by players level on every tiebreak.

    Tiebreaks a format does not use are None.  ``tiebreaks`` lists the ones it uses, in order,
    as (label, value) pairs for display.
    """

    place: int
    player: Hashable
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    byes: int
    buchholz: float
    buchholz_cut1: float | None = None
    sonneborn_berger: float | None = None
    head_to_head: float | None = None
    tiebreak_names: tuple[str, ...] = field(default=DUEL_TIEBREAKS)

    @property
    def tiebreaks(self) -> tuple[tuple[str, float | None], ...]:
        """The format's tiebreaks in order, as (label, value)."""
        values = {
            "Buchholz cut-1": self.buchholz_cut1,
            "Sonneborn-Berger": self.sonneborn_berger,
            "Head-to-head": self.head_to_head,
            "Buchholz": self.buchholz,
        }
        return tuple((name, values[name]) for name in self.tiebreak_names)


def _place_points(ranks: Sequence[int]) -> tuple[Fraction, ...]:
    out = []
    for mine in ranks:
        below = sum(1 for other in ranks if other > mine)
        level = sum(1 for other in ranks if other == mine) - 1
        out.append(Fraction(below) + Fraction(level, 2))
    return tuple(out)


def place_points(ranks: Sequence[int]) -> tuple[float, ...]:
    """Points per seat for one game: 1 per opponent ranked below, 1/2 per opponent sharing the place.

    At a table of n, place p scores n - p; ties share.  ``(1, 2) -> (1, 0)``, ``(1, 1) -> (.5, .5)``,
    ``(2, 1, 1, 4) -> (1, 2.5, 2.5, 0)``.
    """
    return tuple(float(p) for p in _place_points(ranks))


def table_bye_points(table_sizes: Iterable[int]) -> float:
    """The points of a table-Swiss bye in a round with tables of these sizes (mean seat points)."""
    return float(_mean_seat_points(list(table_sizes)))


def _mean_seat_points(sizes: Sequence[int]) -> Fraction:
    seats = sum(sizes)
    if seats == 0:
        return Fraction(0)
    return Fraction(sum(n * (n - 1) for n in sizes), 2 * seats)


@dataclass
class _Entry:
    opponents: tuple[Hashable, ...]  # empty for a bye
    scored: Fraction
    rank: int
    bye: bool
    shared: bool
    played: bool = False  # a bye played against computer players: a game, though not against anyone ranked


def _collect(
    results: Iterable[Result], players: Sequence[Hashable] | None, *, duel: bool
) -> tuple[list[Hashable], dict[Hashable, list[_Entry]], dict[Hashable, Fraction]]:
    results = list(results)
    order: list[Hashable] = list(dict.fromkeys(players or ()))
    known = set(order)
    seen: dict[tuple[int, Hashable], None] = {}
    sizes_by_round: dict[int, list[int]] = {}
    for result in results:
        if not isinstance(result, Result):
            raise StandingsError(f"Expected a Result, got {type(result).__name__}.")
        if duel and len(result.players) > 2:
            raise StandingsError(f"A two-player standings table got a game of {len(result.players)} players.")
        for player in result.players:
            key = (result.round, player)
            if key in seen:
                raise StandingsError(f"{player!r} has two results in round {result.round}.")
            seen[key] = None
            if player not in known:
                known.add(player)
                order.append(player)
        if not result.is_bye:
            sizes_by_round.setdefault(result.round, []).append(len(result.players))

    entries: dict[Hashable, list[_Entry]] = {p: [] for p in order}
    totals: dict[Hashable, Fraction] = {p: Fraction(0) for p in order}
    for result in results:
        if result.is_bye:
            if result.points is not None:  # a table-Swiss bye's mean seat points: a small fraction, such as 9/7
                value = Fraction(result.points[0]).limit_denominator(1_000)
            elif duel:
                value = BYE_DUEL_POINTS
            else:
                value = _mean_seat_points(sizes_by_round.get(result.round, []))
            player = result.players[0]
            entries[player].append(_Entry((), value, 1, True, False, result.played))
            totals[player] += value
            continue
        table = result.ranks + result.unranked  # every seat's place, computer players' included
        scored = tuple(Fraction(v) for v in result.points) if result.points is not None else _place_points(table)
        for seat, player in enumerate(result.players):
            others = tuple(q for q in result.players if q != player)
            shared = sum(1 for r in table if r == result.ranks[seat]) > 1
            entries[player].append(_Entry(others, scored[seat], result.ranks[seat], False, shared))
            totals[player] += scored[seat]
    return order, entries, totals


def _record(entries: Sequence[_Entry]) -> tuple[int, int, int, int, int]:
    """Games played (a bye played against computer players included), then wins, draws and losses
    against ranked opponents, and byes."""
    games = sum(1 for e in entries if not e.bye or e.played)
    against_people = [e for e in entries if not e.bye]
    wins = sum(1 for e in against_people if e.rank == 1 and not e.shared)
    draws = sum(1 for e in against_people if e.rank == 1 and e.shared)
    byes = sum(1 for e in entries if e.bye)
    return games, wins, draws, len(against_people) - wins - draws, byes


def _places(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


def duel_standings(results: Iterable[Result], players: Sequence[Hashable] | None = None) -> list[StandingRow]:
    """Standings of a two-player format (Swiss, round robin), best first.

    ``players`` (optional) gives everyone to list, in seeding order, including players with no
    result yet; anyone else appearing in ``results`` is added after them.  Ordered by points,
    Buchholz cut-1, Sonneborn-Berger, head-to-head (see the module notes).
    """
    order, entries, totals = _collect(results, players, duel=True)
    seed = {p: i for i, p in enumerate(order)}

    buchholz: dict[Hashable, Fraction] = {}
    cut1: dict[Hashable, Fraction] = {}
    sb: dict[Hashable, Fraction] = {}
    for player in order:
        opp_scores: list[Fraction] = []
        berger = Fraction(0)
        for entry in entries[player]:
            opp = totals[player] if entry.bye else totals[entry.opponents[0]]
            opp_scores.append(opp)
            berger += entry.scored * opp
        buchholz[player] = sum(opp_scores, Fraction(0))
        cut1[player] = buchholz[player] - min(opp_scores) if opp_scores else Fraction(0)
        sb[player] = berger

    def key(p: Hashable) -> tuple[Fraction, Fraction, Fraction]:
        return (-totals[p], -cut1[p], -sb[p])

    ranked = sorted(order, key=lambda p: (key(p), seed[p]))
    h2h: dict[Hashable, Fraction | None] = {p: None for p in order}
    index = 0
    while index < len(ranked):
        end = index
        while end + 1 < len(ranked) and key(ranked[end + 1]) == key(ranked[index]):
            end += 1
        group = ranked[index : end + 1]
        if len(group) > 1:
            members = set(group)
            met: set[frozenset[Hashable]] = set()
            scored = {p: Fraction(0) for p in group}
            for p in group:
                for entry in entries[p]:
                    if not entry.bye and entry.opponents[0] in members:
                        met.add(frozenset((p, entry.opponents[0])))
                        scored[p] += entry.scored
            if all(frozenset((a, b)) in met for i, a in enumerate(group) for b in group[i + 1 :]):
                for p in group:
                    h2h[p] = scored[p]
                group.sort(key=lambda p: (-scored[p], seed[p]))
                ranked[index : end + 1] = group
        index = end + 1

    full_keys = [(*key(p), -(h2h[p] or 0)) for p in ranked]
    return [
        _row(
            place,
            player,
            entries,
            totals,
            buchholz,
            DUEL_TIEBREAKS,
            buchholz_cut1=float(cut1[player]),
            sonneborn_berger=float(sb[player]),
            head_to_head=None if (value := h2h[player]) is None else float(value),
        )
        for place, player in zip(_places(full_keys), ranked, strict=True)
    ]


def table_standings(results: Iterable[Result], players: Sequence[Hashable] | None = None) -> list[StandingRow]:
    """Standings of a table Swiss (multi-player tables), best first: place points, then Buchholz.

    Buchholz here sums, over the player's games, the mean final score of the table's opponents; a
    bye adds the player's own score (see the module notes).
    """
    order, entries, totals = _collect(results, players, duel=False)
    seed = {p: i for i, p in enumerate(order)}
    buchholz: dict[Hashable, Fraction] = {}
    for player in order:
        value = Fraction(0)
        for entry in entries[player]:
            if entry.bye:
                value += totals[player]
            else:
                value += sum((totals[q] for q in entry.opponents), Fraction(0)) / len(entry.opponents)
        buchholz[player] = value

    def key(p: Hashable) -> tuple[Fraction, Fraction]:
        return (-totals[p], -buchholz[p])

    ranked = sorted(order, key=lambda p: (key(p), seed[p]))
    return [
        _row(place, player, entries, totals, buchholz, TABLE_TIEBREAKS)
        for place, player in zip(_places([key(p) for p in ranked]), ranked, strict=True)
    ]


def _row(
    place: int,
    player: Hashable,
    entries: Mapping[Hashable, Sequence[Any]],
    totals: Mapping[Hashable, Fraction],
    buchholz: Mapping[Hashable, Fraction],
    tiebreak_names: tuple[str, ...],
    **tiebreaks: float | None,
) -> StandingRow:
    """One standings row: the player's record and score, Buchholz, and the format's other tiebreaks."""
    games, wins, draws, losses, byes = _record(entries[player])
    return StandingRow(
        place=place,
        player=player,
        points=float(totals[player]),
        games=games,
        wins=wins,
        draws=draws,
        losses=losses,
        byes=byes,
        buchholz=float(buchholz[player]),
        tiebreak_names=tiebreak_names,
        **tiebreaks,
    )


def standings_order(rows: Sequence[StandingRow]) -> list[Hashable]:
    """The players of ``rows`` in standing order (for pairing the next round)."""
    return [row.player for row in rows]


def scores(rows: Sequence[StandingRow]) -> Mapping[Hashable, float]:
    """Player -> points, from ``rows``."""
    return {row.player: row.points for row in rows}
