"""Tournament pairings: Swiss, round robin, single elimination and table Swiss.

Pure and deterministic: the same input always gives the same pairing.  The only random choice,
the initial order of players nobody has rated, takes an explicit ``random.Random``
(``seed_players``).  Players are any hashable ids.  A ``Round`` lists its tables (players in seat
order, seat 0 first) and its byes.

Swiss (two-player games) -- ``swiss_pairings`` / ``next_swiss_round``
--------------------------------------------------------------------
Every round is one maximum-weight matching (networkx, ``maxcardinality=True``) on the complete
graph of the active players, plus a virtual *bye* vertex when their number is odd, so everybody
is paired exactly once.  Each edge gets ``weight = BIG - cost`` where ``cost`` ranks the wishes
strictly, most important first (each tier's multiplier exceeds the largest total the tiers below
it can reach, so no amount of a lower wish can buy a higher one):

1. **no second bye**: a bye edge costs (byes the player already had);
2. **no rematch**: an edge costs (games the two already played against each other);
3. **the bye to the lowest-ranked player** (of those without a bye): a bye edge costs the
   number of players ranked below its player;
4. **similar scores**: ``(score difference)**2``, in the smallest unit the scores use (half
   points);
5. **Dutch shape**: inside one score group of ``g`` players, at group positions ``a`` and ``b``,
   ``(2*|a - b| - g)**2`` (the top half meets the bottom half: 1-5, 2-6, ... in a group of
   eight); across score groups ``(rank distance)**2`` (a player dropping down meets the highest
   of the group below).

So rematches and second byes happen only when no pairing avoids them, and the bye goes to the
lowest-ranked player without one unless that would force a rematch.  The bye counts as a win
(see ``bot.tournaments.standings``).  In each pair the player who has had the first seat less often takes it;
on a tie, the higher-ranked player.

Round robin -- ``round_robin``
-----------------------------
The circle method: the first player stays put and the rest rotate one place each round; with an
odd count a bye seat joins the circle (the player meeting it has the bye).  All ``n - 1`` rounds
(``n`` with a bye seat) are produced up front.  In each game the player who has had the first seat
less often so far takes it (on a tie it alternates by board and round), which keeps everybody's
first and second seats within one of each other.

Single elimination -- ``elimination_bracket``
---------------------------------------------
Seeds in the standard order (1 v 16, 8 v 9, 4 v 13, 5 v 12, ...: in every round the favourites'
seeds add up to the same number, so seeds 1 and 2 can only meet in the final), the bracket rounded
up to a power of two; the missing opponents are byes, which fall to the top seeds, and bye winners
advance at once.  ``Bracket.with_winner`` records results and advances winners; the bracket is
plain data (``to_json`` / ``from_json``).

Table Swiss (3-9 player games) -- ``table_sizes`` / ``table_swiss_pairings`` / ``next_table_round``
--------------------------------------------------------------------------------------------------
- **Table sizes**: the fewest byes first (normally none); then sizes as close as possible to the
  preferred size (sum of ``|size - preferred|``); then the mean size closest to preferred; then
  fewer tables.  Sizes differ by at most one; the larger tables come first.  The preferred size
  defaults to the middle of the allowed range, rounded up.
- **Byes** (only when the count cannot be split into allowed tables) go to the lowest-ranked players
  with the fewest byes; one is worth the mean seat points of the round (see ``bot.tournaments.standings``).
- **Grouping**: by standing, top players at table 1, but avoiding repeat meetings first.  Two
  starts, the plain grouping by standing and a greedy fill (each seat takes the best-ranked player
  who has met the table the fewest times), are each improved by swapping players between tables
  while that lowers (repeat meetings, then the squared distance of each player from the table
  their standing would give); the better result is kept.  A local search, so "where possible"
  means: never more repeats than plain grouping, none when a greedy or swap step finds a way.
- **Seats**: at each table whoever has sat first least often sits first; on a tie, whoever sat
  further back on average (seat position scaled to 0..1 per game), then by standing.
- **Points** by finishing place: at a table of ``n``, place ``p`` scores ``n - p``; ties share
  (``bot.tournaments.standings.place_points``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypeVar, cast

import networkx as nx

from bot.tournaments.standings import Result, duel_standings, table_standings

__all__ = [
    "Bracket",
    "Match",
    "PairingError",
    "Round",
    "elimination_bracket",
    "next_swiss_round",
    "next_table_round",
    "round_robin",
    "seed_players",
    "seeding_order",
    "swiss_pairings",
    "table_sizes",
    "table_swiss_pairings",
]

P = TypeVar("P", bound=Hashable)  # a player, as the caller names them


class PairingError(ValueError):
    """The players or settings given cannot be paired (one clear sentence)."""


@dataclass(frozen=True)
class Round:
    """One round: ``tables`` (players in seat order, top table first) and ``byes``."""

    tables: tuple[tuple[Hashable, ...], ...]
    byes: tuple[Hashable, ...] = ()

    @property
    def players(self) -> tuple[Hashable, ...]:
        """Everybody in the round, table by table, then the byes."""
        return tuple(p for table in self.tables for p in table) + self.byes


def _check_players(players: Sequence[Hashable]) -> list[Hashable]:
    out = list(players)
    if len(set(out)) != len(out):
        raise PairingError("A player is listed twice.")
    if any(p is None for p in out):
        raise PairingError("None cannot be a player.")
    return out


def seed_players(players: Sequence[P], rng: random.Random, ratings: Mapping[P, float] | None = None) -> list[P]:
    """Initial seeding: by rating, highest first (players without one last); ties in random order.

    ``rng`` decides the order among equal ratings (everybody, when no ratings are given).
    """
    order = cast(list[P], _check_players(players))
    rng.shuffle(order)
    if ratings:
        order.sort(key=lambda p: (p not in ratings, -ratings.get(p, 0.0)))
    return order


# --------------------------------------------------------------------------------------------
# Swiss


def _seat_balance(history: Iterable[Sequence[Hashable]]) -> Counter[Hashable]:
    balance: Counter[Hashable] = Counter()
    for game in history:
        game = tuple(game)
        if len(game) == 2:
            balance[game[0]] += 1
            balance[game[1]] -= 1
    return balance


def _scaled_scores(players: Sequence[Hashable], scores: Mapping[Hashable, float]) -> list[int]:
    values = [Fraction(scores.get(p, 0)).limit_denominator(1000) for p in players]
    unit = math.lcm(*(v.denominator for v in values)) if values else 1
    return [int(v * unit) for v in values]


def swiss_pairings(
    standings: Sequence[Hashable],
    scores: Mapping[Hashable, float] | None = None,
    history: Iterable[Sequence[Hashable]] = (),
    byes: Iterable[Hashable] = (),
) -> Round:
    """The next Swiss round for two-player games.

    ``standings``: the active players, best first.  ``scores``: their points so far (missing = 0).
    ``history``: every game played so far, as player tuples in seat order (players no longer
    active may appear).  ``byes``: one entry per bye already given (a player may repeat).
    """
    players = _check_players(standings)
    scores = scores or {}
    history = [tuple(game) for game in history]
    n = len(players)
    if n == 0:
        return Round(())
    if n == 1:
        return Round((), (players[0],))

    met: Counter[frozenset[Hashable]] = Counter()
    for game in history:
        for i, a in enumerate(game):
            for b in game[i + 1 :]:
                met[frozenset((a, b))] += 1
    had_bye = Counter(byes)
    scaled = _scaled_scores(players, scores)
    odd = n % 2 == 1
    edges = n // 2 + (1 if odd else 0)

    # score groups for the Dutch-shape term
    group_pos: dict[int, tuple[int, int]] = {}
    by_score: dict[int, list[int]] = {}
    for i in range(n):
        by_score.setdefault(scaled[i], []).append(i)
    for members in by_score.values():
        for pos, i in enumerate(members):
            group_pos[i] = (pos, len(members))

    def shape(i: int, j: int) -> int:
        if scaled[i] == scaled[j]:
            (a, g), (b, _) = group_pos[i], group_pos[j]
            return (2 * abs(a - b) - g) ** 2
        return (i - j) ** 2

    spread = max(scaled) - min(scaled)
    # tier multipliers: each exceeds the largest total the tiers below can reach
    max_shape = 4 * n * n
    m_score = edges * max_shape + 1
    m_byerank = edges * (spread * spread * m_score + max_shape) + 1
    m_rematch = n * m_byerank + edges * (spread * spread * m_score + max_shape) + 1
    max_met = max(met.values(), default=0)
    m_bye = edges * max_met * m_rematch + n * m_byerank + edges * (spread * spread * m_score + max_shape) + 1
    max_bye = max(had_bye.values(), default=0)
    big = max_bye * m_bye + max_met * m_rematch + n * m_byerank + spread * spread * m_score + max_shape + 1

    graph = nx.Graph()
    graph.add_nodes_from(range(n + (1 if odd else 0)))
    for i in range(n):
        for j in range(i + 1, n):
            pair = frozenset((players[i], players[j]))
            cost = met[pair] * m_rematch + (scaled[i] - scaled[j]) ** 2 * m_score + shape(i, j)
            graph.add_edge(i, j, weight=big - cost)
        if odd:
            cost = had_bye[players[i]] * m_bye + (n - 1 - i) * m_byerank
            graph.add_edge(i, n, weight=big - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    balance = _seat_balance(history)
    tables: list[tuple[int, tuple[Hashable, ...]]] = []
    bye: tuple[Hashable, ...] = ()
    for a, b in matching:
        i, j = min(a, b), max(a, b)
        if odd and j == n:
            bye = (players[i],)
            continue
        first, second = (i, j) if balance[players[i]] <= balance[players[j]] else (j, i)
        tables.append((i, (players[first], players[second])))
    tables.sort()
    result = Round(tuple(t for _, t in tables), bye)
    if sorted(map(repr, result.players)) != sorted(map(repr, players)):  # pragma: no cover - networkx contract
        raise PairingError("The pairing left a player out.")
    return result


def _history_from(results: Iterable[Result]) -> tuple[list[tuple[Hashable, ...]], list[Hashable]]:
    history, byes = [], []
    for result in results:
        if result.is_bye:
            byes.append(result.players[0])
        else:
            history.append(result.players)
    return history, byes


def next_swiss_round(active: Sequence[Hashable], results: Iterable[Result]) -> Round:
    """The next Swiss round from the results so far.

    ``active``: the players still in, in seeding order (it breaks ties in the standings).
    Standings are ``bot.tournaments.standings.duel_standings`` (points, Buchholz cut-1, Sonneborn-Berger, ...).
    """
    active = _check_players(active)
    results = list(results)
    rows = duel_standings(results, active)
    keep = set(active)
    order = [row.player for row in rows if row.player in keep]
    history, byes = _history_from(results)
    return swiss_pairings(order, {row.player: row.points for row in rows}, history, byes)


# --------------------------------------------------------------------------------------------
# Round robin


def round_robin(players: Sequence[Hashable]) -> tuple[Round, ...]:
    """Every round of a round robin by the circle method (see the module notes)."""
    order: list[Hashable | None] = list(_check_players(players))
    if len(order) < 2:
        raise PairingError("A round robin needs at least two players.")
    if len(order) % 2:
        order.append(None)
    m = len(order)
    rounds = []
    balance: Counter[Hashable] = Counter()  # first seats minus second seats so far
    fixed, ring = order[0], order[1:]
    for r in range(m - 1):
        current = [fixed, *ring]
        tables, byes = [], []
        for i in range(m // 2):
            a, b = current[i], current[m - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)
                continue
            # the first seat goes to whoever has had it less; on a tie it alternates by board and round
            flip = balance[b] < balance[a] if balance[a] != balance[b] else (r + i) % 2 == 1
            first, second = (b, a) if flip else (a, b)
            balance[first] += 1
            balance[second] -= 1
            tables.append((first, second))
        rounds.append(Round(tuple(tables), tuple(byes)))
        ring = ring[-1:] + ring[:-1]
    return tuple(rounds)


# --------------------------------------------------------------------------------------------
# Single elimination


def seeding_order(size: int) -> tuple[int, ...]:
    """Seed numbers in bracket order for a bracket of ``size`` (a power of two).

    ``seeding_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)``: consecutive pairs are the first-round matches.
    """
    if size < 1 or size & (size - 1):
        raise PairingError("A bracket size must be a power of two.")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


@dataclass(frozen=True)
class Match:
    """One bracket match. ``round`` counts from 1; ``slot`` from 0 top to bottom.

    ``players``: None for a bye (round 1) or a winner not known yet.  ``seeds`` likewise.
    """

    round: int
    slot: int
    players: tuple[Hashable | None, Hashable | None]
    seeds: tuple[int | None, int | None]
    winner: Hashable | None = None
    bye: bool = False

    @property
    def ready(self) -> bool:
        """Both players known and no result yet: the match can be played."""
        return not self.bye and self.winner is None and None not in self.players

    @property
    def loser(self) -> Hashable | None:
        """The beaten player, once decided (None for a bye)."""
        if self.winner is None or self.bye:
            return None
        return self.players[1] if self.players[0] == self.winner else self.players[0]


@dataclass(frozen=True)
class Bracket:
    """A single-elimination bracket: ``seeds`` (best first) and ``rounds`` of ``Match``."""

    seeds: tuple[Hashable, ...]
    rounds: tuple[tuple[Match, ...], ...]

    @property
    def size(self) -> int:
        """Slots in the first round (a power of two)."""
        return 2 * len(self.rounds[0])

    @property
    def champion(self) -> Hashable | None:
        """The winner of the final, once played."""
        return self.rounds[-1][0].winner

    @property
    def is_complete(self) -> bool:
        """True once the final has a winner."""
        return self.champion is not None

    def match(self, round: int, slot: int) -> Match:
        """The match at ``round`` (from 1) and ``slot`` (from 0)."""
        if not 1 <= round <= len(self.rounds) or not 0 <= slot < len(self.rounds[round - 1]):
            raise PairingError(f"There is no match {slot + 1} in round {round}.")
        return self.rounds[round - 1][slot]

    def pending(self) -> tuple[Match, ...]:
        """Matches ready to be played now, earliest round first."""
        return tuple(m for rnd in self.rounds for m in rnd if m.ready)

    def current_round(self) -> int | None:
        """The earliest round with a match still to play; None once complete."""
        for number, rnd in enumerate(self.rounds, start=1):
            if any(m.winner is None for m in rnd):
                return number
        return None

    def round_name(self, round: int) -> str:
        """ "Final", "Semifinals", "Quarterfinals" or "Round n"."""
        from_end = len(self.rounds) - round
        return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(from_end, f"Round {round}")

    def with_winner(self, round: int, slot: int, winner: Hashable) -> Bracket:
        """A new bracket with ``winner`` taking the match and advancing; raises ``PairingError``."""
        match = self.match(round, slot)
        if match.bye:
            raise PairingError("That match is a bye; its winner advances by itself.")
        if None in match.players:
            raise PairingError("That match does not have both players yet.")
        if match.winner is not None:
            raise PairingError("That match already has a result.")
        if winner not in match.players:
            raise PairingError(f"{winner!r} is not playing in that match.")
        winners = self.winners()
        winners[(round, slot)] = winner
        return _build(self.seeds, winners)

    def winners(self) -> dict[tuple[int, int], Hashable]:
        """(round, slot) -> winner for every decided match that was played (not byes)."""
        return {(m.round, m.slot): m.winner for rnd in self.rounds for m in rnd if m.winner is not None and not m.bye}

    def final_ranks(self) -> dict[Hashable, int]:
        """Places so far: the champion 1, the finalist 2, semifinal losers 3, quarterfinal losers 5..."""
        places: dict[Hashable, int] = {}
        total = len(self.rounds)
        for number, rnd in enumerate(self.rounds, start=1):
            for match in rnd:
                if match.loser is not None:
                    places[match.loser] = 2 ** (total - number) + 1
        if self.champion is not None:
            places[self.champion] = 1
        return places

    def to_json(self) -> dict[str, Any]:
        """Seeds and played results, JSON-ready (player ids must be JSON values)."""
        return {
            "seeds": list(self.seeds),
            "results": [[r, s, w] for (r, s), w in sorted(self.winners().items())],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bracket:
        """The bracket back from ``to_json``; raises ``PairingError`` on damaged data."""
        try:
            seeds = [p if not isinstance(p, list) else tuple(p) for p in data["seeds"]]
            bracket = elimination_bracket(seeds)
            for r, s, w in sorted(data["results"], key=lambda item: (item[0], item[1])):
                bracket = bracket.with_winner(int(r), int(s), tuple(w) if isinstance(w, list) else w)
        except (KeyError, TypeError, ValueError) as exc:
            raise PairingError(f"The stored bracket is damaged: {exc}") from None
        return bracket


def _build(seeds: Sequence[Hashable], winners: Mapping[tuple[int, int], Hashable]) -> Bracket:
    n = len(seeds)
    size = 1
    while size < n:
        size *= 2
    order = seeding_order(size)
    rounds: list[tuple[Match, ...]] = []
    first = []
    for slot in range(size // 2):
        s1, s2 = order[2 * slot], order[2 * slot + 1]
        p1 = seeds[s1 - 1] if s1 <= n else None
        p2 = seeds[s2 - 1] if s2 <= n else None
        if p1 is None or p2 is None:
            present = p1 if p2 is None else p2
            first.append(
                Match(
                    1,
                    slot,
                    (p1, p2),
                    (s1 if p1 is not None else None, s2 if p2 is not None else None),
                    present,
                    bye=True,
                )
            )
        else:
            first.append(Match(1, slot, (p1, p2), (s1, s2), winners.get((1, slot))))
    rounds.append(tuple(first))
    seed_of = {p: i + 1 for i, p in enumerate(seeds)}
    number = 1
    while len(rounds[-1]) > 1:
        number += 1
        previous = rounds[-1]
        current = []
        for slot in range(len(previous) // 2):
            p1, p2 = previous[2 * slot].winner, previous[2 * slot + 1].winner
            match = Match(number, slot, (p1, p2), (seed_of.get(p1), seed_of.get(p2)))
            if p1 is not None and p2 is not None:
                match = replace(match, winner=winners.get((number, slot)))
            current.append(match)
        rounds.append(tuple(current))
    return Bracket(tuple(seeds), tuple(rounds))


def elimination_bracket(seeds: Sequence[Hashable]) -> Bracket:
    """A fresh single-elimination bracket for ``seeds`` (best first), byes to the top seeds."""
    seeds = _check_players(seeds)
    if len(seeds) < 2:
        raise PairingError("An elimination bracket needs at least two players.")
    return _build(seeds, {})


# --------------------------------------------------------------------------------------------
# Table Swiss


def _default_preferred(min_size: int, max_size: int) -> int:
    return (min_size + max_size + 1) // 2


def table_sizes(count: int, min_size: int, max_size: int, preferred: int | None = None) -> tuple[tuple[int, ...], int]:
    """Table sizes for ``count`` players and the number of byes (see the module notes).

    Returns (sizes, byes) with sizes largest first.  Raises ``PairingError`` when fewer than
    ``min_size`` players are given or the sizes make no sense.
    """
    if min_size < 2 or max_size < min_size:
        raise PairingError(f"Tables of {min_size} to {max_size} players are not possible.")
    preferred = _default_preferred(min_size, max_size) if preferred is None else preferred
    if not min_size <= preferred <= max_size:
        raise PairingError(f"The preferred table size must be between {min_size} and {max_size}.")
    if count < min_size:
        raise PairingError(f"This game needs at least {min_size} players for a table; only {count} are playing.")
    for byes in range(count - min_size + 1):
        seated = count - byes
        best: tuple[tuple[Any, ...], tuple[int, ...]] | None = None
        for k in range(-(-seated // max_size), seated // min_size + 1):
            if k == 0:
                continue
            q, r = divmod(seated, k)
            sizes = (q + 1,) * r + (q,) * (k - r)
            if min(sizes) < min_size or max(sizes) > max_size:
                continue
            key = (sum(abs(s - preferred) for s in sizes), abs(Fraction(seated, k) - preferred), k)
            if best is None or key < best[0]:
                best = (key, sizes)
        if best is not None:
            return best[1], byes
    raise PairingError("No table arrangement fits.")  # pragma: no cover - count >= min_size always fits


def table_swiss_pairings(
    standings: Sequence[Hashable],
    history: Iterable[Sequence[Hashable]] = (),
    byes: Iterable[Hashable] = (),
    *,
    min_size: int,
    max_size: int,
    preferred: int | None = None,
) -> Round:
    """The next table-Swiss round (see the module notes).

    ``standings``: active players, best first.  ``history``: every game so far as player tuples in
    seat order.  ``byes``: one entry per bye given so far.
    """
    players = _check_players(standings)
    sizes, bye_count = table_sizes(len(players), min_size, max_size, preferred)
    rank = {p: i for i, p in enumerate(players)}
    had_bye = Counter(byes)
    history = [tuple(game) for game in history]

    bye_players: list[Hashable] = []
    if bye_count:
        candidates = sorted(players, key=lambda p: (had_bye[p], -rank[p]))
        bye_players = sorted(candidates[:bye_count], key=rank.__getitem__)
    seated = [p for p in players if p not in set(bye_players)]

    met: Counter[frozenset[Hashable]] = Counter()
    for game in history:
        for i, a in enumerate(game):
            for b in game[i + 1 :]:
                met[frozenset((a, b))] += 1

    ideal: dict[Hashable, int] = {}
    start = 0
    for t, size in enumerate(sizes):
        for p in seated[start : start + size]:
            ideal[p] = t
        start += size

    matrix = [[met[frozenset((a, b))] if a != b else 0 for b in seated] for a in seated]
    home = [ideal[p] for p in seated]

    def total_cost(tables: list[list[int]]) -> tuple[int, int]:
        repeats = sum(matrix[a][b] for members in tables for i, a in enumerate(members) for b in members[i + 1 :])
        spread = sum((home[a] - t) ** 2 for t, members in enumerate(tables) for a in members)
        return repeats, spread

    def improve(tables: list[list[int]]) -> tuple[tuple[int, int], list[list[int]]]:
        """Swap players between tables while that lowers (repeat meetings, distance from standing)."""
        improved = True
        while improved:
            improved = False
            for t1 in range(len(tables)):
                for t2 in range(t1 + 1, len(tables)):
                    one, two = tables[t1], tables[t2]
                    for i1 in range(len(one)):
                        for i2 in range(len(two)):
                            a, b = one[i1], two[i2]
                            row_a, row_b = matrix[a], matrix[b]
                            d_rep = sum(row_b[q] - row_a[q] for q in one if q != a)
                            d_rep += sum(row_a[q] - row_b[q] for q in two if q != b)
                            d_spread = (
                                (home[b] - t1) ** 2 + (home[a] - t2) ** 2 - (home[a] - t1) ** 2 - (home[b] - t2) ** 2
                            )
                            if (d_rep, d_spread) < (0, 0):
                                one[i1], two[i2] = b, a
                                improved = True
        return total_cost(tables), tables

    # start 1: plain grouping by standing
    plain: list[list[int]] = []
    start = 0
    for size in sizes:
        plain.append(list(range(start, start + size)))
        start += size
    # start 2: greedy fill, each seat taking the best-ranked player who has met the table least
    greedy: list[list[int]] = [[] for _ in sizes]
    free = list(range(len(seated)))
    for t, size in enumerate(sizes):
        while len(greedy[t]) < size:
            pick = min(free, key=lambda a: (sum(matrix[a][q] for q in greedy[t]), a))
            greedy[t].append(pick)
            free.remove(pick)
    best = min(improve(greedy), improve(plain), key=lambda item: item[0])[1]
    tables = [[seated[a] for a in members] for members in best]

    firsts: Counter[Hashable] = Counter()
    seat_sum: dict[Hashable, Fraction] = {}
    seat_games: Counter[Hashable] = Counter()
    for game in history:
        if len(game) > 1:
            firsts[game[0]] += 1
            for seat, p in enumerate(game):
                seat_sum[p] = seat_sum.get(p, Fraction(0)) + Fraction(seat, len(game) - 1)
                seat_games[p] += 1

    def seat_key(p: Hashable) -> tuple[int, Fraction, int]:
        average = seat_sum.get(p, Fraction(0)) / seat_games[p] if seat_games[p] else Fraction(0)
        return firsts[p], -average, rank[p]

    ordered = tuple(tuple(sorted(members, key=seat_key)) for members in tables)
    return Round(ordered, tuple(bye_players))


def next_table_round(
    active: Sequence[Hashable],
    results: Iterable[Result],
    *,
    min_size: int,
    max_size: int,
    preferred: int | None = None,
) -> Round:
    """The next table-Swiss round from the results so far (standings by ``table_standings``)."""
    active = _check_players(active)
    results = list(results)
    rows = table_standings(results, active)
    keep = set(active)
    order = [row.player for row in rows if row.player in keep]
    history, byes = _history_from(results)
    return table_swiss_pairings(order, history, byes, min_size=min_size, max_size=max_size, preferred=preferred)
