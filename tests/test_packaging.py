"""A plain (not editable) install ships what the bot reads at run time: the rules pages."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import games

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_ships_every_rules_page(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(tmp_path), str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for name in games.REGISTRY:
            shipped = archive.read(f"cogs/help/pages/{name}.md").decode("utf-8")
            assert shipped == (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
