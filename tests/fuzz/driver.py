"""The game-agnostic fuzz driver: random legal play with every invariant checked after each
decision, with illegal actions and malformed notation interleaved.

A `Spec` says how to start one game mode and how to check it (each game's own invariant
helpers, tests/<game>/invariants.py). `play` drives a game from a seed with a choice
policy; at random decisions it first offers the state bad input (ids that are not legal,
out of range or not ids at all, and notation that is garbage, illegal or almost right),
each of which must be refused with IllegalAction and a message and leave `dumps()`
byte-identical, and it sends the state through JSON and back (exact, same legal ids,
play goes on from the copy). `STATS` counts what was checked, for the summary line
that tests/fuzz/conftest.py prints.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kamon.core.errors import IllegalAction
from kamon.core.protocol import Action, Game, State

STATS: Counter[str] = Counter()

# Choice policies: which legal action to take (the fuzzing explores more than uniform play).
POLICIES = ("uniform", "first", "last", "decline", "exchange", "mixed")
# Characters for garbage notation: letters, digits, spacing, and Unicode digits and
# numerals that str.isdigit() accepts but int() may not.
ALPHABET = ("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789-+_.,;:!?#/\\'\"()[]{}<>"
            "\t\n\r\x00\u00a0\u200b\u3000²³¹٣۴߂०১෧๓½Ⅻ①⑩東白城é")


@dataclass
class Checker:
    """Checks one game as it is played: `after` runs after every applied decision."""

    check: Callable[[State, str], None]
    before: Callable[[State], Any] = lambda state: None
    transition: Callable[[Any, int, State, str], None] = lambda snap, aid, state, where: None

    def after(self, snap: Any, aid: int, state: State, where: str) -> None:
        """What the action changed, then the invariants of the state it left."""
        self.transition(snap, aid, state, where)
        self.check(state, where)


@dataclass
class Spec:
    """A game mode to fuzz: how to start it and how to check a state of it."""

    label: str
    game: Game
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    # state -> a Checker for a game started with new_game (it may track the first round).
    checker: Callable[[State], Checker] = lambda state: Checker(lambda s, w: None)
    # state -> a Checker for a state loaded from JSON (whose earlier play was not seen).
    loaded_checker: Callable[[State], Checker] | None = None

    def new(self, seed: int) -> State:
        """A new game of this mode."""
        return self.game.new_game(self.players, seed, **self.options)

    def checker_for_loaded(self, state: State) -> Checker:
        """The checker of a state read from JSON."""
        return (self.loaded_checker or self.checker)(state)


@dataclass
class Rates:
    """How often, per decision, bad input is tried and the state sent through JSON."""

    bad_input: float = 0.1
    roundtrip: float = 0.02


def dumps(state: State) -> str:
    """Canonical JSON text of a state (byte-identical comparisons)."""
    return json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))


def choose(state: State, policy: str, rnd: random.Random) -> Action:
    """A legal action by the policy (uniform, first, last, prefer declining, prefer the
    Daimyo-seal exchanges, or a random one of those per decision)."""
    acts = state.legal_actions()
    if policy == "mixed":
        policy = POLICIES[rnd.randrange(len(POLICIES) - 1)]
    if policy == "first":
        return acts[0]
    if policy == "last":
        return acts[-1]
    if policy in ("decline", "exchange"):
        words = ("done", "pass") if policy == "decline" else ("exchange",)
        liked = [a for a in acts if a.text.split(" ", 1)[0] in words]
        if liked and rnd.random() < 0.8:
            return liked[rnd.randrange(len(liked))]
    return acts[rnd.randrange(len(acts))]


# ----------------------------------------------------------------------- bad input


def garbage(rnd: random.Random) -> str:
    """A random string (now and then very long)."""
    n = rnd.choice((0, 1, 2, 5, 12, 30, 80)) if rnd.random() < 0.97 else 20_000
    return "".join(rnd.choice(ALPHABET) for _ in range(n))


def bad_notation(state: State, game: Game, rnd: random.Random) -> str:
    """Text that names no legal action, or names one in a mangled way."""
    legal = [a.text for a in state.legal_actions()]
    kind = rnd.randrange(9)
    if kind == 0:
        return garbage(rnd)
    if kind == 1:  # the notation of an action that is not legal now
        return game.action_text(rnd.randrange(game.num_actions))
    if kind == 2:  # a legal notation with something added
        return rnd.choice(legal) + rnd.choice((" x", "x", " 1", "!", " done", "\x00"))
    if kind == 3:  # a legal notation cut short
        text = rnd.choice(legal)
        return text[:rnd.randrange(len(text))]
    if kind == 4:  # a legal notation in other case and spacing (parses: that is allowed)
        text = rnd.choice(legal)
        return "  " + "\t".join(text.upper().split(" ")) + " \n"
    if kind == 5:  # numbers that are no id, or ids written oddly
        return rnd.choice(("-1", "-0", "+3", "3.0", "1e3", "0x10", " 7 ", "٣", "²", "१०",
                           "½", "Ⅻ", str(game.num_actions), str(2 ** 64), "9" * 5000,
                           "-" + "9" * 5000, "0" * 4400 + "1"))
    if kind == 6:  # an id that is legal, as digits (parses to that action)
        return str(rnd.choice(state.legal_actions()).id)
    if kind == 7:  # two notations in one
        return " ".join(rnd.sample(legal, min(2, len(legal))) or ["done"])
    return rnd.choice(("", " ", "\n", "done done", "exchange", "take", "marry", "obtain",
                       "help", "?", "None", "null", "[]", "{}"))


def bad_action(state: State, game: Game, rnd: random.Random) -> object:
    """Something `apply` must refuse: an id that is not legal, out of range, or not an id."""
    legal = {a.id for a in state.legal_actions()}
    kind = rnd.randrange(6)
    if kind <= 1:
        illegal = [i for i in range(game.num_actions) if i not in legal]
        if illegal:
            return rnd.choice(illegal)
    if kind == 2:
        return rnd.choice((-1, -(2 ** 70), game.num_actions, game.num_actions + 1, 2 ** 70))
    if kind == 3:
        some = rnd.choice(sorted(legal)) if legal else 0
        return rnd.choice((None, "0", str(some), float(some), some + 0.5, True, False,
                           [some], (some,), {"id": some}, b"\x00", object()))
    if kind == 4:  # an Action with an id that is not legal now (its text aside)
        illegal = [i for i in range(game.num_actions) if i not in legal]
        if illegal:
            i = rnd.choice(illegal)
            return Action(i, game.action_text(i))
    some = rnd.choice(sorted(legal)) if legal else 0
    return Action(rnd.choice((-5, game.num_actions, 2 ** 70)), game.action_text(some))


def offer_bad_input(state: State, game: Game, rnd: random.Random, where: str) -> None:
    """Offer a few bad actions and bad notations: each refused with IllegalAction and a
    message (or, for a legal notation written oddly, read as that action), nothing changed."""
    before = dumps(state)
    legal = {a.id: a for a in state.legal_actions()}
    for _ in range(rnd.randrange(1, 4)):
        if rnd.random() < 0.5:
            bad = bad_action(state, game, rnd)
            try:
                state.apply(bad)  # type: ignore[arg-type]
            except IllegalAction as exc:
                assert str(exc).strip(), f"{where}: refusal of {bad!r} without a message"
            else:
                raise AssertionError(f"{where}: apply({bad!r}) was accepted")
            STATS["bad actions refused"] += 1
        else:
            text = bad_notation(state, game, rnd)
            try:
                got = game.parse_action(state, text)
            except IllegalAction as exc:
                assert str(exc).strip(), f"{where}: refusal of {text[:60]!r} without a message"
                STATS["bad notations refused"] += 1
            else:
                assert legal.get(got.id) == got, (
                    f"{where}: {text[:60]!r} read as {got!r}, which is not legal")
                norm = " ".join(text.strip().lower().split())
                as_id = norm.lstrip("-").isascii() and norm.lstrip("-").isdigit() and int(
                    norm) == got.id
                assert norm == got.text or as_id, f"{where}: {text[:60]!r} read as {got.text!r}"
                STATS["odd notations read"] += 1
        assert dumps(state) == before, f"{where}: bad input changed the state"


# --------------------------------------------------------------------- playing


def through_json(state: State, game: Game, where: str) -> State:
    """The state through JSON text and back: identical text, identical legal ids."""
    text = dumps(state)
    copy = game.from_json(json.loads(text))
    assert dumps(copy) == text, f"{where}: the JSON round trip differs"
    assert [a.id for a in copy.legal_actions()] == [a.id for a in state.legal_actions()], (
        f"{where}: the legal actions differ after a JSON round trip")
    STATS["json round trips"] += 1
    return copy


def look(state: State, checker: Checker, rnd: random.Random, where: str) -> None:
    """What front ends and bots read: every seat's view (JSON text, no seed or RNG), the
    decision and every legal action in words, and a determinized copy that keeps the
    invariants and the public view."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        json.dumps(view)
        assert "rng" not in view and "seed" not in view, f"{where}: the view shows the RNG"
    assert state.decision_text().strip(), f"{where}: no decision text"
    for action in state.legal_actions():
        assert state.describe(action.id).strip(), f"{where}: {action.text!r} undescribed"
    seat = state.to_move
    sample = state.determinize(seat, random.Random(rnd.getrandbits(32)))
    checker.check(sample, f"{where} determinized")
    assert sample.view(seat) == state.view(seat), f"{where}: determinize changed the view"
    STATS["views and determinizations checked"] += 1


def play(spec: Spec, state: State, checker: Checker, policy: str, rnd: random.Random,
         rates: Rates, where: str, limit: int = 5000) -> int:
    """Play `state` to the end by the policy, checking after every decision; returns the
    number of decisions checked."""
    start = time.perf_counter()
    n = 0
    while not state.is_over():
        assert n < limit, f"{where}: no end after {limit} decisions"
        at = f"{where} decision {n}"
        if rnd.random() < rates.bad_input:
            offer_bad_input(state, spec.game, rnd, at)
        if rnd.random() < rates.roundtrip:
            state = through_json(state, spec.game, at)
            look(state, checker, rnd, at)
        action = choose(state, policy, rnd)
        snap = checker.before(state)
        state.apply(action)
        checker.after(snap, action.id, state, f"{at} ({action.text!r})")
        n += 1
    assert state.to_move is None and state.legal_actions() == [], f"{where}: moves after the end"
    scores = state.scores()
    assert len(scores) >= state.num_players, f"{where}: {len(scores)} score rows"
    assert all(row["total"] == sum(v for k, v in row.items() if k != "total")
               for row in scores), f"{where}: a total is not the sum of its categories"
    assert state.winners(), f"{where}: no winner at the end"
    STATS["decisions checked"] += n
    STATS["games played to the end"] += 1
    STATS["seconds"] += time.perf_counter() - start  # type: ignore[assignment]
    return n
