"""The White Castle's decision frames: one NamedTuple per kind, its fields named.

A turn is a stack of frames (state.py); the top one says who decides (`seat`) and what
(`kind` and the kind's own fields). Each kind is a NamedTuple whose first element is its
kind and second its seat, so a frame is still a tuple: equal to the plain tuple of its
values, hashable, as fast to read, and written to JSON as the same array as before
(`["blocks", 0, [[1, 0]], true, true, "the Red room"]`). The class fixes the kind:
`Blocks(p, opts, True, True, label)`. `as_frame` rebuilds a frame from its JSON array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from kamon.games.white_castle.data import Effect

_new = tuple.__new__
# A frame built from the tuple of all its values, kind first: new_frame(Effects, ("effects",
# seat, effects, source)); for the hottest pushes only (half the CPU cost of the class call).
new_frame = tuple.__new__


def _args_of_new(frame: tuple[Any, ...]) -> tuple[Any, ...]:
    """The arguments of a frame's __new__ (all but the kind): copy and pickle rebuild the
    frame with them."""
    return frame[1:]


class _Draft(NamedTuple):
    kind: Literal["draft"]
    seat: int


class Draft(_Draft):
    """Pick a starting pair (the draft before round 1)."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Draft:
        """The frame (its kind is implied)."""
        return _new(cls, ("draft", seat))

    __getnewargs__ = _args_of_new


class _Take(NamedTuple):
    kind: Literal["take"]
    seat: int


class Take(_Take):
    """Take a die from a bridge end (a turn begins)."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Take:
        """The frame (its kind is implied)."""
        return _new(cls, ("take", seat))

    __getnewargs__ = _args_of_new


class _Place(NamedTuple):
    kind: Literal["place"]
    seat: int


class Place(_Place):
    """Put the held die on a space."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Place:
        """The frame (its kind is implied)."""
        return _new(cls, ("place", seat))

    __getnewargs__ = _args_of_new


class _Effects(NamedTuple):
    kind: Literal["effects"]
    seat: int
    effects: tuple[Effect, ...]  # the effects still to resolve
    source: str  # what they come from, in words ("the Well", a card id)


class Effects(_Effects):
    """A set of effects to resolve in an order the seat chooses."""

    __slots__ = ()

    def __new__(cls, seat: int, effects: tuple[Effect, ...], source: str) -> Effects:
        """The frame (its kind is implied)."""
        return _new(cls, ("effects", seat, effects, source))

    __getnewargs__ = _args_of_new


class _Choice(NamedTuple):
    kind: Literal["choice"]
    seat: int
    remaining: int  # resources of choice still to take


class Choice(_Choice):
    """Resources of choice (food, iron or pearl), taken one at a time."""

    __slots__ = ()

    def __new__(cls, seat: int, remaining: int) -> Choice:
        """The frame (its kind is implied)."""
        return _new(cls, ("choice", seat, remaining))

    __getnewargs__ = _args_of_new


class _Checkpoint(NamedTuple):
    kind: Literal["checkpoint"]
    seat: int
    steps: int  # Passage of Time steps still to move
    cost: int  # seals to pay to pass


class Checkpoint(_Checkpoint):
    """Pay seals to pass a checkpoint on the Passage of Time, or stop before it."""

    __slots__ = ()

    def __new__(cls, seat: int, steps: int, cost: int) -> Checkpoint:
        """The frame (its kind is implied)."""
        return _new(cls, ("checkpoint", seat, steps, cost))

    __getnewargs__ = _args_of_new


class _Blocks(NamedTuple):
    kind: Literal["blocks"]
    seat: int
    options: tuple[tuple[int, int], ...]  # (room, block index) offered; room -1 is the seat's own action card
    multi: bool  # several may be used (a die on a room uses each matching block)
    optional: bool  # the seat may decline (`done`)
    label: str  # what the blocks perform, in words (a room, "a light-background action")


class Blocks(_Blocks):
    """Card block(s) to use."""

    __slots__ = ()

    def __new__(cls, seat: int, options: tuple[tuple[int, int], ...], multi: bool, optional: bool, label: str) -> Blocks:
        """The frame (its kind is implied)."""
        return _new(cls, ("blocks", seat, options, multi, optional, label))

    __getnewargs__ = _args_of_new


class _Outside(NamedTuple):
    kind: Literal["outside"]
    seat: int
    workers: tuple[int, ...]  # the two worker actions offered (indices into data.WORKERS)


class Outside(_Outside):
    """One of the two worker actions of an Outside the Walls space, or neither."""

    __slots__ = ()

    def __new__(cls, seat: int, workers: tuple[int, ...]) -> Outside:
        """The frame (its kind is implied)."""
        return _new(cls, ("outside", seat, workers))

    __getnewargs__ = _args_of_new


class _Warrior(NamedTuple):
    kind: Literal["warrior"]
    seat: int


class Warrior(_Warrior):
    """The warrior action: a training yard, or decline."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Warrior:
        """The frame (its kind is implied)."""
        return _new(cls, ("warrior", seat))

    __getnewargs__ = _args_of_new


class _Gardener(NamedTuple):
    kind: Literal["gardener"]
    seat: int


class Gardener(_Gardener):
    """The gardener action: a garden, or decline."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Gardener:
        """The frame (its kind is implied)."""
        return _new(cls, ("gardener", seat))

    __getnewargs__ = _args_of_new


class _Courtier(NamedTuple):
    kind: Literal["courtier"]
    seat: int
    audience_done: bool  # the audience (a courtier to the Gate) is used
    climb_done: bool  # the climb is used


class Courtier(_Courtier):
    """The courtier action: an audience and a climb, each at most once."""

    __slots__ = ()

    def __new__(cls, seat: int, audience_done: bool, climb_done: bool) -> Courtier:
        """The frame (its kind is implied)."""
        return _new(cls, ("courtier", seat, audience_done, climb_done))

    __getnewargs__ = _args_of_new


class _Daimyo(NamedTuple):
    kind: Literal["daimyo"]
    seat: int


class Daimyo(_Daimyo):
    """A free slot of the Daimyo's favour."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Daimyo:
        """The frame (its kind is implied)."""
        return _new(cls, ("daimyo", seat))

    __getnewargs__ = _args_of_new


class _Row(NamedTuple):
    kind: Literal["row"]
    seat: int


class Row(_Row):
    """A personal-domain row performed as if with a 6, or decline."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Row:
        """The frame (its kind is implied)."""
        return _new(cls, ("row", seat))

    __getnewargs__ = _args_of_new


class _Pay(NamedTuple):
    kind: Literal["pay"]
    seat: int
    cost: tuple[tuple[str, int], ...]  # ((coin|seal, n), ...) to pay
    effect: Effect  # what paying performs


class Pay(_Pay):
    """Pay to perform an effect, or decline."""

    __slots__ = ()

    def __new__(cls, seat: int, cost: tuple[tuple[str, int], ...], effect: Effect) -> Pay:
        """The frame (its kind is implied)."""
        return _new(cls, ("pay", seat, cost, effect))

    __getnewargs__ = _args_of_new


class _Lantern(NamedTuple):
    kind: Literal["lantern"]
    seat: int


class Lantern(_Lantern):
    """The Lantern reward (an automatic step, never shown)."""

    __slots__ = ()

    def __new__(cls, seat: int) -> Lantern:
        """The frame (its kind is implied)."""
        return _new(cls, ("lantern", seat))

    __getnewargs__ = _args_of_new


class _GardenRound(NamedTuple):
    kind: Literal["garden_round"]
    seat: int
    gardens: tuple[int, ...]  # garden slots (0-5) still to activate
    fresh: bool  # this clan's go in the Gardens step has not begun (it clears the rows fired)


class GardenRound(_GardenRound):
    """The seat's gardens to activate at the end of a round, in a chosen order."""

    __slots__ = ()

    def __new__(cls, seat: int, gardens: tuple[int, ...], fresh: bool) -> GardenRound:
        """The frame (its kind is implied)."""
        return _new(cls, ("garden_round", seat, gardens, fresh))

    __getnewargs__ = _args_of_new


class _RivalRoom(NamedTuple):
    kind: Literal["rival_room"]
    seat: int
    floor: int  # the floor (1 or 2) the rival's courtier climbs to
    courtier: int  # which of the rival's courtiers climbs (its index)


class RivalRoom(_RivalRoom):
    """Solo: the room the rival's climbing courtier goes to (the player chooses)."""

    __slots__ = ()

    def __new__(cls, seat: int, floor: int, courtier: int) -> RivalRoom:
        """The frame (its kind is implied)."""
        return _new(cls, ("rival_room", seat, floor, courtier))

    __getnewargs__ = _args_of_new


class _RivalGarden(NamedTuple):
    kind: Literal["rival_garden"]
    seat: int
    gardens: tuple[int, ...]  # the tied garden slots (0-5)


class RivalGarden(_RivalGarden):
    """Solo: the garden the rival's gardener goes to among ties (the player chooses)."""

    __slots__ = ()

    def __new__(cls, seat: int, gardens: tuple[int, ...]) -> RivalGarden:
        """The frame (its kind is implied)."""
        return _new(cls, ("rival_garden", seat, gardens))

    __getnewargs__ = _args_of_new


class _RivalTurn(NamedTuple):
    kind: Literal["rival_turn"]
    seat: int


class RivalTurn(_RivalTurn):
    """Solo: the rival's turn (an automatic step; seat is the player's)."""

    __slots__ = ()

    def __new__(cls, seat: int) -> RivalTurn:
        """The frame (its kind is implied)."""
        return _new(cls, ("rival_turn", seat))

    __getnewargs__ = _args_of_new


class _RivalActions(NamedTuple):
    kind: Literal["rival_actions"]
    seat: int
    icons: tuple[tuple[Any, ...], ...]  # the Solitaire icons still to carry out


class RivalActions(_RivalActions):
    """Solo: the rival's icons, carried out one by one (an automatic step)."""

    __slots__ = ()

    def __new__(cls, seat: int, icons: tuple[tuple[Any, ...], ...]) -> RivalActions:
        """The frame (its kind is implied)."""
        return _new(cls, ("rival_actions", seat, icons))

    __getnewargs__ = _args_of_new


Frame = Draft | Take | Place | Effects | Choice | Checkpoint | Blocks | Outside | Warrior | Gardener | Courtier | Daimyo | Row | Pay | Lantern | GardenRound | RivalRoom | RivalGarden | RivalTurn | RivalActions
FRAMES: dict[str, type[Frame]] = {"draft": Draft, "take": Take, "place": Place, "effects": Effects, "choice": Choice, "checkpoint": Checkpoint, "blocks": Blocks, "outside": Outside, "warrior": Warrior, "gardener": Gardener, "courtier": Courtier, "daimyo": Daimyo, "row": Row, "pay": Pay, "lantern": Lantern, "garden_round": GardenRound, "rival_room": RivalRoom, "rival_garden": RivalGarden, "rival_turn": RivalTurn, "rival_actions": RivalActions}


def as_frame(values: Sequence[Any]) -> Frame | Sequence[Any]:
    """The frame a JSON array (or plain tuple) holds; the values unchanged when they are
    no frame (an unknown kind, a wrong length): the consistency check then says why."""
    cls = FRAMES.get(values[0]) if values and isinstance(values[0], str) else None
    if cls is None or len(values) != len(cls._fields):
        return values
    return cls._make(values)


def frame_of(values: Sequence[Any]) -> Frame:
    """The frame a well-formed JSON array or plain tuple holds (a view's stack, which is
    plain for its JSON encoder); KeyError or TypeError when it is no frame."""
    return FRAMES[values[0]]._make(values)


# The frames that hold only a seat, made once per seat: a NamedTuple costs about 2,000
# CPU instructions to build (a plain tuple 300; callgrind), and these are pushed about
# 0.7 times a decision. The engine pushes `TAKE_FRAME[p]`, never `Take(p)`.
_SEATS = range(8)
DRAFT_FRAME: tuple[Draft, ...] = tuple(map(Draft, _SEATS))
TAKE_FRAME: tuple[Take, ...] = tuple(map(Take, _SEATS))
PLACE_FRAME: tuple[Place, ...] = tuple(map(Place, _SEATS))
WARRIOR_FRAME: tuple[Warrior, ...] = tuple(map(Warrior, _SEATS))
GARDENER_FRAME: tuple[Gardener, ...] = tuple(map(Gardener, _SEATS))
DAIMYO_FRAME: tuple[Daimyo, ...] = tuple(map(Daimyo, _SEATS))
ROW_FRAME: tuple[Row, ...] = tuple(map(Row, _SEATS))
LANTERN_FRAME: tuple[Lantern, ...] = tuple(map(Lantern, _SEATS))
RIVAL_TURN_FRAME: tuple[RivalTurn, ...] = tuple(map(RivalTurn, _SEATS))
