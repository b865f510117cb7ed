"""Ratings: the openskill wrapper, its display scale and its input checks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.rating_model import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    MAX_TIED,
    Rating,
    RatingError,
    _rate_with_ties,
    predict_win,
    rate_game,
)


def test_new_player_shows_1500():
    fresh = Rating.initial()
    assert (fresh.mu, fresh.sigma) == (DEFAULT_MU, DEFAULT_SIGMA)
    assert fresh.raw_ordinal == pytest.approx(0.0)
    assert fresh.ordinal == pytest.approx(1500.0)
    assert fresh.display == 1500


def test_ordinal_scale_is_1500_plus_25_per_skill_point():
    assert Rating(30.0, 2.0).ordinal == pytest.approx(1500 + 25 * (30 - 6))
    assert Rating(25.0, 1.0).display == 1500 + 25 * 22


def test_two_player_win_moves_ratings_apart():
    a, b = Rating(), Rating()
    new_a, new_b = rate_game([a, b], [1, 2])
    assert new_a.mu > a.mu > new_b.mu
    assert new_a.mu - a.mu == pytest.approx(b.mu - new_b.mu)
    assert new_a.sigma < a.sigma and new_b.sigma < b.sigma
    assert new_a.ordinal > 1500 > new_b.ordinal


def test_seat_order_does_not_matter_only_ranks():
    a, b = Rating(27.0, 5.0), Rating(22.0, 7.0)
    first = rate_game([a, b], [2, 1])
    second = rate_game([b, a], [1, 2])
    assert first[0] == second[1] and first[1] == second[0]


def test_draw_between_equals_keeps_mu_and_shrinks_sigma():
    a, b = Rating(), Rating()
    new_a, new_b = rate_game([a, b], [1, 1])
    assert new_a.mu == pytest.approx(a.mu) and new_b.mu == pytest.approx(b.mu)
    assert new_a == new_b
    assert new_a.sigma < a.sigma


def test_draw_pulls_ratings_together():
    strong, weak = Rating(32.0, 3.0), Rating(20.0, 3.0)
    new_strong, new_weak = rate_game([strong, weak], [1, 1])
    assert new_strong.mu < strong.mu and new_weak.mu > weak.mu


def test_upset_moves_more_than_expected_result():
    strong, weak = Rating(32.0, 3.0), Rating(20.0, 3.0)
    expected = rate_game([strong, weak], [1, 2])
    upset = rate_game([strong, weak], [2, 1])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


def test_multiplayer_finishing_order():
    players = [Rating() for _ in range(5)]
    after = rate_game(players, [3, 1, 5, 2, 4])
    by_place = [after[1], after[3], after[0], after[4], after[2]]
    mus = [r.mu for r in by_place]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > DEFAULT_MU > mus[-1]


def test_multiplayer_ties_share_the_update():
    players = [Rating() for _ in range(4)]
    after = rate_game(players, [1, 1, 3, 4])  # two share first place
    assert after[0] == after[1]
    assert after[0].mu > after[2].mu > after[3].mu


def test_ties_stay_in_finishing_order():
    # openskill 6's own tie handling would give the third-placed player more than the tied winners
    after = rate_game([Rating() for _ in range(5)], [1, 1, 2, 3, 4])
    assert after[0] == after[1]
    assert after[0].mu > after[2].mu > after[3].mu > after[4].mu


def test_one_winner_and_everybody_else_shares_second():
    # e.g. The Martian Assassination Game: one winner, eight players share second place
    after = rate_game([Rating() for _ in range(9)], [1] + [2] * 8)
    assert after[0].mu > DEFAULT_MU
    assert len(set(after[1:])) == 1 and after[1].mu < DEFAULT_MU


def test_everybody_tied_between_equals_changes_no_mu():
    after = rate_game([Rating() for _ in range(6)], [1] * 6)
    assert all(r.mu == pytest.approx(DEFAULT_MU) and r.sigma < DEFAULT_SIGMA for r in after)


def test_too_many_tied_players_are_refused():
    with pytest.raises(RatingError, match="share one place"):
        rate_game([Rating() for _ in range(MAX_TIED + 1)], [1] * (MAX_TIED + 1))


def test_input_is_not_changed():
    players = [Rating(26.0, 4.0), Rating(24.0, 6.0), Rating()]
    copy = list(players)
    rate_game(players, [2, 3, 1])
    assert players == copy


@pytest.mark.parametrize(
    ("ratings", "ranks", "message"),
    [
        ([Rating()], [1], "at least two"),
        ([Rating(), Rating()], [1], "2 players"),
        ([Rating(), Rating()], [0, 1], "from 1"),
        ([Rating(), Rating()], [1.5, 1], "from 1"),
        ([Rating(), Rating()], [True, 2], "from 1"),
    ],
)
def test_bad_input_is_refused_in_one_sentence(ratings, ranks, message):
    with pytest.raises(RatingError, match=message):
        rate_game(ratings, ranks)


def test_rating_values_are_checked() -> None:
    with pytest.raises(RatingError):
        Rating(25.0, 0.0)
    with pytest.raises(RatingError):
        Rating(float("nan"), 1.0)
    with pytest.raises(RatingError):
        Rating("25", 1.0)  # type: ignore[arg-type]


def test_json_round_trip_and_damage():
    rating = rate_game([Rating(), Rating()], [1, 2])[0]
    assert Rating.from_json(rating.to_json()) == rating
    with pytest.raises(RatingError):
        Rating.from_json({"mu": 25.0})
    with pytest.raises(RatingError):
        Rating.from_json({"mu": 25.0, "sigma": -1})


def test_predict_win_favours_the_stronger_player():
    chances = predict_win([Rating(30.0, 2.0), Rating(25.0, 2.0)])
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > 0.5


def test_hashable_immutable_value() -> None:
    rating = Rating()
    assert {rating: 1}[Rating()] == 1
    with pytest.raises(AttributeError):
        rating.mu = 3.0  # type: ignore[misc]


ratings_strategy = st.builds(
    Rating,
    st.floats(min_value=0.0, max_value=50.0, allow_nan=False),
    st.floats(min_value=0.5, max_value=10.0, allow_nan=False),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(ratings_strategy, min_size=2, max_size=9), st.data())
def test_any_finishing_order_gives_sane_ratings(players, data):
    ranks = data.draw(st.lists(st.integers(1, len(players)), min_size=len(players), max_size=len(players)))
    after = rate_game(players, ranks)
    assert len(after) == len(players)
    for rating in after:
        assert math.isfinite(rating.mu) and rating.sigma > 0


@settings(max_examples=60, deadline=None)
@given(st.lists(ratings_strategy, min_size=2, max_size=9), st.randoms(use_true_random=False))
def test_in_any_finishing_order_without_ties_the_first_gains_and_the_last_loses(players, rnd):
    ranks = list(range(1, len(players) + 1))
    rnd.shuffle(ranks)
    after = rate_game(players, ranks)
    best, worst = ranks.index(1), ranks.index(len(players))
    assert after[best].mu > players[best].mu
    assert after[worst].mu < players[worst].mu


@settings(max_examples=60, deadline=None)
@given(st.lists(ratings_strategy, min_size=2, max_size=9), st.randoms(use_true_random=False))
def test_tie_average_is_openskill_itself_without_ties(players, rnd):
    ranks = list(range(1, len(players) + 1))
    rnd.shuffle(ranks)
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=p.mu, sigma=p.sigma)] for p in players], ranks=[float(r) for r in ranks])
    for mine, (theirs,) in zip(_rate_with_ties(players, ranks), expected, strict=True):
        assert mine.mu == pytest.approx(theirs.mu, abs=1e-9)
        assert mine.sigma == pytest.approx(theirs.sigma, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=2, max_size=9))
def test_between_equals_a_better_place_never_gains_less(ranks):
    after = rate_game([Rating() for _ in ranks], ranks)
    for i, a in enumerate(ranks):
        for j, b in enumerate(ranks):
            if a < b:
                assert after[i].mu > after[j].mu
            elif a == b:
                assert after[i] == after[j]
