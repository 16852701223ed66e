"""I, Clansman's rules: the game state, its decisions, and what each decision does.

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
"""

from __future__ import annotations

import json
import random
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.protocol import DecisionState
from kamon.core.rng import Rng
from kamon.games.clansman import actions as A
from kamon.games.clansman import scoring
from kamon.games.clansman.consistency import check_state
from kamon.games.clansman.data import (
    GOODS,
    IRON,
    KOCHISEI,
    MIRROR,
    STATUE,
    VOLATILE,
    WORKER,
    Card,
    CSData,
    Goods,
)

SEATS = A.SEATS
STEPS = ("marry", "produce", "payment", "hand", "")
_PLURAL = {"fish": "fish", "statue": "statues"}


def goods_text(goods: Goods) -> str:
    """'2 workers + 1 iron' (or 'nothing')."""
    if not goods:
        return "nothing"
    parts = []
    for g, n in goods:
        name = GOODS[g]
        parts.append(f"{n} {name if n == 1 else _PLURAL.get(name, name + 's')}")
    return " + ".join(parts)


def use_text(card: Card, use_key: int) -> str:
    """What one use of a card does: '2 workers → 1 soldier' / 'produces 2 irons'."""
    for u in card.uses:
        if u.key == use_key:
            return (f"{goods_text(u.inp)} → {goods_text(u.out)}" if u.inp
                    else f"produces {goods_text(u.out)}")
    return "—"


def uses_text(card: Card) -> str:
    """All uses of a card in one phrase: '2 workers → 1 soldier or 1 fish' / 'produces ...'."""
    if not card.uses:
        return "—"
    inputs = {u.inp for u in card.uses}
    outs = [goods_text(u.out) for u in card.uses]
    alts = ", ".join(outs[:-1]) + " or " + outs[-1] if len(outs) > 1 else outs[0]
    if len(inputs) == 1:
        inp = card.uses[0].inp
        return f"{goods_text(inp)} → {alts}" if inp else f"produces {alts}"
    return "; ".join(use_text(card, u.key) for u in card.uses)


class Gozoku:
    """One player's tableau, hand and item tokens."""

    __slots__ = ("tadokoro", "iron", "statue", "mirror", "kofun_mirrors", "clans", "missions",
                 "hand", "kofun", "hero", "emperors", "obtained")

    def __init__(self) -> None:
        """An empty tableau (setup fills it)."""
        self.tadokoro = 0
        self.iron = 0
        self.statue = 0
        self.mirror = 0  # Mirrors not under a Kofun
        self.kofun_mirrors = 0  # Mirrors put under the Kofun (Expert)
        self.clans: list[str] = []  # Clan cards row: '300', a starting clan, clans, 004
        self.missions: list[str] = []  # Mission cards row (obtained Missions only)
        self.hand: list[str] = []
        self.kofun: str | None = None
        self.hero: str | None = None
        self.emperors: list[str] = []  # awarded Emperor cards worth VPs (not 004)
        self.obtained: list[str] = []  # what was obtained, one entry per round

    def copy(self) -> Gozoku:
        """An independent copy."""
        g = Gozoku.__new__(Gozoku)
        g.tadokoro, g.iron, g.statue, g.mirror, g.kofun_mirrors = (
            self.tadokoro, self.iron, self.statue, self.mirror, self.kofun_mirrors)
        g.clans = self.clans[:]
        g.missions = self.missions[:]
        g.hand = self.hand[:]
        g.kofun, g.hero = self.kofun, self.hero
        g.emperors = self.emperors[:]
        g.obtained = self.obtained[:]
        return g

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible dict."""
        return {"tadokoro": self.tadokoro, "iron": self.iron, "statue": self.statue,
                "mirror": self.mirror, "kofun_mirrors": self.kofun_mirrors,
                "clans": self.clans[:], "missions": self.missions[:], "hand": self.hand[:],
                "kofun": self.kofun, "hero": self.hero, "emperors": self.emperors[:],
                "obtained": self.obtained[:]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Gozoku:
        """Inverse of to_json."""
        g = cls()
        g.tadokoro, g.iron, g.statue, g.mirror, g.kofun_mirrors = (
            int(d["tadokoro"]), int(d["iron"]), int(d["statue"]), int(d["mirror"]),
            int(d["kofun_mirrors"]))
        g.clans = [str(x) for x in d["clans"]]
        g.missions = [str(x) for x in d["missions"]]
        g.hand = [str(x) for x in d["hand"]]
        g.kofun = None if d["kofun"] is None else str(d["kofun"])
        g.hero = None if d["hero"] is None else str(d["hero"])
        g.emperors = [str(x) for x in d["emperors"]]
        g.obtained = [str(x) for x in d["obtained"]]
        return g


class ClansmanState(DecisionState):
    """A game of I, Clansman in progress (4 players; 2-3 only in the small-table variant)."""

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

    # ----------------------------------------------------------------- protocol

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

    # ------------------------------------------------------------ small helpers

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
        """(owner, card id) of a notation key ('300 teal' -> (2, '300'); '801' -> (-1, '801'))."""
        if " " in key:
            cid, colour = key.split(" ", 1)
            return SEATS.index(colour), cid
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

    # ------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[int]:
        """The legal ids of the decision now (dispatch by step)."""
        if self.phase == "over":
            return []
        return _LEGAL[self.step](self)

    def marriage_targets(self, p: int) -> list[tuple[int, str]]:
        """(owner, card id) of every card p's daughter may go to now (R12, R14)."""
        occupied = {d for d in self.daughters if d is not None}
        allow_k = self.data.rules.kochisei_marriageable
        out = []
        pay = self.players[p].tadokoro >= 1
        for q, pl in enumerate(self.players):
            if q != p and not pay:
                continue
            for cid in pl.clans:
                if (q, cid) not in occupied and (allow_k or cid != KOCHISEI):
                    out.append((q, cid))
        if pay:
            out.extend((-1, face) for face in self.princes if (-1, face) not in occupied)
        return out

    def _legal_marry(self) -> list[int]:
        """Marriage targets of the seat to move, as sorted action ids."""
        p = self.to_move
        assert p is not None
        marry = A.MARRY
        kochisei = A.MARRY_KOCHISEI
        return sorted(kochisei[q] if cid == KOCHISEI else marry[cid]
                      for q, cid in self.marriage_targets(p))

    def _legal_produce(self) -> list[int]:
        """Card uses, Heroes and affordable obtains of the producing seat."""
        p = self.to_move
        assert p is not None
        pl = self.players[p]
        cards = self.data.cards
        pool = self.pool
        out = []
        convert = A.CONVERT
        used = self.used
        needs = self.data.rules.needs_owner_statue
        for key, owner, cid in self.usable:
            if key in used or (cid in needs and (owner < 0 or self.players[owner].statue < 1)):
                continue
            for u in cards[cid].uses:
                for g, k in u.inp:
                    if pool[g] < k:
                        break
                else:
                    out.append(convert[(key, u.key)])
        if pl.hero is None:
            out.extend(A.HERO[h] for h in self.heroes)
        # What p could pay with: the pool, then Iron and spendable Statues (R20 lock).
        have = pool + [pl.iron, pl.statue - self.lock]
        obtain = A.OBTAIN
        candidates = self.supply + pl.hand
        if self.expert and pl.kofun is None:
            candidates = candidates + self.kofun
        for cid in candidates:
            for cost in cards[cid].costs:
                for g, k in cost:
                    if have[g] < k:
                        break
                else:
                    out.append(obtain[cid])
                    break
        rules = self.data.rules
        for aid, cost in ((A.OBTAIN_F, rules.f_cost), (A.OBTAIN_G, rules.g_cost)):
            for g, k in cost:
                if have[g] < k:
                    break
            else:
                out.append(aid)
        out.sort()
        return out

    def _legal_payment(self) -> list[int]:
        """The printed costs of the pending card the seat can pay now."""
        p = self.to_move
        assert p is not None and self.pending is not None
        return [A.PAYMENT[i] for i in self.payable_options(p, self.pending)]

    def _legal_hand(self) -> list[int]:
        """Option F: every Supply card may go into the hand."""
        return sorted(A.HAND[c] for c in self.supply)

    def _do(self, aid: int) -> None:
        """Perform a legal action at the current step."""
        _DO[self.step](self, aid)

    def why_illegal(self, aid: int) -> str:
        """A message saying why an action id is not legal now."""
        if not isinstance(aid, int) or not 0 <= aid < A.NUM_ACTIONS:
            return f"there is no action with id {aid} (ids are 0-{A.NUM_ACTIONS - 1})"
        text = A.TEXTS[aid]
        p = self.to_move
        if p is None:
            return f"'{text}' is not legal: the game is over"
        who = self.name(p)
        pl = self.players[p]
        now = self.decision_text()
        if self.step == "marry" and aid in A.MARRY_OF:
            q, cid = self.target_of(A.MARRY_OF[aid])
            if q < 0 and cid not in self.princes:
                where = "no Royal Prince shows this face now" if cid in A.PRINCES else \
                    "the card is in nobody's Clan cards row"
                return f"'{text}' is not legal: {where}"
            if q >= 0 and cid not in self.players[q].clans:
                return f"'{text}' is not legal: the card is in nobody's Clan cards row"
            occ = self.occupant(q, cid)
            if occ is not None:
                return (f"'{text}' is not legal: {self.name(occ)}'s daughter is already on it "
                        "(no card holds two daughters)")
            if q != p and pl.tadokoro < 1:
                return (f"'{text}' is not legal: {who} has no Tadokoro to pay, so the daughter "
                        f"can only marry into one of {who}'s own clans")
            return (f"'{text}' is not legal: the Kochisei-Shuraku is not a marriage target "
                    "under the current ruling R14")
        if self.step == "produce":
            if aid in A.CONVERT_OF:
                return self._why_convert(p, aid, text)
            if aid in A.HERO_OF:
                if pl.hero is not None:
                    return f"'{text}' is not legal: {who} already used a Hero ({pl.hero})"
                return f"'{text}' is not legal: that Hero was taken by another player"
            if aid in A.OBTAIN_OF or aid in (A.OBTAIN_F, A.OBTAIN_G):
                return self._why_obtain(p, aid, text)
        if self.step == "payment" and aid in A.PAYMENT_OF and self.pending is not None:
            i = A.PAYMENT_OF[aid]
            costs = self.data.cards[self.pending].costs
            if i >= len(costs):
                return f"'{text}' is not legal: {self.pending} has {len(costs)} printed cost(s)"
            return (f"'{text}' is not legal: {who} cannot pay {goods_text(costs[i])} "
                    f"({self.have_text(p)})")
        if self.step == "hand" and aid in A.HAND_OF:
            return f"'{text}' is not legal: {A.HAND_OF[aid]} is not in the Supply"
        return f"'{text}' is not legal now: {now}"

    def _why_convert(self, p: int, aid: int, text: str) -> str:
        """Why a 'convert' action is refused now."""
        key, good = A.CONVERT_OF[aid]
        entry = next((u for u in self.usable if u[0] == key), None)
        if entry is None:
            q, cid = self.target_of(key)
            if q < 0 and cid not in A.PRINCES:
                return f"'{text}' is not legal: {cid} is in nobody's Clan cards row"
            if q < 0:
                showing = "" if cid in self.princes else " (that face is not showing now)"
                return (f"'{text}' is not legal: {self.name(p)}'s daughter is not on this "
                        f"Royal Prince{showing}")
            occ = self.occupant(q, cid)
            if q == p and occ is not None:
                return (f"'{text}' is not legal: {self.name(occ)}'s daughter is on it, so only "
                        f"{self.name(occ)} may use it this round (R05)")
            return (f"'{text}' is not legal: a player uses the card his daughter is on and his "
                    "own cards not occupied by another daughter; this is neither")
        _, owner, cid = entry
        card = self.data.cards[cid]
        if key in self.used:
            return f"'{text}' is not legal: a card converts only once in every round"
        if cid in self.data.rules.needs_owner_statue and self.players[owner].statue < 1:
            return (f"'{text}' is not legal: {card.label} works only while its owner "
                    f"({self.name(owner)}) has a Statue token (R20)")
        use = next((u for u in card.uses if u.key == good), None)
        if use is None:
            return (f"'{text}' is not legal: {card.label} cannot yield {GOODS[good]} ("
                    + "; ".join(use_text(card, u.key) for u in card.uses) + ")")
        return (f"'{text}' is not legal: it needs {goods_text(use.inp)} and the pool has "
                f"{self.pool[WORKER]} worker(s)")

    def _why_obtain(self, p: int, aid: int, text: str) -> str:
        """Why an 'obtain' action is refused now."""
        pl = self.players[p]
        rules = self.data.rules
        if aid == A.OBTAIN_F:
            return (f"'{text}' is not legal: it costs {goods_text(rules.f_cost)} and "
                    f"{self.name(p)} has {self.have_text(p)}")
        if aid == A.OBTAIN_G:
            return f"'{text}' is not legal: it costs {goods_text(rules.g_cost)}"
        cid = A.OBTAIN_OF[aid]
        card = self.data.cards[cid]
        if card.type == "kofun":
            if not self.expert:
                return f"'{text}' is not legal: Kofun cards are used only in the Expert game"
            if pl.kofun is not None:
                return f"'{text}' is not legal: {self.name(p)} already has a Kofun ({pl.kofun})"
            if cid not in self.kofun:
                return f"'{text}' is not legal: that Kofun was taken by another player"
        elif cid not in self.supply and cid not in pl.hand:
            return (f"'{text}' is not legal: {cid} is neither in the Supply nor in "
                    f"{self.name(p)}'s hand")
        costs = " or ".join(goods_text(c) for c in card.costs)
        return (f"'{text}' is not legal: {card.label} costs {costs} and {self.name(p)} has "
                f"{self.have_text(p)}")

    def have_text(self, p: int) -> str:
        """What the producing seat could pay with now, in words."""
        pl = self.players[p]
        goods = [(g, k) for g, k in enumerate(self.pool) if k] if p == self.to_move else []
        goods += [(g, k) for g, k in ((IRON, pl.iron), (STATUE, self.spendable_statues(p))) if k]
        return goods_text(tuple(goods))

    # ------------------------------------------------------------------ applying

    def _do_marry(self, aid: int) -> None:
        """Place the daughter and pay the dowry (to the groom's father or the Miyake row)."""
        p = self.to_move
        assert p is not None
        q, cid = self.target_of(A.MARRY_OF[aid])
        self.daughters[p] = (q, cid)
        pl = self.players[p]
        who = self.name(p)
        if q == p:
            self.log(f"{who}'s daughter marries into her father's own {self.card_name(cid)} "
                     "(free)")
        elif q >= 0:
            pl.tadokoro -= 1
            self.players[q].tadokoro += 1
            self.log(f"{who}'s daughter marries into {self.name(q)}'s "
                     f"{self.card_name(cid)}; {who} pays 1 Tadokoro to {self.name(q)}")
        else:
            pl.tadokoro -= 1
            self.miyake_row += 1
            self.log(f"{who}'s daughter marries a Royal Prince ({self.card_name(cid)}); "
                     f"{who} pays 1 Tadokoro to the Miyake row")
            self._flip_miyake()
        self.turn += 1

    def _do_produce(self, aid: int) -> None:
        """One step of a Production turn: a card use, a Hero, or the obtain that ends it."""
        p = self.to_move
        assert p is not None
        pl = self.players[p]
        who = self.name(p)
        if aid in A.CONVERT_OF:
            key, good = A.CONVERT_OF[aid]
            _, owner, cid = next(u for u in self.usable if u[0] == key)
            card = self.data.cards[cid]
            use = next(u for u in card.uses if u.key == good)
            for g, k in use.inp:
                self.pool[g] -= k
            self._gain(p, use.out)
            self.used.append(key)
            if cid in self.data.rules.needs_owner_statue and owner == p and \
                    self.data.rules.statue_lock:
                self.lock = 1
            whose = "" if owner == p else (
                "a Royal Prince, " if owner < 0 else f"{self.name(owner)}'s ")
            self.log(f"{who} uses {whose}{card.label}: {use_text(card, good)}"
                     + (" (one of its owner's Statues is locked this turn)"
                        if self.lock and owner == p and cid in self.data.rules.needs_owner_statue
                        else ""))
            return
        if aid in A.HERO_OF:
            h = A.HERO_OF[aid]
            self.heroes.remove(h)
            pl.hero = h
            card = self.data.cards[h]
            self._gain(p, card.uses[0].out)
            self.log(f"{who} takes the Hero {card.label}: {goods_text(card.uses[0].out)}")
            return
        rules = self.data.rules
        if aid == A.OBTAIN_F:
            self._pay(p, rules.f_cost)
            pl.tadokoro += rules.f_tadokoro
            self.bank_tadokoro -= rules.f_tadokoro
            pl.obtained.append(f"{rules.f_tadokoro} tadokoro")
            self.log(f"{who} obtains {rules.f_tadokoro} Tadokoro for {goods_text(rules.f_cost)}")
            if len(self.supply) > 1:
                self.step = "hand"
                return
            if self.supply:
                self._take_to_hand(p, self.supply[0])
            else:
                self.log("the Supply is empty: no card goes to the hand")
            self._end_turn()
            return
        if aid == A.OBTAIN_G:
            self._pay(p, rules.g_cost)
            pl.tadokoro += rules.g_tadokoro
            self.bank_tadokoro -= rules.g_tadokoro
            pl.obtained.append(f"{rules.g_tadokoro} tadokoro")
            self.log(f"{who} obtains {rules.g_tadokoro} Tadokoro from the Bank (free)")
            self._end_turn()
            return
        cid = A.OBTAIN_OF[aid]
        options = self.payable_options(p, cid)
        if len(options) > 1:
            self.pending = cid
            self.step = "payment"
            return
        self._obtain(p, cid, options[0])

    def _do_payment(self, aid: int) -> None:
        """Obtain the pending card with the chosen printed cost."""
        p = self.to_move
        assert p is not None and self.pending is not None
        cid = self.pending
        self.pending = None
        self._obtain(p, cid, A.PAYMENT_OF[aid])

    def _do_hand(self, aid: int) -> None:
        """Option F's Supply card goes into the hand; the turn ends."""
        p = self.to_move
        assert p is not None
        self._take_to_hand(p, A.HAND_OF[aid])
        self._end_turn()

    def _take_to_hand(self, p: int, cid: str) -> None:
        """Move a Supply card into p's hand (not obtained: no cost, no effect)."""
        self.supply.remove(cid)
        self.players[p].hand.append(cid)
        self.log(f"{self.name(p)} takes {self.card_name(cid)} from the Supply into hand")

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

    def _obtain(self, p: int, cid: str, option: int) -> None:
        """Obtain a Supply/hand card or a Kofun, paying printed cost `option`."""
        pl = self.players[p]
        card = self.data.cards[cid]
        cost = card.costs[option]
        self._pay(p, cost)
        who = self.name(p)
        paid = goods_text(cost)
        if card.type == "kofun":
            self.kofun.remove(cid)
            pl.kofun = cid
            pl.kofun_mirrors, moved = pl.mirror, pl.mirror
            pl.mirror = 0
            self.log(f"{who} obtains the Kofun {card.label} for {paid}"
                     + (f"; {moved} Mirror(s) go under it" if moved else ""))
        else:
            source = "the Supply" if cid in self.supply else "hand"
            (self.supply if source == "the Supply" else pl.hand).remove(cid)
            if card.type == "mission":
                pl.missions.append(cid)
            else:
                pl.clans.append(cid)
            self.log(f"{who} obtains {card.label} from {source} for {paid}"
                     + (f" (+{goods_text(card.items)})" if card.items else ""))
            self._gain(p, card.items)
            eff = self.century_effect()
            if eff is not None and eff[0] == "bonus_on_obtain" and card.type == "mission" \
                    and card.vp_colour == eff[1]:
                self._gain(p, eff[2])
                self.log(f"{who} gains {goods_text(eff[2])} from "
                         f"{self.card_name(self.emperors[self.century - 4])}")
        pl.obtained.append(cid)
        self._end_turn()

    def _end_turn(self) -> None:
        """The workforce vanishes; the next seat produces, or the round is cleaned up."""
        self.pool = [0] * VOLATILE
        self.lock = 0
        self.usable = []
        self.step = "produce"
        self.turn += 1
        if self.turn < self.n:
            self._start_production_turn()

    # ------------------------------------------------------------ round sequence

    def _advance(self) -> None:
        """Run everything that needs no decision until a seat must decide (or the end)."""
        while True:
            if self.phase == "marriage":
                if self.turn >= self.n:
                    self.phase = "production"
                    self.turn = 0
                    self._start_production_turn()
                    continue
                p = self.to_move
                assert p is not None
                # With a Tadokoro to pay, some card is always free (<= 3 other daughters).
                if self.players[p].tadokoro < 1 and not self.marriage_targets(p):
                    self.daughters[p] = None
                    self.log(f"{self.name(p)}'s daughter has no card to marry into and stays "
                             "home (R12)")
                    self.turn += 1
                    continue
                self.step = "marry"
                return
            if self.phase == "production" and self.turn >= self.n and self._cleanup():
                continue
            return

    def _start_production_turn(self) -> None:
        """Count the workforce (R16) and list the cards the seat may use this turn."""
        p = self.to_move
        assert p is not None
        pl = self.players[p]
        d = self.daughters[p]
        workers = pl.tadokoro + (self.miyake if d is not None and d[0] < 0 else 0)
        pool = [0] * VOLATILE
        pool[WORKER] = workers
        self.pool = pool
        self.lock = 0
        self.step = "produce"
        usable = []
        for cid in pl.clans:
            occ = self.occupant(p, cid)
            if occ is None or occ == p:
                usable.append((A.clan_key(p, cid), p, cid))
        if d is not None and d[0] != p:
            usable.append((A.clan_key(d[0], d[1]) if d[0] >= 0 else d[1], d[0], d[1]))
        self.usable = usable
        extra = ""
        eff = self.century_effect()
        if eff is not None and eff[0] == "extra_each_turn":
            self._gain(p, eff[1])
            extra = f" + {goods_text(eff[1])} from {self.card_name(self.emperors[self.century - 4])}"
        via = f" ({pl.tadokoro} Tadokoro + {self.miyake} Miyake)" if d is not None and \
            d[0] < 0 else ""
        self.log(f"{self.name(p)} produces: {workers} worker(s){via}{extra}")

    def _cleanup(self) -> bool:
        """Cleanup (daughters back, Emperor effects, marker); then the next round or the end."""
        rules = self.data.rules
        r = self.round
        self.daughters = [None] * self.n
        self.used = []
        self.pool = [0] * VOLATILE
        self.usable = []
        if self.expert and r in rules.century_end_rounds:
            self._century_end()
        if (self.small_table and self.n == 3) or r not in rules.no_pass_rounds:
            self.start = (self.start + 1) % self.n
        if r >= rules.rounds:
            self.phase = "over"
            self.step = ""
            sc = self.scores()
            self.log("final scores: " + ", ".join(
                f"{self.name(q)} {sc[q]['total']}" for q in range(self.n)))
            return False
        self.round += 1
        self._prepare()
        return True

    def _century_end(self) -> None:
        """The century's Emperor card at its end-of-century Cleanup (R25, R26, R29)."""
        face = self.emperors[self.century - 4]
        card = self.data.cards[face]
        eff = card.effect
        if eff is None:
            return
        if eff[0] == "award":
            winner = scoring.majority(self, eff[1])
            self.emperor_centre.remove(face)
            if winner is None:
                self.set_aside.append(face)
                self.log(f"{card.label}: nobody leads in {eff[1].capitalize()} VPs alone; "
                         "nobody obtains it")
                return
            pl = self.players[winner]
            if eff[4]:
                pl.clans.append(face)
            else:
                pl.emperors.append(face)
            self.log(f"{self.name(winner)} leads in {eff[1].capitalize()} VPs and obtains "
                     f"{card.label}" + (" (into the Clan cards row)" if eff[4] else ""))
        elif eff[0] == "levy":
            for i in range(self.n):
                q = (self.start + i) % self.n
                pl = self.players[q]
                k = min(eff[1], pl.tadokoro)
                if k:
                    pl.tadokoro -= k
                    self.miyake_row += k
                    self.log(f"{card.label}: {self.name(q)} places {k} Tadokoro in the "
                             "Miyake row")
                    self._flip_miyake()
                else:
                    self.log(f"{card.label}: {self.name(q)} has no Tadokoro and pays nothing")

    def _prepare(self) -> None:
        """Preparation: refill the Supply (R09); flip the Royal Princes in round 9 (R33)."""
        rules = self.data.rules
        r = self.round
        c = self.century
        first = r == 1 or rules.century_of_round[r - 1] != c
        if first and self.supply:
            self.discard.extend(self.supply)
            self.log(f"the Supply is discarded: {', '.join(self.supply)}")
            self.supply = []
        k = rules.draw_first if first else rules.draw_other
        pile = self.piles[c - 4]
        drawn = [pile.pop() for _ in range(min(k, len(pile)))]
        self.supply.extend(drawn)
        self.log(f"round {r} ({c}th century), start player {self.name(self.start)}: "
                 f"{len(drawn)} card(s) to the Supply: " + ", ".join(drawn))
        if first and c >= 6 and self.princes != list(self.data.princes_late):
            self.princes = list(self.data.princes_late)
            self.log("the Royal Princes flip to their 6th-7th Century sides")
        self.phase = "marriage"
        self.turn = 0
        self.step = "marry"

    # --------------------------------------------------------------------- scoring

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

    # ------------------------------------------------------------ views and JSON

    def decision_text(self) -> str:
        """What is being decided now, in words."""
        p = self.to_move
        if p is None:
            return "the game is over"
        who = self.name(p)
        if self.step == "marry":
            return f"{who} chooses where the daughter marries (round {self.round})"
        if self.step == "payment":
            assert self.pending is not None
            return f"{who} chooses how to pay for {self.card_name(self.pending)}"
        if self.step == "hand":
            return f"{who} takes a Supply card into hand (after obtaining 2 Tadokoro)"
        pool = goods_text(tuple((g, k) for g, k in enumerate(self.pool) if k))
        return (f"{who} uses cards (convert/hero) or obtains the round's card "
                f"(pool: {pool})")

    def describe(self, aid: int) -> str:
        """What an action id would do now, in words (the notation says which)."""
        text = A.TEXTS[aid]
        cards = self.data.cards
        p = self.to_move
        if aid in A.MARRY_OF:
            key = A.MARRY_OF[aid]
            q, cid = self.target_of(key)
            use = uses_text(cards[cid])
            if q < 0 and cid not in self.princes:
                return f"{cards[cid].name}: not on the table now"
            if q < 0:
                flips = (self.miyake_row + 1) // self.data.rules.flip_at
                own = self.players[p].tadokoro - 1 if p is not None else 0
                return (f"Royal Prince ({use}); 1 Tadokoro to the Miyake row; workers: "
                        f"{own} Tadokoro + {self.miyake + flips} Miyake")
            if q == p:
                return f"own {cards[cid].name} ({use}); free"
            return f"{self.name(q)}'s {cards[cid].name} ({use}); pay 1 Tadokoro to {self.name(q)}"
        if aid in A.CONVERT_OF:
            key, good = A.CONVERT_OF[aid]
            _, cid = self.target_of(key)
            return f"{cards[cid].name}: {use_text(cards[cid], good)}"
        if aid in A.HERO_OF:
            h = cards[A.HERO_OF[aid]]
            return f"{h.name}: {goods_text(h.uses[0].out)}, once per game"
        if aid in A.OBTAIN_OF:
            return self.card_text(A.OBTAIN_OF[aid])
        if aid == A.OBTAIN_F:
            return (f"pay {goods_text(self.data.rules.f_cost)}; "
                    "then take a Supply card into hand")
        if aid == A.OBTAIN_G:
            return "free; used from the next round"
        if aid in A.PAYMENT_OF and self.pending is not None:
            costs = cards[self.pending].costs
            i = A.PAYMENT_OF[aid]
            if i < len(costs):
                return f"pay {goods_text(costs[i])}"
        if aid in A.HAND_OF:
            return self.card_text(A.HAND_OF[aid])
        return text

    def card_text(self, cid: str) -> str:
        """A card's cost and what it gives, in words."""
        c = self.data.cards[cid]
        cost = " or ".join(goods_text(x) for x in c.costs)
        if c.type == "clan":
            what = "clan: " + uses_text(c)
        elif c.type == "kofun":
            what = (f"Kofun: {c.vp} {c.vp_colour} VP, Mirrors held go under it "
                    f"({c.mirror_vp_each} VP each)")
        else:
            what = f"{c.vp} {c.vp_colour} VP" + (f" + {goods_text(c.items)}" if c.items else "")
        note = f" [{c.weak}]" if c.weak else ""
        return f"{c.name}: cost {cost}; {what}{note}"

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
        """Rebuild from to_json output; RecordError if it is not a valid state."""
        try:
            s = cls.__new__(cls)
            s.data = data
            if d.get("game", "clansman") != "clansman":
                raise ValueError(f"game is {d.get('game')!r}")
            s.n = int(d["players"])
            s.seed = int(d["seed"])
            s.options = dict(d["options"])
            s.expert = bool(s.options.get("expert"))
            s.small_table = s.options.get("variant") == "small-table"
            s.round = int(d["round"])
            s.start = int(d["start"])
            s.phase = str(d["phase"])
            s.turn = int(d["turn"])
            s.step = str(d["step"])
            s.piles = [[str(c) for c in p] for p in d["piles"]]
            s.supply = [str(c) for c in d["supply"]]
            s.discard = [str(c) for c in d["discard"]]
            s.players = [Gozoku.from_json(g) for g in d["gozoku"]]
            s.daughters = [(int(x[0]), str(x[1])) if x is not None else None
                           for x in d["daughters"]]
            s.princes = [str(c) for c in d["princes"]]
            s.miyake = int(d["miyake"])
            s.miyake_row = int(d["miyake_row"])
            s.bank_tadokoro = int(d["bank_tadokoro"])
            s.heroes = [str(c) for c in d["heroes"]]
            s.kofun = [str(c) for c in d["kofun"]]
            s.emperors = [str(c) for c in d["emperors"]]
            s.emperor_centre = [str(c) for c in d["emperor_centre"]]
            s.set_aside = [str(c) for c in d["set_aside"]]
            s.pool = [int(x) for x in d["pool"]]
            s.usable = [(str(u[0]), int(u[1]), str(u[2])) for u in d["usable"]]
            s.used = [str(k) for k in d["used"]]
            s.lock = int(d["lock"])
            s.pending = None if d["pending"] is None else str(d["pending"])
            s.rng = Rng(int(d["rng"]))
            s.events = [str(e) for e in d["events"]]
            s.history = [int(x) for x in d["history"]]
            s._legal = None
            s._check()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(f"not an I, Clansman state: {type(exc).__name__}: {exc}") from None
        return s

    def _check(self) -> None:
        """Refuse (RecordError naming it) a state read from JSON whose values do not fit
        together: the invariants the rules keep (see consistency.py), checked once per load."""
        check_state(self)

    def dumps(self) -> str:
        """Canonical JSON text (for byte-identical comparisons)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


# Decision step -> its legal-action and apply methods (built once; no lookups per move).
_LEGAL = {k: getattr(ClansmanState, "_legal_" + k) for k in STEPS if k}
_DO = {k: getattr(ClansmanState, "_do_" + k) for k in STEPS if k}
