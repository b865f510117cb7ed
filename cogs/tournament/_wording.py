"""Every tournament sentence and embed shown in Discord, with its markup (names in bold, links, timestamps)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import cast

import discord
from discord.utils import TimestampStyle

from bot.session import rules_for
from bot.session.tournament_records import (
    BYE,
    CANCELLED,
    CHECKIN,
    FINISHED,
    LAUNCHING,
    PENDING,
    PLAYING,
    REGISTRATION,
    REST,
    RUNNING,
    MatchRecord,
    TournamentRow,
)
from bot.tournaments.errors import CheckinNotOpen
from bot.tournaments.formats import ELIMINATION, FORMAT_NAMES, TABLES, is_bot
from bot.tournaments.pairings import Bracket
from bot.tournaments.results import ADJUDICATED, DRAW_NOTE
from bot.tournaments.views import Standings, TournamentView
from cogs.messages import mention, options_line, plural
from cogs.text import CONTENT_LIMIT, FIELD_VALUE_LIMIT, escape_user_text, packed, whole_items, without_direction_marks

COLOUR = discord.Colour(0xCC79A7)
STATUS_WORDS = {
    REGISTRATION: "registration open",
    CHECKIN: "check-in open",
    RUNNING: "running",
    FINISHED: "finished",
    CANCELLED: "cancelled",
}
Names = Mapping[int, str]


def timestamp(moment: datetime, style: TimestampStyle = "f") -> str:
    """A Discord timestamp (shown in each reader's own time zone)."""
    return discord.utils.format_dt(moment, style)


def bold(name: str) -> str:
    """A name in bold (names are never pinged in announcements)."""
    return f"**{name}**"


def ordinal_word(place: int) -> str:
    """1st, 2nd, 3rd, 4th..."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def name_of(names: Names, user_id: int | None) -> str:
    """A player's display name (their id when unknown); computer players are named by their seat."""
    if user_id is not None and is_bot(user_id):
        return "Hard bot" if user_id == -1 else f"Hard bot {-user_id}"
    return names.get(user_id, str(user_id)) if user_id is not None else "nobody"


def named(tournament: TournamentRow) -> str:
    """A tournament's name for a message: as its organiser typed it, never as markdown (a thread's title
    and a menu's label, which Discord does not format, use ``tournament.name`` itself)."""
    return escape_user_text(tournament.name)


def shown_name(names: Names, user_id: int | None) -> str:
    """``name_of`` for a message: the name as its player wrote it, never as markdown."""
    return escape_user_text(name_of(names, user_id))


def of_rounds(tournament: TournamentRow) -> str:
    """`` of 3`` when the number of rounds is known."""
    return f" of {tournament.rounds}" if tournament.rounds else ""


# ---------------------------------------------------------------------------------------- matches


def describe_match(match: MatchRecord, names: Names, fmt: str, *, cancelled: bool = False) -> str:
    """One line about a match and its result so far, with a link to its thread (no pings); a game not
    finished when its tournament was ``cancelled`` is stopped, not playing."""

    def name(user: int | None) -> str:
        return bold(shown_name(names, user))

    where = f" <#{match.thread_id}>" if match.thread_id else ""
    if match.status == BYE:
        why = f" ({match.note})" if match.note else ""
        return f"Bye: {name(match.players[0])}{why}"
    if match.status == REST:
        return f"Rests this round: {name(match.players[0])}"
    label = " vs ".join(name(p) for p in match.players)
    if match.status in (PENDING, LAUNCHING, PLAYING):
        if cancelled:
            return f"Table {match.board}: {label} — stopped, the tournament was cancelled"
        extra = f" ({match.note})" if match.note else ""
        return f"Table {match.board}: {label} — playing{where}{extra}"
    assert match.ranks is not None
    if match.points is not None and not any(match.points):
        result = "double forfeit"
    elif len(match.players) == 2:
        if match.ranks[0] == match.ranks[1]:
            result = "draw"
            if fmt == ELIMINATION and match.winner is not None:
                result += f", {name(match.winner)} goes through as the higher seed"
        else:
            winner = match.players[0] if match.ranks[0] < match.ranks[1] else match.players[1]
            result = f"{name(winner)} wins"
    else:
        ranks = match.ranks
        order = sorted(range(len(match.players)), key=lambda i: (ranks[i], i))
        result = ", ".join(f"{ordinal_word(ranks[i])} {name(match.players[i])}" for i in order)
    by_organiser = match.note is not None and match.note.startswith(ADJUDICATED)
    note = f" ({match.note})" if match.note and not by_organiser and match.note != DRAW_NOTE else ""
    adjudicated = " (set by an organiser)" if by_organiser else ""
    return f"Table {match.board}: {label} — {result}{adjudicated}{note}{where}"


THREAD_TITLE_LIMIT = 100  # Discord's longest thread name


def thread_title(tournament: TournamentRow, match: MatchRecord, names: Names) -> str:
    """A match thread's name: ``Cup · R2 · alice vs bob`` (a table's number at bigger tables); a long
    tournament name is shortened so that the round and the players always show."""
    who = " vs ".join(name_of(names, p) for p in match.players) if len(match.players) == 2 else ""
    rest = without_direction_marks(f" · R{match.round} · " + (who or f"table {match.board}"))[:THREAD_TITLE_LIMIT]
    name = without_direction_marks(tournament.name)
    room = THREAD_TITLE_LIMIT - len(rest)  # a long tournament name is shortened, never who plays
    if len(name) > room:
        name = name[: max(room - 1, 0)].rstrip() + "…" if room > 0 else ""
    return (name + rest)[:THREAD_TITLE_LIMIT]


def match_intro(tournament: TournamentRow, match: MatchRecord, title: str) -> str:
    """The greeting above a match's opening board, pinging its players."""
    players = " vs ".join(name_of({}, p) if is_bot(p) else f"<@{p}>" for p in match.players)
    clock = f" Clock: {plural(tournament.clock_days, 'day')} per move." if tournament.clock_days else ""
    deadline = f" Round deadline: {timestamp(tournament.round_deadline)}." if tournament.round_deadline else ""
    return (
        f"{bold(named(tournament))}, round {match.round}{of_rounds(tournament)}: {players} — {title}.{clock}{deadline}"
    )


def result_set(match: MatchRecord, names: Names, fmt: str) -> str:
    """Told in a match thread when an organiser sets its result."""
    return "An organiser set the result: " + describe_match(match, names, fmt)


def match_aborted(match: MatchRecord, names: Names) -> str:
    """Told in the tournament's channel when a match's game was aborted without a result."""
    players = " vs ".join(shown_name(names, p) for p in match.players)
    return (
        f"The game of {players} (round {match.round}) was aborted without a result: an organiser "
        "must set it with `/tournament adjudicate`."
    )


def player_withdrew(tournament: TournamentRow, name: str, *, kicked: bool) -> str:
    """Told in a match thread when one of its players leaves the tournament."""
    return f"{escape_user_text(name)} {'was removed from' if kicked else 'withdrew from'} {named(tournament)}."


def match_stopped(tournament: TournamentRow) -> str:
    """Told in a match thread when the tournament is cancelled."""
    return f"{named(tournament)} was cancelled; this game is stopped."


# ---------------------------------------------------------------------------------------- announcements


def checkin_opened(tournament: TournamentRow, until: datetime, players: Sequence[int]) -> list[str]:
    """The check-in call, pinging the registered players (in as many messages as a big field needs)."""
    call = (
        f"{bold(named(tournament))}: check-in is open until {timestamp(until)} ({timestamp(until, 'R')}). "
        "Registered players, confirm with `/tournament checkin`; whoever has not checked in by then is left out."
    )
    mentions = [mention(user) for user in players]
    if not mentions:
        return [call]
    return packed([f"{call}\n{mentions[0]}", *mentions[1:]], sep=" ")


LEFT_OUT_LIMIT = 600  # characters of names left out at the start: the seeding follows in the same message


def began(tournament: TournamentRow, seeds: Sequence[int], absent: Sequence[int], names: Names) -> list[str]:
    """The start announcement: format, field, rounds, clock, who was left out and the seeding (in as
    many messages as a big field needs)."""
    title = rules_for(tournament.game).title
    seeding = [f"{i}. {shown_name(names, u)}" for i, u in enumerate(seeds, start=1)]
    absent_names = [shown_name(names, u) for u in absent]
    left_out = f" Not checked in, left out: {whole_items(absent_names, LEFT_OUT_LIMIT, sep=', ')}." if absent else ""
    clock = f"{plural(tournament.clock_days, 'day')} per move" if tournament.clock_days else "no move clock"
    assert tournament.rounds is not None, "a tournament's rounds are fixed when it begins"
    players, rounds = plural(len(seeds), "player"), plural(tournament.rounds, "round")
    heading = (
        f"{bold(named(tournament))} begins: {FORMAT_NAMES[tournament.format]} of {title}, {players}, "
        f"{rounds}, {clock}.{left_out}"
    )
    return packed([f"{heading}\nSeeding: {seeding[0]}", *seeding[1:]], sep=", ")


def continued(texts: list[str], heading: str) -> list[str]:
    """``texts`` with every part after the first opened by ``heading``, so it says what it continues (the
    parts are packed with room for it)."""
    return [texts[0], *(f"{heading}\n{text}" for text in texts[1:])] if texts else texts


def round_started(
    tournament: TournamentRow, number: int, matches: Sequence[MatchRecord], names: Names, bracket: Bracket | None
) -> list[str]:
    """A round's pairings with links to the match threads (and the byes of a bracket's first round), in as
    many messages as a big round needs."""
    lines = [describe_match(m, names, tournament.format) for m in matches]
    if bracket is not None:
        heading = (
            bold(f"{named(tournament)} — {bracket.round_name(number)}") + f" (round {number}{of_rounds(tournament)})"
        )
        if number == 1:
            lines += [
                f"Bye: {bold(shown_name(names, cast('int | None', m.winner)))} (seed {m.seeds[0] or m.seeds[1]})"
                for m in bracket.rounds[0]
                if m.bye
            ]
    else:
        heading = bold(f"{named(tournament)} — round {number}{of_rounds(tournament)}")
    if tournament.round_deadline:
        deadline = tournament.round_deadline
        lines.append(f"Round deadline: {timestamp(deadline)} ({timestamp(deadline, 'R')}).")
    again = f"{heading} (continued)"
    return continued(packed([heading, *lines], CONTENT_LIMIT - len(again) - 1), again)


def finished(tournament: TournamentRow, standings: Standings) -> str:
    """The closing announcement: the champion, or the winners (sent with the final standings)."""
    top = standings.winners
    if standings.bracket is not None:
        champion = shown_name(standings.names, top[0] if top else None)
        return f"{bold(named(tournament))} is over. Champion: {bold(champion)}!"
    if not top:
        return f"{bold(named(tournament))} is over."
    winners = " and ".join(bold(shown_name(standings.names, p)) for p in top)
    return f"{bold(named(tournament))} is over. Winner: {winners}!"


def cancelled(tournament: TournamentRow, reason: str) -> str:
    """Told in the tournament's channel when it cancelled itself."""
    return f"{bold(named(tournament))} is cancelled: {reason}"


# ---------------------------------------------------------------------------------------- replies


def created(member: str, tournament: TournamentRow) -> str:
    """Above the tournament card, once created."""
    return f"{escape_user_text(member)} created {bold(named(tournament))}: join with `/tournament join`."


def created_elsewhere(tournament: TournamentRow, where: str) -> str:
    """Told to the organiser when the tournament was announced in another channel."""
    return f"Created {named(tournament)} (#{tournament.id}) in {where}."


def joined(member: str, tournament: TournamentRow, count: int) -> str:
    """A member registered (and checked in, during check-in)."""
    limit = f"/{tournament.max_players}" if tournament.max_players else ""
    checked = " and checked in" if tournament.status == CHECKIN else ""
    plural = "" if count == 1 and not limit else "s"
    return f"{escape_user_text(member)} joins {named(tournament)}{checked} ({count}{limit} player{plural})."


def left(member: str, tournament: TournamentRow) -> str:
    """A member withdrew their registration."""
    return f"{escape_user_text(member)} is no longer registered for {named(tournament)}."


def checked_in(member: str, tournament: TournamentRow) -> str:
    """A registered player checked in."""
    return f"{escape_user_text(member)} is checked in for {named(tournament)}."


def checkin_not_open(refusal: CheckinNotOpen) -> str:
    """Check-in has not opened yet: when it will, in the reader's own time zone."""
    if refusal.opens_at is None:
        return str(refusal)
    # a refusal: its text is escaped on the way out (cogs.replies.refusal_text)
    return f"Check-in for {refusal.tournament_name} opens {timestamp(refusal.opens_at, 'R')}."


def checkin_started(tournament: TournamentRow) -> str:
    """An organiser opened the check-in window."""
    closes = timestamp(tournament.checkin_until, "R") if tournament.checkin_until else "soon"
    return f"Check-in for {named(tournament)} is open; it starts when the window closes ({closes})."


def started(tournament: TournamentRow) -> str:
    """An organiser started the tournament."""
    return f"{named(tournament)} has started: the pairings and match threads are posted in <#{tournament.channel_id}>."


def standings_caption(tournament: TournamentRow, standings: Standings) -> str:
    """Above the standings image."""
    return f"{bold(named(tournament))} — {standings_kind(standings)} ({standings.subtitle})."


def standings_kind(standings: Standings) -> str:
    """``bracket`` or ``standings`` (also the image's file name)."""
    return "bracket" if standings.bracket is not None else "standings"


def dropped(member: str, tournament: TournamentRow) -> str:
    """A player withdrew from a running tournament."""
    return f"{escape_user_text(member)} withdraws from {named(tournament)}."


def kicked(name: str, tournament: TournamentRow, organiser: str) -> str:
    """An organiser removed a player."""
    return f"{escape_user_text(name)} was removed from {named(tournament)} by {escape_user_text(organiser)}."


def adjudicated(organiser: str, match: MatchRecord, names: Names, fmt: str) -> str:
    """An organiser set a result."""
    return f"Result set by {escape_user_text(organiser)}: " + describe_match(match, names, fmt)


def cancelled_by(tournament: TournamentRow, organiser: str) -> str:
    """An organiser cancelled the tournament."""
    return f"{named(tournament)} was cancelled by {escape_user_text(organiser)}; its running games are stopped."


def exported(tournament: TournamentRow) -> str:
    """Above the JSON file."""
    return f"{bold(named(tournament))} as JSON."


# ---------------------------------------------------------------------------------------- embeds


def choice_label(tournament: TournamentRow) -> str:
    """A tournament as the tournament option suggests it."""
    status = STATUS_WORDS.get(tournament.status, tournament.status)
    return f"#{tournament.id} {tournament.name} — {FORMAT_NAMES[tournament.format]}, {status}"[:100]


def bots_note(tournament: TournamentRow) -> str:
    """What the computer players of a tournament with the ``bots`` option fill."""
    if tournament.format == TABLES and tournament.table_size:
        fills = f"byes and the empty seats of tables of {tournament.table_size}"
    else:
        fills = "byes"
    return f"{fills} played by hard computer players (unrated games)"


def listing_embed(tournaments: Sequence[TournamentRow]) -> discord.Embed:
    """The server's live tournaments, when a command must be told which one."""
    lines = [
        f"#{t.id} {bold(named(t))} — {FORMAT_NAMES[t.format]} of {rules_for(t.game).title}, "
        f"{STATUS_WORDS.get(t.status, t.status)}"
        for t in tournaments
    ]
    embed = discord.Embed(title="Tournaments on this server", description="\n".join(lines)[:4000])
    embed.set_footer(text="Pick one with the tournament option.")
    return embed


def tournament_embed(view: TournamentView) -> discord.Embed:
    """The tournament card: settings, players and the current round."""
    t = view.tournament
    embed = discord.Embed(title=f"{named(t)} (#{t.id})", colour=COLOUR)
    options = options_line(t.game, t.options)
    rounds = f"{t.rounds}" if t.rounds else ("decided at the start" if t.format != ELIMINATION else "by the bracket")
    embed.description = (
        f"{FORMAT_NAMES[t.format]} of {bold(view.rules.title)} ({options}) · {STATUS_WORDS.get(t.status, t.status)}"
    )
    active = [p for p in view.players if p.status == "active"]
    shown = view.players if t.is_open else active  # once it started, those who withdrew are no longer in
    limit = f"/{t.max_players}" if t.max_players else ""
    names = whole_items([escape_user_text(p.display_name) for p in shown], FIELD_VALUE_LIMIT, sep=", ") or "nobody yet"
    embed.add_field(name=f"Players ({len(shown)}{limit})", value=names, inline=False)
    if t.status == RUNNING:
        embed.add_field(name="Round", value=f"{t.current_round} of {t.rounds}", inline=True)
    else:
        embed.add_field(name="Rounds", value=rounds, inline=True)
    embed.add_field(name="Move clock", value=plural(t.clock_days, "day") if t.clock_days else "none", inline=True)
    if t.data.get("bots"):
        embed.add_field(name="Computer players", value=bots_note(t), inline=True)
    if t.round_days:
        embed.add_field(name="Round deadline", value=f"{plural(t.round_days, 'day')} per round", inline=True)
    if t.start_at and t.is_open:
        embed.add_field(name="Start", value=f"{timestamp(t.start_at)} ({timestamp(t.start_at, 'R')})", inline=True)
    if t.checkin_minutes and t.is_open:  # once it has started, check-in is over and no longer shown
        if t.status == CHECKIN and t.checkin_until:
            count = sum(1 for p in view.players if p.checked_in)
            value = f"open until {timestamp(t.checkin_until, 'R')} · {count} checked in"
        elif t.start_at:
            value = f"{t.checkin_minutes} minutes before the start"
        else:
            value = f"a {t.checkin_minutes}-minute window when an organiser starts it"
        embed.add_field(name="Check-in", value=value, inline=True)
    if view.matches:
        lines = [describe_match(m, view.names, t.format, cancelled=t.status == CANCELLED) for m in view.matches]
        deadline = (
            [f"Round deadline: {timestamp(t.round_deadline)}"] if t.round_deadline and t.status == RUNNING else []
        )
        room = FIELD_VALUE_LIMIT - sum(len(line) + 1 for line in deadline)  # the deadline always shows
        value = "\n".join([whole_items(lines, room), *deadline])
        embed.add_field(name=f"Round {t.current_round}", value=value, inline=False)
    command = "/tournament join" if t.is_open else "/tournament standings"  # join only while one can
    embed.set_footer(text=f"Tournament #{t.id} · {command}")
    return embed
