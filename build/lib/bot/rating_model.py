"""Player ratings: a thin, pure wrapper around openskill's Plackett-Luce model.

Every rated game updates each player's ``Rating`` (a mean ``mu`` and an uncertainty ``sigma``)
with the finishing order of the game, so two-player games, multi-player finishing orders and ties
(shared places) all go through the same ``rate_game`` call.

The displayed number
--------------------
Players see one number, the **ordinal**: a conservative estimate of skill, ``mu - 3 * sigma``
(openskill's own ordinal, the skill the player is about 99.7 % sure to exceed), put on a familiar
scale::

    ordinal = DISPLAY_TARGET + DISPLAY_ALPHA * (mu - 3 * sigma)
            = 1500 + 25 * (mu - 3 * sigma)

A new player (``mu`` 25, ``sigma`` 25/3) shows exactly **1500**.  One openskill skill point is 25
rating points; between two settled players a gap of 100 rating points is a win chance of about
70 % by the model.  Because the number is conservative it also grows as the bot becomes sure of a player
(``sigma`` shrinks): a player of average strength climbs to roughly 1800 over the first thirty
games, and steady players are not overtaken by someone who won one lucky game.  Leaderboards
sort by the ordinal.

Ties
----
openskill 6's own Plackett-Luce tie handling is not monotone with more than two players (with
ranks 1, 1, 2, 3, 4 the third-placed player gains more than the two tied winners; see openskill.py
issues #155 and #201).  ``rate_game`` therefore sends results without ties to openskill unchanged
and, when places are shared, gives each player the **mean of the Plackett-Luce updates over every
order in which the ties could have been broken**, computed exactly (see ``_rate_with_ties``).
Equal players who tie get equal ratings, a better place never gains less than a worse one between
equal players, and a two-player draw between equals leaves ``mu`` unchanged.

The model keeps openskill's defaults (``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6, ``tau`` 25/300), so
stored (mu, sigma) pairs stay meaningful if the display scale is ever changed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
ORDINAL_Z = 3.0
DISPLAY_ALPHA = 25.0
DISPLAY_TARGET = 1500.0

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "DISPLAY_ALPHA",
    "DISPLAY_TARGET",
    "MAX_TIED",
    "ORDINAL_Z",
    "Rating",
    "RatingError",
    "predict_win",
    "rate_game",
]


class RatingError(ValueError):
    """The input to a rating update does not describe a finished game."""


@dataclass(frozen=True, order=False)
class Rating:
    """A player's skill estimate: mean ``mu`` and uncertainty ``sigma`` (openskill units)."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    def __post_init__(self) -> None:
        for name in ("mu", "sigma"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise RatingError(f"A rating's {name} must be a finite number, not {value!r}.")
        if self.sigma <= 0:
            raise RatingError(f"A rating's sigma must be positive, not {self.sigma!r}.")
        object.__setattr__(self, "mu", float(self.mu))
        object.__setattr__(self, "sigma", float(self.sigma))

    @classmethod
    def initial(cls) -> Rating:
        """The rating of a player who has not played yet (displayed as 1500)."""
        return cls()

    @property
    def raw_ordinal(self) -> float:
        """openskill's ordinal, ``mu - 3 sigma``, before scaling (0 for a new player)."""
        return self.mu - ORDINAL_Z * self.sigma

    @property
    def ordinal(self) -> float:
        """The displayed rating: ``1500 + 25 * (mu - 3 sigma)``; 1500 for a new player."""
        return DISPLAY_TARGET + DISPLAY_ALPHA * self.raw_ordinal

    @property
    def display(self) -> int:
        """The ordinal rounded to a whole number, as shown to players."""
        return round(self.ordinal)

    def to_json(self) -> dict[str, float]:
        """A JSON-ready dict."""
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rating:
        """The rating back from ``to_json``; raises ``RatingError`` on damaged data."""
        if not isinstance(data, Mapping) or "mu" not in data or "sigma" not in data:
            raise RatingError("A stored rating needs both mu and sigma.")
        return cls(data["mu"], data["sigma"])


@lru_cache(maxsize=1)
def _model() -> PlackettLuce:
    return PlackettLuce()


def _check_ranks(count: int, ranks: Sequence[int]) -> list[int]:
    if count < 2:
        raise RatingError("A rated game needs at least two players.")
    if len(ranks) != count:
        raise RatingError(f"Got {len(ranks)} ranks for {count} players.")
    out = []
    for rank in ranks:
        if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
            raise RatingError(f"Ranks must be whole numbers from 1 up, not {rank!r}.")
        out.append(rank)
    return out


MAX_TIED = 16  # the exact tie average enumerates 2**(k-1) subsets of a tied group of k


def _groups(ranks: Sequence[int]) -> list[list[int]]:
    """Seat indices grouped by rank, best place first."""
    by_rank: dict[int, list[int]] = {}
    for seat, rank in enumerate(ranks):
        by_rank.setdefault(rank, []).append(seat)
    return [by_rank[rank] for rank in sorted(by_rank)]


def _subset_sums(values: Sequence[float]) -> list[list[float]]:
    """``out[m]``: the sums of every subset of ``values`` with ``m`` members."""
    out: list[list[float]] = [[] for _ in range(len(values) + 1)]
    for mask in range(1 << len(values)):
        total, size = 0.0, 0
        for k, value in enumerate(values):
            if mask >> k & 1:
                total += value
                size += 1
        out[size].append(total)
    return out


def _rate_with_ties(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The Plackett-Luce update averaged over every order in which the ties could be broken.

    Weng-Lin's Algorithm 4 sums, for player ``i``, one term per elimination stage ``q`` up to
    ``i``'s own: ``p = e_i / S_q`` with ``e_s = exp(mu_s / c)`` and ``S_q`` the total of the
    players not yet placed.  When a group of ``k`` tied players is placed in a random order, the
    players left of it at each stage are a uniform random subset, so the mean of every stage
    term is an average over subsets, computed exactly here.  Without ties this is openskill's own
    update (tested against it).
    """
    model = _model()
    tau2 = model.tau * model.tau
    beta2 = model.beta * model.beta
    sig2 = [r.sigma * r.sigma + tau2 for r in ratings]
    c = math.sqrt(sum(s2 + beta2 for s2 in sig2))
    e = [math.exp(r.mu / c) for r in ratings]
    groups = _groups(ranks)
    after = [sum(e[s] for g in groups[h + 1 :] for s in g) for h in range(len(groups))]
    subsets = [_subset_sums([e[s] for s in group]) for group in groups]

    out = []
    for g, group in enumerate(groups):
        for i in group:
            mean_p = 0.0
            mean_pq = 0.0
            # stages while an earlier group is being placed: i is still in, with all of its group
            for h in range(g):
                tail = after[h]
                size = len(groups[h])
                for left in range(size, 0, -1):
                    sums = subsets[h][left]
                    ps = [e[i] / (t + tail) for t in sums]
                    mean_p += sum(ps) / len(ps)
                    mean_pq += sum(p * (1 - p) for p in ps) / len(ps)
            # stages inside i's own group, while i has not been placed yet
            others = [e[s] for s in group if s != i]
            own = _subset_sums(others)
            k = len(group)
            for placed in range(k):
                alive = (k - placed) / k
                sums = own[k - placed - 1]
                ps = [e[i] / (e[i] + t + after[g]) for t in sums]
                mean_p += alive * sum(ps) / len(ps)
                mean_pq += alive * sum(p * (1 - p) for p in ps) / len(ps)
            omega = (1.0 - mean_p) * sig2[i] / c
            gamma = math.sqrt(sig2[i]) / c
            delta = mean_pq * sig2[i] / (c * c) * gamma
            sigma = math.sqrt(sig2[i]) * math.sqrt(max(1 - delta, model.kappa))
            out.append((i, Rating(ratings[i].mu + omega, sigma)))
    out.sort(key=lambda item: item[0])
    return [rating for _, rating in out]


def rate_game(ratings_by_player: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The players' ratings after one finished game.

    ``ratings_by_player[i]`` is seat ``i``'s rating before the game and ``ranks[i]`` its place as
    in ``Outcome.ranks`` (1 = first; equal numbers share a place, so a draw is all 1s).  Returns
    the new ratings in the same order; the input is not changed.  Raises ``RatingError`` for fewer
    than two players or ranks that do not fit.

    A finishing order without ties goes straight to openskill's Plackett-Luce.  With ties, each
    player gets the mean of the Plackett-Luce updates over every order the ties could be broken in
    (see the module notes).
    """
    checked = _check_ranks(len(ratings_by_player), ranks)
    for rating in ratings_by_player:
        if not isinstance(rating, Rating):
            raise RatingError(f"Expected a Rating, got {type(rating).__name__}.")
    if len(set(checked)) < len(checked):
        if max(len(group) for group in _groups(checked)) > MAX_TIED:
            raise RatingError(f"At most {MAX_TIED} players can share one place in a rated game.")
        return _rate_with_ties(ratings_by_player, checked)
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings_by_player]
    updated = model.rate(teams, ranks=[float(r) for r in checked])
    return [Rating(team[0].mu, team[0].sigma) for team in updated]


def predict_win(ratings_by_player: Sequence[Rating]) -> list[float]:
    """Each player's chance of finishing first, by the model (sums to 1)."""
    if len(ratings_by_player) < 2:
        raise RatingError("A prediction needs at least two players.")
    model = _model()
    return list(model.predict_win([[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings_by_player]))
