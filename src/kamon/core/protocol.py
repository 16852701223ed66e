"""The contract between games and everything else (agents, sim, server, CLI).

A game module exposes `GAME` (a `Game`); `GAME.new_game(players, seed, **options)`
returns a `State`. Turns are split into atomic decisions; each legal choice is an
`Action` with a stable integer id (inside `GAME.num_actions`) and a notation
that `GAME.parse_action` reads back.

Examples:
    A game through the protocol (The White Castle, two players, seed 1):

    >>> from kamon.games import get_game
    >>> game = get_game("white-castle")
    >>> state = game.new_game(2, seed=1)
    >>> state.decision_text(), [str(a) for a in state.legal_actions()]
    ('blue chooses a starting pair', ['draft 1', 'draft 2', 'draft 3'])
    >>> move = game.parse_action(state, "draft 2")
    >>> move
    Action(id=78, text='draft 2')
    >>> state.apply(move)
    >>> state.history, state.to_move, state.decision_text()
    ([78], 0, 'blue chooses a resource (1 to go)')

    A move that is not legal now is refused with the reason, and changes nothing:

    >>> state.apply(move)
    Traceback (most recent call last):
    ...
    kamon.core.errors.IllegalAction: 'draft 2' is not legal now: blue chooses a resource (1 to go)
    >>> state.history
    [78]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from kamon.core.errors import IllegalAction
from kamon.core.loading import show
from kamon.core.rng import Rng

if TYPE_CHECKING:
    from kamon.core.options import OptionSchema


@dataclass(frozen=True, slots=True)
class Action:
    """One atomic decision: a stable id in the game's action space and its notation.

    Examples:
        >>> move = Action(78, "draft 2")
        >>> str(move), move.id, move == Action(78, "draft 2")
        ('draft 2', 78, True)
    """

    id: int
    text: str

    def __str__(self) -> str:
        return self.text


@runtime_checkable
class State(Protocol):
    """A game in progress. `apply` mutates; everything else only reads."""

    seed: int  # the seed it was set up with (its record's; fixes every shuffle and roll,
    # so no view shows it): what a research interface replays the deal from

    @property
    def to_move(self) -> int | None:
        """The seat that decides now, or None when the game is over."""

    @property
    def num_players(self) -> int:
        """How many seats the game has."""

    @property
    def options(self) -> dict[str, Any]:
        """The options the game was set up with (as stored in its record)."""

    @property
    def events(self) -> list[str]:
        """What happened so far, in words, oldest first."""

    @property
    def history(self) -> list[int]:
        """Action ids applied since setup, in order (the record's action list)."""

    def legal_actions(self) -> list[Action]:
        """Every legal choice of `to_move` now (empty only when the game is over)."""

    def apply(self, action: Action | int) -> None:
        """Perform the action; raises IllegalAction and changes nothing if it is not legal."""

    def clone(self) -> State:
        """An independent copy (for search)."""

    def is_over(self) -> bool:
        """True once the final scores are known."""

    def scores(self) -> list[dict[str, int]]:
        """Per seat, the score by category plus 'total'."""

    def winners(self) -> list[int]:
        """The winning seat(s) after tie-breaks (empty before the end)."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None = a spectator): hidden information redacted. Two keys
        are reserved: a view's `scores`, if it has one, is `scores()` and its `decision`
        is `decision_text()` (the server reuses them; the contract suite checks it)."""

    def determinize(self, seat: int | None, rng: Rng | random.Random) -> State:
        """A full state consistent with `view(seat)`, hidden parts re-sampled."""

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data (GAME.from_json reverses it)."""

    def name(self, seat: int) -> str:
        """A seat's name in the game's terms (a clan colour, say)."""

    def decision_text(self) -> str:
        """What is being decided now, in words (for every front end)."""

    def describe(self, action_id: int) -> str:
        """What choosing this action now would do, in words."""

    @property
    def game(self) -> Game:
        """The game this state is a position of (its entry point, with its slots)."""


@runtime_checkable
class Game(Protocol):
    """A game's entry point: its name, player counts, options (a typed schema,
    `kamon.core.options`), action space, and its extension slots (`kamon.core.game`:
    each None when the game has none)."""

    @property
    def name(self) -> str:
        """The registry name ('white-castle')."""

    @property
    def title(self) -> str:
        """The title people read ('The White Castle')."""

    @property
    def min_players(self) -> int:
        """The fewest players of the official game."""

    @property
    def max_players(self) -> int:
        """The most players of the official game."""

    @property
    def default_players(self) -> int:
        """The player count tools use when none is given."""

    @property
    def num_actions(self) -> int:
        """The size of the fixed action space."""

    @property
    def options(self) -> OptionSchema:
        """The options, declared (`kamon.core.options.OptionSchema`)."""

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names that find the game."""

    @property
    def evaluation(self) -> Any:
        """Slot: the search's evaluation hooks (`kamon.agents.base`), or None."""

    @property
    def hidden_key(self) -> Callable[[Any], tuple[Any, ...]] | None:
        """Slot: everything a state hides, one part per item, or None."""

    @property
    def same_view_for_every_seat(self) -> bool:
        """Slot: no seat sees what a spectator does not."""

    @property
    def observation(self) -> Any:
        """Slot: the research interfaces' vector (`kamon.core.layout.Observation`), or None."""

    @property
    def features(self) -> Any:
        """Slot: the simulation results' extra columns (`kamon.core.game.Features`)."""

    @property
    def component_texts(self) -> Callable[[], dict[str, Any]] | None:
        """Slot: words for every component, or None."""

    @property
    def recent(self) -> Any:
        """Slot: the last turns of parties without a seat, or None."""

    @property
    def stats(self) -> Any:
        """Slot: a finished game's statistics, or None."""

    @property
    def presentation(self) -> Mapping[str, str]:
        """Slot: the lobby's words (pitch, players, length)."""

    @property
    def score_labels(self) -> Mapping[str, str]:
        """Slot: words for the score categories."""

    def training_setups(self) -> list[tuple[int, dict[str, Any]]]:
        """The set-ups a training run deals in turn, `(players, options)` each."""

    @property
    def web(self) -> Path | None:
        """The folder of the game's browser files, if it has one."""

    def new_game(self, players: int, seed: int, **options: Any) -> State:
        """Set up a new game (all randomness from `seed`)."""

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action written as `text` (notation or id); IllegalAction if none."""

    def action_text(self, action_id: int) -> str:
        """The notation of an action id."""

    def from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from `State.to_json()` output; RecordError if malformed."""

    def render_text(self, state: State, seat: int | None) -> Any:
        """A Rich renderable of the board as `seat` sees it (for the terminal)."""

    def describe_options(self, options: Mapping[str, Any]) -> Sequence[str]:
        """Lines describing a game's options (and data provenance) for a setup line."""

    def setup_words(self, players: int, options: Mapping[str, Any]) -> str:
        """A game's set-up in a few words (the lobby's lists)."""


# Digits an action id written as text may have (no game has a billion actions).
MAX_ID_DIGITS = 9


def parse_notation(state: State, text: str, by_text: Mapping[str, int],
                   actions: Sequence[Action], title: str) -> Action:
    """The legal action written as `text` (notation in any case/spacing, or an integer id).

    Shared by every game's `parse_action`; IllegalAction lists the legal moves when the
    text names no action, and gives the game's own reason when it names an illegal one.

    Examples:
        >>> from kamon.games import get_game
        >>> game = get_game("white-castle")
        >>> state = game.new_game(2, seed=1)
        >>> game.parse_action(state, "  Draft   2 ")
        Action(id=78, text='draft 2')
        >>> game.parse_action(state, "78")
        Action(id=78, text='draft 2')
        >>> game.parse_action(state, "dance")
        Traceback (most recent call last):
        ...
        kamon.core.errors.IllegalAction: 'dance' is not an action of The White Castle; legal now: draft 1, draft 2, draft 3
    """
    t = " ".join(str(text).strip().lower().split())
    aid = by_text.get(t)
    digits = t[1:] if t.startswith("-") else t
    if aid is None and digits.isascii() and digits.isdigit() and len(digits) <= MAX_ID_DIGITS:
        aid = int(t)  # an id: ASCII digits only, and never a number too long to be one
    if aid is None:
        raise IllegalAction(f"'{text}' is not an action of {title}; legal now: "
                            + ", ".join(a.text for a in state.legal_actions()))
    if aid not in {a.id for a in state.legal_actions()}:
        why = getattr(state, "why_illegal", None)
        raise IllegalAction(why(aid) if callable(why) else
                            f"'{text}' is not legal now")
    return actions[aid]


class DecisionState:
    """Shared machinery of a game state: a legal-action cache and the apply template.

    A game's state class inherits it and provides `ACTIONS` (its action table),
    `_compute_legal()`, `_do(aid)` (perform a legal action), `_advance()` (run the
    steps that need no decision) and `why_illegal(aid)`; `_legal` and `history` are
    its slots. `apply` validates before it mutates, so a refused action changes nothing.
    """

    __slots__ = ("_legal", "history")
    ACTIONS: Sequence[Action]
    _legal: list[int] | None
    history: list[int]

    def _compute_legal(self) -> list[int]:
        raise NotImplementedError

    def _do(self, aid: int) -> None:
        raise NotImplementedError

    def _advance(self) -> None:
        raise NotImplementedError

    def why_illegal(self, aid: int) -> str:
        """Why an action id is not legal now (the game's own words)."""
        raise NotImplementedError

    def _legal_cached(self) -> list[int]:
        """The legal ids, computed once per decision (never handed out: callers get copies)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def legal_ids(self) -> list[int]:
        """Ids of the legal actions."""
        return self._legal_cached()[:]

    def legal_actions(self) -> list[Action]:
        """Every legal choice now."""
        acts = self.ACTIONS
        return [acts[i] for i in self._legal_cached()]

    def apply(self, action: Action | int) -> None:
        """Apply a legal action; IllegalAction (state untouched) otherwise."""
        aid = action.id if isinstance(action, Action) else action
        if type(aid) is not int:  # a bool, a float or a string that equals a legal id, too
            raise IllegalAction(f"{show(action)} is not an action (an Action or an integer "
                                "action id)")
        if aid not in self._legal_cached():
            raise IllegalAction(self.why_illegal(aid))
        self._legal = None
        self.history.append(aid)
        self._do(aid)
        self._advance()
