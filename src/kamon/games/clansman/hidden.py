"""What an I, Clansman position hides, as one comparable key: the order of the century
piles and the random generator's state (view() withholds exactly these):
the game's `hidden_key` slot, one part per hidden item."""

from __future__ import annotations

from collections.abc import Hashable

from kamon.core.chance import PileSpec
from kamon.games.clansman.setup import CENTURIES
from kamon.games.clansman.state import ClansmanState


def hidden_key(state: ClansmanState) -> tuple[Hashable, ...]:
    """The hidden parts of `state`: equal keys before and after a move mean the move drew
    nothing from a pile and used no randomness (the undo rule's cheap answer,
    kamon.core.undo)."""
    piles = state.piles
    return (tuple(piles[0]), tuple(piles[1]), tuple(piles[2]), tuple(piles[3]),
            state.rng.state)


def chance_piles(state: ClansmanState) -> tuple[PileSpec, ...]:
    """The hidden piles for explicit chance (kamon.core.chance): the four century piles
    (4th to 7th), each drawn from its end (`pop()`: the top card is the last element)."""
    decks = state.data.decks
    return tuple(PileSpec(f"century {century} pile", "piles", index=c,
                          cards=tuple(sorted(decks[century])))
                 for c, century in enumerate(CENTURIES))
