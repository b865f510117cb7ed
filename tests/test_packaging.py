"""A plain (not editable) install, as the Docker image makes it, ships what the bot reads at run time:
the rules pages."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import games

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = ("__pycache__", "*.egg-info")


def docker_context(into: Path) -> Path:
    """What the Dockerfile's COPY lines put in the image, copied into ``into`` (links kept as links, as
    Docker keeps them)."""
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if not line.startswith("COPY "):
            continue
        *sources, target = line.split()[1:]
        for name in sources:
            origin = ROOT / name
            destination = into / (name if target == "./" else target.removeprefix("./"))
            destination.parent.mkdir(parents=True, exist_ok=True)
            if origin.is_dir():
                shutil.copytree(origin, destination, symlinks=True, ignore=shutil.ignore_patterns(*SKIPPED))
            else:
                shutil.copy(origin, destination)
    return into


def test_the_wheel_the_docker_image_builds_ships_every_rules_page(tmp_path: Path) -> None:
    source = docker_context(tmp_path / "source")
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


def test_the_image_gives_the_user_it_runs_as_the_folder_of_the_sqlite_file() -> None:
    """The image runs as `bot` and keeps the default SQLite file in /app/data: the folder exists in the
    image, owned by `bot`, before the USER line (a fresh named volume copies that ownership)."""
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    user_at = next(i for i, line in enumerate(lines) if line.startswith("USER "))
    assert lines[user_at] == "USER bot"
    assert "RUN mkdir -p /app/data && chown bot:bot /app/data" in lines[:user_at]
