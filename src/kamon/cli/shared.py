"""What several commands share: seat names and colours, the game options from the flags,
setting a game up, the score table, the winner line, saving a record, the event feed."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from kamon.agents import AGENTS, agent_spec
from kamon.agents.plugin import FORMS, looks_like_plugin
from kamon.core.errors import KamonError
from kamon.core.protocol import Action, Game, State
from kamon.core.record import GameRecord

HUMAN = "human"
MAX_DECISIONS = 100_000  # a game that needs more is stuck: report it instead of looping
SEAT_STYLE = {"blue": "bold dodger_blue1", "yellow": "bold yellow", "red": "bold red",
              "green": "bold green", "orange": "bold dark_orange", "teal": "bold cyan",
              "pink": "bold hot_pink"}


def seat_name(state: State, seat: int) -> str:
    """A seat's name as the game calls it (a clan colour)."""
    return state.name(seat)


def seat_text(state: State, seat: int, suffix: str = "") -> Text:
    """A seat's name styled in its colour."""
    name = seat_name(state, seat)
    return Text(name + suffix, style=SEAT_STYLE.get(name, "bold"))


def decision_of(state: State) -> str:
    """What is being decided now, in the game's words."""
    return state.decision_text()


def describe(state: State, action: Action) -> str:
    """What a move would do, in words ('' when that is just its notation)."""
    text = state.describe(action.id)
    return "" if text == action.text else text


def category_label(state: State, category: str) -> str:
    """A score category in the game's words ('coins + seals (1 CP per 5)')."""
    return state.game.score_labels.get(category, category.replace("_", " "))


def parse_seats(text: str) -> list[str]:
    """Seat kinds from 'human,random,mymod:MyAgent,...' (names in lower case, plug-in
    specs as given); KamonError naming the known kinds. Whether a plug-in loads is
    checked when it is built (`check_agents`)."""
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if not seats:
        raise KamonError("--seats needs at least one seat, e.g. --seats human,random")
    known = [HUMAN, *sorted(AGENTS)]
    out = []
    for s in seats:
        if s.lower() in known:
            out.append(s.lower())
        elif looks_like_plugin(s):
            out.append(s)
        else:
            raise KamonError(f"unknown seat kind {s!r}; use one of: {', '.join(known)}; or a "
                             f"plug-in agent: {FORMS}")
    return out


def parse_agents(text: str) -> list[str]:
    """Agents from 'greedy,random,mymod:MyAgent' (registry names in lower case, plug-in
    specs as given; a spec holds no comma)."""
    return [agent_spec(a) for a in text.split(",") if a.strip()]


def seat_agents(text: str | None, players: int) -> list[str]:
    """One agent per seat from --agents (default random; one name fills every seat)."""
    names = parse_agents(text or "random")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise KamonError(f"--agents names {len(names)} agents for {players} players")
    return names


def check_agents(specs: Sequence[str], game: Game) -> dict[str, str]:
    """Build every agent once, plug-ins fitted to the game, before any game starts (a
    KamonError for the first that fails); the name each goes by in tables."""
    from kamon.agents.plugin import agent_labels

    return agent_labels([s for s in specs if s != HUMAN], game.name)


def new_game(game: Game, players: int, seed: int, options: Mapping[str, Any]) -> State:
    """Set a game up, turning a bad player count or option into a KamonError."""
    try:
        return game.new_game(players, seed, **options)
    except (TypeError, ValueError) as exc:
        needed = {k: v for k, v in game.options.forced(players).items() if k not in options}
        hint = "".join(f" (give {game.options[k].flag} {v})" for k, v in needed.items())
        raise KamonError(f"cannot set up {game.title}: {exc}{hint}") from None


def score_table(state: State, labels: Sequence[str], title: str = "Final scores") -> Table:
    """Per-category scores, one column per seat, the winner marked."""
    scores = state.scores()
    winners = state.winners()
    tb = Table(title=title, title_justify="left", show_lines=False)
    tb.add_column("Category", style="bold")
    for p in range(len(scores)):  # every clan, also the solo rival (not a seat)
        head = Text.assemble(seat_text(state, p))
        if p < len(labels) and labels[p]:
            head.append(f" ({labels[p]})")
        if p in winners:
            head.append(" ★ winner", style="bold green")
        tb.add_column(head, justify="right")
    cats = [k for k in scores[0] if k != "total"] if scores else []
    for cat in cats:
        tb.add_row(category_label(state, cat),
                   *(str(s.get(cat, 0)) for s in scores))
    tb.add_section()
    tb.add_row("Total", *(str(s["total"]) for s in scores), style="bold")
    return tb


def winner_line(state: State) -> Text:
    """'Winner: blue with 52 CP' (or a note that the game is not over)."""
    winners = state.winners()
    if not winners:
        return Text("The game is not over.", style="dim")
    scores = state.scores()
    t = Text("Winner: ", style="bold")
    for i, w in enumerate(winners):
        if i:
            t.append(" and ")
        t.append_text(seat_text(state, w))
    t.append(f" with {scores[winners[0]]['total']} points")
    totals = [s["total"] for s in scores]
    if len(winners) > 1:
        t.append(" (shared victory)", style="dim")
    elif totals.count(max(totals)) > 1:
        t.append(" (tie broken by the rules' tie-breaker)", style="dim")
    return t


def save_record(console: Console, path: Path, game: Game, state: State, seed: int,
                seats: list[str]) -> None:
    """Write the game record (with the options the game used) and say where it went."""
    record = GameRecord.of(game.name, state, seed, dict(state.options),
                           game.action_text, seats)
    try:
        record.save(path)
    except OSError as exc:
        raise KamonError(f"cannot save the record to {path}: {exc.strerror}") from None
    console.print(Text(f"Game record saved to {path} ({len(record.actions)} actions); "
                       f"replay it with: kamon replay {path}", style="green"))


@dataclass
class Feed:
    """Log lines not yet shown: each move, then the events it caused."""

    state: State
    seen: int = 0
    lines: list[Text] = field(default_factory=list)

    def collect(self, header: Text | None = None) -> None:
        """Queue the header (a move) and every event since the last collect."""
        if header is not None:
            self.lines.append(header)
        events = self.state.events
        self.lines.extend(Text("      " + e, style="dim" if header else "") for e in
                          events[self.seen:])
        self.seen = len(events)

    def flush(self, console: Console) -> None:
        """Print and forget the queued lines."""
        for line in self.lines:
            console.print(line)
        self.lines.clear()


def echo(console: Console, line: str) -> None:
    """Show what was read when input is piped (a terminal echoes it already)."""
    if not sys.stdin.isatty():
        console.print(Text(line))



class RateColumn(ProgressColumn):
    """Games per second so far (the games found done at the start not counted)."""

    def render(self, task: Task) -> Text:
        """'123.4 games/s' once some games have finished."""
        elapsed = task.elapsed or 0.0
        done = task.completed - float(task.fields.get("skipped", 0))
        if elapsed <= 0 or done <= 0:
            return Text("- games/s", style="progress.data.speed")
        return Text(f"{done / elapsed:,.1f} games/s", style="progress.data.speed")


def games_progress(console: Console) -> Progress:
    """The progress bar of simulate and tournament: bar, games done, rate, times."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    RateColumn(), TimeElapsedColumn(), TimeRemainingColumn(), console=console)
