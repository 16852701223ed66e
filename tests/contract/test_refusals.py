"""Refusals, for every registered game and set-up: whatever is not a legal action now (an
id, an Action, notation, an id out of range, a value of another type, a finished game's
move) raises IllegalAction saying why, and the state is exactly as before.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kamon.core.errors import IllegalAction
from kamon.core.protocol import Action, State
from tests.contract.conftest import GameSetup, canonical, ids_of

# Text that names no action in any game (and numbers that are no id).
GARBAGE = ["", "   ", "xyzzy", "pass", "undo", "9" * 5000, "-" + "9" * 5000, "²", "٣",
           "1" + "0" * 30, "1.0", "0x1", "3 4", "[0]"]


def refused(state: State, attempt: Callable[[State], object], *fragments: str) -> str:
    """The attempt on the state raises IllegalAction whose message holds every fragment; the state
    (its JSON, history and legal actions) is unchanged. Returns the message."""
    before, legal, history = canonical(state), ids_of(state), list(state.history)
    with pytest.raises(IllegalAction) as info:
        attempt(state)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert canonical(state) == before and ids_of(state) == legal and state.history == history
    return message


def reason(state: State, attempt: Callable[[State], object]) -> str:
    """The message of the IllegalAction the attempt on the state raises (a cheaper `refused` for many
    attempts: the caller compares the whole state once afterwards)."""
    history = len(state.history)
    try:
        attempt(state)
    except IllegalAction as refusal:
        assert len(state.history) == history
        return str(refusal)
    raise AssertionError(f"accepted at {len(state.history)} moves: {state.history[-1:]}")


def test_every_illegal_id_is_refused_the_same_way_as_id_action_or_notation(
        game: GameSetup) -> None:
    """At every 9th decision of two games, every id of the action space that is not legal is
    refused naming its notation, with the same reason whether offered as an id, as an
    Action or as notation in another case and spacing; nothing changes."""
    entry = game.entry
    for state, _, where in game.positions(range(2), every=9):
        legal, before = ids_of(state), canonical(state)
        for aid in sorted(set(range(entry.num_actions)) - set(legal)):
            text = entry.action_text(aid)
            by_id = reason(state, lambda s, a=aid: s.apply(a))
            by_action = reason(state, lambda s, a=aid, t=text: s.apply(Action(a, t)))
            messy = " " + text.upper().replace(" ", "  ") + " "
            by_text = reason(state, lambda s, m=messy: s.apply(entry.parse_action(s, m)))
            assert text in by_id and by_id == by_action == by_text, (where, by_id, by_text)
        assert ids_of(state) == legal and canonical(state) == before, where


@pytest.mark.parametrize("offset", [-1, -500, 0, 7, 10_000])
def test_an_id_outside_the_action_space_is_refused_naming_the_range(game: GameSetup,
                                                                    offset: int) -> None:
    """An id below 0 or from num_actions on, as an id, an Action or text, is refused naming
    itself and the valid range."""
    entry, state = game.entry, game.new(1)
    aid = offset if offset < 0 else entry.num_actions + offset
    valid = f"0-{entry.num_actions - 1}"
    refused(state, lambda s: s.apply(aid), "no action with id", str(aid), valid)
    refused(state, lambda s: s.apply(Action(aid, "bogus")), "no action with id", valid)
    refused(state, lambda s: entry.parse_action(s, str(aid)), "no action with id", valid)


def test_an_action_is_an_action_or_an_integer_id(game: GameSetup) -> None:
    """apply takes an Action or an int id: a bool, a float or a string equal to a legal
    id, None, a list or an Action whose id is not an int are refused; the legal id itself,
    as an Action, then applies."""
    state = game.new(1)
    first = ids_of(state)[0]
    for bad in (True, False, float(first), str(first), None, [first],
                Action(str(first), "x")):  # type: ignore[arg-type]
        refused(state, lambda s, b=bad: s.apply(b), "is not an action")
    state.apply(Action(first, game.entry.action_text(first)))
    assert state.history == [first]


def test_text_that_names_no_action_is_refused_listing_the_legal_moves(game: GameSetup) -> None:
    """Garbage, numbers that are no id, and every legal notation with a word added, cut or
    changed are refused by parse_action; a text naming no action lists every legal one."""
    entry = game.entry
    for state, _, where in game.positions(range(2), every=20):
        if state.is_over():
            continue
        near = set()
        for action in state.legal_actions():
            words = action.text.split()
            near |= {action.text + " zz", "zz " + action.text, " ".join(words[:-1] + ["zz"])}
        for text in [*GARBAGE, *sorted(near)]:
            message = refused(state, lambda s, t=text: entry.parse_action(s, t))
            if "legal now:" in message:
                for action in state.legal_actions():
                    assert action.text in message, (where, text, action.text)
            else:
                assert "no action with id" in message, (where, text, message)


def test_nothing_is_legal_once_the_game_is_over(game: GameSetup) -> None:
    """A finished game has no seat to move and no legal action; every id of the action
    space is refused saying the game is over, and text lists no legal move."""
    entry = game.entry
    state = game.new(5)
    for aid in game.random_moves(5):
        state.apply(aid)
    assert state.is_over() and state.to_move is None and state.legal_actions() == []
    for aid in range(entry.num_actions):
        refused(state, lambda s, a=aid: s.apply(a), entry.action_text(aid), "the game is over")
    message = refused(state, lambda s: entry.parse_action(s, "nonsense"), "legal now")
    assert message.rstrip().endswith("legal now:")
