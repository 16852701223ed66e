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

from kamon.core.rng import Rng
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import GOODS, IRON, MIRROR, STATUE, VOLATILE, Goods
from kamon.games.clansman.state import ClansmanState

VP_PER_WORTH = 0.6  # VPs per worker-equivalent produced in a round, before saturation
SATURATION = 10.0  # worker-equivalents at which a round's VPs are half the linear rate
RAW_CAP = 6  # plain workers beyond the cards' needs that a cost can still use
W_IRON = 0.8
W_STATUE = 0.5
W_MIRROR_KOFUN = 1.2
W_HAND = 0.25
REL = 0.5
PLAN_NODES = 3000  # cap on the card-use combinations one plan tries
# What a good is worth in workers (how many workers the cheapest common card turns into it).
GOOD_WORTH = {"worker": 1.0, "soldier": 2.0, "architect": 2.0, "monk": 3.0, "bureaucrat": 3.0,
              "cloth": 1.0, "fish": 1.0, "pork": 1.0, "pot": 1.0, "horse": 2.0, "iron": 2.0,
              "statue": 3.0, "mirror": 1.0}
WORTH = tuple(GOOD_WORTH[g] for g in GOODS)
greedy_depth = 1  # the evaluation plans the rest of a turn itself
mcts_tree_priors = True  # measured: 50% vs 3 greedy with, 3 of 8 without, at ~0.7-0.9 s a move
mcts_iteration_weight = 2.2


def _goods_worth(goods: Goods) -> float:
    """Worker equivalents of a tuple of (good, count)."""
    return sum(WORTH[g] * k for g, k in goods)


def _best_use(state: ClansmanState, cid: str) -> tuple[int, float]:
    """A card's best use: (workers it takes, worker-equivalents it yields); (0, 0) if none."""
    best: tuple[int, float] | None = None
    for u in state.data.cards[cid].uses:
        workers = sum(k for g, k in u.inp if g == 0)
        out = _goods_worth(u.out)
        if best is None or (out - workers, out) > (best[1] - best[0], best[1]):
            best = (workers, out)
    return best if best is not None else (0, 0.0)


def production(state: ClansmanState, clans: list[str], tadokoro: int) -> float:
    """Worker-equivalents a round yields from these clan cards and farms.

    Cards that yield more than they take are fed workers, best gain first (each card
    once a round); up to RAW_CAP workers left over still count (costs ask for plain
    workers too).
    """
    uses = sorted((_best_use(state, cid) for cid in clans),
                  key=lambda u: -(u[1] - u[0]) / max(1, u[0]))
    workers = tadokoro
    worth = 0.0
    for need, out in uses:
        if out > need and workers >= need:
            workers -= need
            worth += out
    return worth + min(workers, RAW_CAP)


def round_vp(worth: float) -> float:
    """VPs a round's production brings, saturating (one card is obtained per round)."""
    return VP_PER_WORTH * worth / (1.0 + worth / SATURATION)


def rounds_after(state: ClansmanState) -> int:
    """Rounds after the current one (an engine obtained now works in each of them)."""
    return max(0, state.data.rules.rounds - state.round)


def _engine(state: ClansmanState, clans: list[str], tadokoro: int) -> float:
    """VPs a seat's engine will still bring in the rounds after this one."""
    return rounds_after(state) * round_vp(production(state, clans, tadokoro))


def seat_value(state: ClansmanState, q: int, total: float | None = None,
               plan: bool = True) -> float:
    """Seat q's estimated final VPs (see the module docstring)."""
    pl = state.players[q]
    if total is None:
        total = float(state.scores()[q]["total"])
    if state.is_over():
        return total
    cards = state.data.cards
    v = total + _engine(state, pl.clans, pl.tadokoro)
    v += W_IRON * pl.iron + W_STATUE * pl.statue
    if _kofun_pending(state, q):
        v += W_MIRROR_KOFUN * pl.mirror
    hand = sorted((cards[cid].vp for cid in pl.hand), reverse=True)[:rounds_after(state)]
    v += W_HAND * sum(hand)
    if plan and state.to_move == q and state.phase == "production":
        v += best_finish(state, q)
    return v


def _kofun_pending(state: ClansmanState, q: int) -> bool:
    """Whether seat q may still put its Mirrors under a Kofun (Expert)."""
    return state.expert and state.players[q].kofun is None and bool(state.kofun)


def values(state: ClansmanState) -> list[float]:
    """Every seat's estimated final VPs (the seat mid-turn: after its best finish)."""
    totals = [float(s["total"]) for s in state.scores()]
    return [seat_value(state, q, totals[q]) for q in range(state.n)]


# ----------------------------------------------------------------- the turn planner


def _item_cost(cost: Goods) -> float:
    """The value of the item tokens a cost spends."""
    v = 0.0
    for g, k in cost:
        if g == IRON:
            v += W_IRON * k
        elif g == STATUE:
            v += W_STATUE * k
    return v


def _target_gains(state: ClansmanState, q: int) -> list[tuple[str, Goods, float]]:
    """(card, cost, value gained) of everything q could obtain this turn, per printed cost."""
    pl = state.players[q]
    cards = state.data.cards
    rules = state.data.rules
    base_engine = _engine(state, pl.clans, pl.tadokoro)
    out: list[tuple[str, Goods, float]] = []
    eff = state.century_effect()
    targets = state.supply + pl.hand
    if state.expert and pl.kofun is None:
        targets = targets + state.kofun
    in_hand = set(pl.hand)
    for cid in targets:
        card = cards[cid]
        if card.type == "kofun":
            gain = card.vp + pl.mirror * (card.mirror_vp_each - W_MIRROR_KOFUN)
        elif card.type == "mission":
            gain = float(card.vp)
            for g, k in card.items:
                gain += k * (W_IRON if g == IRON else W_STATUE if g == STATUE else
                             (W_MIRROR_KOFUN if _kofun_pending(state, q) else
                              rules.beginner_vp_per_mirror if not state.expert else 0.0)
                             if g == MIRROR else 0.0)
            if eff is not None and eff[0] == "bonus_on_obtain" and card.vp_colour == eff[1]:
                gain += sum(k * W_IRON for g, k in eff[2] if g == IRON)
        else:
            gain = _engine(state, pl.clans + [cid], pl.tadokoro) - base_engine
        if cid in in_hand:
            gain -= W_HAND * card.vp
        for cost in card.costs:
            out.append((cid, cost, gain - _item_cost(cost)))
    f_gain = _engine(state, pl.clans, pl.tadokoro + rules.f_tadokoro) - base_engine
    if state.supply:
        f_gain += W_HAND * max(cards[c].vp for c in state.supply)
    out.append(("F", rules.f_cost, f_gain - _item_cost(rules.f_cost)))
    g_gain = _engine(state, pl.clans, pl.tadokoro + rules.g_tadokoro) - base_engine
    out.append(("G", rules.g_cost, g_gain))
    return out


def best_finish(state: ClansmanState, q: int) -> float:
    """The most q's Production turn can still add to its value (card uses, then one obtain)."""
    if state.step == "hand":
        return 0.0  # the obtain is done; only the hand card is left to choose
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
    targets = [(cost, gain) for cid, cost, gain in _target_gains(state, q)
               if state.step != "payment" or cid == state.pending]
    pool = tuple(state.pool[:VOLATILE]) + (pl.iron, pl.statue - state.lock)
    memo: dict[tuple[int, tuple[int, ...]], float] = {}
    budget = [PLAN_NODES]

    def best_obtain(have: tuple[int, ...]) -> float:
        """The best target affordable with `have`."""
        best = float("-inf")
        for cost, gain in targets:
            if gain > best and all(have[g] >= k for g, k in cost):
                best = gain
        return best

    def search(i: int, have: tuple[int, ...]) -> float:
        """Best value using cards i.. (each at most once) and then obtaining."""
        key = (i, have)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if i == len(uses) or budget[0] <= 0:
            v = best_obtain(have)
            memo[key] = v
            return v
        budget[0] -= 1
        best = search(i + 1, have)
        for inp, out in uses[i]:
            if all(have[g] >= k for g, k in inp):
                nxt = list(have)
                for g, k in inp:
                    nxt[g] -= k
                for g, k in out:
                    if g < len(nxt):
                        nxt[g] += k
                best = max(best, search(i + 1, tuple(nxt)))
        memo[key] = best
        return best

    v = search(0, pool)
    return v if v > float("-inf") else 0.0


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


def outlook(state: ClansmanState, seat: int) -> float | None:
    """The seat's value after its Production turn of this round, if that is still to come."""
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
    return seat_value(s, seat)


def evaluate(state: ClansmanState, seat: int) -> float:
    """The seat's value (after its coming turn this round) minus REL times the best other's."""
    totals = [float(s["total"]) for s in state.scores()]
    ahead = outlook(state, seat)
    mine = ahead if ahead is not None else seat_value(state, seat, totals[seat])
    others = [seat_value(state, q, totals[q]) for q in range(state.n) if q != seat]
    return mine - REL * max(others, default=0.0)


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
