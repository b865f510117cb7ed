"""Through the real bot in SimCord: a move that cannot be answered at once (here: the process counts as
overloaded) is acknowledged first, privately, and its board follows; a refusal after it stays private."""

from __future__ import annotations

import discord
import pytest

from bot.client import create_bot
from bot.pacing import OVERLOADED
from bot.settings import Settings
from tests.discord.helpers import running


@pytest.mark.simcord(settle_timeout=120.0)
async def test_every_move_acknowledged_first_still_shows_its_board(db_url: str) -> None:
    settings = Settings(
        token="test-token",
        database_url=db_url,
        scheduler_interval_seconds=3600,
        busy_in_flight=0,  # the process counts as overloaded: every action is acknowledged before its answer
        shard_count=1,
        render_workers=0,
    )
    bot = create_bot(settings, clock=discord.utils.utcnow, new_seed=lambda: "ack-test")
    async with running(bot, settle_timeout=120.0) as env:
        guild = env.create_guild("Club")
        channel = guild.create_text_channel("games")
        alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
        await alice.slash(channel, "whist new")
        await bob.slash(channel, "whist join")
        await alice.slash(channel, "whist start")
        for _ in range(4):
            for player in (alice, bob):
                choices = await player.autocomplete(channel, "whist move", "notation", "")
                if choices:
                    break
            other = bob if player is alice else alice
            refused = await other.slash(channel, "whist move", notation=choices[0]["value"])
            assert refused.response is not None
            assert refused.ephemeral and refused.response.content == OVERLOADED
            assert all(m.flags.ephemeral for m in refused.followups)  # the refusal stays private
            played = await player.slash(channel, "whist move", notation=choices[0]["value"])
            assert played.response is not None
            assert played.ephemeral and played.response.content == OVERLOADED
            boards = [m for m in played.followups if not m.flags.ephemeral and m.attachments]
            assert boards, "the board did not follow the acknowledgement"
        assert bot.pacer.stats.overloaded >= 8
