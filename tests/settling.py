"""How often the offline Discord looks again at a bot that has not settled yet.

After every interaction SimCord waits for the bot's work to settle: it looks at the bot's tasks and, while
any work is left, waits up to an idle interval (50 ms by default) for a task to finish before looking
again. When all that is left is a callback already queued (a finished task's done callback, a database
thread's answer) no task finishes and the whole interval passes idle: that was about half the time of
the Discord tests (8 min 42 s for the suite with it, 6 min 13 s with 2 ms). The interval changes nothing
else: a settle ends on the same condition, against the same deadline.

SimCord takes the interval as an argument of its settle step but passes the default for interactions,
so the default is set here; if a release renames that step, this fails loudly instead of going slow.
"""

from __future__ import annotations

import simcord

SETTLE_POLL_SECONDS = 0.002


def poll_settling_bots_often(seconds: float = SETTLE_POLL_SECONDS) -> None:
    """Make SimCord look again every ``seconds`` while a bot's work settles (for this process)."""
    defaults = getattr(simcord.Env._settle_internal, "__kwdefaults__", None)
    if not defaults or "idle" not in defaults:
        raise RuntimeError("SimCord's settle step no longer takes an idle interval: see tests/settling.py")
    defaults["idle"] = seconds
