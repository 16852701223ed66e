"""The effect interpreter: resolving card, space, yard and garden effects, in words too.

An effect is a tuple from data.py (("gain", ((kind, n), ...)), ("choice", n),
("pay", cost, effect), ("passage", n), ("courtier",), ...). `_resolve` performs one,
pushing a decision frame when it needs one; this module also holds the frames that
resolve effects: effects (the order of a set), choice (resources of choice), checkpoint
(seals on the Passage of Time), blocks (card blocks), pay (pay to perform) and row (the
personal-domain action as a 6), and the test of whether a set's order matters.
"""

from __future__ import annotations

from typing import Any

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.base import StateBase
from kamon.games.white_castle.clan import MAX_PASSAGE
from kamon.games.white_castle.data import COLOURS, RESOURCES, ROWS, Effect
from kamon.games.white_castle.frames import (
    GARDENER_FRAME,
    LANTERN_FRAME,
    ROW_FRAME,
    WARRIOR_FRAME,
    Blocks,
    Checkpoint,
    Choice,
    Courtier,
    Effects,
    Pay,
    Row,
    new_frame,
)

ALL_KINDS = frozenset({"coin", "seal", "food", "iron", "pearl"})
MANDATORY = frozenset({"gain", "choice", "passage", "lantern", "well"})
NO_KINDS: frozenset[str] = frozenset()
SEAL_ONLY = frozenset({"seal"})

_NOUNS = {"coin": ("coin", "coins"), "seal": ("seal", "seals"), "cp": ("CP", "CP")}


_TEXTS: dict[Effect, str] = {}  # effect_text of each effect seen (effects are few, fixed)


def effect_text(e: Effect) -> str:
    """An effect in words, for logs and action descriptions (worded once per effect:
    every move a search tries logs its effects)."""
    text = _TEXTS.get(e)
    if text is None:
        text = _TEXTS[e] = _wording(e)
    return text


def _wording(e: Effect) -> str:
    """effect_text, worded from scratch."""
    kind = e[0]
    if kind == "gain":
        return " + ".join(f"{n} {_NOUNS.get(k, (k, k))[n > 1]}" for k, n in e[1])
    if kind == "choice":
        return f"{e[1]} resource{'s' if e[1] > 1 else ''} of your choice"
    if kind == "pay":
        cost = " + ".join(f"{n} {k}{'s' if n > 1 else ''}" for k, n in e[1])
        return f"pay {cost} for {effect_text(e[2])}"
    if kind == "passage":
        return f"{e[1]} Passage of Time step{'s' if e[1] > 1 else ''}"
    if kind == "die_tile":
        return f"an action of a {e[1]} die tile" if e[1] != "any" else "any die-tile action"
    return {"courtier": "Courtier action", "gardener": "Gardener action",
            "warrior": "Warrior action", "lantern": "Lantern reward", "well": "Well action",
            "light": "a light-background action", "domain": "a personal-domain action"}[kind]


class EffectRules(StateBase):
    """Resolving effects and the decisions effects ask for (order, resources, seals, blocks,
    pay to perform, the personal-domain row)."""

    __slots__ = ()

    def _effect_choices(self, f: Effects) -> list[int]:
        """EFFECT ids of a set's effects, one per distinct effect (equal ones are one choice)."""
        effects = f.effects
        seen: set[Effect] = set()
        out = []
        for k, e in enumerate(effects):
            if e not in seen:
                seen.add(e)
                out.append(A.EFFECT[k])
        return out

    def _legal_effects(self, f: Effects) -> list[int]:
        """Which effect of the set next; `done` only when every remaining one is optional."""
        out = self._effect_choices(f)
        if all(e[0] not in MANDATORY for e in f.effects):
            out.append(A.DONE)
        return out

    def _legal_choice(self, f: Choice) -> list[int]:
        """A resource of choice: food, iron or pearl."""
        return [A.GAIN[r] for r in range(3)]

    def _legal_checkpoint(self, f: Checkpoint) -> list[int]:
        # Re-checked at every decision: the seals may have been exchanged meanwhile.
        """Pay the checkpoint's seals (if p has them now) or stop."""
        return ([A.PAY] if self.clans[f.seat].seals >= f.cost else []) + [A.DONE]

    def _block(self, p: int, opt: tuple[int, int]) -> Any:
        """The card block an option names: (room, i), or (-1, i) for p's own action card."""
        r, i = opt
        cid = self.clans[p].card if r < 0 else self.room_cards[r]
        assert cid is not None
        return self.data.card(cid).blocks[i]

    def _block_ok(self, p: int, opt: tuple[int, int]) -> bool:
        """Whether p could use the block now (a "pay a seal" block needs the seal)."""
        effects = self._block(p, opt).effects
        if len(effects) == 1 and effects[0][0] == "pay":
            return self._can_pay(p, effects[0][1])
        return True

    def _legal_blocks(self, f: Blocks) -> list[int]:
        """The usable blocks of the frame, and `done` when optional or none is usable."""
        p = f.seat
        out = [A.CARD_BLOCK[o[1]] if o[0] < 0 else A.BLOCK[o]
               for o in f.options if self._block_ok(p, o)]
        if f.optional or not out:
            out.append(A.DONE)
        return out

    def _legal_pay(self, f: Pay) -> list[int]:
        """Pay to perform (if payable) or decline."""
        out = [A.PAY] if self._can_pay(f.seat, f.cost) else []
        out.append(A.DONE)
        return out

    def _legal_row(self, f: Row) -> list[int]:
        """Personal-domain rows not yet fired this turn, or decline."""
        return [A.ROW[c] for c in range(3) if c not in self.fired] + [A.DONE]

    def _push_well(self, p: int) -> None:
        """The Well action: a seal and both Well tiles' rewards, as one set of effects."""
        effects: list[Effect] = [("gain", (("seal", 1),))]
        for t in self.well_tiles:
            effects.extend(self.data.die_tiles[t][1])
        self._push_effects(p, tuple(effects), "the Well")

    def _push_row(self, p: int, colour: int) -> None:
        """A domain row fires: visible rewards first, then the card block for that row."""
        c = self.clans[p]
        assert c.card is not None
        row = ROWS[colour]
        card = self.data.card(c.card)
        for i, blk in enumerate(card.blocks):
            if row in blk.rows:
                self.stack.append(Blocks(p, ((-1, i),), False, True, f"{row} card block"))
                break
        uncovered = 5 - c.left[colour]
        visible = (self.data.domain_visible[COLOURS[colour]],) + \
            self.data.domain_cells[COLOURS[colour]][:uncovered]
        self._push_effects(p, visible, f"the {COLOURS[colour]} row")

    def _push_effects(self, p: int, effects: tuple[Effect, ...], label: str) -> None:
        """Push a set of effects for p to resolve (nothing for an empty set)."""
        if effects:
            # Effects(p, effects, label), built as the tuple it is: the most frequent frame
            # (0.6 a decision), and tuple.__new__ is half the cost of the class's __new__.
            self.stack.append(new_frame(Effects, ("effects", p, tuple(effects), label)))

    def _do_effects(self, f: Effects, aid: int) -> None:
        """Resolve the chosen effect of the set, or decline the rest."""
        p = f.seat
        if aid == A.DONE:
            self.stack.pop()
            self.log(f"{self.name(p)} declines the rest of {f.source}")
            return
        self._take_effect(f, A.EFFECT_OF[aid])

    def _take_effect(self, f: Effects, k: int) -> None:
        """Remove effect k from the set on top and resolve it."""
        effects = f.effects
        rest = effects[:k] + effects[k + 1:]
        self._replace(new_frame(Effects, ("effects", f.seat, rest, f.source)) if rest else None)
        self._resolve(f.seat, effects[k])

    def _resolve(self, p: int, e: Effect) -> None:
        """Perform one effect (pushing frames for any decision it needs)."""
        kind = e[0]
        if kind == "gain":
            self._gain(p, e[1])
            self.log(f"{self.name(p)} gains {effect_text(e)}")
        elif kind == "choice":
            self.stack.append(Choice(p, e[1]))
        elif kind == "pay":
            self.stack.append(Pay(p, e[1], e[2]))
        elif kind == "passage":
            self._move(p, e[1])
        elif kind == "lantern":
            self.stack.append(LANTERN_FRAME[p])
        elif kind == "well":
            self._push_well(p)
        elif kind == "courtier":
            self.stack.append(Courtier(p, False, False))
        elif kind == "gardener":
            self.stack.append(GARDENER_FRAME[p])
        elif kind == "warrior":
            self.stack.append(WARRIOR_FRAME[p])
        elif kind == "light":
            opts = tuple((r, i) for r in range(5)
                         for i, blk in enumerate(self.data.card(self.room_cards[r]).blocks)
                         if blk.light)
            self.stack.append(Blocks(p, opts, False, True, "a light-background action"))
        elif kind == "die_tile":
            col = e[1]
            opts = tuple((r, i) for r in range(5) for i, t in enumerate(self.room_tiles[r])
                         if col == "any" or COLOURS[t] == col)
            self.stack.append(Blocks(p, opts, False, True, effect_text(e)))
        elif kind == "domain":
            self.stack.append(ROW_FRAME[p])
        else:  # pragma: no cover - data validation rules this out
            raise ValueError(f"unknown effect {e!r}")

    def _resolve_block(self, p: int, opt: tuple[int, int]) -> None:
        """Use a card block: pay its cost and resolve, or push its effects."""
        blk = self._block(p, opt)
        where = "own card" if opt[0] < 0 else A.SPACES[opt[0]]
        if len(blk.effects) == 1 and blk.effects[0][0] == "pay":
            e = blk.effects[0]
            self._pay(p, e[1])
            self.log(f"{self.name(p)} uses the {where} block: {effect_text(e)}")
            self._resolve(p, e[2])
        else:
            self.log(f"{self.name(p)} uses the {where} block: "
                     + ", ".join(effect_text(x) for x in blk.effects))
            self._push_effects(p, blk.effects, f"the {where} block")

    def _do_choice(self, f: Choice, aid: int) -> None:
        """Gain the chosen resource; ask again while more are due."""
        p, n = f.seat, f.remaining
        r = A.GAIN_OF[aid]
        self._replace(Choice(p, n - 1) if n > 1 else None)
        self._gain(p, ((RESOURCES[r], 1),))
        self.log(f"{self.name(p)} gains 1 {RESOURCES[r]}")

    def _move(self, p: int, steps: int) -> None:
        """Move p's influence marker, stopping at a checkpoint p cannot or will not pay."""
        c = self.clans[p]
        moved = False
        start = c.pos
        while steps > 0 and c.pos < MAX_PASSAGE:
            cost = self.data.checkpoints.get(c.pos + 1)
            if cost and p != self.rival:  # the rival never pays: it passes checkpoints free
                if c.seals >= cost:
                    self.stack.append(Checkpoint(p, steps, cost))
                    break
                self.log(f"{self.name(p)} cannot pay {cost} seal{'s' if cost > 1 else ''} "
                         "to pass the checkpoint")
                break
            c.pos += 1
            steps -= 1
            moved = True
        if moved:
            self.seq_counter += 1
            c.seq = self.seq_counter
            self.log(f"{self.name(p)} moves on the Passage of Time from {start} to {c.pos}")

    def _do_checkpoint(self, f: Checkpoint, aid: int) -> None:
        """Pay the seals and go on moving, or stop before the checkpoint."""
        p, steps, cost = f.seat, f.steps, f.cost
        self.stack.pop()
        c = self.clans[p]
        if aid == A.DONE:
            self.log(f"{self.name(p)} stops before the checkpoint")
            return
        c.seals -= cost
        c.pos += 1
        self.seq_counter += 1
        c.seq = self.seq_counter
        self.log(f"{self.name(p)} pays {cost} seal{'s' if cost > 1 else ''} and enters "
                 f"season {self.season(c.pos)} at {c.pos}")
        if steps > 1:
            self._move(p, steps - 1)

    def _do_blocks(self, f: Blocks, aid: int) -> None:
        """Use the chosen block (the others stay offered when several may be used)."""
        p, opts, multi = f.seat, f.options, f.multi
        if aid == A.DONE:
            self.stack.pop()
            return
        opt = (-1, A.CARD_BLOCK_OF[aid]) if aid in A.CARD_BLOCK_OF else A.BLOCK_OF[aid]
        rest = tuple(o for o in opts if o != opt)
        self._replace(Blocks(p, rest, multi, f.optional, f.label) if multi and rest else None)
        self._resolve_block(p, opt)

    def _do_pay(self, f: Pay, aid: int) -> None:
        """Pay and perform the effect, or decline it."""
        p = f.seat
        self.stack.pop()
        if aid == A.DONE:
            self.log(f"{self.name(p)} does not pay for {effect_text(f.effect)}")
            return
        self._pay(p, f.cost)
        self.log(f"{self.name(p)} pays for {effect_text(f.effect)}")
        self._resolve(p, f.effect)

    def _do_row(self, f: Row, aid: int) -> None:
        """Fire the chosen personal-domain row as if with a 6 (no coins change hands)."""
        p = f.seat
        self.stack.pop()
        if aid == A.DONE:
            return
        colour = A.ROW_OF[aid]
        self.fired.append(colour)
        self.log(f"{self.name(p)} performs the {COLOURS[colour]} row as if with a 6")
        self._push_row(p, colour)

    def _provides_consumes(self, p: int, e: Effect) -> tuple[frozenset[str], frozenset[str]]:
        """What an effect may gain and what it may spend (for the order question)."""
        kind = e[0]
        if kind == "gain":
            return frozenset(k for k, _ in e[1]), NO_KINDS
        if kind == "choice":
            return frozenset(RESOURCES), NO_KINDS
        if kind == "passage":
            return NO_KINDS, SEAL_ONLY
        if kind == "lantern":
            prov: set[str] = set()
            cons: frozenset[str] = NO_KINDS
            for icon in self.lantern_icons(p):
                if icon[0] == "gain":
                    prov.update(k for k, _ in icon[1])
                elif icon[0] == "passage":
                    cons = SEAL_ONLY
                else:
                    return ALL_KINDS, ALL_KINDS
            return frozenset(prov), cons
        if kind == "well":
            prov = {"seal"}
            for t in self.well_tiles:
                for te in self.data.die_tiles[t][1]:
                    prov.update(self._provides_consumes(p, te)[0])
            return frozenset(prov), NO_KINDS
        return ALL_KINDS, ALL_KINDS

    def _auto_effect(self, f: Effects) -> int | None:
        """Index of the effect to resolve without asking, or None if the order matters."""
        effects = f.effects
        first = effects[0]
        if all(e == first for e in effects):
            return 0
        pcs = [self._provides_consumes(f.seat, e) for e in effects]
        for i in range(len(pcs)):
            for j in range(i + 1, len(pcs)):
                if pcs[i][0] & pcs[j][1] or pcs[j][0] & pcs[i][1]:
                    return None
        return 0
