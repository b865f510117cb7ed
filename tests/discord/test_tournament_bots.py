"""Tournaments with computer players (``bots:True``), played in Discord.

A Swiss of three players gives one player a game against a hard bot each round instead of a bye; a
table Swiss of five players of Martian Combat seats one person with two hard bots.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta

import pytest

from bot.session import Actor, ServiceError
from tests.discord.helpers import accepted, button_labels, embed_of, field, living_board, refusal
from tests.discord.test_tournament import announcements, round_threads, thread_players

QUICK = {"ai_workers": 0, "ai_max_iterations": 20, "scheduler_interval_seconds": 3600}
MENTION = re.compile(r"<@!?(\d+)>")


async def started(table, club, make_bot, *, game, fmt, size, rounds=None, variant=None):
    """A tournament with bots of ``size`` players, started, with the clock check an hour away (so that
    only the bot's own wake-ups make it move); (organiser, players)."""
    await table.env.restart_bot(make_bot(**QUICK))
    olga, members = club
    players = members[:size]
    options = {"rounds": rounds} if rounds else {}
    if variant:
        options["variant"] = variant
    created = await olga.slash(
        table.channel, "tournament create", name="Bot Cup", game=game, format=fmt, bots=True, **options
    )
    assert accepted(created), created.response.content
    for member in players:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    await table.env.bot.autoplay.wait()
    return olga, players


async def bot_swiss(table, club, make_bot, rounds=None):
    """A three-player Swiss of short Martian Whist with bots."""
    return await started(table, club, make_bot, game="whist", fmt="swiss", size=3, rounds=rounds, variant="short")


async def bot_tables(table, club, make_bot):
    """A five-player table Swiss of Martian Combat with bots, over two rounds."""
    return await started(table, club, make_bot, game="combat", fmt="tables", size=5, rounds=2)


def with_bots(table, members, number):
    """The thread of round ``number`` where one person plays computer players; (thread, person)."""
    for thread in round_threads(table, number):
        seated = thread_players(thread, members)
        if len(seated) == 1:
            return thread, seated[0]
    raise AssertionError(f"no game against a bot in round {number}")


def to_move(board):
    """The member id named to act on a board, or the bot's name."""
    embed = board.embeds[0]
    for kind in ("roll", "move"):
        value = field(embed, f"To {kind}")
        if value:
            found = MENTION.search(value)
            return int(found.group(1)) if found else value
    return None


async def resign_others(table, members, number):
    """At every two-person match of round ``number``, one of them resigns."""
    for thread in round_threads(table, number):
        seated = thread_players(thread, members)
        if len(seated) == 2:
            assert accepted(await seated[0].slash(thread, "game resign"))


async def test_a_bot_that_moves_first_in_its_match_plays_at_once(table, club, make_bot):
    """The opening board hands the turn to the bot at once, not at the next clock check."""
    _olga, players = await bot_swiss(table, club, make_bot)
    service = table.env.bot.service
    bot_first = 0
    for number in (1, 2):
        thread, person = with_bots(table, players, number)
        await table.env.bot.autoplay.wait()
        game = await service.latest_game(thread.id)
        _, log = await service.history(thread.id)
        bot_seat = next(s.seat for s in game.seats if s.is_bot)
        if (log and log[0].seat == bot_seat) or (game.turn_seat == bot_seat and not log):
            bot_first += 1
            assert to_move(living_board(table.env, thread.id)) == person.id, (
                f"round {number}: the match opened with the bot to move and it has not moved"
            )
        assert accepted(await person.slash(thread, "game resign"))
        await resign_others(table, players, number)
    assert bot_first, "no match of this run opened on the bot's turn"


async def test_the_board_of_a_tournament_game_against_a_bot_is_not_called_practice(table, club, make_bot):
    _olga, players = await bot_swiss(table, club, make_bot)
    thread, _person = with_bots(table, players, 1)
    embed = living_board(table.env, thread.id).embeds[0]
    footer = embed.footer.text
    assert "tournament game" in footer and "unrated" in footer
    assert "practice" not in footer, footer  # it scores for the tournament
    assert "practice" not in embed.title, embed.title


async def test_a_player_alone_with_the_bot_cannot_take_moves_back_in_a_tournament_game(table, club, make_bot):
    """Nobody else could agree: a lone undo in a scored game is refused, and the game stays as it was."""
    _olga, players = await bot_swiss(table, club, make_bot)
    thread, person = with_bots(table, players, 1)
    service = table.env.bot.service
    rng = random.Random(3)
    for _ in range(6):
        await table.env.bot.autoplay.wait()
        assert to_move(living_board(table.env, thread.id)) == person.id
        choices = await person.autocomplete(thread, "whist move", "notation", "")
        assert accepted(await person.slash(thread, "whist move", notation=rng.choice(choices)["value"]))
    await table.env.bot.autoplay.wait()
    before = await service.latest_game(thread.id)
    undo = await person.slash(thread, "game undo")
    assert refusal(undo) and "another player agrees" in undo.response.content
    assert (await service.latest_game(thread.id)).ply == before.ply


async def test_a_finished_match_offers_no_rematch_in_its_thread(table, club, make_bot):
    _olga, players = await bot_swiss(table, club, make_bot)
    thread, person = with_bots(table, players, 1)
    assert accepted(await person.slash(thread, "game resign"))
    service = table.env.bot.service
    game = await service.latest_game(thread.id)
    assert game.tournament_id is not None and game.status == "finished"
    for message in thread.history():
        assert "Rematch" not in button_labels(message)
    with pytest.raises(ServiceError, match="no rematch"):  # nor through the service (an old button)
        await service.rematch(game, Actor(person.id, person.name))


async def test_the_export_says_byes_were_played_against_computer_players(table, club, make_bot):
    olga, _players = await bot_swiss(table, club, make_bot, rounds=1)
    exported = await olga.slash(table.channel, "tournament export")
    data = json.loads(await exported.response.attachments[0].read())
    listed = {p["user_id"] for p in data["players"]}
    strangers = {p for r in data["rounds"] for m in r["matches"] for p in m["players"]} - listed
    assert strangers == {"-1"}  # a computer player: ids below 0
    assert data["tournament"]["bots"] is True
    assert data["format_version"] == 3  # since 2, a standings row's "games" counts a game against a bot


async def test_a_game_against_the_bot_counts_in_the_standings_games(table, club, make_bot):
    olga, players = await bot_swiss(table, club, make_bot, rounds=1)
    thread, person = with_bots(table, players, 1)
    assert accepted(await person.slash(thread, "game resign"))  # lost to the bot
    await resign_others(table, players, 1)
    exported = await olga.slash(table.channel, "tournament export")
    rows = {row["user_id"]: row for row in json.loads(await exported.response.attachments[0].read())["standings"]}
    mine = rows[str(person.id)]
    assert (mine["games"], mine["byes"], mine["wins"], mine["losses"], mine["points"]) == (1, 1, 0, 0, 0)
    assert all(row["games"] == 1 for row in rows.values())  # everyone played one game


async def test_after_a_restart_the_bot_of_a_match_plays_and_the_tournament_ends(table, club, make_bot):
    _olga, players = await bot_swiss(table, club, make_bot)
    thread, person = with_bots(table, players, 1)
    await resign_others(table, players, 1)
    assert accepted(await person.slash(thread, "game resign"))
    await table.env.bot.autoplay.wait()
    thread, person = with_bots(table, players, 2)
    service = table.env.bot.service
    before = await service.latest_game(thread.id)
    await table.env.restart_bot(make_bot(offset=timedelta(minutes=5), **QUICK))
    await table.env.bot.autoplay.wait()
    game = await table.env.bot.service.latest_game(thread.id)
    assert game.bot_at(game.turn_seat) is None, "the bot did not act after the restart"
    assert game.ply >= before.ply
    assert to_move(living_board(table.env, thread.id)) == person.id
    assert accepted(await person.slash(thread, "game resign"))
    await resign_others(table, players, 2)
    (over,) = announcements(table, "Bot Cup** is over. Winner:")
    assert "Hard bot" not in over.content
    status = await person.slash(table.channel, "tournament status")
    assert "finished" in embed_of(status).description


async def test_when_the_only_person_at_a_bots_table_drops_the_table_ends_at_once_with_their_place(
    table, club, make_bot
):
    """The drop's resignation is shown on the board at once; with nobody left to play against, the bots
    do not play on for places no standings use: the person's place is settled (last, having left), the
    bots share first, and the match counts at once."""
    _olga, players = await bot_tables(table, club, make_bot)
    thread, person = with_bots(table, players, 1)
    service = table.env.bot.service
    before = await service.latest_game(thread.id)
    dropped = await person.slash(table.channel, "tournament drop")
    assert dropped.response.content == f"{person.name} withdraws from Bot Cup."
    await table.env.bot.autoplay.wait()
    game = await service.latest_game(thread.id)
    assert game.status == "finished"
    assert game.ply == before.ply + 1, "the bots played on after the last person left"
    mine = game.seat_of(person.id)
    assert game.outcome["ranks"] == [3 if seat.seat == mine else 1 for seat in game.seats]
    assert any(m.content == f"{person.name} withdrew from Bot Cup." for m in thread.history())
    board = next(m for m in reversed(thread.history()) if m.embeds and field(m.embeds[0], "Result"))
    result = field(board.embeds[0], "Result") or ""
    assert result.startswith("**Hard bot and Hard bot 2 share first place.**"), result
    assert "Every person has left the table, so the game ends here" in result
    assert button_labels(board) == []
    assert board.embeds[0].image.url is None  # its last position would still name a bot to move
    assert "the game is over" not in (board.content or ""), board.content  # nobody is left to call
    again = embed_of(await person.slash(thread, "game board"))  # asked for later: the same, no one to move
    assert "to move" not in (again.description or "") and "Every person has left" in (again.description or "")
    assert again.image.url is None
    records = table.env.bot.get_cog("TournamentCommands").tournaments.records
    (match,) = [m for m in await records.matches(game.tournament_id, 1) if m.game_id == game.id]
    assert match.status == "finished"
    assert {player: rank for player, rank in zip(match.players, match.ranks or (), strict=True)} == {
        player: 3 if player == person.id else 1 for player in match.players
    }


async def test_a_table_its_people_left_while_its_bots_played_on_ends_at_the_next_check(table, club, make_bot):
    """Before a table ended with its last person, the bots played such a table out; one still running
    when the bot is upgraded would never end (its bots no longer play alone), so the tournament's
    periodic check ends it with its places and counts the match."""
    _olga, players = await bot_tables(table, club, make_bot)
    thread, person = with_bots(table, players, 1)
    service = table.env.bot.service
    game = await service.latest_game(thread.id)
    # as an older version left it: the person's seat is out of the game, the game still runs
    await service.store.update_seat(game, game.seat_of(person.id), service.clock(), removed=1)
    cog = table.env.bot.get_cog("TournamentCommands")
    await cog.tournaments.tick()
    await table.env.settle()
    ended = await service.latest_game(thread.id)
    assert ended.status == "finished" and ended.ply == game.ply
    assert ended.outcome["ranks"] == [3 if seat.seat == game.seat_of(person.id) else 1 for seat in ended.seats]
    (match,) = [m for m in await cog.tournaments.records.matches(game.tournament_id, 1) if m.game_id == game.id]
    assert match.status == "finished"
    assert await table.env.bot.get_cog("Announcer").flush() == 1  # the clock check tells the table
    result = field(living_board_or_last(thread).embeds[0], "Result") or ""
    assert result.startswith("**Hard bot and Hard bot 2 share first place.**"), result


def living_board_or_last(thread):
    """The newest message of ``thread`` that shows a game's board or result."""
    return next(m for m in reversed(thread.history()) if m.embeds and field(m.embeds[0], "Result"))


async def test_a_table_adjudicated_while_it_plays_leaves_no_live_board_behind(table, club, make_bot):
    """The stopped game's board keeps no controls and names nobody to move; it says it ended."""
    olga, players = await bot_tables(table, club, make_bot)
    thread, person = with_bots(table, players, 1)
    done = await olga.slash(table.channel, "tournament adjudicate", player=person, result="1 2 3")
    assert accepted(done), done.response.content
    await table.env.bot.autoplay.wait()
    game = await table.env.bot.service.latest_game(thread.id)
    assert game.status == "aborted"
    assert living_board(table.env, thread.id) is None
    for message in thread.history():
        assert button_labels(message) == []
        assert not message.embeds or not any(field(message.embeds[0], name) for name in ("To move", "To roll"))
    assert any("ended without a result" in (m.embeds[0].footer.text or "") for m in thread.history() if m.embeds)
