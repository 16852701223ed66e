"""`kamon sweep`: one component value tried at several settings, each an ordinary simulation
on the same seeds, then one report of chosen metrics against the value.

A *path* names a value of the component data in overlay terms: object keys joined by
dots, a list item chosen by its merge key in brackets, e.g.
`gardens.cards[id=plant_1].cp` or
`personal_domain.rows[row=top].spaces_under_workers[space=4].reward`. It becomes the
overlay `{"gardens": {"cards": [{"id": "plant_1", "cp": <value>}]}}`. A bracketed value
written in quotes is a string; an unquoted number is tried as written in the data (the
ids of I, Clansman's cards are strings of digits, Passage of Time positions are numbers).
Values are JSON scalars (`12`, `1.5`, `true`, `"a"`) or, failing that, bare text.

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

With a target (`users_win_rate=0.5`; a win rate's default is the fair share, 1 / clans)
the report names the value whose estimate comes closest and its interval.
"""

from __future__ import annotations

import base64
import html
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
from matplotlib.figure import Figure

from kamon import __version__
from kamon.core.errors import DataError, KamonError
from kamon.core.overlay import _MERGE_KEYS, combine_overlays
from kamon.games import get_game
from kamon.sim.backends import Backend
from kamon.sim.features import features_of
from kamon.sim.report import CSS, WIDTH, png_of
from kamon.sim.results import SCORE_PREFIX, categories_of
from kamon.sim.runner import SimSpec, new_state
from kamon.sim.simulation import SimPlan, plan_run, run_plan
from kamon.sim.tournament import wilson

MANIFEST = "sweep.json"
REPORT_HTML = "sweep.html"
REPORT_MD = "sweep.md"
MAX_VARY = 2
RATE_METRICS = ("users_win_rate", "use_rate", "seat1_win_rate", "first_player_win_rate")
DEFAULT_METRICS = ("users_win_rate", "use_rate", "seat1_win_rate", "mean_total")
_NAME = re.compile(r"[^.\[\]=]+")
_SAFE = re.compile(r"[^A-Za-z0-9._+-]")


# ---------------------------------------------------------------- paths and values

@dataclass(frozen=True)
class Step:
    """One step of a path: an object key, or a list item chosen by `key` = `value`."""

    name: str
    key: str | None = None
    value: str | None = None  # the bracketed value as written (quotes removed)
    quoted: bool = False  # written in quotes: a string, never a number


@dataclass(frozen=True)
class Vary:
    """One `--vary PATH=V1,V2,...`: the path and its values (parsed and as written)."""

    path: str
    steps: tuple[Step, ...]
    values: tuple[Any, ...]
    texts: tuple[str, ...]

    @property
    def component(self) -> str | None:
        """The id of the innermost item the path chooses (plant_1), if it chooses one."""
        chosen = [s.value for s in self.steps if s.key is not None]
        return chosen[-1] if chosen else None


def parse_path(text: str) -> tuple[Step, ...]:
    """`gardens.cards[id=plant_1].cp` as steps; KamonError saying what is wrong."""
    where = f"--vary path {text!r}"
    if not text.strip():
        raise KamonError(f"{where}: empty; write e.g. gardens.cards[id=plant_1].cp")
    steps: list[Step] = []
    i, s = 0, text.strip()
    while i < len(s):
        m = _NAME.match(s, i)
        if m is None:
            raise KamonError(f"{where}: expected a key at character {i + 1}; write keys "
                             "joined by dots and items as [id=...], e.g. "
                             "gardens.cards[id=plant_1].cp")
        name = m.group().strip()
        i = m.end()
        steps.append(Step(name))
        if i < len(s) and s[i] == "[":
            end = s.find("]", i)
            inner = s[i + 1:end] if end > 0 else ""
            if end < 0 or "=" not in inner:
                raise KamonError(f"{where}: an item is chosen as [key=value], e.g. "
                                 "[id=plant_1]")
            key, value = (x.strip() for x in inner.split("=", 1))
            if key not in _MERGE_KEYS:
                raise KamonError(f"{where}: items are chosen by {', '.join(_MERGE_KEYS)}, "
                                 f"not {key!r}")
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            if quoted:
                value = value[1:-1]
            if not value:
                raise KamonError(f"{where}: [{key}=] names no item")
            steps.append(Step(f"[{key}]", key, value, quoted))
            i = end + 1
        if i < len(s):
            if s[i] != "." or i + 1 == len(s):
                raise KamonError(f"{where}: unexpected {s[i:]!r}; keys are joined by dots")
            i += 1
    if steps[-1].key is not None:
        raise KamonError(f"{where}: ends at an item; name one of its fields, e.g. "
                         f"{text.strip()}.cp")
    return tuple(steps)


def parse_value(text: str) -> Any:
    """A value as JSON (12, 1.5, true, null, "a", {"gain": {"coin": 1}}), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _split_values(text: str) -> list[str]:
    """Split V1,V2,... at the commas outside brackets and quotes (a value may be JSON)."""
    out, depth, quote, cur = [], 0, "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        cur += ch
    out.append(cur.strip())
    return out


def parse_vary(text: str) -> Vary:
    """`PATH=V1,V2,...` (the first '=' outside brackets splits path and values)."""
    depth, at = 0, -1
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "=" and depth == 0:
            at = i
            break
    if at < 0:
        raise KamonError(f"--vary {text!r}: write PATH=V1,V2,..., e.g. "
                         "--vary gardens.cards[id=plant_1].cp=6,9,12")
    path, rest = text[:at].strip(), text[at + 1:]
    steps = parse_path(path)
    texts = _split_values(rest)
    if not rest.strip() or any(not t for t in texts):
        raise KamonError(f"--vary {text!r}: give the values after '=', separated by commas "
                         "(no empty value)")
    if len(texts) < 2:
        raise KamonError(f"--vary {text!r}: a sweep needs at least 2 values")
    values = tuple(parse_value(t) for t in texts)
    seen: dict[str, str] = {}
    for t, v in zip(texts, values, strict=True):
        canon = json.dumps(v, sort_keys=True)
        if canon in seen:
            raise KamonError(f"--vary {text!r}: the value {t} is given twice")
        seen[canon] = t
    return Vary(path, steps, values, tuple(texts))


def _key_forms(step: Step) -> list[Any]:
    """What a bracketed value may be in the data: the text, and a number if it is one."""
    if step.quoted or step.value is None:
        return [step.value]
    try:
        number = json.loads(step.value)
    except json.JSONDecodeError:
        return [step.value]
    return [step.value, number] if isinstance(number, int | float) and not isinstance(
        number, bool) else [step.value]


def overlay_for(steps: Sequence[Step], value: Any, keys: Sequence[Any] | None = None
                ) -> dict[str, Any]:
    """The overlay setting the path's value: `gardens.cards[id=plant_1].cp` and 12 give
    {"gardens": {"cards": [{"id": "plant_1", "cp": 12}]}} (`keys`: the bracketed values to
    write, in order; default: as written)."""
    return _fold(steps, value, list(keys) if keys is not None else
                 [s.value for s in steps if s.key is not None])


def _fold(steps: Sequence[Step], value: Any, keys: list[Any]) -> dict[str, Any]:
    """Build the overlay from the innermost step outwards."""
    out: Any = value
    for step in reversed(steps):
        if step.key is not None:
            item = dict(out) if isinstance(out, dict) else {}
            out = {"__item__": {step.key: keys.pop(), **item}}
        elif isinstance(out, dict) and "__item__" in out:
            out = {step.name: [out["__item__"]]}
        else:
            out = {step.name: out}
    return dict(out)


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

    @property
    def to_play(self) -> int:
        """Games still to play over every point."""
        return sum(len(p.plan.missing) for p in self.points if p.plan is not None)


def file_name(texts: Sequence[str]) -> str:
    """'12.parquet', '12__3.parquet' (characters unsafe in a file name become '_')."""
    return "__".join(_SAFE.sub("_", t) or "_" for t in texts) + ".parquet"


def _resolve_keys(game: str, players: int, seed: int, options: Mapping[str, Any],
                  vary: Vary) -> list[Any]:
    """The bracketed values of a path as the data writes them (text or number), found by
    setting a game up with the first value; the game's DataError if none fits."""
    forms = [_key_forms(s) for s in vary.steps if s.key is not None]
    first_error: DataError | None = None
    for keys in itertools.product(*forms):
        overlay = combine_overlays(options.get("data_overlay") or {},
                                   overlay_for(vary.steps, vary.values[0], keys))
        try:
            new_state(SimSpec(game, players, (), {**options, "data_overlay": overlay}), seed)
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
    keys = [_resolve_keys(name, players, seed, base, v) for v in varies]
    sweep = Sweep(name, players, tuple(agents), base, tuple(varies), seed, games, out)
    names: dict[str, str] = {}
    for combo in itertools.product(*(range(len(v.values)) for v in varies)):
        overlay: Any = base.get("data_overlay") or {}
        for v, k, i in zip(varies, keys, combo, strict=True):
            overlay = combine_overlays(overlay, overlay_for(v.steps, v.values[i], k))
        opts = {**base, "data_overlay": overlay}
        texts = tuple(v.texts[i] for v, i in zip(varies, combo, strict=True))
        try:
            state = new_state(SimSpec(name, players, tuple(agents), opts), seed)
        except KamonError as exc:
            where = " and ".join(f"{v.path}={t}" for v, t in zip(varies, texts, strict=True))
            raise KamonError(f"{where}: {exc}") from None
        used = getattr(state, "options", None)
        spec = SimSpec(name, players, tuple(agents),
                       dict(used) if isinstance(used, Mapping) else opts)
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
        p.plan = plan_run(p.spec, seed, games, p.out)  # refuses a foreign file
    return sweep


def run_sweep(sweep: Sweep, backend: Backend, size: int | None = None,
              progress: Callable[[int], None] | None = None) -> Sweep:
    """Play what each point still misses (`simulation.run_plan`), keep its rows, write the
    sweep's manifest."""
    for p in sweep.points:
        if p.plan is None:
            p.plan = plan_run(p.spec, sweep.seed, sweep.games, p.out)
        outcome = run_plan(p.plan, backend, size, progress)
        p.table, p.played, p.resumed = outcome.table, outcome.played, outcome.resumed
    manifest = {"game": sweep.game, "players": sweep.players, "agents": list(sweep.agents),
                "seeds": [sweep.seed, sweep.seed + sweep.games - 1],
                "options": {k: v for k, v in sweep.options.items() if k != "data_overlay"},
                "base_overlay": sweep.options.get("data_overlay"),
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


def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (the table to df=9,
    then the Cornish-Fisher expansion, within 0.001 of the exact value)."""
    if df <= 0:
        return math.inf
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
             8: 2.306, 9: 2.262}
    if df in table:
        return table[df]
    z = 1.959964
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% t interval (nan bounds with fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = t_quantile(n - 1) * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _np(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def user_columns(game: str, tables: Sequence[pa.Table], component: str | None) -> list[str]:
    """The text feature columns in which some clan of some table names the component (an
    item `plant_1`, or a label starting `405 `)."""
    if component is None:
        return []
    cols = [c for c, kind in features_of(game).columns.items() if kind == "str"]
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
    if "turn_position" in features_of(game).columns:
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


def analyse_sweep(sweep: Sweep, metrics: Sequence[str] = (),
                  targets: Mapping[str, float] | None = None) -> SweepAnalysis:
    """The chosen metrics (default: DEFAULT_METRICS that apply) at every point."""
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
    return SweepAnalysis(sweep, component, columns, clans, chosen, values, closest, missing)


def _could_be(name: str, catalogue: Mapping[str, Metric]) -> bool:
    """A metric name that exists for some path (the users' metrics need a component)."""
    return name in ("users_win_rate", "use_rate") or (
        name.startswith("users_mean_") and f"mean_{name.removeprefix('users_mean_')}"
        in catalogue)


# ---------------------------------------------------------------- the report

def estimate_text(metric: Metric, e: Estimate) -> tuple[str, str]:
    """('48.3%', '40.1-56.6%') or ('61.20', '58.90-63.50'); '-' when not measured."""
    if not e.known:
        return "-", "-"
    if metric.rate:
        return f"{100 * e.value:.1f}%", f"{100 * e.low:.1f}-{100 * e.high:.1f}%"
    if math.isnan(e.low):
        return f"{e.value:.2f}", "-"
    return f"{e.value:.2f}", f"{e.low:.2f}-{e.high:.2f}"


def target_text(metric: Metric, x: float) -> str:
    """A target in the metric's unit."""
    return f"{100 * x:.1f}%" if metric.rate else f"{x:g}"


def closest_text(a: SweepAnalysis, metric: Metric) -> str | None:
    """The sentence naming the value closest to the metric's target."""
    c = a.closest.get(metric.key)
    if c is None:
        return None
    paths = " and ".join(v.path for v in a.sweep.varies)
    est, interval = estimate_text(metric, c.estimate)
    why = (f"the fair share 1/{a.clans}" if c.default else "the target")
    inside = ("inside" if c.estimate.low <= c.target <= c.estimate.high else "outside")
    text = (f"Closest to {why} ({target_text(metric, c.target)}): {paths} = {c.point.label}, "
            f"{est} (95% interval {interval}, n={c.estimate.n:,}); the target is {inside} "
            "its interval.")
    if len(c.containing) > 1:
        text += (f" The intervals of {len(c.containing)} values hold the target "
                 f"({'; '.join(c.containing)}): more games would be needed to tell them apart.")
    elif not c.containing:
        text += " No value's interval holds the target."
    return text


def _numbers(a: SweepAnalysis, metric: Metric) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a metric's table: one row per point."""
    per_game = metric.unit == "games"
    head = [v.path for v in a.sweep.varies] + ["results file", f"n ({metric.unit})",
                                              *([] if per_game else ["games"]),
                                              "estimate", "95% interval"]
    rows = []
    for p, e in zip(a.sweep.points, a.values[metric.key], strict=True):
        est, interval = estimate_text(metric, e)
        rows.append([*p.texts, p.out.name, f"{e.n:,}",
                     *([] if per_game else [f"{e.games:,}"]), est, interval])
    return head, rows


def _x_positions(vary: Vary) -> tuple[list[float], list[str], bool]:
    """Where each value of the first vary sits on the x axis (numbers as they are)."""
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in vary.values)
    if numeric:
        return [float(v) for v in vary.values], list(vary.texts), True
    return [float(i) for i in range(len(vary.values))], list(vary.texts), False


def games_line(sweep: Sweep) -> str:
    """'20 games per value (seeds 0-19, the same deals for every value)'."""
    per = "pair of values" if len(sweep.varies) > 1 else "value"
    return (f"{sweep.games:,} games per {per} (seeds {sweep.seed:,}-"
            f"{sweep.seed + sweep.games - 1:,}, the same deals for every {per})")


def draw_sweep(a: SweepAnalysis) -> Figure:
    """One panel per metric: the estimate against the value with its 95% interval, the
    target dashed, the closest value ringed; the games behind it in the title."""
    sweep, metrics = a.sweep, a.metrics
    fig = Figure(figsize=(WIDTH, 0.6 + 2.6 * max(1, len(metrics))), layout="constrained")
    first = sweep.varies[0]
    xs, labels, numeric = _x_positions(first)
    series = (list(enumerate(sweep.varies[1].texts)) if len(sweep.varies) > 1
              else [(0, "")])
    span = (max(xs) - min(xs)) if len(xs) > 1 else 1.0
    step = 0.06 * span / max(1, len(series))
    axes: list[Any] = (list(fig.subplots(len(metrics), 1, squeeze=False)[:, 0]) if metrics
                       else [])
    for ax, metric in zip(axes, metrics, strict=True):
        est = a.values[metric.key]
        scale = 100.0 if metric.rate else 1.0
        for s, (j, text) in enumerate(series):
            idx = [i for i, p in enumerate(sweep.points)
                   if len(sweep.varies) == 1 or p.texts[1] == sweep.varies[1].texts[j]]
            px = [xs[first.texts.index(sweep.points[i].texts[0])] +
                  (s - (len(series) - 1) / 2) * step for i in idx]
            ys = [scale * est[i].value if est[i].known else math.nan for i in idx]
            lo = [scale * (est[i].value - est[i].low) if est[i].known and not math.isnan(
                est[i].low) else 0.0 for i in idx]
            hi = [scale * (est[i].high - est[i].value) if est[i].known and not math.isnan(
                est[i].high) else 0.0 for i in idx]
            label = f"{sweep.varies[1].path} = {text}" if text else None
            ax.errorbar(px, ys, yerr=[lo, hi], marker="o", capsize=4, linewidth=1.2,
                        label=label)
            if metric.key in a.closest:
                best = a.closest[metric.key].point
                for x, i in zip(px, idx, strict=True):
                    if sweep.points[i] is best:
                        ax.plot([x], [scale * est[i].value], marker="o", markersize=14,
                                markerfacecolor="none", markeredgecolor="#c62828")
        if metric.key in a.closest:
            c = a.closest[metric.key]
            ax.axhline(scale * c.target, color="#555", linestyle="--", linewidth=1,
                       label=("fair share " if c.default else "target ")
                       + target_text(metric, c.target))
        ns = [e.n for e in est]
        n_text = f"{min(ns):,}" if min(ns) == max(ns) else f"{min(ns):,}-{max(ns):,}"
        ax.set_title(f"{metric.title}\n{games_line(sweep)}; n = {n_text} {metric.unit} "
                     "per point", fontsize=9)
        ax.set_ylabel(("%" if metric.rate else "mean") + " (bars: 95% interval)", fontsize=8)
        ax.set_xticks(xs, labels if not numeric else [f"{x:g}" for x in xs])
        ax.set_xlabel(first.path, fontsize=8)
        ax.grid(alpha=.3)
        if len(series) > 1 or metric.key in a.closest:
            ax.legend(fontsize=7)
    return fig


def run_facts(a: SweepAnalysis) -> list[tuple[str, str]]:
    """What was swept, as (name, value) pairs."""
    sweep = a.sweep
    game = get_game(sweep.game)
    agents = sweep.agents
    who = (f"{agents[0]} in every seat" if len(set(agents)) == 1 and agents
           else ", ".join(f"seat {i + 1}: {x}" for i, x in enumerate(agents)))
    facts = [("Game", f"{game.title} ({sweep.game})"), ("Players", str(sweep.players)),
             ("Agents", who), ("Games", games_line(sweep))]
    for v in sweep.varies:
        facts.append(("Varied", f"{v.path} = {', '.join(v.texts)}"))
    opts = {k: v for k, v in sweep.options.items() if k != "data_overlay"}
    if opts:
        facts.append(("Options", ", ".join(f"{k}={v}" for k, v in opts.items())))
    if sweep.options.get("data_overlay"):
        facts.append(("Base overlay", json.dumps(sweep.options["data_overlay"])))
    if a.columns:
        facts.append(("Users", f"clans whose {' or '.join(a.columns)} names {a.component}"))
    return facts


HOW_TO_READ = (
    "Each value is an ordinary simulation of its own (the results file named in the table; "
    "`kamon report FILE` reports it alone), played on the same seeds, so the values are "
    "compared on the same deals. Intervals are 95%: Wilson score intervals for rates (over "
    "seat results; a win counts 1/k to each of k shared winners), Student's t for means "
    "(the mean per clan over games). The results describe the agents named above, not "
    "expert play; the users of a component are the clans that took or used it, which says "
    "what goes with winning, not what causes it.")


def markdown_of(a: SweepAnalysis) -> str:
    """The Markdown report."""
    game = get_game(a.sweep.game)
    out = [f"# kamon sweep: {game.title}, {' and '.join(v.path for v in a.sweep.varies)}",
           "", f"By kamon {__version__} (`kamon sweep`).", ""]
    out += [f"- **{k}**: {v}" for k, v in run_facts(a)]
    out += ["", HOW_TO_READ, ""]
    for m in a.missing:
        out += [f"*{m}: not measured: the path names no component that the game's feature "
                "columns record a clan taking.*", ""]
    out += ["![The metrics against the value](sweep.png)", ""]
    for metric in a.metrics:
        head, rows = _numbers(a, metric)
        out += [f"## {metric.title}", "", f"*`{metric.key}`; {games_line(a.sweep)}.*", ""]
        line = closest_text(a, metric)
        if line:
            out += [line, ""]
        out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out.append("")
    return "\n".join(out)


def html_of(a: SweepAnalysis, png: bytes) -> str:
    """The HTML report (the figure embedded)."""
    esc = html.escape
    game = get_game(a.sweep.game)
    title = f"kamon sweep: {game.title}, {' and '.join(v.path for v in a.sweep.varies)}"
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{esc(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f'<p class="meta">By kamon {esc(__version__)} (<code>kamon sweep</code>).</p>',
           '<dl class="run">']
    out += [f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in run_facts(a)]
    out += ["</dl>", f"<p>{esc(HOW_TO_READ)}</p>"]
    out += [f'<p class="notes">{esc(m)}: not measured: the path names no component that '
            "the game's feature columns record a clan taking.</p>" for m in a.missing]
    data = base64.b64encode(png).decode("ascii")
    out += [f'<p class="meta">{esc(games_line(a.sweep))}</p>',
            f'<img alt="the metrics against the value" src="data:image/png;base64,{data}">']
    for metric in a.metrics:
        head, rows = _numbers(a, metric)
        out += [f'<section id="{metric.key}">', f"<h2>{esc(metric.title)}</h2>",
                f'<p class="meta"><code>{metric.key}</code>; {esc(games_line(a.sweep))}</p>']
        line = closest_text(a, metric)
        if line:
            out.append(f'<p class="reading">{esc(line)}</p>')
        out.append("<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
        out.append("</table></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


@dataclass
class SweepReport:
    """Where the report went and what it says."""

    html: Path
    markdown: Path
    figure: Path
    analysis: SweepAnalysis


def write_sweep_report(a: SweepAnalysis) -> SweepReport:
    """DIR/sweep.html (figure embedded), DIR/sweep.md and its figure DIR/sweep.png."""
    out = a.sweep.out
    png = png_of(draw_sweep(a))
    paths = (out / REPORT_HTML, out / REPORT_MD, out / "sweep.png")
    try:
        paths[2].write_bytes(png)
        paths[0].write_text(html_of(a, png), encoding="utf-8")
        paths[1].write_text(markdown_of(a), encoding="utf-8")
    except OSError as exc:
        raise KamonError(f"cannot write the report: {exc.strerror} ({exc.filename})") from None
    return SweepReport(paths[0], paths[1], paths[2], a)
