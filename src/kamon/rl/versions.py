"""Frozen, versioned environment ids: `kamon/WhiteCastle-v0` names one rules-and-data
version of the game, so that a result reported on it can be compared with another.

A version pins
- the **component data and rule defaults**: a SHA-256 over the game's data files
  (`data/*.json` in the game's package: cards, board, rulings' defaults), each read as
  JSON and written back canonically (sorted keys, no whitespace), with the provenance
  keys (PROVENANCE_KEYS: notes, sources, confidence labels) left out, since they say
  where a fact came from and change nothing in play;
- the **interface**: the observation's size and the number of actions.

`VERSIONS` declares, per game, every version and what it is frozen at. The newest is the
one the installed package plays (`current`); `check` says whether the installed data and
interface still match it. tests/rl/test_versions.py fails when they do not (a change of
the data, or of the observation, made without a new version), saying what to do: add the
next version (`EnvVersion(version + 1, digest, ...)` with a line on what changed) and say
so in docs/research.md. A change to the engine's code that changes play (a rules fix)
is not seen by the digest: it, too, is a new version, declared by hand.

A data overlay (`--data-overlay`, KAMON_DATA_OVERLAY) changes the components the game is
played with: environments made under one are not the frozen version.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kamon.core.errors import KamonError
from kamon.games import get_game

PROVENANCE_KEYS = frozenset({"notes", "note", "source", "sources", "confidence",
                             "field_confidence"})


@dataclass(frozen=True)
class EnvVersion:
    """One frozen version of a game's environments: its number, the data digest, the
    observation size and action count it was frozen at, and what changed from the last."""

    version: int
    digest: str
    observation_size: int
    num_actions: int
    changes: str


VERSIONS: dict[str, tuple[EnvVersion, ...]] = {
    "white-castle": (
        EnvVersion(0, "1da334447e218432c84ec0d51410453ec7f05ad8bfe9e1ae2ff52bb673530920",
                   1229, 99, "the first frozen version (issue 40)"),
    ),
    "clansman": (
        EnvVersion(0, "4d53c7e98bbacd3f1bea571cc3900426d116716f88504bca8730c16b9fb823e1",
                   1198, 502, "the first frozen version (issue 40)"),
    ),
    "pig": (
        EnvVersion(0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                   22, 2, "the first frozen version (issue 40); a toy, no component data"),
    ),
}


def data_folder(game: str) -> Path:
    """The folder of the game's component data (`data/` in its package)."""
    module = importlib.import_module(type(get_game(game)).__module__)
    return Path(module.__file__ or "").parent / "data"


def data_files(folder: Path) -> list[Path]:
    """The component data files of a data folder (`*.json`), sorted by name."""
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _without_provenance(value: Any) -> Any:
    """A JSON value with every PROVENANCE_KEYS key left out, at any depth."""
    if isinstance(value, dict):
        return {k: _without_provenance(v) for k, v in value.items()
                if k not in PROVENANCE_KEYS}
    if isinstance(value, list):
        return [_without_provenance(v) for v in value]
    return value


def digest(game: str, folder: Path | None = None) -> str:
    """The SHA-256 (hex) of the game's rules-and-data: each data file's name and its
    canonical JSON without the provenance keys, in name order (`folder`: another copy
    of the data folder to digest instead of the installed one)."""
    h = hashlib.sha256()
    for path in data_files(folder if folder is not None else data_folder(game)):
        data = _without_provenance(json.loads(path.read_text(encoding="utf-8")))
        h.update(path.name.encode() + b"\0")
        h.update(json.dumps(data, sort_keys=True, separators=(",", ":"),
                            ensure_ascii=False).encode() + b"\0")
    return h.hexdigest()


def current(game: str) -> EnvVersion:
    """The newest declared version of a game (the one the package plays)."""
    name = get_game(game).name
    if name not in VERSIONS:
        raise KamonError(f"{name} has no declared environment version: add it to "
                         "kamon.rl.versions.VERSIONS")
    return VERSIONS[name][-1]


def env_id(game: str, version: int | None = None) -> str:
    """The Gymnasium id of a game's version (default the current one):
    'kamon/WhiteCastle-v0'."""
    name = get_game(game).name
    number = current(name).version if version is None else version
    return "kamon/" + "".join(w.title() for w in name.split("-")) + f"-v{number}"


def check(game: str) -> list[str]:
    """What no longer matches the current version of `game` (empty when all does): the
    data digest, the observation size, the action count; each line says what to do."""
    from kamon.rl.encoding import encoding

    name = get_game(game).name
    frozen = current(name)
    enc = encoding(name)
    found = {"data digest": (digest(name), frozen.digest),
             "observation size": (enc.size, frozen.observation_size),
             "action count": (enc.num_actions, frozen.num_actions)}
    return [f"{env_id(name)} is frozen at {what} {want}, but the installed {name} has "
            f"{have}: declare {env_id(name, frozen.version + 1)} in kamon.rl.versions."
            f"VERSIONS (EnvVersion({frozen.version + 1}, digest, observation size, "
            "action count, what changed)) and list it in docs/research.md; a frozen "
            "version is never edited"
            for what, (have, want) in found.items() if have != want]
