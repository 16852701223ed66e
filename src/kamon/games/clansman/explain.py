"""The state in words: goods and card uses, what is being decided, what an action would
do, and why one is not legal."""

from __future__ import annotations

from kamon.games.clansman import actions as A
from kamon.games.clansman.base import StateBase
from kamon.games.clansman.data import GOODS, IRON, MIRROR, STATUE, WORKER, Card, Goods
from kamon.games.clansman.scoring import has_temple

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


class Explain(StateBase):
    """why_illegal, decision_text, describe and card_text (for every front end)."""

    __slots__ = ()

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
        """What an action id would do now, in words (the notation says which; this says
        what): the card by its number and name, what the choice costs and what it gives."""
        text = A.TEXTS[aid]
        cards = self.data.cards
        p = self.to_move
        if aid in A.MARRY_OF:
            q, cid = self.target_of(A.MARRY_OF[aid])
            card = cards[cid]
            use = uses_text(card)
            if q < 0 and cid not in self.princes:
                return f"marry the {card.label}: that face is not on the table now"
            if q < 0:
                flips = (self.miyake_row + 1) // self.data.rules.flip_at
                own = self.players[p].tadokoro - 1 if p is not None else 0
                return (f"marry the {card.label} ({use}): 1 Tadokoro to the "
                        f"Miyake row; workers: {own} Tadokoro + {self.miyake + flips} Miyake")
            if q == p:
                return f"marry into your own {card.label} ({use}): free"
            return (f"marry into {self.name(q)}'s {card.label} ({use}): pay 1 Tadokoro to "
                    f"{self.name(q)}")
        if aid in A.CONVERT_OF:
            key, good = A.CONVERT_OF[aid]
            q, cid = self.target_of(key)
            whose = ("the " if q < 0 else "your " if q == p
                     else f"{self.name(q)}'s ")
            out = next((u.out for u in cards[cid].uses if u.key == good), ())
            return (f"use {whose}{cards[cid].label}: {use_text(cards[cid], good)}"
                    + self._statues_worth(p, out))
        if aid in A.HERO_OF:
            h = cards[A.HERO_OF[aid]]
            return (f"take the Hero card {h.label}: gain {goods_text(h.uses[0].out)} now "
                    "(once per game)" + self._statues_worth(p, h.uses[0].out))
        if aid in A.OBTAIN_OF:
            cid = A.OBTAIN_OF[aid]
            card = cards[cid]
            if card.type == "kofun":
                where = "the Kofun cards"
            elif p is not None and cid in self.players[p].hand:
                where = "your hand"
            else:
                where = "the Supply"
            return f"obtain the {card.label} from {where}: {self._cost_and_gain(cid, p)}"
        if aid == A.OBTAIN_F:
            return (f"gain 2 Tadokoro (option F): pay {goods_text(self.data.rules.f_cost)}, then take a "
                    "Supply card into your hand")
        if aid == A.OBTAIN_G:
            return "gain 1 Tadokoro (option G): free; it works from the next round"
        if aid in A.PAYMENT_OF and self.pending is not None:
            card = cards[self.pending]
            i = A.PAYMENT_OF[aid]
            if i < len(card.costs):
                return (f"pay {goods_text(card.costs[i])} for {card.label}"
                        + self._statue_spent(p, card.costs[i]))
            return f"printed cost {i + 1} of {card.label} (it has {len(card.costs)})"
        if aid in A.PAYMENT_OF:
            return f"pay printed cost {A.PAYMENT_OF[aid] + 1}"
        if aid in A.HAND_OF:
            cid = A.HAND_OF[aid]
            return (f"take the {cards[cid].label} from the Supply into your hand (to obtain "
                    f"later: {_cost(cards[cid])}; it gives {_gives(cards[cid])})")
        return text

    def _cost_and_gain(self, cid: str, p: int | None) -> str:
        """'pay 2 workers + 1 soldier; gain 4 military VP + 1 mirror (1 VP)' for a card p
        would obtain now: with the iron Emperor Keitai adds, the VP Empress Jito adds at
        the end, what a Mirror is worth to p, what a Statue paid costs p, and the Statues
        a first temple makes score."""
        c = self.data.cards[cid]
        if p is None:
            return f"pay {_cost(c)}; gain {_gives(c)}"
        pl = self.players[p]
        if c.type == "kofun":
            n = pl.mirror
            mirrors = (f"; your {n} Mirror{'s go' if n != 1 else ' goes'} under it "
                       f"({n * c.mirror_vp_each} {c.vp_colour} VP)" if n else
                       "; no Mirror goes under it (later ones never do)")
            return (f"pay {_cost(c)}; gain {c.vp} {c.vp_colour} VP{mirrors}"
                    + self._statue_cost_note(p, c))
        if c.type == "clan":
            what = "a clan card for your row: " + uses_text(c)
            temple = cid in self.data.rules.statue_vp_enablers and not has_temple(self, p)
            if temple:
                spent = min((dict(x).get(STATUE, 0) for x in c.costs), default=0)
                kept = pl.statue - spent
                worth = self.statue_vp(p, temple=True) - self.statue_vp(p)
                if kept > 0 and worth:
                    what += (f"; your {kept} Statue{'s' if kept != 1 else ''} then score "
                             f"{worth} religion VP each ({kept * worth} VP)")
            return f"pay {_cost(c)}; gain {what}" + self._statue_cost_note(p, c)
        gains = [f"{c.vp} {c.vp_colour} VP"] if c.vp_colour else []
        for g, k in c.items:
            gains.append(goods_text(((g, k),)) + self._mirror_worth(p, g, k))
        eff = self.century_effect()
        if eff is not None and eff[0] == "bonus_on_obtain" and c.type == "mission" \
                and c.vp_colour == eff[1]:
            emperor = self.data.cards[self.emperors[self.century - 4]]
            gains.append(f"{goods_text(eff[2])} from {emperor.name}")
        for face in self.emperors:
            e = self.data.cards[face].effect
            if e is not None and e[0] == "vp_per_mission" and c.type == "mission" \
                    and c.vp_colour == e[1]:
                gains.append(f"{e[3]} {e[2]} VP at the game's end from "
                             f"{self.data.cards[face].name}")
        return (f"pay {_cost(c)}; gain {' + '.join(gains) or 'nothing'}"
                + self._statue_cost_note(p, c))

    def statue_vp(self, p: int, temple: bool | None = None) -> int:
        """The VP one Statue held is worth to p now (1 with a temple; Prince Shotoku's at
        the end), or with/without a temple (`temple`)."""
        owns = has_temple(self, p) if temple is None else temple
        worth = self.data.rules.vp_per_statue if owns else 0
        if self.expert:
            for face in self.emperors:
                e = self.data.cards[face].effect
                if e is not None and e[0] == "vp_per_statue" and (not e[3] or owns):
                    worth += e[2]
        return worth

    def _statues_worth(self, p: int | None, goods: Goods) -> str:
        """' (the Statue scores 1 VP while you keep it)' for Statues gained, or ''."""
        n = dict(goods).get(STATUE, 0)
        worth = self.statue_vp(p) if p is not None and n else 0
        if not worth:
            return ""
        return (f" (the Statue{'s' if n > 1 else ''} score{'' if n > 1 else 's'} "
                f"{n * worth} VP while you keep {'them' if n > 1 else 'it'})")

    def _statue_spent(self, p: int | None, cost: Goods) -> str:
        """' — the Statue paid takes its 1 VP with it' for a cost that spends scoring
        Statues, or ''."""
        n = dict(cost).get(STATUE, 0)
        worth = self.statue_vp(p) if p is not None and n else 0
        if not worth:
            return ""
        return (f" — the Statue{'s' if n > 1 else ''} paid take{'' if n > 1 else 's'} "
                f"{n * worth} VP with {'them' if n > 1 else 'it'}")

    def _statue_cost_note(self, p: int, c: Card) -> str:
        """What paying the card's Statues costs p in VP (the cheapest way that pays a
        Statue, when every way does; else which way does)."""
        if not any(STATUE in dict(x) for x in c.costs):
            return ""
        if len(c.costs) == 1:
            return self._statue_spent(p, c.costs[0])
        note = self._statue_spent(p, next(x for x in c.costs if STATUE in dict(x)))
        return f"{note} (if you pay it with a Statue)" if note else ""

    def _mirror_worth(self, p: int, good: int, n: int) -> str:
        """What Mirrors gained are worth to p: 1 VP each in the Beginner game; in the
        Expert game 2 VP each under a Kofun obtained later, nothing once p has one."""
        if good != MIRROR:
            return ""
        if not self.expert:
            return f" ({n * self.data.rules.beginner_vp_per_mirror} VP)"
        if self.players[p].kofun is not None:
            return " (worth nothing: only Mirrors held when you obtain a Kofun go under it)"
        each = max((self.data.cards[k].mirror_vp_each for k in self.kofun), default=0)
        return f" (no VP now; {each} VP each if it goes under a Kofun you obtain later)"

    def card_text(self, cid: str) -> str:
        """A card's cost and what it gives, in words."""
        c = self.data.cards[cid]
        what = {"clan": "clan: ", "kofun": "Kofun: "}.get(c.type, "") + _gives(c)
        note = f" [{c.weak}]" if c.weak else ""
        return f"{c.name}: cost {_cost(c)}; {what}{note}"


def _cost(c: Card) -> str:
    """A card's printed cost(s) in words ('2 workers + 1 soldier or 3 workers')."""
    return " or ".join(goods_text(x) for x in c.costs)


def _gives(c: Card) -> str:
    """What a card gives, in words: a clan card its uses, a Kofun its VP and Mirrors, any
    other its VP and items."""
    if c.type == "clan":
        return uses_text(c)
    if c.type == "kofun":
        return f"{c.vp} {c.vp_colour} VP, Mirrors held go under it ({c.mirror_vp_each} VP each)"
    return f"{c.vp} {c.vp_colour} VP" + (f" + {goods_text(c.items)}" if c.items else "")
