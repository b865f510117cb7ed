"""The short answer of ``/rules``: the goal, a turn and how to type a move, for each game.

Each text fits a phone screen (at most 1,200 characters); the section buttons and the attached page
say the rest.  The facts follow ``docs/rules/<game>.md``.
"""

from __future__ import annotations

QUICK_LIMIT = 1_200

QUICK_STARTS: dict[str, str] = {
    "combat": (
        "**Goal:** bring both of your nests across the 6x6 board to your two home squares on the far "
        "edge and build each into a tree (large, medium, small, bottom to top). Two capped trees win.\n\n"
        "**A turn:** press **Roll** if asked, then\n"
        "1. step one of your pyramids one square (any direction), carrying what is on it;\n"
        "2. if it now stands next to an opponent's square with no more pips, you may attack: each "
        "side rolls a die and adds its pips, the higher total wins;\n"
        "3. roll the action die: Tip, Swap, Hop, Dig, Aim or Wild. The buttons under the board "
        "offer every yes/no choice (attack, counter, pass, end aim).\n\n"
        "**Typing a move:** `/combat move` and pick from the list, or type it: `R3 c1-c2` (your "
        "large R3 steps from c1 to c2), `c2xb3` (attack), `choose aim`, `pass`. Every piece's code "
        "is drawn on the board."
    ),
    "treasure": (
        "**Goal:** capture the most treasure. Your six coins (null, ace, 2-5) hunt the pyramids on "
        "the field: small 1 point, medium 2, large 3, an opponent's coin 2. The game ends when the "
        "last pyramid is taken.\n\n"
        "**Before the first roll:** each player sets out their coins on their home row with "
        "`/treasure arrange` (`arrange default` keeps 0 1 2 3 4 5).\n\n"
        "**A turn:** press **Roll**. The number die picks your coin; the type die says how it moves, "
        "like a chess piece: null pawn, ace rook, 2 knight, 3 bishop, 4 queen, 5 king. If that coin "
        "can move, you must move it; land on a pyramid or a coin to capture it.\n\n"
        "**Typing a move:** `/treasure move` and pick from the list, or type the square: `c5` "
        "(or `3:c2-c5`)."
    ),
    "whist": (
        "**Goal:** win tricks and keep trees that score: each trick 1 point, and each solid tree "
        "(large, medium, small of one colour) you can build from your kept pyramids 2 more.\n\n"
        "**Stage one, the draft:** take the top pyramid of a tree in the row, in turns, until the "
        "row is empty. The second player may instead steal the first drafter's small, once, as "
        "their very first action.\n\n"
        "**Stage two, tricks:** the leader presents any tree from their stash (a large, a medium and "
        "a small). The other player must answer with a tree holding at least one of the led colours, "
        "if they can. A solid tree beats a mixed one, and of two solids the higher colour wins; "
        "otherwise the higher colour wins each size, and the tree winning more sizes takes the "
        "trick. Ties go to the leader.\n\n"
        "**Typing a move:** `/whist move` and pick from the list (it says who would win the trick), "
        "or type `take R1 c`, `steal`, `play R3 Y2 G1`. Everything is open: both stashes are shown."
    ),
    "assassin": (
        "**Goal:** as the **victim**, visit all four bases on the edges in one run. As an "
        "**assassin**, land on the victim: you become the victim, back in the safehouse in the "
        "middle, and they join the hunt.\n\n"
        "**A turn:** press **Roll** (null, ace, 2-5) and move exactly that many steps, up, down, "
        "left or right (the victim also diagonally at 6 or more players), never straight back. "
        "Assassins take turns in order and the victim moves after every assassin. A victim's move "
        "ending on a base marks it. After a null the victim chooses **Re-roll** or **Stay** (buttons).\n\n"
        "**The end:** the victim wins with the fourth base. At the turn limit, players are ranked by "
        "bases held, then captures.\n\n"
        "**Typing a move:** `/assassin move` and pick a square from the list, or type it: `d4`. The "
        "bot picks the way there."
    ),
    "hedgehog": (
        "**Goal:** be the first to stand your own large, medium and small on top of one another, "
        "large at the bottom, with nothing between them.\n\n"
        "**A turn:** press **Roll**: the die gives your movement points. Move your pieces around the "
        "ring as often as points last: a small costs 1 point per space, a medium 2, a large 3. A "
        "piece carries everything on top of it, and must end on a pyramid of its own size or larger. "
        "A space left empty vanishes and the ring closes up. Press **End turn** when you are done (it "
        "reads **Pass** before you have moved).\n\n"
        "**Typing a move:** `/hedgehog move` and pick from the list, or type it: `G2+3` (the green "
        "medium 3 spaces clockwise), `G2-3` (anticlockwise), `pass`."
    ),
}


def quick_start(game: str) -> str:
    """The quick start of ``game`` ('' for a game without one)."""
    return QUICK_STARTS.get(game, "")
