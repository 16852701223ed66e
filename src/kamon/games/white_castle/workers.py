"""The worker actions: Outside the Walls, warriors, gardeners, courtiers and the Daimyo.

Each is a decision frame: where a warrior or gardener goes (and what it costs), the
courtier's audience and climb (a new action card, or the Daimyo's favour at the top),
and the choice of a free slot of the Daimyo's favour.
"""

from __future__ import annotations

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import WORKERS
from kamon.games.white_castle.effects import EffectRules, effect_text
from kamon.games.white_castle.frames import (
    DAIMYO_FRAME,
    LANTERN_FRAME,
    Blocks,
    Courtier,
    Daimyo,
    Gardener,
    Outside,
    Warrior,
)
from kamon.games.white_castle.names import LOC_NAMES

AUDIENCE_COINS = 2
CLIMB_PEARL = {1: 2, 2: 5}


class WorkerRules(EffectRules):
    """The outside, warrior, gardener, courtier and daimyo decisions."""

    __slots__ = ()

    def _legal_outside(self, f: Outside) -> list[int]:
        """One of the two worker actions of Outside the Walls, or neither."""
        return [A.WORKER[w] for w in f.workers] + [A.DONE]

    def warrior_yards(self, p: int) -> list[int]:
        """Yards a warrior of p may go to now."""
        if not self.clans[p].left[2]:
            return []
        return [y for y, cost in enumerate(self.data.yard_costs)
                if self.can_pay_res(p, 1, cost)]

    def _legal_warrior(self, f: Warrior) -> list[int]:
        """Yards a warrior may go to, or decline."""
        return [A.YARD[y] for y in self.warrior_yards(f.seat)] + [A.DONE]

    def gardener_slots(self, p: int) -> list[int]:
        """Garden cards a gardener of p may go to now."""
        if not self.clans[p].left[1]:
            return []
        gardens = self.data.gardens
        return [g for g in range(6) if p not in self.garden_workers[g]
                and self.can_pay_res(p, 0, gardens[self.garden_cards[g]].food)]

    def _legal_gardener(self, f: Gardener) -> list[int]:
        """Gardens a gardener may go to, or decline."""
        return [A.GARDEN[g] for g in self.gardener_slots(f.seat)] + [A.DONE]

    def climbs(self, p: int) -> list[tuple[int, int]]:
        """(from, to) courtier moves p can afford now."""
        c = self.clans[p]
        out = []
        locs = set(c.courtiers)
        for src, dst in A.CLIMBS:
            if src in locs and self.can_pay_res(
                    p, 2, CLIMB_PEARL[A.LOC_FLOOR[dst] - A.LOC_FLOOR[src]]):
                out.append((src, dst))
        return out

    def _legal_courtier(self, f: Courtier) -> list[int]:
        """An audience (2 coins), a climb (pearl), or done."""
        p, audience_done, climb_done = f.seat, f.audience_done, f.climb_done
        out = []
        if not audience_done and self.clans[p].left[0] and self.can_pay_coins(p, AUDIENCE_COINS):
            out.append(A.AUDIENCE)
        if not climb_done:
            out.extend(A.CLIMB[m] for m in self.climbs(p))
        out.append(A.DONE)
        return out

    def _legal_daimyo(self, f: Daimyo) -> list[int]:
        """The free slots of the Daimyo's favour."""
        return [A.DAIMYO[s] for s in range(3) if self.daimyo_slots[s] is None]

    def _do_outside(self, f: Outside, aid: int) -> None:
        """Perform the chosen worker action of Outside the Walls (or none)."""
        self.stack.pop()
        if aid == A.DONE:
            return
        w = A.WORKER_OF[aid]
        self._resolve(f.seat, (WORKERS[w],))

    def _do_warrior(self, f: Warrior, aid: int) -> None:
        """Send a warrior to the chosen yard: pay iron, then the yard's effects."""
        p = f.seat
        self.stack.pop()
        if aid == A.DONE:
            return
        y = A.YARD_OF[aid]
        c = self.clans[p]
        self._pay_res(p, 1, self.data.yard_costs[y])
        c.left[2] -= 1
        c.warriors.append(y)
        self.log(f"{self.name(p)} sends a warrior to yard {y + 1} "
                 f"({self.data.yard_costs[y]} iron)")
        self._push_effects(p, self.yard_effects[y], f"yard {y + 1}")

    def _do_gardener(self, f: Gardener, aid: int) -> None:
        """Send a gardener to the chosen garden: pay food, then the card's effects."""
        p = f.seat
        self.stack.pop()
        if aid == A.DONE:
            return
        g = A.GARDEN_OF[aid]
        card = self.data.gardens[self.garden_cards[g]]
        c = self.clans[p]
        self._pay_res(p, 0, card.food)
        c.left[1] -= 1
        self.garden_workers[g].append(p)
        self.log(f"{self.name(p)} sends a gardener to the {A.GARDEN_SLOTS[g]} garden "
                 f"({card.food} food)")
        self._push_effects(p, card.effects, f"the {A.GARDEN_SLOTS[g]} garden")

    def _do_courtier(self, f: Courtier, aid: int) -> None:
        """An audience (a courtier to the Gate) or a climb (a new card or the Daimyo)."""
        p, audience_done, climb_done = f.seat, f.audience_done, f.climb_done
        c = self.clans[p]
        if aid == A.DONE:
            self.stack.pop()
            return
        if aid == A.AUDIENCE:
            self._replace(None if climb_done else Courtier(p, True, False))
            self._pay_coins(p, AUDIENCE_COINS)
            c.left[0] -= 1
            c.courtiers.append(0)
            self.log(f"{self.name(p)} pays 2 coins for an audience: a courtier to the Gate")
            return
        src, dst = A.CLIMB_OF[aid]
        self._replace(None if audience_done else Courtier(p, False, True))
        floors = A.LOC_FLOOR[dst] - A.LOC_FLOOR[src]
        self._pay_res(p, 2, CLIMB_PEARL[floors])
        c.courtiers[c.courtiers.index(src)] = dst
        self.log(f"{self.name(p)} pays {CLIMB_PEARL[floors]} pearl: a courtier climbs from "
                 f"{LOC_NAMES[src]} to {LOC_NAMES[dst]}")
        if dst == 6:
            self.stack.append(DAIMYO_FRAME[p])
            self.stack.append(LANTERN_FRAME[p])
            return
        r = dst - 1
        deck = self.steward_deck if r < 3 else self.diplomat_deck
        room_card = self.room_cards[r]
        if not deck:
            self.log(f"the {A.ROOMS[r]} card cannot be replaced: {self.name(p)} only performs "
                     "one of its light actions")
            opts = tuple((r, i) for i, blk in enumerate(self.data.card(room_card).blocks)
                         if blk.light)
        else:
            assert c.card is not None
            c.lantern.append(c.card)
            c.card = room_card
            self.room_cards[r] = deck.pop()
            self.log(f"{self.name(p)} takes {room_card} onto the domain; "
                     f"{self.room_cards[r]} refills {A.ROOMS[r]}")
            card = self.data.card(room_card)
            opts = tuple((-1, i) for i, blk in enumerate(card.blocks) if blk.light)
        self.stack.append(Blocks(p, opts, False, False, "one light-background action"))

    def _do_daimyo(self, f: Daimyo, aid: int) -> None:
        """Take a slot of the Daimyo's favour and its effects."""
        p = f.seat
        s = A.DAIMYO_OF[aid]
        self.stack.pop()
        self.daimyo_slots[s] = p
        effects = self.data.daimyo[self.daimyo_card][s]
        self.log(f"{self.name(p)} takes slot {s + 1} of the Daimyo's favour: "
                 + ", ".join(effect_text(e) for e in effects))
        self._push_effects(p, effects, f"Daimyo slot {s + 1}")
