"""Drafting a starting pair, taking a die from a bridge and placing it on a space.

The draft, take and place decision frames: which spaces a die may go to and what it
pays or gains there, and what placing it sets off (the room's blocks, Outside the
Walls, the Well, a personal-domain row, and the Lantern reward of a left-end die).
"""

from __future__ import annotations

from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import COLOURS
from kamon.games.white_castle.effects import EffectRules
from kamon.games.white_castle.frames import (
    LANTERN_FRAME,
    PLACE_FRAME,
    Blocks,
    Draft,
    Outside,
    Place,
    Take,
)
from kamon.games.white_castle.names import SPACE_NAMES


class PlacementRules(EffectRules):
    """The draft, take and place decisions."""

    __slots__ = ()

    def _legal_draft(self, f: Draft) -> list[int]:
        """The starting pairs still on offer."""
        return [A.DRAFT[i] for i, pair in enumerate(self.draft_pairs) if pair is not None]

    def _legal_take(self, f: Take) -> list[int]:
        """The bridge ends a die may be taken from (a lone die only where it lies)."""
        out = []
        for b, dice in enumerate(self.bridges):
            if len(dice) >= 2:
                out.append(A.TAKE[(b, 0)])
                out.append(A.TAKE[(b, 1)])
            elif dice:
                out.append(A.TAKE[(b, 0 if self.lone_left[b] else 1)])
        return out

    def space_cost(self, s: int, value: int) -> int | None:
        """Coins the held die would pay (+) or gain (-) on space s, or None if it cannot go."""
        if s == A.SP_WELL:
            return 1 - value
        stack = self.spaces[s]
        if len(stack) >= self.max_dice():
            return None
        under = stack[-1][1] if stack else self._printed(s)
        return under - value

    def _printed(self, s: int) -> int:
        """The printed value of die space s (under any die placed there)."""
        return (3, 3, 3, 4, 4, 5, 5, 1, 6)[s]

    def placeable(self, p: int, colour: int, value: int) -> list[int]:
        """Spaces a die of this colour and value may go to for player p."""
        out = []
        for s in range(8):
            if s < 5 and colour not in self.room_tiles[s]:
                continue
            cost = self.space_cost(s, value)
            if cost is None or (cost > 0 and not self.can_pay_coins(p, cost)):
                continue
            out.append(s)
        if self.clans[p].domain[colour] is None and (
                value >= 6 or self.can_pay_coins(p, 6 - value)):
            out.append(A.SP_DOMAIN)
        return out

    def _legal_place(self, f: Place) -> list[int]:
        """The spaces the held die may go to."""
        assert self.held is not None
        b, v, _ = self.held
        return [A.PLACE[s] for s in self.placeable(f.seat, b, v)]

    def _do_draft(self, f: Draft, aid: int) -> None:
        """Take a starting pair: its action card, its resource card (+ decree) to the Lantern."""
        p = f.seat
        i = A.DRAFT_OF[aid]
        pair = self.draft_pairs[i]
        assert pair is not None
        res_id, act_id = pair
        self.draft_pairs[i] = None
        self.stack.pop()
        c = self.clans[p]
        c.card = act_id
        on_take, decree, _ = self.data.start_resources[res_id]
        c.lantern.append(res_id)
        if decree:
            c.lantern.append(decree)
        self.log(f"{self.name(p)} takes starting pair {i + 1}: {res_id} with {act_id}"
                 + (f" and {decree}" if decree else ""))
        self._push_effects(p, on_take, res_id)

    def _do_take(self, f: Take, aid: int) -> None:
        """Take a die from a bridge end; a left-end die will bring the Lantern reward."""
        p = f.seat
        b, end = A.TAKE_OF[aid]
        dice = self.bridges[b]
        left = end == 0 if len(dice) >= 2 else self.lone_left[b]
        if len(dice) == 2:
            self.lone_left[b] = not left
        v = dice.pop(0) if left else dice.pop()
        self.held = (b, v, left)
        self.stack[-1] = PLACE_FRAME[p]
        self.log(f"{self.name(p)} takes the {COLOURS[b]} {v} from the "
                 f"{'left' if left else 'right'} end")

    def _do_place(self, f: Place, aid: int) -> None:
        """Place the held die: pay or gain coins, then the Lantern reward, then the space."""
        p = f.seat
        s = A.PLACE_OF[aid]
        assert self.held is not None
        b, v, left = self.held
        self.held = None
        self.stack.pop()
        cost = 6 - v if s == A.SP_DOMAIN else self.space_cost(s, v)
        assert cost is not None
        if cost > 0:
            self._pay_coins(p, cost)
        elif cost < 0:
            self.clans[p].coins -= cost
        self.placements[p] += 1
        self.log(f"{self.name(p)} places the {COLOURS[b]} {v} on {SPACE_NAMES[s]}"
                 + (f", paying {cost} coin{'s' if cost > 1 else ''}" if cost > 0 else
                    f", gaining {-cost} coin{'s' if cost < -1 else ''}" if cost < 0 else ""))
        # Space action(s) first on the stack, the Lantern reward above them (it comes first).
        if s < 5:
            opts = tuple((s, i) for i, col in enumerate(self.room_tiles[s]) if col == b)
            self.stack.append(Blocks(p, opts, True, True, A.SPACES[s]))
        elif s < 7:
            self.stack.append(Outside(p, self.data.outside[s - 5]))
        elif s == A.SP_WELL:
            self.spaces[s].append((b, v))
            self._push_well(p)
        else:
            self.clans[p].domain[b] = (b, v)
            self.fired.append(b)
            self._push_row(p, b)
        if s < 7:
            self.spaces[s].append((b, v))
        if left:
            self.stack.append(LANTERN_FRAME[p])
