"""A clan's pieces and stores, and the limits the rulebook sets on them."""

from __future__ import annotations

from typing import Any

CLANS = ("blue", "yellow", "red", "green")
MAX_SEALS = 5
MAX_RESOURCE = 7
MAX_PASSAGE = 20
RES_INDEX = {"food": 0, "iron": 1, "pearl": 2}


class Clan:
    """One player's pieces and stores."""

    __slots__ = ("coins", "seals", "cp", "res", "left", "courtiers", "warriors", "card",
                 "lantern", "pos", "seq", "domain")

    def __init__(self) -> None:
        """A clan as set up: empty stores, 5 workers of each kind in the domain."""
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
