"""Pairings: Swiss, round robin, single elimination and table Swiss.

Properties are checked over many random tournaments (hypothesis), with independent oracles: a
brute-force search over every pairing for small fields, and a matching on the "clean" edges only
(no rematch, no second bye) to decide whether a rematch was avoidable in big ones.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import cast

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.pairings import (
    Bracket,
    PairingError,
    Round,
    elimination_bracket,
    next_swiss_round,
    next_table_round,
    round_robin,
    seed_players,
    seeding_order,
    swiss_pairings,
    table_sizes,
    table_swiss_pairings,
)
from bot.tournaments.standings import Result, duel_standings, table_standings

# --------------------------------------------------------------------------------------------
# helpers


def meetings(history):
    met = Counter()
    for game in history:
        for a, b in itertools.combinations(game, 2):
            met[frozenset((a, b))] += 1
    return met


def clean_pairing_exists(players, met, had_bye):
    """True when everybody can be paired with no rematch and no second bye (matching oracle)."""
    graph = nx.Graph()
    nodes = list(players) + (["<bye>"] if len(players) % 2 else [])
    graph.add_nodes_from(nodes)
    for a, b in itertools.combinations(players, 2):
        if not met[frozenset((a, b))]:
            graph.add_edge(a, b)
    if len(players) % 2:
        for p in players:
            if not had_bye[p]:
                graph.add_edge(p, "<bye>")
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(nodes)


def all_pairings(items):
    """Every perfect matching of ``items`` (an even number of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        for tail in all_pairings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def pairing_cost(pairs, order, scores, met, had_bye):
    """The lexicographic wishes of the Swiss pairing, as documented in bot/pairings.py (tiers 1-4)."""
    rank = {p: i for i, p in enumerate(order)}
    n = len(order)
    second_byes = rematches = bye_rank = score = 0
    for a, b in pairs:
        if b is None or a is None:
            p = a if b is None else b
            second_byes += had_bye[p]
            bye_rank += n - 1 - rank[p]
        else:
            rematches += met[frozenset((a, b))]
            score += int(2 * (scores[a] - scores[b])) ** 2
    return second_byes, rematches, bye_rank, score


def as_pairs(rnd: Round):
    return [tuple(t) for t in rnd.tables] + [(p, None) for p in rnd.byes]


def check_round_covers(rnd: Round, players, table_size=None):
    seen = cast(list[str], list(rnd.players))  # every test names its players with strings
    assert sorted(seen) == sorted(players), "every player exactly once per round"
    if table_size:
        assert all(len(t) == table_size for t in rnd.tables)


# --------------------------------------------------------------------------------------------
# Swiss: fixed examples


def test_first_round_top_half_meets_bottom_half():
    players = [f"p{i}" for i in range(1, 9)]
    rnd = swiss_pairings(players)
    assert rnd.tables == (("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p4", "p8"))
    assert rnd.byes == ()


def test_odd_field_bye_to_the_lowest_ranked():
    players = [f"p{i}" for i in range(1, 10)]
    rnd = swiss_pairings(players)
    assert rnd.byes == ("p9",)
    check_round_covers(rnd, players, 2)


def test_bye_skips_players_who_had_one():
    players = ["a", "b", "c", "d", "e"]
    rnd = swiss_pairings(players, {p: 1.0 for p in players}, byes=["e", "d"])
    assert rnd.byes == ("c",)


def test_similar_scores_are_paired():
    players = ["a", "b", "c", "d"]
    rnd = swiss_pairings(players, {"a": 2, "b": 2, "c": 1, "d": 1})
    assert set(map(frozenset, rnd.tables)) == {frozenset("ab"), frozenset("cd")}


def test_rematch_avoided_by_floating():
    # a and b lead and already met: a meets c (the top of the group below), b meets d
    rnd = swiss_pairings(["a", "b", "c", "d"], {"a": 2, "b": 2, "c": 0, "d": 0}, history=[("a", "b")])
    assert set(map(frozenset, rnd.tables)) == {frozenset("ac"), frozenset("bd")}


def test_rematch_when_unavoidable():
    # two players who already met: they must meet again
    rnd = swiss_pairings(["a", "b"], {}, history=[("a", "b")])
    assert set(rnd.tables[0]) == {"a", "b"}


def test_a_second_bye_is_avoided_before_a_rematch():
    # a has had the bye and met everybody: only a second bye for a avoids a rematch; a plays again
    history = [("a", "b"), ("a", "c"), ("a", "d"), ("a", "e"), ("b", "c"), ("d", "e")]
    rnd = swiss_pairings(["a", "b", "c", "d", "e"], {}, history=history, byes=["a"])
    assert rnd.byes != ("a",) and "a" in rnd.players
    assert sum(1 for t in rnd.tables if frozenset(t) in {frozenset(g) for g in history}) == 1


def test_first_seat_goes_to_who_had_it_less():
    rnd = swiss_pairings(["a", "b"], {}, history=[("a", "c"), ("a", "d"), ("b", "e")])
    assert rnd.tables == (("b", "a"),)


def test_tiny_fields():
    assert swiss_pairings([]) == Round(())
    assert swiss_pairings(["solo"]) == Round((), ("solo",))
    with pytest.raises(PairingError):
        swiss_pairings(["a", "a"])


def test_next_swiss_round_uses_standings_and_history():
    players = ["a", "b", "c", "d"]
    results = [Result(1, ("a", "c"), (1, 2)), Result(1, ("b", "d"), (1, 2))]
    rnd = next_swiss_round(players, results)
    assert set(map(frozenset, rnd.tables)) == {frozenset("ab"), frozenset("cd")}
    # b drops: three left.  d is lowest, but a bye for d would force the rematch a-c: c gets it
    rnd = next_swiss_round(["a", "c", "d"], results)
    assert rnd.byes == ("c",) and set(rnd.tables[0]) == {"a", "d"}
    # with no rematch at stake the bye goes to the lowest-ranked
    results = [Result(1, ("a", "b"), (1, 2)), Result(1, ("c", "d"), (1, 2))]
    rnd = next_swiss_round(["a", "c", "d"], results)
    assert rnd.byes == ("d",) and set(rnd.tables[0]) == {"a", "c"}


def test_eight_player_swiss_to_the_end_without_rematches():
    rng = random.Random(8)
    players = [f"p{i}" for i in range(1, 9)]
    results = []
    for number in range(1, 6):
        rnd = next_swiss_round(players, results)
        check_round_covers(rnd, players, 2)
        for a, b in rnd.tables:
            results.append(Result(number, (a, b), rng.choice([(1, 2), (2, 1), (1, 1)])))
    met = meetings(r.players for r in results)
    assert max(met.values()) == 1
    rows = duel_standings(results, players)
    assert sum(r.points for r in rows) == 20  # 4 games a round, 5 rounds, 1 point a game
    assert all(r.games == 5 for r in rows)


# --------------------------------------------------------------------------------------------
# Swiss: properties


@st.composite
def swiss_situations(draw):
    """A small field with an arbitrary history, byes and scores."""
    n = draw(st.integers(2, 9))
    players = [f"p{i}" for i in range(n)]
    pairs = list(itertools.combinations(players, 2))
    history = draw(st.lists(st.sampled_from(pairs), max_size=3 * n))
    byes = draw(st.lists(st.sampled_from(players), max_size=n))
    scores = {p: draw(st.integers(0, 8)) / 2 for p in players}
    order = sorted(players, key=lambda p: -scores[p])
    return order, scores, history, byes


@settings(max_examples=150, deadline=None)
@given(swiss_situations())
def test_swiss_is_optimal_against_brute_force(situation):
    order, scores, history, byes = situation
    met, had_bye = meetings(history), Counter(byes)
    rnd = swiss_pairings(order, scores, history, byes)
    check_round_covers(rnd, order, 2)
    assert len(rnd.byes) == len(order) % 2
    items = list(order) + ([None] if len(order) % 2 else [])
    best = min(pairing_cost(p, order, scores, met, had_bye) for p in all_pairings(items))
    assert pairing_cost(as_pairs(rnd), order, scores, met, had_bye) == best


@settings(max_examples=50, deadline=None)
@given(
    st.integers(2, 40),
    st.integers(1, 9),
    st.randoms(use_true_random=False),
    st.floats(0, 0.5),
)
def test_swiss_tournaments(n: int, rounds: int, rnd_source: random.Random, drop_chance: float) -> None:
    players = [f"p{i}" for i in range(n)]
    active = list(players)
    results: list[Result] = []
    for number in range(1, rounds + 1):
        if len(active) < 2:
            break
        order = [r.player for r in duel_standings(results, active) if r.player in set(active)]
        history = [r.players for r in results if not r.is_bye]
        met = meetings(history)
        had_bye = Counter(r.players[0] for r in results if r.is_bye)
        rnd = next_swiss_round(active, results)

        # every active player paired exactly once, in twos, one bye for an odd field
        check_round_covers(rnd, active, 2)
        assert len(rnd.byes) == len(active) % 2
        rematches = sum(1 for t in rnd.tables if met[frozenset(t)])
        second_bye = bool(rnd.byes) and had_bye[rnd.byes[0]] > 0
        # at most one bye per player while avoidable
        if any(not had_bye[p] for p in active):
            assert not second_bye
        # no rematches while avoidable
        if clean_pairing_exists(active, met, had_bye):
            assert rematches == 0 and not second_bye
        # the bye goes to the lowest-ranked player without one, unless that forces a rematch
        eligible = [p for p in order if not had_bye[p]]
        if len(active) % 2 and eligible:
            lowest = eligible[-1]
            rest = [p for p in active if p != lowest]
            if clean_pairing_exists(rest, met, had_bye):
                assert rnd.byes == (lowest,)

        for a, b in rnd.tables:
            results.append(Result(number, (a, b), rnd_source.choice([(1, 2), (2, 1), (1, 1)])))
        for p in rnd.byes:
            results.append(Result.bye(number, p))
        if rnd_source.random() < drop_chance:
            active.remove(rnd_source.choice(active))


# --------------------------------------------------------------------------------------------
# round robin


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 24))
def test_round_robin_everyone_meets_everyone_once(n):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter()
    byes = Counter()
    balance = Counter()
    for rnd in rounds:
        check_round_covers(rnd, players, 2)
        assert len(rnd.byes) == n % 2
        byes.update(rnd.byes)
        for a, b in rnd.tables:
            met[frozenset((a, b))] += 1
            balance[a] += 1
            balance[b] -= 1
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    if n % 2:
        assert byes == Counter(players)
    assert all(abs(balance[p]) <= 1 for p in players)


def test_round_robin_circle_method_example():
    rounds = round_robin(["a", "b", "c", "d"])
    assert [set(map(frozenset, r.tables)) for r in rounds] == [
        {frozenset("ad"), frozenset("bc")},
        {frozenset("ac"), frozenset("db")},
        {frozenset("ab"), frozenset("cd")},
    ]
    assert round_robin(["x", "y", "z"])[0].byes == ("x",)
    with pytest.raises(PairingError):
        round_robin(["solo"])


# --------------------------------------------------------------------------------------------
# single elimination


def test_seeding_order():
    assert seeding_order(2) == (1, 2)
    assert seeding_order(4) == (1, 4, 2, 3)
    assert seeding_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    for size in (2, 4, 8, 16, 32, 64):
        order = seeding_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[k] + order[k + 1] == size + 1 for k in range(0, size, 2))
    with pytest.raises(PairingError):
        seeding_order(6)


def test_six_player_bracket():
    bracket = elimination_bracket(["s1", "s2", "s3", "s4", "s5", "s6"])
    first = bracket.rounds[0]
    assert [m.players for m in first] == [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")]
    assert [m.bye for m in first] == [True, False, True, False]
    assert [(m.round, m.slot) for m in bracket.pending()] == [(1, 1), (1, 3)]
    assert bracket.rounds[1][0].players == ("s1", None)
    assert [bracket.round_name(r) for r in (1, 2, 3)] == ["Quarterfinals", "Semifinals", "Final"]
    bracket = bracket.with_winner(1, 1, "s5").with_winner(1, 3, "s3")
    assert bracket.rounds[1][0].players == ("s1", "s5") and bracket.rounds[1][1].players == ("s2", "s3")
    assert bracket.rounds[1][0].seeds == (1, 5)
    bracket = bracket.with_winner(2, 0, "s5").with_winner(2, 1, "s2").with_winner(3, 0, "s2")
    assert bracket.is_complete and bracket.champion == "s2" and bracket.current_round() is None
    assert bracket.final_ranks() == {"s2": 1, "s5": 2, "s1": 3, "s3": 3, "s4": 5, "s6": 5}


def test_bracket_refusals():
    bracket = elimination_bracket(["a", "b", "c"])
    with pytest.raises(PairingError, match="bye"):
        bracket.with_winner(1, 0, "a")
    with pytest.raises(PairingError, match="not playing"):
        bracket.with_winner(1, 1, "a")
    with pytest.raises(PairingError, match="both players"):
        bracket.with_winner(2, 0, "a")
    with pytest.raises(PairingError, match="no match"):
        bracket.with_winner(5, 0, "a")
    done = bracket.with_winner(1, 1, "c")
    with pytest.raises(PairingError, match="already"):
        done.with_winner(1, 1, "b")
    with pytest.raises(PairingError):
        elimination_bracket(["a"])
    with pytest.raises(PairingError):
        Bracket.from_json({"seeds": ["a", "b"], "results": [[1, 0, "zz"]]})
    with pytest.raises(PairingError):
        Bracket.from_json({"results": []})


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.randoms(use_true_random=False))
def test_elimination_brackets(n, rnd_source):
    seeds = [f"s{i}" for i in range(1, n + 1)]
    bracket = elimination_bracket(seeds)
    size = bracket.size
    assert size >= n > size // 2
    assert len(bracket.rounds) == size.bit_length() - 1
    # byes go to the top seeds: exactly seeds 1 .. size - n have one
    with_bye = {m.winner for m in bracket.rounds[0] if m.bye}
    assert with_bye == set(seeds[: size - n])
    assert all(None not in m.players for m in bracket.rounds[0] if not m.bye)
    played = 0
    losses = Counter()
    while not bracket.is_complete:
        pending = bracket.pending()
        assert pending, "a bracket that is not complete always has a match to play"
        match = rnd_source.choice(pending)
        winner = rnd_source.choice(match.players)
        bracket = bracket.with_winner(match.round, match.slot, winner)
        losses[next(p for p in match.players if p != winner)] += 1
        played += 1
        assert Bracket.from_json(bracket.to_json()) == bracket
    # complete: n - 1 games, everybody but the champion lost exactly once
    assert played == n - 1
    assert bracket.champion not in losses
    assert set(losses) == set(seeds) - {bracket.champion} and set(losses.values()) == {1}
    ranks = bracket.final_ranks()
    assert set(ranks) == set(seeds) and ranks[bracket.champion] == 1
    assert sorted(ranks.values())[:2] == [1, 2]


# --------------------------------------------------------------------------------------------
# table Swiss


def test_table_sizes_examples():
    assert table_sizes(9, 3, 9) == ((5, 4), 0)  # preferred 6 by default
    assert table_sizes(9, 3, 9, 3) == ((3, 3, 3), 0)
    assert table_sizes(13, 3, 5, 4) == ((5, 4, 4), 0)
    assert table_sizes(10, 2, 4) == ((4, 3, 3), 0)
    assert table_sizes(7, 4, 4) == ((4,), 3)  # fixed size: the rest sit out
    assert table_sizes(10, 4, 4) == ((4, 4), 2)
    assert table_sizes(3, 3, 9) == ((3,), 0)
    with pytest.raises(PairingError, match="at least 3"):
        table_sizes(2, 3, 9)
    with pytest.raises(PairingError):
        table_sizes(9, 5, 4)
    with pytest.raises(PairingError):
        table_sizes(9, 3, 5, 7)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(0, 5), st.integers(2, 60), st.data())
def test_table_sizes_properties(low, extra, n, data):
    high = low + extra
    if n < low:
        with pytest.raises(PairingError):
            table_sizes(n, low, high)
        return
    preferred = data.draw(st.integers(low, high))
    sizes, byes = table_sizes(n, low, high, preferred)
    assert sum(sizes) + byes == n
    assert all(low <= s <= high for s in sizes)
    assert max(sizes) - min(sizes) <= 1 and list(sizes) == sorted(sizes, reverse=True)
    # no arrangement with fewer byes exists
    for fewer in range(byes):
        seated = n - fewer
        assert not any(k * low <= seated <= k * high for k in range(1, seated + 1))


def test_nine_players_in_threes_never_meet_twice_in_four_rounds():
    rng = random.Random(3)
    players = [f"a{i}" for i in range(1, 10)]
    results = []
    for number in range(1, 5):
        rnd = next_table_round(players, results, min_size=3, max_size=3)
        check_round_covers(rnd, players, 3)
        for table in rnd.tables:
            order = list(range(1, 4))
            rng.shuffle(order)
            results.append(Result(number, table, tuple(order)))
    assert max(meetings(r.players for r in results).values()) == 1


def test_second_round_never_repeats_when_a_transversal_exists():
    players = [f"a{i}" for i in range(1, 10)]
    history = [("a1", "a2", "a3"), ("a4", "a5", "a6"), ("a7", "a8", "a9")]
    for seed in range(20):
        order = list(players)
        random.Random(seed).shuffle(order)
        rnd = table_swiss_pairings(order, history, min_size=3, max_size=3)
        met = meetings(history)
        assert not any(met[frozenset(pair)] for t in rnd.tables for pair in itertools.combinations(t, 2))


def test_table_swiss_groups_by_standing_and_seats_fairly():
    players = [f"a{i}" for i in range(1, 9)]
    rnd = table_swiss_pairings(players, min_size=4, max_size=4)
    assert [set(t) for t in rnd.tables] == [set(players[:4]), set(players[4:])]
    assert rnd.tables[0][0] == "a1"
    # who sat first last time sits later now
    rnd = table_swiss_pairings(["a", "b", "c"], [("a", "b", "c")], min_size=3, max_size=3)
    assert rnd.tables[0] == ("c", "b", "a")


def test_table_swiss_byes_go_to_the_bottom_without_one():
    players = [f"a{i}" for i in range(1, 8)]
    rnd = table_swiss_pairings(players, byes=["a7"], min_size=3, max_size=3)
    assert rnd.byes == ("a6",)
    check_round_covers(rnd, players, 3)


def test_nine_player_assassination_table_swiss():
    """The Martian Assassination Game takes 3-9 players: three rounds for nine, points by place."""
    rng = random.Random(9)
    players = [f"p{i}" for i in range(1, 10)]
    results = []
    for number in range(1, 4):
        rnd = next_table_round(players, results, min_size=3, max_size=9)
        check_round_covers(rnd, players)
        assert sorted(len(t) for t in rnd.tables) == [4, 5] and rnd.byes == ()
        for table in rnd.tables:
            ranks = [1] + [2] * (len(table) - 1)  # one winner, the rest share second
            rng.shuffle(ranks)
            results.append(Result(number, table, tuple(ranks)))
    rows = table_standings(results, players)
    # a table of n hands out n(n-1)/2 points: (10 + 6) a round
    assert sum(r.points for r in rows) == pytest.approx(3 * 16)
    assert [r.place for r in rows] == sorted(r.place for r in rows)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(3, 40),
    st.sampled_from([(3, 9), (3, 5), (4, 4), (2, 4), (3, 3)]),
    st.integers(1, 6),
    st.randoms(use_true_random=False),
)
def test_table_swiss_tournaments(n: int, bounds: tuple[int, int], rounds: int, rnd_source: random.Random) -> None:
    low, high = bounds
    if n < low:
        return
    players = [f"p{i}" for i in range(n)]
    results: list[Result] = []
    for number in range(1, rounds + 1):
        rnd = next_table_round(players, results, min_size=low, max_size=high)
        check_round_covers(rnd, players)
        sizes, bye_count = table_sizes(n, low, high)
        assert tuple(len(t) for t in rnd.tables) == sizes and len(rnd.byes) == bye_count
        # never more repeats than simply grouping by standing
        order = [r.player for r in table_standings(results, players)]
        plain, start = [], 0
        for size in sizes:
            plain.append([p for p in order if p not in rnd.byes][start : start + size])
            start += size
        met = meetings(r.players for r in results if not r.is_bye)

        def repeats(tables, met=met):
            return sum(met[frozenset(pair)] for t in tables for pair in itertools.combinations(t, 2))

        assert repeats(rnd.tables) <= repeats(plain)
        for table in rnd.tables:
            ranks = [rnd_source.randint(1, len(table)) for _ in table]
            results.append(Result(number, table, tuple(ranks)))
        for p in rnd.byes:
            results.append(Result.bye(number, p))


# --------------------------------------------------------------------------------------------
# seeding


def test_seed_players_is_deterministic_and_follows_ratings():
    players = [f"p{i}" for i in range(10)]
    first = seed_players(players, random.Random(4))
    assert first == seed_players(players, random.Random(4))
    assert sorted(first) == sorted(players)
    ratings = {"p3": 1700.0, "p7": 1600.0, "p1": 1600.0}
    seeded = seed_players(players, random.Random(4), ratings)
    assert seeded[0] == "p3" and set(seeded[1:3]) == {"p1", "p7"}
    with pytest.raises(PairingError):
        seed_players(["a", "a"], random.Random(1))
