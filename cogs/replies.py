"""The one path for answering players: replies, refusals, error answers and posted reports.

Every answer to an interaction goes through ``answer`` (a first response, or a follow-up once the
interaction was answered or deferred); a ``ServiceError`` becomes one private sentence (``refuse``);
anything unexpected is logged with a short reference and answered with an apology that quotes it.
"""

from __future__ import annotations

import functools
import inspect
import logging
import secrets
import typing
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.session import Actor, Report, ServiceError
from cogs.messages import NO_PINGS, report_payload, report_view

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

SORRY = "Something went wrong on our side (ref {ref}); nothing was changed. Please try again."


def actor_of(interaction: discord.Interaction) -> Actor:
    """The session's view of the user behind ``interaction``."""
    user = interaction.user
    perms = getattr(interaction, "permissions", None)
    can_manage = bool(perms and (perms.manage_guild or perms.administrator))
    return Actor(user.id, getattr(user, "display_name", user.name), can_manage)


async def answer(interaction: discord.Interaction, **payload: Any) -> discord.Message | None:
    """Answer ``interaction``: its first response, or a follow-up once it was answered or deferred."""
    payload.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        return await interaction.followup.send(wait=True, **payload)
    await interaction.response.send_message(**payload)
    return None


async def tell(interaction: discord.Interaction, message: str) -> None:
    """Answer only the caller, in one sentence."""
    await answer(interaction, content=message, ephemeral=True)


async def refuse(interaction: discord.Interaction, message: str) -> None:
    """Tell only the caller, in one sentence, why nothing happened."""
    await tell(interaction, message)


async def apologise(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Log an unexpected failure with a reference, and tell the caller (privately) that reference."""
    ref = secrets.token_hex(3)
    log.error("%s failed [ref %s]", what, ref, exc_info=error)
    try:
        await refuse(interaction, SORRY.format(ref=ref))
    except discord.HTTPException:
        log.warning("could not apologise for ref %s", ref)


async def post_report(interaction: discord.Interaction, report: Report) -> None:
    """Answer ``interaction`` with the embed and board of ``report``, then record its delivery."""
    await answer(interaction, **report_payload(report, report_view(report)))
    await bot_of(interaction).service.delivered(report.delivery_id)


def bot_of(interaction: discord.Interaction) -> PyramidBot:
    """The bot answering ``interaction``."""
    return typing.cast("PyramidBot", interaction.client)


async def run_guarded(interaction: discord.Interaction, what: str, work: Awaitable[None]) -> None:
    """Run a button's or select's work: a refusal is one private sentence, a failure an apology."""
    try:
        await work
    except ServiceError as error:
        await refuse(interaction, str(error))
    except Exception as error:
        await apologise(interaction, error, what)


def refusals(func: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Let a command's ``ServiceError`` become its ephemeral reply instead of an error.

    The wrapper carries the callback's resolved signature, so discord.py still sees every option.
    """
    hints = typing.get_type_hints(func, include_extras=True)
    signature = inspect.signature(func)
    signature = signature.replace(
        parameters=[p.replace(annotation=hints.get(p.name, p.annotation)) for p in signature.parameters.values()]
    )

    @functools.wraps(func)
    async def wrapper(self: Any, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> None:
        try:
            await func(self, interaction, *args, **kwargs)
        except ServiceError as error:
            await refuse(interaction, str(error))

    del wrapper.__wrapped__  # type: ignore[attr-defined]
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    return wrapper
