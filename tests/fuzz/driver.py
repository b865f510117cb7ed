"""Send a fuzz case to the bot as raw gateway interactions, and judge what the bot did.

Interactions are built by hand, the way a hostile client could send them: SimCord's ``slash`` and
``autocomplete`` check values against the synced commands like Discord does, so the driver builds
the INTERACTION_CREATE payload itself (SimCord's ``base_payload``) and emits it, letting a number
stand where text is declared, an out-of-range integer, a choice never offered, an id that resolves
to nothing.  Two interactions of a case are emitted before the bot runs, as two clicks at once.

For each interaction it checks: answered (a message, an update, or autocomplete choices), no error
logged, nothing over Discord's limits, no ping from user text in a public message, and no change
to the database when the answer was a refusal.
"""

from __future__ import annotations

import copy
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from discord.enums import AppCommandOptionType as T
from simcord import interactions as wire
from simcord.backend import serializers
from simcord.components import ComponentValidationError, validate_embeds
from simcord.enums import InteractionType

from tests.discord.helpers import emit_at_once
from tests.fuzz.cases import Autocomplete, Case, Forged, Press, Ref, Slash, Step
from tests.fuzz.world import ANCHOR, VICTIM, World

AUTOCOMPLETE_RESULT = 8
EPHEMERAL = 1 << 6
INTERACTIVE = {2, 3, 5, 6, 7, 8}
PROBLEMS = ("unanswered", "errors_logged", "over_limit", "state_changed_by_refusal", "unescaped_public")


@dataclass
class Finding:
    """One broken promise: which, for which input, and what was seen."""

    kind: str
    label: str
    detail: str
    case: str


@dataclass
class Tally:
    """Counts over many cases (what ``bench.fuzz`` prints)."""

    inputs: int = 0
    answered: int = 0
    refused: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    per_command: dict[str, Counter[str]] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    expected: list[Finding] = field(default_factory=list)  # findings of known failures (xfail)

    def add(self, label: str, kind: str) -> None:
        self.per_command.setdefault(label, Counter())[kind] += 1


# --------------------------------------------------------------------------------------- building


def _text(world: World, value: str) -> str:
    return value.replace("{mallory}", str(world.members[VICTIM].id)).replace("{role}", str(world.role.id))


def _wire_value(world: World, actor: Any, channel: Any, value: Any, resolved: dict[str, Any]) -> Any:
    """The value as it travels in the payload (ids as strings), its entity added to ``resolved``."""
    if isinstance(value, Forged):
        return value.value
    if isinstance(value, Ref):
        if value.kind == "member":
            handle = world.members[value.key]
        elif value.kind == "channel":
            handle = world.channel(value.key)
        elif value.kind == "role":
            handle = world.role
        else:
            return wire.store_interaction_attachment(world.backend, channel.id, value.key, b"notes", resolved)
        wire.resolve_handle(actor, handle, resolved, channel_id=channel.id)
        return str(handle.id)
    if isinstance(value, str):
        return _text(world, value)
    return value


def _command_data(world: World, step: Step, action: Slash | Autocomplete, actor: Any, channel: Any) -> dict:
    path = action.command.path
    root = world.backend.find_command(path[0], world.guild.id)
    if root is None:
        raise LookupError(f"/{path[0]} is not synced")
    resolved: dict[str, Any] = {}
    leaf = [
        {"name": name, "type": kind, "value": _wire_value(world, actor, channel, value, resolved)}
        for name, kind, value in (action.options if isinstance(action, Slash) else action.filled)
    ]
    if isinstance(action, Autocomplete):
        current = _wire_value(world, actor, channel, action.current, resolved)
        leaf.append({"name": action.option.name, "type": int(action.option.type.value), "value": current})
        leaf[-1]["focused"] = True
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", 1),
        "options": wire.nest_options(root, list(path[1:]), leaf),
    }
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return data


def _live_components(world: World, channel: Any) -> list[tuple[Any, dict[str, Any]]]:
    """The real buttons and menus of the bot's newest public messages in ``channel``."""
    found = []
    messages = world.backend.messages.get(channel.id, {})
    for message in sorted(messages.values(), key=lambda m: m.id, reverse=True)[:6]:
        if message.flags & EPHEMERAL:
            continue
        for row in message.components:
            for component in row.get("components", []):
                if component.get("custom_id") and not component.get("disabled"):
                    found.append((message, component))
    return found


def _press_data(world: World, action: Press, channel: Any) -> tuple[dict[str, Any], dict[str, Any], int]:
    """The component payload, the message it sits on (as sent) and that message's id."""
    backend = world.backend
    if action.custom_id.startswith("@live"):
        live = _live_components(world, channel)
        if live:
            message, component = live[int(action.custom_id[5:] or 0) % len(live)]
            data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
            if component["type"] == 3:
                options = component.get("options") or [{"value": "-1"}]
                data["values"] = [options[len(action.values or ()) % len(options)]["value"]]
            payload = copy.deepcopy(dict(serializers.message_payload(backend, message)))
            return data, payload, message.id
    anchor = backend.get_message(channel.id, world.anchors[channel.id])
    payload = copy.deepcopy(dict(serializers.message_payload(backend, anchor)))
    custom_id = action.custom_id if not action.custom_id.startswith("@live") else "pg:roll:1"
    if action.values is None:
        component = {"type": 2, "style": 1, "label": "Press", "custom_id": custom_id}
        data = {"custom_id": custom_id, "component_type": 2}
    else:
        values = [_text(world, str(v)) for v in action.values]
        options = [{"label": v[:100] or "-", "value": v} for v in values] or [{"label": "-", "value": "-"}]
        component = {"type": 3, "custom_id": custom_id, "options": options}
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
    payload["components"] = [{"type": 1, "components": [component]}]
    return data, payload, anchor.id


def build(world: World, step: Step) -> tuple[Any, int, Any, dict[str, Any], dict[str, Any] | None, int | None]:
    """(actor, interaction type, channel, data, extra payload, source message) for one step."""
    actor = world.members[step.actor]
    channel = world.channel(step.phase)
    action = step.action
    if isinstance(action, Slash):
        data = _command_data(world, step, action, actor, channel)
        return actor, InteractionType.APPLICATION_COMMAND, channel, data, None, None
    if isinstance(action, Autocomplete):
        data = _command_data(world, step, action, actor, channel)
        return actor, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE, channel, data, None, None
    data, message, source = _press_data(world, action, channel)
    return actor, InteractionType.MESSAGE_COMPONENT, channel, data, {"message": message}, source


async def dispatch(world: World, built: list[tuple[Any, ...]]) -> list[Any]:
    """Emit every interaction of ``built`` before the bot runs, then let the bot finish; their records."""
    emitted = [(actor.id, kind, channel.id, data, extra, source) for actor, kind, channel, data, extra, source in built]
    return await emit_at_once(world.env, world.guild.id, emitted, idle=0.002)


# ---------------------------------------------------------------------------------------- judging


def message_limit_problems(body: Any) -> list[str]:
    """Where a message body breaks Discord's limits (content, embeds, components)."""
    if not isinstance(body, dict):
        return []
    problems = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > 2000:
        problems.append(f"content of {len(content)} characters")
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    try:
        validate_embeds(list(embeds))
    except ComponentValidationError as error:
        problems.append(str(error))
    rows = body.get("components") or []
    if len(rows) > 5:
        problems.append(f"{len(rows)} component rows")
    count = 0
    for row in rows:
        for item in row.get("components", []) if isinstance(row, dict) else []:
            count += item.get("type") in INTERACTIVE
            if len(str(item.get("custom_id", ""))) > 100 or len(str(item.get("label", ""))) > 80:
                problems.append("a component's id or label is too long")
            options = item.get("options") or []
            if len(options) > 25 or any(len(str(o.get("label", ""))) > 100 for o in options):
                problems.append("a menu with too many or too long options")
    if count > 25:
        problems.append(f"{count} components")
    return problems


def choice_problems(choices: Any, option_type: T | None) -> list[str]:
    """Where autocomplete choices break Discord's rules for an option of ``option_type``."""
    if not isinstance(choices, list):
        return ["choices are not a list"]
    problems = [f"{len(choices)} choices"] if len(choices) > 25 else []
    for choice in choices:
        name, value = choice.get("name"), choice.get("value")
        if not isinstance(name, str) or not 0 < len(name) <= 100:
            problems.append(f"choice name of {len(str(name))} characters")
        if option_type is T.string and (not isinstance(value, str) or not 0 < len(value) <= 100):
            problems.append(f"string choice value {str(value)[:20]!r}")
        elif option_type is T.integer and (isinstance(value, bool) or not isinstance(value, int)):
            problems.append(f"integer option offered {type(value).__name__} {str(value)[:20]!r}")
        elif option_type is T.integer and abs(value) > 2**53 - 1:
            problems.append(f"integer choice {value} beyond Discord's range")
    return problems


def request_problems(entries: list[Any], option_types: dict[int, T]) -> list[str]:
    """Limit problems in the REST requests the bot made (``option_types``: autocompleted option of each
    interaction id)."""
    problems = []
    for entry in entries:
        body = entry.json
        if not isinstance(body, dict):
            continue
        if entry.path.endswith("/callback") and "type" in body:
            if body["type"] == AUTOCOMPLETE_RESULT:
                interaction_id = int(entry.path.split("/")[2])
                choices = (body.get("data") or {}).get("choices")
                problems += choice_problems(choices, option_types.get(interaction_id))
            else:
                problems += message_limit_problems(body.get("data"))
        else:
            problems += message_limit_problems(body)
    return problems


def ping_problems(world: World, events: list[tuple[str, str, Any]]) -> list[str]:
    """Public messages created or edited that ping @everyone, a role, or the member nobody invited."""
    problems = []
    victim = world.members[VICTIM].id
    for kind, name, payload in events:
        if kind != "GATEWAY" or name not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or not isinstance(payload, dict):
            continue
        try:
            message = world.backend.get_message(int(payload["channel_id"]), int(payload["id"]))
        except Exception:
            continue
        if message.flags & EPHEMERAL or message.author_id != world.backend.bot_user.id:
            continue
        if message.mention_everyone or message.ping_role_ids or victim in message.ping_user_ids:
            problems.append(f"public message pings from user text: {message.content[:120]!r}")
    return problems


def answered(record: Any) -> bool:
    """True when the user saw an answer: a message, an update, or autocomplete choices (not 'thinking…')."""
    return bool(record.responded) and not record.loading


def describe(case: Case) -> str:
    """The case in one line, its long values shortened."""

    def short(value: Any) -> str:
        text = repr(value)
        return text if len(text) <= 80 else text[:60] + f"…<{len(text)} chars>"

    parts = []
    for step in case.steps:
        action = step.action
        if isinstance(action, Slash):
            options = " ".join(f"{n}:{short(v)}" for n, _k, v in action.options)
            parts.append(f"{step.actor}@{step.phase} /{action.command.name} {options}".rstrip())
        elif isinstance(action, Autocomplete):
            typed = f"{action.option.name}={short(action.current)}"
            parts.append(f"{step.actor}@{step.phase} autocomplete /{action.command.name} {typed}")
        else:
            values = f" values={short(list(action.values))}" if action.values is not None else ""
            parts.append(f"{step.actor}@{step.phase} press {short(action.custom_id)}{values}")
    return " || ".join(parts)


async def run_case(world: World, case: Case, capture: Any, tally: Tally, known: Any = None) -> list[Finding]:
    """Send ``case``, judge it and count it in ``tally``; returns its findings."""
    backend, env = world.backend, world.env
    before = world.last_snapshot if world.last_snapshot is not None else await world.state()
    marks = (len(backend.http_requests), len(backend.transcript), env.error_cursor)
    capture.take()
    built = [build(world, step) for step in case.steps]
    started = time.perf_counter()
    records = await dispatch(world, built)
    tally.times.append(time.perf_counter() - started)
    after = world.last_snapshot = await world.state()
    logs = capture.take()
    requests = backend.http_requests[marks[0] :]
    events = backend.transcript[marks[1] :]
    errors = env.errors_since(marks[2])
    text = describe(case)
    findings: list[Finding] = []

    def found(kind: str, label: str, detail: str) -> None:
        findings.append(Finding(kind, label, detail, text))

    refused_ids = {getattr(r, "interaction_id", None) for r in logs if getattr(r, "refusal", None)}
    all_refused = True
    for step, record in zip(case.steps, records, strict=True):
        label = step.action.label
        tally.inputs += 1
        tally.add(label, "inputs")
        if answered(record):
            tally.answered += 1
        else:
            found("unanswered", label, f"no answer to {describe(Case((step,)))[:200]}")
        if record.id in refused_ids:
            tally.refused += 1
            tally.add(label, "refused")
        else:
            all_refused = False
    labels = {record.id: step.action.label for step, record in zip(case.steps, records, strict=True)}
    option_types = {
        record.id: step.action.option.type
        for step, record in zip(case.steps, records, strict=True)
        if isinstance(step.action, Autocomplete)
    }
    label = case.label
    for record in logs:
        if record.levelno >= logging.ERROR:
            where = labels.get(getattr(record, "interaction_id", None), label)
            found("errors_logged", where, f"{record.name}: {record.getMessage()[:200]} {_last_line(record)}")
    for error in errors:
        found("errors_logged", label, f"unhandled {type(error).__name__}: {str(error)[:200]}")
    for line in capture.unwritable:
        found("errors_logged", label, f"log line could not be written: {line[:200]}")
    capture.unwritable.clear()
    for problem in request_problems(requests, option_types):
        found("over_limit", label, problem)
    for problem in ping_problems(world, events):
        found("unescaped_public", label, problem)
    if all_refused and before != after:
        if isinstance(before, dict):
            changed = ", ".join(sorted(name for name in before if before[name] != after.get(name)))
            found("state_changed_by_refusal", label, f"tables changed: {changed}")
        else:
            found("state_changed_by_refusal", label, "the database was written")
    for finding in findings:
        expected = known(finding) if known is not None else None
        if expected:
            tally.expected.append(finding)
            tally.problems[f"{finding.kind} (known)"] += 1
        else:
            tally.findings.append(finding)
            tally.problems[finding.kind] += 1
            tally.add(finding.label, finding.kind)
    return findings


def _last_line(record: logging.LogRecord) -> str:
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        return f"| {type(error).__name__}: {str(error)[:160]}"
    return ""


def is_anchor(message: Any) -> bool:
    return getattr(message, "content", None) == ANCHOR
