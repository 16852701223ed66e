"""Replays for the browser: any step of a finished game (never one still on: its seed
fixes every hidden card) or of an uploaded record, as the play page's payload plus the
timeline (kamon.core.timeline) and the game's statistics (games/<game>/stats.py, from
the record by replay), both built once and kept in a small cache.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.record import GameRecord
from kamon.core.timeline import Timeline, setup, timeline
from kamon.games import get_game
from kamon.server.errors import ServiceError
from kamon.server.service import GameService, Loaded
from kamon.server.store import ActionRow, GameRow, SeatRow
from kamon.server.views import payload

MAX_ACTIONS = 5_000  # decisions an uploaded record may hold (a game has a few hundred)
MAX_TEXT = 256 * 1024  # characters of an uploaded record file
TIMELINES = 32  # timelines kept (least recently used leave first)


@dataclass(frozen=True)
class Replay:
    """A timeline as the server shows it: with the game's row and seats."""

    row: GameRow
    seats: list[SeatRow]
    timeline: Timeline
    stats: dict[str, Any] | None = None


def game_stats(t: Timeline) -> dict[str, Any] | None:
    """The game's statistics (points by category through the game, what each player
    did, whose each log line is) from its record, by its `stats` slot; None for a game
    without one."""
    state = setup(t.record)
    stats = state.game.stats
    if stats is None:
        return None
    return dict(stats.game_stats(state, t.actions))


class _Cache:
    """A few replays by key, least recently used leaving first (thread-safe)."""

    def __init__(self, size: int = TIMELINES) -> None:
        """An empty cache of `size` entries."""
        self.size = size
        self.items: OrderedDict[str, Replay] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Replay | None:
        """The replay kept under `key`, if any."""
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: str, replay: Replay) -> None:
        """Keep a replay."""
        with self.lock:
            self.items[key] = replay
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


CACHE = _Cache()


def step_answer(replay: Replay, step: Any, source: str) -> dict[str, Any]:
    """The replay at `step`: the position's payload (board, scores, log), the log lines
    that step added, and the whole timeline (every move, where each round starts, the
    log's length after each step); a step out of range is refused."""
    if isinstance(step, str):
        step = step.strip()
        digits = step.removeprefix("-")  # ASCII digits only: "²".isdigit() is true
        if digits.isascii() and digits.isdigit() and len(step) < 12:
            step = int(step)
    t = replay.timeline
    n = t.steps
    if step is None:
        step = n
    if not isinstance(step, int) or isinstance(step, bool):
        raise ServiceError(400, f"step {str(step)[:20]!r} is not a step number (out of "
                                f"range): this replay has steps 0 (the setup) to {n}")
    if not 0 <= step <= n:
        raise ServiceError(400, f"step {step} is out of range: this replay has steps 0 "
                                f"(the setup) to {n}")
    row = replay.row
    state = t.state_at(step)
    moves = [ActionRow(i, "move", d["seat"], aid, d["notation"])
             for i, (aid, d) in enumerate(zip(t.actions[:step], t.described, strict=False))]
    at = GameRow(row.id, row.game, row.players, row.seed, row.options, step,
                 "over" if state.is_over() else "playing", row.created_at, row.updated_at,
                 row.mode)
    shown = payload(Loaded(at, replay.seats, step, moves, state), None)
    return {
        "source": source, "id": row.id if source == "game" else None, "game": row.game,
        "title": get_game(row.game).title, "players": row.players, "step": step,
        "steps": n, "lines": [t.lines[step - 1], t.lines[step]] if step > 0 else [0, 0],
        "moves": t.described, "rounds": t.rounds, "log_counts": t.lines,
        "payload": shown, "stats": replay.stats,
    }


# --- a hosted game -----------------------------------------------------------------------

def game_replay(service: GameService, game_id: str, step: Any) -> dict[str, Any]:
    """Step `step` of a hosted game, once it is over (409 while it is on: its record
    would reveal the hidden cards)."""
    loaded = service.load(game_id)
    if not loaded.state.is_over():
        raise ServiceError(409, "a game opens as a replay when it is over (before that the "
                                "replay would reveal the hidden cards and dice)")
    key = f"game:{game_id}:{loaded.version}"
    replay = CACHE.get(key)
    if replay is None:
        try:
            made = timeline(service.record_of(loaded))
        except RecordError as exc:
            raise ServiceError(500, f"stored game {game_id} does not replay: {exc}"
                               ) from None
        replay = Replay(loaded.row, loaded.seats, made, game_stats(made))
        CACHE.put(key, replay)
    return step_answer(replay, step, "game")


# --- an uploaded record ------------------------------------------------------------------

def parse_record_text(text: Any, index: Any = None) -> GameRecord:
    """A game record from the text of an uploaded record file (at most MAX_TEXT
    characters; `index`, from 1, chooses a line of a JSONL file)."""
    if not isinstance(text, str):
        raise RecordError("'text' must be the record file's contents (a string)")
    if len(text) > MAX_TEXT:
        raise RecordError(f"the file is too large to be a game record ({len(text)} "
                          f"characters; at most {MAX_TEXT})")
    return GameRecord.from_text(text, index)


def upload_replay(body: Any) -> dict[str, Any]:
    """Step `step` of an uploaded record: {text (the file), index? (a JSONL line, from 1),
    step? (default: the end)}; a corrupt record is refused (400) with what is wrong."""
    if not isinstance(body, dict):
        raise ServiceError(400, "the request body must be a JSON object")
    text = body.get("text")
    key = "record:" + hashlib.sha256(json.dumps(
        [text, body.get("index")], default=str).encode()).hexdigest()
    replay = CACHE.get(key)
    if replay is None:
        try:
            record = parse_record_text(text, body.get("index"))
            made = timeline(record, MAX_ACTIONS)
        except RecordError as exc:
            raise ServiceError(400, f"this game record cannot be replayed: {exc}") from None
        kinds = list(record.seats) + ["human"] * (record.players - len(record.seats))
        seats = [SeatRow(i, "human" if k == "human" else "bot",
                         None if k == "human" else k[:16], None)
                 for i, k in enumerate(kinds[:record.players])]
        row = GameRow("record", get_game(record.game).name, record.players, record.seed,
                      dict(record.options), 0, "playing", 0.0, 0.0, "practice")
        replay = Replay(row, seats, made, game_stats(made))
        CACHE.put(key, replay)
    return step_answer(replay, body.get("step"), "record")
