"""Every command and option of the synced tree is documented for players (``docs/commands.md``)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.fuzz.tree import leaves

DOCS = Path(__file__).resolve().parents[2] / "docs"


async def test_every_command_and_option_is_in_the_command_reference(table, simcord_env):
    reference = (DOCS / "commands.md").read_text(encoding="utf-8")
    tournaments = (DOCS / "tournaments.md").read_text(encoding="utf-8")
    missing = []
    for command in leaves(simcord_env.bot.tree):
        text = tournaments if command.path[0] == "tournament" else reference
        if f"`{command.path[-1]}" not in text and f"`/{' '.join(command.path)}" not in text:
            missing.append(command.name)
        for option in command.options:
            if not re.search(rf"`[^`\n]*\b{re.escape(option.name)}\b[^`\n]*`", text):
                missing.append(f"{command.name} {option.name}")
    assert not missing, f"not in docs/commands.md (or docs/tournaments.md): {missing}"
