"""The fast I, Clansman observation: `encode_state(state, seat)` is `encode(state.view(seat))`
bit for bit (same dtype, shape and bytes) for every seat and the spectator, in every setup
(Beginner, Expert side A and B, the Emperor variant, the small table at 2 and 3 players), at
every kind of position (marriages, production, the hand step, a pending payment, the game
over), and with what random play rarely reaches (temples, Kofun, Emperor cards won, game-end
Emperor VPs, counts past their caps or below zero, an overlay's card data); the research
interfaces take that fast path.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamon.games.clansman import GAME
from kamon.games.clansman.data import GOODS, VP_COLOURS, load_data
from kamon.games.clansman.observation import SIZE, encode
from kamon.games.clansman.observation_state import _encode_state, encode_state
from kamon.games.clansman.state import ClansmanState
from kamon.rl.encoding import encoding
from tests.clansman.conftest import put, refresh

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (4, {}),
    (4, {"expert": True, "emperor_side": "A"}),
    (4, {"expert": True, "emperor_side": "B"}),
    (4, {"expert": True, "emperor_side": "A", "emperor_variant": "008,009"}),
    (4, {"expert": True, "emperor_side": "B", "emperor_variant": "009"}),
    (2, {"variant": "small-table"}),
    (3, {"variant": "small-table"}),
    (3, {"variant": "small-table", "expert": True, "emperor_side": "B", "emperor_variant": "008"}),
]
# Two Missions of each VP colour: the first of each for seat 0, the second for seat 1.
MISSION_PAIRS = tuple(
    tuple(sorted(c.id for c in load_data().cards.values()
                 if c.type == "mission" and c.vp_colour == colour)[:2]) for colour in VP_COLOURS)
GOVERNMENT_MISSION = MISSION_PAIRS[VP_COLOURS.index("government")][1]
IDS = ["beginner", "expert-A", "expert-B", "emperor-variant-A", "emperor-variant-B", "small-2",
       "small-3", "small-3-expert"]


def assert_same(state: ClansmanState, where: str = "") -> None:
    """The fast path itself (no fallback) equals the view's encoding for every seat and None."""
    for seat in [*range(state.num_players), None]:
        fast = _encode_state(state, seat)
        slow = encode(state.view(seat))
        assert fast.dtype == slow.dtype == np.float32, where
        assert fast.shape == slow.shape == (SIZE,), where
        if fast.tobytes() != slow.tobytes():
            diff = [(int(i), float(fast[i]), float(slow[i])) for i in np.flatnonzero(fast != slow)]
            raise AssertionError(f"{where} seat {seat}: (index, fast, view) {diff[:10]}")


def positions(players: int, seed: int, options: dict[str, Any], every: int = 1
              ) -> Iterator[ClansmanState]:
    """Every `every`-th position of a seeded random game (the same object, moving on), and
    its end."""
    state = GAME.new_game(players, seed, **options)
    rng = random.Random(seed)
    k = 0
    while not state.is_over():
        if k % every == 0:
            yield state
        state.apply(rng.choice(state.legal_ids()))
        k += 1
    yield state


def payment_position(seed: int = 0, **options: Any) -> ClansmanState:
    """A pending payment: random play until 611 or 702 (two printed costs) lies in the
    Supply at a Production decision, a Monk and a Bureaucrat put in the pool, the card
    obtained."""
    for s in range(seed, seed + 300):
        for state in positions(4, s, options):
            if state.step == "produce" and {"611", "702"} & set(state.supply):
                cid = next(c for c in ("611", "702") if c in state.supply)
                state.pool[GOODS.index("monk")] += 1
                state.pool[GOODS.index("bureaucrat")] += 1
                refresh(state)
                state.apply(GAME.parse_action(state, f"obtain {cid}"))
                assert state.step == "payment" and state.pending == cid
                return state
    raise AssertionError("no Supply with 611 or 702 at a Production decision")


@pytest.mark.parametrize(("players", "options"), SETUPS, ids=IDS)
def test_every_position_of_random_games_encodes_the_same(players: int,
                                                         options: dict[str, Any]) -> None:
    """Every decision of five random games per setup, and their ends: fast == view."""
    steps: Counter[str] = Counter()
    for seed in range(1, 6):
        for state in positions(players, seed, options):
            steps[state.step or state.phase] += 1
            assert_same(state, f"seed {seed} round {state.round} {state.phase} {state.step}")
    assert steps["marry"] and steps["produce"] and steps["over"] == 5


def test_the_rarer_decisions_encode_the_same() -> None:
    """The hand step, a pending payment (its card one-hot) and married daughters: fast == view."""
    hand = next(s for seed in range(20) for s in positions(4, seed, {}) if s.step == "hand")
    assert_same(hand, "hand")
    for options in ({}, {"expert": True, "emperor_side": "B"}):
        state = payment_position(**options)
        assert_same(state, "payment")
        assert state.pending is not None
        state.apply(state.legal_ids()[-1])
        assert_same(state, "after the payment")
    prince = next(s for s in positions(4, 5, {})
                  if any(d is not None and d[0] < 0 for d in s.daughters))
    assert_same(prince, "a daughter married to a Royal Prince")
    other = next(s for s in positions(4, 6, {})
                 if any(d is not None and d[0] not in (-1, q) for q, d in enumerate(s.daughters)))
    assert_same(other, "a daughter married into another seat's clan")


def edit_every_scoring_source(state: ClansmanState) -> None:
    """Temples with Statues, a Mission of every colour, a Kofun with Mirrors, Emperor cards
    won (as VPs and as a clan), a face set aside, counts past their caps, a Bank below 0."""
    p0, p1, p2, p3 = state.players
    put(state, "601", p1.clans)
    put(state, "602", p2.clans)
    p1.statue, p2.statue, p3.statue = 4, 25, 3
    for first, second in MISSION_PAIRS:
        put(state, first, p0.missions)
        put(state, second, p1.missions)
    p0.tadokoro, p0.iron, p0.mirror = 27, 11, 14
    p3.emperors = ["001", "003", "008"]  # (a Beginner's count for nothing, as in the view)
    if state.expert:
        if "201" in state.kofun:
            state.kofun.remove("201")
        p2.kofun, p2.kofun_mirrors = "201", 12
        p3.clans.append("004")
        state.emperor_centre = state.emperor_centre[2:]
        state.set_aside = state.emperors[:1]
    state.bank_tadokoro, state.miyake, state.miyake_row = -3, 9, 5
    state.lock = 3
    state.pool[:] = [12, 3, 0, 1, 0, 0, 7, 0, 0, 30]
    refresh(state)


@pytest.mark.parametrize("options", [{"expert": True, "emperor_side": "B", "emperor_variant": "009"},
                                     {"expert": True, "emperor_side": "A"}, {}],
                         ids=["expert-B-009", "expert-A", "beginner"])
def test_every_scoring_source_encodes_the_same(options: dict[str, Any]) -> None:
    """Every VP source (the game-end faces 007 and 009 included), clipped counts and a Bank
    below zero, edited into a mid-game position and into a finished game: fast == view."""
    for at in (60, None):
        state = GAME.new_game(4, 7, **options)
        for i, s in enumerate(positions(4, 7, options)):
            state = s
            if i == at:
                break
        edit_every_scoring_source(state)
        assert_same(state, f"edited at {at or 'the end'}")
        scores = state.scores()
        assert scores[1]["religion_statues"] > 0 and scores[2]["religion_statues"] > 0
        if "emperor_variant" in options:
            assert scores[1]["government_jito"] > 0 and scores[2]["religion_shotoku"] > 0


def test_an_overlays_card_data_is_what_the_vps_read() -> None:
    """With a Mission's VPs, the Beginner Mirror VP and the Statue VP changed by an overlay,
    Emperor 009 made to need a temple and 007 worth 2 VPs a Mission, fast == view (the VP
    tables follow each game's data), and the scores did change."""
    overlay = {"cards": [{"id": "405", "function": {"vp": {"colour": "military", "amount": 7}}},
                         {"id": "009", "function": {"effect": {"requires_temple": True}}},
                         {"id": "007", "function": {"effect": {"vp": {"amount": 2}}}}],
               "rulings": [{"id": "R22", "default": {"beginner_vp_per_mirror": 3}},
                           {"id": "R21", "default": {"vp_per_statue": 2}}]}
    expert = {"expert": True, "emperor_side": "B", "emperor_variant": "009"}
    for options in ({}, expert):
        plain = GAME.new_game(4, 8, **options)
        state = GAME.new_game(4, 8, data_overlay=overlay, **options)
        for s in (plain, state):
            put(s, "405", s.players[0].missions)
            put(s, "601", s.players[0].clans)
            s.players[0].mirror, s.players[0].statue, s.players[1].statue = 2, 3, 4
            put(s, GOVERNMENT_MISSION, s.players[1].missions)
            assert_same(s, f"{'overlay' if s is state else 'plain'} {options}")
        assert not np.array_equal(encode_state(state, 0), encode_state(plain, 0))
        scores = state.scores()
        if options:
            assert scores[0]["religion_shotoku"] == 3 and scores[1]["religion_shotoku"] == 0
            assert plain.scores()[1]["religion_shotoku"] == 4
            assert scores[1]["government_jito"] == 2 and plain.scores()[1]["government_jito"] == 1
        else:
            assert scores[0]["total"] == 7 + 3 * 2 + 2 * 3
            assert scores[1]["government_missions"] > 0


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31 - 1),
       moves=st.integers(0, 400),
       counts=st.lists(st.integers(-5, 70), min_size=12, max_size=12),
       seat_edits=st.integers(0, 3))
def test_hypothesis_random_positions_and_counts(setup: tuple[int, dict[str, Any]], seed: int,
                                                moves: int, counts: list[int],
                                                seat_edits: int) -> None:
    """Any seed, any number of random moves, any counters (below 0, past every cap) on one
    seat and the table: fast == view."""
    players, options = setup
    state = GAME.new_game(players, seed, **options)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_ids()))
    assert_same(state, "played")
    g = state.players[seat_edits % players]
    (g.tadokoro, g.iron, g.statue, g.mirror, g.kofun_mirrors, state.miyake, state.miyake_row,
     state.bank_tadokoro, state.lock, state.turn, state.pool[0], state.pool[9]) = counts
    refresh(state)
    assert_same(state, f"counts {counts}")


def test_the_interfaces_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Encoding.observe equals observe_view for every seat and None, and builds no view."""
    enc = encoding("clansman")
    states = [s.clone() for s in positions(4, 9, {"expert": True}, every=25)]
    expected = [[enc.observe_view(s, seat) for seat in (0, 1, 2, 3, None)] for s in states]

    def no_view(self: ClansmanState, seat: int | None) -> dict[str, Any]:
        """The slow path, forbidden here."""
        raise AssertionError("observe built the view")

    monkeypatch.setattr(ClansmanState, "view", no_view)
    for s, want in zip(states, expected, strict=True):
        for seat, vec in zip((0, 1, 2, 3, None), want, strict=True):
            got = enc.observe(s, seat)
            assert got.dtype == vec.dtype and got.tobytes() == vec.tobytes()


def test_what_the_tables_do_not_cover_fails_or_encodes_as_the_view() -> None:
    """An unknown card id raises encode's ValueError; a seat off the table (which encode
    accepts) encodes as the view does."""
    state = GAME.new_game(3, 1, variant="small-table")
    assert np.array_equal(encode_state(state, 3), encode(state.view(3)))
    state.supply.append("999")
    with pytest.raises(ValueError, match="century card '999'"):
        encode(state.view(0))
    with pytest.raises(ValueError, match="century card '999'"):
        encode_state(state, 0)
