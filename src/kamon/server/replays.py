"""Replays for the browser: the position after any step of a finished game or of an
uploaded game record, as the play page's payload (board, scores, log) plus the timeline.

A replay shows the spectator's view of each step (`view(None)`), and a hosted game opens
as a replay only once it is over: the record's seed fixes every hidden card and die, so a
game still on is never replayed. An uploaded record is the uploader's own (they hold its
seed): it is replayed as far as it goes, and a corrupt one is refused with what is wrong.
The timeline (every decision with its seat, words, round and log lines) is built once per
finished game or record and kept in a small bounded cache; a step's position is replayed
from the setup (a game is a few hundred decisions: about a millisecond).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from kamon.core.errors import IllegalAction, KamonError, RecordError
from kamon.core.protocol import Game, State
from kamon.core.record import GameRecord
from kamon.games import get_game
from kamon.server.errors import ServiceError
from kamon.server.service import GameService, Loaded
from kamon.server.store import MAX_SEED, ActionRow, GameRow, SeatRow
from kamon.server.views import payload

MAX_ACTIONS = 5_000  # decisions an uploaded record may hold (a game has a few hundred)
MAX_TEXT = 256 * 1024  # characters of an uploaded record file
TIMELINES = 32  # timelines kept (least recently used leave first)


@dataclass(frozen=True)
class Timeline:
    """Every step of a replay: the moves with their seats, words and rounds, where each
    round starts, and how many log lines there are after each step."""

    row: GameRow
    seats: list[SeatRow]
    moves: list[ActionRow]
    described: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    lines: list[int]  # log lines after step k (k = 0 .. len(moves))

    @property
    def steps(self) -> int:
        """How many decisions the replay has (step 0 is the setup)."""
        return len(self.moves)


class _Cache:
    """A few timelines by key, least recently used leaving first (thread-safe)."""

    def __init__(self, size: int = TIMELINES) -> None:
        """An empty cache of `size` entries."""
        self.size = size
        self.items: OrderedDict[str, Timeline] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Timeline | None:
        """The timeline kept under `key`, if any."""
        with self.lock:
            hit = self.items.get(key)
            if hit is not None:
                self.items.move_to_end(key)
            return hit

    def put(self, key: str, timeline: Timeline) -> None:
        """Keep a timeline."""
        with self.lock:
            self.items[key] = timeline
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


CACHE = _Cache()


def _round_of(state: State) -> Any:
    """The round the position is in, as its public view says (None if it says none)."""
    return state.view(None).get("round")


def _setup(game: Game, row: GameRow) -> State:
    """The game set up as the row says (a corrupt setup is refused with the reason)."""
    try:
        return game.new_game(row.players, row.seed, **row.options)
    except (KamonError, ValueError, TypeError) as exc:
        raise ServiceError(400 if row.id == "record" else 500,
                           f"cannot set up {game.title} from this "
                           f"{'record' if row.id == 'record' else 'game'}: {exc}") from None


def build_timeline(row: GameRow, seats: list[SeatRow], moves: list[ActionRow]
                   ) -> Timeline:
    """Replay every move once, noting each one's seat, words and round, and the log's
    length after it; a move that does not apply is refused with its number and why."""
    game = get_game(row.game)
    state = _setup(game, row)
    described: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    lines = [len(state.events)]
    current = _round_of(state)
    if current is not None:
        rounds.append({"round": current, "step": 0})
    for i, m in enumerate(moves):
        seat = state.to_move
        aid = m.action_id
        try:
            if aid is None:
                raise IllegalAction("the move has no action")
            words = state.describe(aid)
            state.apply(aid)
        except IllegalAction as exc:
            raise ServiceError(400 if row.id == "record" else 500,
                               f"move {i + 1} ({m.notation!r}) does not apply: {exc}"
                               ) from None
        described.append({"step": i + 1, "seat": seat,
                          "name": state.name(seat) if seat is not None else None,
                          "notation": m.notation, "text": words})
        lines.append(len(state.events))
        now = _round_of(state)
        described[-1]["round"] = now
        if now is not None and now != current:
            rounds.append({"round": now, "step": i + 1})
            current = now
    return Timeline(row, seats, moves, described, rounds, lines)


def step_answer(timeline: Timeline, step: Any, source: str) -> dict[str, Any]:
    """The replay at `step`: the position's payload (board, scores, log), the log lines
    that step added, and the whole timeline (every move, where each round starts, the
    log's length after each step); a step out of range is refused."""
    if isinstance(step, str):
        step = step.strip()
        if step.lstrip("-").isdigit() and len(step) < 12:
            step = int(step)
    n = timeline.steps
    if step is None:
        step = n
    if not isinstance(step, int) or isinstance(step, bool):
        raise ServiceError(400, f"step {str(step)[:20]!r} is not a step number (out of "
                                f"range): this replay has steps 0 (the setup) to {n}")
    if not 0 <= step <= n:
        raise ServiceError(400, f"step {step} is out of range: this replay has steps 0 "
                                f"(the setup) to {n}")
    row = timeline.row
    game = get_game(row.game)
    state = _setup(game, row)
    for m in timeline.moves[:step]:
        assert m.action_id is not None
        state.apply(m.action_id)
    at = GameRow(row.id, row.game, row.players, row.seed, row.options, step,
                 "over" if state.is_over() else "playing", row.created_at, row.updated_at,
                 row.mode)
    shown = payload(Loaded(at, timeline.seats, step, timeline.moves[:step], state), None)
    first = timeline.lines[step - 1] if step > 0 else 0
    return {
        "source": source, "id": row.id if source == "game" else None, "game": row.game,
        "title": game.title, "players": row.players, "step": step, "steps": n,
        "lines": [first, timeline.lines[step]] if step > 0 else [0, 0],
        "moves": timeline.described, "rounds": timeline.rounds, "log_counts": timeline.lines,
        "payload": shown,
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
    timeline = CACHE.get(key)
    if timeline is None:
        timeline = build_timeline(loaded.row, loaded.seats, loaded.moves)
        CACHE.put(key, timeline)
    return step_answer(timeline, step, "game")


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


def record_timeline(record: GameRecord) -> Timeline:
    """The timeline of a record: its moves resolved from their notation, one by one
    (a move that does not apply is refused with its number and the reason)."""
    try:
        game = get_game(record.game)
    except KamonError as exc:
        raise RecordError(f"the record's game: {exc}") from None
    if not 1 <= record.players <= game.max_players:
        raise RecordError(f"the record says {record.players} players: {game.title} is "
                          f"played by {game.min_players} to {game.max_players}")
    if not 0 <= record.seed <= MAX_SEED:
        raise RecordError(f"the record's seed {record.seed} is out of range "
                          f"(0 to {MAX_SEED})")
    if len(record.actions) > MAX_ACTIONS:
        raise RecordError(f"the record has {len(record.actions)} moves; at most "
                          f"{MAX_ACTIONS} are replayed")
    kinds = list(record.seats) + ["human"] * (record.players - len(record.seats))
    seats = [SeatRow(i, "human" if k == "human" else "bot",
                     None if k == "human" else k[:16], None)
             for i, k in enumerate(kinds[:record.players])]
    row = GameRow("record", game.name, record.players, record.seed, dict(record.options),
                  0, "playing", 0.0, 0.0, "practice")
    try:
        state = game.new_game(record.players, record.seed, **record.options)
    except (KamonError, ValueError, TypeError) as exc:
        raise RecordError(f"cannot set up {game.title} from this record: {exc}") from None
    moves = []
    for i, text in enumerate(record.actions):
        if state.is_over():
            raise RecordError(f"move {i + 1} ({text[:60]!r}) comes after the end of the game")
        seat = state.to_move
        try:
            action = game.parse_action(state, text)
            state.apply(action)
        except IllegalAction as exc:
            raise RecordError(f"move {i + 1} ({text[:60]!r}) does not apply: {exc}"
                              ) from None
        moves.append(ActionRow(i, "move", seat, action.id, action.text))
    return build_timeline(row, seats, moves)


def upload_replay(body: Any) -> dict[str, Any]:
    """Step `step` of an uploaded record: {text (the file), index? (a JSONL line, from 1),
    step? (default: the end)}; a corrupt record is refused (400) with what is wrong."""
    if not isinstance(body, dict):
        raise ServiceError(400, "the request body must be a JSON object")
    text = body.get("text")
    key = "record:" + hashlib.sha256(json.dumps(
        [text, body.get("index")], default=str).encode()).hexdigest()
    timeline = CACHE.get(key)
    if timeline is None:
        try:
            timeline = record_timeline(parse_record_text(text, body.get("index")))
        except RecordError as exc:
            raise ServiceError(400, f"this game record cannot be replayed: {exc}") from None
        CACHE.put(key, timeline)
    return step_answer(timeline, body.get("step"), "record")
