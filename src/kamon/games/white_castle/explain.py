"""The state in words: what is being decided, what an action would do, why one is illegal."""

from __future__ import annotations

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS, RESOURCES
from kamon.games.white_castle.effects import effect_text
from kamon.games.white_castle.names import words
from kamon.games.white_castle.placement import PlacementRules
from kamon.games.white_castle.workers import CLIMB_PEARL


class Explain(PlacementRules):
    """decision_text, describe and why_illegal (for every front end)."""

    __slots__ = ()

    def decision_text(self) -> str:
        """What is being decided now, in words (the rulebook's names, never ids)."""
        return words(self._decision_text())

    def describe(self, aid: int) -> str:
        """What an action id would do now, in words (the notation says which; this says what)."""
        return words(self._describe(aid))

    def why_illegal(self, aid: int) -> str:
        """A message saying why an action id is not legal now (the quoted notation kept)."""
        text = self._why_illegal(aid)
        head, sep, rest = text.partition("' is not legal")
        return head + sep + words(rest) if sep else words(text)

    def _decision_text(self) -> str:
        """What is being decided now, with the components' ids."""
        if not self.stack:
            return "the game is over"
        f = self.stack[-1]
        who = self.name(f[1])
        kind = f[0]
        if kind == "draft":
            return f"{who} chooses a starting pair"
        if kind == "take":
            return f"{who} takes a die from an end of a bridge"
        if kind == "place":
            assert self.held is not None
            b, v, _ = self.held
            return f"{who} places the {COLOURS[b]} {v}"
        if kind == "effects":
            return f"{who} chooses the order of {f[3]}'s effects"
        if kind == "choice":
            return f"{who} chooses a resource ({f[2]} to go)"
        if kind == "checkpoint":
            return f"{who} may pay {f[3]} seals to pass the checkpoint"
        if kind == "blocks":
            return f"{who} chooses {'blocks' if f[3] else 'a block'} for {f[5]}"
        if kind == "outside":
            return f"{who} chooses one action of Outside the Walls"
        if kind == "courtier":
            return f"{who} performs the Courtier action (audience and/or climb)"
        if kind == "daimyo":
            return f"{who} chooses a slot of the Daimyo's favour"
        if kind == "row":
            return f"{who} chooses a personal-domain row to perform as a 6"
        if kind == "pay":
            return f"{who} may pay for {effect_text(f[3])}"
        if kind == "garden_round":
            return f"{who} chooses which gardener activates next"
        if kind == "rival_room":
            return (f"{who} chooses the room on floor {f[2]} the rival's courtier climbs to "
                    "(its card is discarded)")
        if kind == "rival_garden":
            return f"{who} chooses which of the tied gardens gets the rival's gardener"
        return f"{who} places a {kind}"

    def _describe(self, aid: int) -> str:
        """What an action id would do now, with the components' ids."""
        text = A.TEXTS[aid]
        f = self.stack[-1] if self.stack else None
        p = f[1] if f else 0
        d = self.data
        if aid in A.EFFECT_OF and f and f[0] == "effects":
            return effect_text(f[2][A.EFFECT_OF[aid]])
        if aid in A.BLOCK_OF:
            r, i = A.BLOCK_OF[aid]
            return "; ".join(effect_text(e) for e in d.card(self.room_cards[r]).blocks[i].effects)
        if aid in A.CARD_BLOCK_OF and self.clans[p].card:
            blk = d.card(self.clans[p].card or "").blocks[A.CARD_BLOCK_OF[aid]]
            return "; ".join(effect_text(e) for e in blk.effects)
        if aid in A.YARD_OF:
            y = A.YARD_OF[aid]
            return (f"{d.yard_costs[y]} iron, worth {d.yard_values[y]}: "
                    + "; ".join(effect_text(e) for e in self.yard_effects[y]))
        if aid in A.GARDEN_OF:
            g = d.gardens[self.garden_cards[A.GARDEN_OF[aid]]]
            return (f"{g.food} food, {g.cp} CP: " + "; ".join(effect_text(e) for e in g.effects))
        if aid in A.DAIMYO_OF:
            return "; ".join(effect_text(e) for e in d.daimyo[self.daimyo_card][A.DAIMYO_OF[aid]])
        if aid in A.PLACE_OF and self.held is not None:
            s = A.PLACE_OF[aid]
            cost = 6 - self.held[1] if s == A.SP_DOMAIN else self.space_cost(s, self.held[1])
            if cost is None:
                return text
            n = abs(cost)
            coins = f"{n} coin{'s' if n != 1 else ''}"
            return f"pay {coins}" if cost > 0 else f"gain {coins}" if cost < 0 else "no coins"
        if aid in A.TAKE_OF:
            b, end = A.TAKE_OF[aid]
            dice = self.bridges[b]
            if dice:
                left = end == 0 if len(dice) >= 2 else self.lone_left[b]
                v = dice[0] if left else dice[-1]
                return f"the {COLOURS[b]} {v}" + (" (+ Lantern reward)" if left else "")
        if aid in A.DRAFT_OF:
            pair = self.draft_pairs[A.DRAFT_OF[aid]]
            if pair:
                on_take, decree, icon = d.start_resources[pair[0]]
                return (", ".join(effect_text(e) for e in on_take) + f"; card {pair[1]}"
                        + (f"; {decree}" if decree else "") + f"; lantern {effect_text(icon)}")
        if aid in A.CLIMB_OF:
            src, dst = A.CLIMB_OF[aid]
            return f"{CLIMB_PEARL[A.LOC_FLOOR[dst] - A.LOC_FLOOR[src]]} pearl"
        if aid == A.PAY and f and f[0] == "checkpoint":
            return f"pay {f[3]} seal{'s' if f[3] > 1 else ''}"
        if aid in A.RIVAL_ROOM_OF:
            return f"discard {self.room_cards[A.RIVAL_ROOM_OF[aid]]} from the castle"
        if aid in A.RIVAL_GARDEN_OF:
            g = d.gardens[self.garden_cards[A.RIVAL_GARDEN_OF[aid]]]
            return f"{g.id}: {g.cp} CP"
        if aid == A.EXCHANGE_COIN:
            return "1 Daimyo seal → 1 coin"
        if aid in A.EXCHANGE_RES_OF:
            return f"2 Daimyo seals → 1 {RESOURCES[A.EXCHANGE_RES_OF[aid]]}"
        if aid == A.DONE:
            return "decline / finish"
        return text

    def _why_illegal(self, aid: int) -> str:
        """Why an action id is not legal now, with the components' ids."""
        if not 0 <= aid < A.NUM_ACTIONS:
            return f"there is no action with id {aid} (ids are 0-{A.NUM_ACTIONS - 1})"
        text = A.TEXTS[aid]
        if not self.stack:
            return f"'{text}' is not legal: the game is over"
        f = self.stack[-1]
        p = f[1]
        what = self.decision_text()
        c = self.clans[p]
        if aid == A.EXCHANGE_COIN or aid in A.EXCHANGE_RES_OF:
            if c.seals == 0 or (aid != A.EXCHANGE_COIN and c.seals < 2):
                return f"'{text}' is not legal: {self.name(p)} has {c.seals} Daimyo seal(s)"
            return f"'{text}' is not legal: that resource is already at 7"
        if aid in A.PLACE_OF and f[0] == "place" and self.held is not None:
            s = A.PLACE_OF[aid]
            b, v, _ = self.held
            if s < 5 and b not in self.room_tiles[s]:
                return (f"'{text}' is not legal: {A.SPACES[s]} has no {COLOURS[b]} die tile, "
                        f"so a {COLOURS[b]} die cannot go there")
            if s == A.SP_DOMAIN:
                if c.domain[b] is not None:
                    return f"'{text}' is not legal: your {COLOURS[b]} row already holds a die"
                cost = 6 - v
            else:
                cost_or_none = self.space_cost(s, v)
                if cost_or_none is None:
                    return (f"'{text}' is not legal: {A.SPACES[s]} is full "
                            f"({'no stacking at 2 players' if self.n <= 2 else 'one die high'})")
                cost = cost_or_none
            return (f"'{text}' is not legal: it costs {cost} coins and {self.name(p)} has "
                    f"{c.coins} coins and {c.seals} seals")
        if aid in A.TAKE_OF and f[0] == "take":
            b, end = A.TAKE_OF[aid]
            if not self.bridges[b]:
                return f"'{text}' is not legal: the {COLOURS[b]} bridge is empty"
            return f"'{text}' is not legal: the only {COLOURS[b]} die is at the other end"
        return f"'{text}' is not legal now: {what}"
