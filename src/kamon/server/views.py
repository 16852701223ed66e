"""What a viewer of a hosted game is sent: the payload of one seat (or a spectator).

A payload depends only on the game's version and the viewer's seat, so it is built and
serialised once per (version, seat) and the same text answers the HTTP request, every
socket of that seat, and any later read of that version. The view's `events` are sent
once, as the payload's `log`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import orjson

from kamon.core.errors import IllegalAction
from kamon.core.protocol import State
from kamon.core.rng import Rng

if TYPE_CHECKING:
    from kamon.server.service import Loaded

UNDO_SAMPLES = 4  # re-sampled hidden states compared to decide if a move revealed anything

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
    state = loaded.state
    game = loaded.game
    view = state.view(seat)
    log = view.pop("events", [])
    over = state.is_over()
    to_move = None if over else state.to_move
    scores = state.scores()
    legal = []
    if seat is not None and to_move == seat:
        legal = [{"id": a.id, "notation": a.text, "text": state.describe(a.id)}
                 for a in state.legal_actions()]
    row = loaded.row
    return {
        "id": row.id, "game": row.game, "title": game.title,
        "players": row.players, "options": dict(row.options), "mode": row.mode,
        "seats": [{"seat": s.seat, "name": state.name(s.seat), "kind": s.kind,
                   "level": s.level} for s in loaded.seats],
        "version": loaded.version, "you": seat, "to_move": to_move,
        "decision": "the game is over" if over else state.decision_text(),
        "over": over, "view": view, "legal": legal, "log": list(log),
        "scores": scores, "scored": scored_parties(state, row.players, scores),
        "winners": state.winners() if over else [],
        "can_undo": seat is not None and can_undo(loaded, seat),
    }


def payload_json(loaded: Loaded, seat: int | None) -> bytes:
    """The payload of a seat as JSON, built once per version and seat."""
    data = loaded.texts.get(seat)
    if data is None:
        with loaded.lock:  # the engine's state is read by one thread at a time
            data = loaded.texts.get(seat)
            if data is None:
                data = loaded.texts[seat] = encode(payload(loaded, seat))
    return data


def state_message(loaded: Loaded, seat: int | None) -> str:
    """The WebSocket message that carries a seat's payload (a text frame)."""
    message = loaded.messages.get(seat)
    if message is None:
        message = loaded.messages[seat] = ('{"type":"state","payload":' +
                                           payload_json(loaded, seat).decode() + "}")
    return message


def can_undo(loaded: Loaded, seat: int) -> bool:
    """May `seat` take back the last move in force? Only its own, and only if that
    move revealed nothing: no die rolled, no card drawn, no other player moved since.
    """
    memo = loaded.undo_seat.get(seat)
    if memo is not None:
        return memo
    ok = False
    if loaded.moves and loaded.moves[-1].seat == seat and not loaded.state.is_over():
        aid = loaded.moves[-1].action_id
        if aid is not None:
            ok = not reveals(loaded.state_before_last(), aid, loaded.state, seat)
    loaded.undo_seat[seat] = ok
    return ok


def reveals(before: State, aid: int, after: State, seat: int) -> bool:
    """Did playing `aid` from `before` reveal hidden information? It did if, from some
    re-sampling of what `seat` cannot see, the same move leads to a different public
    position (a die rolled, a card drawn, a deck reshuffled, a rival's card revealed)."""
    public = after.view(None)
    canon: str | None = None
    for k in range(UNDO_SAMPLES):
        alt = before.determinize(seat, Rng(0xC0FFEE + k))
        try:
            alt.apply(aid)
        except IllegalAction:
            return True
        seen = alt.view(None)
        if seen == public:  # equal values: equal canonical JSON, no need to encode
            continue
        if canon is None:
            canon = _canon(public)
        if _canon(seen) != canon:
            return True
    return False


def _canon(view: dict[str, Any]) -> str:
    """A view as canonical JSON, for comparing positions."""
    return json.dumps(view, sort_keys=True, default=str)


def scored_parties(state: State, players: int, scores: list[Any]) -> list[dict[str, Any]]:
    """Who each entry of `scores` (and of `winners`) is: a seat, or a party that scores
    without a seat (the solo game's Tokugawa rival), so a page names every column."""
    return [{"index": i, "name": state.name(i), "seat": i if i < players else None,
             "kind": "seat" if i < players else "rival"} for i in range(len(scores))]
