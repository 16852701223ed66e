"""The games a server hosts: create, view, move, undo and export, over the store.

Nothing here knows HTTP: every refusal is a `ServiceError` carrying the status the web
layer answers with (400 malformed, 403 wrong seat, 404 no game, 409 stale version,
422 illegal move) and a message that says what was wrong. Every write goes through the
store's versioned append, so a refused request stores nothing.

A game's state is rebuilt from its record (setup + the moves in force); a cache keeps the
last state of each game by version, never trusted over the store: a request first reads
the stored version, and a different version means a rebuild.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from kamon.agents import AGENTS, LEVELS, MCTSAgent, agent_seed, make_agent
from kamon.core.errors import IllegalAction, KamonError
from kamon.core.protocol import Game, State
from kamon.core.record import GameRecord
from kamon.core.rng import Rng
from kamon.games import GAMES, get_game
from kamon.server.store import (
    MAX_SEED,
    ActionRow,
    GameRow,
    SeatRow,
    Store,
    VersionConflict,
    effective_moves,
    token_hash,
)

# What a browser may choose when it creates a game; anything else is refused (400).
# data_overlay stays a command-line option: a server does not load data from a request.
WEB_OPTIONS: dict[str, dict[str, type]] = {
    "white-castle": {"first_game": bool, "difficulty": str},
    "clansman": {"expert": bool, "emperor_side": str, "emperor_variant": str,
                 "variant": str, "start_player": int},
}
# Fewer players than the rulebook's, with an unofficial variant: (fewest players, option).
VARIANT_PLAYERS: dict[str, tuple[int, dict[str, str]]] = {
    "clansman": (2, {"variant": "small-table"}),
}
BOT_KINDS = tuple(LEVELS) + tuple(a for a in AGENTS if a not in LEVELS)
BOT_SECONDS = 1.0  # the most a search bot thinks about one decision on the server
UNDO_SAMPLES = 4  # re-sampled hidden states compared to decide if a move revealed anything


class ServiceError(Exception):
    """A refused request: the HTTP status to answer with and the reason in words."""

    def __init__(self, status: int, message: str) -> None:
        """Status code and message."""
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Loaded:
    """A game as rebuilt from the store at one version."""

    row: GameRow
    seats: list[SeatRow]
    version: int
    moves: list[ActionRow]
    state: State
    before: State | None = None  # the state before the last move, when it is at hand
    undo_seat: dict[int, bool] = field(default_factory=dict)  # seat -> may undo (memo)

    def state_before_last(self) -> State:
        """The position before the last move in force (replayed only if not at hand)."""
        if self.before is None:
            self.before = rebuild(self.row, self.moves[:-1])
        return self.before

    @property
    def game(self) -> Game:
        """The game's rules object."""
        return get_game(self.row.game)


def _require(cond: bool, message: str, status: int = 400) -> None:
    """Refuse with `status` and `message` unless `cond`."""
    if not cond:
        raise ServiceError(status, message)


def _is_int(x: Any) -> bool:
    """A JSON integer (not a boolean)."""
    return isinstance(x, int) and not isinstance(x, bool)


class GameService:
    """Hosted games over one store."""

    def __init__(self, store: Store) -> None:
        """Serve the games of `store`."""
        self.store = store
        self._cache: dict[str, Loaded] = {}

    # --- the catalogue -------------------------------------------------------------

    def catalog(self) -> dict[str, Any]:
        """What can be created: games, player counts, web options, seat kinds."""
        games = []
        for name in GAMES:
            g = get_game(name)
            fewest, variant = VARIANT_PLAYERS.get(name, (g.min_players, {}))
            games.append({
                "name": name, "title": g.title, "min_players": g.min_players,
                "max_players": g.max_players, "variant_min_players": fewest,
                "variant_options": variant,
                "options": {k: {"type": t.__name__, "help": str(g.options.get(k, ""))}
                            for k, t in WEB_OPTIONS[name].items()},
            })
        seats = [{"kind": "human", "summary": "a person, through an invite link"}]
        seats += [{"kind": k, "summary": LEVELS[k].summary} for k in LEVELS]
        seats += [{"kind": "random", "summary": "a uniformly random legal move"}]
        return {"games": games, "seats": seats}

    # --- create --------------------------------------------------------------------

    def create(self, body: Any) -> dict[str, Any]:
        """Set up a new game from a request body; its id and one token per human seat."""
        _require(isinstance(body, dict), "the request body must be a JSON object")
        name = body.get("game")
        _require(isinstance(name, str), "'game' must be a game name, e.g. 'white-castle'")
        try:
            game = get_game(name)
        except KamonError as exc:
            raise ServiceError(400, str(exc)) from None
        name = game.name
        players = body.get("players")
        _require(_is_int(players), "'players' must be an integer")
        _require(1 <= players <= game.max_players,  # variants may allow fewer: new_game says
                 f"{game.title} is played by {game.min_players} to {game.max_players} "
                 f"players, not {players}")
        seats = body.get("seats", ["human"] + ["normal"] * (players - 1))
        _require(isinstance(seats, list) and all(isinstance(s, str) for s in seats),
                 "'seats' must be a list of seat kinds ('human' or a bot level)")
        _require(len(seats) == players,
                 f"'seats' names {len(seats)} seat(s) for a {players}-player game")
        kinds = [s.strip().lower() for s in seats]
        for k in kinds:
            _require(k == "human" or k in BOT_KINDS,
                     f"unknown seat kind {k!r}; use 'human' or one of {', '.join(BOT_KINDS)}")
        options = body.get("options", {})
        _require(isinstance(options, dict), "'options' must be a JSON object")
        allowed = WEB_OPTIONS[name]
        for key, value in options.items():
            _require(key in allowed, f"unknown option {key!r} for {game.title}; "
                                     f"options: {', '.join(allowed)}")
            want = allowed[key]
            ok = _is_int(value) if want is int else isinstance(value, want)
            _require(ok, f"option {key!r} must be a {want.__name__}")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        _require(_is_int(seed) and 0 <= seed <= MAX_SEED,
                 f"'seed' must be an integer from 0 to {MAX_SEED}")
        try:
            state = game.new_game(players, seed, **options)
        except (KamonError, ValueError, TypeError) as exc:
            raise ServiceError(400, f"cannot set up {game.title}: {exc}") from None
        game_id = secrets.token_urlsafe(9)
        tokens: dict[int, str] = {}
        rows = []
        for seat, kind in enumerate(kinds):
            if kind == "human":
                tokens[seat] = secrets.token_urlsafe(18)
                rows.append(SeatRow(seat, "human", None, token_hash(tokens[seat])))
            else:
                rows.append(SeatRow(seat, "bot", kind, None))
        self.store.create_game(game_id, name, players, seed, options, rows)
        return {
            "id": game_id, "game": name, "title": game.title, "players": players,
            "seats": [{"seat": r.seat, "name": state.name(r.seat), "kind": r.kind,
                       "level": r.level, "token": tokens.get(r.seat),
                       "link": (f"/play/{game_id}?token={tokens[r.seat]}"
                                if r.seat in tokens else None)} for r in rows],
            "spectator_link": f"/play/{game_id}",
            "version": 0,
        }

    # --- load ----------------------------------------------------------------------

    def load(self, game_id: str) -> Loaded:
        """The game at its stored version (from the cache when the version matches)."""
        _require(isinstance(game_id, str) and 0 < len(game_id) <= 32,
                 f"no game {game_id!r}", 404)
        version = self.store.version(game_id)
        if version is None:
            raise ServiceError(404, f"no game {game_id!r}")
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == version:
            return cached
        row = self.store.game(game_id)
        if row is None:
            raise ServiceError(404, f"no game {game_id!r}")
        seats = cached.seats if cached is not None else self.store.seats(game_id)
        rows = self.store.actions(game_id, upto=row.version)
        moves = effective_moves(rows)
        state = rebuild(row, moves)
        loaded = Loaded(row, seats, row.version, moves, state)
        self._cache[game_id] = loaded
        return loaded

    def seat_of(self, loaded: Loaded, token: str | None) -> int | None:
        """The seat a token acts for (None: no token, a spectator); 403 for a bad token."""
        if token is None or token == "":
            return None
        _require(isinstance(token, str), "the token must be a string", 400)
        h = token_hash(token)
        for s in loaded.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        raise ServiceError(403, "this token is not a seat of this game (check the "
                                "invite link)")

    # --- what a viewer sees ----------------------------------------------------------

    def payload(self, loaded: Loaded, seat: int | None) -> dict[str, Any]:
        """Everything a seat (or a spectator, seat None) may see, and its legal moves."""
        state = loaded.state
        game = loaded.game
        view = state.view(seat)
        over = state.is_over()
        to_move = None if over else state.to_move
        scores = state.scores()
        legal = []
        if seat is not None and to_move == seat:
            legal = [{"id": a.id, "notation": a.text, "text": state.describe(a.id)}
                     for a in state.legal_actions()]
        return {
            "id": loaded.row.id, "game": loaded.row.game, "title": game.title,
            "players": loaded.row.players, "options": dict(loaded.row.options),
            "seats": [{"seat": s.seat, "name": state.name(s.seat), "kind": s.kind,
                       "level": s.level} for s in loaded.seats],
            "version": loaded.version, "you": seat, "to_move": to_move,
            "decision": "the game is over" if over else state.decision_text(),
            "over": over, "view": view, "legal": legal, "log": list(view.get("events", [])),
            "scores": scores, "scored": scored_parties(state, loaded.row.players, scores),
            "winners": state.winners() if over else [],
            "can_undo": seat is not None and self.can_undo(loaded, seat),
        }

    # --- moves -----------------------------------------------------------------------

    def move(self, game_id: str, token: Any, action: Any, version: Any) -> Loaded:
        """Play the token's seat's move at the version the client saw; the new game."""
        loaded = self.load(game_id)
        _require(isinstance(token, str) and token != "", "a move needs the seat's 'token'")
        seat = self.seat_of(loaded, token)
        _require(_is_int(version), "a move needs the 'version' of the game the client saw")
        _require(isinstance(action, str | int) and not isinstance(action, bool),
                 "'action' must be the action's notation (a string) or its id (an integer)")
        self._check_version(loaded, version)
        state = loaded.state
        _require(not state.is_over(), "the game is over", 409)
        assert seat is not None
        _require(state.to_move == seat,
                 f"it is {state.name(state.to_move or 0)}'s decision, not "
                 f"{state.name(seat)}'s", 403)
        aid = self._resolve(loaded, action)
        return self._commit(loaded, seat, aid)

    def _check_version(self, loaded: Loaded, version: int) -> None:
        """409 unless the client saw the current version."""
        _require(version == loaded.version,
                 f"the game is at version {loaded.version}, not {version}: reload and "
                 "decide again", 409)

    def _resolve(self, loaded: Loaded, action: str | int) -> int:
        """The legal action id meant by a notation or an id; 422 with the reason if not."""
        state = loaded.state
        game = loaded.game
        if isinstance(action, int):
            _require(0 <= action < game.num_actions,
                     f"action id {action} is outside 0..{game.num_actions - 1}", 400)
            if action not in {a.id for a in state.legal_actions()}:
                why = getattr(state, "why_illegal", None)
                reason = why(action) if callable(why) else "it is not legal now"
                raise ServiceError(422, f"{game.action_text(action)!r} is illegal: {reason}")
            return action
        try:
            return game.parse_action(state, action).id
        except IllegalAction as exc:
            raise ServiceError(422, str(exc)) from None

    def _commit(self, loaded: Loaded, seat: int, aid: int) -> Loaded:
        """Apply a checked move to a copy, store it, and make the copy the cached game."""
        state = loaded.state.clone()
        notation = loaded.game.action_text(aid)
        state.apply(aid)
        status = "over" if state.is_over() else "playing"
        try:
            version = self.store.append(loaded.row.id, loaded.version, "move", seat, aid,
                                        notation, status)
        except VersionConflict:
            raise ServiceError(409, "another move was stored first: reload and decide "
                                    "again") from None
        row = ActionRow(loaded.version, "move", seat, aid, notation)
        new = Loaded(loaded.row, loaded.seats, version, [*loaded.moves, row], state,
                     before=loaded.state)
        self._cache[loaded.row.id] = new
        return new

    # --- undo ------------------------------------------------------------------------

    def can_undo(self, loaded: Loaded, seat: int) -> bool:
        """May `seat` take back the last move in force? Only its own, and only if that
        move revealed nothing: no die rolled, no card drawn, no other player moved since.
        """
        if seat in loaded.undo_seat:
            return loaded.undo_seat[seat]
        ok = False
        if loaded.moves and loaded.moves[-1].seat == seat and not loaded.state.is_over():
            aid = loaded.moves[-1].action_id
            assert aid is not None
            ok = not _reveals(loaded.state_before_last(), aid, loaded.state, seat)
        loaded.undo_seat[seat] = ok
        return ok

    def undo(self, game_id: str, token: Any, version: Any) -> Loaded:
        """Take back the token's seat's last move (an undo row is appended)."""
        loaded = self.load(game_id)
        _require(isinstance(token, str) and token != "", "an undo needs the seat's 'token'")
        seat = self.seat_of(loaded, token)
        assert seat is not None
        _require(_is_int(version), "an undo needs the 'version' of the game the client saw")
        self._check_version(loaded, version)
        _require(loaded.moves != [], "there is no move to take back", 409)
        last = loaded.moves[-1]
        _require(last.seat == seat, "the last move is not yours to take back", 409)
        _require(self.can_undo(loaded, seat),
                 "that move cannot be taken back: it revealed new information", 409)
        moves = loaded.moves[:-1]
        state = loaded.state_before_last()
        try:
            new_version = self.store.append(loaded.row.id, loaded.version, "undo", seat, None,
                                            None, "playing")
        except VersionConflict:
            raise ServiceError(409, "another move was stored first: reload") from None
        new = Loaded(loaded.row, loaded.seats, new_version, moves, state)
        self._cache[loaded.row.id] = new
        return new

    # --- bots ------------------------------------------------------------------------

    def bot_to_move(self, loaded: Loaded) -> SeatRow | None:
        """The bot seat that must decide now, if any."""
        state = loaded.state
        if state.is_over() or state.to_move is None:
            return None
        seat = loaded.seats[state.to_move]
        return seat if seat.kind == "bot" else None

    def play_bot(self, loaded: Loaded, seat: int, aid: int) -> Loaded:
        """Store a bot's move (chosen against `loaded.version`); 409 if the game moved."""
        current = self.load(loaded.row.id)
        self._check_version(current, loaded.version)
        _require(current.state.to_move == seat, "the bot's turn has passed", 409)
        if aid not in {a.id for a in current.state.legal_actions()}:
            raise ServiceError(422, f"bot chose an illegal action {aid}")
        return self._commit(current, seat, aid)

    # --- export ----------------------------------------------------------------------

    def record(self, game_id: str) -> dict[str, Any]:
        """The finished game's record (`kamon replay` reads it). Refused while the game
        is on: the record holds the seed, which fixes every hidden card and die."""
        loaded = self.load(game_id)
        _require(loaded.state.is_over(), "the record is available when the game is over "
                                         "(it holds the seed, which would reveal the "
                                         "hidden cards)", 409)
        return self.record_of(loaded).to_json()

    def record_of(self, loaded: Loaded) -> GameRecord:
        """The game record of a loaded game (moves in force, in notation)."""
        seats = [s.level or "human" for s in loaded.seats]
        return GameRecord(loaded.row.game, loaded.row.players, loaded.row.seed,
                          dict(loaded.row.options),
                          [m.notation or "" for m in loaded.moves], seats)


def rebuild(row: GameRow, moves: list[ActionRow]) -> State:
    """Set the game up from its row and apply the moves in force."""
    game = get_game(row.game)
    state = game.new_game(row.players, row.seed, **row.options)
    for i, m in enumerate(moves):
        try:
            if m.action_id is None:
                raise IllegalAction("the row has no action id")
            state.apply(m.action_id)
        except IllegalAction as exc:
            raise ServiceError(500, f"stored game {row.id} does not replay at move "
                                    f"{i + 1} ({m.notation!r}): {exc}") from None
    return state


def scored_parties(state: State, players: int, scores: list[Any]) -> list[dict[str, Any]]:
    """Who each entry of `scores` (and of `winners`) is: a seat, or a party that scores
    without a seat (the solo game's Tokugawa rival), so a page names every column."""
    return [{"index": i, "name": state.name(i), "seat": i if i < players else None,
             "kind": "seat" if i < players else "rival"} for i in range(len(scores))]


def bot_decision(state_json: dict[str, Any], game_name: str, level: str, seed: int) -> int:
    """A bot's move (its id) in a serialised state; runs in a worker process.

    The agent gets the full state object but, like every kamon agent, decides only
    from the mover's view and samples of the hidden parts (tests/agents prove it)."""
    game = get_game(game_name)
    state = game.from_json(state_json)
    agent = make_agent(level, seed)
    if isinstance(agent, MCTSAgent) and agent.seconds is None:
        agent.seconds = BOT_SECONDS  # a search never keeps a player waiting longer
    return agent.act(state).id


def bot_seed(loaded: Loaded, seat: int) -> int:
    """A bot's seed for its next decision: the game's seed, its seat, the move number."""
    return agent_seed(loaded.row.seed ^ (len(loaded.moves) * 0x9E3779B97F4A7C15
                                         & MAX_SEED), seat)


def _reveals(before: State, aid: int, after: State, seat: int) -> bool:
    """Did playing `aid` from `before` reveal hidden information? It did if, from some
    re-sampling of what `seat` cannot see, the same move leads to a different public
    position (a die rolled, a card drawn, a deck reshuffled, a rival's card revealed)."""
    public = _canon(after.view(None))
    for k in range(UNDO_SAMPLES):
        alt = before.determinize(seat, Rng(0xC0FFEE + k))
        try:
            alt.apply(aid)
        except IllegalAction:
            return True
        if _canon(alt.view(None)) != public:
            return True
    return False


def _canon(view: dict[str, Any]) -> str:
    """A view as canonical JSON, for comparing positions."""
    return json.dumps(view, sort_keys=True, default=str)
