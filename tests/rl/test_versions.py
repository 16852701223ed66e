"""Frozen, versioned environment ids (kamon.rl.versions): every research game declares its
current version, the installed rules-and-data and interface still match it (this test
fails, saying what to do, when the data change without a new version), the digest sees
a changed value but not a changed provenance note, the Gymnasium ids are the versions'
ids, and docs/research.md lists every id with its digest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import kamon.rl
from kamon.rl.encoding import observed_games
from kamon.rl.versions import VERSIONS, EnvVersion, check, current, data_folder, digest, env_id

DOCS = Path(__file__).resolve().parents[2] / "docs" / "research.md"


@pytest.mark.parametrize("game", observed_games())
def test_the_installed_game_is_its_frozen_version(game: str) -> None:
    """The data digest, observation size and action count are the current version's."""
    assert game in VERSIONS, (f"{game} declares no environment version: add "
                              f"EnvVersion(0, '{digest(game)}', ...) to kamon.rl.versions")
    problems = check(game)
    assert not problems, "\n".join(problems)


def test_a_changed_value_changes_the_digest_a_changed_note_does_not(tmp_path: Path) -> None:
    """A card's cost edited in a copy of the data: another digest; only a note edited:
    the same digest."""
    folder = shutil.copytree(data_folder("clansman"), tmp_path / "data")
    path = folder / "cards.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert digest("clansman", folder) == current("clansman").digest
    data["cards"][2]["source"]["notes"] = "a note rewritten"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    assert digest("clansman", folder) == current("clansman").digest
    data["cards"][2]["cost"] = {"workers": 99}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert digest("clansman", folder) != current("clansman").digest


def test_a_mismatch_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """A version frozen at other data: check names the id, both values and the next id."""
    monkeypatch.setitem(VERSIONS, "white-castle",
                        (EnvVersion(0, "0" * 64, 1229, 99, "test"),))
    (problem,) = [p for p in check("white-castle") if "data digest" in p]
    assert problem.startswith(f"kamon/WhiteCastle-v0 is frozen at data digest {'0' * 64}")
    assert digest("white-castle") in problem
    assert "declare kamon/WhiteCastle-v1 in kamon.rl.versions.VERSIONS" in problem


def test_gymnasium_ids_are_the_versions_ids() -> None:
    """The registered ids are the current versions' (kamon/WhiteCastle-v0 ...)."""
    gymnasium = pytest.importorskip("gymnasium")
    assert set(kamon.rl.GYM_IDS) == {env_id(g) for g in observed_games()}
    for gym_id in kamon.rl.GYM_IDS:
        assert gym_id in gymnasium.registry
    assert env_id("white-castle") == "kamon/WhiteCastle-v0"


def test_docs_list_every_id_with_its_version_and_digest() -> None:
    """docs/research.md names every id with its digest's first 12 hex digits."""
    text = DOCS.read_text(encoding="utf-8")
    for game in observed_games():
        frozen = current(game)
        assert f"`{env_id(game)}`" in text, env_id(game)
        assert f"`{frozen.digest[:12]}`" in text, (env_id(game), frozen.digest[:12])
