"""Handing a seat of a running game to a computer player, with the table's consent (``/game bot``).

A seat may go to a bot when its player asks for it, when its player has let a turn run out (a missed
turn, or a deadline passed on their turn; in a game without a clock, a turn left for three days), or
when its player is no longer in the server.  Every other person still playing must agree; the first
refusal ends the proposal.  The bot takes the seat as it stands (pieces, score, place in the turn
order), the game becomes unrated, and if the seat is the one to act, the bot plays at once.  A seat
already out of the game (resigned or removed) cannot come back: its pieces have left the board.

Every agreement checks the reason again: a proposal whose player is back and playing (in the server
again, no turn missed since) is withdrawn instead of carried out; when Discord cannot tell whether the
player is in the server, the agreement is refused for now and the proposal stays.  A person who
leaves the game before answering no longer holds the proposal up: once everyone still playing has
agreed it is carried out (``settle``, after a resignation or a removal on time; or an Agree pressed
again, which a new proposal is told to do meanwhile), unless its player is the last person left: then
it lapses, since a table of only computer players does not play.  Tournament matches are refused:
their seats belong to the registered players, and the tournament's own tools (drop, kick,
adjudicate, the move clock and round deadlines) deal with a player who is gone.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ai import LEVELS as AI_LEVELS
from bot.session.service import Actor, GameService, Report, ServiceError, bot_name, report_event, rules_for
from bot.session.store import GameRow, SeatRow
from bot.session.table_questions import SEAT

IDLE_TURN = timedelta(days=3)  # in a game without a clock, a turn waiting this long may go to a bot
STILL_PLAYING = (
    "is still playing: a seat goes to a bot only when its player asks, has let a turn run out, "
    f"has left the server, or (in a game without a clock) has not moved for {IDLE_TURN.days} days."
)
PENDING = "A proposal to hand a seat to a computer player is already waiting for answers."
GONE = "There is no proposal waiting: the seat or the game has changed since."
AGREED = "Everyone still playing has agreed to hand {name}'s seat to a computer player: press Agree under it."
UNSURE = "Discord did not say whether {name} is still in the server: try again in a moment."
TOURNAMENT = (
    "A tournament match's seat cannot go to a computer player: a player withdraws with /tournament drop, "
    "and an organiser can use /tournament kick or /tournament adjudicate."
)


@dataclass
class HandoverStatus:
    """Where a proposal stands after an action on it."""

    game: GameRow
    requester_id: int
    seat: SeatRow
    level: str
    reason: str
    waiting_for: list[int]
    report: Report | None = None
    refused_by: int | None = None
    withdrawn: bool = False  # the reason no longer holds (the player is back and playing)
    # the seat's player, in the server and not the one asking, is called with the proposal: they may Refuse
    player_called: bool = False


def voters(game: GameRow, seat: int) -> list[int]:
    """The people who must agree: every person still playing, except the player of ``seat``."""
    return [row.user_id for row in game.seats if not row.removed and not row.is_bot and row.seat != seat]


def still_open(game: GameRow, pending: dict[str, Any] | None) -> bool:
    """True when ``pending`` is a proposal that can still be answered: the game runs and its seat is
    still a person's, in the game (a player who resigned or was removed takes the proposal with them)."""
    if pending is None or game.status != "active":
        return False
    target = next((row for row in game.seats if row.seat == pending["seat"]), None)
    return target is not None and not target.removed and not target.is_bot


def waiting_on(game: GameRow, pending: dict[str, Any]) -> list[int]:
    """The people still playing who have not yet agreed to ``pending`` (those who left the game since
    are no longer asked)."""
    return [uid for uid in voters(game, pending["seat"]) if uid not in pending["accepted"]]


def handover_reason(game: GameRow, target: SeatRow, actor: Actor, *, absent: bool, now: datetime) -> str | None:
    """Why ``target`` may go to a bot (words for the table), or None when its player is still playing."""
    if target.user_id == actor.user_id:
        return f"{target.display_name} asked for it"
    if absent:
        return f"{target.display_name} has left the server"
    if target.missed_turns:
        turns = "a turn" if target.missed_turns == 1 else f"{target.missed_turns} turns"
        return f"{target.display_name} has missed {turns}"
    if game.turn_seat != target.seat:
        return None
    if game.deadline is not None and now >= game.deadline:
        return f"{target.display_name} has let the clock run out"
    idle = now - game.turn_started_at if game.turn_started_at is not None else timedelta(0)
    if not game.clock_days and idle >= IDLE_TURN:  # no clock to run out: a turn left this long is as good
        return f"{target.display_name} has not moved for {idle.days} days"
    return None


class HandoverDesk:
    """Proposals to hand a seat to a computer player: asked, answered and carried out."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def request(
        self,
        channel_id: int,
        actor: Actor,
        user_id: int,
        level: str,
        *,
        absent: bool | None = False,
        gone: Collection[int] = (),
        token: str | None = None,
    ) -> HandoverStatus:
        """Propose to give ``user_id``'s seat to a bot of ``level``; ``absent`` tells that the player has
        left the server (None: Discord could not tell), ``gone`` the other players known to have left it,
        who can never answer and are not waited for.  Carried out at once when nobody else must agree."""
        if level not in AI_LEVELS:
            raise ServiceError(f"A bot's level is one of {', '.join(AI_LEVELS)}.")
        service = self.service
        async with service.unit(channel_id):
            game = await service.store.live_game(channel_id)
            if game is None or game.status != "active":
                raise ServiceError("There is no running game in this channel.")
            if game.tournament_id is not None:
                raise ServiceError(TOURNAMENT)
            in_play = [row.user_id for row in game.seats if not row.removed and not row.is_bot]
            if actor.user_id not in in_play and not actor.can_manage:
                raise ServiceError("Only players still in this game (or a server manager) can hand a seat to a bot.")
            target = self._target(game, user_id)
            reason = handover_reason(game, target, actor, absent=bool(absent), now=service.clock())
            if reason is None and absent is None:
                raise ServiceError(UNSURE.format(name=target.display_name))
            if reason is None:
                raise ServiceError(f"{target.display_name} {STILL_PLAYING}")
            must_agree = voters(game, target.seat)
            if not must_agree:
                raise ServiceError("A table of only computer players does not play: someone must stay at it.")
            stored = await service.store.seat_request(game.id)
            if stored is not None and await service.questions.never_asked(game.id, SEAT, stored, service.clock()):
                stored = None  # stored, never asked (a stop in between): asked again, as new
            if still_open(game, stored) and stored is not None:
                if not waiting_on(game, stored):  # those who had not answered have left the game since
                    named = next(row.display_name for row in game.seats if row.seat == stored["seat"])
                    raise ServiceError(AGREED.format(name=named))
                raise ServiceError(PENDING)
            accepted = sorted({actor.user_id, *gone} & set(must_agree))  # those gone from the server wait on no one
            request = {"seat": target.seat, "level": level, "requester_id": actor.user_id, "accepted": accepted}
            status = HandoverStatus(game, actor.user_id, target, level, reason, [])
            status.player_called = target.user_id != actor.user_id and absent is False
            return await self._maybe_apply(status, {**request, "created_at": service.clock()}, token)

    async def stands(self, game_id: int) -> bool:
        """True while ``game_id`` has a proposal that can still be answered (its question stays open)."""
        game = await self.service.game(game_id)
        return game is not None and still_open(game, await self.service.store.seat_request(game_id))

    async def proposed_player(self, game_id: int) -> int | None:
        """The person whose seat the pending proposal of ``game_id`` would hand to a bot, if any."""
        pending = await self.service.store.seat_request(game_id)
        game = await self.service.game(game_id) if pending is not None else None
        return game.user_at(pending["seat"]) if game is not None and pending is not None else None

    async def answer(
        self,
        game_id: int,
        actor: Actor,
        accept: bool,
        *,
        left_server: Collection[int] = (),
        unsure: Collection[int] = (),
        gone: Collection[int] = (),
        token: str | None = None,
    ) -> HandoverStatus:
        """Agree to or refuse the pending proposal of ``game_id``; ``left_server`` holds the people known to
        be out of the server now (the proposal's player), ``unsure`` those Discord could not tell about,
        ``gone`` the other players known to have left it, who are no longer waited for.  An agreement checks the
        reason again: when it no longer holds (the player is back and playing), the proposal is withdrawn
        and ``withdrawn`` is set.  An Agree pressed again carries out a proposal nobody is left to answer."""
        service = self.service
        async with service.game_unit(game_id) as game:
            pending = await service.store.seat_request(game.id)
            if not still_open(game, pending):
                if pending is not None:  # its seat has left the game, or the game is over: cleared
                    await service.store.set_seat_request(game.id, None)
                raise ServiceError(GONE)
            assert pending is not None
            target = next(row for row in game.seats if row.seat == pending["seat"])
            status = HandoverStatus(game, pending["requester_id"], target, pending["level"], "", [])
            if actor.user_id == target.user_id and not accept:  # the player is back and keeps the seat
                await service.store.set_seat_request(game.id, None)
                status.refused_by = actor.user_id
                return status
            if actor.user_id not in voters(game, target.seat):
                raise ServiceError("Only the other players still in this game answer this proposal.")
            if not accept:
                await service.store.set_seat_request(game.id, None)
                status.refused_by = actor.user_id
                return status
            if actor.user_id in pending["accepted"] and waiting_on(game, pending):
                raise ServiceError("You have already agreed to this proposal.")
            if game.tournament_id is not None:
                raise ServiceError(TOURNAMENT)
            accepted = sorted({*pending["accepted"], actor.user_id, *(set(gone) & set(voters(game, target.seat)))})
            return await self._recheck_and_apply(status, {**pending, "accepted": accepted}, left_server, unsure, token)

    async def settle(
        self, game_id: int, *, left_server: Collection[int] = (), unsure: Collection[int] = ()
    ) -> HandoverStatus | None:
        """Carry out the pending proposal of ``game_id`` if everyone still playing has agreed to it (a
        person who had not answered has just left the game); None when there is nothing to carry out."""
        service = self.service
        async with service.game_unit(game_id) as game:
            pending = await service.store.seat_request(game.id)
            if pending is None or not still_open(game, pending) or waiting_on(game, pending):
                return None
            if not voters(game, pending["seat"]):  # its player is the last person: bots alone do not play
                await service.store.set_seat_request(game.id, None)
                return None
            target = next(row for row in game.seats if row.seat == pending["seat"])
            status = HandoverStatus(game, pending["requester_id"], target, pending["level"], "", [])
            try:
                return await self._recheck_and_apply(status, pending, left_server, unsure, None)
            except ServiceError:  # cannot tell now: the proposal stays, and an Agree carries it out later
                return None

    async def _recheck_and_apply(
        self,
        status: HandoverStatus,
        request: dict[str, Any],
        left_server: Collection[int],
        unsure: Collection[int],
        token: str | None,
    ) -> HandoverStatus:
        """Check the proposal's reason again, then store or carry out ``request``: a player back and
        playing keeps the seat (withdrawn); one Discord could not tell about keeps it for now (refused)."""
        game, target = status.game, status.seat
        requester = Actor(request["requester_id"], "")
        absent = target.user_id in left_server
        reason = handover_reason(game, target, requester, absent=absent, now=self.service.clock())
        if reason is None and target.user_id in unsure:  # only a player known to be back withdraws it
            raise ServiceError(UNSURE.format(name=target.display_name))
        if reason is None:  # the player is back and playing: an old agreement must not take the seat
            await self.service.store.set_seat_request(game.id, None)
            status.withdrawn = True
            return status
        status.reason = reason
        return await self._maybe_apply(status, request, token)

    @staticmethod
    def _target(game: GameRow, user_id: int) -> SeatRow:
        seat = game.seat_of(user_id)
        row = next((r for r in game.seats if r.seat == seat), None)
        if row is None:
            raise ServiceError("That person is not playing in this game.")
        if row.is_bot:
            raise ServiceError(f"{row.display_name} is already a computer player.")
        if row.removed:
            raise ServiceError(
                f"{row.display_name} is out of the game already: a seat that has left cannot come back, "
                "its pieces are gone from the board."
            )
        return row

    async def _maybe_apply(self, status: HandoverStatus, request: dict[str, Any], token: str | None) -> HandoverStatus:
        """Store ``request`` while someone must still agree; else seat the bot, which clears the proposal
        in the same write (a crash between two writes cannot leave it behind, answered)."""
        game, target = status.game, status.seat
        status.waiting_for = [uid for uid in voters(game, target.seat) if uid not in request["accepted"]]
        if status.waiting_for:
            await self.service.store.set_seat_request(game.id, request)
            return status
        service = self.service
        rules = rules_for(game.game)
        state = service.state_of(game)
        now = service.clock()
        user_id = min([row.user_id for row in game.seats if row.is_bot] + [0]) - 1
        name = bot_name(status.level, [row.display_name for row in game.seats])
        bot_seat = replace(
            target,
            user_id=user_id,
            display_name=name,
            ai_level=status.level,
            missed_turns=0,
            stands_in_for=target.user_id,
            stood_down_name=target.display_name,
            taken_over_at=game.ply,
        )
        seated = replace(game, seats=tuple(bot_seat if row.seat == target.seat else row for row in game.seats))
        fields = {}
        if rules.to_move(state) == target.seat:  # the bot acts now: no deadline, no reminders
            fields = await service.turn_fields_after_undo(seated, rules, state, now)
        colour = rules.seat_name(state, target.seat)
        unrated = " This game is no longer rated." if game.rated else ""
        lines = [f"{name} takes over {target.display_name}'s seat ({colour}).{unrated}"]
        event = report_event(lines, token, turn_changed=bool(fields))
        ids = await service.store.hand_seat_to_bot(game, bot_seat, now, events=[event], rated=False, **fields)
        fresh = await service.store.game(game.id)
        assert fresh is not None
        service.remember(fresh, state)
        report = Report(fresh, rules, state, lines, turn_changed=bool(fields), delivery_id=ids[0])
        report.png = await service.render(fresh, state)
        status.game, status.report = fresh, report
        return status
