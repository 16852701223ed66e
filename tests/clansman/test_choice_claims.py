"""What a choice's words say it costs and gives is what playing it does (issue 36, item 5).

Over random games of every set-up (Beginner, Expert with Emperor cards on side A and on
side B, the unofficial variants), every described choice is played on a copy (only its
own step: the round's end is not part of it) and its words held to the result:

* the Victory Points it says (a Mission's, Empress Jito's extra one at the end, the
  Mirrors under a Kofun, a Beginner Mirror's, a first temple's Statues, a Statue kept
  while it scores, minus a scoring Statue paid) are the change of the player's score
  as the game would end now;
* the Iron it says it gives (a Mission's, Emperor Keitai's) is the Iron gained, and the
  Tadokoro it says are paid or gained are.

Positions built for Emperor Keitai (006, Expert B), Empress Jito (007) and a temple
owner paying a Statue pin each statement once more.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from kamon.games.clansman import GAME
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import IRON, STATUE, load_data
from kamon.games.clansman.state import ClansmanState
from tests.clansman.conftest import new, put, refresh

CARDS = load_data().cards
CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (4, {}), (4, {"expert": True, "emperor_side": "A"}),
    (4, {"expert": True, "emperor_side": "B"}),
    (4, {"expert": True, "emperor_side": "A", "emperor_variant": "008,009"}),
    (3, {"variant": "small-table"})]
VP_SAID = (
    r"; gain (\d+) \w+ VP",                              # the card's own
    r"\+ (\d+) \w+ VP at the game's end",                # Empress Jito
    r"under it \((\d+) \w+ VP\)",                        # Mirrors under a Kofun
    r"\b\d+ mirrors? \((\d+) VP\)",                      # a Beginner Mirror
    r"then score \d+ religion VP each \((\d+) VP\)",     # a first temple's Statues
    r"scores? (\d+) VP while you keep",                  # a Statue gained, kept
)
STATUE_PAID = re.compile(r"paid takes? (\d+) VP")


def _said_vp(text: str, paid: tuple[tuple[int, int], ...] | None) -> int:
    """The VP change the words say (a Statue's loss only if the cost paid has one)."""
    vp = sum(int(m) for pattern in VP_SAID for m in re.findall(pattern, text))
    m = STATUE_PAID.search(text)
    if m and (paid is None or dict(paid).get(STATUE, 0)):
        vp -= int(m[1])
    return vp


def _said_iron(text: str) -> int:
    """The Iron the words say is gained."""
    gain = text.split("; gain ", 1)[1] if "; gain " in text else ""
    return sum(int(n) for n in re.findall(r"\+ (\d+) iron\b", gain))


def _outcomes(state: ClansmanState, aid: int) -> Iterator[tuple[ClansmanState, Any]]:
    """The position after the action's own step (each printed cost, when a payment is
    to be chosen), with the cost paid (None: not an obtain)."""
    s = state.clone()
    s._do(aid)
    if s.step == "payment" and s.pending is not None:
        cid = s.pending
        for i in s.payable_options(state.to_move, cid):
            t = s.clone()
            t._do(A.PAYMENT[i])
            yield t, CARDS[cid].costs[i]
        return
    cost = None
    if aid in A.OBTAIN_OF:
        cid = A.OBTAIN_OF[aid]
        cost = CARDS[cid].costs[state.payable_options(state.to_move, cid)[0]]
    elif state.step == "payment" and aid in A.PAYMENT_OF and state.pending is not None:
        cost = CARDS[state.pending].costs[A.PAYMENT_OF[aid]]
    yield s, cost


def _check(state: ClansmanState, aid: int) -> list[str]:
    """What is wrong with the words of action `aid` in `state` (empty: nothing)."""
    text = state.describe(aid)
    p = state.to_move
    assert p is not None
    vp0 = state.scores()[p]["total"]
    pl0 = state.players[p]
    bad = []
    for s, cost in _outcomes(state, aid):
        pl = s.players[p]
        vp = s.scores()[p]["total"] - vp0
        said = _said_vp(text, cost)
        if vp != said:
            bad.append(f"VP {vp:+d}, said {said:+d} (paid {cost})")
        if aid in A.OBTAIN_OF or (state.step == "payment" and aid in A.PAYMENT_OF):
            iron = pl.iron - pl0.iron + dict(cost or ()).get(IRON, 0)
            if iron != _said_iron(text) and "; gain " in text:
                bad.append(f"iron {iron:+d}, said {_said_iron(text):+d}")
        tadokoro = pl.tadokoro - pl0.tadokoro
        if aid in A.MARRY_OF:
            said_t = 0 if text.endswith(": free") else -1
            if tadokoro != said_t:
                bad.append(f"Tadokoro {tadokoro:+d}, said {said_t:+d}")
            q, _ = state.target_of(A.MARRY_OF[aid])
            if q >= 0 and q != p and s.players[q].tadokoro - state.players[q].tadokoro != 1:
                bad.append("the groom's clan did not get the Tadokoro")
        elif aid in (A.OBTAIN_F, A.OBTAIN_G):
            said_t = int(re.search(r"gain (\d+) Tadokoro", text)[1])  # type: ignore[index]
            if tadokoro != said_t:
                bad.append(f"Tadokoro {tadokoro:+d}, said {said_t:+d}")
    return [f"{A.TEXTS[aid]!r} -> {text!r}: {b}" for b in bad]


def _positions(players: int, options: dict[str, Any], seed: int) -> Iterator[ClansmanState]:
    """Every decision of a random game."""
    state = GAME.new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_over():
        yield state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(map(str, o.values())) or 'beginner'}"
                              for n, o in CONFIGS])
def test_every_described_choice_costs_and_gives_what_it_says(
        players: int, options: dict[str, Any]) -> None:
    """Two random games of each set-up: every legal choice played on a copy gives the
    VP, Iron and Tadokoro its words say."""
    bad: list[str] = []
    for seed in range(2):
        for state in _positions(players, options, seed):
            for a in state.legal_actions():
                bad += _check(state, a.id)
    assert not bad, f"{len(bad)} wrong descriptions, e.g. " + "\n".join(bad[:6])


# --- the statements of the issue, one position each -------------------------------------

def _producing(options: dict[str, Any], round_: int, seed: int = 1) -> ClansmanState:
    """Seat 0 producing in round `round_` (the rounds before played by own marriages and
    free Tadokoro), with a full pool."""
    state = new(seed, **options)
    rng = random.Random(seed)
    while not (state.round == round_ and state.phase == "production" and state.to_move == 0):
        legal = state.legal_actions()
        free = [a for a in legal if a.text in ("obtain 1 tadokoro",)
                or a.text.startswith("marry 300")]
        state.apply(free[0] if free else rng.choice(legal))
    state.pool = [9] * len(state.pool)
    refresh(state)
    return state


def test_keitai_says_the_extra_iron_of_a_military_mission() -> None:
    """Emperor Keitai (006, side B, 6th Century): 'every time when a player obtains a
    Mission card with Military (red) VPs, he/she gains 1 additional Iron token'."""
    state = _producing({"expert": True, "emperor_side": "B"}, 9)
    assert state.century == 6
    put(state, "606", state.supply)
    aid = A.OBTAIN["606"]
    text = state.describe(aid)
    assert "gain 4 military VP + 1 iron from Emperor Keitai" in text, text
    assert not _check(state, aid)


def test_jito_says_the_extra_vp_of_a_government_mission() -> None:
    """Empress Jito (007, side B, 7th Century): 'each player gains 1 additional
    Government (purple) VP for each Mission card with Government (purple) VPs he/she
    obtained' — a 4-VP Government Mission scores 5."""
    state = _producing({"expert": True, "emperor_side": "B"}, 13)
    put(state, "612", state.supply)
    aid = A.OBTAIN["612"]
    text = state.describe(aid)
    assert "gain 4 government VP + 1 government VP at the game's end from Empress Jito" \
        in text, text
    assert not _check(state, aid)


def test_paying_a_scoring_statue_says_it_costs_its_vp() -> None:
    """A Statue scores 1 VP to a temple owner (lines 716, 724): paying one with it (609
    Teibi War costs 3 Soldiers and 1 Statue) costs that VP, and the words say so."""
    state = _producing({}, 9)
    pl = state.players[0]
    put(state, "601", pl.clans)
    pl.statue = 2
    put(state, "609", state.supply)
    aid = A.OBTAIN["609"]
    text = state.describe(aid)
    assert "gain 6 others VP" in text and "the Statue paid takes 1 VP with it" in text, text
    assert not _check(state, aid)
    pl.clans.remove("601")
    refresh(state)
    assert "Statue paid" not in state.describe(aid)  # no temple: a Statue scores nothing


def test_a_first_temple_says_the_statues_it_makes_score() -> None:
    """'If you own a temple, each Statue token provides 1 Religion (yellow) VP': obtaining
    the first temple with Statues held scores them."""
    state = _producing({}, 9)
    pl = state.players[0]
    pl.statue = 3
    put(state, "602", state.supply)
    aid = A.OBTAIN["602"]
    text = state.describe(aid)
    assert "your 2 Statues then score 1 religion VP each (2 VP)" in text, text
    assert not _check(state, aid)


def test_a_mirror_says_what_it_is_worth() -> None:
    """A Mirror is 1 VP in the Beginner game (line 293); in the Expert game it scores only
    under a Kofun obtained after it (lines 311-313)."""
    state = _producing({}, 1)
    put(state, "405", state.supply)
    text = state.describe(A.OBTAIN["405"])
    assert "1 mirror (1 VP)" in text, text
    assert not _check(state, A.OBTAIN["405"])
    expert = _producing({"expert": True}, 1)
    put(expert, "405", expert.supply)
    text = expert.describe(A.OBTAIN["405"])
    assert "1 mirror (no VP now; 2 VP each if it goes under a Kofun you obtain later)" \
        in text, text
    assert not _check(expert, A.OBTAIN["405"])
