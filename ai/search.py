"""Monte Carlo tree search over the ``Rules`` protocol, for any of the games.

One search serves all five games:

- **Multi-player max^n**: every node keeps a reward *vector*, one value per seat in [0, 1]; the seat
  to move at a node picks the child that is best for itself (UCT on its own component).
- **Dice are chance nodes**: where a roll is pending the search samples the dice with its own RNG and
  follows (or grows) the child for that result, so children of a chance node are visited in
  proportion to their probability.
- **Hidden information** is handled by determinisation: each iteration starts from a sample of the
  positions consistent with what the seat to move can see (``Profile.determinize``). The tree is
  then keyed by moves only (open loop) and legal moves are recomputed per iteration.
- **Progressive widening**: a node with many moves (a Marsigelwettkampf turn, a Combat Aim) opens
  its children one at a time, best prior first, as it is visited more.
- **Truncated rollouts**: a rollout plays ``cutoff`` decisions with the profile's policy and then
  scores the position with the game's evaluation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.budget import Budget, Clock
from games.base import Outcome, Rules

Evaluate = Callable[[Any], tuple[float, ...]]
Policy = Callable[[Rules, Any, Sequence[Any], random.Random], Any]
Determinize = Callable[[Any, int, random.Random], Any]
# A running game's final ranks when they are settled whatever anyone does, and how much is still
# to be played for (in the game's own units); None while they are not.
Settled = Callable[[Any], tuple[tuple[int, ...], int] | None]

# What a settled game still running costs the searching seat, if it has lost: this much for the
# game running and this much per unit still to be played for.
SETTLED_WAIT = 0.01


@dataclass(frozen=True)
class Settings:
    """How one search behaves: a level is a ``Settings`` plus a default budget."""

    exploration: float = 0.7
    cutoff: int = 12  # decisions played in a rollout before the evaluation scores it
    widening: bool = False  # progressive widening, children in prior order
    widen_c: float = 2.0
    widen_alpha: float = 0.5
    use_evaluation: bool = True  # score rollouts with the game's evaluation (else neutral at the cutoff)
    use_policy: bool = True  # the game's rollout policy (else uniform random)
    use_prior: bool = True  # order children by the evaluation of the position they lead to
    use_endgame: bool = True  # exact endgame solvers where the game has one
    expert: bool = False  # the game's expert knowledge: its expert evaluation and rollout length, if it has them


@dataclass(frozen=True)
class Profile:
    """What the search knows of one game beyond the protocol; every field may be left empty."""

    players: Callable[[Any], int]
    evaluate: Evaluate | None = None
    policy: Policy | None = None
    determinize: Determinize | None = None
    hidden: Callable[[Any, int], bool] | None = None  # True when the seat to move cannot see everything
    endgame: Callable[[Rules, Any, int], Any] | None = None  # an exact move, or None to search
    # A whole-table draw gives the searching seat this fraction of an even share (1/n), the others
    # their even share.  Below 1 the bot keeps playing for the goal rather than pass into a draw,
    # and expects its opponents to take a draw whenever one is offered.
    draw_factor: float = 1.0
    # How likely a running position is to end drawn whatever anyone does (a locked ring): the
    # evaluation is blended toward the draw's rewards by that much.
    drawish: Callable[[Any], float] | None = None
    # Expert knowledge, used by levels whose settings say ``expert``: an evaluation that knows more
    # of the game than ``evaluate`` (None: the same) in the positions ``expert_applies`` accepts
    # (None: all), and the rollout length that suits the position searched better than the level's
    # ``cutoff`` (None, or a function answering None: the level's).
    expert_evaluate: Evaluate | None = None
    expert_applies: Callable[[Any], bool] | None = None
    expert_cutoff: Callable[[Any], int | None] | None = None
    # Settled games: the searching seat, once it has lost whatever happens, values a running
    # position at its final reward less ``SETTLED_WAIT`` per unit left, so it ends the game rather
    # than keep the table waiting.  The other seats keep the evaluation: a leader does not count on
    # the others to end the game for it.
    settled: Settled | None = None


def outcome_rewards(outcome: Outcome, draw_factor: float = 1.0, seat: int | None = None) -> tuple[float, ...]:
    """Per-seat rewards of a finished game: winners share 1, the others get a little by rank.

    When every seat shares first place, ``seat`` (the one searching) gets ``draw_factor / n``.
    """
    ranks = outcome.ranks
    n = len(ranks)
    if n == 1:
        return (1.0 if ranks[0] == 1 else 0.0,)  # solitaire: a failure ranks 2
    winners = sum(1 for r in ranks if r == 1)
    if winners == n and seat is not None:
        return tuple(draw_factor / n if i == seat else 1.0 / n for i in range(n))
    return tuple(1.0 / winners if r == 1 else 0.1 * (n - r) / (n - 1) for r in ranks)


class Node:
    """A node of the open-loop tree: statistics, children by move, and cached state and moves."""

    __slots__ = ("children", "moves", "order", "seat", "state", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.totals = [0.0] * players
        self.state: Any = None
        self.moves: Sequence[Any] | None = None
        self.order: list[Any] | None = None  # children still to open, best prior first
        self.seat = -1


class Search:
    """One decision's search from ``root`` for the seat to move there."""

    def __init__(
        self,
        rules: Rules,
        profile: Profile,
        settings: Settings,
        rng: random.Random,
    ) -> None:
        self.rules = rules
        self.profile = profile
        self.settings = settings
        self.rng = rng
        self.players = 1
        self.seat: int | None = None  # the seat searching
        self.evaluate = profile.evaluate
        self.cutoff = settings.cutoff

    def _take_knowledge(self, root_state: Any) -> None:
        """The evaluation and rollout length for this search: the game's expert ones where they apply."""
        profile, settings = self.profile, self.settings
        applies = settings.expert and (profile.expert_applies is None or profile.expert_applies(root_state))
        self.evaluate = profile.expert_evaluate if applies and profile.expert_evaluate is not None else profile.evaluate
        cutoff = profile.expert_cutoff(root_state) if settings.expert and profile.expert_cutoff is not None else None
        self.cutoff = settings.cutoff if cutoff is None else cutoff

    # -- helpers ---------------------------------------------------------------------------------

    def value(self, state: Any) -> tuple[float, ...]:
        """The reward vector the search gives ``state``: the outcome's when finished, else the evaluation.

        The evaluation is blended toward a draw by the profile's ``drawish`` estimate, and the
        searching seat's value follows the profile's ``settled`` once it has lost for certain.
        """
        outcome = self.rules.outcome(state)
        if outcome is not None:
            return outcome_rewards(outcome, self.profile.draw_factor, self.seat)
        if self.settings.use_evaluation and self.evaluate is not None:
            values = self.evaluate(state)
            drawish = self.profile.drawish(state) if self.profile.drawish is not None else 0.0
            if drawish > 0.0:
                draw = self._draw_rewards()
                values = tuple(drawish * d + (1.0 - drawish) * v for d, v in zip(draw, values, strict=True))
        else:
            values = (1.0 / self.players,) * self.players
        return self._settled(state, values)

    def _settled(self, state: Any, values: tuple[float, ...]) -> tuple[float, ...]:
        """``values`` with the searching seat's own replaced by its final reward less the wait, if it has lost."""
        settled = self.profile.settled(state) if self.profile.settled is not None else None
        seat = self.seat
        if settled is None or seat is None:
            return values
        ranks, left = settled
        if ranks[seat] == 1:
            return values
        final = outcome_rewards(Outcome(ranks, "settled"))[seat]
        return tuple(final - SETTLED_WAIT * (1 + left) if i == seat else v for i, v in enumerate(values))

    def _draw_rewards(self) -> tuple[float, ...]:
        n = self.players
        return outcome_rewards(Outcome((1,) * n, "draw"), self.profile.draw_factor, self.seat)

    def _rollout(self, state: Any) -> tuple[float, ...]:
        rules, rng = self.rules, self.rng
        policy = self.profile.policy if self.settings.use_policy else None
        decisions = 0
        while rules.outcome(state) is None and decisions < self.cutoff:
            if rules.pending_roll(state):
                state = rules.apply(state, rules.roll(state, rng))
                continue
            moves = rules.legal_moves(state)
            if not moves:
                break
            move = policy(rules, state, moves, rng) if policy is not None else moves[rng.randrange(len(moves))]
            state = rules.apply(state, move)
            decisions += 1
        return self.value(state)

    def _prior_order(self, node: Node, state: Any, moves: Sequence[Any], seat: int) -> list[Any]:
        """Moves sorted by the evaluation (for ``seat``) of the position each leads to; children are made."""
        scored = []
        evaluate = self.evaluate
        for index, move in enumerate(moves):
            child_state = self.rules.apply(state, move)
            child = Node(self.players)
            child.state = child_state
            node.children[move] = child
            value = self.value(child_state)[seat] if evaluate is not None else 0.0
            scored.append((-value, index, move))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [move for _, _, move in scored]

    # -- the search ------------------------------------------------------------------------------

    def run(self, root_state: Any, budget: Budget) -> Any:
        """The move the search prefers for the seat to move in ``root_state``."""
        rules, profile, rng = self.rules, self.profile, self.rng
        seat = rules.to_move(root_state)
        assert seat is not None
        self.seat = seat
        self.players = profile.players(root_state)
        self._take_knowledge(root_state)
        root_moves = list(rules.legal_moves(root_state))
        if len(root_moves) == 1:
            return root_moves[0]
        hidden = profile.determinize is not None and (profile.hidden is None or profile.hidden(root_state, seat))
        cache = not hidden
        root = Node(self.players)
        root.state = root_state
        root.moves = root_moves
        clock = Clock(budget)
        while True:
            state = profile.determinize(root_state, seat, rng) if hidden else root_state  # type: ignore[misc]
            self._iterate(root, state, cache)
            if not clock.tick():
                break
        return self._best(root, root_moves, seat)

    def _best(self, root: Node, moves: Sequence[Any], seat: int) -> Any:
        best, best_key = moves[0], (-1, -1.0)
        for move in moves:
            child = root.children.get(move)
            if child is None or child.visits == 0:
                continue
            key = (child.visits, child.totals[seat] / child.visits)
            if key > best_key:
                best, best_key = move, key
        return best

    def _iterate(self, root: Node, state: Any, cache: bool) -> None:
        rules, rng = self.rules, self.rng
        node = root
        path = [root]
        reward: tuple[float, ...] | None = None
        while reward is None:
            if rules.outcome(state) is not None:
                reward = self.value(state)
                break
            if rules.pending_roll(state):
                move = rules.roll(state, rng)
                child = node.children.get(move)
                fresh = child is None
                if child is None:
                    child = node.children[move] = Node(self.players)
                state = self._enter(child, state, move, cache)
                node = child
                path.append(node)
                if fresh:
                    reward = self._rollout(state)
                continue
            seat = rules.to_move(state)
            assert seat is not None
            if cache:
                if node.moves is None:
                    node.moves = rules.legal_moves(state)
                moves = node.moves
            else:
                moves = rules.legal_moves(state)
            if not moves:
                reward = self.value(state)
                break
            node.seat = seat
            child, move, fresh = self._select(node, state, moves, seat, cache)
            state = self._enter(child, state, move, cache)
            node = child
            path.append(node)
            if fresh:
                reward = self._rollout(state)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for i, value in enumerate(reward):
                totals[i] += value

    def _enter(self, child: Node, state: Any, move: Any, cache: bool) -> Any:
        """The state ``move`` leads to from ``state``: kept on ``child`` when the tree caches states."""
        if not cache:
            return self.rules.apply(state, move)
        if child.state is None:
            child.state = self.rules.apply(state, move)
        return child.state

    def _select(self, node: Node, state: Any, moves: Sequence[Any], seat: int, cache: bool) -> tuple[Node, Any, bool]:
        """The child to follow (opening a new one when due): (child, move, whether it is new)."""
        settings = self.settings
        children = node.children
        if cache and settings.widening and settings.use_prior and node.order is None and len(moves) > 1:
            node.order = self._prior_order(node, state, moves, seat)
            # children exist now but carry no statistics: they open in ``order``
        if settings.widening:
            limit = max(1, math.ceil(settings.widen_c * (node.visits + 1) ** settings.widen_alpha))
        else:
            limit = len(moves)
        opened = [m for m in (children if cache else moves) if m in children and children[m].visits > 0]
        if not cache:
            legal = set(moves)
            opened = [m for m in opened if m in legal]
        if len(opened) < min(limit, len(moves)):
            if node.order is not None:
                for move in node.order:
                    child = children[move]
                    if child.visits == 0:
                        return child, move, True
            untried = [m for m in moves if m not in children or children[m].visits == 0]
            move = untried[self.rng.randrange(len(untried))]
            opening = children.get(move)
            if opening is None:
                opening = children[move] = Node(self.players)
            return opening, move, True
        log_n = math.log(max(node.visits, 1))
        c = settings.exploration
        best_move, best_value = opened[0], -1.0
        for move in opened:
            child = children[move]
            value = child.totals[seat] / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best_move, best_value = move, value
        return children[best_move], best_move, False
