"""The controls under a game's living message: Roll, a button for each quick decision, a menu of moves.

Every control carries the game and the ply it was offered at, so a press on an old board is refused
with one sentence and a double press plays once.  What a control does runs here, in its callback.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord

from bot.session import Actor, GameService, MoveOption, Report
from cogs.buttons import STALE, GameButton, valid_id

MENU_LIMIT = 25  # Discord's options per select menu
BUTTON_ROW = 5
BUTTON_STYLES = {
    "counter": discord.ButtonStyle.danger,
    "decline": discord.ButtonStyle.secondary,
    "pass": discord.ButtonStyle.secondary,
    "end": discord.ButtonStyle.secondary,
    "no": discord.ButtonStyle.secondary,
    "stay": discord.ButtonStyle.secondary,
}
MAX_BUTTONS = 10  # at most two rows of quick decisions; more become the menu
MESSAGE_ROWS = 5  # Discord's rows of controls per message


class PickButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pg:pick:(?P<game_id>[0-9]{1,19}):(?P<ply>[0-9]{1,9}):(?P<index>[0-9]{1,4})",
):
    """A quick decision: plays the ``index``-th legal move offered at ``ply``."""

    def __init__(self, game_id: int, ply: int, index: int, label: str = "?", kind: str = "move") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] or "?",
                style=BUTTON_STYLES.get(kind, discord.ButtonStyle.primary),
                custom_id=f"pg:pick:{game_id}:{ply}:{index}",
            )
        )
        self.game_id, self.ply, self.index = game_id, ply, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickButton:
        return cls(int(match["game_id"]), int(match["ply"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await play_choice(interaction, self.game_id, self.ply, self.index)


class RollButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pg:roll:(?P<game_id>[0-9]{1,19}):(?P<ply>[0-9]{1,9})",
):
    """Roll the dice asked for at ``ply``: a second press of the same button finds the board moved on."""

    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Roll", style=discord.ButtonStyle.primary, emoji="🎲", custom_id=f"pg:roll:{game_id}:{ply}"
            )
        )
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RollButton:
        return cls(int(match["game_id"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await play_roll(interaction, self.game_id, self.ply)


class MoveMenu(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:menu:(?P<game_id>[0-9]{1,19}):(?P<ply>[0-9]{1,9})(?::(?P<part>[0-9]))?",
):
    """A menu of up to 25 legal moves offered at ``ply``; ``part`` numbers it among several, where the
    moves take more than one menu (its values are the moves' indices among all, so any part plays)."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        options: list[MoveOption] | None = None,
        part: int | None = None,
        placeholder: str = "Choose your move…",
    ) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"pg:menu:{game_id}:{ply}" + ("" if part is None else f":{part}"),
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(
                    label=o.label[:100] or o.notation[:100], value=str(o.index), description=o.hint[:100] or None
                )
                for o in (options or [])
            ]
            or [discord.SelectOption(label="—", value="-1")],
        )
        super().__init__(select)
        self.game_id, self.ply = game_id, ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveMenu:
        made = cls(int(match["game_id"]), int(match["ply"]), part=int(match["part"]) if match["part"] else None)
        made.item = cast(discord.ui.Select[Any], item)
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        try:
            index = int(values[0])
        except (IndexError, ValueError):
            index = -1
        await play_choice(interaction, self.game_id, self.ply, index)


async def play_choice(interaction: discord.Interaction, game_id: int, ply: int, index: int) -> None:
    """Play what a control offered, for whoever pressed it."""
    await _on_running_game(
        interaction,
        game_id,
        f"choice in game {game_id}",
        lambda service, channel_id, actor: service.choose(channel_id, actor, ply, index, token=interaction.token),
    )


async def play_roll(interaction: discord.Interaction, game_id: int, ply: int | None) -> None:
    """Roll for whoever pressed Roll; ``ply`` is where the button was offered (None on an older button)."""
    await _on_running_game(
        interaction,
        game_id,
        f"roll button of game {game_id}",
        lambda service, channel_id, actor: service.roll(channel_id, actor, offered_at=ply, token=interaction.token),
    )


async def _on_running_game(
    interaction: discord.Interaction,
    game_id: int,
    what: str,
    action: Callable[[GameService, int, Actor], Awaitable[Report]],
) -> None:
    """Run a control's ``action`` (service, channel, presser) on its game while it runs, and show the result."""
    from bot.session import ServiceError
    from cogs import table
    from cogs.replies import actor_of, bot_of, refuse, run_guarded

    if not valid_id(game_id):
        await refuse(interaction, STALE)
        return

    async def work() -> None:
        service = bot_of(interaction).service
        game = await service.game(game_id)
        if game is None or game.status != "active":  # a running game is its channel's live one
            raise ServiceError("This board belongs to a game that is not running any more.")
        await table.act(interaction, game.channel_id, action(service, game.channel_id, actor_of(interaction)))

    await run_guarded(interaction, what, work())


def controls(report: Report) -> discord.ui.View | None:
    """The controls for the living message of ``report``: what the player to act can press."""
    game = report.game
    if report.outcome is not None or game.status in ("finished", "aborted"):
        if game.tournament_id is not None:  # the tournament pairs the next game; a rematch is refused
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(GameButton("rematch", game.id))
        return view
    if game.status != "active" or report.state is None:
        return None
    view = discord.ui.View(timeout=None)
    if report.needs_roll:
        view.add_item(RollButton(game.id, game.ply))
        return view
    quick, menus = laid_out(report.options())
    for option in quick:
        view.add_item(PickButton(game.id, game.ply, option.index, option.label, option.kind))
    for part, chunk in enumerate(menus):
        if len(menus) == 1:
            view.add_item(MoveMenu(game.id, game.ply, chunk))
            continue
        start = part * MENU_LIMIT + 1
        where = f"Moves {start}-{start + len(chunk) - 1}: {chunk[0].label} … {chunk[-1].label}"
        if len(chunk) == 1:
            where = f"Move {start}: {chunk[0].label}"
        view.add_item(MoveMenu(game.id, game.ply, chunk, part, where))
    return view if view.children else None


def laid_out(options: list[MoveOption]) -> tuple[list[MoveOption], list[list[MoveOption]]]:
    """The quick decisions shown as buttons, and the other moves cut into menus of 25.

    A message holds five rows: a row of up to five buttons, or one menu.  The moves take as many menus
    as the rows left over allow; when they need more, no menu is shown (a part of them would hide the
    rest) and the player types the move, which the board then says (``needs_typing``).
    """
    quick = [o for o in options if o.quick]
    rest = [o for o in options if not o.quick]
    if len(options) <= BUTTON_ROW:  # a handful of answers: a button each
        quick, rest = options, []
    quick = quick[:MAX_BUTTONS]
    rows_left = MESSAGE_ROWS - -(-len(quick) // BUTTON_ROW)
    menus = [rest[i : i + MENU_LIMIT] for i in range(0, len(rest), MENU_LIMIT)]
    return quick, menus if len(menus) <= rows_left else []


def needs_typing(options: list[MoveOption]) -> bool:
    """True when some of ``options`` are on no button or menu: the player types them (``/<game> move``)."""
    quick, menus = laid_out(options)
    return len(quick) + sum(len(menu) for menu in menus) < len(options)


DYNAMIC_ITEMS = (PickButton, RollButton, MoveMenu)
