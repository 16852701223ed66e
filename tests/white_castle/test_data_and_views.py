"""Component data (provenance kept, overlays, validation) and what each seat may see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import DataError
from kamon.core.overlay import load_overlay_file, merge_overlay
from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME
from kamon.games.white_castle.data import load_data

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "white_castle"
PACKAGED = (Path(__file__).resolve().parents[2] / "src" / "kamon" / "games" / "white_castle"
            / "data" / "components.json")


def test_packaged_data_is_the_shared_fact_sheet() -> None:
    """The packaged components.json holds the same JSON as shared/data/white_castle."""
    if not SHARED.exists():
        pytest.skip(f"shared data folder not beside the repository ({SHARED})")
    assert json.loads(PACKAGED.read_text()) == json.loads(
        (SHARED / "components.json").read_text())


def test_reconstructed_and_inferred_components_stay_visibly_marked() -> None:
    """The six reconstructed domain cells and the inferred entries are listed as weak, and
    the setup lines say so."""
    weak = load_data().weak
    recon = [w for w in weak if "reconstructed" in w]
    # Cells 4-5 of each of the three personal-domain rows are placeholders.
    assert len(recon) == 6
    assert any("[coral]" in w and "spaces_under_workers.4" in w for w in recon)
    assert any("inferred" in w for w in weak)
    lines = GAME.describe_options({})
    assert any("reconstructed or inferred" in line for line in lines)


def test_overlay_corrects_a_reconstructed_domain_cell_without_touching_code() -> None:
    """An overlay changes one domain cell (the base data unchanged), travels in the
    options and survives a JSON round trip."""
    overlay = {"personal_domain": {"rows": [
        {"row": "top", "spaces_under_workers": [
            {"space": 4, "reward": {"gain": {"cp": 3}}, "confidence": "owner's board"}]}]}}
    data = load_data(overlay)
    assert data.domain_cells["coral"][3] == ("gain", (("cp", 3),))
    assert load_data().domain_cells["coral"][3] == ("gain", (("food", 1),))  # base unchanged
    s = GAME.new_game(2, 1, data_overlay=overlay)
    assert s.data.domain_cells["coral"][3] == ("gain", (("cp", 3),))
    assert s.options["data_overlay"] == overlay  # embedded, so records replay with it
    again = GAME.from_json(json.loads(json.dumps(s.to_json())))
    assert again.data.domain_cells["coral"][3] == ("gain", (("cp", 3),))


def test_overlay_from_environment_variable_is_embedded_in_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An overlay named by KAMON_DATA_OVERLAY is stored in the simulated records, which
    replay with it without the variable; the engine itself never reads the variable."""
    f = tmp_path / "overlay.json"
    overlay = {"gardens": {"cards": [{"id": "stone_7", "cp": 2}]}}
    f.write_text(json.dumps(overlay))
    out = tmp_path / "games.jsonl"
    monkeypatch.setenv("KAMON_DATA_OVERLAY", str(f))
    result = CliRunner().invoke(app, ["simulate", "white-castle", "--players", "2", "--games",
                                      "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = GameRecord.from_json(json.loads(out.read_text().splitlines()[0]))
    assert record.options["data_overlay"] == overlay
    monkeypatch.delenv("KAMON_DATA_OVERLAY")
    assert replay(record).data.gardens["stone_7"].cp == 2  # replays without the variable
    assert GAME.new_game(2, 1).data.gardens["stone_7"].cp == 1  # the engine never reads env


@pytest.mark.parametrize("overlay, message", [
    ({"gardens": {"cards": [{"id": "stone_99", "cp": 2}]}}, "stone_99"),
    ({"castle_cards": {"steward": [{"id": "steward_02", "blocks": []}]}}, "steward_02"),
    ({"gardens": {"cards": [{"id": "stone_7", "effects": [{"gain": {"gold": 1}}]}]}},
     "unknown gain 'gold'"),
    ({"personal_domain": {"rows": [{"row": "middle", "spaces_under_workers": [
        {"space": 5, "reward": None}]}]}}, "unknown (null)"),
    ({"training_yards": {"tiles": [{"id": "yard_tile_1", "front": {"effects": [
        {"action": "fly"}]}}]}}, "unknown action 'fly'"),
])
def test_malformed_overlay_is_refused_with_a_clear_message(overlay: dict, message: str) -> None:
    """An overlay naming an unknown component, effect or action is a DataError naming it."""
    with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_data(overlay)


def test_overlay_file_may_be_keyed_by_game_name(tmp_path: Path) -> None:
    """An overlay file may hold one overlay per game, keyed by the game's name."""
    f = tmp_path / "o.json"
    f.write_text(json.dumps({"white-castle": {"gardens": {}}}))
    assert load_overlay_file(str(f), "white-castle") == {"gardens": {}}


def test_overlay_file_errors_are_clear(tmp_path: Path) -> None:
    """A missing file, text that is not JSON and JSON that is not an object are each a
    DataError saying which."""
    with pytest.raises(DataError, match="cannot read"):
        load_overlay_file(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(DataError, match="not valid JSON"):
        load_overlay_file(str(bad))
    arr = tmp_path / "arr.json"
    arr.write_text("[1, 2]")
    with pytest.raises(DataError, match="JSON object"):
        load_overlay_file(str(arr))


def test_merge_overlay_merges_keyed_lists_and_replaces_scalars() -> None:
    """Items of a list are merged by id, scalars replaced, and the base left unchanged."""
    base = {"a": [{"id": "x", "v": 1, "w": 2}, {"id": "y", "v": 3}], "b": 1}
    out = merge_overlay(base, {"a": [{"id": "y", "v": 9}], "b": 2})
    assert out == {"a": [{"id": "x", "v": 1, "w": 2}, {"id": "y", "v": 9}], "b": 2}
    assert base["a"][1]["v"] == 3


def test_view_hides_castle_deck_order_and_the_rng() -> None:
    """Every seat and a spectator see the castle decks' sizes only, and no seed or RNG;
    no card still in a deck is named in the view."""
    s = GAME.new_game(3, 11)
    for seat in (0, 1, 2, None):
        v = s.view(seat)
        assert v["steward_deck"] == len(s.steward_deck)
        assert v["diplomat_deck"] == len(s.diplomat_deck)
        assert "rng" not in v
        assert "seed" not in v  # the seed would let a viewer recompute every shuffle
        text = json.dumps(v)
        # No card still in a deck is named anywhere in the view.
        for cid in s.steward_deck + s.diplomat_deck:
            assert f'"{cid}"' not in text


def test_determinize_keeps_the_view_and_resamples_hidden_deck_order() -> None:
    """Determinized copies keep seat 0's view and the Steward deck's cards, in orders that
    differ across samples; the original's view is unchanged."""
    s = GAME.new_game(4, 3)
    orders = set()
    for k in range(10):
        d = s.determinize(0, Rng(k))
        assert d.view(0) == s.view(0)
        assert sorted(d.steward_deck) == sorted(s.steward_deck)
        orders.add(tuple(d.steward_deck))
    assert len(orders) > 1
    assert s.view(0) == GAME.new_game(4, 3).view(0)  # determinize left s alone
