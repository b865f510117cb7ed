"""What a player hears when a command fails: one private sentence, and a log line with a reference.

Every interaction is guarded:

* before a command runs (``check_options``), its options are checked against what the command
  declares (type, range, length, choices, resolved users and channels), as Discord itself would; a
  forged or garbled value is refused with one sentence naming the option, and the command never
  sees it;
* every autocomplete callback is wrapped by ``safe_autocomplete`` (it gets a string, never raises,
  and answers with valid choices);
* ``on_app_command_error`` turns what still fails into one private sentence: a ``ServiceError`` is
  a refusal, a conversion error or a failed check says what to fix, and anything else is logged
  with a reference and apologised for;
* a press on a control in the bot's namespaces (``pg:``, ``pt:``) that no control handles any more
  (an old or forged id) is answered "That button does nothing any more." (``orphaned``).

Loading this extension also makes every log line of the process safe to write (``bot.logsafe``).
"""

from __future__ import annotations

import logging
import math
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as OptionType
from discord.ext import commands

from bot import logsafe
from bot.session import ServiceError
from cogs.buttons import STALE
from cogs.messages import plural
from cogs.replies import DISCORD_INT, apologise, custom_id_of, guard_autocompletes, guard_command, refuse
from cogs.text import shorten

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

NO_PERMISSION = "You do not have permission to do that here."
GARBLED = "That command arrived garbled; please try it again."
STALE_COMMAND = "That command has changed since Discord showed it to you; reload Discord and try again."
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
NAMESPACE = re.compile(r"[A-Za-z0-9_-]+:")
SNOWFLAKE_MAX = 2**64 - 1
RESOLVED = {
    OptionType.user: ("users",),
    OptionType.channel: ("channels",),
    OptionType.role: ("roles",),
    OptionType.mentionable: ("users", "roles"),
    OptionType.attachment: ("attachments",),
}
WHAT_IS_EXPECTED = {
    OptionType.user: "a member of this server",
    OptionType.channel: "a channel of this server",
    OptionType.role: "a role of this server",
    OptionType.mentionable: "a member or a role of this server",
    OptionType.attachment: "an uploaded file",
}
CHOICES_SHOWN = 150  # characters of choice names listed in a sentence


class Errors(commands.Cog):
    """Installs the command tree's guards: the option check, safe autocompletes and the error handler."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        logsafe.install()
        tree = self.bot.tree
        tree.on_error = on_app_command_error  # type: ignore[method-assign]
        tree.interaction_check = check_options  # type: ignore[method-assign]
        guard_autocompletes(tree)

    async def cog_unload(self) -> None:
        for name in ("on_error", "interaction_check"):
            self.bot.tree.__dict__.pop(name, None)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press on a control of the bot's that no control handles any more (an old format)."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = custom_id_of(interaction)
        if custom_id is not None and orphaned(custom_id) and not interaction.response.is_done():
            await refuse(interaction, STALE, level=logging.INFO)


# ------------------------------------------------------------------------------------ orphaned controls


def dynamic_templates() -> list[re.Pattern[str]]:
    """The custom-id templates of every kind of persistent control (``DynamicItem`` subclasses)."""
    found = []
    pending = list(discord.ui.DynamicItem.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        template = getattr(cls, "__discord_ui_compiled_template__", None)
        if isinstance(template, re.Pattern):
            found.append(template)
    return found


def orphaned(custom_id: str) -> bool:
    """True for an id in the bot's own namespaces (``pg:``, ``pt:``: the literal start of a template)
    that no template matches: nothing would answer a press on it."""
    templates = dynamic_templates()
    prefixes = {m.group() for t in templates if (m := NAMESPACE.match(t.pattern))}
    return custom_id.startswith(tuple(prefixes)) and not any(t.fullmatch(custom_id) for t in templates)


# ------------------------------------------------------------------------------------ the option check


def _name(param: app_commands.Parameter) -> str:
    return f"`{param.display_name}`"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def command_of(interaction: discord.Interaction) -> Any:
    """The command ``interaction`` calls, or None (not found, or data too garbled to tell)."""
    try:
        return interaction.command
    except Exception:
        return None


def _number_sentence(param: app_commands.Parameter, whole: bool) -> str:
    kind = "a whole number" if whole else "a number"
    low, high = param.min_value, param.max_value
    if low is not None and high is not None:
        return f"{_name(param)} must be {kind} from {_num(low)} to {_num(high)}."
    if low is not None:
        return f"{_name(param)} must be {kind} of at least {_num(low)}."
    if high is not None:
        return f"{_name(param)} must be {kind} of at most {_num(high)}."
    return f"{_name(param)} must be {kind} Discord accepts (at most 16 digits)."


def _choice_sentence(param: app_commands.Parameter) -> str:
    names = ", ".join(c.name for c in param.choices)
    if len(names) > CHOICES_SHOWN:
        return f"{_name(param)} must be one of the choices Discord lists for it."
    return f"{_name(param)} must be one of: {names}."


def _length_sentence(param: app_commands.Parameter) -> str:
    low, high = param.min_value, param.max_value
    if low and high:
        if low == 1:
            return f"{_name(param)} cannot be empty, and must be at most {_num(high)} characters."
        return f"{_name(param)} must be {_num(low)} to {_num(high)} characters long."
    if low:
        return f"{_name(param)} must be at least {_num(low)} characters long."
    if high:
        return f"{_name(param)} must be at most {_num(high)} characters long."
    return f"{_name(param)} is not a length Discord accepts."


def _in_range(param: app_commands.Parameter, value: float) -> bool:
    return (param.min_value is None or value >= param.min_value) and (
        param.max_value is None or value <= param.max_value
    )


def option_problem(param: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> str | None:
    """Why ``value`` (as received) cannot fill ``param``, in one sentence naming it; None when it can."""
    problem = _value_problem(param, value, resolved)
    offered = param.choices and not param.autocomplete
    if offered and (problem is not None or value not in [c.value for c in param.choices]):
        return _choice_sentence(param)
    return problem


def _value_problem(param: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> str | None:
    kind = param.type
    if kind is OptionType.string:
        if not isinstance(value, str):
            return f"{_name(param)} must be text."
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return f"{_name(param)} holds characters that cannot be stored; type it again."
        if "\x00" in value:
            return f"{_name(param)} holds characters that cannot be stored; type it again."
        too_short = param.min_value is not None and len(value) < param.min_value
        if too_short or (param.max_value is not None and len(value) > param.max_value):
            return _length_sentence(param)
    elif kind is OptionType.integer:
        if isinstance(value, bool) or not isinstance(value, int):
            return _number_sentence(param, whole=True)
        if abs(value) > DISCORD_INT or not _in_range(param, value):
            return _number_sentence(param, whole=True)
    elif kind is OptionType.number:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return _number_sentence(param, whole=False)
        if not math.isfinite(value) or abs(value) > DISCORD_INT + 1 or not _in_range(param, value):
            return _number_sentence(param, whole=False)
    elif kind is OptionType.boolean:
        if not isinstance(value, bool):
            return f"{_name(param)} must be true or false."
    elif kind in RESOLVED:
        key = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
        if not SNOWFLAKE.fullmatch(key) or int(key) > SNOWFLAKE_MAX:
            return f"{_name(param)} must be {WHAT_IS_EXPECTED[kind]}."
        if not any(key in (resolved.get(bucket) or {}) for bucket in RESOLVED[kind]):
            return f"{_name(param)} must be {WHAT_IS_EXPECTED[kind]}."
    return None


def leaf_options(data: Any) -> list[dict[str, Any]]:
    """The options given to the (sub)command itself, below any group and subcommand layers."""
    options = data.get("options") if isinstance(data, dict) else None
    options = options if options is not None else []
    while options and isinstance(options[0], dict) and options[0].get("type") in (1, 2):
        options = options[0].get("options") or []
    if not isinstance(options, list) or not all(isinstance(o, dict) for o in options):
        raise ValueError("options are not a list of objects")
    return options


def command_problem(command: app_commands.Command[Any, ..., Any], data: Any) -> str | None:
    """The first option of ``data`` that ``command`` cannot accept, as one sentence; None when all fit."""
    given = {o.get("name"): o for o in leaf_options(data)}
    resolved = data.get("resolved") or {}
    if not isinstance(resolved, dict):
        raise ValueError("resolved data is not an object")
    for param in command.parameters:
        option = given.get(param.display_name)
        if option is None:
            if param.required:
                return f"{_name(param)} is required."
            continue
        problem = option_problem(param, option.get("value"), resolved)
        if problem is not None:
            return problem
    return None


def drop_invalid_filled(command: app_commands.Command[Any, ..., Any], data: Any) -> None:
    """Remove, from an autocomplete request, the options already filled with values Discord would not
    send, so the suggestions never read them (the option being typed is left as it is)."""
    options = leaf_options(data)
    resolved = data.get("resolved") or {}
    params = {p.display_name: p for p in command.parameters}
    options[:] = [
        o
        for o in options
        if o.get("focused")
        or o.get("name") not in params
        or option_problem(params[o["name"]], o.get("value"), resolved if isinstance(resolved, dict) else {}) is None
    ]


async def check_options(interaction: discord.Interaction) -> bool:
    """The tree's check before any command or autocomplete runs: refuse options Discord would not send.

    Autocomplete callbacks are made safe on the way (commands loaded after this cog included).
    """
    if interaction.type is discord.InteractionType.autocomplete:
        command = command_of(interaction)
        if isinstance(command, app_commands.Command):
            guard_command(command)
            try:
                drop_invalid_filled(command, interaction.data)
            except (TypeError, ValueError, AttributeError):
                log.info("garbled autocomplete for /%s", command.qualified_name)
        return True
    if interaction.type is not discord.InteractionType.application_command:
        return True
    command = command_of(interaction)
    if not isinstance(command, app_commands.Command):
        return True  # not found, or a context menu: the tree reports it to ``on_app_command_error``
    try:
        problem = command_problem(command, interaction.data)
    except (TypeError, ValueError, AttributeError):
        log.warning("garbled options for /%s: %s", command.qualified_name, shorten(repr(interaction.data), 300))
        problem = GARBLED
    if problem is None:
        return True
    await refuse(interaction, problem, level=logging.INFO)
    return False


# ---------------------------------------------------------------------------------- the error handler


def _option_of(interaction: discord.Interaction, error: app_commands.TransformerError) -> str | None:
    """The name of the option whose value failed to convert (matched by the value Discord sent)."""
    try:
        options = leaf_options(interaction.data)
    except ValueError:
        return None
    wanted = getattr(error.value, "id", error.value)
    for option in options:
        value = option.get("value")
        if value == wanted or (value is not None and str(value) == str(wanted)):
            name = option.get("name")
            return name if isinstance(name, str) else None
    return None


def transformer_sentence(interaction: discord.Interaction, error: app_commands.TransformerError) -> str:
    """One sentence naming the option that could not be converted, without echoing its value."""
    name = _option_of(interaction, error)
    what = f"`{name}`" if name else "One of the options"
    transformer = error.transformer
    choices = getattr(transformer, "choices", None)
    if choices:
        names = ", ".join(c.name for c in choices)
        if len(names) <= CHOICES_SHOWN:
            return f"{what} must be one of: {names}."
        return f"{what} must be one of the choices Discord lists for it."
    expected = WHAT_IS_EXPECTED.get(error.type)
    if error.type is OptionType.user:
        expected = "a member of this server"
    elif error.type is OptionType.channel:
        types = getattr(transformer, "channel_types", None) or []
        if types:
            expected = "a channel of these kinds: " + ", ".join(str(t.name).replace("_", " ") for t in types)
    if expected:
        return f"{what} must be {expected}."
    return f"{what} is not valid here; check it and try again."


def check_sentence(error: app_commands.CheckFailure) -> str:
    """What a failed check means for the player, in one sentence."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works in a server channel only."
    if isinstance(error, app_commands.MissingPermissions):
        return f"You need the {_perms(error.missing_permissions)} permission to do that here."
    if isinstance(error, app_commands.BotMissingPermissions):
        return f"I need the {_perms(error.missing_permissions)} permission in this channel to do that."
    if isinstance(error, app_commands.MissingRole | app_commands.MissingAnyRole):
        return "You do not have the role needed to do that here."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {plural(math.ceil(error.retry_after), 'second')}."
    return NO_PERMISSION


def _perms(names: list[str]) -> str:
    return " and ".join(n.replace("_", " ").replace("guild", "server").title() for n in names) or "right"


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Refusals and input errors become one private sentence; anything else is logged and apologised for."""
    original = getattr(error, "original", error)
    called = command_of(interaction)
    command = called.qualified_name if called is not None else "interaction"
    if interaction.type is discord.InteractionType.autocomplete:
        await apologise(interaction, original, f"autocomplete of /{command}")
    elif isinstance(original, ServiceError):
        await refuse(interaction, str(original))
    elif isinstance(error, app_commands.TransformerError):
        await refuse(interaction, transformer_sentence(interaction, error), level=logging.INFO)
    elif isinstance(error, app_commands.CheckFailure):
        await refuse(interaction, check_sentence(error), level=logging.INFO)
    elif isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        await refuse(interaction, STALE_COMMAND, level=logging.WARNING)
    else:
        await apologise(interaction, original, f"/{command}")


async def setup(bot: PyramidBot) -> None:
    """Load the error handler."""
    await bot.add_cog(Errors(bot))
