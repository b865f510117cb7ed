"""``/rating`` and ``/leaderboard`` through SimCord: ratings move when a game finishes, not when it is aborted."""

from __future__ import annotations

import io
import re

from PIL import Image

from cogs.ratings import place_text
from tests.discord.helpers import accepted, embed_of, field, living_board, refusal


async def play_and_resign(table, first, second, channel=None):
    channel = channel or table.channel
    await first.slash(channel, "hedgehog new", players=2)
    await second.slash(channel, "hedgehog join")
    await first.slash(channel, "hedgehog start")
    resigned = await second.slash(channel, "game resign")
    assert field(embed_of(resigned), "Result")


async def test_a_finished_game_moves_the_ratings_and_the_leaderboard_shows_them(table):
    alice, bob, carol = table.members[:3]
    nobody = await alice.slash(table.channel, "rating")
    assert refusal(nobody) == "alice has no rated games on this server yet."
    empty = await alice.slash(table.channel, "leaderboard", game="hedgehog")
    assert refusal(empty) == "Nobody has a rating in Der Marsigelwettkampf on this server yet."
    await play_and_resign(table, alice, bob)
    await play_and_resign(table, alice, carol)
    mine = await alice.slash(table.channel, "rating")
    embed = embed_of(mine)
    assert accepted(mine) and embed.title == "alice — rating"
    line = field(embed, "Der Marsigelwettkampf")
    assert "#1 on this server" in line and "2 games, 2 wins" in line
    recent = field(embed, "Recent results").splitlines()
    assert len(recent) == 2 and "1st of 2" in recent[0] and "vs carol" in recent[0] and "(+" in recent[0]
    theirs = await alice.slash(table.channel, "rating", user=bob, game="hedgehog")
    assert "1 game, 0 wins" in field(embed_of(theirs), "Der Marsigelwettkampf")
    assert "2nd of 2" in field(embed_of(theirs), "Recent results")
    board = await carol.slash(table.channel, "leaderboard", game="hedgehog")
    assert accepted(board) and "top 3" in board.response.content
    picture = board.response.attachments[0]
    data = await picture.read()
    assert picture.filename == "leaderboard.png" and data.startswith(b"\x89PNG") and len(data) < 200_000
    width, height = Image.open(io.BytesIO(data)).size
    assert width == 560 and height > 100  # as wide as the boards: read on a phone (docs/boards.md)
    assert picture.description.startswith("Der Marsigelwettkampf leaderboard. Leading: 1. ")  # for screen readers


async def test_an_aborted_game_changes_no_rating(table):
    alice, bob = table.members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog start")
    aborted = await alice.slash(table.channel, "game abort")
    assert "it is unrated" in aborted.response.content
    assert refusal(await bob.slash(table.channel, "rating")) == "bob has no rated games on this server yet."
    await play_and_resign(table, alice, bob)
    before = field(embed_of(await bob.slash(table.channel, "rating")), "Der Marsigelwettkampf")
    await alice.slash(table.channel, "hedgehog new", players=2)
    await bob.slash(table.channel, "hedgehog join")
    await alice.slash(table.channel, "hedgehog start")
    await bob.slash(table.channel, "game abort")  # refused: only the creator or a manager
    await alice.slash(table.channel, "game abort")
    after = field(embed_of(await bob.slash(table.channel, "rating")), "Der Marsigelwettkampf")
    assert before == after and "1 game, 0 wins" in after


async def test_a_player_cannot_abort_a_tournament_match_alone(db_url):
    from datetime import UTC, datetime

    from bot.session.service import Actor, GameService, ServiceError
    from bot.session.store import Store

    store = await Store.open(db_url)
    service = GameService(store, clock=lambda: datetime(2026, 5, 1, tzinfo=UTC), render=False)
    players = [Actor(1, "a"), Actor(2, "b")]
    await service.create_seated_game(guild_id=1, channel_id=7, game="whist", players=players, tournament_id=3)
    try:
        await service.abort(7, Actor(1, "a"))
    except ServiceError as error:
        assert str(error) == "This is a tournament match: ask an organiser to adjudicate it."
    else:
        raise AssertionError("a player aborted a tournament match")
    aborted = await service.abort(7, Actor(9, "organiser", can_manage=True))
    assert aborted.status == "aborted"
    await store.close()


CHANGE = re.compile(r"\d+ → \d+ \([+−]\d+\)$")


async def test_recent_results_of_bigger_tables_are_all_shown_with_their_rating_change(table):
    """``/rating`` shows the last rated results with the rating before and after: at big tables with long
    names each line names a few opponents and counts the others, and no line is cut."""
    alice = table.members[0]
    others = [
        table.guild.add_member(table.env.create_user(f"Bartholomew Quillfeather {n:02d}x"))  # 28 characters
        for n in range(7)
    ]
    games = 4
    for _ in range(games):
        await alice.slash(table.channel, "hedgehog new", players=8, xeno=True)
        for other in others:
            await other.slash(table.channel, "hedgehog join")
        assert accepted(await alice.slash(table.channel, "hedgehog start"))
        for other in others:
            resigned = await other.slash(table.channel, "game resign")
        assert field(embed_of(resigned), "Result")
    shown = field(embed_of(await alice.slash(table.channel, "rating")), "Recent results")
    lines = shown.splitlines()
    assert "4 games, 4 wins" in field(embed_of(await alice.slash(table.channel, "rating")), "Der Marsigelwettkampf")
    assert all(CHANGE.search(line) for line in lines), lines[-1]
    assert len(lines) == games, f"{len(lines)} of {games} results shown"
    assert " and 6 others: " in lines[0]  # one of seven long names, and how many more


async def draw_hedgehog(table, members):
    """A Der Marsigelwettkampf game in which every player rolls and passes: drawn, everyone shares first."""
    opened = await members[0].slash(table.channel, "hedgehog new", players=len(members))
    for member in members[1:]:
        await member.click(opened.response.message, label="Join")
    await members[0].click(opened.response.message, label="Start")
    for member in members:
        await member.click(living_board(table.env, table.channel.id), label="Roll")
        await member.click(living_board(table.env, table.channel.id), label="Pass")
    assert "Draw" in field(living_board(table.env, table.channel.id).embeds[0], "Result")


async def test_a_drawn_game_reads_as_a_shared_place_in_the_recent_results(table):
    # The player reads "Der Marsigelwettkampf **shared 1st of 2** vs bob: 1500 → ..." for a draw, not
    # "**1st of 2**", which reads as a win.
    alice, bob, carol = table.members[:3]
    await draw_hedgehog(table, [alice, bob])
    recent = field(embed_of(await alice.slash(table.channel, "rating")), "Recent results")
    assert "**shared 1st of 2** vs bob" in recent, recent
    await draw_hedgehog(table, [alice, bob, carol])
    recent = field(embed_of(await carol.slash(table.channel, "rating", game="hedgehog")), "Recent results")
    assert "**shared 1st of 3** vs alice, bob" in recent, recent
    await play_and_resign(table, alice, bob)  # a place nobody shares stays plain
    assert "**1st of 2** vs bob" in field(embed_of(await alice.slash(table.channel, "rating")), "Recent results")


def test_a_shared_place_below_first_reads_shared_too():
    # a tie for second at a table of four reads "shared 2nd of 4"; an unshared place is "3rd of 4"
    assert place_text(2, 4, shared=True) == "shared 2nd of 4"
    assert place_text(3, 4) == "3rd of 4"
    assert place_text(11, 12, shared=True) == "shared 11th of 12"
