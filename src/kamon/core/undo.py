"""The undo rule every front end shares (web server and terminal): a player may take back
their own last decision in force while it revealed nothing (no die rolled, no card drawn,
no other player moved since)."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any

import orjson

from kamon.core.errors import IllegalAction
from kamon.core.protocol import State
from kamon.core.rng import Rng

UNDO_SAMPLES = 4  # re-sampled hidden states compared to decide if a move revealed anything


def may_undo(before: State, aid: int, after: State, mover: int, seat: int) -> bool:
    """May `seat` take back the move `aid` that `mover` played from `before` to `after`?
    Only its own move, not once the game is over, and only if the move revealed nothing.

    A move made, then undone as the front ends do: the game replayed without it.

    >>> from kamon.core.record import GameRecord, replay
    >>> from kamon.games import get_game
    >>> game = get_game("white-castle")
    >>> state = game.new_game(2, seed=1)
    >>> state.apply(game.parse_action(state, "draft 2"))
    >>> record = GameRecord.of("white-castle", state, 1, {}, game.action_text)
    >>> before = replay(record, upto=len(record.actions) - 1)
    >>> may_undo(before, state.history[-1], state, mover=0, seat=0)  # blue's own move
    True
    >>> may_undo(before, state.history[-1], state, mover=0, seat=1)  # not yellow's to undo
    False
    >>> before.history, before.decision_text()
    ([], 'blue chooses a starting pair')
    """
    if mover != seat or after.is_over():
        return False
    return not reveals(before, aid, after, seat)


def reveals(before: State, aid: int, after: State, seat: int) -> bool:
    """Did playing `aid` from `before` reveal hidden information? A move that left the
    hidden parts untouched (the game's optional `hidden_key`: no card drawn, no die
    rolled) revealed nothing; otherwise the sampling rule decides (`reveals_by_sampling`)."""
    key = hidden_key_of(before)
    if key is not None and key(before) == key(after):
        return False
    return reveals_by_sampling(before, aid, after, seat)


def reveals_by_sampling(before: State, aid: int, after: State, seat: int) -> bool:
    """The general rule: the move revealed something if, from some re-sampling of what
    `seat` cannot see, the same move leads to a different public position (a die rolled,
    a card drawn, a deck reshuffled, a rival's card revealed)."""
    public = after.view(None)
    for k in range(UNDO_SAMPLES):
        alt = before.determinize(seat, Rng(0xC0FFEE + k))
        try:
            alt.apply(aid)
        except IllegalAction:
            return True
        seen = alt.view(None)
        if seen == public:  # equal values: equal canonical JSON, no need to encode
            continue
        if not _same_json(seen, public):
            return True
    return False




def hidden_key_of(state: State) -> Callable[[Any], Hashable] | None:
    """The game's `hidden_key` slot: everything the state hides (deck orders, the random
    generator) as one comparable value; None for a game without one."""
    key: Callable[[Any], Hashable] | None = state.game.hidden_key
    return key


def _same_json(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Do two views read the same as JSON (tuples and lists alike, keys in any order)?
    orjson when it can encode both, the standard library otherwise (integers beyond 64
    bits), never one of each."""
    try:
        return bool(orjson.dumps(a, default=str, option=_CANON) ==
                    orjson.dumps(b, default=str, option=_CANON))
    except TypeError:
        return json.dumps(a, sort_keys=True, default=str) == \
            json.dumps(b, sort_keys=True, default=str)


_CANON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
