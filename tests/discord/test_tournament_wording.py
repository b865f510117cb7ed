"""The tournament's Discord side on its own: start times as typed, and the sentences built from the manager's data."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.session import ServiceError
from bot.session.tournament_records import BYE, DONE, LAUNCHING, PLAYING, REST, MatchRecord, TournamentRow
from bot.tournaments.errors import CheckinNotOpen
from bot.tournaments.pairings import elimination_bracket
from bot.tournaments.results import DRAW_NOTE
from bot.tournaments.standings import Result, duel_standings
from bot.tournaments.views import Standings
from cogs.tournament import _wording as wording
from cogs.tournament._parsing import parse_options, parse_start

NOW = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)
NAMES = {1: "ann", 2: "bo", 3: "cy", 4: "di"}


def cup(**changes) -> TournamentRow:
    row = TournamentRow(
        id=7,
        guild_id=42,
        channel_id=500,
        name="Cup",
        game="whist",
        options={},
        format="swiss",
        rounds=3,
        clock_days=2,
        round_days=None,
        max_players=None,
        table_size=None,
        checkin_minutes=None,
        start_at=None,
        checkin_until=None,
        status="running",
        current_round=1,
        round_deadline=None,
        creator_id=1,
        seed="s",
        data={},
        created_at=NOW,
        updated_at=NOW,
    )
    return replace(row, **changes)


def match(players, status=DONE, ranks=None, **changes) -> MatchRecord:
    row = MatchRecord(
        id=1,
        tournament_id=7,
        round=1,
        board=1,
        players=tuple(players),
        status=status,
        game_id=None,
        thread_id=None,
        ranks=tuple(ranks) if ranks is not None else None,
        points=None,
        winner=None,
        note=None,
        created_at=NOW,
        finished_at=None,
    )
    return replace(row, **changes)


def test_start_times_are_delays_utc_dates_or_discord_timestamps():
    assert parse_start("2h", NOW) == NOW + timedelta(hours=2)
    assert parse_start("in 1d 6h", NOW) == NOW + timedelta(days=1, hours=6)
    assert parse_start("90 minutes", NOW) == NOW + timedelta(minutes=90)
    assert parse_start("2026-05-01 18:00", NOW) == datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
    assert parse_start("2026-05-01T18:00 UTC", NOW) == datetime(2026, 5, 1, 18, 0, tzinfo=UTC)
    assert parse_start("<t:1777777777:f>", NOW) == datetime.fromtimestamp(1777777777, tz=UTC)
    assert parse_start("1777777777", NOW) == datetime.fromtimestamp(1777777777, tz=UTC)
    with pytest.raises(ServiceError, match="delay such as 2h"):
        parse_start("next tuesday", NOW)


def test_game_options_are_name_value_pairs():
    assert parse_options("turn_limit=100, xeno = true") == {"turn_limit": "100", "xeno": "true"}
    assert parse_options(None) == {}
    with pytest.raises(ServiceError, match="name=value"):
        parse_options("xeno")


def test_a_match_line_names_players_in_bold_and_links_its_thread():
    playing = match((1, 2), status=PLAYING, thread_id=900)
    assert wording.describe_match(playing, NAMES, "swiss") == "Table 1: **ann** vs **bo** — playing <#900>"
    assert wording.describe_match(replace(playing, status=LAUNCHING, thread_id=None), NAMES, "swiss") == (
        "Table 1: **ann** vs **bo** — playing"
    )
    won = match((1, 2), ranks=(2, 1), thread_id=900)
    assert wording.describe_match(won, NAMES, "swiss") == "Table 1: **ann** vs **bo** — **bo** wins <#900>"
    drawn = match((1, 2), ranks=(1, 1), winner=1, note=DRAW_NOTE)
    assert wording.describe_match(drawn, NAMES, "elimination") == (
        "Table 1: **ann** vs **bo** — draw, **ann** goes through as the higher seed"
    )
    forfeit = match((1, 2), ranks=(2, 2), points=(0.0, 0.0), note="adjudicated")
    assert wording.describe_match(forfeit, NAMES, "swiss") == (
        "Table 1: **ann** vs **bo** — double forfeit (set by an organiser)"
    )
    table = match((1, 2, 3, 4), ranks=(3, 1, 2, 2), board=2)
    assert wording.describe_match(table, NAMES, "tables") == (
        "Table 2: **ann** vs **bo** vs **cy** vs **di** — 1st **bo**, 2nd **cy**, 2nd **di**, 3rd **ann**"
    )
    assert wording.describe_match(match((3,), status=BYE, note="opponent withdrew"), NAMES, "roundrobin") == (
        "Bye: **cy** (opponent withdrew)"
    )
    assert wording.describe_match(match((4,), status=REST), NAMES, "roundrobin") == "Rests this round: **di**"


def test_a_match_opens_with_its_players_pinged_and_its_round_deadline():
    deadline = datetime(2026, 4, 3, 12, 0, tzinfo=UTC)
    intro = wording.match_intro(cup(round_deadline=deadline), match((1, 2), round=2), "Martian Whist")
    assert intro == (
        f"**Cup**, round 2 of 3: <@1> vs <@2> — Martian Whist. Clock: 2 days per move. "
        f"Round deadline: <t:{int(deadline.timestamp())}:f>."
    )
    assert wording.thread_title(cup(), match((1, 2), round=2), NAMES) == "Cup · R2 · ann vs bo"
    assert wording.thread_title(cup(), match((1, 2, 3), board=3), NAMES) == "Cup · R1 · table 3"


def test_computer_players_in_a_match_are_named_and_never_pinged():
    against = match((1, -1), status=PLAYING, thread_id=900)
    assert wording.describe_match(against, NAMES, "swiss") == "Table 1: **ann** vs **Hard bot** — playing <#900>"
    assert wording.match_intro(cup(), against, "Martian Whist").startswith("**Cup**, round 1 of 3: <@1> vs Hard bot")
    assert wording.thread_title(cup(), against, NAMES) == "Cup · R1 · ann vs Hard bot"
    table = match((3, -1, -2), ranks=(1, 3, 2), board=3)
    assert "2nd **Hard bot 2**, 3rd **Hard bot**" in wording.describe_match(table, NAMES, "tables")


def test_the_end_names_the_winners_or_the_champion():
    results = [Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (1, 2))]
    rows = duel_standings(results, [1, 2, 3, 4])
    standings = Standings(cup(status="finished"), rows, None, NAMES, "Cup", "Swiss · Martian Whist · final")
    assert standings.winners == [1, 3]
    assert wording.finished(standings.tournament, standings) == "**Cup** is over. Winner: **ann** and **cy**!"
    bracket = elimination_bracket([1, 2]).with_winner(1, 0, 2)
    knockout = Standings(cup(format="elimination"), [], bracket, NAMES, "Cup", "")
    assert knockout.winners == [2]
    assert wording.finished(knockout.tournament, knockout) == "**Cup** is over. Champion: **bo**!"
    assert wording.standings_kind(knockout) == "bracket"


def test_check_in_that_has_not_opened_is_told_in_the_readers_time_zone():
    opens = datetime(2026, 4, 1, 13, 0, tzinfo=UTC)
    refusal = CheckinNotOpen("Cup", opens)
    assert str(refusal) == "Check-in for Cup opens at 2026-04-01 13:00 UTC."
    assert wording.checkin_not_open(refusal) == f"Check-in for Cup opens <t:{int(opens.timestamp())}:R>."
    later = CheckinNotOpen("Cup", None)
    assert wording.checkin_not_open(later) == "Check-in for Cup opens when an organiser starts the tournament."


def test_a_cancellation_and_an_aborted_game_are_announced_in_one_sentence():
    assert wording.cancelled(cup(), "Cup needs at least 2 players to start; 1 registered.") == (
        "**Cup** is cancelled: Cup needs at least 2 players to start; 1 registered."
    )
    assert wording.match_aborted(match((1, 2), status=PLAYING, round=2), NAMES) == (
        "The game of ann vs bo (round 2) was aborted without a result: an organiser must set it with "
        "`/tournament adjudicate`."
    )


def test_the_bots_option_says_what_its_computer_players_fill():
    assert wording.bots_note(cup(data={"bots": True})) == "byes played by hard computer players (unrated games)"
    tables = cup(game="combat", format="tables", table_size=4, data={"bots": True})
    assert wording.bots_note(tables) == (
        "byes and the empty seats of tables of 4 played by hard computer players (unrated games)"
    )
    assert wording.bots_note(replace(tables, table_size=None)).startswith("byes played")


def test_players_names_are_shown_as_written_and_a_thread_title_keeps_them_plain():
    names = {1: "*ann*", 2: "bo_"}
    played = match([1, 2], ranks=(1, 2))
    assert wording.describe_match(played, names, "swiss").startswith("Table 1: **\\*ann\\*** vs **bo\\_** — ")
    assert wording.joined("*ann*", cup(), 3).startswith("\\*ann\\* joins Cup")
    assert wording.kicked("*ann*", cup(), "__olga__") == "\\*ann\\* was removed from Cup by \\_\\_olga\\_\\_."
    assert wording.thread_title(cup(), played, names) == "Cup · R1 · *ann* vs bo_"


# ------------------------------------------------------------------ big fields: Discord's limits


def long_name(i: int) -> str:
    return f"Player{i:02d}" + "x" * 24  # 32 characters: Discord's longest nickname


def test_a_long_tournament_name_is_shortened_in_a_thread_title_so_the_players_still_show():
    name = "The Grand Annual Pyramid Club Championship of Martian Whist, Spring Season, Northern Division"
    names = {1: long_name(1), 2: long_name(2)}
    title = wording.thread_title(cup(name=name), match((1, 2)), names)
    assert len(title) <= 100
    assert title.endswith(f"… · R1 · {long_name(1)} vs {long_name(2)}")
    assert title.startswith("The Grand Annual")


def test_a_big_fields_seeding_is_posted_whole_in_as_many_messages_as_it_needs():
    names = {i: long_name(i) for i in range(1, 57)}
    texts = wording.began(cup(), list(range(1, 57)), [], names)
    assert len(texts) > 1 and all(len(text) <= 2000 for text in texts)
    assert texts[0].startswith("**Cup** begins: ") and "\nSeeding: 1. Player01" in texts[0]
    joined = ", ".join(texts)
    assert all(f"{i}. {wording.escape_user_text(names[i])}" in joined for i in range(1, 57))


def test_a_big_rounds_pairings_are_posted_whole_in_as_many_messages_as_they_need():
    names = {i: long_name(i) for i in range(1, 41)}
    deadline = NOW + timedelta(days=3)
    matches = [match((i, i + 1), board=i // 2 + 1, status=PLAYING, thread_id=9000 + i) for i in range(1, 41, 2)]
    texts = wording.round_started(cup(round_deadline=deadline), 1, matches, names, None)
    assert len(texts) > 1 and all(len(text) <= 2000 for text in texts)
    joined = "\n".join(texts)
    assert all(f"<#{9000 + i}>" in joined for i in range(1, 41, 2))
    assert texts[-1].endswith(f"({wording.timestamp(deadline, 'R')}).")  # the deadline comes last, whole


def test_the_card_lists_whole_names_and_whole_matches_and_counts_those_it_leaves_out():
    from bot.session import rules_for
    from bot.session.tournament_records import EntrantRow
    from bot.tournaments.views import TournamentView

    players = [EntrantRow(7, i, long_name(i), i, False, "active", None, NOW) for i in range(1, 41)]
    matches = [match((i, i + 1), board=i // 2 + 1, status=PLAYING, thread_id=9000 + i) for i in range(1, 41, 2)]
    deadline = NOW + timedelta(days=3)
    view = TournamentView(cup(round_deadline=deadline), rules_for("whist"), players, matches, 3)
    embed = wording.tournament_embed(view)
    listed = next(f.value for f in embed.fields if f.name == "Players (40)")
    assert len(listed) <= 1024
    shown = listed.split(", ")
    assert shown[-1] == f"…and {40 - len(shown) + 1} more"
    assert shown[:-1] == [wording.escape_user_text(long_name(i)) for i in range(1, len(shown))]
    round_field = next(f.value for f in embed.fields if f.name == "Round 1")
    lines = round_field.split("\n")
    assert len(round_field) <= 1024 and lines[-1] == f"Round deadline: {wording.timestamp(deadline)}"
    assert lines[-2].startswith("…and ") and all(line.startswith("Table ") for line in lines[:-2])


def test_discord_markup_typed_in_a_tournament_name_is_shown_as_written():
    name = "Cup <t:0:R> in <#1> </tournament join:1> <:pyr:1>"
    shown = wording.named(cup(name=name))
    assert "<t:" not in shown.replace("\\<t:", "") and "<#" not in shown.replace("\\<#", "")
    assert "</" not in shown.replace("\\</", "") and "<:" not in shown.replace("\\<:", "")


DISCORD_ALLOWED_USERS = 100  # allowed_mentions.users holds at most 100 ids, else Discord answers 400


class _Channel:
    def __init__(self) -> None:
        self.id = 500
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.sent.append({"content": content, **kwargs})
        channel = self

        class Sent:
            id = len(self.sent)

        Sent.channel = channel  # type: ignore[attr-defined]
        return Sent()


async def test_the_check_in_call_of_a_big_field_stays_within_discords_mention_limit(monkeypatch):
    """The call pings every registered player, in as many messages as needed (up to 512 players): each
    message may allow at most 100 users to be pinged, so each part must allow only those it names."""
    import re

    from cogs.tournament._host import DiscordHost

    host = DiscordHost(bot=None)
    channel = _Channel()

    async def nothing(*args: Any, **kwargs: Any) -> None:
        return None

    async def the_channel(channel_id: int) -> Any:
        return channel

    monkeypatch.setattr(host, "refresh_cards", nothing)
    monkeypatch.setattr(host, "keep_card", nothing)
    monkeypatch.setattr(host, "_channel", the_channel)
    now = NOW
    tournament = cup(status="checkin", current_round=0, rounds=None, checkin_minutes=60, checkin_until=now)
    players = [10**17 + k for k in range(150)]
    await host.checkin_opened(tournament, now + timedelta(hours=1), players)
    assert len(channel.sent) >= 1
    mentioned = {int(m) for sent in channel.sent for m in re.findall(r"<@!?(\d+)>", sent["content"])}
    assert mentioned == set(players)  # everyone is called
    for sent in channel.sent:
        users = sent["allowed_mentions"].users
        assert isinstance(users, list) and len(users) <= DISCORD_ALLOWED_USERS, len(users)


def test_a_servers_page_links_typed_in_a_name_are_shown_as_written():
    """Discord draws ``<id:browse>``, ``<id:customize>``, ``<id:guide>`` as links to a server's pages."""
    for typed in ("<id:browse>", "<id:customize>", "Cup <id:guide>"):
        assert "\\<id:" in wording.escape_user_text(typed)
