"""Pig's observation for the research interfaces (PettingZoo, Gymnasium, OpenSpiel): a
field table (`kamon.core.layout`) and the encoding of a view, its definition.

Seats are seen from the observer: slot 0 is the observer (a spectator sees seat 0 there),
slot k the k-th seat after it. Counts are divided by their cap and clipped at 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from kamon.core.layout import Layout, Observation
from kamon.games.pig.state import DIE

SLOTS = 4  # the most players
CAP = 100  # points (a score, a turn total, the target) are counted out of 100

_seat = Layout()
S_PRESENT = _seat.add("present", 1, "1 if the game has this seat")
S_TO_MOVE = _seat.add("to_move", 1, "1 if this seat decides now")
S_SCORE = _seat.add("score", 1, "points banked", cap=CAP)

_layout = Layout()
SPECTATOR = _layout.add("spectator", 1, "1 if the observer has no seat")
TARGET = _layout.add("points_to_win", 1, "the score that wins (the option)", cap=CAP)
TURN_TOTAL = _layout.add("turn_total", 1, "what holding now would bank", cap=CAP)
ROLLS = _layout.add("rolls", 1, "dice rolled this turn", cap=50)
LAST = _layout.add("last_roll", DIE, "one-hot: the last die rolled (this turn or, at its "
                   "start, the last of the previous turn)")
SEATS = _layout.repeated("seat", _seat, SLOTS)
SIZE = _layout.size


def _count(value: int, cap: int) -> float:
    """A count over its cap, clipped at 1."""
    return min(value, cap) / cap


def encode(view: Mapping[str, Any]) -> np.ndarray:
    """The observation vector of a view (`PigState.view`)."""
    out = np.zeros(SIZE, dtype=np.float32)
    you = view["you"]
    n = int(view["players"])
    out[SPECTATOR] = 1.0 if you is None else 0.0
    out[TARGET] = _count(int(view["target"]), CAP)
    out[TURN_TOTAL] = _count(int(view["turn_total"]), CAP)
    rolls = list(view["rolls"])
    out[ROLLS] = _count(len(rolls), 50)
    last = rolls[-1] if rolls else (view["last_rolls"][-1] if view["last_rolls"] else None)
    if last is not None:
        out[LAST + last - 1] = 1.0
    me = 0 if you is None else int(you)
    for seat in range(n):
        base = SEATS + ((seat - me) % n) * _seat.size
        out[base + S_PRESENT] = 1.0
        out[base + S_TO_MOVE] = 1.0 if view["to_move"] == seat else 0.0
        out[base + S_SCORE] = _count(int(view["points"][seat]), CAP)
    return out


# The information state's bounds (decisions, revealing rolls): 2.4 times the longest of
# 2,000 four-player games of uniform random play to 100 (249 decisions, 187 rolls).
OBSERVATION = Observation(fields=tuple(_layout.fields), size=SIZE, encode=encode,
                          margin_scale=float(CAP), recall_limits=(600, 450))
