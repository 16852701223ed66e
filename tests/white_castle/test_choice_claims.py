"""What a choice's words say it costs and gives is what playing it does (issue 36, item 5).

Over random games of every set-up (1-4 players, the first-game set-up), every described
choice is played on a copy and its words held to the result:

* a payment ("pay 3 coins", "pay 5 iron") is what leaves the clan's stores, and the part
  "by exchanging N Daimyo seals" is exactly the seals exchanged (none when not said);
* a climb says the card it gives as the new action card — or, the floor's deck empty,
  that the action card is kept — and, at the top, whether a slot of the Daimyo's favour
  is left;
* a block, worker action or "pay to perform" that the words say cannot be paid or
  performed cannot be, in any order of the turn's other blocks and choices; one not so
  marked can be, in some order;
* a gain a store's limit cuts ("1 food is lost (at most 7)") is cut by that much.

Positions built for the edge cases the issue counted (an empty deck, a full Daimyo's
favour, a seal block without a seal, an unpayable action-card block, a worker action with
nothing to perform, a payment partly by seals) pin each statement once more.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kamon.games.white_castle import GAME
from kamon.games.white_castle import actions as A
from kamon.games.white_castle.data import RESOURCES, ROWS, WORKERS
from kamon.games.white_castle.frames import Choice, Courtier, Frame, Outside, Place, Row
from kamon.games.white_castle.names import words
from kamon.games.white_castle.state import WhiteCastleState
from tests.white_castle.conftest import after_draft, frame, play_until, refresh

CONFIGS = [(n, {}) for n in (2, 3, 4)] + [(4, {"first_game": True})] + [
    (1, {"difficulty": d}) for d in ("easy", "medium", "hard")]
PAY_COINS = re.compile(r"pay (\d+) coins?(?: \((\d+) of them by exchanging (\d+) Daimyo seals?\))?")
PAY_RES = re.compile(r"pay (\d+) (food|iron|pearl)(?: \((\d+) of it by exchanging (\d+) Daimyo "
                     r"seals?\))?")
CANNOT = ("you cannot pay it", "you cannot perform it", "once paid, you cannot perform it")
MAX_NODES = 400  # decisions one search of a turn's orders may try


def _log_after(state: WhiteCastleState, aid: int) -> list[str]:
    """The log lines playing `aid` on a copy writes."""
    s = state.clone()
    n = len(s.events)
    s.apply(aid)
    return s.events[n:]


def _failed(lines: list[str], frames: bool = False) -> bool:
    """Whether log lines say a worker action could not be performed or a "pay to
    perform" paid (`frames`: or a set of blocks used at all)."""
    return any(re.search(r"cannot perform the (?:courtier|gardener|warrior) action"
                         r"|cannot pay for" + (r"|can use no block|cannot perform \w+ card"
                                               if frames else ""), ln)
               for ln in lines)


def _search(state: WhiteCastleState, p: int, alive: Callable[[WhiteCastleState], bool],
            visit: Callable[[WhiteCastleState], bool]) -> Iterator[WhiteCastleState]:
    """Every position p's own decisions can reach while `alive` holds (seal exchanges
    aside), each passed to `visit`; a branch stops where `visit` says True. Bounded by
    MAX_NODES."""
    todo = [state]
    seen = 0
    while todo and seen < MAX_NODES:
        s = todo.pop()
        seen += 1
        yield s
        if visit(s) or not alive(s) or s.to_move != p:
            continue
        for a in s.legal_actions():
            if a.text.startswith("exchange"):
                continue
            t = s.clone()
            t.apply(a.id)
            todo.append(t)


def _frame_alive(k: int, test: Callable[[Frame], bool]
                 ) -> Callable[[WhiteCastleState], bool]:
    """Whether the frame at stack index k is still the one `test` recognises."""
    return lambda t: len(t.stack) > k and test(t.stack[k])


def _immediate(state: WhiteCastleState, aid: int) -> WhiteCastleState:
    """A copy with only the action's own step done (no automatic steps after it)."""
    s = state.clone()
    s._do(aid)
    return s


def _check_payment(state: WhiteCastleState, aid: int, text: str, p: int) -> list[str]:
    """A payment in the words leaves the stores as said (and the seals exchanged)."""
    bad = []
    before = state.clans[p]
    after = _immediate(state, aid).clans[p]
    text = text.split(", ")[0]  # the choice's own payment (what it sets off comes after)
    m = PAY_COINS.search(text)
    if m and not text.startswith("exchange"):
        n, part, seals = int(m[1]), int(m[2] or 0), int(m[3] or 0)
        if part != seals:
            bad.append("a coin costs one seal")
        coins = after.coins - before.coins
        if (coins, after.seals - before.seals) != (-(n - part), -seals):
            bad.append(f"coins {coins:+d}, seals {after.seals - before.seals:+d}")
    m = PAY_RES.search(text)
    if m and aid not in A.PLACE_OF:
        n, r = int(m[1]), RESOURCES.index(m[2])
        part, seals = int(m[3] or 0), int(m[4] or 0)
        if seals != 2 * part:
            bad.append("a resource costs two seals")
        got = after.res[r] - before.res[r]
        if (got, after.seals - before.seals) != (-(n - part), -seals):
            bad.append(f"{m[2]} {got:+d}, seals {after.seals - before.seals:+d}")
    return bad


def _check_room_blocks(state: WhiteCastleState, aid: int, text: str, p: int) -> list[str]:
    """Each block of a room placement: marked unpayable or unperformable exactly when it
    is so in every order of the turn's choices."""
    room = A.PLACE_OF[aid]
    _, tail = text.split(", then ", 1) if ", then " in text else ("", "")
    claims = dict(re.findall(r"\b(top|middle|bottom|upper|lower) block \((.*?)\)(?=, the |$)",
                             tail))
    s = state.clone()
    s.apply(aid)
    alive = _frame_alive(len(state.stack) - 1,
                         lambda f: f.kind == "blocks" and f.label == A.SPACES[room])
    bad = []
    for name, words_ in claims.items():
        block = A.BLOCK[(room, A.BLOCK_NAMES[room].index(name))]
        said_no = any(c in words_ for c in CANNOT)
        usable = performed = False
        def found(t: WhiteCastleState, block: int = block) -> bool:
            return alive(t) and block in t.legal_ids()

        for t in _search(s, p, alive, found):
            if alive(t) and block in t.legal_ids():
                usable = True
                performed = performed or not _failed(_log_after(t, block))
        ok = usable and performed
        if said_no == ok:
            bad.append(f"{name} block said {'not ' if said_no else ''}usable, but it "
                       f"{'is' if ok else 'is not'} in some order")
    return bad


def _check_card_block(state: WhiteCastleState, aid: int, text: str, p: int) -> list[str]:
    """A personal-domain row's action-card block: marked unpayable/unperformable exactly
    when it is so whatever p chooses before it."""
    if "then the action card block: " not in text:
        return []
    said_no = any(c in text.split("then the action card block: ", 1)[1] for c in CANNOT)
    s = state.clone()
    s.apply(aid)
    k = len(state.stack) - 1
    alive = _frame_alive(k, lambda f: f.kind == "blocks" and f.label.endswith("card block"))
    ok = False

    def at_card_block(t: WhiteCastleState) -> bool:
        return alive(t) and len(t.stack) == k + 1

    reached = False
    for t in _search(s, p, alive, at_card_block):
        if at_card_block(t):
            reached = True
            card = [a for a in t.legal_ids() if a in A.CARD_BLOCK_OF]
            ok = ok or any(not _failed(_log_after(t, c)) for c in card)
    if not reached:  # the frame resolved by itself: the block could not be used
        ok = ok or not _failed(s.events[len(state.events):], frames=True)
    return [] if said_no != ok else [f"card block said {'not ' if said_no else ''}usable"]


def _check(state: WhiteCastleState, aid: int) -> list[str]:
    """What is wrong with the words of action `aid` in `state` (empty: nothing)."""
    text = state.describe(aid)
    f = state.stack[-1]
    p = f.seat
    bad = _check_payment(state, aid, text, p)
    if aid in A.PLACE_OF:
        s = A.PLACE_OF[aid]
        if s < 5:
            bad += _check_room_blocks(state, aid, text, p)
        elif s < 7:
            t = state.clone()
            t.apply(aid)
            while t.stack and t.stack[-1].kind != "outside" and t.to_move == p:
                t.apply(next(a for a in t.legal_actions() if not a.text.startswith("exchange")))
            if t.stack and t.stack[-1].kind == "outside":
                for w in t.stack[-1].workers:
                    said = f"a {WORKERS[w].capitalize()} action (you cannot perform it)" in text
                    if said != _failed(_log_after(t, A.WORKER[w])):
                        bad.append(f"{WORKERS[w]} action performable is not as said")
        elif s == A.SP_DOMAIN:
            bad += _check_card_block(state, aid, text, p)
    elif aid in A.ROW_OF:
        bad += _check_card_block(state, aid, text, p)
    elif aid in A.CLIMB_OF:
        bad += _check_climb(state, aid, text, p)
    elif aid in A.TAKE_OF:
        held = _immediate(state, aid).held
        if held is not None and held[2] != ("Lantern reward" in text):
            bad.append("the Lantern reward is not as said")
    elif aid in A.GAIN_OF or (aid in A.EFFECT_OF and f.kind == "effects"
                              and f.effects[A.EFFECT_OF[aid]][0] == "gain"):
        gains = ((RESOURCES[A.GAIN_OF[aid]], 1),) if aid in A.GAIN_OF \
            else f.effects[A.EFFECT_OF[aid]][1]
        lost = dict((k, int(n)) for n, k in re.findall(r"(\d+) (food|iron|pearl|seals?) "
                                                         r"(?:is|are) lost", text))
        before, after = state.clans[p], _immediate(state, aid).clans[p]
        for kind, n in gains:
            if kind in RESOURCES:
                r = RESOURCES.index(kind)
                got = after.res[r] - before.res[r]
            elif kind == "seal":
                got = after.seals - before.seals
                kind = "seal" if "seal " in text else "seals"
            else:
                continue
            if got != n - lost.get(kind, 0):
                bad.append(f"{kind}: gained {got}, said {n - lost.get(kind, 0)}")
    elif aid in A.WORKER_OF or aid in A.BLOCK_OF or aid in A.CARD_BLOCK_OF or aid == A.PAY \
            or aid in A.DAIMYO_OF or (aid in A.EFFECT_OF and f.kind == "effects"):
        said = any(c in text for c in CANNOT)
        if said and "cannot pay it" in text:
            bad.append("a legal choice said unpayable")
        elif said != _failed(_log_after(state, aid)) and f.kind != "checkpoint":
            bad.append("could/could not perform, not as said")
    elif aid in A.GARDEN_OF and f.kind == "gardener":
        g = state.data.gardens[state.garden_cards[A.GARDEN_OF[aid]]]
        if len(g.effects) == 1:
            t = state.clone()
            t.apply(aid)
            lines = t.events[len(state.events):]
            if t.stack and t.stack[-1].kind == "pay" and A.PAY in t.legal_ids():
                lines = _log_after(t, A.PAY)  # pay to perform: paid, then performed?
            if any(c in text for c in CANNOT) != _failed(lines):
                bad.append("the garden's action performable is not as said")
    return [f"{A.TEXTS[aid]!r} -> {text!r}: {b}" for b in bad]


def _check_climb(state: WhiteCastleState, aid: int, text: str, p: int) -> list[str]:
    """The card a climb gives (or that the action card is kept), the Daimyo's slot."""
    src, dst = A.CLIMB_OF[aid]
    s = _immediate(state, aid)
    before, after = state.clans[p], s.clans[p]
    bad = []
    if dst == len(A.LOCS) - 1:
        full = all(x is not None for x in state.daimyo_slots)
        if full != ("every slot of the Daimyo's favour is taken" in text):
            bad.append("the Daimyo's favour is not as said")
        if [fr.kind for fr in s.stack[-2:]] != ["daimyo", "lantern"]:
            bad.append("the Lantern reward does not come before the Daimyo's favour")
        return bad
    card = state.room_cards[dst - 1]
    if "you keep your action card" in text:
        if after.card != before.card:
            bad.append("the action card was not kept")
    elif f"take {words(card)} as your action card" in text:
        if after.card != card or after.lantern[-1:] != [before.card]:
            bad.append("the room's card did not become the action card")
    else:
        bad.append("the card is not said")
    return bad


def _positions(players: int, options: dict[str, Any], seed: int) -> Iterator[WhiteCastleState]:
    """Every decision of a random game."""
    state = GAME.new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_over():
        yield state
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("players", "options"), CONFIGS,
                         ids=[f"{n}p-{'-'.join(map(str, o.values())) or 'base'}"
                              for n, o in CONFIGS])
def test_every_described_choice_costs_and_gives_what_it_says(
        players: int, options: dict[str, Any]) -> None:
    """Two random games of each set-up: every legal choice played on a copy does what
    its words say."""
    bad: list[str] = []
    for seed in range(2):
        for state in _positions(players, options, seed):
            for a in state.legal_actions():
                bad += _check(state, a.id)
    assert not bad, f"{len(bad)} wrong descriptions, e.g. " + "\n".join(bad[:6])


# --- the edge cases of the issue, one position each ------------------------------------

def _to(state: WhiteCastleState, kind: str) -> WhiteCastleState:
    """Play the first non-exchange choice until the decision `kind` is on top."""
    return play_until(state, lambda s: frame(s) == kind)


def _courtier_frame(players: int = 2) -> WhiteCastleState:
    """p at a Courtier action with a courtier at the Gate and pearl to climb."""
    state = after_draft(players)
    p = state.to_move
    c = state.clans[p]
    c.courtiers = [0]
    c.left[0] = 4
    c.res[2] = 7
    state.stack[-1] = Courtier(p, True, False)
    refresh(state)
    return state


def test_a_climb_with_an_empty_deck_says_the_action_card_is_kept() -> None:
    """Social Climbing: 'If the card cannot be replaced, you still carry out the
    light-background action but you do not take the card'."""
    state = _courtier_frame()
    state.steward_deck.clear()
    refresh(state)
    aid = A.CLIMB[(0, 1)]
    text = state.describe(aid)
    assert "the Steward deck is empty: you keep your action card" in text, text
    assert "as your action card (yours" not in text
    assert not _check(state, aid)


def test_a_climb_takes_the_rooms_card_and_the_old_one_goes_to_the_lantern_area() -> None:
    """Social Climbing: the action card goes face down to the Lantern Area; the room's card
    takes its place."""
    state = _courtier_frame()
    aid = A.CLIMB[(0, 2)]
    text = state.describe(aid)
    assert f"take {words(state.room_cards[1])} as your action card" in text, text
    assert "goes face down to your Lantern area" in text
    assert not _check(state, aid)


def test_a_climb_to_the_daimyos_room_with_no_slot_left_promises_none() -> None:
    """'If there are no available spaces left, simply leave the Courtier in that room'; the
    Lantern reward comes first."""
    state = _courtier_frame(3)
    p = state.to_move
    state.clans[p].courtiers = [4]
    state.daimyo_slots = [1 - p, 2 - p if p != 2 else 1, 1 - p]
    refresh(state)
    aid = A.CLIMB[(4, 6)]
    text = state.describe(aid)
    assert "then the Lantern reward; every slot of the Daimyo's favour is taken" in text, text
    assert "a free slot" not in text
    assert not _check(state, aid)
    state.daimyo_slots[1] = None
    refresh(state)
    text = state.describe(aid)
    assert "then the Lantern reward, then a free slot of the Daimyo's favour" in text, text
    assert not _check(state, aid)


def _place_frame(colour: int, value: int, players: int = 3) -> WhiteCastleState:
    """The seat to move holding a die of this colour and value, choosing its space."""
    state = after_draft(players)
    p = state.to_move
    state.held = (colour, value, False)
    state.stack[-1] = Place(p)
    refresh(state)
    return state


def _seal_block_room(state: WhiteCastleState) -> tuple[int, int] | None:
    """A room and die colour whose only block of that colour is a 'pay a seal' block."""
    for r in range(5):
        card = state.data.card(state.room_cards[r])
        for colour in range(3):
            mine = [i for i, c in enumerate(state.room_tiles[r]) if c == colour]
            if mine and all(card.blocks[i].effects[0][0] == "pay" for i in mine):
                return r, colour
    return None


def test_a_block_needing_a_seal_the_player_lacks_says_so() -> None:
    """A 'pay 1 Daimyo seal' block is not offered to a clan without a seal: the placement's
    words say it cannot be paid (and say nothing of the sort once a seal is held)."""
    for seed in range(40):
        state = after_draft(3, seed=seed)
        found = _seal_block_room(state)
        if found:
            break
    else:
        pytest.fail("no set-up with a room whose die colour has only a seal block")
    r, colour = found
    p = state.to_move
    state.held = (colour, 3, False)
    state.stack[-1] = Place(p)
    state.clans[p].seals = 0
    state.clans[p].coins = 10
    refresh(state)
    aid = A.PLACE[r]
    text = state.describe(aid)
    assert "— you cannot pay it" in text, text
    assert not _check(state, aid)
    state.clans[p].seals = 1
    refresh(state)
    text = state.describe(aid)
    assert "you cannot pay it" not in text, text
    assert not _check(state, aid)


def test_an_action_card_block_the_player_cannot_pay_says_so() -> None:
    """The row's action-card block 'pay 1 seal for ...' without a seal: said unpayable."""
    state = after_draft(2)
    p = state.to_move
    data = state.data
    cid = next(c for c in data.stewards
               if any(b.effects[0][0] == "pay" for b in data.card(c).blocks))
    state.clans[p].card = cid
    pay = [b for b in data.card(cid).blocks if b.effects[0][0] == "pay"]
    row = next(c for c in range(3) if ROWS[c] in pay[0].rows)
    state.clans[p].seals = 0
    state.stack[-1] = Row(p)
    refresh(state)
    aid = A.ROW[row]
    text = state.describe(aid)
    gains_seal = "seal" in text.split("; then the action card block")[0]
    assert gains_seal or "— you cannot pay it" in text, text
    assert not _check(state, aid)


def test_a_worker_action_with_nothing_to_perform_says_so() -> None:
    """Outside the Walls, a Warrior action with no warrior left (or no iron) cannot be
    performed: the choice says so, and choosing it performs nothing."""
    state = after_draft(2)
    p = state.to_move
    c = state.clans[p]
    c.left[2] = 0
    state.stack[-1] = Outside(p, (1, 2))  # gardener or warrior
    refresh(state)
    text = state.describe(A.WORKER[2])
    assert text.endswith("— you cannot perform it"), text
    assert _failed(_log_after(state, A.WORKER[2]))
    c.left[1] = 5
    c.res[0] = 7
    refresh(state)
    assert "cannot" not in state.describe(A.WORKER[1])
    assert not _check(state, A.WORKER[1]) and not _check(state, A.WORKER[2])


def test_a_payment_partly_by_exchanging_seals_says_how_many() -> None:
    """Seals may be exchanged at any moment (1 for a coin, 2 for a resource): a payment the
    coins or a resource do not cover says which part the seals pay."""
    state = _place_frame(0, 1)
    p = state.to_move
    c = state.clans[p]
    c.domain = [None, None, None]
    c.coins, c.seals = 3, 4
    refresh(state)
    aid = A.PLACE[A.SP_DOMAIN]
    text = state.describe(aid)
    assert "pay 5 coins (2 of them by exchanging 2 Daimyo seals)" in text, text
    assert not _check(state, aid)
    climb = _courtier_frame()
    q = climb.to_move
    climb.clans[q].res[2] = 1
    climb.clans[q].seals = 2
    refresh(climb)
    aid = A.CLIMB[(0, 1)]
    text = climb.describe(aid)
    assert "pay 2 pearl (1 of it by exchanging 2 Daimyo seals)" in text, text
    assert not _check(climb, aid)


def test_a_gain_beyond_a_stores_limit_says_what_is_lost() -> None:
    """'You can never have more than 7 of any Resource (any extra are lost)'."""
    state = after_draft(2)
    p = state.to_move
    state.clans[p].res[0] = 7
    state.stack[-1] = Choice(p, 1)
    refresh(state)
    text = state.describe(A.GAIN[0])
    assert text == "gain 1 food — 1 food is lost (at most 7)", text
    assert not _check(state, A.GAIN[0])
    assert state.describe(A.GAIN[1]) == "gain 1 iron"


def test_the_random_games_reach_the_statements_checked() -> None:
    """The property test's own games (2 and 3 players, seeds 0-1) hold choices of each
    kind the words single out, so it checks them: a payment partly by seals, a block or
    action that cannot be paid or performed, a gain cut by a store's limit."""
    said: set[str] = set()
    kinds = ("by exchanging", "you cannot pay it", "you cannot perform it", "is lost")
    for players in (2, 3):
        for seed in range(2):
            for state in _positions(players, {}, seed):
                for a in state.legal_actions():
                    text = state.describe(a.id)
                    said.update(k for k in kinds if k in text)
    assert said == set(kinds), set(kinds) - said
