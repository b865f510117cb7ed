"""Move round trip through SimCord: slash command in, reply with the board PNG out, database committed.

Usage: ``python -m bench.roundtrip [game ...] [--actions N]``; prints JSON with p50/p99 in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from typing import Any

import games
from bench import refuse_unknown_games
from bench.stats import nearest_rank
from bot.client import create_bot
from bot.settings import Settings
from tests.discord.helpers import next_actor, running
from tests.settling import poll_settling_bots_often


async def measure(game: str, actions: int, seed: int) -> dict[str, Any]:
    """Play ``game`` through SimCord for ``actions`` timed actions (new games as needed)."""
    rules = games.REGISTRY[game]
    players = max(2, rules.min_players)
    timings: list[float] = []
    png_sizes: list[int] = []
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        # as the tests run it: one shard, boards drawn in a thread (SimCord's clock stands still, and a
        # process pool starting a worker waits on that clock forever)
        settings = Settings(token="bench", database_url=database_url, shard_count=1, render_workers=0, ai_workers=0)
        bot = create_bot(settings)
        async with running(bot) as env:
            guild = env.create_guild("Bench")
            members = [guild.add_member(env.create_user(f"p{i}")) for i in range(players)]
            number = 0
            while len(timings) < actions:
                number += 1
                channel = guild.create_text_channel(f"table-{number}")
                await members[0].slash(channel, f"{game} new", players=players) if "players" in _new_params(
                    bot, game
                ) else await members[0].slash(channel, f"{game} new")
                for member in members[1:]:
                    await member.slash(channel, f"{game} join")
                result = await members[0].slash(channel, f"{game} start")
                while len(timings) < actions:
                    actor, kind = next_actor(result, members)
                    if actor is None:
                        break
                    if kind == "roll":
                        started = time.perf_counter()
                        result = await actor.slash(channel, f"{game} roll")
                    else:
                        choices = await actor.autocomplete(channel, f"{game} move", "notation", "")
                        notation = rng.choice(choices)["value"]
                        started = time.perf_counter()
                        result = await actor.slash(channel, f"{game} move", notation=notation)
                    timings.append((time.perf_counter() - started) * 1000)
                    if result.response.attachments:
                        png_sizes.append(result.response.attachments[0].size)
    return {
        "game": game,
        "actions": len(timings),
        "roundtrip_ms_p50": round(statistics.median(timings), 2),
        "roundtrip_ms_p99": round(nearest_rank(timings, 0.99), 2),
        "roundtrip_ms_max": round(max(timings), 2),
        "png_kb_median": round(statistics.median(png_sizes) / 1024, 1) if png_sizes else None,
        "png_kb_max": round(max(png_sizes) / 1024, 1) if png_sizes else None,
    }


def _new_params(bot: Any, game: str) -> set[str]:
    group = bot.tree.get_command(game)
    command = group.get_command("new") if group else None
    return {p.name for p in command.parameters} if command else set()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=sorted(games.REGISTRY))
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if refuse_unknown_games(args.games, games.REGISTRY):
        return 2
    poll_settling_bots_often()  # a round trip ends when the bot has answered, not at SimCord's next look
    results = [asyncio.run(measure(game, args.actions, args.seed)) for game in args.games]
    json.dump({"benchmark": "move round trip through SimCord", "results": results}, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
