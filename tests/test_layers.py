"""The layers import one way: games and renderers know nothing of Discord, databases or clocks."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "games": {"discord", "sqlalchemy", "aiosqlite", "PIL", "bot", "cogs", "renderers", "time", "datetime", "asyncio"},
    "renderers": {"discord", "sqlalchemy", "aiosqlite", "bot", "cogs", "asyncio"},
    "bot": {"cogs"},
}
ALLOWED_EXCEPTIONS = {("bot", "client.py"): {"cogs"}}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_layers_import_only_downward():
    problems = []
    for layer, forbidden in FORBIDDEN.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            allowed = ALLOWED_EXCEPTIONS.get((layer, path.name), set())
            bad = (imported_roots(path) & forbidden) - allowed
            if bad:
                problems.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not problems, "\n".join(problems)


def test_nothing_reads_outside_the_project():
    marker = "/".join(("..", "shared"))
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts:
            continue
        assert marker not in path.read_text(encoding="utf-8"), f"{path} refers to files outside the project"
