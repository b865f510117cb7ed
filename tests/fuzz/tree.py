"""Every command and option of the bot, read from its command tree: what the fuzzer sends.

Nothing here names a command: ``leaves(bot.tree)`` walks the tree's groups and subcommands, and
each option carries its type, choices, range, length and whether it autocompletes, so a command
added tomorrow is fuzzed without a line written for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from discord import app_commands
from discord.enums import AppCommandOptionType, AppCommandType, ChannelType

SUBCOMMAND_TYPES = (AppCommandOptionType.subcommand, AppCommandOptionType.subcommand_group)


@dataclass(frozen=True)
class OptionSpec:
    """One option of a (sub)command as Discord shows it."""

    name: str
    type: AppCommandOptionType
    required: bool
    min_value: int | float | None
    max_value: int | float | None
    choices: tuple[Any, ...]
    autocomplete: bool
    channel_types: tuple[ChannelType, ...]

    @property
    def snowflake(self) -> bool:
        """True for options whose value is an id resolved by Discord (users, channels, roles, files)."""
        return self.type in (
            AppCommandOptionType.user,
            AppCommandOptionType.channel,
            AppCommandOptionType.role,
            AppCommandOptionType.mentionable,
            AppCommandOptionType.attachment,
        )


@dataclass(frozen=True)
class CommandSpec:
    """A leaf slash command (``("combat", "new")``) and its options."""

    path: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    guild_only: bool

    @property
    def name(self) -> str:
        """``combat new``: the name SimCord and Discord use."""
        return " ".join(self.path)

    @property
    def autocompleted(self) -> tuple[OptionSpec, ...]:
        """The options that answer autocomplete requests."""
        return tuple(o for o in self.options if o.autocomplete)


def option_spec(param: app_commands.Parameter) -> OptionSpec:
    """What the tree declares for one parameter."""
    return OptionSpec(
        name=param.display_name,
        type=param.type,
        required=param.required,
        min_value=param.min_value,
        max_value=param.max_value,
        choices=tuple(c.value for c in param.choices),
        autocomplete=param.autocomplete,
        channel_types=tuple(param.channel_types),
    )


def leaves(tree: app_commands.CommandTree[Any]) -> list[CommandSpec]:
    """Every leaf slash command of ``tree`` (global commands, groups and subcommands, recursively)."""
    found: list[CommandSpec] = []

    def visit(node: Any, path: tuple[str, ...], guild_only: bool) -> None:
        guild_only = guild_only or bool(getattr(node, "guild_only", False))
        if isinstance(node, app_commands.Group):
            for child in node.commands:
                visit(child, (*path, child.name), guild_only)
        elif isinstance(node, app_commands.Command):
            found.append(CommandSpec(path, tuple(option_spec(p) for p in node.parameters), guild_only))

    for command in tree.get_commands(type=AppCommandType.chat_input):
        visit(command, (command.name,), False)
    return sorted(found, key=lambda c: c.path)
