"""The bots on I, Clansman: legal, reproducible, blind to the piles' order, every level plays."""

from __future__ import annotations

import pytest

import kamon.agents as agents_pkg
from kamon.agents import Agent, GreedyAgent, MCTSAgent, RandomAgent, make_agent
from kamon.core.rng import Rng
from kamon.games.clansman import GAME
from kamon.games.clansman.state import ClansmanState


def midgame(seed: int, steps: int, **options: object) -> ClansmanState:
    """A position after `steps` random decisions."""
    state = GAME.new_game(4, seed, **options)
    rng = Rng(seed + 50)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_ids()))
    return state


def build(kind: str, seed: int) -> Agent:
    """greedy, the fast level, the learned level's search or an MCTS agent with a
    test-sized budget."""
    if kind == "greedy":
        return GreedyAgent(seed)
    if kind == "fast":
        return make_agent("fast", seed)
    if kind == "learned":
        from kamon.learn.agents import guided_search

        return guided_search(seed, 60)
    return MCTSAgent(seed, iterations=30)


@pytest.mark.parametrize("kind", ["greedy", "mcts", "fast", "learned"])
def test_agents_only_return_legal_actions(kind: str) -> None:
    """At every decision of a game (half of them taken by the agent) the choice is legal."""
    state = GAME.new_game(4, 3)
    bots = [build(kind, p) for p in range(4)]
    rng = Rng(3)
    step = 0
    while not state.is_over() and step < 120:
        p = state.to_move
        assert p is not None
        action = bots[p].act(state)
        assert action in state.legal_actions()
        state.apply(action if step % 2 else rng.choice(state.legal_actions()))
        step += 1


@pytest.mark.parametrize("kind", ["greedy", "mcts", "fast", "learned"])
def test_a_choice_does_not_depend_on_the_piles_order_or_the_rng(kind: str) -> None:
    """Same public view, other century-pile order and RNG: the same action."""
    checked = 0
    for seed, steps in ((1, 5), (2, 40), (3, 90), (4, 150)):
        state = midgame(seed, steps)
        if state.is_over() or len(state.legal_actions()) < 2:
            continue
        other = state.clone()
        for k, pile in enumerate(other.piles):
            Rng(seed * 10 + k).shuffle(pile)
        other.rng = Rng(seed * 77)
        assert other.view(0) == state.view(0)
        assert build(kind, 9).act(state) == build(kind, 9).act(other)
        checked += 1
    assert checked >= 3


def test_the_same_seed_gives_the_same_choices() -> None:
    """Two MCTS agents from one seed agree along a game."""
    for steps in (0, 30, 70):
        state = midgame(6, steps)
        assert build("mcts", 4).act(state) == build("mcts", 4).act(state)


def test_a_full_game_with_each_level_completes(monkeypatch: pytest.MonkeyPatch) -> None:
    """easy, normal, hard (test budget) and random play an Expert game to the end."""
    monkeypatch.setattr(agents_pkg, "HARD_ITERATIONS", 10)
    state = GAME.new_game(4, 7, expert=True, emperor_side="B")
    bots = [make_agent(name, p) for p, name in enumerate(("easy", "normal", "hard", "random"))]
    while not state.is_over():
        p = state.to_move
        assert p is not None
        state.apply(bots[p].act(state))
    assert state.winners()


def test_greedy_beats_random_players() -> None:
    """Greedy wins 4-player Beginner games against three random agents."""
    wins = 0
    for seed in range(3):
        state = GAME.new_game(4, seed)
        bots: list[Agent] = [RandomAgent(seed * 4 + p) for p in range(4)]
        bots[seed % 4] = GreedyAgent(seed)
        while not state.is_over():
            p = state.to_move
            assert p is not None
            state.apply(bots[p].act(state))
        wins += (seed % 4) in state.winners()
    assert wins >= 2
