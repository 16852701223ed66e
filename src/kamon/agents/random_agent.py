"""The random agent: a uniformly random legal move, reproducible from its seed.

It is the baseline every other agent is measured against and the workhorse of
fuzzing and simulation, so it sees a game only through the public protocol
(`legal_actions`) and draws from kamon's own seeded RNG.
"""

from __future__ import annotations

from kamon.core.errors import KamonError
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng


class RandomAgent:
    """Chooses uniformly among the legal actions; the same seed gives the same choices."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        """Start the agent's own RNG from `seed`."""
        self.seed = seed
        self.rng = Rng(seed)

    def act(self, state: State) -> Action:
        """A uniformly random legal action of the seat to move."""
        legal = state.legal_actions()
        if not legal:
            raise KamonError("the random agent was asked to move, but no action is legal "
                             "(is the game over?)")
        return self.rng.choice(legal)

    def __repr__(self) -> str:
        """The agent and its seed, for logs."""
        return f"RandomAgent(seed={self.seed})"
