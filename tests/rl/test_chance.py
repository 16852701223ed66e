"""Explicit chance nodes (kamon.core.chance): exact probabilities, no future in the state,
and the same games as the seeded engine when the outcomes the engine drew are chosen."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from kamon.core.chance import ChanceState, piles_of
from kamon.core.errors import IllegalAction
from kamon.core.rng import Rng
from kamon.games import get_game

SETUPS: list[tuple[str, int, dict[str, Any]]] = [("pig", 2, {}), ("white-castle", 4, {}), ("white-castle", 2, {}),
          ("white-castle", 1, {}), ("clansman", 4, {})]


def pick(cs: ChanceState, rnd: random.Random) -> int:
    """A random move: an outcome drawn by its probability, or a uniform legal action."""
    if cs.is_chance():
        outs = cs.chance_outcomes()
        return rnd.choices([k for k, _ in outs], [p for _, p in outs])[0]
    return rnd.choice(cs.state.legal_actions()).id


def random_step(cs: ChanceState, rnd: random.Random) -> None:
    """Apply one random move."""
    cs.apply(pick(cs, rnd))


def done(cs: ChanceState) -> bool:
    """True once the wrapped game is over (and no node is pending)."""
    return not cs.is_chance() and cs.state.is_over()


@pytest.mark.parametrize("game,players,opts", SETUPS)
def test_nodes_are_exact_and_games_end(game: str, players: int, opts: dict[str, Any]) -> None:
    """Every node's probabilities sum to 1 and are the rules': a roll of below(n) has n
    outcomes of 1/n; a card, copies/unseen for each distinct unseen card of its pile."""
    cs = ChanceState(get_game(game).new_game(players, seed=5, **opts))
    rnd = random.Random(5)
    kinds: Counter[str] = Counter()
    taken: Counter[tuple[int, str]] = Counter()  # cards drawn so far in this decision
    while not done(cs):
        move = pick(cs, rnd)
        node = cs.node
        if node is None:
            taken.clear()
            cs.apply(move)
            continue
        outs = cs.chance_outcomes()
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        assert len(outs) > 1  # a node of one outcome is taken at once
        kinds[node[0]] += 1
        if node[0] == "roll":
            assert outs == [(k, 1.0 / node[1]) for k in range(node[1])]
        elif cs.specs[node[1]].face_up_top:
            # the Solitaire deck (distinct cards, turned and reshuffled mid-decision)
            assert [p for _, p in outs] == [1 / len(outs)] * len(outs)
        else:  # a castle deck, a century pile: what it held before the decision, less
            # the cards drawn from it since
            slot = node[1]
            spec, (top, bottom) = cs.specs[slot], cs.seen[slot]
            assert bottom == 0  # nothing is put back under these
            cards = spec.get(cs.state)
            counts = Counter(cards[:len(cards) - top])
            counts.subtract({c: n for (s, c), n in taken.items() if s == slot})
            unseen = sum(counts.values())
            assert {cs.universes[slot][k]: p for k, p in outs} == pytest.approx(
                {c: n / unseen for c, n in counts.items() if n})
            taken[slot, cs.universes[slot][move]] += 1
        cs.apply(move)
    if game == "pig":
        assert set(kinds) == {"roll"}  # a die of six faces (checked above: 1/6 each)
    if game == "clansman":
        assert set(kinds) == {"card"}  # nothing random after the set-up but the piles
    assert kinds


def test_a_die_is_six_sixths() -> None:
    """Pig's roll: six outcomes, each 1/6, and the chosen face is the one rolled."""
    cs = ChanceState(get_game("pig").new_game(2, seed=1))
    cs.apply(0)  # roll
    assert cs.chance_outcomes() == [(k, 1 / 6) for k in range(6)]
    before = cs.clone()
    cs.apply(4)
    assert "rolls a 5" in cs.state.events[-1]
    assert before.is_chance()  # the clone is independent


@pytest.mark.parametrize("game,players,opts", SETUPS)
def test_the_state_holds_no_future(game: str, players: int, opts: dict[str, Any]) -> None:
    """Two explicit states of worlds that differ only in what is hidden (deck orders, the
    generator: `determinize`) are the same state, and stay the same under the same moves
    and outcomes: nothing future is in an explicit state."""
    rnd = random.Random(11)
    cs = ChanceState(get_game(game).new_game(players, seed=11, **opts))
    for step in range(400):
        if done(cs):
            break
        # (a world re-sampled by determinize also forgets the Solitaire cards seen going
        # under the deck: compare where none are)
        if step % 37 == 0 and not cs.is_chance() and not any(b for _, b in cs.seen):
            other = ChanceState(cs.state.determinize(None, Rng(step)))
            assert other.state.to_json() == cs.state.to_json()
            assert other.seen == cs.seen
            twin = random.Random(step)
            mine = cs.clone()
            for _ in range(60):
                if done(mine):
                    break
                assert other.chance_outcomes() == mine.chance_outcomes()
                move = pick(mine, twin)
                mine.apply(move)
                other.apply(move)
                assert other.state.to_json() == mine.state.to_json()
        random_step(cs, rnd)


def replay_real_game(game: str, players: int, seed: int, moves: int) -> int:
    """Play a seeded engine game at random and follow it in explicit chance, choosing at
    each node the outcome the engine drew (its below() results; the next card it read
    from that pile that the explicit state did not know yet); the views must agree after
    every decision. Returns the nodes taken."""
    real = get_game(game).new_game(players, seed=seed)
    cs = ChanceState(real)
    rnd = random.Random(seed)
    nodes = 0
    for _ in range(moves):
        if real.is_over():
            break
        aid = rnd.choice(real.legal_actions()).id
        rolls, reads = record_decision(real, aid)
        cs.apply(aid)
        while cs.is_chance():
            node = cs.node
            assert node is not None
            if node[0] == "roll":
                cs.apply(rolls.pop(0))
            else:
                universe = cs.universes[node[1]]
                unseen = {universe[k] for k, _ in cs.chance_outcomes()}
                queue = reads[node[1]]
                while queue[0] not in unseen:  # read, but known here (a face-up top)
                    queue.pop(0)
                cs.apply(universe.index(queue.pop(0)))
            nodes += 1
        assert not rolls
        assert cs.state.view(None) == real.view(None)
        assert cs.state.legal_actions() == real.legal_actions()
    return nodes


class ReadingList(list[str]):
    """A pile of the seeded engine that remembers every card read from it (by pop or by
    index), in order, except while it is shuffled."""

    def __init__(self, cards: list[str]) -> None:
        """The same cards, nothing read yet."""
        super().__init__(cards)
        self.reads: list[str] = []
        self.muted = False

    def pop(self, i: Any = -1) -> str:
        """Take a card (remembered)."""
        card = super().pop(i)
        if not self.muted:
            self.reads.append(card)
        return card

    def __getitem__(self, i: Any) -> Any:
        """Read a card (remembered) or a slice (not a read of the engine's)."""
        value = super().__getitem__(i)
        if not self.muted and not isinstance(i, slice):
            self.reads.append(value)
        return value


class RecordingRng(Rng):
    """An Rng that goes on exactly as the state's and remembers every below() result
    (a shuffle's draws are no node in explicit chance: not remembered)."""

    __slots__ = ("seen", "muted")

    def __init__(self, state: int) -> None:
        """The same stream as an Rng at `state`."""
        super().__init__(0)
        self.state = state
        self.seen: list[int] = []
        self.muted = False

    def below(self, n: int) -> int:
        """The real draw, remembered (a below(1) is no chance node: not remembered)."""
        k = super().below(n)
        if n > 1 and not self.muted:
            self.seen.append(k)
        return k

    def shuffle(self, seq: Any) -> None:
        """The real shuffle, neither its draws nor its reads remembered."""
        self.muted = True
        if isinstance(seq, ReadingList):
            seq.muted = True
        try:
            super().shuffle(seq)
        finally:
            self.muted = False
            if isinstance(seq, ReadingList):
                seq.muted = False


def record_decision(real: Any, aid: int) -> tuple[list[int], list[list[str]]]:
    """Apply `aid` to the seeded `real` state: the die results it drew and, per hidden
    pile, the cards it read, in order."""
    specs = piles_of(real)
    piles = [ReadingList(spec.get(real)) for spec in specs]
    for spec, pile in zip(specs, piles, strict=True):
        spec.put(real, pile)
    rng = RecordingRng(real.rng.state)
    real.rng = rng
    real.apply(aid)
    for spec in specs:
        spec.put(real, list.__getitem__(spec.get(real), slice(None)))
    real.rng = Rng(rng.state)
    return rng.seen, [pile.reads for pile in piles]


@pytest.mark.parametrize("game,players", [("pig", 2), ("white-castle", 4),
                                          ("white-castle", 2), ("white-castle", 1),
                                          ("clansman", 4)])
def test_explicit_chance_follows_the_seeded_engine(game: str, players: int) -> None:
    """Choosing the outcomes the seeded engine drew reproduces its game exactly: the chance
    nodes come in the engine's order and are the randomness it uses, no more, no less."""
    assert replay_real_game(game, players, seed=2, moves=400) > 0


def test_solitaire_top_card_stays_face_up() -> None:
    """The solo game's Solitaire deck keeps its top card seen (its Bridge side is public)
    after every decision, and the cards the rival turned stay known under it, in order,
    until the deck is reshuffled at the end of a round."""
    cs = ChanceState(get_game("white-castle").new_game(1, seed=4))
    rnd = random.Random(4)
    solo = [s.name for s in cs.specs].index("solo_deck")
    under = 0
    while not done(cs):
        if not cs.is_chance():
            top, bottom = cs.seen[solo]
            deck = cs.state.solo_deck  # type: ignore[attr-defined]
            assert top == 1 or top + bottom == len(deck)
            assert cs.state.view(None)["solo_top"] is not None
            unseen = deck[top:len(deck) - bottom]
            assert unseen == sorted(unseen)
            under = max(under, bottom)
        random_step(cs, rnd)
    assert under > 0


def test_bad_moves_change_nothing() -> None:
    """An illegal action, or an outcome the node does not have, is refused unchanged."""
    cs = ChanceState(get_game("pig").new_game(2, seed=1))
    with pytest.raises(IllegalAction):
        cs.apply(7)
    cs.apply(0)
    with pytest.raises(IllegalAction):
        cs.apply(6)
    assert cs.chance_outcomes() == [(k, 1 / 6) for k in range(6)]
