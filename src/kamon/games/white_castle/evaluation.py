"""A position evaluation of The White Castle for the bots (greedy, and MCTS at a depth cutoff).

`values(state)` estimates every clan's final clan points from public information only:

- the points already certain: CP scored, courtiers, warriors, gardeners, Passage of Time;
- stores, blended by how many of the clan's own turns are left (`f`, 1 while at least
  three turns remain, 0 in the last one): while turns remain, coins, seals and
  resources are fuel (worth `Weights` coin, seal, res each, resources capped at 7); in the
  last turn only what final scoring pays for them counts (1 CP per 5 coins + seals,
  1/2 CP for 3/7 of a resource);
- potential: Lantern-area icons times the turns left (a die from a left end pays
  them), gardeners' round-end activations still to come, warriors waiting for a
  courtier inside the castle, progress on the Passage of Time between scoring steps;
- the decisions already begun: every frame on the decision stack (a held die, effects
  to order, card blocks, worker actions, a checkpoint) is worth its best option, so a
  half-finished turn is judged by what it will bring, not only by what it has brought.

Fuel and potential are weighed by `Weights`: set by hand (PLAY) for greedy and for MCTS
with 2-4 players; MCTS in the solo game searches with SOLO_SEARCH
(`fresh_search_evaluation`), fitted to the final points of greedy solo games (the seal
then tuned by the decisions it makes), and its root priors look a whole turn ahead
(`root_prior_depth`).

`evaluate(state, seat)` is the seat's value minus REL times the best rival's (the
solo game's Tokugawa rival counts as a rival). MCTS puts priors from it on every
tree node (`mcts_tree_priors`); an iteration then costs about `mcts_iteration_weight`
times a plain one, which the levels' iteration budgets account for. `candidates(state)` is what search
considers: the legal actions without the Daimyo-seal exchanges, except in a clan's
last turn (the engine exchanges seals by itself when a cost needs them, so earlier
exchanges only lose value). `determinize(state, seat, rng)` puts the hidden decks in a
canonical order before re-sampling them, so a bot's choice depends on what its seat
may see and on its own seed only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kamon.core.rng import Rng
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.base import UNLOGGED
from kamon.games.white_castle.data import COLOURS, Effect
from kamon.games.white_castle.frames import Frame
from kamon.games.white_castle.state import COURTIER_CP, MAX_RESOURCE, WhiteCastleState

mcts_tree_priors = True  # measured: 60% vs 3 greedy with, 45% without, at ~0.7-0.9 s a move
mcts_iteration_weight = 3.0
greedy_depth = 2  # a die with where it goes (the decisions pending are valued)
TURNS = 9  # every clan takes 3 turns in each of the 3 rounds, at any player count
W_CP = 1.0
PASSAGE_STEP = 0.8  # a Passage of Time step while turns remain (CP on the way + turn order)


@dataclass(frozen=True)
class Weights:
    """What a clan's stores and potential are worth while its turns remain."""

    coin: float  # a coin, as fuel
    seal: float  # a Daimyo seal, as fuel
    res: float  # a resource, as fuel (up to MAX_RESOURCE of a kind)
    left_die: float  # chance a future turn takes a left-end die (Lantern reward)
    garden_fires: float  # chance a gardener's bridge still holds dice at a round end
    warrior_hope: float  # share of the warriors' value expected before a courtier is inside


# greedy's (the `normal` level's, the plain values() and evaluate()), and MCTS's with 2-4
# players: set by hand
PLAY = Weights(coin=0.35, seal=0.7, res=1.0, left_die=0.5, garden_fires=0.6, warrior_hope=0.5)
# MCTS's in the solo game (`fresh_search_evaluation`): fitted by least squares to the
# final points of 2,000 greedy solo games (bench/fit_white_castle_eval.py; the coin kept:
# fitted 0.335), then the seal raised from 0.85 to 1.12 by the margins of a whole-turn
# greedy player (bench/tune_white_castle_eval.py: +1.3 points, se 0.6, on 200 deals it
# was not tuned on). See the ladder in docs/bots.md for what it measured against the rival.
SOLO_SEARCH = Weights(coin=0.35, seal=1.12, res=0.84, left_die=1.4, garden_fires=0.32,
                      warrior_hope=0.59)
REL = 0.5  # weight of the best rival's value in evaluate()
# What the terms above do not see of a clan's turns to come, so that a value means the
# same at every point of a turn (measured: mean final score minus value, by turns left
# and by the turn's stage, over seeded games of greedy bots, 1 and 4 players):
AHEAD_TURN = 5.0  # a clan's points per turn left beyond AHEAD_FROM (within the last
AHEAD_FROM = 3  # three turns its stores and potential already count as points)
TAKE = 4.5  # a turn begun, its die not yet taken (it is worth this much on average)
RIVAL_TURN = 5.1  # solo: the rival's points per turn left (its value is its points only)
RIVAL_END = 4.0  # solo: ... and what it scores at the end
TEMPERATURE = 5.0  # MCTS reward temperature (points), and in the solo game
SOLO_TEMPERATURE = 15.0
FOOD, IRON, PEARL = 0, 1, 2
EXCHANGES = frozenset({A.EXCHANGE_COIN, *A.EXCHANGE_RES.values()})
_CLIMB_PEARL = {1: 2, 2: 5}
_PASSAGE_MARKS = (0, 6, 11, 15, 20)


class _Units:
    """What one coin, seal, CP or resource is worth to one clan now (blended by turns left)."""

    __slots__ = ("coin", "seal", "res", "f", "turns_left", "res_room", "w")

    def __init__(self, c: Any, turns_left: int, w: Weights = PLAY) -> None:
        """Blend fuel value (weights w) and final-scoring value by the clan's own turns left."""
        f = min(1.0, turns_left / 3.0)
        self.f = f
        self.turns_left = turns_left
        self.w = w
        self.coin = f * w.coin + (1 - f) * 0.2
        self.seal = f * w.seal + (1 - f) * 0.2
        self.res = f * w.res + (1 - f) * 0.34
        self.res_room = [MAX_RESOURCE - r for r in c.res]

    def gain(self, kind: str, n: int) -> float:
        """The worth of gaining n of one kind."""
        if kind == "coin":
            return n * self.coin
        if kind == "seal":
            return n * self.seal
        if kind == "cp":
            return n * W_CP
        i = 0 if kind == "food" else 1 if kind == "iron" else 2
        return min(n, self.res_room[i]) * self.res


def turns_left(state: WhiteCastleState, q: int) -> int:
    """A clan's own turns after the one in progress (0 during its last turn)."""
    left = TURNS - state.placements[q]
    if state.phase == "play" and state.stack:
        f = state.stack[-1]
        if f.seat == q and f.kind in ("take", "place"):
            left -= 1
    return max(0, left)


def _deciding(state: WhiteCastleState, q: int) -> bool:
    """Whether clan q has a decision begun (a frame on the stack): its turn is on."""
    return any(f.seat == q for f in state.stack)


def passage_smooth(cp: tuple[int, ...], pos: int) -> float:
    """Passage of Time CP interpolated between the scoring steps (progress counts)."""
    for lo, hi in zip(_PASSAGE_MARKS, _PASSAGE_MARKS[1:], strict=False):
        if lo <= pos < hi and hi < len(cp):
            return cp[lo] + (cp[hi] - cp[lo]) * (pos - lo) / (hi - lo)
    return float(cp[min(pos, len(cp) - 1)])


class _Ctx:
    """Per-evaluation caches: one clan's units and worker-action estimates."""

    __slots__ = ("s", "q", "u", "c", "fired", "_workers")

    def __init__(self, s: WhiteCastleState, q: int, u: _Units) -> None:
        """Bind the state, the clan and its unit values."""
        self.s = s
        self.q = q
        self.u = u
        self.c = s.clans[q]
        # the domain rows fired this turn bind only the clan whose turn it is
        self.fired: list[int] | tuple[()] = s.fired if _deciding(s, q) else ()
        self._workers: dict[str, float] = {}

    # ---------------------------------------------------------------- effects

    def effect(self, e: Effect, depth: int = 0) -> float:
        """The worth of one effect for this clan now."""
        kind = e[0]
        u = self.u
        if kind == "gain":  # u.gain summed, inlined (the commonest effect)
            total = 0
            for k, n in e[1]:
                if k == "coin":
                    total += n * u.coin
                elif k == "seal":
                    total += n * u.seal
                elif k == "cp":
                    total += n * W_CP
                else:
                    room = u.res_room[0 if k == "food" else 1 if k == "iron" else 2]
                    total += (n if n < room else room) * u.res
            return total
        if kind == "choice":
            return e[1] * u.res
        if kind == "pay":
            return max(0.0, self.effect(e[2], depth + 1) - self.cost(e[1]))
        if kind == "passage":
            return e[1] * PASSAGE_STEP * (0.4 + 0.6 * u.f)
        if kind in ("courtier", "gardener", "warrior"):
            return self.worker(kind)
        if kind == "lantern":
            return self.lantern()
        if kind == "well":
            return self.well(depth)
        if depth > 1:
            return 1.0
        if kind == "light":
            return self.best_blocks(((r, i) for r in range(5)
                                     for i, blk in enumerate(self.room_blocks(r)) if blk.light),
                                    depth)
        if kind == "die_tile":
            col = e[1]
            s = self.s
            return self.best_blocks(((r, i) for r in range(5)
                                     for i, t in enumerate(s.room_tiles[r])
                                     if col == "any" or COLOURS[t] == col), depth)
        if kind == "domain":
            return max((self.row(c, depth) for c in range(3) if c not in self.fired),
                       default=0.0)
        return 0.0

    def effects(self, effects: tuple[Effect, ...], depth: int = 0) -> float:
        """The worth of a set of effects (each taken once)."""
        total = 0.0
        for e in effects:
            total += self.effect(e, depth)
        return total

    def cost(self, cost: tuple[tuple[str, int], ...]) -> float:
        """The worth of what a cost spends."""
        u = self.u
        return sum(n * (u.coin if k == "coin" else u.seal) for k, n in cost)

    def room_blocks(self, r: int) -> tuple[Any, ...]:
        """The blocks of the card in castle room r."""
        return self.s.data.card(self.s.room_cards[r]).blocks

    def block(self, opt: tuple[int, int], depth: int) -> float:
        """The worth of one card block (own card when the room is negative)."""
        r, i = opt
        cid = self.c.card if r < 0 else self.s.room_cards[r]
        if cid is None:
            return 0.0
        blk = self.s.data.card(cid).blocks[i]
        effects = blk.effects
        if len(effects) == 1 and effects[0][0] == "pay" and not self.s._can_pay(
                self.q, effects[0][1]):
            return 0.0
        return self.effects(effects, depth + 1)

    def best_blocks(self, opts: Any, depth: int, multi: bool = False) -> float:
        """The best block (or, when several may be used, every block worth using)."""
        vals = [self.block(o, depth) for o in opts]
        if not vals:
            return 0.0
        if multi:
            return sum(v for v in vals if v > 0)
        return max(0.0, max(vals))

    def lantern(self) -> float:
        """The worth of this clan's Lantern reward now."""
        if "lantern" not in self._workers:
            self._workers["lantern"] = 0.0  # a lantern icon never pays a lantern again
            self._workers["lantern"] = self.effects(self.s.lantern_icons(self.q), 2)
        return self._workers["lantern"]

    def well(self, depth: int) -> float:
        """The worth of the Well action (a seal and both Well tiles)."""
        s = self.s
        v = self.u.gain("seal", 1)
        for t in s.well_tiles:
            v += self.effects(s.data.die_tiles[t][1], depth + 1)
        return v

    def row(self, colour: int, depth: int) -> float:
        """The worth of firing a personal-domain row (its visible cells and card block)."""
        s = self.s
        d = s.data
        c = self.c
        name = COLOURS[colour]
        v = self.effect(d.domain_visible[name], depth + 1)
        v += self.effects(d.domain_cells[name][:5 - c.left[colour]], depth + 1)
        if c.card is not None:
            row_name = ("top", "middle", "bottom")[colour]
            for i, blk in enumerate(d.card(c.card).blocks):
                if row_name in blk.rows:
                    v += max(0.0, self.block((-1, i), depth))
                    break
        return v

    # ------------------------------------------------------------ workers

    def worker(self, kind: str) -> float:
        """The best use of a worker action now (0 if none is affordable)."""
        cached = self._workers.get(kind)
        if cached is not None:
            return cached
        self._workers[kind] = 0.0  # guards recursion through garden/yard effects
        fn = {"courtier": self._courtier, "gardener": self._gardener,
              "warrior": self._warrior}[kind]
        v = max(0.0, fn())
        self._workers[kind] = v
        return v

    def _uncover(self, colour: int) -> float:
        """The worth of the domain cell a departing worker uncovers."""
        c = self.c
        k = 5 - c.left[colour]
        cells = self.s.data.domain_cells[COLOURS[colour]]
        if k >= len(cells):
            return 0.0
        return 0.3 * self.u.f * self.effect(cells[k], 2)

    def _gardener(self) -> float:
        s = self.s
        u = self.u
        gardens = s.data.gardens
        rounds_after = max(0, 3 - s.round)
        best = 0.0
        for g in s.gardener_slots(self.q):
            card = gardens[s.garden_cards[g]]
            eff = self.effects(card.effects, 2)
            v = card.cp + eff * (1 + u.w.garden_fires * rounds_after) - card.food * u.res
            best = max(best, v)
        return best + (self._uncover(1) if best > 0 else 0.0)

    def _warrior(self) -> float:
        s = self.s
        u = self.u
        c = self.c
        inside = sum(1 for loc in c.courtiers if loc > 0)
        mult = inside if inside else u.w.warrior_hope * u.f
        best = 0.0
        for y in s.warrior_yards(self.q):
            v = (s.data.yard_values[y] * mult + self.effects(s.yard_effects[y], 2)
                 - s.data.yard_costs[y] * u.res)
            best = max(best, v)
        return best + (self._uncover(2) if best > 0 else 0.0)

    def _courtier(self) -> float:
        s = self.s
        u = self.u
        c = self.c
        best = 0.0
        if c.left[0] and s.can_pay_coins(self.q, 2):
            best = COURTIER_CP[0] + u.f * 1.5 - 2 * u.coin + self._uncover(0)
        yards = sum(s.data.yard_values[y] for y in c.warriors)
        for src, dst in s.climbs(self.q):
            pearl = _CLIMB_PEARL[A.LOC_FLOOR[dst] - A.LOC_FLOOR[src]]
            v = COURTIER_CP[dst] - COURTIER_CP[src] - pearl * u.res + u.f * 1.5
            if src == 0:
                v += yards  # one more courtier inside multiplies the warriors again
            best = max(best, v)
        return best

    # ------------------------------------------------------------ frames

    def frame(self, f: Frame) -> float:
        """The worth of a pending decision frame of this clan (its best outcome)."""
        kind = f.kind
        s = self.s
        if f.kind == "effects":
            return sum(max(0.0, self.effect(e)) if e[0] not in ("gain", "choice", "passage")
                       else self.effect(e) for e in f.effects)
        if f.kind == "choice":
            return f.remaining * self.u.res
        if f.kind == "blocks":
            return self.best_blocks(f.options, 0, multi=f.multi)
        if f.kind == "outside":
            return max((self.worker(("courtier", "gardener", "warrior")[w]) for w in f.workers),
                       default=0.0)
        if kind in ("warrior", "gardener"):
            return self.worker(kind)
        if f.kind == "courtier":
            return 0.0 if f.audience_done and f.climb_done else self.worker("courtier")
        if kind == "lantern":
            return self.lantern()
        if kind == "daimyo":
            table = s.data.daimyo[s.daimyo_card]
            return max((self.effects(table[k]) for k in range(3)
                        if s.daimyo_slots[k] is None), default=0.0)
        if kind == "row":
            return max((self.row(c, 0) for c in range(3) if c not in self.fired), default=0.0)
        if f.kind == "pay":
            return max(0.0, self.effect(f.effect) - self.cost(f.cost))
        if f.kind == "checkpoint":
            return max(0.0, f.steps * PASSAGE_STEP + 1.0 - f.cost * self.u.seal)
        if f.kind == "garden_round":
            gardens = s.data.gardens
            return sum(self.effects(gardens[s.garden_cards[g]].effects) for g in f.gardens)
        if kind == "place" and s.held is not None:
            return self.held_die()
        if kind == "take":
            return TAKE
        return 0.0

    def held_die(self) -> float:
        """The worth of the die in hand: its best space, coins included."""
        s = self.s
        b, v, left = s.held if s.held is not None else (0, 0, False)
        best = -99.0
        for sp in s.placeable(self.q, b, v):
            best = max(best, self.space(sp, b, v))
        lantern = self.lantern() if left else 0.0
        return (best if best > -99.0 else 0.0) + lantern

    def space(self, sp: int, b: int, v: int) -> float:
        """The worth of putting a die of colour b and value v on space sp."""
        s = self.s
        u = self.u
        if sp == A.SP_DOMAIN:
            return self.row(b, 0) - (6 - v) * u.coin
        coins = -(s.space_cost(sp, v) or 0) * u.coin
        if sp < 5:
            opts = tuple((sp, i) for i, col in enumerate(s.room_tiles[sp]) if col == b)
            return coins + self.best_blocks(opts, 0, multi=True)
        if sp < 7:
            return coins + max(self.worker(("courtier", "gardener", "warrior")[w])
                               for w in s.data.outside[sp - 5])
        return coins + self.well(0)


def clan_value(state: WhiteCastleState, q: int, w: Weights = PLAY) -> float:
    """Clan q's estimated final clan points (see the module docstring)."""
    if state.phase == "over":
        return float(state.scores()[q]["total"])
    ctx = _Ctx(state, q, _Units(state.clans[q], turns_left(state, q), w))
    return _pending(ctx, _standing(ctx))


def _standing(ctx: _Ctx) -> float:
    """A clan's value but for its decisions begun (points, stores, potential)."""
    s = ctx.s
    q = ctx.q
    u = ctx.u
    w = u.w
    d = s.data
    c = s.clans[q]
    tl = u.turns_left
    f = u.f
    inside = 0
    courtiers = 0
    for loc in c.courtiers:
        courtiers += COURTIER_CP[loc]
        if loc > 0:
            inside += 1
    yards = 0
    for y in c.warriors:
        yards += d.yard_values[y]
    v = float(c.cp)
    v += courtiers
    v += yards * inside
    if not inside and yards:
        v += yards * w.warrior_hope * f
    rounds_after = 3 - s.round
    mine = [g for g, workers in enumerate(s.garden_workers) if q in workers]
    gardens = d.gardens
    for g in mine:
        v += gardens[s.garden_cards[g]].cp
    v += f * passage_smooth(d.passage_cp, c.pos) + (1 - f) * d.passage_cp[c.pos]
    rival = q == s.rival
    if not rival:
        end_store = (c.coins + c.seals) / 5.0 if tl else float((c.coins + c.seals) // 5)
        end_res = 0
        held = 0
        for r in c.res:
            end_res += 2 if r >= 7 else 1 if r >= 3 else 0
            held += r if r < MAX_RESOURCE else MAX_RESOURCE
        v += f * (w.coin * c.coins + w.seal * c.seals) + (1 - f) * end_store
        v += f * w.res * held + (1 - f) * end_res
    if tl and not rival:
        v += w.left_die * tl * ctx.lantern()
    if rounds_after > 0 and not rival:
        for g in mine:
            v += w.garden_fires * rounds_after * ctx.effects(
                gardens[s.garden_cards[g]].effects, 1)
    if rival:
        v += RIVAL_END + RIVAL_TURN * tl
    elif tl > AHEAD_FROM:
        v += AHEAD_TURN * (tl - AHEAD_FROM)
    return v


def _pending(ctx: _Ctx, v: float) -> float:
    """v plus what the clan's decisions begun (its frames on the stack) will bring."""
    if ctx.q == ctx.s.rival:
        return v
    q = ctx.q
    for fr in ctx.s.stack:
        if fr.seat == q and fr.kind not in ("rival_turn", "rival_actions", "rival_room",
                                            "rival_garden"):
            v += ctx.frame(fr)
    return v


def values(state: WhiteCastleState, w: Weights = PLAY) -> list[float]:
    """Every clan's estimated final clan points (the solo rival included)."""
    return [clan_value(state, q, w) for q in range(len(state.clans))]


def _clan_key(state: WhiteCastleState, q: int, masks: list[int]) -> tuple[Any, ...]:
    """Everything _standing reads for clan q but its turns left, the rows fired this turn
    (both read only when its turn is on) and what all clans share (`_shared_key`), as one
    flat tuple (quicker to build and hash than nested ones; the lengths of the lists of
    any length keep it unambiguous); `masks`: each clan's gardens as a bit mask.

    The game's fixed setup (gardens, yards, Well and die tiles, the Daimyo card) is left
    out: keys are only compared within one game (see fresh_evaluation)."""
    c = state.clans[q]
    return (q, c.coins, c.seals, c.cp, c.pos, c.card, *c.res, *c.left, state.placements[q],
            masks[q], len(c.courtiers), *c.courtiers, len(c.warriors), *c.warriors,
            *c.lantern)


def _shared_key(state: WhiteCastleState) -> tuple[tuple[Any, ...], list[int]]:
    """What every clan's value reads the same for all clans (the round, the cards in the
    rooms), and each clan's gardens as a bit mask."""
    masks = [0] * len(state.clans)
    for g, workers in enumerate(state.garden_workers):
        for q in workers:
            masks[q] |= 1 << g
    return (state.round, *state.room_cards), masks


MEMO_LIMIT = 200_000  # entries a memory of clan values keeps at most (then it starts again)


def fresh_evaluation(w: Weights = PLAY) -> tuple[Callable[[WhiteCastleState], list[float]],
                                                 Callable[[WhiteCastleState, int], float]]:
    """values() and evaluate() for the states of one search or one decision (one game),
    sharing memories: a clan with no decision begun is valued once per distinct key
    (`_shared_key`, `_clan_key`), one in the middle of its turn once per key, turns left
    and frames (and its standing once per key and turns left), so a move is paid for only
    in what it changes and a position reached again is not valued twice. The memories
    are kept per shared key (looked up once per position, not once per clan). The
    results equal the plain functions' (with the weights w)."""
    memos: dict[tuple[Any, ...], dict[tuple[Any, ...], float]] = {}
    standings: dict[tuple[Any, ...], dict[tuple[Any, ...], float]] = {}
    size = [0]

    def memo_values(state: WhiteCastleState) -> list[float]:
        """Every clan's value, from the memories where the key was seen before."""
        if state.phase == "over":
            return values(state, w)
        shared, masks = _shared_key(state)
        memo = memos.get(shared)
        if memo is None:
            if size[0] >= MEMO_LIMIT:  # a full memory starts again
                memos.clear()
                standings.clear()
                size[0] = 0
            memo = memos[shared] = {}
            standings[shared] = {}
        stack = state.stack
        deciding = {f.seat for f in stack} if stack else ()
        out = []
        for q in range(len(state.clans)):
            key = _clan_key(state, q, masks)
            if q in deciding:
                frames = tuple(f for f in stack if f.seat == q)
                tl = turns_left(state, q)
                now = (key, tl, tuple(state.fired))
                full = (now, frames, tuple(state.daimyo_slots), state.held,
                        tuple(tuple(sp) for sp in state.spaces)
                        if state.held is not None else None)
                v = memo.get(full)
                if v is None:
                    ctx = _Ctx(state, q, _Units(state.clans[q], tl, w))
                    standing = standings[shared]
                    base = standing.get(now)
                    if base is None:
                        base = standing[now] = _standing(ctx)
                        size[0] += 1
                    v = memo[full] = _pending(ctx, base)
                    size[0] += 1
            else:
                v = memo.get(key)
                if v is None:
                    v = memo[key] = clan_value(state, q, w)
                    size[0] += 1
            out.append(v)
        return out

    def memo_evaluate(state: WhiteCastleState, seat: int) -> float:
        """evaluate() from the memories."""
        vals = memo_values(state)
        others = [v for q, v in enumerate(vals) if q != seat]
        return vals[seat] - REL * max(others, default=0.0)

    return memo_values, memo_evaluate


def fresh_search_evaluation(state: WhiteCastleState
                            ) -> tuple[Callable[[WhiteCastleState], list[float]],
                                       Callable[[WhiteCastleState, int], float]]:
    """What MCTS searches `state`'s game with: the solo game's fitted weights (SOLO_SEARCH),
    else greedy's."""
    return fresh_evaluation(SOLO_SEARCH if state.rival is not None else PLAY)


def evaluate(state: WhiteCastleState, seat: int, w: Weights = PLAY) -> float:
    """The seat's estimated final points minus REL times the best rival's."""
    vals = values(state, w)
    others = [v for q, v in enumerate(vals) if q != seat]
    return vals[seat] - REL * max(others, default=0.0)


SOLO_ROOT_DEPTH = 6  # own decisions a solo search's root priors look ahead: a whole turn


def root_prior_depth(state: WhiteCastleState) -> int:
    """How far MCTS's root priors look ahead: in the solo game a whole turn (the die, its
    space, its effects; measured on the 48 solo deals of docs/bots.md: hard won 41 against 34
    with the same weights and greedy's two decisions, +4.7 points of margin, se 1.9),
    else greedy's depth."""
    return SOLO_ROOT_DEPTH if state.rival is not None else greedy_depth


def reward_temperature(state: WhiteCastleState) -> float:
    """MCTS's reward temperature: a solo margin (player against rival) is far less certain
    than the same points between 4 clans (measured: the solo game scored about 6 points
    more at 15 than at 5; at 4 players 5 did better than 12)."""
    return SOLO_TEMPERATURE if state.rival is not None else TEMPERATURE


def turn(state: WhiteCastleState) -> tuple[int, int, str]:
    """Which turn it is (greedy looks ahead within a turn only: in the solo game the
    player moves again right after the rival, and a die of the next turn is no reason
    to end this one early)."""
    return state.round, state.turn_idx, state.phase


def candidates(state: WhiteCastleState) -> list[int]:
    """The actions worth searching: no seal exchanges before the clan's last turn."""
    ids = state.legal_ids()
    p = state.to_move
    if p is None or turns_left(state, p) == 0 and state.round == 3:
        return ids
    kept = [a for a in ids if a not in EXCHANGES]
    return kept or ids


def _canonical(state: WhiteCastleState) -> WhiteCastleState:
    """A copy whose hidden parts are in a canonical order (and without the log, which
    search samples never read), so that samples depend on the view and the rng only."""
    canon = state.clone()
    canon.steward_deck.sort()
    canon.diplomat_deck.sort()
    canon.solo_deck.sort()
    canon.rng = Rng(0)
    canon.events = UNLOGGED  # its samples and their positions write no log either
    canon.history = []
    return canon


def determinize(state: WhiteCastleState, seat: int | None,
                rng: Rng | random.Random) -> WhiteCastleState:
    """A state consistent with the seat's view whose sample depends on the view and rng only."""
    return _canonical(state).determinize(seat, rng)


def sampler(state: WhiteCastleState, seat: int | None
            ) -> Callable[[Rng | random.Random], WhiteCastleState]:
    """determinize() for many samples of one position: the canonical copy is made once."""
    canon = _canonical(state)
    return lambda rng: canon.determinize(seat, rng)
