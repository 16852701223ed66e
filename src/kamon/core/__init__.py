"""Game-agnostic core: the Game/State protocol, actions, errors, RNG and records."""

from kamon.core.errors import IllegalAction, KamonError, RecordError
from kamon.core.protocol import Action, Game, State
from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng

__all__ = [
    "Action",
    "Game",
    "GameRecord",
    "IllegalAction",
    "KamonError",
    "RecordError",
    "Rng",
    "State",
    "replay",
]
