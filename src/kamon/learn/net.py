"""The policy-and-value network at play time: numpy over the saved weights, no torch.

A network is an MLP: the seat's observation -> hidden ReLU layers -> a policy head (one
score per action id of the game's action space) and a value head (every clan's final
points / MARGIN_SCALE, in slots relative to the seat; see kamon.learn.features). Its
weights are a `.npz` (`W0, b0, W1, b1, ..., Wp, bp, Wv, bv` and `meta`, a JSON string
naming the game). A decision evaluates it on one vector: about 0.1 ms with numpy
(bench/bench_train.py), and importing torch (about 1 s, and its thread pool) is not
needed. The shipped weights are `kamon/learn/weights/<game>.npz`, loaded on first use.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kamon.core.errors import KamonError
from kamon.learn.features import MAX_CLANS, absolute_values, clan_count, encoding_of, game_key


class Net:
    """An MLP policy-and-value network evaluated with numpy."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        """The layers from `arrays` (W0, b0, ..., Wp, bp, Wv, bv); `meta` names the game."""
        self.meta = meta
        self.game = str(meta["game"])
        depth = int(meta["layers"])
        self.layers = [(np.ascontiguousarray(arrays[f"W{i}"], dtype=np.float32),
                        np.ascontiguousarray(arrays[f"b{i}"], dtype=np.float32))
                       for i in range(depth)]
        self.wp = np.ascontiguousarray(arrays["Wp"], dtype=np.float32)
        self.bp = np.ascontiguousarray(arrays["bp"], dtype=np.float32)
        self.wv = np.ascontiguousarray(arrays["Wv"], dtype=np.float32)
        self.bv = np.ascontiguousarray(arrays["bv"], dtype=np.float32)
        enc = encoding_of(self.game)
        self.encoding = enc
        self.scale = enc.margin_scale
        if self.layers[0][0].shape[0] != enc.size or self.wp.shape[1] != enc.num_actions:
            raise KamonError(f"the network's shapes do not fit {self.game}'s observation "
                             f"({enc.size}) and actions ({enc.num_actions})")

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(policy scores, value slots) of an observation (or a batch of them)."""
        h = x
        for w, b in self.layers:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        return h @ self.wp + self.bp, h @ self.wv + self.bv

    def value_slots(self, x: np.ndarray) -> np.ndarray:
        """The value head alone (the policy head's scores, most of a pass's cost in I,
        Clansman's 502 actions, skipped)."""
        h = x
        for w, b in self.layers:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        out: np.ndarray = h @ self.wv + self.bv
        return out

    def value_one(self, x: np.ndarray) -> np.ndarray:
        """The value head of one observation, its first layer summed over the inputs
        that are not zero only (an observation has 130-160 of its ~1,200 set): the same
        values to float rounding, the pass 30% shorter (109 -> 75 us in I, Clansman,
        90 -> 77 us in The White Castle), for the fast level's many single positions."""
        (w0, b0), rest = self.layers[0], self.layers[1:]
        nz = np.flatnonzero(x)
        h = x[nz] @ w0[nz]
        h += b0
        np.maximum(h, 0.0, out=h)
        for w, b in rest:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        out: np.ndarray = h @ self.wv + self.bv
        return out

    def seat_values(self, state: Any, seat: int) -> list[float]:
        """Every clan's estimated final points from the seat's observation."""
        slots = self.value_slots(self.encoding.observe(state, seat))
        return absolute_values(slots, seat, clan_count(state), self.scale)

    def seat_eval(self, state: Any, seat: int) -> tuple[np.ndarray, list[float]]:
        """The seat's move scores and every clan's estimated final points."""
        x = self.encoding.observe(state, seat)
        logits, slots = self.forward(x)
        return logits, absolute_values(slots, seat, clan_count(state), self.scale)

    def save(self, path: Path | str) -> None:
        """Write the weights and meta to a `.npz`."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"], arrays[f"b{i}"] = w, b
        arrays.update(Wp=self.wp, bp=self.bp, Wv=self.wv, bv=self.bv,
                      meta=np.array(json.dumps(self.meta)))
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)


def load_net(path: Path | str) -> Net:
    """A network from its `.npz`; KamonError if the file is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise KamonError(f"cannot read network weights {path}: {exc}") from None
    if "meta" not in arrays:
        raise KamonError(f"{path} is not a kamon network (no meta)")
    meta = json.loads(str(arrays.pop("meta")))
    return Net(arrays, meta)


def shipped_path(game: str) -> Path:
    """Where the shipped weights of a game are (in the package)."""
    return Path(str(resources.files("kamon.learn").joinpath(f"weights/{game_key(game)}.npz")))


@cache
def shipped_net(game: str) -> Net:
    """The shipped network of a game, loaded on first use; KamonError if none is shipped."""
    path = shipped_path(game)
    if not path.exists():
        raise KamonError(f"no trained network is shipped for {game_key(game)} ({path})")
    return load_net(path)


def game_of(state: Any) -> str:
    """The registry name of a state's game (from its package)."""
    package = type(state).__module__.split(".")
    return "white-castle" if "white_castle" in package else "clansman"


class NetGuide:
    """The network as the search's guide (`MCTSAgent(guide=...)`): it reads only the
    observation of the seat to move in the position it is given (the search gives it
    determinizations drawn from its own seat's view, never the real hidden state)."""

    def __init__(self, net: Net) -> None:
        """Guide a search with `net`."""
        self.net = net

    def evaluate(self, state: Any) -> tuple[np.ndarray, list[float]]:
        """The mover's move scores and every clan's estimated final points."""
        seat = state.to_move
        return self.net.seat_eval(state, 0 if seat is None else seat)

    def values(self, state: Any) -> list[float]:
        """Every clan's estimated final points, from the mover's observation."""
        seat = state.to_move
        return self.net.seat_values(state, 0 if seat is None else seat)

    def policy(self, state: Any, cands: list[int]) -> dict[int, float]:
        """The mover's probabilities of `cands` (a softmax of their scores)."""
        logits, _ = self.evaluate(state)
        sub = logits[cands]
        w = np.exp(np.maximum(sub - sub.max(), -50.0))
        w /= w.sum()
        return {a: float(p) for a, p in zip(cands, w, strict=True)}


__all__ = ["MAX_CLANS", "Net", "NetGuide", "game_of", "load_net", "shipped_net",
           "shipped_path"]
