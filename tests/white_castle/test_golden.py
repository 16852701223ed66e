"""Golden records: seeded random games whose replays must keep their pinned results.

Each file in tests/white_castle/golden/ holds a game record (kamon-record/1) with
the action count, the full final score breakdown, the winners and the final clan
stores pinned. A rules change that alters any of them shows up here; if the change
is intended, regenerate the files and review the diff:

    .venv/bin/python tests/white_castle/test_golden.py

(which runs `_regenerate`: the same seeds, uniform random choices from `legal_ids()`
with kamon.core.rng.Rng(seed), written back to the files).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME, WhiteCastleState

GOLDEN_DIR = Path(__file__).parent / "golden"
# name -> (players, seed, options)
GAMES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "2p_seed1": (2, 1, {}),
    "3p_seed2": (3, 2, {}),
    "4p_seed3": (4, 3, {}),
    "3p_seed4_first_game": (3, 4, {"first_game": True}),
}


def clan_summary(state: WhiteCastleState) -> list[dict[str, Any]]:
    """The final stores and pieces of every clan (stable, readable, no event text)."""
    out = []
    for clan in state.clans:
        out.append({"coins": clan.coins, "seals": clan.seals, "cp": clan.cp,
                    "res": list(clan.res), "pos": clan.pos, "left": list(clan.left),
                    "courtiers": sorted(clan.courtiers), "warriors": sorted(clan.warriors)})
    return out


def play_random(players: int, seed: int, options: dict[str, Any]) -> WhiteCastleState:
    """A game of uniform random choices from legal_ids() with Rng(seed)."""
    state = GAME.new_game(players, seed, **options)
    rng = Rng(seed)
    while not state.is_over():
        ids = state.legal_ids()
        state.apply(ids[rng.below(len(ids))])
    return state


def golden_of(players: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The golden file content of one seeded game."""
    state = play_random(players, seed, options)
    for clan in state.clans:  # never pin a state that breaks the basic invariants
        assert clan.coins >= 0 and 0 <= clan.seals <= 5 and all(0 <= r <= 7 for r in clan.res)
    record = GameRecord.of("white-castle", state, seed, options, GAME.action_text,
                           ["random"] * players)
    return {
        "about": "golden replay: pinned results of a seeded uniform-random game "
                 "(see tests/white_castle/test_golden.py to regenerate)",
        "record": record.to_json(),
        "num_actions": len(record.actions),
        "placements": list(state.placements),
        "round": state.round,
        "scores": state.scores(),
        "winners": state.winners(),
        "turn_order": list(state.order),
        "clans": clan_summary(state),
    }


def _regenerate() -> None:
    """Rewrite every golden file from its seed (only with KAMON_REGEN_GOLDEN=1)."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, (players, seed, options) in GAMES.items():
        data = golden_of(players, seed, options)
        (GOLDEN_DIR / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n",
                                                 encoding="utf-8")


def load(name: str) -> dict[str, Any]:
    """A golden file's content."""
    data: dict[str, Any] = json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_every_golden_file_is_listed() -> None:
    """No stray or missing golden files."""
    assert sorted(p.stem for p in GOLDEN_DIR.glob("*.json")) == sorted(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_replay(name: str) -> None:
    """The record replays to the pinned action count, scores, winners and clan stores."""
    players, seed, options = GAMES[name]
    golden = load(name)
    record = GameRecord.from_json(golden["record"])
    assert (record.game, record.players, record.seed, record.options) == (
        "white-castle", players, seed, options)
    assert len(record.actions) == golden["num_actions"]
    state = replay(record)
    assert isinstance(state, WhiteCastleState)
    assert state.is_over(), f"{name}: the record no longer reaches the end"
    assert len(state.history) == golden["num_actions"]
    assert state.round == golden["round"] == 3
    assert state.placements == golden["placements"] == [9] * players
    assert state.scores() == golden["scores"]
    assert state.winners() == golden["winners"]
    assert state.order == golden["turn_order"]
    assert clan_summary(state) == golden["clans"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_record_is_the_seeded_random_game(name: str) -> None:
    """The stored actions are still what seeded random play chooses (legal lists and their
    order unchanged); a failure here alone means legal_ids() order changed."""
    players, seed, options = GAMES[name]
    golden = load(name)
    state = play_random(players, seed, options)
    assert [GAME.action_text(a) for a in state.history] == golden["record"]["actions"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_record_file_round_trip(name: str, tmp_path: Path) -> None:
    """Saving and loading the golden record gives the same record and the same end."""
    record = GameRecord.from_json(load(name)["record"])
    path = tmp_path / "game.json"
    record.save(path)
    again = GameRecord.load(path)
    assert again == record
    assert replay(again).dumps() == replay(record).dumps()


if __name__ == "__main__":
    _regenerate()
    print(f"rewrote {len(GAMES)} golden files in {GOLDEN_DIR}")
