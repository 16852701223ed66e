"""The state in words: what is being decided, what an action would do, why one is illegal."""

from __future__ import annotations

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.base import StateBase
from kamon.games.white_castle.data import COLOURS, RESOURCES, ROWS, WORKERS, Effect
from kamon.games.white_castle.effects import effect_text
from kamon.games.white_castle.names import LOC_NAMES, SPACE_NAMES, words
from kamon.games.white_castle.outlook import Outlook
from kamon.games.white_castle.placement import PlacementRules
from kamon.games.white_castle.workers import AUDIENCE_COINS, CLIMB_PEARL

# What "done" declines, by the decision it answers (never the notation's word "done").
_DONE = {"effects": "decline the rest of these effects",
         "checkpoint": "do not pay: the marker stops before the checkpoint",
         "blocks": "no (more) card blocks", "outside": "no action Outside the Walls",
         "courtier": "end the Courtier action", "gardener": "send no gardener",
         "warrior": "send no warrior", "pay": "do not pay (skip this action)",
         "row": "perform no personal-domain row"}


def _effects(effects: tuple[Effect, ...]) -> str:
    """A set of effects in words ('nothing' for none)."""
    return "; ".join(effect_text(e) for e in effects) or "nothing"


class Explain(PlacementRules, Outlook):
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
        who = self.name(f.seat)
        if f.kind == "draft":
            return f"{who} chooses a starting pair"
        if f.kind == "take":
            return f"{who} takes a die from an end of a bridge"
        if f.kind == "place":
            assert self.held is not None
            b, v, _ = self.held
            return f"{who} places the {COLOURS[b]} {v}"
        if f.kind == "effects":
            return f"{who} chooses the order of {f.source}'s effects"
        if f.kind == "choice":
            return f"{who} chooses a resource ({f.remaining} to go)"
        if f.kind == "checkpoint":
            return f"{who} may pay {f.cost} seals to pass the checkpoint"
        if f.kind == "blocks":
            return f"{who} chooses {'blocks' if f.multi else 'a block'} for {f.label}"
        if f.kind == "outside":
            return f"{who} chooses one action of Outside the Walls"
        if f.kind == "courtier":
            return f"{who} performs the Courtier action (audience and/or climb)"
        if f.kind == "daimyo":
            return f"{who} chooses a slot of the Daimyo's favour"
        if f.kind == "row":
            return f"{who} chooses a personal-domain row to perform as a 6"
        if f.kind == "pay":
            return f"{who} may pay for {effect_text(f.effect)}"
        if f.kind == "garden_round":
            return f"{who} chooses which gardener activates next"
        if f.kind == "rival_room":
            return (f"{who} chooses the room on floor {f.floor} the rival's courtier climbs to "
                    "(its card is discarded)")
        if f.kind == "rival_garden":
            return f"{who} chooses which of the tied gardens gets the rival's gardener"
        return f"{who} places a {f.kind}"

    def _describe(self, aid: int) -> str:
        """What an action id would do now, with the components' ids (worded by `words`):
        the space, card or choice in the rulebook's names, what it costs (and which part
        seals exchanged would pay) and what it gives — saying so when what it sets off
        could not be paid or performed, or a gain would be lost at a store's limit."""
        text = A.TEXTS[aid]
        f = self.stack[-1] if self.stack else None
        p = f.seat if f else 0
        kind = f.kind if f else ""
        d = self.data
        if aid in A.EFFECT_OF and f and f.kind == "effects":
            e = f.effects[A.EFFECT_OF[aid]]
            lost = self.lost_words(p, e[1]) if e[0] == "gain" else ""
            return self.effect_words(self, p, e) + lost
        if aid in A.BLOCK_OF:
            r, i = A.BLOCK_OF[aid]
            return (f"{A.ROOMS[r]}, {A.BLOCK_NAMES[r][i]} block ({self.room_cards[r]}): "
                    + self.effects_words(self, p, d.card(self.room_cards[r]).blocks[i].effects))
        if aid in A.CARD_BLOCK_OF:
            i = A.CARD_BLOCK_OF[aid]
            cid = self.clans[p].card
            if cid and i < len(d.card(cid).blocks):
                return (f"your action card ({cid}), {('first', 'second', 'third')[i]} block: "
                        + self.effects_words(self, p, d.card(cid).blocks[i].effects))
            return f"the {('first', 'second', 'third')[i]} block of your action card"
        if aid in A.YARD_OF:
            y = A.YARD_OF[aid]
            after = self.what_if(p, res=(1, d.yard_costs[y]))
            return (f"send a warrior to training yard {y + 1} (worth {d.yard_values[y]}): "
                    f"{self.pay_res_words(p, 1, d.yard_costs[y])}; it gives "
                    + self.effects_words(after, p, self.yard_effects[y]))
        if aid in A.GARDEN_OF:
            slot = A.GARDEN_OF[aid]
            g = d.gardens[self.garden_cards[slot]]
            if kind == "garden_round":
                return (f"activate your gardener in the {A.GARDEN_SLOTS[slot]} garden "
                        f"({g.id}): " + self.effects_words(self, p, g.effects))
            after = self.what_if(p, res=(0, g.food))
            return (f"send a gardener to the {A.GARDEN_SLOTS[slot]} garden ({g.id}, "
                    f"{g.cp} CP at the end): {self.pay_res_words(p, 0, g.food)}; it gives "
                    f"{self.effects_words(after, p, g.effects)}")
        if aid in A.DAIMYO_OF:
            s = A.DAIMYO_OF[aid]
            return (f"slot {s + 1} of the Daimyo's favour ({self.daimyo_card}): "
                    + self.effects_words(self, p, d.daimyo[self.daimyo_card][s]))
        if aid in A.PLACE_OF and self.held is not None:
            return self._describe_place(p, A.PLACE_OF[aid])
        if aid in A.TAKE_OF:
            b, end = A.TAKE_OF[aid]
            dice = self.bridges[b]
            side = ("left", "right")[end]
            if dice:
                left = end == 0 if len(dice) >= 2 else self.lone_left[b]
                v = dice[0] if left else dice[-1]
                return (f"take the {COLOURS[b]} {v} from the {side} end of the {COLOURS[b]} "
                        "bridge" + (" (+ the Lantern reward)" if left else ""))
            return f"take a die from the {side} end of the {COLOURS[b]} bridge"
        if aid in A.DRAFT_OF:
            i = A.DRAFT_OF[aid]
            pair = self.draft_pairs[i] if i < len(self.draft_pairs) else None
            if pair:
                on_take, decree, icon = d.start_resources[pair[0]]
                return (f"starting pair {i + 1}: gain " + ", ".join(effect_text(e) for e in on_take)
                        + f"; {pair[1]}" + (f"; {decree}" if decree else "")
                        + f"; Lantern reward {effect_text(icon)}")
            return f"starting pair {i + 1}"
        if aid == A.AUDIENCE:
            return (f"audience: {self.pay_coins_words(p, AUDIENCE_COINS)}, a courtier goes to "
                    "the Gate")
        if aid in A.CLIMB_OF:
            return self._describe_climb(p, *A.CLIMB_OF[aid])
        if aid in A.WORKER_OF:
            w = WORKERS[A.WORKER_OF[aid]]
            words = {"courtier": "Courtier action: an audience and/or a climb in the castle",
                     "gardener": "Gardener action: a gardener to a garden (pay food)",
                     "warrior": "Warrior action: a warrior to a training yard (pay iron)"}[w]
            return words + ("" if self.can_perform(self, p, w) else " — you cannot perform it")
        if aid in A.ROW_OF:
            c = A.ROW_OF[aid]
            return (f"perform your {COLOURS[c]} personal-domain row as a 6: "
                    + self._row_gains(p, c, self))
        if aid in A.GAIN_OF:
            res = RESOURCES[A.GAIN_OF[aid]]
            return f"gain 1 {res}" + self.lost_words(p, ((res, 1),))
        if aid == A.PAY:
            if f and f.kind == "checkpoint":
                n = f.cost
                return (f"pay {n} seal{'s' if n > 1 else ''} to pass the checkpoint of the "
                        "Passage of Time")
            if f and f.kind == "pay":
                return self.effect_words(self, p, ("pay", f.cost, f.effect))
            return "pay"
        if aid in A.RIVAL_ROOM_OF:
            r = A.RIVAL_ROOM_OF[aid]
            return (f"the rival's courtier climbs to {A.ROOMS[r]}: discard "
                    f"{self.room_cards[r]} from the castle")
        if aid in A.RIVAL_GARDEN_OF:
            slot = A.RIVAL_GARDEN_OF[aid]
            g = d.gardens[self.garden_cards[slot]]
            return (f"the rival's gardener goes to the {A.GARDEN_SLOTS[slot]} garden "
                    f"({g.id}: {g.cp} CP)")
        if aid == A.EXCHANGE_COIN:
            return "exchange 1 Daimyo seal for 1 coin"
        if aid in A.EXCHANGE_RES_OF:
            return f"exchange 2 Daimyo seals for 1 {RESOURCES[A.EXCHANGE_RES_OF[aid]]}"
        if aid == A.DONE:
            return _DONE.get(kind, "decline / finish")
        return text

    def _describe_climb(self, p: int, src: int, dst: int) -> str:
        """A courtier's climb: the pearl it costs, then (rulebook, Social Climbing) the
        room's card as the new action card with one of its light blocks, the old card going
        face down to the Lantern Area — or, with the floor's deck empty, the light block
        only, the action card kept; at the top the Lantern reward, then a free slot of the
        Daimyo's favour if one is left."""
        pearl = CLIMB_PEARL[A.LOC_FLOOR[dst] - A.LOC_FLOOR[src]]
        head = (f"a courtier climbs from {LOC_NAMES[src]} to {LOC_NAMES[dst]}: "
                f"{self.pay_res_words(p, 2, pearl)}, ")
        after = self.what_if(p, res=(2, pearl))
        if dst == len(A.LOCS) - 1:
            free = [s for s in range(3) if self.daimyo_slots[s] is None]
            if not free:
                return head + ("then the Lantern reward; every slot of the Daimyo's favour "
                               "is taken: the courtier stays in the room")
            return head + "then the Lantern reward, then a free slot of the Daimyo's favour"
        r = dst - 1
        card = self.room_cards[r]
        lights = "; or ".join(self.effects_words(after, p, blk.effects)
                              for blk in self.data.card(card).blocks if blk.light)
        deck = self.steward_deck if r < 3 else self.diplomat_deck
        if not deck:
            floor = "Steward" if r < 3 else "Diplomat"
            return head + (f"the {floor} deck is empty: you keep your action card and "
                           f"perform one light block of {card}: {lights}")
        return head + (f"take {card} as your action card (yours goes face down to your "
                       f"Lantern area), then one of its light blocks: {lights}")

    def _describe_place(self, p: int, s: int) -> str:
        """What placing the held die on space s pays or gains, and the action it sets off
        (what of it the clan could not pay or perform, whatever the order it chose)."""
        assert self.held is not None
        b, v, left = self.held
        cost = 6 - v if s == A.SP_DOMAIN else self.space_cost(s, v)
        where = (f"your personal domain ({COLOURS[b]} row)" if s == A.SP_DOMAIN
                 else SPACE_NAMES[s])
        head = f"place the {COLOURS[b]} {v} on {where}"
        if cost is None:
            return head
        n = abs(cost)
        head += (": " + self.pay_coins_words(p, cost) if cost > 0
                 else f": gain {n} coin{'s' if n != 1 else ''}" if cost < 0 else ": free")
        # the clan as it will be when the space acts: paid (or paid), the Lantern reward in
        gains = ([("coin", -cost)] if cost < 0 else []) + (self.lantern_gains(p) if left else [])
        after = self.what_if(p, gains, coins=max(cost, 0))
        d = self.data
        if s < 5:
            card = d.card(self.room_cards[s])
            mine = [i for i, col in enumerate(self.room_tiles[s]) if col == b]
            said = []
            for i in mine:
                others = [e for j in mine if j != i for e in card.blocks[j].effects]
                best = after.what_if(p, self.best_gains(p, others))  # type: ignore[attr-defined]
                said.append(f"{A.BLOCK_NAMES[s][i]} block "
                            f"({self.effects_words(best, p, card.blocks[i].effects)})")
            return head + ((", then the " if len(said) == 1 else ", then any of: the ")
                           + ", the ".join(said) if said
                           else f" (no {COLOURS[b]} block in this room)")
        if s < 7:
            acts = " or ".join(
                f"a {WORKERS[w].capitalize()} action"
                + ("" if self.can_perform(after, p, WORKERS[w]) else " (you cannot perform it)")
                for w in d.outside[s - 5])
            return head + f", then {acts}"
        if s == A.SP_WELL:
            effects: list[Effect] = [("gain", (("seal", 1),))]
            for t in self.well_tiles:
                effects.extend(d.die_tiles[t][1])
            return head + ", then " + _effects(tuple(effects))
        return head + ", then " + self._row_gains(p, b, after)

    def _row_gains(self, p: int, colour: int, s: StateBase) -> str:
        """What a personal-domain row gives when it fires: its uncovered rewards, then
        (rulebook, in that order) the action card's block for the row — saying so when,
        the rewards gained (in `s`, the clan as it will be), p could not pay or perform
        it."""
        c = self.clans[p]
        d = self.data
        uncovered = 5 - c.left[colour]
        effects = (d.domain_visible[COLOURS[colour]],) + \
            d.domain_cells[COLOURS[colour]][:uncovered]
        out = _effects(effects)
        if c.card:
            for blk in d.card(c.card).blocks:
                if ROWS[colour] in blk.rows:
                    then = s.what_if(p, self.best_gains(p, effects))  # type: ignore[attr-defined]
                    out += f"; then the action card block: {self.effects_words(then, p, blk.effects)}"
                    break
        return out

    def _why_illegal(self, aid: int) -> str:
        """Why an action id is not legal now, with the components' ids."""
        if not 0 <= aid < A.NUM_ACTIONS:
            return f"there is no action with id {aid} (ids are 0-{A.NUM_ACTIONS - 1})"
        text = A.TEXTS[aid]
        if not self.stack:
            return f"'{text}' is not legal: the game is over"
        f = self.stack[-1]
        p = f.seat
        what = self.decision_text()
        c = self.clans[p]
        if aid == A.EXCHANGE_COIN or aid in A.EXCHANGE_RES_OF:
            if c.seals == 0 or (aid != A.EXCHANGE_COIN and c.seals < 2):
                return f"'{text}' is not legal: {self.name(p)} has {c.seals} Daimyo seal(s)"
            return f"'{text}' is not legal: that resource is already at 7"
        if aid in A.PLACE_OF and f.kind == "place" and self.held is not None:
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
        if aid in A.TAKE_OF and f.kind == "take":
            b, end = A.TAKE_OF[aid]
            if not self.bridges[b]:
                return f"'{text}' is not legal: the {COLOURS[b]} bridge is empty"
            return f"'{text}' is not legal: the only {COLOURS[b]} die is at the other end"
        return f"'{text}' is not legal now: {what}"
