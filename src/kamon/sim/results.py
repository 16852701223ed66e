"""Simulation results as data: one row per game and clan, in Parquet or CSV (by extension).

Columns (every row):
  game, players, options (canonical JSON), seed, seat (1.., the solo rival after the
  seats), colour, agent (the solo rival is `<clan> (rival)`), placement (1 = best; the
  winner first, then by score), winner, win_share (1/k for one of k shared winners),
  decisions (this clan's), game_decisions (everyone's), one `score_<category>` per
  score category of the game (`score_total` last), then the game's own feature columns
  (`kamon.games.<game>.features`, e.g. the starting pair in The White Castle).

A file holds the results of one *run key* (game, players, options, agents per seat),
sorted by seed and seat, each seed once; the key is stored in the Parquet schema
metadata (`kamon`) and recovered from the rows of a CSV file. The rows of a seed depend
on the key and the seed only, so the same seeds give byte-identical files whatever
backend or number of workers produced them.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from kamon.core.errors import KamonError
from kamon.games import ALIASES, GAMES
from kamon.sim.features import features_of

FORMAT = "kamon-results"
VERSION = 1
META_KEY = b"kamon"
SCORE_PREFIX = "score_"
SUFFIXES = (".parquet", ".csv")
ROW_GROUP = 1 << 16
CORE: tuple[tuple[str, pa.DataType], ...] = (
    ("game", pa.string()),
    ("players", pa.int32()),
    ("options", pa.string()),
    ("seed", pa.int64()),
    ("seat", pa.int32()),
    ("colour", pa.string()),
    ("agent", pa.string()),
    ("placement", pa.int32()),
    ("winner", pa.bool_()),
    ("win_share", pa.float64()),
    ("decisions", pa.int32()),
    ("game_decisions", pa.int32()),
)
KIND_TYPES = {"str": pa.string(), "int": pa.int32()}


class NotResults(KamonError):
    """A file that is not kamon simulation results (or not readable as such)."""


def canonical_options(options: Mapping[str, Any]) -> str:
    """The options as compact JSON with sorted keys (equal options, equal text)."""
    return json.dumps(dict(options), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class RunKey:
    """What the rows of a seed depend on besides the seed: results of one key can merge."""

    game: str
    players: int
    options: str
    agents: tuple[str, ...]

    def describe(self) -> str:
        """'white-castle, 4 players, agents random,random,random,random, options {}'."""
        return (f"{self.game}, {self.players} players, agents {','.join(self.agents)}, "
                f"options {self.options}")


def schema_for(key: RunKey, categories: Sequence[str]) -> pa.Schema:
    """The results schema of a run: core columns, score categories, the game's features,
    with the run key in the metadata."""
    feats = features_of(key.game).columns
    fields = [pa.field(n, t, nullable=False) for n, t in CORE]
    fields += [pa.field(SCORE_PREFIX + c, pa.int32(), nullable=False) for c in categories]
    fields += [pa.field(n, KIND_TYPES[k], nullable=False) for n, k in feats.items()]
    meta = {"format": FORMAT, "version": VERSION, "game": key.game, "players": key.players,
            "options": json.loads(key.options), "agents": list(key.agents),
            "score_categories": list(categories), "features": list(feats)}
    return pa.schema(fields, metadata={META_KEY: json.dumps(meta, sort_keys=True).encode()})


def key_of(table: pa.Table) -> RunKey:
    """The run key of a results table (from its metadata)."""
    meta = metadata_of(table.schema)
    return RunKey(str(meta["game"]), int(meta["players"]), canonical_options(meta["options"]),
                  tuple(str(a) for a in meta["agents"]))


def metadata_of(schema: pa.Schema) -> dict[str, Any]:
    """The kamon metadata of a results schema; NotResults without it."""
    raw = (schema.metadata or {}).get(META_KEY)
    if raw is None:
        raise NotResults("no kamon metadata")
    try:
        meta = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise NotResults(f"unreadable kamon metadata ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise NotResults("its metadata is not kamon results")
    if meta.get("version") != VERSION:
        raise NotResults(f"results format version {meta.get('version')} (this kamon reads "
                         f"version {VERSION})")
    return meta


def categories_of(schema: pa.Schema) -> list[str]:
    """The score categories of a results schema, in column order ('total' last)."""
    return [n[len(SCORE_PREFIX):] for n in schema.names if n.startswith(SCORE_PREFIX)]


def table_of(rows: Sequence[Mapping[str, Any]], schema: pa.Schema) -> pa.Table:
    """Rows (dicts with every column) as a table of the schema."""
    return pa.Table.from_pylist(list(rows), schema=schema)


def check_suffix(path: Path) -> str:
    """'.parquet' or '.csv'; NotResults for any other extension."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        what = suffix or "a name without extension"
        raise NotResults(f"{path}: results are .parquet or .csv files, not {what}")
    return suffix


def read_results(path: Path) -> pa.Table:
    """A results file, validated (NotResults with the reason when it is not kamon results)."""
    suffix = check_suffix(path)
    if not path.is_file():
        raise NotResults(f"{path}: no such file")
    try:
        table = pq.read_table(path) if suffix == ".parquet" else _read_csv(path)
        if suffix == ".parquet":
            metadata_of(table.schema)
            _check_columns(table.schema, path)
    except NotResults as exc:
        raise NotResults(f"{path} is not kamon simulation results: {exc}") from None
    except (pa.ArrowException, OSError) as exc:
        raise NotResults(f"{path} is not kamon simulation results: cannot read it as "
                         f"{suffix[1:].upper()} ({exc})") from None
    return table


def _check_columns(schema: pa.Schema, path: Path) -> None:
    """Every core column with its type, and at least the total score."""
    for name, typ in CORE:
        if name not in schema.names:
            raise NotResults(f"no column {name!r}")
        if schema.field(name).type != typ:
            raise NotResults(f"column {name!r} is {schema.field(name).type}, not {typ}")
    if SCORE_PREFIX + "total" not in schema.names:
        raise NotResults("no column 'score_total'")


def _read_csv(path: Path) -> pa.Table:
    """A CSV results file with the types of its schema and the key recovered from its rows."""
    with path.open(encoding="utf-8", errors="replace", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, [])
        first_row = next(reader, None)
    missing = [n for n, _ in CORE if n not in header]
    if missing:
        raise NotResults(f"its header lacks the column(s) {', '.join(missing)}")
    types: dict[str, pa.DataType] = dict(CORE)
    feats: dict[str, str] = {}
    if first_row is not None and len(first_row) == len(header):
        game = first_row[header.index("game")]
        if ALIASES.get(game, game) in GAMES:
            feats = dict(features_of(game).columns)
    for name in header:
        if name.startswith(SCORE_PREFIX):
            types[name] = pa.int32()
        elif name in feats:
            types[name] = KIND_TYPES[feats[name]]
    convert = pacsv.ConvertOptions(column_types=types, strings_can_be_null=False,
                                   quoted_strings_can_be_null=False)
    table = pacsv.read_csv(path, convert_options=convert)
    if table.num_rows == 0:
        raise NotResults("it holds no rows")
    games = pc.unique(table["game"]).to_pylist()
    players = pc.unique(table["players"]).to_pylist()
    options = pc.unique(table["options"]).to_pylist()
    if len(games) != 1 or len(players) != 1 or len(options) != 1:
        raise NotResults("it mixes several games, player counts or options")
    if ALIASES.get(str(games[0]), str(games[0])) not in GAMES:
        raise NotResults(f"its game {games[0]!r} is not one kamon knows")
    first = table.filter(pc.equal(table["seed"], table["seed"][0]))
    agents = [a for s, a in zip(first["seat"].to_pylist(), first["agent"].to_pylist(),
                                strict=True) if s <= players[0]]
    try:
        opts = json.loads(options[0])
    except json.JSONDecodeError:
        raise NotResults("its options column is not JSON") from None
    key = RunKey(str(games[0]), int(players[0]), canonical_options(opts), tuple(agents))
    schema = schema_for(key, categories_of(table.schema))
    if schema.names != table.schema.names:
        raise NotResults("its columns are not those of kamon results for "
                         f"{key.game} (expected {', '.join(schema.names)})")
    return table.cast(schema)


def sort_and_dedupe(table: pa.Table) -> pa.Table:
    """Rows ordered by seed and seat, each (seed, seat) once (a seed's rows never differ)."""
    if table.num_rows == 0:
        return table
    table = table.take(pc.sort_indices(table, [("seed", "ascending"), ("seat", "ascending")]))
    seeds = table["seed"].to_numpy()
    seats = table["seat"].to_numpy()
    keep = np.ones(len(seeds), dtype=bool)
    keep[1:] = (seeds[1:] != seeds[:-1]) | (seats[1:] != seats[:-1])
    return table if keep.all() else table.filter(pa.array(keep))


def concat(tables: Iterable[pa.Table], schema: pa.Schema) -> pa.Table:
    """Tables of one schema as one (the schema's metadata kept)."""
    parts = [t.cast(schema) if t.schema != schema else t for t in tables]
    return pa.concat_tables(parts) if parts else schema.empty_table()


def write_results(table: pa.Table, path: Path) -> None:
    """Write a results table by extension, atomically (a temporary file renamed into place)."""
    suffix = check_suffix(path)
    tmp = path.with_name(path.name + ".tmp")
    if suffix == ".parquet":
        pq.write_table(table, tmp, compression="zstd", row_group_size=ROW_GROUP)
    else:
        pacsv.write_csv(table, tmp)
    os.replace(tmp, path)


def seeds_in(table: pa.Table) -> set[int]:
    """The seeds a results table holds."""
    return {int(s) for s in pc.unique(table["seed"]).to_pylist()}
