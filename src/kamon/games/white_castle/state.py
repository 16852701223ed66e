"""The White Castle's rules: the game state, its decision frames and the effect interpreter.

A turn is a stack of decision frames (tuples). The top frame says who decides and
what; `legal_actions()` lists its choices (plus the Daimyo-seal exchanges, legal
at any of that player's decisions); `apply()` resolves one choice and then runs
every step that needs no decision until the next one. Frames are immutable tuples,
so `clone()` copies the stack by reference.

Frame kinds (second element is always the deciding seat):
  draft      pick a starting pair                  take   take a die from a bridge end
  place      put the held die on a space           effects  a set of effects, in chosen order
  choice     n resources of choice, one at a time  checkpoint  pay seals to pass, or stop
  blocks     pick card block(s)                    outside  one of a space's two actions
  warrior / gardener / courtier   the worker actions
  daimyo     a free slot of the Daimyo's favour    row    the personal-domain action (as a 6)
  pay        pay to perform                        garden_round  round-end garden activations
  lantern / passage   automatic steps (never shown to a player)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from kamon.core.errors import RecordError
from kamon.core.protocol import DecisionState
from kamon.core.rng import Rng
from kamon.games.white_castle import actions as A
from kamon.games.white_castle import solo
from kamon.games.white_castle.consistency import check_state
from kamon.games.white_castle.data import COLOURS, RESOURCES, ROWS, WORKERS, Effect, WCData

CLANS = ("blue", "yellow", "red", "green")
MAX_SEALS = 5
MAX_RESOURCE = 7
MAX_PASSAGE = 20
AUDIENCE_COINS = 2
CLIMB_PEARL = {1: 2, 2: 5}
RES_INDEX = {"food": 0, "iron": 1, "pearl": 2}
ALL_KINDS = frozenset({"coin", "seal", "food", "iron", "pearl"})
MANDATORY = frozenset({"gain", "choice", "passage", "lantern", "well"})
NO_KINDS: frozenset[str] = frozenset()
SEAL_ONLY = frozenset({"seal"})
COURTIER_CP = (1, 3, 3, 3, 6, 6, 10)


class Clan:
    """One player's pieces and stores."""

    __slots__ = ("coins", "seals", "cp", "res", "left", "courtiers", "warriors", "card",
                 "lantern", "pos", "seq", "domain")

    def __init__(self) -> None:
        self.coins = 0
        self.seals = 0
        self.cp = 0
        self.res = [0, 0, 0]
        self.left = [5, 5, 5]  # courtiers, gardeners, warriors still in the domain
        self.courtiers: list[int] = []  # LOCS index of each courtier sent out
        self.warriors: list[int] = []  # yard index of each warrior sent out
        self.card: str | None = None  # the action card on the domain board
        self.lantern: list[str] = []  # cards in the Lantern Area, oldest first
        self.pos = 0  # Passage of Time position
        self.seq = 0  # stacking: higher = more recently arrived = on top
        self.domain: list[tuple[int, int] | None] = [None, None, None]  # die per row colour

    def copy(self) -> Clan:
        """An independent copy."""
        c = Clan.__new__(Clan)
        c.coins, c.seals, c.cp, c.pos, c.seq, c.card = (
            self.coins, self.seals, self.cp, self.pos, self.seq, self.card)
        c.res = self.res[:]
        c.left = self.left[:]
        c.courtiers = self.courtiers[:]
        c.warriors = self.warriors[:]
        c.lantern = self.lantern[:]
        c.domain = self.domain[:]
        return c

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible dict."""
        return {"coins": self.coins, "seals": self.seals, "cp": self.cp, "res": self.res[:],
                "left": self.left[:], "courtiers": self.courtiers[:],
                "warriors": self.warriors[:], "card": self.card, "lantern": self.lantern[:],
                "pos": self.pos, "seq": self.seq,
                "domain": [list(d) if d else None for d in self.domain]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Clan:
        """Inverse of to_json."""
        c = cls()
        c.coins, c.seals, c.cp, c.pos, c.seq, c.card = (
            int(d["coins"]), int(d["seals"]), int(d["cp"]), int(d["pos"]), int(d["seq"]),
            d["card"])
        c.res = [int(x) for x in d["res"]]
        c.left = [int(x) for x in d["left"]]
        c.courtiers = [int(x) for x in d["courtiers"]]
        c.warriors = [int(x) for x in d["warriors"]]
        c.lantern = [str(x) for x in d["lantern"]]
        c.domain = [(int(x[0]), int(x[1])) if x else None for x in d["domain"]]
        return c


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(i) for i in x) if isinstance(x, list) else x


def _listify(x: Any) -> Any:
    return [_listify(i) for i in x] if isinstance(x, tuple | list) else x


_NOUNS = {"coin": ("coin", "coins"), "seal": ("seal", "seals"), "cp": ("CP", "CP")}


def effect_text(e: Effect) -> str:
    """An effect in words, for logs and action descriptions."""
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


class WhiteCastleState(DecisionState):
    """A game of The White Castle in progress (2-4 players)."""

    ACTIONS = A.ACTIONS

    __slots__ = ("data", "n", "clans", "bridges", "lone_left", "spaces", "room_cards",
                 "room_tiles", "steward_deck", "diplomat_deck", "well_tiles", "daimyo_card",
                 "daimyo_slots", "garden_cards", "garden_workers", "yard_effects", "round",
                 "order", "turn_idx", "phase", "draft_pairs", "held", "fired", "stack", "rng",
                 "events", "seq_counter", "options", "seed", "placements", "rival",
                 "solo_deck", "discarded")

    data: WCData
    n: int
    clans: list[Clan]
    bridges: list[list[int]]
    lone_left: list[bool]
    spaces: list[list[tuple[int, int]]]
    room_cards: list[str]
    room_tiles: list[tuple[int, ...]]
    steward_deck: list[str]
    diplomat_deck: list[str]
    well_tiles: tuple[str, str]
    daimyo_card: str
    daimyo_slots: list[int | None]
    garden_cards: list[str]
    garden_workers: list[list[int]]
    yard_effects: list[tuple[Effect, ...]]
    round: int
    order: list[int]
    turn_idx: int
    phase: str
    draft_pairs: list[tuple[str, str] | None]
    held: tuple[int, int, bool] | None
    fired: list[int]
    stack: list[tuple[Any, ...]]
    rng: Rng
    events: list[str]
    history: list[int]
    seq_counter: int
    options: dict[str, Any]
    seed: int
    _legal: list[int] | None
    placements: list[int]
    rival: int | None  # the Tokugawa rival's clan in the solo game (never to move)
    solo_deck: list[str]  # Solitaire cards, top first (hidden order)
    discarded: list[str]  # castle cards the rival's courtiers removed from the game

    # ----------------------------------------------------------------- protocol

    @property
    def num_players(self) -> int:
        """Number of seats that decide (the solo rival is a clan but not a seat)."""
        return 1 if self.rival is not None else self.n

    @property
    def human(self) -> int:
        """The solo player's seat (0)."""
        return 0

    @property
    def to_move(self) -> int | None:
        """The seat deciding now, or None at the end."""
        return self.stack[-1][1] if self.stack else None

    def is_over(self) -> bool:
        """True once round 3 has ended."""
        return self.phase == "over"


    def clone(self) -> WhiteCastleState:
        """An independent copy (frames and effects are immutable and shared)."""
        s = WhiteCastleState.__new__(WhiteCastleState)
        s.data = self.data
        s.n = self.n
        s.clans = [c.copy() for c in self.clans]
        s.bridges = [b[:] for b in self.bridges]
        s.lone_left = self.lone_left[:]
        s.spaces = [sp[:] for sp in self.spaces]
        s.room_cards = self.room_cards[:]
        s.room_tiles = self.room_tiles
        s.steward_deck = self.steward_deck[:]
        s.diplomat_deck = self.diplomat_deck[:]
        s.well_tiles = self.well_tiles
        s.daimyo_card = self.daimyo_card
        s.daimyo_slots = self.daimyo_slots[:]
        s.garden_cards = self.garden_cards
        s.garden_workers = [g[:] for g in self.garden_workers]
        s.yard_effects = self.yard_effects
        s.round = self.round
        s.order = self.order[:]
        s.turn_idx = self.turn_idx
        s.phase = self.phase
        s.draft_pairs = self.draft_pairs[:]
        s.held = self.held
        s.fired = self.fired[:]
        s.stack = self.stack[:]
        s.rng = self.rng.clone()
        s.events = self.events[:]
        s.history = self.history[:]
        s.seq_counter = self.seq_counter
        s.options = self.options
        s.seed = self.seed
        s._legal = self._legal
        s.placements = self.placements[:]
        s.rival = self.rival
        s.solo_deck = self.solo_deck[:]
        s.discarded = self.discarded[:]
        return s

    # ------------------------------------------------------------ small helpers

    def name(self, p: int) -> str:
        """A seat's clan colour (for logs); the solo rival is the Tokugawa clan."""
        if p == self.rival:
            return solo.RIVAL_NAME
        return CLANS[p] if p < len(CLANS) else f"seat{p + 1}"

    def log(self, text: str) -> None:
        """Append an event."""
        self.events.append(text)

    def _gain(self, p: int, gains: Iterable[tuple[str, int]]) -> None:
        c = self.clans[p]
        for k, v in gains:
            if k == "coin":
                c.coins += v
            elif k == "seal":
                c.seals = min(MAX_SEALS, c.seals + v)
            elif k == "cp":
                c.cp += v
            else:
                i = RES_INDEX[k]
                c.res[i] = min(MAX_RESOURCE, c.res[i] + v)

    def can_pay_coins(self, p: int, n: int) -> bool:
        """Coins payable, counting seals that could be exchanged 1 -> 1 coin."""
        c = self.clans[p]
        return c.coins + c.seals >= n

    def can_pay_res(self, p: int, r: int, n: int) -> bool:
        """A resource cost payable, counting 2 seals -> 1 resource exchanges."""
        c = self.clans[p]
        return c.res[r] + c.seals // 2 >= n

    def _pay_coins(self, p: int, n: int) -> None:
        c = self.clans[p]
        if c.coins < n:
            short = n - c.coins
            c.seals -= short
            c.coins += short
            self.log(f"{self.name(p)} exchanges {short} seal{'s' if short > 1 else ''} for coins")
        c.coins -= n

    def _pay_res(self, p: int, r: int, n: int) -> None:
        c = self.clans[p]
        if c.res[r] < n:
            short = n - c.res[r]
            c.seals -= 2 * short
            c.res[r] += short
            self.log(f"{self.name(p)} exchanges {2 * short} seals for {short} {RESOURCES[r]}")
        c.res[r] -= n

    def _can_pay(self, p: int, cost: tuple[tuple[str, int], ...]) -> bool:
        c = self.clans[p]
        coins = seals = 0
        for k, v in cost:
            if k == "coin":
                coins += v
            else:
                seals += v
        return c.seals >= seals and c.coins + (c.seals - seals) >= coins

    def _pay(self, p: int, cost: tuple[tuple[str, int], ...]) -> None:
        for k, v in cost:
            if k == "seal":
                self.clans[p].seals -= v
        for k, v in cost:
            if k == "coin":
                self._pay_coins(p, v)

    def dice_left(self) -> int:
        """Dice still on the bridges."""
        return sum(len(b) for b in self.bridges)

    def room_card(self, r: int) -> str:
        """The card in castle room r."""
        return self.room_cards[r]

    def max_dice(self) -> int:
        """Dice a main-board space (not the Well) may hold: 1 at 1-2 players, else 2."""
        return 1 if self.n <= 2 else 2

    def lantern_icons(self, p: int) -> tuple[Effect, ...]:
        """Every icon visible in a player's Lantern Area."""
        d = self.data
        out: list[Effect] = []
        for cid in self.clans[p].lantern:
            if cid in d.start_resources:
                out.append(d.start_resources[cid][2])
            else:
                icon = d.card(cid).lantern
                if icon is not None:
                    out.append(icon)
        return tuple(out)

    # ------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[int]:
        if not self.stack:
            return []
        f = self.stack[-1]
        kind = f[0]
        p = f[1]
        out = _LEGAL[kind](self, f)
        c = self.clans[p]
        if c.seals:
            out.append(A.EXCHANGE_COIN)
            if c.seals >= 2:
                for r in range(3):
                    if c.res[r] < MAX_RESOURCE:
                        out.append(A.EXCHANGE_RES[r])
        return out

    def _legal_draft(self, f: tuple[Any, ...]) -> list[int]:
        return [A.DRAFT[i] for i, pair in enumerate(self.draft_pairs) if pair is not None]

    def _legal_take(self, f: tuple[Any, ...]) -> list[int]:
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

    def _legal_place(self, f: tuple[Any, ...]) -> list[int]:
        assert self.held is not None
        b, v, _ = self.held
        return [A.PLACE[s] for s in self.placeable(f[1], b, v)]

    def _effect_choices(self, f: tuple[Any, ...]) -> list[int]:
        effects: tuple[Effect, ...] = f[2]
        seen: set[Effect] = set()
        out = []
        for k, e in enumerate(effects):
            if e not in seen:
                seen.add(e)
                out.append(A.EFFECT[k])
        return out

    def _legal_effects(self, f: tuple[Any, ...]) -> list[int]:
        out = self._effect_choices(f)
        if all(e[0] not in MANDATORY for e in f[2]):
            out.append(A.DONE)
        return out

    def _legal_choice(self, f: tuple[Any, ...]) -> list[int]:
        return [A.GAIN[r] for r in range(3)]

    def _legal_checkpoint(self, f: tuple[Any, ...]) -> list[int]:
        # Re-checked at every decision: the seals may have been exchanged meanwhile.
        return ([A.PAY] if self.clans[f[1]].seals >= f[3] else []) + [A.DONE]

    def _block(self, p: int, opt: tuple[int, int]) -> Any:
        r, i = opt
        cid = self.clans[p].card if r < 0 else self.room_cards[r]
        assert cid is not None
        return self.data.card(cid).blocks[i]

    def _block_ok(self, p: int, opt: tuple[int, int]) -> bool:
        effects = self._block(p, opt).effects
        if len(effects) == 1 and effects[0][0] == "pay":
            return self._can_pay(p, effects[0][1])
        return True

    def _legal_blocks(self, f: tuple[Any, ...]) -> list[int]:
        p = f[1]
        out = [A.CARD_BLOCK[o[1]] if o[0] < 0 else A.BLOCK[o]
               for o in f[2] if self._block_ok(p, o)]
        if f[4] or not out:
            out.append(A.DONE)
        return out

    def _legal_outside(self, f: tuple[Any, ...]) -> list[int]:
        return [A.WORKER[w] for w in f[2]] + [A.DONE]

    def warrior_yards(self, p: int) -> list[int]:
        """Yards a warrior of p may go to now."""
        if not self.clans[p].left[2]:
            return []
        return [y for y, cost in enumerate(self.data.yard_costs)
                if self.can_pay_res(p, 1, cost)]

    def _legal_warrior(self, f: tuple[Any, ...]) -> list[int]:
        return [A.YARD[y] for y in self.warrior_yards(f[1])] + [A.DONE]

    def gardener_slots(self, p: int) -> list[int]:
        """Garden cards a gardener of p may go to now."""
        if not self.clans[p].left[1]:
            return []
        gardens = self.data.gardens
        return [g for g in range(6) if p not in self.garden_workers[g]
                and self.can_pay_res(p, 0, gardens[self.garden_cards[g]].food)]

    def _legal_gardener(self, f: tuple[Any, ...]) -> list[int]:
        return [A.GARDEN[g] for g in self.gardener_slots(f[1])] + [A.DONE]

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

    def _legal_courtier(self, f: tuple[Any, ...]) -> list[int]:
        p, audience_done, climb_done = f[1], f[2], f[3]
        out = []
        if not audience_done and self.clans[p].left[0] and self.can_pay_coins(p, AUDIENCE_COINS):
            out.append(A.AUDIENCE)
        if not climb_done:
            out.extend(A.CLIMB[m] for m in self.climbs(p))
        out.append(A.DONE)
        return out

    def _legal_daimyo(self, f: tuple[Any, ...]) -> list[int]:
        return [A.DAIMYO[s] for s in range(3) if self.daimyo_slots[s] is None]

    def _legal_row(self, f: tuple[Any, ...]) -> list[int]:
        return [A.ROW[c] for c in range(3) if c not in self.fired] + [A.DONE]

    def _legal_pay(self, f: tuple[Any, ...]) -> list[int]:
        out = [A.PAY] if self._can_pay(f[1], f[2]) else []
        out.append(A.DONE)
        return out

    def _legal_garden_round(self, f: tuple[Any, ...]) -> list[int]:
        return [A.GARDEN[g] for g in sorted(set(f[2]))]

    def _legal_rival_room(self, f: tuple[Any, ...]) -> list[int]:
        return [A.RIVAL_ROOM[r] for r in range(5) if A.LOC_FLOOR[r + 1] == f[2]]

    def _legal_rival_garden(self, f: tuple[Any, ...]) -> list[int]:
        return [A.RIVAL_GARDEN[g] for g in f[2]]

    def _do_rival_room(self, f: tuple[Any, ...], aid: int) -> None:
        self.stack.pop()
        solo.move_to_room(self, f[3], A.RIVAL_ROOM_OF[aid])

    def _do_rival_garden(self, f: tuple[Any, ...], aid: int) -> None:
        self.stack.pop()
        solo.place_gardener(self, A.RIVAL_GARDEN_OF[aid])

    def why_illegal(self, aid: int) -> str:
        """A message saying why an action id is not legal now."""
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

    # ------------------------------------------------------------------ applying

    def _do(self, aid: int) -> None:
        f = self.stack[-1]
        p = f[1]
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
        _DO[f[0]](self, f, aid)

    def _replace(self, frame: tuple[Any, ...] | None) -> None:
        """Replace the top frame (or pop it when frame is None)."""
        if frame is None:
            self.stack.pop()
        else:
            self.stack[-1] = frame

    def _do_draft(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
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

    def _do_take(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
        b, end = A.TAKE_OF[aid]
        dice = self.bridges[b]
        left = end == 0 if len(dice) >= 2 else self.lone_left[b]
        if len(dice) == 2:
            self.lone_left[b] = not left
        v = dice.pop(0) if left else dice.pop()
        self.held = (b, v, left)
        self.stack[-1] = ("place", p)
        self.log(f"{self.name(p)} takes the {COLOURS[b]} {v} from the "
                 f"{'left' if left else 'right'} end")

    def _do_place(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
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
        self.log(f"{self.name(p)} places the {COLOURS[b]} {v} on {A.SPACES[s]}"
                 + (f", paying {cost} coin{'s' if cost > 1 else ''}" if cost > 0 else
                    f", gaining {-cost} coin{'s' if cost < -1 else ''}" if cost < 0 else ""))
        # Space action(s) first on the stack, the Lantern reward above them (it comes first).
        if s < 5:
            opts = tuple((s, i) for i, col in enumerate(self.room_tiles[s]) if col == b)
            self.stack.append(("blocks", p, opts, True, True, A.SPACES[s]))
        elif s < 7:
            self.stack.append(("outside", p, self.data.outside[s - 5]))
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
            self.stack.append(("lantern", p))

    def _push_well(self, p: int) -> None:
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
                self.stack.append(("blocks", p, ((-1, i),), False, True, f"{row} card block"))
                break
        uncovered = 5 - c.left[colour]
        visible = (self.data.domain_visible[COLOURS[colour]],) + \
            self.data.domain_cells[COLOURS[colour]][:uncovered]
        self._push_effects(p, visible, f"the {COLOURS[colour]} row")

    def _push_effects(self, p: int, effects: tuple[Effect, ...], label: str) -> None:
        if effects:
            self.stack.append(("effects", p, tuple(effects), label))

    def _do_effects(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
        if aid == A.DONE:
            self.stack.pop()
            self.log(f"{self.name(p)} declines the rest of {f[3]}")
            return
        self._take_effect(f, A.EFFECT_OF[aid])

    def _take_effect(self, f: tuple[Any, ...], k: int) -> None:
        effects: tuple[Effect, ...] = f[2]
        rest = effects[:k] + effects[k + 1:]
        self._replace(("effects", f[1], rest, f[3]) if rest else None)
        self._resolve(f[1], effects[k])

    def _resolve(self, p: int, e: Effect) -> None:
        """Perform one effect (pushing frames for any decision it needs)."""
        kind = e[0]
        if kind == "gain":
            self._gain(p, e[1])
            self.log(f"{self.name(p)} gains {effect_text(e)}")
        elif kind == "choice":
            self.stack.append(("choice", p, e[1]))
        elif kind == "pay":
            self.stack.append(("pay", p, e[1], e[2]))
        elif kind == "passage":
            self._move(p, e[1])
        elif kind == "lantern":
            self.stack.append(("lantern", p))
        elif kind == "well":
            self._push_well(p)
        elif kind == "courtier":
            self.stack.append(("courtier", p, False, False))
        elif kind == "gardener":
            self.stack.append(("gardener", p))
        elif kind == "warrior":
            self.stack.append(("warrior", p))
        elif kind == "light":
            opts = tuple((r, i) for r in range(5)
                         for i, blk in enumerate(self.data.card(self.room_cards[r]).blocks)
                         if blk.light)
            self.stack.append(("blocks", p, opts, False, True, "a light-background action"))
        elif kind == "die_tile":
            col = e[1]
            opts = tuple((r, i) for r in range(5) for i, t in enumerate(self.room_tiles[r])
                         if col == "any" or COLOURS[t] == col)
            self.stack.append(("blocks", p, opts, False, True, effect_text(e)))
        elif kind == "domain":
            self.stack.append(("row", p))
        else:  # pragma: no cover - data validation rules this out
            raise ValueError(f"unknown effect {e!r}")

    def _resolve_block(self, p: int, opt: tuple[int, int]) -> None:
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

    def _do_choice(self, f: tuple[Any, ...], aid: int) -> None:
        p, n = f[1], f[2]
        r = A.GAIN_OF[aid]
        self._replace(("choice", p, n - 1) if n > 1 else None)
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
                    self.stack.append(("checkpoint", p, steps, cost))
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

    def _do_checkpoint(self, f: tuple[Any, ...], aid: int) -> None:
        p, steps, cost = f[1], f[2], f[3]
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

    def season(self, pos: int) -> int:
        """Season (1-4) of a Passage of Time position."""
        return 1 + sum(1 for cp in self.data.checkpoints if pos >= cp)

    def _do_blocks(self, f: tuple[Any, ...], aid: int) -> None:
        p, opts, multi = f[1], f[2], f[3]
        if aid == A.DONE:
            self.stack.pop()
            return
        opt = (-1, A.CARD_BLOCK_OF[aid]) if aid in A.CARD_BLOCK_OF else A.BLOCK_OF[aid]
        rest = tuple(o for o in opts if o != opt)
        self._replace((f[0], p, rest, multi, f[4], f[5]) if multi and rest else None)
        self._resolve_block(p, opt)

    def _do_outside(self, f: tuple[Any, ...], aid: int) -> None:
        self.stack.pop()
        if aid == A.DONE:
            return
        w = A.WORKER_OF[aid]
        self._resolve(f[1], (WORKERS[w],))

    def _do_warrior(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
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

    def _do_gardener(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
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

    def _do_courtier(self, f: tuple[Any, ...], aid: int) -> None:
        p, audience_done, climb_done = f[1], f[2], f[3]
        c = self.clans[p]
        if aid == A.DONE:
            self.stack.pop()
            return
        if aid == A.AUDIENCE:
            self._replace(None if climb_done else ("courtier", p, True, False))
            self._pay_coins(p, AUDIENCE_COINS)
            c.left[0] -= 1
            c.courtiers.append(0)
            self.log(f"{self.name(p)} pays 2 coins for an audience: a courtier to the Gate")
            return
        src, dst = A.CLIMB_OF[aid]
        self._replace(None if audience_done else ("courtier", p, False, True))
        floors = A.LOC_FLOOR[dst] - A.LOC_FLOOR[src]
        self._pay_res(p, 2, CLIMB_PEARL[floors])
        c.courtiers[c.courtiers.index(src)] = dst
        self.log(f"{self.name(p)} pays {CLIMB_PEARL[floors]} pearl: a courtier climbs from "
                 f"{A.LOCS[src]} to {A.LOCS[dst]}")
        if dst == 6:
            self.stack.append(("daimyo", p))
            self.stack.append(("lantern", p))
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
        self.stack.append(("blocks", p, opts, False, False, "one light-background action"))

    def _do_daimyo(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
        s = A.DAIMYO_OF[aid]
        self.stack.pop()
        self.daimyo_slots[s] = p
        effects = self.data.daimyo[self.daimyo_card][s]
        self.log(f"{self.name(p)} takes slot {s + 1} of the Daimyo's favour: "
                 + ", ".join(effect_text(e) for e in effects))
        self._push_effects(p, effects, f"Daimyo slot {s + 1}")

    def _do_row(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
        self.stack.pop()
        if aid == A.DONE:
            return
        colour = A.ROW_OF[aid]
        self.fired.append(colour)
        self.log(f"{self.name(p)} performs the {COLOURS[colour]} row as if with a 6")
        self._push_row(p, colour)

    def _do_pay(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
        self.stack.pop()
        if aid == A.DONE:
            self.log(f"{self.name(p)} does not pay for {effect_text(f[3])}")
            return
        self._pay(p, f[2])
        self.log(f"{self.name(p)} pays for {effect_text(f[3])}")
        self._resolve(p, f[3])

    def _do_garden_round(self, f: tuple[Any, ...], aid: int) -> None:
        p = f[1]
        g = A.GARDEN_OF[aid]
        rest = list(f[2])
        rest.remove(g)
        self._replace(("garden_round", p, tuple(rest)) if rest else None)
        card = self.data.gardens[self.garden_cards[g]]
        self.log(f"{self.name(p)}'s gardener on the {A.GARDEN_SLOTS[g]} garden activates")
        self._push_effects(p, card.effects, f"the {A.GARDEN_SLOTS[g]} garden")

    # ------------------------------------------------------------ automatic steps

    def _provides_consumes(self, p: int, e: Effect) -> tuple[frozenset[str], frozenset[str]]:
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

    def _auto_effect(self, f: tuple[Any, ...]) -> int | None:
        """Index of the effect to resolve without asking, or None if the order matters."""
        effects: tuple[Effect, ...] = f[2]
        first = effects[0]
        if all(e == first for e in effects):
            return 0
        pcs = [self._provides_consumes(f[1], e) for e in effects]
        for i in range(len(pcs)):
            for j in range(i + 1, len(pcs)):
                if pcs[i][0] & pcs[j][1] or pcs[j][0] & pcs[i][1]:
                    return None
        return 0

    def _auto(self, f: tuple[Any, ...]) -> bool:
        """Resolve the top frame without a decision if it needs none; True if it did."""
        kind = f[0]
        if kind in _ALWAYS_ASK:
            return False
        p = f[1]
        if kind == "effects":
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
                if kind == "pay":
                    self.log(f"{self.name(p)} cannot pay for {effect_text(f[3])}")
                elif kind == "blocks" and f[3]:
                    self.log(f"{self.name(p)} can use no block of {f[5]} (a seal is needed)")
                elif kind == "blocks":
                    self.log(f"{self.name(p)} cannot perform {f[5]}")
                elif not (kind == "courtier" and (f[2] or f[3])):
                    self.log(f"{self.name(p)} cannot perform the {kind} action")
                return True
            return False
        if kind == "daimyo":
            if all(s is not None for s in self.daimyo_slots):
                self.stack.pop()
                self.log("every slot of the Daimyo's favour is taken")
                return True
            return False
        if kind == "garden_round":
            if len(f[2]) == 1:
                self._do_garden_round(f, A.GARDEN[f[2][0]])
                return True
            return False
        if kind == "rival_turn":
            self.stack.pop()
            icons = solo.rival_turn(self)
            if icons:
                self.stack.append(("rival_actions", p, icons))
            return True
        if kind == "rival_actions":
            icons = f[2]
            self._replace(("rival_actions", p, icons[1:]) if len(icons) > 1 else None)
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
                self.stack.append(("draft", self.order[self.n - 1 - picked]))
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
        p = self.order[self.turn_idx % self.n]
        self.fired = []
        if p == self.rival:
            self.stack.append(("rival_turn", self.human))
        else:
            self.stack.append(("take", p))

    def turn_order_now(self) -> list[int]:
        """Turn order by the Passage of Time: farthest first, ties: top of the stack first."""
        return sorted(range(self.n), key=lambda q: (-self.clans[q].pos, -self.clans[q].seq))

    def _end_round(self) -> bool:
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
                self.stack.append(("garden_round", q, tuple(acts[q])))
        return True

    def _prepare_round(self) -> None:
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

    # --------------------------------------------------------------------- scoring

    def scores(self) -> list[dict[str, int]]:
        """Per seat: clan points by category and 'total' (final once the game is over)."""
        d = self.data
        out = []
        for q, c in enumerate(self.clans):
            inside = sum(1 for loc in c.courtiers if loc > 0)
            stores = q != self.rival  # the rival's coins were scored each round
            row = {
                "during_game": c.cp,
                "coins_seals": (c.coins + c.seals) // 5 if stores else 0,
                "resources": sum(2 if r >= 7 else 1 if r >= 3 else 0 for r in c.res)
                if stores else 0,
                "passage_of_time": d.passage_cp[c.pos],
                "courtiers": sum(COURTIER_CP[loc] for loc in c.courtiers),
                "warriors": sum(d.yard_values[y] for y in c.warriors) * inside,
                "gardeners": 0,
            }
            out.append(row)
        for g in range(6):
            cp = d.gardens[self.garden_cards[g]].cp
            for q in self.garden_workers[g]:
                out[q]["gardeners"] += cp
        for row in out:
            row["total"] = sum(row.values())
        return out

    def winners(self) -> list[int]:
        """The winner after the tie-break (higher in the final turn order), once over."""
        if not self.is_over():
            return []
        totals = [s["total"] for s in self.scores()]
        best = max(totals)
        return [next(q for q in self.order if totals[q] == best)]

    # ------------------------------------------------------------ views and JSON

    def decision_text(self) -> str:
        """What is being decided now, in words."""
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

    def describe(self, aid: int) -> str:
        """What an action id would do now, in words (the notation says which; this says what)."""
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

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything public (the same for every seat: no hand is secret in this game).

        Hidden: the order of the castle and Solitaire decks, the RNG and the seed."""
        d = self.to_json()
        d.pop("rng")
        d.pop("seed")  # the seed fixes every shuffle and roll: it would reveal the decks
        d["steward_deck"] = len(self.steward_deck)
        d["diplomat_deck"] = len(self.diplomat_deck)
        d["solo_deck"] = len(self.solo_deck)
        d["seat"] = seat
        d["to_move"] = self.to_move
        d["decision"] = self.decision_text()
        d["scores"] = self.scores()
        d["turn_order"] = self.order
        return d

    def determinize(self, seat: int | None, rng: Rng | random.Random) -> WhiteCastleState:
        """A copy with the hidden parts (castle deck orders, future dice) re-sampled."""
        s = self.clone()
        rng.shuffle(s.steward_deck)
        rng.shuffle(s.diplomat_deck)
        rng.shuffle(s.solo_deck)
        s.rng = Rng.drawn_from(rng)
        return s

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-compatible data."""
        return {
            "game": "white-castle",
            "players": self.n,
            "seed": self.seed,
            "options": dict(self.options),
            "clans": [c.to_json() for c in self.clans],
            "bridges": [b[:] for b in self.bridges],
            "lone_left": self.lone_left[:],
            "spaces": [[list(x) for x in sp] for sp in self.spaces],
            "room_cards": self.room_cards[:],
            "room_tiles": [list(t) for t in self.room_tiles],
            "steward_deck": self.steward_deck[:],
            "diplomat_deck": self.diplomat_deck[:],
            "well_tiles": list(self.well_tiles),
            "daimyo_card": self.daimyo_card,
            "daimyo_slots": self.daimyo_slots[:],
            "garden_cards": self.garden_cards[:],
            "garden_workers": [g[:] for g in self.garden_workers],
            "yard_effects": _listify(self.yard_effects),
            "round": self.round,
            "order": self.order[:],
            "turn_idx": self.turn_idx,
            "phase": self.phase,
            "draft_pairs": [list(x) if x else None for x in self.draft_pairs],
            "held": list(self.held) if self.held else None,
            "fired": self.fired[:],
            "stack": _listify(self.stack),
            "rng": self.rng.state,
            "events": self.events[:],
            "history": self.history[:],
            "seq_counter": self.seq_counter,
            "placements": self.placements[:],
            "rival": self.rival,
            "solo_deck": self.solo_deck[:],
            "discarded": self.discarded[:],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], data: WCData) -> WhiteCastleState:
        """Rebuild from to_json output."""
        try:
            s = cls.__new__(cls)
            s.data = data
            s.n = int(d["players"])
            s.seed = int(d["seed"])
            s.options = dict(d["options"])
            s.clans = [Clan.from_json(c) for c in d["clans"]]
            s.bridges = [[int(v) for v in b] for b in d["bridges"]]
            s.lone_left = [bool(x) for x in d["lone_left"]]
            s.spaces = [[(int(x[0]), int(x[1])) for x in sp] for sp in d["spaces"]]
            s.room_cards = [str(x) for x in d["room_cards"]]
            s.room_tiles = [tuple(int(c) for c in t) for t in d["room_tiles"]]
            s.steward_deck = list(d["steward_deck"])
            s.diplomat_deck = list(d["diplomat_deck"])
            s.well_tiles = (d["well_tiles"][0], d["well_tiles"][1])
            s.daimyo_card = d["daimyo_card"]
            s.daimyo_slots = list(d["daimyo_slots"])
            s.garden_cards = list(d["garden_cards"])
            s.garden_workers = [list(g) for g in d["garden_workers"]]
            s.yard_effects = [_tuplify(y) for y in d["yard_effects"]]
            s.round = int(d["round"])
            s.order = [int(x) for x in d["order"]]
            s.turn_idx = int(d["turn_idx"])
            s.phase = str(d["phase"])
            s.draft_pairs = [(x[0], x[1]) if x else None for x in d["draft_pairs"]]
            s.held = (int(d["held"][0]), int(d["held"][1]), bool(d["held"][2])) \
                if d["held"] else None
            s.fired = [int(x) for x in d["fired"]]
            s.stack = [_tuplify(f) for f in d["stack"]]
            s.rng = Rng(int(d["rng"]))
            s.events = list(d["events"])
            s.history = [int(x) for x in d["history"]]
            s.seq_counter = int(d["seq_counter"])
            s.placements = [int(x) for x in d["placements"]]
            s.rival = None if d["rival"] is None else int(d["rival"])
            s.solo_deck = [str(x) for x in d["solo_deck"]]
            s.discarded = [str(x) for x in d["discarded"]]
            s._legal = None
            check_state(s)  # the values fit together (RecordError naming what does not)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RecordError(f"not a White Castle state: {type(exc).__name__}: {exc}") from None
        return s

    def dumps(self) -> str:
        """Canonical JSON text (for byte-identical comparisons)."""
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))


# Frame kind -> its legal-action and apply methods (built once; no string lookups per move).
_KINDS = ("draft", "take", "place", "effects", "choice", "checkpoint", "blocks", "outside",
          "warrior", "gardener", "courtier", "daimyo", "row", "pay", "garden_round",
          "rival_room", "rival_garden")
_LEGAL = {k: getattr(WhiteCastleState, "_legal_" + k) for k in _KINDS}
_DO = {k: getattr(WhiteCastleState, "_do_" + k) for k in _KINDS}
# Frames that are always a real decision (never resolved by _auto).
_ALWAYS_ASK = frozenset({"draft", "take", "place", "choice", "checkpoint", "outside", "row",
                         "rival_room", "rival_garden"})
