"""What a viewer of a hosted game is sent: one seat's (or a spectator's) payload, built
once per version and seat; the parts alike for every viewer are encoded once.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from kamon.core.protocol import State
from kamon.core.recent import recent_turns
from kamon.server.names import seat_player
from kamon.server.service import Loaded, can_undo

_STDLIB = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)


def encode(data: Any) -> bytes:
    """JSON as UTF-8 bytes: orjson (ten times the standard library's speed on a payload),
    the standard library for what orjson refuses (integers beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return _STDLIB.encode(data).encode()


def payload(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """Everything a seat (or a spectator, seat None) may see, and its legal moves."""
    common = shared(loaded)
    view = seat_view(loaded, seat)
    log = view.pop("events", [])
    return {**common, "view": view, "log": list(log), **own_parts(loaded, seat, log)}


def own_parts(loaded: Loaded, seat: int | None, log: list[str]) -> dict[str, Any]:
    """The parts of a payload that are the viewer's own: its seat, its legal moves (if it
    is to move), whether it may undo, and what happened since it last decided."""
    state = loaded.state
    legal = []
    if seat is not None and shared(loaded)["to_move"] == seat:
        legal = [{"id": a.id, "notation": a.text, "text": state.describe(a.id)}
                 for a in state.legal_actions()]
    return {"you": seat, "legal": legal,
            "can_undo": seat is not None and can_undo(loaded, seat),
            "recent": recent_turns(state, loaded.moves, loaded.log_marks(), log, seat,
                                   loaded.row.players)}


def shared(loaded: Loaded) -> dict[str, Any]:
    """The parts of the payload that are the same for every viewer, built once per
    version (the caller holds `loaded.lock`)."""
    common = loaded.common
    if common is None:
        state = loaded.state
        row = loaded.row
        over = state.is_over()
        public = loaded.public or {}  # the view, if made first, has scored the game
        scores = public["scores"] if "scores" in public else state.scores()
        common = loaded.common = {
            "id": row.id, "game": row.game, "title": loaded.game.title,
            "players": row.players, "options": dict(row.options), "mode": row.mode,
            "setup": loaded.game.setup_words(row.players, row.options),
            "created_at": row.created_at,
            "seats": [{"seat": s.seat, "name": state.name(s.seat), "player": seat_player(s),
                       "kind": s.kind, "level": s.level} for s in loaded.seats],
            "version": loaded.version, "to_move": None if over else state.to_move,
            "decision": "the game is over" if over else
                        public["decision"] if "decision" in public else state.decision_text(),
            "over": over, "scores": scores,
            "scored": scored_parties(state, row.players, scores),
            "winners": state.winners() if over else [],
        }
    return common


def seat_view(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """The engine's view for `seat` (a fresh dict the caller may change). A game whose
    `same_view_for_every_seat` says so (nothing is secret from one seat
    but not another) has one view built per version, copied with its `seat` set."""
    state = loaded.state
    if not same_view_for_every_seat(state):
        return state.view(seat)
    if loaded.public is None:
        loaded.public = state.view(None)
    view = dict(loaded.public)
    view["seat"] = seat
    return view


def same_view_for_every_seat(state: State) -> bool:
    """Does the game say every seat's view is the spectator's, but for its `seat` field
    (its `same_view_for_every_seat` slot)?"""
    return state.game.same_view_for_every_seat


def payload_json(loaded: Loaded, seat: int | None) -> bytes:
    """A seat's payload as JSON (the object `payload` makes), built once per version and
    seat: the parts alike for every viewer are encoded once per version and joined with
    each seat's own (measured, bench_move_cost.py: a 4-player I, Clansman move's five
    messages 252-272 -> 206-219 us; two-player White Castle the same either way)."""
    data = loaded.texts.get(seat)
    if data is None:
        with loaded.lock:  # the engine's state is read by one thread at a time
            data = loaded.texts.get(seat)
            if data is None:
                data = loaded.texts[seat] = _joined(loaded, seat)
    return data


def _joined(loaded: Loaded, seat: int | None) -> bytes:
    """A seat's payload JSON from the version's encoded parts and the seat's own."""
    parts = loaded.encoded
    if parts is None:
        public = None
        if same_view_for_every_seat(loaded.state):  # the view first: it has the scores
            public = loaded.public
            if public is None:
                public = loaded.public = loaded.state.view(None)
        common = shared(loaded)
        log: list[str] = []
        view_part = b""
        if public is not None:
            log = public.get("events", [])
            view_part = encode({k: v for k, v in public.items()
                                if k not in ("events", "seat")})
        parts = loaded.encoded = (encode(common)[:-1], view_part, _log_json(loaded, log),
                                  log)
    common_part, view_part, log_part, log = parts
    if view_part:
        own_view = view_part[:-1] + (b',"seat":' if len(view_part) > 2 else b'"seat":') + \
            encode(seat) + b"}"
    else:  # a game whose seats see different views: this seat's own
        view = seat_view(loaded, seat)
        log = view.pop("events", [])
        own_view = encode(view)
        log_part = encode(log)
    own = encode(own_parts(loaded, seat, log))
    return b"".join((common_part, b',"view":', own_view, b',"log":', log_part, b",",
                     own[1:]))


def _log_json(loaded: Loaded, log: list[str]) -> bytes:
    """The log as JSON: the previous version's encoding and the lines the move added (a
    move only appends to the log), or all of it."""
    seed = loaded.log_seed
    if seed is None or seed[0] > len(log):
        return encode(log)
    lines, done = seed
    if lines == len(log):
        return done
    more = encode(log[lines:])
    return more if lines == 0 else done[:-1] + b"," + more[1:]


def state_message(loaded: Loaded, seat: int | None) -> str:
    """The WebSocket message that carries a seat's payload (a text frame)."""
    message = loaded.messages.get(seat)
    if message is None:
        message = loaded.messages[seat] = ('{"type":"state","payload":' +
                                           payload_json(loaded, seat).decode() + "}")
    return message


def scored_parties(state: State, players: int, scores: list[Any]) -> list[dict[str, Any]]:
    """Who each entry of `scores` (and of `winners`) is: a seat, or a party that scores
    without a seat (the solo game's Tokugawa rival), so a page names every column."""
    return [{"index": i, "name": state.name(i), "seat": i if i < players else None,
             "kind": "seat" if i < players else "rival"} for i in range(len(scores))]
