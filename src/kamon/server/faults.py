"""Fault injection for the server's crash tests: inert unless KAMON_FAULT is set.

Read once, when a process starts (the server, and each bot worker it spawns), as a
comma-separated list of `name:value`:

  kill-after-commit:N   the server SIGKILLs itself right after the N-th move or undo a
                        client asked for is committed, before answering it
  slow-bot:S            a bot worker waits S seconds before it thinks (so a test can
                        kill the server while a bot is thinking)
  slow-socket-open:S    a socket waits S seconds between its first read of the game and
                        its registration (so a test can store a move in that window)
"""

from __future__ import annotations

import os
import signal
import time

ENV = "KAMON_FAULT"


def _parse(spec: str) -> dict[str, float]:
    """The faults a KAMON_FAULT value asks for (unknown names are refused)."""
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, value = part.partition(":")
        if name not in ("kill-after-commit", "slow-bot", "slow-socket-open"):
            raise ValueError(f"{ENV}: unknown fault {name!r} (kill-after-commit:N, "
                             "slow-bot:SECONDS, slow-socket-open:SECONDS)")
        out[name] = float(value or 1)
    return out


FAULTS = _parse(os.environ.get(ENV, ""))
_commits = 0


def after_commit() -> None:
    """Called after a client's write is committed and before it is answered."""
    global _commits
    if "kill-after-commit" not in FAULTS:
        return
    _commits += 1
    if _commits >= FAULTS["kill-after-commit"]:
        os.kill(os.getpid(), signal.SIGKILL)


def before_bot_thinks() -> None:
    """Called in a bot worker before it decides."""
    pause = FAULTS.get("slow-bot")
    if pause:
        time.sleep(pause)


def socket_open_pause() -> float:
    """Seconds a socket waits between its first read and its registration (0: none)."""
    return FAULTS.get("slow-socket-open", 0.0)
