"""The slots a game declares (`kamon.core.game`), checked for every registered game and
set-up: its option schema (new_game keeps to it, refuses what it does not allow, and
every command, the lobby and OpenSpiel read the same declaration), its observation (the
fast encoder and the view's agree bit for bit, every value inside [0, 1], and every
capped value a whole count over the cap the field table declares: a cap written again in
one encoder, or changed in one place, is caught), its result features, and the words and
statistics the front ends read.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from kamon.core.errors import DataError
from kamon.core.options import PLAYER
from kamon.core.rng import Rng
from kamon.games import games
from tests.contract.conftest import GameSetup, play_on

OBSERVED = [name for name, g in games().items() if g.observation is not None]


# --- options ------------------------------------------------------------------------------

def test_a_game_keeps_its_options_as_its_schema_says(game: GameSetup) -> None:
    """new_game's options are the schema's canonical form of those asked (defaults filled
    in where they apply), and checking them again changes nothing."""
    state = game.new(3)
    schema = game.entry.options
    assert dict(state.options) == schema.validate(game.players, game.options)
    assert game.entry.checked(game.players, state.options) == dict(state.options)
    for name in state.options:
        assert name in schema, name


@pytest.mark.parametrize("name", list(games()))
def test_every_option_refuses_a_value_it_does_not_allow(name: str) -> None:
    """For every option of the schema, a value of the wrong kind (or not among its
    choices) is refused with an error that names the option; an unknown option is
    refused by name; a count the game is not for is refused."""
    game = games()[name]
    schema = game.options
    n = game.default_players
    for opt in schema.values():
        bad: Any = {"bool": "yes", "int": "many", "seat": n, "str": 12345,
                    "overlay": ["not", "an", "object"]}[opt.type]
        with pytest.raises((ValueError, DataError), match=opt.name):
            schema.validate(n, {**schema.forced(n), **opt.requires, opt.name: bad})
    with pytest.raises(ValueError, match="unknown option"):
        game.new_game(n, 1, no_such_option=True)
    with pytest.raises(ValueError, match="played by"):
        game.new_game(max(schema.counts()) + 1, 1)


@pytest.mark.parametrize("name", list(games()))
def test_the_generated_forms_of_the_schema_agree(name: str) -> None:
    """The catalogue (the lobby's form) lists what a player may set, as JSON, with each
    choice's words; OpenSpiel's default parameters set a game up with the default
    options; every set-up the contract suite makes is one the game accepts."""
    game = games()[name]
    schema = game.options
    catalog = schema.catalog()
    assert list(catalog) == [o.name for o in schema.settable((PLAYER,))]
    json.dumps(catalog)
    for spec in catalog.values():
        assert spec["label"] and spec["help"]
        assert all(c["label"] for c in spec["choices"])
    params = schema.spiel_params()
    for n in schema.counts():
        opts = schema.from_spiel(n, params)
        assert game.new_game(n, 1, **opts).options == schema.validate(n, schema.forced(n))
    for n, opts in schema.setups():
        game.new_game(n, 1, **opts)


# --- observation --------------------------------------------------------------------------

def _capped(spec: Any) -> list[tuple[str, int, int]]:
    """(field name, position, cap) of every value whose field declares a cap."""
    out = []
    for f in spec.fields:
        caps = f.caps()
        if caps is None:
            continue
        for k in range(f.repeat):
            at = f.start + k * f.stride
            out += [(f.name, at + i, c) for i, c in enumerate(caps)]
    return out


def test_the_observation_encoders_agree_within_the_declared_caps(
        observed_game: GameSetup) -> None:
    """At every 9th decision of two games, for every seat and a spectator: the fast
    encoder's vector is the view encoder's bit for bit, of the declared size, every value
    in [0, 1], and each value of a capped field a whole count over the field table's cap
    (k / cap for a whole k): a cap raised in one encoder, or in one place only, shows."""
    game = observed_game
    spec = game.entry.observation
    capped = _capped(spec)
    for state, _, where in game.positions(range(2), every=9):
        for seat in [None, *range(state.num_players)]:
            slow = spec.encode(state.view(seat))
            assert slow.shape == (spec.size,) and slow.dtype == np.float32, where
            if spec.encode_state is not None:
                fast = spec.encode_state(state, seat)
                assert fast.tobytes() == slow.tobytes(), f"{where} seat {seat}: encoders differ"
            assert float(slow.min()) >= 0.0 and float(slow.max()) <= 1.0, where
            for name, at, cap in capped:
                k = float(slow[at]) * cap
                assert abs(k - round(k)) < 1e-4, \
                    f"{where} seat {seat}: {name} at {at} is {slow[at]}, not a count / {cap}"


def test_the_documented_fields_tile_the_vector() -> None:
    """Every observed game's fields cover the vector once, in order, each cap one per
    value or one for all, and the recall bounds are positive."""
    for name in OBSERVED:
        spec = games()[name].observation
        covered = np.zeros(spec.size, dtype=int)
        for f in spec.fields:
            for k in range(f.repeat):
                covered[f.start + k * f.stride:f.start + k * f.stride + f.size] += 1
            if isinstance(f.cap, tuple):
                assert len(f.cap) == f.size, f.name
        assert (covered == 1).all(), name
        assert min(spec.recall_limits) > 0 and spec.margin_scale > 0


# --- the other slots ----------------------------------------------------------------------

def test_features_give_every_clan_its_declared_columns(game: GameSetup) -> None:
    """The features slot reads one row per clan from a game's start and end, with exactly
    the declared columns, each of its kind."""
    features = game.entry.features
    start = game.new(4)
    end = start.clone()
    play_on(end, Rng(4))
    rows = features.extract(start, end)
    assert len(rows) == len(end.scores())
    kinds = {"str": str, "int": int}
    for row in rows:
        if features.columns:
            assert set(row) == set(features.columns), row
        for col, value in row.items():
            assert isinstance(value, kinds[features.columns[col]]), (col, value)


def test_words_statistics_and_recent_turns_answer_as_declared(game: GameSetup) -> None:
    """A finished game's statistics (where the game has the slot) are JSON; the recent
    turns of parties without a seat are a list; component texts are JSON words; the
    set-up has words; a score category has a label or reads as its name."""
    g = game.entry
    state = game.new(6)
    play_on(state, Rng(6))
    if g.stats is not None:
        stats = g.stats.game_stats(game.new(6), state.history)
        json.dumps(stats)
        # every category the panel shows, in the game's words (the page knows no game's)
        for key in [*stats["categories"], "total"]:
            assert stats["labels"][key] and "_" not in stats["labels"][key], key
    if g.recent is not None:
        assert isinstance(g.recent.party_turns(state, state.events), list)
    if g.component_texts is not None:
        json.dumps(g.component_texts())
    assert g.setup_words(game.players, state.options)
    for k in ("pitch", "players", "length"):
        assert g.presentation.get(k), (g.name, k)
    assert set(g.score_labels) <= set(state.scores()[0]), g.score_labels


# --- options as command-line flags ----------------------------------------------------------

def test_no_game_option_is_left_out_of_the_command_line() -> None:
    """Every option of every registered game is a flag of play, simulate, tournament and
    sweep: no name two games type differently, none that a command already uses (a game
    whose option clashes is told here, by name, instead of stopping every command)."""
    import kamon.cli  # noqa: F401  (builds every command's flags)
    from kamon.cli.options import PROBLEMS
    assert PROBLEMS == []


def test_a_clashing_option_leaves_the_command_working() -> None:
    """An option name a command already uses is left out of that command's flags and told;
    the command keeps its own parameter and every other option's flag."""
    import inspect

    from kamon.cli import options

    def expert(expert: int = 0, option_flags: dict[str, Any] | None = None) -> int:
        """A command whose own parameter is called like I, Clansman's option."""
        return expert
    before = list(options.PROBLEMS)
    try:
        wrapped = options.game_flags(expert)
        params = inspect.signature(wrapped).parameters
        assert [p for p in params if p == "expert"] == ["expert"]
        assert "first_game" in params
        assert wrapped(expert=3, **{p: None for p in params if p != "expert"}) == 3
        assert any("option expert" in p and "clashes" in p for p in options.PROBLEMS)
    finally:
        options.PROBLEMS[:] = before


@pytest.mark.parametrize("name", list(games()))
def test_the_training_setups_are_games_the_schema_allows(name: str) -> None:
    """Every set-up a training run deals (the game's `selfplay_setups`, or its default
    count) is one new_game accepts, its options as the schema checks them."""
    game = games()[name]
    setups = game.training_setups()
    assert setups
    for players, options in setups:
        state = game.new_game(players, 1, **options)
        assert state.num_players == players
        assert dict(state.options) == game.options.validate(players, options)
