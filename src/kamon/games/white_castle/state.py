"""The White Castle's game state: the rules assembled, its copies, views and JSON.

A turn is a stack of decision frames (frames.py: a NamedTuple per kind, its fields
named). The top frame says who decides and what; `legal_actions()` lists its choices
(plus the Daimyo-seal exchanges, legal at any of that player's decisions); `apply()`
resolves one choice and then runs every step that needs no decision until the next
one. Frames are immutable tuples, so `clone()` copies the stack by reference.

Frame kinds (each frame's `seat` is the deciding seat):
  draft      pick a starting pair                  take   take a die from a bridge end
  place      put the held die on a space           effects  a set of effects, in chosen order
  choice     n resources of choice, one at a time  checkpoint  pay seals to pass, or stop
  blocks     pick card block(s)                    outside  one of a space's two actions
  warrior / gardener / courtier   the worker actions
  daimyo     a free slot of the Daimyo's favour    row    the personal-domain action (as a 6)
  pay        pay to perform                        garden_round  round-end garden activations
  rival_room / rival_garden   the solo player's choices for the rival
  lantern, rival_turn, rival_actions   automatic steps (never shown to a player)

The rules live in one module per job, each a mixin over `StateBase` (base.py: the
fields, the log, the clans' stores): effects.py (the effect interpreter and the
frames that resolve effects), placement.py (draft, take, place), workers.py (the
worker actions), scoring.py, turns.py (dispatch, automatic steps, turns, rounds and
the Gardens step) and explain.py (the state in words). `WhiteCastleState` adds
clone, view, determinize and (de)serialisation.
"""

from __future__ import annotations

import json
import random
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.loading import Field, convert_fields, require_exact
from kamon.core.protocol import Game
from kamon.core.rng import Rng
from kamon.games.white_castle import solo
from kamon.games.white_castle.base import StateBase
from kamon.games.white_castle.clan import (
    CLANS,
    MAX_PASSAGE,
    MAX_RESOURCE,
    MAX_SEALS,
    RES_INDEX,
    Clan,
)
from kamon.games.white_castle.consistency import check_state
from kamon.games.white_castle.data import WCData
from kamon.games.white_castle.effects import (
    ALL_KINDS,
    MANDATORY,
    NO_KINDS,
    SEAL_ONLY,
    effect_text,
)
from kamon.games.white_castle.explain import Explain
from kamon.games.white_castle.frames import Frame, as_frame
from kamon.games.white_castle.scoring import COURTIER_CP
from kamon.games.white_castle.turns import Turns
from kamon.games.white_castle.workers import AUDIENCE_COINS, CLIMB_PEARL

__all__ = ["ALL_KINDS", "AUDIENCE_COINS", "CLANS", "CLIMB_PEARL", "COURTIER_CP", "MANDATORY",
           "MAX_PASSAGE", "MAX_RESOURCE", "MAX_SEALS", "NO_KINDS", "RES_INDEX", "SEAL_ONLY",
           "Clan", "StateBase", "WhiteCastleState", "effect_text"]


def _tuplify(x: Any) -> Any:
    """Nested lists as nested tuples (frames and effects from JSON)."""
    return tuple(_tuplify(i) for i in x) if isinstance(x, list) else x


def _copied(x: Any) -> Any:
    """A shallow copy of a list of immutable tuples (a caller may change the list)."""
    return list(x)


def _plain(frames: list[Frame]) -> list[tuple[Any, ...]]:
    """The frames as plain tuples (a view's JSON encoder takes tuples, not their
    subclasses; their contents are plain tuples already)."""
    return list(map(tuple, frames))


def _listify(x: Any) -> Any:
    """Nested tuples as nested lists (frames and effects to JSON)."""
    return [_listify(i) for i in x] if isinstance(x, tuple | list) else x


class WhiteCastleState(Explain, Turns):
    """A game of The White Castle in progress (2-4 clans; solo: the player and the rival)."""

    __slots__ = ()

    @property
    def game(self) -> Game:
        """The game this is a position of (its entry point, with its slots)."""
        from kamon.games.white_castle import GAME

        return GAME

    def clone(self) -> WhiteCastleState:
        """An independent copy (frames and effects are immutable and shared); the nested
        lists are copied with map (no comprehension frame: search clones many states)."""
        s = WhiteCastleState.__new__(WhiteCastleState)
        s.data = self.data
        s.n = self.n
        s.clans = list(map(Clan.copy, self.clans))
        s.bridges = list(map(list.copy, self.bridges))
        s.lone_left = self.lone_left[:]
        s.spaces = list(map(list.copy, self.spaces))
        s.room_cards = self.room_cards[:]
        s.room_tiles = self.room_tiles
        s.steward_deck = self.steward_deck[:]
        s.diplomat_deck = self.diplomat_deck[:]
        s.well_tiles = self.well_tiles
        s.daimyo_card = self.daimyo_card
        s.daimyo_slots = self.daimyo_slots[:]
        s.garden_cards = self.garden_cards
        s.garden_workers = list(map(list.copy, self.garden_workers))
        s.yard_effects = self.yard_effects
        s.round = self.round
        s.order = self.order[:]
        s.turn_idx = self.turn_idx
        s.phase = self.phase
        s.draft_pairs = self.draft_pairs[:]
        s.held = self.held
        s.fired = self.fired[:]
        s.stack = self.stack[:]
        s.rng = self.rng.clone()
        s.events = self.events[:]
        s.history = self.history[:]
        s.seq_counter = self.seq_counter
        s.options = self.options
        s.seed = self.seed
        s._legal = self._legal
        s.placements = self.placements[:]
        s.rival = self.rival
        s.solo_deck = self.solo_deck[:]
        s.discarded = self.discarded[:]
        return s

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything public (the same for every seat: no hand is secret in this game).

        Hidden: the order of the castle and Solitaire decks (but the Solitaire deck's top
        Bridge side, which is face up), the RNG and the seed. The training yards' effects
        and the decision stack stay tuples (JSON arrays all the same; the frames as plain
        tuples): the server builds a view every move, and listing them again was a third
        of its cost."""
        d = self._fields(lists=False)
        d.pop("rng")
        d.pop("seed")  # the seed fixes every shuffle and roll: it would reveal the decks
        d["steward_deck"] = len(self.steward_deck)
        d["diplomat_deck"] = len(self.diplomat_deck)
        d["solo_deck"] = len(self.solo_deck)
        d["solo_top"] = solo.top_face_view(self)  # the deck is kept Bridge side up
        d["seat"] = seat
        d["to_move"] = self.to_move
        d["decision"] = self.decision_text()
        d["scores"] = self.scores()
        d["turn_order"] = self.order
        return d

    def determinize(self, seat: int | None, rng: Rng | random.Random) -> WhiteCastleState:
        """A copy with the hidden parts (castle deck orders, the Solitaire deck below its
        face-up top side, future dice) re-sampled."""
        s = self.clone()
        rng.shuffle(s.steward_deck)
        rng.shuffle(s.diplomat_deck)
        face = solo.top_face(self)
        rng.shuffle(s.solo_deck)
        solo.keep_top_face(s, face)
        s.rng = Rng.drawn_from(rng)
        return s

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data."""
        return self._fields(lists=True)

    def _fields(self, lists: bool) -> dict[str, Any]:
        """Every field as JSON-compatible data; the nested tuples of the yards' effects
        and the decision stack as lists (`lists`) or as they are (immutable, shared)."""
        listed = _listify if lists else _copied
        return {
            "game": "white-castle",
            "players": self.n,
            "seed": self.seed,
            "options": dict(self.options),
            "clans": [c.to_json() for c in self.clans],
            "bridges": [b[:] for b in self.bridges],
            "lone_left": self.lone_left[:],
            "spaces": [[list(x) for x in sp] for sp in self.spaces],
            "room_cards": self.room_cards[:],
            "room_tiles": [list(t) for t in self.room_tiles],
            "steward_deck": self.steward_deck[:],
            "diplomat_deck": self.diplomat_deck[:],
            "well_tiles": list(self.well_tiles),
            "daimyo_card": self.daimyo_card,
            "daimyo_slots": self.daimyo_slots[:],
            "garden_cards": self.garden_cards[:],
            "garden_workers": [g[:] for g in self.garden_workers],
            "yard_effects": listed(self.yard_effects),
            "round": self.round,
            "order": self.order[:],
            "turn_idx": self.turn_idx,
            "phase": self.phase,
            "draft_pairs": [list(x) if x else None for x in self.draft_pairs],
            "held": list(self.held) if self.held else None,
            "fired": self.fired[:],
            "stack": _listify(self.stack) if lists else _plain(self.stack),
            "rng": self.rng.state,
            "events": self.events[:],
            "history": self.history[:],
            "seq_counter": self.seq_counter,
            "placements": self.placements[:],
            "rival": self.rival,
            "solo_deck": self.solo_deck[:],
            "discarded": self.discarded[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], data: WCData) -> WhiteCastleState:
        """Rebuild from to_json output: exactly that document, or RecordError naming what is
        wrong (a field, its type, or values that do not fit together)."""
        s = cls.__new__(cls)
        s.data = data
        s._legal = None
        convert_fields("a White Castle", d, s, _FIELDS)
        require_exact("a White Castle", d, s)  # exactly the document (RecordError if not)
        try:
            check_state(s)  # the values fit together (RecordError naming what does not)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(f"not a White Castle state: {type(exc).__name__}: "
                              f"{str(exc)[:300]}") from None
        return s

    def dumps(self) -> str:
        """Canonical JSON text (for byte-identical comparisons)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


def _pair(x: Any) -> tuple[Any, Any] | None:
    """A starting pair (resource card, action card), or None once taken."""
    return (x[0], x[1]) if x else None


def _held(x: Any) -> tuple[int, int, bool] | None:
    """The die in hand: (colour, value, taken from the left end), or None."""
    return (int(x[0]), int(x[1]), bool(x[2])) if x else None


# Document key -> state attribute and converter (from_json; the game field is only checked).
_FIELDS: tuple[Field, ...] = (
    ("players", "n", int),
    ("seed", "seed", int),
    ("options", "options", dict),
    ("clans", "clans", lambda v: [Clan.from_json(c) for c in v]),
    ("bridges", "bridges", lambda v: [[int(x) for x in b] for b in v]),
    ("lone_left", "lone_left", lambda v: [bool(x) for x in v]),
    ("spaces", "spaces", lambda v: [[(int(x[0]), int(x[1])) for x in sp] for sp in v]),
    ("room_cards", "room_cards", lambda v: [str(x) for x in v]),
    ("room_tiles", "room_tiles", lambda v: [tuple(int(c) for c in t) for t in v]),
    ("steward_deck", "steward_deck", list),
    ("diplomat_deck", "diplomat_deck", list),
    ("well_tiles", "well_tiles", lambda v: (v[0], v[1])),
    ("daimyo_card", "daimyo_card", lambda v: v),
    ("daimyo_slots", "daimyo_slots", list),
    ("garden_cards", "garden_cards", list),
    ("garden_workers", "garden_workers", lambda v: [list(g) for g in v]),
    ("yard_effects", "yard_effects", lambda v: [_tuplify(y) for y in v]),
    ("round", "round", int),
    ("order", "order", lambda v: [int(x) for x in v]),
    ("turn_idx", "turn_idx", int),
    ("phase", "phase", str),
    ("draft_pairs", "draft_pairs", lambda v: [_pair(x) for x in v]),
    ("held", "held", _held),
    ("fired", "fired", lambda v: [int(x) for x in v]),
    ("stack", "stack", lambda v: [as_frame(_tuplify(f)) for f in v]),
    ("rng", "rng", lambda v: Rng(int(v))),
    ("events", "events", lambda v: [str(x) for x in v]),
    ("history", "history", lambda v: [int(x) for x in v]),
    ("seq_counter", "seq_counter", int),
    ("placements", "placements", lambda v: [int(x) for x in v]),
    ("rival", "rival", lambda v: None if v is None else int(v)),
    ("solo_deck", "solo_deck", lambda v: [str(x) for x in v]),
    ("discarded", "discarded", lambda v: [str(x) for x in v]),
)
