"""A position evaluation of I, Clansman for the bots (greedy, and MCTS at a depth cutoff).

`values(state)` estimates every seat's final VPs from public information only:

- the VPs it would score now (`scores()`, which already counts Beginner Mirrors,
  Statues with a temple, Kofun and awarded Emperor cards);
- its engine, worth something in every round still to come (`rounds_after` =
  16 - round, since a card obtained now works from the next round): what its farms and
  clan cards produce in a round, in worker equivalents (GOOD_WORTH; each card once,
  the best gain first, spare workers up to RAW_CAP), turned into VPs with a saturating
  rate (`round_vp`: one card is obtained per round, so a bigger engine pays less and less);
- item tokens (Iron for missions and the tie-break, Statues, Mirrors that a Kofun may
  still take) and hand cards, at a share of their VPs;
- for the seat in the middle of its Production turn, the best way to finish it (below)
  instead of the goods in its pool, which vanish when the turn ends.

The turn planner (`best_finish`) works on goods, not on game states, so it is cheap:
from the pool, the item tokens and the cards still usable this turn (each once; a
temple only while its owner has a Statue; an unused Hero), it tries every combination
of card uses (memoised on the pool) and, at each, every card the seat could then obtain
(Supply, hand, Kofun, 2 or 1 Tadokoro) by every printed cost, valued as the change it
makes to the seat's value. It mirrors the rules' costs and yields but not every
subtlety (the Statue lock of R20 is approximated by keeping one Statue back).

`evaluate(state, seat)` also looks ahead for a seat whose Production turn this round is
still to come: the round is played on to that turn (the other seats by a fixed cheap
policy: marry their own first free card, obtain 1 Tadokoro; the seat's own marriage, if
still to come, likewise) and the turn is planned. That makes a marriage choice
meaningful. It then subtracts REL times the best other seat's value.

The engine, items and hand are weighed by `Weights`: greedy's are set by hand (GREEDY);
MCTS searches with SEARCH (`fresh_search_evaluation`), fitted to the final VPs of greedy
games, which measured stronger against three greedy.

MCTS puts priors on every tree node from `values()` (the mover's value minus REL times
the best other's: evaluate without the outlook, which would be too slow there); an
iteration then costs about `mcts_iteration_weight` times a plain one, which the levels'
iteration budgets account for.

`determinize` sorts the century piles before re-shuffling them, so a sample never
depends on their real order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kamon.core.rng import Rng
from kamon.games.clansman import actions as A
from kamon.games.clansman import scoring
from kamon.games.clansman.data import GOODS, IRON, MIRROR, STATUE, VOLATILE, Goods
from kamon.games.clansman.state import ClansmanState

RAW_CAP = 6  # plain workers beyond the cards' needs that a cost can still use


@dataclass(frozen=True)
class Weights:
    """What a seat's engine, item tokens and hand cards are worth in VPs."""

    vp_per_worth: float  # VPs per worker-equivalent produced in a round, before saturation
    saturation: float  # worker-equivalents at which a round's VPs are half the linear rate
    iron: float  # per Iron token
    statue: float  # per Statue token
    mirror_kofun: float  # per Mirror while a Kofun may still take it (Expert)
    hand: float  # per VP of a hand card (the best ones, at most one a round still to come)


# greedy's (and so the `normal` level's, and the plain values() and evaluate()): set by hand
GREEDY = Weights(vp_per_worth=0.6, saturation=10.0, iron=0.8, statue=0.5, mirror_kofun=1.2,
                 hand=0.25)
# MCTS's (`fresh_search_evaluation`: hard, expert): fitted by least squares to the final VPs
# of 1,500 greedy games (bench/fit_clansman_eval.py; the saturation kept, mirror_kofun
# unfitted: a Beginner game has no Kofun). Against three greedy it won 12 of 24 games
# where the hand-set weights won 7.5 (the same deals; see the ladder in docs/bots.md).
SEARCH = Weights(vp_per_worth=0.457, saturation=10.0, iron=0.93, statue=0.27,
                 mirror_kofun=1.2, hand=0.05)
REL = 0.5
PLAN_NODES = 3000  # cap on the card-use combinations one plan tries
# What a good is worth in workers (how many workers the cheapest common card turns into it).
GOOD_WORTH = {"worker": 1.0, "soldier": 2.0, "architect": 2.0, "monk": 3.0, "bureaucrat": 3.0,
              "cloth": 1.0, "fish": 1.0, "pork": 1.0, "pot": 1.0, "horse": 2.0, "iron": 2.0,
              "statue": 3.0, "mirror": 1.0}
WORTH = tuple(GOOD_WORTH[g] for g in GOODS)
greedy_depth = 1  # the evaluation plans the rest of a turn itself
mcts_tree_priors = True  # measured: 50% vs 3 greedy with, 3 of 8 without, at ~0.7-0.9 s a move
mcts_iteration_weight = 2.0


def _goods_worth(goods: Goods) -> float:
    """Worker equivalents of a tuple of (good, count)."""
    return sum(WORTH[g] * k for g, k in goods)


# Memories of pure functions of a card data set, keyed by the set's id (the set is kept
# alive in _DATA so that an id is never reused while its entries exist).
_DATA: dict[int, object] = {}
_USES: dict[tuple[int, str], tuple[int, float]] = {}
_PRODUCTION: dict[tuple[int, tuple[str, ...], int], float] = {}
MEMO_LIMIT = 100_000  # entries a memory keeps at most (then it starts again)


def _best_use(state: ClansmanState, cid: str) -> tuple[int, float]:
    """A card's best use: (workers it takes, worker-equivalents it yields); (0, 0) if none."""
    key = (id(state.data), cid)
    hit = _USES.get(key)
    if hit is not None:
        return hit
    _DATA[id(state.data)] = state.data
    best: tuple[int, float] | None = None
    for u in state.data.cards[cid].uses:
        workers = sum(k for g, k in u.inp if g == 0)
        out = _goods_worth(u.out)
        if best is None or (out - workers, out) > (best[1] - best[0], best[1]):
            best = (workers, out)
    found = best if best is not None else (0, 0.0)
    _USES[key] = found
    return found


def production(state: ClansmanState, clans: list[str], tadokoro: int) -> float:
    """Worker-equivalents a round yields from these clan cards and farms.

    Cards that yield more than they take are fed workers, best gain first (each card
    once a round); up to RAW_CAP workers left over still count (costs ask for plain
    workers too).
    """
    key = (id(state.data), tuple(clans), tadokoro)
    hit = _PRODUCTION.get(key)
    if hit is not None:
        return hit
    uses = sorted((_best_use(state, cid) for cid in clans),
                  key=lambda u: -(u[1] - u[0]) / max(1, u[0]))
    workers = tadokoro
    worth = 0.0
    for need, out in uses:
        if out > need and workers >= need:
            workers -= need
            worth += out
    worth += min(workers, RAW_CAP)
    if len(_PRODUCTION) >= MEMO_LIMIT:
        _PRODUCTION.clear()
    _PRODUCTION[key] = worth
    return worth


def round_vp(worth: float, w: Weights = GREEDY) -> float:
    """VPs a round's production brings, saturating (one card is obtained per round)."""
    return w.vp_per_worth * worth / (1.0 + worth / w.saturation)


def rounds_after(state: ClansmanState) -> int:
    """Rounds after the current one (an engine obtained now works in each of them)."""
    return max(0, state.data.rules.rounds - state.round)


def _engine(state: ClansmanState, clans: list[str], tadokoro: int,
            w: Weights = GREEDY) -> float:
    """VPs a seat's engine will still bring in the rounds after this one."""
    return rounds_after(state) * round_vp(production(state, clans, tadokoro), w)


def seat_value(state: ClansmanState, q: int, total: float | None = None,
               plan: bool = True, w: Weights = GREEDY) -> float:
    """Seat q's estimated final VPs (see the module docstring)."""
    if total is None:
        total = float(state.scores()[q]["total"])
    if state.is_over():
        return total
    v = standing(state, q, total, w)
    if plan and state.to_move == q and state.phase == "production":
        v += best_finish(state, q, w=w)
    return v


def standing(state: ClansmanState, q: int, total: float, w: Weights = GREEDY) -> float:
    """Seat q's value without the rest of a Production turn: VPs, engine, items, hand."""
    pl = state.players[q]
    cards = state.data.cards
    v = total + _engine(state, pl.clans, pl.tadokoro, w)
    v += w.iron * pl.iron + w.statue * pl.statue
    if _kofun_pending(state, q):
        v += w.mirror_kofun * pl.mirror
    hand = sorted((cards[cid].vp for cid in pl.hand), reverse=True)[:rounds_after(state)]
    v += w.hand * sum(hand)
    return v


def _kofun_pending(state: ClansmanState, q: int) -> bool:
    """Whether seat q may still put its Mirrors under a Kofun (Expert)."""
    return state.expert and state.players[q].kofun is None and bool(state.kofun)


def values(state: ClansmanState, w: Weights = GREEDY) -> list[float]:
    """Every seat's estimated final VPs (the seat mid-turn: after its best finish)."""
    totals = [float(s["total"]) for s in state.scores()]
    return [seat_value(state, q, totals[q], w=w) for q in range(state.n)]


# ----------------------------------------------------------------- the turn planner


def _item_cost(cost: Goods, w: Weights) -> float:
    """The value of the item tokens a cost spends."""
    v = 0.0
    for g, k in cost:
        if g == IRON:
            v += w.iron * k
        elif g == STATUE:
            v += w.statue * k
    return v


def _target_gains(state: ClansmanState, q: int,
                  w: Weights = GREEDY) -> list[tuple[str, Goods, float]]:
    """(card, cost, value gained) of everything q could obtain this turn, per printed cost."""
    pl = state.players[q]
    cards = state.data.cards
    rules = state.data.rules
    base_engine = _engine(state, pl.clans, pl.tadokoro, w)
    out: list[tuple[str, Goods, float]] = []
    eff = state.century_effect()
    targets = state.supply + pl.hand
    if state.expert and pl.kofun is None:
        targets = targets + state.kofun
    in_hand = set(pl.hand)
    for cid in targets:
        card = cards[cid]
        if card.type == "kofun":
            gain = card.vp + pl.mirror * (card.mirror_vp_each - w.mirror_kofun)
        elif card.type == "mission":
            gain = float(card.vp)
            for g, k in card.items:
                gain += k * (w.iron if g == IRON else w.statue if g == STATUE else
                             (w.mirror_kofun if _kofun_pending(state, q) else
                              rules.beginner_vp_per_mirror if not state.expert else 0.0)
                             if g == MIRROR else 0.0)
            if eff is not None and eff[0] == "bonus_on_obtain" and card.vp_colour == eff[1]:
                gain += sum(k * w.iron for g, k in eff[2] if g == IRON)
        else:
            gain = _engine(state, pl.clans + [cid], pl.tadokoro, w) - base_engine
        if cid in in_hand:
            gain -= w.hand * card.vp
        for cost in card.costs:
            out.append((cid, cost, gain - _item_cost(cost, w)))
    f_gain = _engine(state, pl.clans, pl.tadokoro + rules.f_tadokoro, w) - base_engine
    if state.supply:
        f_gain += w.hand * max(cards[c].vp for c in state.supply)
    out.append(("F", rules.f_cost, f_gain - _item_cost(rules.f_cost, w)))
    g_gain = _engine(state, pl.clans, pl.tadokoro + rules.g_tadokoro, w) - base_engine
    out.append(("G", rules.g_cost, g_gain))
    return out


def best_finish(state: ClansmanState, q: int,
                gains: list[tuple[str, Goods, float]] | None = None,
                w: Weights = GREEDY) -> float:
    """The most q's Production turn can still add to its value (card uses, then one obtain).

    `gains` is `_target_gains(state, q, w)` when the caller has it already."""
    if state.step == "hand":
        return 0.0  # the obtain is done; only the hand card is left to choose
    pl = state.players[q]
    uses = _card_uses(state, q)
    if gains is None:
        gains = _target_gains(state, q, w)
    # best first: the first affordable target is the best one
    targets = sorted(((gain, cost) for cid, cost, gain in gains
                      if state.step != "payment" or cid == state.pending),
                     key=lambda t: -t[0])
    pool = tuple(state.pool[:VOLATILE]) + (pl.iron, pl.statue - state.lock)
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    budget = [PLAN_NODES]
    last = len(uses)

    def best_obtain(have: tuple[int, ...]) -> float:
        """The best target affordable with `have`."""
        for gain, cost in targets:
            for g, k in cost:
                if have[g] < k:
                    break
            else:
                return gain
        return float("-inf")

    def search(i: int, have: tuple[int, ...]) -> float:
        """Best value using cards i.. (each at most once) and then obtaining."""
        key = (i, have)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if i == last or budget[0] <= 0:
            v = best_obtain(have)
            memo[key] = v
            return v
        budget[0] -= 1
        best = search(i + 1, have)
        for inp, out in uses[i]:
            for g, k in inp:
                if have[g] < k:
                    break
            else:
                nxt = list(have)
                for g, k in inp:
                    nxt[g] -= k
                for g, k in out:
                    if g < len(nxt):
                        nxt[g] += k
                v = search(i + 1, tuple(nxt))
                if v > best:
                    best = v
        memo[key] = best
        return best

    v = search(0, pool)
    return v if v > float("-inf") else 0.0


def _card_uses(state: ClansmanState, q: int) -> list[tuple[tuple[Goods, Goods], ...]]:
    """The ways q can still use each card this turn (inputs, outputs), in usable order."""
    pl = state.players[q]
    cards = state.data.cards
    needs = state.data.rules.needs_owner_statue
    uses: list[tuple[tuple[Goods, Goods], ...]] = []
    for key, owner, cid in state.usable:
        if key in state.used:
            continue
        if cid in needs and (owner < 0 or state.players[owner].statue < 1):
            continue
        lock: Goods = ((STATUE, 1),) if cid in needs and owner == q and \
            state.data.rules.statue_lock else ()
        opts = tuple((u.inp + lock, u.out) for u in cards[cid].uses)
        if opts:
            uses.append(opts)
    if pl.hero is None and state.heroes:
        uses.append(tuple(((), cards[h].uses[0].out) for h in state.heroes))
    return uses


# ------------------------------------------------------------------ the outlook


def _produced(state: ClansmanState, q: int) -> bool:
    """Whether seat q's Production turn of this round is over (or the game is)."""
    if state.is_over():
        return True
    if state.phase != "production":
        return False
    order = [(state.start + i) % state.n for i in range(state.n)]
    return order.index(q) < state.turn


def _default_move(state: ClansmanState) -> int:
    """The cheap policy of an outlook: marry an own free card; obtain 1 Tadokoro."""
    ids = state.legal_ids()
    p = state.to_move
    if state.step == "marry":
        own = [a for a in ids if a in A.MARRY_OF and state.target_of(A.MARRY_OF[a])[0] == p]
        return own[0] if own else ids[0]
    if A.OBTAIN_G in ids:
        return A.OBTAIN_G
    return ids[-1]


def _turn_ahead(state: ClansmanState, seat: int) -> ClansmanState | None:
    """The round played on to the seat's Production turn, if that is still to come."""
    if _produced(state, seat) or (state.phase == "production" and state.to_move == seat):
        return None
    s = state.clone()
    rnd = s.round
    for _ in range(4 * s.n):
        if s.is_over() or s.round != rnd or (s.phase == "production" and s.to_move == seat):
            break
        s.apply(_default_move(s))
    if s.is_over() or s.round != rnd or s.to_move != seat:
        return None
    return s


def outlook(state: ClansmanState, seat: int, w: Weights = GREEDY) -> float | None:
    """The seat's value after its Production turn of this round, if that is still to come."""
    s = _turn_ahead(state, seat)
    return None if s is None else seat_value(s, seat, w=w)


def evaluate(state: ClansmanState, seat: int, w: Weights = GREEDY) -> float:
    """The seat's value (after its coming turn this round) minus REL times the best other's."""
    totals = [float(s["total"]) for s in state.scores()]
    ahead = outlook(state, seat, w)
    mine = ahead if ahead is not None else seat_value(state, seat, totals[seat], w=w)
    others = [seat_value(state, q, totals[q], w=w) for q in range(state.n) if q != seat]
    return mine - REL * max(others, default=0.0)


# ------------------------------------------------------- memories for one search


class Evaluation:
    """values() and evaluate() with memories, for the states of one game (one search or
    one decision): a seat's standing, its obtain targets and its best finish are each
    computed once per distinct key, so a move is paid for only in what it changes and a
    position reached again is not planned again. The results equal the plain functions'."""

    def __init__(self, w: Weights = GREEDY) -> None:
        """Empty memories, for an evaluation with the weights w."""
        self.w = w
        self._standing: dict[tuple[Any, ...], float] = {}
        self._gains: dict[tuple[Any, ...], list[tuple[str, Goods, float]]] = {}
        self._finish: dict[tuple[Any, ...], float] = {}

    def seat_value(self, state: ClansmanState, q: int) -> float:
        """seat_value(state, q) from the memories (the VPs too: a seat's own score,
        `scoring.breakdown`, reads only what its key holds)."""
        if state.is_over():
            return float(state.scores()[q]["total"])
        pl = state.players[q]
        kofun = _kofun_pending(state, q)
        key = (q, state.round, tuple(pl.clans), pl.tadokoro, pl.iron, pl.statue, pl.mirror,
               kofun, tuple(pl.hand), tuple(pl.missions), pl.kofun, pl.kofun_mirrors,
               tuple(pl.emperors))
        v = self._standing.get(key)
        if v is None:
            total = float(sum(scoring.breakdown(state, q).values()))
            v = _remember(self._standing, key, standing(state, q, total, self.w))
        if state.to_move == q and state.phase == "production":
            v += self._best_finish(state, q, key, kofun)
        return v

    def _best_finish(self, state: ClansmanState, q: int, seat_key: tuple[Any, ...],
                     kofun: bool) -> float:
        """best_finish(state, q) from the memories (seat_key: the seat's standing key)."""
        if state.step == "hand":
            return 0.0
        pl = state.players[q]
        gains_key = (seat_key, tuple(state.supply),
                     tuple(state.kofun) if state.expert and pl.kofun is None else None)
        players = state.players
        key = (gains_key, state.step, state.pending, tuple(state.pool[:VOLATILE]),
               state.lock, tuple((cid, owner, owner >= 0 and players[owner].statue > 0)
                                 for k, owner, cid in state.usable if k not in state.used),
               pl.hero is None and tuple(state.heroes))
        v = self._finish.get(key)
        if v is None:
            gains = self._gains.get(gains_key)
            if gains is None:
                gains = _remember(self._gains, gains_key, _target_gains(state, q, self.w))
            v = _remember(self._finish, key, best_finish(state, q, gains, self.w))
        return v

    def values(self, state: ClansmanState) -> list[float]:
        """values(state) from the memories."""
        return [self.seat_value(state, q) for q in range(state.n)]

    def evaluate(self, state: ClansmanState, seat: int) -> float:
        """evaluate(state, seat) from the memories."""
        ahead = _turn_ahead(state, seat)
        mine = self.seat_value(ahead if ahead is not None else state, seat)
        others = [self.seat_value(state, q) for q in range(state.n) if q != seat]
        return mine - REL * max(others, default=0.0)


def _remember(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...], value: Any) -> Any:
    """Store value under key (a full memory starts again) and return it."""
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def fresh_evaluation(w: Weights = GREEDY) -> tuple[Callable[[ClansmanState], list[float]],
                                                   Callable[[ClansmanState, int], float]]:
    """values() and evaluate() (with the weights w) sharing new memories (for one search or
    one decision)."""
    memo = Evaluation(w)
    return memo.values, memo.evaluate


def fresh_search_evaluation(state: ClansmanState
                            ) -> tuple[Callable[[ClansmanState], list[float]],
                                       Callable[[ClansmanState, int], float]]:
    """What MCTS searches `state`'s game with: the weights fitted to final VPs (SEARCH;
    greedy keeps GREEDY), in every I, Clansman game."""
    return fresh_evaluation(SEARCH)


def candidates(state: ClansmanState) -> list[int]:
    """Every legal action (nothing in this game is never worth considering)."""
    return state.legal_ids()


def _canonical(state: ClansmanState) -> ClansmanState:
    """A copy whose hidden parts are in a canonical order (and without the log, which
    search samples never read), so that samples depend on the view and the rng only."""
    canon = state.clone()
    for pile in canon.piles:
        pile.sort()
    canon.rng = Rng(0)
    canon.events = []
    canon.history = []
    return canon


def determinize(state: ClansmanState, seat: int | None,
                rng: Rng | random.Random) -> ClansmanState:
    """A state consistent with the seat's view whose sample depends on the view and rng only."""
    return _canonical(state).determinize(seat, rng)


def sampler(state: ClansmanState, seat: int | None
            ) -> Callable[[Rng | random.Random], ClansmanState]:
    """determinize() for many samples of one position: the canonical copy is made once."""
    canon = _canonical(state)
    return lambda rng: canon.determinize(seat, rng)
