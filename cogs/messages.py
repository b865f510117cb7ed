"""Turning service reports into Discord messages: embeds, the board file, buttons and mentions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

import discord

from bot.session import GameRow, Reminder, Report, rules_for
from cogs.text import ALT_TEXT_LIMIT, FIELD_VALUE_LIMIT, escape_user_text

BOARD_FILE = "board.png"
NO_PINGS = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)
EMBED_COLOUR = discord.Colour(0x0072B2)
END_COLOUR = discord.Colour(0x009E73)
SUMMARY_COLOUR = discord.Colour(0x4F545C)


def only_user(user_id: int | None) -> discord.AllowedMentions:
    """Allowed mentions that can ping ``user_id`` and nobody else."""
    if user_id is None:
        return NO_PINGS
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(user_id)], replied_user=False)


def mention(user_id: int | None) -> str:
    """A user mention, or an empty string (computer players, whose ids are negative, have none)."""
    return f"<@{user_id}>" if user_id is not None and user_id > 0 else ""


def who(game: GameRow, seat: int) -> str:
    """The player at ``seat`` as a message names them: a mention, or a bot's name (which says it is one:
    "Hard bot"; the field adds the seat's colour in brackets)."""
    row = game.bot_at(seat)
    return row.display_name if row is not None else mention(game.user_at(seat))


def players_line(game: GameRow, shown: Callable[[str], str] = escape_user_text) -> str:
    """The seated players in seat order, e.g. "1. alice, 2. bob (left)", each name ``shown`` (for a message:
    as written, never as markdown; ``str`` for a text file); those who left a running game (resigned or
    removed) are marked, since the game goes on without them."""
    if not game.seats:
        return "nobody yet"
    return ", ".join(f"{s.seat + 1}. {shown(s.display_name)}{' (left)' if s.removed else ''}" for s in game.seats)


def is_practice(game: GameRow) -> bool:
    """True for one person against computer players outside a tournament: a practice game.  A table the
    other people left (by resigning or on time) is one from then on, as after a seat handed to a bot, and
    stays one once its last person has left."""
    if not game.has_bots or game.tournament_id is not None:
        return False
    playing = [row for row in game.humans if not row.removed]
    # none left playing at the end: the last person left it, at a table that was practice by then
    return len(playing) == 1 or (not playing and game.status in ("finished", "aborted"))


def practice_mark(game: GameRow) -> str:
    """What a board's title adds for a practice game, so the table sees it before anything else."""
    return " · practice" if is_practice(game) else ""


def table_note(game: GameRow) -> str:
    """What the footer says of computer players: one person against bots is practice; bots are unrated."""
    if not game.has_bots:
        return ""
    if game.tournament_id is not None:  # it scores for the tournament, though no rating moves
        return " · tournament game · computer players: unrated"
    return " · practice game, unrated" if is_practice(game) else " · computer players: unrated"


def outcome_text(game: GameRow, outcome: Any, seat_name: Any) -> str:
    """The final result: places, names and scores."""
    order = sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s))
    rows = []
    for seat in order:
        score = ""
        if outcome.details is not None:
            score = f" — {outcome.details[seat]}"
        elif outcome.scores is not None:
            value = outcome.scores[seat]
            score = f" — {int(value) if float(value).is_integer() else value}"
        rows.append(f"**{outcome.ranks[seat]}.** {escape_user_text(game.name_at(seat))} ({seat_name(seat)}){score}")
    return f"**{result_head(game, outcome)}** {outcome.reason}\n" + "\n".join(rows)


def result_head(game: GameRow, outcome: Any, shown: Callable[[str], str] = escape_user_text) -> str:
    """ "alice wins!"; several first (those still playing drew, or tied for the lead) share first place.

    The engines' reasons say why the game ended, not who won (``Outcome.reason``): this says who, each
    name ``shown`` as in ``players_line``."""
    if outcome.is_draw:
        return "Draw."
    winners = [shown(game.name_at(seat)) for seat in outcome.winners]
    if not winners:  # a solitaire that failed: its reason says how
        return "No winner."
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    return f"{listing(winners)} share first place."


# Moves a game takes through a command of their own rather than ``move``: the notation's first word, then the
# command, its argument and the embed field's title (Treasure Hunt's ``/treasure arrange order``).
OWN_COMMANDS = {"arrange": ("arrange", "order", "Another order")}


def typing_hint(game: str, notations: list[str]) -> tuple[str, str]:
    """The title and words of the field that tells a player to type the moves no control holds.

    When every such move has a command of its own (an arrangement: ``/treasure arrange order``), the
    field names that command with an example of its argument, and no menu: that phase has none.
    """
    verbs = {notation.split(maxsplit=1)[0].lower() for notation in notations if notation.split()}
    if len(verbs) == 1 and (verb := verbs.pop()) in OWN_COMMANDS:
        command, argument, title = OWN_COMMANDS[verb]
        example = notations[0].split(maxsplit=1)[1] if len(notations[0].split()) > 1 else "default"
        typed = (
            f"Type `/{game} {command}` with your {argument} (such as `{argument}: {example}`): "
            f"the {argument} box lists them as you type."
        )
        return title, typed
    typed = f"Type `/{game} move` (such as `{notations[0]}`): the notation box lists your moves as you type."
    return "More moves than the menus hold", typed


def report_embed(report: Report, title_suffix: str = "", *, lines: list[str] | None = None) -> discord.Embed:
    """The embed of a board: what happened, whose turn, the board image."""
    game, rules = report.game, report.rules
    shown = report.lines if lines is None else lines
    embed = discord.Embed(
        title=f"{rules.title}{practice_mark(game)}{title_suffix}",
        description=recent(shown),
        colour=END_COLOUR if report.outcome else EMBED_COLOUR,
    )
    if report.outcome is not None:
        embed.add_field(
            name="Result",
            value=outcome_text(game, report.outcome, lambda s: rules.seat_name(report.state, s))[:FIELD_VALUE_LIMIT],
            inline=False,
        )
    elif report.game.status == "aborted":
        embed.add_field(name="Result", value=NO_RESULT, inline=False)
    elif report.state is not None:
        named = [f"{who(game, seat)} ({rules.seat_name(report.state, seat)})" for seat in report.acting_seats]
        acting = listing(named) if named else "—"  # in a phase played at the same time, everyone still in it
        action = "roll" if report.needs_roll else "move"
        embed.add_field(name="To " + action, value=acting, inline=True)
        embed.add_field(name="Status", value=rules.status_line(report.state)[:FIELD_VALUE_LIMIT], inline=False)
        from cogs.decisions import needs_typing  # the controls' module draws on this one

        options = report.options()
        if needs_typing(options):  # more moves than the controls under the board hold
            name, typed = typing_hint(game.game, [o.notation for o in options if not o.quick] or [options[-1].notation])
            embed.add_field(name=name, value=typed, inline=False)
        if game.deadline is not None:
            embed.add_field(name="Deadline", value=discord.utils.format_dt(game.deadline, "R"), inline=True)
    embed.set_footer(text=f"Game #{game.id} · move {game.ply}{table_note(game)}")
    if report.png is not None:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def report_payload(
    report: Report, view: discord.ui.View | None = None, *, lines: list[str] | None = None, ping: bool = True
) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit`` that show ``report``: the embed, the board and its controls.

    With ``ping``, the player whose turn begins is mentioned, and at the end every person still
    playing is.
    """
    embed = report_embed(report, lines=lines)
    payload: dict[str, Any] = {"embed": embed, "allowed_mentions": NO_PINGS}
    if ping and report.outcome is not None:
        # those who left the game before its end are not called back to it
        players = sorted({s.user_id for s in report.game.seats if not s.is_bot and not s.removed})
        if players:
            payload["content"] = " ".join(mention(u) for u in players) + " — the game is over."
            payload["allowed_mentions"] = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in players], replied_user=False
            )
    elif ping and report.turn_changed and (acting := turn_pings(report)):
        owner = report.asked_in_turn_of
        whose = None if owner is None else report.rules.seat_name(report.state, owner)
        payload["content"] = call(acting) if whose is None else asked(acting, whose)
        payload["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in acting], replied_user=False
        )
    elif ping and report.turn_changed and report.game.ply == 0 and (person := sole_person(report.game)) is not None:
        # the computer players move first: their player is called now, and their turn follows on this board
        bots = sum(1 for row in report.game.seats if row.is_bot)
        first = "the computer player moves" if bots == 1 else "the computer players move"
        payload["content"] = f"{mention(person)}, {first} first; your turn follows here."
        payload["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(person)], replied_user=False
        )
    if report.png is not None:
        payload["file"] = discord.File(_bytes_io(report.png), filename=BOARD_FILE, description=board_alt_text(report))
    if view is not None:
        payload["view"] = view
    return payload


def board_alt_text(report: Report) -> str:
    """The board picture's description, read out by screen readers in place of the picture: the game and
    where it stands, as its status line says."""
    where = report.rules.status_line(report.state) if report.state is not None else "waiting for players"
    return f"{report.rules.title} board. {where}"[:ALT_TEXT_LIMIT]


def sole_person(game: GameRow) -> int | None:
    """The one person of a table of computer players (a practice game), while they are still playing;
    None at a table that seated more than one person (a seat handed to a bot counts as its person's)."""
    people = [row for row in game.seats if not row.is_bot or row.stands_in_for is not None]
    if len(people) != 1 or people[0].is_bot or people[0].removed:
        return None
    return people[0].user_id


def turn_pings(report: Report) -> list[int]:
    """The people a new turn mentions: the one to move; at the start of a game that opens with a phase
    everyone plays at the same time (Treasure Hunt's coins), everyone who may act in it."""
    acting = report.acting_users
    to_move = report.to_move_user
    if report.game.ply == 0:
        return acting
    return [to_move] if to_move is not None and to_move in acting else []


def call(users: Sequence[int]) -> str:
    """``@alice, your turn.``; several people who play at the same time are told so."""
    everyone = "both" if len(users) == 2 else "all"
    together = f" (you {everyone} play this part at the same time)" if len(users) > 1 else ""
    return f"{listing([mention(user) for user in users])}, your turn{together}."


def asked(users: Sequence[int], whose: str) -> str:
    """``@bob, your answer in Red's turn.``: a decision asked of a player inside another's turn."""
    return f"{listing([mention(user) for user in users])}, your answer in {whose}'s turn."


def report_view(report: Report) -> discord.ui.View | None:
    """The controls under a report: Roll, quick decisions and the move menu, or Rematch at the end."""
    from cogs.decisions import controls

    return controls(report)


def reminder_text(reminder: Reminder) -> str:
    """The words of a turn reminder."""
    where = f"{reminder.title} (game #{reminder.game_id}) in <#{reminder.channel_id}>"
    if reminder.together:
        return (
            f"Reminder: you may play now in {where}: everyone plays this part at the same time. "
            "Your own clock starts only when the turn comes to you."
        )
    left = format_span(timedelta(seconds=reminder.seconds_left))
    return f"Reminder: it is your turn in {where}. Time left: {left}."


def format_span(span: timedelta) -> str:
    """A duration in words: "2 days 3 hours", "45 minutes"."""
    seconds = max(0, int(span.total_seconds()))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes = rest // 60
    parts = []
    if days:
        parts.append(plural(days, "day"))
    if hours:
        parts.append(plural(hours, "hour"))
    if not days and minutes:
        parts.append(plural(minutes, "minute"))
    return " ".join(parts) or "less than a minute"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``1 day``, ``2 days``; ``many`` for irregular plurals."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def listing(items: list[str]) -> str:
    """Items as a sentence lists them: ``a``, ``a and b``, ``a, b and c``."""
    return " and ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def players_range(least: int, most: int) -> str:
    """``2 players`` when the number is fixed, else ``1-5 players``."""
    return plural(least, "player") if least == most else f"{least}-{most} players"


LATE_HEADING = "*Not shown at the time (played earlier):*"
NO_RESULT = "The game ended without a result; it is unrated."  # an aborted game's Result


def late_lines(lines: list[str]) -> list[str]:
    """The lines of an event told after the game moved on, under a heading that says so: they join a
    newer board's lines but happened earlier."""
    return [LATE_HEADING, *lines]


def told(lines: Sequence[str]) -> str:
    """A turn's lines as one run of text for a message, shown as written (as ``recent`` shows them)."""
    return escape_user_text(" ".join(lines))


def recent(lines: list[str], limit: int = 3900) -> str:
    """The lines of a turn, the newest kept when there are too many to show.

    The session writes them as plain text, with players' names as they chose them: they are shown as
    written, never as markdown (a name like ``*star*`` stays starred).  Only ``LATE_HEADING`` is ours.
    """
    lines = [line if line == LATE_HEADING else escape_user_text(line) for line in lines]
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for line in reversed(lines):
        if sum(len(x) + 1 for x in kept) + len(line) > limit - 2:
            break
        kept.insert(0, line)
    return "…\n" + "\n".join(kept)


def summary_embed(title: str, game_id: int, lines: list[str]) -> discord.Embed:
    """What a finished turn's message becomes once the next turn has its own: its lines, no board."""
    embed = discord.Embed(title=title, description=recent(lines) or "—", colour=SUMMARY_COLOUR)
    embed.set_footer(text=f"Game #{game_id} · the board moved on to the newest message")
    return embed


def option_value(value: Any) -> str:
    """An option's value as a player reads it: ``on``/``off`` for a switch, ``none`` for an empty text."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value) if value != "" else "none"


def options_line(game: str, options: Mapping[str, Any], changed_only: bool = True) -> str:
    """A game's creation settings, e.g. ``turn limit: 200, blocked: b2 e5``.

    ``changed_only`` keeps those that differ from the game's defaults (``standard`` when none do), as
    a lobby or a tournament card shows them; a game's record lists every one.
    """
    defaults = {spec.name: spec.default for spec in rules_for(game).options}
    shown = [
        f"{name.replace('_', ' ')}: {option_value(value)}"
        for name, value in options.items()
        if not changed_only or name not in defaults or defaults[name] != value
    ]
    return ", ".join(shown) or "standard"


def clock_text(game: GameRow) -> str:
    """A game's move clock as set at its creation, e.g. ``3 days per move + a 2-day time bank``."""
    if not game.clock_days:
        return "none"
    bank = f" + a {game.bank_days}-day time bank" if game.bank_days else ""
    return f"{plural(game.clock_days, 'day')} per move{bank}"


def lobby_embed(game: GameRow, title: str, min_players: int) -> discord.Embed:
    """The invitation to a game that has not started."""
    embed = discord.Embed(title=f"{title} — new game", colour=EMBED_COLOUR)
    embed.add_field(name="Players", value=f"{players_line(game)} ({len(game.seats)}/{game.max_players})", inline=False)
    embed.add_field(name="Options", value=options_line(game.game, game.options)[:FIELD_VALUE_LIMIT], inline=False)
    if game.clock_days:
        embed.add_field(name="Clock", value=clock_text(game), inline=True)
    embed.set_footer(
        text=f"Game #{game.id} · {players_range(min(min_players, game.max_players), game.max_players)}"
        f" · {'the creator' if game.seat_of(game.creator_id) is not None else 'a seated player'} presses Start"
        f"{table_note(game)}"
    )
    return embed


def _bytes_io(data: bytes) -> Any:
    import io

    return io.BytesIO(data)
