"""The Join and Check in buttons under a tournament's card, which keep working after a restart."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.session.tournament_records import CHECKIN, TournamentRow
from cogs.buttons import STALE, Control, valid_id
from cogs.replies import refuse, run_guarded

COG_NAME = "TournamentCommands"  # the cog that handles a press (``_commands.TournamentCommands``)


class TournamentButton(
    Control, discord.ui.DynamicItem[discord.ui.Button], template=r"pt:(?P<action>join|checkin):(?P<tournament>[0-9]+)"
):
    """Join or Check in under a tournament's announcement; handled by the tournament commands."""

    def __init__(self, action: str, tournament_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join" if action == "join" else "Check in",
                style=discord.ButtonStyle.success,
                custom_id=f"pt:{action}:{tournament_id}",
            )
        )
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TournamentButton:
        return cls(match["action"], int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: Any = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if not valid_id(self.tournament_id):
            await refuse(interaction, STALE)
            return
        if cog is None:
            await refuse(interaction, "Tournaments are not available right now.")
            return
        await run_guarded(
            interaction, f"tournament {self.action} button", cog.press(interaction, self.action, self.tournament_id)
        )


def button_actions(tournament: TournamentRow) -> tuple[str, ...]:
    """The buttons the tournament's registration has now: Join while it is open, and Check in during
    check-in; none once it is over."""
    if not tournament.is_open:
        return ()
    return ("join", "checkin") if tournament.status == CHECKIN else ("join",)


def tournament_buttons(tournament: TournamentRow) -> discord.ui.View | None:
    """Join (while registration is open) and Check in (during check-in) buttons."""
    actions = button_actions(tournament)
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(TournamentButton(action, tournament.id))
    return view
