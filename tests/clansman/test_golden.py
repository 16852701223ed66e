"""Golden records: seeded random I, Clansman games whose replays must keep their results.

Each file in tests/clansman/golden/ holds a game record (kamon-record/1) with the
action count, the full final score breakdown, the winners, and every Gozoku's final
tableau, hand and items pinned. A rules change that alters any of them shows up
here; if the change is intended, regenerate the files and review the diff:

    .venv/bin/python tests/clansman/test_golden.py

(the same seeds, uniform random choices from `legal_ids()` with kamon.core.rng.Rng(seed),
written back to the files).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.clansman import GAME, ClansmanState

GOLDEN_DIR = Path(__file__).parent / "golden"
# name -> (players, seed, options)
GAMES: dict[str, tuple[int, int, dict[str, Any]]] = {
    "beginner_seed1": (4, 1, {}),
    "expert_a_seed2": (4, 2, {"expert": True, "emperor_side": "A"}),
    "expert_b_seed3": (4, 3, {"expert": True, "emperor_side": "B"}),
    "small_table_3p_seed4": (3, 4, {"variant": "small-table"}),
}
ROUNDS = 16


def gozoku_summary(state: ClansmanState) -> list[dict[str, Any]]:
    """Every player's final tableau, hand and items (stable, readable, no event text)."""
    out = []
    for pl in state.players:
        out.append({"tadokoro": pl.tadokoro, "iron": pl.iron, "statue": pl.statue,
                    "mirror": pl.mirror, "kofun_mirrors": pl.kofun_mirrors,
                    "clans": list(pl.clans), "missions": list(pl.missions),
                    "hand": list(pl.hand), "kofun": pl.kofun, "hero": pl.hero,
                    "emperors": list(pl.emperors), "obtained": list(pl.obtained)})
    return out


def table_summary(state: ClansmanState) -> dict[str, Any]:
    """What lies in the centre at the end: Miyake, Bank, leftovers, the start seat."""
    return {"miyake": state.miyake, "miyake_row": state.miyake_row,
            "bank_tadokoro": state.bank_tadokoro, "heroes": list(state.heroes),
            "kofun": list(state.kofun), "emperor_centre": list(state.emperor_centre),
            "set_aside": list(state.set_aside), "supply": list(state.supply),
            "discard": sorted(state.discard), "start": state.start}


def play_random(players: int, seed: int, options: dict[str, Any]) -> ClansmanState:
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
    # Never pin a state that breaks the basic invariants.
    assert state.round == ROUNDS and all(len(pl.obtained) == ROUNDS for pl in state.players)
    assert all(min(pl.tadokoro, pl.iron, pl.statue, pl.mirror) >= 0 for pl in state.players)
    assert sum(pl.tadokoro for pl in state.players) + state.miyake_row + state.miyake \
        + state.bank_tadokoro == 32
    record = GameRecord.of("clansman", state, seed, options, GAME.action_text,
                           ["random"] * players)
    return {
        "about": "golden replay: pinned results of a seeded uniform-random game "
                 "(see tests/clansman/test_golden.py to regenerate)",
        "record": record.to_json(),
        "num_actions": len(record.actions),
        "options": dict(state.options),
        "scores": state.scores(),
        "winners": state.winners(),
        "vp_by_colour": [state.vp_by_colour(p) for p in range(players)],
        "gozoku": gozoku_summary(state),
        "table": table_summary(state),
        "last_event": state.events[-1],
    }


def _regenerate() -> None:
    """Rewrite every golden file from its seed."""
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
    """The record replays to the pinned action count, scores, winners and tableaux."""
    players, seed, options = GAMES[name]
    golden = load(name)
    record = GameRecord.from_json(golden["record"])
    assert (record.game, record.players, record.seed, record.options) == (
        "clansman", players, seed, options)
    assert len(record.actions) == golden["num_actions"]
    state = replay(record)
    assert isinstance(state, ClansmanState)
    assert state.is_over(), f"{name}: the record no longer reaches the end"
    assert len(state.history) == golden["num_actions"]
    assert state.round == ROUNDS
    assert state.options == golden["options"]
    assert state.scores() == golden["scores"]
    assert state.winners() == golden["winners"]
    assert [state.vp_by_colour(p) for p in range(players)] == golden["vp_by_colour"]
    assert gozoku_summary(state) == golden["gozoku"]
    assert table_summary(state) == golden["table"]
    assert state.events[-1] == golden["last_event"]
    for row in golden["scores"]:
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
    assert all(len(g["obtained"]) == ROUNDS for g in golden["gozoku"])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_record_is_the_seeded_random_game(name: str) -> None:
    """The stored actions are still what seeded random play chooses (setup, legal lists
    and their order unchanged); a failure here alone means legal_ids() order changed."""
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


def test_golden_games_differ() -> None:
    """The four pinned games are genuinely different games (not one game four times)."""
    finals = {json.dumps(load(name)["gozoku"], sort_keys=True) for name in GAMES}
    assert len(finals) == len(GAMES)


if __name__ == "__main__":
    _regenerate()
    print(f"rewrote {len(GAMES)} golden files in {GOLDEN_DIR}")
