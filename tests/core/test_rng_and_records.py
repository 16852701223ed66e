"""The seeded RNG and game records: determinism, sanity of the draws, exact round trips
and clear RecordErrors for anything malformed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kamon.core.errors import RecordError
from kamon.core.record import RECORD_FORMAT, GameRecord, replay
from kamon.core.rng import Rng
from kamon.games.white_castle import GAME

# ------------------------------------------------------------------------ Rng


def test_same_seed_same_stream() -> None:
    """Two generators with one seed produce the same outputs; other seeds differ."""
    a, b, c = Rng(12345), Rng(12345), Rng(12346)
    xs = [a.next_u64() for _ in range(100)]
    assert xs == [b.next_u64() for _ in range(100)]
    assert xs != [c.next_u64() for _ in range(100)]
    assert len(set(xs)) == 100
    assert all(0 <= x < 1 << 64 for x in xs)


def test_splitmix64_reference_values() -> None:
    """SplitMix64 from seed 0 gives the published reference outputs (a stable algorithm:
    records made today must replay tomorrow)."""
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_seed_is_reduced_to_64_bits() -> None:
    """Seeds beyond 64 bits and negative seeds are accepted and deterministic."""
    assert Rng(-1).state == (1 << 64) - 1
    assert Rng(1 << 64).state == 0
    assert Rng(-5).next_u64() == Rng(-5).next_u64()


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 10, 1000, 2**32])
def test_below_stays_in_range(n: int) -> None:
    """below(n) is always in [0, n)."""
    rng = Rng(n)
    values = [rng.below(n) for _ in range(2000)]
    assert min(values) >= 0 and max(values) < n
    if n == 1:
        assert set(values) == {0}


@pytest.mark.parametrize("n", [0, -1])
def test_below_refuses_empty_range(n: int) -> None:
    """below(n) with n <= 0 is a ValueError, not a silent 0."""
    with pytest.raises(ValueError, match="n > 0"):
        Rng(1).below(n)


@pytest.mark.parametrize(("n", "seed"), [(6, 1), (7, 2), (10, 3), (3, 4)])
def test_below_is_roughly_uniform(n: int, seed: int) -> None:
    """A loose chi-square check: 60,000 draws over n cells stay well inside chance."""
    rng = Rng(seed)
    draws = 60_000
    counts = [0] * n
    for _ in range(draws):
        counts[rng.below(n)] += 1
    expected = draws / n
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    # For n-1 <= 9 degrees of freedom, chi2 > 40 has probability < 1e-5.
    assert chi2 < 40, f"chi-square {chi2:.1f} for counts {counts}"


def test_randint_and_random_ranges() -> None:
    """randint is inclusive at both ends; random() is in [0, 1) with mean near 1/2."""
    rng = Rng(7)
    dice = [rng.randint(1, 6) for _ in range(6000)]
    assert set(dice) == {1, 2, 3, 4, 5, 6}
    floats = [rng.random() for _ in range(20_000)]
    assert all(0.0 <= f < 1.0 for f in floats)
    assert abs(sum(floats) / len(floats) - 0.5) < 0.02


def test_shuffle_is_a_permutation() -> None:
    """shuffle permutes in place (same multiset), deterministically per seed, and moves
    elements (every position sees many values over repeated shuffles)."""
    base = list(range(20))
    seen_first: set[int] = set()
    rng = Rng(3)
    for _ in range(300):
        items = base[:]
        rng.shuffle(items)
        assert sorted(items) == base
        seen_first.add(items[0])
    assert len(seen_first) == 20
    a, b = base[:], base[:]
    Rng(9).shuffle(a)
    Rng(9).shuffle(b)
    assert a == b and a != base
    empty: list[int] = []
    Rng(1).shuffle(empty)
    assert empty == []


def test_choice_picks_members_and_all_of_them() -> None:
    """choice returns members of the sequence, each of them eventually."""
    rng = Rng(11)
    picks = {rng.choice(("a", "b", "c")) for _ in range(200)}
    assert picks == {"a", "b", "c"}


def test_clone_is_equal_and_independent() -> None:
    """A clone continues the same stream and advancing it does not move the original."""
    rng = Rng(42)
    rng.next_u64()
    twin = rng.clone()
    assert twin.state == rng.state
    assert [twin.next_u64() for _ in range(5)] == [rng.next_u64() for _ in range(5)]
    state = rng.state
    twin.next_u64()
    assert rng.state == state


def test_spawn_gives_independent_children() -> None:
    """spawn is deterministic and children differ from each other and the parent."""
    a, b = Rng(5), Rng(5)
    ca, cb = a.spawn(), b.spawn()
    assert ca.state == cb.state
    c2 = a.spawn()
    assert c2.state != ca.state
    assert ca.next_u64() != a.next_u64()


# -------------------------------------------------------------------- records


def played(players: int = 3, seed: int = 8, steps: int = 40) -> Any:
    """A White Castle state after `steps` seeded random decisions."""
    state = GAME.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        ids = state.legal_ids()
        state.apply(ids[rng.below(len(ids))])
    return state


def make_record(steps: int = 40) -> GameRecord:
    """The record of a partly played game."""
    state = played(steps=steps)
    return GameRecord.of("white-castle", state, 8, {}, GAME.action_text, ["human", "random"])


def test_record_of_uses_notation() -> None:
    """GameRecord.of stores the history as notation, with the setup facts."""
    state = played()
    record = GameRecord.of("white-castle", state, 8, {}, GAME.action_text, ["a", "b", "c"])
    assert record.players == 3 and record.seed == 8 and record.game == "white-castle"
    assert record.actions == [GAME.action_text(a) for a in state.history]
    assert len(record.actions) == 40
    assert replay(record).dumps() == state.dumps()


def test_record_json_round_trip() -> None:
    """to_json/from_json and dumps/json.loads round trips are exact."""
    record = make_record()
    data = record.to_json()
    assert data["format"] == RECORD_FORMAT
    assert GameRecord.from_json(data) == record
    assert GameRecord.from_json(json.loads(record.dumps())) == record
    assert GameRecord.from_json(json.loads(json.dumps(data))).to_json() == data


def test_record_with_options_round_trip(tmp_path: Path) -> None:
    """Options survive a save/load and replay with the same setup."""
    state = GAME.new_game(2, 3, first_game=True)
    for _ in range(10):
        state.apply(state.legal_ids()[0])
    record = GameRecord.of("white-castle", state, 3, {"first_game": True}, GAME.action_text)
    path = tmp_path / "r.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record and loaded.options == {"first_game": True}
    assert replay(loaded).dumps() == state.dumps()


def test_record_save_load(tmp_path: Path) -> None:
    """save writes JSON text that load reads back to an equal record."""
    record = make_record()
    path = tmp_path / "game.json"
    record.save(path)
    assert json.loads(path.read_text(encoding="utf-8"))["actions"] == record.actions
    assert GameRecord.load(path) == record


def test_replay_upto() -> None:
    """replay(upto=k) stops after k actions, matching the state at that point."""
    record = make_record(40)
    assert replay(record, upto=15).dumps() == played(steps=15).dumps()
    assert replay(record, upto=0).dumps() == GAME.new_game(3, 8).dumps()


@pytest.mark.parametrize("field", ["game", "players", "seed"])
def test_from_json_missing_field(field: str) -> None:
    """A missing required field is a RecordError naming it."""
    data = make_record().to_json()
    del data[field]
    with pytest.raises(RecordError, match=f"missing the field '{field}'"):
        GameRecord.from_json(data)


@pytest.mark.parametrize(("field", "value"), [
    ("game", 3), ("players", "3"), ("players", True), ("seed", 1.5), ("seed", None),
    ("options", []), ("actions", "take coral left"), ("actions", [1, 2]),
    ("seats", "human"), ("seats", [None]),
])
def test_from_json_wrong_type(field: str, value: Any) -> None:
    """A field of the wrong type is a RecordError naming the field."""
    data = make_record().to_json()
    data[field] = value
    with pytest.raises(RecordError, match=f"'{field}'"):
        GameRecord.from_json(data)


@pytest.mark.parametrize("data", [[], "record", 3, None])
def test_from_json_not_an_object(data: Any) -> None:
    """A record must be a JSON object."""
    with pytest.raises(RecordError, match="JSON object"):
        GameRecord.from_json(data)


def test_from_json_unknown_format() -> None:
    """An unknown record format is refused, naming it."""
    data = make_record().to_json()
    data["format"] = "kamon-record/99"
    with pytest.raises(RecordError, match="kamon-record/99"):
        GameRecord.from_json(data)


def test_load_missing_file(tmp_path: Path) -> None:
    """Loading a file that does not exist is a RecordError naming the path."""
    path = tmp_path / "nope.json"
    with pytest.raises(RecordError, match="cannot read") as info:
        GameRecord.load(path)
    assert "nope.json" in str(info.value)


def test_load_non_json(tmp_path: Path) -> None:
    """Loading a file that is not JSON is a RecordError saying so."""
    path = tmp_path / "bad.json"
    path.write_text("{ this is not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.load(path)


def test_load_json_that_is_not_a_record(tmp_path: Path) -> None:
    """Valid JSON without the record fields is a RecordError."""
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    with pytest.raises(RecordError, match="missing the field 'game'"):
        GameRecord.load(path)


def test_replay_with_an_illegal_action_names_its_number() -> None:
    """A record whose k-th action does not apply fails with RecordError naming k and it."""
    record = make_record(30)
    before = replay(record, upto=17)
    legal = {a.text for a in before.legal_actions()}
    bad = GameRecord.from_json(record.to_json())
    bad.actions[17] = next(t for t in ("audience", "pay", "draft 1", "row coral")
                           if t not in legal)
    with pytest.raises(RecordError, match=r"action 18 \('") as info:
        replay(bad)
    assert bad.actions[17] in str(info.value)
    assert "does not apply" in str(info.value)


def test_replay_with_unknown_notation() -> None:
    """Garbage notation in a record is a RecordError at that action."""
    record = make_record(10)
    record.actions[3] = "dance"
    with pytest.raises(RecordError, match=r"action 4 \('dance'\)"):
        replay(record)


def test_replay_with_a_bad_setup() -> None:
    """A record whose setup cannot be made (player count, option) is a RecordError."""
    record = make_record(0)
    record.players = 7
    with pytest.raises(RecordError, match="cannot set up"):
        replay(record)
    record.players = 3
    record.options = {"turbo": True}
    with pytest.raises(RecordError, match="turbo"):
        replay(record)
