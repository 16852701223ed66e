"""States as JSON and games as records, for every registered game and set-up: exact round
trips from which play continues identically, records that replay (whole or in part), and
`from_json` refusing with a short RecordError whatever is not a state written exactly so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kamon.core.errors import RecordError
from kamon.core.protocol import State
from kamon.core.record import GameRecord, replay
from kamon.games import GAMES
from tests.contract.conftest import GameSetup, canonical, ids_of

Path = tuple[str | int, ...]
# from_json's message stays short whatever the document holds (it never echoes a field).
SHORT = 600


def through_text(state: State) -> dict[str, Any]:
    """The state's JSON through real JSON text."""
    data: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return data


def refused(game: GameSetup, data: object, why: str) -> str:
    """from_json refuses the document with a short RecordError (no other exception)."""
    with pytest.raises(RecordError) as info:
        game.entry.from_json(data)  # type: ignore[arg-type]
    message = str(info.value)
    assert message and len(message) < SHORT, f"{why}: {len(message)} characters"
    return message


def test_json_round_trips_are_exact_and_play_continues_identically(game: GameSetup) -> None:
    """At every 7th decision of twelve games and at their ends, from_json(to_json()) through
    JSON text is the identical state with the same choices (the same scores and winners
    at the end), and the same next move leaves both identical."""
    entry = game.entry
    for state, _, where in game.positions(range(12), every=7):
        text = canonical(state)
        loaded = entry.from_json(through_text(state))
        assert canonical(loaded) == text and ids_of(loaded) == ids_of(state), where
        if state.is_over():
            assert loaded.is_over() and loaded.scores() == state.scores()
            assert loaded.winners() == state.winners(), where
            continue
        twin = state.clone()
        aid = ids_of(state)[-1]
        twin.apply(aid)
        loaded.apply(aid)
        assert canonical(loaded) == canonical(twin), f"{where}: play after loading differs"


def test_records_replay_exactly_in_whole_and_in_part(game: GameSetup) -> None:
    """The record of three random games (the set-up, the seed and the moves in notation),
    through JSON text, replays to the identical final state, scores and winners, and
    replay(upto=k) gives the state after k moves."""
    entry = game.entry
    for seed in range(3):
        moves = game.random_moves(seed)
        state, texts = game.new(seed), [canonical(game.new(seed))]
        for aid in moves:
            state.apply(aid)
            texts.append(canonical(state))
        record = GameRecord.of(game.name, state, seed, state.options, entry.action_text)
        assert record.actions == [entry.action_text(a) for a in moves]
        record = GameRecord.from_json(json.loads(record.dumps()))
        again = replay(record)
        assert canonical(again) == texts[-1] and again.scores() == state.scores()
        assert again.winners() == state.winners()
        for upto in (0, 1, len(moves) // 3, len(moves) - 1):
            assert canonical(replay(record, upto=upto)) == texts[upto], (seed, upto)


@pytest.mark.parametrize("data", [[1, 2], "state", None, 7, {}])
def test_what_is_not_a_state_document_is_refused(game: GameSetup, data: object) -> None:
    """Something that is not a state's JSON object at all is a RecordError."""
    refused(game, data, repr(data))


def mid_game(game: GameSetup) -> dict[str, Any]:
    """The JSON of a state a third of the way through a seeded random game."""
    state = game.new(3)
    moves = game.random_moves(3)
    for aid in moves[:len(moves) // 3]:
        state.apply(aid)
    return through_text(state)


def others(value: object) -> list[object]:
    """Values of other JSON types in place of `value`, including the near misses a lax
    reader would take for it: a number as text or with a fraction, true for 1, 1 for true."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), None]
    if isinstance(value, int):
        return [str(value), value + 0.0, True, False, None, [value]]
    if isinstance(value, str):
        return [7, None, [value]]
    if isinstance(value, list):
        return ["abc", 7, {}]
    if isinstance(value, dict):
        return ["x", 7, []]
    return [{}]


def walk(value: object, path: Path = ()) -> Iterator[tuple[Path, object]]:
    """Every value inside a JSON document, with its path (the document itself first); of a
    list longer than four (the log, a deck), the first two items and the last two."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        n = len(value)
        for i in sorted({*range(min(n, 2)), *range(max(n - 2, 0), n)}):
            yield from walk(value[i], (*path, i))


def changed(data: dict[str, Any], path: Path, change: Any) -> dict[str, Any]:
    """A copy of the document with change(parent, key) done at path."""
    copy: dict[str, Any] = json.loads(json.dumps(data))
    parent: Any = copy
    for key in path[:-1]:
        parent = parent[key]
    change(parent, path[-1])
    return copy


def test_every_field_dropped_or_of_another_type_is_refused(game: GameSetup) -> None:
    """Mid-game, each top-level field dropped, or holding a value of another JSON type (a
    number as text, true for 1...), lists nested 3,000 deep or (unless it is a list of text
    already, like the log) 10,000 lines of text, and a field too many, make a short
    RecordError; a missing or extra field is named (other faults may be said in the game's
    words)."""
    data = mid_game(game)
    deep: object = []
    for _ in range(3000):
        deep = [deep]
    for key, value in data.items():
        message = refused(game, changed(data, (key,), lambda d, k: d.pop(k)), f"no {key}")
        assert key in message, message
        for other in others(value):
            if other != value:
                change = changed(data, (key,), lambda d, k, o=other: d.__setitem__(k, o))
                refused(game, change, f"{key} = a {type(other).__name__}")
        log = isinstance(value, list) and all(isinstance(line, str) for line in value)
        for other in [deep] if log else [deep, ["a long line of the game's log"] * 10_000]:
            refused(game, changed(data, (key,), lambda d, k, o=other: d.__setitem__(k, o)),
                    f"{key} = a huge or deep list")
    message = refused(game, {**data, "cheat": 1}, "a field too many")
    assert "cheat" in message


def test_every_value_inside_changed_in_type_or_dropped_is_refused(game: GameSetup) -> None:
    """Mid-game and at the end of a game, every value inside the document (a seat's
    stores, a card, an event...; the ends of a long list) given another JSON type, every key of an object inside
    dropped, and a key added to each, make a short RecordError: from_json never reads a
    document as something else: the options too (1 is no `true`, a dropped option is
    no default)."""
    state = game.new(4)
    for aid in game.random_moves(4):
        state.apply(aid)
    for data in (mid_game(game), through_text(state)):
        for path, value in walk(data):
            if len(path) < 2:
                continue  # top-level fields are the test above's
            for other in others(value):
                if other != value or type(other) is not type(value):
                    refused(game, changed(data, path, lambda d, k, o=other: d.__setitem__(k, o)),
                            f"{path} = {other!r:.40}")
            if isinstance(value, dict):
                for key in value:
                    refused(game, changed(data, (*path, key), lambda d, k: d.pop(k)),
                            f"{path} without {key}")
                refused(game, changed(data, (*path, "zz"), lambda d, k: d.__setitem__(k, 1)),
                        f"{path} with a key too many")


def test_numbers_too_large_and_another_games_state_are_refused(game: GameSetup) -> None:
    """A number too long to write or infinite in place of each top-level number, and the
    document marked as another registered game's, are short RecordErrors."""
    data = mid_game(game)
    numbers = [k for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)]
    assert numbers
    for key in numbers:
        for huge in (10 ** 5000, float("inf"), float("nan")):
            refused(game, {**data, key: huge}, f"{key} too large ({type(huge).__name__})")
    for name in GAMES:
        if name != game.name and "game" in data:
            assert name in refused(game, {**data, "game": name}, f"marked {name}")
