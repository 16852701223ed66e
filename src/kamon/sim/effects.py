"""The numbers behind `kamon effects`: what a card *does*, measured by changing it.

A holder win rate (`kamon report`) says who picks a card, not what it does: good players'
choices and the card's own value are mixed in it. Here each card asked for gets a
what-if variant of the game, its value changed through a data overlay (`--change`: `=0`
takes its points away, `+1` / `-1` moves them by one), and the variant is played on the
same seeds as the unchanged game (the base). Each game of a variant is set against the
same deal of the base, so the deal's luck cancels out of every difference, and the
difference is caused by the change (the players react to it too: that is part of it).

For each card, variant minus base, paired by game (seed and rotation):

- `win`: the holders' win rate (win shares of the clans that hold the card, over those
  clans); `stats.paired_ratio` for the interval; its p from `stats.swap_test` (exact
  randomization) when the card is held in fewer than MIN_DELTA games of either run,
  where the delta method's p is too often small by chance;
- `score`: the holders' mean total score (the same ratio, over the same holders);
- `hold`: the share of clans holding the card (do players take it more or less?);
- `first`: the win rate of the clan that played first (turn position 1; seat 1 when the
  game records no turn position): the change to the game's seat balance.

The p-values of the `win` row of every card form one family, adjusted with
Benjamini-Hochberg; a card is *flagged* when its adjusted p is at most ALPHA. A variant
whose options equal the base's (a change of `+0`: an A/A run) shares the base's results.

Every run is an ordinary resumable simulation (`sim.simulation.plan_run` / `run_plan`,
on the local pool or Ray): `DIR/base.parquet` and `DIR/<card>_<change>.parquet`.
"""

from __future__ import annotations

import csv
import html
import importlib.resources
import io
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from kamon.core.errors import KamonError
from kamon.core.overlay import combine_overlays, merge_overlay
from kamon.core.overlay_paths import Step, Vary, overlay_for, parse_path
from kamon.games import games, get_game
from kamon.sim.backends import Backend
from kamon.sim.compare import game_ids, paired_games, rotation_span
from kamon.sim.report import CSS
from kamon.sim.results import canonical_options
from kamon.sim.runner import SimSpec, new_state
from kamon.sim.simulation import SimPlan, plan_run, run_plan
from kamon.sim.stats import Difference, benjamini_hochberg, paired_ratio, paired_t, swap_test
from kamon.sim.sweep import _resolve_keys

ALPHA = 0.05  # false discovery rate of the family of cards
MIN_DELTA = 100  # games holding the card in each run before the delta method's p is used
BASE_FILE = "base.parquet"
_SAFE = re.compile(r"[^A-Za-z0-9._+-]")
_CHANGE = re.compile(r"^([=+-])(\d+)$")


@dataclass(frozen=True)
class CardValues:
    """Where a game's cards keep the value `kamon effects` changes, and who holds them:
    the data file, the value's path (`*` for the card id) and the results column."""

    package: str
    data_file: str
    path: str
    column: str
    kind: tuple[str, str] | None = None  # (field, value) a card must have to be a default


def defaults(game: str) -> CardValues | None:
    """The cards `kamon effects` changes by default, as the game declares them in its own
    folder (`card_values`: the kinds compare/report already group by); None if it has none."""
    g = get_game(game)
    d = getattr(g, "card_values", None)  # a GameBase slot; a plug-in game may lack it
    if not d:
        return None
    kind = d.get("kind")
    return CardValues(type(g).__module__, str(d["data_file"]), str(d["path"]),
                      str(d["column"]), (str(kind[0]), str(kind[1])) if kind else None)


def games_with_cards() -> list[str]:
    """The registered games that declare cards for `kamon effects`."""
    return [name for name, g in games().items() if getattr(g, "card_values", None)]


@dataclass(frozen=True)
class Change:
    """A what-if: set the value (`=0`) or move it (`+1`, `-1`)."""

    op: str
    amount: int

    @property
    def text(self) -> str:
        """'=0', '+1', '-5'."""
        return f"{self.op}{self.amount}"

    def apply(self, value: int) -> int:
        """The card's new value."""
        return self.amount if self.op == "=" else value + (self.amount if self.op == "+"
                                                           else -self.amount)


def parse_change(text: str) -> Change:
    """'=0', '+1', '-1' as a Change; KamonError otherwise (whole numbers only)."""
    m = _CHANGE.match(text.strip())
    if not m:
        raise KamonError(f"--change {text!r}: write =N (set the value), +N or -N (move it), "
                         "N a whole number, e.g. =0 or +1")
    return Change(m.group(1), int(m.group(2)))


def parse_cards(texts: Sequence[str], default: Change) -> list[tuple[str, Change]]:
    """`--cards 715,716:+5` as (card id, change) pairs: a card's own `:CHANGE` overrides
    `--change`; KamonError for an empty or repeated card."""
    out: list[tuple[str, Change]] = []
    for text in texts:
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            card, sep, change = part.partition(":")
            if not card.strip():
                raise KamonError(f"--cards {part!r}: no card id")
            out.append((card.strip(), parse_change(change) if sep else default))
    cards = [c for c, _ in out]
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise KamonError(f"--cards: {', '.join(twice)} given twice")
    return out


def _walk(node: Any, steps: Sequence[Step], card: str | None, found: dict[str, Any],
          kind: tuple[str, str] | None = None) -> None:
    """Collect {card id: value} along a path whose `*` step matches every keyed item (of
    the kind, if given)."""
    if not steps:
        if card is not None and isinstance(node, int) and not isinstance(node, bool):
            found[card] = node
        return
    step, rest = steps[0], steps[1:]
    if step.key is not None:  # a keyed step chooses items of the list reached so far
        for item in node if isinstance(node, list) else []:
            if isinstance(item, dict) and step.key in item and (
                    step.value == "*" or str(item[step.key]) == step.value) and (
                    kind is None or item.get(kind[0]) == kind[1]):
                _walk(item, rest, str(item[step.key]), found)
    elif isinstance(node, dict) and step.name in node:
        _walk(node[step.name], rest, card, found, kind)


def card_values(values: CardValues, overlay: Mapping[str, Any] | None = None,
                defaults: bool = False) -> dict[str, int]:
    """Every card's whole-number value at the path (`*` taken as every card), in data
    order, with the base overlay applied; `defaults`: only the cards of the default kind."""
    raw = json.loads(importlib.resources.files(values.package).joinpath(values.data_file)
                     .read_text(encoding="utf-8"))
    if overlay:
        raw = merge_overlay(raw, dict(overlay))
    found: dict[str, Any] = {}
    _walk(raw, parse_path(values.path), None, found, values.kind if defaults else None)
    return found


def values_for(game: str, path: str | None, column: str | None) -> CardValues:
    """The game's CardValues, with `--value-path` / `--column` overriding its defaults;
    KamonError when a game has none and they are not given."""
    g = get_game(game)
    d = defaults(g.name)
    if d is None:
        raise KamonError(f"{g.title}: kamon effects knows where the cards of "
                         f"{', '.join(games_with_cards())} keep their values, not this "
                         f"game's (a game declares them as `card_values` in its folder)")
    return CardValues(d.package, d.data_file, path or d.path, column or d.column,
                      d.kind if path in (None, d.path) else None)


# ---------------------------------------------------------------- the runs

@dataclass
class Run:
    """One simulation of the design: its spec, results file, plan and rows."""

    spec: SimSpec
    out: Path
    plan: SimPlan | None = None
    table: pa.Table | None = None
    played: int = 0


@dataclass
class CardVariant:
    """One card's what-if: its value before and after, and the run that plays it."""

    card: str
    change: Change
    before: int
    after: int
    run: Run


@dataclass
class EffectsPlan:
    """A planned effects study: the base run and each card's variant run."""

    game: str
    players: int
    agents: tuple[str, ...]
    seed: int
    games: int
    out: Path
    values: CardValues
    base: Run
    variants: list[CardVariant] = field(default_factory=list)

    def runs(self) -> list[Run]:
        """Every distinct run (a variant identical to the base is the base's run)."""
        seen: dict[Path, Run] = {}
        for r in (self.base, *(v.run for v in self.variants)):
            seen.setdefault(r.out, r)
        return list(seen.values())

    @property
    def to_play(self) -> int:
        """Seeds still to play over every run."""
        return sum(len(r.plan.missing) for r in self.runs() if r.plan is not None)


def plan_effects(game: str, players: int, agents: Sequence[str], options: Mapping[str, Any],
                 cards: Sequence[tuple[str, Change]] | None, values: CardValues, seed: int,
                 games: int, out: Path, change: Change | None = None) -> EffectsPlan:
    """Check every what-if (each sets a game up) and plan its run into `out`; nothing is
    played. `cards` None: every card with a value at the path, each with `change`."""
    g = get_game(game)
    where = g.options.overlay
    if where is None:
        raise KamonError(f"{g.title} takes no data overlay: its cards cannot be changed")
    if games < 2:
        raise KamonError("--games must be at least 2 (the intervals are over games)")
    if out.exists() and not out.is_dir():
        raise KamonError(f"--out {out}: effects writes a folder (one results file per "
                         "variant, and the tables); this is a file")
    base_overlay = options.get(where) or {}
    known = card_values(values, base_overlay)
    if not known:
        raise KamonError(f"--value-path {values.path}: no card of {g.title} has a whole "
                         "number there")
    if cards is None:
        cards = [(c, change or Change("=", 0)) for c in card_values(values, base_overlay, True)]
    base_state = new_state(SimSpec(g.name, players, tuple(agents), dict(options)), seed)
    base_spec = SimSpec(g.name, players, tuple(agents), dict(base_state.options))
    plan = EffectsPlan(g.name, players, tuple(agents), seed, games, out, values,
                       Run(base_spec, out / BASE_FILE))
    base_key = canonical_options(base_spec.options)
    for card, ch in cards:
        if card not in known:
            raise KamonError(f"--cards {card}: no card of {g.title} has a value at "
                             f"{values.path} (cards: {', '.join(list(known)[:12])}"
                             f"{', ...' if len(known) > 12 else ''})")
        after = ch.apply(known[card])
        path = values.path.replace("*", card)
        vary = Vary(path, parse_path(path), (after,), (str(after),))
        try:
            keys = _resolve_keys(g.name, players, seed, dict(options), vary)
            opts = {**options, where: combine_overlays(base_overlay,
                                                       overlay_for(vary.steps, after, keys))}
            state = new_state(SimSpec(g.name, players, tuple(agents), opts), seed)
        except KamonError as exc:
            raise KamonError(f"{card} {ch.text}: {exc}") from None
        spec = SimSpec(g.name, players, tuple(agents), dict(state.options))
        if after == known[card] or canonical_options(spec.options) == base_key:
            run = plan.base  # the same data: an A/A what-if shares the base's games
        else:
            run = Run(spec, out / (_SAFE.sub("_", f"{card}_{ch.text}") + ".parquet"))
        plan.variants.append(CardVariant(card, ch, known[card], after, run))
    out.mkdir(parents=True, exist_ok=True)
    for r in plan.runs():
        r.plan = plan_run(r.spec, seed, games, r.out)  # refuses a foreign file
    return plan


def run_effects(plan: EffectsPlan, backend: Backend, size: int | None = None,
                progress: Callable[[int], None] | None = None) -> EffectsPlan:
    """Play what each run still misses (`simulation.run_plan`) and keep its rows."""
    for r in plan.runs():
        if r.plan is None:
            r.plan = plan_run(r.spec, plan.seed, plan.games, r.out)
        outcome = run_plan(r.plan, backend, size, progress)
        r.table, r.played = outcome.table, outcome.played
    return plan


# ---------------------------------------------------------------- the effects

@dataclass
class Effect:
    """One measure of one card: base, variant, their paired difference."""

    base: float
    variant: float
    diff: Difference


@dataclass
class CardEffect:
    """Everything measured for one card's what-if."""

    card: str
    change: str
    before: int
    after: int
    games: int  # paired games
    holder_games_base: int  # games in which some clan holds the card
    holder_games_variant: int
    holders_base: int  # clans holding it (seat results)
    holders_variant: int
    win: Effect
    score: Effect
    hold: Effect
    first: Effect
    same: Effect  # the base's holders, the same clans of the same deals, in the variant
    win_p_method: str = ""
    adjusted_p: float = 1.0
    flagged: bool = False


def _holds(table: pa.Table, column: str, card: str) -> np.ndarray:
    """Per row: does the clan hold the card? (a `;`-separated column of ids or of labels
    that start with the id and a space)."""
    if column not in table.schema.names:
        raise KamonError(f"--column {column}: the results have no such column")
    texts = table[column].to_pylist()
    return np.array([any(t == card or t.startswith(card + " ") for t in (x or "").split(";"))
                     for x in texts], dtype=bool)


def _per_game(values: np.ndarray, ids: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Sum of a per-row value per game (games sorted)."""
    return np.bincount(np.searchsorted(games, ids), weights=values.astype(float),
                       minlength=len(games))


def _ratio(nx: np.ndarray, dx: np.ndarray, ny: np.ndarray, dy: np.ndarray) -> Effect:
    """A paired ratio effect (variant x minus base y)."""
    bx = float(nx.sum() / dx.sum()) if dx.sum() > 0 else math.nan
    by = float(ny.sum() / dy.sum()) if dy.sum() > 0 else math.nan
    return Effect(by, bx, paired_ratio(nx, dx, ny, dy))


def _first_flags(table: pa.Table) -> np.ndarray:
    """Per row: did this clan play first (turn position 1, else seat 1)?"""
    if "turn_position" in table.schema.names:
        return np.asarray(table["turn_position"].to_numpy(zero_copy_only=False)) == 1
    return np.asarray(table["seat"].to_numpy(zero_copy_only=False)) == 1


def card_effect(variant: CardVariant, base: pa.Table, column: str) -> CardEffect:
    """The paired effects of one card's what-if (KamonError if the runs share too few
    games to pair)."""
    table = variant.run.table
    assert table is not None
    span = rotation_span(base, table)
    games = paired_games(base, table, span)
    if games is None:
        raise KamonError(f"{variant.card}: the base and the variant do not share their games")
    sides: list[dict[str, np.ndarray]] = []
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for t in (table, base):
        ids = game_ids(t, span)
        keep = np.isin(ids, games)
        t, ids = t.filter(pa.array(keep)), ids[keep]
        order = np.lexsort((np.asarray(t["seat"].to_numpy(zero_copy_only=False)), ids))
        t, ids = t.take(pa.array(order)), ids[order]  # the same (game, seat) rows on both
        held = _holds(t, column, variant.card)
        shares = np.asarray(t["win_share"].to_numpy(zero_copy_only=False), dtype=float)
        score = np.asarray(t["score_total"].to_numpy(zero_copy_only=False), dtype=float)
        first = _first_flags(t)
        sides.append({
            "held": _per_game(held, ids, games),
            "win": _per_game(shares * held, ids, games),
            "score": _per_game(score * held, ids, games),
            "clans": _per_game(np.ones(len(ids)), ids, games),
            "first_n": _per_game(first, ids, games),
            "first_win": _per_game(shares * first, ids, games),
        })
        rows.append((ids, shares, held))
    v, b = sides
    ids_b, shares_b, held_b = rows[1]
    shares_v = rows[0][1]
    same_n = _per_game(held_b, ids_b, games)
    same = _ratio(_per_game(shares_v * held_b, ids_b, games), same_n,
                  _per_game(shares_b * held_b, ids_b, games), same_n)
    win = _ratio(v["win"], v["held"], b["win"], b["held"])
    hg_v, hg_b = int(np.count_nonzero(v["held"])), int(np.count_nonzero(b["held"]))
    method = win.diff.method
    if min(hg_v, hg_b) < MIN_DELTA and not math.isnan(win.diff.estimate):
        p = swap_test(v["win"], v["held"], b["win"], b["held"])
        win = Effect(win.base, win.variant, Difference(
            win.diff.estimate, win.diff.low, win.diff.high, p, "paired ratio; swap test p",
            win.diff.df))
        method = win.diff.method
    first_v = v["first_win"] / np.maximum(v["first_n"], 1)
    first_b = b["first_win"] / np.maximum(b["first_n"], 1)
    return CardEffect(
        variant.card, variant.change.text, variant.before, variant.after, len(games),
        hg_b, hg_v, int(b["held"].sum()), int(v["held"].sum()), win,
        _ratio(v["score"], v["held"], b["score"], b["held"]),
        _ratio(v["held"], v["clans"], b["held"], b["clans"]),
        Effect(float(first_b.mean()), float(first_v.mean()), paired_t(first_v - first_b)),
        same, method)


def analyse_effects(plan: EffectsPlan) -> list[CardEffect]:
    """Every card's effects, flagged by Benjamini-Hochberg over the cards' `win` p-values,
    sorted with the largest holder win-rate change first (unknown ones last)."""
    base = plan.base.table
    assert base is not None
    effects = [card_effect(v, base, plan.values.column) for v in plan.variants]
    adjusted = benjamini_hochberg([e.win.diff.p for e in effects]) if effects else []
    for e, a in zip(effects, adjusted, strict=True):
        e.adjusted_p = a
        e.flagged = a <= ALPHA and not math.isnan(e.win.diff.estimate)
    return sorted(effects, key=lambda e: (math.isnan(e.win.diff.estimate),
                                          -abs(e.win.diff.estimate)
                                          if not math.isnan(e.win.diff.estimate) else 0.0))


# ---------------------------------------------------------------- the tables

COLUMNS = ("card", "change", "value", "games", "holders (base / variant)",
           "holder win rate", "change in win rate (95% CI)", "adjusted p", "flagged",
           "holder score change (95% CI)", "the base's holders' win rate change (95% CI)",
           "holding rate change (95% CI)", "first player win rate change (95% CI)")


def _pts(d: Difference, scale: float = 100.0, unit: str = " pts") -> str:
    """'+12.3 pts (+4.1 to +20.5)'; '—' when nothing was measured."""
    if math.isnan(d.estimate):
        return "—"
    if abs(d.high - d.low) < 1e-9:
        return f"{scale * d.estimate:+.1f}{unit} (no variation)"
    return (f"{scale * d.estimate:+.1f}{unit} ({scale * d.low:+.1f} to "
            f"{scale * d.high:+.1f})")


def p_words(p: float) -> str:
    """The adjusted p as shown: never rounded onto ALPHA (0.0498 is '0.0498', not '0.05')."""
    if p < 0.001:
        return "< 0.001"
    return f"{p:.4f}" if abs(p - ALPHA) < 0.005 else f"{p:.3f}"


def row_cells(e: CardEffect) -> list[str]:
    """One card's row of the Markdown/console table."""
    rate = "—" if math.isnan(e.win.base) else (
        f"{100 * e.win.base:.1f}% → " + ("—" if math.isnan(e.win.variant)
                                        else f"{100 * e.win.variant:.1f}%"))
    return [e.card, e.change, f"{e.before} → {e.after}", f"{e.games:,}",
            f"{e.holders_base:,} / {e.holders_variant:,}", rate, _pts(e.win.diff),
            p_words(e.adjusted_p), "yes" if e.flagged else "",
            _pts(e.score.diff, 1.0, ""), _pts(e.same.diff), _pts(e.hold.diff),
            _pts(e.first.diff)]


def record(e: CardEffect) -> dict[str, Any]:
    """One card as a flat record for CSV/JSON (numbers, not words)."""
    out: dict[str, Any] = {k: v for k, v in asdict(e).items()
                           if k not in ("win", "score", "hold", "first", "same")}
    for name in ("win", "score", "hold", "first", "same"):
        eff: Effect = getattr(e, name)
        out.update({f"{name}_base": eff.base, f"{name}_variant": eff.variant,
                    f"{name}_diff": eff.diff.estimate, f"{name}_low": eff.diff.low,
                    f"{name}_high": eff.diff.high, f"{name}_p": eff.diff.p})
    return out


def markdown(plan: EffectsPlan, effects: Sequence[CardEffect]) -> str:
    """The effects table as a Markdown page."""
    g = get_game(plan.game)
    lines = [f"# Card effects: {g.title}", "",
             f"{plan.players} players ({', '.join(plan.agents)}), seeds {plan.seed}-"
             f"{plan.seed + plan.games - 1}; each card's value at `{plan.values.path}` "
             f"changed, played on the same seeds as the unchanged game. Holders: clans "
             f"with the card in `{plan.values.column}`. Changes are variant minus base, "
             "in percentage points (scores in points), with 95% intervals; *flagged*: "
             f"Benjamini-Hochberg adjusted p at most {ALPHA} over the {len(effects)} cards.",
             "", "| " + " | ".join(COLUMNS) + " |",
             "|" + "|".join("---" for _ in COLUMNS) + "|"]
    lines += ["| " + " | ".join(row_cells(e)) + " |" for e in effects]
    flagged = [e.card for e in effects if e.flagged]
    lines += ["", f"Flagged: {', '.join(flagged)}." if flagged else
              "No card flagged: no change is more than chance at this number of games.", ""]
    return "\n".join(lines)


# Click a column's header to sort by it (numbers by their data-v value, else the text).
_SORT_JS = """
document.querySelectorAll('th').forEach((th, i) => th.addEventListener('click', () => {
  const body = th.closest('table').tBodies[0], rows = [...body.rows];
  const key = r => { const c = r.cells[i]; return c.dataset.v !== undefined
    ? parseFloat(c.dataset.v) : c.textContent; };
  const dir = th.dataset.dir = th.dataset.dir === 'desc' ? 'asc' : 'desc';
  rows.sort((a, b) => { const x = key(a), y = key(b);
    const o = typeof x === 'number' ? (isNaN(x) ? 1 : isNaN(y) ? -1 : x - y)
      : String(x).localeCompare(String(y));
    return dir === 'asc' ? o : -o; });
  rows.forEach(r => body.appendChild(r)); }));
"""


def html_page(plan: EffectsPlan, effects: Sequence[CardEffect]) -> str:
    """The effects table as one HTML page whose columns sort on a click."""
    md = markdown(plan, effects).splitlines()
    keys = [None, None, None, "games", "holders_base", "win_base", "win_diff", "adjusted_p",
            None, "score_diff", "same_diff", "hold_diff", "first_diff"]
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    intro = md[2].replace("`", "").replace("*", "")  # Markdown's marks, not HTML's
    body = []
    for e in effects:
        rec = record(e)
        cells = []
        for k, text in zip(keys, row_cells(e), strict=True):
            v = rec.get(k) if k else None
            attr = (f' data-v="{v if isinstance(v, int | float) and math.isfinite(v) else "NaN"}"'
                    if k else "")
            cells.append(f"<td{attr}>{html.escape(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>"
            f"{html.escape(md[0].lstrip('# '))}</title><style>{CSS}</style></head><body>"
            f"<h1>{html.escape(md[0].lstrip('# '))}</h1><p>{html.escape(intro)}</p>"
            f"<p>Click a column's header to sort by it.</p><table><thead><tr>{head}</tr>"
            f"</thead><tbody>{''.join(body)}</tbody></table><p>{html.escape(md[-2])}</p>"
            f"<script>{_SORT_JS}</script></body></html>\n")


@dataclass
class EffectsFiles:
    """Where the tables went."""

    markdown: Path
    csv: Path
    json: Path
    html: Path


def write_effects(plan: EffectsPlan, effects: Sequence[CardEffect]) -> EffectsFiles:
    """Write effects.md, effects.csv, effects.json and effects.html into the plan's folder."""
    files = EffectsFiles(plan.out / "effects.md", plan.out / "effects.csv",
                         plan.out / "effects.json", plan.out / "effects.html")
    files.html.write_text(html_page(plan, effects), encoding="utf-8")
    files.markdown.write_text(markdown(plan, effects), encoding="utf-8")
    records = [record(e) for e in effects]
    buf = io.StringIO()
    if records:
        writer = csv.DictWriter(buf, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)
    files.csv.write_text(buf.getvalue(), encoding="utf-8")
    meta = {"game": plan.game, "players": plan.players, "agents": list(plan.agents),
            "seeds": [plan.seed, plan.seed + plan.games - 1], "value_path": plan.values.path,
            "column": plan.values.column, "alpha": ALPHA,
            "cards": [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                       for k, v in r.items()} for r in records]}
    files.json.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return files


__all__ = ["ALPHA", "CardEffect", "CardValues", "Change", "EffectsPlan",
           "analyse_effects", "card_values", "defaults", "games_with_cards", "parse_cards", "parse_change", "plan_effects",
           "run_effects", "values_for", "write_effects"]
