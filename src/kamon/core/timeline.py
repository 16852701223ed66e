"""The timeline of a game record: every decision with its seat, its words and its round,
where each round starts, and how long the log is after each step — what a replay viewer
steps through (the server's replay pages read it; so can any tool).

>>> from kamon.core.record import GameRecord
>>> t = timeline(GameRecord("white-castle", 2, 1, actions=["draft 1"]))
>>> t.steps, t.described[0]["notation"], t.state_at(1).to_move
(1, 'draft 1', 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kamon.core.errors import IllegalAction, KamonError, RecordError
from kamon.core.protocol import State
from kamon.core.record import MAX_SEED, GameRecord


@dataclass(frozen=True)
class Timeline:
    """Every step of a replayed record (step 0 is the setup)."""

    record: GameRecord
    actions: list[int]  # each decision's action id
    described: list[dict[str, Any]]  # step, seat, name, notation, text (words), round
    rounds: list[dict[str, Any]]  # each round and the step it starts at
    lines: list[int]  # log lines after step k (k = 0 .. steps)

    @property
    def steps(self) -> int:
        """How many decisions the record has."""
        return len(self.actions)

    def state_at(self, step: int) -> State:
        """The position after `step` decisions."""
        state = setup(self.record)
        for aid in self.actions[:step]:
            state.apply(aid)
        return state


def setup(record: GameRecord) -> State:
    """The record's game set up (RecordError if the record's setup is not a game's)."""
    from kamon.games import get_game

    try:
        game = get_game(record.game)
    except KamonError as exc:
        raise RecordError(f"the record's game: {exc}") from None
    if not 1 <= record.players <= game.max_players:
        raise RecordError(f"the record says {record.players} players: {game.title} is "
                          f"played by {game.min_players} to {game.max_players}")
    if not 0 <= record.seed <= MAX_SEED:
        raise RecordError(f"the record's seed {record.seed} is out of range (0 to "
                          f"{MAX_SEED})")
    try:
        return game.new_game(record.players, record.seed, **record.options)
    except (KamonError, ValueError, TypeError) as exc:
        raise RecordError(f"cannot set up {game.title} from this record: {exc}") from None


def timeline(record: GameRecord, max_actions: int | None = None) -> Timeline:
    """Replay the record once, noting each decision's seat, words and round and the
    log's length after it; RecordError names the first move that does not apply."""
    from kamon.games import get_game

    if max_actions is not None and len(record.actions) > max_actions:
        raise RecordError(f"the record has {len(record.actions)} moves; at most "
                          f"{max_actions} are replayed")
    state = setup(record)
    game = get_game(record.game)
    actions: list[int] = []
    described: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = []
    lines = [len(state.events)]
    current = _round_of(state)
    if current is not None:
        rounds.append({"round": current, "step": 0})
    for i, text in enumerate(record.actions):
        if state.is_over():
            raise RecordError(f"move {i + 1} ({text[:60]!r}) comes after the end of the game")
        seat = state.to_move
        try:
            action = game.parse_action(state, text)
            words = state.describe(action.id)
            state.apply(action.id)
        except IllegalAction as exc:
            raise RecordError(f"move {i + 1} ({text[:60]!r}) does not apply: {exc}"
                              ) from None
        now = _round_of(state)
        actions.append(action.id)
        described.append({"step": i + 1, "seat": seat,
                          "name": state.name(seat) if seat is not None else None,
                          "notation": action.text, "text": words, "round": now})
        lines.append(len(state.events))
        if now is not None and now != current:
            rounds.append({"round": now, "step": i + 1})
            current = now
    return Timeline(record, actions, described, rounds, lines)


def _round_of(state: State) -> Any:
    """The round the position is in, as its public view says (None if it says none)."""
    return state.view(None).get("round")
