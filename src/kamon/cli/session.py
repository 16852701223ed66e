"""A terminal game in progress: who made each move (for undo), undo under the web's rule,
leaving with an offer to save, and resuming a saved game (`kamon play --load`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from kamon.cli.shared import echo, new_game, save_record
from kamon.core.errors import IllegalAction, KamonError, RecordError
from kamon.core.protocol import Game, State
from kamon.core.record import GameRecord
from kamon.core.undo import may_undo

YES = ("y", "yes")


@dataclass
class Session:
    """The game being played: its setup, its state and the seat that made each move."""

    game: Game
    players: int
    seed: int
    options: Mapping[str, Any]
    state: State
    movers: list[int] = field(default_factory=list)

    def apply(self, seat: int, aid: int) -> None:
        """Play `aid` for `seat`, remembering who moved."""
        self.state.apply(aid)
        self.movers.append(seat)

    def replayed(self, ids: list[int]) -> State:
        """The game set up again with these moves applied."""
        state = new_game(self.game, self.players, self.seed, self.options)
        for aid in ids:
            state.apply(aid)
        return state

    def undo(self, seat: int) -> str | None:
        """Take back `seat`'s last decision if the rule allows (its own move, nothing
        revealed since: the web's rule); None when done, else why it cannot be."""
        history = self.state.history
        if not history:
            return "there is nothing to undo yet"
        if self.movers[-1] != seat:
            return (f"{self.state.name(self.movers[-1])} has moved since your last decision "
                    "(only your own last decision can be taken back)")
        before = self.replayed(history[:-1])
        if not may_undo(before, history[-1], self.state, self.movers[-1], seat):
            return ("that decision revealed something new (a die rolled, a card drawn or the "
                    "rival's card shown), so it stands")
        self.state = before
        self.movers.pop()
        return None


def load_session(game: Game, path: Path) -> tuple[Session, list[str]]:
    """A saved game (a record file) set up again, with its seats' kinds."""
    try:
        record = GameRecord.load(path)
    except RecordError as exc:
        raise KamonError(str(exc)) from None
    if record.game != game.name:
        raise KamonError(f"{path} is a game of {record.game!r}, not of {game.name!r}")
    state = new_game(game, record.players, record.seed, record.options)
    session = Session(game, record.players, record.seed, dict(record.options), state)
    for i, text in enumerate(record.actions):
        seat = state.to_move
        try:
            action = game.parse_action(state, text)
        except IllegalAction as exc:
            raise KamonError(f"{path}: action {i + 1} ({text!r}) does not apply: {exc}"
                             ) from None
        assert seat is not None
        session.apply(seat, action.id)
    return session, list(record.seats)


def confirm_quit(console: Console) -> bool:
    """Ask before leaving; the end of input counts as yes (nothing more can be played)."""
    try:
        answer = console.input("Leave the game? \\[y/N] ")
        echo(console, answer)
    except (EOFError, KeyboardInterrupt):
        console.print()
        return True
    return answer.strip().lower() in YES


def offer_save(console: Console, session: Session, seats: list[str],
               save: Path | None) -> None:
    """Save the record where --save said, or ask for a file name (Enter: do not save)."""
    path = save
    if path is None:
        try:
            answer = console.input("Save the game to resume it later? File name "
                                   "(Enter: do not save): ").strip()
            echo(console, answer)
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if not answer:
            return
        path = Path(answer)
    save_record(console, path, session.game, session.state, session.seed, seats)
    console.print(Text(f"Resume it with: kamon play {session.game.name} --load {path}",
                       style="green"))
