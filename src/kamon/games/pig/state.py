"""Pig's rules (Neller & Presser, "Optimal Play of Pig", 2004; the game is folklore).

Players take turns; on a turn the player to move rolls one six-sided die, again and again:

- **roll**: a 1 ends the turn and loses everything rolled this turn (the *turn total*);
  a 2-6 is added to the turn total, and the player decides again;
- **hold**: the turn total is added to the player's score and the next player (in seat
  order) starts a turn. A turn starts with a roll: there is nothing to hold before it.

The first player whose score reaches the target (100 in the classic game) wins at once.
Every die comes from the state's seeded generator, the only thing a player cannot see:
the future rolls (`hidden_key`), re-drawn by `determinize`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from kamon.core.errors import RecordError
from kamon.core.protocol import DecisionState
from kamon.core.rng import Rng
from kamon.games.pig import actions as A

if TYPE_CHECKING:
    from kamon.core.protocol import Game

FIELDS = frozenset({"game", "seed", "players", "options", "scores", "turn_seat", "rolls",
                    "last_rolls", "rng", "winner", "history", "events"})
SEAT_NAMES = ("red", "blue", "green", "yellow")
DIE = 6  # faces of the die
BUST = 1  # the face that loses the turn total


class PigState(DecisionState):
    """A game of Pig in progress: every seat's score, the seat to move, this turn's rolls
    (its total, unless the last is a 1 and the turn already passed) and the generator."""

    __slots__ = ("seed", "options", "num_players", "target", "scores_", "turn_seat", "rolls",
                 "last_rolls", "rng", "events", "winner")

    ACTIONS = A.ACTIONS

    def __init__(self, players: int, seed: int, options: dict[str, Any], first: int) -> None:
        """A new game of `seed` (its generator's start; the record's and the research
        interfaces' replay key, never shown in a view): every score 0, seat `first` to
        start its turn."""
        self._legal = None
        self.seed = seed
        self.history: list[int] = []
        self.options = options
        self.num_players = players
        self.target = int(options["points_to_win"])
        self.scores_ = [0] * players
        self.turn_seat = first
        self.rolls: list[int] = []  # this turn's rolls (none is a 1: a 1 ends the turn)
        self.last_rolls: list[int] = []  # the previous turn's rolls (the board shows them)
        self.rng = Rng(seed)
        self.events = [f"{SEAT_NAMES[first]} starts"]
        self.winner: int | None = None

    # --- the protocol ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        """Pig's entry point (with its slots)."""
        from kamon.games.pig import GAME

        return GAME

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is (None once someone has won)."""
        return None if self.winner is not None else self.turn_seat

    @property
    def turn_total(self) -> int:
        """What holding now would bank."""
        return sum(self.rolls)

    def name(self, seat: int) -> str:
        """A seat's colour."""
        return SEAT_NAMES[seat]

    def _compute_legal(self) -> list[int]:
        """Roll always; hold once something was rolled this turn; nothing at the end."""
        if self.winner is not None:
            return []
        return [A.ROLL, A.HOLD] if self.rolls else [A.ROLL]

    def why_illegal(self, aid: int) -> str:
        """Why an action id is not legal now, in the rules' words."""
        if not 0 <= aid < A.NUM_ACTIONS:
            return (f"there is no action with id {aid} (ids are 0-{A.NUM_ACTIONS - 1}: "
                    "0 roll, 1 hold)")
        if self.winner is not None:
            return f"'{A.TEXTS[aid]}' is not legal now: the game is over"
        return (f"'hold' is not legal now: {self.name(self.turn_seat)} has rolled nothing "
                "this turn (a turn starts with a roll)")

    def _do(self, aid: int) -> None:
        """Roll the die or bank the turn total (the rules above)."""
        me = self.turn_seat
        who = self.name(me)
        if aid == A.ROLL:
            face = 1 + self.rng.below(DIE)
            if face == BUST:
                self.events.append(f"{who} rolls a 1 and loses the turn total of "
                                   f"{self.turn_total}")
                self.last_rolls = [*self.rolls, face]
                self._next_turn()
            else:
                self.rolls.append(face)
                self.events.append(f"{who} rolls a {face} (turn total {self.turn_total})")
            return
        banked = self.turn_total
        self.scores_[me] += banked
        self.events.append(f"{who} holds and banks {banked} (score {self.scores_[me]})")
        self.last_rolls = self.rolls
        self.rolls = []
        if self.scores_[me] >= self.target:
            self.winner = me
            self.events.append(f"{who} reaches {self.target} and wins")
            return
        self._next_turn()

    def _next_turn(self) -> None:
        """The next seat in order starts a turn with nothing rolled."""
        self.rolls = []
        self.turn_seat = (self.turn_seat + 1) % self.num_players

    def _advance(self) -> None:
        """Nothing happens without a decision in Pig."""

    def clone(self) -> PigState:
        """An independent copy (lists copied, the generator cloned)."""
        new = PigState.__new__(PigState)
        new._legal = None
        new.seed = self.seed
        new.history = self.history[:]
        new.options = dict(self.options)
        new.num_players = self.num_players
        new.target = self.target
        new.scores_ = self.scores_[:]
        new.turn_seat = self.turn_seat
        new.rolls = self.rolls[:]
        new.last_rolls = self.last_rolls[:]
        new.rng = self.rng.clone()
        new.events = self.events[:]
        new.winner = self.winner
        return new

    def is_over(self) -> bool:
        """Someone has reached the target."""
        return self.winner is not None

    def scores(self) -> list[dict[str, int]]:
        """Each seat's banked points (one category: Pig scores nothing else)."""
        return [{"points": s, "total": s} for s in self.scores_]

    def winners(self) -> list[int]:
        """The seat that reached the target (nobody before the end)."""
        return [] if self.winner is None else [self.winner]

    def view(self, seat: int | None) -> dict[str, Any]:
        """What anyone sees (everything but the generator: the future rolls). Its banked
        scores are `points`: a view's `scores`, where a game has them, are `scores()`
        (the server reads them so)."""
        return {"target": self.target, "players": self.num_players,
                "points": self.scores_[:], "to_move": self.to_move,
                "turn_seat": self.turn_seat, "rolls": self.rolls[:],
                "turn_total": self.turn_total, "last_rolls": self.last_rolls[:],
                "winner": self.winner, "names": list(SEAT_NAMES[:self.num_players]),
                "you": seat}

    def determinize(self, seat: int | None, rng: Rng | random.Random) -> PigState:
        """The same position with other future rolls (a generator drawn from `rng`)."""
        sample = self.clone()
        sample.rng = Rng.drawn_from(rng)
        return sample

    def decision_text(self) -> str:
        """'red rolls or holds (turn total 9)', 'red starts a turn: roll'."""
        if self.winner is not None:
            return "the game is over"
        who = self.name(self.turn_seat)
        if not self.rolls:
            return f"{who} starts a turn: roll the die"
        return f"{who} rolls again or holds (turn total {self.turn_total})"

    def describe(self, action_id: int) -> str:
        """What rolling or holding would do now, with the numbers."""
        me = self.turn_seat
        if action_id == A.ROLL:
            at_stake = f"loses the turn total of {self.turn_total}" if self.rolls \
                else "ends the turn with nothing"
            return f"roll the die: a 1 {at_stake}; 2-6 add to the turn total"
        after = self.scores_[me] + self.turn_total
        win = " and win" if after >= self.target else ""
        return f"hold: bank {self.turn_total} (score {self.scores_[me]} -> {after}){win}"

    # --- records ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state (the generator's state too) as JSON data."""
        return {"game": "pig", "seed": self.seed, "players": self.num_players, "options": dict(self.options),
                "scores": self.scores_[:], "turn_seat": self.turn_seat,
                "rolls": self.rolls[:], "last_rolls": self.last_rolls[:],
                "rng": self.rng.state, "winner": self.winner, "history": self.history[:],
                "events": self.events[:]}

    @classmethod
    def from_json(cls, d: dict[str, Any], options: dict[str, Any]) -> PigState:
        """Rebuild from `to_json` output with its options already checked; RecordError
        for a field of the wrong shape."""
        missing = sorted(FIELDS - d.keys())
        extra = sorted(d.keys() - FIELDS)
        if missing or extra:
            raise RecordError("a Pig state " + "; ".join(
                x for x in (f"lacks {', '.join(missing)}" if missing else "",
                            f"has unknown field(s) {', '.join(map(str, extra))}"[:200]
                            if extra else "") if x))
        if d["game"] != "pig":
            raise RecordError(f"not a Pig state: its game is {str(d['game'])[:40]!r}")
        n = _int(d, "players")
        rng, seed = _int(d, "rng"), _int(d, "seed")
        if not 0 <= rng < 1 << 64 or not -(1 << 64) < seed < 1 << 64:
            raise RecordError("a Pig state's rng and seed must be 64-bit numbers")
        state = cls(n, seed, options, 0)
        state.rng = Rng(rng)
        state.scores_ = _ints(d, "scores", n)
        state.turn_seat = _int(d, "turn_seat")
        state.rolls = _ints(d, "rolls", None)
        state.last_rolls = _ints(d, "last_rolls", None)
        state.history = _ints(d, "history", None)
        winner = d.get("winner")
        state.winner = None if winner is None else _int(d, "winner")
        events = d.get("events")
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise RecordError("a Pig state's events must be a list of strings")
        state.events = list(events)
        if not 0 <= state.turn_seat < n or (state.winner is not None
                                            and not 0 <= state.winner < n):
            raise RecordError("a Pig state names a seat it does not have")
        if any(not 2 <= r <= DIE for r in state.rolls) or any(
                not 1 <= r <= DIE for r in state.last_rolls) or any(
                s < 0 for s in state.scores_) or any(a not in (0, 1) for a in state.history):
            raise RecordError("a Pig state has a roll, score or action out of range")
        return state


def _int(d: dict[str, Any], key: str) -> int:
    """A whole-number field (RecordError if it is not one)."""
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError(f"a Pig state's {key} must be an integer")
    return v


def _ints(d: dict[str, Any], key: str, length: int | None) -> list[int]:
    """A list of whole numbers (of `length` items when given)."""
    v = d.get(key)
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool)
                                          for x in v) or (length is not None
                                                          and len(v) != length):
        raise RecordError(f"a Pig state's {key} must be a list of integers")
    return list(v)

