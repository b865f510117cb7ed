"""The core commands shared by every game: ``/game ...`` and ``/rules``."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.session import ServiceError, UndoStatus, options_in_play, outcome_from_json, rules_for
from bot.session.table_questions import UNDO
from cogs import buttons as game_buttons
from cogs import questions, seats, table
from cogs.base import post_board
from cogs.decisions import play_roll
from cogs.help import RulesCommand
from cogs.messages import NO_PINGS, NO_RESULT, clock_text, options_line, players_line, plural, result_head, told
from cogs.replies import (
    actor_of,
    answer,
    channel_of,
    defer_publicly,
    paced_here,
    refusals,
    run_guarded,
    tell,
    update_question,
)
from cogs.text import escape_user_text, whole_items
from renderers.replay import animate, frame_count, pick_frames

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)


class GameCommands(commands.GroupCog, group_name="game", group_description="Commands for any game"):
    """``/game status|resign|abort|history|mine``."""

    def __init__(self, bot: PyramidBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        game_buttons.on_press("roll", self._roll_button)
        game_buttons.on_press("undo-yes", self._undo_yes)
        game_buttons.on_press("undo-no", self._undo_no)
        game_buttons.on_press("seat-yes", self._seat_yes)
        game_buttons.on_press("seat-no", self._seat_no)

    async def _roll_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """A Roll button posted before buttons carried their ply."""
        await play_roll(interaction, game_id, None)

    async def _undo_yes(self, interaction: discord.Interaction, game_id: int) -> None:
        await run_guarded(interaction, f"undo answer in game {game_id}", self._answer_undo(interaction, game_id, True))

    async def _undo_no(self, interaction: discord.Interaction, game_id: int) -> None:
        await run_guarded(interaction, f"undo answer in game {game_id}", self._answer_undo(interaction, game_id, False))

    async def _seat_yes(self, interaction: discord.Interaction, game_id: int) -> None:
        what = f"seat proposal answer in game {game_id}"
        await run_guarded(interaction, what, seats.answer_handover(interaction, game_id, True))

    async def _seat_no(self, interaction: discord.Interaction, game_id: int) -> None:
        what = f"seat proposal answer in game {game_id}"
        await run_guarded(interaction, what, seats.answer_handover(interaction, game_id, False))

    @app_commands.command(name="status", description="Players, whose turn it is and the board of this channel's game.")
    @refusals
    async def status(self, interaction: discord.Interaction) -> None:
        await post_board(interaction, self.bot, with_players=True)

    @app_commands.command(name="resign", description="Resign from this channel's game.")
    @refusals
    async def resign(self, interaction: discord.Interaction) -> None:
        await table.act(
            interaction,
            channel_of(interaction),
            self.bot.service.resign(channel_of(interaction), actor_of(interaction), token=interaction.token),
        )
        # a proposal to hand a seat to a bot may have waited only for the one who left
        await seats.settle_handover(self.bot, interaction.guild, channel_of(interaction))

    @app_commands.command(
        name="abort", description="End this channel's game without a result (creator or server manager)."
    )
    @refusals
    async def abort(self, interaction: discord.Interaction) -> None:
        game = await self.bot.service.abort(channel_of(interaction), actor_of(interaction))
        await answer(
            interaction,
            content=f"Game #{game.id} ({rules_for(game.game).title}) was aborted by "
            f"{escape_user_text(interaction.user.display_name)}; it is unrated.",
        )
        await table.close(self.bot, game)  # its board's buttons would only be refused now

    @app_commands.command(name="history", description="The move list of this channel's game, with a text file to keep.")
    @refusals
    async def history(self, interaction: discord.Interaction) -> None:
        game, moves = await self.bot.service.history(channel_of(interaction))
        rules = rules_for(game.game)
        lines = [
            f"{rules.title} — game #{game.id}",
            f"Players: {players_line(game, str)}",
            f"Options: {options_line(game.game, options_in_play(game), changed_only=False)}",
            f"Clock: {clock_text(game)}",
            # the seed decides every roll still to come: it is told once nothing is left to roll
            f"Seed: {game.seed}" if game.status in ("finished", "aborted") else "Seed: told when the game is over",
            "",
        ]
        lines[-1:-1] = [
            f"{seat.display_name} took over {seat.stood_down_name}'s seat from move {seat.taken_over_at + 1}."
            for seat in game.seats
            if seat.stood_down_name is not None and seat.taken_over_at is not None
        ]
        for row in moves:
            who = game.name_at_ply(row.seat, row.ply) if row.seat is not None else "—"
            lines.append(f"{row.ply + 1:>4}. {row.notation:<16} {who}: {row.description}")
        outcome = outcome_from_json(game.outcome)
        if outcome is not None:
            lines += ["", f"Result: {result_head(game, outcome, str)} {outcome.reason}"]
        elif game.status == "aborted":  # the file ends as the board's Result does
            lines += ["", f"Result: {NO_RESULT}"]
        text = "\n".join(lines)
        shown = "\n".join(
            f"`{row.ply + 1}.` **{escape_user_text(row.notation)}** — {escape_user_text(row.description)}"
            for row in moves[-15:]
        )
        embed = discord.Embed(title=f"{rules.title} — history of game #{game.id}", description=shown or "No moves yet.")
        embed.set_footer(text=f"{plural(len(moves), 'move')} · the attached file holds all of them")
        await answer(
            interaction, embed=embed, file=discord.File(io.BytesIO(text.encode()), filename=f"game-{game.id}.txt")
        )

    @app_commands.command(
        name="mine", description="Your games in this server (in direct messages, every server), your turn first."
    )
    @refusals
    async def mine(self, interaction: discord.Interaction) -> None:
        everywhere = interaction.guild_id is None  # in direct messages: the games of every server
        mine = await self.bot.service.games_of_user(interaction.user.id, interaction.guild_id)
        if not mine:
            await tell(interaction, "You are not in any game" + ("." if everywhere else " in this server."))
            return
        rows: list[tuple[int, datetime | None, str]] = []
        for game in mine:
            rules = rules_for(game.game)
            where = f"<#{game.channel_id}>"
            if everywhere:
                guild = self.bot.get_guild(game.guild_id or 0)
                where += f" ({escape_user_text(guild.name)})" if guild is not None else ""
            if game.status == "open":
                rows.append((2, None, f"{where} {rules.title}: waiting for players"))
                continue
            seat = await self.bot.service.to_move(game)
            acting = await self.bot.service.acting_people(game)
            yours = seat is not None and game.user_at(seat) == interaction.user.id
            together = not yours and game.seat_of(interaction.user.id) in acting  # e.g. Treasure Hunt's coins
            left = f", deadline {discord.utils.format_dt(game.deadline, 'R')}" if game.deadline and not together else ""
            label = f"{escape_user_text(game.name_at(seat)) if seat is not None else '—'} to play"
            if yours or together:
                label = "**your turn**" if yours else "**you may play now** (at the same time as others)"
            rows.append((0 if yours or together else 1, game.deadline, f"{where} {rules.title}: {label}{left}"))
        rows.sort(key=lambda r: (r[0], r[1] is None, r[1] or interaction.created_at))
        title = "Your games in every server" if everywhere else "Your games"
        embed = discord.Embed(title=title, description=whole_items([r[2] for r in rows], 3900))
        await answer(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="board", description="Show the board of this channel's game (anyone may look).")
    @refusals
    async def board(self, interaction: discord.Interaction) -> None:
        await post_board(interaction, self.bot)

    @app_commands.command(name="undo", description="Ask the other players to take back the last move.")
    @refusals
    async def undo(self, interaction: discord.Interaction) -> None:
        asked = self.bot.undo.request(channel_of(interaction), actor_of(interaction), token=interaction.token)
        await paced_here(interaction, self._post_undo(interaction, asked))

    async def _answer_undo(self, interaction: discord.Interaction, game_id: int, accept: bool) -> None:
        """A player pressed Accept or Refuse under an undo request."""
        answered = self.bot.undo.answer(game_id, actor_of(interaction), accept, token=interaction.token)
        await paced_here(interaction, self._post_undo(interaction, answered))

    async def _post_undo(self, interaction: discord.Interaction, work: Awaitable[UndoStatus]) -> None:
        status = await work
        pressed = interaction.message if interaction.type == discord.InteractionType.component else None
        if status.refused_by is not None:
            line = f"{escape_user_text(interaction.user.display_name)} refused the undo; the game goes on."
            await answer(interaction, content=line)  # answered first; the question is closed after
            await questions.answered(self.bot, status.game.id, UNDO, pressed, line)
        elif status.report is not None:
            taken = await questions.take(self.bot, status.game.id, UNDO)
            await table.show(interaction, status.report)
            await questions.close(self.bot, taken, pressed, told(status.report.lines))
        elif pressed is not None:  # an acceptance with others still to answer: the question, updated
            waiting = " ".join(f"<@{uid}>" for uid in status.waiting_for)
            agreed = f"{escape_user_text(interaction.user.display_name)} accepts; still waiting for {waiting}."
            await update_question(
                interaction, pressed, agreed, game_buttons.buttons(status.game.id, "undo-yes", "undo-no")
            )
        else:
            waiting = " ".join(f"<@{uid}>" for uid in status.waiting_for)
            await questions.ask(
                interaction,
                status.game.id,
                UNDO,
                content=f"<@{status.requester_id}> asks to take back **{status.shown}**. {waiting}: do you agree?",
                view=game_buttons.buttons(status.game.id, "undo-yes", "undo-no"),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(u) for u in status.waiting_for], everyone=False, roles=False
                ),
            )

    @app_commands.command(
        name="bot", description="Hand a player's seat to a computer player (they asked, timed out or left)."
    )
    @app_commands.describe(
        player="Whose seat: a player who asks, let a turn run out (3 days idle, no clock) or left the server",
        level="How well the computer player plays (default: hard)",
    )
    @app_commands.choices(level=seats.LEVEL_CHOICES)
    @refusals
    async def hand_over(
        self, interaction: discord.Interaction, player: str, level: app_commands.Choice[str] | None = None
    ) -> None:
        await seats.propose_handover(interaction, player, level.value if level is not None else "hard")

    @hand_over.autocomplete("player")
    async def hand_over_player(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The people still playing this channel's game (none in direct messages, where no game is played)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        return seats.handover_choices(await self.bot.service.live_game(interaction.channel_id), current)

    @app_commands.command(name="notify", description="How the bot reminds you that it is your turn in this server.")
    @app_commands.describe(
        mode="dm: a direct message (a channel mention if your DMs are closed); "
        "mention: a mention in the game's channel; off: no reminders"
    )
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in ("dm", "mention", "off")])
    @refusals
    async def notify(self, interaction: discord.Interaction, mode: app_commands.Choice[str]) -> None:
        if interaction.guild_id is None:  # a subcommand cannot be kept out of DMs: each server keeps its own
            raise ServiceError("Use /game notify in the server you play in: each server keeps its own setting.")
        await self.bot.service.set_notify(interaction.guild_id, interaction.user.id, mode.value)
        await tell(interaction, f"Reminders: {mode.value}.")

    @app_commands.command(name="vacation", description="Pause your move clocks in this server for some days.")
    @app_commands.describe(days="How many days (your yearly allowance is shared by all your games)")
    @refusals
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 60]) -> None:
        if interaction.guild_id is None:
            raise ServiceError("Use /game vacation in the server you play in: each server keeps its own days.")
        games_of_user, left, year = await self.bot.timekeeper.vacation(interaction.guild_id, interaction.user.id, days)
        when = "this year" if year == self.bot.clock().year else f"in {year}"
        name = escape_user_text(interaction.user.display_name)
        paused = (
            (
                f"their clocks in {plural(len(games_of_user), 'game')} are paused"
                if len(games_of_user) > 1
                else "their clock in 1 game is paused"
            )
            if games_of_user
            else "none of their games has a clock running now, and a clock that starts meanwhile waits for them"
        )
        await answer(  # first: the days are recorded, and the notes below must not hold up the answer
            interaction,
            content=f"{name} is on vacation for {plural(days, 'day')}; {paused}. "
            f"{plural(left, 'vacation day')} left {when}.",
        )
        for game in games_of_user:
            if game.turn_seat is not None and game.user_at(game.turn_seat) == interaction.user.id:
                await table.redraw(self.bot, game.channel_id)  # its board shows the deadline moved back
            channel = self.bot.get_channel(game.channel_id)
            if not isinstance(channel, discord.abc.Messageable) or game.channel_id == interaction.channel_id:
                continue
            try:
                await channel.send(
                    f"{name} is on vacation for {plural(days, 'day')}; their clock is paused.",
                    allowed_mentions=NO_PINGS,
                )
            except discord.HTTPException as error:  # a channel the bot may not post in: the others are told
                log.info("vacation note for game %s not posted: %s", game.id, error)

    @app_commands.command(name="replay", description="An animated replay of this channel's current or last game.")
    @refusals
    async def replay(self, interaction: discord.Interaction) -> None:
        game, moves = await self.bot.service.history(channel_of(interaction))
        await defer_publicly(interaction)
        frames = len(pick_frames(len(moves) + 1))
        progress_message = None
        if frames > 60:
            progress_message = await answer(interaction, content=f"Drawing {frames} frames…")

        async def progress(done: int, total: int) -> None:
            if progress_message is not None:
                await progress_message.edit(content=f"Drawing frames: {done}/{total}…")

        boards, captions = await self.bot.service.replay_boards(game, progress)
        gif = await asyncio.to_thread(animate, boards, captions)
        shown = frame_count(gif)
        if progress_message is not None:
            await progress_message.edit(content=f"Replay ready: {plural(shown, 'frame')}.")
        rules = rules_for(game.game)
        sampled = f", {shown} of its {len(moves) + 1} positions" if shown < len(moves) + 1 else ""
        await answer(
            interaction,
            content=f"{rules.title} — replay of game #{game.id} ({plural(len(moves), 'move')}{sampled}).",
            file=discord.File(
                io.BytesIO(gif),
                filename=f"game-{game.id}.gif",
                description=f"Replay of {rules.title} game #{game.id}: {plural(shown, 'position')} and their moves.",
            ),
        )


async def setup(bot: PyramidBot) -> None:
    """Load the core commands."""
    await bot.add_cog(GameCommands(bot))
    await bot.add_cog(RulesCommand(bot))
