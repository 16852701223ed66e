"""Clan points: the score breakdown by category and the winner after the tie-break."""

from __future__ import annotations

from kamon.games.white_castle.base import StateBase

COURTIER_CP = (1, 3, 3, 3, 6, 6, 10)


class Scoring(StateBase):
    """Scores (final once the game is over) and winners."""

    __slots__ = ()

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
