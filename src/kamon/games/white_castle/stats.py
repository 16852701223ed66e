"""Statistics of a finished (or any) White Castle game, by replaying its decisions: each
clan's Clan Points by category at the end of every round, what each clan did (dice taken
by colour and from the lantern end, rooms its courtiers reached, cards it obtained,
workers it sent), and which clan each log line is about — what a page shows after a game
(Board Game Arena's game statistics). Nothing is kept during play: the record is enough.

>>> from kamon.games.white_castle import GAME
>>> s = game_stats(GAME.new_game(2, 1), [78])
>>> s["points"][0]["label"], s["parties"], s["figures"][0]["label"]
('Start', ['blue', 'yellow'], 'Dice taken')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS
from kamon.games.white_castle.names import LOC_NAMES, words
from kamon.games.white_castle.solo import RIVAL_NAME
from kamon.games.white_castle.state import WhiteCastleState

_RIVAL_DIE = re.compile(r"^the rival reveals .*? names the (coral|black|white) die at the (\w+)")
_RIVAL_ROOM = re.compile(r"^a rival courtier (?:climbs to (.+?)[:;]|reaches (the Daimyo's room))")


def game_stats(state: WhiteCastleState, actions: Sequence[int]) -> dict[str, Any]:
    """Replay `actions` from `state` (a game as set up, changed in place) and gather the
    statistics: points by category at the start and the end of each round, per-clan
    figures, and the clan each log line is about (None: the table's)."""
    n = len(state.clans)
    names = [state.name(q) for q in range(n)]
    dice = [[0, 0, 0] for _ in range(n)]
    lantern = [0] * n
    rooms: list[list[int]] = [[] for _ in range(n)]
    cards = [[c.card] if c.card else [] for c in state.clans]  # solo: dealt at the set-up
    points = [_points(state, "Start", 0)]
    for line in state.events:  # the rival may have played before the first decision
        _rival_line(state, line, dice, rooms)
    seen = len(state.events)
    for step, aid in enumerate(actions, start=1):
        p = state.to_move
        before_round = state.round
        before_cards = [c.card for c in state.clans]
        if p is not None and aid in A.TAKE_OF:
            b, end = A.TAKE_OF[aid]
            dice[p][b] += 1
            bridge = state.bridges[b]
            if (end == 0 if len(bridge) >= 2 else state.lone_left[b]):
                lantern[p] += 1
        if p is not None and aid in A.CLIMB_OF:
            rooms[p].append(A.CLIMB_OF[aid][1])
        state.apply(aid)
        for line in state.events[seen:]:
            _rival_line(state, line, dice, rooms)
        seen = len(state.events)
        for q, c in enumerate(state.clans):
            if c.card is not None and c.card != before_cards[q]:
                cards[q].append(c.card)
        if state.round != before_round or state.is_over():
            points.append(_points(state, "Final" if state.is_over() else
                                  f"Round {before_round}", step))
    return {
        "game": "white-castle",
        "parties": names,
        "categories": [k for k in (state.scores()[0] if n else {}) if k != "total"],
        "labels": {k: category_words(k) for k in (state.scores()[0] if n else {})},
        "points": points,
        "figures": _figures(state, dice, lantern, rooms, cards),
        "log_parties": [_party_of(line, names, state.rival) for line in state.events],
    }


def category_words(key: str) -> str:
    """A score category's words on the statistics panel.

    >>> category_words("coins_seals"), category_words("passage_of_time")
    ('Coins and seals', 'Passage of time')
    """
    return key.replace("coins_seals", "coins and seals").replace("_", " ").capitalize()


def _points(state: WhiteCastleState, label: str, step: int) -> dict[str, Any]:
    """Every clan's score by category now (as it would count if the game ended here)."""
    return {"label": label, "step": step, "round": state.round, "scores": state.scores()}


def _rival_line(state: WhiteCastleState, line: str, dice: list[list[int]],
                rooms: list[list[int]]) -> None:
    """Count the die and the room a log line says the solo rival took or reached."""
    r = state.rival
    if r is None:
        return
    m = _RIVAL_DIE.match(line)
    if m:
        dice[r][COLOURS.index(m[1])] += 1
        return
    m = _RIVAL_ROOM.match(line)
    if m:
        name = m[1] or m[2]
        if name in LOC_NAMES:
            rooms[r].append(LOC_NAMES.index(name))


def _figures(state: WhiteCastleState, dice: list[list[int]], lantern: list[int],
             rooms: list[list[int]], cards: list[list[str]]) -> list[dict[str, Any]]:
    """The per-clan figures, each {label, values (one per clan), title}."""
    n = len(state.clans)

    def floor_words(locs: list[int]) -> str:
        if not locs:
            return "none"
        top = max(A.LOC_FLOOR[x] for x in locs)
        return ("Gate", "Stewards' floor", "Diplomats' floor", "Daimyo's room")[top]

    return [
        {"label": "Dice taken", "kind": "dice", "title": "dice by colour: coral, black, white",
         "values": [{COLOURS[b]: dice[q][b] for b in range(3)} for q in range(n)]},
        {"label": "From the lantern end", "title": "dice taken from a bridge's left end "
         "(each gave the Lantern reward)", "values": lantern},
        {"label": "Rooms reached", "title": "the rooms the clan's courtiers climbed to",
         "values": [", ".join(LOC_NAMES[x].removeprefix("the ") for x in rooms[q]) or "none"
                    for q in range(n)]},
        {"label": "Highest floor", "values": [floor_words(rooms[q]) for q in range(n)]},
        {"label": "Cards obtained", "title": "starting pair and castle cards taken as the "
         "action card", "values": [len(cards[q]) for q in range(n)],
         "details": [", ".join(words(c) for c in cards[q]) for q in range(n)]},
        {"label": "Courtiers sent", "values": [5 - c.left[0] for c in state.clans]},
        {"label": "Gardeners sent", "values": [5 - c.left[1] for c in state.clans]},
        {"label": "Warriors sent", "values": [5 - c.left[2] for c in state.clans]},
    ]


def _party_of(line: str, names: list[str], rival: int | None) -> int | None:
    """The clan a log line is about: the one it starts with ('blue takes', "blue's
    gardener"), the rival's lines ('the rival …', 'a rival courtier …'); None for the
    table's (a new round, the turn order, the final scores)."""
    for q, name in enumerate(names):
        if line.startswith((f"{name} ", f"{name}'s ")):
            return q
    if rival is not None and line.startswith(("the rival", "a rival", RIVAL_NAME)):
        return rival
    return None
