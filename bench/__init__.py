"""Benchmarks: run each as ``python -m bench.<name>`` from the project folder; each prints JSON."""

from __future__ import annotations

import sys
from collections.abc import Iterable


def refuse_unknown_games(names: Iterable[str], known: Iterable[str]) -> bool:
    """True, after saying so in one line on stderr, when one of ``names`` is not a game of ``known``."""
    choices = sorted(known)
    unknown = [name for name in names if name not in choices]
    if unknown:
        print(f"Unknown game {unknown[0]!r}; choose from {', '.join(choices)}.", file=sys.stderr)
    return bool(unknown)
