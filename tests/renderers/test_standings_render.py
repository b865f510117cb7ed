"""Leaderboard, standings and bracket pictures: format, size, determinism and key pixels."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.rating_model import Rating, rate_game
from bot.tournaments.pairings import elimination_bracket
from bot.tournaments.standings import Result, duel_standings, table_standings
from renderers import assassin, combat, hedgehog, treasure, whist
from renderers.layout import MIN_PHONE_TEXT, Layout, recording
from renderers.pyramids import BACKGROUND, HIGHLIGHT, font
from renderers.standings import (
    MIN_PX,
    WIDTH,
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
    assert image.width == WIDTH
    assert 900 <= image.height <= 1600  # twenty two-line rows
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
    assert image.width == WIDTH
    assert data == render_standings(rows, "Spring Swiss", names, subtitle="After round 4 of 5")
    # the podium pyramids use the shared palette: gold for first place
    assert count_near(image, (0xF0, 0xE4, 0x42), 20) > 50  # palette quantising moves it a little


def test_table_standings_and_many_players():
    players = [f"p{i}" for i in range(40)]
    results = [Result(1, tuple(players[k : k + 4]), (1, 2, 3, 3)) for k in range(0, 40, 4)]
    image = open_png(render_standings(table_standings(results, players), "Table Swiss"))
    assert image.width == WIDTH
    assert image.height < 3000  # forty two-line rows, the column labels every ten


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
    assert full.width == WIDTH and full.size == empty.size
    assert near(full.getpixel((6, 6)), BACKGROUND)  # inside the light border
    assert count_near(full, HIGHLIGHT) > count_near(empty, HIGHLIGHT)


def test_bracket_highlights_only_decided_paths():
    bracket = elimination_bracket(["a", "b", "c", "d"])  # no byes: nothing decided yet
    assert count_near(open_png(render_bracket(bracket)), HIGHLIGHT) == 0
    bracket = bracket.with_winner(1, 0, "a")
    assert count_near(open_png(render_bracket(bracket)), HIGHLIGHT) > 0
    assert render_bracket(bracket) == render_bracket(bracket)


# --------------------------------------------------------------------------------------------
# phone first, as the boards (docs/boards.md): Discord shows a picture about 400 px wide on a phone

LONG_NAMES = [
    "Bartholomew Featherstonehaugh",
    "Christopher Montgomery",
    "Guinevere Applethwaite",
    "Maximilian Vandersloot",
    "Alexandria Konstantinopoulou",
    "Wolfgang Amadeus Mozart Jr",
    "Persephone Underhill",
    "Ozymandias Kingofkings",
]


def long_names(players) -> dict[str, str]:
    return {p: f"{LONG_NAMES[i % len(LONG_NAMES)]} {i}" for i, p in enumerate(players)}


def finished_bracket(count: int, decided: int | None = None):
    rng = random.Random(count)
    bracket = elimination_bracket([f"s{i}" for i in range(1, count + 1)])
    while not bracket.is_complete and (decided is None or decided > 0):
        match = bracket.pending()[0]
        bracket = bracket.with_winner(match.round, match.slot, rng.choice(match.players))
        decided = None if decided is None else decided - 1
    return bracket


def swiss_pictures(count: int) -> tuple[bytes, list, dict[str, str]]:
    players = [f"p{i}" for i in range(count)]
    names = long_names(players)
    rows = duel_standings(swiss_results(players, rounds=5), players)
    return render_standings(rows, "Spring Swiss", names, subtitle="After round 5 of 5"), rows, names


PICTURES = {
    "swiss-8": lambda: swiss_pictures(8)[0],
    "swiss-40": lambda: swiss_pictures(40)[0],
    "leaderboard-25": lambda: render_leaderboard(leaderboard_rows(25), title="Martian Combat - leaderboard"),
    "empty-leaderboard": lambda: render_leaderboard([]),
    "bracket-4": lambda: render_bracket(finished_bracket(4), long_names([f"s{i}" for i in range(1, 5)])),
    "bracket-13": lambda: render_bracket(finished_bracket(13, 7), long_names([f"s{i}" for i in range(1, 14)])),
    "bracket-40": lambda: render_bracket(finished_bracket(40), long_names([f"s{i}" for i in range(1, 41)])),
}


def drawn(kind: str) -> tuple[bytes, Layout]:
    with recording() as layout:
        data = PICTURES[kind]()
    return data, layout


def test_the_pictures_are_as_wide_as_the_boards():
    assert {combat.WIDTH, treasure.WIDTH, whist.WIDTH, assassin.WIDTH, hedgehog.WIDTH} == {WIDTH}
    assert MIN_PX == combat.MIN_PX == 17  # 12 px on a phone


@pytest.mark.parametrize("kind", sorted(PICTURES))
def test_every_text_reads_on_a_phone(kind):
    """The layout recorded while drawing: the picture's width, and its smallest text seen 400 px wide."""
    data, layout = drawn(kind)
    image = open_png(data)
    assert (layout.width, layout.height) == image.size
    assert layout.width == WIDTH
    small = layout.smallest_text()
    assert small is not None
    assert small.px >= MIN_PX
    assert layout.phone_px(small.px) >= MIN_PHONE_TEXT
    _, top, _, bottom = font(small.px).getbbox("H")
    assert layout.phone_px(bottom - top) >= 7.5  # capitals, as the boards' smallest text (7.9 px)
    assert all(t.box[0] >= 3 and t.box[2] <= WIDTH - 3 for t in layout.texts)  # inside the frame


def test_standings_show_every_name_and_figure_whole():
    _, rows, names = swiss_pictures(40)
    _, layout = drawn("swiss-40")
    texts = [t.text for t in layout.texts]
    for row in rows:
        assert names[row.player] in texts  # the whole name: it has most of the width
        assert format_number(row.points) in texts
    labels = {"#", "Player", "Points", "Games", "Buch. c1", "S-B", "H2H"}
    assert labels <= set(texts)
    assert texts.count("Buch. c1") == 4  # the column labels again before rows 11, 21 and 31


def test_bracket_names_every_player_whole_and_every_round():
    bracket = finished_bracket(40)
    names = long_names([f"s{i}" for i in range(1, 41)])
    with recording() as layout:
        render_bracket(bracket, names, title="Cup")
    texts = [t.text for t in layout.texts]
    for name in names.values():
        assert name in texts
    for number in range(1, len(bracket.rounds) + 1):
        assert bracket.round_name(number) in texts
    assert "Byes, through to Round 2: seeds 1 to 24" in texts
    assert names[bracket.champion] in texts


def test_bracket_names_who_is_still_to_come():
    bracket = elimination_bracket(["a", "b", "c", "d"]).with_winner(1, 0, "a")
    with recording() as layout:
        render_bracket(bracket, {"a": "Ann", "b": "Bo", "c": "Cy", "d": "Di"})
    texts = [t.text for t in layout.texts]
    assert "winner of 2 Bo vs 3 Cy" in texts  # seeds 1 v 4 and 2 v 3; Ann waits in the final
    assert "not decided yet" in texts  # no champion yet


def test_byes_are_written_as_seed_ranges():
    bracket = elimination_bracket([f"s{i}" for i in range(1, 14)])
    with recording() as layout:
        render_bracket(bracket)
    assert "Byes, through to the Quarterfinals: seeds 1 to 3" in layout.joined_text()


def test_a_title_keeps_its_dash():
    """The font has no dashes; `/leaderboard` titles its picture `Martian Combat — leaderboard`."""
    with recording() as layout:
        render_leaderboard([], title="Martian Combat — leaderboard")
    assert layout.texts[0].text == "Martian Combat - leaderboard"


def test_a_long_name_is_shortened_but_its_withdrawal_mark_stays_whole(monkeypatch):
    """Names are shortened, never what is said about them (docs/boards.md): `(withdrew)` stays."""
    from types import SimpleNamespace

    import renderers.standings as standings

    drawn: list[str] = []
    real = standings.text

    def spy(draw, xy, words, *args, **kwargs):
        drawn.append(words)
        return real(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(standings, "text", spy)
    row = SimpleNamespace(place=7, player=1, points=0.0, games=2, tiebreaks=[("Buchholz cut-1", 1.0)])
    standings.render_standings([row], "Cup", {1: "Zaphod_Beeblebrox_the_Magnific_1 (withdrew)"}, "Swiss · final")
    [shown] = [words for words in drawn if "Zaphod" in words]
    assert shown.endswith("… (withdrew)")
