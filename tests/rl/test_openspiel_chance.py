"""The OpenSpiel games' explicit chance mode (the default): perfect information, every
card drawn and die rolled a chance node of its own, and OpenSpiel's MCTSBot (which
samples chance nodes) playing on it."""

from __future__ import annotations

import json

import numpy as np
import pytest

import kamon.rl  # noqa: F401  (registers the games)
from kamon.rl.encoding import encoding, final_rewards

pyspiel = pytest.importorskip("pyspiel")  # the rl extra installs it; make test has it


def sample(state: object, rng: np.random.RandomState) -> int:
    """A chance outcome drawn by its probability."""
    outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
    actions, probs = zip(*outcomes, strict=True)
    return int(rng.choice(actions, p=probs))


def to_first_node(state: object, rng: np.random.RandomState) -> object:
    """Play random legal actions (sampling chance) up to the first chance node after the
    deal; the state there."""
    state.apply_action(sample(state, rng))  # type: ignore[attr-defined]  # the deal
    while not state.is_chance_node():  # type: ignore[attr-defined]
        state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]
    return state


def test_a_roll_and_a_draw_are_chance_nodes_with_their_probabilities() -> None:
    """Pig: a roll is a node of six outcomes of 1/6, named as rolls; White Castle: the
    first node after the deal is a die or a card with exact probabilities summing to 1;
    the state at a node names its pending move and holds no deck order (unseen cards
    sorted) and no generator state."""
    rng = np.random.RandomState(0)
    pig = to_first_node(pyspiel.load_game("python_kamon_pig").new_initial_state(), rng)
    assert pig.current_player() == pyspiel.PlayerId.CHANCE
    assert pig.chance_outcomes() == [(k, pytest.approx(1 / 6)) for k in range(6)]
    assert pig.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "roll 2 of 6"
    assert json.loads(str(pig))["pending"] == {"action": 0, "outcomes": []}

    wc = pyspiel.load_game("python_kamon_white_castle", {"players": 2})
    state = to_first_node(wc.new_initial_state(), rng)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0) and len(outcomes) > 1
    data = json.loads(str(state))
    assert data["rng"] == 0
    assert data["steward_deck"] == sorted(data["steward_deck"])
    assert data["diplomat_deck"] == sorted(data["diplomat_deck"])
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    assert state.current_player() >= 0 or state.is_terminal()


def test_explicit_mode_is_perfect_information() -> None:
    """Nothing to re-sample (ISMCTS's resample gives the state itself); the information
    state is the observation and the whole history, outcomes included; no
    information-state tensor (refused with the way to get one)."""
    rng = np.random.RandomState(1)
    game = pyspiel.load_game("python_kamon_white_castle", {"players": 2})
    state = to_first_node(game.new_initial_state(), rng)
    while state.is_chance_node():
        state.apply_action(sample(state, rng))
    player = state.current_player()
    same = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(same) == str(state)
    info = state.information_state_string(player)
    assert info == state.observation_string(player) + "\nhistory: " + " ".join(
        map(str, state.history()))
    with pytest.raises(ValueError, match="chance='root'"):
        state.information_state_tensor(player)


def play_with_mcts(name: str, params: dict[str, object], simulations: int,
                   seed: int) -> tuple[object, int, int]:
    """A whole game: OpenSpiel's Python MCTSBot in every seat (its tree samples the chance
    nodes), chance outcomes drawn by their probabilities. The end state, its decisions
    and its chance nodes."""
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    state = game.new_initial_state()
    decisions = nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
            nodes += 1
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    return state, decisions, nodes


def test_openspiel_mcts_plays_pig_and_the_white_castle_with_explicit_chance() -> None:
    """OpenSpiel's MCTSBot plays whole games of Pig (to 20) and of the White Castle solo
    game on the explicit chance nodes; returns are the placement rewards."""
    state, decisions, nodes = play_with_mcts("python_kamon_pig", {"points_to_win": 20}, 8, 0)
    assert decisions > 0 and nodes > 1  # the deal, then the rolls
    assert sorted(state.returns()) == [-1.0, 1.0]
    state, decisions, nodes = play_with_mcts(
        "python_kamon_white_castle", {"players": 1}, 4, 1)
    assert decisions > 10 and nodes > 2  # the deal, dice, Solitaire cards
    kstate = state.kamon_state  # type: ignore[attr-defined]
    assert state.returns() == final_rewards(kstate, "placement",  # type: ignore[attr-defined]
                                            encoding("white-castle").margin_scale)


def test_openspiel_expectiminimax_weighs_the_die() -> None:
    """OpenSpiel's expectiminimax on explicit Pig, two plies after a roll of 4 (its depth
    stops at a chance node before expanding it, so one more ply reaches the die):
    holding is worth the 4 banked and rolling the exact expectation over the six faces
    (a 1 loses the turn total: (0 + 6 + 7 + 8 + 9 + 10) / 6), so it rolls."""
    from open_spiel.python.algorithms import minimax

    state = pyspiel.load_game("python_kamon_pig", {"points_to_win": 20}).new_initial_state()
    state.apply_action(0)  # the deal
    me = state.current_player()
    state.apply_action(0)  # roll
    state.apply_action(3)  # the die shows 4
    assert state.kamon_state.turn_total == 4

    def banked(s: object) -> float:
        """The maximiser's score, with its turn total if it is still its turn."""
        k = s.kamon_state  # type: ignore[attr-defined]
        return float(k.scores_[me] + (k.turn_total if k.turn_seat == me else 0))

    value, action = minimax.expectiminimax(state, 2, banked, me)
    assert action == 0  # roll
    assert value == pytest.approx((0 + 6 + 7 + 8 + 9 + 10) / 6)


def test_a_state_between_two_outcomes_serialises_and_pickles() -> None:
    """A move whose randomness is half resolved (the round's dice, some rolled) survives
    OpenSpiel's serialisation and pickling: the same pending move, outcomes and node."""
    import pickle

    rng = np.random.RandomState(2)
    game = pyspiel.load_game("python_kamon_white_castle", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(sample(state, rng))  # the deal
    while True:  # to a node reached after another outcome of the same move
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
            if state.is_chance_node():
                break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(json.loads(str(state))["pending"]["outcomes"]) >= 1
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state)
        assert copy.chance_outcomes() == state.chance_outcomes()
        outcome = state.chance_outcomes()[0][0]
        a, b = copy.clone(), state.clone()
        a.apply_action(outcome)
        b.apply_action(outcome)
        assert str(a) == str(b)
