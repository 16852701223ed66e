"""The observation encodings: fixed size, in [0, 1], from the view only, blind to hidden
information, seen from the observer, documented field by field (and the doc is current)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kamon.core.protocol import State
from kamon.core.rng import Rng
from kamon.games import get_game
from kamon.rl.docs import markdown
from kamon.rl.encoding import encoding
from tests.rl.registry import DEFAULTS, GAMES, setup_id
from tests.rl.registry import SETUPS as REGISTRY_SETUPS

ROOT = Path(__file__).resolve().parents[2]

# (game, players, options): every mode the interfaces offer, of every registered game.
SETUPS = REGISTRY_SETUPS


def positions(game: str, players: int, options: dict[str, Any], seed: int,
              every: int = 1) -> list[State]:
    """Copies of the positions of one random game (every `every`-th decision, and the end)."""
    state = get_game(game).new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    out = []
    k = 0
    while not state.is_over():
        if k % every == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
        k += 1
    out.append(state.clone())
    return out


@pytest.mark.parametrize(("game", "players", "options"), SETUPS, ids=map(setup_id, SETUPS))
def test_every_position_encodes_to_the_fixed_size_in_unit_range(
        game: str, players: int, options: dict[str, Any]) -> None:
    """Every seat's observation at every decision of a random game: SIZE float32 values in
    [0, 1], the same length for every mode of the game."""
    enc = encoding(game)
    distinct = set()
    states = positions(game, players, options, seed=3)
    for state in states:
        for seat in [*range(state.num_players), None]:
            vec = enc.observe(state, seat)
            assert vec.shape == (enc.size,)
            assert vec.dtype == np.float32
            assert float(vec.min()) >= 0.0 and float(vec.max()) <= 1.0
            assert np.count_nonzero(vec) > min(10, enc.size // 8)  # a board, not blank
        distinct.add(enc.observe(state, 0).tobytes())
    assert len(distinct) > len(states) // 2  # the vector follows the game


def test_fields_tile_the_vector_exactly() -> None:
    """The field tables cover every value once: no gap, no overlap, repeated blocks included."""
    for game in GAMES:
        enc = encoding(game)
        owner = [0] * enc.size
        for f in enc.fields:
            for k in range(f.repeat):
                for i in range(f.start + k * f.stride, f.start + k * f.stride + f.size):
                    owner[i] += 1
            assert f.meaning.strip(), f"{game}: field {f.name} has no meaning"
        assert owner == [1] * enc.size, game


def test_observations_md_matches_the_field_tables() -> None:
    """docs/OBSERVATIONS.md is what `python -m kamon.rl.docs` generates now."""
    doc = (ROOT / "docs" / "OBSERVATIONS.md").read_text(encoding="utf-8")
    assert doc == markdown() + "\n", ("docs/OBSERVATIONS.md is stale: run "
                                      "`.venv/bin/python -m kamon.rl.docs docs/OBSERVATIONS.md`")


@pytest.mark.parametrize(("game", "players", "options"), DEFAULTS, ids=map(setup_id, DEFAULTS))
def test_hidden_deck_order_does_not_change_the_observation(
        game: str, players: int, options: dict[str, Any]) -> None:
    """Re-sampling the hidden parts (deck orders, future rolls) changes the full state but
    not one value of any seat's observation; the decks really were reordered."""
    enc = encoding(game)
    reordered = 0
    for state in positions(game, players, options, seed=11, every=7):
        for k in range(3):
            other = state.determinize(0, Rng(100 + k))
            if other.to_json() != state.to_json():
                reordered += 1
            for seat in range(state.num_players):
                assert np.array_equal(enc.observe(state, seat), enc.observe(other, seat))
    assert reordered > 3  # the hidden part was different, so the test had teeth


def test_public_information_does_change_the_observation() -> None:
    """The converse: a public difference (a different decision taken) shows in the vector."""
    for game, players, options in DEFAULTS:
        enc = encoding(game)
        state = get_game(game).new_game(players, seed=5, **options)
        rng = random.Random(5)
        while len(state.legal_actions()) < 2:  # a decision with a choice (Pig: roll first)
            state.apply(rng.choice(state.legal_actions()))
        legal = state.legal_actions()
        a, b = state.clone(), state.clone()
        a.apply(legal[0])
        b.apply(legal[-1])
        assert not np.array_equal(enc.observe(a, 0), enc.observe(b, 0)), game


def test_encoding_needs_nothing_but_the_views_plain_data() -> None:
    """A view sent through JSON (plain data only) encodes to the same vector."""
    for game, players, options in SETUPS:
        enc = encoding(game)
        for state in positions(game, players, options, seed=2, every=40):
            view = state.view(0)
            assert np.array_equal(enc.encode_view(json.loads(json.dumps(view))),
                                  enc.observe(state, 0))


def test_white_castle_clans_are_seen_from_the_observer() -> None:
    """Clan slot 0 is the observing seat: its coins field holds that seat's coins, and the
    seat one-hot names it."""
    from kamon.games.white_castle import observation as wo

    state = get_game("white-castle").new_game(3, seed=8)
    rng = random.Random(1)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(None)
    coin_at = next(f for f in wo.FIELDS if f.name == "clan[k].coins")
    for seat in range(3):
        vec = encoding("white-castle").observe(state, seat)
        for k in range(3):
            clan = view["clans"][(seat + k) % 3]
            assert vec[coin_at.start + k * coin_at.stride] == pytest.approx(
                min(clan["coins"], 20) / 20)
        assert vec[wo.SEAT + seat] == 1.0 and vec[wo.SEAT:wo.SEAT + 4].sum() == 1.0


def test_solo_rival_is_clan_slot_one() -> None:
    """In the solo game the Tokugawa rival is clan slot 1, flagged as the rival."""
    from kamon.games.white_castle import observation as wo

    state = get_game("white-castle").new_game(1, seed=4, difficulty="easy")
    vec = encoding("white-castle").observe(state, 0)
    rival_at = next(f for f in wo.FIELDS if f.name == "clan[k].rival")
    assert [vec[rival_at.start + k * rival_at.stride] for k in range(4)] == [0, 1, 0, 0]
    assert vec[wo.PLAYERS] == 1.0 and vec[wo.DIFFICULTY] == 1.0


def test_an_unknown_card_is_refused_with_its_name() -> None:
    """A card the bundled data does not know is an error naming it, not a silent zero."""
    state = get_game("clansman").new_game(4, seed=1)
    view = state.view(0)
    view["supply"] = [*view["supply"], "999"]
    with pytest.raises(ValueError, match="'999'"):
        encoding("clansman").encode_view(view)
    wc = get_game("white-castle").new_game(2, seed=1).view(0)
    wc["room_cards"] = ["steward_99", *wc["room_cards"][1:]]
    with pytest.raises(ValueError, match="steward_99"):
        encoding("white-castle").encode_view(wc)


def test_describe_names_the_fields_that_are_set() -> None:
    """The text form (OpenSpiel's observation string) lists the non-zero fields by name."""
    state = get_game("white-castle").new_game(2, seed=1)
    enc = encoding("white-castle")
    text = enc.describe(enc.observe(state, 1))
    assert "seat: 1=1" in text and "clan[0].present: 1" in text and "phase: 0=1" in text
