"""I, Clansman's game state: the rules assembled, its copies, views and JSON.

A round is Preparation, Marriage, Production and Cleanup. Only Marriage and
Production ask players anything; Preparation and Cleanup run by themselves
between decisions. The decision now is `step`:

  marry     the seat places its daughter (counter-clockwise from the start player's right)
  produce   the seat's Production turn: use cards ('convert'), take a Hero, or obtain the
            round's one card, which ends the turn (so obtaining declines the conversions
            left; there is no separate 'done')
  payment   which printed cost to pay, when the chosen card has more than one affordable
  hand      option F: which Supply card goes into the hand

Seats are numbered clockwise; 'left' is the next seat (+1), 'right' the previous.
The turn's workforce (workers, labourers, products) is `pool`; item tokens (iron,
statue, mirror) belong to the players. Rulings are read from the data
(`data.rules`), never hard-coded here.

The rules live in one module per job, each a mixin over `StateBase` (base.py: the
fields, plain queries, goods and scores): marriage.py, production.py, rounds.py (the
round sequence and the dispatch) and explain.py (the state in words). `ClansmanState`
adds clone, view, determinize and (de)serialisation; gozoku.py holds a player's tableau.
"""

from __future__ import annotations

import json
import random
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.loading import Field, convert_fields, require_exact, show
from kamon.core.protocol import Game
from kamon.core.rng import Rng
from kamon.games.clansman.base import SEATS, StateBase
from kamon.games.clansman.consistency import check_state
from kamon.games.clansman.data import CSData
from kamon.games.clansman.explain import Explain, goods_text, use_text, uses_text
from kamon.games.clansman.gozoku import Gozoku
from kamon.games.clansman.rounds import STEPS, Rounds

__all__ = ["SEATS", "STEPS", "ClansmanState", "Gozoku", "StateBase", "goods_text", "use_text",
           "uses_text"]


class ClansmanState(Explain, Rounds):
    """A game of I, Clansman in progress (4 players; 2-3 only in the small-table variant)."""

    __slots__ = ()

    @property
    def game(self) -> Game:
        """The game this is a position of (its entry point, with its slots)."""
        from kamon.games.clansman import GAME

        return GAME

    def clone(self) -> ClansmanState:
        """An independent copy (card data and tuples are shared)."""
        s = ClansmanState.__new__(ClansmanState)
        s.data = self.data
        s.n = self.n
        s.seed = self.seed
        s.options = self.options
        s.expert = self.expert
        s.small_table = self.small_table
        s.rng = self.rng.clone()
        s.events = self.events[:]
        s.history = self.history[:]
        s._legal = self._legal
        s.round = self.round
        s.start = self.start
        s.phase = self.phase
        s.turn = self.turn
        s.step = self.step
        s.piles = [p[:] for p in self.piles]
        s.supply = self.supply[:]
        s.discard = self.discard[:]
        s.players = [g.copy() for g in self.players]
        s.daughters = self.daughters[:]
        s.princes = self.princes[:]
        s.miyake = self.miyake
        s.miyake_row = self.miyake_row
        s.bank_tadokoro = self.bank_tadokoro
        s.heroes = self.heroes[:]
        s.kofun = self.kofun[:]
        s.emperors = self.emperors
        s.emperor_centre = self.emperor_centre[:]
        s.set_aside = self.set_aside[:]
        s.pool = self.pool[:]
        s.usable = self.usable[:]
        s.used = self.used[:]
        s.lock = self.lock
        s.pending = self.pending
        return s

    def view(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see: everything but the order of the century piles (hands are
        public, R08); the seed and RNG are withheld because they fix that order."""
        d = self.to_json()
        d.pop("rng")
        d.pop("seed")
        d["piles"] = [len(p) for p in self.piles]
        d["seat"] = seat
        d["to_move"] = self.to_move
        d["decision"] = self.decision_text()
        d["scores"] = self.scores()
        d["vp_by_colour"] = [self.vp_by_colour(p) for p in range(self.n)]
        return d

    def determinize(self, seat: int | None, rng: Rng | random.Random) -> ClansmanState:
        """A copy with the century piles reshuffled (their order is the only hidden part)."""
        s = self.clone()
        for pile in s.piles:
            rng.shuffle(pile)
        s.rng = Rng.drawn_from(rng)
        return s

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data."""
        return {
            "game": "clansman",
            "players": self.n,
            "seed": self.seed,
            "options": dict(self.options),
            "round": self.round,
            "start": self.start,
            "phase": self.phase,
            "turn": self.turn,
            "step": self.step,
            "piles": [p[:] for p in self.piles],
            "supply": self.supply[:],
            "discard": self.discard[:],
            "gozoku": [g.to_json() for g in self.players],
            "daughters": [list(d) if d is not None else None for d in self.daughters],
            "princes": self.princes[:],
            "miyake": self.miyake,
            "miyake_row": self.miyake_row,
            "bank_tadokoro": self.bank_tadokoro,
            "heroes": self.heroes[:],
            "kofun": self.kofun[:],
            "emperors": self.emperors[:],
            "emperor_centre": self.emperor_centre[:],
            "set_aside": self.set_aside[:],
            "pool": self.pool[:],
            "usable": [list(u) for u in self.usable],
            "used": self.used[:],
            "lock": self.lock,
            "pending": self.pending,
            "rng": self.rng.state,
            "events": self.events[:],
            "history": self.history[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], data: CSData) -> ClansmanState:
        """Rebuild from to_json output: exactly that document, or RecordError naming what is
        wrong (a field, its type, or values that do not fit together)."""
        if d.get("game", "clansman") != "clansman":
            raise RecordError(f"not an I, Clansman state: game is {show(d.get('game'))}")
        s = cls.__new__(cls)
        s.data = data
        s._legal = None
        convert_fields("an I, Clansman", d, s, _FIELDS)
        s.expert = bool(s.options.get("expert"))
        s.small_table = s.options.get("variant") == "small-table"
        require_exact("an I, Clansman", d, s)  # exactly the document (RecordError if not)
        try:
            s._check()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(f"not an I, Clansman state: {type(exc).__name__}: "
                              f"{str(exc)[:300]}") from None
        return s

    def _check(self) -> None:
        """Refuse (RecordError naming it) a state read from JSON whose values do not fit
        together: the invariants the rules keep (see consistency.py), checked once per load."""
        check_state(self)

    def dumps(self) -> str:
        """Canonical JSON text (for byte-identical comparisons)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


def _daughter(x: Any) -> tuple[int, str] | None:
    """Where a daughter lies: (owner seat or -1 for a Royal Prince, card id), or None."""
    return (int(x[0]), str(x[1])) if x is not None else None


def _strings(v: Any) -> list[str]:
    """A list of card ids (or other text)."""
    return [str(x) for x in v]


# Document key -> state attribute and converter (from_json; the game field is only checked).
_FIELDS: tuple[Field, ...] = (
    ("players", "n", int),
    ("seed", "seed", int),
    ("options", "options", dict),
    ("round", "round", int),
    ("start", "start", int),
    ("phase", "phase", str),
    ("turn", "turn", int),
    ("step", "step", str),
    ("piles", "piles", lambda v: [_strings(p) for p in v]),
    ("supply", "supply", _strings),
    ("discard", "discard", _strings),
    ("gozoku", "players", lambda v: [Gozoku.from_json(g) for g in v]),
    ("daughters", "daughters", lambda v: [_daughter(x) for x in v]),
    ("princes", "princes", _strings),
    ("miyake", "miyake", int),
    ("miyake_row", "miyake_row", int),
    ("bank_tadokoro", "bank_tadokoro", int),
    ("heroes", "heroes", _strings),
    ("kofun", "kofun", _strings),
    ("emperors", "emperors", _strings),
    ("emperor_centre", "emperor_centre", _strings),
    ("set_aside", "set_aside", _strings),
    ("pool", "pool", lambda v: [int(x) for x in v]),
    ("usable", "usable", lambda v: [(str(u[0]), int(u[1]), str(u[2])) for u in v]),
    ("used", "used", _strings),
    ("lock", "lock", int),
    ("pending", "pending", lambda v: None if v is None else str(v)),
    ("rng", "rng", lambda v: Rng(int(v))),
    ("events", "events", _strings),
    ("history", "history", lambda v: [int(x) for x in v]),
)
