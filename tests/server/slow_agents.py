"""Plug-in agents that think too long, for the server's time limit a decision
(tests/server/test_bot_time_limit.py)."""

from __future__ import annotations

import contextlib
import time
from typing import Any


class Slow:
    """Sleeps SECONDS before the first legal move, and swallows every Exception on the
    way (the server's limit must still stop it)."""

    name = "slow"
    SECONDS = 60.0

    def __init__(self, seed: int = 0) -> None:
        """Seeded like every agent (unused)."""
        self.seed = seed

    def act(self, state: Any) -> Any:
        """The first legal move, after a long think."""
        with contextlib.suppress(Exception):  # (an agent that catches what it can)
            time.sleep(self.SECONDS)
        return state.legal_actions()[0]


class Sluggish(Slow):
    """Slow, but only a little: 0.4 s a decision."""

    name = "sluggish"
    SECONDS = 0.4
