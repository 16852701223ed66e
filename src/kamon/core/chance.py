"""Explicit chance nodes over any kamon state: `ChanceState`.

A kamon state rolls its dice and draws its cards inside `apply`, from a seeded generator
and from deck orders fixed at the deal, so the state itself holds the future. A
`ChanceState` holds none of it: the unseen part of every hidden pile is kept in a
canonical order (sorted), its generator is a constant, and the randomness a decision
consumes becomes a sequence of chance nodes with exact probabilities:

- every card the engine draws (or looks at) from a hidden pile: a node whose outcomes are
  the distinct cards still unseen in the pile, each `copies / unseen` likely; the chosen
  card is moved to the draw position just before the engine takes it (a lazy deck: the
  order of the undrawn cards is never fixed in advance);
- every `Rng.below(n)` the engine calls (every die, every draw of the generator; all of
  `Rng`'s draws come down to it): a node with `n` equally likely outcomes `0..n-1`;
- a shuffle of a hidden pile is no node at all: the pile just becomes unseen again
  (shuffling then drawing lazily is the same distribution);
- cards put on a pile (the Solitaire cards the rival turned go under its deck) stay
  known, in their order, until a shuffle: everyone saw them go there.

The piles are declared per game by its `chance_piles(state)` slot (`PileSpec`s: where the
pile is, which end is drawn, whether its top card lies face up); a game without the slot
has only generator randomness (Pig's die). The outcomes of a decision are found by
replaying it on a copy of the position before it, the outcomes chosen so far fed in
through a scripted generator and instrumented piles, until the engine asks for one not
yet chosen (the next node) or finishes (the decision is done). A node with one outcome
is taken at once. Randomness the engine draws any other way (`Rng.random`, `spawn`)
raises `ChanceError`: it could not be a node.

Examples:
    Pig: the set-up is dealt, then a roll is a node of six equally likely faces:

    >>> from kamon.games import get_game
    >>> cs = ChanceState(get_game("pig").new_game(2, seed=3))
    >>> cs.is_chance(), [str(a) for a in cs.state.legal_actions()]
    (False, ['roll'])
    >>> cs.apply(0)  # roll
    >>> cs.is_chance(), cs.chance_outcomes()[:2], len(cs.chance_outcomes())
    (True, [(0, 0.16666666666666666), (1, 0.16666666666666666)], 6)
    >>> cs.apply(3)  # the die shows 4
    >>> cs.is_chance(), cs.state.events[-1]
    (False, 'blue rolls a 4 (turn total 4)')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, SupportsIndex

from kamon.core.errors import IllegalAction
from kamon.core.protocol import State
from kamon.core.rng import Rng

Draw = Literal["end", "front"]


class ChanceError(RuntimeError):
    """The engine used randomness or a pile in a way that cannot be a chance node."""


@dataclass(frozen=True)
class PileSpec:
    """One hidden pile of a state: the list at `state.<attr>` (or `state.<attr>[index]`),
    drawn from its `draw` end ("end": `pop()`, "front": `pop(0)`); `face_up_top`: its top
    card lies face up (public as soon as it is on top); `cards`: every card it may ever
    hold, whose indices are the outcome ids of its nodes (stable over a game; empty: the
    cards in it when the `ChanceState` is made)."""

    name: str
    attr: str
    index: int | None = None
    draw: Draw = "end"
    face_up_top: bool = False
    cards: tuple[str, ...] = ()

    def get(self, state: Any) -> list[str]:
        """The pile's list in `state`."""
        value = getattr(state, self.attr)
        return value if self.index is None else value[self.index]

    def put(self, state: Any, pile: list[str]) -> None:
        """Put `pile` in place of the pile's list in `state`."""
        if self.index is None:
            setattr(state, self.attr, pile)
        else:
            getattr(state, self.attr)[self.index] = pile


def piles_of(state: State) -> tuple[PileSpec, ...]:
    """The hidden piles a state's game declares (its `chance_piles` slot; none without)."""
    hook: Callable[[Any], Sequence[PileSpec]] | None = getattr(state.game, "chance_piles", None)
    return () if hook is None else tuple(hook(state))


class _Need(BaseException):  # noqa: N818 - a signal, not an error; BaseException: never caught
    """Raised inside a replay: the engine asks for an outcome not chosen yet (`node`)."""

    def __init__(self, node: tuple[Any, ...]) -> None:
        super().__init__(node)
        self.node = node


class _Script:
    """The outcomes chosen so far for one decision, handed out in order during a replay."""

    __slots__ = ("items", "at", "universes")

    def __init__(self, items: list[int], universes: Sequence[tuple[str, ...]]) -> None:
        """The outcome ids, in order, and every pile's card universe (ids index into it)."""
        self.items = items
        self.at = 0
        self.universes = universes

    def roll(self, n: int) -> int:
        """The next outcome of a `below(n)` node (raises _Need when none is chosen yet)."""
        if n == 1:
            return 0  # one outcome: no node
        if self.at == len(self.items):
            raise _Need(("roll", n))
        k = self.items[self.at]
        self.at += 1
        return k

    def card(self, pile: _Pile) -> str:
        """The next card drawn from `pile`'s unseen part (raises _Need when not chosen)."""
        unseen = pile.unseen()
        if len(set(unseen)) == 1:
            return unseen[0]  # one outcome: no node
        if self.at == len(self.items):
            counts = Counter(unseen)
            universe = self.universes[pile.slot]
            raise _Need(("card", pile.slot, tuple(
                (universe.index(card), n / len(unseen)) for card, n in sorted(counts.items()))))
        card = self.universes[pile.slot][self.items[self.at]]
        self.at += 1
        return card


class _Pile(list[str]):
    """A hidden pile during a replay: `top` cards at the draw end are settled (chosen),
    `bottom` cards at the far end are known (seen, then put under the pile), the middle is
    unseen (kept sorted); touching an unseen position asks the script for the card there."""

    def __init__(self, cards: list[str], draw: Draw, seen: tuple[int, int], slot: int,
                 script: _Script) -> None:
        """Wrap `cards` (unseen part sorted); `seen`: its (top, bottom) known cards."""
        super().__init__(cards)
        self.draw = draw
        self.top, self.bottom = seen
        self.slot = slot
        self.script = script

    # positions count from the draw end: 0 is the card drawn next
    def _pos(self, i: SupportsIndex) -> int:
        """The position (from the draw end) of list index `i`."""
        n = list.__len__(self)
        j = i.__index__()
        j = j + n if j < 0 else j
        if not 0 <= j < n:
            raise IndexError("pile index out of range")
        return j if self.draw == "front" else n - 1 - j

    def _middle(self) -> tuple[int, int]:
        """The list indices [lo, hi) of the unseen part."""
        n = list.__len__(self)
        if self.draw == "front":
            return self.top, n - self.bottom
        return self.bottom, n - self.top

    def unseen(self) -> list[str]:
        """The unseen cards (canonical order)."""
        lo, hi = self._middle()
        return list.__getitem__(self, slice(lo, hi))

    def need(self, pos: int) -> None:
        """Settle every position up to `pos` (from the draw end) that is still unseen."""
        while pos >= self.top:
            lo, hi = self._middle()
            if lo >= hi:
                return  # the rest is known (put back in this decision)
            card = self.script.card(self)
            j = list.index(self, card, lo, hi)
            list.pop(self, j)
            n = list.__len__(self)
            list.insert(self, self.top if self.draw == "front" else n - self.top, card)
            self.top += 1

    def need_all(self) -> None:
        """Settle the whole pile (the engine reads it all)."""
        self.need(list.__len__(self) - 1)

    def unsettle(self) -> None:
        """The pile was shuffled: every card unseen again (canonical order)."""
        self.top = self.bottom = 0
        list.sort(self)

    def __getitem__(self, i: Any) -> Any:
        """A card (its position settled first) or a slice (the whole pile settled)."""
        if isinstance(i, slice):
            self.need_all()
        else:
            self.need(self._pos(i))
        return list.__getitem__(self, i)

    def pop(self, i: SupportsIndex = -1) -> str:
        """Remove and return a card (its position settled first)."""
        pos = self._pos(i)
        self.need(pos)
        card = list.pop(self, i)
        if pos < self.top:
            self.top -= 1
        else:
            self.bottom -= 1
        return card

    def append(self, card: str) -> None:
        """Put a known card on the far end ("front" piles) or on top ("end" piles)."""
        self.extend([card])

    def extend(self, cards: Any) -> None:
        """Put known cards on the far end ("front" piles) or on top ("end" piles): they
        stay known, in their order (everyone saw them go there)."""
        cards = list(cards)
        list.extend(self, cards)
        if self.draw == "front":
            self.bottom += len(cards)
        else:
            self.top += len(cards)

    def __iadd__(self, cards: Any) -> _Pile:  # type: ignore[override,misc]
        """`pile += cards` is `extend`."""
        self.extend(cards)
        return self

    def __iter__(self) -> Iterator[str]:
        """Every card (the whole pile settled first)."""
        self.need_all()
        return list.__iter__(self)

    def __contains__(self, card: object) -> bool:
        """Whether a card is in the pile (the whole pile settled first)."""
        self.need_all()
        return list.__contains__(self, card)

    def index(self, *args: Any) -> int:
        """A card's index (the whole pile settled first)."""
        self.need_all()
        return list.index(self, *args)

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        """Operations that would reorder the pile behind the chance nodes' back."""
        raise ChanceError("a hidden pile may only be drawn from, read, added to at its "
                          "ends or shuffled by the game's Rng during explicit chance")

    __setitem__ = __delitem__ = insert = remove = sort = reverse = _refuse
    __reversed__ = count = copy = _refuse


class ScriptedRng(Rng):
    """The generator a replayed decision sees: each `below(n)` is the next chosen outcome
    (or a new chance node); a shuffle of a hidden pile makes it unseen again."""

    __slots__ = ("script",)

    def __init__(self, script: _Script) -> None:
        """A generator answering from `script`."""
        super().__init__(0)
        self.script = script

    def below(self, n: int) -> int:
        """The chosen outcome of this `below(n)` node."""
        if n <= 0:
            raise ValueError("below(n) needs n > 0")
        return self.script.roll(n)

    def shuffle(self, seq: Any) -> None:
        """A hidden pile: unseen again (no node); any other list: Fisher-Yates by nodes."""
        if isinstance(seq, _Pile):
            seq.unsettle()
        else:
            super().shuffle(seq)

    def next_u64(self) -> int:
        """Unscripted randomness: refused (it could not be a chance node)."""
        raise ChanceError("the engine drew randomness other than Rng.below/randint/choice/"
                          "shuffle during an explicit-chance decision")

    def clone(self) -> Rng:
        """Refused for the same reason as next_u64."""
        raise ChanceError("the engine cloned its generator during an explicit-chance decision")


def _canonical(cards: list[str], draw: Draw, top: int) -> list[str]:  # (a new pile)
    """A pile with its `top` settled cards in place and the unseen rest sorted."""
    n = len(cards)
    if draw == "front":
        return cards[:top] + sorted(cards[top:])
    return sorted(cards[:n - top]) + cards[n - top:]


def _set_rng(state: State, rng: Rng) -> None:
    """Give a state's engine this generator (a state without one has no dice to roll)."""
    if hasattr(state, "rng"):
        state.rng = rng


class ChanceState:
    """A kamon state with its randomness as explicit chance nodes (see the module).

    `state` is the position (before the pending decision while chance is resolving it);
    `is_chance()` says whether a chance node is to be resolved, `chance_outcomes()` gives
    its (outcome id, probability) pairs, `apply()` takes a legal action id or an outcome.
    """

    __slots__ = ("state", "specs", "seen", "universes", "action", "script", "node")

    def __init__(self, state: State) -> None:
        """Wrap a position (usually just dealt: the deal is the one chance node before):
        its unseen pile orders and its generator are forgotten, a face-up top card kept."""
        self.state = state.clone()
        self.specs = piles_of(self.state)
        seen = []
        for spec in self.specs:
            cards = spec.get(self.state)
            top = 1 if spec.face_up_top and cards else 0
            spec.put(self.state, _canonical(list(cards), spec.draw, top))
            seen.append((top, 0))
        # per pile, the known cards at its draw end and at its far end (the rest unseen)
        self.seen: tuple[tuple[int, int], ...] = tuple(seen)
        self.universes = tuple(spec.cards or tuple(sorted(set(spec.get(self.state))))
                               for spec in self.specs)
        _set_rng(self.state, Rng(0))
        self.action: int | None = None
        self.script: list[int] = []
        self.node: tuple[Any, ...] | None = None

    def clone(self) -> ChanceState:
        """An independent copy (the position cloned; the rest is immutable or copied)."""
        other = ChanceState.__new__(ChanceState)
        other.state = self.state.clone()
        other.specs, other.seen, other.universes = self.specs, self.seen, self.universes
        other.action, other.script, other.node = self.action, list(self.script), self.node
        return other

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-compatible data (`from_json` reverses it)."""
        return {"state": self.state.to_json(), "seen": [list(s) for s in self.seen],
                "universes": [list(u) for u in self.universes], "action": self.action,
                "outcomes": list(self.script)}

    @classmethod
    def from_json(cls, game: Any, data: dict[str, Any]) -> ChanceState:
        """Rebuild from `to_json` output (`game`: the kamon Game it is a state of)."""
        self = cls.__new__(cls)
        self.state = game.from_json(data["state"])
        self.specs = piles_of(self.state)
        self.seen = tuple((int(t), int(b)) for t, b in data["seen"])
        self.universes = tuple(tuple(str(c) for c in u) for u in data["universes"])
        if len(self.seen) != len(self.specs) or len(self.universes) != len(self.specs):
            raise ValueError("the chance state's piles do not match its game's")
        self.action = None if data["action"] is None else int(data["action"])
        self.script = [int(k) for k in data["outcomes"]]
        self.node = None
        if self.action is not None:
            self._resolve()
        return self

    def is_chance(self) -> bool:
        """True while the last decision's randomness is being resolved."""
        return self.node is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The node's outcomes and their probabilities (summing to 1); [] at a decision.
        A roll `below(n)`: outcomes 0..n-1, each 1/n. A card: the index of each distinct
        unseen card in its pile's universe (`universes`), copies/unseen each."""
        node = self.node
        if node is None:
            return []
        if node[0] == "roll":
            n = node[1]
            return [(k, 1.0 / n) for k in range(n)]
        return list(node[2])

    def node_text(self, outcome: int) -> str:
        """An outcome in words ('roll 3 of 6', 'steward_deck: card st_04')."""
        node = self.node
        if node is None:
            raise ValueError("no chance node now")
        if node[0] == "roll":
            return f"roll {outcome} of {node[1]}"
        return f"{self.specs[node[1]].name}: card {self.universes[node[1]][outcome]}"

    def apply(self, move: int) -> None:
        """Take a legal action id (at a decision) or an outcome id (at a chance node);
        IllegalAction, changing nothing, for anything else."""
        move = int(move)
        if self.node is not None:
            if move not in {k for k, _ in self.chance_outcomes()}:
                raise IllegalAction(f"{move} is not an outcome of this chance node: "
                                    f"{[k for k, _ in self.chance_outcomes()]}")
            self.script.append(move)
            self._resolve()
        else:  # the engine refuses an illegal action on the copy, before changing it
            self._resolve(move)

    def _resolve(self, action: int | None = None) -> None:
        """Replay the pending decision (or start `action`) with the outcomes chosen so far:
        the next node, or the decision done (the new position, its unseen parts
        canonical). An illegal action raises IllegalAction and changes nothing."""
        if action is not None:
            self.action, self.script = action, []
        assert self.action is not None
        script = _Script(self.script, self.universes)
        world = self.state.clone()
        piles = [_Pile(spec.get(world), spec.draw, seen, i, script)
                 for i, (spec, seen) in enumerate(zip(self.specs, self.seen, strict=True))]
        for spec, pile in zip(self.specs, piles, strict=True):
            spec.put(world, pile)
        _set_rng(world, ScriptedRng(script))
        try:
            world.apply(self.action)
        except IllegalAction:
            if action is not None:  # a refused move leaves the decision as it was
                self.action = None
            raise
        except _Need as need:
            self.node = need.node
            return
        try:
            for spec, pile in zip(self.specs, piles, strict=True):
                if spec.face_up_top and list.__len__(pile):
                    pile.need(0)  # the new top card lies face up: it is seen now
        except _Need as need:
            self.node = need.node
            return
        if script.at != len(self.script):
            raise ChanceError("the decision used fewer outcomes than were chosen")
        for spec, pile in zip(self.specs, piles, strict=True):
            spec.put(world, list.__getitem__(pile, slice(None)))
        _set_rng(world, Rng(0))
        self.seen = tuple((pile.top, pile.bottom) for pile in piles)
        self.state, self.action, self.script, self.node = world, None, [], None
