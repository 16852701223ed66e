"""A player's tableau (gozoku): Clan and Mission rows, hand, Hero, Kofun and item tokens."""

from __future__ import annotations

from typing import Any


class Gozoku:
    """One player's tableau, hand and item tokens."""

    __slots__ = ("tadokoro", "iron", "statue", "mirror", "kofun_mirrors", "clans", "missions",
                 "hand", "kofun", "hero", "emperors", "obtained")

    def __init__(self) -> None:
        """An empty tableau (setup fills it)."""
        self.tadokoro = 0
        self.iron = 0
        self.statue = 0
        self.mirror = 0  # Mirrors not under a Kofun
        self.kofun_mirrors = 0  # Mirrors put under the Kofun (Expert)
        self.clans: list[str] = []  # Clan cards row: '300', a starting clan, clans, 004
        self.missions: list[str] = []  # Mission cards row (obtained Missions only)
        self.hand: list[str] = []
        self.kofun: str | None = None
        self.hero: str | None = None
        self.emperors: list[str] = []  # awarded Emperor cards worth VPs (not 004)
        self.obtained: list[str] = []  # what was obtained, one entry per round

    def copy(self) -> Gozoku:
        """An independent copy."""
        g = Gozoku.__new__(Gozoku)
        g.tadokoro, g.iron, g.statue, g.mirror, g.kofun_mirrors = (
            self.tadokoro, self.iron, self.statue, self.mirror, self.kofun_mirrors)
        g.clans = self.clans[:]
        g.missions = self.missions[:]
        g.hand = self.hand[:]
        g.kofun, g.hero = self.kofun, self.hero
        g.emperors = self.emperors[:]
        g.obtained = self.obtained[:]
        return g

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible dict."""
        return {"tadokoro": self.tadokoro, "iron": self.iron, "statue": self.statue,
                "mirror": self.mirror, "kofun_mirrors": self.kofun_mirrors,
                "clans": self.clans[:], "missions": self.missions[:], "hand": self.hand[:],
                "kofun": self.kofun, "hero": self.hero, "emperors": self.emperors[:],
                "obtained": self.obtained[:]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Gozoku:
        """Inverse of to_json."""
        g = cls()
        g.tadokoro, g.iron, g.statue, g.mirror, g.kofun_mirrors = (
            int(d["tadokoro"]), int(d["iron"]), int(d["statue"]), int(d["mirror"]),
            int(d["kofun_mirrors"]))
        g.clans = [str(x) for x in d["clans"]]
        g.missions = [str(x) for x in d["missions"]]
        g.hand = [str(x) for x in d["hand"]]
        g.kofun = None if d["kofun"] is None else str(d["kofun"])
        g.hero = None if d["hero"] is None else str(d["hero"])
        g.emperors = [str(x) for x in d["emperors"]]
        g.obtained = [str(x) for x in d["obtained"]]
        return g
