"""Der Marsigelwettkampf: how close each colour is to large, medium, small in one stack.

Evaluation per colour: the medium already sitting on its own large, the small on its medium, the
large free on top (a landing place for the medium), and the ring distances the medium and the
small still have to travel (a medium pays 2 points a space, a small 1).

A large can only land on a large (``docs/rules/hedgehog.md``, "A turn"), so a large with another
colour's large above it stays buried until some large stands free on top of another stack to carry
the pair to; with one large per other colour in a two-player game that never happens, and the
buried colour cannot win.  The evaluation marks such a colour as almost out.

The expert evaluation (the hard level) also knows blocks.  Only a piece's owner moves it, and a
moving piece carries everything above it, so a foreign piece lying directly on a colour's large
(where its medium must land) or directly on its medium (where its small must land) stays there
until its owner takes it away: usually only to win.  The colour cannot finish meanwhile, and the
usual answer is to block back.  A blocked colour loses ``BLOCKED`` points.  The hard level also
plays rollouts of one decision (``EXPERT_CUTOFF``): longer random rollouts undo the blocks the
evaluation is there to see.  Both apply with two players left only: at three and four seats they
lowered the hard bot's first places against easy bots (``docs/ai-measurements.md``).

At a table of four or more the hard level plays longer rollouts instead (``TABLE_CUTOFF``
decisions; at three seats they won fewer games).  There the danger is the others' pieces landing
on an exposed large or medium, which only their owners take away again, and a rollout must run
long enough for the other seats to move before it can see that happen: at six and ten seats the
longer rollouts won more games and ended more of them by the goal (``docs/ai-measurements.md``,
"Bigger tables").

From five seats the hard level also counts a shield: its own small directly on its own large.
The small lifts off again with whatever has landed on it (a moving piece carries everything above
it), so the large is as good as free, while the others' pieces land on the small and not on the
large: an open large at a table of random movers is soon covered by a piece only its owner takes
away.  When the medium has come close, the small steps onto it and the medium carries it onto the
large, the tree built in one turn.  From five seats up the shield won more games and ended more
of them by the goal; at three and four it made no difference (``docs/ai-measurements.md``,
"What moved the figures").  Until the shield stands, the small's way to an open large of its own
counts where it scores better than its way to the medium (``PULL``): without it a search of a few
hundred iterations rarely finds the shield, and the open large is covered first (``docs/ai.md``,
"How the bot thinks").  From eight players left a shield counts for twice as much
(``BIG_SHIELD``): there an open large is covered soonest, and over fresh seeds the bigger worth
ended more of the games by the goal (``docs/ai-measurements.md``, "What moved the figures").

Rings that have shrunk to two spaces nearly always lock: every piece can only land on a top of its
size or larger, and each colour needs the other's pieces out of the way.  Nobody can win and the
game ends drawn by passes or at the round limit.  The bot values a draw at a fifth of an even share
(``DRAW_FACTOR``) and a two-space ring as mostly drawn, so it keeps the ring open and plays for its
tree; it expects its opponents to take any draw on offer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ai.evaluation import players_attr, shares
from ai.search import Profile

TEMPERATURE = 1.5
BURIED = 8.0  # own large under another colour's large, and no large free on top to carry them to
COVERED = 3.0  # own large under another colour's large, a large free on top elsewhere
LOCKED_RING = 2  # spaces left at which a ring has almost always locked
LOCKED_DRAWS = 0.9  # the share of such positions taken to end drawn
DRAW_FACTOR = 0.2  # a draw is worth a fifth of an even share to the bot (the others take it gladly)
SMALL_WAY = 0.25  # a space of the small's way to its own medium, taken off the colour's score
SHIELD = 0.5  # own small directly on own large, from SHIELD_SEATS players left (hard level)
BIG_SHIELD = 1.0  # the same from BIG_SHIELD_SEATS players left, where an open large is soonest covered
PULL = 0.25  # a space of the small's way to its own open large, when counted instead (hard level)
BLOCKED = 8.0  # a foreign piece directly on the colour's large or medium (expert evaluation)
EXPERT_CUTOFF = 1  # decisions in a hard rollout before the evaluation scores it, two players left
TABLE_CUTOFF = 16  # the same with four players left or more
TABLE_SEATS = 4  # players left from which the longer rollouts are played
SHIELD_SEATS = 5  # players left from which shields count
BIG_SHIELD_SEATS = 8  # players left from which a shield is worth BIG_SHIELD


Where = dict[tuple[int, int], tuple[int, int]]  # (colour, pips) -> (space index, height)


def _where(s: Any) -> Where:
    found = {}
    for index, space in enumerate(s.spaces):
        for height, piece in enumerate(space.stack):
            found[(piece.colour, piece.pips)] = (index, height)
    return found


def _gap(s: Any, a: tuple[int, int], b: tuple[int, int]) -> int:
    """Spaces between two places on the ring, the shorter way round."""
    d = abs(a[0] - b[0])
    return min(d, len(s.spaces) - d)


def _above(s: Any, place: tuple[int, int]) -> int:
    """How many pieces lie above the one at ``place`` in its stack."""
    return len(s.spaces[place[0]].stack) - 1 - place[1]


def _directly_on(upper: tuple[int, int], lower: tuple[int, int]) -> bool:
    """True when the piece at ``upper`` lies directly on the one at ``lower`` (same space, one higher)."""
    return upper[0] == lower[0] and upper[1] == lower[1] + 1


def _under_a_foreign_large(s: Any, seat: int, large: tuple[int, int]) -> bool:
    """True when another colour's large lies somewhere above ``seat``'s large."""
    return any(p.pips == 3 and p.colour != seat for p in s.spaces[large[0]].stack[large[1] + 1 :])


def score(s: Any, seat: int, where: Where) -> float:
    """How close ``seat``'s colour is to its tree (higher is better)."""
    large, medium, small = where[(seat, 3)], where[(seat, 2)], where[(seat, 1)]
    value = 0.0
    if _under_a_foreign_large(s, seat, large):
        free_large = any(space.top.pips == 3 for index, space in enumerate(s.spaces) if index != large[0])
        value -= COVERED if free_large else BURIED
    m_on_l = _directly_on(medium, large)
    s_on_m = _directly_on(small, medium)
    if m_on_l:
        value += 4.0
    else:
        above = _above(s, large)
        value += 1.0 if above == 0 else -0.4 * above
        value -= 0.5 * _gap(s, medium, large)
    if s_on_m:
        value += 2.0
    else:
        value -= SMALL_WAY * _gap(s, small, medium)
    return value


def shield_worth(s: Any) -> float:
    """What a shield adds to a colour's score: ``BIG_SHIELD`` from ``BIG_SHIELD_SEATS`` players
    left, ``SHIELD`` below."""
    return BIG_SHIELD if len(s.active) >= BIG_SHIELD_SEATS else SHIELD


def shielded(seat: int, where: Where) -> bool:
    """True when ``seat``'s small lies directly on its own large (and so its medium is elsewhere)."""
    return _directly_on(where[(seat, 1)], where[(seat, 3)])


def shield_pull(s: Any, seat: int, where: Where) -> float:
    """What the small's way to ``seat``'s own open large is worth above its way to the medium.

    The way to the shield is the shield's worth (``shield_worth``) less ``PULL`` a space; ``score``
    counts the small's way to the medium (``SMALL_WAY`` a space), and the better of the two counts.
    Nothing unless the large lies open on top of its stack (so the medium is not on it yet) with the
    small elsewhere (under the large it cannot step onto it) and not on the medium.
    """
    large, medium, small = where[(seat, 3)], where[(seat, 2)], where[(seat, 1)]
    if _above(s, large) or small[0] == large[0] or _directly_on(small, medium):
        return 0.0
    toward = shield_worth(s) - PULL * _gap(s, small, large)
    now = -SMALL_WAY * _gap(s, small, medium)
    return max(0.0, toward - now)


def table_score(s: Any, seat: int, where: Where) -> float:
    """``score``, with a large shielded by the colour's own small valued as free, plus the shield's
    worth (``shield_worth``); until then, ``score`` plus the small's pull toward the shield
    (``shield_pull``).

    The small lifts off with whatever lies on it and waits for the medium: only the medium's distance
    to the large counts.  A foreign large above still buries the large (``score``).
    """
    large, medium = where[(seat, 3)], where[(seat, 2)]
    if _under_a_foreign_large(s, seat, large):
        return score(s, seat, where)
    if not shielded(seat, where):
        return score(s, seat, where) + shield_pull(s, seat, where)
    return 1.0 + shield_worth(s) - 0.5 * _gap(s, medium, large)


def blocked(s: Any, seat: int, where: Where) -> bool:
    """True when a foreign piece lies directly on ``seat``'s large (not its medium) or on its medium.

    A foreign large on the large is the buried case, which ``score`` counts already.
    """
    for pips in (3, 2):
        index, height = where[(seat, pips)]
        stack = s.spaces[index].stack
        if height + 1 < len(stack):
            above = stack[height + 1]
            if above.colour != seat and not (pips == 3 and above.pips == 3):
                return True
    return False


def expert_score(s: Any, seat: int, where: Where) -> float:
    """``score`` less ``BLOCKED`` when the colour is blocked."""
    return score(s, seat, where) - (BLOCKED if blocked(s, seat, where) else 0.0)


def _evaluate(s: Any, scorer: Callable[[Any, int, Where], float]) -> tuple[float, ...]:
    where = _where(s)
    out = set(s.out)
    scores = [-100.0 if seat in out else scorer(s, seat, where) for seat in range(s.players)]
    return shares(scores, TEMPERATURE)


def evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances from the tree-building scores."""
    return _evaluate(s, score)


def expert_evaluate(s: Any) -> tuple[float, ...]:
    """Per-seat chances with the hard level's knowledge: shields from ``SHIELD_SEATS`` players left,
    else blocks (used with two players left only, ``expert_knows``)."""
    return _evaluate(s, table_score if shields_count(s) else expert_score)


def drawish(s: Any) -> float:
    """How likely the position is to end drawn: a ring of two spaces almost always locks."""
    return LOCKED_DRAWS if len(s.spaces) <= LOCKED_RING and s.players > 1 else 0.0


def two_players(s: Any) -> bool:
    """True when two players are left: where the block knowledge has been measured to help."""
    return len(s.active) == 2


def shields_count(s: Any) -> bool:
    """True with ``SHIELD_SEATS`` players left or more: where the shields have been measured to help."""
    return len(s.active) >= SHIELD_SEATS


def expert_knows(s: Any) -> bool:
    """True where the hard level's expert evaluation applies: two players left (blocks), or from
    ``SHIELD_SEATS`` (shields)."""
    return two_players(s) or shields_count(s)


def rollout_length(s: Any) -> int | None:
    """Decisions in a hard rollout: one with two players left, ``TABLE_CUTOFF`` from ``TABLE_SEATS``.

    Solitaire and a table of three keep the level's own (None).
    """
    if two_players(s):
        return EXPERT_CUTOFF
    return TABLE_CUTOFF if len(s.active) >= TABLE_SEATS else None


PROFILE = Profile(
    players=players_attr,
    evaluate=evaluate,
    draw_factor=DRAW_FACTOR,
    drawish=drawish,
    expert_evaluate=expert_evaluate,
    expert_applies=expert_knows,
    expert_cutoff=rollout_length,
)
