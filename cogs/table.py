"""A game's living message: one public message per turn, edited while the turn goes on.

Before the start it is the lobby, edited as players join and leave.  Once the game runs it is the
board of the turn under way: each roll, step or decline of that turn edits it, and so do the turns of
computer players that follow it; a new message is posted only when the turn comes to a person (pinging
them) or the game ends (pinging everyone).  The message it replaces becomes a short summary of its
turn, without board, controls or call, so no old button stays pressable and no old board is mistaken
for the current one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.session import GameRow, Report, fewest_players, opening_board, rules_for
from bot.session.table_messages import TableMessage
from cogs import questions
from cogs.buttons import GameButton, buttons
from cogs.messages import (
    NO_PINGS,
    call,
    late_lines,
    lobby_embed,
    practice_mark,
    report_payload,
    report_view,
    sole_person,
    summary_embed,
    told,
)
from cogs.replies import answer, answer_at, bot_of, first_response, paced, tell
from cogs.seats import AddBotMenu, after

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)


async def act(interaction: discord.Interaction, channel_id: int, work: Awaitable[Report]) -> None:
    """Run a player's action (``work``, a service call) and answer it with the living message.

    The pacer's window covers both, the action and its answer: if the board is not out within
    ``ACK_AFTER_SECONDS``, whichever of the two held it up, the player gets the short line first.
    """

    async def whole() -> None:
        await show(interaction, await work)

    await paced(interaction, channel_id, whole())


async def show(interaction: discord.Interaction, report: Report) -> None:
    """Answer a player's action with the living message of its game, and record it and the delivery.

    The interaction is answered first; editing another message (a request to Discord of its own, and
    rate-limited per channel) comes after, so it never holds up the answer.
    """
    bot = bot_of(interaction)
    async with bot.living_messages.hold(report.game.id):
        record = await bot.service.table_message(report.game.id)
        current = await bot.service.game(report.game.id)
        waiting = await opening_waits_for(bot, record, report)
        if current is not None and moved_on(report.game, current):  # another action was shown first
            await tell(interaction, done_line(report))
            if (on_board := await _told_late(bot, report, record, current)) is not None:
                report = on_board
        elif follows_on(record, report) or (waiting is not None and report.to_move_user == waiting):
            assert record is not None
            lines = [*record.lines, *report.lines]
            payload = followed_on(report, lines, waiting=waiting)
            if not await edit_pressed(interaction, record, lambda: payload):
                await tell(interaction, done_line(report))
                if not await edit(bot, record, payload, raw=True):  # deleted, or out of the bot's reach: post it anew
                    shown_now = report_payload(report, report_view(report), lines=lines, ping=False)
                    posted = await answer_at(interaction, **shown_now)
                    record = board_record(report, channel_of_answer(interaction), posted)
            await remember(bot, record, lines, report.delivery_id)
        else:
            old = record
            if old is not None and await edit_pressed(interaction, old, partial(retired, old, report.game)):
                old = None
            message_id = await answer_at(interaction, **report_payload(report, report_view(report)))
            record = board_record(report, channel_of_answer(interaction), message_id)
            await remember(bot, record, report.lines, report.delivery_id)  # first: the new board is the game's
            if old is not None:
                await retire(bot, old, report.game)
    await shown(bot, report)


def done_line(report: Report) -> str:
    """The private answer of an action whose board the player is not answered with: what it did."""
    return "Done: " + told(report.lines)[:1900]


async def shown(bot: PyramidBot, report: Report) -> None:
    """After a board is shown: the questions it made lapse lose their buttons, and a bot left to act
    goes on."""
    await questions.settle(bot, report.game)
    after(bot, report)


def follows_on(record: TableMessage | None, report: Report) -> bool:
    """True when ``report`` is shown by editing the living board ``record`` rather than posting a new one.

    It does while the turn goes on, and while computer players take their turns after it, until the turn
    comes to a person (a new message pings them) or the game ends (a new message pings everyone).  In a
    phase everyone plays at the same time (Treasure Hunt's coins), everyone in it was called when it
    began: each part played in it follows on, until the phase is over.  (A game with one person whose
    computer players move first also calls that person on its opening board, ``opening_waits_for``:
    they have just started it, or were called to it by their tournament match's greeting, so one message
    shows the start, the bots' first turns and the call.)
    """
    if record is None or record.kind != "board" or report.outcome is not None or report.game.status != "active":
        return False  # an ended game (with or without a result) has a message of its own
    if report.together and report.game.ply > 0:
        return True
    seat = report.to_move_seat
    return not report.turn_changed or (seat is not None and report.game.bot_at(seat) is not None)


async def opening_waits_for(bot: PyramidBot, record: TableMessage | None, report: Report) -> int | None:
    """The one person of a practice game while ``report`` comes to its opening board ``record`` before they
    have acted, the computer players having moved first: that board called them when it was posted
    (``report_payload``), so it carries the bots' first turns, keeping the call, and then the person's own
    call (``followed_on``); None otherwise."""
    if record is None or record.kind != "board" or not report.turn_changed or not opening_board(record.lines):
        return None
    if report.outcome is not None or report.game.status != "active":
        return None
    person = sole_person(report.game)
    if person is None or await bot.service.has_acted(report.game, person):
        return None
    return person


def followed_on(report: Report, lines: list[str], *, waiting: int | None = None) -> dict[str, Any]:
    """The edit of the living board that shows ``report`` after ``lines``; once the turn has passed to a
    computer player, the call of the person whose turn it was ("@alice, your turn.") goes from it, but
    not the opening call of a practice game whose bots move first ("the computer players move first"),
    which stays until the turn of the person ``waiting`` on it (``opening_waits_for``), whose call is
    then written in (not a ping: the board called them already).  In a phase played at the same time,
    the call names those still to play their part (not a ping: they were called when it began)."""
    payload = as_edit(report_payload(report, report_view(report), lines=lines, ping=False))
    if report.together:
        acting = report.acting_users
        payload["content"] = call(acting) if acting else None
    elif report.turn_changed and (waiting is None or report.to_move_user == waiting):
        person = report.to_move_user if report.game.bot_at(report.to_move_seat) is None else None
        payload["content"] = call([person]) if person is not None else None
    return payload


def board_record(report: Report, channel_id: int, message_id: int) -> TableMessage:
    """A new living board showing ``report``."""
    return TableMessage(report.game.id, channel_id, message_id, "board")


async def edit_pressed(
    interaction: discord.Interaction, record: TableMessage, payload: Callable[[], dict[str, Any]]
) -> bool:
    """Answer a press on the living message ``record`` by editing it to ``payload()``; False when the
    interaction is not such a press or was already answered."""
    async with first_response(interaction):
        if not on_message(interaction, record) or interaction.response.is_done():
            return False
        await interaction.response.edit_message(**payload())
        return True


async def show_in_channel(bot: PyramidBot, report: Report) -> None:
    """Show a report nobody's interaction answered (a timeout, a late delivery, a bot's move), and record
    its delivery with the living message."""
    if (on_board := await _shown_in_channel(bot, report)) is not None:
        await shown(bot, on_board)


async def _shown_in_channel(bot: PyramidBot, report: Report) -> Report | None:
    """``show_in_channel`` up to the board; returns the report the board now shows (``report``, or the game
    as it is now when ``report`` came late), or None when nothing was shown."""
    from cogs.announcer import announcer_of

    async with bot.living_messages.hold(report.game.id):
        record = await bot.service.table_message(report.game.id)
        current = await bot.service.game(report.game.id)
        if current is not None and moved_on(report.game, current):
            return await _told_late(bot, report, record, current)
        waiting = await opening_waits_for(bot, record, report)
        if follows_on(record, report) or (waiting is not None and report.to_move_user == waiting):
            assert record is not None
            lines = [*record.lines, *report.lines]
            if await edit(bot, record, followed_on(report, lines, waiting=waiting), raw=True):
                await remember(bot, record, lines, report.delivery_id)
                return report
        channel = await announcer_of(bot).channel(report.game.channel_id)
        if channel is None:
            if record is not None:
                await retire(bot, record, report.game)
            return None
        message = await channel.send(**report_payload(report, report_view(report)))
        await remember(bot, board_record(report, message.channel.id, message.id), report.lines, report.delivery_id)
        if record is not None:
            await retire(bot, record, report.game)
        return report


def moved_on(shown: GameRow, now: GameRow) -> bool:
    """True when the game is no longer where ``shown`` left it: a move, an undo or its end came since."""
    return now.ply != shown.ply or now.status != shown.status


async def _told_late(bot: PyramidBot, report: Report, record: TableMessage | None, current: GameRow) -> Report | None:
    """Show ``report`` after the game moved on (its board was drawn, and another action was played, before
    it could be shown): its board would put back an older position.  In a running game its lines join the
    living board, marked as played earlier, on the board as it is now; a game over keeps its final message,
    and the report is only settled.  Returns the report the board now shows, if any."""
    if current.status == "active" and record is not None and record.kind == "board":
        now = await bot.service.board(current.channel_id)
        if now.game.id == current.id:
            lines = [*record.lines, *late_lines(report.lines)]
            if await edit(bot, record, followed_on(now, lines), raw=True):
                await remember(bot, record, lines, report.delivery_id)
                return now
    if report.delivery_id is not None:
        await bot.service.delivered(report.delivery_id)
    return None


async def redraw(bot: PyramidBot, channel_id: int) -> None:
    """Draw the living board of the channel's running game again in place, with the lines of its turn so
    far: its clock changed without a move (a vacation moved the deadline).  The game is read under the
    living message's lock, so the redraw never shows a position older than a board shown before it."""
    game = await bot.service.live_game(channel_id)
    if game is None:
        return
    async with bot.living_messages.hold(game.id):
        report = await bot.service.board(channel_id)
        record = await bot.service.table_message(report.game.id)
        if record is None or record.kind != "board" or report.state is None or report.game.status != "active":
            return
        report.lines = []
        await edit(bot, record, followed_on(report, list(record.lines)), raw=True)


async def adopt(bot: PyramidBot, report: Report, message: discord.Message) -> None:
    """Make ``message`` (already showing ``report``) the living message, retiring the one before; a bot
    left to act goes on at once, as after any board shown."""
    async with bot.living_messages.hold(report.game.id):
        record = await bot.service.table_message(report.game.id)
        if record is not None and record.message_id != message.id:
            await retire(bot, record, report.game)
        await remember(bot, board_record(report, message.channel.id, message.id), report.lines)
    await shown(bot, report)


LOBBY_ACTIONS = ("join", "leave", "start")


def lobby_view(game: GameRow, *, disabled: bool = False) -> discord.ui.View:
    """The lobby's controls: Join, Leave and Start, and the menu that adds a computer player (which
    carries the number of seats taken, so a choice sent twice, or against a table that changed, is
    refused instead of seating or removing a second bot)."""
    view = buttons(game.id, *LOBBY_ACTIONS, disabled=disabled)
    full = len(game.seats) >= game.max_players
    for child in view.children:
        if full and isinstance(child, GameButton) and child.action == "join":  # no seat left to take
            child.item.disabled = True
    bots = any(row.is_bot for row in game.seats)
    view.add_item(AddBotMenu(game.id, len(game.seats), disabled=disabled, add=not full, remove=bots))
    return view


def lobby_payload(game: GameRow, note: str) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit`` that show the open game's lobby under ``note``."""
    rules = rules_for(game.game)
    return {
        "content": note,
        "embed": lobby_embed(game, rules.title, fewest_players(game.game, game.options)[0]),
        "view": lobby_view(game, disabled=game.status != "open"),
        "allowed_mentions": NO_PINGS,
    }


async def post_lobby(bot: PyramidBot, game: GameRow, channel: discord.abc.Messageable, note: str) -> None:
    """Post the lobby of a game in ``channel`` (its own thread), as the game's living message."""
    async with bot.living_messages.hold(game.id):
        message = await channel.send(**lobby_payload(game, note))
        await remember(bot, TableMessage(game.id, message.channel.id, message.id, "lobby"), ())


async def game_if_open(bot: PyramidBot, game_id: int) -> GameRow | None:
    """The game ``game_id`` as it is now, if it is still open: read under its living message's lock, so
    two changes shown at once each show every seat taken, and none shows a lobby the start has closed."""
    game = await bot.service.game(game_id)
    return game if game is not None and game.status == "open" else None


async def update_lobby(bot: PyramidBot, game: GameRow, note: str) -> None:
    """Edit the game's lobby message to show it as it is now (a change made from another channel)."""
    async with bot.living_messages.hold(game.id):
        current = await game_if_open(bot, game.id)
        record = await bot.service.table_message(game.id)
        if current is not None and record is not None and record.kind == "lobby":
            await edit(bot, record, lobby_payload(current, note), raw=True)


async def show_lobby(interaction: discord.Interaction, game: GameRow, note: str) -> None:
    """Show the open game's lobby, as it is now: a new message when it has none here, else its message
    edited.  A game started or closed meanwhile has its own message: the caller is told ``note`` alone."""
    bot = bot_of(interaction)
    async with bot.living_messages.hold(game.id):
        current = await game_if_open(bot, game.id)
        if current is None:
            await tell(interaction, note)
            return
        record = await bot.service.table_message(game.id)
        payload = lobby_payload(current, note)
        if record is not None and record.kind == "lobby":
            if await edit_pressed(interaction, record, lambda: payload):
                return
            if await edit(bot, record, payload, raw=True):  # the note above the lobby says the latest change
                await tell(interaction, note)
                return
        await _post_lobby_here(interaction, current, payload)


async def show_lobby_copy(interaction: discord.Interaction, game: GameRow) -> None:
    """Show an open game's lobby to someone who asked for the board: the lobby's own message is brought
    up to date (its note, the last change, left as it is) and the caller gets a copy with its link; a
    lobby whose message is gone is posted afresh."""
    bot = bot_of(interaction)
    async with bot.living_messages.hold(game.id):
        current = await game_if_open(bot, game.id)
        if current is None:  # started or closed since the caller read it: its lobby is not the table now
            await tell(interaction, "The game has just started or closed: ask for the board again to see it.")
            return
        game = current
        record = await bot.service.table_message(game.id)
        payload = lobby_payload(game, "Waiting for players.")
        if (
            record is not None
            and record.kind == "lobby"
            and await edit(bot, record, as_lobby_refresh(payload), raw=True)
        ):
            link = message_link(interaction.guild_id, record)
            where = f" [The lobby]({link}) has the Join and Start buttons." if link else ""
            await answer(interaction, content=f"Waiting for players.{where}", embed=payload["embed"], ephemeral=True)
            return
        await _post_lobby_here(interaction, game, payload)


async def _post_lobby_here(interaction: discord.Interaction, game: GameRow, payload: dict[str, Any]) -> None:
    """Answer ``interaction`` with the lobby, which becomes the game's living message (under its lock)."""
    message_id = await answer_at(interaction, **payload)
    await remember(bot_of(interaction), TableMessage(game.id, channel_of_answer(interaction), message_id, "lobby"), ())


def as_lobby_refresh(payload: dict[str, Any]) -> dict[str, Any]:
    """A lobby payload as an edit that brings the seats and buttons up to date and keeps the note."""
    return {key: value for key, value in payload.items() if key != "content"}


def message_link(guild_id: int | None, record: TableMessage) -> str | None:
    """The address of a living message, to link it from an answer; None outside a server."""
    if guild_id is None:
        return None
    return f"https://discord.com/channels/{guild_id}/{record.channel_id}/{record.message_id}"


def channel_of_answer(interaction: discord.Interaction) -> int:
    """The channel where the answer to ``interaction`` is posted: the one it came from."""
    assert interaction.channel_id is not None, "every interaction the bot answers comes from a channel"
    return interaction.channel_id


def on_message(interaction: discord.Interaction, record: TableMessage) -> bool:
    """True when ``interaction`` is a press on the living message itself."""
    return interaction.message is not None and interaction.message.id == record.message_id


def as_edit(payload: dict[str, Any]) -> dict[str, Any]:
    """A send payload as an edit: the board replaces the attachments, the content is left alone unless
    the payload clears it (``content: None``)."""
    edited = {k: v for k, v in payload.items() if k != "file" and (k != "content" or v is None)}
    edited["attachments"] = [payload["file"]] if "file" in payload else []
    edited.setdefault("view", None)
    return edited


def retired(record: TableMessage, game: GameRow, *, stopped: bool = False) -> dict[str, Any]:
    """What a living message becomes once the game moved on: a summary, or the lobby closed; ``stopped``:
    the game was stopped without a result, which the summary says."""
    rules = rules_for(game.game)
    if record.kind == "lobby":
        embed = lobby_embed(game, rules.title, fewest_players(game.game, game.options)[0])
        embed.set_footer(text=f"Game #{game.id} · started" if game.status != "aborted" else f"Game #{game.id} · closed")
        return {"embed": embed, "view": lobby_view(game, disabled=True)}
    # the mention that called its player ("@alice, your turn.") goes too: that turn is over
    summary = summary_embed(f"{rules.title}{practice_mark(game)}", game.id, list(record.lines))
    if stopped:
        summary.set_footer(text=f"Game #{game.id} · ended without a result; unrated")
    return {"content": None, "embed": summary, "attachments": [], "view": None}


async def close(bot: PyramidBot, game: GameRow) -> None:
    """The living message of a game stopped without a report (aborted, or stopped by a tournament's
    organiser) keeps no controls that would only be refused: a lobby is closed, a board says it ended."""
    async with bot.living_messages.hold(game.id):
        record = await bot.service.table_message(game.id)
        if record is not None:
            await retire(bot, record, game, stopped=True)
    await questions.settle(bot, game)


async def retire(bot: PyramidBot, record: TableMessage, game: GameRow, *, stopped: bool = False) -> None:
    """Turn the old living message into its summary (a deleted message is simply left alone); see
    ``retired`` for ``stopped``.

    Only the old message's looks are at stake: a failure is logged and goes no further, so the new
    board, already recorded, stays the game's living message.
    """
    try:
        await edit(bot, record, retired(record, game, stopped=stopped), raw=True)
    except Exception:
        log.exception("living message %s of game %s not retired", record.message_id, record.game_id)


async def edit(bot: PyramidBot, record: TableMessage, payload: dict[str, Any], *, raw: bool = False) -> bool:
    """Edit the living message; False when it cannot be (deleted, no access)."""
    channel = bot.get_channel(record.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return False
    message = channel.get_partial_message(record.message_id)
    try:
        await message.edit(**(payload if raw else as_edit(payload)))
        return True
    except discord.HTTPException as error:
        log.info("living message %s of game %s not edited: %s", record.message_id, record.game_id, error)
        return False


async def remember(bot: PyramidBot, record: TableMessage, lines: Any, delivered: int | None = None) -> None:
    """Store ``record`` (with the lines of its turn so far) as its game's living message, and the event
    it now shows (``delivered``) as announced."""
    await bot.service.set_table_message(
        TableMessage(record.game_id, record.channel_id, record.message_id, record.kind, tuple(lines)), delivered
    )
