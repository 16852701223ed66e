"""What a choice would leave a clan able to do, for the words of the choice (explain.py):
payments made partly by exchanging Daimyo seals, worker actions that could not be
performed, "pay a seal" blocks the clan could not pay, gains lost at a store's limit.

Each question is answered on a copy of the state with the clan's stores as they would be
(`what_if`), through the same rules the engine plays by (`can_pay_coins`, `climbs`,
`gardener_slots`, `warrior_yards`, `_can_pay`), so the words cannot say what the play
would not do.
"""

from __future__ import annotations

from collections.abc import Iterable

from kamon.games.white_castle.base import UNLOGGED, StateBase
from kamon.games.white_castle.clan import MAX_RESOURCE, MAX_SEALS, RES_INDEX
from kamon.games.white_castle.data import RESOURCES, Effect
from kamon.games.white_castle.effects import effect_text
from kamon.games.white_castle.workers import AUDIENCE_COINS

WORKER_KINDS = ("courtier", "gardener", "warrior")


def seals_words(n: int) -> str:
    """'1 Daimyo seal' / '3 Daimyo seals'."""
    return f"{n} Daimyo seal{'s' if n != 1 else ''}"


class Outlook(StateBase):
    """What-if questions about a clan's stores, answered by the rules on a copy."""

    __slots__ = ()

    def what_if(self, p: int, gains: Iterable[tuple[str, int]] = (), coins: int = 0,
                res: tuple[int, int] | None = None) -> StateBase:
        """A log-less copy of the state in which p paid `coins` (and `res`: (resource,
        amount)), exchanging seals for a shortfall as the engine does, then gained
        `gains`."""
        s = self.clone()  # type: ignore[attr-defined]
        s.events = UNLOGGED
        if coins > 0:
            s._pay_coins(p, coins)
        if res is not None and res[1] > 0:
            s._pay_res(p, res[0], res[1])
        s._gain(p, gains)
        return s

    def pay_coins_words(self, p: int, n: int) -> str:
        """'pay 3 coins', saying which part seals exchanged 1 for 1 would pay."""
        words = f"pay {n} coin{'s' if n != 1 else ''}"
        short = n - self.clans[p].coins
        if short > 0:
            words += f" ({short} of them by exchanging {seals_words(short)})"
        return words

    def pay_res_words(self, p: int, r: int, n: int) -> str:
        """'pay 5 iron', saying which part seals exchanged 2 for 1 would pay."""
        words = f"pay {n} {RESOURCES[r]}"
        short = n - self.clans[p].res[r]
        if short > 0:
            words += f" ({short} of it by exchanging {seals_words(2 * short)})"
        return words

    @staticmethod
    def can_perform(s: StateBase, p: int, kind: str) -> bool:
        """Whether p could perform a worker action in state `s` (the engine's frames would
        offer more than 'done')."""
        if kind == "courtier":
            c = s.clans[p]
            return bool(c.left[0] and s.can_pay_coins(p, AUDIENCE_COINS)) \
                or bool(s.climbs(p))  # type: ignore[attr-defined]
        if kind == "gardener":
            return bool(s.gardener_slots(p))  # type: ignore[attr-defined]
        return bool(s.warrior_yards(p))  # type: ignore[attr-defined]

    def effect_words(self, s: StateBase, p: int, e: Effect) -> str:
        """An effect in words, saying so when in state `s` p could not pay it or could
        not perform its worker action."""
        text = effect_text(e)
        kind = e[0]
        if kind == "pay":
            if not s._can_pay(p, e[1]):
                return f"{text} — you cannot pay it"
            inner = e[2]
            if inner[0] in WORKER_KINDS:
                after = s.clone()  # type: ignore[attr-defined]
                after.events = UNLOGGED
                after._pay(p, e[1])
                if not self.can_perform(after, p, inner[0]):
                    return f"{text} — once paid, you cannot perform it"
            return text
        if kind in WORKER_KINDS and not self.can_perform(s, p, kind):
            return f"{text} — you cannot perform it"
        return text

    def effects_words(self, s: StateBase, p: int, effects: tuple[Effect, ...]) -> str:
        """A set of effects in words, each with what p could not do in state `s`."""
        return "; ".join(self.effect_words(s, p, e) for e in effects) or "nothing"

    def lost_words(self, p: int, gains: Iterable[tuple[str, int]]) -> str:
        """What of `gains` p would lose at a store's limit (7 of a resource, 5 seals),
        as ' — 1 food is lost (at most 7)', or ''."""
        c = self.clans[p]
        lost = []
        for kind, n in gains:
            if kind == "seal":
                over = c.seals + n - MAX_SEALS
                limit = MAX_SEALS
            elif kind in RES_INDEX:
                over = c.res[RES_INDEX[kind]] + n - MAX_RESOURCE
                limit = MAX_RESOURCE
            else:
                continue
            if over > 0:
                k = min(over, n)
                what = ("seal" if k == 1 else "seals") if kind == "seal" else kind
                lost.append(f"{k} {what} {'is' if k == 1 else 'are'} lost (at most {limit})")
        return (" — " + ", ".join(lost)) if lost else ""

    def best_gains(self, p: int, effects: Iterable[Effect]) -> list[tuple[str, int]]:
        """Everything `effects` could give p at best (a resource of choice counted as each
        resource; the Lantern reward's and the Well's gains included): for saying that
        something could not be done in any order."""
        out: list[tuple[str, int]] = []
        for e in effects:
            kind = e[0]
            if kind == "gain":
                out.extend(e[1])
            elif kind == "choice":
                out.extend((r, e[1]) for r in RESOURCES)
            elif kind == "lantern":
                out.extend(self.lantern_gains(p))
            elif kind == "well":
                out.append(("seal", 1))
                for t in self.well_tiles:
                    out.extend(self.best_gains(p, self.data.die_tiles[t][1]))
        return out

    def lantern_gains(self, p: int) -> list[tuple[str, int]]:
        """The gains of p's Lantern reward (every icon of the Lantern Area is a gain)."""
        out: list[tuple[str, int]] = []
        for icon in self.lantern_icons(p):
            if icon[0] == "gain":
                out.extend(icon[1])
        return out
