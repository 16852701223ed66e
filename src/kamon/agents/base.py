"""What search agents need from a game beyond the core protocol, with generic fallbacks.

A game's `evaluation` slot (`kamon.core.game`; a module of the game's own) may hold any of:

- `values(state) -> list[float]`: every clan's estimated final points (search rewards);
- `evaluate(state, seat) -> float`: how good the position is for the seat (greedy);
- `candidates(state) -> list[int]`: the legal action ids worth searching;
- `determinize(state, seat, rng) -> State`: a sample of the hidden information that
  depends on the seat's view and the rng only (not on the real hidden order);
- `fresh_evaluation() -> (values, evaluate)`: the two with shared memories, for the
  states of one search or one decision (all of one game), e.g. of the clans a move
  leaves unchanged; the same results, sooner;
- `fresh_search_evaluation(state) -> (values, evaluate)`: the same for an MCTS search
  of `state`'s game, when the search judges positions with other weights than greedy
  (default: `fresh_evaluation()`);
- `sampler(state, seat) -> (rng -> State)`: the same samples, with what they share
  prepared once (a search draws one per iteration from the same position);
- `greedy_depth: int`: how many of its own consecutive decisions greedy looks ahead
  (default 2; a large number means a whole run of own decisions, such as a turn);
- `root_prior_depth(state) -> int`: how many of its own decisions MCTS's root priors
  look ahead (default `greedy_depth`; The White Castle's solo game: a whole turn);
- `reward_temperature(state) -> float`: how many points of margin make MCTS's reward
  (a sigmoid of the margin) move by one unit there: the uncertainty of a margin;
- `turn(state) -> hashable`: which turn it is; greedy's lookahead stays within the
  turn it starts in (by default it stops only where another seat decides);
- `plan_key(state) -> hashable`: positions with equal keys are the same for greedy's
  lookahead (merges different orders of the same choices);
- `mcts_tree_priors: bool`: MCTS puts evaluation priors on every node, not only the
  root; `mcts_prior(state, seat) -> float` is the evaluation those priors use
  (default: read from `values()`, the mover's value minus `REL` times the best other's,
  which also scores each child's first visit);
- `REL: float`: the weight of the best other clan's value in a relative evaluation
  (default 0.5), for MCTS priors read from `values()`;
- `mcts_iteration_weight: float`: what one MCTS iteration costs in this game relative
  to the reference; agents built with `scale_budget=True` (the levels) divide their
  iteration budget by it, so a level thinks about as long in every game.

Without it, values are the current score totals (`scores()[q]['total']`), candidates
are all legal actions, and determinization is the state's own `determinize`. The game's
`hidden_key` slot (the hidden information as it stands: deck orders, the RNG) is the
search's `hidden` hook: a move that leaves it unchanged used none of it, so its outcome
is the same in every determinization (MCTS then keeps the position on its node instead
of replaying the moves on every iteration; without it, it replays them). The hooks come
from the state's game (`state.game`), so an agent needs no game name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kamon.core.protocol import State
from kamon.core.rng import Rng

DEFAULT_GREEDY_DEPTH = 2
DEFAULT_REL = 0.5  # weight of the best other clan's value in a relative evaluation


def _score_values(state: State) -> list[float]:
    """Current score totals of every clan (the generic value estimate)."""
    return [float(s["total"]) for s in state.scores()]


def _legal_ids(state: State) -> list[int]:
    """Legal action ids (through legal_ids() when the game has it)."""
    fn = getattr(state, "legal_ids", None)
    if callable(fn):
        return list(fn())
    return [a.id for a in state.legal_actions()]


def _determinize(state: State, seat: int | None, rng: Rng) -> State:
    """The state's own determinization."""
    return state.determinize(seat, rng)


def _sampler_of(determinize: Callable[[Any, int | None, Rng], Any]
                ) -> Callable[[Any, int | None], Callable[[Rng], Any]]:
    """sampler() from determinize(): nothing prepared, every sample made from scratch."""

    def sampler(state: Any, seat: int | None) -> Callable[[Rng], Any]:
        """Samples of `state` from `seat`'s view, one per rng."""
        return lambda rng: determinize(state, seat, rng)

    return sampler


@dataclass(frozen=True)
class GameHooks:
    """A game's evaluation hooks (or the generic fallbacks)."""

    values: Callable[[Any], list[float]]
    evaluate: Callable[[Any, int], float]
    candidates: Callable[[Any], list[int]]
    determinize: Callable[[Any, int | None, Rng], Any]
    has_evaluation: bool
    sampler: Callable[[Any, int | None], Callable[[Rng], Any]] | None = None
    fresh_evaluation: Callable[[], tuple[Callable[[Any], list[float]],
                                         Callable[[Any, int], float]]] | None = None
    fresh_search_evaluation: Callable[[Any], tuple[Callable[[Any], list[float]],
                                                   Callable[[Any, int], float]]] | None = None
    hidden: Callable[[Any], Any] | None = None
    turn: Callable[[Any], Any] | None = None
    temperature: Callable[[Any], float] | None = None
    greedy_depth: int = DEFAULT_GREEDY_DEPTH
    root_prior_depth: Callable[[Any], int] | None = None
    plan_key: Callable[[Any], Any] | None = None
    mcts_tree_priors: bool = False
    mcts_prior: Callable[[Any, int], float] | None = None
    mcts_iteration_weight: float = 1.0
    relative_weight: float = DEFAULT_REL


def _relative(values: Callable[[Any], list[float]]) -> Callable[[Any, int], float]:
    """evaluate() from values(): the seat's value minus half the best other's."""

    def evaluate(state: Any, seat: int) -> float:
        """The seat's value minus half the best other clan's."""
        vals = values(state)
        others = [v for q, v in enumerate(vals) if q != seat]
        return vals[seat] - 0.5 * max(others, default=0.0)

    return evaluate


_CACHE: dict[type, GameHooks] = {}


def hooks_for(state: State) -> GameHooks:
    """The evaluation hooks of the state's game (cached per state class)."""
    cls = type(state)
    found = _CACHE.get(cls)
    if found is not None:
        return found
    game = state.game
    module: Any = game.evaluation
    values = getattr(module, "values", None) or _score_values
    evaluate = getattr(module, "evaluate", None) or _relative(values)
    candidates = getattr(module, "candidates", None) or _legal_ids
    determinize = getattr(module, "determinize", None) or _determinize
    sampler = getattr(module, "sampler", None) or _sampler_of(determinize)
    fresh = getattr(module, "fresh_evaluation", None) or (lambda: (values, evaluate))
    found = GameHooks(values, evaluate, candidates, determinize,
                      has_evaluation=module is not None and hasattr(module, "values"),
                      sampler=sampler,
                      hidden=game.hidden_key,
                      turn=getattr(module, "turn", None),
                      temperature=getattr(module, "reward_temperature", None),
                      fresh_evaluation=fresh,
                      fresh_search_evaluation=getattr(module, "fresh_search_evaluation",
                                                      None) or (lambda state: fresh()),
                      greedy_depth=int(getattr(module, "greedy_depth", DEFAULT_GREEDY_DEPTH)),
                      root_prior_depth=getattr(module, "root_prior_depth", None),
                      plan_key=getattr(module, "plan_key", None),
                      mcts_tree_priors=bool(getattr(module, "mcts_tree_priors", False)),
                      mcts_prior=getattr(module, "mcts_prior", None),
                      mcts_iteration_weight=float(getattr(module, "mcts_iteration_weight",
                                                          1.0)),
                      relative_weight=float(getattr(module, "REL", DEFAULT_REL)))
    _CACHE[cls] = found
    return found


def require_seat(state: State) -> int:
    """The seat to move; a KamonError when the game is over."""
    from kamon.core.errors import KamonError

    seat = state.to_move
    if seat is None:
        raise KamonError("an agent was asked to move, but the game is over")
    return seat
