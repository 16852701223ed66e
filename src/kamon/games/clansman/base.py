"""I, Clansman state's fields and the plain queries and bookkeeping every rule uses.

`StateBase` declares every field of a game (the slots `ClansmanState` fills), the
protocol's simple properties, who owns and occupies which card, what the producing
seat can afford, gaining and paying goods, the Miyake flip and the scores. The rule
mixins build on it: marriage.py, production.py, rounds.py, explain.py; state.py
assembles them.
"""

from __future__ import annotations

from typing import Any

from kamon.core.protocol import DecisionState
from kamon.core.rng import Rng
from kamon.games.clansman import actions as A
from kamon.games.clansman import scoring
from kamon.games.clansman.data import IRON, MIRROR, STATUE, VOLATILE, CSData, Goods
from kamon.games.clansman.gozoku import Gozoku

SEATS = A.SEATS


class StateBase(DecisionState):
    """A game's fields, simple queries, goods and scores (no rules of play)."""

    ACTIONS = A.ACTIONS

    __slots__ = ("data", "n", "seed", "options", "expert", "small_table", "rng", "events",
                 "round", "start", "phase", "turn", "step", "piles", "supply", "discard",
                 "players", "daughters", "princes", "miyake", "miyake_row", "bank_tadokoro",
                 "heroes", "kofun", "emperors", "emperor_centre", "set_aside", "pool",
                 "usable", "used", "lock", "pending")

    data: CSData
    n: int
    seed: int
    options: dict[str, Any]
    expert: bool
    small_table: bool
    rng: Rng
    events: list[str]
    history: list[int]
    _legal: list[int] | None
    round: int
    start: int
    phase: str
    turn: int
    step: str
    piles: list[list[str]]  # per century 4-7; the top card is the LAST element
    supply: list[str]
    discard: list[str]  # Supply cards discarded at the start of a century (out of the game)
    players: list[Gozoku]
    daughters: list[tuple[int, str] | None]  # (owner seat or -1 for a Royal Prince, card id)
    princes: list[str]  # the three Royal Prince faces showing
    miyake: int  # Miyake cards in the Miyake row (flipped)
    miyake_row: int  # Tadokoro lying unflipped in the Miyake row
    bank_tadokoro: int  # physical Tadokoro left in the Bank (< 0: substitutes in use, R02)
    heroes: list[str]  # Heroes left in the centre
    kofun: list[str]  # Kofun left in the centre (Expert)
    emperors: list[str]  # the Emperor faces in play, one per century 4-7 (Expert)
    emperor_centre: list[str]  # Emperor faces still in the centre
    set_aside: list[str]  # Emperor faces nobody won (tie), out of the game
    pool: list[int]  # the producing seat's volatile goods (index < VOLATILE)
    usable: list[tuple[str, int, str]]  # (notation key, owner, card id) usable this turn
    used: list[str]  # notation keys of the cards used this round
    lock: int  # Statues the producing seat may not spend this turn (R20)
    pending: str | None  # card chosen, awaiting the payment decision

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def to_move(self) -> int | None:
        """The seat deciding now, or None at the end."""
        if self.phase == "marriage":
            return (self.start - 1 - self.turn) % self.n
        if self.phase == "production":
            return (self.start + self.turn) % self.n
        return None

    @property
    def century(self) -> int:
        """The century of the current round (4-7)."""
        return self.data.rules.century_of_round[self.round]

    def is_over(self) -> bool:
        """True once round 16 has been cleaned up and scored."""
        return self.phase == "over"

    def name(self, p: int) -> str:
        """A seat's colour (for logs)."""
        return SEATS[p] if 0 <= p < len(SEATS) else f"seat{p + 1}"

    def log(self, text: str) -> None:
        """Append an event."""
        self.events.append(text)

    def card_name(self, cid: str) -> str:
        """'412 Contribution' for logs and descriptions."""
        return self.data.cards[cid].label

    def owner_of(self, cid: str) -> int:
        """The seat whose Clan cards row holds `cid` (-1 if none: a Royal Prince or unowned)."""
        for q, pl in enumerate(self.players):
            if cid in pl.clans:
                return q
        return -1

    def target_of(self, key: str) -> tuple[int, str]:
        """(owner, card id) of a notation key ('300 teal' -> (2, '300'); '801' -> (-1, '801');
        owner -1 too for the Kochisei-Shuraku of a seat not at a small table, R35)."""
        if " " in key:
            cid, colour = key.split(" ", 1)
            q = SEATS.index(colour)
            return (q if q < self.n else -1), cid
        return self.owner_of(key), key

    def occupant(self, owner: int, cid: str) -> int | None:
        """The seat whose daughter is on this card now, if any."""
        for q, d in enumerate(self.daughters):
            if d is not None and d[0] == owner and d[1] == cid:
                return q
        return None

    def century_effect(self) -> tuple[Any, ...] | None:
        """The effect of this century's Emperor card (Expert), if any."""
        if not self.emperors:
            return None
        return self.data.cards[self.emperors[self.century - 4]].effect

    def spendable_statues(self, p: int) -> int:
        """Statues p may spend now (one is locked in a turn p used his own Hoko-ji, R20)."""
        return self.players[p].statue - (self.lock if p == self.to_move else 0)

    def affordable(self, p: int, cost: Goods) -> bool:
        """Whether the producing seat p can pay `cost` from the pool and its items now."""
        pool = self.pool
        pl = self.players[p]
        for g, k in cost:
            if g < VOLATILE:
                if pool[g] < k:
                    return False
            elif g == IRON:
                if pl.iron < k:
                    return False
            elif g == STATUE:
                if pl.statue - self.lock < k:
                    return False
            else:
                return False
        return True

    def payable_options(self, p: int, cid: str) -> list[int]:
        """Indexes of the printed costs of `cid` that p can pay now."""
        return [i for i, c in enumerate(self.data.cards[cid].costs) if self.affordable(p, c)]

    def _flip_miyake(self) -> None:
        """Whenever the Miyake row holds enough Tadokoro, flip one and return the rest (R15)."""
        at = self.data.rules.flip_at
        while self.miyake_row >= at:
            self.miyake_row -= at
            self.miyake += 1
            self.bank_tadokoro += at - 1
            self.log(f"{at} Tadokoro in the Miyake row: one flips to Miyake "
                     f"({self.miyake} now), {at - 1} return to the Bank")

    def _gain(self, p: int, goods: Goods) -> None:
        """Add goods: pool goods to the turn's pool, item tokens to the player."""
        pl = self.players[p]
        for g, k in goods:
            if g < VOLATILE:
                self.pool[g] += k
            elif g == IRON:
                pl.iron += k
            elif g == STATUE:
                pl.statue += k
            elif g == MIRROR:
                pl.mirror += k

    def _pay(self, p: int, cost: Goods) -> None:
        """Pay a cost: pool goods from the pool, Iron and Statues back to the Bank."""
        pl = self.players[p]
        for g, k in cost:
            if g < VOLATILE:
                self.pool[g] -= k
            elif g == IRON:
                pl.iron -= k
            elif g == STATUE:
                pl.statue -= k

    def scores(self) -> list[dict[str, int]]:
        """Per seat: VPs by colour and source, and 'total' (as if the game ended now)."""
        out = []
        for p in range(self.n):
            row = scoring.breakdown(self, p)
            row["total"] = sum(row.values())
            out.append(row)
        return out

    def vp_by_colour(self, p: int) -> dict[str, int]:
        """p's VPs of each colour as they count during the game (what majorities compare)."""
        return scoring.colour_vp(self, p)

    def winners(self) -> list[int]:
        """Most VPs; ties by most Iron held; still tied: shared victory (R24)."""
        if not self.is_over():
            return []
        totals = [s["total"] for s in self.scores()]
        best = max(totals)
        tied = [p for p in range(self.n) if totals[p] == best]
        iron = max(self.players[p].iron for p in tied)
        return [p for p in tied if self.players[p].iron == iron]
