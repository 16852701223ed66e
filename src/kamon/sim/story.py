"""The story of a game: per-decision logs (`kamon simulate --decisions`) and the Ludii/TAG-
style measures read from them — lead changes, drama, decisiveness — and which early
choices go with winning.

**The decisions file** sits beside the results (`results.parquet` ->
`results.decisions.parquet`), one row per decision: `seed`, `rotation` (a game is a
(seed, rotation) pair, as in the results), `decision` (1.. in the game), `round` (the
round it was taken in; null for a game without rounds), `seat` (1..), `action` (the
game's action id; `Game.action_text` names it) and `scores` (every clan's score total
right after it, the solo rival included, by seat). The run key of the results is in its
Parquet metadata, so a log is never read against another run's results.

**Per game** (`game_stories`), with the eventual winner (the results' `winner`; of a
shared victory, the best-placed total among the winners):

* lead changes: how often the sole leader by score total changes (ties keep the last
  sole leader; Ludii's "lead change");
* drama: whether the winner was ever behind (another clan's total above the winner's
  after some decision) and its largest deficit in points (Ludii's "drama": the winner
  trailing and how far);
* decisiveness: the share of the game's decisions after which the winner was never
  behind again (0: never behind; 0.9: still behind with a tenth of the game to go;
  Ludii's "decisiveness threshold").

`summarise` turns them into `StoryMetric`s (with 95% intervals) and the win rates of
each seat's first pick and of the order of first moves (`early_choices`);
`story_html`/`story_markdown` are the sections of `kamon report`, `compare_stories` the
section of `kamon compare`.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kamon.core.errors import KamonError
from kamon.sim.results import META_KEY, RunKey, canonical_options, key_of
from kamon.sim.stats import Z95, two_proportion, welch, wilson

FORMAT = "kamon-decisions"
VERSION = 1
SUFFIX = ".decisions.parquet"
DECISION_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("seed", pa.int64()),
    ("rotation", pa.int32()),
    ("decision", pa.int32()),
    ("round", pa.int32()),
    ("seat", pa.int32()),
    ("action", pa.int32()),
    ("scores", pa.list_(pa.int32())),
)
MIN_GROUP = 10  # an early choice made fewer times than this is left out of its table
TOP_PICKS = 8  # of many early choices, the highest and the lowest win rates shown


# --- the file --------------------------------------------------------------------------

def decisions_path(results: Path) -> Path:
    """Where the decision logs of a results file are: `x.parquet` -> `x.decisions.parquet`."""
    return results.with_name(results.stem + SUFFIX)


@lru_cache(maxsize=32)
def decisions_schema(key: RunKey) -> pa.Schema:
    """The schema of a run's decisions table, its run key in the metadata."""
    fields = [pa.field(n, t, nullable=n == "round") for n, t in DECISION_COLUMNS]
    meta = {"format": FORMAT, "version": VERSION, "game": key.game, "players": key.players,
            "options": json.loads(key.options), "agents": list(key.agents),
            "seats": key.seats}
    return pa.schema(fields, metadata={META_KEY: json.dumps(meta, sort_keys=True).encode()})


def decisions_table(columns: dict[str, list[object]], key: RunKey) -> pa.Table:
    """A game's log columns (`game_loop.DecisionLog.columns`) as a table of the run."""
    return pa.table(columns, schema=decisions_schema(key))


def concat_decisions(tables: Sequence[pa.Table], key: RunKey) -> pa.Table:
    """Logs of one run as one table, ordered by seed, rotation and decision, each once."""
    schema = decisions_schema(key)
    if not tables:
        return schema.empty_table()
    table = pa.concat_tables([t.replace_schema_metadata(schema.metadata) for t in tables])
    order = [("seed", "ascending"), ("rotation", "ascending"), ("decision", "ascending")]
    table = table.take(pc.sort_indices(table, order))
    keys = np.stack([_np(table, c) for c in ("seed", "rotation", "decision")])
    keep = np.ones(table.num_rows, dtype=bool)
    keep[1:] = (keys[:, 1:] != keys[:, :-1]).any(axis=0)
    return table if keep.all() else table.filter(pa.array(keep))


def key_of_decisions(table: pa.Table) -> RunKey:
    """The run key a decisions table was written for (KamonError if it has none)."""
    raw = (table.schema.metadata or {}).get(META_KEY)
    try:
        meta = json.loads(raw) if raw is not None else None
    except json.JSONDecodeError:
        meta = None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise KamonError("it is not a kamon decisions file (no kamon-decisions metadata)")
    if meta.get("version") != VERSION:
        raise KamonError(f"decisions format version {meta.get('version')} (this kamon reads "
                         f"version {VERSION})")
    return RunKey(str(meta["game"]), int(meta["players"]), canonical_options(meta["options"]),
                  tuple(str(a) for a in meta["agents"]), str(meta.get("seats", "fixed")))


def read_decisions(path: Path, key: RunKey | None = None) -> pa.Table:
    """A decisions file, checked (and against the results' run key when given)."""
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError) as exc:
        raise KamonError(f"{path} is not a kamon decisions file: cannot read it ({exc})"
                         ) from None
    try:
        found = key_of_decisions(table)
        for name, typ in DECISION_COLUMNS:
            if name not in table.schema.names or table.schema.field(name).type != typ:
                raise KamonError(f"no column {name!r} of type {typ}")
    except KamonError as exc:
        raise KamonError(f"{path} is not a kamon decisions file: {exc}") from None
    if key is not None and found != key:
        raise KamonError(f"{path} holds the decisions of {found.describe()}, not of its "
                         f"results ({key.describe()}): move it away")
    return table


def write_decisions(table: pa.Table, path: Path) -> None:
    """Write a decisions table atomically (a temporary file renamed into place)."""
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


# --- one game at a time ----------------------------------------------------------------

@dataclass(frozen=True)
class GameStory:
    """How one game unfolded, seen from its eventual winner (see the module's docstring)."""

    seed: int
    rotation: int
    decisions: int
    lead_changes: int
    trailed: bool  # the winner was behind after some decision
    max_deficit: int  # the winner's largest deficit, points (0 if never behind)
    settled: float  # share of the decisions after which the winner was never behind again


def _np(table: pa.Table, name: str) -> np.ndarray:
    """A column as numpy."""
    return np.asarray(table[name].to_numpy(zero_copy_only=False))


def story_of(totals: np.ndarray, winners: Sequence[int]) -> tuple[int, bool, int, float]:
    """(lead changes, trailed, largest deficit, settled share) of one game from its totals
    after each decision (decisions x clans) and its winners (0-based clans).

    >>> story_of(np.array([[1, 0], [1, 2], [3, 2], [3, 4], [5, 4]]), [0])
    (4, True, 1, 0.8)
    """
    n = len(totals)
    if n == 0:
        return 0, False, 0, 0.0
    best = totals.max(axis=1)
    top = totals == best[:, None]
    sole = top.sum(axis=1) == 1
    leader = np.where(sole, totals.argmax(axis=1), -1)
    seq = leader[leader >= 0]
    changes = int((seq[1:] != seq[:-1]).sum()) if len(seq) > 1 else 0
    mine = totals[:, list(winners)].max(axis=1)
    deficit = best - mine
    behind = np.flatnonzero(deficit > 0)
    settled = float(behind[-1] + 1) / n if len(behind) else 0.0
    return changes, bool(len(behind)), int(deficit.max()), settled


def game_stories(decisions: pa.Table, results: pa.Table) -> list[GameStory]:
    """The story of every game of the results that has a log, in (seed, rotation) order."""
    if decisions.num_rows == 0:
        return []
    won: dict[tuple[int, int], list[int]] = {}
    for s, r, q, w in zip(_np(results, "seed").tolist(), _np(results, "rotation").tolist(),
                          _np(results, "seat").tolist(), _np(results, "winner").tolist(),
                          strict=True):
        if w:
            won.setdefault((int(s), int(r)), []).append(int(q) - 1)
    seeds, rots = _np(decisions, "seed"), _np(decisions, "rotation")
    flat = np.asarray(pc.list_flatten(decisions["scores"]).to_numpy(zero_copy_only=False))
    lengths = np.asarray(pc.list_value_length(decisions["scores"]).to_numpy(
        zero_copy_only=False))
    starts = np.concatenate([[0], np.cumsum(lengths)])
    cut = np.flatnonzero((seeds[1:] != seeds[:-1]) | (rots[1:] != rots[:-1])) + 1
    bounds = [0, *cut.tolist(), len(seeds)]
    out = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        game = (int(seeds[a]), int(rots[a]))
        winners = won.get(game)
        clans = int(lengths[a])
        if not winners or clans == 0:
            continue  # a log without its results (or an empty game): no story to tell
        totals = flat[starts[a]:starts[b]].reshape(b - a, clans)
        changes, trailed, deficit, settled = story_of(totals, winners)
        out.append(GameStory(game[0], game[1], b - a, changes, trailed, deficit, settled))
    return out


# --- many games ------------------------------------------------------------------------

@dataclass(frozen=True)
class StoryMetric:
    """A measure over games: its value, 95% interval, the games behind it and its meaning."""

    name: str
    value: float
    low: float
    high: float
    games: int
    meaning: str
    kind: str = "mean"  # "mean" or "rate" (how to show it)


@dataclass(frozen=True)
class Choice:
    """Win rate of the seats that made an early choice."""

    label: str
    n: int
    wins: float
    low: float
    high: float

    @property
    def rate(self) -> float:
        """Wins per seat result."""
        return self.wins / self.n if self.n else 0.0


@dataclass
class Story:
    """The story measures of a run, and its early choices."""

    games: int
    metrics: list[StoryMetric]
    first_picks: list[Choice] = field(default_factory=list)
    round_picks: list[Choice] = field(default_factory=list)
    first_order: list[Choice] = field(default_factory=list)
    fair: float = 0.0  # an even table's win rate per seat


def _mean_metric(name: str, values: np.ndarray, meaning: str) -> StoryMetric:
    """The mean of per-game values with its normal 95% interval."""
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return StoryMetric(name, mean, mean - half, mean + half, n, meaning)


def _rate_metric(name: str, hits: np.ndarray, meaning: str) -> StoryMetric:
    """A share of games with its Wilson 95% interval."""
    n = len(hits)
    k = float(hits.sum())
    lo, hi = wilson(k, n)
    return StoryMetric(name, k / n if n else math.nan, lo, hi, n, meaning, "rate")


def summarise(stories: Sequence[GameStory]) -> list[StoryMetric]:
    """Lead changes, drama and decisiveness over games, each with its interval."""
    changes = np.array([s.lead_changes for s in stories], dtype=float)
    trailed = np.array([s.trailed for s in stories], dtype=bool)
    deficits = np.array([s.max_deficit for s in stories if s.trailed], dtype=float)
    settled = np.array([s.settled for s in stories], dtype=float)
    late = settled > 0.5
    out = [
        _mean_metric("lead changes", changes, "times the sole leader by score total changed "
                     "in a game (ties keep the last sole leader)"),
        _rate_metric("games with a lead change", changes > 0, "games in which the lead "
                     "changed hands at least once"),
        _rate_metric("drama: the winner trailed", trailed, "games whose eventual winner was "
                     "behind another clan after some decision"),
        _mean_metric("drama: the winner's largest deficit", deficits, "points behind at the "
                     "worst moment, in the games where the winner trailed"),
        _mean_metric("decisiveness: settled after", 100 * settled, "% of the game's decisions "
                     "after which the winner was never behind again (0: never behind)"),
        _rate_metric("winner still behind past half-way", late, "games whose winner was "
                     "behind after the middle decision: late comebacks"),
    ]
    return out


def early_choices(decisions: pa.Table, results: pa.Table, game: str
                  ) -> tuple[list[Choice], list[Choice], list[Choice]]:
    """Win rates by each seat's first pick (its first action, named by the game), by each
    action it took in its first round (once per seat and game) and by the order of the
    seats' first moves (1 = the first to act), over the logged games."""
    from kamon.games import get_game

    if decisions.num_rows == 0:
        return [], [], []
    text = get_game(game).action_text
    share: dict[tuple[int, int, int], float] = {}
    for s, r, q, w in zip(_np(results, "seed").tolist(), _np(results, "rotation").tolist(),
                          _np(results, "seat").tolist(), _np(results, "win_share").tolist(),
                          strict=True):
        share[(int(s), int(r), int(q))] = float(w)
    first_round: dict[tuple[int, int, int], int | None] = {}
    took: set[tuple[int, int, int, int]] = set()
    order: dict[tuple[int, int], int] = {}
    picks: dict[str, list[float]] = {}
    in_round: dict[str, list[float]] = {}
    places: dict[str, list[float]] = {}
    for s, r, q, a, rnd in zip(_np(decisions, "seed").tolist(),
                               _np(decisions, "rotation").tolist(),
                               _np(decisions, "seat").tolist(),
                               _np(decisions, "action").tolist(),
                               decisions["round"].to_pylist(), strict=True):
        who = (int(s), int(r), int(q))
        if who not in share:
            continue
        if who not in first_round:
            first_round[who] = rnd
            k = order[who[:2]] = order.get(who[:2], 0) + 1
            picks.setdefault(text(int(a)), []).append(share[who])
            places.setdefault(f"moved {_ordinal(k)}", []).append(share[who])
        if rnd is not None and rnd == first_round[who] and (*who, int(a)) not in took:
            took.add((*who, int(a)))
            in_round.setdefault(text(int(a)), []).append(share[who])

    def table(groups: dict[str, list[float]]) -> list[Choice]:
        """Groups with their Wilson intervals, most frequent first."""
        rows = []
        for label, wins in groups.items():
            n, w = len(wins), float(sum(wins))
            lo, hi = wilson(w, n)
            rows.append(Choice(label, n, w, lo, hi))
        return sorted(rows, key=lambda c: (-c.n, c.label))

    return (_extremes(table(picks)), _extremes(table(in_round)),
            sorted(table(places), key=lambda c: c.label))


def _extremes(choices: list[Choice]) -> list[Choice]:
    """The choices made MIN_GROUP+ times, by win rate: all of them, or the TOP_PICKS
    highest and the TOP_PICKS lowest when there are more (the outliers a designer looks
    for)."""
    kept = sorted((c for c in choices if c.n >= MIN_GROUP), key=lambda c: (-c.rate, c.label))
    return kept if len(kept) <= 2 * TOP_PICKS else kept[:TOP_PICKS] + kept[-TOP_PICKS:]


def _ordinal(k: int) -> str:
    """1 -> '1st', 2 -> '2nd', 3 -> '3rd', 4 -> '4th'."""
    return f"{k}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(k if k < 20 else k % 10, 'th')}"


def story_of_run(decisions: pa.Table, results: pa.Table) -> Story:
    """The story measures and early choices of a run's logged games."""
    key = key_of(results)
    stories = game_stories(decisions, results)
    picks, in_round, order = early_choices(decisions, results, key.game)
    clans = int(_np(results, "seat").max()) if results.num_rows else 1
    return Story(len(stories), summarise(stories), picks, in_round, order,
                 1.0 / max(1, clans))


def load_story(results_path: Path, results: pa.Table) -> Story | None:
    """The story of a results file from the decisions file beside it; None without one."""
    path = decisions_path(results_path)
    if not path.is_file():
        return None
    decisions = read_decisions(path, key_of(results))
    return story_of_run(decisions, results)


# --- report and compare sections -------------------------------------------------------

STORY_ID = "story"
STORY_TITLE = "The story of a game"
STORY_INTRO = (
    "From the per-decision logs (kamon simulate --decisions): how the lead moved during a "
    "game, how often the eventual winner was behind and by how much, and from which point "
    "the winner was never behind again; then the win rates of each seat's first pick, of "
    "the actions of its first round and of the order of first moves. Means have normal 95% intervals, rates Wilson ones. "
    "Early choices show what goes with winning, not what causes it.")


def _pct(x: float) -> str:
    """0.371 -> '37.1%'."""
    return f"{100 * x:.1f}%"


def metric_cells(m: StoryMetric) -> list[str]:
    """A story metric as cells: name, value, interval, games, meaning."""
    if not m.games or math.isnan(m.value):
        return [m.name, "-", "-", f"{m.games:,}", m.meaning]
    if m.kind == "rate":
        value, interval = _pct(m.value), f"{_pct(m.low)}-{_pct(m.high)}"
    else:
        value = f"{m.value:.2f}"
        interval = "-" if math.isnan(m.low) else f"{m.low:.2f}-{m.high:.2f}"
    return [m.name, value, interval, f"{m.games:,}", m.meaning]


def choice_rows(choices: Sequence[Choice]) -> list[list[str]]:
    """Early choices as cells: choice, seat results, wins, win rate, interval."""
    return [[c.label, f"{c.n:,}", f"{c.wins:g}", _pct(c.rate), f"{_pct(c.low)}-{_pct(c.high)}"]
            for c in choices]


METRIC_HEAD = ["measure", "value", "95% interval", "games", "meaning"]
CHOICE_HEAD = ["", "seat results", "wins", "win rate", "95% interval"]


def story_reading(story: Story) -> str:
    """One line: lead changes, drama and decisiveness in words."""
    by = {m.name: m for m in story.metrics}
    changes, trailed = by["lead changes"], by["drama: the winner trailed"]
    settled = by["decisiveness: settled after"]
    if not story.games:
        return "No logged game has its results in this file."
    return (f"The lead changed {changes.value:.1f} times a game; the winner was behind at "
            f"some point in {_pct(trailed.value)} of games, and was never behind again "
            f"after {settled.value:.0f}% of the game on average.")


def _sections(story: Story) -> list[tuple[str, list[str], list[list[str]]]]:
    """The tables of a story: (title, header, rows)."""
    out = [("Lead changes, drama, decisiveness", METRIC_HEAD,
            [metric_cells(m) for m in story.metrics])]
    even = f"made {MIN_GROUP}+ times, best first; an even table: {_pct(story.fair)}"
    if story.first_picks:
        out.append((f"Win rate by a seat's first pick ({even})", CHOICE_HEAD,
                    choice_rows(story.first_picks)))
    if story.round_picks:
        out.append((f"Win rate by the actions of a seat's first round (each counted once "
                    f"per seat and game; {even}; at most the {TOP_PICKS} highest and lowest)",
                    CHOICE_HEAD, choice_rows(story.round_picks)))
    if story.first_order:
        out.append(("Win rate by the order of first moves", CHOICE_HEAD,
                    choice_rows(story.first_order)))
    return out


def story_html(story: Story | None) -> list[str]:
    """The HTML section of the story (nothing without decision logs)."""
    if story is None:
        return []
    esc = html.escape
    out = [f'<section id="{STORY_ID}">', f"<h2>{STORY_TITLE}</h2>",
           f'<p class="meta">{story.games:,} logged games</p>', f"<p>{esc(STORY_INTRO)}</p>",
           f'<p class="reading">{esc(story_reading(story))}</p>']
    for title, head, rows in _sections(story):
        out.append(f"<h3>{esc(title)}</h3><table><tr>"
                   + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows]
        out.append("</table>")
    out.append("</section>")
    return out


def _md(cells: Sequence[str]) -> str:
    """A Markdown table row."""
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def story_markdown(story: Story | None) -> list[str]:
    """The Markdown section of the story (nothing without decision logs)."""
    if story is None:
        return []
    out = [f"## {STORY_TITLE}", "", f"*{story.games:,} logged games.*", "", STORY_INTRO, "",
           story_reading(story), ""]
    for title, head, rows in _sections(story):
        out += [f"### {title}", "", _md(head), "|" + "---|" * len(head),
                *(_md(r) for r in rows), ""]
    return out


@dataclass
class StoryComparison:
    """The story measures of two runs side by side (variant minus base), as page parts."""

    html: list[str]
    markdown: list[str]


def _differences(base: list[GameStory], variant: list[GameStory]) -> list[list[str]]:
    """Rows: measure, base, variant, difference with its 95% interval and p (Welch for
    means, two-proportion for rates; the runs' games taken as independent)."""
    def per(stories: list[GameStory], what: str) -> np.ndarray:
        """One number per game."""
        if what == "changes":
            return np.array([s.lead_changes for s in stories], dtype=float)
        if what == "trailed":
            return np.array([s.trailed for s in stories], dtype=float)
        return np.array([100 * s.settled for s in stories], dtype=float)

    rows = []
    for name, what in (("lead changes per game", "changes"),
                       ("drama: the winner trailed", "trailed"),
                       ("decisiveness: settled after, % of the game", "settled")):
        x, y = per(variant, what), per(base, what)
        if what == "trailed":
            d = two_proportion(float(x.sum()), len(x), float(y.sum()), len(y))
            cells = [_pct(float(y.mean())), _pct(float(x.mean())),
                     f"{100 * d.estimate:+.1f} pts ({100 * d.low:+.1f} to {100 * d.high:+.1f})"]
        else:
            d = welch(x, y)
            cells = [f"{y.mean():.2f}", f"{x.mean():.2f}",
                     f"{d.estimate:+.2f} ({d.low:+.2f} to {d.high:+.2f})"]
        rows.append([name, *cells, f"{d.p:.3g}", f"{len(y):,} / {len(x):,}"])
    return rows


COMPARE_HEAD = ["measure", "base", "variant", "variant - base (95% interval)", "p",
                "logged games (base / variant)"]


def compare_stories(base_path: Path, base: pa.Table, variant_path: Path, variant: pa.Table
                    ) -> StoryComparison:
    """The story section of `kamon compare`: lead changes, drama and decisiveness of two
    runs side by side, when both have decision logs beside them (else a line saying so)."""
    paths = (decisions_path(base_path), decisions_path(variant_path))
    missing = [p.name for p in paths if not p.is_file()]
    title = f"{STORY_TITLE}: lead changes, drama, decisiveness"
    if missing:
        line = (f"Not compared: no decision logs ({', '.join(missing)}); run kamon simulate "
                "with --decisions to record them.")
        return StoryComparison([f'<section id="{STORY_ID}"><h2>{title}</h2>',
                                f"<p>{html.escape(line)}</p></section>"],
                               [f"## {title}", "", line, ""])
    b = game_stories(read_decisions(paths[0], key_of(base)), base)
    v = game_stories(read_decisions(paths[1], key_of(variant)), variant)
    rows = _differences(b, v)
    note = ("Each game's measure from its decision log; the difference is variant minus "
            "base, Welch's t for means and the two-proportion test for rates (the runs' "
            "games taken as independent). Not part of the adjusted family above.")
    esc = html.escape
    page = [f'<section id="{STORY_ID}">', f"<h2>{esc(title)}</h2>", f"<p>{esc(note)}</p>",
            "<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in COMPARE_HEAD) + "</tr>"]
    page += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows]
    page.append("</table></section>")
    md = [f"## {title}", "", note, "", _md(COMPARE_HEAD), "|" + "---|" * len(COMPARE_HEAD),
          *(_md(r) for r in rows), ""]
    return StoryComparison(page, md)
