"""A computer player's search that waits for the test to let it finish (run in a search process)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ai import choose_notation

GATE_WAIT_SECONDS = 120.0  # a test that never opens the gate still ends


def gated_search(gate: str, *arguments: Any) -> str:
    """``choose_notation(*arguments)`` once the file ``gate`` exists: the search lasts as long as the
    test needs it to, on any machine."""
    waited = 0.0
    while not Path(gate).exists() and waited < GATE_WAIT_SECONDS:
        time.sleep(0.01)
        waited += 0.01
    return choose_notation(*arguments)
