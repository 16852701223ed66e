"""The round sequence: dispatch by decision step, Marriage to Production to Cleanup, the
century-end Emperor cards, and the next round's Preparation.

`_LEGAL` and `_DO` map a step to its methods once, at import, so a move costs no
string lookups.
"""

from __future__ import annotations

from kamon.games.clansman import scoring
from kamon.games.clansman.data import VOLATILE
from kamon.games.clansman.marriage import MarriageRules
from kamon.games.clansman.production import ProductionRules

STEPS = ("marry", "produce", "payment", "hand", "")


class Rounds(MarriageRules, ProductionRules):
    """Dispatch, the steps between decisions, Cleanup and Preparation."""

    __slots__ = ()

    def _compute_legal(self) -> list[int]:
        """The legal ids of the decision now (dispatch by step)."""
        if self.phase == "over":
            return []
        return _LEGAL[self.step](self)

    def _do(self, aid: int) -> None:
        """Perform a legal action at the current step."""
        _DO[self.step](self, aid)

    def _advance(self) -> None:
        """Run everything that needs no decision until a seat must decide (or the end)."""
        while True:
            if self.phase == "marriage":
                if self.turn >= self.n:
                    self.phase = "production"
                    self.turn = 0
                    self._start_production_turn()
                    continue
                p = self.to_move
                assert p is not None
                # With a Tadokoro to pay, some card is always free (<= 3 other daughters).
                if self.players[p].tadokoro < 1 and not self.marriage_targets(p):
                    self.daughters[p] = None
                    self.log(f"{self.name(p)}'s daughter has no card to marry into and stays "
                             "home (R12)")
                    self.turn += 1
                    continue
                self.step = "marry"
                return
            if self.phase == "production" and self.turn >= self.n and self._cleanup():
                continue
            return

    def _cleanup(self) -> bool:
        """Cleanup (daughters back, Emperor effects, marker); then the next round or the end."""
        rules = self.data.rules
        r = self.round
        self.daughters = [None] * self.n
        self.used = []
        self.pool = [0] * VOLATILE
        self.usable = []
        if self.expert and r in rules.century_end_rounds:
            self._century_end()
        if (self.small_table and self.n == 3) or r not in rules.no_pass_rounds:
            self.start = (self.start + 1) % self.n
        if r >= rules.rounds:
            self.phase = "over"
            self.step = ""
            sc = self.scores()
            self.log("final scores: " + ", ".join(
                f"{self.name(q)} {sc[q]['total']}" for q in range(self.n)))
            return False
        self.round += 1
        self._prepare()
        return True

    def _century_end(self) -> None:
        """The century's Emperor card at its end-of-century Cleanup (R25, R26, R29)."""
        face = self.emperors[self.century - 4]
        card = self.data.cards[face]
        eff = card.effect
        if eff is None:
            return
        if eff[0] == "award":
            winner = scoring.majority(self, eff[1])
            self.emperor_centre.remove(face)
            if winner is None:
                self.set_aside.append(face)
                self.log(f"{card.label}: nobody leads in {eff[1].capitalize()} VPs alone; "
                         "nobody obtains it")
                return
            pl = self.players[winner]
            if eff[4]:
                pl.clans.append(face)
            else:
                pl.emperors.append(face)
            self.log(f"{self.name(winner)} leads in {eff[1].capitalize()} VPs and obtains "
                     f"{card.label}" + (" (into the Clan cards row)" if eff[4] else ""))
        elif eff[0] == "levy":
            for i in range(self.n):
                q = (self.start + i) % self.n
                pl = self.players[q]
                k = min(eff[1], pl.tadokoro)
                if k:
                    pl.tadokoro -= k
                    self.miyake_row += k
                    self.log(f"{card.label}: {self.name(q)} places {k} Tadokoro in the "
                             "Miyake row")
                    self._flip_miyake()
                else:
                    self.log(f"{card.label}: {self.name(q)} has no Tadokoro and pays nothing")

    def _prepare(self) -> None:
        """Preparation: refill the Supply (R09); flip the Royal Princes in round 9 (R33)."""
        rules = self.data.rules
        r = self.round
        c = self.century
        first = r == 1 or rules.century_of_round[r - 1] != c
        if first and self.supply:
            self.discard.extend(self.supply)
            self.log(f"the Supply is discarded: {', '.join(self.supply)}")
            self.supply = []
        k = rules.draw_first if first else rules.draw_other
        pile = self.piles[c - 4]
        drawn = [pile.pop() for _ in range(min(k, len(pile)))]
        self.supply.extend(drawn)
        self.log(f"round {r} ({c}th century), start player {self.name(self.start)}: "
                 f"{len(drawn)} card(s) to the Supply: " + ", ".join(drawn))
        if first and c >= 6 and self.princes != list(self.data.princes_late):
            self.princes = list(self.data.princes_late)
            self.log("the Royal Princes flip to their 6th-7th Century sides")
        self.phase = "marriage"
        self.turn = 0
        self.step = "marry"


# Decision step -> its legal-action and apply methods (built once; no lookups per move).
_LEGAL = {k: getattr(Rounds, "_legal_" + k) for k in STEPS if k}
_DO = {k: getattr(Rounds, "_do_" + k) for k in STEPS if k}
