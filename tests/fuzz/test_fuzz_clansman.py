"""Hypothesis fuzzing of the I, Clansman engine: Beginner, Expert side A and B (and the
unofficial Emperor faces), the unofficial small-table variant at 2 and 3 players.

- Random legal play (several choice policies) with every invariant of
  tests/clansman/invariants.py checked after each decision (the state's invariants and
  what the action changed), bad actions and bad notation interleaved (each refused, the
  state byte-identical), JSON round trips.
- A random mid-game state's JSON corrupted (values, keys, types, swapped cards, lists...):
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
from kamon.games.clansman import GAME, ClansmanState
from tests.clansman.invariants import Before, check_invariants, check_transition, first_start_of
from tests.fuzz.corrupt import apply_mutation, load_or_refuse, mutations
from tests.fuzz.driver import POLICIES, Checker, Rates, Spec, play
from tests.fuzz.profiles import fuzz_settings


def checker_from(first_start: int) -> Checker:
    """The invariants after every decision, and what each action changed."""
    def check(s: State, where: str) -> None:
        """check_invariants of tests/clansman/invariants.py."""
        assert isinstance(s, ClansmanState)
        check_invariants(s, where, first_start)

    def before(s: State) -> Before:
        """What check_transition needs from the state before an action."""
        assert isinstance(s, ClansmanState)
        return Before.of(s)

    def transition(snap: Before, aid: int, s: State, where: str) -> None:
        """check_transition of tests/clansman/invariants.py."""
        assert isinstance(s, ClansmanState)
        check_transition(snap, aid, s, where)

    return Checker(check, before, transition)


def new_checker(state: State) -> Checker:
    """For a new game: its start seat is the first round's."""
    assert isinstance(state, ClansmanState)
    return checker_from(state.start)


def loaded_checker(state: State) -> Checker:
    """For a loaded state: the first start seat its round and start seat imply."""
    assert isinstance(state, ClansmanState)
    return checker_from(first_start_of(state))


def spec(label: str, players: int, **options: Any) -> Spec:
    """An I, Clansman mode."""
    return Spec(label, GAME, players, options, new_checker, loaded_checker)


SMALL = "small-table"
MODES = {s.label: s for s in (
    spec("beginner", 4),
    spec("expert-A", 4, expert=True),
    spec("expert-B", 4, expert=True, emperor_side="B"),
    spec("expert-A-008-009", 4, expert=True, emperor_variant="008,009"),
    spec("small-table-2", 2, variant=SMALL),
    spec("small-table-3", 3, variant=SMALL),
    spec("small-table-2-expert-B", 2, variant=SMALL, expert=True, emperor_side="B"),
    spec("small-table-3-expert-A", 3, variant=SMALL, expert=True),
)}
SEEDS = st.integers(0, 2 ** 32 - 1)
RATES = st.sampled_from([Rates(0.0, 0.0), Rates(0.05, 0.02), Rates(0.3, 0.1)])


@pytest.mark.parametrize("mode", sorted(MODES))
@fuzz_settings(20)
@given(seed=SEEDS, policy=st.sampled_from(POLICIES), rates=RATES)
def test_random_play_keeps_every_invariant_and_refuses_bad_input(
        mode: str, seed: int, policy: str, rates: Rates) -> None:
    """A whole game by the policy: invariants after every decision, bad input refused."""
    s = MODES[mode]
    state = s.new(seed)
    checker = s.checker(state)
    checker.check(state, f"{mode} seed {seed} at setup")
    play(s, state, checker, policy, random.Random(seed), rates, f"{mode} seed {seed} {policy}")


@pytest.mark.parametrize("mode", ["beginner", "expert-B", "small-table-3-expert-A"])
@fuzz_settings(100)
@given(data=st.data(), seed=SEEDS, upto=st.integers(0, 240))
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
