"""The computer players: legal moves only, deterministic per seed, JSON round trips, clean API."""

from __future__ import annotations

import pickle
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai
from ai.budget import Budget
from ai.evaluation import profile_for
from ai.search import outcome_rewards
from games import REGISTRY
from games.base import Outcome
from games.playout import playout, table_options

GAMES = sorted(REGISTRY)
# every table each game seats (Der Marsigelwettkampf's solitaire included, and its Xeno tables up to ten)
SEATS = {name: tuple(range(rules.min_players, rules.max_players + 1)) for name, rules in REGISTRY.items()}
SMALL = Budget(max_iterations=12)


@cache
def decision_states(game: str, players: int, seed: int) -> tuple[Any, ...]:
    """Every state of a seeded random game where a seat must decide (no roll pending), thinned out."""
    rules = REGISTRY[game]
    states = [
        s
        for s in playout(rules, players, table_options(rules, players), seed=seed)
        if rules.outcome(s) is None and not rules.pending_roll(s) and rules.legal_moves(s)
    ]
    step = max(1, len(states) // 25)
    return tuple(states[::step])


def test_every_game_has_a_profile_with_a_matching_seat_count():
    for game in GAMES:
        rules = REGISTRY[game]
        profile = profile_for(game)
        for players in SEATS[game]:
            state = decision_states(game, players, 1)[0]
            assert profile.players(state) == players
            if profile.evaluate is not None:
                values = profile.evaluate(state)
                assert len(values) == players
                assert all(0.0 <= v <= 1.0 for v in values)
        assert rules.name == game


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ai.LEVELS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 3),
    pick=st.integers(0, 10_000),
    bot_seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_bots_only_play_legal_moves(game: str, level: str, seed: int, pick: int, bot_seed: int, data: Any):
    rules = REGISTRY[game]
    players = data.draw(st.sampled_from(SEATS[game]))
    states = decision_states(game, players, seed)
    state = states[pick % len(states)]
    move = ai.choose_move(rules, state, level, bot_seed, SMALL)
    assert move in list(rules.legal_moves(state))
    rules.apply(state, move)


@pytest.mark.parametrize("game", [game for game in GAMES if game != "whist"])  # Whist has no dice
def test_a_pending_roll_is_answered_with_dice(game: str):
    rules = REGISTRY[game]
    players = SEATS[game][-1]
    options = table_options(rules, players)
    rolls = [s for s in playout(rules, players, options, seed=3) if rules.outcome(s) is None and rules.pending_roll(s)]
    assert rolls, f"no roll was pending in a game of {game}"
    state = rolls[len(rolls) // 2]
    move = ai.choose_move(rules, state, "hard", 5, SMALL)
    rules.apply(state, move)  # a legal roll
    rolled = ai.roll_or_choose(rules, state, "hard", 5, SMALL, roll_rng=random.Random(9))
    assert rolled == rules.roll(state, random.Random(9))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_same_seed_and_iteration_budget_give_the_same_moves(game: str, level: str):
    rules = REGISTRY[game]
    for state in decision_states(game, SEATS[game][0], 2)[::5]:
        first = ai.choose_move(rules, state, level, 11, Budget(max_iterations=25))
        again = ai.choose_move(rules, state, level, 11, Budget(max_iterations=25))
        assert first == again


@pytest.mark.parametrize("game", GAMES)
def test_choose_notation_round_trips_through_json(game: str):
    rules = REGISTRY[game]
    for level in ai.LEVELS:
        for state in decision_states(game, SEATS[game][-1], 4)[::8]:
            text = ai.choose_notation(game, rules.to_json(state), level, 3, max_iterations=15)
            assert isinstance(text, str)
            move = rules.parse_move(state, text)
            assert move in list(rules.legal_moves(state))


def test_choose_notation_pickles_for_a_process_pool():
    assert pickle.loads(pickle.dumps(ai.choose_notation)) is ai.choose_notation


def test_bad_levels_and_finished_games_are_refused():
    rules = REGISTRY["whist"]
    state = decision_states("whist", 2, 1)[0]
    with pytest.raises(ValueError, match="level"):
        ai.choose_move(rules, state, "grandmaster", 0, SMALL)
    final = list(playout(rules, 2, seed=1))[-1]
    with pytest.raises(ValueError, match="over"):
        ai.choose_move(rules, final, "hard", 0, SMALL)


def test_budgets_need_a_bound():
    with pytest.raises(ValueError):
        Budget()
    with pytest.raises(ValueError):
        Budget(max_iterations=0)
    assert ai.budget_for("hard", 250).max_ms == 250
    assert ai.budget_for("hard", max_iterations=40) == Budget(max_iterations=40)
    own = ai.default_budget(None, "normal").max_iterations
    assert own is not None
    assert ai.budget_for("normal", max_iterations=own * 4) == Budget(max_iterations=own)  # never past its own cap


def test_a_game_can_give_a_level_its_own_budget(monkeypatch: pytest.MonkeyPatch):
    """A level thinks with its game's own budget where the game has one, at the table and in a pool worker."""
    import ai.levels

    monkeypatch.setitem(ai.levels.DEFAULT_BUDGETS, "normal", Budget(max_iterations=40))
    monkeypatch.setitem(ai.levels.GAME_BUDGETS, "treasure", {"normal": Budget(max_iterations=3)})
    assert ai.default_budget("treasure", "normal") == Budget(max_iterations=3)
    assert ai.default_budget("combat", "normal") == ai.default_budget(None, "normal") == Budget(max_iterations=40)
    assert ai.default_budget("treasure", "hard") == ai.levels.DEFAULT_BUDGETS["hard"]
    assert ai.budget_for("normal", game="treasure") == Budget(max_iterations=3)
    assert ai.budget_for("normal", max_iterations=2, game="treasure") == Budget(max_iterations=2)
    assert ai.budget_for("normal", max_iterations=20, game="treasure") == Budget(max_iterations=3)  # a cap, not more
    assert ai.budget_for("normal", max_iterations=20, game="combat") == Budget(max_iterations=20)
    for game, iterations in (("treasure", 3), ("combat", 40)):
        rules = REGISTRY[game]
        states = [s for s in decision_states(game, 2, 5) if len(list(rules.legal_moves(s))) > 2][:6]
        for seed, state in enumerate(states):
            expected = ai.choose_move(rules, state, "normal", seed, Budget(max_iterations=iterations))
            assert ai.choose_move(rules, state, "normal", seed) == expected
            assert ai.choose_notation(game, rules.to_json(state), "normal", seed) == rules.format_move(state, expected)


def test_outcome_rewards_share_first_place():
    assert outcome_rewards(Outcome((1, 2), "x")) == (1.0, 0.0)
    assert outcome_rewards(Outcome((1, 1), "draw")) == (0.5, 0.5)
    three = outcome_rewards(Outcome((2, 1, 3), "x"))
    assert three[1] == 1.0 and three[0] > three[2] == 0.0


def test_whist_endgame_is_solved_exactly():
    """With the last trick to play, hard takes the exact best tree (the solver, not the search)."""
    rules = REGISTRY["whist"]
    profile = profile_for("whist")
    late = [s for s in playout(rules, 2, seed=6) if s.phase == "tricks" and s.total_tricks - len(s.tricks) <= 2]
    assert late
    for state in late:
        exact = profile.endgame(rules, state, state.turn)
        assert exact in list(rules.legal_moves(state))
        assert ai.choose_move(rules, state, "hard", 0, SMALL) == exact


def test_treasure_arrangements_of_others_are_sampled_not_read():
    """While coins are set out, the search sees other seats' arrangements only as random samples."""
    rules = REGISTRY["treasure"]
    profile = profile_for("treasure")
    state = rules.new_game(3, {}, random.Random(1))
    state = rules.apply(state, rules.legal_moves(state)[100])  # the first seat arranges
    seat = rules.to_move(state)
    assert profile.hidden(state, seat)

    def hidden_part(s: Any) -> tuple[Any, Any]:
        return s.coins, getattr(s, "pending", ())

    samples = {hidden_part(profile.determinize(state, seat, random.Random(k))) for k in range(20)}
    assert len(samples) > 1
    for coins, _ in samples:
        assert coins[seat] == state.coins[seat]
    move = ai.choose_move(rules, state, "hard", 1, SMALL)
    assert move in list(rules.legal_moves(state))


def test_hard_beats_random_at_short_whist_more_often_than_not():
    """A robust case: short Martian Whist, where a small search already wins nearly always."""
    rules = REGISTRY["whist"]
    wins = 0
    for seed in range(4):
        levels = ("hard", "easy") if seed % 2 == 0 else ("easy", "hard")
        state = rules.new_game(2, {"variant": "short"}, random.Random(seed))
        ply = 0
        while rules.outcome(state) is None:
            seat = rules.to_move(state)
            move = ai.choose_move(rules, state, levels[seat], seed * 1000 + ply, Budget(max_iterations=40))
            state = rules.apply(state, move)
            ply += 1
        outcome = rules.outcome(state)
        assert outcome is not None
        wins += outcome.ranks[levels.index("hard")] == 1
    assert wins >= 3
