"""The fast search keys: `Encoding.describe` visits only the non-zero entries, and the
perfect-recall record's text is rendered incrementally (kamon.rl.recall). Both must give
exactly what the whole, field-by-field render gives (the reference implementations here),
after any mix of moves, clones, re-sampled worlds and pickling, so the information-state
string stays a faithful perfect-recall key."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

import kamon.rl  # noqa: F401  (registers the OpenSpiel games)
from kamon.games import get_game
from kamon.rl.encoding import DESCRIBED, Encoding, encoding, legal_ids
from kamon.rl.openspiel_game import recall_of, spiel_params
from kamon.rl.recall import Recall
from tests.rl.registry import DEFAULTS, SETUPS, SPIEL_NAME

pyspiel = pytest.importorskip("pyspiel")



def root(game: str) -> dict[str, Any]:
    """The parameter that selects the one-seed root chance mode, where the information
    state is the perfect-recall record (none where the game has no chance modes)."""
    return {"chance": "root"} if "chance" in spiel_params(game) else {}


# Every registered game at its default count, and the solo White Castle.
KEYED: list[tuple[str, str, dict[str, Any]]] = [
    (game, SPIEL_NAME[game], {"players": players, **options, **root(game)})
    for game, players, options in DEFAULTS] + [
    ("white-castle", "python_kamon_white_castle",
     {"players": 1, "difficulty": "hard", **root("white-castle")}),
]


def reference_describe(enc: Encoding, vec: np.ndarray) -> str:
    """The whole render of an observation vector: every field line in order, printed when
    any of its values is non-zero (the definition `describe` must match)."""
    lines = []
    for f in enc.fields:
        for k in range(f.repeat):
            start = f.start + k * f.stride
            part = vec[start:start + f.size]
            if np.any(part):
                name = f.name.replace("[k]", f"[{k}]")
                if f.size == 1:
                    lines.append(f"{name}: {float(part[0]):.3g}")
                else:
                    values = ",".join(f"{i}={float(v):.3g}" for i, v in enumerate(part) if v)
                    lines.append(f"{name}: {values}")
    return "\n".join(lines)


def reference_text(record: Recall, enc: Encoding, player: int) -> str:
    """The whole render of a record for a player, from nothing: the deal's observation,
    then each decision and, after each reveal, the fields that changed (the definition the
    incremental `Recall.text` must match)."""
    game = enc.game
    previous = enc.observe(record.reveals[0][1], player)
    lines = ["deal:\n" + reference_describe(enc, previous)]
    after = dict(record.reveals[1:])
    for i, (seat, aid) in enumerate(zip(record.actors, record.actions, strict=True), 1):
        lines.append(f"{i} p{seat} {game.action_text(aid)}")
        position = after.get(i)
        if position is not None:
            vec = enc.observe(position, player)
            changed = np.where(vec != previous, vec, 0.0)
            gone = np.flatnonzero((vec != previous) & (vec == 0))
            lines.append("  revealed: " + reference_describe(enc, changed).replace("\n", "; ")
                         + ("; cleared " + ",".join(map(str, gone)) if gone.size else ""))
            previous = vec
    return "\n".join(lines)


def rebuilt(state: Any) -> Any:
    """A new OpenSpiel state with the same deal and history (its record rendered in one go)."""
    fresh = state.get_game().new_initial_state()
    for aid in state.history():
        fresh.apply_action(aid)
    return fresh


def check(state: Any, enc: Encoding, players: list[int]) -> None:
    """The state's record text equals the whole render for each of `players`."""
    record = recall_of(state)
    for p in players:
        assert record.text(enc, p) == reference_text(record, enc, p), (state.history(), p)


@pytest.mark.parametrize(("game", "players", "options"), SETUPS)
def test_describe_equals_the_field_by_field_render(game: str, players: int,
                                                   options: dict[str, Any]) -> None:
    """On every set-up's observations through a random game (every seat's, and the
    changes between consecutive ones, as a reveal line prints them) and on an empty vector,
    the fast describe prints exactly the whole render."""
    enc = encoding(game)
    state = get_game(game).new_game(players, seed=11, **options)
    rng = random.Random(11)
    assert enc.describe(np.zeros(enc.size, np.float32)) == ""
    previous = None
    checked = 0
    while not state.is_over() and checked < 80:
        for seat in range(state.num_players):
            vec = enc.observe(state, seat)
            assert enc.describe(vec) == reference_describe(enc, vec)
            if previous is not None:
                changed = np.where(vec != previous, vec, 0.0)
                assert enc.describe(changed) == reference_describe(enc, changed)
            previous = vec
            checked += 1
        state.apply(rng.choice(legal_ids(state)))
    assert checked >= 40 or state.is_over()


def test_described_texts_are_kept_by_value_type_and_bounded() -> None:
    """The kept texts are found by the vector's bytes and its type (a float64 copy is
    described from its own values, never confused), and no more than DESCRIBED are
    kept."""
    enc = encoding("clansman")
    vec = enc.observe(get_game("clansman").new_game(4, seed=2), 0)
    wide = vec.astype(np.float64)
    assert enc.describe(wide) == enc.describe(vec) == reference_describe(enc, vec)
    for k in range(DESCRIBED + 20):
        other = vec.copy()
        other[k % enc.size] = 0.5 if other[k % enc.size] != 0.5 else 0.25
        other[(k // enc.size) + 1] = 1.0
        assert enc.describe(other) == reference_describe(enc, other)
    assert len(enc._described) <= DESCRIBED
    moved = pickle.loads(pickle.dumps(enc))
    assert "_described" not in moved.__dict__  # the kept texts stay behind
    assert moved.describe(vec) == enc.describe(vec)


@pytest.mark.parametrize("game", sorted({g for g, _n, _p in KEYED}))
def test_no_two_values_a_field_takes_print_alike(game: str) -> None:
    """The text is a faithful key only if the printed values tell the numbers apart: for
    every capped field, the values count/cap print distinctly, and over random games no
    two different values seen in one field print alike."""
    enc = encoding(game)
    for f in enc.fields:
        for cap in set(f.caps() or ()):
            values = {float(np.float32(k / cap)) for k in range(cap + 1)}
            assert len({f"{v:.3g}" for v in values}) == len(values), (f.name, cap)
    seen: dict[str, set[float]] = {}
    owner = {i: f.name for f in enc.fields for k in range(f.repeat)
             for i in range(f.start + k * f.stride, f.start + k * f.stride + f.size)}
    for seed in range(2):
        state = get_game(game).new_game(get_game(game).default_players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            vec = enc.observe(state, state.to_move)
            for i in np.flatnonzero(vec).tolist():
                seen.setdefault(owner.get(i, "?"), set()).add(float(vec[i]))
            state.apply(rng.choice(legal_ids(state)))
    for name, values in seen.items():
        assert len({f"{v:.3g}" for v in values}) == len(values), name


@pytest.mark.parametrize(("game", "name", "params"), KEYED)
def test_the_incremental_record_text_equals_the_whole_render(
        game: str, name: str, params: dict[str, Any]) -> None:
    """Through a random game, asked for at irregular intervals and for varying players,
    and on clones that then go their own ways, the kept-and-extended record text equals
    the render from nothing, and the information-state string equals that of a state
    rebuilt from the history."""
    enc = encoding(game)
    spiel = pyspiel.load_game(name, params)
    rng = random.Random(21)
    state = spiel.new_initial_state()
    state.apply_action(3)
    seats = list(range(state.num_players()))
    branches = 0
    t = 0
    while not state.is_terminal():
        if rng.random() < 0.08:
            check(state, enc, rng.sample(seats, k=min(2, len(seats))))
        if rng.random() < 0.05:  # a clone that goes its own way for a few decisions
            other = state.clone()
            for _ in range(rng.randrange(1, 6)):
                if other.is_terminal():
                    break
                other.apply_action(rng.choice(other.legal_actions()))
                recall_of(other).text(enc, seats[-1])  # extended on the clone alone
            check(other, enc, seats)
            branches += 1
        if t % 25 == 0:
            p = state.current_player()
            assert state.information_state_string(p) == \
                rebuilt(state).information_state_string(p)
        state.apply_action(rng.choice(state.legal_actions()))
        t += 1
    check(state, enc, seats)
    assert branches and t > 20


@pytest.mark.parametrize(("game", "name", "params"),
                         [k for k in KEYED if k[2].get("players") != 1])
def test_resampled_and_pickled_worlds_keep_the_key_right(
        game: str, name: str, params: dict[str, Any]) -> None:
    """A re-sampled world has the same information-state string as the true one for every
    player at the moment it is drawn (what ISMCTS asserts); as both go on with the same
    actions each world's record text stays the whole render of its own record; a pickled
    re-sampled world gives the same strings, and keeps giving them as it goes on."""
    enc = encoding(game)
    spiel = pyspiel.load_game(name, params)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(31)
    state = spiel.new_initial_state()
    state.apply_action(5)
    seats = list(range(state.num_players()))
    for depth in (10, 60):
        while len(state.history()) < depth + 1 and not state.is_terminal():
            state.information_state_string(state.current_player())  # kept as it goes
            state.apply_action(rng.choice(state.legal_actions()))
        world = state.resample_from_infostate(state.current_player(), sampler)
        for p in seats:
            assert world.information_state_string(p) == state.information_state_string(p)
        moved = pickle.loads(pickle.dumps(world))
        for _ in range(30):
            if world.is_terminal():
                break
            legal = set(world.legal_actions()) & set(moved.legal_actions())
            aid = rng.choice(sorted(legal))
            world.apply_action(aid)
            moved.apply_action(aid)
            p = rng.choice(seats)
            assert moved.information_state_string(p) == world.information_state_string(p)
        check(world, enc, seats)
        check(moved, enc, seats)
