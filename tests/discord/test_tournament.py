"""Tournaments end to end through SimCord: slash commands, match threads, automatic results, restarts.

Players end their games quickly with ``/game resign`` in their match thread; the bot records each
result from the game service and opens the next round by itself.
"""

from __future__ import annotations

import json
import random
import re
from datetime import timedelta
from types import SimpleNamespace

import discord

from cogs.tournament._host import DiscordHost
from tests.discord.helpers import accepted, embed_of, field, refusal

THREAD = re.compile(r"<#(\d+)>")
USER = re.compile(r"<@!?(\d+)>")
HOUR = 3600


def announcements(table, needle: str) -> list[discord.Message]:
    return [m for m in table.channel.history() if needle in (m.content or "")]


def round_threads(table, number: int) -> list:
    """The match threads listed in the announcement of round ``number``."""
    posts = [m for m in table.channel.history() if re.search(rf"\(?round {number}( of \d+)?\**\)?", m.content or "")]
    assert len(posts) == 1, [m.content for m in posts]
    ids = [int(i) for i in THREAD.findall(posts[0].content)]
    handles = {t.id: t for t in table.channel.threads}
    return [handles[i] for i in ids]


def thread_players(thread, members) -> list:
    """The members greeted in a match thread's first message."""
    intro = thread.history()[0].content
    ids = [int(i) for i in USER.findall(intro.split("\n")[0])]
    return [next(m for m in members if m.id == i) for i in ids]


async def play_round(table, members, number: int, rng: random.Random) -> list[tuple]:
    """Everyone but one player at each table of the round resigns; returns (winner, thread) pairs."""
    out = []
    for thread in round_threads(table, number):
        seated = thread_players(thread, members)
        rng.shuffle(seated)
        result = None
        for loser in seated[:-1]:
            result = await loser.slash(thread, "game resign")
            assert accepted(result), result.response.content
        assert field(embed_of(result), "Result")
        out.append((seated[-1], thread))
    return out


async def create(olga, table, **options):
    result = await olga.slash(table.channel, "tournament create", **options)
    assert accepted(result), result.response.content
    return result


async def test_an_eight_player_swiss_of_martian_whist_is_played_to_the_end(table, club):
    olga, members = club
    players = members[:8]
    created = await create(olga, table, name="Spring Swiss", game="whist", format="swiss", variant="short", clock=1)
    assert embed_of(created).title == "Spring Swiss (#1)"
    for member in players:
        joined = await member.slash(table.channel, "tournament join")
        assert accepted(joined) and "joins Spring Swiss" in joined.response.content
    started = await olga.slash(table.channel, "tournament start")
    assert "has started" in started.response.content
    rng = random.Random(8)
    met = set()
    for number in (1, 2, 3):
        threads = round_threads(table, number)
        assert len(threads) == 4
        seated = [p for thread in threads for p in thread_players(thread, members)]
        assert sorted(p.id for p in seated) == sorted(p.id for p in players)  # everybody, once
        for thread in threads:
            pair = frozenset(p.id for p in thread_players(thread, members))
            assert pair not in met  # no rematch
            met.add(pair)
            greeting, opening = thread.history()[:2]  # the greeting stays when the board's turn is over
            assert not greeting.embeds and greeting.content.count("<@") == 2
            assert opening.embeds and "Martian Whist" in opening.embeds[0].title
            assert "per move" in greeting.content or field(opening.embeds[0], "Deadline")
        if number == 2:
            status = await members[0].slash(table.channel, "tournament status")
            assert field(embed_of(status), "Round 2").count("playing") == 4
        await play_round(table, members, number, rng)
    final = announcements(table, "is over. Winner:")
    assert len(final) == 1 and final[0].attachments[0].filename == "standings.png"
    assert (await final[0].attachments[0].read()).startswith(b"\x89PNG")
    standings = await members[3].slash(table.channel, "tournament standings")
    image = standings.response.attachments[0]
    assert image.filename == "standings.png" and (await image.read()).startswith(b"\x89PNG")
    assert " Leading: 1. " in image.description  # the picture in words, for screen readers
    exported = await members[3].slash(table.channel, "tournament export")
    data = json.loads(await exported.response.attachments[0].read())
    assert data["tournament"]["status"] == "finished" and data["tournament"]["options"]["variant"] == "short"
    assert [len(r["matches"]) for r in data["rounds"]] == [4, 4, 4]
    assert all(
        m["status"] == "finished" and m["ranks"] in ([1, 2], [2, 1]) for r in data["rounds"] for m in r["matches"]
    )
    assert sum(row["points"] for row in data["standings"]) == 12
    assert data["standings"][0]["place"] == 1 and data["standings"][0]["points"] == 3  # someone won every game
    # the games were rated: the winner has three whist games on the leaderboard
    winner = next(m for m in members if str(m.id) == data["standings"][0]["user_id"])
    rating = await members[0].slash(table.channel, "rating", user=winner, game="whist")
    assert "3 games, 3 wins" in embed_of(rating).fields[0].value


async def test_a_six_player_single_elimination_is_played_to_the_end(table, club):
    olga, members = club
    players = members[:6]
    await create(olga, table, name="Knockout", game="hedgehog", format="elimination", clock=2)
    for member in players:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    first = announcements(table, "round 1 of 3")
    assert len(first) == 1 and first[0].content.count("Bye:") == 2  # the top two seeds
    rng = random.Random(6)
    for number, matches in ((1, 2), (2, 2), (3, 1)):
        assert len(round_threads(table, number)) == matches
        winners = await play_round(table, members, number, rng)
    champion = winners[0][0]
    final = announcements(table, "is over. Champion:")
    assert len(final) == 1 and final[0].content == f"**Knockout** is over. Champion: **{champion.name}**!"
    assert final[0].attachments[0].filename == "bracket.png"  # named as /tournament standings names it
    bracket = await olga.slash(table.channel, "tournament standings")
    assert bracket.response.attachments[0].filename == "bracket.png"
    exported = await olga.slash(table.channel, "tournament export")
    data = json.loads(await exported.response.attachments[0].read())
    assert data["bracket"]["champion"] == str(champion.id)
    assert sorted(data["bracket"]["places"].values()) == [1, 2, 3, 3, 5, 5]


async def test_a_restart_between_rounds_continues_the_tournament(table, club, make_bot):
    olga, members = club
    players = members[:4]
    await create(olga, table, name="Restart Cup", game="hedgehog", format="swiss", rounds=2, clock=3)
    for member in players:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    rng = random.Random(4)
    await play_round(table, members, 1, rng)
    second = round_threads(table, 2)
    await table.env.restart_bot(make_bot(offset=timedelta(hours=2)))
    assert len(announcements(table, "round 2 of 2")) == 1  # the catch-up at start-up paired nothing twice
    assert len(table.channel.threads) == 4
    assert [t.id for t in round_threads(table, 2)] == [t.id for t in second]
    await play_round(table, members, 2, rng)
    assert len(announcements(table, "is over. Winner:")) == 1
    status = await olga.slash(table.channel, "tournament status")
    assert "finished" in embed_of(status).description


async def test_refusals_are_one_ephemeral_sentence(table, club):
    olga, members = club
    alice, bob, carol = members[:3]
    assert refusal(await alice.slash(table.channel, "tournament create", name="x", game="whist", format="swiss")) == (
        "Only members with Manage Server or the tournament role can create a tournament."
    )
    assert refusal(await olga.slash(table.channel, "tournament create", name="x", game="whist", format="tables")) == (
        "Martian Whist is a two-player game: use swiss, round robin or single elimination, not table swiss."
    )
    assert refusal(await alice.slash(table.channel, "tournament join")) == (
        "There is no tournament on this server right now."
    )
    await create(olga, table, name="Small", game="whist", format="swiss", max_players=2)
    await alice.slash(table.channel, "tournament join")
    assert refusal(await alice.slash(table.channel, "tournament join")) == "You are already registered for Small."
    await bob.slash(table.channel, "tournament join")
    assert refusal(await carol.slash(table.channel, "tournament join")) == "Small is full (2 players)."
    assert refusal(await carol.slash(table.channel, "tournament leave")) == "You are not registered for Small."
    assert refusal(await carol.slash(table.channel, "tournament checkin")) == (
        "Small has no check-in; use /tournament join to register."
    )
    assert refusal(await alice.slash(table.channel, "tournament start")) == (
        "Only members with Manage Server or the tournament role can start a tournament."
    )
    assert refusal(await alice.slash(table.channel, "tournament standings")) == (
        "Small has not started: there are no standings yet."
    )
    await olga.slash(table.channel, "tournament start")
    assert refusal(await carol.slash(table.channel, "tournament join")) == "Registration for Small is closed."
    assert refusal(await carol.slash(table.channel, "tournament drop")) == "You are not playing in Small."
    assert refusal(await alice.slash(table.channel, "tournament adjudicate", player=bob, result="win")) == (
        "Only members with Manage Server or the tournament role can set results."
    )
    assert refusal(await olga.slash(table.channel, "tournament adjudicate", player=bob, result="maybe")) == (
        "Give the result as win, loss or draw for that player, or double forfeit."
    )
    assert refusal(await olga.slash(table.channel, "tournament kick", player=carol)) == (
        "That member is not registered for Small."
    )
    choices = await olga.autocomplete(table.channel, "tournament status", "tournament", "")
    assert [c["value"] for c in choices] == [1]
    # the organiser settles the only match: the tournament is over
    done = await olga.slash(table.channel, "tournament adjudicate", player=bob, result="win")
    assert "Result set by olga" in done.response.content and "**bob** wins" in done.response.content
    assert announcements(table, "is over. Winner: **bob**")
    assert refusal(await olga.slash(table.channel, "tournament cancel")) == (
        "There is no tournament on this server right now."
    )


async def test_the_tournament_role_setting_lets_referees_run_tournaments(table, make_bot):
    await table.env.restart_bot(make_bot(tournament_role="Referees"))
    referee_role = table.guild.create_role("Referees")
    referee = table.guild.add_member(table.env.create_user("rita"), roles=[referee_role])
    created = await referee.slash(table.channel, "tournament create", name="Ref Cup", game="hedgehog", format="swiss")
    assert accepted(created)
    player = table.members[0]
    assert refusal(await player.slash(table.channel, "tournament cancel")).startswith("Only members with Manage Server")
    cancelled = await referee.slash(table.channel, "tournament cancel")
    assert "was cancelled by rita" in cancelled.response.content


async def test_check_in_before_a_start_time_then_the_tournament_starts_by_itself(table, club):
    olga, members = club
    alice, bob, carol = members[:3]
    await create(olga, table, name="Evening Cup", game="hedgehog", format="swiss", start="2h", checkin=60)
    for member in (alice, bob, carol):
        await member.slash(table.channel, "tournament join")
    too_early = await alice.slash(table.channel, "tournament checkin")
    assert refusal(too_early).startswith("Check-in for Evening Cup opens <t:")
    await table.env.advance_time(1.5 * HOUR)
    opened = announcements(table, "check-in is open")
    assert len(opened) == 1
    for member in (alice, bob):
        done = await member.slash(table.channel, "tournament checkin")
        assert "is checked in for Evening Cup" in done.response.content
    await table.env.advance_time(1.6 * HOUR)
    begun = announcements(table, "Evening Cup** begins")
    assert len(begun) == 1 and "Not checked in, left out: carol" in begun[0].content
    assert len(round_threads(table, 1)) == 1


async def test_a_match_greeting_discord_refused_is_posted_at_the_next_minute(table, club, monkeypatch):
    olga, members = club
    alice, bob = members[:2]
    await create(olga, table, name="Quiet Cup", game="hedgehog", format="swiss", rounds=1)
    for member in (alice, bob):
        await member.slash(table.channel, "tournament join")
    greet = DiscordHost.greet_match

    async def refused_once(host, *args):
        monkeypatch.setattr(DiscordHost, "greet_match", greet)
        raise discord.HTTPException(SimpleNamespace(status=503, reason="Service Unavailable"), "unavailable")

    monkeypatch.setattr(DiscordHost, "greet_match", refused_once)
    started = await olga.slash(table.channel, "tournament start")
    assert "has started" in started.response.content, started.response.content
    (thread,) = round_threads(table, 1)
    assert not any("Quiet Cup" in (m.content or "") for m in thread.history())  # the greeting was refused
    await table.env.advance_time(HOUR + 30)  # the tests' bot checks hourly (a minute in service)
    greetings = [m for m in thread.history() if "Quiet Cup" in (m.content or "")]
    assert len(greetings) == 1 and {p.id for p in thread_players_of(greetings[0], members)} == {alice.id, bob.id}
    await table.env.advance_time(HOUR)
    assert len([m for m in thread.history() if "Quiet Cup" in (m.content or "")]) == 1  # posted once


def thread_players_of(message, members) -> list:
    """The members a message pings."""
    ids = {int(i) for i in USER.findall(message.content)}
    return [m for m in members if m.id in ids]


async def test_the_round_deadline_times_out_a_game_nobody_plays(table, club):
    olga, members = club
    alice, bob = members[:2]
    await create(olga, table, name="Deadline Cup", game="hedgehog", format="swiss", rounds=1, clock=0, round_days=1)
    for member in (alice, bob):
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    (thread,) = round_threads(table, 1)
    await table.env.advance_time(12 * HOUR)
    assert not announcements(table, "is over")
    await table.env.advance_time(14 * HOUR)
    assert any(
        "ran out of time and loses on time" in (m.embeds[0].description or "") for m in thread.history() if m.embeds
    )
    assert len(announcements(table, "Deadline Cup** is over. Winner:")) == 1


async def test_a_join_button_under_the_announcement_registers_the_member(table, club):
    olga, members = club
    created = await create(olga, table, name="Button Cup", game="whist", format="roundrobin")
    joined = await members[0].click(created.response.message, label="Join")
    assert "joins Button Cup (1 player)" in joined.response.content
    again = await members[0].click(created.response.message, label="Join")
    assert refusal(again) == "You are already registered for Button Cup."
    second = await members[1].slash(table.channel, "tournament join")
    assert "joins Button Cup (2 players)" in second.response.content
    # a second live tournament: commands without the option must be told which one
    variants = await olga.autocomplete(table.channel, "tournament create", "variant", "", game="whist")
    assert [c["value"] for c in variants] == ["normal", "short"]
    await create(olga, table, name="Other Cup", game="whist", format="swiss", variant="short")
    listing = await members[2].slash(table.channel, "tournament status")
    lines = embed_of(listing).description.splitlines()
    assert len(lines) == 2 and "Button Cup" in lines[1] and "Other Cup" in lines[0]
    assert refusal(await members[2].slash(table.channel, "tournament join")) == (
        "Several tournaments are on here: choose one with the tournament option."
    )
    picked = await members[2].slash(table.channel, "tournament join", tournament=1)
    assert "joins Button Cup (3 players)" in picked.response.content


async def test_a_tournament_hosted_in_a_thread_opens_its_matches_in_the_threads_channel(table, club):
    olga, members = club
    alice, bob = members[:2]
    await alice.slash(table.channel, "hedgehog new", players=2, thread=True)
    (hall,) = table.channel.threads
    created = await olga.slash(hall, "tournament create", name="Hall Cup", game="whist", format="swiss")
    assert accepted(created) and any("created **Hall Cup**" in (m.content or "") for m in hall.history())
    for member in (alice, bob):
        await member.slash(hall, "tournament join")
    await olga.slash(hall, "tournament start")
    pairing = [m for m in hall.history() if "Hall Cup — round 1 of 1" in (m.content or "")]
    assert len(pairing) == 1
    (match_thread,) = [t for t in table.channel.threads if t.id != hall.id]
    assert f"<#{match_thread.id}>" in pairing[0].content


async def test_a_start_time_with_too_few_players_cancels_the_tournament_in_its_channel(table, club):
    olga, members = club
    await create(olga, table, name="Lonely", game="whist", format="swiss", start="1h")
    await members[0].slash(table.channel, "tournament join")
    await table.env.advance_time(1.5 * HOUR)
    (cancelled,) = announcements(table, "is cancelled")
    assert cancelled.content == "**Lonely** is cancelled: Lonely needs at least 2 players to start; 1 registered."
    status = await members[0].slash(table.channel, "tournament status")
    assert "cancelled" in embed_of(status).description


async def test_match_threads_are_told_of_withdrawals_results_aborted_games_and_the_cancellation(table, club):
    olga, members = club
    players = members[:6]
    await create(olga, table, name="Busy Cup", game="hedgehog", format="swiss", rounds=2)
    for member in players:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    threads = round_threads(table, 1)
    seated = [thread_players(thread, members) for thread in threads]
    quitter, kicked, judged = seated[0][0], seated[1][0], seated[2][0]
    dropped = await quitter.slash(table.channel, "tournament drop")
    assert dropped.response.content == f"{quitter.name} withdraws from Busy Cup."
    assert any(m.content == f"{quitter.name} withdrew from Busy Cup." for m in threads[0].history())
    removed = await olga.slash(table.channel, "tournament kick", player=kicked)
    assert removed.response.content == f"{kicked.name} was removed from Busy Cup by olga."
    assert any(m.content == f"{kicked.name} was removed from Busy Cup." for m in threads[1].history())
    other = seated[2][1]
    done = await olga.slash(table.channel, "tournament adjudicate", player=judged, result="win")
    pair = f"**{judged.name}** vs **{other.name}**"
    line = f"Table 3: {pair} — **{judged.name}** wins (set by an organiser) <#{threads[2].id}>"
    assert done.response.content == "Result set by olga: " + line
    assert any(m.content == "An organiser set the result: " + line for m in threads[2].history())
    # round 2: one game is aborted, which the channel is told once; then the tournament is cancelled
    first, second = round_threads(table, 2)
    aborted = await olga.slash(first, "game abort")
    assert not aborted.ephemeral, aborted.response.content
    await table.env.advance_time(HOUR)
    await table.env.advance_time(HOUR)
    names = " vs ".join(p.name for p in thread_players(first, members))
    flagged = announcements(table, "was aborted without a result")
    assert [m.content for m in flagged] == [
        f"The game of {names} (round 2) was aborted without a result: an organiser must set it with "
        "`/tournament adjudicate`."
    ]
    cancelled = await olga.slash(table.channel, "tournament cancel")
    assert cancelled.response.content == "Busy Cup was cancelled by olga; its running games are stopped."
    assert any(m.content == "Busy Cup was cancelled; this game is stopped." for m in second.history())
    assert not any("this game is stopped" in (m.content or "") for m in first.history())


async def test_a_match_seat_stays_with_its_player_and_the_result_is_recorded(table, club):
    olga, members = club
    alice, bob = members[:2]
    await create(olga, table, name="Duel", game="whist", format="roundrobin", variant="short", clock=1)
    for member in (alice, bob):
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    (thread,) = round_threads(table, 1)
    asked = await bob.slash(thread, "game bot", player=str(bob.id), level="hard")
    assert refusal(asked) == (
        "A tournament match's seat cannot go to a computer player: a player withdraws with /tournament drop, "
        "and an organiser can use /tournament kick or /tournament adjudicate."
    )
    game = await table.env.bot.service.latest_game(thread.id)
    assert game is not None and not game.has_bots and game.rated
    assert accepted(await alice.slash(thread, "game resign"))
    assert announcements(table, "Duel** is over. Winner: **bob**")


async def test_an_organiser_settles_and_removes_a_player_who_left_the_server(table, club):
    olga, members = club
    players = members[:4]
    await create(olga, table, name="Cup", game="whist", format="swiss", variant="short", clock=1, rounds=2)
    for member in players:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    gone_thread, other_thread = round_threads(table, 1)
    gone, opponent = thread_players(gone_thread, members)
    table.guild.remove_member(gone)
    await table.env.settle()
    judged = await olga.slash(table.channel, "tournament adjudicate", player=gone.user, result="loss")
    assert accepted(judged), refusal(judged)
    assert f"**{opponent.name}** wins (set by an organiser)" in judged.response.content
    removed = await olga.slash(table.channel, "tournament kick", player=gone.user)
    assert removed.response.content == f"{gone.name} was removed from Cup by olga."
    loser = thread_players(other_thread, members)[0]
    assert accepted(await loser.slash(other_thread, "game resign"))
    paired = [p for thread in round_threads(table, 2) for p in thread_players(thread, members)]
    assert len(paired) == 2 and gone not in paired  # three players left: two play, one has the bye


def live_buttons(table, message_id: int) -> list[str]:
    """The labels of the buttons still pressable under a message of the channel, as Discord holds it now."""
    raw = table.env.backend.messages[table.channel.id][message_id]
    rows = [row if isinstance(row, dict) else row.to_dict() for row in raw.components or []]
    return [c.get("label") for row in rows for c in row["components"] if not c.get("disabled")]


def public_since(table, before: int) -> list[str]:
    return [m.content for m in table.channel.history()[before:] if not m.flags.ephemeral]


async def test_the_card_and_the_check_in_call_carry_the_buttons_registration_has_and_lose_them_at_the_start(
    table, club
):
    olga, members = club
    created = await create(olga, table, name="Window Cup", game="hedgehog", format="swiss", checkin=30)
    card = created.response.message.id
    assert live_buttons(table, card) == ["Join"]
    for member in members[:3]:
        await member.slash(table.channel, "tournament join")
    before = len(table.channel.history())
    opened = await olga.slash(table.channel, "tournament start")
    assert opened.ephemeral and opened.response.content.startswith("Check-in for Window Cup is open")
    (call,) = [m for m in table.channel.history()[before:] if not m.flags.ephemeral]  # one public message
    assert "check-in is open" in call.content
    assert live_buttons(table, call.id) == ["Join", "Check in"]
    assert live_buttons(table, card) == ["Join", "Check in"]
    for member in members[:2]:
        await member.click(call, label="Check in")
    await table.env.advance_time(HOUR + 60)  # the window closed: the tournament began with the two
    assert len(round_threads(table, 1)) == 1
    assert live_buttons(table, call.id) == [] and live_buttons(table, card) == []
    late = await members[2].slash(table.channel, "tournament checkin")
    assert refusal(late) == "Check-in for Window Cup is closed."


async def test_a_start_is_told_to_the_channel_once_and_a_cancel_takes_the_buttons_off(table, club):
    olga, members = club
    created = await create(olga, table, name="Start Cup", game="hedgehog", format="swiss", rounds=1)
    for member in members[:2]:
        await member.slash(table.channel, "tournament join")
    before = len(table.channel.history())
    started = await olga.slash(table.channel, "tournament start")
    assert started.ephemeral and "has started" in started.response.content
    assert [text for text in public_since(table, before) if "begins" in text or "has started" in text] == [
        next(text for text in public_since(table, before) if "**Start Cup** begins" in text)
    ]
    assert live_buttons(table, created.response.message.id) == []
    other = await create(olga, table, name="Cancelled Cup", game="hedgehog", format="swiss", rounds=1)
    assert live_buttons(table, other.response.message.id) == ["Join"]
    await olga.slash(table.channel, "tournament cancel", tournament=2)
    assert live_buttons(table, other.response.message.id) == []


async def test_a_status_shown_during_registration_loses_its_join_at_the_start_too(table, club):
    olga, members = club
    await create(olga, table, name="Status Cup", game="hedgehog", format="swiss", rounds=1)
    status = await members[0].slash(table.channel, "tournament status")
    assert not status.ephemeral and live_buttons(table, status.response.message.id) == ["Join"]
    for member in members[:2]:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    assert live_buttons(table, status.response.message.id) == []


async def test_check_in_pressed_twice_at_the_same_instant_checks_in_once_and_says_so_once(table, club):
    """A double click on Check in is one check-in: the channel is told once, and the second press is
    told privately that the player is already checked in."""
    from tests.discord.helpers import custom_id, press_at_once

    olga, members = club
    alice = members[0]
    await create(olga, table, name="Window Cup", game="hedgehog", format="swiss", checkin=30)
    for member in members[:3]:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    (call,) = announcements(table, "check-in is open")
    press = (alice, call, custom_id(call, "Check in"))
    answers = await press_at_once(table.env, table.guild.id, [press, press])
    told = [m for m in announcements(table, "alice is checked in") if not m.flags.ephemeral]
    assert len(told) == 1
    assert [a.response.content for a in answers if a.ephemeral] == ["You are already checked in for Window Cup."]


async def test_a_drop_sent_twice_at_the_same_instant_withdraws_once_and_says_so_once(table, club):
    """Two `/tournament drop` at once (a double submit) withdraw the player once: the channel is told
    once, and the second is told privately that they have already left."""
    from tests.discord.helpers import slash_at_once

    olga, members = club
    await create(olga, table, name="Drop Cup", game="hedgehog", format="swiss", rounds=2)
    for member in members[:4]:
        await member.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    alice = members[0]
    sends = [(alice, "tournament drop"), (alice, "tournament drop")]
    answers = await slash_at_once(table.env, table.guild.id, table.channel.id, sends)
    told = [m for m in announcements(table, "alice withdraws") if not m.flags.ephemeral]
    assert len(told) == 1
    assert [a.response.content for a in answers if a.ephemeral] == ["You have already left Drop Cup."]


async def test_the_check_in_call_pings_the_registered_players(table, club):
    olga, members = club
    players = members[:3]
    await create(olga, table, name="Ping Cup", game="whist", format="swiss", variant="short", checkin=30)
    for player in players:
        await player.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")  # opens the window
    (call,) = announcements(table, "check-in is open")
    raw = table.env.backend.messages[table.channel.id][call.id]
    assert set(raw.ping_user_ids) == {p.id for p in players}


async def test_the_card_says_when_check_in_opens_and_drops_it_once_the_tournament_runs(table, club):
    """Without a start time the window opens at the organiser's start, not "before the start"; once the
    tournament runs, check-in is over and the card no longer mentions it."""
    olga, members = club
    await create(olga, table, name="Card Cup", game="whist", format="swiss", variant="short", checkin=30)
    for player in members[:2]:
        await player.slash(table.channel, "tournament join")
    card = embed_of(await olga.slash(table.channel, "tournament status"))
    assert field(card, "Check-in") == "a 30-minute window when an organiser starts it"
    await olga.slash(table.channel, "tournament start")
    for player in members[:2]:
        await player.slash(table.channel, "tournament checkin")
    await olga.slash(table.channel, "tournament start")  # closes the window early: it runs
    card = embed_of(await olga.slash(table.channel, "tournament status"))
    assert "running" in card.description and field(card, "Check-in") is None


async def test_the_final_brackets_description_names_the_champion(table, club):
    olga, members = club
    await create(olga, table, name="Knockout", game="whist", format="elimination", variant="short")
    for player in members[:2]:
        await player.slash(table.channel, "tournament join")
    await olga.slash(table.channel, "tournament start")
    (thread,) = round_threads(table, 1)
    loser, champion = thread_players(thread, members)
    assert accepted(await loser.slash(thread, "game resign"))
    bracket = await olga.slash(table.channel, "tournament standings")
    assert bracket.response.attachments[0].description.endswith(f"Champion: {champion.name}.")


async def test_a_big_start_announcement_that_fails_part_way_is_not_posted_twice(table, club, monkeypatch):
    """A big field's start is posted in several messages: when one after the first fails, the rest are
    still posted and the milestone is not told again (which would post its first part twice)."""
    from cogs.tournament._host import DiscordHost

    olga, _ = club
    players = [table.guild.add_member(table.env.create_user(f"p{i:02d}" + "_" * 28)) for i in range(30)]
    await create(olga, table, name="Big Cup", game="whist", format="swiss")
    for member in players:
        await member.slash(table.channel, "tournament join")
    announce = DiscordHost._announce
    parts = []

    async def flaky(self, tournament, text, **kwargs):
        if "begins:" in text or text[:1].isdigit():
            parts.append(text)
            if len(parts) == 2:  # the start's second part, once
                response = SimpleNamespace(status=503, reason="Service Unavailable")
                raise discord.HTTPException(response, "unavailable")
        return await announce(self, tournament, text, **kwargs)

    monkeypatch.setattr(DiscordHost, "_announce", flaky)
    await olga.slash(table.channel, "tournament start")
    assert len(parts) == 2  # the start took two messages, the second refused
    await table.env.advance_time(120)  # the next checks tell what was not told
    assert len(announcements(table, "**Big Cup** begins:")) == 1


async def test_a_refusal_naming_a_tournament_shows_the_markup_in_its_name_as_written(table, club):
    """Markup typed in a name is shown as written in refusals too, while the bot's own timestamps and
    channel links in them still show."""
    olga, members = club
    await create(olga, table, name="Cup <t:0:R> </x:1>", game="hedgehog", format="swiss")
    await members[0].slash(table.channel, "tournament join")
    again = refusal(await members[0].slash(table.channel, "tournament join"))
    assert again == "You are already registered for Cup \\<t:0:R> \\</x:1>."
