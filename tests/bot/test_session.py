"""The session service's unit of work: every write counted, locked, checked and translated.

Suggestions carry the mark of the position they were offered in: the same choice submitted twice at the same instant
is played once, and a choice from an older position is refused with one sentence.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.session import open_session
from bot.session.marks import Mark, stamp, unstamp
from bot.session.service import ALL_PEOPLE_LEFT, BOARD_CHANGED, TABLE_LEFT, Actor, ServiceError

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")


@pytest.fixture
async def session(db_url):
    opened = await open_session(db_url, clock=lambda: NOW, render=False, new_seed=lambda: "seed")
    yield opened
    await opened.close()


async def started(session, game: str = "hedgehog", channel: int = 5):
    await session.games.new_game(guild_id=1, channel_id=channel, game=game, actor=ALICE, max_players=2)
    await session.games.join(channel, BOB)
    return await session.games.start(channel, ALICE)


def actor_at(report) -> Actor:
    return ALICE if report.to_move_user == ALICE.user_id else BOB


def test_a_stamp_round_trips_and_typed_notation_carries_none():
    assert unstamp(stamp("R1 c1-c2", Mark(12, "0123abcd"))) == ("R1 c1-c2", Mark(12, "0123abcd"))
    assert unstamp("G2+3") == ("G2+3", None)
    assert unstamp("  pass @0 ") == ("pass", Mark(0))  # a suggestion from before prints: its ply alone


async def test_the_same_choice_submitted_twice_at_once_is_played_once(session):
    report = await started(session)
    report = await session.games.roll(5, actor_at(report))
    actor = actor_at(report)
    (choice, *_) = await session.games.legal_moves(5, actor.user_id)
    results = await asyncio.gather(
        session.games.move(5, actor, choice.value), session.games.move(5, actor, choice.value), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(refused) == 1 and str(refused[0]) == BOARD_CHANGED
    game = await session.games.live_game(5)
    _, log = await session.games.history(5)
    assert [row.kind for row in log] == ["roll", "move"] and game.ply == 2


async def test_a_choice_from_an_older_position_is_refused_and_changes_nothing(session):
    report = await started(session)
    report = await session.games.roll(5, actor_at(report))
    actor = actor_at(report)
    options = await session.games.legal_moves(5, actor.user_id)
    old = options[-1]
    await session.games.move(5, actor, options[0].value)
    before = await session.games.live_game(5)
    mover = actor_at(await session.games.board(5))
    with pytest.raises(ServiceError, match="The board changed"):
        await session.games.move(5, mover, old.value)
    assert (await session.games.live_game(5)).version == before.version


async def test_a_choice_offered_in_an_aborted_game_is_refused_in_the_next_one_at_the_same_ply(session):
    # the next game in the channel starts again at ply 0, from the same ring and seed: the ply alone matches
    report = await session.games.roll(5, actor_at(await started(session)))
    offered = await session.games.legal_moves(5, actor_at(report).user_id)
    await session.games.abort(5, ALICE)
    report = await session.games.roll(5, actor_at(await started(session)))
    fresh = await session.games.legal_moves(5, actor_at(report).user_id)
    assert offered and [o.notation for o in fresh] == [o.notation for o in offered]  # the same moves, another game
    before = await session.games.live_game(5)
    with pytest.raises(ServiceError, match="The board changed"):
        await session.games.move(5, actor_at(report), offered[0].value)
    assert (await session.games.live_game(5)).version == before.version


async def test_a_button_from_before_prints_is_checked_by_its_ply(session):
    report = await started(session)
    actor = actor_at(report)
    assert (await session.games.roll(5, actor, offered_at=Mark(0))).game.ply == 1
    with pytest.raises(ServiceError, match="The board changed"):
        await session.games.roll(5, actor, offered_at=Mark(0))


async def test_typed_notation_is_unchanged_by_stamping(session):
    report = await started(session)
    report = await session.games.roll(5, actor_at(report))
    actor = actor_at(report)
    options = await session.games.legal_moves(5, actor.user_id)
    done = await session.games.move(5, actor, options[0].notation)
    assert done.lines[0] == options[0].description


async def test_shutdown_waits_for_an_undo_in_flight(session, monkeypatch):
    report = await started(session)
    report = await session.games.roll(5, actor_at(report))
    actor = actor_at(report)
    await session.games.move(5, actor, (await session.games.legal_moves(5, actor.user_id))[0].value)
    gate = asyncio.Event()
    original = session.games.store.undo_request

    async def slow_read(*args, **kwargs):
        await gate.wait()
        return await original(*args, **kwargs)

    monkeypatch.setattr(session.games.store, "undo_request", slow_read)
    undo = asyncio.ensure_future(session.undo.request(5, actor))
    await asyncio.sleep(0)
    assert session.games.in_flight == 1
    drained = asyncio.ensure_future(session.games.drain())
    await asyncio.sleep(0.01)
    assert not drained.done()  # shutdown waits for the undo
    gate.set()
    status = await undo
    await drained
    assert status.waiting_for == [BOB.user_id if actor is ALICE else ALICE.user_id]


async def test_a_failing_listener_never_hides_or_undoes_the_move(session, caplog):
    def broken(_report):
        raise RuntimeError("the ratings are down")

    session.games.listeners.append(broken)
    report = await started(session)
    assert report.game.status == "active"
    assert "listener" in caplog.text and "failed" in caplog.text


async def test_storage_errors_become_one_sentence(session, monkeypatch):
    await started(session)
    from bot.session.store import StaleVersion

    async def stale(*_args, **_kwargs):
        raise StaleVersion("The game changed at the same moment; look at the board and try again.")

    monkeypatch.setattr(session.games.store, "append_moves", stale)
    report = await session.games.board(5)
    with pytest.raises(ServiceError, match="changed at the same moment"):
        await session.games.roll(5, actor_at(report))


async def test_games_of_a_player_are_read_with_their_seats(session):
    await started(session, channel=5)
    await session.games.new_game(guild_id=1, channel_id=6, game="whist", actor=BOB, max_players=2)
    games = await session.games.games_of_user(BOB.user_id, 1)
    assert [(g.channel_id, [s.display_name for s in g.seats]) for g in games] == [
        (5, ["alice", "bob"]),
        (6, ["bob"]),
    ]


async def test_player_preferences_are_upserted(session):
    await session.games.set_notify(1, ALICE.user_id, "off")
    await session.games.set_notify(1, ALICE.user_id, "mention")
    assert (await session.games.player_prefs(1, ALICE.user_id))["notify"] == "mention"
    with pytest.raises(ServiceError):
        await session.games.set_notify(1, ALICE.user_id, "loud")


async def test_the_move_log_keeps_arrangements_face_down_until_everyone_has_arranged(session):
    games = session.games
    await games.new_game(guild_id=1, channel_id=8, game="treasure", actor=ALICE, max_players=2)
    await games.join(8, BOB)
    report = await games.start(8, ALICE)
    first = actor_at(report)
    await games.move(8, first, "arrange 543210")
    _, log = await games.history(8)
    assert [row.notation for row in log] == ["arrange (face down)"]
    second = BOB if first is ALICE else ALICE
    await games.move(8, second, "arrange default")
    _, log = await games.history(8)
    assert [row.notation for row in log] == ["arrange 543210", "arrange 012345"]


async def test_a_reroll_throws_the_die_with_it(session):
    """The Assassination Game's victim re-rolls a null with one decision: the die is thrown at once."""
    carol = Actor(3, "carol")
    await session.games.new_game(guild_id=1, channel_id=7, game="assassin", actor=ALICE, max_players=3)
    await session.games.join(7, BOB)
    await session.games.join(7, carol)
    report = await session.games.start(7, ALICE)
    people = {a.user_id: a for a in (ALICE, BOB, carol)}
    rerolls = 0
    for _ in range(3000):
        actor = people[report.to_move_user]
        if report.needs_roll:
            report = await session.games.roll(7, actor)
            continue
        options = await session.games.legal_moves(7, actor.user_id)
        reroll = next((o for o in options if o.notation == "reroll"), None)
        if reroll is None:
            report = await session.games.move(7, actor, options[-1].value)
            continue
        rolls_before = await session.games.store.count_rolls(report.game.id)
        report = await session.games.move(7, actor, reroll.value)
        _, log = await session.games.history(7)
        assert [row.kind for row in log[-2:]] == ["move", "roll"] and log[-2].notation == "reroll"
        assert await session.games.store.count_rolls(report.game.id) == rolls_before + 1
        assert not report.needs_roll and " rolls " in report.lines[-1]
        rerolls += 1
        if rerolls == 3:
            break
    assert rerolls == 3


async def test_computer_players_do_not_play_on_once_the_last_person_leaves(session):
    await session.games.new_game(guild_id=1, channel_id=8, game="hedgehog", actor=ALICE, max_players=4)
    await session.games.join(8, BOB)
    for _ in range(2):
        await session.games.add_bot(8, ALICE, "easy")
    await session.games.start(8, ALICE)
    report = await session.games.resign(8, BOB)  # a person is still playing: the game goes on
    assert report.game.status == "active" and ALL_PEOPLE_LEFT not in report.lines
    report = await session.games.resign(8, ALICE)
    assert report.game.status == "aborted" and report.lines[-1] == ALL_PEOPLE_LEFT
    assert report.game.deadline is None and report.outcome is None
    stored = await session.games.game(report.game.id)
    assert stored.status == "aborted" and not stored.rated


async def test_a_tournament_table_ends_with_its_places_when_the_last_person_leaves(session):
    """Those who leave rank below everyone still in, the first to leave last: once no person is left at a
    tournament's table, every person's place is settled and the bots' order counts for nothing."""
    await session.games.new_game(guild_id=1, channel_id=9, game="combat", actor=ALICE, max_players=4, tournament_id=5)
    await session.games.join(9, BOB)
    for _ in range(2):
        await session.games.add_bot(9, ALICE, "easy")
    await session.games.start(9, ALICE)
    report = await session.games.resign(9, BOB)
    assert report.game.status == "active" and report.outcome is None
    report = await session.games.resign(9, ALICE)
    assert report.game.status == "finished" and report.lines == [f"{ALICE.name} resigns."]
    assert report.outcome is not None and report.outcome.reason == TABLE_LEFT
    ranks = {row.display_name: report.outcome.ranks[row.seat] for row in report.game.seats}
    assert ranks == {"Easy bot": 1, "Easy bot 2": 1, ALICE.name: 3, BOB.name: 4}
    stored = await session.games.game(report.game.id)
    assert stored.status == "finished" and stored.outcome == {
        "ranks": list(report.outcome.ranks),
        "reason": TABLE_LEFT,
        "scores": None,
    }
    assert stored.deadline is None and stored.turn_seat is None


async def test_a_choice_searched_in_another_version_of_the_game_is_refused(session):
    report = await started(session)
    report = await session.games.roll(5, actor_at(report))
    actor, game = actor_at(report), report.game
    (choice, *_) = await session.games.legal_moves(5, actor.user_id)
    for other in ((game.id + 1, game.version), (game.id, game.version - 1)):  # another game; an older write
        with pytest.raises(ServiceError, match="The board changed"):
            await session.games.move(5, actor, choice.value, game_id=other[0], version=other[1])
    played = await session.games.move(5, actor, choice.value, game_id=game.id, version=game.version)
    assert played.game.ply == game.ply + 1
