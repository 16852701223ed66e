"""I, Clansman's Victory Points: the breakdown by VP colour and source, and majorities.

Every category key is '<colour>_<source>' (military_missions, religion_statues,
religion_kofun_mirrors, others_emperors, government_jito, ...), except 'mirrors',
the colourless Beginner Mirror VPs; the categories add up to the total. The
categories a game has depend only on its options (Beginner or Expert, which
Emperor faces are in play), so every seat's breakdown has the same keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kamon.games.clansman.data import VP_COLOURS

if TYPE_CHECKING:
    # The state's fields (ClansmanState is one; base.py and rounds.py call in here).
    from kamon.games.clansman.base import StateBase

GAME_END_KINDS = ("vp_per_mission", "vp_per_statue")


def has_temple(state: StateBase, p: int) -> bool:
    """True if p owns a temple Clan card (601 or 602 by R21): Statues then score."""
    enablers = state.data.rules.statue_vp_enablers
    return any(cid in enablers for cid in state.players[p].clans)


def category_keys(state: StateBase) -> list[str]:
    """The score categories of this game (fixed by its options), in display order."""
    keys = [f"{c}_missions" for c in VP_COLOURS]
    keys.insert(2, "religion_statues")
    if not state.expert:
        keys.append("mirrors")
        return keys
    keys[2:2] = ["religion_kofun", "religion_kofun_mirrors"]
    keys.append("others_emperors")
    for face in state.emperors:
        eff = state.data.cards[face].effect
        if eff is not None and eff[0] == "vp_per_mission":
            keys.append(f"{eff[2]}_jito")
        elif eff is not None and eff[0] == "vp_per_statue":
            keys.append(f"{eff[1]}_shotoku")
    return keys


def breakdown(state: StateBase, p: int, game_end: bool = True) -> dict[str, int]:
    """p's VPs by category (game-end Emperor effects only when `game_end`)."""
    d = state.data
    cards = d.cards
    pl = state.players[p]
    row = dict.fromkeys(category_keys(state), 0)
    for cid in pl.missions:
        c = cards[cid]
        key = f"{c.vp_colour}_missions"
        row[key] = row.get(key, 0) + c.vp
    if has_temple(state, p):
        row["religion_statues"] = pl.statue * d.rules.vp_per_statue
    if not state.expert:
        row["mirrors"] = pl.mirror * d.rules.beginner_vp_per_mirror
        return row
    if pl.kofun is not None:
        k = cards[pl.kofun]
        row["religion_kofun"] = k.vp
        row["religion_kofun_mirrors"] = pl.kofun_mirrors * k.mirror_vp_each
    for face in pl.emperors:
        eff = cards[face].effect
        if eff is not None and eff[0] == "award":
            row["others_emperors"] += eff[3]
    if game_end:
        for face in state.emperors:
            eff = cards[face].effect
            if eff is None:
                continue
            if eff[0] == "vp_per_mission":
                n = sum(1 for cid in pl.missions if cards[cid].vp_colour == eff[1])
                row[f"{eff[2]}_jito"] = n * eff[3]
            elif eff[0] == "vp_per_statue" and (not eff[3] or has_temple(state, p)):
                row[f"{eff[1]}_shotoku"] = pl.statue * eff[2]
    return row


def colour_vp(state: StateBase, p: int) -> dict[str, int]:
    """p's VPs of each colour during the game (R26: what century-end majorities compare)."""
    out = dict.fromkeys(VP_COLOURS, 0)
    for key, v in breakdown(state, p, game_end=False).items():
        colour = key.split("_", 1)[0]
        if colour in out:
            out[colour] += v
    return out


def majority(state: StateBase, colour: str) -> int | None:
    """The single strict leader in `colour` VPs (None on a tie for most or all zero)."""
    vps = [colour_vp(state, p)[colour] for p in range(state.n)]
    best = max(vps)
    if best <= 0 or vps.count(best) > 1:
        return None
    return vps.index(best)
