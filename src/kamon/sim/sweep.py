"""`kamon sweep`: one component value tried at several settings, each an ordinary simulation
on the same seeds, then one report of chosen metrics against the value.

A *path* names a value of the component data in overlay terms
(`gardens.cards[id=plant_1].cp`: `kamon.core.overlay_paths`).

An axis may also be one of the game's options (from its option schema: `--vary
expert=false,true`, or `--vary difficulty` for every value it allows): each value is
then a setting of that option, over the same seeds.

Each value (or pair of values, with two `--vary`) is played as `kamon simulate` plays it
(`sim.simulation.plan_run` / `run_plan`), to `DIR/<value>.parquet` (`<v1>__<v2>` for a
pair): resumable and reportable on its own, and on the same seeds for every value, so
the values are compared on the same deals. The metrics (with 95% intervals: Wilson for
rates, Student's t for means) are:

- `users_win_rate`: the win rate of the clans that took or used the varied component,
  found by its id in the game's feature columns (`kamon.games.<game>.features`: in The
  White Castle the castle cards, gardens, yards and starting cards a clan took);
- `use_rate`: the share of clans that took or used it;
- `seat1_win_rate`: the first seat's win rate; `first_player_win_rate`: the win rate of
  the clan that played first in round 1 (when the game's features record it);
- `mean_<category>`: the mean score of a category per clan (`mean_total`,
  `mean_gardeners`...), the interval over games; `users_mean_<category>`: the same for
  the clans that used the component.

Every point is also compared with a base point (`--base`; default the first) game by
game on the shared seeds (`sim.sweep_fit`: a paired t, or the delta method by game for a
rate over a varying number of clans). With a target (`users_win_rate=0.5`; a win rate's
default is the fair share, 1 / clans) and a numeric axis, a weighted line is fitted and
solved for the value meeting the target, with a bootstrap interval over the shared games;
otherwise the report (`sim.sweep_report`) names the value whose estimate comes closest.
Users are counted by clan (once however many times a clan holds the component), as
`compare` counts holders.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from kamon.core.errors import DataError, KamonError
from kamon.core.overlay import combine_overlays
from kamon.core.overlay_paths import Vary, key_forms, overlay_for, parse_vary
from kamon.games import get_game
from kamon.sim.backends import Backend
from kamon.sim.results import SCORE_PREFIX, NotResults, categories_of, read_results
from kamon.sim.runner import SimSpec, new_state
from kamon.sim.simulation import SimPlan, plan_run, run_plan
from kamon.sim.stats import Difference, t_ppf, wilson
from kamon.sim.sweep_fit import Fit, common_games, fit_target, paired_difference, per_game

MANIFEST = "sweep.json"
MAX_VARY = 2
RATE_METRICS = ("users_win_rate", "use_rate", "seat1_win_rate", "first_player_win_rate")
DEFAULT_METRICS = ("users_win_rate", "use_rate", "seat1_win_rate", "mean_total")
_SAFE = re.compile(r"[^A-Za-z0-9._+-]")


# ---------------------------------------------------------------- the runs

@dataclass
class SweepPoint:
    """One setting of the varied values: its overlay, results file and rows."""

    values: tuple[Any, ...]
    texts: tuple[str, ...]
    out: Path
    spec: SimSpec
    plan: SimPlan | None = None
    table: pa.Table | None = None
    played: int = 0
    resumed: int = 0
    damaged: Path | None = None  # where an unreadable results file was moved

    @property
    def label(self) -> str:
        """'12' or '12, 3' (the values as written)."""
        return ", ".join(self.texts)


@dataclass
class Sweep:
    """A planned sweep: what is varied, the runs, where they go."""

    game: str
    players: int
    agents: tuple[str, ...]
    options: dict[str, Any]
    varies: tuple[Vary, ...]
    seed: int
    games: int
    out: Path
    points: list[SweepPoint] = field(default_factory=list)
    recovered: list[SweepPoint] = field(default_factory=list)  # damaged files re-run

    @property
    def to_play(self) -> int:
        """Games still to play over every point."""
        return sum(len(p.plan.missing) for p in self.points if p.plan is not None)


def file_name(texts: Sequence[str]) -> str:
    """'12.parquet', '12__3.parquet' (characters unsafe in a file name become '_')."""
    return "__".join(_SAFE.sub("_", t) or "_" for t in texts) + ".parquet"


def parse_axis(game: str, text: str) -> Vary:
    """A `--vary` axis: an option of the game (`expert=false,true`; its name alone: every
    value it allows), or a component value in overlay terms (`PATH=V1,V2,...`)."""
    options = get_game(game).options
    name, sep, rest = text.partition("=")
    opt = options.get(name.strip())
    if opt is None or opt.type == "overlay":
        return parse_vary(text)
    if sep:
        texts = tuple(t.strip() for t in rest.split(",") if t.strip())
        values = tuple(options.value_of(opt.name, t) for t in texts)
    else:
        values = tuple(options.values_of(opt.name))
        texts = tuple(json.dumps(v) if isinstance(v, bool) else str(v) for v in values)
    if len(set(map(json.dumps, values))) != len(values) or len(values) < 2:
        raise KamonError(f"--vary {text!r}: an option axis needs 2 or more different values")
    return Vary(opt.name, (), values, texts)


def overlay_option(game: str) -> str:
    """The game's option that takes a data overlay (KamonError if it has none: a
    component's value cannot be varied)."""
    g = get_game(game)
    where = g.options.overlay
    if where is None:
        raise KamonError(f"{g.title} takes no data overlay: vary one of its options "
                         f"({', '.join(g.options)})")
    return where


def is_option_axis(vary: Vary) -> bool:
    """Does the axis set an option (no component path)?"""
    return not vary.steps


def _resolve_keys(game: str, players: int, seed: int, options: Mapping[str, Any],
                  vary: Vary) -> list[Any]:
    """The bracketed values of a path as the data writes them (text or number), found by
    setting a game up with the first value; the game's DataError if none fits (an option
    axis has none)."""
    if is_option_axis(vary):
        return []
    where = overlay_option(game)
    forms = [key_forms(s) for s in vary.steps if s.key is not None]
    first_error: DataError | None = None
    for keys in itertools.product(*forms):
        overlay = combine_overlays(options.get(where) or {},
                                   overlay_for(vary.steps, vary.values[0], keys))
        try:
            new_state(SimSpec(game, players, (), {**options, where: overlay}), seed)
        except DataError as exc:
            first_error = first_error or exc
            if "does not exist" in str(exc):
                continue
            raise
        return list(keys)
    assert first_error is not None
    raise first_error


def plan_sweep(game: str, players: int, agents: Sequence[str], options: Mapping[str, Any],
               varies: Sequence[Vary], seed: int, games: int, out: Path) -> Sweep:
    """Check every setting (each overlay sets a game up) and plan its run into `out`;
    nothing is played. KamonError for a bad path, value or output."""
    name = get_game(game).name
    if not 1 <= len(varies) <= MAX_VARY:
        raise KamonError(f"give 1 or {MAX_VARY} --vary (got {len(varies)})")
    if len({v.path for v in varies}) != len(varies):
        raise KamonError("the same path is varied twice")
    if games < 1:
        raise KamonError("--games must be at least 1")
    if out.exists() and not out.is_dir():
        raise KamonError(f"--out {out}: a sweep writes a folder (one results file per value, "
                         "and the report); this is a file")
    base = dict(options)
    where = get_game(name).options.overlay
    keys = [_resolve_keys(name, players, seed, base, v) for v in varies]
    sweep = Sweep(name, players, tuple(agents), base, tuple(varies), seed, games, out)
    names: dict[str, str] = {}
    for combo in itertools.product(*(range(len(v.values)) for v in varies)):
        overlay: Any = base.get(where) or {} if where is not None else {}
        set_options: dict[str, Any] = {}
        for v, k, i in zip(varies, keys, combo, strict=True):
            if is_option_axis(v):
                set_options[v.path] = v.values[i]
            else:
                overlay = combine_overlays(overlay, overlay_for(v.steps, v.values[i], k))
        opts = {**base, **set_options}
        if where is not None and (overlay or where in base):
            opts[where] = overlay
        texts = tuple(v.texts[i] for v, i in zip(varies, combo, strict=True))
        try:
            state = new_state(SimSpec(name, players, tuple(agents), opts), seed)
        except KamonError as exc:
            where = " and ".join(f"{v.path}={t}" for v, t in zip(varies, texts, strict=True))
            raise KamonError(f"{where}: {exc}") from None
        spec = SimSpec(name, players, tuple(agents), dict(state.options))
        fname = file_name(texts)
        if fname in names:
            raise KamonError(f"the values {names[fname]} and {', '.join(texts)} would share "
                             f"the file {fname}: write them differently")
        names[fname] = ", ".join(texts)
        sweep.points.append(SweepPoint(tuple(v.values[i] for v, i in zip(varies, combo,
                                                                        strict=True)),
                                       texts, out / fname, spec))
    out.mkdir(parents=True, exist_ok=True)
    for p in sweep.points:
        p.plan = plan_point(p, seed, games)
        if p.damaged is not None:
            sweep.recovered.append(p)
    return sweep


def plan_point(p: SweepPoint, seed: int, games: int) -> SimPlan:
    """Plan one value's run. A results file of another run is refused (`plan_run`); a file
    that cannot be read at all (cut short by a lost disk or a kill) is moved aside to
    `<name>.damaged` and that value alone is played again: the other values are kept."""
    if p.out.is_file():
        try:
            read_results(p.out)
        except NotResults:
            p.damaged = p.out.with_name(p.out.name + ".damaged")
            p.out.replace(p.damaged)
    return plan_run(p.spec, seed, games, p.out)


def run_sweep(sweep: Sweep, backend: Backend, size: int | None = None,
              progress: Callable[[int], None] | None = None) -> Sweep:
    """Play what each point still misses (`simulation.run_plan`), keep its rows, write the
    sweep's manifest."""
    for p in sweep.points:
        if p.plan is None:
            p.plan = plan_run(p.spec, sweep.seed, sweep.games, p.out)
        outcome = run_plan(p.plan, backend, size, progress)
        p.table, p.played, p.resumed = outcome.table, outcome.played, outcome.resumed
    where = get_game(sweep.game).options.overlay
    manifest = {"game": sweep.game, "players": sweep.players, "agents": list(sweep.agents),
                "seeds": [sweep.seed, sweep.seed + sweep.games - 1],
                "options": {k: v for k, v in sweep.options.items() if k != where},
                "base_overlay": sweep.options.get(where) if where is not None else None,
                "vary": [{"path": v.path, "values": list(v.values)} for v in sweep.varies],
                "files": {p.label: p.out.name for p in sweep.points}}
    (sweep.out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return sweep


# ---------------------------------------------------------------- metrics

@dataclass
class Estimate:
    """A metric at one point: the estimate, its 95% interval, the results behind it."""

    value: float
    low: float
    high: float
    n: int  # seat results (rates, users' means) or games (means per game)
    games: int

    @property
    def known(self) -> bool:
        """False when nothing was measured (no clan used the component)."""
        return self.n > 0 and not math.isnan(self.value)


@dataclass(frozen=True)
class Metric:
    """A metric by name: what it measures, whether it is a rate, its unit of n."""

    key: str
    title: str
    rate: bool
    unit: str  # "seat results" or "games"


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% t interval (nan bounds with fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = t_ppf(0.975, n - 1) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _np(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def user_columns(game: str, tables: Sequence[pa.Table], component: str | None) -> list[str]:
    """The text feature columns in which some clan of some table names the component (an
    item `plant_1`, or a label starting `405 `)."""
    if component is None:
        return []
    cols = [c for c, kind in get_game(game).features.columns.items() if kind == "str"]
    found = []
    for col in cols:
        for t in tables:
            if col in t.column_names and _mentions(t[col], component).any():
                found.append(col)
                break
    return found


def _mentions(column: pa.ChunkedArray, component: str) -> np.ndarray:
    """Per row: does this ';'-list name the component?"""
    out = []
    for text in column.to_pylist():
        parts = str(text or "").split(";")
        out.append(any(p == component or p.startswith(component + " ") for p in parts))
    return np.asarray(out, dtype=bool)


def users_mask(table: pa.Table, columns: Sequence[str], component: str | None) -> np.ndarray:
    """Which rows used the component (any of the columns names it)."""
    mask = np.zeros(table.num_rows, dtype=bool)
    for col in columns:
        mask |= _mentions(table[col], component or "")
    return mask


def metric_catalogue(game: str, categories: Sequence[str], component: str | None,
                     columns: Sequence[str]) -> dict[str, Metric]:
    """Every metric this sweep can measure, by name."""
    where = f" ({', '.join(columns)})" if columns else ""
    what = component or "the component"
    out = {}
    if columns:
        out["users_win_rate"] = Metric("users_win_rate",
                                       f"Win rate of the clans that used {what}{where}",
                                       True, "seat results")
        out["use_rate"] = Metric("use_rate", f"Share of clans that used {what}{where}", True,
                                 "seat results")
    out["seat1_win_rate"] = Metric("seat1_win_rate", "Win rate of the first seat", True,
                                   "seat results")
    if "turn_position" in get_game(game).features.columns:
        out["first_player_win_rate"] = Metric(
            "first_player_win_rate", "Win rate of the clan that played first in round 1",
            True, "seat results")
    for cat in categories:
        out[f"mean_{cat}"] = Metric(f"mean_{cat}", f"Mean {cat.replace('_', ' ')} score per "
                                    "clan", False, "games")
        if columns:
            out[f"users_mean_{cat}"] = Metric(
                f"users_mean_{cat}", f"Mean {cat.replace('_', ' ')} score of the clans that "
                f"used {what}", False, "seat results")
    return out


def measure(metric: str, table: pa.Table, users: np.ndarray) -> Estimate:
    """One metric over one point's rows."""
    seeds = _np(table, "seed")
    share = _np(table, "win_share").astype(float)
    if metric in ("users_win_rate", "use_rate", "seat1_win_rate", "first_player_win_rate"):
        if metric == "use_rate":
            rows = np.ones(len(seeds), dtype=bool)
            hits = users.astype(float)
        else:
            rows = (users if metric == "users_win_rate" else
                    _np(table, "seat") == 1 if metric == "seat1_win_rate" else
                    _np(table, "turn_position") == 1)
            hits = share
        n = int(rows.sum())
        wins = float(hits[rows].sum())
        lo, hi = wilson(wins, n)
        return Estimate(wins / n if n else math.nan, lo, hi, n, len(set(seeds[rows].tolist())))
    users_only = metric.startswith("users_mean_")
    cat = metric.removeprefix("users_mean_" if users_only else "mean_")
    scores = _np(table, SCORE_PREFIX + cat).astype(float)
    if users_only:
        mean, lo, hi = mean_interval(scores[users])
        return Estimate(mean, lo, hi, int(users.sum()), len(set(seeds[users].tolist())))
    order = np.argsort(seeds, kind="stable")
    uniq, starts = np.unique(seeds[order], return_index=True)
    per_game = np.add.reduceat(scores[order], starts) / np.diff(np.append(starts, len(seeds)))
    mean, lo, hi = mean_interval(per_game)
    return Estimate(mean, lo, hi, len(uniq), len(uniq))


def parse_targets(texts: Sequence[str]) -> dict[str, float]:
    """`users_win_rate=0.5` or `=50%` (a rate) or `mean_total=60` as {metric: value}."""
    out = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        name, raw = name.strip(), raw.strip()
        try:
            value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
        except ValueError:
            value = math.nan
        if not sep or not name or math.isnan(value):
            raise KamonError(f"--target {text!r}: write METRIC=VALUE, e.g. "
                             "users_win_rate=0.5 (or 50%) or mean_total=60")
        out[name] = value
    return out


@dataclass
class Closest:
    """The point whose estimate comes closest to a target."""

    target: float
    point: SweepPoint
    estimate: Estimate
    containing: list[str]  # labels of the points whose interval holds the target
    default: bool  # the fair share 1/clans, not a --target


@dataclass
class SweepAnalysis:
    """Every chosen metric at every point, and the closest point to each target."""

    sweep: Sweep
    component: str | None
    columns: list[str]
    clans: int
    metrics: list[Metric]
    values: dict[str, list[Estimate]]  # metric -> one estimate per point
    closest: dict[str, Closest]
    missing: list[str]  # metrics asked for that this game or path cannot measure
    base: int = 0  # the point every other is compared with, on the shared games
    paired: dict[str, list[Difference | None]] = field(default_factory=dict)
    fits: dict[str, Fit] = field(default_factory=dict)
    shared: int = 0  # games every point holds (the pairs)

    @property
    def base_point(self) -> SweepPoint:
        """The point the paired differences are taken against."""
        return self.sweep.points[self.base]


def closest_point(points: Sequence[SweepPoint], estimates: Sequence[Estimate],
                  target: float, default: bool = False) -> Closest | None:
    """The point with the estimate nearest the target (the first on a tie); None if no
    point has an estimate."""
    known = [(abs(e.value - target), i) for i, e in enumerate(estimates) if e.known]
    if not known:
        return None
    best = min(known)[1]
    holding = [p.label for p, e in zip(points, estimates, strict=True)
               if e.known and e.low <= target <= e.high]
    return Closest(target, points[best], estimates[best], holding, default)


def base_index(sweep: Sweep, base: str | None) -> int:
    """The point named by `--base` (its values as written, e.g. '9' or '9, 3'); the first
    point without one. KamonError for a label the sweep does not have."""
    if base is None:
        return 0
    want = [t.strip() for t in base.split(",")]
    for i, p in enumerate(sweep.points):
        if list(p.texts) == want:
            return i
    raise KamonError(f"--base {base!r} is not one of the swept values "
                     f"({'; '.join(p.label for p in sweep.points)})")


def numeric_axis(sweep: Sweep) -> bool:
    """One varied value, every value a number: a curve can be fitted."""
    return len(sweep.varies) == 1 and all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in sweep.varies[0].values)


def analyse_sweep(sweep: Sweep, metrics: Sequence[str] = (),
                  targets: Mapping[str, float] | None = None,
                  base: str | None = None) -> SweepAnalysis:
    """The chosen metrics (default: DEFAULT_METRICS that apply) at every point, each point's
    paired difference from the base point on the shared games, and for a numeric axis
    the fitted value that meets each target (`sweep_fit`)."""
    tables = [p.table for p in sweep.points]
    if any(t is None for t in tables):
        raise KamonError("the sweep has not run")
    tabs = [t for t in tables if t is not None]
    component = sweep.varies[0].component
    for v in sweep.varies[1:]:
        component = component or v.component
    columns = user_columns(sweep.game, tabs, component)
    clans = max((int(pc.max(t["seat"]).as_py() or 0) for t in tabs if t.num_rows),
                default=sweep.players)
    catalogue = metric_catalogue(sweep.game, categories_of(tabs[0].schema), component, columns)
    targets = dict(targets or {})
    asked = list(metrics) or [m for m in DEFAULT_METRICS if m in catalogue]
    asked += [m for m in targets if m not in asked]
    missing = [m for m in asked if m not in catalogue]
    unknown = [m for m in missing if not _could_be(m, catalogue)]
    if unknown:
        raise KamonError(f"unknown metric {unknown[0]!r}; this sweep can measure: "
                         f"{', '.join(catalogue)}")
    chosen = [catalogue[m] for m in asked if m in catalogue]
    values = {m.key: [measure(m.key, t, users_mask(t, columns, component)) for t in tabs]
              for m in chosen}
    closest: dict[str, Closest] = {}
    for m in chosen:
        default = m.key not in targets and m.rate and m.key != "use_rate"
        if m.key in targets or default:
            target = targets.get(m.key, 1 / clans)
            found = closest_point(sweep.points, values[m.key], target, default)
            if found is not None:
                closest[m.key] = found
    out = SweepAnalysis(sweep, component, columns, clans, chosen, values, closest, missing,
                        base_index(sweep, base))
    games = common_games(tabs)
    out.shared = len(games)
    masks = [users_mask(t, columns, component) for t in tabs]
    for m in chosen:
        sums = [per_game(m.key, t, u, games) for t, u in zip(tabs, masks, strict=True)]
        ref = sums[out.base]
        out.paired[m.key] = [None if i == out.base or not len(games) else
                             paired_difference(s, ref) for i, s in enumerate(sums)]
        if m.key in closest and numeric_axis(sweep):
            fit = fit_target([float(p.values[0]) for p in sweep.points], sums,
                             closest[m.key].target, seed=sweep.seed, logistic=m.rate)
            if fit is not None:
                out.fits[m.key] = fit
    return out


def _could_be(name: str, catalogue: Mapping[str, Metric]) -> bool:
    """A metric name that exists for some path (the users' metrics need a component)."""
    return name in ("users_win_rate", "use_rate") or (
        name.startswith("users_mean_") and f"mean_{name.removeprefix('users_mean_')}"
        in catalogue)
