"""Game records: game, players, options, seed and actions replay to the identical state.

Records are the unit of storage, of bug reports and of tests. Actions are stored as
notation (readable, stable across releases of the action-id table) and replayed
through `GAME.parse_action`, so a record that no longer applies fails loudly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kamon.core.errors import IllegalAction, RecordError
from kamon.core.protocol import State

RECORD_FORMAT = "kamon-record/1"
MAX_SEED = (1 << 63) - 1  # the largest seed a game is set up with (the server's too)
MAX_PLAYERS = 16  # more than any game seats: a record saying more is not one


@dataclass
class GameRecord:
    """A replayable game: which game, how it was set up, and every decision."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible dict."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": dict(self.options),
            "seats": list(self.seats),
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Validate and build a record; RecordError says what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r}")
        try:
            game = data["game"]
            players = data["players"]
            seed = data["seed"]
        except KeyError as exc:
            raise RecordError(f"game record is missing the field {exc.args[0]!r}") from None
        if not isinstance(game, str):
            raise RecordError("record field 'game' must be a string")
        if not isinstance(players, int) or isinstance(players, bool) or \
                not 0 < players <= MAX_PLAYERS:
            raise RecordError(f"record field 'players' must be an integer from 1 to "
                              f"{MAX_PLAYERS}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise RecordError(f"record field 'seed' must be an integer from 0 to {MAX_SEED}")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("record field 'options' must be an object")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record field 'actions' must be a list of strings")
        seats = data.get("seats", [])
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("record field 'seats' must be a list of strings")
        return cls(game, players, seed, dict(options), list(actions), list(seats))

    @classmethod
    def from_text(cls, text: str, index: int | None = None, name: str = "the file"
                  ) -> GameRecord:
        """A record from a record file's text: one JSON object, or (JSON lines, as
        `simulate` writes) line `index`, from 1; RecordError names `name` and the fault.

        Examples:
            >>> GameRecord.from_text('{"game": "clansman", "players": 4, "seed": 7}').seed
            7
            >>> GameRecord.from_text('{"game": "a", "players": 1, "seed": 1}\\n{}')
            Traceback (most recent call last):
            kamon.core.errors.RecordError: the file holds 2 records, one per line: choose one (1 to 2)
        """
        if not text.strip():
            raise RecordError(f"{name} is empty")
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, int) \
                    or not 1 <= index <= len(lines):
                raise RecordError(f"{name} has {len(lines)} record line(s); record "
                                  f"{str(index)[:20]} is not one of them")
            text = lines[index - 1]
        try:
            data = json.loads(text)
        except RecursionError:
            raise RecordError(f"{name} is not a game record: it is nested too deeply"
                              ) from None
        except json.JSONDecodeError as exc:
            if index is None and len(lines) > 1 and _json_object(lines[0]):
                raise RecordError(f"{name} holds {len(lines)} records, one per line: "
                                  f"choose one (1 to {len(lines)})") from None
            raise RecordError(f"{name} is not a game record: it is not valid JSON "
                              f"({exc.msg} at line {exc.lineno}, column {exc.colno})"
                              ) from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise RecordError(f"{name} is not a game record: it holds a number too long "
                              f"to read ({exc})") from None
        return cls.from_json(data)

    def dumps(self) -> str:
        """The record as indented JSON text."""
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        """Write the record to a file."""
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; RecordError for unreadable or malformed files."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def of(cls, game: str, state: State, seed: int, options: dict[str, Any],
           action_text: Any, seats: list[str] | None = None) -> GameRecord:
        """The record of a state's history (action_text maps ids to notation)."""
        return cls(game, state.num_players, seed, dict(options),
                   [action_text(a) for a in state.history], list(seats or []))


def _json_object(line: str) -> bool:
    """Is this line on its own a JSON object?"""
    try:
        return isinstance(json.loads(line), dict)
    except (json.JSONDecodeError, RecursionError):
        return False


def replay(record: GameRecord, upto: int | None = None) -> State:
    """Set the game up again and apply the record's actions (the first `upto` of them).

    Examples:
        >>> from kamon.games import get_game
        >>> game = get_game("clansman")
        >>> state = game.new_game(4, seed=7)
        >>> state.apply(game.parse_action(state, "marry 300 pink"))
        >>> record = GameRecord.of("clansman", state, 7, state.options, game.action_text)
        >>> record.actions
        ['marry 300 pink']
        >>> replay(GameRecord.from_text(record.dumps())).to_json() == state.to_json()
        True
        >>> replay(record, upto=0).history
        []
    """
    from kamon.games import get_game

    game = get_game(record.game)
    try:
        state = game.new_game(record.players, record.seed, **record.options)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"cannot set up {record.game!r} from this record: {exc}") from None
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        try:
            state.apply(game.parse_action(state, text))
        except IllegalAction as exc:
            raise RecordError(f"action {i + 1} ({text!r}) does not apply: {exc}") from None
    return state
