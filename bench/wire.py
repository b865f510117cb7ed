"""A lean offline Discord for the load bench's measured phase.

SimCord (the offline Discord of the tests) emulates Discord's servers faithfully: it validates every
request, stores every message, deep-copies every payload and keeps logs for tests to read.  That work
runs in the bot's process and, at a thousand busy channels, took about 45% of the time the bot's event
loop held the interpreter: on a real Discord it happens on Discord's servers.  ``Wire`` takes over the
two seams SimCord plugs into discord.py (``HTTPClient.request`` and the webhook adapter's ``request``)
and the gateway's parsers, and does only what the bot would see of Discord:

- an interaction arrives as the gateway delivers it: a JSON text the bot decodes, the
  ``socket_event_type`` event, then discord.py's ``INTERACTION_CREATE`` parser;
- every request is answered with the payload Discord returns (the bot's discord.py encodes the
  request and decodes the answer, as it does on the wire);
- every message the bot posts or edits in a channel comes back to it as ``MESSAGE_CREATE`` or
  ``MESSAGE_UPDATE``, as Discord sends them to a bot with the guild-messages intent.

Everything in the bot, discord.py included, runs unchanged.  What the wire does not charge the bot for
is the socket (aiohttp's framing, TLS) and compression.  A route the wire does not know raises, and is
counted: the bench reports it rather than measuring a bot that silently failed.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord
from discord.utils import _from_json, _to_json, time_snowflake

EPHEMERAL = 64  # message flag
MENTION = re.compile(r"<@!?(\d+)>")
KEEP_MESSAGES = 4  # per channel: the bot edits only its latest boards
KEEP_INTERACTIONS = 10_000  # Discord takes follow-ups for 15 minutes; the bot sends them within seconds


@dataclass(slots=True)
class Timing:
    """What happened to one interaction, as the player saw it."""

    sent: float
    acked: float | None = None
    done: float | None = None
    deferred: bool = False
    short_answer: bool = False  # the first response was a private line ("busy..."), not the board
    board: bool = False  # a message answering it (response, follow-up or edit) carries a picture
    text: str = ""  # the texts of its answers (response, follow-ups, edits), one per line
    edited: bool = False  # played, the turn going on: the living board was edited, the answer says "Done"


@dataclass(slots=True)
class _Exchange:
    channel_id: int
    user: dict[str, Any]
    name: str
    original: int | None = None  # the response's message id


class UnknownRoute(RuntimeError):
    """The bot asked for something the lean Discord does not serve."""


class Wire:
    """Discord's side of the bot's connection, reduced to what a move needs."""

    def __init__(self, bot: discord.Client, timings: dict[int, Timing], template: dict[str, Any]) -> None:
        """``template`` is one INTERACTION_CREATE payload of the guild (its shape is copied)."""
        self.bot = bot
        self.timings = timings
        self.template = template
        self.application_id = int(template["application_id"])
        self.guild_id = template["guild_id"]
        bot_user = bot.user
        assert bot_user is not None
        self.author = _user_payload(bot_user.id, bot_user.name, bot=True)
        self.users: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.messages: dict[int, OrderedDict[int, dict[str, Any]]] = {}
        self.exchanges: OrderedDict[int, _Exchange] = OrderedDict()
        self.unknown_routes: Counter[str] = Counter()
        self._commands: dict[str, dict[str, Any]] = {}
        self._last_id = 0
        self._undo: list[Callable[[], None]] = []

    # -- the two seams -----------------------------------------------------------------------------

    def install(self) -> None:
        """Answer the bot's requests from here on (until ``uninstall``)."""
        from discord.webhook.async_ import async_context

        http = self.bot.http
        adapter = async_context.get()
        http.request = self._http_request  # type: ignore[method-assign]
        adapter.request = self._webhook_request  # type: ignore[method-assign]
        self._undo = [lambda: http.__dict__.pop("request", None), lambda: adapter.__dict__.pop("request", None)]

    def uninstall(self) -> None:
        """Give the seams back to SimCord."""
        for undo in self._undo:
            undo()
        self._undo = []

    def add_member(self, user_id: int, name: str) -> None:
        """Know ``user_id`` (a member of the guild) by ``name``."""
        self.users[user_id] = _user_payload(user_id, name)

    def add_channel(self, channel_id: int, name: str) -> None:
        """Know ``channel_id`` (a text channel of the guild) by ``name``."""
        channel = dict(self.template["channel"])
        channel.update(id=str(channel_id), name=name, last_message_id=None)
        self.channels[channel_id] = channel

    def add_command(self, command: dict[str, Any]) -> None:
        """Know a registered slash command (its JSON as the bot registered it, with its id)."""
        self._commands[command["name"]] = command

    # -- the gateway -------------------------------------------------------------------------------

    def slash(self, user_id: int, channel_id: int, name: str, **options: Any) -> int:
        """Deliver ``/name options`` from ``user_id`` in ``channel_id``; returns the interaction's id."""
        interaction_id = self._new_id()
        payload = dict(self.template)
        member = dict(payload["member"])
        member["user"] = self.users[user_id]
        payload.update(
            id=str(interaction_id),
            token=f"lean-{interaction_id}",
            data=self._command_data(name, options),
            channel_id=str(channel_id),
            channel=self.channels[channel_id],
            member=member,
        )
        self.exchanges[interaction_id] = _Exchange(channel_id, self.users[user_id], name.split()[0])
        while len(self.exchanges) > KEEP_INTERACTIONS:
            self.exchanges.popitem(last=False)
        self.timings[interaction_id] = Timing(time.perf_counter())
        self._dispatch("INTERACTION_CREATE", json.dumps(payload))
        return interaction_id

    def _dispatch(self, event: str, text: str) -> None:
        """What discord.py's gateway does with a dispatch it received: decode, announce, parse."""
        data = _from_json(text)
        self.bot.dispatch("socket_event_type", event)
        self.bot._connection.parsers[event](data)

    def _command_data(self, name: str, options: dict[str, Any]) -> dict[str, Any]:
        parts = name.split()
        root = self._commands[parts[0]]
        node: dict[str, Any] = root
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            node = next(option for option in node.get("options", []) if option["name"] == part)
            chain.append({"name": part, "type": node["type"], "options": []})
        kinds = {option["name"]: option["type"] for option in node.get("options", [])}
        leaf = [{"name": key, "type": kinds[key], "value": value} for key, value in options.items()]
        nested: list[dict[str, Any]] = leaf
        for link in reversed(chain):
            link["options"] = nested
            nested = [link]
        return {"id": root["id"], "name": root["name"], "type": root.get("type", 1), "options": nested}

    # -- HTTP ---------------------------------------------------------------------------------------

    async def _http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        if body is not None:
            _to_json(body)  # discord.py encodes the body before sending it
        if form is not None:
            body = _form_payload(form)
        return self._serve(route.method, route.url, body, list(files or []), kwargs.get("params") or {})

    async def _webhook_request(
        self,
        route: Any,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Any = None,
        params: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        body = payload
        if body is not None:
            _to_json(body)
        if multipart:
            body = _form_payload(multipart)
        return self._serve(route.method, route.url, body, list(files or []), params or {})

    def _serve(self, method: str, url: str, body: Any, files: list[Any], params: dict[str, Any]) -> Any:
        path = url.split("/api/v10", 1)[-1].split("?", 1)[0].strip("/").split("/")
        body = body or {}
        if path[0] == "interactions" and path[-1] == "callback" and method == "POST":
            return self._callback(int(path[1]), body, files, params)
        if path[0] == "webhooks" and len(path) == 3 and method == "POST":
            return self._follow_up(_token_id(path[2]), body, files)
        if path[0] == "webhooks" and len(path) == 5 and path[3] == "messages":
            return self._original(method, _token_id(path[2]), path[4], body, files)
        if path[0] == "channels" and len(path) == 3 and path[2] == "messages" and method == "POST":
            return self._post(int(path[1]), body, files, kind=0, interaction=None)
        if path[0] == "channels" and len(path) == 4 and path[2] == "messages":
            if method == "PATCH":
                return self._edit(int(path[1]), int(path[3]), body, files)
            if method == "DELETE":
                self._forget(int(path[1]), int(path[3]))
                return None
        key = f"{method} /" + "/".join("{id}" if part.isdigit() else part for part in path)
        self.unknown_routes[key] += 1
        raise UnknownRoute(key)

    def _callback(self, interaction_id: int, body: dict[str, Any], files: list[Any], params: dict[str, Any]) -> Any:
        kind = body["type"]
        data = body.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        timing = self.timings.get(interaction_id)
        if timing is not None and timing.acked is None:
            timing.acked = time.perf_counter()
            timing.deferred = kind in (5, 6)
            timing.short_answer = ephemeral and kind == 4
        exchange = self.exchanges.get(interaction_id)
        message = None
        if kind == 4 and exchange is not None:
            message = self._post(exchange.channel_id, data, files, kind=20, interaction=interaction_id)
            exchange.original = int(message["id"])
        elif kind not in (5, 6, 8):
            self.unknown_routes[f"callback type {kind}"] += 1
            raise UnknownRoute(f"interaction callback type {kind}")
        if not params.get("with_response"):
            return None
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(interaction_id),
                "type": 2,
                "activity_instance_id": None,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            },
            "resource": {"type": kind, **({"message": message} if message else {})},
        }
        return _from_json(json.dumps(answer))

    def _follow_up(self, interaction_id: int, body: dict[str, Any], files: list[Any]) -> Any:
        exchange = self.exchanges[interaction_id]
        return self._post(exchange.channel_id, body, files, kind=20, interaction=interaction_id)

    def _original(self, method: str, interaction_id: int, which: str, body: dict[str, Any], files: list[Any]) -> Any:
        exchange = self.exchanges[interaction_id]
        message_id = exchange.original if which == "@original" else int(which)
        if method == "DELETE":
            self._forget(exchange.channel_id, message_id)
            return None
        if message_id is None:  # the edit of a deferred response posts the answer
            message = self._post(exchange.channel_id, body, files, kind=20, interaction=interaction_id)
            exchange.original = int(message["id"])
            return message
        if method == "GET":
            return self._kept(exchange.channel_id, message_id) or self._blank(exchange.channel_id, message_id)
        return self._edit(exchange.channel_id, message_id, body, files, interaction=interaction_id)

    # -- messages -----------------------------------------------------------------------------------

    def _post(
        self, channel_id: int, body: dict[str, Any], files: list[Any], *, kind: int, interaction: int | None
    ) -> Any:
        message = self._blank(channel_id, self._new_id(), kind=kind, interaction=interaction)
        message["flags"] = body.get("flags", 0)
        return self._store(message, body, files, interaction, "MESSAGE_CREATE")

    def _edit(
        self, channel_id: int, message_id: int, body: dict[str, Any], files: list[Any], interaction: int | None = None
    ) -> Any:
        message = dict(self._kept(channel_id, message_id) or self._blank(channel_id, message_id))
        message["edited_timestamp"] = _now()
        return self._store(message, body, files, interaction, "MESSAGE_UPDATE")

    def _store(
        self, message: dict[str, Any], body: dict[str, Any], files: list[Any], interaction: int | None, event: str
    ) -> Any:
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key]
        if message.get("content") is None:  # an edit with a null content clears the text, as Discord does
            message["content"] = ""
        if "attachments" in body or files:
            message["attachments"] = [self._attachment(message["channel_id"], file) for file in files]
        message["mentions"] = [self.users[int(i)] for i in MENTION.findall(message["content"]) if int(i) in self.users]
        channel_id = int(message["channel_id"])
        kept = self.messages.setdefault(channel_id, OrderedDict())
        kept[int(message["id"])] = message
        while len(kept) > KEEP_MESSAGES:
            kept.popitem(last=False)
        timing = self.timings.get(interaction) if interaction is not None else None
        if timing is not None:
            timing.board = timing.board or bool(message["attachments"])
            timing.text = f"{timing.text}\n{message['content']}" if timing.text else message["content"]
        text = json.dumps(message)
        if self.bot.intents.guild_messages and not message["flags"] & EPHEMERAL:
            # Discord tells a bot subscribed to channel messages of its own ones too
            asyncio.get_running_loop().call_soon(self._dispatch, event, text)
        return _from_json(text)

    def _kept(self, channel_id: int, message_id: int | None) -> dict[str, Any] | None:
        kept = self.messages.get(channel_id)
        return kept.get(message_id) if kept is not None and message_id is not None else None

    def _forget(self, channel_id: int, message_id: int | None) -> None:
        kept = self.messages.get(channel_id)
        if kept is not None and message_id is not None:
            kept.pop(message_id, None)

    def _attachment(self, channel_id: str, file: Any) -> dict[str, Any]:
        size = len(file.fp.read())  # aiohttp reads the picture to send it
        attachment_id = self._new_id()
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{file.filename}"
        return {
            "id": str(attachment_id),
            "filename": file.filename,
            "description": file.description,
            "size": size,
            "url": url,
            "proxy_url": url,
            "content_type": "image/png" if file.filename.endswith(".png") else "application/octet-stream",
        }

    def _blank(
        self, channel_id: int, message_id: int, *, kind: int = 20, interaction: int | None = None
    ) -> dict[str, Any]:
        message: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self.author,
            "content": "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "sticker_items": [],
            "type": kind,
            "flags": 0,
            "nonce": None,
            "reactions": [],
            "guild_id": self.guild_id,
        }
        exchange = self.exchanges.get(interaction) if interaction is not None else None
        if exchange is not None:
            message["interaction_metadata"] = {
                "id": str(interaction),
                "type": 2,
                "user": exchange.user,
                "authorizing_integration_owners": {},
                "name": exchange.name,
                "command_type": 1,
            }
        return message

    def _new_id(self) -> int:
        """A snowflake for now, never one handed out before."""
        self._last_id = max(self._last_id + 1, time_snowflake(datetime.now(UTC)))
        return self._last_id


def _user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "bot": bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
    }


def _form_payload(form: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON part of a multipart request (the pictures are read by ``_attachment``)."""
    for part in form:
        if part.get("name") == "payload_json":
            return dict(json.loads(part["value"]))
    return {}


def _token_id(token: str) -> int:
    return int(token.removeprefix("lean-"))


def _now() -> str:
    return datetime.now(UTC).isoformat()
