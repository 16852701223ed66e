"""The OpenSpiel information state has perfect recall: it holds the player's whole history
of observations and actions (kamon.rl.recall), tells apart worlds the player could tell
apart and only those, never forgets, and survives re-sampling and pickling."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import numpy as np
import pytest

import kamon.rl  # noqa: F401  (registers the OpenSpiel games)
from kamon.core.rng import Rng
from kamon.games import get_game
from kamon.rl.encoding import Encoding, encoding
from kamon.rl.recall import SLOTS, Recall, layout
from tests.rl.registry import DEFAULTS, SPIEL_NAME

pyspiel = pytest.importorskip("pyspiel")

# Every registered game at its default count, and the solo White Castle (a game whose
# rival's cards are revealed on its own turns).
SETUPS: list[tuple[str, str, dict[str, Any]]] = [
    (game, SPIEL_NAME[game], {"players": players, **options})
    for game, players, options in DEFAULTS] + [
    ("white-castle", "python_kamon_white_castle", {"players": 1, "difficulty": "hard"}),
]


def play(state: Any, rng: random.Random, steps: int) -> Any:
    """Apply up to `steps` random legal actions (stopping at the end)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game", "name", "params"), SETUPS)
def test_decisions_that_reveal_nothing_look_the_same_in_every_resampled_world(
        game: str, name: str, params: dict[str, Any]) -> None:
    """The record's premise: after a decision that leaves the game's hidden_key unchanged,
    every seat sees the same in the true world and in re-sampled ones (so only revealing
    decisions need their observation recorded), while revealing decisions do differ."""
    enc = encoding(game)
    players = int(params.get("players", 4))
    options = {k: v for k, v in params.items() if k != "players"}
    differed = 0
    for seed in range(4):
        state = get_game(game).new_game(players, seed=seed, **options)
        key = state.game.hidden_key
        rng = random.Random(seed)
        t = 0
        while not state.is_over():
            aid = rng.choice(state.legal_ids())
            worlds = [state.determinize(state.to_move, Rng(seed * 10_000 + t * 10 + k))
                      for k in range(3)]
            before = key(state)
            state.apply(aid)
            revealed = key(state) != before
            for world in worlds:
                world.apply(aid)
                for seat in range(state.num_players):
                    same = np.array_equal(enc.observe(world, seat), enc.observe(state, seat))
                    assert same or revealed, (seed, t, game)
                    differed += not same
            t += 1
    assert differed > 0  # the check can fail: re-sampled worlds do reveal other things


@pytest.mark.parametrize(("game", "name", "params"), SETUPS)
def test_the_tensor_decodes_to_the_history_and_the_observations_at_each_reveal(
        game: str, name: str, params: dict[str, Any]) -> None:
    """Action rows give back every actor (seen from the player) and action id; reveal rows
    give back the deal and the position after each revealing decision, as the player saw
    them; the rest of the tensor is 0."""
    enc = encoding(game)
    lay = layout(enc)
    state = play(pyspiel.load_game(name, {**params, "chance": "root"}).new_initial_state(), random.Random(1), 1)
    state = play(state, random.Random(2), 120)
    kstate = state.kamon_state
    for player in range(state.num_players()):
        vec = np.array(state.information_state_tensor(player), np.float32)
        assert vec.shape == (lay.size,)
        assert np.array_equal(vec[:lay.obs], enc.observe(kstate, player))
        rows = vec[lay.actions_start:lay.reveals_start].reshape(lay.max_decisions, -1)
        n = len(kstate.history)
        ids = (rows[:n, SLOTS:] * (1 << np.arange(lay.bits))).sum(axis=1).astype(int)
        assert ids.tolist() == list(kstate.history)
        assert not rows[n:].any()
        replay = get_game(game).new_game(state._setup[0], seed=kstate.seed,
                                         **state._setup[1])
        reveal_rows = vec[lay.reveals_start:].reshape(lay.max_reveals + 1, -1)
        key = replay.game.hidden_key
        expected = [(0, enc.observe(replay, player))]
        actors = []
        for i, aid in enumerate(kstate.history, 1):
            actors.append(replay.to_move)
            before = key(replay)
            replay.apply(aid)
            if key(replay) != before:
                expected.append((i, enc.observe(replay, player)))
        slots = rows[:n, :SLOTS].argmax(axis=1).tolist()
        seats = state.num_players()
        assert slots == [(a - player) % seats for a in actors]
        assert len(expected) > 1
        for k, (at, obs) in enumerate(expected):
            assert reveal_rows[k, 0] == 1.0
            assert reveal_rows[k, 1] == np.float32(at / lay.max_decisions)
            assert np.array_equal(reveal_rows[k, 2:], obs)
        assert not reveal_rows[len(expected):].any()


@pytest.mark.parametrize(("game", "name", "params"), SETUPS)
def test_information_states_are_equal_exactly_when_the_observed_histories_are(
        game: str, name: str, params: dict[str, Any]) -> None:
    """Perfect recall, both ways: worlds that share a past, re-sampled at one point and then
    played with the same actions, have equal information states (string and tensor) for a
    player exactly while everything that player observed since was equal."""
    enc = encoding(game)
    spiel = pyspiel.load_game(name, {**params, "chance": "root"})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    equal = unequal = 0
    for seed in range(3):
        rng = random.Random(seed)
        base = play(play(spiel.new_initial_state(), rng, 1), rng, 15 + 10 * seed)
        player = base.current_player()
        worlds = [base.clone()] + [base.resample_from_infostate(player, sampler)
                                   for _ in range(2)]
        seats = range(base.num_players())
        seen: list[list[list[bytes]]] = [[[] for _ in seats] for _ in worlds]
        for _ in range(80):
            if any(w.is_terminal() for w in worlds):
                break
            legal = set.intersection(*(set(w.legal_actions()) for w in worlds))
            if not legal:
                break
            aid = rng.choice(sorted(legal))
            for w, saw in zip(worlds, seen, strict=True):
                w.apply_action(aid)
                for p in seats:
                    saw[p].append(enc.observe(w.kamon_state, p).tobytes())
            for k in (1, 2):
                for p in seats:
                    same_seen = seen[0][p] == seen[k][p]
                    same_string = (worlds[0].information_state_string(p)
                                   == worlds[k].information_state_string(p))
                    same_tensor = np.array_equal(worlds[0].information_state_tensor(p),
                                                 worlds[k].information_state_tensor(p))
                    assert same_seen == same_string == same_tensor, (seed, p, same_seen,
                                                                    same_string)
                    equal += same_seen
                    unequal += not same_seen
    assert equal and unequal  # both directions were exercised


def test_the_record_never_forgets_and_survives_pickling_and_resampling() -> None:
    """Each decision only appends to the record (the string's history part and the tensor's
    rows at t are kept at t+1); a pickled state, and a pickled re-sampled one, give the same
    information state after unpickling."""
    spiel = pyspiel.load_game("python_kamon_clansman", {"chance": "root"})
    state = play(spiel.new_initial_state(), random.Random(4), 1)
    lay = layout(encoding("clansman"))
    rng = random.Random(5)
    before_text = before_vec = None
    for _ in range(60):
        text = state.information_state_string(0)
        record = text[text.index("\ndeal:\n"):]
        vec = np.array(state.information_state_tensor(0), np.float32)[lay.actions_start:]
        if before_text is not None:
            assert record.startswith(before_text)
            kept = before_vec != 0
            assert np.array_equal(vec[kept], before_vec[kept])
        before_text, before_vec = record, vec
        state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert again.information_state_string(1) == state.information_state_string(1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    other = state.resample_from_infostate(state.current_player(), sampler)
    play(other, random.Random(6), 40)
    moved = pickle.loads(pickle.dumps(other))
    assert np.array_equal(moved.information_state_tensor(2),
                          other.information_state_tensor(2))
    assert moved.information_state_string(2) == other.information_state_string(2)


def test_a_game_longer_than_the_tensor_is_refused_not_truncated() -> None:
    """With the bounds lowered below a game's length, the tensor is refused with the reason
    and the bound's name; the observation still works."""
    shipped = encoding("white-castle")
    enc = Encoding(shipped.game_name, shipped.game,
                   dataclasses.replace(shipped.spec, recall_limits=(10, 40)))
    record = Recall("white-castle", 2, {}, 3)
    state = get_game("white-castle").new_game(2, seed=3)
    rng = random.Random(3)
    for _ in range(11):
        state.apply(rng.choice(state.legal_ids()))
    record.catch_up(list(state.history))
    with pytest.raises(ValueError, match="holds at most 10 .*recall_limits"):
        record.tensor(enc, 0, enc.observe(state, 0))
    with pytest.raises(ValueError, match="does not extend"):
        record.catch_up([999])


def test_random_games_stay_within_the_bounds() -> None:
    """Whole random games of every set-up fit the information-state tensor (its bounds
    have room over the longest random games seen)."""
    for game, name, params in SETUPS:
        spiel = pyspiel.load_game(name, {**params, "chance": "root"})
        for seed in range(3):
            state = play(spiel.new_initial_state(), random.Random(seed), 1)
            play(state, random.Random(seed), 10_000)
            assert state.is_terminal()
            lay = layout(encoding(game))
            assert len(state.information_state_tensor(0)) == lay.size
