"""Plug-in agents for tests/agents/test_plugins.py and tests/server/test_plugin_bots.py,
loaded by spec (`tests.agents.plugin_agents:FirstLegal` or this file's path)."""

from __future__ import annotations

from typing import Any


class FirstLegal:
    """Plays the first legal action (an Action)."""

    name = "first-legal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, state: Any) -> Any:
        """The first of state.legal_actions()."""
        return state.legal_actions()[0]


class LastLegalId:
    """Plays the last legal action, by its id (an int); has no name of its own."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def act(self, state: Any) -> int:
        """The id of the last legal action."""
        return int(state.legal_actions()[-1].id)


class Illegal:
    """Plays an action id that is never legal now (the smallest id that is not)."""

    name = "illegal"
    calls = 0  # decisions asked of any Illegal agent in this process

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, state: Any) -> int:
        """The smallest action id not among the legal ones."""
        Illegal.calls += 1
        legal = {a.id for a in state.legal_actions()}
        return next(i for i in range(10**6) if i not in legal)


class Meddler:
    """Applies a move to the state it is given, then answers with nonsense."""

    name = "meddler"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, state: Any) -> str:
        """Play on the state it was handed, then answer a string."""
        state.apply(state.legal_actions()[0])
        return "take everything"


def first_legal_factory(seed: int) -> FirstLegal:
    """A factory (not a class) of FirstLegal agents."""
    agent = FirstLegal(seed)
    agent.name = "factory-first"
    return agent


class NoSeed:
    """Cannot be built with seed=."""

    name = "no-seed"

    def __init__(self) -> None:
        pass

    def act(self, state: Any) -> Any:
        """The first legal action."""
        return state.legal_actions()[0]


class NoAct:
    """Built fine, but has no act()."""

    name = "no-act"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed


class Exploding:
    """Its constructor fails."""

    def __init__(self, seed: int = 0) -> None:
        raise RuntimeError("out of coffee")


NOT_A_CLASS = 42
