"""The tournament formats: their names, the table sizes and player counts each allows, and their rounds."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping
from typing import Any

from bot.tournaments.errors import TournamentError
from games.base import GameError, Rules

SWISS = "swiss"
ROUND_ROBIN = "roundrobin"
ELIMINATION = "elimination"
TABLES = "tables"
FORMAT_NAMES = {
    SWISS: "Swiss",
    ROUND_ROBIN: "Round robin",
    ELIMINATION: "Single elimination",
    TABLES: "Table Swiss",
}
DUEL_FORMATS = (SWISS, ROUND_ROBIN, ELIMINATION)
BOT_FORMATS = (SWISS, TABLES)  # where the organiser may fill byes and empty seats with computer players
BOT_LEVEL = "hard"
MAX_ROUNDS = 30
MAX_PLAYERS = 512
DEFAULT_TABLE_ROUNDS = 3
ALIASES = {
    "swiss": SWISS,
    "roundrobin": ROUND_ROBIN,
    "rr": ROUND_ROBIN,
    "elimination": ELIMINATION,
    "singleelimination": ELIMINATION,
    "knockout": ELIMINATION,
    "tables": TABLES,
    "tableswiss": TABLES,
}


def is_bot(player: int) -> bool:
    """True for a computer player in a match: they have negative ids (-1, -2... at each table, seat order)."""
    return player < 0


def format_key(value: str) -> str:
    """The stored name of a format, from what a member typed or chose."""
    cleaned = re.sub(r"[^a-z]", "", value.lower())
    if cleaned not in ALIASES:
        raise TournamentError("The format must be swiss, round robin, single elimination or table swiss.")
    return ALIASES[cleaned]


def deals(rules: Rules, players: int, options: Mapping[str, Any]) -> bool:
    """True when a game of ``players`` can be dealt with these options (some options limit the count)."""
    return why_not_dealt(rules, players, options) is None


def why_not_dealt(rules: Rules, players: int, options: Mapping[str, Any]) -> str | None:
    """The game's own reason a game of ``players`` cannot be dealt with these options, or None."""
    try:
        rules.new_game(players, options, random.Random(0))
    except GameError as error:
        return str(error)
    return None


def table_range(rules: Rules, options: Mapping[str, Any]) -> tuple[int, int]:
    """The table sizes a table Swiss of this game uses: from 3 (or the game's minimum, if higher) up to the
    largest count the game can be dealt for with these options (e.g. Der Marsigelwettkampf seats six or
    more only with its xeno option)."""
    low = max(3, rules.min_players)
    high = low - 1
    while high < rules.max_players and deals(rules, high + 1, options):
        high += 1
    if high < low:
        reason = why_not_dealt(rules, low, options)
        raise TournamentError(reason or f"{rules.title} cannot seat {low} or more players with these options.")
    return low, high


def check_format(rules: Rules, fmt: str, options: Mapping[str, Any]) -> None:
    """Refuse a format the game's player counts (with these options) cannot play."""
    if fmt in DUEL_FORMATS:
        if not rules.min_players <= 2 <= rules.max_players:
            raise TournamentError(
                f"{rules.title} is played by {rules.min_players} to {rules.max_players} players, not two: "
                "use table swiss."
            )
        reason = why_not_dealt(rules, 2, options)  # the game's own words, e.g. a blocked square it cannot read
        if reason is not None:
            raise TournamentError(reason)
    elif rules.max_players < 3:
        raise TournamentError(
            f"{rules.title} is a two-player game: use swiss, round robin or single elimination, not table swiss."
        )
    else:
        table_range(rules, options)


def minimum_players(rules: Rules, fmt: str, options: Mapping[str, Any]) -> int:
    """The fewest players a tournament of ``fmt`` can start with."""
    return table_range(rules, options)[0] if fmt == TABLES else 2


def default_rounds(fmt: str, players: int) -> int:
    """Swiss: enough rounds to find a sole winner (log2 of the field, rounded up, at most n - 1)."""
    if fmt == SWISS:
        return max(1, min(players - 1, math.ceil(math.log2(max(players, 2)))))
    return DEFAULT_TABLE_ROUNDS
