"""The White Castle state's fields and the plain queries and bookkeeping every rule uses.

`StateBase` declares every field of a game (the slots `WhiteCastleState` fills), the
protocol's simple properties, the log, and gaining from and paying out of a clan's
stores (a shortfall covered by the Daimyo-seal exchanges). The rule mixins build on it:
effects.py, placement.py, workers.py, scoring.py, turns.py, explain.py; state.py
assembles them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kamon.core.protocol import DecisionState
from kamon.core.rng import Rng
from kamon.games.white_castle import actions as A
from kamon.games.white_castle import solo
from kamon.games.white_castle.clan import CLANS, MAX_RESOURCE, MAX_SEALS, RES_INDEX, Clan
from kamon.games.white_castle.data import RESOURCES, Effect, WCData
from kamon.games.white_castle.frames import Frame
from kamon.games.white_castle.names import words


class _Unlogged(list[str]):
    """The log of a search copy: always empty, and its copies are itself (see UNLOGGED)."""

    __slots__ = ()

    def __getitem__(self, index: Any) -> Any:
        """A slice (a copy) is this same empty log; there is nothing to index."""
        return self if isinstance(index, slice) else list.__getitem__(self, index)

    def copy(self) -> _Unlogged:
        """The same empty log."""
        return self

    def append(self, item: Any) -> None:
        """Nothing is kept (the one shared instance stays empty)."""

    def extend(self, items: Any) -> None:
        """Nothing is kept."""

    def insert(self, index: Any, item: Any) -> None:
        """Nothing is kept."""


# Search samples write no log: nobody reads it (MCTS ran 1.05-1.15x the iterations per
# CPU second without it). A state whose `events` is UNLOGGED skips log() (clones too).
UNLOGGED: list[str] = _Unlogged()


class StateBase(DecisionState):
    """A game's fields, simple queries, the log and the clans' stores (no rules of play)."""

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
    stack: list[Frame]
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
        return self.stack[-1].seat if self.stack else None

    def is_over(self) -> bool:
        """True once round 3 has ended."""
        return self.phase == "over"

    def name(self, p: int) -> str:
        """A seat's clan colour (for logs); the solo rival is the Tokugawa clan."""
        if p == self.rival:
            return solo.RIVAL_NAME
        return CLANS[p] if p < len(CLANS) else f"seat{p + 1}"

    def log(self, text: str) -> None:
        """Append an event (none to a search copy's UNLOGGED log)."""
        events = self.events
        if events is not UNLOGGED:
            events.append(words(text))

    def _gain(self, p: int, gains: Iterable[tuple[str, int]]) -> None:
        """Add gains to p's stores (seals capped at 5, resources at 7, coins unlimited)."""
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
        """Pay n coins, exchanging seals 1 -> 1 for any shortfall (checked payable before)."""
        c = self.clans[p]
        if c.coins < n:
            short = n - c.coins
            c.seals -= short
            c.coins += short
            self.log(f"{self.name(p)} exchanges {short} seal{'s' if short > 1 else ''} for coins")
        c.coins -= n

    def _pay_res(self, p: int, r: int, n: int) -> None:
        """Pay n of resource r, exchanging seals 2 -> 1 for any shortfall."""
        c = self.clans[p]
        if c.res[r] < n:
            short = n - c.res[r]
            c.seals -= 2 * short
            c.res[r] += short
            self.log(f"{self.name(p)} exchanges {2 * short} seals for {short} {RESOURCES[r]}")
        c.res[r] -= n

    def _can_pay(self, p: int, cost: tuple[tuple[str, int], ...]) -> bool:
        """Whether p can pay a "pay to perform" cost (seals as seals, coins with spare seals)."""
        c = self.clans[p]
        coins = seals = 0
        for k, v in cost:
            if k == "coin":
                coins += v
            else:
                seals += v
        return c.seals >= seals and c.coins + (c.seals - seals) >= coins

    def _pay(self, p: int, cost: tuple[tuple[str, int], ...]) -> None:
        """Pay a "pay to perform" cost: its seals first, then its coins."""
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

    def season(self, pos: int) -> int:
        """Season (1-4) of a Passage of Time position."""
        return 1 + sum(1 for cp in self.data.checkpoints if pos >= cp)

    def turn_order_now(self) -> list[int]:
        """Turn order by the Passage of Time: farthest first, ties: top of the stack first."""
        return sorted(range(self.n), key=lambda q: (-self.clans[q].pos, -self.clans[q].seq))

    def _replace(self, frame: Frame | None) -> None:
        """Replace the top frame (or pop it when frame is None)."""
        if frame is None:
            self.stack.pop()
        else:
            self.stack[-1] = frame
