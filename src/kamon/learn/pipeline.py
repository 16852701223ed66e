"""Expert iteration in rounds: self-play with the search, train, check, checkpoint.

A run lives in one folder (`--out`):

- `run.json`: the settings and, per finished round, its figures (games, samples, CPU
  seconds of self-play and of training, the losses, the strength check);
- `round_NNN/<seed>.npz`: each self-play game of round N (kept as soon as it ends, so an
  interrupted round resumes with the games still missing);
- `net_NNN.npz` (the numpy weights the bots load) and `model_NNN.pt` (torch model and
  optimizer, to resume training) after round N; `net_latest.npz` is the newest.

Round N plays `games` self-play games guided by net_{N-1} (round 1: the hand-guided
search), on deals from SELFPLAY_SEED + N * SEED_STRIDE (disjoint from the ladder's deals,
1000+, and the evaluation deals, 97000+), the game's set-ups in turn (its `selfplay_setups`), then
trains the previous model on the games of the last `window` rounds and checks it: the
new network's fast level against greedy, on the
same deals every round. Running the same command again continues where
it stopped, up to `rounds`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kamon.core.errors import KamonError
from kamon.games import get_game
from kamon.learn.features import game_key
from kamon.learn.selfplay import SelfPlayJob, play_selfplay

SELFPLAY_SEED = 1_000_000  # self-play deals: SELFPLAY_SEED + round * SEED_STRIDE + game
SEED_STRIDE = 10_000
CHECK_SEED = 90_000  # the strength checks' deals (never the ladder's 97000+)

@dataclass
class RunSettings:
    """What a training run does each round."""

    game: str
    games: int = 40  # self-play games a round
    iterations: int = 4000  # the self-play search's reference iterations a decision
    epochs: int = 3
    window: int = 4  # rounds of games each training sees
    guide_values: float = 0.5  # the network's share of the search's values
    guide_priors: float = 0.0  # its share of the priors (0: the hand priors)
    check_games: int = 8  # games of the strength check (0: none)
    explore: int = 12
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    bootstrap: int = 0  # round 0's greedy games (0: none; round 1 then searches by hand)


def jobs_of_round(settings: RunSettings, rnd: int, net: Path | None) -> list[SelfPlayJob]:
    """The self-play games of round `rnd` (1-based; 0: the greedy bootstrap), guided by
    `net`."""
    variants = get_game(settings.game).training_setups()
    out = []
    count = settings.bootstrap if rnd == 0 else settings.games
    for i in range(count):
        players, options = variants[i % len(variants)]
        out.append(SelfPlayJob(settings.game, players,
                               SELFPLAY_SEED + rnd * SEED_STRIDE + i, dict(options),
                               str(net) if net is not None else None,
                               settings.iterations if rnd else 0,
                               settings.guide_values, settings.guide_priors,
                               settings.explore))
    return out


def play_and_keep(item: tuple[SelfPlayJob, str]) -> tuple[int, int, float, int]:
    """Play a self-play game and write its samples to `path` (top-level, so process
    pools and Ray can run it); (seed, samples, CPU seconds, decisions)."""
    job, path = item
    res = play_selfplay(job)
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        np.savez_compressed(fh, **res)
    os.replace(tmp, path)
    return job.seed, len(res["obs"]), float(res["cpu"]), int(res["decisions"])


class Run:
    """A training run's folder: settings, finished rounds, files."""

    def __init__(self, out: Path, settings: RunSettings | None = None) -> None:
        """Open (or create, with `settings`) the run in `out`; KamonError if they clash."""
        self.out = out
        self.meta_path = out / "run.json"
        if self.meta_path.exists():
            meta = json.loads(self.meta_path.read_text(encoding="utf-8"))
            saved = RunSettings(**meta["settings"])
            if settings is not None and game_key(settings.game) != saved.game:
                raise KamonError(f"{out} holds a {saved.game} run, not {settings.game}")
            if settings is not None:  # the budget may change between rounds; the game not
                saved = settings
            self.settings = saved
            self.rounds: list[dict[str, Any]] = meta["rounds"]
        else:
            if settings is None:
                raise KamonError(f"{out} holds no training run (no run.json)")
            out.mkdir(parents=True, exist_ok=True)
            self.settings = settings
            self.rounds = []
        self.settings.game = game_key(self.settings.game)
        self.save()

    def save(self) -> None:
        """Write run.json."""
        meta = {"settings": asdict(self.settings), "rounds": self.rounds}
        tmp = self.meta_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8")
        os.replace(tmp, self.meta_path)

    def net_path(self, rnd: int) -> Path:
        """The numpy weights after round `rnd`."""
        return self.out / f"net_{rnd:03d}.npz"

    def model_path(self, rnd: int) -> Path:
        """The torch checkpoint after round `rnd`."""
        return self.out / f"model_{rnd:03d}.pt"

    def games_dir(self, rnd: int) -> Path:
        """Round `rnd`'s self-play games."""
        return self.out / f"round_{rnd:03d}"


ProgressFn = Callable[[str, int, int], None]  # (what, done, total)


def run_rounds(out: Path, settings: RunSettings, rounds: int, backend: Any,
               progress: ProgressFn | None = None,
               log: Callable[[dict[str, Any]], None] | None = None) -> Run:
    """Run (or continue) expert iteration up to `rounds` rounds in `out`, the games on
    `backend` (kamon.sim.backends); `progress` hears of each game, `log` of each round."""
    run = Run(out, settings)
    s = run.settings
    first = 0 if s.bootstrap else 1
    while len(run.rounds) < rounds + 1 - first:
        rnd = len(run.rounds) + first
        prev = run.net_path(rnd - 1) if rnd > first else None
        folder = run.games_dir(rnd)
        folder.mkdir(exist_ok=True)
        jobs = jobs_of_round(s, rnd, prev)
        todo = [(j, str(folder / f"{j.seed}.npz")) for j in jobs
                if not (folder / f"{j.seed}.npz").exists()]
        done = len(jobs) - len(todo)
        if progress:
            progress("self-play", done, len(jobs))
        for _ in backend.map_unordered(play_and_keep, todo):
            done += 1
            if progress:
                progress("self-play", done, len(jobs))
        figures = round_figures(run, rnd)
        if progress:
            progress("training", 0, 1)
        figures.update(train_round(run, rnd))
        if progress:
            progress("training", 1, 1)
        if s.check_games:
            if progress:
                progress("checking", 0, 1)
            figures["check"] = strength_check(run, rnd)
            if progress:
                progress("checking", 1, 1)
        run.rounds.append(figures)
        run.save()
        if log:
            log(figures)
    return run


def round_figures(run: Run, rnd: int) -> dict[str, Any]:
    """A finished round's self-play figures, read from its game files."""
    games = sorted(run.games_dir(rnd).glob("*.npz"))
    samples = 0
    cpu = 0.0
    decisions = 0
    for path in games:
        with np.load(path) as data:
            samples += len(data["seat"])
            cpu += float(data["cpu"])
            decisions += int(data["decisions"])
    return {"round": rnd, "games": len(games), "samples": samples, "decisions": decisions,
            "selfplay_cpu_s": round(cpu, 1)}


def train_round(run: Run, rnd: int) -> dict[str, Any]:
    """Train the model (the previous round's, or a fresh one) on the games of the last
    `window` rounds; save net_rnd.npz, model_rnd.pt and net_latest.npz."""
    from kamon.learn import model as M

    s = run.settings
    start = time.process_time()
    if rnd > 0 and run.model_path(rnd - 1).exists():
        net_model, opt_state = M.load_checkpoint(run.model_path(rnd - 1), s.game)
    else:
        net_model, opt_state = M.build_model(s.game, tuple(s.hidden), seed=rnd), None
    paths = [p for r in range(max(0, rnd - s.window + 1), rnd + 1)
             for p in sorted(run.games_dir(r).glob("*.npz"))]
    samples = M.load_samples(paths)
    stats, opt_state = M.train(net_model, samples, epochs=s.epochs, seed=rnd,
                               optimizer_state=opt_state)
    M.save_checkpoint(run.model_path(rnd), net_model, opt_state)
    net = M.export(net_model, {"round": rnd})
    net.save(run.net_path(rnd))
    net.save(run.out / "net_latest.npz")
    return {"train_samples": int(stats["samples"]), "policy_loss": round(stats["policy"], 4),
            "value_loss": round(stats["value"], 4),
            "train_cpu_s": round(time.process_time() - start, 1)}


def strength_check(run: Run, rnd: int) -> dict[str, Any]:
    """The new network's fast level against greedy (`normal`): a short match in this
    process (both are cheap), two seats each, seats rotated, on the check deals of the
    game's first variant (the same deals every round, so rounds compare)."""
    from kamon.agents.greedy import GreedyAgent
    from kamon.learn.agents import PolicyAgent
    from kamon.learn.matches import head_to_head
    from kamon.learn.net import load_net

    s = run.settings
    new_net = load_net(run.net_path(rnd))
    players, options = get_game(s.game).training_setups()[0]
    res = head_to_head(s.game, players, options, lambda seed: PolicyAgent(seed, new_net),
                       GreedyAgent, s.check_games, CHECK_SEED)
    return dict(res, against="greedy")
