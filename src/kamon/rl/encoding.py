"""The one encoding layer all three research interfaces share: observation, mask, rewards.

A game offers its observation in its `observation` slot (`kamon.core.layout.Observation`):

- `size` and `encode(view) -> np.ndarray` (float32, shape (size,), values in [0, 1]),
  built only from `state.view(seat)`: the definition of the observation;
- optionally `encode_state(state, seat) -> np.ndarray`: the same vector read straight
  from the state (only what `seat` may see), without building the view: the fast path
  every interface uses (about 6x faster in both games); the contract suite holds it
  equal to `encode(state.view(seat))` bit for bit;
- `fields`: the named slices (name, start, size, meaning, repeat, stride, cap);
- `margin_scale`: the score margin that counts as decisive (the "margin" reward).

`Encoding.observe(state, seat)` is that vector, `Encoding.mask(state)` the legal actions
as an int8 vector over `GAME.num_actions`, and `final_rewards(state, mode, scale)` the
end-of-game rewards of the seats (see `REWARD_MODES`). PettingZoo, Gymnasium and OpenSpiel
all go through here, so they see the same numbers. (`kamon.rl.docs` writes the fields
and rewards as docs/OBSERVATIONS.md.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import groupby
from typing import Any

import numpy as np

from kamon.core.errors import KamonError
from kamon.core.layout import Observation
from kamon.core.protocol import Game, State
from kamon.core.registry import canonical, games, get_game

REWARD_MODES: dict[str, str] = {
    "placement": (
        "+1 for first place down to -1 for last, evenly spaced: with N clans (the solo "
        "game's Tokugawa rival counts as one) place p (0 = first) earns 1 - 2p/(N-1). Places "
        "follow the game's winners() (its tie-breaks) and then the score totals; seats "
        "sharing places share the mean of those places' rewards (two shared winners of 4 "
        "clans get (1 + 1/3)/2 each). The rewards of all clans sum to 0."),
    "margin": (
        "(own total - best other clan's total) / the game's margin scale, clipped to "
        "[-1, 1] (each game's section gives its scale)."),
}


@dataclass(frozen=True)
class Encoding:
    """A game's observation encoding and action space, from its `observation` slot."""

    game_name: str
    game: Game
    spec: Observation

    @property
    def size(self) -> int:
        """Length of the observation vector."""
        return self.spec.size

    @property
    def num_actions(self) -> int:
        """Size of the game's fixed action space."""
        return int(self.game.num_actions)

    @property
    def margin_scale(self) -> float:
        """The score margin that earns the full 'margin' reward."""
        return float(self.spec.margin_scale)

    @property
    def fields(self) -> Sequence[Any]:
        """The named slices of the observation vector."""
        return self.spec.fields

    def observe(self, state: State, seat: int | None) -> np.ndarray:
        """The observation vector of `seat` (None: a spectator): the game's fast
        `encode_state` when it has one, else the encoding of `state.view(seat)`."""
        fast = self.spec.encode_state
        return fast(state, seat) if fast is not None else self.spec.encode(state.view(seat))

    def observe_view(self, state: State, seat: int | None) -> np.ndarray:
        """The observation vector by its definition, the encoding of `state.view(seat)`
        (what the fast path is tested against, and the slow path benchmarks compare)."""
        return self.spec.encode(state.view(seat))

    def encode_view(self, view: dict[str, Any]) -> np.ndarray:
        """The observation vector of a view already taken."""
        return self.spec.encode(view)

    def mask(self, state: State) -> np.ndarray:
        """The legal actions now as 0/1 int8 over the action space (all 0 at the end).
        Written into a copy of a zero bytearray, one id at a time: no index array to
        build (1.2 against 1.5-2.6 us with `np.zeros` and `mask[ids] = 1`)."""
        mask = bytearray(self._no_actions)
        fn = getattr(state, "legal_ids", None)  # only read here: no list() copy
        for i in (fn() if callable(fn) else legal_ids(state)):
            mask[i] = 1
        return np.frombuffer(mask, np.int8)

    @cached_property
    def _no_actions(self) -> bytes:
        """The all-zero mask's bytes (what `mask` starts from)."""
        return bytes(self.num_actions)

    def describe(self, vec: np.ndarray) -> str:
        """The non-zero fields of an observation vector, one 'name: values' per line (the
        fields in order, each value as `.3g`). Only the non-zero entries are visited, through
        `_lines`: 15-20x faster than one `np.any` per field line (an observation 100
        decisions in: I, Clansman 1.1 -> 0.06 ms, The White Castle 1.8 -> 0.12 ms). The
        last DESCRIBED texts are kept by the vector's bytes: a search describes the same
        observations again and again, in each re-sampled world (three ISMCTS steps from
        decision 200 of I, Clansman: 133 calls, 83 distinct vectors, describe's time
        0.096 -> 0.024 s)."""
        key = (vec.dtype.char, vec.tobytes())
        memo = self._described
        text = memo.get(key)
        if text is None:
            text = memo[key] = self._describe(vec)
            if len(memo) > DESCRIBED:
                memo.pop(next(iter(memo)), None)  # the oldest
        return text

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (and deep-copied) without describe()'s kept texts and tables (up to a
        few MB; rebuilt when next asked for)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_described", "_lines")}

    @cached_property
    def _described(self) -> dict[tuple[str, bytes], str]:
        """The texts of the last DESCRIBED vectors `describe` was given, oldest first."""
        return {}

    def _describe(self, vec: np.ndarray) -> str:
        """`describe` itself, without the memo."""
        lines = self._lines
        nz = np.flatnonzero(vec)
        owner = lines.owner[nz]
        order = np.argsort(owner, kind="stable")  # by line, each line's values in order
        nz, owner = nz[order], owner[order]
        skip = int(np.searchsorted(owner, 0))  # entries of no field print nothing
        if skip == owner.size:
            return ""
        fmt = _FORMATTED
        if len(fmt) > 1 << 16:  # a game whose values hardly repeat: start again
            fmt.clear()
        texts = []
        for v in vec[nz[skip:]].tolist():
            text = fmt.get(v)
            if text is None:
                text = fmt[v] = f"{v:.3g}"
            texts.append(text)
        label = lines.label
        pieces = [label[i] + t for i, t in zip(nz[skip:].tolist(), texts, strict=True)]
        line_of = owner[skip:]
        cuts = (np.flatnonzero(line_of[1:] != line_of[:-1]) + 1).tolist()
        names = lines.names
        return "\n".join(names[line_of[a]] + ": " + ",".join(pieces[a:b])
                         for a, b in zip([0, *cuts], [*cuts, len(pieces)], strict=True))

    @cached_property
    def _lines(self) -> _FieldLines:
        """The fields' lines (one per field and repeat) and which line each vector entry
        belongs to: what `describe` reads."""
        return _FieldLines.of(self.fields, self.size)


DESCRIBED = 512  # the observation texts an encoding keeps (about 4 MB for I, Clansman's)
_FORMATTED: dict[float, str] = {}  # a value's `.3g` text (observations repeat few values)


@dataclass(frozen=True)
class _FieldLines:
    """The lines `Encoding.describe` prints: each field's name (per repeat), where it starts,
    whether it is one value, and `owner[i]`, the line of vector entry i (-1: none)."""

    names: list[str]
    label: list[str]  # what precedes entry i's value: '' (a one-value field) or 'j='
    owner: np.ndarray

    @staticmethod
    def of(fields: Sequence[Any], size: int) -> _FieldLines:
        """The lines of `fields` over a vector of `size` values (ValueError if two lines
        share an entry: each value must print once)."""
        names: list[str] = []
        label = [""] * size
        owner = np.full(size, -1, np.int64)
        for f in fields:
            for k in range(f.repeat):
                start = f.start + k * f.stride
                if (owner[start:start + f.size] >= 0).any():
                    raise ValueError(f"observation field {f.name} overlaps another")
                owner[start:start + f.size] = len(names)
                names.append(f.name.replace("[k]", f"[{k}]"))
                if f.size > 1:
                    label[start:start + f.size] = [f"{j}=" for j in range(f.size)]
        return _FieldLines(names, label, owner)


def canonical_name(game: str) -> str:
    """The registry name of a game ('white-castle', 'clansman'); KamonError if unknown."""
    return canonical(game)


def observed_games() -> list[str]:
    """The registered games that have an observation (the research interfaces' games)."""
    return [name for name, g in games().items() if g.observation is not None]


@cache
def encoding(game: str) -> Encoding:
    """The Encoding of a game by name; KamonError if it has no observation slot."""
    name = canonical_name(game)
    g = get_game(name)
    if g.observation is None:
        raise KamonError(f"{g.title} has no observation encoding (its `observation` slot); "
                         "the research interfaces need one")
    return Encoding(name, g, g.observation)


def legal_ids(state: State) -> list[int]:
    """Legal action ids (through `legal_ids()` when the game has it: no Action objects)."""
    fn = getattr(state, "legal_ids", None)
    if callable(fn):
        return list(fn())
    return [a.id for a in state.legal_actions()]


def check_reward_mode(mode: str) -> str:
    """The reward mode, validated (ValueError naming the known ones)."""
    if mode not in REWARD_MODES:
        raise ValueError(f"unknown reward {mode!r}; choose one of: {', '.join(REWARD_MODES)}")
    return mode


def placements(state: State) -> list[float]:
    """Every clan's place (0 = first; shared places averaged), by winners() then totals."""
    totals = [float(s["total"]) for s in state.scores()]
    winners = set(state.winners())
    n = len(totals)
    places = [0.0] * n
    groups: list[list[int]] = [sorted(winners)] if winners else []
    rest = sorted((q for q in range(n) if q not in winners), key=lambda q: -totals[q])
    for _total, same in groupby(rest, key=lambda q: totals[q]):
        groups.append(list(same))
    start = 0
    for group in groups:
        mean = start + (len(group) - 1) / 2
        for q in group:
            places[q] = mean
        start += len(group)
    return places


def final_rewards(state: State, mode: str, margin_scale: float) -> list[float]:
    """The end-of-game reward of every seat (the solo rival is a clan but not a seat)."""
    seats = state.num_players
    if mode == "placement":
        places = placements(state)
        n = len(places)
        if n < 2:
            return [0.0] * seats
        return [1.0 - 2.0 * places[q] / (n - 1) for q in range(seats)]
    totals = [float(s["total"]) for s in state.scores()]
    out = []
    for q in range(seats):
        best_other = max((t for r, t in enumerate(totals) if r != q), default=0.0)
        out.append(float(np.clip((totals[q] - best_other) / margin_scale, -1.0, 1.0)))
    return out
