"""Baselines people can cite (issue 40): MaskablePPO trained on the frozen environment ids,
its learning curve, and a ratings table of kamon's levels, the trained policy and
OpenSpiel's Python ISMCTSBot, all on fixed seeds.

    .venv/bin/python bench/baselines.py            # the full run (docs/research.md, Baselines)
    .venv/bin/python bench/baselines.py --quick    # seconds: the test's end-to-end run

Per game (SETUPS): MaskablePPO ("MlpPolicy", seed 0) trains on the native VectorEnv
(`gymnasium.make_vec(<frozen id>, num_envs=16, opponents="random")` through
`kamon.rl.sb3.to_sb3`), torch pinned to one thread (`kamon.core.threads.pin_torch`), for a
fixed step budget; at every checkpoint the policy (deterministic, as a `policy.zip`
plug-in agent) plays fixed-seed tournaments against fixed opponents (`random`, `normal`),
its win rate and Wilson 95% interval written to `curve.csv` and drawn in `curve.png`.
Then every pair of the table's agents plays a rotated-seat tournament on the same deals
(`kamon.sim.tournament.run_tournament`): win rates with Wilson 95% intervals per agent
and per pair (`table.csv`, `pairs.csv`) and openskill Plackett-Luce ratings over all the
games (`kamon.sim.ratings.rate`, the games in the order played). The final policy is saved
as `<game>/ppo.zip` (the MLP's weights, NET_ARCH; no optimiser state and no last
observations: 40 KB for Pig, about 350 KB for The White Castle) and `summary.json` says
the environment ids and versions, budgets, seeds and CPU seconds. The run prints the
ratings table; `--markdown DIR` prints a finished run's tables (ratings and pairs) for
docs/research.md without running anything.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kamon.games import get_game
from kamon.rl.versions import current, env_id
from kamon.sim.ratings import rate
from kamon.sim.stats import wilson
from kamon.sim.tournament import TournamentResult, run_tournament

HERE = Path(__file__).resolve().parent
OUT = HERE / "baselines"
ISMCTS_SIMULATIONS = 16  # OpenSpiel ISMCTSBot simulations a decision (random rollouts)
NET_ARCH = [32, 32]  # the policy's and the value's hidden layers (SB3's default: 64, 64):
# The White Castle's observation (1,229) makes the first layers most of the file; 32
# keeps the shipped policy near 300 KB
SEED = 0  # the training seed; tournaments deal seeds EVAL_SEED.. and TABLE_SEED..
EVAL_SEED = 10_000
TABLE_SEED = 20_000


@dataclass(frozen=True)
class Setup:
    """One game's baseline: its training budget, checkpoints, evaluation and table sizes."""

    game: str
    players: int
    steps: int  # MaskablePPO's total timesteps (the learner's decisions)
    checkpoints: int  # evaluations along the way (the last one at `steps`)
    eval_games: int  # games per opponent at each checkpoint
    table_games: int  # games per pair of agents in the ratings table
    agents: tuple[str, ...]  # the table's agents ("ppo" and "ismcts" are built here)
    num_envs: int = 16
    n_steps: int = 128  # PPO's rollout length per env
    opponents: tuple[str, ...] = ("random", "normal")  # the curve's fixed opponents


FULL = (
    Setup("pig", 2, 40_960, 5, 100, 50, ("random", "easy", "normal", "ppo", "ismcts")),
    Setup("white-castle", 2, 163_840, 6, 60, 30,
          ("random", "easy", "normal", "fast", "ppo", "ismcts")),
)
QUICK = (
    Setup("white-castle", 2, 512, 2, 4, 4, ("random", "normal", "ppo"), num_envs=4,
          n_steps=64, opponents=("random",)),
)


class ISMCTSAgent:
    """OpenSpiel's Python ISMCTSBot (root chance mode, random rollouts, ISMCTS_SIMULATIONS
    a decision) as a kamon plug-in agent (`bench/baselines.py:ISMCTSAgent`): the kamon
    state is replayed into an OpenSpiel state (its deal, then its history) every decision."""

    name = "ismcts"

    def __init__(self, seed: int) -> None:
        """The bot's random generator from the agent's seed; the game is loaded at the
        first decision (the plug-in agent does not know its game before)."""
        self.rng = np.random.RandomState(seed % (1 << 32))
        self.bot: Any = None
        self.game: Any = None

    def _load(self, state: Any) -> None:
        """Load the OpenSpiel game of `state` (root chance mode) and build the bot."""
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        import kamon.rl  # noqa: F401  (registers the OpenSpiel games)
        from kamon.agents.plugin import game_of

        name = "python_kamon_" + str(game_of(state)).replace("-", "_")
        params: dict[str, Any] = {"chance": "root"}
        if "players" in self._spec_params(name):
            params["players"] = state.num_players
        self.game = pyspiel.load_game(name, params)
        evaluator = mcts.RandomRolloutEvaluator(1, self.rng)
        self.bot = ismcts.ISMCTSBot(self.game, evaluator, uct_c=2.0,
                                    max_simulations=ISMCTS_SIMULATIONS,
                                    random_state=self.rng)

    @staticmethod
    def _spec_params(name: str) -> dict[str, Any]:
        """The OpenSpiel game's parameters (to know whether it takes `players`)."""
        import pyspiel

        return dict(pyspiel.load_game(name).get_parameters())

    def act(self, state: Any) -> int:
        """The bot's action for the seat to move: the deal whose kamon seed is the game's,
        then every decision so far, replayed in OpenSpiel's root chance mode."""
        if self.bot is None:
            self._load(state)
        spiel = self.game.new_initial_state()
        outcome = int(state.seed) - self.game.deal_seed(0)
        if not 0 <= outcome < len(spiel.chance_outcomes()):
            raise ValueError(f"seed {state.seed} is not one of the OpenSpiel game's deals")
        spiel.apply_action(outcome)
        for action in state.history:
            spiel.apply_action(int(action))
        return int(self.bot.step(spiel))


@dataclass
class Timer:
    """CPU seconds of this process by part (training, curve, table)."""

    parts: dict[str, float] = field(default_factory=dict)

    def add(self, part: str, since: float) -> None:
        """Add the CPU seconds since `since` (time.process_time) to `part`."""
        self.parts[part] = self.parts.get(part, 0.0) + time.process_time() - since


def spec_of(agent: str, policy: Path) -> str:
    """The tournament spec of a table agent: the policy file for `ppo`, this file's
    ISMCTSAgent for `ismcts`, a registry name otherwise."""
    if agent == "ppo":
        return str(policy)
    if agent == "ismcts":
        return f"{Path(__file__).resolve()}:ISMCTSAgent"
    return agent


def label_of(name: str) -> str:
    """A table's label for a tournament's agent label (a policy file's name -> ppo)."""
    return "ppo" if name.endswith(".zip") or name.startswith("ppo") else name


def evaluate(setup: Setup, policy: Path, steps: int, timer: Timer) -> list[dict[str, Any]]:
    """The policy's win rate against each fixed opponent (rotated seats, EVAL_SEED..)."""
    start = time.process_time()
    rows = []
    for opponent in setup.opponents:
        res = run_tournament(setup.game, [str(policy), opponent], setup.eval_games,
                             players=setup.players, seed=EVAL_SEED)
        line = res.by_agent()[0]
        lo, hi = line.interval
        rows.append({"game": setup.game, "steps": steps, "opponent": opponent,
                     "games": line.games, "wins": round(line.wins, 3),
                     "win_rate": round(line.win_rate, 4), "lo": round(lo, 4),
                     "hi": round(hi, 4), "mean_score": round(line.mean_score, 2)})
    timer.add("curve", start)
    return rows


def train(setup: Setup, out: Path, timer: Timer) -> tuple[Path, list[dict[str, Any]]]:
    """Train MaskablePPO on the frozen id's native VectorEnv, evaluating at every
    checkpoint; the final policy saved as `out/ppo.zip` (its optimiser state left out)."""
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    import kamon.rl  # noqa: F401  (registers the Gymnasium ids)
    from kamon.core.threads import pin_torch
    from kamon.rl.sb3 import to_sb3

    pin_torch(torch)
    torch.manual_seed(SEED)
    venv = gymnasium.make_vec(env_id(setup.game), num_envs=setup.num_envs,
                              opponents="random", players=setup.players)
    env = VecMonitor(to_sb3(venv))
    env.seed(SEED)
    model = MaskablePPO("MlpPolicy", env, n_steps=setup.n_steps, seed=SEED, verbose=0,
                        policy_kwargs={"net_arch": NET_ARCH})
    per_batch = setup.num_envs * setup.n_steps
    batches = max(1, setup.steps // per_batch)
    marks = sorted({max(1, round(batches * (i + 1) / setup.checkpoints))
                    for i in range(setup.checkpoints)})
    curve: list[dict[str, Any]] = []
    out.mkdir(parents=True, exist_ok=True)
    checkpoints = Path(tempfile.mkdtemp(prefix="kamon-baselines-"))
    done = 0
    for mark in marks:
        start = time.process_time()
        model.learn(total_timesteps=(mark - done) * per_batch, reset_num_timesteps=False)
        timer.add("train", start)
        done = mark
        # a new file per checkpoint: plug-in policies are cached per process by path
        path = checkpoints / f"ppo_{model.num_timesteps}.zip"
        model.save(path)
        curve.extend(evaluate(setup, path, int(model.num_timesteps), timer))
    final = out / "ppo.zip"
    save_small(model, final)
    env.close()
    shutil.rmtree(checkpoints, ignore_errors=True)
    return final, curve


# what a saved model holds that acting does not need (the last rollout's observations:
# 16 x 1,229 floats in The White Castle, a third of the file; the episode statistics)
NOT_SAVED = ["_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer",
             "ep_success_buffer"]


def save_small(model: Any, path: Path) -> None:
    """Save the policy with a fresh optimiser (Adam's moments would double the file; a
    fresh one loads with MaskablePPO.load as well and acts the same) and without NOT_SAVED."""
    optimizer = model.policy.optimizer
    model.policy.optimizer = type(optimizer)(model.policy.parameters(), **optimizer.defaults)
    model.save(path, exclude=NOT_SAVED)
    model.policy.optimizer = optimizer


def table(setup: Setup, policy: Path, timer: Timer) -> tuple[list[dict[str, Any]],
                                                             list[dict[str, Any]]]:
    """Every pair of the setup's agents on the same deals (TABLE_SEED..): the per-agent
    rows (win rate, Wilson 95%, openskill rating, CPU per decision) and the per-pair rows."""
    start = time.process_time()
    specs = [spec_of(a, policy) for a in setup.agents]
    results: list[tuple[str, str, TournamentResult]] = []
    for i, a in enumerate(setup.agents):
        for b in setup.agents[i + 1:]:
            res = run_tournament(setup.game, [specs[setup.agents.index(a)],
                                              specs[setup.agents.index(b)]],
                                 setup.table_games, players=setup.players, seed=TABLE_SEED)
            results.append((a, b, res))
    timer.add("table", start)
    totals = {a: {"games": 0, "wins": 0.0, "decisions": 0, "cpu": 0.0} for a in setup.agents}
    pairs = []
    games: list[tuple[list[str], list[int]]] = []
    for a, b, res in results:
        names = {res.agents[0]: a, res.agents[1]: b}
        for line in res.by_agent():
            t = totals[names[line.label]]
            t["games"] += line.games
            t["wins"] += line.wins
            t["decisions"] += line.decisions
            t["cpu"] += line.cpu_seconds
        first = res.by_agent()[0]
        lo, hi = first.interval
        pairs.append({"game": setup.game, "agent": a, "opponent": b, "games": first.games,
                      "wins": round(first.wins, 3), "win_rate": round(first.win_rate, 4),
                      "lo": round(lo, 4), "hi": round(hi, 4)})
        games.extend(([names[n] for n in r.agents], r.ranks()) for r in res.results)
    ratings = {r.agent: r for r in rate(games)}
    rows = []
    for a in sorted(setup.agents, key=lambda x: -ratings[x].ordinal):
        t = totals[a]
        lo, hi = wilson(t["wins"], int(t["games"]))
        r = ratings[a]
        rows.append({"game": setup.game, "agent": a, "games": int(t["games"]),
                     "wins": round(t["wins"], 3),
                     "win_rate": round(t["wins"] / t["games"], 4) if t["games"] else 0.0,
                     "lo": round(lo, 4), "hi": round(hi, 4), "mu": round(r.mu, 2),
                     "sigma": round(r.sigma, 2), "ordinal": round(r.ordinal, 2),
                     "ms_per_decision": round(1000 * t["cpu"] / t["decisions"], 2)
                     if t["decisions"] else 0.0})
    return rows, pairs


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Rows (dicts with the same keys) as a CSV file with a header."""
    if not rows:
        return
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=list(rows[0]))
        out.writeheader()
        out.writerows(rows)


def plot(curve: Sequence[dict[str, Any]], path: Path) -> None:
    """The learning curves (win rate and its 95% band vs steps, one panel per game)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(dict.fromkeys(r["game"] for r in curve))
    fig, axes = plt.subplots(1, len(games), figsize=(5 * len(games), 3.6), squeeze=False)
    for ax, game in zip(axes[0], games, strict=True):
        rows = [r for r in curve if r["game"] == game]
        for opponent in dict.fromkeys(r["opponent"] for r in rows):
            mine = [r for r in rows if r["opponent"] == opponent]
            x = [r["steps"] for r in mine]
            ax.plot(x, [r["win_rate"] for r in mine], marker="o", label=f"vs {opponent}")
            ax.fill_between(x, [r["lo"] for r in mine], [r["hi"] for r in mine], alpha=0.2)
        ax.axhline(0.5, color="grey", lw=0.8, ls=":")
        ax.set_ylim(0, 1)
        ax.set_title(f"{get_game(game).title} ({env_id(game)})")
        ax.set_xlabel("training steps (learner decisions)")
        ax.set_ylabel("win rate (95% Wilson)")
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _read(path: Path) -> list[dict[str, Any]]:
    """A CSV written by `write_csv`, numbers as floats (games as ints)."""
    with path.open(encoding="utf-8") as fh:
        rows: list[dict[str, Any]] = list(csv.DictReader(fh))
    for r in rows:
        for k, v in r.items():
            if k not in ("game", "agent", "opponent"):
                r[k] = int(float(v)) if k == "games" else float(v)
    return rows


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The ratings rows as a markdown table (one per game, best ordinal first)."""
    out = ["| game | agent | games | win rate | 95% interval | mu | sigma | ordinal "
           "| CPU ms/decision |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {get_game(r['game']).title} | {r['agent']} | {r['games']} | "
                   f"{r['win_rate']:.1%} | {r['lo']:.1%}-{r['hi']:.1%} | {r['mu']:.1f} | "
                   f"{r['sigma']:.2f} | {r['ordinal']:.1f} | {r['ms_per_decision']:g} |")
    return "\n".join(out)


def pair_markdown(rows: Sequence[dict[str, Any]], pairs: Sequence[dict[str, Any]],
                  game: str) -> str:
    """A game's pairs as a markdown matrix: the row agent's win rate against the column's
    (agents in the ratings' order)."""
    agents = [r["agent"] for r in rows if r["game"] == game]
    rate_of = {}
    for p in pairs:
        if p["game"] == game:
            rate_of[p["agent"], p["opponent"]] = p["win_rate"]
            rate_of[p["opponent"], p["agent"]] = 1 - p["win_rate"]
    out = ["| vs | " + " | ".join(agents) + " |", "|---|" + "---|" * len(agents)]
    for a in agents:
        cells = ["-" if a == b else f"{rate_of[a, b]:.0%}" for b in agents]
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def report(out: Path) -> str:
    """A finished run's tables as markdown: the ratings, then each game's pairs."""
    rows = _read(out / "table.csv")
    pairs = _read(out / "pairs.csv")
    parts = [markdown(rows)]
    for game in dict.fromkeys(r["game"] for r in rows):
        parts.append(f"{get_game(game).title}: the row's win rate against the column\n\n"
                     + pair_markdown(rows, pairs, game))
    return "\n\n".join(parts)


def run(setups: Sequence[Setup], out: Path) -> dict[str, Any]:
    """Train, evaluate and rate every setup; write the CSVs, the plot and summary.json
    under `out`; returns the summary."""
    out.mkdir(parents=True, exist_ok=True)
    timer = Timer()
    start = time.process_time()
    curve: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    pairs: list[dict[str, Any]] = []
    for setup in setups:
        policy, game_curve = train(setup, out / setup.game, timer)
        curve.extend(game_curve)
        write_csv(out / "curve.csv", curve)
        game_rows, game_pairs = table(setup, policy, timer)
        rows.extend(game_rows)
        pairs.extend(game_pairs)
        write_csv(out / "table.csv", rows)
        write_csv(out / "pairs.csv", pairs)
    plot(curve, out / "curve.png")
    summary = {
        "setups": [asdict(s) for s in setups],
        "envs": {s.game: {"id": env_id(s.game), "version": current(s.game).version,
                          "digest": current(s.game).digest} for s in setups},
        "ismcts_simulations": ISMCTS_SIMULATIONS,
        "seeds": {"train": SEED, "curve": EVAL_SEED, "table": TABLE_SEED},
        "cpu_seconds": {**{k: round(v, 1) for k, v in timer.parts.items()},
                        "total": round(time.process_time() - start, 1)},
        "cores": os.cpu_count(),
        "python": sys.version.split()[0],
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    """Run the baselines (the full run, or `--quick`) and print the ratings table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true", help="tiny budgets (the test's run)")
    ap.add_argument("--out", type=Path, default=None,
                    help=f"output folder (default {OUT.relative_to(HERE.parent)}, "
                         "quick: kamon-baselines-quick in the temporary folder)")
    ap.add_argument("--figure", type=Path, default=None,
                    help="also copy the learning curves' PNG here (docs/baselines.png)")
    ap.add_argument("--markdown", type=Path, default=None, metavar="DIR",
                    help="print a finished run's tables as markdown (runs nothing)")
    args = ap.parse_args(argv)
    if args.markdown is not None:
        print(report(args.markdown))
        return 0
    out = args.out or (Path(tempfile.gettempdir()) / "kamon-baselines-quick" if args.quick
                       else OUT)
    summary = run(QUICK if args.quick else FULL, out)
    if args.figure is not None:
        shutil.copyfile(out / "curve.png", args.figure)
    print(markdown(_read(out / "table.csv")))
    print(f"CPU seconds: {summary['cpu_seconds']}; written to {out}")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
