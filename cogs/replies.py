"""The one path for answering players: replies, refusals, error answers and autocomplete results.

Every answer to an interaction goes through ``answer`` (a first response, or a follow-up once the
interaction was answered or deferred), which fits the payload into Discord's limits (``fit_payload``)
so no reply is ever refused for its size; a ``ServiceError`` becomes one private sentence
(``refuse``); anything unexpected is logged with a short reference and answered with an apology that
quotes it.  Text a player typed is shown through ``quote_input`` (a short excerpt in backticks) or
``cogs.text.escape_user_text`` (no markdown, no mentions).  Autocomplete callbacks are wrapped by
``safe_autocomplete``: whatever Discord sent becomes a string, a failure becomes an empty list, and
the choices always fit Discord's rules (``fit_choices``).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import math
import re
import secrets
import typing
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.session import Actor, Report, ServiceError, quote_typed
from cogs.messages import NO_PINGS, report_payload, report_view
from cogs.text import (
    AUTHOR_LIMIT,
    CHOICE_COUNT,
    CHOICE_TEXT,
    COMPONENT_COUNT,
    CONTENT_LIMIT,
    DESCRIPTION_LIMIT,
    ELLIPSIS,
    EMBED_COUNT,
    EMBED_TOTAL,
    FIELD_COUNT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FOOTER_LIMIT,
    TITLE_LIMIT,
    clean,
    escape_outside_code,
    shorten,
    without_backticks,
)

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

FIRST_RESPONSE = "first-response"  # the key of that lock in ``interaction.extras``
PUBLIC_PLACEHOLDER = "public-placeholder"  # set while a public "thinking…" line awaits its answer

# a failure may come after the action was stored whole (drawing or sending its answer): never "nothing changed"
SORRY = (
    "Something went wrong on our side (ref {ref}). Nothing is half done: look at the board (/game board) and "
    "try again if your action is not on it."
)
NO_REASON = "That did not work; nothing was changed."

DISCORD_INT = 2**53 - 1  # integer option values and choices: Discord's range

REFUSAL_LIMIT = 300  # a refusal is one sentence: a longer one echoed something
WORD_LIMIT = 40  # a longer run without spaces in a refusal is an echo of typed input
_LONG_WORD = re.compile(rf"\S{{{WORD_LIMIT + 1},}}")


# ---------------------------------------------------------------------------------------------- text


def quote_input(text: Any, limit: int = 24) -> str:
    """A short excerpt of what a player typed, in backticks, to echo it in a sentence: the refusal
    ``f"{quote_input(text)} is not a square."`` reads "`xxxxxxxxxxxxxxxxxxxxxxx…` is not a square."

    Whitespace runs become one space; control, direction-changing and backtick characters cannot
    break out of the excerpt (backticks are shown as ``ˋ``); mentions inside it never ping.
    """
    return discord.utils.escape_mentions(quote_typed(text, limit))


def refusal_text(message: str) -> str:
    """A refusal as one short sentence: long echoes of typed input cut to excerpts, never empty.

    Refusals name players and things players named (a tournament) as written: outside the quoted
    input in backticks, nothing in them is drawn as markdown.
    """
    text = " ".join(clean(str(message)).split())
    if not text:
        return NO_REASON
    if len(text) > REFUSAL_LIMIT:
        text = _LONG_WORD.sub(lambda m: m.group()[: WORD_LIMIT - 1] + ELLIPSIS, text)
    return shorten(escape_outside_code(text), REFUSAL_LIMIT)


# -------------------------------------------------------------------------------------------- limits


def _texts(embed: discord.Embed) -> list[str]:
    texts = [embed.title or "", embed.description or "", embed.footer.text or "", embed.author.name or ""]
    for f in embed.fields:
        texts += [f.name or "", f.value or ""]
    return texts


def _embed_size(embed: discord.Embed) -> int:
    """The characters Discord counts towards the 6,000 of a message."""
    return sum(len(text) for text in _texts(embed))


def _field_fits(text: str | None, limit: int) -> bool:
    return bool(text and text.strip()) and len(text or "") <= limit


def _fits(embed: discord.Embed, budget: int) -> bool:
    return (
        len(embed.title or "") <= TITLE_LIMIT
        and len(embed.description or "") <= DESCRIPTION_LIMIT
        and len(embed.fields) <= FIELD_COUNT
        and all(_field_fits(f.name, FIELD_NAME_LIMIT) and _field_fits(f.value, FIELD_VALUE_LIMIT) for f in embed.fields)
        and len(embed.footer.text or "") <= FOOTER_LIMIT
        and len(embed.author.name or "") <= AUTHOR_LIMIT
        and _embed_size(embed) <= budget
        and all(clean(t) is t for t in _texts(embed))
    )


def fit_embed(embed: discord.Embed, budget: int = EMBED_TOTAL) -> discord.Embed:
    """``embed`` within Discord's limits, at most ``budget`` characters in all (a copy when cut).

    Each text is cut to its limit; past the total, the description shrinks first, then the last
    fields go, then the footer.
    """
    if _fits(embed, budget):
        return embed
    fitted = embed.copy()
    if fitted.title:
        fitted.title = shorten(fitted.title, TITLE_LIMIT)
    if fitted.description:
        fitted.description = shorten(fitted.description, DESCRIPTION_LIMIT)
    fields = [(f.name, f.value, f.inline) for f in fitted.fields][:FIELD_COUNT]
    fitted.clear_fields()
    for name, value, inline in fields:
        fitted.add_field(
            name=shorten(name or "", FIELD_NAME_LIMIT).strip() or "—",
            value=shorten(value or "", FIELD_VALUE_LIMIT).strip() or "—",
            inline=inline,
        )
    if fitted.footer.text:
        fitted.set_footer(text=shorten(fitted.footer.text, FOOTER_LIMIT), icon_url=fitted.footer.icon_url)
    if fitted.author.name:
        fitted.set_author(
            name=shorten(fitted.author.name, AUTHOR_LIMIT), url=fitted.author.url, icon_url=fitted.author.icon_url
        )
    excess = _embed_size(fitted) - budget
    if excess > 0 and fitted.description:
        keep = max(0, len(fitted.description) - excess)
        fitted.description = shorten(fitted.description, keep) if keep > 1 else None
        excess = _embed_size(fitted) - budget
    while excess > 0 and fitted.fields:
        fitted.remove_field(len(fitted.fields) - 1)
        excess = _embed_size(fitted) - budget
    if excess > 0 and fitted.footer.text:
        fitted.set_footer(text=None)
        excess = _embed_size(fitted) - budget
    if excess > 0 and fitted.title:
        fitted.title = shorten(fitted.title, max(1, len(fitted.title) - excess))
    return fitted


def fit_view(view: discord.ui.View) -> discord.ui.View:
    """``view`` with at most 25 components (the last ones are dropped; discord.py keeps rows to 5)."""
    for item in list(view.children)[COMPONENT_COUNT:]:
        view.remove_item(item)
    return view


def fit_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit`` cut to Discord's limits: content, embeds, components.

    Content over 2,000 characters and embed texts over their limits are cut (at a space when one is
    near, with "…"); more than ten embeds, 25 fields, 6,000 embed characters or 25 components lose
    the last ones.  Lone surrogates become U+FFFD.  The payload is copied, never changed in place.
    """
    fitted = dict(payload)
    content = fitted.get("content")
    if isinstance(content, str):
        fitted["content"] = shorten(content, CONTENT_LIMIT)
    budget = EMBED_TOTAL
    if isinstance(fitted.get("embed"), discord.Embed):
        fitted["embed"] = fit_embed(fitted["embed"], budget)
    elif isinstance(fitted.get("embeds"), list | tuple):
        embeds = []
        for embed in list(fitted["embeds"])[:EMBED_COUNT]:
            if budget <= 0:
                break
            embed = fit_embed(embed, budget) if isinstance(embed, discord.Embed) else embed
            budget -= _embed_size(embed) if isinstance(embed, discord.Embed) else 0
            embeds.append(embed)
        fitted["embeds"] = embeds
    if isinstance(fitted.get("view"), discord.ui.View):
        fitted["view"] = fit_view(fitted["view"])
    return fitted


# ----------------------------------------------------------------------------------------- answering


def actor_of(interaction: discord.Interaction) -> Actor:
    """The session's view of the user behind ``interaction``."""
    user = interaction.user
    perms = getattr(interaction, "permissions", None)
    can_manage = bool(perms and (perms.manage_guild or perms.administrator))
    return Actor(user.id, without_backticks(getattr(user, "display_name", user.name)), can_manage)


# a game command in direct messages: no game is played there
IN_SERVERS = "Games are played in server channels: use this in your game's channel or thread (/game mine lists them)."


def channel_of(interaction: discord.Interaction) -> int:
    """The channel (or thread) of a game command; in direct messages, where no game is played, the
    command is refused with ``IN_SERVERS``."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServiceError(IN_SERVERS)
    return interaction.channel_id


def custom_id_of(interaction: discord.Interaction) -> str | None:
    """The custom id of the button or menu behind ``interaction``, if it came from one."""
    data = interaction.data
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    return custom_id if isinstance(custom_id, str) else None


def what_of(interaction: discord.Interaction) -> str:
    """What the player used, for log lines: ``/combat new``, ``button pg:join:12``."""
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    custom_id = custom_id_of(interaction)
    if custom_id is not None:
        return f"component {shorten(custom_id, 60)!r}"
    return interaction.type.name if isinstance(interaction.type, discord.InteractionType) else "interaction"


async def answer(interaction: discord.Interaction, **payload: Any) -> discord.Message | None:
    """Answer ``interaction``: its first response, or a follow-up once it was answered or deferred.

    The payload is fitted into Discord's limits first, and pings nobody unless it says so.
    """
    sent = await _answer(interaction, payload)
    return sent if isinstance(sent, discord.Message) else None


async def answer_at(interaction: discord.Interaction, **payload: Any) -> int:
    """``answer``, returning the id of the message that answered: from Discord's reply to the first
    response, so that knowing it costs no request to read the answer back."""
    sent = await _answer(interaction, payload)
    if isinstance(sent, discord.Message):
        return sent.id
    if sent.message_id is not None:
        return sent.message_id
    return (await interaction.original_response()).id


async def _answer(
    interaction: discord.Interaction, payload: dict[str, Any]
) -> discord.Message | discord.InteractionCallbackResponse[Any]:
    payload.setdefault("allowed_mentions", NO_PINGS)
    payload = fit_payload(payload)
    async with first_response(interaction):
        if not interaction.response.is_done():
            return await interaction.response.send_message(**payload)
        if interaction.extras.pop(PUBLIC_PLACEHOLDER, False) and payload.get("ephemeral"):
            await _drop_placeholder(interaction)
    return await interaction.followup.send(wait=True, **payload)


async def defer_publicly(interaction: discord.Interaction) -> None:
    """Acknowledge ``interaction`` with Discord's public "thinking…" line, for an answer that takes a
    while to draw and is shown to everyone.

    The first follow-up takes that line's place and shows as it does, publicly; so a private answer
    (a refusal, an apology) first removes the line, then comes as a private message of its own.
    """
    await interaction.response.defer(thinking=True)
    interaction.extras[PUBLIC_PLACEHOLDER] = True


async def _drop_placeholder(interaction: discord.Interaction) -> None:
    """Delete the public "thinking…" line of ``defer_publicly`` (logged when Discord will not)."""
    try:
        await interaction.edit_original_response(content="…")  # the line done: later follow-ups are messages
        await interaction.delete_original_response()
    except discord.HTTPException as error:
        log.info("could not remove the thinking line of %s: %s", what_of(interaction), error)


def first_response(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock under which any first response to ``interaction`` is decided and sent.

    The pacer's short line ("working on your move") may fire while the answer is being sent; whoever
    holds this lock checks ``is_done()`` and answers, so the two can never both be the first response.
    """
    lock = interaction.extras.get(FIRST_RESPONSE)
    if lock is None:
        lock = interaction.extras[FIRST_RESPONSE] = asyncio.Lock()
    return lock


async def paced(interaction: discord.Interaction, channel_id: int, work: Awaitable[Any]) -> Any:
    """Run a player's action so that its interaction is acknowledged within Discord's window.

    When the action waits behind others (or takes long), the player first gets one private line
    ("busy, your action is queued"), and the answer follows as a follow-up: see ``bot.pacing``.
    """
    pacer = getattr(bot_of(interaction), "pacer", None)
    if pacer is None:
        return await work

    async def acknowledge(line: str) -> None:
        async with first_response(interaction):
            if interaction.response.is_done():
                return
            try:
                await interaction.response.send_message(line, ephemeral=True)
            except discord.HTTPException as error:
                log.info("could not acknowledge %s: %s", what_of(interaction), error)

    return await pacer.run(channel_id, work, acknowledge)


async def paced_here(interaction: discord.Interaction, work: Awaitable[Any]) -> Any:
    """``paced`` in the channel the interaction came from (its game's channel or thread): for actions
    other than moves that may wait for the channel or draw a board (start, undo, resign, seats)."""
    return await paced(interaction, interaction.channel_id or 0, work)


async def update_question(
    interaction: discord.Interaction, pressed: discord.Message, agreed: str, view: discord.ui.View
) -> None:
    """A partial answer to a question the table votes on (an undo, a seat for a bot): the question itself
    gains the line ``agreed`` and keeps its buttons; never a second question, whose buttons would stay."""
    content = f"{pressed.content}\n{agreed}"[:CONTENT_LIMIT]
    if not interaction.response.is_done():
        await interaction.response.edit_message(content=content, view=view)
        return
    try:  # the pacer answered first ("busy"): the question is edited, the presser told privately
        await pressed.edit(content=content, view=view)
    except discord.HTTPException as error:
        log.info("could not update the question %s: %s", pressed.id, error)
    await answer(interaction, content=agreed, ephemeral=True)


async def close_question(message: discord.Message | None, line: str) -> None:
    """Take the buttons off an answered question, saying how it ended."""
    if message is None:
        return
    try:
        await message.edit(content=f"{message.content}\n{line}"[:CONTENT_LIMIT], view=None)
    except discord.HTTPException as error:
        log.info("could not close the question %s: %s", message.id, error)


async def tell(interaction: discord.Interaction, message: str) -> None:
    """Answer only the caller, in one sentence."""
    await answer(interaction, content=message, ephemeral=True)


async def refuse(interaction: discord.Interaction, message: str, *, level: int = logging.DEBUG) -> None:
    """Tell only the caller, in one short sentence, why nothing happened; log it with a reference."""
    text = refusal_text(message)
    ref = secrets.token_hex(3)
    extra = {"refusal": ref, "interaction_id": interaction.id}
    log.log(level, "refused %s [ref %s]: %s", what_of(interaction), ref, text, extra=extra)
    await tell(interaction, text)


async def apologise(interaction: discord.Interaction, error: BaseException, what: str) -> None:
    """Log an unexpected failure with a reference, and tell the caller (privately) that reference."""
    ref = secrets.token_hex(3)
    extra = {"apology": ref, "interaction_id": interaction.id}
    log.error("%s failed [ref %s]", what, ref, exc_info=error, extra=extra)
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            if not interaction.response.is_done():
                await interaction.response.autocomplete([])
            return
        await tell(interaction, SORRY.format(ref=ref))
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


Command = TypeVar("Command", bound=Callable[..., Coroutine[Any, Any, None]])


def refusals(func: Command) -> Command:
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

    del wrapper.__wrapped__
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    return cast(Command, wrapper)


# -------------------------------------------------------------------------------------- autocomplete

ChoiceValue = str | int | float
_SAFE_MARK = "__pyramid_safe_autocomplete__"
_failed_autocompletes: set[tuple[str, str]] = set()


def _choice_value(value: Any, kind: AppCommandOptionType | None) -> ChoiceValue | None:
    """``value`` as a valid choice value of an option of type ``kind``; None when it cannot be one."""
    if kind is None:
        if isinstance(value, bool):
            return None
        kind = {str: AppCommandOptionType.string, int: AppCommandOptionType.integer}.get(
            type(value), AppCommandOptionType.number
        )
    if kind is AppCommandOptionType.string:
        text = clean(value) if isinstance(value, str) else clean(str(value))
        return text if 0 < len(text) <= CHOICE_TEXT else None
    if isinstance(value, bool):
        return None
    if kind is AppCommandOptionType.integer:
        typed = isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,16}", value.strip())
        if typed or (isinstance(value, float) and value.is_integer()):
            value = int(value)
        return value if isinstance(value, int) and abs(value) <= DISCORD_INT else None
    finite = isinstance(value, int | float) and math.isfinite(value) and abs(value) <= DISCORD_INT + 1
    return value if kind is AppCommandOptionType.number and finite else None


def fit_choices(
    choices: Iterable[Any] | None, kind: AppCommandOptionType | None = None
) -> list[app_commands.Choice[Any]]:
    """Autocomplete choices as Discord accepts them: at most 25, names and values of 1-100 characters,
    values of the option's type (``kind``; by default each value's own type).  Anything else is dropped.
    """
    out: list[app_commands.Choice[Any]] = []
    if choices is None or isinstance(choices, str | bytes):
        return out
    for choice in choices:
        if len(out) >= CHOICE_COUNT:
            break
        if not isinstance(choice, app_commands.Choice):
            continue
        value = _choice_value(choice.value, kind)
        if value is None:
            continue
        name = shorten(" ".join(str(choice.name).split()), CHOICE_TEXT) or shorten(str(value), CHOICE_TEXT)
        out.append(app_commands.Choice(name=name, value=value))
    return out


def as_typed(current: Any) -> str:
    """What the player has typed so far, as a string whatever Discord sent (a number, null, ...)."""
    if current is None:
        return ""
    if isinstance(current, str):
        return clean(current)
    if isinstance(current, float) and current.is_integer():
        return str(int(current))
    return clean(str(current))


def _autocomplete_failed(where: str, interaction: discord.Interaction, error: BaseException) -> None:
    """Log a failed autocomplete once with its traceback (then one line per repeat), with a reference."""
    ref = secrets.token_hex(3)
    extra = {"interaction_id": interaction.id}
    key = (where, type(error).__name__)
    if key in _failed_autocompletes:
        log.warning("autocomplete %s failed again [ref %s]: %s", where, ref, type(error).__name__, extra=extra)
        return
    _failed_autocompletes.add(key)
    log.error("autocomplete %s failed [ref %s] (user %s)", where, ref, interaction.user.id, exc_info=error, extra=extra)


def safe_autocomplete(
    func: Callable[..., Awaitable[Any]] | None = None, *, kind: AppCommandOptionType | None = None
) -> Any:
    """Make an autocomplete callback safe: it never raises, and always answers with valid choices.

    ``current`` reaches the callback as a string whatever Discord sent; an exception becomes an
    empty list (logged once, with a reference); the result goes through ``fit_choices`` for an
    option of type ``kind``.  Use as ``@safe_autocomplete`` under ``@command.autocomplete("name")``.
    Applying it twice is harmless.
    """

    def wrap(callback: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        if getattr(callback, _SAFE_MARK, False):
            return callback
        where = getattr(callback, "__qualname__", repr(callback))

        @functools.wraps(callback)
        async def guarded(*args: Any) -> list[app_commands.Choice[Any]]:
            *head, interaction, current = args
            try:
                choices = await callback(*head, interaction, as_typed(current))
                return fit_choices(choices, kind)
            except Exception as error:
                _autocomplete_failed(where, interaction, error)
                return []

        setattr(guarded, _SAFE_MARK, True)
        return guarded

    return wrap(func) if func is not None else wrap


def guard_command(command: app_commands.Command[Any, ..., Any]) -> None:
    """Wrap every autocomplete callback of ``command`` with ``safe_autocomplete`` (idempotent)."""
    for param in command._params.values():
        callback = param.autocomplete
        if callback is not None and not getattr(callback, _SAFE_MARK, False):
            param.autocomplete = safe_autocomplete(callback, kind=param.type)


def guard_autocompletes(tree: app_commands.CommandTree[Any]) -> None:
    """Wrap every autocomplete callback of the tree's commands (see ``safe_autocomplete``)."""
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            guard_command(command)
