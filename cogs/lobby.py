"""Opening games and their lobbies: ``new`` (in the channel or a new thread), Join, Start and Rematch.

The lobby message lists the seated players with Join and Start buttons; the buttons' work runs here.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.session import Actor, GameRow, ServiceError, rules_for
from cogs import buttons as game_buttons
from cogs import permissions, table
from cogs.buttons import ELSEWHERE, Control, pressed_elsewhere
from cogs.decisions import DECISION_CONTROLS
from cogs.replies import actor_of, answer, bot_of, channel_of, paced_here, run_guarded
from cogs.seats import AddBotMenu, left_server
from cogs.text import escape_user_text, without_direction_marks

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)


async def open_game(
    interaction: discord.Interaction,
    game_name: str,
    options: dict[str, Any],
    *,
    players: int | None = None,
    clock: int = 0,
    bank: int = 0,
    thread: bool = False,
    bots: int = 0,
    bot_level: str = "normal",
) -> None:
    """Create a game in the channel, or in a new thread of it, with the caller seated (and ``bots`` bots)."""
    bot = bot_of(interaction)
    if bank and not clock:
        raise ServiceError("A time bank needs a move clock: choose a clock too.")
    channel_id = channel_of(interaction)
    if lacking := permissions.missing(interaction.channel, threads=thread):
        raise ServiceError(permissions.refusal(lacking))
    actor = actor_of(interaction)
    rules = rules_for(game_name)
    parent_id = None
    created_thread = None
    if thread:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise ServiceError("Threads can only be opened from a text channel.")
        created_thread = await _open_thread(channel, without_direction_marks(f"{rules.title} — {actor.name}"))
        await _add_to_thread(created_thread, interaction.user)
        parent_id, channel_id = channel.id, created_thread.id
    try:
        game = await bot.service.new_game(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            game=game_name,
            actor=actor,
            options=options,
            max_players=players,
            clock_days=clock or None,
            bank_days=bank or None,
            thread_id=created_thread.id if created_thread else None,
            parent_channel_id=parent_id,
            bots=[bot_level] * bots,
        )
    except ServiceError:  # a refusal leaves the server as it was: no empty thread behind
        if created_thread is not None:
            await _delete_thread(created_thread)
        raise
    shown_name = escape_user_text(actor.name)
    if created_thread is not None:
        await table.post_lobby(bot, game, created_thread, f"{shown_name} opened a game of {rules.title}.")
        await answer(
            interaction,
            content=f"{shown_name} opened a game of {rules.title} in {created_thread.mention}: join it there.",
            view=game_buttons.buttons(game.id, "join"),
        )
        return
    await table.show_lobby(interaction, game, f"{shown_name} opened a game of {rules.title}.")


async def _open_thread(channel: discord.TextChannel, name: str) -> discord.Thread:
    """A public thread of ``channel`` for a new game; Discord's refusal becomes one sentence."""
    try:
        return await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    except discord.Forbidden:
        raise ServiceError(
            "I may not create threads in this channel: open the game here without thread, "
            "or ask a server manager to let me create public threads."
        ) from None
    except discord.HTTPException as error:
        log.info("Discord would not open a game thread in %s: %s", channel.id, error)
        raise ServiceError("Discord would not open a thread just now: try again, or open the game here.") from None


async def _add_to_thread(thread: discord.Thread, user: discord.abc.Snowflake) -> None:
    """Add the game's creator to its public thread; they can still open it from the link if Discord refuses."""
    try:
        await thread.add_user(user)
    except discord.HTTPException as error:
        log.info("could not add %s to the game thread %s: %s", user.id, thread.id, error)


async def _delete_thread(thread: discord.Thread) -> None:
    """Delete a thread opened for a game that was then refused (logged when Discord will not)."""
    try:
        await thread.delete()
    except discord.HTTPException as error:
        log.info("could not delete the unused thread %s: %s", thread.id, error)


async def join(interaction: discord.Interaction, channel_id: int) -> None:
    """Seat the caller in the open game of ``channel_id`` and show the lobby, under the pacer: the lobby's
    edit may wait for another change of it being shown (Discord rate-limits edits per channel)."""
    await paced_here(interaction, seat_caller(interaction, channel_id))


async def seat_caller(interaction: discord.Interaction, channel_id: int) -> None:
    """``join`` for an action already under the pacer."""
    bot = bot_of(interaction)
    actor = actor_of(interaction)
    joined = await bot.service.join(channel_id, actor)
    note = f"{escape_user_text(actor.name)} joins ({len(joined.seats)}/{joined.max_players})."
    if interaction.channel_id != channel_id and joined.thread_id:
        thread = bot.get_channel(joined.thread_id)
        if isinstance(thread, discord.Thread):
            await _add_to_thread(thread, interaction.user)  # the seat is taken either way: the link lets them in
        await answer(interaction, content=f"{note} The game is in <#{joined.thread_id}>.")
        await table.update_lobby(bot, joined, note)  # the lobby in the thread shows the new seat
        return
    await table.show_lobby(interaction, joined, note)


async def grey_notice(interaction: discord.Interaction, game: GameRow) -> None:
    """Grey out the Join of the notice pressed in the parent channel of a thread game once the game is no
    longer open (started or closed).  A full table may open a seat again, so a press on it is only
    refused: the lobby in the thread keeps its own Join up to date."""
    notice = interaction.message
    if notice is None or interaction.channel_id == game.channel_id or game.status == "open":
        return
    try:
        await notice.edit(view=game_buttons.buttons(game.id, "join", disabled=True))
    except discord.HTTPException as error:  # the notice deleted meanwhile: nothing to grey out
        log.info("could not grey out the join notice of game %s: %s", game.id, error)


async def leave(interaction: discord.Interaction, channel_id: int) -> None:
    """Take the caller out of the open game of ``channel_id``, under the pacer (as ``join``)."""
    await paced_here(interaction, _unseat_caller(interaction, channel_id))


async def _unseat_caller(interaction: discord.Interaction, channel_id: int) -> None:
    actor = actor_of(interaction)
    game = await bot_of(interaction).service.leave(channel_id, actor)
    if game.status == "aborted":
        await table.close(bot_of(interaction), game)
        await answer(interaction, content=f"{escape_user_text(actor.name)} leaves; the game is closed.")
    else:
        await table.show_lobby(interaction, game, f"{escape_user_text(actor.name)} leaves.")


async def start(interaction: discord.Interaction, channel_id: int, *, confirmed: int | None = None) -> None:
    """Deal the open game of ``channel_id`` out and post its first board.

    Below the table size asked for at creation, the starter first confirms with a button that carries
    the number of players it asked about (``confirmed``): a table that changed since is asked again.
    """
    await paced_here(interaction, _start(interaction, channel_id, confirmed))


class StartNowButton(
    Control,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pg:start-now:(?P<game_id>[0-9]{1,19}):(?P<seats>[0-9]{1,3})",
):
    """ "Start now" under the question of a short table: its id carries the table size asked about."""

    def __init__(self, game_id: int, seats: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=game_buttons.LABELS["start-now"],
                style=game_buttons.STYLES["start-now"],
                custom_id=f"pg:start-now:{game_id}:{seats}",
            )
        )
        self.game_id = game_id
        self.seats = seats

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StartNowButton:
        return cls(int(match["game_id"]), int(match["seats"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            game = await bot_of(interaction).service.game(self.game_id)
            if game is None or game.status != "open":
                raise ServiceError("This game is not waiting for players any more.")
            if pressed_elsewhere(interaction, game.channel_id):
                raise ServiceError(ELSEWHERE)
            await start(interaction, game.channel_id, confirmed=self.seats)

        await run_guarded(interaction, f"start-now button of game {self.game_id}", work())


async def _start(interaction: discord.Interaction, channel_id: int, confirmed: int | None) -> None:
    bot = bot_of(interaction)
    actor = actor_of(interaction)
    if await _release_gone_opener(interaction, channel_id, actor):
        return
    game = await bot.service.check_start(channel_id, actor)
    count = len(game.seats)
    if count < game.max_players and confirmed is None:
        title = rules_for(game.game).title
        if count == 1 and game.seats[0].user_id == actor.user_id:
            question = f"Only you have joined. Start {title} as solitaire, on your own?"
        elif count == 1:  # a server manager starting someone else's lobby
            name = escape_user_text(game.seats[0].display_name)
            question = f"Only {name} has joined. Start {title} as solitaire, for {name} alone?"
        else:
            question = f"{count} of {game.max_players} players have joined. Start a {count}-player game of {title} now?"
        view = discord.ui.View(timeout=None)
        view.add_item(StartNowButton(game.id, count))
        await answer(interaction, content=question, view=view, ephemeral=True)
        return
    agreed = count if confirmed is None else confirmed  # the table as seen: one that changes meanwhile is asked again
    await table.show(interaction, await bot.service.start(channel_id, actor, seats=agreed, token=interaction.token))


async def _release_gone_opener(interaction: discord.Interaction, channel_id: int, actor: Actor) -> bool:
    """When a seated player who is not the lobby's opener presses Start and Discord says the opener has
    left the server, the opener's seat is given up for them and the lobby shown as it now is (Join offered
    again, the footer saying a seated player starts it); True when so, and the press is answered.  The
    lobby is then started by any player seated, instead of waiting for someone who can never press Start."""
    game = await bot_of(interaction).service.live_game(channel_id)
    if game is None or game.status != "open" or actor.user_id == game.creator_id or actor.can_manage:
        return False
    opener = next((row for row in game.seats if row.user_id == game.creator_id), None)
    if game.seat_of(actor.user_id) is None or opener is None:
        return False
    if not await left_server(interaction.guild, game.creator_id):
        return False
    freed = await bot_of(interaction).service.leave(channel_id, Actor(game.creator_id, opener.display_name))
    name = escape_user_text(opener.display_name)
    await table.show_lobby(
        interaction, freed, f"{name} has left the server: their seat is free. Press Start again to start."
    )
    return True


class Lobby(commands.Cog):
    """The lobby's buttons: Join, Leave, Start and Rematch."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        presses = (
            ("join", self._join),
            ("leave", self._leave),
            ("start", self._start),
            ("start-now", self._start_now),  # a question asked before its button carried the table size
            ("rematch", self._rematch),
        )
        for action, work in presses:
            game_buttons.on_press(action, work)
        self.bot.add_dynamic_items(*PERSISTENT_CONTROLS)

    async def _game(self, game_id: int, *, live: bool = True) -> GameRow:
        game = await self.bot.service.game(game_id)
        if game is None:
            raise ServiceError("This button belongs to a game that no longer exists.")
        if live and game.status not in ("open", "active"):
            raise ServiceError("This button belongs to a game that has ended.")
        return game

    async def _join(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work() -> None:
            try:
                await join(interaction, (await self._game(game_id)).channel_id)
            except ServiceError:  # started or over: a thread game's notice says so from now on
                if (game := await self.bot.service.game(game_id)) is not None:
                    await grey_notice(interaction, game)
                raise

        await run_guarded(interaction, f"join button of game {game_id}", work())

    async def _leave(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work() -> None:
            await leave(interaction, (await self._game(game_id)).channel_id)

        await run_guarded(interaction, f"leave button of game {game_id}", work())

    async def _start(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work() -> None:
            await start(interaction, (await self._game(game_id)).channel_id)

        await run_guarded(interaction, f"start button of game {game_id}", work())

    async def _start_now(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work() -> None:  # asks again, with the table as it is now
            await start(interaction, (await self._game(game_id)).channel_id)

        await run_guarded(interaction, f"start-now button of game {game_id}", work())

    async def _rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        async def work() -> None:
            game = await self._game(game_id, live=False)
            actor = actor_of(interaction)
            if game.status not in ("finished", "aborted"):
                raise ServiceError("That game is still running.")
            if not game.played_in(actor.user_id):
                raise ServiceError("Only the players of that game can ask for a rematch.")
            try:
                fresh = await self.bot.service.rematch(game, actor)
            except ServiceError:
                live = await self.bot.service.live_game(game.channel_id)
                if live is None or live.status != "open" or not live.is_rematch_of(game):
                    raise
                await seat_caller(interaction, live.channel_id)  # another player asked first: a seat in it
                return
            bots = sum(row.is_bot for row in fresh.seats)
            against = (
                (" against the same computer player" if bots == 1 else f" against the same {bots} computer players")
                if bots
                else ""
            )
            ask = "press Start" if len(fresh.seats) == fresh.max_players else "press Join to play again"
            await table.show_lobby(
                interaction, fresh, f"{escape_user_text(actor.name)} asks for a rematch{against}: {ask}."
            )

        await run_guarded(interaction, f"rematch button of game {game_id}", paced_here(interaction, work()))


PERSISTENT_CONTROLS = (game_buttons.GameButton, StartNowButton, AddBotMenu, *DECISION_CONTROLS)


async def setup(bot: PyramidBot) -> None:
    """Load the lobby."""
    await bot.add_cog(Lobby(bot))
