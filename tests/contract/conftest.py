"""The `game` fixture: every game registered in `kamon.games`, in each of its set-ups.

A registered game is tested by existing: each player count it can be played with (the
variant a count needs set, `OptionSchema.forced`), and the set-ups its option schema
makes worth testing apart (`OptionSchema.setups`: each option a player may set at its last
value, with what it requires: the solo difficulty, the first game, Expert and its Emperor
cards, the small-table variant). A game's own conservation checks,
`invariants(start)` in tests/<its folder>/invariants.py, are found by its folder and run
after every move of the contract's random play. A game with none still gets every contract test, checked through the protocol and its
slots alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from kamon.core.protocol import Game, State
from kamon.core.rng import Rng
from kamon.games import games, get_game

Check = Callable[[State, str], None]


def own_invariants(game: Game, start: State) -> Check | None:
    """A game's own checks after every move: `invariants(start)` of
    tests/<its folder>/invariants.py, if it has one (a game's test folder plugs them in
    with no edit here); None for a game with none."""
    module_name = type(game).__module__
    if not module_name.startswith("kamon.games."):
        return None
    folder = module_name.split(".")[2]
    try:
        module = importlib.import_module(f"tests.{folder}.invariants")
    except ModuleNotFoundError as e:
        if e.name not in (f"tests.{folder}", f"tests.{folder}.invariants"):
            raise
        return None
    made: Check = module.invariants(start)
    return made


def canonical(state: State) -> str:
    """The whole state as canonical JSON text: equal text, equal state (protocol only)."""
    import json
    return json.dumps(state.to_json(), sort_keys=True)


def ids_of(state: State) -> list[int]:
    """The legal action ids, through the protocol's `legal_actions`."""
    return [a.id for a in state.legal_actions()]


def check_protocol(state: State, where: str) -> None:
    """What holds of any state between moves: a decision exists exactly until the end,
    by a seat of the game, among ids of the game's fixed action space."""
    legal = ids_of(state)
    if state.is_over():
        assert state.to_move is None and legal == [], f"{where}: over but {legal[:5]} legal"
    else:
        assert state.to_move in range(state.num_players), f"{where}: to_move {state.to_move}"
        assert legal and len(set(legal)) == len(legal), f"{where}: legal ids {legal}"


@dataclass(frozen=True)
class GameSetup:
    """One registered game in one set-up: its entry point, player count and options."""

    name: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def entry(self) -> Game:
        """The game's GAME object (from the registry)."""
        return get_game(self.name)

    @property
    def id(self) -> str:
        """A short test id: 'clansman-4p-expert=True'."""
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name}-{self.players}p" + (f"-{opts}" if opts else "")

    def new(self, seed: int) -> State:
        """A new game of this set-up."""
        return self.entry.new_game(self.players, seed, **self.options)

    def checker(self, start: State) -> Check:
        """Every check to run after a move: the protocol's, then the game's own if any."""
        own = own_invariants(self.entry, start)

        def check(state: State, where: str) -> None:
            check_protocol(state, where)
            if own is not None:
                own(state, where)
        return check

    def random_moves(self, seed: int) -> list[int]:
        """The action ids of a whole game of uniform random choices with Rng(seed)."""
        state = self.new(seed)
        rng = Rng(seed)
        moves: list[int] = []
        while not state.is_over():
            legal = ids_of(state)
            moves.append(legal[rng.below(len(legal))])
            state.apply(moves[-1])
        return moves

    def positions(self, seeds: range, every: int) -> Iterator[tuple[State, int, str]]:
        """Every `every`-th decision (shifted by the seed) of seeded random games, and each
        game's end: the live state (the caller changes only clones), its game's seed and
        where it is in words."""
        for seed in seeds:
            state = self.new(seed)
            for i, aid in enumerate(self.random_moves(seed)):
                if i % every == seed % every:
                    yield state, seed, f"{self.id} seed {seed} decision {i}"
                state.apply(aid)
            yield state, seed, f"{self.id} seed {seed} at the end"


def all_setups() -> list[GameSetup]:
    """Each registered game at each of its player counts, then the set-ups its option
    schema makes (none twice)."""
    out: list[GameSetup] = []
    for name, game in games().items():
        schema = game.options
        for setup in [(n, schema.forced(n)) for n in schema.counts()] + schema.setups():
            made = GameSetup(name, setup[0], dict(setup[1]))
            if made not in out:
                out.append(made)
    return out


SETUPS = all_setups()


@pytest.fixture(params=SETUPS, ids=[s.id for s in SETUPS])
def game(request: pytest.FixtureRequest) -> GameSetup:
    """Each registered game in each of its set-ups."""
    setup: GameSetup = request.param
    return setup


OBSERVED_SETUPS = [s for s in SETUPS if s.entry.observation is not None]


@pytest.fixture(params=OBSERVED_SETUPS, ids=[s.id for s in OBSERVED_SETUPS])
def observed_game(request: pytest.FixtureRequest) -> GameSetup:
    """Each set-up of the games with an `observation` slot (the research interfaces')."""
    setup: GameSetup = request.param
    return setup


def play_on(state: State, rng: Rng, check: Check | None = None, where: str = "") -> None:
    """Play uniform random choices to the end, checking after every move when asked."""
    while not state.is_over():
        legal = ids_of(state)
        state.apply(legal[rng.below(len(legal))])
        if check is not None:
            check(state, f"{where} after {len(state.history)} moves")
