"""The OpenSpiel registrations pass OpenSpiel's random simulation test with serialisation
in both chance modes, pickle (games and states, across processes), re-sample hidden
information for ISMCTS (root mode), and OpenSpiel's MCTS and ISMCTS bots play them.
(tests/rl/test_openspiel_chance.py: the explicit chance mode's own structure.)"""

from __future__ import annotations

import numpy as np
import pytest

import kamon.rl
from kamon.rl.encoding import encoding, final_rewards
from kamon.rl.recall import layout
from tests.rl.registry import DEFAULTS, GAMES, SPIEL_NAME

pyspiel = pytest.importorskip("pyspiel")  # the rl extra installs it; make test has it


def load(name: str, **params: object) -> object:
    """A registered kamon game with parameters."""
    return pyspiel.load_game(name, params)


def dealt(game: object, outcome: int = 0) -> object:
    """A new state of `game` past its chance node (deal `outcome`)."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    assert state.is_chance_node()
    state.apply_action(outcome)
    return state


def test_importing_kamon_rl_registers_every_game() -> None:
    """Every registered game with an observation is registered, explicit-stochastic,
    terminal reward: perfect information by default (explicit chance), imperfect with
    the one-seed root chance node (chance="root")."""
    assert kamon.rl.OPENSPIEL
    assert sorted(kamon.rl.OPENSPIEL_GAMES) == GAMES
    names = {g.short_name for g in pyspiel.registered_games()}
    assert set(kamon.rl.OPENSPIEL_GAMES.values()) <= names
    info = pyspiel.GameType.Information
    for name in kamon.rl.OPENSPIEL_GAMES.values():
        for params, information, tensor in [({}, info.PERFECT_INFORMATION, False),
                                            ({"chance": "root"}, info.IMPERFECT_INFORMATION,
                                             True)]:
            t = load(name, **params).get_type()
            assert t.information == information
            assert t.provides_information_state_tensor == tensor
            assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL


# Every registered game at its default count, then modes of the two games worth their own run.
SIMULATED: list[tuple[str, dict[str, object]]] = [
    (SPIEL_NAME[game], {"players": players, **options}) for game, players, options in DEFAULTS
] + [
    ("python_kamon_white_castle", {"players": 2}),
    ("python_kamon_white_castle", {"players": 1, "difficulty": "hard", "reward": "margin"}),
    ("python_kamon_white_castle", {"players": 4, "first_game": True}),
    ("python_kamon_clansman", {"expert": True, "emperor_side": "B"}),
]


# ... in both chance modes: explicit (the default) for all of them, root for these.
ROOT_SIMULATED = [
    ("python_kamon_white_castle", {"players": 4}), ("python_kamon_white_castle", {"players": 2}),
    ("python_kamon_white_castle", {"players": 1}), ("python_kamon_clansman", {}),
    ("python_kamon_clansman", {"expert": True})]


@pytest.mark.parametrize(("name", "params"), SIMULATED + [
    (name, {**params, "chance": "root"}) for name, params in ROOT_SIMULATED])
def test_openspiel_random_sim_test(name: str, params: dict[str, object]) -> None:
    """OpenSpiel's own consistency checks over random games (legal actions, chance
    outcomes, returns, utilities, observation and information-state tensors and
    strings, clones, and the serialisation of the game and every state)."""
    game = load(name, **params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_info_matches_the_kamon_game() -> None:
    """Action space, players, tensors and utilities as kamon defines them."""
    wc = load("python_kamon_white_castle", players=3, chance="root")
    enc = encoding("white-castle")
    assert wc.num_distinct_actions() == enc.num_actions
    assert wc.num_players() == 3
    assert wc.observation_tensor_shape() == [enc.size]
    assert wc.information_state_tensor_shape() == [layout(enc).size]
    assert (wc.min_utility(), wc.max_utility()) == (-1.0, 1.0)
    assert wc.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    margin = load("python_kamon_clansman", reward="margin")
    assert margin.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    solo = load("python_kamon_white_castle", players=1)
    assert solo.num_players() == 1


@pytest.mark.parametrize("game_name", GAMES)
def test_the_declared_game_length_is_what_the_information_state_holds(game_name: str) -> None:
    """max_game_length is the deal plus the decisions the game's information state holds
    (its observation's recall_limits), and a random game's decisions (with the deal; not
    counting explicit chance outcomes, as OpenSpiel defines it) stay within it."""
    for params in ({}, {"chance": "root"}):
        game = load(SPIEL_NAME[game_name], **params)
        limit = encoding(game_name).spec.recall_limits[0]
        assert game.max_game_length() == 1 + limit
        state = game.new_initial_state()
        rng = np.random.default_rng(5)
        steps = 0
        while not state.is_terminal():
            steps += not state.is_chance_node() or not state.history()
            state.apply_action(int(rng.choice(state.legal_actions())))
        assert steps <= game.max_game_length()


def test_tensors_and_strings_come_from_the_shared_encoding() -> None:
    """The observation tensor is kamon's encoding of view(player); the strings name its
    fields; the information state begins with the observation and adds the record since
    the deal, one line per decision; OpenSpiel's C++ path and the Python methods agree."""
    game = load("python_kamon_clansman", chance="root")
    state = dealt(game)
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])
    kstate = state.kamon_state
    enc = encoding("clansman")
    for player in range(4):
        assert np.array_equal(np.array(state.observation_tensor(player), np.float32),
                              enc.observe(kstate, player))
        info_tensor = state.information_state_tensor(player)
        assert len(info_tensor) == layout(enc).size
        assert np.array_equal(info_tensor[:enc.size], state.observation_tensor(player))
        obs = state.observation_string(player)
        assert obs.startswith(f"p{player} ") and "seat: " in obs
        info = state.information_state_string(player)
        assert info.startswith(obs + "\ndeal:\n")
        decisions = [line for line in info.splitlines() if line[:1].isdigit()]
        assert [line.split()[0] for line in decisions] == \
            [str(i) for i in range(1, len(kstate.history) + 1)]
        # The C++ path (through the game's observer) gives the same as the Python one.
        base = pyspiel.State
        # (the Python methods give float32 arrays, the C++ path lists of the same values)
        assert np.array_equal(base.observation_tensor(state, player),
                              state.observation_tensor(player))
        assert np.array_equal(base.information_state_tensor(state, player),
                              state.information_state_tensor(player))
        assert state.observation_tensor(player).dtype == np.float32
        assert base.observation_string(state, player) == obs
        assert base.information_state_string(state, player) == info
    with pytest.raises(ValueError, match="players are 0-3"):
        state.observation_tensor(4)


def test_the_deal_is_the_one_chance_node_and_rng_seed_chooses_the_deals() -> None:
    """A new state is a chance node with DEALS equally likely outcomes; a deal fixes the
    game (the same outcome and rng_seed, the same game; another rng_seed, another)."""
    from kamon.rl.openspiel_game import DEALS

    game = load("python_kamon_white_castle", players=2, rng_seed=5, chance="root")
    root = game.new_initial_state()
    assert root.current_player() == pyspiel.PlayerId.CHANCE and not root.is_terminal()
    outcomes = root.chance_outcomes()
    assert len(outcomes) == DEALS and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert np.array_equal(root.observation_tensor(0), [0.0] * encoding("white-castle").size)
    a, b = dealt(game, 7), dealt(game, 7)
    c = dealt(load("python_kamon_white_castle", players=2, rng_seed=6, chance="root"), 7)
    assert str(a) == str(b) != str(c) != str(dealt(game, 8))
    assert a.history() == [7] and a.current_player() in (0, 1)


@pytest.mark.parametrize("chance", ["explicit", "root"])
@pytest.mark.parametrize("game_name", GAMES)
def test_states_serialise_and_games_and_states_pickle_across_processes(
        game_name: str, chance: str) -> None:
    """A state survives OpenSpiel's serialise round trip and serialize_game_and_state
    exactly; games and states pickle, and a fresh Python process loads them (what Ray
    and multiprocessing do): every registered game, in both chance modes (explicit:
    chance nodes taken on the way, by their first outcome)."""
    import pickle
    import subprocess
    import sys

    game = load(SPIEL_NAME[game_name], rng_seed=3, chance=chance)
    state = dealt(game, 11)
    for _ in range(15):
        after = state.clone()
        after.apply_action(after.legal_actions()[-1])
        while after.is_chance_node():
            after.apply_action(after.legal_actions()[0])
        if after.is_terminal():
            break  # keep a state that can still move (the fresh process moves it)
        state = after
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.history() == state.history()
    game2, state2 = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(game2) == str(game) and str(state2) == str(state)
    again_game, again_state = pickle.loads(pickle.dumps((game, state)))
    assert str(again_game) == str(game) and again_state.history() == state.history()
    assert str(again_state) == str(state)
    out = subprocess.run(
        [sys.executable, "-c", "import pickle, sys; g, s = pickle.loads(sys.stdin.buffer"
         ".read()); s.apply_action(s.legal_actions()[0]); print(str(g), len(s.history()))"],
        input=pickle.dumps((game, state)), capture_output=True, timeout=120)
    assert out.stdout.decode().split() == [str(game), str(len(state.history()) + 1)], \
        out.stderr.decode()[-500:]
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)  # the clone is independent


def test_resample_from_infostate_hides_only_the_hidden_parts() -> None:
    """A re-sampled state has the same information state (string and tensor) for the
    player, the same legal actions, but re-shuffled decks."""
    game = load("python_kamon_white_castle", players=3, chance="root")
    state = dealt(game)
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(4):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
        assert other.legal_actions() == state.legal_actions()
        differed += str(other) != str(state)
    assert differed >= 3


@pytest.mark.parametrize(("name", "params"), [
    (SPIEL_NAME[game], {"players": players, **options}) for game, players, options in DEFAULTS])
def test_openspiel_mcts_and_ismcts_bots_play_a_whole_game(
        name: str, params: dict[str, object]) -> None:
    """OpenSpiel's MCTS bot and its ISMCTS bot (which re-samples hidden information with
    resample_from_infostate) take turns to the end of a game; every move is legal and the
    returns are kamon's placement rewards. (ISMCTS draws its samplers' seeds itself, so
    the game differs from run to run.)"""
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(name, **params, chance="root")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng)]
    state = dealt(game)
    moves = 0
    while not state.is_terminal():
        action = bots[moves % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0
    kstate = state.kamon_state
    assert state.returns() == final_rewards(kstate, "placement", encoding(
        kstate.to_json()["game"]).margin_scale)
    assert sum(state.returns()) == pytest.approx(0.0)
    best = max(state.returns())
    assert {q for q, r in enumerate(state.returns()) if r == best} == set(kstate.winners())


def test_bad_parameters_are_refused_clearly() -> None:
    """A bad player count, reward or unknown parameter fails to load, saying why."""
    with pytest.raises(ValueError, match="1-4 players"):
        load("python_kamon_white_castle", players=7)
    with pytest.raises(ValueError, match="unknown reward"):
        load("python_kamon_clansman", reward="points")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        load("python_kamon_white_castle", colour="red")
    with pytest.raises(ValueError, match="unknown chance mode 'seeded': one of explicit, root"):
        load("python_kamon_white_castle", chance="seeded")
