"""What a White Castle position hides, as one comparable key: the order of the castle and
Solitaire decks and the random generator's state (view() withholds exactly these):
the game's `hidden_key` slot, one part per hidden item."""

from __future__ import annotations

from collections.abc import Hashable

from kamon.core.chance import PileSpec
from kamon.games.white_castle.state import WhiteCastleState


def hidden_key(state: WhiteCastleState) -> tuple[Hashable, ...]:
    """The hidden parts of `state`: equal keys before and after a move mean the move drew
    no card and rolled no die (the undo rule's cheap answer, kamon.core.undo)."""
    return (tuple(state.steward_deck), tuple(state.diplomat_deck), tuple(state.solo_deck),
            state.rng.state)


def chance_piles(state: WhiteCastleState) -> tuple[PileSpec, ...]:
    """The hidden piles for explicit chance (kamon.core.chance): the castle decks, drawn
    from their end (`pop()`), and in the solo game the Solitaire deck, turned from its
    front with its top card face up (its Bridge side; solo.py)."""
    data = state.data
    piles = (PileSpec("steward_deck", "steward_deck", cards=tuple(sorted(data.stewards))),
             PileSpec("diplomat_deck", "diplomat_deck", cards=tuple(sorted(data.diplomats))))
    if state.rival is None:
        return piles
    return (*piles, PileSpec("solo_deck", "solo_deck", draw="front", face_up_top=True,
                             cards=tuple(sorted(data.solo_deck))))
