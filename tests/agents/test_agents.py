"""Agents: legal moves only, reproducible from the seed, blind to hidden information, levels."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import kamon.agents as agents_pkg
from kamon.agents import AGENTS, LEVELS, Agent, GreedyAgent, MCTSAgent, RandomAgent, make_agent
from kamon.core.errors import KamonError
from kamon.core.protocol import State
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME, solo
from kamon.games.white_castle.state import WhiteCastleState

TINY_MCTS = {"iterations": 24, "rollout_depth": 4}


def tiny_mcts(seed: int) -> MCTSAgent:
    """An MCTS agent with a test-sized budget (random rollouts)."""
    return MCTSAgent(seed, rollout="random", **TINY_MCTS)  # type: ignore[arg-type]


def tiny_mcts_greedy(seed: int) -> MCTSAgent:
    """An MCTS agent with a test-sized budget and greedy rollouts."""
    return MCTSAgent(seed, rollout="greedy", **TINY_MCTS)  # type: ignore[arg-type]


def tiny_learned(seed: int) -> Agent:
    """The learned level's search (the shipped network guiding it) at a test-sized budget."""
    from kamon.learn.agents import guided_search

    return guided_search(seed, 60)


BUILDERS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy1": lambda seed: GreedyAgent(seed, depth=1),
    "greedy": GreedyAgent,
    "mcts-random": tiny_mcts,
    "mcts-greedy": tiny_mcts_greedy,
    "fast": lambda seed: make_agent("fast", seed),
    "learned": tiny_learned,
}


def midgame(players: int, seed: int, steps: int) -> WhiteCastleState:
    """A White Castle position after `steps` random decisions."""
    state = GAME.new_game(players, seed)
    rng = Rng(seed + 100)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_ids()))
    return state


def with_hidden_parts_changed(state: WhiteCastleState, seed: int) -> WhiteCastleState:
    """The same public position with other deck orders and another dice RNG."""
    other = state.clone()
    rng = Rng(seed)
    rng.shuffle(other.steward_deck)
    rng.shuffle(other.diplomat_deck)
    face = solo.top_face(state)  # the Solitaire deck's top is face up: it stays
    rng.shuffle(other.solo_deck)
    solo.keep_top_face(other, face)
    other.rng = Rng(seed * 31 + 7)
    return other


def test_every_registry_name_builds_an_agent() -> None:
    """random, greedy, mcts and the six levels are known to make_agent."""
    levels = ("easy", "normal", "fast", "hard", "learned", "expert")
    for name in ("random", "greedy", "mcts", *levels):
        agent = make_agent(name, 1)
        assert isinstance(agent, Agent)
    assert set(LEVELS) == set(levels)
    assert {*levels, "greedy", "mcts", "random"} <= set(AGENTS)
    assert make_agent(" Hard ", 0).name == "hard"


def test_unknown_agent_names_are_refused_with_the_known_ones() -> None:
    """A typo lists the names that exist."""
    with pytest.raises(KamonError,
                       match="known agents: random, greedy, mcts, easy, normal, fast, hard, "
                             "learned, expert"):
        make_agent("grandmaster", 0)


@pytest.mark.parametrize("kind", sorted(BUILDERS))
def test_agents_only_return_legal_actions(kind: str) -> None:
    """At many positions of two player counts, the choice is one of legal_actions()."""
    for players, seed in ((2, 1), (4, 2)):
        state = GAME.new_game(players, seed)
        bots = [BUILDERS[kind](seed * 10 + p) for p in range(players)]
        rng = Rng(seed)
        for step in range(60):
            p = state.to_move
            assert p is not None
            action = bots[p].act(state)
            assert action in state.legal_actions()
            # mix in random moves so the agents meet varied positions quickly
            state.apply(action if step % 2 else rng.choice(state.legal_actions()))


@pytest.mark.parametrize("kind", ["greedy", "mcts-random", "mcts-greedy"])
def test_the_same_seed_gives_the_same_choices(kind: str) -> None:
    """Two agents built from one seed choose alike, decision after decision."""
    a, b = BUILDERS[kind](42), BUILDERS[kind](42)
    for steps in (0, 9, 25, 60, 90):
        state = midgame(3, 5, steps)
        assert a.act(state) == b.act(state)


@pytest.mark.parametrize("kind", ["greedy1", "greedy", "mcts-random", "mcts-greedy", "fast",
                                  "learned"])
def test_a_choice_does_not_depend_on_the_hidden_deck_order_or_dice(kind: str) -> None:
    """Same public view, different hidden deck order and RNG: the same action."""
    checked = 0
    for seed, steps in ((1, 20), (2, 45), (3, 70), (4, 100)):
        state = midgame(4, seed, steps)
        if state.is_over() or len(state.legal_actions()) < 2:
            continue
        other = with_hidden_parts_changed(state, seed)
        assert other.steward_deck != state.steward_deck or other.diplomat_deck != \
            state.diplomat_deck
        assert other.view(0) == state.view(0)
        assert BUILDERS[kind](7).act(state) == BUILDERS[kind](7).act(other)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("kind", ["greedy", "mcts-greedy"])
def test_an_agent_never_changes_the_state_it_is_shown(kind: str) -> None:
    """act() searches copies: the real state is byte-identical afterwards."""
    state = midgame(3, 8, 30)
    before = state.dumps()
    BUILDERS[kind](3).act(state)
    assert state.dumps() == before


def test_a_full_game_with_each_level_completes(monkeypatch: pytest.MonkeyPatch) -> None:
    """easy, normal and hard (at a test budget) play a 3-player game to the end."""
    monkeypatch.setattr(agents_pkg, "HARD_ITERATIONS", 12)
    state = GAME.new_game(3, 9)
    bots = [make_agent(name, p) for p, name in enumerate(("easy", "normal", "hard"))]
    _play(state, bots)
    assert len(state.history) > 50
    assert len(state.winners()) == 1


def test_a_solo_game_with_a_level_completes() -> None:
    """A level plays the solo game (its only seat) against the Tokugawa rival."""
    state = GAME.new_game(1, 4, difficulty="hard")
    _play(state, [make_agent("normal", 1)])
    assert len(state.scores()) == 2 and state.winners()


def test_greedy_beats_random_players() -> None:
    """Greedy wins a 4-player game against three random agents (a smoke test of strength)."""
    wins = 0
    for seed in range(3):
        state = GAME.new_game(4, seed)
        bots: list[Agent] = [RandomAgent(seed * 4 + p) for p in range(4)]
        bots[seed % 4] = GreedyAgent(seed)
        _play(state, bots)
        wins += state.winners() == [seed % 4]
    assert wins >= 2


def test_mcts_budget_is_required_and_rollout_is_checked() -> None:
    """MCTS needs an iteration or time budget and a known rollout policy."""
    with pytest.raises(ValueError, match="budget"):
        MCTSAgent(0, iterations=None, seconds=None)
    with pytest.raises(ValueError, match="rollout"):
        MCTSAgent(0, rollout="clever")
    with pytest.raises(ValueError, match="depth"):
        GreedyAgent(0, depth=0)


def test_mcts_time_budget_stops_in_time() -> None:
    """A seconds budget ends the search (iterations may then vary by machine)."""
    state = midgame(4, 3, 10)
    agent = MCTSAgent(1, iterations=None, seconds=0.05, rollout="random")
    action = agent.act(state)
    assert action in state.legal_actions()
    assert agent.last_iterations >= 1


def test_level_budgets_are_weighted_by_the_games_iteration_cost() -> None:
    """scale_budget divides the iterations by the game's mcts_iteration_weight (3 here)."""
    state = midgame(4, 3, 12)
    agent = MCTSAgent(1, iterations=60, scale_budget=True)
    agent.act(state)
    assert agent.last_iterations == 20
    plain = MCTSAgent(1, iterations=60, tree_priors=False, prior=False)
    plain.act(state)
    assert plain.last_iterations == 60


def test_agents_refuse_a_finished_game() -> None:
    """Asking any agent to move after the end is a clear error."""
    state = midgame(2, 1, 10_000)
    assert state.is_over()
    for build in (RandomAgent, GreedyAgent, tiny_mcts):
        with pytest.raises(KamonError):
            build(0).act(state)


def _play(state: State, bots: list[Agent]) -> State:
    """Play to the end with one bot per seat."""
    while not state.is_over():
        p = state.to_move
        assert p is not None
        state.apply(bots[p].act(state))
    return state
