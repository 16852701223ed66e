"""Information-Set Monte Carlo Tree Search (single observer), for any game of the core protocol.

Each iteration works on a determinization of the root drawn from the acting seat's view
(`GameHooks.determinize`: the hidden deck orders and future dice are re-sampled, never
read) and walks one tree whose nodes are action sequences (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012). For a game that says what is hidden (`hidden` hook), nodes
keep the positions they stand for (each made when a walk first passes through it), so a
walk replays no move: up to the first move that
uses hidden information the position is the same in every determinization; below it a
fixed number (`determinizations`) of samples is kept, iteration i walking sample
i mod that number (each sample drawn once, at that first move). Without the hook (or
beyond MAX_KEPT kept positions) every iteration replays its moves on a fresh sample.

- root: PUCT with priors (`prior=True`): a softmax (`prior_temperature`, in points)
  of greedy's lookahead value of each root move on one sample (as deep as the game's
  `root_prior_depth`, else greedy's depth), so the search starts
  from what greedy would play and leaves it only where the tree finds better;
  `mean + c_puct * prior * sqrt(N) / (1 + n)`;
- below the root: UCT over the actions legal in *this* determinization, with
  availability counts (a child's exploration term uses how often it was available, not
  the parent's visits), `mean + c * sqrt(ln(available) / visits)`; every seat picks for
  itself (each node holds the reward of the seat that chose the move into it); with the
  game's `mcts_tree_priors` (both games), PUCT with priors at every node instead, each
  child's first visit scored by the value its priors computed (see _iterate_puct);
- expansion: one untried action, chosen at random;
- rollout: `rollout_depth` decisions by `rollout="random"` (uniform among the search
  candidates) or `"greedy"` (best candidate by a one-decision look at the game's
  evaluation; with probability `epsilon` a random one), then the position is scored by
  the game's `values()`. The default (AUTO) is depth 0 when the game has an evaluation
  (the expanded position is scored at once: measured stronger per second than random
  or greedy rollouts in The White Castle) and a random rollout to the end otherwise;
- reward per seat, in [0, 1]: at a cutoff, sigmoid((v_seat - best other v) / temperature),
  a smooth stand-in for "am I winning"; at the end of the game, half a win (1 for a sole
  winner, 1/k for k shared winners) and half the same sigmoid of the final margin. The
  temperature is the game's `reward_temperature(state)` unless given (default 5 points);
- the move: the root action with the most visits (ties: higher mean reward).

Evaluations come from the game's `fresh_search_evaluation(state)` (its `fresh_evaluation()`
unless the search weighs positions otherwise), memories for one search (a
position's children are valued once, for the priors, and a child's first visit reuses
that value). Budget: `iterations` and/or `seconds` of wall clock (whichever comes first);
with `stop_early`, an iteration budget ends sooner once the root's most visited move
leads every other by more visits than the iterations left (it cannot be caught: the
same move, sooner).
With an iteration budget the agent is deterministic given its seed; a time budget
depends on the machine's speed (the `expert` level).

A learned `guide` (kamon.learn's network, issue 37) may join the hand evaluation: its
values weigh `guide_values` in every position's values (the rest: the game's
evaluation), its move probabilities `guide_priors` in the priors at the root and at
every node (at 1 the hand priors are not computed: a node's priors come from the scores
the guide gave when its position was first scored). The guide is shown only the
determinized positions of the search, as the evaluation is. After a search,
`last_visits` holds the root moves' visits (self-play's policy targets) and
`last_margins` their mean margin for the searching seat in points (the review's values;
`force` makes the search visit given root moves at least `force_visits` times).
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from typing import Any, Protocol

from kamon.agents.base import GameHooks, hooks_for, require_seat
from kamon.agents.greedy import choose, lookahead
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng

ROLLOUTS = ("random", "greedy")
AUTO = -1  # rollout depth: 0 with a game evaluation, to the end without
MAX_KEPT = 40_000  # positions a search keeps on its nodes at most (memory)
DETERMINIZATIONS = 8  # samples kept below a move that uses hidden information
DEFAULT_TEMPERATURE = 5.0  # points of margin per unit of the reward's sigmoid
STOP_CHECK = 16  # iterations between two looks at whether the root's choice is decided


def scaled_budget(iterations: int, weight: float) -> int:
    """The iterations a level's reference budget gives in a game whose iteration costs
    `weight` reference ones (what the levels search with, and what their words say)."""
    return max(1, round(iterations / weight))


class _Node:
    """A tree node: its children by action id and the statistics of the move into it."""

    __slots__ = ("children", "visits", "avail", "reward", "seat", "priors", "child_values",
                 "states", "cands", "multi", "child_chance", "child_visits", "child_reward",
                 "prior", "order", "next_i", "logits", "margin")

    def __init__(self, seat: int) -> None:
        """A node reached by a move of `seat`."""
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.seat = seat
        self.priors: dict[int, float] | None = None  # move probabilities (tree priors)
        # every clan's value after each move, computed for the priors: a child's first
        # visit is scored with it instead of evaluating the same position again
        self.child_values: dict[int, list[float]] | None = None
        # Kept positions (for games with a `hidden` hook), so a walk replays no move: one
        # when no hidden information was used on the way from the root (the position is
        # the same in every determinization); else (`multi`) one per determinization
        # index, each made once from the parent's of the same index. Their candidates
        # alike, made when first needed.
        self.states: list[Any] | None = None
        self.cands: list[list[int] | None] | None = None
        self.multi = False
        # what the priors learnt of each move: whether it used hidden information, until
        # a child node is made for it (the position after it is not kept: most moves are
        # never tried, and a search freeing their positions at once ran 7% faster)
        self.child_chance: dict[int, bool] | None = None
        # visits and reward summed over the children (for first-play urgency and sqrt N
        # where every child is always available: a node with one kept position)
        self.child_visits = 0
        self.child_reward = 0.0
        self.prior = 0.0  # the parent's prior of the move into this node
        # where every child is always available: the moves by prior, best first, and the
        # first of them without a child node yet (PUCT needs only it of the unvisited ones)
        self.order: list[tuple[int, float]] | None = None
        self.next_i = 0
        # a guide's move scores at this node's position (kept from scoring its first
        # visit, for the node's priors) and, on the root's children, the root seat's
        # summed margin in points (what a review reports)
        self.logits: Any = None
        self.margin = 0.0


class MCTSAgent:
    """SO-ISMCTS with UCT, random or greedy rollouts and an iteration or time budget."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int | None = 200,
                 seconds: float | None = None, c: float = 0.7, rollout: str = "random",
                 rollout_depth: int | None = AUTO, epsilon: float = 0.1,
                 temperature: float | None = None, prior: bool = True, c_puct: float = 1.5,
                 prior_temperature: float = 1.0, tree_priors: bool | None = None,
                 scale_budget: bool = False,
                 determinizations: int = DETERMINIZATIONS, stop_early: bool = False,
                 guide: Guide | None = None, guide_values: float = 1.0,
                 guide_priors: float = 1.0) -> None:
        """Seed, budget (iterations and/or seconds), UCT constant, rollout and prior settings."""
        if iterations is None and seconds is None:
            raise ValueError("MCTS needs a budget: iterations and/or seconds")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}")
        if determinizations < 1:
            raise ValueError("determinizations must be at least 1")
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.epsilon = epsilon
        self.temperature = temperature  # None: the game's reward_temperature
        self._temperature = DEFAULT_TEMPERATURE if temperature is None else temperature
        self.prior = prior
        self.c_puct = c_puct
        self.prior_temperature = prior_temperature
        self.tree_priors = tree_priors
        self.scale_budget = scale_budget
        self.determinizations = determinizations
        # with an iteration budget: stop once no other root move can catch up with the
        # most visited one (the same move as the whole budget, sooner; see _decided)
        self.stop_early = stop_early
        # a learned policy and value (kamon.learn): its move probabilities weigh
        # `guide_priors` in the priors (the rest: the hand priors), its values
        # `guide_values` in the positions' values (the rest: the game's evaluation)
        self.guide = guide
        self.guide_values = guide_values
        self.guide_priors = guide_priors
        # root moves every search visits at least `force_visits` times (a review values
        # the move a player chose even where the search would not look at it)
        self.force: tuple[int, ...] = ()
        self.force_visits = 0
        self.rng = Rng(seed)
        self.last_iterations = 0  # iterations of the last search (for benchmarks)
        self.last_kept = 0  # positions the last search kept on its nodes (for benchmarks)
        # the search's values() and evaluate() (with memories for one search)
        self._values: Callable[[Any], list[float]] = lambda s: []
        self._evaluate: Callable[[Any, int], float] = lambda s, q: 0.0
        self._stored = 0  # positions kept on nodes in this search
        self._hand_values: Callable[[Any], list[float]] = lambda s: []
        self._margin = 0.0  # the root seat's margin (points) of the position last scored
        self._seat = 0
        self.last_visits: dict[int, int] = {}  # the root moves' visits (policy targets)
        self.last_margins: dict[int, float] = {}  # their mean margin for the seat (points)

    def act(self, state: State) -> Action:
        """The most visited root action after the search budget is spent."""
        seat = require_seat(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        aid = self.search(state, seat)
        return next(a for a in legal if a.id == aid)

    def search(self, state: State, seat: int) -> int:
        """Run the search from `state` for `seat` and return the chosen action id.

        Python's cyclic garbage collector is paused meanwhile: a search allocates many
        small objects and no cycles, and the collector's passes over the growing tree cost
        a third of the time; anything collectable is collected once it runs again."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._search(state, seat)
        finally:
            if paused:
                gc.enable()

    def _search(self, state: State, seat: int) -> int:
        """The search itself (see search)."""
        hooks = hooks_for(state)
        rng = self.rng.spawn()
        root = _Node(seat)
        root_cands = hooks.candidates(state)
        if len(root_cands) == 1:
            self.last_iterations = 0
            return root_cands[0]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        if budget is not None and self.scale_budget:
            budget = scaled_budget(budget, hooks.mcts_iteration_weight)
        assert hooks.sampler is not None and hooks.fresh_search_evaluation is not None
        sample = hooks.sampler(state, seat)
        self._values, self._evaluate = hooks.fresh_search_evaluation(state)
        self._hand_values = self._values
        self._seat = seat
        if self.guide is not None and self.guide_values > 0:
            self._values = self._guided_values
        self._temperature = self.temperature if self.temperature is not None else \
            hooks.temperature(state) if hooks.temperature is not None else DEFAULT_TEMPERATURE
        self._stored = 0
        tree = self.tree_priors if self.tree_priors is not None else hooks.mcts_tree_priors
        priors = None
        if self.prior:
            first = sample(rng.spawn())
            if tree and hooks.hidden is not None:
                root.states = [first]
                root.cands = [None]
            depth = hooks.greedy_depth if hooks.root_prior_depth is None else \
                hooks.root_prior_depth(state)
            g = self.guide_priors if self.guide is not None else 0.0
            if g < 1:
                priors = self._softmax(root, first, seat, root_cands, hooks, depth)
            else:
                self._note_chance(root, first, root_cands, hooks)
            if g > 0:
                assert self.guide is not None
                priors = _mixed(self.guide.policy(first, root_cands), priors, g)
        if tree and priors is not None:
            root.priors = priors
        n = 0
        check = self.stop_early
        while True:
            if budget is not None:
                if n >= budget:
                    break
                if check and n and n % STOP_CHECK == 0 and _decided(root, budget - n):
                    break
            if deadline is not None and n and time.perf_counter() >= deadline:
                break
            if tree and priors is not None:
                self._iterate_puct(root, seat, hooks, rng, sample, n % self.determinizations)
            else:
                self._iterate(sample(rng.spawn()), seat, root, hooks, rng, priors)
            n += 1
        self.last_iterations = n
        self.last_kept = self._stored
        self.last_visits = {a: ch.visits for a, ch in root.children.items()}
        self.last_margins = {a: ch.margin / ch.visits for a, ch in root.children.items()
                             if ch.visits}
        best = max(root.children.items(),
                   key=lambda kv: (kv[1].visits, kv[1].reward / max(1, kv[1].visits),
                                   -kv[0]))
        return best[0]

    def _softmax(self, node: _Node, sample: Any, seat: int, cands: list[int],
                 hooks: GameHooks, depth: int) -> dict[int, float]:
        """Move probabilities: softmax of each move's lookahead value for the mover (and,
        when `sample` is the node's kept position, which moves use hidden information)."""
        keep = hooks.hidden if node.states is not None else None
        before = keep(sample) if keep is not None else None
        chance: dict[int, bool] = {}
        vals = {}
        for a in cands:
            child = sample.clone()
            child.apply(a)
            vals[a] = lookahead(child, seat, hooks, depth - 1, evaluate=self._evaluate,
                                start=sample)
            if keep is not None:
                chance[a] = keep(child) != before
        node.child_chance = chance or None
        top = max(vals.values())
        weights = {a: math.exp(max(-50.0, (v - top) / self.prior_temperature))
                   for a, v in vals.items()}
        total = sum(weights.values())
        return {a: w / total for a, w in weights.items()}

    def _select_root(self, root: _Node, cands: list[int], priors: dict[int, float]) -> int:
        """PUCT at the root: mean reward plus c_puct * prior * sqrt(N) / (1 + n)."""
        total = sum(root.children[a].visits if a in root.children else 0 for a in cands)
        sqrt_n = math.sqrt(total + 1)
        best_a = cands[0]
        best_u = float("-inf")
        for a in cands:
            ch = root.children.get(a)
            n = ch.visits if ch is not None else 0
            q = ch.reward / n if ch is not None and n else 0.5
            u = q + self.c_puct * priors.get(a, 0.0) * sqrt_n / (1 + n)
            if u > best_u:
                best_u, best_a = u, a
        return best_a

    def _node_priors(self, node: _Node, s: Any, p: int, cands: list[int],
                     hooks: GameHooks, k: int | None) -> dict[int, float]:
        """Move probabilities at a tree node: softmax of the mover's evaluation of each move.

        The evaluation is the game's `mcts_prior` when it has one; otherwise it is read
        from `values()` (the mover's value minus REL times the best other's), and those
        values are kept on the node to score each child's first visit. When `s` is a kept
        position of the node (k is its index), whether each move uses hidden information
        is noted for the child nodes (see _Node)."""
        keep = hooks.hidden if k is not None else None
        before = keep(s) if keep is not None else None
        chance: dict[int, bool] = {}
        vals: dict[int, float] = {}
        kept: dict[int, list[float]] = {}
        judge = hooks.mcts_prior
        values = self._values
        rel = hooks.relative_weight
        single = len(cands) == 1
        for a in cands:
            child = s.clone()
            child.apply(a)
            if keep is not None:
                chance[a] = keep(child) != before
            if single:
                break
            if judge is not None:
                vals[a] = judge(child, p)
            else:
                v = values(child)
                if not child.is_over():  # an end is scored by terminal_rewards
                    kept[a] = v
                vals[a] = v[p] - rel * max((x for q, x in enumerate(v) if q != p),
                                           default=0.0)
        node.child_chance = chance or None
        if single:
            return {cands[0]: 1.0}
        node.child_values = kept or None
        top = max(vals.values())
        weights = {a: math.exp(max(-50.0, (v - top) / self.prior_temperature))
                   for a, v in vals.items()}
        total = sum(weights.values())
        return {a: w / total for a, w in weights.items()}

    def _adopt(self, node: _Node, child: _Node, a: int) -> None:
        """Give a new child node its slots for kept positions (made when first walked
        through): one, or one per determinization below a move that used hidden
        information, as the priors noted (a move they did not see counts as chance)."""
        noted = node.child_chance.pop(a, None) if node.child_chance else None
        child.multi = node.multi or noted is None or noted
        size = self.determinizations if child.multi else 1
        child.states = [None] * size
        child.cands = [None] * size

    def _iterate_puct(self, root: _Node, seat: int, hooks: GameHooks, rng: Rng,
                      sample: Callable[[Rng], Any], j: int) -> None:
        """One iteration with priors at every node: PUCT down to a new node, score it, back up.

        A node's priors are the softmax of its mover's one-decision evaluation of each
        move (computed the first time the search passes through it), so every seat is
        expected to play roughly as greedy would and the tree goes deeper along such lines.

        With kept positions (see _Node) the walk plays no move: up to the first move that
        uses hidden information the position is the same in every determinization; below
        it, iteration j walks determinization j mod `determinizations` (each made once,
        from a fresh sample at that first move), a fixed number of samples as in
        determinized search. Without them (a game without a `hidden` hook, or the search
        keeps too many), it plays the moves on a fresh determinization, plain SO-ISMCTS.
        """
        node = root
        path = [root]
        s: Any = None  # this iteration's own position, once it no longer uses kept ones
        if root.states is None:
            s = sample(rng.spawn())
        cp = self.c_puct
        cutoff = self._cutoff(hooks)
        k = 0
        while True:
            if s is None:
                states, kept_cands = node.states, node.cands
                assert states is not None and kept_cands is not None
                k = j % len(states)
                here = states[k]
                if here.is_over():
                    break
                cands = kept_cands[k]
                if cands is None:
                    cands = kept_cands[k] = hooks.candidates(here)
            else:
                here = s
                if here.is_over():
                    break
                cands = hooks.candidates(here)
            p = here.to_move
            if node.priors is None:
                node.priors = self._guided_priors(node, here, p, cands, hooks,
                                                  k if s is None else None)
            priors = node.priors
            children = node.children
            if s is None and not node.multi:
                best_a = self._select_fixed(node, cands, priors, cp)
            else:
                total = 0
                fpu_sum = 0.0
                for a in cands:
                    ch = children.get(a)
                    if ch is not None and ch.visits:
                        total += ch.visits
                        fpu_sum += ch.reward
                fpu = fpu_sum / total if total else 0.5
                sqrt_n = math.sqrt(total + 1)
                default = 1.0 / len(cands)
                best_a = cands[0]
                best_u = float("-inf")
                for a in cands:
                    ch = children.get(a)
                    n = ch.visits if ch is not None else 0
                    q = ch.reward / n if ch is not None and n else fpu
                    u = q + cp * priors.get(a, default) * sqrt_n / (1 + n)
                    if u > best_u:
                        best_u, best_a = u, a
            if node is root and self.force:
                best_a = self._forced(root, cands, best_a)
            child = children.get(best_a)
            if child is None:
                child = children[best_a] = _Node(p)
                child.prior = priors.get(best_a, 1.0 / len(cands))
                if s is None:
                    self._adopt(node, child, best_a)
            path.append(child)
            if child.visits == 0:
                known = node.child_values
                if known is not None and best_a in known and cutoff == 0:
                    # scored when the priors were computed: no need to play the move
                    self._margin = _margin(known[best_a], self._seat)
                    self._backup(path, margin_rewards(known[best_a], self._temperature))
                    return
            if s is None and child.states is not None:
                kc = j % len(child.states)
                nxt = child.states[kc]
                if nxt is None and self._stored < MAX_KEPT:
                    if child.multi and not node.multi:  # the first chance: a new sample
                        nxt = hooks.determinize(here, seat, rng.spawn())
                    else:
                        nxt = here.clone()
                    nxt.apply(best_a)
                    child.states[kc] = nxt
                    self._stored += 1
                if nxt is not None:
                    node = child
                    if child.visits == 0:
                        break
                    continue
            if s is None:  # on from here with a position of this iteration's own
                s = hooks.determinize(here, seat, rng.spawn()) if not node.multi \
                    else here.clone()
            s.apply(best_a)
            node = child
            if child.visits == 0:
                break
        if s is None:
            assert node.states is not None
            here = node.states[j % len(node.states)]
            if cutoff != 0 and not here.is_over():
                s = here.clone()  # a rollout must not change the kept position
            else:
                self._backup(path, self._score(here, node))
                return
        self._backup(path, self._rollout(s, hooks, rng))

    @staticmethod
    def _select_fixed(node: _Node, cands: list[int], priors: dict[int, float],
                      cp: float) -> int:
        """PUCT where every child is always available (one kept position): the node's sums
        give N and the first-play urgency, and of the moves never tried only the one with
        the highest prior can score best, so only it and the tried ones are looked at."""
        children = node.children
        total = node.child_visits
        fpu = node.child_reward / total if total else 0.5
        scale = cp * math.sqrt(total + 1)
        order = node.order
        if order is None:
            default = 1.0 / len(cands)
            order = node.order = sorted(((a, priors.get(a, default)) for a in cands),
                                        key=lambda ap: -ap[1])
        i = node.next_i
        while i < len(order) and order[i][0] in children:
            i += 1
        node.next_i = i
        best_a = -1
        best_u = float("-inf")
        if i < len(order):
            best_a, prior = order[i]
            best_u = fpu + scale * prior
        for a, ch in children.items():
            n = ch.visits
            u = ch.reward / n + scale * ch.prior / (1 + n)
            if u > best_u:
                best_u, best_a = u, a
        return best_a

    def _backup(self, path: list[_Node], rewards: list[float]) -> None:
        """Count a visit and the mover's reward in every node below the root (and in its
        parent's sums over the children); the root's child adds the root seat's margin."""
        if len(path) > 1:
            path[1].margin += self._margin
        parent = path[0]
        for nd in path[1:]:
            r = rewards[nd.seat]
            nd.visits += 1
            nd.reward += r
            parent.child_visits += 1
            parent.child_reward += r
            parent = nd

    def _score(self, s: Any, node: _Node | None = None) -> list[float]:
        """Every clan's reward at a position as it stands (the end, or the evaluation);
        with a guide, its move scores there are kept on `node` for the node's priors."""
        if s.is_over():
            totals = [float(sc["total"]) for sc in s.scores()]
            self._margin = _margin(totals, self._seat)
            return terminal_rewards(s, self._temperature)
        if node is not None and self.guide is not None and self.guide_values > 0 \
                and self.guide_priors > 0 and s.to_move is not None:
            logits, vals = self.guide.evaluate(s)
            if node.logits is None:
                node.logits = logits
            vals = self._blend(s, vals)
        else:
            vals = self._values(s)
        self._margin = _margin(vals, self._seat)
        return margin_rewards(vals, self._temperature)

    def _blend(self, s: Any, guided: list[float]) -> list[float]:
        """The guide's values mixed with the game's evaluation by `guide_values`."""
        w = self.guide_values
        if w >= 1:
            return guided
        hand = self._hand_values(s)
        return [w * g + (1 - w) * h for g, h in zip(guided, hand, strict=True)]

    def _guided_values(self, s: Any) -> list[float]:
        """Every clan's value by the guide (mixed with the game's evaluation)."""
        if s.to_move is None:
            return self._hand_values(s)
        return self._blend(s, self.guide.values(s)) if self.guide is not None else []

    def _guided_priors(self, node: _Node, s: Any, p: int, cands: list[int],
                       hooks: GameHooks, k: int | None) -> dict[int, float]:
        """A node's priors: the guide's move probabilities (its scores kept on the node,
        else computed) mixed with the hand priors by `guide_priors`, or the hand ones."""
        g = self.guide_priors if self.guide is not None else 0.0
        if g <= 0:
            return self._node_priors(node, s, p, cands, hooks, k)
        assert self.guide is not None
        hand = self._node_priors(node, s, p, cands, hooks, k) if g < 1 else None
        if hand is None and k is not None:
            self._note_chance(node, s, cands, hooks)
        logits = node.logits
        node.logits = None  # (no longer needed)
        net = self.guide.policy(s, cands) if logits is None else _softmax_of(logits, cands)
        return _mixed(net, hand, g)

    @staticmethod
    def _note_chance(node: _Node, s: Any, cands: list[int], hooks: GameHooks) -> None:
        """Note which moves from the kept position `s` use hidden information (what the
        hand priors note on their way), so the child nodes keep positions as they do."""
        keep = hooks.hidden
        if keep is None or len(cands) < 2:
            node.child_chance = None
            return
        before = keep(s)
        chance: dict[int, bool] = {}
        for a in cands:
            child = s.clone()
            child.apply(a)
            chance[a] = keep(child) != before
        node.child_chance = chance

    def _forced(self, root: _Node, cands: list[int], best_a: int) -> int:
        """The first forced root move short of `force_visits` visits, else `best_a`."""
        for a in self.force:
            ch = root.children.get(a)
            if a in cands and (ch is None or ch.visits < self.force_visits):
                return a
        return best_a

    def _iterate(self, s: Any, seat: int, root: _Node, hooks: GameHooks, rng: Rng,
                 priors: dict[int, float] | None = None) -> None:
        """One iteration from `s`, a fresh determinization: select, expand, roll out, back up."""
        node = root
        path = [root]
        c = self.c
        if priors is not None:
            cands = hooks.candidates(s)
            a = self._select_root(root, cands, priors)
            child = root.children.get(a)
            if child is None:
                child = root.children[a] = _Node(seat)
            s.apply(a)
            node = child
            path.append(child)
            if child.visits == 0:
                rewards = self._rollout(s, hooks, rng)
                child.visits += 1
                child.reward += rewards[seat]
                child.margin += self._margin
                return
        while not s.is_over():
            p = s.to_move
            cands = hooks.candidates(s)
            untried = [a for a in cands if a not in node.children]
            for a in cands:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = _Node(p)
                child.avail = 1
                node.children[a] = child
                s.apply(a)
                path.append(child)
                break
            best_a = cands[0]
            best_u = float("-inf")
            for a in cands:
                ch = node.children[a]
                u = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best_u, best_a = u, a
            node = node.children[best_a]
            s.apply(best_a)
            path.append(node)
        self._backup(path, self._rollout(s, hooks, rng))

    def _cutoff(self, hooks: GameHooks) -> int | None:
        """Rollout decisions before scoring: the setting, or AUTO's choice for the game."""
        if self.rollout_depth == AUTO:
            return 0 if hooks.has_evaluation else None
        return self.rollout_depth

    def _rollout(self, s: Any, hooks: GameHooks, rng: Rng) -> list[float]:
        """Play on by the rollout policy, then the reward of every clan."""
        steps = 0
        limit = self._cutoff(hooks)
        greedy = self.rollout == "greedy"
        while not s.is_over() and (limit is None or steps < limit):
            p = s.to_move
            if greedy:
                a = choose(s, p, hooks, 1, rng, self.epsilon, evaluate=self._evaluate)
            else:
                cands = hooks.candidates(s)
                a = cands[0] if len(cands) == 1 else rng.choice(cands)
            s.apply(a)
            steps += 1
        if s.is_over():
            totals = [float(sc["total"]) for sc in s.scores()]
            self._margin = _margin(totals, self._seat)
            return terminal_rewards(s, self._temperature)
        vals = self._values(s)
        self._margin = _margin(vals, self._seat)
        return margin_rewards(vals, self._temperature)


class Guide(Protocol):
    """A learned policy and value (kamon.learn.guide): what the search asks of it."""

    def evaluate(self, state: Any) -> tuple[Any, list[float]]:
        """Move scores (indexable by action id) of the seat to move, and every clan's
        estimated final points, from that seat's observation of `state`."""
        ...

    def values(self, state: Any) -> list[float]:
        """Every clan's estimated final points alone (no move scores: cheaper)."""
        ...

    def policy(self, state: Any, cands: list[int]) -> dict[int, float]:
        """The seat to move's probabilities of the moves `cands`."""
        ...


def _softmax_of(logits: Any, cands: list[int]) -> dict[int, float]:
    """A softmax of the scores of `cands` only."""
    vals = [float(logits[a]) for a in cands]
    top = max(vals)
    weights = [math.exp(max(-50.0, v - top)) for v in vals]
    total = sum(weights)
    return {a: w / total for a, w in zip(cands, weights, strict=True)}


def _mixed(net: dict[int, float], hand: dict[int, float] | None, g: float
           ) -> dict[int, float]:
    """`g` of the guide's probabilities and the rest of the hand ones (all: without)."""
    if hand is None or g >= 1:
        return net
    return {a: g * net.get(a, 0.0) + (1 - g) * p for a, p in hand.items()}


def _margin(vals: list[float], seat: int) -> float:
    """The seat's value minus the best other clan's (its own when alone)."""
    if seat >= len(vals):
        return 0.0
    others = [v for q, v in enumerate(vals) if q != seat]
    return vals[seat] - max(others, default=0.0)


def _decided(root: _Node, remaining: int) -> bool:
    """Whether the root's most visited move stays the most visited whatever the
    `remaining` iterations do: each adds one visit to one root move, so a lead of more
    than `remaining` visits over every other move cannot be caught (nor tied)."""
    first = second = 0
    for ch in root.children.values():
        v = ch.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


def _sigmoid(x: float) -> float:
    """The logistic function, safe for large arguments."""
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def margin_rewards(vals: list[float], temperature: float) -> list[float]:
    """Per clan: sigmoid of its lead over the best other clan, in units of temperature."""
    if len(vals) < 2:
        return [1.0] * len(vals)
    top = max(vals)
    lead = vals.index(top)
    second = max(v for q, v in enumerate(vals) if q != lead)
    return [_sigmoid((v - (second if q == lead else top)) / temperature)
            for q, v in enumerate(vals)]


def terminal_rewards(state: State, temperature: float) -> list[float]:
    """Per clan at the end: half a (shared) win, half the sigmoid of the final margin."""
    totals = [float(sc["total"]) for sc in state.scores()]
    winners = state.winners()
    margins = margin_rewards(totals, temperature)
    share = 1.0 / len(winners) if winners else 0.0
    return [0.5 * (share if q in winners else 0.0) + 0.5 * margins[q]
            for q in range(len(totals))]
