"""The `kamon` command: play a game in the terminal, simulate many, replay a record.

    kamon play white-castle --seats human,random,random
    kamon simulate white-castle --players 4 --games 200 --jobs 4 --out games.jsonl
    kamon replay game.json --step
    kamon tournament white-castle --agents hard,normal,easy,random --games 40 --jobs 2

Everything here goes through the core protocol (`kamon.games.get_game`, `State`,
`GameRecord`), so a new game needs no new CLI code; only its optional extras
(`decision_text`, `describe`, `name`) are looked up when a game offers them.
Errors a person can fix (a bad file, an unknown game) print one red line and
exit with code 2, never a traceback.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from kamon.agents import AGENTS, Agent, agent_seed, make_agent
from kamon.core.errors import IllegalAction, KamonError, RecordError
from kamon.core.overlay import load_overlay_file
from kamon.core.protocol import Action, Game, State
from kamon.core.record import GameRecord
from kamon.games import GAMES, get_game
from kamon.sim.tournament import Line, TournamentResult, run_tournament

HUMAN = "human"
MAX_DECISIONS = 100_000  # a game that needs more is stuck: report it instead of looping
SEAT_STYLE = {"blue": "bold dodger_blue1", "yellow": "bold yellow", "red": "bold red",
              "green": "bold green", "orange": "bold dark_orange", "teal": "bold cyan",
              "pink": "bold hot_pink"}
CATEGORY_LABELS = {
    "during_game": "CP scored during the game",
    "coins_seals": "coins + seals (1 CP per 5)",
    "resources": "resources",
    "passage_of_time": "Passage of Time",
    "courtiers": "courtiers",
    "warriors": "warriors",
    "gardeners": "gardeners",
    "total": "total",
}
HUMAN_HELP = (
    "Type the number of a move, or its notation (e.g. 'take coral left'). Other commands:\n"
    "  b, board   show the board again        l, log    show the last 30 events\n"
    "  m, moves   list the legal moves again   q, quit   leave the game "
    "(the record is saved if --save was given)"
)

app = typer.Typer(
    name="kamon",
    help="Play, simulate and study The White Castle and I, Clansman.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


# Game options shared by play, simulate and tournament (build_options turns them into
# the game's options).
FirstGameOpt = Annotated[bool, typer.Option("--first-game",
                                            help="the rulebook's first-game setup")]
ExpertOpt = Annotated[bool, typer.Option("--expert", help="the Expert game (I, Clansman)")]
EmperorSideOpt = Annotated[str | None, typer.Option(
    "--emperor-side", help="Expert game: side of the Emperor cards, A or B")]
VariantOpt = Annotated[str | None, typer.Option(
    help="an optional variant, e.g. small-table (I, Clansman, unofficial 2-3 players)")]
DifficultyOpt = Annotated[str | None, typer.Option(
    help="solo game (--players 1): the rival's difficulty, easy, medium or hard")]


# --------------------------------------------------------------------------- helpers


def _out() -> Console:
    """A console on the current stdout (created per command so test runners capture it)."""
    return Console(highlight=False)


def _fail(message: str) -> NoReturn:
    """Print a one-line red error on stderr and exit with code 2."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        Text.assemble(("error: ", "bold red"), (message, "red")))
    raise typer.Exit(2)


@contextmanager
def _friendly_errors() -> Iterator[None]:
    """Turn the errors a user can fix into a red line and exit code 2 (no traceback)."""
    try:
        yield
    except KamonError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{exc.filename or 'file'}: {exc.strerror or exc}")


def seat_name(state: State, seat: int) -> str:
    """A seat's name as the game calls it (a clan colour), or 'seat N'."""
    namer = getattr(state, "name", None)
    return str(namer(seat)) if callable(namer) else f"seat {seat + 1}"


def seat_text(state: State, seat: int, suffix: str = "") -> Text:
    """A seat's name styled in its colour."""
    name = seat_name(state, seat)
    return Text(name + suffix, style=SEAT_STYLE.get(name, "bold"))


def decision_of(state: State) -> str:
    """What is being decided now, when the game can say it."""
    fn = getattr(state, "decision_text", None)
    return str(fn()) if callable(fn) else f"{seat_name(state, state.to_move or 0)} to move"


def describe(state: State, action: Action) -> str:
    """What a move would do, in words, when the game can say it ('' otherwise)."""
    fn = getattr(state, "describe", None)
    text = str(fn(action.id)) if callable(fn) else ""
    return "" if text == action.text else text


def effective_options(state: State, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the game really used (it may add some, e.g. an overlay from the env)."""
    used = getattr(state, "options", None)
    return dict(used) if isinstance(used, Mapping) else dict(options)


def parse_seats(text: str) -> list[str]:
    """Seat kinds from 'human,random,...'; KamonError naming the known kinds."""
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    if not seats:
        raise KamonError("--seats needs at least one seat, e.g. --seats human,random")
    known = [HUMAN, *sorted(AGENTS)]
    for s in seats:
        if s not in known:
            raise KamonError(f"unknown seat kind {s!r}; use one of: {', '.join(known)}")
    return seats


OVERLAY_ENV = "KAMON_DATA_OVERLAY"


def build_options(game: Game, first_game: bool, data_overlay: Path | None,
                  difficulty: str | None = None, expert: bool = False,
                  emperor_side: str | None = None, variant: str | None = None
                  ) -> dict[str, Any]:
    """The game options from the command-line flags (only those the game has)."""
    opts: dict[str, Any] = {}
    for flag, key, value in (("--expert", "expert", True if expert else None),
                             ("--emperor-side", "emperor_side",
                              emperor_side.strip().upper() if emperor_side else None),
                             ("--variant", "variant", variant.strip().lower() if variant
                              else None)):
        if value is not None:
            if key not in game.options:
                raise KamonError(f"{game.title} has no option {flag}")
            opts[key] = value
    if difficulty is not None:
        if "difficulty" not in game.options:
            raise KamonError(f"{game.title} has no solo difficulty (--difficulty)")
        opts["difficulty"] = difficulty.lower()
    if first_game:
        if "first_game" not in game.options:
            raise KamonError(f"{game.title} has no first-game setup (--first-game)")
        opts["first_game"] = True
    if data_overlay is None and os.environ.get(OVERLAY_ENV) and "data_overlay" in game.options:
        data_overlay = Path(os.environ[OVERLAY_ENV])
    if data_overlay is not None:
        if "data_overlay" not in game.options:
            raise KamonError(f"{game.title} takes no data overlay (--data-overlay)")
        opts["data_overlay"] = load_overlay(game, data_overlay)
    return opts


def load_overlay(game: Game, path: Path) -> dict[str, Any]:
    """Read a data-overlay file (a JSON object, or one keyed by the game's name)."""
    return load_overlay_file(str(path), game.name)


def new_game(game: Game, players: int, seed: int, options: Mapping[str, Any]) -> State:
    """Set a game up, turning a bad player count or option into a KamonError."""
    if not game.min_players <= players <= game.max_players and "variant" not in options:
        counts = (str(game.min_players) if game.min_players == game.max_players
                  else f"{game.min_players}-{game.max_players}")
        raise KamonError(f"{game.title} takes {counts} players, got {players}"
                         + (" (a variant may allow others: --variant)"
                            if "variant" in game.options else ""))
    try:
        return game.new_game(players, seed, **options)
    except (TypeError, ValueError) as exc:
        raise KamonError(f"cannot set up {game.title}: {exc}") from None


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
        tb.add_row(CATEGORY_LABELS.get(cat, cat.replace("_", " ")),
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
                options: Mapping[str, Any], seats: list[str]) -> None:
    """Write the game record and say where it went."""
    record = GameRecord.of(game.name, state, seed, effective_options(state, options),
                           game.action_text, seats)
    try:
        record.save(path)
    except OSError as exc:
        raise KamonError(f"cannot save the record to {path}: {exc.strerror}") from None
    console.print(Text(f"Game record saved to {path} ({len(record.actions)} actions); "
                       f"replay it with: kamon replay {path}", style="green"))


# ------------------------------------------------------------------------------ play


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


def move_line(state: State, seat: int, kind: str, action: Action) -> Text:
    """'yellow (random): take coral left' for the log."""
    t = Text.assemble(seat_text(state, seat), f" ({kind}): ", (action.text, "bold"))
    return t


def print_moves(console: Console, state: State, legal: Sequence[Action]) -> None:
    """The numbered legal moves with what each would do."""
    console.print(Text.assemble(("Now: ", "bold"), decision_of(state)))
    for i, action in enumerate(legal, 1):
        line = Text.assemble((f"{i:>3}. ", "cyan"), (action.text, "bold"))
        what = describe(state, action)
        if what:
            line.append(f" — {what}")
        console.print(line)


def echo(console: Console, line: str) -> None:
    """Show what was read when input is piped (a terminal echoes it already)."""
    if not sys.stdin.isatty():
        console.print(Text(line))


def ask_human(console: Console, game: Game, state: State, seat: int,
              legal: Sequence[Action]) -> Action | None:
    """Read a move from the terminal (None when the player quits or input ends)."""
    prompt = (f"[bold]{escape(seat_name(state, seat))}[/], your move "
              f"(1-{len(legal)}, notation, ? for help): ")
    while True:
        try:
            raw = console.input(prompt)
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        echo(console, raw)
        text = raw.strip()
        low = text.lower()
        if not text:
            continue
        if low in ("q", "quit", "exit"):
            return None
        if low in ("?", "h", "help"):
            console.print(Text(HUMAN_HELP))
        elif low in ("b", "board"):
            console.print(game.render_text(state, seat))
        elif low in ("l", "log"):
            for e in state.events[-30:]:
                console.print(Text("   " + e, style="dim"))
        elif low in ("m", "moves"):
            print_moves(console, state, legal)
        elif text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            console.print(Text(f"{n} is not a move number: choose 1-{len(legal)} "
                               "(or type ? for help)", style="red"))
        else:
            try:
                return game.parse_action(state, text)
            except IllegalAction as exc:
                console.print(Text(f"Not a legal move: {exc}", style="red"))


@app.command()
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to play, e.g. white-castle")],
    seats: Annotated[str | None, typer.Option(
        help="one entry per player: human, a level (easy, normal, hard) or an agent "
             "(random, greedy, mcts) [default: human,random,random]")
                     ] = None,
    players: Annotated[int | None, typer.Option(
        help="number of players: you and bots (1 = solo against the rival, where the game "
             "has one)")] = None,
    difficulty: DifficultyOpt = None,
    seed: Annotated[int | None, typer.Option(help="set-up and dice seed (random if omitted)")
                    ] = None,
    first_game: FirstGameOpt = False,
    expert: ExpertOpt = False,
    emperor_side: EmperorSideOpt = None,
    variant: VariantOpt = None,
    data_overlay: Annotated[Path | None, typer.Option(
        help="JSON file correcting the component data (also: KAMON_DATA_OVERLAY)")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record to this file")
                    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                        help="with no human seat: only the result")] = False,
) -> None:
    """Play a game in the terminal; bots move by themselves, humans type their moves."""
    console = _out()
    with _friendly_errors():
        game = get_game(game_name)
        if seats is None:
            seats = ",".join(["human"] + ["random"] * ((players or max(3, game.min_players)) - 1))
        kinds = parse_seats(seats)
        if players is not None and players != len(kinds):
            raise KamonError(f"--players {players} but --seats names {len(kinds)} seats")
        opts = build_options(game, first_game, data_overlay, difficulty, expert, emperor_side,
                             variant)
        if seed is None:
            seed = secrets.randbelow(2**31)
        state = new_game(game, len(kinds), seed, opts)
        used = effective_options(state, opts)
        bots: dict[int, Agent] = {p: make_agent(k, agent_seed(seed, p))
                                  for p, k in enumerate(kinds) if k != HUMAN}
        humans = len(bots) < len(kinds)

        console.print(Text(f"{game.title} · {len(kinds)} players · seed {seed}", style="bold"))
        console.print(Text("Seats: ") + Text(", ").join(
            Text.assemble(seat_text(state, p), f" = {k}") for p, k in enumerate(kinds)))
        for line in game.describe_options(used):
            console.print(Text(f"  · {line}", style="dim"))
        if humans:
            console.print(Text("Type ? at the prompt for help.", style="dim"))

        feed = Feed(state)
        feed.collect()
        stream = not humans and not quiet
        if stream:
            feed.flush(console)
        board_due = True
        last_human: int | None = None
        decisions = 0
        while not state.is_over():
            p = state.to_move
            if p is None:
                break
            decisions += 1
            if decisions > MAX_DECISIONS:
                raise KamonError(f"the game did not end after {MAX_DECISIONS} decisions")
            if kinds[p] == HUMAN:
                if board_due or last_human != p:
                    console.print(Rule(Text.assemble("Your turn, ", seat_text(state, p))))
                    console.print(game.render_text(state, p))
                    board_due = False
                feed.flush(console)
                legal = state.legal_actions()
                print_moves(console, state, legal)
                action = ask_human(console, game, state, p, legal)
                if action is None:
                    console.print(Text(f"You left the game after {len(state.history)} actions.",
                                       style="yellow"))
                    if save is not None:
                        save_record(console, save, game, state, seed, opts, kinds)
                    return
                state.apply(action)
                last_human = p
                feed.collect()
                feed.flush(console)
            else:
                action = bots[p].act(state)
                state.apply(action)
                board_due = True
                feed.collect(move_line(state, p, kinds[p], action))
                if stream:
                    feed.flush(console)
                elif not humans:
                    feed.lines.clear()

        if humans or not quiet:
            feed.flush(console)
            console.print(Rule("Game over"))
            console.print(game.render_text(state, None))
        console.print(score_table(state, kinds))
        console.print(winner_line(state))
        if save is not None:
            save_record(console, save, game, state, seed, opts, kinds)


# -------------------------------------------------------------------------- simulate


@dataclass(frozen=True)
class SimJob:
    """One simulated game: everything a worker process needs to play it."""

    game: str
    players: int
    seed: int
    agents: tuple[str, ...]
    options: dict[str, Any]


def run_sim_game(job: SimJob) -> dict[str, Any]:
    """Play one seeded game with bots; top-level so spawned worker processes can run it."""
    game = get_game(job.game)
    state = new_game(game, job.players, job.seed, job.options)
    bots = [make_agent(name, agent_seed(job.seed, p)) for p, name in enumerate(job.agents)]
    decisions = 0
    while not state.is_over():
        p = state.to_move
        if p is None:
            break
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise KamonError(f"game with seed {job.seed} did not end after {MAX_DECISIONS} "
                             "decisions")
        state.apply(bots[p].act(state))
    record = GameRecord.of(game.name, state, job.seed, effective_options(state, job.options),
                           game.action_text, list(job.agents))
    return {"seed": job.seed, "scores": state.scores(), "winners": state.winners(),
            "decisions": decisions, "record": record.to_json()}


def sim_summary(state: State, agents: Sequence[str], results: Sequence[dict[str, Any]],
                elapsed: float, jobs: int) -> list[Any]:
    """The tables and the closing line of a simulation."""
    n = len(results)
    clans = len(results[0]["scores"]) if results else state.num_players
    wins = [0] * clans
    totals: list[list[int]] = [[] for _ in range(clans)]
    per_cat: dict[str, list[int]] = {}
    for res in results:
        for w in res["winners"]:
            wins[w] += 1
        for p, sc in enumerate(res["scores"]):
            totals[p].append(sc["total"])
            for cat, v in sc.items():
                per_cat.setdefault(cat, []).append(v)
    seats_tb = Table(title=f"Wins by seat ({n} games)", title_justify="left")
    for col in ("Seat", "Agent", "Wins", "Win %", "Mean total"):
        seats_tb.add_column(col, justify="left" if col in ("Seat", "Agent") else "right")
    for p in range(clans):
        mean = sum(totals[p]) / len(totals[p]) if totals[p] else 0.0
        who = agents[p] if p < len(agents) else "solo rival"
        seats_tb.add_row(seat_text(state, p), who, str(wins[p]),
                         f"{100 * wins[p] / n:.1f}" if n else "-", f"{mean:.1f}")
    cat_tb = Table(title="Score categories (every seat of every game)", title_justify="left")
    for col in ("Category", "Mean", "Min", "Max"):
        cat_tb.add_column(col, justify="left" if col == "Category" else "right")
    for cat, vals in per_cat.items():
        if cat == "total":
            cat_tb.add_section()
        cat_tb.add_row(CATEGORY_LABELS.get(cat, cat.replace("_", " ")),
                       f"{sum(vals) / len(vals):.2f}", str(min(vals)), str(max(vals)),
                       style="bold" if cat == "total" else "")
    decisions = sum(r["decisions"] for r in results) / n if n else 0.0
    rate = n / elapsed if elapsed > 0 else float("inf")
    closing = Text(f"{n} games in {elapsed:.2f} s with {jobs} job(s): {rate:.1f} games/sec; "
                   f"mean {decisions:.1f} decisions per game")
    return [seats_tb, cat_tb, closing]


@app.command()
def simulate(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate")],
    players: Annotated[int, typer.Option(help="number of players")] = 4,
    games: Annotated[int, typer.Option(help="number of games")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the first game (game i uses seed+i)")] = 0,
    agents: Annotated[str | None, typer.Option(
        help="comma-separated agent per seat, or one name for all (default: random)")] = None,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    out: Annotated[Path | None, typer.Option(help="write one game record per line (JSONL)")
                   ] = None,
    first_game: FirstGameOpt = False,
    expert: ExpertOpt = False,
    emperor_side: EmperorSideOpt = None,
    variant: VariantOpt = None,
    difficulty: DifficultyOpt = None,
    data_overlay: Annotated[Path | None, typer.Option(
        help="JSON file correcting the component data")] = None,
) -> None:
    """Play many seeded bot games and summarise wins and scores."""
    console = _out()
    with _friendly_errors():
        game = get_game(game_name)
        if games < 1:
            raise KamonError("--games must be at least 1")
        if jobs < 1:
            raise KamonError("--jobs must be at least 1")
        names = [a.strip().lower() for a in (agents or "random").split(",") if a.strip()]
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise KamonError(f"--agents names {len(names)} agents for {players} players")
        for name in set(names):
            make_agent(name, 0)  # fail early on unknown names
        opts = build_options(game, first_game, data_overlay, difficulty, expert, emperor_side,
                             variant)
        probe = new_game(game, players, seed, opts)  # fails early on bad options
        console.print(Text(f"Simulating {games} games of {game.title}: {players} players "
                           f"({', '.join(names)}), seeds {seed}-{seed + games - 1}", style="bold"))
        for line in game.describe_options(effective_options(probe, opts)):
            console.print(Text(f"  · {line}", style="dim"))
        todo = [SimJob(game.name, players, seed + i, tuple(names), opts) for i in range(games)]
        results: list[dict[str, Any]] = []
        sink = out.open("w", encoding="utf-8") if out is not None else None
        start = time.perf_counter()
        try:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TimeRemainingColumn(), console=console) as bar:
                task = bar.add_task("games", total=games)
                for res in _run_jobs(todo, jobs):
                    results.append(res)
                    if sink is not None:
                        sink.write(json.dumps(res["record"], separators=(",", ":")) + "\n")
                    bar.advance(task)
        finally:
            if sink is not None:
                sink.close()
        elapsed = time.perf_counter() - start
        for item in sim_summary(probe, names, results, elapsed, jobs):
            console.print(item)
        if out is not None:
            console.print(Text(f"{len(results)} records written to {out} "
                               f"(replay one with: kamon replay {out} --index 1)", style="green"))


def _run_jobs(todo: list[SimJob], jobs: int) -> Iterator[dict[str, Any]]:
    """Results in game order, from this process or a spawn-safe process pool."""
    if jobs == 1 or len(todo) == 1:
        for job in todo:
            yield run_sim_game(job)
        return
    ctx = multiprocessing.get_context("spawn")
    chunk = max(1, len(todo) // (jobs * 8))
    with ctx.Pool(min(jobs, len(todo))) as pool:
        yield from pool.imap(run_sim_game, todo, chunksize=chunk)


# ---------------------------------------------------------------------------- replay


def load_record(path: Path, index: int | None) -> GameRecord:
    """A record from a file: a JSON record, or line `index` (from 1) of a JSON-lines file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if index is None:
        try:
            return GameRecord.from_json(json.loads(text))
        except json.JSONDecodeError as exc:
            if len(lines) > 1 and _is_json_object(lines[0]):
                raise RecordError(f"{path} holds {len(lines)} records, one per line; choose one "
                                  f"with --index 1..{len(lines)}") from None
            raise RecordError(f"{path} is not a game record (invalid JSON: {exc})") from None
    if not 1 <= index <= len(lines):
        raise RecordError(f"{path} has {len(lines)} record line(s); --index {index} is out of "
                          "range")
    try:
        return GameRecord.from_json(json.loads(lines[index - 1]))
    except json.JSONDecodeError as exc:
        raise RecordError(f"line {index} of {path} is not valid JSON: {exc}") from None


def _is_json_object(line: str) -> bool:
    """True if a line is on its own a JSON object."""
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


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
    console = _out()
    with _friendly_errors():
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
        for line in game.describe_options(effective_options(state, record.options)):
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


# ------------------------------------------------------------------------ tournament


def _rate_cells(line: Line) -> list[str]:
    """Games, wins, win %, the 95% interval and the mean score of a results line."""
    lo, hi = line.interval
    return [str(line.games), f"{line.wins:g}", f"{100 * line.win_rate:.1f}",
            f"{100 * lo:.1f}-{100 * hi:.1f}", f"{line.mean_score:.1f}"]


def tournament_tables(result: TournamentResult) -> list[Any]:
    """The tables of a tournament: by agent, by seat, openskill ratings; then a closing line."""
    head = ("Games", "Wins", "Win %", "95% interval", "Mean score")
    n = len(result.results)
    by_agent = Table(title=f"By agent ({n} games)", title_justify="left")
    for col in ("Agent", *head, "s/decision"):
        by_agent.add_column(col, justify="left" if col == "Agent" else "right")
    for line in result.by_agent():
        by_agent.add_row(line.label, *_rate_cells(line),
                         f"{line.seconds_per_decision:.3f}" if line.decisions else "-")
    by_seat = Table(title="By seat (whoever sat there)", title_justify="left")
    for col in ("Seat", *head):
        by_seat.add_column(col, justify="left" if col == "Seat" else "right")
    for line in result.by_seat():
        by_seat.add_row(line.label, *_rate_cells(line))
    ratings = Table(title="openskill ratings (ordinal = mu - 3 sigma)",
                    title_justify="left")
    for col in ("Agent", "mu", "sigma", "ordinal"):
        ratings.add_column(col, justify="left" if col == "Agent" else "right")
    for r in result.ratings():
        ratings.add_row(r.agent, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}")
    closing = Text(f"{n} games in {result.elapsed:.1f} s")
    return [by_agent, by_seat, ratings, closing]


@app.command()
def tournament(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to play")],
    agents: Annotated[str, typer.Option(
        help="comma-separated agents or levels; seats rotate between games")
                      ] = "hard,normal,easy,random",
    games: Annotated[int, typer.Option(help="number of games")] = 8,
    players: Annotated[int | None, typer.Option(
        help="seats per game (default: one per agent, within the game's player counts)")
                       ] = None,
    seed: Annotated[int, typer.Option(help="first deal's seed (each deal is played once per "
                                           "seat rotation)")] = 0,
    jobs: Annotated[int, typer.Option(help="worker processes")] = 1,
    csv: Annotated[Path | None, typer.Option(
        help="write one row per player of every game (CSV with a header)")] = None,
    first_game: FirstGameOpt = False,
    expert: ExpertOpt = False,
    emperor_side: EmperorSideOpt = None,
    variant: VariantOpt = None,
    difficulty: DifficultyOpt = None,
    data_overlay: Annotated[Path | None, typer.Option(
        help="JSON file correcting the component data")] = None,
) -> None:
    """Play agents against each other with rotated seats: win rates, intervals, ratings."""
    console = _out()
    with _friendly_errors():
        game = get_game(game_name)
        if jobs < 1:
            raise KamonError("--jobs must be at least 1")
        names = [a.strip().lower() for a in agents.split(",") if a.strip()]
        for name in set(names):
            make_agent(name, 0)  # fail early on unknown names
        opts = build_options(game, first_game, data_overlay, difficulty, expert, emperor_side,
                             variant)
        seats = players if players is not None else min(max(len(names), game.min_players),
                                                        game.max_players)
        new_game(game, seats, seed, opts)  # fails early on bad options or player counts
        console.print(Text(f"Tournament of {game.title}: {games} games, {seats} seats, "
                           f"agents {', '.join(names)}, seeds from {seed}", style="bold"))
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=console) as bar:
            task = bar.add_task("games", total=games)
            result = run_tournament(game.name, names, games, seats, seed, jobs, opts,
                                    progress=lambda _res: bar.advance(task))
        for item in tournament_tables(result):
            console.print(item)
        if csv is not None:
            try:
                rows = result.write_csv(csv)
            except OSError as exc:
                raise KamonError(f"cannot write {csv}: {exc.strerror}") from None
            console.print(Text(f"{rows} rows written to {csv}", style="green"))


@app.command("games")
def list_games() -> None:
    """List the games kamon can play."""
    console = _out()
    with _friendly_errors():
        for name in sorted(GAMES):
            game = get_game(name)
            counts = (str(game.min_players) if game.min_players == game.max_players
                      else f"{game.min_players}-{game.max_players}")
            console.print(Text.assemble(
                (name, "bold"), f"  {game.title}, {counts} players; "
                f"options: {', '.join(game.options) or 'none'}"))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0: the whole "
                                           "network)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8000,
    db: Annotated[str, typer.Option(help="an SQLite file path, or a URL such as "
                                         "postgresql://user:pass@host/dbname")] = "kamon.db",
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before it moves, "
                                                  "so people can follow")] = 0.6,
    bot_workers: Annotated[int | None, typer.Option(
        help="processes that run bots (default: up to 2; 0 runs them in a thread)")] = None,
) -> None:
    """Run the web app: play in the browser, invite friends by link, games stored in --db."""
    console = _out()
    with _friendly_errors():
        import uvicorn

        from kamon.server.app import create_app

        try:
            web = create_app(db, bot_workers=bot_workers, bot_delay=bot_delay)
        except Exception as exc:  # an unreachable database, a bad URL, an unwritable file
            raise KamonError(f"cannot open the database {db!r}: {exc}") from None
        console.print(Text.assemble(("kamon", "bold"), f" serving on http://{host}:{port}/ "
                                    f"(games stored in {db}); Ctrl-C stops"))
        uvicorn.run(web, host=host, port=port, log_level="warning")


def main() -> None:
    """Entry point of the `kamon` script."""
    app()


if __name__ == "__main__":
    main()
