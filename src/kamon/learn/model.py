"""The torch side: the policy-and-value MLP, its training on self-play samples, and its
export to the numpy weights the bots play with (`kamon.learn.net`).

Training minimises the cross-entropy of the policy (a softmax over the candidates the
search had) against the root's visit distribution, plus VALUE_WEIGHT times the mean
squared error of the value slots (final points / MARGIN_SCALE) present in the game.
Adam, mini-batches, `torch.set_num_threads(1)` (one core: the machine is shared).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from kamon.learn.features import MAX_CLANS, encoding_of, game_key
from kamon.learn.net import Net

HIDDEN = (256, 256)
VALUE_WEIGHT = 1.0
NEG = -1e9  # the score of a move outside the candidates


def _torch() -> Any:
    """torch, on one thread."""
    import torch

    torch.set_num_threads(1)
    return torch


def build_model(game: str, hidden: tuple[int, ...] = HIDDEN, seed: int = 0) -> Any:
    """A fresh torch model for the game (seeded)."""
    torch = _torch()
    nn = torch.nn
    enc = encoding_of(game)
    torch.manual_seed(seed)

    class PolicyValue(nn.Module):  # type: ignore[name-defined]
        """Observation -> hidden ReLU layers -> (policy scores, value slots)."""

        def __init__(self) -> None:
            """The layers."""
            super().__init__()
            sizes = (enc.size, *hidden)
            self.body = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:],
                                                                      strict=False))
            self.policy = nn.Linear(sizes[-1], enc.num_actions)
            self.value = nn.Linear(sizes[-1], MAX_CLANS)

        def forward(self, x: Any) -> tuple[Any, Any]:
            """(policy scores, value slots)."""
            for layer in self.body:
                x = torch.relu(layer(x))
            return self.policy(x), self.value(x)

    model = PolicyValue()
    model.kamon_meta = {"game": game_key(game), "hidden": list(hidden)}
    return model


def export(model: Any, extra: dict[str, Any] | None = None) -> Net:
    """The model as a numpy Net (weights transposed to (in, out), float32)."""
    arrays: dict[str, np.ndarray] = {}
    for i, layer in enumerate(model.body):
        arrays[f"W{i}"] = layer.weight.detach().numpy().T.copy()
        arrays[f"b{i}"] = layer.bias.detach().numpy().copy()
    arrays["Wp"] = model.policy.weight.detach().numpy().T.copy()
    arrays["bp"] = model.policy.bias.detach().numpy().copy()
    arrays["Wv"] = model.value.weight.detach().numpy().T.copy()
    arrays["bv"] = model.value.bias.detach().numpy().copy()
    meta = dict(model.kamon_meta, layers=len(model.body), **(extra or {}))
    return Net(arrays, meta)


def load_samples(paths: list[Path]) -> dict[str, np.ndarray]:
    """The samples of self-play game files, concatenated."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "mask", "pi", "z", "zmask")}
    for path in paths:
        with np.load(path) as data:
            for k in parts:
                parts[k].append(data[k])
    return {k: np.concatenate(v) if v else np.zeros((0,)) for k, v in parts.items()}


def train(model: Any, samples: dict[str, np.ndarray], epochs: int = 2, batch: int = 256,
          lr: float = 1e-3, weight_decay: float = 1e-4, seed: int = 0,
          optimizer_state: dict[str, Any] | None = None
          ) -> tuple[dict[str, float], dict[str, Any]]:
    """Train `model` in place on the samples; (the last epoch's mean losses, the
    optimizer's state for a resumed run)."""
    torch = _torch()
    n = len(samples["obs"])
    if n == 0:
        return {"policy": 0.0, "value": 0.0, "samples": 0.0}, optimizer_state or {}
    obs = torch.from_numpy(samples["obs"].astype(np.float32))
    mask = torch.from_numpy(samples["mask"].astype(bool))
    pi = torch.from_numpy(samples["pi"].astype(np.float32))
    z = torch.from_numpy(samples["z"].astype(np.float32))
    zmask = torch.from_numpy(samples["zmask"].astype(np.float32))
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    if optimizer_state:
        opt.load_state_dict(optimizer_state)
    gen = torch.Generator().manual_seed(seed)
    model.train()
    stats = {"policy": 0.0, "value": 0.0}
    for _ in range(epochs):
        order = torch.randperm(n, generator=gen)
        sums = {"policy": 0.0, "value": 0.0}
        for i in range(0, n, batch):
            idx = order[i:i + batch]
            logits, values = model(obs[idx])
            logits = logits.masked_fill(~mask[idx], NEG)
            logp = torch.log_softmax(logits, dim=1)
            p_loss = -(pi[idx] * logp.clamp(min=-100.0)).sum(1).mean()
            v_loss = (((values - z[idx]) ** 2) * zmask[idx]).sum(1).mean()
            loss = p_loss + VALUE_WEIGHT * v_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums["policy"] += p_loss.item() * len(idx)
            sums["value"] += v_loss.item() * len(idx)
        stats = {k: v / n for k, v in sums.items()}
    model.eval()
    return dict(stats, samples=float(n)), opt.state_dict()


def save_checkpoint(path: Path, model: Any, opt_state: dict[str, Any]) -> None:
    """The model and optimizer state, for resuming."""
    torch = _torch()
    torch.save({"model": model.state_dict(), "optimizer": opt_state,
                "meta": json.dumps(model.kamon_meta)}, path)


def load_checkpoint(path: Path, game: str) -> tuple[Any, dict[str, Any]]:
    """(model, optimizer state) from a checkpoint."""
    torch = _torch()
    ckpt = torch.load(path, weights_only=False)
    meta = json.loads(ckpt["meta"])
    model = build_model(game, tuple(meta["hidden"]))
    model.load_state_dict(ckpt["model"])
    model.eval()
    return model, ckpt["optimizer"]
