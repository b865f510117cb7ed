"""Leaderboard, standings and bracket pictures: format, size, determinism and key pixels."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.rating_model import Rating, rate_game
from bot.tournaments.pairings import elimination_bracket
from bot.tournaments.standings import Result, duel_standings, table_standings
from renderers.pyramids import BACKGROUND, HIGHLIGHT
from renderers.standings import (
    LeaderboardRow,
    clean_name,
    format_number,
    render_bracket,
    render_leaderboard,
    render_standings,
)

MAX_BYTES = 200_000


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_BYTES
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def near(pixel, colour, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def count_near(image: Image.Image, colour, tolerance=6) -> int:
    colours = image.getcolors(1 << 20)
    assert colours is not None  # no more colours than the limit
    return sum(count for count, pixel in colours if near(pixel, colour, tolerance))


def leaderboard_rows(count: int) -> list[LeaderboardRow]:
    rng = random.Random(1)
    ratings = {f"Player {i}": Rating() for i in range(count)}
    names = list(ratings)
    games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    for _ in range(count * 6):
        a, b = rng.sample(names, 2)
        ranks = rng.choice([[1, 2], [2, 1]])
        ratings[a], ratings[b] = rate_game([ratings[a], ratings[b]], ranks)
        games[a] += 1
        games[b] += 1
        wins[a if ranks[0] == 1 else b] += 1
    order = sorted(names, key=lambda n: -ratings[n].ordinal)
    return [LeaderboardRow(i + 1, n, ratings[n], games[n], wins[n]) for i, n in enumerate(order)]


def swiss_results(players, rounds=4, seed=2):
    from bot.tournaments.pairings import next_swiss_round

    rng = random.Random(seed)
    results = []
    for number in range(1, rounds + 1):
        rnd = next_swiss_round(players, results)
        for a, b in rnd.tables:
            results.append(Result(number, (a, b), rng.choice([(1, 2), (2, 1), (1, 1)])))
        for p in rnd.byes:
            results.append(Result.bye(number, p))
    return results


def test_leaderboard_picture():
    image = open_png(render_leaderboard(leaderboard_rows(24), title="Leaderboard: Martian Combat"))
    assert 800 <= image.width <= 1000
    assert 600 <= image.height <= 1100
    assert near(image.getpixel((6, 6)), BACKGROUND)  # inside the light border


def test_leaderboard_shows_the_top_twenty_only():
    rows = leaderboard_rows(30)
    assert render_leaderboard(rows) == render_leaderboard(rows[:20])
    assert render_leaderboard(rows) != render_leaderboard(rows[:19])


def test_leaderboard_is_deterministic_and_takes_plain_numbers():
    rows = [LeaderboardRow(1, "Ann", 1612.4, 10, 7), LeaderboardRow(2, "Bo", Rating(), 3, 1)]
    assert render_leaderboard(rows) == render_leaderboard(list(rows))
    open_png(render_leaderboard(rows))


def test_empty_leaderboard():
    image = open_png(render_leaderboard([]))
    assert image.height < 300


def test_swiss_standings_picture():
    players = [f"p{i}" for i in range(1, 10)]
    rows = duel_standings(swiss_results(players), players)
    names = {p: f"Player {p[1:]}" for p in players}
    data = render_standings(rows, "Spring Swiss", names, subtitle="After round 4 of 5")
    image = open_png(data)
    assert 800 <= image.width <= 1000
    assert data == render_standings(rows, "Spring Swiss", names, subtitle="After round 4 of 5")
    # the podium pyramids use the shared palette: gold for first place
    assert count_near(image, (0xF0, 0xE4, 0x42), 20) > 50  # palette quantising moves it a little


def test_table_standings_and_many_players():
    players = [f"p{i}" for i in range(40)]
    results = [Result(1, tuple(players[k : k + 4]), (1, 2, 3, 3)) for k in range(0, 40, 4)]
    image = open_png(render_standings(table_standings(results, players), "Table Swiss"))
    assert image.height < 1700


def test_long_and_unicode_names_do_not_break_the_picture():
    results = [Result(1, ("a", "b"), (1, 2))]
    names = {"a": "Zoë " + "W" * 80, "b": "李小龙 🙂"}
    open_png(render_standings(duel_standings(results), "Names", names))
    assert clean_name("Zoë") == "Zoe"
    assert clean_name("Eve 🙂") == "Eve"
    assert clean_name("李小龙") == "?"
    assert clean_name("  spaced   out ") == "spaced out"


def test_format_number():
    assert [format_number(v) for v in (7.0, 2.5, 4 / 3, None, 0)] == ["7", "2.5", "1.33", "-", "0"]


@pytest.mark.parametrize("count", [2, 6, 13, 40])
def test_bracket_pictures(count):
    rng = random.Random(count)
    bracket = elimination_bracket([f"s{i}" for i in range(1, count + 1)])
    empty = open_png(render_bracket(bracket, title="Cup"))
    while not bracket.is_complete:
        match = bracket.pending()[0]
        bracket = bracket.with_winner(match.round, match.slot, rng.choice(match.players))
    full = open_png(render_bracket(bracket, {"s1": "Top seed"}, title="Cup"))
    assert 800 <= full.width <= 1000 and full.size == empty.size
    assert near(full.getpixel((6, 6)), BACKGROUND)  # inside the light border
    assert count_near(full, HIGHLIGHT) > count_near(empty, HIGHLIGHT)


def test_bracket_highlights_only_decided_paths():
    bracket = elimination_bracket(["a", "b", "c", "d"])  # no byes: nothing decided yet
    assert count_near(open_png(render_bracket(bracket)), HIGHLIGHT) == 0
    bracket = bracket.with_winner(1, 0, "a")
    assert count_near(open_png(render_bracket(bracket)), HIGHLIGHT) > 0
    assert render_bracket(bracket) == render_bracket(bracket)
