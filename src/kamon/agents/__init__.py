"""Agents: programs that choose moves through the core protocol only.

`make_agent(name, seed)` builds one by name (the names the CLI's `--seats` and
`--agents` accept); `agent_seed(game_seed, seat)` derives a per-seat seed so a
whole simulated game is reproducible from its game seed alone.

Agents: `random`; `greedy` (a short lookahead judged by the game's evaluation);
`mcts` (Information-Set MCTS, any game). Levels name an agent and its budget:
`easy`, `normal`, `fast`, `hard`, `learned`, `expert` (see LEVELS); `fast` and `learned`
play with the trained network of kamon.learn (docs/training.md). easy, normal and hard search with an
iteration budget, so they play the same moves for the same seed on any machine;
`expert` thinks for EXPERT_SECONDS of wall-clock time a decision instead (the most it
can in that time: stronger on a faster machine, and not reproducible from the seed).

Agents plugged in from outside (`kamon.agents.plugin`, docs/agents.md) have specs instead
of names: `module:Name`, `path/to/file.py:Name`, a MaskablePPO `policy.zip`, a torch
`model.pt`/`.pth`; `make_agent` builds them too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from kamon.agents.base import hooks_for
from kamon.agents.greedy import GreedyAgent
from kamon.agents.mcts import MCTSAgent, scaled_budget
from kamon.agents.random_agent import RandomAgent
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action for the seat to move."""

    name: str

    def act(self, state: State) -> Action:
        """The action to play now (one of `state.legal_actions()`)."""


@dataclass(frozen=True)
class Level:
    """A named difficulty: what it is (`summary`, the technical line), what it is to a
    player (`words`, plain words), and how to build it from a seed."""

    name: str
    summary: str
    build: Callable[[int], Agent]
    words: str = ""


def _named(agent: Agent, name: str) -> Agent:
    """The agent under a level's name (logs and tables show the level)."""
    agent.name = name
    return agent


def _easy(seed: int) -> Agent:
    """Level easy: greedy, but one decision in EASY_EPSILON chosen at random."""
    return _named(GreedyAgent(seed, epsilon=EASY_EPSILON), "easy")


def _normal(seed: int) -> Agent:
    """Level normal: greedy with the game's full lookahead."""
    return _named(GreedyAgent(seed), "normal")


def _hard(seed: int) -> Agent:
    """Level hard: ISMCTS with greedy priors, HARD_ITERATIONS (game-weighted) per decision,
    stopping once no other move can catch up with the most visited one."""
    return _named(MCTSAgent(seed, iterations=HARD_ITERATIONS, scale_budget=True,
                            stop_early=True), "hard")


def _fast(seed: int) -> Agent:
    """Level fast: greedy's lookahead made stronger at a few ms a decision (kamon.learn's
    FastAgent: the trained network's values mixed in, or a deeper look, per game)."""
    from kamon.learn.agents import FastAgent

    return _named(FastAgent(seed), "fast")


def _learned(seed: int) -> Agent:
    """Level learned: ISMCTS with the trained network's values mixed into the evaluation
    (LEARNED_VALUES) and its priors (LEARNED_PRIORS), LEARNED_ITERATIONS (game-weighted)
    per decision, stopping once decided."""
    from kamon.learn.agents import guided_search

    return _named(guided_search(seed, LEARNED_ITERATIONS, guide_values=LEARNED_VALUES,
                                guide_priors=LEARNED_PRIORS), "learned")


def _expert(seed: int) -> Agent:
    """Level expert: ISMCTS with greedy priors, EXPERT_SECONDS of wall-clock time a decision."""
    return _named(MCTSAgent(seed, iterations=None, seconds=EXPERT_SECONDS), "expert")


def _mcts(seed: int) -> Agent:
    """Plain mcts: ISMCTS with greedy priors, MCTS_ITERATIONS (game-weighted) per decision."""
    return MCTSAgent(seed, iterations=MCTS_ITERATIONS, scale_budget=True)


EASY_EPSILON = 0.25
# Reference iterations (plain ones); a game divides them by its mcts_iteration_weight:
# The White Castle 3.0 (hard: 5,400 iterations), I, Clansman 2.0 (hard: 8,100); hard stops
# sooner once no other move can catch up with the most visited one (the same move).
MCTS_ITERATIONS = 600
HARD_ITERATIONS = 16200  # about 0.8 CPU s per decision on one core, stopping once decided

EXPERT_SECONDS = 3.0  # wall-clock seconds per decision
# The guided search: its iterations cost more (a network evaluation at each new node), so
# it has fewer for about hard's thinking time (bench/bench_train.py measures both);
# the network's share of the priors and of the values (the rest: the hand evaluation).
LEARNED_ITERATIONS = 6000  # 2.5x hard's cost an iteration in I, Clansman (bench_train.py)
LEARNED_PRIORS = 0.0  # the hand priors: the network's policy is not yet a better prior
LEARNED_VALUES = 0.5

LEVELS: dict[str, Level] = {
    "easy": Level("easy", f"greedy, {EASY_EPSILON:.0%} of decisions at random", _easy,
                  f"a beginner: plays sensibly, but makes a random move one time in "
                  f"{round(1 / EASY_EPSILON)}"),
    "normal": Level("normal", "greedy (the game's lookahead and evaluation)", _normal,
                    "plays sensibly: takes the move that looks best a short way ahead, "
                    "within its own turn"),
    "fast": Level("fast", "greedy's lookahead, stronger: in I, Clansman the trained "
                          "network's value mixed into its evaluation, in The White Castle "
                          "a decision deeper for its three favourite moves; under 5 ms a "
                          "decision", _fast,
                  "a little better than normal and still answers at once: looks a short "
                  "way ahead, with a feel for the game learnt from thousands of games "
                  "the bots played"),
    "hard": Level("hard", f"ISMCTS with greedy priors, {HARD_ITERATIONS:,} reference "
                          "iterations a decision (a game divides them by its iteration "
                          "cost: under 1 s on one core)", _hard,
                  "plays well: tries out many ways the game could go, thinking up to "
                  "about a second a move"),
    "learned": Level("learned", f"ISMCTS with greedy priors and the trained network's "
                                f"values mixed into the evaluation, "
                                f"{LEARNED_ITERATIONS:,} reference iterations a decision "
                                "(a game divides them by its iteration cost)", _learned,
                     "plays well: tries out many ways the game could go, judging them "
                     "with a feel learnt from thousands of games the bots played, thinking "
                     "up to about a second a move"),
    "expert": Level("expert", f"ISMCTS with greedy priors, {EXPERT_SECONDS:g} s (wall clock) "
                              "per decision: the strongest; not reproducible from the seed",
                    _expert, f"the strongest: thinks {EXPERT_SECONDS:g} seconds a move (a "
                             "faster computer makes it stronger)"),
}

AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": _mcts,
    **{name: level.build for name, level in LEVELS.items()},
}


def level_summaries(state: State) -> dict[str, str]:
    """Each level's one-line description in the game of `state`, with the iterations it
    searches with there: the one place the lobby's words and the bot table of
    docs/playing.md come from."""
    weight = hooks_for(state).mcts_iteration_weight
    out = {name: level.summary for name, level in LEVELS.items()}
    out["hard"] = (f"ISMCTS with greedy priors, {scaled_budget(HARD_ITERATIONS, weight):,} "
                   "iterations per decision at most (it stops once the move is decided)")
    out["learned"] = (f"ISMCTS with greedy priors and the trained network's values mixed "
                      f"into the evaluation, {scaled_budget(LEARNED_ITERATIONS, weight):,} "
                      "iterations per decision at most (it stops once the move is decided)")
    return out


# What the seat kinds that are not levels are, in plain words (the lobby's first line).
OTHER_WORDS = {"human": "a person: you send them an invite link",
               "random": "no strategy at all: any legal move, at random"}


def level_words() -> dict[str, str]:
    """Each level in plain words, for a player choosing an opponent (the lobby's first
    line under a seat, `kamon games`); `level_summaries` is the technical line."""
    return {name: level.words for name, level in LEVELS.items()}


def make_agent(name: str, seed: int, *, game: str | None = None) -> Agent:
    """A new agent by registry name (any case), or a plug-in agent by its spec
    (`kamon.agents.plugin`: module:Name, path/to/file.py:Name, policy.zip, model.pt);
    `game` checks now that a policy fits that game. KamonError listing the known names
    and the plug-in forms otherwise, or saying what is wrong with a plug-in."""
    key = name.strip().lower()
    factory = AGENTS.get(key)
    if factory is not None:
        return factory(seed)
    from kamon.agents.plugin import build_plugin

    return build_plugin(name, seed, game=game)


def agent_spec(text: str) -> str:
    """An agent as the CLI and files name it: a registry name in lower case, a plug-in
    spec as given (its module, file and class names keep their case)."""
    key = text.strip()
    return key.lower() if key.lower() in AGENTS else key


def agent_seed(game_seed: int, seat: int) -> int:
    """A seat's agent seed derived from the game seed (distinct per seat, reproducible)."""
    return Rng((game_seed * 0x2545F4914F6CDD1D + seat + 1) & ((1 << 64) - 1)).next_u64()


__all__ = ["AGENTS", "EXPERT_SECONDS", "LEVELS", "OTHER_WORDS", "Agent", "GreedyAgent", "Level",
           "MCTSAgent", "RandomAgent", "agent_seed", "agent_spec", "level_summaries",
           "level_words", "make_agent"]
