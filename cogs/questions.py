"""The table's questions: an undo request or a seat proposal, asked with buttons the table answers.

Each question posted is recorded with its game (``bot.session.table_questions``).  Answered by its
buttons, it is closed there and then; a question that lapses without a press (a person's move after an
undo request, a resignation that carries out a proposal, the end of the game) is closed after the next
board of its game is shown, so no old question keeps buttons that would only be refused.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.session import GameRow, HandoverDesk, UndoDesk
from bot.session.table_questions import SEAT, UNDO, Question
from cogs.replies import answer_at, bot_of, close_question

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

LAPSED = {
    UNDO: "This request lapsed: the game has moved on.",
    SEAT: "This proposal lapsed: the seat or the game has changed since.",
}


async def ask(interaction: discord.Interaction, game_id: int, kind: str, **payload: Any) -> None:
    """Answer ``interaction`` with the question ``payload`` and record it as ``game_id``'s open question of
    ``kind`` (an older one of that kind, if still shown, is closed as lapsed)."""
    message_id = await answer_at(interaction, **payload)
    assert interaction.channel_id is not None, "every interaction the bot answers comes from a channel"
    bot = bot_of(interaction)
    question = Question(game_id, kind, interaction.channel_id, message_id)
    replaced = await bot.service.questions.record(question, bot.service.clock())
    if replaced is not None:
        await _close(bot, replaced, LAPSED[kind])
    # a board shown while the question was being posted looked for lapsed questions before it was recorded
    if not await _desk(bot, kind).stands(game_id) and await bot.service.questions.drop(question):
        await _close(bot, question, LAPSED[kind])


async def answered(bot: PyramidBot, game_id: int, kind: str, pressed: discord.Message | None, line: str) -> None:
    """The question of ``kind`` has its answer (``line``): take its buttons off (``pressed`` when it was
    answered by a press on it) and forget it."""
    await close(bot, await take(bot, game_id, kind), pressed, line)


async def take(bot: PyramidBot, game_id: int, kind: str) -> Question | None:
    """Forget ``game_id``'s question of ``kind``, answered now, and return it to be closed (``close``) once
    the answer is shown: the board shown meanwhile does not take it for a lapsed one."""
    recorded = next((q for q in await bot.service.questions.of_game(game_id) if q.kind == kind), None)
    if recorded is None or not await bot.service.questions.drop(recorded):
        return None  # none, or another caller took it (to close it) first
    return recorded


async def close(bot: PyramidBot, taken: Question | None, pressed: discord.Message | None, line: str) -> None:
    """Take the buttons off an answered question, saying ``line``: the message pressed, and the question
    ``take`` returned if that was another one."""
    await close_question(pressed, line)
    if taken is not None and (pressed is None or pressed.id != taken.message_id):
        await _close(bot, taken, line)


async def settle(bot: PyramidBot, game: GameRow) -> None:
    """Close the questions of ``game`` that can no longer be answered (called after each board shown)."""
    for question in await bot.service.questions.of_game(game.id):
        if await _desk(bot, question.kind).stands(game.id):
            continue
        if await bot.service.questions.drop(question):  # forgotten first: two boards shown at once close it once
            await _close(bot, question, LAPSED[question.kind])


def _desk(bot: PyramidBot, kind: str) -> UndoDesk | HandoverDesk:
    """The desk that knows whether a question of ``kind`` still stands."""
    return bot.undo if kind == UNDO else bot.handover


async def _close(bot: PyramidBot, question: Question, line: str) -> None:
    """Close a question nobody pressed now: read it back (its text grew with each agreement), then edit."""
    channel = bot.get_channel(question.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        message = await channel.fetch_message(question.message_id)
    except discord.HTTPException as error:  # deleted, or no access: nothing to close
        log.info("question %s of game %s not read: %s", question.message_id, question.game_id, error)
        return
    await close_question(message, line)
