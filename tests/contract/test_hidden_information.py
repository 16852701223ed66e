"""Hidden information, for every registered game and set-up: a view is JSON without the
seed or the random generator, and a determinized state keeps every seat's view and the
choices while the original stays as it was.
"""

from __future__ import annotations

import json
import random

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


def test_determinize_keeps_every_view_and_the_choices(game: GameSetup) -> None:
    """At every 25th decision of six games (and at the end), a state determinized for the
    seat to move (with an Rng or a random.Random) shows every seat and a spectator the
    same view and offers the same choices; the original is unchanged, also by playing the
    sample to its end, which keeps every invariant after each move."""
    rng = Rng(len(game.id))
    for k, (state, seed, where) in enumerate(game.positions(range(6), every=25)):
        check = game.checker(game.new(seed))
        before = canonical(state)
        seat = state.to_move
        sample = state.determinize(seat, rng.spawn() if k % 2 else random.Random(k))
        assert canonical(state) == before, f"{where}: determinize changed the original"
        assert sample.is_over() == state.is_over() and sample.to_move == seat, where
        for viewer in [None, *range(state.num_players)]:
            assert sample.view(viewer) == state.view(viewer), f"{where}: view of {viewer}"
        assert ids_of(sample) == ids_of(state), where
        play_on(sample, rng, check, f"{where} determinized")
        assert canonical(state) == before, f"{where}: playing the sample changed the original"
