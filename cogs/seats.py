"""Computer players at a Discord table: the lobby's "Add a bot" menu, bots acting on their turns, and
``/game bot``, which hands a running game's seat to a bot when the table agrees.

Whenever a report leaves a bot to act, its turn is played in the background by the session layer's
``Autoplayer`` and each of its actions is shown like anyone's, on the game's living message.  The
clock loop calls ``resume`` so bots whose turn came while the bot process was down act on restart.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot.session import GameRow, HandoverStatus, Report, ServiceError
from bot.session.handover import voters
from bot.session.table_questions import SEAT
from cogs.buttons import ELSEWHERE, STALE, Control, pressed_elsewhere, valid_id
from cogs.messages import mention, plural, told
from cogs.text import escape_user_text

if TYPE_CHECKING:
    from bot.client import PyramidBot

log = logging.getLogger(__name__)

# every place a player picks a bot's level (``/<game> new``, the lobby's menu, ``/game bot``) says this
LEVELS = {
    "easy": "any legal move at random, to learn against",
    "normal": "thinks a little, for a fair game",
    "hard": "thinks longest, the bot at its best",
}
REMOVE = "remove"  # the lobby menu's choice that takes the last computer player off the table
LEVEL_CHOICES = [app_commands.Choice(name=f"{level}: {what}", value=level) for level, what in LEVELS.items()]


class AddBotMenu(
    Control,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"pg:seat:(?P<game_id>[0-9]{1,19}):bot(?::(?P<seats>[0-9]{1,3}))?",
):
    """The lobby's menu that seats a computer player of the chosen level, or takes the last one off.

    Its id carries the number of seats taken when it was shown: a choice made against another table
    (sent twice, or after someone joined) is refused.  Menus shown before it carried one are not checked.
    """

    def __init__(
        self, game_id: int, seats: int | None = None, disabled: bool = False, *, add: bool = True, remove: bool = True
    ) -> None:
        """``add``: a seat is free for a bot; ``remove``: a bot sits at the table.  A menu with neither is
        greyed, so it offers nothing that would only be refused."""
        taken = "" if seats is None else f":{seats}"
        adding = [
            discord.SelectOption(label=f"{level.title()} bot", value=level, description=what)
            for level, what in LEVELS.items()
        ]
        removing = [
            discord.SelectOption(label="Remove a bot", value=REMOVE, description="the computer player seated last")
        ]
        options = [*(adding if add else []), *(removing if remove else [])]
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"pg:seat:{game_id}:bot{taken}",
            placeholder="Add a computer player…" if add or not remove else "Remove a computer player…",
            options=options or adding,  # a menu needs options: greyed, it offers none of them
            disabled=disabled or not options,
        )
        super().__init__(select)
        self.game_id = game_id
        self.seats = seats

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AddBotMenu:
        made = cls(int(match["game_id"]), int(match["seats"]) if match["seats"] is not None else None)
        made.item = cast(discord.ui.Select[Any], item)
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs import table
        from cogs.replies import actor_of, bot_of, paced_here, refuse, run_guarded

        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        level = values[0] if values else ""
        if not valid_id(self.game_id) or (level not in LEVELS and level != REMOVE):
            await refuse(interaction, STALE)
            return

        async def work() -> None:
            service = bot_of(interaction).service
            game = await service.game(self.game_id)
            if game is None or game.status != "open":
                raise ServiceError("This game is not waiting for players any more.")
            if pressed_elsewhere(interaction, game.channel_id):
                raise ServiceError(ELSEWHERE)
            if level == REMOVE:
                left, name = await service.remove_bot(game.channel_id, actor_of(interaction), seats=self.seats)
                await table.show_lobby(interaction, left, f"{name} leaves the table (a computer player).")
                return
            seated = await service.add_bot(game.channel_id, actor_of(interaction), level, seats=self.seats)
            added = seated.seats[-1].display_name
            await table.show_lobby(interaction, seated, f"{added} takes a seat (a computer player).")

        await run_guarded(interaction, f"add-bot menu of game {self.game_id}", paced_here(interaction, work()))


def after(bot: PyramidBot, report: Report) -> None:
    """Let the bots act if ``report`` leaves one of them to play."""
    game = report.game
    if not game.has_bots or report.outcome is not None or game.status != "active":
        return
    if game.bot_at(report.to_move_seat) is None:
        return
    bot.autoplay.start(game.channel_id, lambda shown: deliver(bot, shown))


async def deliver(bot: PyramidBot, report: Report) -> None:
    """Show a bot's action on the living message and record it delivered."""
    from cogs import table

    await table.show_in_channel(bot, report)  # records the delivery with the living message


async def resume(bot: PyramidBot) -> None:
    """Start the bots of every game where one is to act (after a restart, or a failed search)."""
    for channel_id in await bot.autoplay.waiting_channels():
        bot.autoplay.start(channel_id, lambda shown: deliver(bot, shown))


# ---------------------------------------------------------------------- handing a seat to a bot


def handover_choices(game: GameRow | None, typed: str) -> list[discord.app_commands.Choice[str]]:
    """The people still playing ``game`` whose seat could go to a bot, for ``/game bot player:``."""
    if game is None or game.status != "active":
        return []
    key = typed.strip().lower()
    out = []
    for row in game.seats:
        if row.removed or row.is_bot or key not in row.display_name.lower():
            continue
        missed = f" · missed {plural(row.missed_turns, 'turn')}" if row.missed_turns else ""
        out.append(discord.app_commands.Choice(name=f"{row.display_name}{missed}"[:100], value=str(row.user_id)))
    return out[:25]


async def propose_handover(interaction: discord.Interaction, player: str, level: str) -> None:
    """``/game bot``: propose that a computer player of ``level`` takes over ``player``'s seat."""
    from cogs.replies import actor_of, bot_of, channel_of, paced_here, quote_input

    channel_id = channel_of(interaction)
    if not player.strip().isdigit() or not valid_id(int(player.strip())):
        raise ServiceError(f"{quote_input(player)} is not a player of this game: pick one from the list.")
    user_id = int(player.strip())

    async def work() -> None:
        absent = await left_server(interaction.guild, user_id)
        game = await bot_of(interaction).service.live_game(channel_id)
        gone = await _gone_voters(interaction.guild, game, user_id, interaction.user.id)
        status = await bot_of(interaction).handover.request(
            channel_id, actor_of(interaction), user_id, level, absent=absent, gone=gone, token=interaction.token
        )
        await _post_handover(interaction, status)

    await paced_here(interaction, work())


async def left_server(guild: discord.Guild | None, user_id: int) -> bool | None:
    """True when ``user_id`` is no longer a member of ``guild``, None when Discord could not tell (asked
    of Discord: the member list is not cached without the privileged members intent)."""
    if guild is None:
        return False
    try:
        await guild.fetch_member(user_id)
    except discord.NotFound:
        return True
    except discord.HTTPException as error:  # cannot tell: neither gone nor back
        log.info("could not look up member %s of guild %s: %s", user_id, guild.id, error)
        return None
    return False


async def _gone_voters(guild: discord.Guild | None, game: GameRow | None, player: int | None, asker: int) -> list[int]:
    """The people still seated at ``game`` who must agree to handing ``player``'s seat over (not ``asker``,
    who answers now) and whom Discord says have left the server: they can never answer."""
    if game is None or guild is None:
        return []
    seat = game.seat_of(player) if player is not None else None
    others = [user_id for user_id in voters(game, -1 if seat is None else seat) if user_id != asker]
    return [user_id for user_id in others if await left_server(guild, user_id)]


async def _membership(guild: discord.Guild | None, player: int | None) -> tuple[list[int], list[int]]:
    """([player] if they have left the server, [player] if Discord could not tell) for a proposal's player."""
    if player is None:
        return [], []
    gone = await left_server(guild, player)
    return ([player] if gone else []), ([player] if gone is None else [])


async def answer_handover(interaction: discord.Interaction, game_id: int, accept: bool) -> None:
    """A player pressed Agree or Refuse under a proposal to hand a seat to a bot.

    An agreement first asks Discord whether the proposal's player is still out of the server: the
    proposal holds only while its reason does."""
    from cogs.replies import actor_of, bot_of, paced_here

    async def work() -> None:
        desk = bot_of(interaction).handover
        left: list[int] = []
        unsure: list[int] = []
        gone: list[int] = []
        if accept:
            player = await desk.proposed_player(game_id)
            left, unsure = await _membership(interaction.guild, player)
            game = await bot_of(interaction).service.game(game_id)
            gone = await _gone_voters(interaction.guild, game, player, interaction.user.id)
        status = await desk.answer(
            game_id,
            actor_of(interaction),
            accept,
            left_server=left,
            unsure=unsure,
            gone=gone,
            token=interaction.token,
        )
        await _post_handover(interaction, status)

    await paced_here(interaction, work())


async def settle_handover(bot: PyramidBot, guild: discord.Guild | None, channel_id: int) -> None:
    """After a seat has left the game: carry out a proposal that everyone still playing has now agreed
    to (the one who left had not answered), and show it on the board."""
    from cogs import questions, table

    game = await bot.service.live_game(channel_id)
    if guild is None or game is None or game.status != "active":  # no server to ask about its player
        return
    left, unsure = await _membership(guild, await bot.handover.proposed_player(game.id))
    status = await bot.handover.settle(game.id, left_server=left, unsure=unsure)
    if status is not None and status.report is not None:
        taken = await questions.take(bot, game.id, SEAT)
        await table.show_in_channel(bot, status.report)
        await questions.close(bot, taken, None, told(status.report.lines))
        return
    await questions.settle(bot, game)  # a proposal that lapsed (its player is the last person) is closed


async def _post_handover(interaction: discord.Interaction, status: HandoverStatus) -> None:
    from cogs import buttons, questions, table
    from cogs.replies import answer, bot_of, update_question

    pressed = interaction.message if interaction.type == discord.InteractionType.component else None
    target = escape_user_text(status.seat.display_name)
    if status.refused_by is not None:
        who = escape_user_text(interaction.user.display_name)
        if status.refused_by == status.seat.user_id:
            line = f"{who} is back and keeps the seat; the proposal is withdrawn."
        else:
            line = f"{who} refused: {target} keeps the seat and the game goes on."
        await answer(interaction, content=line)  # answered first; the question is closed after
        await questions.answered(bot_of(interaction), status.game.id, SEAT, pressed, line)
        return
    if status.withdrawn:
        line = f"{target} is back and playing: the seat stays theirs and the proposal is withdrawn."
        await answer(interaction, content=line)  # answered first; the question is closed after
        await questions.answered(bot_of(interaction), status.game.id, SEAT, pressed, line)
        return
    if status.report is not None:
        taken = await questions.take(bot_of(interaction), status.game.id, SEAT)
        await table.show(interaction, status.report)
        await questions.close(bot_of(interaction), taken, pressed, told(status.report.lines))
        return
    waiting = " ".join(mention(uid) for uid in status.waiting_for)
    because = f" ({escape_user_text(status.reason)})" if status.reason else ""
    view = buttons.buttons(status.game.id, "seat-yes", "seat-no")
    if pressed is not None:  # an agreement: the question, updated (never a second question)
        agreed = f"{escape_user_text(interaction.user.display_name)} agrees; still waiting for {waiting}."
        await update_question(interaction, pressed, agreed, view)
        return
    player = status.seat.user_id
    keep = f" {mention(player)}: press Refuse to keep your seat." if status.player_called else ""
    called = [*status.waiting_for, *([player] if status.player_called else [])]
    await questions.ask(
        interaction,
        status.game.id,
        SEAT,
        content=f"{mention(status.requester_id)} proposes that {article(status.level)} {status.level} computer player "
        "takes over "
        f"{target}'s seat{because}.{' The game would no longer be rated.' if status.game.rated else ''} "
        f"{waiting}: do you agree?{keep}",
        view=view,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(u) for u in called], everyone=False, roles=False
        ),
    )


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` (``an easy``, ``a normal``)."""
    return "an" if word[:1].lower() in "aeiou" else "a"
