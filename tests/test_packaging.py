"""A plain (not editable) install ships what the bot reads at run time: the rules pages."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import games

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = (".git", ".venv", "build", "dist", "data", "*.egg-info", "__pycache__", ".hypothesis")


def test_the_wheel_ships_every_rules_page(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: building leaves a build/ folder beside the sources
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(*SKIPPED))
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(source)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for name in games.REGISTRY:
            shipped = archive.read(f"cogs/help/pages/{name}.md").decode("utf-8")
            assert shipped == (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
