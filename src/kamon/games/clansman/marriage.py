"""Marriage: where each seat's daughter may go (R12, R14) and what marrying there costs."""

from __future__ import annotations

from kamon.games.clansman import actions as A
from kamon.games.clansman.base import StateBase
from kamon.games.clansman.data import KOCHISEI


class MarriageRules(StateBase):
    """The marry decision."""

    __slots__ = ()

    def marriage_targets(self, p: int) -> list[tuple[int, str]]:
        """(owner, card id) of every card p's daughter may go to now (R12, R14)."""
        occupied = {d for d in self.daughters if d is not None}
        allow_k = self.data.rules.kochisei_marriageable
        out = []
        pay = self.players[p].tadokoro >= 1
        for q, pl in enumerate(self.players):
            if q != p and not pay:
                continue
            for cid in pl.clans:
                if (q, cid) not in occupied and (allow_k or cid != KOCHISEI):
                    out.append((q, cid))
        if pay:
            out.extend((-1, face) for face in self.princes if (-1, face) not in occupied)
        return out

    def _legal_marry(self) -> list[int]:
        """Marriage targets of the seat to move, as sorted action ids."""
        p = self.to_move
        assert p is not None
        marry = A.MARRY
        kochisei = A.MARRY_KOCHISEI
        return sorted(kochisei[q] if cid == KOCHISEI else marry[cid]
                      for q, cid in self.marriage_targets(p))

    def _do_marry(self, aid: int) -> None:
        """Place the daughter and pay the dowry (to the groom's father or the Miyake row)."""
        p = self.to_move
        assert p is not None
        q, cid = self.target_of(A.MARRY_OF[aid])
        self.daughters[p] = (q, cid)
        pl = self.players[p]
        who = self.name(p)
        if q == p:
            self.log(f"{who}'s daughter marries into her father's own {self.card_name(cid)} "
                     "(free)")
        elif q >= 0:
            pl.tadokoro -= 1
            self.players[q].tadokoro += 1
            self.log(f"{who}'s daughter marries into {self.name(q)}'s "
                     f"{self.card_name(cid)}; {who} pays 1 Tadokoro to {self.name(q)}")
        else:
            pl.tadokoro -= 1
            self.miyake_row += 1
            self.log(f"{who}'s daughter marries a Royal Prince ({self.card_name(cid)}); "
                     f"{who} pays 1 Tadokoro to the Miyake row")
            self._flip_miyake()
        self.turn += 1
