"""``/whist``: Martian Whist.  One ``/whist move`` for the draft (``take R1 c``, ``steal``) and the tricks
(``play R3 Y2 G1``); the verb may be left out, and the suggestions say who would win a trick."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.base import GameCog, new_command

if TYPE_CHECKING:
    from bot.client import PyramidBot


def _compact(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def choice_label(notation: str, description: str) -> str:
    """A readable autocomplete label: ``R1 from tree c`` or ``K3 Y2 G1 (mixed) — South wins ...``."""
    verb, _, rest = notation.partition(" ")
    if verb == "take":
        piece, _, letter = rest.partition(" ")
        return f"{piece} from tree {letter}"
    first, _, outcome = description.partition(". ")
    shown = (first[first.find(rest) :] if rest in first else rest).rstrip(".")
    if not outcome:
        return shown
    outcome = outcome.split(" Scores:")[0]
    winner = outcome.split(" wins", 1)[0]
    why = outcome.rsplit(": ", 1)[-1].rstrip(".")
    if "segments tied" in outcome:
        why = "segments tied 1 to 1 (the leader wins ties)"
    return f"{shown} — {winner} wins, {why}"


def matches(typed: str, notation: str, label: str) -> bool:
    """True when what the player typed fits the choice: ``k3y2``, ``kyg``, ``tree c`` or any label words."""
    key = _compact(typed.lower().replace("take", "").replace("play", ""))  # a phone capitalises "Take"
    if not key:
        return True
    pieces = _compact(notation.partition(" ")[2])
    colours = pieces[0::2]
    return key in pieces or key in colours or typed.strip().lower() in label.lower()


class WhistCog(GameCog, group_name="whist", group_description="Martian Whist: draft pyramids, then play tricks"):
    """Martian Whist commands: the shared ones (no ``roll``: the game has no dice) and ``new``."""

    game_name = "whist"
    choice_label = staticmethod(choice_label)
    matches = staticmethod(matches)

    new = new_command("whist")


async def setup(bot: PyramidBot) -> None:
    """Load the cog."""
    await bot.add_cog(WhistCog(bot))
