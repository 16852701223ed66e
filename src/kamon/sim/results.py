"""Simulation results as data: one row per game and clan, in Parquet or CSV (by extension).

Columns (every row):
  game, players, options (canonical JSON), seed, seat (1.., the solo rival after the
  seats), colour, agent (the solo rival is `<clan> (rival)`), placement (1 = best; the
  winner first, then by score), winner, win_share (1/k for one of k shared winners),
  decisions (this clan's), game_decisions (everyone's), the game-level columns (the same
  on each of a game's rows, nullable: see below), one `score_<category>` per score
  category of the game (`score_total` last), then the game's own feature columns
  (`kamon.games.<game>.features`, e.g. the starting pair in The White Castle).

Game-level columns (format version 2; `kamon.sim.metrics` reads them):
  game_branching: the mean number of legal actions per decision over the whole game;
  round_leaders: who led by score total (`scores()`) after each round, as seat numbers:
  rounds split by `|`, tied leaders by `,` ("1|2,3|1": seat 1 after round 1, seats 2
  and 3 tied after round 2, seat 1 after round 3, the last entry at the game's end).
Version 1 files (without them) are still read: their games report those metrics as
unavailable. Adding games to a version 1 file makes it version 2, its old games keeping
nulls there (they were played by a kamon that did not record them).

Seating columns (after the core ones): seating (`fixed`: every game of a seed with the
agents of the run key in their seats; `rotated`: every seed, a deal, played once from
each rotation of the seats, `kamon simulate` with mixed agents; `tournament`: the games
of `kamon tournament --out`) and rotation (0 with fixed seats; r: seat j plays the
key's agent (j + r) mod players, or for a tournament its `lineup`). A game is a
(seed, rotation) pair. Files written before these columns read as fixed, rotation 0.

A file holds the results of one *run key* (game, players, options, agents per seat in
rotation 0, seating), sorted by seed, rotation and seat, each game once; the key is
stored in the Parquet schema metadata (`kamon`) and recovered from the rows of a CSV
file. The rows of a seed depend on the key and the seed only, so the same seeds give byte-identical files whatever
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
from kamon.core.registry import get_game, known

FORMAT = "kamon-results"
VERSION = 2
READABLE = (1, 2)  # format versions this kamon reads (1: without GAME_COLUMNS)
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
GAME_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (  # version 2; null when unknown
    ("game_branching", pa.float64()),
    ("round_leaders", pa.string()),
)
SEATING_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (  # after CORE, every version
    ("seating", pa.string()),
    ("rotation", pa.int32()),
)
SEATINGS = ("fixed", "rotated", "tournament")
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
    seats: str = "fixed"  # "fixed", "rotated" or "tournament" (the `seating` column)

    def describe(self) -> str:
        """'white-castle, 4 players, agents random,random,random,random, options {}, seats
        fixed'."""
        return (f"{self.game}, {self.players} players, agents {','.join(self.agents)}, "
                f"options {self.options}, seats {self.seats}")


def schema_for(key: RunKey, categories: Sequence[str], version: int = VERSION) -> pa.Schema:
    """The results schema of a run: core columns, game-level columns (from version 2),
    score categories, the game's features, with the run key in the metadata."""
    feats = get_game(key.game).features.columns
    fields = [pa.field(n, t, nullable=False) for n, t in CORE]
    fields += [pa.field(n, t, nullable=False) for n, t in SEATING_COLUMNS]
    if version >= 2:
        fields += [pa.field(n, t, nullable=True) for n, t in GAME_COLUMNS]
    fields += [pa.field(SCORE_PREFIX + c, pa.int32(), nullable=False) for c in categories]
    fields += [pa.field(n, KIND_TYPES[k], nullable=False) for n, k in feats.items()]
    meta = {"format": FORMAT, "version": version, "game": key.game, "players": key.players,
            "options": json.loads(key.options), "agents": list(key.agents),
            "seats": key.seats, "score_categories": list(categories), "features": list(feats)}
    return pa.schema(fields, metadata={META_KEY: json.dumps(meta, sort_keys=True).encode()})


def key_of(table: pa.Table) -> RunKey:
    """The run key of a results table (from its metadata)."""
    meta = metadata_of(table.schema)
    return RunKey(str(meta["game"]), int(meta["players"]), canonical_options(meta["options"]),
                  tuple(str(a) for a in meta["agents"]), str(meta.get("seats", "fixed")))


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
    if meta.get("version") not in READABLE:
        raise NotResults(f"results format version {meta.get('version')} (this kamon reads "
                         f"versions {', '.join(map(str, READABLE))})")
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
            table = with_seating(table)
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
    for name, typ in GAME_COLUMNS:
        if name in schema.names and schema.field(name).type != typ:
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
    types: dict[str, pa.DataType] = dict(CORE) | dict(SEATING_COLUMNS)
    feats: dict[str, str] = {}
    if first_row is not None and len(first_row) == len(header):
        game = first_row[header.index("game")]
        if known(game):
            feats = dict(get_game(game).features.columns)
    types.update((n, t) for n, t in GAME_COLUMNS if n in header)
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
    if not known(str(games[0])):
        raise NotResults(f"its game {games[0]!r} is not one kamon knows")
    table = with_seating(table)
    seats = str(table["seating"][0])
    if seats not in SEATINGS:
        raise NotResults(f"its seating {seats!r} is not one of {', '.join(SEATINGS)}")
    first = table.filter(pc.and_(pc.equal(table["seed"], table["seed"][0]),
                                 pc.equal(table["rotation"], table["rotation"][0])))
    agents = [a for s, a in zip(first["seat"].to_pylist(), first["agent"].to_pylist(),
                                strict=True) if s <= players[0]]
    try:
        opts = json.loads(options[0])
    except json.JSONDecodeError:
        raise NotResults("its options column is not JSON") from None
    key = RunKey(str(games[0]), int(players[0]), canonical_options(opts), tuple(agents), seats)
    version = VERSION if all(n in header for n, _ in GAME_COLUMNS) else 1
    schema = schema_for(key, categories_of(table.schema), version)
    if schema.names != table.schema.names:
        raise NotResults("its columns are not those of kamon results for "
                         f"{key.game} (expected {', '.join(schema.names)})")
    return table.cast(schema)


def with_seating(table: pa.Table) -> pa.Table:
    """A table with the seating columns: those of a file written before them are added
    (`fixed`, rotation 0) where the schema puts them, after the core columns."""
    at = len(CORE)
    for name, typ in SEATING_COLUMNS:
        if name not in table.schema.names:
            value: Any = "fixed" if name == "seating" else 0
            table = table.add_column(at, pa.field(name, typ, nullable=False),
                                     pa.array([value] * table.num_rows, typ))
        at += 1
    return table


def sort_and_dedupe(table: pa.Table) -> pa.Table:
    """Rows ordered by seed, rotation and seat, each (seed, rotation, seat) once (a game's
    rows never differ)."""
    if table.num_rows == 0:
        return table
    order = [("seed", "ascending"), ("rotation", "ascending"), ("seat", "ascending")]
    table = table.take(pc.sort_indices(table, order))
    seeds = table["seed"].to_numpy()
    rotations = table["rotation"].to_numpy()
    seats = table["seat"].to_numpy()
    keep = np.ones(len(seeds), dtype=bool)
    keep[1:] = ((seeds[1:] != seeds[:-1]) | (rotations[1:] != rotations[:-1])
                | (seats[1:] != seats[:-1]))
    return table if keep.all() else table.filter(pa.array(keep))


def concat(tables: Iterable[pa.Table], schema: pa.Schema) -> pa.Table:
    """Tables of one schema as one (the schema's metadata kept); a version 1 table gets
    null game-level columns."""
    parts = [t.cast(schema) if t.schema != schema else t
             for t in (_with_game_columns(t, schema) for t in tables)]
    parts = [t if t.schema.equals(schema, check_metadata=True)
             else t.replace_schema_metadata(schema.metadata) for t in parts]
    return pa.concat_tables(parts) if parts else schema.empty_table()


def _with_game_columns(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """A table with null game-level columns where the schema has them and it has not."""
    for name, typ in GAME_COLUMNS:
        if name in schema.names and name not in table.schema.names:
            at = schema.get_field_index(name)
            table = table.add_column(at, pa.field(name, typ, nullable=True),
                                     pa.nulls(table.num_rows, typ))
    return table


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
