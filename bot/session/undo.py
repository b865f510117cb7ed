"""Undo by consent: a player asks, every other person still in the game accepts, the move is taken back.

What is taken back: the most recent move a person made (not a dice roll, not a computer player's
move, not a move the clock made for an absent player), with every entry after it: the dice rolled
after it, the computer players' replies and the clock's moves.  A
bot's move alone is never the target, as the bot would only play again.  Nor is a move that ended a
phase played face down (Treasure Hunt's last arrangement), with what came after it: everyone has seen
the hidden rows since, and a player could set out theirs again knowing them.  Computer players never vote:
when no other person is still playing (a practice game against bots), the move is taken back at once.
A person who leaves their seat (to a bot, or the game) before answering no longer holds a request up:
once everyone still playing has accepted, an Accept pressed again, or the request asked again, takes
the move back.
The state is rebuilt from the shortened move log.  Dice are drawn from the game's seed and the number
of rolls so far, so a roll taken back comes up the same when rolled again: undoing cannot re-roll the
dice.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.session.service import LEAVING_KINDS, Actor, GameService, Report, ServiceError, report_event, rules_for
from bot.session.store import GameRow, MoveRow
from bot.session.table_questions import UNDO
from bot.session.timekeeper import BY_THE_CLOCK
from games.base import acting_together

REVEALED = (
    "That move cannot be taken back: what was set out face down has been revealed since, and everyone has seen it."
)
ALONE_IN_TOURNAMENT = (
    "A tournament game's move is taken back only when another player agrees, and the computer players "
    "here cannot: the move stands."
)


def crosses_reveal(rules: Any, before: Any, now: Any) -> bool:
    """True when going back from ``now`` to ``before`` would undo a reveal: ``before`` is in a face-down
    phase played at the same time, ``now`` after it (docs/rules/treasure.md)."""
    return acting_together(rules, before) and not acting_together(rules, now)


@dataclass
class UndoStatus:
    """Where an undo request stands after an action on it."""

    game: GameRow
    requester_id: int
    waiting_for: list[int]
    target: MoveRow
    shown: str  # the target's notation as the whole channel may read it (a face-down choice stays hidden)
    report: Report | None = None
    refused_by: int | None = None


def undo_target(log: list[MoveRow], bot_seats: Collection[int] = ()) -> MoveRow | None:
    """The entry an undo takes back to: the last move that is not a roll, a resignation or a timeout,
    nor made by one of ``bot_seats`` (a computer player's reply goes back with the move it answered), nor
    by the clock for an absent player (it goes back with the move before it, as a bot's does)."""
    for row in reversed(log):
        if row.kind == "move" and row.seat not in bot_seats and not row.description.endswith(BY_THE_CLOCK):
            return row
        if row.kind in LEAVING_KINDS:
            return None
    return None


def voters(game: GameRow) -> list[int]:
    """The people still playing: those who may ask for an undo and must agree to one (never a bot)."""
    return [row.user_id for row in game.seats if not row.removed and not row.is_bot]


def _waiting_on(game: GameRow, request: dict[str, Any]) -> list[int]:
    """The people still playing who have not accepted ``request`` (those who left since are not asked)."""
    return [uid for uid in voters(game) if uid not in request["accepted"]]


def bot_seats(game: GameRow) -> set[int]:
    """The seats held by computer players."""
    return {row.seat for row in game.seats if row.is_bot}


class UndoDesk:
    """Requests, answers and carries out undos."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def request(self, channel_id: int, actor: Actor, *, token: str | None = None) -> UndoStatus:
        """Ask to take back the last move; carried out at once when nobody else must agree."""
        service = self.service
        async with service.unit(channel_id):
            game = await service.store.live_game(channel_id)
            if game is None or game.status != "active":
                raise ServiceError("There is no running game in this channel.")
            if actor.user_id not in voters(game):
                raise ServiceError("Only players in this game can ask for an undo.")
            if game.tournament_id is not None and len(voters(game)) < 2:
                raise ServiceError(ALONE_IN_TOURNAMENT)  # a practice game may; a scored one may not
            log = await service.store.moves(game.id)
            target = undo_target(log, bot_seats(game))
            if target is None:
                raise ServiceError("There is no move to take back.")
            pending = await service.store.undo_request(game.id)
            if pending is not None and await service.questions.never_asked(game.id, UNDO, pending, service.clock()):
                pending = None  # stored, never asked (a stop in between): asked again, as new
            if pending is not None and pending["ply"] == target.ply:
                if _waiting_on(game, pending) or actor.user_id not in pending["accepted"]:
                    raise ServiceError("An undo request is already waiting for answers.")
                return await self._maybe_apply(game, pending, log, target, token)  # nobody left to wait on
            rules = rules_for(game.game)
            before = await service.rebuild(game, upto=target.ply, log=log)  # the state the undo returns to
            if crosses_reveal(rules, before, service.state_of(game)):
                raise ServiceError(REVEALED)
            # a request names the move it takes back (its ply): computer players' answers after it leave
            # it standing (they are taken back with it); a person's move after it lets it lapse
            request = {"ply": target.ply, "requester_id": actor.user_id, "accepted": [actor.user_id]}
            request = {**request, "created_at": service.clock()}
            return await self._maybe_apply(game, request, log, target, token, before=before)

    async def stands(self, game_id: int) -> bool:
        """True while ``game_id`` has an undo request that can still be answered: the game runs and the
        move it names is still the last one a person made (its question stays open)."""
        store = self.service.store
        game = await self.service.game(game_id)
        pending = await store.undo_request(game_id)
        if game is None or game.status != "active" or pending is None:
            return False
        target = undo_target(await store.moves(game.id), bot_seats(game))
        return target is not None and pending["ply"] == target.ply

    async def answer(self, game_id: int, actor: Actor, accept: bool, *, token: str | None = None) -> UndoStatus:
        """Accept or refuse the pending request of ``game_id``."""
        service = self.service
        async with service.game_unit(game_id) as game:
            pending = await service.store.undo_request(game.id)
            log = await service.store.moves(game.id)
            target = undo_target(log, bot_seats(game))
            if pending is None or game.status != "active" or target is None or pending["ply"] != target.ply:
                raise ServiceError("There is no undo request waiting: the game has moved on.")
            if actor.user_id not in voters(game):
                raise ServiceError("Only players in this game can answer an undo request.")
            if not accept:
                await service.store.set_undo_request(game.id, None)
                shown = self._shown(game, target)
                return UndoStatus(game, pending["requester_id"], [], target, shown, refused_by=actor.user_id)
            if actor.user_id in pending["accepted"]:
                if _waiting_on(game, pending):
                    raise ServiceError("You have already accepted this undo.")
                # those it waited on have left their seats since (to a bot, or the game): carried out now
                return await self._maybe_apply(game, pending, log, target, token)
            request = {**pending, "accepted": [*pending["accepted"], actor.user_id]}
            return await self._maybe_apply(game, request, log, target, token)

    async def _maybe_apply(
        self,
        game: GameRow,
        request: dict[str, Any],
        log: list[MoveRow],
        target: MoveRow,
        token: str | None,
        *,
        before: Any = None,
    ) -> UndoStatus:
        """Store ``request`` while someone must still agree; else take the move back (to ``before``, the
        state before ``target``, when already rebuilt), which clears the request in the same write (a crash
        between two writes cannot leave it behind, answered)."""
        requester, accepted = request["requester_id"], request["accepted"]
        waiting = _waiting_on(game, request)
        status = UndoStatus(game, requester, waiting, target, self._shown(game, target))
        if waiting:
            await self.service.store.set_undo_request(game.id, request)
            return status
        service = self.service
        rules = rules_for(game.game)
        state = before if before is not None else await service.rebuild(game, upto=target.ply, log=log)
        if crosses_reveal(rules, state, service.state_of(game)):
            # a computer player's answer revealed what was face down after the request was made
            await service.store.set_undo_request(game.id, None)
            raise ServiceError(REVEALED)
        now = service.clock()
        fields = await service.turn_fields_after_undo(game, rules, state, now)
        shown = rules.public_notation(state, target.notation)  # as the table stands once it is taken back
        after = {row.kind for row in log if row.ply > target.ply}
        also = "" if not after else ", with the dice after it" if after == {"roll"} else ", with the moves after it"
        if len(accepted) > 1:
            lines = [f'By agreement, the move "{shown}" is taken back{also}.']
        else:  # nobody else to ask: a practice game against computer players, or a game alone
            seat = game.seat_of(requester)
            lines = [f'{game.name_at(seat) if seat is not None else "A player"} takes back the move "{shown}"{also}.']
        event = report_event(lines, token, turn_changed=True)
        ids = await service.store.truncate_moves(game, target.ply, rules.to_json(state), now, events=[event], **fields)
        fresh = await service.store.game(game.id)
        assert fresh is not None
        service.remember(fresh, state)
        report = Report(fresh, rules, state, lines, turn_changed=True, delivery_id=ids[0])
        report.png = await service.render(fresh, state)
        status.game, status.report = fresh, report
        return status

    def _shown(self, game: GameRow, target: MoveRow) -> str:
        """``target``'s notation as the whole channel may read it now (``Rules.public_notation``)."""
        return rules_for(game.game).public_notation(self.service.state_of(game), target.notation)
