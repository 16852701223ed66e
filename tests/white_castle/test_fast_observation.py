"""The fast observation `encode_state(state, seat)` is bit for bit `encode(state.view(seat))`:
in every setup, for every seat and a spectator, at every kind of position (pending
choices, the solo rival's decisions, the end), whatever order positions come in, after
fields are edited in place, and outside its tables (where it falls back to the view)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kamon.games.white_castle import GAME, observation_state
from kamon.games.white_castle.observation import SIZE, _cap, encode
from kamon.games.white_castle.observation_state import encode_state
from kamon.games.white_castle.state import WhiteCastleState
from kamon.rl.encoding import Encoding, encoding

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (1, {"difficulty": "easy"}),
    (1, {"difficulty": "medium"}),
    (1, {"difficulty": "hard"}),
    (1, {"difficulty": "hard", "first_game": True}),
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"first_game": True}),
    (4, {"first_game": True}),
]
IDS = [f"{n}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o in SETUPS]


def play(players: int, options: dict[str, Any], seed: int) -> list[WhiteCastleState]:
    """Copies of every position of one random game, its end included."""
    state = GAME.new_game(players, seed, **options)
    rng = random.Random(seed)
    out = []
    while not state.is_over():
        out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    out.append(state.clone())
    return out


def seats(state: WhiteCastleState) -> list[int | None]:
    """Every seat of the game and the spectator."""
    return [*range(state.num_players), None]


def assert_same(state: WhiteCastleState, seat: int | None) -> None:
    """The fast path (without its fallback) and encode_state equal the view's encoding,
    byte for byte, as float32 of shape (SIZE,)."""
    want = encode(state.view(seat))
    for got in (observation_state._encode_fast(state, seat), encode_state(state, seat)):
        assert got.dtype == np.float32 and got.shape == (SIZE,) == want.shape
        if got.tobytes() != want.tobytes():
            diff = np.flatnonzero(got != want)[:8]
            raise AssertionError(f"seat {seat}, decision {state.stack[-1:]}: positions "
                                 f"{diff.tolist()} fast {got[diff]} view {want[diff]}")


@pytest.mark.parametrize(("players", "options"), SETUPS, ids=IDS)
def test_every_position_of_random_games_matches_the_view(
        players: int, options: dict[str, Any]) -> None:
    """Every decision of four random games per setup, every seat and the spectator."""
    for seed in range(4):
        for state in play(players, options, seed):
            for seat in seats(state):
                assert_same(state, seat)


def test_every_kind_of_decision_and_pending_stack_matches() -> None:
    """Random games until every kind of decision a player meets (checkpoints, Daimyo
    slots, garden rounds, the rival's rooms and gardens) and deep stacks were encoded."""
    kinds: Counter[str] = Counter()
    pending: Counter[str] = Counter()
    ends = 0
    for players, options in SETUPS:
        for seed in range(40):
            state = GAME.new_game(players, seed, **options)
            rng = random.Random(1000 + seed)
            while not state.is_over():
                top = state.stack[-1].kind
                if top not in ("take", "place", "blocks") or len(state.stack) > 1:
                    kinds[top] += 1
                    pending.update(f.kind for f in state.stack[:-1])
                    for seat in seats(state):
                        assert_same(state, seat)
                state.apply(rng.choice(state.legal_actions()))
            for seat in seats(state):
                assert_same(state, seat)
            ends += 1
    assert {"draft", "effects", "choice", "checkpoint", "outside", "warrior", "gardener",
            "courtier", "daimyo", "row", "pay", "garden_round", "rival_room",
            "rival_garden"} <= set(kinds)
    assert {"effects", "blocks", "courtier", "rival_actions"} <= set(pending)
    assert ends == 40 * len(SETUPS)


def test_positions_in_any_order_match() -> None:
    """Positions of several games of every size shuffled together (what is remembered
    per game and per clan never leaks into another position)."""
    states = [s for n, o in SETUPS[2:] for seed in (7, 8) for s in play(n, o, seed)[::3]]
    order = random.Random(5).sample(range(len(states)), len(states))
    for i in order:
        state = states[i]
        seat = random.Random(i).choice(seats(state))
        assert_same(state, seat)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31 - 1),
       every=st.integers(1, 7))
def test_random_seeds_match(setup: tuple[int, dict[str, Any]], seed: int, every: int) -> None:
    """Any seed of any setup: every few decisions, every seat and the spectator."""
    players, options = setup
    states = play(players, options, seed)
    for state in [*states[::every], states[-1]]:
        for seat in seats(state):
            assert_same(state, seat)


def test_fields_edited_in_place_are_seen() -> None:
    """Setup fields changed in place after an encoding (as tests do) are encoded anew."""
    state = play(4, {}, 3)[40]
    assert_same(state, 1)
    state.garden_cards[0], state.garden_cards[2] = state.garden_cards[2], state.garden_cards[0]
    assert_same(state, 1)
    state.room_tiles[0] = tuple(2 - col for col in state.room_tiles[0])
    assert_same(state, 1)
    state.options["first_game"] = True
    assert_same(state, 1)
    state.yard_effects[0] = state.yard_effects[1]
    assert_same(state, 1)
    state.clans[2].lantern.append(state.clans[2].lantern[0])
    state.garden_workers[5].append(3)
    assert_same(state, 1)
    assert_same(state, None)


def test_values_outside_the_tables_fall_back_to_the_view() -> None:
    """Counts past a byte, negative counts and a card id the data does not know: the
    same vector as the view's encoding, or the same error."""
    base = play(3, {}, 2)[60]
    for edit in ({"coins": 600, "cp": 400}, {"coins": 10_000}, {"coins": -3},
                 {"seals": -1}, {"seq": 300}):
        state = base.clone()
        for name, value in edit.items():
            setattr(state.clans[1], name, value)
        if "seq" in edit:
            state.seq_counter = 300
        for seat in seats(state):
            assert encode_state(state, seat).tobytes() == encode(state.view(seat)).tobytes()
    state = base.clone()
    state.room_cards[0] = "steward_999"
    with pytest.raises(ValueError, match="does not know the steward 'steward_999'"):
        encode(state.view(0))
    with pytest.raises(ValueError, match="does not know the steward 'steward_999'"):
        encode_state(state, 0)


def test_float32_division_equals_the_rounded_float64_cap() -> None:
    """min(r, c) / c in float32 is float32(_cap(r, c)) for every cap and count under 256
    (the arithmetic the fast path relies on)."""
    for c in range(1, 256):
        r = np.arange(0, 256, dtype=np.float32)
        fast = np.minimum(r, np.float32(c)) / np.float32(c)
        want = np.array([_cap(x, c) for x in range(256)], dtype=np.float32)
        assert fast.dtype == np.float32 and fast.tobytes() == want.tobytes(), c


def test_the_rl_encoding_observes_through_the_fast_path() -> None:
    """Encoding.observe calls encode_state and equals observe_view (the definition)."""
    shipped = encoding("white-castle")
    calls = []
    real = observation_state.encode_state
    assert shipped.spec.encode_state is real  # the game's observation slot has the fast path

    def spy(state: Any, seat: int | None) -> np.ndarray:
        calls.append(seat)
        return real(state, seat)

    enc = Encoding(shipped.game_name, shipped.game,
                   dataclasses.replace(shipped.spec, encode_state=spy))
    for state in play(2, {}, 11)[::10]:
        for seat in seats(state):
            assert enc.observe(state, seat).tobytes() == enc.observe_view(state, seat).tobytes()
    assert calls and len(calls) == 3 * len(play(2, {}, 11)[::10])
