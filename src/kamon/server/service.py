"""The games a server hosts: create, load, move, undo and export, over the store — no
HTTP here: a refusal is a ServiceError with its status. Games are rebuilt from their
records and checked against their digests; a bounded cache keeps the games in play,
never trusted over the store (docs/server.md). Writes run in the batch writer's thread,
inside its transaction: a loaded game is never changed once built, and enters the cache
only once what made it is committed.
"""

from __future__ import annotations

import functools
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kamon.agents import AGENTS, LEVELS, OTHER_WORDS, level_summaries, level_words
from kamon.core.errors import IllegalAction, KamonError
from kamon.core.options import PLAYER
from kamon.core.protocol import Game, State
from kamon.core.record import GameRecord
from kamon.core.registry import games as registered
from kamon.core.registry import get_game
from kamon.core.undo import may_undo
from kamon.server.errors import ServiceError
from kamon.server.limits import BOT_ONLY_GAMES
from kamon.server.names import player_name, seat_player
from kamon.server.store import (
    ENDED,
    MAX_SEED,
    NAME_MAX,
    ActionRow,
    GameRow,
    SeatRow,
    Store,
    VersionConflict,
    chain_digest,
    digest_of,
    effective_moves,
    token_hash,
)

BOT_KINDS = tuple(LEVELS) + tuple(a for a in AGENTS if a not in LEVELS)
AGENT_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")  # what `kamon serve --agent NAME=` takes
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what a game id can be (any other is a 404)
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what a seat token can be (any other is a 403)
# A game's rows are bounded: its moves by its rules (the longest seen: under 250), its
# undos here (each adds two rows a rebuild reads: unbounded, one seat's undos stalled
# every cold read of its game).
MAX_UNDOS = 500
LIVE_CACHE = 1000  # games in play kept rebuilt in memory (least recently used leave first)
FINISHED_CACHE = 32  # finished games kept for their last readers
CATCH_UP_MAX = 64  # moves stored elsewhere applied to a cached game (more: a rebuild)
ENDED_GAME = ("the server's operator ended this game: it can no longer be played (it "
              "stays readable)")
SEED_POLICY = ("a chosen seed is only for a practice game (at most one human seat, not "
               "rated): with the seed a player could know every hidden card and die in "
               "advance, so the server draws the seed of every other game")


@dataclass(frozen=True)
class PluginKind:
    """A seat kind the server was told about (`kamon serve --agent NAME=SPEC`): a plug-in
    agent (`kamon.agents.plugin`), its name in tables, and the games it fits."""

    name: str
    spec: str
    label: str
    games: tuple[str, ...]

    def summary(self) -> str:
        """Its words in the lobby."""
        only = "" if set(self.games) == set(registered()) else \
            " (" + ", ".join(get_game(g).title for g in self.games) + " only)"
        return f"a plug-in agent, {self.label}{only}"


def plugin_kinds(values: Sequence[str]) -> dict[str, PluginKind]:
    """The seat kinds of `--agent NAME=SPEC` values, every spec loaded (in every game it
    fits) now: a KamonError for a malformed value, a NAME taken by a built-in kind or
    given twice, or a spec that loads in no game (with the reasons)."""
    from kamon.agents.plugin import agent_labels

    kinds: dict[str, PluginKind] = {}
    for value in values:
        name, sep, spec = value.partition("=")
        name, spec = name.strip().lower(), spec.strip()
        if not sep or not name or not spec:
            raise KamonError(f"--agent {value!r}: give NAME=SPEC, e.g. --agent "
                             "mybot=mymodule:MyAgent or --agent ppo=policy.zip")
        if name == "human" or name in BOT_KINDS:
            raise KamonError(f"--agent {value!r}: {name!r} is a built-in seat kind (human, "
                             f"{', '.join(BOT_KINDS)}); choose another NAME")
        if not AGENT_NAME.fullmatch(name):
            raise KamonError(f"--agent {value!r}: NAME must be 1-32 lower-case letters, "
                             "digits, '-' or '_' (it is the seat kind players choose)")
        if name in kinds:
            raise KamonError(f"--agent {name!r} is given twice")
        games: list[str] = []
        reasons: list[str] = []
        label = spec
        for game in registered():
            try:
                label = agent_labels([spec], game)[spec]
            except KamonError as exc:
                if str(exc) not in reasons:
                    reasons.append(str(exc))
                continue
            games.append(game)
        if not games:
            raise KamonError(f"--agent {name}={spec}: " + "; ".join(reasons))
        kinds[name] = PluginKind(name, spec, label, tuple(games))
    return kinds


@dataclass
class Loaded:
    """A game as rebuilt from the store at one version (never changed afterwards, but
    for the memos below, filled under `lock`)."""

    row: GameRow
    seats: list[SeatRow]
    version: int
    moves: list[ActionRow]
    state: State
    before: State | None = None  # the state before the last move, when it is at hand
    undo_seat: dict[int, bool] = field(default_factory=dict)  # seat -> may undo (memo)
    texts: dict[int | None, bytes] = field(default_factory=dict)  # seat -> payload JSON
    messages: dict[int | None, str] = field(default_factory=dict)  # seat -> socket message
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    logged: list[int] | None = None  # log length at setup and after each move in force
    common: dict[str, Any] | None = None  # the payload's parts alike for every viewer
    public: dict[str, Any] | None = None  # the spectator's view, when every seat sees it
    # the payload's parts alike for every viewer, encoded (views._joined): the common
    # fields (an object without its closing brace), the view without `seat` (empty where
    # seats see different views), the log, and the log as a list
    encoded: tuple[bytes, bytes, bytes, list[str]] | None = None
    # the previous version's log (its length and JSON), which this one's only extends
    log_seed: tuple[int, bytes] | None = None
    digest: str | None = None  # the stored digest at this version

    def log_marks(self) -> list[int]:
        """How long the log was at setup and after each move in force (which log lines
        each move wrote); replayed only if not carried over from the previous version."""
        if self.logged is None or len(self.logged) != len(self.moves) + 1:
            marks: list[int] = []
            rebuild(self.row, self.moves, marks)
            self.logged = marks
        return self.logged

    def state_before_last(self) -> State:
        """The position before the last move in force (replayed only if not at hand)."""
        if self.before is None:
            self.before = rebuild(self.row, self.moves[:-1])
        return self.before

    @functools.cached_property
    def named(self) -> int:
        """How many seats have a player's name (the store's count says if one came)."""
        return sum(1 for s in self.seats if s.player is not None)

    @functools.cached_property
    def game(self) -> Game:
        """The game's rules object (looked up once per version: every payload asks)."""
        return get_game(self.row.game)

    def moved(self, row: ActionRow, state: State, version: int, digest: str | None
              ) -> Loaded:
        """The game after one more move (`row`, which made `state`)."""
        logged = None if self.logged is None else [*self.logged, len(state.events)]
        prev = self.encoded
        return Loaded(self.row, self.seats, version, [*self.moves, row], state,
                      before=self.state, logged=logged, digest=digest,
                      log_seed=None if prev is None else (len(prev[3]), prev[2]))


def can_undo(loaded: Loaded, seat: int) -> bool:
    """May `seat` take back the last move in force? Only its own, and only if that
    move revealed nothing: no die rolled, no card drawn, no other player moved since
    (the rule is kamon.core.undo's, shared with the terminal)."""
    memo = loaded.undo_seat.get(seat)
    if memo is not None:
        return memo
    ok = False
    with loaded.lock:
        if loaded.moves and loaded.moves[-1].seat == seat and not loaded.state.is_over():
            last = loaded.moves[-1]
            if last.action_id is not None and last.seat is not None:
                ok = may_undo(loaded.state_before_last(), last.action_id, loaded.state,
                              last.seat, seat)
    loaded.undo_seat[seat] = ok
    return ok


class GameCache:
    """The rebuilt games, bounded: games in play by recent use, finished games apart (a
    few, for the last look at the final table)."""

    def __init__(self, live: int = LIVE_CACHE, finished: int = FINISHED_CACHE) -> None:
        """Capacities of both parts (games in play, finished games)."""
        self.parts = ((OrderedDict[str, Loaded](), live), (OrderedDict[str, Loaded](), finished))
        self.lock = threading.Lock()

    def get(self, game_id: str) -> Loaded | None:
        """The cached game, marked as just used."""
        with self.lock:
            for part, _ in self.parts:
                if game_id in part:
                    part.move_to_end(game_id)
                    return part[game_id]
        return None

    def put(self, loaded: Loaded) -> None:
        """Keep a game (never replacing a newer version of it)."""
        gid = loaded.row.id
        with self.lock:
            if any(p.get(gid, loaded).version > loaded.version for p, _ in self.parts):
                return
            for part, _ in self.parts:
                part.pop(gid, None)
            part, size = self.parts[loaded.state.is_over()]
            part[gid] = loaded
            while len(part) > size:
                part.popitem(last=False)

    def drop(self, game_id: str) -> None:
        """Forget a game."""
        with self.lock:
            for part, _ in self.parts:
                part.pop(game_id, None)

    def __len__(self) -> int:
        """How many games are cached."""
        return sum(len(p) for p, _ in self.parts)


def client_files(game: Game) -> dict[str, str | None]:
    """Where the browser finds a game's own files (its `web` folder, served under
    /static/games/<name>/): its board, the board's styles, its Help, its guided game and
    the lobby's picture; None for each it does not have (the page then shows the choices
    and the log only)."""
    folder = game.web
    files = {"board": "board.js", "style": "board.css", "help": "help.js",
             "tutorial": "tutorial.js", "picture": "lobby.svg"}
    return {k: (f"/static/games/{game.name}/{f}" if folder is not None
                and (folder / f).is_file() else None) for k, f in files.items()}


def _require(cond: bool, message: str, status: int = 400) -> None:
    """Refuse with `status` and `message` unless `cond`."""
    if not cond:
        raise ServiceError(status, message)


def is_int(x: Any) -> bool:
    """A JSON integer (not a boolean)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _same_notation(a: str, b: str | None) -> bool:
    """Do two notations name the same action (spacing and case aside)?"""
    return b is not None and " ".join(a.split()).lower() == " ".join(b.split()).lower()


class GameService:
    """Hosted games over one store."""

    def __init__(self, store: Store, cache: GameCache | None = None,
                 agents: Mapping[str, PluginKind] | None = None) -> None:
        """Serve the games of `store` (`agents`: the plug-in seat kinds besides the
        built-in BOT_KINDS, `plugin_kinds`)."""
        self.store = store
        self.cache = cache or GameCache()
        self.agents: dict[str, PluginKind] = dict(agents or {})
        self.bot_only_games = BOT_ONLY_GAMES  # per client at once (0: none; -1: any)

    def add_agents(self, agents: Mapping[str, PluginKind]) -> None:
        """Offer more plug-in seat kinds (`kamon serve --agent`)."""
        self.agents.update(agents)

    def bot_kinds(self) -> tuple[str, ...]:
        """Every bot seat kind a new game may have: the built-in ones, then plug-ins."""
        return BOT_KINDS + tuple(self.agents)

    def _keep(self, loaded: Loaded) -> None:
        """Cache a game once what made it is committed (at once outside a write)."""
        self.store.on_commit(functools.partial(self.cache.put, loaded))

    # --- the catalogue -------------------------------------------------------------

    def catalog(self) -> dict[str, Any]:
        """What can be created: games, player counts, web options, seat kinds. Each bot
        level has its plain `words` (what a player reads first) and its technical `summary`
        (per game under `levels`)."""
        games = []
        for name, g in registered().items():
            counts = g.options.counts()
            games.append({
                "name": name, "title": g.title, "min_players": g.min_players,
                "max_players": g.max_players, "player_counts": list(counts),
                # the fewest players, and the options a count outside the official ones
                # needs (a variant: the form sets it and locks it)
                "variant_min_players": counts[0], "variant_options": g.options.forced(counts[0]),
                "forced": {str(n): g.options.forced(n) for n in counts if g.options.forced(n)},
                "options": g.options.catalog(),  # what a player may set (the lobby's form)
                "presentation": dict(g.presentation),
                "client": client_files(g),
                "levels": level_summaries(g.new_game(g.min_players, 0, **g.options.forced(
                    g.min_players))),
                "level_words": level_words(),
            })
        words = level_words()
        seats = [{"kind": "human", "summary": "a person, through an invite link",
                  "words": OTHER_WORDS["human"]}]
        seats += [{"kind": k, "summary": LEVELS[k].summary, "words": words[k]} for k in LEVELS]
        seats += [{"kind": "random", "summary": "a uniformly random legal move",
                   "words": OTHER_WORDS["random"]}]
        seats += [{"kind": k, "summary": a.summary(), "words": "a bot plugged in by this "
                   "server's operator"} for k, a in self.agents.items()]
        return {"games": games, "seats": seats, "seed_policy": SEED_POLICY}

    # --- create --------------------------------------------------------------------

    def create(self, body: Any, operator: bool = False,
               extra: Callable[[str, dict[int, str]], Callable[[Any], Any]] | None = None,
               client: str | None = None) -> dict[str, Any]:
        """Set up a new game from a request body; its id and one token per human seat
        (`name` in the body: the player's name on the creator's seat, the first human one).
        `operator`: an in-process caller (a test, a tool; never a request) may choose the
        seed of any game, which is then marked a practice game all the same. `extra(id,
        tokens)` gives rows to store with the game, in its transaction (open_games.py).
        `client`: the requesting address, the game's creator (its bots think on that
        client's turn, bot_queue.py); a client has at most `bot_only_games` games of
        bots only going at once (429 beyond)."""
        _require(isinstance(body, dict), "the request body must be a JSON object")
        name = body.get("game")
        _require(isinstance(name, str), "'game' must be a game name, e.g. 'white-castle'")
        try:
            game = get_game(name)
        except KamonError as exc:
            raise ServiceError(400, str(exc)) from None
        name = game.name
        players = body.get("players")
        _require(is_int(players), "'players' must be an integer")
        _require(1 <= players <= game.max_players,  # variants may allow fewer: new_game says
                 f"{game.title} is played by {game.min_players} to {game.max_players} "
                 f"players, not {players}")
        seats = body.get("seats", ["human"] + ["normal"] * (players - 1))
        _require(isinstance(seats, list) and all(isinstance(s, str) for s in seats),
                 "'seats' must be a list of seat kinds ('human' or a bot level)")
        _require(len(seats) == players,
                 f"'seats' names {len(seats)} seat(s) for a {players}-player game")
        kinds = [s.strip().lower() for s in seats]
        known = self.bot_kinds()
        for k in kinds:
            _require(k == "human" or k in known,
                     f"unknown seat kind {k[:40]!r}; use 'human' or one of "
                     f"{', '.join(known)}")
            plugin = self.agents.get(k)
            if plugin is not None and name not in plugin.games:
                plays = ", ".join(get_game(g).title for g in plugin.games)
                raise ServiceError(400, f"seat kind {k!r} (a plug-in agent) does not play "
                                        f"{game.title}: it plays {plays} only")
        name_given = player_name(body.get("name"))
        _require(name_given is None or "human" in kinds,
                 "'name' is the name of the creator's seat (the first human one): this "
                 "game has no human seat")
        options = body.get("options", {})
        _require(isinstance(options, dict), "'options' must be a JSON object")
        allowed = game.options.settable((PLAYER,))  # a server loads no data from a request
        for key in options:
            _require(key in {o.name for o in allowed},
                     f"unknown option {key[:40]!r} for {game.title}; options: "
                     f"{', '.join(o.name for o in allowed)}")
        rated = body.get("rated", False)
        _require(isinstance(rated, bool), "'rated' must be true or false")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
            mode = "rated" if rated else "casual"
        else:
            _require(is_int(seed) and 0 <= seed <= MAX_SEED,
                     f"'seed' must be an integer from 0 to {MAX_SEED}")
            humans = kinds.count("human")
            _require(operator or (humans <= 1 and not rated),
                     f"{SEED_POLICY}; this game has {humans} human seats"
                     + (" and is rated" if rated else "")
                     + ": leave 'seed' out")
            mode = "practice"
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
                rows.append(SeatRow(seat, "human", None, token_hash(tokens[seat]),
                                    name_given if len(tokens) == 1 else None))
            else:
                rows.append(SeatRow(seat, "bot", kind, None))
        if "human" not in kinds and client is not None and not operator:
            self._bot_only_allowed(client)
        row = self.store.create_game(game_id, name, players, seed, options, rows, mode,
                                     None if extra is None else extra(game_id, tokens),
                                     state.to_move, creator=client)
        # The new game as a rebuild would make it (its sockets open next): set up from the
        # stored row, never changed (only names are read from `state` below).
        self._keep(Loaded(row, rows, 0, [], state, logged=[len(state.events)],
                          digest=row.digest))
        return {
            "id": game_id, "game": name, "title": game.title, "players": players,
            "mode": mode,
            "seats": [{"seat": r.seat, "name": state.name(r.seat), "player": seat_player(r),
                       "kind": r.kind, "level": r.level, "token": tokens.get(r.seat),
                       "link": (f"/play/{game_id}?token={tokens[r.seat]}"
                                if r.seat in tokens else None)} for r in rows],
            "spectator_link": f"/play/{game_id}",
            "version": 0,
        }

    def _bot_only_allowed(self, client: str) -> None:
        """Refuse (429) a game of bots only from a client that has as many going as it
        may (none at all with bot_only_games 0)."""
        limit = self.bot_only_games
        _require(limit != 0, "this server does not host games of bots only: seat at least "
                             "one human (simulate bot games with `kamon simulate`)", 403)
        if limit > 0:
            going = self.store.bot_only_games(client)
            _require(going < limit, f"you have {going} games of bots only going: at most "
                                    f"{limit} at once on this server; watch one to its end "
                                    "(or simulate them with `kamon simulate`)", 429)

    # --- load ----------------------------------------------------------------------

    def load(self, game_id: str, fresh: bool = True) -> Loaded:
        """The game at its stored version (from the cache when the version matches).
        `fresh=False` trusts the cached game without reading the version (for a write,
        whose versioned append checks it anyway)."""
        _require(isinstance(game_id, str) and 0 < len(game_id) <= 32,
                 f"no game {str(game_id)[:40]!r}", 404)
        cached = self.cache.get(game_id)
        if cached is not None and not fresh:
            return cached
        head = self.store.head_named(game_id)
        if head is None:
            self.cache.drop(game_id)
            raise ServiceError(404, f"no game {game_id!r}")
        if cached is not None and cached.named != head[2]:
            cached = None  # a seat was named since (elsewhere): read its seats again
        if cached is not None and cached.version == head[0]:
            return cached
        if cached is not None and cached.version < head[0]:
            caught = self._catch_up(cached, head[0], head[1])
            if caught is not None:
                return caught
        return self._rebuild(game_id)

    def _catch_up(self, cached: Loaded, version: int, digest: str | None) -> Loaded | None:
        """The cached game brought to `version` by the moves stored since (by another
        server process), if they are all moves, legal, and chain to the stored digest;
        None if not (the game is then rebuilt, which says what is wrong)."""
        if version - cached.version > CATCH_UP_MAX or cached.digest is None:
            return None
        rows = self.store.actions(cached.row.id, cached.version, version)
        if [r.idx for r in rows] != list(range(cached.version, version)) or \
                any(r.kind != "move" or not is_int(r.action_id) for r in rows):
            return None
        digests = [cached.digest]
        for r in rows:
            digests.append(chain_digest(digests[-1], r))
        if digests[-1] != digest:
            return None
        loaded = cached
        for r, d in zip(rows, digests[1:], strict=True):
            with loaded.lock:
                state = loaded.state.clone()
            try:
                state.apply(r.action_id)  # type: ignore[arg-type]
            except IllegalAction:
                return None
            loaded = loaded.moved(r, state, r.idx + 1, d)
        self._keep(loaded)
        return loaded

    def _rebuild(self, game_id: str) -> Loaded:
        """Read a game's rows, check them against its digest, and replay it."""
        row = self.store.game(game_id)
        if row is None:
            raise ServiceError(404, f"no game {game_id!r}")
        seats = self.store.seats(game_id)
        rows = self.store.actions(game_id, upto=row.version)
        if len(seats) != row.players or [s.seat for s in seats] != list(range(row.players)):
            raise ServiceError(500, f"stored game {game_id} is damaged: it has "
                                    f"{len(seats)} seat rows for {row.players} players")
        if [r.idx for r in rows] != list(range(row.version)):
            raise ServiceError(500, f"stored game {game_id} is damaged: it has {len(rows)} "
                                    f"action rows for version {row.version}")
        expected = digest_of(row, seats, rows)
        if row.digest is None:  # stored by an older kamon: seal it as it is now
            self.store.seal(game_id, row.version, expected)
        elif row.digest != expected:
            raise ServiceError(500, f"stored game {game_id} was changed without a version "
                                    f"bump: its rows no longer match what was stored at "
                                    f"version {row.version}")
        moves = effective_moves(rows)
        marks: list[int] = []
        state = rebuild(row, moves, marks)
        loaded = Loaded(row, seats, row.version, moves, state, logged=marks,
                        digest=expected)
        self._keep(loaded)
        return loaded

    def seat_of(self, loaded: Loaded, token: Any) -> int | None:
        """The seat a token acts for (None: no token, a spectator); 403 for a bad token."""
        if token is None or token == "":
            return None
        _require(isinstance(token, str), "the token must be a string", 400)
        if TOKEN.fullmatch(token):
            h = token_hash(token)
            for s in loaded.seats:
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                    return s.seat
        raise ServiceError(403, "this token is not a seat of this game (check the "
                                "invite link)")

    # --- names --------------------------------------------------------------------------

    def name_seat(self, game_id: str, seat: int, name: str) -> bool:
        """Give a seat its player's name unless it has one (set once, when the seat is
        taken); whether it was set now. The cached game is read again once committed."""
        named = self.store.name_seat(game_id, seat, name)
        if named:
            self.store.on_commit(functools.partial(self.cache.drop, game_id))
        return named

    def name(self, game_id: str, body: Any) -> Loaded:
        """The token's seat takes the name in the body (`{token, name}`), if it has none
        yet: a seat taken through an invite link, or whose player gave no name before.
        The same name again changes nothing; another is refused (409): a seat's name is
        set once. The game as it is now."""
        _require(isinstance(body, dict), "the request body must be a JSON object")
        name = player_name(body.get("name"))
        _require(name is not None, f"'name' is missing: the player's name, 1 to {NAME_MAX} "
                                   "characters")
        assert name is not None
        token = body.get("token")
        _require(isinstance(token, str) and token != "", "naming a seat needs the seat's "
                                                         "'token'")
        loaded = self.load(game_id)
        seat = self.seat_of(loaded, token)
        assert seat is not None
        had = loaded.seats[seat].player
        if had is None and not self.name_seat(game_id, seat, name):
            had = self.store.seats(game_id)[seat].player  # named meanwhile, elsewhere
        _require(had is None or had == name,
                 f"seat {seat + 1} is already named {had!r}: a seat's name is set once, "
                 "when it is taken", 409)
        return self.load(game_id)  # (read in this transaction: its names as stored now)

    # --- moves, undos and bots' moves ---------------------------------------------------

    def move(self, game_id: str, token: Any, action: Any, version: Any) -> Loaded:
        """Play the token's seat's move (its notation or id) at the version the client
        saw, and store it; the new game. A retry of a move already stored (same seat,
        version and action) is answered with the game as it is, and stores nothing."""
        loaded, seat, retry = self._checked(game_id, token, version, "move", action)
        if retry:
            return loaded
        state = loaded.state
        _require(not state.is_over(), "the game is over", 409)
        _require(state.to_move == seat,
                 f"it is {state.name(state.to_move or 0)}'s decision, not "
                 f"{state.name(seat)}'s", 403)
        return self._store(loaded, seat, self._resolve(loaded, action), action)

    def undo(self, game_id: str, token: Any, version: Any) -> Loaded:
        """Take back the token's seat's last move (an undo row is appended); a retry of
        an undo already stored is answered with the game as it is."""
        loaded, seat, retry = self._checked(game_id, token, version, "undo", None)
        if retry:
            return loaded
        _require(loaded.moves != [], "there is no move to take back", 409)
        undos = (loaded.version - len(loaded.moves)) // 2  # each took a row and a move back
        _require(undos < MAX_UNDOS, f"this game has had {MAX_UNDOS} undos, the most a game "
                                    "may have: play on", 409)
        _require(loaded.moves[-1].seat == seat, "the last move is not yours to take back",
                 409)
        _require(can_undo(loaded, seat),
                 "that move cannot be taken back: it revealed new information", 409)
        return self._store(loaded, seat, None, None)

    def bot_move(self, game_id: str, seat: int, aid: int, version: int) -> Loaded:
        """Store a bot's move, chosen at `version`; 409 if the game moved meanwhile."""
        current = self.load(game_id, fresh=False)
        self._check_version(current, version)
        _require(current.state.to_move == seat, "the bot's turn has passed", 409)
        with current.lock:
            legal = {a.id for a in current.state.legal_actions()}
        _require(aid in legal, f"bot chose an illegal action {aid}", 422)
        return self._store(current, seat, aid, aid, bot=True)

    def _checked(self, game_id: str, token: Any, version: Any, kind: str, action: Any
                 ) -> tuple[Loaded, int, bool]:
        """The game a move or undo is checked against (the cached one, or the stored one
        if the client saw another version: another process may have moved it), the
        token's seat, and whether the request is a retry of one already stored."""
        loaded = self.load(game_id, fresh=False)
        _require(loaded.row.status != ENDED, ENDED_GAME, 409)  # (kamon admin end)
        _require(isinstance(token, str) and token != "", f"a {kind} needs the seat's 'token'")
        seat = self.seat_of(loaded, token)
        assert seat is not None
        _require(is_int(version), f"a {kind} needs the 'version' of the game the client saw")
        _require(kind != "move" or isinstance(action, str | int) and not isinstance(action, bool),
                 "'action' must be the action's notation (a string) or its id (an integer)")
        if version != loaded.version:
            loaded = self.load(game_id)
            if version != loaded.version:
                if self._already_stored(loaded, kind, seat, version, action):
                    return loaded, seat, True
                self._check_version(loaded, version)
        return loaded, seat, False

    def _store(self, loaded: Loaded, seat: int, aid: int | None, action: Any,
               bot: bool = False) -> Loaded:
        """Play a checked move (`aid`; None: an undo) on a copy of the game and append it
        at the game's version; the new game (cached once committed)."""
        if aid is None:
            kind, notation = "undo", None
            with loaded.lock:
                state = loaded.state_before_last()
        else:
            kind, notation = "move", loaded.game.action_text(aid)
            with loaded.lock:
                state = loaded.state.clone()
            state.apply(aid)
        over = state.is_over()
        try:
            version, digest = self.store.append(
                loaded.row.id, (loaded.version, loaded.digest), kind, seat, aid, notation,
                "over" if over else "playing", None if over else state.to_move)
        except VersionConflict:
            return self._conflict(loaded, kind, seat, action, bot)
        if kind == "move":
            new = loaded.moved(ActionRow(loaded.version, kind, seat, aid, notation), state,
                               version, digest)
        else:
            new = Loaded(loaded.row, loaded.seats, version, loaded.moves[:-1], state,
                         logged=None if loaded.logged is None else loaded.logged[:-1],
                         digest=digest)
        self._keep(new)
        return new

    def _conflict(self, loaded: Loaded, kind: str, seat: int, action: Any, bot: bool
                  ) -> Loaded:
        """Another write was stored first at the version a write was checked against:
        the game as it is if that write was this very request (a retry), else 409."""
        game_id = loaded.row.id
        if bot:
            self.cache.drop(game_id)
            raise ServiceError(409, "another move was stored first")
        fresh = self.load(game_id)
        if fresh.version == loaded.version:  # the version is, the digest is not: the rows
            self.cache.drop(game_id)         # changed behind the server's back (a 500
            self._rebuild(game_id)           # that says so), or the cache was stale
        elif self._already_stored(fresh, kind, seat, loaded.version, action):
            return fresh
        raise ServiceError(409, "another move was stored first: reload and decide again"
                           if kind == "move" else "another move was stored first: reload")

    def _already_stored(self, loaded: Loaded, kind: str, seat: int, version: int,
                        action: Any) -> bool:
        """Is this request a retry of one already stored: the row made at `version` is
        this seat's, of this kind, with this action?"""
        if not 0 <= version < loaded.version:
            return False
        rows = self.store.actions(loaded.row.id, version, version + 1)
        row = rows[0] if rows else None
        if row is None or row.kind != kind or row.seat != seat:
            return False
        if kind == "undo":
            return True
        if is_int(action):
            return bool(row.action_id == action)
        return isinstance(action, str) and _same_notation(action, row.notation)

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
            with loaded.lock:
                legal = {a.id for a in state.legal_actions()}
                if action not in legal:
                    why = getattr(state, "why_illegal", None)
                    reason = why(action) if callable(why) else "it is not legal now"
                    raise ServiceError(422, f"{game.action_text(action)!r} is illegal: "
                                            f"{reason}")
            return action
        _require(len(action) <= 200, "'action' is too long to be a move's notation")
        try:
            with loaded.lock:
                return game.parse_action(state, action).id
        except IllegalAction as exc:
            raise ServiceError(422, str(exc)) from None

    def bot_to_move(self, loaded: Loaded) -> SeatRow | None:
        """The bot seat that must decide now, if any."""
        state = loaded.state
        if state.is_over() or state.to_move is None or loaded.row.status == ENDED:
            return None
        seat = loaded.seats[state.to_move]
        return seat if seat.kind == "bot" else None

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


def rebuild(row: GameRow, moves: list[ActionRow], marks: list[int] | None = None) -> State:
    """Set the game up from its row and apply the moves in force (`marks`, if given,
    gets the log's length at setup and after each move)."""
    try:
        game = get_game(row.game)
        state = game.new_game(row.players, row.seed, **row.options)
    except (KamonError, ValueError, TypeError) as exc:
        raise ServiceError(500, f"stored game {row.id} is damaged: it cannot be set up "
                                f"again ({exc})") from None
    if marks is not None:
        marks.append(len(state.events))
    for i, m in enumerate(moves):
        try:
            aid = m.action_id
            if not is_int(aid) or aid is None:
                raise IllegalAction("the row has no action id")
            state.apply(aid)
        except IllegalAction as exc:
            raise ServiceError(500, f"stored game {row.id} does not replay at move "
                                    f"{i + 1} ({m.notation!r}): {exc}") from None
        if marks is not None:
            marks.append(len(state.events))
    return state
