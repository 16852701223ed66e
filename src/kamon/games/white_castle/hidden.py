"""What a White Castle position hides, as one comparable key: the order of the castle and
Solitaire decks and the random generator's state (view() withholds exactly these)."""

from __future__ import annotations

from collections.abc import Hashable

from kamon.games.white_castle.state import WhiteCastleState

# Every seat sees what a spectator sees (no hand is secret in this game): view(seat)
# differs from view(None) only in its `seat` field (the server builds one view a move).
SAME_VIEW_FOR_EVERY_SEAT = True


def hidden_key(state: WhiteCastleState) -> Hashable:
    """The hidden parts of `state`: equal keys before and after a move mean the move drew
    no card and rolled no die (the undo rule's cheap answer, kamon.core.undo)."""
    return (tuple(state.steward_deck), tuple(state.diplomat_deck), tuple(state.solo_deck),
            state.rng.state)
