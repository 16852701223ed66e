"""A simulation run: which seeds to play, in which batches, on which backend, kept where.

Seeds `first .. first+games-1` are split into contiguous batches. With a results file
(`.parquet` / `.csv`) the run is resumable: every finished batch is written at once as
a part file (`<out>.parts/seeds-A-B.parquet`, written to a temporary name and renamed,
so a part is whole or absent) beside a manifest of the run key; at the end the parts
and any earlier results in `<out>` are merged, sorted by seed and seat, and written to
`<out>` (again by rename), and the parts are removed. An interrupted run (Ctrl-C, a
killed process, a lost machine) loses only the batches in flight: the same command
again finds the seeds already in `<out>` or in its parts and plays only the others.
A file or parts made by another run key (game, players, options, agents, seating) are
refused: a file of fixed seats is not resumed by a run with rotated seats, nor the reverse.
With a `.jsonl` file the records are written in seed order and the run is not resumable.

With rotated seats (`SimSpec.rotate`) a seed is a deal played from every rotation of the
seats, all in the same batch: seeds, batches, parts and resumption stay per seed, and
`played`/`resumed` count seeds (deals); a seed's games are `spec.rotations` times as many.

With `SimSpec.decisions` each batch's per-decision logs are kept too, in the parts'
`decisions/` folder (written before the batch's results part, so a batch whose results
are kept has its logs), and merged into `<out stem>.decisions.parquet` beside the results
(`kamon.sim.story`). A resumed run logs the games it plays; games already in `<out>` keep
whatever log they had.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from kamon.core.errors import KamonError
from kamon.sim.backends import Backend
from kamon.sim.results import (
    SUFFIXES,
    NotResults,
    RunKey,
    concat,
    key_of,
    read_results,
    seeds_in,
    sort_and_dedupe,
    write_results,
)
from kamon.sim.runner import Batch, SimSpec, run_batch, schema_of
from kamon.sim.story import concat_decisions, decisions_path, read_decisions, write_decisions

MAX_BATCH = 500  # games per batch at most (a batch is the unit lost on an interruption)
BATCHES_PER_WORKER = 8
MANIFEST = "run.json"
DECISIONS_DIR = "decisions"  # in the parts folder: each batch's decision logs
PART_PREFIX = "seeds-"


def plan_batches(seeds: Sequence[int], size: int) -> list[tuple[int, int]]:
    """(first seed, count) of each batch: runs of consecutive seeds, cut every `size`."""
    out: list[tuple[int, int]] = []
    for s in sorted(seeds):
        if out and out[-1][0] + out[-1][1] == s and out[-1][1] < size:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((s, 1))
    return out


def batch_size(missing: int, workers: int, asked: int | None = None) -> int:
    """Games per batch: as asked, else about 8 batches per worker, at most MAX_BATCH."""
    if asked is not None:
        if asked < 1:
            raise KamonError("--batch-size must be at least 1")
        return asked
    return max(1, min(MAX_BATCH, math.ceil(missing / (workers * BATCHES_PER_WORKER))))


def parts_dir(out: Path) -> Path:
    """Where the finished batches of a run writing `out` wait to be merged."""
    return out.with_name(out.name + ".parts")


class PartStore:
    """The finished batches of one run key, one Parquet file each, beside the output."""

    def __init__(self, out: Path, key: RunKey) -> None:
        self.dir = parts_dir(out)
        self.key = key
        manifest = self.dir / MANIFEST
        if self.dir.exists():
            try:
                found = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                raise KamonError(f"{self.dir} exists but is not the parts of a kamon run "
                                 "(no readable run.json): move it away") from None
            if found != _key_json(key):
                old = RunKey(found.get("game", "?"), found.get("players", 0),
                             found.get("options", "?"), tuple(found.get("agents", ())),
                             found.get("seats", "fixed"))
                raise KamonError(f"{self.dir} holds the unfinished run of {old.describe()}, "
                                 f"not of this run ({key.describe()}): finish it with its "
                                 "own command, or remove the folder")
        self._seeds: set[int] = set()  # the seeds the readable parts hold
        self.damaged: list[str] = self._read_seeds()

    def _read_seeds(self) -> list[str]:
        """Read every part's seeds once; move a part that cannot be read (a disk error, a
        hand edit) aside as `<part>.damaged`, its decision log too, so its seeds are played
        again; the names moved (a resume never stops on a raw Arrow error)."""
        moved = []
        for p in self.paths():
            try:
                self._seeds.update(
                    int(s) for s in pq.read_table(p, columns=["seed"])["seed"].to_pylist())
            except (pa.ArrowException, OSError):
                os.replace(p, p.with_name(p.name + ".damaged"))
                log = self.dir / DECISIONS_DIR / p.name
                if log.is_file():
                    os.replace(log, log.with_name(log.name + ".damaged"))
                moved.append(p.name)
        return moved

    def paths(self) -> list[Path]:
        """The part files present."""
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.iterdir()
                      if p.name.startswith(PART_PREFIX) and p.suffix == ".parquet")

    def seeds(self) -> set[int]:
        """Every seed some part holds (read once, kept up to date by `write`)."""
        return set(self._seeds)

    def write(self, batch: Batch) -> None:
        """Keep a finished batch (whole or not at all)."""
        if not self.dir.exists():
            self.dir.mkdir(parents=True)
            tmp = self.dir / (MANIFEST + ".tmp")
            tmp.write_text(json.dumps(_key_json(self.key)), encoding="utf-8")
            os.replace(tmp, self.dir / MANIFEST)
        name = f"{PART_PREFIX}{batch.first}-{batch.first + batch.count - 1}.parquet"
        if batch.decisions is not None:  # first: a batch with results has its logs
            logs = self.dir / DECISIONS_DIR
            logs.mkdir(exist_ok=True)
            tmp = logs / (name + ".tmp")
            pq.write_table(batch.decisions, tmp)
            os.replace(tmp, logs / name)
        tmp = self.dir / (name + ".tmp")
        pq.write_table(batch.table, tmp)
        os.replace(tmp, self.dir / name)
        self._seeds.update(int(x) for x in batch.table["seed"].to_pylist())

    def tables(self) -> list[pa.Table]:
        """Every part's rows."""
        return [pq.read_table(p) for p in self.paths()]

    def decision_tables(self) -> list[pa.Table]:
        """Every part's decision logs (of the batches whose results part is there)."""
        logs = self.dir / DECISIONS_DIR
        return [pq.read_table(logs / p.name) for p in self.paths() if (logs / p.name).is_file()]

    def clear(self) -> None:
        """Remove the parts (after they were merged into the output)."""
        shutil.rmtree(self.dir, ignore_errors=True)


def _key_json(key: RunKey) -> dict[str, object]:
    """A run key as the manifest stores it."""
    return {"game": key.game, "players": key.players, "options": key.options,
            "agents": list(key.agents), "seats": key.seats}


@dataclass
class SimOutcome:
    """What a run did: the rows of the seeds asked for, and how they were obtained."""

    table: pa.Table
    played: int = 0  # seeds (deals) played by this run: games = played * spec.rotations
    resumed: int = 0  # seeds of the range already in the output or its parts
    elapsed: float = 0.0  # seconds spent playing
    records_written: int = 0
    batches: list[tuple[int, int]] = field(default_factory=list)
    decisions: pa.Table | None = None  # the logs of the games played now, when asked


def existing_results(out: Path, key: RunKey) -> pa.Table | None:
    """The results already in `out` (None if there is no such file); refused if another run
    key made them."""
    if not out.exists():
        return None
    try:
        table = read_results(out)
    except NotResults as exc:
        raise KamonError(f"{exc}; kamon will not overwrite it: choose another --out") from None
    old = key_of(table)
    if old != key:
        raise KamonError(f"{out} holds results of {old.describe()}, not of this run "
                         f"({key.describe()}): choose another --out, or move that file away")
    return table


@dataclass
class SimPlan:
    """A run before it starts: the seeds asked for, those still to play, where rows go."""

    spec: SimSpec
    first: int
    games: int
    out: Path | None
    missing: list[int]
    store: PartStore | None = None
    earlier: pa.Table | None = None

    @property
    def resumed(self) -> int:
        """Games of the range already in the output or its parts."""
        return self.games - len(self.missing)


def plan_run(spec: SimSpec, first: int, games: int, out: Path | None = None) -> SimPlan:
    """Check the output and find the seeds still to play (nothing is played or written)."""
    if games < 1:
        raise KamonError("--games must be at least 1")
    suffix = out.suffix.lower() if out is not None else ""
    if out is None or suffix == ".jsonl":
        return SimPlan(spec, first, games, out, list(range(first, first + games)))
    if suffix not in SUFFIXES:
        raise KamonError(f"--out {out}: write .parquet or .csv (results, one row per game and "
                         "seat) or .jsonl (game records)")
    store = PartStore(out, spec.key)
    earlier = existing_results(out, spec.key)
    if decisions_path(out).is_file():  # a foreign log beside it is refused before any work
        read_decisions(decisions_path(out), spec.key)
    done = store.seeds() | (seeds_in(earlier) if earlier is not None else set())
    missing = [s for s in range(first, first + games) if s not in done]
    return SimPlan(spec, first, games, out, missing, store, earlier)


def run_plan(plan: SimPlan, backend: Backend, size: int | None = None,
             progress: Callable[[int], None] | None = None) -> SimOutcome:
    """Play a plan's missing seeds in batches, keep each finished batch, merge at the end;
    the rows of the whole range asked for (sorted by seed and seat).

    `progress(n)` is called as games finish (n games: every rotation of a seed counts).
    """
    spec, out, store = plan.spec, plan.out, plan.store
    schema = schema_of(spec)
    outcome = SimOutcome(schema.empty_table(), resumed=plan.resumed)
    outcome.batches = plan_batches(plan.missing, batch_size(len(plan.missing),
                                                            backend.workers, size))
    fresh: list[pa.Table] = []
    logs: list[pa.Table] = []
    records = out is not None and out.suffix.lower() == ".jsonl"
    sink = _RecordSink(out, outcome.batches) if records and out is not None else None
    start = time.perf_counter()
    try:
        for batch in _batches(spec, outcome.batches, backend, progress):
            if store is not None:
                store.write(batch)
            else:
                fresh.append(batch.table)
            if batch.decisions is not None:
                logs.append(batch.decisions)
            if sink is not None:
                sink.add(batch)
            outcome.played += batch.count
    finally:
        outcome.elapsed = time.perf_counter() - start
        if sink is not None:
            outcome.records_written = sink.close()
    if spec.decisions:
        outcome.decisions = concat_decisions(logs, spec.key)
    if store is None or out is None:
        outcome.table = sort_and_dedupe(concat(fresh, schema))
        return outcome
    _merge_decisions(store, out, spec)
    parts = store.tables()
    earlier = [plan.earlier] if plan.earlier is not None else []
    merged = sort_and_dedupe(concat([*earlier, *parts], schema))
    if parts or plan.earlier is None:  # nothing new: the file stays as it was
        write_results(merged, out)
    store.clear()
    mask = pc.and_(pc.greater_equal(merged["seed"], plan.first),
                   pc.less(merged["seed"], plan.first + plan.games))
    outcome.table = merged.filter(mask)
    return outcome


def _merge_decisions(store: PartStore, out: Path, spec: SimSpec) -> None:
    """Merge the parts' decision logs into the decisions file beside `out` (kept as it was
    when there are none)."""
    parts = store.decision_tables()
    if not parts:
        return
    path = decisions_path(out)
    earlier = [read_decisions(path, spec.key)] if path.is_file() else []
    write_decisions(concat_decisions([*earlier, *parts], spec.key), path)


def run_simulation(spec: SimSpec, first: int, games: int, backend: Backend,
                   out: Path | None = None, size: int | None = None,
                   progress: Callable[[int], None] | None = None) -> SimOutcome:
    """plan_run then run_plan: play seeds first..first+games-1 not yet in `out`."""
    return run_plan(plan_run(spec, first, games, out), backend, size, progress)


def _play(job: tuple[SimSpec, int, int]) -> Batch:
    """One batch, for a backend's worker (top-level so it pickles by name)."""
    spec, first, count = job
    return run_batch(spec, first, count)


def _batches(spec: SimSpec, plan: list[tuple[int, int]], backend: Backend,
             progress: Callable[[int], None] | None) -> Iterator[Batch]:
    """The finished batches, as they finish (here: game by game progress)."""
    if backend.in_process:
        tick = (lambda: progress(1)) if progress is not None else None
        for first, count in plan:
            yield run_batch(spec, first, count, on_game=tick)
        return
    for batch in backend.map_unordered(_play, [(spec, f, c) for f, c in plan]):
        if progress is not None:
            progress(batch.count * spec.rotations)
        yield batch


class _RecordSink:
    """Game records to a JSONL file in seed order, whatever order the batches finish in."""

    def __init__(self, path: Path, plan: Sequence[tuple[int, int]]) -> None:
        self.fh = path.open("w", encoding="utf-8")
        self.order = [first for first, _ in plan]
        self.at = 0
        self.waiting: dict[int, Batch] = {}
        self.written = 0

    def add(self, batch: Batch) -> None:
        """Hold a batch until every earlier one is written, then write all that can go."""
        self.waiting[batch.first] = batch
        while self.at < len(self.order) and self.order[self.at] in self.waiting:
            for rec in self.waiting.pop(self.order[self.at]).records or []:
                self.fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                self.written += 1
            self.at += 1

    def close(self) -> int:
        """Close the file (records after a missing batch are not written); the count."""
        self.fh.close()
        return self.written
