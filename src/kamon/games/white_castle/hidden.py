"""What a White Castle position hides, as one comparable key: the order of the castle and
Solitaire decks and the random generator's state (view() withholds exactly these):
the game's `hidden_key` slot, one part per hidden item."""

from __future__ import annotations

from collections.abc import Hashable

from kamon.games.white_castle.state import WhiteCastleState


def hidden_key(state: WhiteCastleState) -> tuple[Hashable, ...]:
    """The hidden parts of `state`: equal keys before and after a move mean the move drew
    no card and rolled no die (the undo rule's cheap answer, kamon.core.undo)."""
    return (tuple(state.steward_deck), tuple(state.diplomat_deck), tuple(state.solo_deck),
            state.rng.state)
