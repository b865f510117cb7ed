"""The controls under a game's living message: Roll, a button for each quick decision, a menu of moves.

Every control carries the game and the mark of the position it was offered in (its ply and a print
of the position, ``bot.session.marks``), so a press on an old board, or on a board from before an
undo, is refused with one sentence and a double press plays once.  What a control does runs here, in its callback.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord

from bot.session import MARK, Actor, GameService, Mark, MoveOption, Report, mark_of
from cogs.buttons import ELSEWHERE, STALE, Control, GameButton, pressed_elsewhere, valid_id

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
    Control,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"pg:pick:(?P<game_id>[0-9]{{1,19}}):{MARK}:(?P<index>[0-9]{{1,4}})",
):
    """A quick decision: plays the ``index``-th legal move offered where ``mark`` says."""

    def __init__(self, game_id: int, mark: Mark, index: int, label: str = "?", kind: str = "move") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80] or "?",
                style=BUTTON_STYLES.get(kind, discord.ButtonStyle.primary),
                custom_id=f"pg:pick:{game_id}:{mark}:{index}",
            )
        )
        self.game_id, self.mark, self.index = game_id, mark, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickButton:
        return cls(int(match["game_id"]), Mark.parse(match["ply"], match["print"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await play_choice(interaction, self.game_id, self.mark, self.index)


class RollButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"pg:roll:(?P<game_id>[0-9]{{1,19}}):{MARK}",
):
    """Roll the dice asked for where ``mark`` says: a second press of the same button finds the board moved on."""

    def __init__(self, game_id: int, mark: Mark) -> None:
        super().__init__(
            discord.ui.Button(
                label="Roll", style=discord.ButtonStyle.primary, emoji="🎲", custom_id=f"pg:roll:{game_id}:{mark}"
            )
        )
        self.game_id, self.mark = game_id, mark

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RollButton:
        return cls(int(match["game_id"]), Mark.parse(match["ply"], match["print"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await play_roll(interaction, self.game_id, self.mark)


class MoveMenu(
    Control,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"pg:menu:(?P<game_id>[0-9]{{1,19}}):{MARK}(?::(?P<part>[0-9]))?",
):
    """A menu of up to 25 legal moves offered where ``mark`` says; ``part`` numbers it among several, where the
    moves take more than one menu (its values are the moves' indices among all, so any part plays)."""

    def __init__(
        self,
        game_id: int,
        mark: Mark,
        options: list[MoveOption] | None = None,
        part: int | None = None,
        placeholder: str = "Choose your move…",
    ) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"pg:menu:{game_id}:{mark}" + ("" if part is None else f":{part}"),
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
        self.game_id, self.mark = game_id, mark

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MoveMenu:
        part = int(match["part"]) if match["part"] else None
        made = cls(int(match["game_id"]), Mark.parse(match["ply"], match["print"]), part=part)
        made.item = cast(discord.ui.Select[Any], item)
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        try:
            index = int(values[0])
        except (IndexError, ValueError):
            index = -1
        await play_choice(interaction, self.game_id, self.mark, index)


async def play_choice(interaction: discord.Interaction, game_id: int, mark: Mark, index: int) -> None:
    """Play what a control offered, for whoever pressed it."""
    await _on_running_game(
        interaction,
        game_id,
        f"choice in game {game_id}",
        lambda service, channel_id, actor: service.choose(channel_id, actor, mark, index, token=interaction.token),
    )


async def play_roll(interaction: discord.Interaction, game_id: int, mark: Mark | None) -> None:
    """Roll for whoever pressed Roll; ``mark`` is where the button was offered (None on an older button)."""
    await _on_running_game(
        interaction,
        game_id,
        f"roll button of game {game_id}",
        lambda service, channel_id, actor: service.roll(channel_id, actor, offered_at=mark, token=interaction.token),
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
        if pressed_elsewhere(interaction, game.channel_id):
            raise ServiceError(ELSEWHERE)
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
    if not report.acting_users:  # a computer player's turn: it plays by itself, nothing to press
        return None
    view = discord.ui.View(timeout=None)
    mark = mark_of(game)
    if report.needs_roll:
        view.add_item(RollButton(game.id, mark))
        return view
    quick, menus = laid_out(report.options())
    for option in quick:
        view.add_item(PickButton(game.id, mark, option.index, option.label, option.kind))
    for part, chunk in enumerate(menus):
        if len(menus) == 1:
            view.add_item(MoveMenu(game.id, mark, chunk))
            continue
        start = part * MENU_LIMIT + 1
        where = f"Moves {start}-{start + len(chunk) - 1}: {chunk[0].label} … {chunk[-1].label}"
        if len(chunk) == 1:
            where = f"Move {start}: {chunk[0].label}"
        view.add_item(MoveMenu(game.id, mark, chunk, part, where))
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


DECISION_CONTROLS = (PickButton, RollButton, MoveMenu)
