"""`kamon play`: a game in the terminal; bots move by themselves, humans type their moves."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

from kamon.agents import Agent, agent_seed, make_agent
from kamon.cli.app import (
    app,
    friendly_errors,
    make_console,
)
from kamon.cli.options import game_flags, options_from_flags
from kamon.cli.session import Session, confirm_quit, load_session, offer_save
from kamon.cli.shared import (
    HUMAN,
    MAX_DECISIONS,
    Feed,
    check_agents,
    decision_of,
    describe,
    echo,
    new_game,
    parse_seats,
    save_record,
    score_table,
    seat_name,
    seat_text,
    winner_line,
)
from kamon.core.errors import IllegalAction, KamonError
from kamon.core.protocol import Action, Game, State
from kamon.games import get_game

HUMAN_HELP = (
    "Type the number of a move, or its notation (e.g. 'take coral left'). Other commands:\n"
    "  b, board   show the board again        l, log    show the last 30 events\n"
    "  m, moves   list the legal moves again   u, undo   take back your last decision\n"
    "  q, quit    leave the game (asks first, and offers to save it to a file that\n"
    "             kamon play GAME --load FILE resumes)"
)
UNDO = "undo"  # what ask_human returns when the player asks to take back a decision


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


def ask_human(console: Console, game: Game, state: State, seat: int,
              legal: Sequence[Action]) -> Action | str | None:
    """Read a move from the terminal: an action, UNDO, or None when the player leaves
    (asked to confirm) or input ends."""
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
            if confirm_quit(console):
                return None
            continue
        if low in ("u", "undo"):
            return UNDO
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
@game_flags
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="game to play, e.g. white-castle")],
    seats: Annotated[str | None, typer.Option(
        help="one entry per player: human, a level (easy, normal, fast, hard, learned, "
             "expert), an agent "
             "(random, greedy, mcts) or a plug-in agent (module:Name, path/to/file.py:Name, "
             "a MaskablePPO policy.zip, a torch model.pt; docs/agents.md) "
             "[default: human,random,random]")
                     ] = None,
    players: Annotated[int | None, typer.Option(
        help="number of players: you and bots (1 = solo against the rival, where the game "
             "has one)")] = None,
    seed: Annotated[int | None, typer.Option(help="set-up and dice seed (random if omitted)")
                    ] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record to this file")
                    ] = None,
    load: Annotated[Path | None, typer.Option(
        help="resume a saved game (a record file); its seats unless --seats is given")
                    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q",
                                        help="with no human seat: only the result")] = False,
    option_flags: dict[str, Any] | None = None,
) -> None:
    """Play a game in the terminal; bots move by themselves, humans type their moves."""
    console = make_console()
    with friendly_errors():
        game = get_game(game_name)
        if load is not None:
            session, saved_seats = load_session(game, load)
            seed, opts = session.seed, dict(session.options)
            if seats is None:
                seats = ",".join(saved_seats) or ",".join(["human"] * session.players)
            kinds = parse_seats(seats)
            if len(kinds) != session.players:
                raise KamonError(f"{load} is a game of {session.players} players but --seats "
                                 f"names {len(kinds)}")
        else:
            if seats is None:
                seats = ",".join(["human"] + ["random"] *
                                 ((players or min(max(3, game.min_players), game.max_players)) - 1))
            kinds = parse_seats(seats)
            if players is not None and players != len(kinds):
                raise KamonError(f"--players {players} but --seats names {len(kinds)} seats")
            opts = options_from_flags(game, option_flags or {})
            if seed is None:
                seed = secrets.randbelow(2**31)
            session = Session(game, len(kinds), seed, opts,
                              new_game(game, len(kinds), seed, opts))
        state = session.state
        used = state.options
        labels = check_agents(kinds, game)  # every plug-in loaded and fitted first
        bots: dict[int, Agent] = {p: make_agent(k, agent_seed(seed, p), game=game.name)
                                  for p, k in enumerate(kinds) if k != HUMAN}
        names = [labels.get(k, k) for k in kinds]
        humans = len(bots) < len(kinds)

        console.print(Text(f"{game.title} · {len(kinds)} players · seed {seed}", style="bold"))
        console.print(Text("Seats: ") + Text(", ").join(
            Text.assemble(seat_text(state, p), f" = {k}" if labels.get(k, k) == k else
                          f" = {labels[k]} ({k})") for p, k in enumerate(kinds)))
        for line in game.describe_options(used):
            console.print(Text(f"  · {line}", style="dim"))
        if humans:
            console.print(Text("Type ? at the prompt for help.", style="dim"))

        feed = Feed(state)
        if load is not None:
            feed.seen = max(0, len(state.events) - 10)
            console.print(Text(f"Resumed after {len(state.history)} actions; the last events:",
                               style="dim"))
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
                board_due = False
                console.print(game.render_text(state, p))  # redrawn after each decision
                feed.flush(console)
                legal = state.legal_actions()
                print_moves(console, state, legal)
                action = ask_human(console, game, state, p, legal)
                if action is None:
                    console.print(Text(f"You left the game after {len(state.history)} actions.",
                                       style="yellow"))
                    offer_save(console, session, kinds, save)
                    return
                if action == UNDO:
                    decisions -= 1
                    undone = state.history[-1] if state.history else None
                    why = session.undo(p)
                    if why is not None:
                        console.print(Text(f"Cannot undo: {why}.", style="red"))
                        continue
                    assert undone is not None
                    state = feed.state = session.state
                    feed.seen = len(state.events)
                    feed.lines.clear()
                    console.print(Text(f"Undone: {game.action_text(undone)}", style="yellow"))
                    continue
                assert isinstance(action, Action)
                session.apply(p, action.id)
                last_human = p
                feed.collect()
                feed.flush(console)
            else:
                action = bots[p].act(state)
                session.apply(p, action.id)
                board_due = True
                feed.collect(move_line(state, p, names[p], action))
                if stream:
                    feed.flush(console)
                elif not humans:
                    feed.lines.clear()

        if humans or not quiet:
            feed.flush(console)
            console.print(Rule("Game over"))
            console.print(game.render_text(state, None))
        console.print(score_table(state, names))
        console.print(winner_line(state))
        if save is not None:
            save_record(console, save, game, state, seed, kinds)
