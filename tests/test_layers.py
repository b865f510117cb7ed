"""The layers import one way, and each keeps to its job; no exceptions are listed here.

- ``games`` and ``renderers`` know nothing of Discord, databases or clocks;
- ``bot`` never imports ``cogs``, and produces no Discord markup (mentions, channel links, timestamps);
- ``cogs`` never imports a game engine: what it shows of a game comes from the session layer;
- game storage is private to the session layer (``bot/session/``): nothing else imports its store or
  schema, or reaches a ``.store`` attribute.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "games": {"discord", "sqlalchemy", "aiosqlite", "PIL", "bot", "cogs", "renderers", "time", "datetime", "asyncio"},
    "renderers": {"discord", "sqlalchemy", "aiosqlite", "bot", "cogs", "asyncio"},
    "bot": {"cogs"},
    "cogs": {"games", "ai", "sqlalchemy", "aiosqlite"},
}
SESSION = ROOT / "bot" / "session"
PRIVATE_TO_SESSION = {"bot.session.store", "bot.session.schema"}
PROCESS_ENTRY = {"bot/client.py", "bot/__main__.py"}
MARKUP = re.compile(r"<@!?\d|<@&|<#\d|<t:\d|<@\{|<#\{|<t:\{|\*\*\{")


def python_files(*layers: str) -> list[Path]:
    return sorted(path for layer in layers for path in (ROOT / layer).rglob("*.py"))


def imported_modules(tree: ast.AST) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_layers_import_only_downward():
    problems = []
    for layer, forbidden in FORBIDDEN.items():
        for path in python_files(layer):
            roots = {name.split(".")[0] for name in imported_modules(parse(path))}
            bad = roots & forbidden
            if bad:
                problems.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not problems, "\n".join(problems)


def test_game_storage_is_private_to_the_session_layer():
    problems = []
    for path in python_files("bot", "cogs", "bench"):
        if SESSION in path.parents:
            continue
        tree = parse(path)
        reached = imported_modules(tree) & PRIVATE_TO_SESSION
        if reached:
            problems.append(f"{path.relative_to(ROOT)} imports {sorted(reached)}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "store":
                problems.append(f"{path.relative_to(ROOT)}:{node.lineno} reaches .store")
    assert not problems, "\n".join(problems)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def source_segment(lines: list[bytes], node: ast.expr) -> str:
    """The source text of ``node``, as ``ast.get_source_segment`` gives it but from lines split once.

    ``ast.get_source_segment`` splits the whole file on every call, which made this check quadratic
    in a file's size; the offsets are UTF-8 byte columns, hence the encoded lines.
    """
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    end = node.end_col_offset if node.end_col_offset is not None else len(lines[last])
    if first == last:
        return lines[first][node.col_offset : end].decode("utf-8")
    parts = [lines[first][node.col_offset :], *lines[first + 1 : last], lines[last][:end]]
    return b"".join(parts).decode("utf-8")


def test_the_bot_process_writes_no_discord_markup():
    problems = []
    for path in python_files("bot"):
        source = path.read_text(encoding="utf-8")
        lines = [line + b"\n" for line in source.encode("utf-8").split(b"\n")]  # as the parser counts lines
        tree = ast.parse(source)
        skip = docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant | ast.JoinedStr) and id(node) not in skip:
                text = source_segment(lines, node)
                if MARKUP.search(text):
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno} {text[:60]}")
    assert not problems, "\n".join(dict.fromkeys(problems))  # an f-string's parts share its line


def test_the_bot_process_holds_no_discord_ui():
    """Only the process entry (the client wiring the extensions, and ``__main__``) may import discord."""
    problems = []
    for path in python_files("bot"):
        roots = {name.split(".")[0] for name in imported_modules(parse(path))}
        if "discord" in roots and path.relative_to(ROOT).as_posix() not in PROCESS_ENTRY:
            problems.append(str(path.relative_to(ROOT)))
    assert not problems, "\n".join(problems)


def test_commands_answer_through_the_one_reply_path():
    """A command's answer is sent by ``cogs.replies.answer`` (or its press-editing sibling in
    ``cogs.table``), which decides the first response under its lock and fits the payload to Discord's
    limits; no cog sends a first response of its own, nor defers one (``defer_publicly`` does, so that
    a private answer after it never shows publicly)."""
    allowed = {"cogs/replies.py"}
    problems = []
    for path in python_files("cogs"):
        if path.relative_to(ROOT).as_posix() in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "response.send_message(" in line or "response.defer(" in line:
                problems.append(f"{path.relative_to(ROOT)}:{number} {line.strip()}")
    assert not problems, "\n".join(problems)


def test_nothing_reads_outside_the_project():
    marker = "/".join(("..", "shared"))
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts:
            continue
        assert marker not in path.read_text(encoding="utf-8"), f"{path} refers to files outside the project"


def test_ai_is_pure_and_only_its_budget_reads_the_clock():
    """``ai`` knows nothing of Discord, the database or the bot; only the budget clock imports ``time``."""
    forbidden = {"bot", "cogs", "renderers", "discord", "sqlalchemy", "aiosqlite", "asyncio", "datetime"}
    clock_module = "ai/budget.py"
    problems = []
    for path in python_files("ai"):
        roots = {name.split(".")[0] for name in imported_modules(parse(path))}
        bad = roots & forbidden
        if bad:
            problems.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
        if "time" in roots and path.relative_to(ROOT).as_posix() != clock_module:
            problems.append(f"{path.relative_to(ROOT)} imports time (only {clock_module} may)")
    assert python_files("ai"), "the ai package is missing"
    assert not problems, "\n".join(problems)
