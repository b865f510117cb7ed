"""The fuzz tests run in every ``pytest`` run; ``-m "not fuzz"`` leaves them out, ``-m fuzz`` runs only them."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fuzz: hostile input sent to every command, option and button of the bot")
