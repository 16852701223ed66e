"""Agents: programs that choose moves through the core protocol only.

`make_agent(name, seed)` builds one by name (the names the CLI's `--seats` and
`--agents` accept); `agent_seed(game_seed, seat)` derives a per-seat seed so a
whole simulated game is reproducible from its game seed alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from kamon.agents.random_agent import RandomAgent
from kamon.core.errors import KamonError
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng


@runtime_checkable
class Agent(Protocol):
    """Anything that picks a legal action for the seat to move."""

    name: str

    def act(self, state: State) -> Action:
        """The action to play now (one of `state.legal_actions()`)."""


AGENTS: dict[str, Callable[[int], Agent]] = {
    "random": RandomAgent,
}


def make_agent(name: str, seed: int) -> Agent:
    """A new agent by registry name; KamonError listing the known names otherwise."""
    key = name.strip().lower()
    factory = AGENTS.get(key)
    if factory is None:
        known = ", ".join(sorted(AGENTS))
        raise KamonError(f"unknown agent {name!r}; known agents: {known}")
    return factory(seed)


def agent_seed(game_seed: int, seat: int) -> int:
    """A seat's agent seed derived from the game seed (distinct per seat, reproducible)."""
    return Rng((game_seed * 0x2545F4914F6CDD1D + seat + 1) & ((1 << 64) - 1)).next_u64()


__all__ = ["AGENTS", "Agent", "RandomAgent", "agent_seed", "make_agent"]
