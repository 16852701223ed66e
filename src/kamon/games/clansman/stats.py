"""Statistics of an I, Clansman game, by replaying its decisions: each Gozoku's Victory
Points by category at the end of every round, what each one did (marriages by kind,
Missions and Clan cards obtained, Tadokoro spent as dowries and levies and gained, the
Hero, the Kofun, Iron), and which player each log line is about — what a page shows
after a game. Nothing is kept during play: the record is enough.

>>> from kamon.games.clansman import GAME
>>> s = game_stats(GAME.new_game(4, 1), [])
>>> s["points"][0]["label"], s["parties"][:2], s["figures"][0]["label"]
('Start', ['blue', 'orange'], 'Marriages')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kamon.games.clansman import actions as A
from kamon.games.clansman.state import ClansmanState


def game_stats(state: ClansmanState, actions: Sequence[int]) -> dict[str, Any]:
    """Replay `actions` from `state` (a game as set up, changed in place) and gather the
    statistics: VP by category at the start and the end of each round, per-player
    figures, and the player each log line is about (None: the table's)."""
    n = state.n
    names = [state.name(q) for q in range(n)]
    marriages = [{"own": 0, "other": 0, "prince": 0} for _ in range(n)]
    spent = [0] * n      # Tadokoro paid away: dowries, Emperor Yuryaku's levy
    gained = [0] * n     # Tadokoro obtained (options F and G)
    iron = [0] * n       # Iron gained
    points = [_points(state, "Start", 0)]
    for step, aid in enumerate(actions, start=1):
        p = state.to_move
        before_round = state.round
        tadokoro = [pl.tadokoro for pl in state.players]
        irons = [pl.iron for pl in state.players]
        if p is not None and aid in A.MARRY_OF:
            q, _ = state.target_of(A.MARRY_OF[aid])
            marriages[p]["own" if q == p else "prince" if q < 0 else "other"] += 1
        state.apply(aid)
        for q, pl in enumerate(state.players):
            change = pl.tadokoro - tadokoro[q]
            if aid in A.MARRY_OF and q == p and change < 0:
                spent[q] -= change
            elif aid in (A.OBTAIN_F, A.OBTAIN_G) and q == p and change > 0:
                gained[q] += change
            elif change < 0 and aid not in A.MARRY_OF:
                spent[q] -= change  # a levy at a Century's end
            if pl.iron > irons[q]:
                iron[q] += pl.iron - irons[q]
        if state.round != before_round or state.is_over():
            points.append(_points(state, "Final" if state.is_over() else
                                  f"Round {before_round}", step))
    return {
        "game": "clansman",
        "parties": names,
        "categories": [k for k in (state.scores()[0] if n else {}) if k != "total"],
        "labels": {k: category_words(k) for k in (state.scores()[0] if n else {})},
        "points": points,
        "figures": _figures(state, marriages, spent, gained, iron),
        "log_parties": [_party_of(line, names) for line in state.events],
    }


SOURCES = {"jito": "(Empress Jito)", "shotoku": "(Prince Shotoku)",
           "emperors": "(Emperor cards)", "kofun_mirrors": "Mirrors under the Kofun"}
AREAS = ("military", "religion", "government", "economy", "others")


def category_words(key: str) -> str:
    """A score category's words on the statistics panel.

    >>> category_words("religion_kofun_mirrors"), category_words("military_jito")
    ('Religion: Mirrors under the Kofun', 'Military (Empress Jito)')
    >>> category_words("economy_missions"), category_words("total")
    ('Economy missions', 'Total')
    """
    area, _, source = key.partition("_")
    if area in AREAS and source in SOURCES:
        sep = ": " if source == "kofun_mirrors" else " "
        return f"{area.capitalize()}{sep}{SOURCES[source]}"
    return key.replace("_", " ").capitalize()


def _points(state: ClansmanState, label: str, step: int) -> dict[str, Any]:
    """Every player's VP by category now (as it would count if the game ended here)."""
    return {"label": label, "step": step, "round": state.round, "scores": state.scores()}


def _figures(state: ClansmanState, marriages: list[dict[str, int]], spent: list[int],
             gained: list[int], iron: list[int]) -> list[dict[str, Any]]:
    """The per-player figures, each {label, values (one per player), title, details}."""
    cards = state.data.cards
    players = state.players

    def missions(q: int) -> list[str]:
        return [c for c in players[q].missions]

    return [
        {"label": "Marriages", "title": "into their own clans · other players' clans · "
         "Royal Princes", "kind": "marriages", "values": marriages},
        {"label": "Tadokoro spent", "title": "paid as dowries (and to an Emperor's levy)",
         "values": spent},
        {"label": "Tadokoro obtained", "title": "options F and G", "values": gained},
        {"label": "Missions", "values": [len(missions(q)) for q in range(state.n)],
         "details": [", ".join(cards[c].label for c in missions(q)) for q in range(state.n)]},
        {"label": "Mission VP", "values": [sum(cards[c].vp for c in missions(q))
                                           for q in range(state.n)]},
        {"label": "Clan cards", "title": "Clan cards in the row at the end",
         "values": [len(players[q].clans) for q in range(state.n)],
         "details": [", ".join(cards[c].label for c in players[q].clans)
                     for q in range(state.n)]},
        {"label": "Hero", "values": [cards[pl.hero].name if pl.hero else "none"
                                     for pl in players]},
        *([{"label": "Kofun", "values": [cards[pl.kofun].name if pl.kofun else "none"
                                         for pl in players]}] if state.expert else []),
        {"label": "Iron gained", "values": iron},
    ]


def _party_of(line: str, names: list[str]) -> int | None:
    """The player a log line is about: the one it starts with ('blue obtains …', "blue's
    daughter …"); None for the table's (the Supply, a new round)."""
    for q, name in enumerate(names):
        if line.startswith((f"{name} ", f"{name}'s ")):
            return q
    return None
