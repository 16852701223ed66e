"""What the network sees and learns: the seat's observation, the moves, the value targets.

The input is the seat's observation vector (`kamon.rl.encoding`, the fast
`encode_state(state, seat)`: only what the seat may see). The value head predicts every
clan's final points divided by the game's MARGIN_SCALE, in slots relative to the seat
(slot k: clan (seat + k) mod clans; The White Castle's solo game has two clans, the
player and the rival), so one network serves every seat and player count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kamon.rl.encoding import Encoding, canonical_name, encoding

MAX_CLANS = 4  # value slots: the most clans a game of either has


def clan_count(state: Any) -> int:
    """How many clans the state scores (the solo rival counts as one)."""
    clans = getattr(state, "clans", None)
    if isinstance(clans, list):
        return len(clans)
    return int(state.n)


def observe(enc: Encoding, state: Any, seat: int) -> np.ndarray:
    """The seat's observation vector (float32)."""
    return enc.observe(state, seat)


def relative_values(totals: list[float], seat: int, scale: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Final points as value targets from `seat`'s slots: (values / scale, slot mask)."""
    n = len(totals)
    out = np.zeros(MAX_CLANS, dtype=np.float32)
    mask = np.zeros(MAX_CLANS, dtype=np.float32)
    for k in range(min(n, MAX_CLANS)):
        out[k] = totals[(seat + k) % n] / scale
        mask[k] = 1.0
    return out, mask


def absolute_values(slots: np.ndarray, seat: int, n: int, scale: float) -> list[float]:
    """Every clan's points in clan order from the value head's slots seen from `seat`."""
    vals = [0.0] * n
    for k in range(min(n, MAX_CLANS)):
        vals[(seat + k) % n] = float(slots[k]) * scale
    return vals


def game_key(game: str) -> str:
    """The registry name of a game (its weights file's name)."""
    return canonical_name(game)


def encoding_of(game: str) -> Encoding:
    """The game's observation encoding."""
    return encoding(game)
