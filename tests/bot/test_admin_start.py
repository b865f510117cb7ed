"""What an admin meets: `python -m bot` and `migrate-db` with a bad database or bad shards answer in one
line, a stop while Discord's gateway is unreachable still stops, and the Docker image ships every package.

Tests that need the bot to get past its Discord login run it against a fake Discord API on 127.0.0.1
(only ``/users/@me``, the application, the gateway address and the command sync), whose gateway
refuses connections, as a gateway does when the network drops after login.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FAKE_DISCORD = r"""
import asyncio, json, sys, threading
from aiohttp import web
import discord.http

USER = {"id": "111", "username": "bot", "discriminator": "0", "avatar": None, "bot": True, "global_name": None}
APP = {"id": "111", "name": "app", "icon": None, "description": "", "rpc_origins": [], "bot_public": True,
       "bot_require_code_grant": False, "verify_key": "x", "flags": 0, "owner": USER, "team": None,
       "summary": "", "interactions_endpoint_url": None}
GATEWAY = {"url": "ws://127.0.0.1:1/", "shards": 1,
           "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}

def reply(payload, status=200):
    return web.Response(body=json.dumps(payload).encode(), status=status, headers={"Content-Type": "application/json"})

async def me(request):
    if request.headers.get("Authorization") != "Bot good.token":
        return reply({"message": "401: Unauthorized", "code": 0}, 401)
    return reply(USER)

def serve(port, ready):
    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", lambda r: asyncio.sleep(0, reply(APP)))
    app.router.add_get("/api/v10/gateway/bot", lambda r: asyncio.sleep(0, reply(GATEWAY)))
    app.router.add_put("/api/v10/applications/{a}/commands", lambda r: asyncio.sleep(0, reply([])))
    runner = web.AppRunner(app, access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port.append(site._server.sockets[0].getsockname()[1])
    ready.set()
    loop.run_forever()

if __name__ == "__main__":
    port, ready = [], threading.Event()
    threading.Thread(target=serve, args=(port, ready), daemon=True).start()
    ready.wait()
    discord.http.Route.BASE = f"http://127.0.0.1:{port[0]}/api/v10"
    from bot.__main__ import main
    sys.exit(main(sys.argv[1:]))
"""


SETTINGS = {
    line.split("=", 1)[0].strip()
    for line in (ROOT / ".env.example").read_text().splitlines()
    if "=" in line and not line.lstrip().startswith("#")
}


def _env(extra: dict[str, str]) -> dict[str, str]:
    """This machine's environment without any of the bot's settings (a test's own, or another test's),
    then ``extra``: the bot runs on its defaults, except that it draws and searches in-process and
    leaves its commands unsynced (the fake Discord answers only what login needs)."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    quiet = {"RENDER_WORKERS": "0", "AI_WORKERS": "0", "SYNC_COMMANDS": "false"}
    env.update({"PYTHONPATH": str(ROOT), **quiet}, **extra)
    return env


def _bot(args: list[str], cwd: Path, extra: dict[str, str], fake_discord: bool = False) -> subprocess.CompletedProcess:
    if fake_discord:
        (cwd / "fake_discord.py").write_text(FAKE_DISCORD)
        command = [sys.executable, str(cwd / "fake_discord.py"), *args]
    else:
        command = [sys.executable, "-m", "bot", *args]
    return subprocess.run(command, cwd=cwd, env=_env(extra), capture_output=True, text=True, timeout=120)


def _one_clear_line(done: subprocess.CompletedProcess) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout, done.stderr[-2000:]
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr[-2000:]


def test_a_database_url_that_cannot_be_parsed_is_one_line_not_a_traceback(tmp_path):
    done = _bot([], tmp_path, {"DISCORD_TOKEN": "good.token", "DATABASE_URL": "nonsense"}, fake_discord=True)
    _one_clear_line(done)
    assert "DATABASE_URL" in done.stderr


def test_a_database_of_an_unknown_kind_is_one_line_not_a_traceback(tmp_path):
    url = "mysql+aiomysql://user:pw@127.0.0.1/db"
    done = _bot([], tmp_path, {"DISCORD_TOKEN": "good.token", "DATABASE_URL": url}, fake_discord=True)
    _one_clear_line(done)
    assert "DATABASE_URL" in done.stderr


def test_a_sqlite_folder_that_cannot_be_created_is_not_blamed_on_the_network(tmp_path):
    (tmp_path / "afile").write_text("")
    url = f"sqlite+aiosqlite:///{tmp_path}/afile/pyramids.db"
    done = _bot([], tmp_path, {"DISCORD_TOKEN": "good.token", "DATABASE_URL": url}, fake_discord=True)
    _one_clear_line(done)
    assert "Discord" not in done.stderr and "network" not in done.stderr
    assert "DATABASE_URL" in done.stderr or "afile" in done.stderr


def test_shard_ids_without_a_shard_count_is_one_line_not_a_traceback(tmp_path):
    done = _bot([], tmp_path, {"DISCORD_TOKEN": "x", "SHARD_IDS": "0,1"})
    _one_clear_line(done)
    assert done.returncode == 2 and "SHARD_COUNT" in done.stderr


def test_migrate_db_from_a_source_that_does_not_exist_is_refused(tmp_path):
    source = f"sqlite+aiosqlite:///{tmp_path}/typo/pyramids.db"
    target = f"sqlite+aiosqlite:///{tmp_path}/target.db"
    done = _bot(["migrate-db", "--from", source, "--to", target], tmp_path, {})
    assert done.returncode != 0
    assert "copy verified" not in done.stdout
    assert not (tmp_path / "typo" / "pyramids.db").exists()


def test_migrate_db_to_a_target_it_cannot_open_is_one_line_not_a_traceback(tmp_path):
    source = f"sqlite+aiosqlite:///{tmp_path}/source.db"
    done = _bot(["migrate-db", "--from", source, "--to", "nonsense"], tmp_path, {})
    _one_clear_line(done)


def test_sigterm_stops_the_bot_while_the_gateway_is_unreachable(tmp_path):
    # README: "Stop the bot with Ctrl-C or SIGTERM", also while discord.py keeps reconnecting
    (tmp_path / "fake_discord.py").write_text(FAKE_DISCORD)
    env = _env({"DISCORD_TOKEN": "good.token", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/db.sqlite"})
    log = (tmp_path / "log.txt").open("w+")
    proc = subprocess.Popen(
        [sys.executable, str(tmp_path / "fake_discord.py")], cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 240  # a generous bound: a busy machine starts slowly
        while (
            time.monotonic() < deadline and "Failed to connect for shard_id" not in (tmp_path / "log.txt").read_text()
        ):
            time.sleep(0.2)
        assert "Failed to connect for shard_id" in (tmp_path / "log.txt").read_text()
        proc.send_signal(signal.SIGTERM)
        try:
            status = proc.wait(timeout=180)  # the bot gives the gateway 15 s, then stops
        except subprocess.TimeoutExpired:
            status = None
        assert status is not None, "still running 3 minutes after SIGTERM"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()


def test_the_docker_image_copies_every_package_the_bot_installs():
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {pattern.rstrip("*") for pattern in include}
    copied = set(re.findall(r"^COPY\s+(\w+)\s", (ROOT / "Dockerfile").read_text(), flags=re.M))
    assert packages <= copied, f"not copied into the image: {sorted(packages - copied)}"
