"""What a game declares besides its rules: a base for a game's entry point (`GAME`) with
its extension slots, and the one loader of the slots a game fills with a module of its
own package.

A game's class sets its name, title, player counts, action space and `options` (an
`OptionSchema`), and fills the slots it has: each is an attribute of the game, None when
the game has none, so the rest of kamon asks `game.evaluation`, `game.hidden_key`,
`game.observation`... and never looks a module up by its name. A slot that needs a
module of the game's own folder (heavy ones: numpy tables, the evaluation's weights) is
declared with `lazy(".module")` or `lazy(".module", "name")` and imported on first use.

The slots (docs/adding-a-game.md says what each is for and what the contract suite then
checks):

- `evaluation`: the search hooks (`kamon.agents.base` lists them: values, candidates,
  determinize, sampler...);
- `hidden_key(state) -> tuple`: everything the state hides (deck orders, hole cards, the
  random generator), one part per item; `same_view_for_every_seat`: no seat sees what
  another does not (the server then builds one view a move);
- `observation`: the research interfaces' vector (`kamon.core.layout.Observation`);
- `chance_piles(state) -> [PileSpec]`: the hidden piles explicit chance draws lazily
  (`kamon.core.chance`; none: the generator is the only randomness after the deal);
- `features`: the simulation results' extra columns (`kamon.core.game.Features`);
- `component_texts() -> dict`: words for every component (the browser's);
- `recent`: `party_turns(state, log)`, the last turns of parties without a seat;
- `stats`: `game_stats(state, actions)`, a finished game's statistics;
- `presentation`: the lobby's words (pitch, players, length);
- `web`: the folder of the browser's files (board.js, board.css, help.js, tutorial.js,
  lobby.svg), served under /static/games/<name>/;
- `score_labels`: words for the score categories;
- `card_values`: where `kamon effects` finds the cards it changes by default: the data
  file in the game's package, the value's path (`*` the card id), the results column of
  their holders and, optionally, the (field, value) a card must have;
- `selfplay_setups`: the set-ups a training run deals in turn, `(players, options)`
  each (none: the default player count with what it needs).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kamon.core.options import OptionSchema
from kamon.core.protocol import State


class lazy:  # noqa: N801 - used as a declaration, like `property`
    """A slot filled from a module of the game's own package, imported on first use:
    `lazy(".evaluation")` is the module, `lazy(".hidden", "hidden_key")` a name in it."""

    def __init__(self, module: str, name: str | None = None) -> None:
        """A module path relative to the game's package, and a name in it (or None)."""
        self.module = module
        self.name = name
        self.attr = ""

    def __set_name__(self, owner: type, attr: str) -> None:
        """Remember the attribute it fills (its value is kept there once loaded)."""
        self.attr = attr

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        """The module (or the name in it), imported once and then kept on the instance."""
        if instance is None:
            return self
        module = importlib.import_module(self.module, _package(type(instance)))
        value = module if self.name is None else getattr(module, self.name)
        instance.__dict__[self.attr] = value
        return value


def _registered_game(name: str) -> Any:
    """The registered game of that name (how a pickled game is loaded)."""
    from kamon.core.registry import get_game

    return get_game(name)


def _package(cls: type) -> str:
    """The package a game class lives in (its module's, or its own if it is one)."""
    module = importlib.import_module(cls.__module__)
    return cls.__module__ if hasattr(module, "__path__") else cls.__module__.rpartition(".")[0]


FEATURE_KINDS = ("str", "int")


def _none(start: State, end: State) -> list[dict[str, Any]]:
    """No extra columns: one empty dict per clan."""
    return [{} for _ in end.scores()]


@dataclass(frozen=True)
class Features:
    """A game's extra simulation result columns: their kinds ("str" or "int"), how to
    read them from a game's start and end (one dict per clan) and the report's groupings."""

    columns: Mapping[str, str] = field(default_factory=dict)
    extract: Callable[[State, State], list[dict[str, Any]]] = _none
    report: Sequence[Mapping[str, Any]] = ()

    def __post_init__(self) -> None:
        """Refuse a column of another kind (the results' schema has only these two)."""
        for col, kind in self.columns.items():
            if kind not in FEATURE_KINDS:
                raise ValueError(f"feature column {col!r} has kind {kind!r}, not one of "
                                 f"{FEATURE_KINDS}")


NO_FEATURES = Features()


class GameBase:
    """The declarations every game's entry point has, with the slots empty; a game's
    class sets what it has. `options` validates `new_game`'s options (`checked`)."""

    name: str
    title: str
    min_players: int
    max_players: int
    num_actions: int
    options: OptionSchema
    default_players: int = 4  # the count tools use when none is given (OpenSpiel, simulate)
    aliases: tuple[str, ...] = ()

    evaluation: Any = None
    hidden_key: Callable[[Any], tuple[Any, ...]] | None = None
    same_view_for_every_seat: bool = False
    chance_piles: Callable[[Any], Sequence[Any]] | None = None
    observation: Any = None
    features: Features = NO_FEATURES
    component_texts: Callable[[], dict[str, Any]] | None = None
    recent: Any = None
    stats: Any = None
    presentation: Mapping[str, str] = {}
    score_labels: Mapping[str, str] = {}
    card_values: Mapping[str, Any] | None = None
    selfplay_setups: Sequence[tuple[int, Mapping[str, Any]]] = ()

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as its name, loaded from the registry again: its lazy slots keep
        modules on the instance once used, and a module cannot be pickled."""
        return _registered_game, (self.name,)

    def training_setups(self) -> list[tuple[int, dict[str, Any]]]:
        """The set-ups a training run deals in turn (`selfplay_setups`, else the default
        player count with the options it needs)."""
        return [(n, dict(o)) for n, o in self.selfplay_setups] or [
            (self.default_players, dict(self.options.forced(self.default_players)))]

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser files (`web/` in its package), if it has one."""
        folder = Path(importlib.import_module(_package(type(self))).__file__ or "").parent
        return folder / "web" if (folder / "web").is_dir() else None

    def checked(self, players: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """The player count and options checked against `options` (ValueError or
        DataError saying what is wrong), in the form a game and its record keep them."""
        return self.options.validate(players, options)

    def setup_words(self, players: int, options: Mapping[str, Any]) -> str:
        """A game's set-up in a few words (the lobby's lists): the count, then the words
        of each option set."""
        parts = [f"{players} players"]
        for name, value in options.items():
            opt = self.options.get(name)
            if opt is None or opt.who != "player":
                continue
            choice = opt.choice(value)
            parts.append(choice.label if choice is not None else
                         opt.words if value is True else f"{opt.words}: {value}")
        return " · ".join(parts)
