"""A plug-in agent for the crash tests (`path/to/crash_once_agent.py:CrashOnce`): it plays
exactly as the `random` agent with the same seed, except that the first process to reach
its CRASH_AT-th decision while no file `crashed` lies beside this file creates that file
(holding its process id) and dies on the spot (os._exit: no cleanup, no exception), once.

The test copies this file into a temporary folder, so the marker is the test's own. It
replaces a test hook that used to live in the production `SimSpec`.
"""

from __future__ import annotations

import os
from pathlib import Path

from kamon.agents import RandomAgent
from kamon.core.protocol import Action, State

MARKER = Path(__file__).with_name("crashed")
CRASH_AT = 300  # decisions of this agent in one process: a few games into a batch
CRASH_EXIT = 70
_decisions = 0  # per process: the module is loaded once per process


class CrashOnce(RandomAgent):
    """`random`, but it kills its process once (see the module's docstring)."""

    name = "crash-once"

    def act(self, state: State) -> Action:
        """The random agent's choice, after dying if this is the process's CRASH_AT-th
        decision and no marker exists yet."""
        global _decisions
        _decisions += 1
        if _decisions == CRASH_AT:
            crash_once(MARKER)
        return super().act(state)


def crash_once(marker: Path) -> None:
    """Die abruptly unless the marker exists (creating it first, atomically)."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os._exit(CRASH_EXIT)
