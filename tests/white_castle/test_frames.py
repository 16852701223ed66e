"""The named decision frames (frames.py): each kind a NamedTuple, the JSON form unchanged.

A frame is still a tuple (kind, seat, fields...): equal to the plain tuple of its values,
written to JSON as the same array, and rebuilt from JSON as its own kind, so stored games
and golden files load unchanged; a copy or a pickle keeps the kind.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from kamon.core.rng import Rng
from kamon.games.white_castle import GAME
from kamon.games.white_castle import frames as F
from kamon.games.white_castle.state import WhiteCastleState


def _random_states(players: int, seed: int, **options: object) -> list[WhiteCastleState]:
    """Every position of one seeded random game (the decision stacks it went through)."""
    state = GAME.new_game(players, seed, **options)
    rng = Rng(seed)
    seen = []
    while not state.is_over():
        seen.append(state.clone())
        ids = state.legal_ids()
        state.apply(ids[rng.below(len(ids))])
    return seen


@pytest.fixture(scope="module")
def positions() -> list[WhiteCastleState]:
    """Positions of a 2-, a 3- and a 4-player game and of a solo game."""
    return (_random_states(2, 5) + _random_states(3, 6) + _random_states(4, 7)
            + _random_states(1, 8, difficulty="hard"))


def test_every_frame_is_of_its_named_kind(positions: list[WhiteCastleState]) -> None:
    """Each frame on a stack is the NamedTuple of its kind, its seat a seat of the game."""
    kinds = set()
    for s in positions:
        for f in s.stack:
            assert type(f) is F.FRAMES[f.kind], f
            assert f._fields[:2] == ("kind", "seat") and 0 <= f.seat < s.n
            kinds.add(f.kind)
    # The random games reach the common kinds (not only the first ones).
    assert {"draft", "take", "place", "effects", "blocks", "outside"} <= kinds, kinds


def test_the_json_form_is_the_plain_array_and_reads_back_as_the_kind(
        positions: list[WhiteCastleState]) -> None:
    """to_json writes each frame as [kind, seat, fields...]; from_json rebuilds the same
    frames, of the same classes, and the same document."""
    for s in positions[::7]:
        doc = s.to_json()
        assert doc["stack"] == [json.loads(json.dumps(list(f))) for f in s.stack]
        back = WhiteCastleState.from_json(json.loads(json.dumps(doc)), s.data)
        assert back.stack == s.stack
        assert [type(f) for f in back.stack] == [type(f) for f in s.stack]
        assert back.dumps() == s.dumps()


def test_the_view_holds_plain_tuples(positions: list[WhiteCastleState]) -> None:
    """A view's stack is plain tuples (its JSON encoder takes no tuple subclass), equal to
    the frames."""
    s = next(p for p in positions if len(p.stack) > 1)
    stack = s.view(0)["stack"]
    assert all(type(f) is tuple for f in stack)
    assert stack == s.stack


def test_a_frame_equals_its_values_and_survives_copy_and_pickle() -> None:
    """The class fixes the kind; equality, copies and pickles are those of the tuple."""
    f = F.Blocks(2, ((0, 1), (-1, 0)), True, False, "the Red room")
    assert f == ("blocks", 2, ((0, 1), (-1, 0)), True, False, "the Red room")
    assert (f.seat, f.options, f.multi, f.optional, f.label) == (
        2, ((0, 1), (-1, 0)), True, False, "the Red room")
    for twin in (copy.copy(f), copy.deepcopy(f), pickle.loads(pickle.dumps(f))):
        assert twin == f and type(twin) is F.Blocks
    assert F.TAKE_FRAME[3] == F.Take(3) == ("take", 3)
    assert F.Warrior(1) != F.Gardener(1)  # the kind keeps two seat-only frames apart


def test_as_frame_leaves_what_is_no_frame() -> None:
    """as_frame rebuilds a known kind of the right length, and leaves anything else for
    the consistency check to name."""
    assert type(F.as_frame(["choice", 0, 2])) is F.Choice
    assert F.as_frame(["choice", 0]) == ["choice", 0]
    assert F.as_frame(["dance", 0]) == ["dance", 0]
    assert F.as_frame([]) == []
