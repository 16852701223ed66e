"""`kamon search`: several component values searched at once toward targets.

Each `--vary PATH=LOW..HIGH` is a range of one value of the component data in overlay
terms (integers when both ends are; a list `V1,V2,...` is searched as categories). Each
goal is `METRIC=VALUE` (come as near as possible) or `METRIC<=VALUE` (stay at or under):
the sweep's metrics (`sim.sweep.measure`: `first_player_win_rate`, `users_win_rate`,
`mean_total`...) and `max_<column>_win_rate`, the highest win rate of the holders of any
single item of one of the game's feature columns (`max_missions_win_rate<=0.4`: no
mission above 40% wins; items held by fewer than MIN_HOLDERS clans are left out, a clan
counts once per item).

A trial plays the overlay of its values on the same seeds as every other trial, as
`kamon simulate` plays it, into `DIR/trials/<values>.parquet` (resumable), and scores
the sum of its misses: |metric - target| (a rate in percentage points, a mean in its
own unit) or, for `<=`, how far above the bound it is. The values are chosen by Optuna's
TPE sampler (seeded by --seed): the same command again suggests the same values, finds
their games already played and goes on. The original (no value changed) is played on the
same seeds into `DIR/original.parquet`, and the best variants are compared with it game
by game (`sweep_fit.paired_difference`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from kamon.core.errors import KamonError
from kamon.core.overlay import combine_overlays
from kamon.core.overlay_paths import Vary, overlay_for, parse_path, parse_value
from kamon.games import get_game
from kamon.sim.backends import Backend
from kamon.sim.results import categories_of
from kamon.sim.runner import SimSpec, new_state
from kamon.sim.simulation import plan_run, run_plan
from kamon.sim.stats import Difference
from kamon.sim.sweep import (
    RATE_METRICS,
    _resolve_keys,
    file_name,
    measure,
    overlay_option,
    user_columns,
    users_mask,
)
from kamon.sim.sweep_fit import common_games, paired_difference, per_game

MIN_HOLDERS = 20
STARTUP = 4  # TPE's random trials before it models the misses
_RANGE = re.compile(r"^\s*(-?[0-9.]+)\s*\.\.\s*(-?[0-9.]+)\s*$")
_GOAL = re.compile(r"^\s*([A-Za-z0-9_]+)\s*(<=|=)\s*(\S+?)\s*$")
_MAX = re.compile(r"^max_([A-Za-z0-9_]+)_win_rate$")


@dataclass
class Param:
    """One searched value: its path, and a range (low..high) or a list of choices."""

    vary: Vary  # steps and the first value (to resolve the keys)
    low: float = 0.0
    high: float = 0.0
    integer: bool = True
    choices: tuple[Any, ...] = ()
    keys: list[Any] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The path as written."""
        return self.vary.path


@dataclass(frozen=True)
class Goal:
    """A target: the metric near `value` ('=') or at most `value` ('<=')."""

    metric: str
    op: str
    value: float

    def miss(self, x: float) -> float:
        """How far x misses the goal, in points for a rate (0 when met); inf if unmeasured."""
        if math.isnan(x):
            return math.inf
        scale = 100.0 if is_rate(self.metric) else 1.0
        gap = x - self.value
        return scale * (abs(gap) if self.op == "=" else max(0.0, gap))

    @property
    def text(self) -> str:
        """'max_missions_win_rate<=0.4'."""
        return f"{self.metric}{self.op}{self.value:g}"


def is_rate(metric: str) -> bool:
    """Is the metric a share (shown in %, missed in points)?"""
    return metric in RATE_METRICS or bool(_MAX.match(metric))


def parse_param(text: str) -> Param:
    """`PATH=LOW..HIGH` (integers when both ends are) or `PATH=V1,V2,...` (choices)."""
    depth, at = 0, -1
    for i, ch in enumerate(text):  # the first '=' outside brackets
        depth += (ch == "[") - (ch == "]")
        if ch == "=" and depth == 0:
            at = i
            break
    path, rest = (text[:at], text[at + 1:]) if at >= 0 else (text, "")
    if not rest.strip():
        raise KamonError(f"--vary {text!r}: write PATH=LOW..HIGH (e.g. "
                         "gardens.cards[id=plant_1].cp=3..12) or PATH=V1,V2,...")
    steps = parse_path(path)
    m = _RANGE.match(rest)
    if m:
        lo, hi = (parse_value(g) for g in m.groups())
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (lo, hi)):
            raise KamonError(f"--vary {text!r}: a range's ends are numbers")
        if lo >= hi:
            raise KamonError(f"--vary {text!r}: the range's low end must be below its high")
        integer = isinstance(lo, int) and isinstance(hi, int)
        return Param(Vary(path.strip(), steps, (lo,), (m.group(1),)), float(lo), float(hi),
                     integer)
    texts = tuple(t.strip() for t in rest.split(","))
    if len(texts) < 2 or any(not t for t in texts):
        raise KamonError(f"--vary {text!r}: give a range LOW..HIGH or 2 or more values")
    values = tuple(parse_value(t) for t in texts)
    return Param(Vary(path.strip(), steps, values, texts), choices=values)


def parse_goals(texts: Sequence[str]) -> list[Goal]:
    """`METRIC=VALUE`, `METRIC<=VALUE` (a rate also as `40%`)."""
    out = []
    for text in texts:
        m = _GOAL.match(text)
        value = math.nan
        if m:
            raw = m.group(3)
            try:
                value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
            except ValueError:
                value = math.nan
        if m is None or math.isnan(value):
            raise KamonError(f"--target {text!r}: write METRIC=VALUE or METRIC<=VALUE, e.g. "
                             "first_player_win_rate=0.25 or max_missions_win_rate<=40%")
        out.append(Goal(m.group(1), m.group(2), value))
    if not out:
        raise KamonError("give at least one --target")
    return out


# ---------------------------------------------------------------- measuring a run

def max_holder_rate(table: pa.Table, column: str) -> tuple[float, str]:
    """The highest holders' win rate of any item of a ';'-list column (each clan once per
    item; items with fewer than MIN_HOLDERS holders left out), and that item."""
    share = np.asarray(table["win_share"].to_numpy(zero_copy_only=False), dtype=float)
    wins: dict[str, float] = {}
    held: dict[str, int] = {}
    for row, text in enumerate(table[column].to_pylist()):
        for item in {p for p in str(text or "").split(";") if p}:
            wins[item] = wins.get(item, 0.0) + share[row]
            held[item] = held.get(item, 0) + 1
    best = (math.nan, "")
    for item, n in held.items():
        rate = wins[item] / n
        if n >= MIN_HOLDERS and (math.isnan(best[0]) or rate > best[0]):
            best = (rate, item)
    return best


@dataclass
class Search:
    """A planned search: the game, the seeds, the searched values and the goals."""

    game: str
    players: int
    agents: tuple[str, ...]
    options: dict[str, Any]
    params: list[Param]
    goals: list[Goal]
    seed: int
    games: int
    out: Path
    component: str | None = None


@dataclass
class Trial:
    """One tried set of values and what it measured."""

    number: int
    values: tuple[Any, ...]
    file: Path
    metrics: dict[str, float]
    loss: float
    played: int = 0
    table: pa.Table | None = None

    def label(self, search: Search) -> str:
        """'plant_1.cp=7, 715.amount=3' (each path's item and last key)."""
        return ", ".join(
            f"{(p.vary.component + '.') if p.vary.component else ''}"
            f"{p.path.rsplit('.', 1)[-1]}={_show(v)}"
            for p, v in zip(search.params, self.values, strict=True))


def _show(v: Any) -> str:
    """A value as written."""
    return json.dumps(v) if not isinstance(v, str) else v


def plan_search(game: str, players: int, agents: Sequence[str], options: Mapping[str, Any],
                params: Sequence[Param], goals: Sequence[Goal], seed: int, games: int,
                out: Path) -> Search:
    """Check the paths (each sets a game up), the goals (each measurable) and the output;
    nothing is played. KamonError with the reason."""
    name = get_game(game).name
    if not params:
        raise KamonError("give at least one --vary")
    if len({p.path for p in params}) != len(params):
        raise KamonError("the same path is searched twice")
    if games < 1:
        raise KamonError("--games must be at least 1")
    if out.exists() and not out.is_dir():
        raise KamonError(f"--out {out}: a search writes a folder; this is a file")
    overlay_option(name)
    for p in params:
        p.keys = _resolve_keys(name, players, seed, options, p.vary)
        for v in ([p.low, p.high] if not p.choices else list(p.choices)):
            _spec(name, players, agents, options, [p], (_typed(p, v),))
    search = Search(name, players, tuple(agents), dict(options), list(params), list(goals),
                    seed, games, out)
    for p in params:
        search.component = search.component or p.vary.component
    cols = [c for c, kind in get_game(name).features.columns.items() if kind == "str"]
    for g in goals:
        m = _MAX.match(g.metric)
        if m and m.group(1) not in cols:
            raise KamonError(f"--target {g.text}: {m.group(1)!r} is not a feature column of "
                             f"{get_game(name).title} ({', '.join(cols)})")
        if not m and g.metric not in RATE_METRICS and not g.metric.startswith(
                ("mean_", "users_mean_")):
            raise KamonError(f"--target {g.text}: unknown metric; use one of "
                             f"{', '.join(RATE_METRICS)}, mean_<category>, "
                             "users_mean_<category> or max_<column>_win_rate")
        if g.metric.startswith(("users_", "use_")) and search.component is None:
            raise KamonError(f"--target {g.text}: the searched paths name no component "
                             "whose users could be counted")
    out.mkdir(parents=True, exist_ok=True)
    return search


def _typed(p: Param, v: Any) -> Any:
    """A suggested value in the data's type (an int for an integer range)."""
    return int(round(v)) if not p.choices and p.integer else v


def _spec(game: str, players: int, agents: Sequence[str], options: Mapping[str, Any],
          params: Sequence[Param], values: Sequence[Any]) -> SimSpec:
    """The run of these values: the base options with their overlay (refused with the
    path and value when the data does not accept it)."""
    where = overlay_option(game)
    overlay: Any = options.get(where) or {}
    for p, v in zip(params, values, strict=True):
        overlay = combine_overlays(overlay, overlay_for(p.vary.steps, v, p.keys))
    opts = {**options, where: overlay} if overlay else dict(options)
    try:
        state = new_state(SimSpec(game, players, tuple(agents), opts), 0)
    except KamonError as exc:
        what = " and ".join(f"{p.path}={_show(v)}" for p, v in zip(params, values,
                                                                   strict=True))
        raise KamonError(f"{what}: {exc}") from None
    return SimSpec(game, players, tuple(agents), dict(state.options))


def measure_goals(search: Search, table: pa.Table) -> dict[str, float]:
    """Every goal's metric over one run's rows."""
    columns = user_columns(search.game, [table], search.component)
    users = users_mask(table, columns, search.component)
    cats = categories_of(table.schema)
    out = {}
    for g in search.goals:
        m = _MAX.match(g.metric)
        if m:
            out[g.metric] = max_holder_rate(table, m.group(1))[0]
        elif g.metric.startswith(("users_", "use_")) and not columns:
            out[g.metric] = math.nan
        elif g.metric.startswith(("mean_", "users_mean_")) and g.metric.split(
                "mean_", 1)[1] not in cats:
            raise KamonError(f"--target {g.text}: no score category "
                             f"{g.metric.split('mean_', 1)[1]!r} ({', '.join(cats)})")
        else:
            out[g.metric] = measure(g.metric, table, users).value
    return out


def play(search: Search, values: Sequence[Any], file: Path, backend: Backend,
         progress: Callable[[int], None] | None = None) -> tuple[pa.Table, int]:
    """Play (or resume) one set of values on the search's seeds; its rows and games played."""
    spec = (_spec(search.game, search.players, search.agents, search.options,
                  search.params, values) if values else
            SimSpec(search.game, search.players, search.agents, dict(search.options)))
    outcome = run_plan(plan_run(spec, search.seed, search.games, file), backend, None,
                       progress)
    return outcome.table, outcome.played


def run_search(search: Search, trials: int, backend: Backend,
               progress: Callable[[int], None] | None = None) -> list[Trial]:
    """Try `trials` sets of values chosen by TPE (seeded: a rerun resumes), each played on
    the same seeds; the trials in the order tried."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    # a fixed count of random first trials: a longer rerun repeats the shorter one's trials
    sampler = optuna.samplers.TPESampler(seed=search.seed, n_startup_trials=STARTUP)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    folder = search.out / "trials"
    folder.mkdir(parents=True, exist_ok=True)
    done: list[Trial] = []
    for number in range(trials):
        trial = study.ask()
        values = []
        for i, p in enumerate(search.params):
            key = f"v{i}"
            if p.choices:
                pick = trial.suggest_categorical(key, list(range(len(p.choices))))
                values.append(p.choices[int(pick)])
            elif p.integer:
                values.append(trial.suggest_int(key, int(p.low), int(p.high)))
            else:
                values.append(trial.suggest_float(key, p.low, p.high))
        file = folder / file_name([_show(v) for v in values])
        table, played = play(search, values, file, backend, progress)
        metrics = measure_goals(search, table)
        loss = sum(g.miss(metrics[g.metric]) for g in search.goals)
        study.tell(trial, loss if math.isfinite(loss) else 1e9)
        done.append(Trial(number + 1, tuple(values), file, metrics, loss, played, table))
    return done


@dataclass
class Versus:
    """A goal's metric in a variant and in the original, and their paired difference."""

    goal: Goal
    variant: float
    original: float
    diff: Difference | None  # None for a max_ metric (a different item may lead)
    leaders: tuple[str, str] = ("", "")  # a max_ metric's leading item: variant, original


def versus_original(search: Search, trial: Trial, original: pa.Table) -> list[Versus]:
    """Each goal's metric in the trial against the original, game by game."""
    assert trial.table is not None
    base = measure_goals(search, original)
    tables = [trial.table, original]
    games = common_games(tables)
    columns = user_columns(search.game, tables, search.component)
    out = []
    for g in search.goals:
        d = None
        m = _MAX.match(g.metric)
        if m:
            leaders = (max_holder_rate(trial.table, m.group(1))[1],
                       max_holder_rate(original, m.group(1))[1])
            out.append(Versus(g, trial.metrics[g.metric], base[g.metric], None, leaders))
            continue
        if not _MAX.match(g.metric) and not (g.metric.startswith(("users_", "use_"))
                                             and not columns):
            sums = [per_game(g.metric, t, users_mask(t, columns, search.component), games)
                    for t in tables]
            d = paired_difference(sums[0], sums[1])
        out.append(Versus(g, trial.metrics[g.metric], base[g.metric], d))
    return out


def best_trials(trials: Sequence[Trial], k: int) -> list[Trial]:
    """The k lowest-loss trials with distinct values (the first tried on a tie)."""
    seen: set[str] = set()
    out = []
    for t in sorted(trials, key=lambda t: (t.loss, t.number)):
        key = json.dumps(t.values)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out[:k]


def rate_or_mean(metric: str, x: float) -> str:
    """48.3% for a rate, 61.20 for a mean, '-' unmeasured."""
    if math.isnan(x):
        return "-"
    return f"{100 * x:.1f}%" if is_rate(metric) else f"{x:.2f}"


def versus_text(v: Versus) -> tuple[str, str]:
    """The paired difference and its 95% interval ('+2.1 points', '-0.4 to +4.6')."""
    if v.diff is None:
        return "-", (f"not paired: the leading item is {v.leaders[0] or '-'} in the variant, "
                     f"{v.leaders[1] or '-'} in the original")
    scale, unit = (100.0, " points") if is_rate(v.goal.metric) else (1.0, "")
    d = v.diff
    if math.isnan(d.estimate):
        return "-", "-"
    if math.isinf(d.low) or math.isinf(d.high):
        return f"{scale * d.estimate:+.1f}{unit}", "-"
    return f"{scale * d.estimate:+.1f}{unit}", f"{scale * d.low:+.1f} to {scale * d.high:+.1f}"


SEARCH_MD = "search.md"

HOW_TO_READ = (
    "Each trial plays its values on the same seeds as the original. Its miss is the sum "
    "over the targets of |metric - target| (a rate in percentage points, a mean in its own "
    "unit), or for `<=` how far above the bound it is. The values were chosen by Optuna's "
    "TPE sampler. The best variants are compared with the original game by game on the "
    "shared seeds (paired t, or the delta method by game for a rate over a varying number "
    "of clans); a max_<column>_win_rate is not paired, since its leading item may differ. "
    "With few games a trial's miss is noisy: confirm a chosen variant with `kamon compare` "
    "on more seeds.")


def markdown_of(search: Search, trials: Sequence[Trial], original: pa.Table,
                best: Sequence[Trial]) -> str:
    """The Markdown report: what was searched, every trial, the best against the original."""
    game = get_game(search.game)
    out = [f"# kamon search: {game.title}", "",
           f"- **Searched**: {'; '.join(_param_text(p) for p in search.params)}",
           f"- **Targets**: {', '.join(g.text for g in search.goals)}",
           f"- **Players**: {search.players}; **agents**: {', '.join(search.agents)}",
           f"- **Games**: {search.games:,} per trial (seeds {search.seed:,}-"
           f"{search.seed + search.games - 1:,}, the same deals for every trial and the "
           "original)", "", HOW_TO_READ, "", "## Best variants against the original", ""]
    for t in best:
        out += [f"### Trial {t.number}: {t.label(search)} (miss {t.loss:.2f})", "",
                "| target | variant | original | paired difference | 95% interval |",
                "|---|---|---|---|---|"]
        for v in versus_original(search, t, original):
            diff, interval = versus_text(v)
            out.append(f"| {v.goal.text} | {rate_or_mean(v.goal.metric, v.variant)} | "
                       f"{rate_or_mean(v.goal.metric, v.original)} | {diff} | {interval} |")
        out.append("")
    out += ["## Every trial", "", "| trial | " + " | ".join(p.path for p in search.params)
            + " | " + " | ".join(g.metric for g in search.goals) + " | miss |",
            "|" + "---|" * (2 + len(search.params) + len(search.goals))]
    for t in trials:
        out.append(f"| {t.number} | " + " | ".join(_show(v) for v in t.values) + " | "
                   + " | ".join(rate_or_mean(g.metric, t.metrics[g.metric])
                                for g in search.goals) + f" | {t.loss:.2f} |")
    return "\n".join(out) + "\n"


def _param_text(p: Param) -> str:
    """'gardens.cards[id=plant_1].cp in 3..12' or '... in 3, 6, 9'."""
    if p.choices:
        return f"{p.path} in {', '.join(p.vary.texts)}"
    lo, hi = (int(p.low), int(p.high)) if p.integer else (p.low, p.high)
    return f"{p.path} in {lo:g}..{hi:g}"
