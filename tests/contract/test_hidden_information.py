"""Hidden information, for every registered game and set-up, held to the game's slots: a
view is JSON without the seed or the random generator; `determinize` re-samples every part
of what the game's `hidden_key` says is hidden (each part changes at some position) and
never what a viewer sees: the seat it samples for keeps its view, a spectator keeps
theirs, and so does every seat where the game says no seat sees more than a spectator
(`same_view_for_every_seat`). A view that showed a hidden part would change under the
sample; a sample that kept a hidden part would be caught by its key.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Sequence
from typing import Any

from kamon.core.rng import Rng
from tests.contract.conftest import GameSetup, canonical, ids_of, play_on


def test_a_view_is_json_without_the_seed_or_the_generator(game: GameSetup) -> None:
    """At every 10th decision of two games, each seat's and a spectator's view is a JSON
    object with neither the seed nor the RNG (either would let a viewer recompute every
    hidden shuffle), and looking changes nothing. (Tuples may stand for JSON arrays.)"""
    for state, _, where in game.positions(range(2), every=10):
        before = canonical(state)
        for seat in [None, *range(state.num_players)]:
            view = state.view(seat)
            assert isinstance(view, dict) and json.dumps(view), where  # TypeError if not JSON
            assert "seed" not in view and "rng" not in view, where
        assert canonical(state) == before, where


def kept_viewers(game: GameSetup, seat: int | None, players: int) -> list[int | None]:
    """Whose views a sample for `seat` must keep: the seat's, a spectator's, and every
    seat's when the game says a seat sees what a spectator sees."""
    if game.entry.same_view_for_every_seat:
        return [None, *range(players)]
    return [None] if seat is None else [None, seat]


def test_determinize_keeps_the_views_and_the_choices(game: GameSetup) -> None:
    """At every 25th decision of six games (and at the end), a state determinized for the
    seat to move (with an Rng or a random.Random) shows that seat, a spectator (and every
    seat, where all see alike) the same view and offers the same choices; the original is
    unchanged, also by playing the sample to its end, which keeps every invariant after
    each move."""
    rng = Rng(len(game.id))
    for k, (state, seed, where) in enumerate(game.positions(range(6), every=25)):
        check = game.checker(game.new(seed))
        before = canonical(state)
        seat = state.to_move
        sample = state.determinize(seat, rng.spawn() if k % 2 else random.Random(k))
        assert canonical(state) == before, f"{where}: determinize changed the original"
        assert sample.is_over() == state.is_over() and sample.to_move == seat, where
        for viewer in kept_viewers(game, seat, state.num_players):
            assert sample.view(viewer) == state.view(viewer), f"{where}: view of {viewer}"
        assert ids_of(sample) == ids_of(state), where
        play_on(sample, rng, check, f"{where} determinized")
        assert canonical(state) == before, f"{where}: playing the sample changed the original"


def _can_change(part: Hashable) -> bool:
    """Could a re-sample change this part of a hidden key? A sequence of two or more
    different items can be reordered; a number (a generator's state) can be redrawn."""
    if isinstance(part, tuple | list):
        return len(set(part)) >= 2
    return isinstance(part, int) and not isinstance(part, bool)


def _parts(key: Any, where: str) -> Sequence[Hashable]:
    """A hidden key's parts (a tuple, one part per hidden item)."""
    assert isinstance(key, tuple) and key, f"{where}: hidden_key gave {type(key).__name__}"
    return key


def test_determinize_resamples_every_hidden_part_and_no_view(game: GameSetup) -> None:
    """For every seat and a spectator, at every 7th decision of four games: the sample
    keeps the views it must (its seat's, a spectator's, every seat's where all see alike)
    while its `hidden_key` differs from the original's; and each part of the key that a
    re-sample could change (a deck of two or more cards, a generator) changes at some
    position. A determinize that returned an unshuffled copy, or a view that showed a
    deck's order or another seat's card, fails here."""
    hidden_key = game.entry.hidden_key
    assert hidden_key is not None, f"{game.id}: a game with hidden information has hidden_key"
    rng = Rng(97 + len(game.id))
    changed: dict[int, bool] = {}
    for state, _, where in game.positions(range(4), every=7):
        key = _parts(hidden_key(state), where)
        for seat in [None, *range(state.num_players)]:
            sample = state.determinize(seat, rng.spawn())
            other = _parts(hidden_key(sample), where)
            assert len(other) == len(key), f"{where}: the key's parts changed in number"
            for viewer in kept_viewers(game, seat, state.num_players):
                assert sample.view(viewer) == state.view(viewer), \
                    f"{where}: a sample for {seat} changed the view of {viewer}"
            for i, (mine, theirs) in enumerate(zip(key, other, strict=True)):
                if _can_change(mine):
                    changed[i] = changed.get(i, False) or mine != theirs
    assert changed, f"{game.id}: nothing hidden ever could change"
    unchanged = [i for i, c in changed.items() if not c]
    assert not unchanged, (f"{game.id}: determinize never re-sampled part(s) {unchanged} of "
                           "the hidden key")


def test_the_hidden_key_moves_only_with_what_a_move_reveals(game: GameSetup) -> None:
    """Along two random games, a move that leaves the hidden key unchanged leaves the
    spectator's view of any re-sample equal to the real one's (it revealed nothing: the
    undo rule's and the search's cheap answer relies on it)."""
    hidden_key = game.entry.hidden_key
    assert hidden_key is not None
    rng = Rng(5)
    for seed in range(2):
        state = game.new(seed)
        for i, aid in enumerate(game.random_moves(seed)):
            if i % 3:
                state.apply(aid)
                continue
            before_key = hidden_key(state)
            alt = state.determinize(state.to_move, rng.spawn())
            state.apply(aid)
            if hidden_key(state) == before_key:
                alt.apply(aid)
                assert alt.view(None) == state.view(None), \
                    f"{game.id} seed {seed} move {i}: the key stayed, the public view did not"
