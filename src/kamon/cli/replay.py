"""`kamon replay`: a saved game's log, then the board and scores where it stops."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.rule import Rule
from rich.text import Text

from kamon.cli.app import (
    app,
    friendly_errors,
    make_console,
)
from kamon.cli.shared import (
    Feed,
    decision_of,
    echo,
    score_table,
    seat_text,
    winner_line,
)
from kamon.core.errors import IllegalAction, KamonError, RecordError
from kamon.core.protocol import Game, State
from kamon.core.record import GameRecord
from kamon.games import get_game


def load_record(path: Path, index: int | None) -> GameRecord:
    """A record from a file: a JSON record, or line `index` (from 1) of a JSON-lines file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return GameRecord.from_text(text, index, str(path))


def replay_step(game: Game, state: State, record: GameRecord, i: int) -> Text:
    """Apply the record's action i (0-based) and return its log line."""
    text = record.actions[i]
    seat = state.to_move
    try:
        action = game.parse_action(state, text)
        state.apply(action)
    except IllegalAction as exc:
        raise RecordError(f"action {i + 1} ({text!r}) does not apply: {exc}") from None
    line = Text(f"{i + 1:>4}. ", style="cyan")
    if seat is not None:
        line.append_text(seat_text(state, seat))
        if seat < len(record.seats):
            line.append(f" ({record.seats[seat]})")
        line.append(": ")
    line.append(action.text, style="bold")
    return line


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON) or a JSONL file of records")],
    step: Annotated[bool, typer.Option("--step",
                                       help="one action at a time: Enter goes on, q quits")
                    ] = False,
    upto: Annotated[int | None, typer.Option(help="stop after this many actions")] = None,
    index: Annotated[int | None, typer.Option(help="which line of a JSONL file (from 1)")
                     ] = None,
) -> None:
    """Replay a saved game: its log, then the board and scores where it stops."""
    console = make_console()
    with friendly_errors():
        record = load_record(file, index)
        game = get_game(record.game)
        total = len(record.actions)
        if upto is not None and not 0 <= upto <= total:
            raise KamonError(f"--upto {upto} is out of range: the record has {total} actions")
        stop = total if upto is None else upto
        try:
            state = game.new_game(record.players, record.seed, **record.options)
        except (TypeError, ValueError) as exc:
            raise RecordError(f"cannot set up {record.game!r} from this record: {exc}") from None
        console.print(Text(f"{game.title} · {record.players} players · seed {record.seed} · "
                           f"{total} actions", style="bold"))
        if record.seats:
            console.print(Text("Seats: ") + Text(", ").join(
                Text.assemble(seat_text(state, p), f" = {k}") for p, k in enumerate(record.seats)))
        for line in game.describe_options(state.options):
            console.print(Text(f"  · {line}", style="dim"))
        feed = Feed(state)
        feed.collect()
        feed.flush(console)
        if step:
            console.print(Text("Enter: next action · b: board · q: quit", style="dim"))
        i = 0
        while i < stop:
            if step:
                try:
                    answer = console.input(f"[dim]next: action {i + 1} of {stop}[/] ")
                except (EOFError, KeyboardInterrupt):
                    console.print()
                    break
                echo(console, answer)
                answer = answer.strip().lower()
                if answer in ("q", "quit"):
                    break
                if answer in ("b", "board"):
                    console.print(game.render_text(state, None))
                    continue
            feed.collect(replay_step(game, state, record, i))
            feed.flush(console)
            i += 1
        console.print(Rule(f"After {i} of {total} actions"))
        console.print(game.render_text(state, None))
        if state.is_over():
            console.print(score_table(state, record.seats))
            console.print(winner_line(state))
        else:
            console.print(score_table(state, record.seats, title="Scores if the game ended now"))
            console.print(Text(f"Not over: {decision_of(state)}", style="yellow"))

