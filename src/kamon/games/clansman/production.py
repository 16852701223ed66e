"""Production: a seat's turn of card uses, the Hero, and the one card it obtains.

The produce, payment and hand decisions: the workforce counted at the start of a turn
(R16), what the seat may convert, take or obtain, paying for the obtained card (a
choice when several printed costs are affordable), option F into the hand, and the
end of the turn.
"""

from __future__ import annotations

from kamon.games.clansman import actions as A
from kamon.games.clansman.base import StateBase
from kamon.games.clansman.data import VOLATILE, WORKER
from kamon.games.clansman.explain import goods_text, use_text


class ProductionRules(StateBase):
    """The produce, payment and hand decisions and the production turn."""

    __slots__ = ()

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
