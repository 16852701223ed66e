"""Turns and rounds: the legal-action and apply dispatch, the automatic steps between
decisions, the draft order, the turn order, the end of a round (the Gardens step) and
the next round's dice; and the solo player's decisions for the rival.

`_LEGAL` and `_DO` map a frame kind to its methods once, at import, so a move costs
no string lookups.
"""

from __future__ import annotations

from kamon.games.white_castle import actions as A
from kamon.games.white_castle import solo
from kamon.games.white_castle.clan import MAX_RESOURCE
from kamon.games.white_castle.data import COLOURS, RESOURCES
from kamon.games.white_castle.effects import effect_text
from kamon.games.white_castle.frames import (
    DRAFT_FRAME,
    RIVAL_TURN_FRAME,
    TAKE_FRAME,
    Blocks,
    Courtier,
    Frame,
    GardenRound,
    Pay,
    RivalActions,
    RivalGarden,
    RivalRoom,
)
from kamon.games.white_castle.placement import PlacementRules
from kamon.games.white_castle.scoring import Scoring
from kamon.games.white_castle.workers import WorkerRules


class Turns(PlacementRules, WorkerRules, Scoring):
    """Dispatch, automatic steps, turns, rounds and the solo rival's frames."""

    __slots__ = ()

    def _legal_garden_round(self, f: GardenRound) -> list[int]:
        """The gardens of p still to activate in the Gardens step."""
        return [A.GARDEN[g] for g in sorted(set(f.gardens))]

    def _do_garden_round(self, f: GardenRound, aid: int) -> None:
        """Activate one of p's gardens (the rest stay to be chosen)."""
        p = f.seat
        g = A.GARDEN_OF[aid]
        rest = list(f.gardens)
        rest.remove(g)
        self._replace(GardenRound(p, tuple(rest), False) if rest else None)
        card = self.data.gardens[self.garden_cards[g]]
        self.log(f"{self.name(p)}'s gardener on the {A.GARDEN_SLOTS[g]} garden activates")
        self._push_effects(p, card.effects, f"the {A.GARDEN_SLOTS[g]} garden")

    def _legal_rival_room(self, f: RivalRoom) -> list[int]:
        """Rooms on the floor the rival's climbing courtier reaches."""
        return [A.RIVAL_ROOM[r] for r in range(5) if A.LOC_FLOOR[r + 1] == f.floor]

    def _legal_rival_garden(self, f: RivalGarden) -> list[int]:
        """The tied gardens the rival's gardener may go to."""
        return [A.RIVAL_GARDEN[g] for g in f.gardens]

    def _do_rival_room(self, f: RivalRoom, aid: int) -> None:
        """Move the rival's courtier into the chosen room (its card is discarded)."""
        self.stack.pop()
        solo.move_to_room(self, f.courtier, A.RIVAL_ROOM_OF[aid])

    def _do_rival_garden(self, f: RivalGarden, aid: int) -> None:
        """Place the rival's gardener in the chosen garden."""
        self.stack.pop()
        solo.place_gardener(self, A.RIVAL_GARDEN_OF[aid])

    def _compute_legal(self) -> list[int]:
        """The legal ids of the top frame, plus the seal exchanges of the deciding clan."""
        if not self.stack:
            return []
        f = self.stack[-1]
        out = _LEGAL[f.kind](self, f)
        c = self.clans[f.seat]
        if c.seals:
            out.append(A.EXCHANGE_COIN)
            if c.seals >= 2:
                for r in range(3):
                    if c.res[r] < MAX_RESOURCE:
                        out.append(A.EXCHANGE_RES[r])
        return out

    def _do(self, aid: int) -> None:
        """Perform a legal action: a seal exchange, or the top frame's own apply method."""
        f = self.stack[-1]
        p = f.seat
        c = self.clans[p]
        if aid == A.EXCHANGE_COIN:
            c.seals -= 1
            c.coins += 1
            self.log(f"{self.name(p)} exchanges 1 seal for 1 coin")
            return
        if aid in A.EXCHANGE_RES_OF:
            r = A.EXCHANGE_RES_OF[aid]
            c.seals -= 2
            c.res[r] += 1
            self.log(f"{self.name(p)} exchanges 2 seals for 1 {RESOURCES[r]}")
            return
        _DO[f.kind](self, f, aid)

    def _auto(self, f: Frame) -> bool:
        """Resolve the top frame without a decision if it needs none; True if it did."""
        kind = f.kind
        if kind in _ALWAYS_ASK:
            return False
        p = f.seat
        if f.kind == "effects":
            k = self._auto_effect(f)
            if k is None:
                return False
            self._take_effect(f, k)
            return True
        if kind == "lantern":
            self.stack.pop()
            icons = self.lantern_icons(p)
            self.log(f"{self.name(p)} gains the Lantern reward: "
                     + ", ".join(effect_text(e) for e in icons))
            self._push_effects(p, icons, "the Lantern reward")
            return True
        if kind in ("warrior", "gardener", "courtier", "blocks", "pay"):
            legal = _LEGAL[kind](self, f)
            if legal == [A.DONE]:
                self.stack.pop()
                if isinstance(f, Pay):
                    self.log(f"{self.name(p)} cannot pay for {effect_text(f.effect)}")
                elif isinstance(f, Blocks) and f.multi:
                    self.log(f"{self.name(p)} can use no block of {f.label} (a seal is needed)")
                elif isinstance(f, Blocks):
                    self.log(f"{self.name(p)} cannot perform {f.label}")
                elif not (isinstance(f, Courtier) and (f.audience_done or f.climb_done)):
                    self.log(f"{self.name(p)} cannot perform the {kind} action")
                return True
            return False
        if kind == "daimyo":
            if all(s is not None for s in self.daimyo_slots):
                self.stack.pop()
                self.log("every slot of the Daimyo's favour is taken")
                return True
            return False
        if f.kind == "garden_round":
            if f.fresh:
                # This clan's go in the Gardens step begins. It is nobody's turn: no
                # personal-domain row is barred by a row fired before (Appendix: not the
                # same line twice in a single turn), until this go ends.
                self.fired = []
                f = GardenRound(p, f.gardens, False)
                self.stack[-1] = f
            if len(f.gardens) == 1:
                self._do_garden_round(f, A.GARDEN[f.gardens[0]])
                return True
            return False
        if kind == "rival_turn":
            self.stack.pop()
            icons = solo.rival_turn(self)
            if icons:
                self.stack.append(RivalActions(p, icons))
            return True
        if f.kind == "rival_actions":
            icons = f.icons
            self._replace(RivalActions(p, icons[1:]) if len(icons) > 1 else None)
            solo.rival_icon(self, icons[0])
            return True
        return False

    def _advance(self) -> None:
        """Run automatic steps until a player must decide (or the game ends)."""
        while True:
            if not self.stack:
                if not self._next_phase():
                    return
                continue
            if not self._auto(self.stack[-1]):
                return

    def _next_phase(self) -> bool:
        """The stack is empty: start the next draft pick, turn, round or the end."""
        if self.phase == "draft":
            picked = sum(1 for c in self.clans if c.card is not None)
            if picked < self.n and self.rival is None:
                self.stack.append(DRAFT_FRAME[self.order[self.n - 1 - picked]])
                return True
            self.phase = "play"
            self.turn_idx = 0
            self._start_turn()
            return True
        if self.phase == "play":
            if self.dice_left() <= 3:
                return self._end_round()
            self.turn_idx += 1
            self._start_turn()
            return True
        if self.phase == "gardens":
            self._prepare_round()
            return True
        return False

    def _start_turn(self) -> None:
        """Start the turn of the next clan in turn order (no row fired yet)."""
        p = self.order[self.turn_idx % self.n]
        self.fired = []
        if p == self.rival:
            self.stack.append(RIVAL_TURN_FRAME[self.human])
        else:
            self.stack.append(TAKE_FRAME[p])

    def _end_round(self) -> bool:
        """New turn order; the end of the game, or the Gardens step (False at the end)."""
        self.order = self.turn_order_now()
        self.log(f"end of round {self.round}; turn order: "
                 + ", ".join(self.name(q) for q in self.order))
        if self.rival is not None:
            solo.round_end(self)
        if self.round >= 3:
            self.phase = "over"
            sc = self.scores()
            self.log("final scores: " + ", ".join(
                f"{self.name(q)} {sc[q]['total']}" for q in range(self.n)))
            return False
        self.phase = "gardens"
        acts: dict[int, list[int]] = {q: [] for q in range(self.n)}
        for g in range(6):
            if self.bridges[g // 2]:
                for q in self.garden_workers[g]:
                    if q != self.rival:
                        acts[q].append(g)
        if self.rival is not None:
            solo.garden_points(self)
            self.rng.shuffle(self.solo_deck)
        for q in reversed(self.order):
            if acts[q]:
                self.stack.append(GardenRound(q, tuple(acts[q]), True))
        return True

    def _prepare_round(self) -> None:
        """Re-roll every die onto the bridges, clear the spaces and rows, next round."""
        per = self.data.dice_per_colour[self.n]
        for b in range(3):
            dice = [self.rng.randint(1, 6) for _ in range(per)]
            dice.sort()
            self.bridges[b] = dice
        self.spaces = [[] for _ in range(8)]
        for c in self.clans:
            c.domain = [None, None, None]
        self.round += 1
        self.phase = "play"
        self.turn_idx = 0
        self.log(f"round {self.round} begins; dice re-rolled: " + "; ".join(
            f"{COLOURS[b]} {' '.join(map(str, self.bridges[b]))}" for b in range(3)))
        self._start_turn()


# Frame kind -> its legal-action and apply methods (built once; no string lookups per move).
_KINDS = ("draft", "take", "place", "effects", "choice", "checkpoint", "blocks", "outside",
          "warrior", "gardener", "courtier", "daimyo", "row", "pay", "garden_round",
          "rival_room", "rival_garden")
_LEGAL = {k: getattr(Turns, "_legal_" + k) for k in _KINDS}
_DO = {k: getattr(Turns, "_do_" + k) for k in _KINDS}
# Frames that are always a real decision (never resolved by _auto).
_ALWAYS_ASK = frozenset({"draft", "take", "place", "choice", "checkpoint", "outside", "row",
                         "rival_room", "rival_garden"})
