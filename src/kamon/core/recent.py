"""What just happened, for a front end that marks it: each other seat's last turn since
a viewer's own last decision, and the last turn of each party without a seat (from the
game's `recent` slot: the solo rival).

A turn here is a seat's latest run of consecutive decisions. Each says the seat, its
moves' notation (a board finds the elements they touched by it), the log lines they
wrote (`log_from` to `log_to`) and those lines as words.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any, Protocol

from kamon.core.protocol import State


class Move(Protocol):
    """A decision in force: who made it, its notation, its index (its version - 1)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def notation(self) -> str | None: ...
    @property
    def idx(self) -> int: ...


def recent_turns(state: State, moves: Sequence[Move], marks: list[int], log: list[str],
                 viewer: int | None, players: int) -> list[dict[str, Any]]:
    """The turns played since `viewer` last decided (a spectator, None: every seat's
    last), newest first; `marks[k]` is the log's length after k moves (marks[0]: the
    setup's)."""
    out: list[dict[str, Any]] = []
    seen: set[int | None] = set()
    end = len(moves)
    while end > 0:
        who = moves[end - 1].seat
        start = end - 1
        while start > 0 and moves[start - 1].seat == who:
            start -= 1
        if viewer is not None and who == viewer:
            break  # older turns were seen by the viewer when it decided
        if who not in seen and who is not None:
            seen.add(who)
            out.append({"seat": who, "name": state.name(who),
                        "version": moves[end - 1].idx + 1,
                        "moves": [m.notation or "" for m in moves[start:end]],
                        "log_from": marks[start], "log_to": marks[end],
                        "text": " · ".join(log[marks[start]:marks[end]])})
        if len(seen) >= players:
            break
        end = start
    recent = state.game.recent
    for turn in recent.party_turns(state, log) if recent is not None else ():
        if turn["log_from"] >= turn["log_to"]:
            continue
        written = bisect.bisect_right(marks, turn["log_from"])  # the move that wrote it
        out.append({"seat": None, "party": turn["party"], "name": turn["name"],
                    "version": moves[written - 1].idx + 1 if written >= 1 else 0,
                    "moves": list(turn["moves"]), "log_from": turn["log_from"],
                    "log_to": turn["log_to"],
                    "text": " · ".join(log[turn["log_from"]:turn["log_to"]])})
    return out
