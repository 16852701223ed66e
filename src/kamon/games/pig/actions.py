"""Pig's action space: two decisions, fixed ids and their notation.

Examples:
    >>> [a.text for a in ACTIONS], BY_TEXT["hold"]
    (['roll', 'hold'], 1)
"""

from __future__ import annotations

from kamon.core.protocol import Action

ROLL = 0  # roll the die again
HOLD = 1  # bank the turn total and pass the die on
TEXTS = ("roll", "hold")
ACTIONS = tuple(Action(i, t) for i, t in enumerate(TEXTS))
BY_TEXT = {t: i for i, t in enumerate(TEXTS)}
NUM_ACTIONS = len(ACTIONS)
