"""Where a choice was offered: the ply and a print of the position, so a stale choice is refused.

Every suggestion, button and menu carries the mark of the position it was offered in. The ply alone
is not enough: an undo brings a ply back with another position (the same number of moves, another
move among them), and a new game in the channel starts again at ply 0. The print is a keyed hash of
the game and its state: it changes with the position, and without the game's secret seed nobody can
work a hidden hand or arrangement back out of it.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from bot.session.store import GameRow

PRINT_LENGTH = 8  # hex digits: one stale choice in four billion would pass for a fresh one
MARK = r"(?P<ply>[0-9]{1,9})(?:\.(?P<print>[0-9a-f]{8}))?"
STAMP = re.compile(rf"^(?P<notation>.*?)\s*@{MARK}$", re.DOTALL)


@dataclass(frozen=True)
class Mark:
    """The ply a choice was offered at and the print of that position (None on controls from before
    prints were carried, which are checked by their ply alone)."""

    ply: int
    print: str | None = None

    def __str__(self) -> str:
        return str(self.ply) if self.print is None else f"{self.ply}.{self.print}"

    @classmethod
    def parse(cls, ply: str, print_: str | None) -> Mark:
        """The mark read back from a control's id or a suggestion's value (``MARK``'s two groups)."""
        return cls(int(ply), print_)

    def current(self, game: GameRow) -> bool:
        """True when ``game`` still stands where this mark was made."""
        return self.ply == game.ply and (self.print is None or self.print == position_print(game))


def position_print(game: GameRow) -> str:
    """A short keyed hash of ``game``'s id, ply and state: the same position gives the same print."""
    body = json.dumps([game.id, game.ply, game.state], sort_keys=True, separators=(",", ":"), default=str)
    key = hashlib.sha256(game.seed.encode()).digest()
    return hashlib.blake2b(body.encode(), key=key, digest_size=PRINT_LENGTH // 2).hexdigest()


def mark_of(game: GameRow) -> Mark:
    """The mark of ``game``'s position now, for the choices offered in it."""
    return Mark(game.ply, position_print(game))


def stamp(notation: str, mark: Mark) -> str:
    """A suggestion's value: its notation and the mark of where it was offered (``R1 c1-c2 @12.3fa9c0de``)."""
    return f"{notation} @{mark}"


def unstamp(text: str) -> tuple[str, Mark | None]:
    """The notation of a submitted move and where it was chosen (None when typed by hand)."""
    found = STAMP.match(text.strip())
    if found is None:
        return text, None
    return found["notation"], Mark.parse(found["ply"], found["print"])
