"""The core protocol (kamon.core.protocol), checked for every registered game and set-up:
the registry, seeded set-up, legal actions handed out as copies, clones that share
nothing play can change, a fixed action space whose notation reads back, and every
decision and choice in words, up to scores and winners at the end.
"""

from __future__ import annotations

import json

import pytest

from kamon.core.protocol import Action, Game, State
from kamon.core.registry import canonical as canonical_name
from kamon.core.rng import Rng
from kamon.games import GAMES, get_game
from tests.contract.conftest import GameSetup, canonical, ids_of, play_on
from tests.contract.graph import frozen, mutables


def test_every_name_and_alias_opens_a_registered_game() -> None:
    """Each registry name gives a Game of that name; each of its aliases (and its name
    with '_' for '-') gives the same game."""
    for name in GAMES:
        entry = get_game(name)
        assert isinstance(entry, Game) and entry.name == name and entry.title
        assert 1 <= entry.min_players <= entry.max_players and entry.num_actions > 0
        assert entry.min_players <= entry.default_players <= entry.max_players
        for alias in (*entry.aliases, name.replace("-", "_")):
            assert canonical_name(alias) == name and get_game(alias) is entry, alias


def test_every_game_pickles_as_itself_once_its_slots_are_loaded() -> None:
    """A game's entry point pickles (a Ray task, an OpenSpiel game, an Encoding carry it)
    even after its lazy slots have put modules on it, and loads as the registered one."""
    import pickle

    for name, entry in GAMES.items():
        for slot in ("evaluation", "stats", "hidden_key", "observation"):
            getattr(entry, slot, None)
        assert pickle.loads(pickle.dumps(entry)) is entry, name


def test_a_new_game_is_a_state_of_the_set_up(game: GameSetup) -> None:
    """new_game gives a State with the seats asked for, no history, a seat to move and the
    options it was set up with (those asked for among them)."""
    state = game.new(1)
    assert isinstance(state, State)
    assert state.num_players == game.players and state.history == []
    assert state.to_move in range(game.players) and not state.is_over()
    assert state.winners() == []
    for key, value in game.options.items():
        assert state.options.get(key) == value, (key, state.options)


def test_a_state_keeps_its_seed_and_no_view_shows_it(game: GameSetup) -> None:
    """`seed` is the seed new_game was given, kept by clones and a game played on (the
    research interfaces replay the deal from it), and no seat's view holds it."""
    state = game.new(4242)
    assert state.seed == 4242
    rng = Rng(3)
    for _ in range(5):
        if not state.is_over():
            state.apply(rng.choice(ids_of(state)))
    assert state.clone().seed == 4242 and state.seed == 4242
    for seat in range(state.num_players):
        assert "4242" not in json.dumps(state.view(seat), default=str)


def test_same_seed_same_game_other_seeds_differ(game: GameSetup) -> None:
    """Set-up is a function of (players, seed, options), and so is play given the choices:
    the same seed and moves give the same state; other seeds give other set-ups."""
    for seed in (0, 7, 123_456_789_012):
        assert canonical(game.new(seed)) == canonical(game.new(seed))
    setups = {canonical(game.new(seed)) for seed in range(8)}
    assert len(setups) == 8
    moves = game.random_moves(7)
    a, b = game.new(7), game.new(7)
    for aid in moves:
        a.apply(aid)
        b.apply(aid)
    assert a.is_over() and canonical(a) == canonical(b)


def test_legal_actions_are_handed_out_as_copies(game: GameSetup) -> None:
    """Emptying or scribbling on what legal_actions() (and legal_ids(), where the game has
    it) returned changes neither the state nor what they return next, at every sampled
    decision."""
    for state, _, where in game.positions(range(3), every=9):
        before, actions = canonical(state), state.legal_actions()
        actions.reverse()
        actions.append(Action(-1, "scribble"))
        assert state.legal_actions() == actions[-2::-1], where
        state.legal_actions().clear()
        legal_ids = getattr(state, "legal_ids", None)
        if callable(legal_ids):
            ids = legal_ids()
            expected = list(ids)
            assert expected == ids_of(state), where
            ids.append(-1)
            ids.reverse()
            assert legal_ids() == expected == ids_of(state), where
        assert canonical(state) == before, where


def test_a_clone_shares_nothing_that_play_changes(game: GameSetup) -> None:
    """At random points of 12 games: the clone equals the original; whatever mutable
    object the two share (beyond what every game of the set-up shares: the component
    data) is left unchanged by playing either of them to the end; playing the clone on
    leaves the original as it was, and playing the original on leaves a fresh clone."""
    one, other = game.new(1), game.new(2)  # kept alive: `static` holds their objects' ids
    static = frozenset(mutables(one).keys() & mutables(other).keys())
    static_before = frozen(other)
    for seed in range(12):
        moves = game.random_moves(seed)
        rng = Rng(seed)
        upto = rng.below(len(moves))
        state = game.new(seed)
        for aid in moves[:upto]:
            state.apply(aid)
        before, legal, where = canonical(state), ids_of(state), f"{game.id} seed {seed} at {upto}"
        copy = state.clone()
        assert canonical(copy) == before and ids_of(copy) == legal, where
        for first, second in ((copy, state), (state, state.clone())):
            shared = mutables(first, static).keys() & mutables(second, static).keys()
            objects = mutables(second, static)
            pictures = {key: frozen(objects[key], static) for key in shared}
            play_on(first, rng)
            assert canonical(second) == before and ids_of(second) == legal, (
                f"{where}: playing {'the clone' if first is copy else 'the original'} on "
                "changed the other")
            for key in shared:
                assert frozen(objects[key], static) == pictures[key], (
                    f"{where}: play changed a {type(objects[key]).__name__} the clone shares "
                    f"with its original: {objects[key]!r:.120}")
    assert frozen(other) == static_before, "play changed data every game shares"


def test_the_action_space_is_fixed_and_notation_reads_back(game: GameSetup) -> None:
    """Ids 0..num_actions-1 each have one distinct notation, written in the form parse_action
    normalises to; at every decision of two games each legal action is itself from that
    table and reads back from its notation (in any case and spacing) and from its id."""
    entry = game.entry
    texts = [entry.action_text(i) for i in range(entry.num_actions)]
    assert len(set(texts)) == len(texts)
    assert all(t and t == " ".join(t.lower().split()) for t in texts)
    for state, _, where in game.positions(range(2), every=1):
        for action in state.legal_actions():
            assert 0 <= action.id < entry.num_actions, where
            assert texts[action.id] == action.text == str(action), where
            messy = "  " + action.text.upper().replace(" ", "   ") + "\t"
            for written in (action.text, messy, str(action.id), f" {action.id} "):
                assert entry.parse_action(state, written) == action, (where, written)


def test_every_decision_and_choice_is_said_in_words(game: GameSetup) -> None:
    """Seats have distinct names; at every decision of three games the decision's text
    names the seat to move and every legal choice is described; at the end the text
    says the game is over."""
    for state, _, where in game.positions(range(3), every=1):
        names = [state.name(p) for p in range(state.num_players)]
        assert all(names) and len(set(names)) == len(names), names
        text = state.decision_text()
        if state.is_over():
            assert text == "the game is over", where
            continue
        assert state.to_move is not None and names[state.to_move] in text, (where, text)
        for aid in ids_of(state):
            words = state.describe(aid)
            assert isinstance(words, str) and words.strip(), (where, aid)


def test_a_finished_game_has_scores_and_winners(game: GameSetup) -> None:
    """At the end of ten games: a score row per seat (a non-seat such as a solo rival may
    add one), each with the same categories summing to its 'total', and the winners
    among the best totals; before the end (first choices for a while), no winner."""
    for seed in range(10):
        state = game.new(seed)
        rng = Rng(seed)
        for _ in range(rng.below(30)):
            if not state.is_over():
                assert state.winners() == []
                state.apply(ids_of(state)[0])
        play_on(state, rng)
        scores = state.scores()
        assert len(scores) >= state.num_players
        keys = set(scores[0])
        for row in scores:
            assert set(row) == keys and "total" in keys
            assert row["total"] == sum(v for k, v in row.items() if k != "total"), row
        best = max(row["total"] for row in scores)
        winners = state.winners()
        assert winners and all(scores[w]["total"] == best for w in winners), (winners, scores)
        assert state.events and all(isinstance(e, str) for e in state.events)


@pytest.mark.parametrize("seed", [3, 4])
def test_play_is_checked_after_every_move(game: GameSetup, seed: int) -> None:
    """A whole random game keeps the protocol's invariants (and the game's own, where
    its tests define them) after every move."""
    state = game.new(seed)
    check = game.checker(state)
    check(state, f"{game.id} seed {seed} at the set-up")
    play_on(state, Rng(seed), check, f"{game.id} seed {seed}")
    assert state.is_over()


def test_a_views_reserved_keys_mean_what_the_protocol_says(game: GameSetup) -> None:
    """A view's `scores` is scores() and its `decision` is decision_text(), through a game
    and at its end (the server shows them as those)."""
    state = game.new(7)
    rng = Rng(7)
    while True:
        for seat in (None, *range(state.num_players)):
            view = state.view(seat)
            if "scores" in view:
                assert view["scores"] == state.scores(), seat
            if "decision" in view and not state.is_over():
                assert view["decision"] == state.decision_text(), seat
        if state.is_over():
            break
        for _ in range(25):
            if not state.is_over():
                state.apply(rng.choice(ids_of(state)))

