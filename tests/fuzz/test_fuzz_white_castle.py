"""Hypothesis fuzzing of The White Castle engine: 1-4 players, solo at every difficulty,
the first-game setup.

- Random legal play (several choice policies) with every invariant of
  tests/white_castle/invariants.py checked after each decision, bad actions and bad
  notation interleaved (each refused, the state byte-identical), JSON round trips.
- A random mid-game state's JSON corrupted (values, keys, types, swapped ids, lists...):
  refused with a kamon error, or loaded exactly as written and played on legally.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kamon.core.protocol import State
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME, WhiteCastleState
from tests.fuzz.corrupt import apply_mutation, load_or_refuse, mutations
from tests.fuzz.driver import POLICIES, Checker, Rates, Spec, play
from tests.fuzz.profiles import fuzz_settings
from tests.white_castle.invariants import check_invariants


def checker(state: State) -> Checker:
    """Every invariant after every decision."""
    def check(s: State, where: str) -> None:
        """The invariants of tests/white_castle/invariants.py."""
        assert isinstance(s, WhiteCastleState)
        check_invariants(s, where)
    return Checker(check)


def spec(label: str, players: int, **options: Any) -> Spec:
    """A White Castle mode."""
    return Spec(label, GAME, players, options, checker)


MODES = {s.label: s for s in (
    spec("solo-easy", 1, difficulty="easy"),
    spec("solo-medium", 1, difficulty="medium"),
    spec("solo-hard", 1, difficulty="hard"),
    spec("solo-first-game", 1, difficulty="medium", first_game=True),
    spec("2p", 2), spec("3p", 3), spec("4p", 4),
    spec("2p-first-game", 2, first_game=True),
    spec("3p-first-game", 3, first_game=True),
    spec("4p-first-game", 4, first_game=True),
)}
SEEDS = st.integers(0, 2 ** 32 - 1)
RATES = st.sampled_from([Rates(0.0, 0.0), Rates(0.05, 0.02), Rates(0.3, 0.1)])


@pytest.mark.parametrize("mode", sorted(MODES))
@fuzz_settings(50)
@given(seed=SEEDS, policy=st.sampled_from(POLICIES), rates=RATES)
def test_random_play_keeps_every_invariant_and_refuses_bad_input(
        mode: str, seed: int, policy: str, rates: Rates) -> None:
    """A whole game by the policy: invariants after every decision, bad input refused."""
    s = MODES[mode]
    state = s.new(seed)
    check_invariants(state, f"{mode} seed {seed} at setup")
    play(s, state, s.checker(state), policy, random.Random(seed), rates,
         f"{mode} seed {seed} {policy}")


@pytest.mark.parametrize("mode", ["solo-medium", "2p", "3p", "4p-first-game"])
@fuzz_settings(120)
@given(data=st.data(), seed=SEEDS, upto=st.integers(0, 160))
def test_a_corrupted_state_is_refused_or_loads_exactly_and_plays_on(
        mode: str, data: st.DataObject, seed: int, upto: int) -> None:
    """Corrupt the JSON of a random position: a clean refusal, or an exact, valid load."""
    s = MODES[mode]
    state = s.new(seed)
    rng = Rng(seed)
    while not state.is_over() and len(state.history) < upto:
        ids = state.legal_ids()
        state.apply(ids[rng.below(len(ids))])
    doc = json.loads(json.dumps(state.to_json()))
    for m in data.draw(mutations(doc), label="mutations"):
        apply_mutation(doc, m)
    load_or_refuse(s, doc, random.Random(seed), f"{mode} seed {seed} after {upto}")
