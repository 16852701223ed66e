"""What an I, Clansman position hides, as one comparable key: the order of the century
piles and the random generator's state (view() withholds exactly these)."""

from __future__ import annotations

from collections.abc import Hashable

from kamon.games.clansman.state import ClansmanState

# Every seat sees what a spectator sees (hands are public, R08): view(seat)
# differs from view(None) only in its `seat` field (the server builds one view a move).
SAME_VIEW_FOR_EVERY_SEAT = True


def hidden_key(state: ClansmanState) -> Hashable:
    """The hidden parts of `state`: equal keys before and after a move mean the move drew
    nothing from a pile and used no randomness (the undo rule's cheap answer,
    kamon.core.undo)."""
    return (tuple(tuple(p) for p in state.piles), state.rng.state)
