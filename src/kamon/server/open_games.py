"""Open games: a public game's free human seats wait in `open_seats` for anyone to take
one; taking a seat clears its token only if it is still there, so of two people joining
the last seat exactly one gets it. A public game's seed is always the server's.
"""

from __future__ import annotations

import time
from typing import Any

from kamon.core.protocol import State
from kamon.games import get_game
from kamon.server.errors import ServiceError
from kamon.server.names import player_name, seat_player
from kamon.server.service import SEED_POLICY, GameService

MAX_LISTED = 50  # open games in the list (newest first)


def create(service: GameService, body: Any, client: str | None = None) -> dict[str, Any]:
    """Create a game (as service.create, for `client`'s address); with "public": true
    its human seats but the creator's are left free for others to join from the list of
    open games."""
    if not isinstance(body, dict) or "public" not in body:
        return service.create(body, client=client)
    public = body.get("public")
    if not isinstance(public, bool):
        raise ServiceError(400, "'public' must be true or false")
    rest = {k: v for k, v in body.items() if k != "public"}
    if not public:
        return service.create(rest, client=client)
    seats = rest.get("seats")
    humans = [i for i, k in enumerate(seats) if isinstance(k, str)
              and k.strip().lower() == "human"] if isinstance(seats, list) else []
    if len(humans) < 2:
        raise ServiceError(400, "a public game needs at least two human seats: yours and "
                                "one for who joins from the list")
    if rest.get("seed") is not None:
        raise ServiceError(400, f"{SEED_POLICY}; a public game is between people: leave "
                                "'seed' out")
    store = service.store
    now = time.time()

    def rows(game_id: str, tokens: dict[int, str]) -> Any:
        free = sorted(tokens)[1:]

        def insert(cur: Any) -> None:
            cur.executemany(store.sql(
                "INSERT INTO open_seats (game_id, seat, token, created_at) "
                "VALUES (?,?,?,?)"), [(game_id, s, tokens[s], now) for s in free])
        return insert

    created = service.create(rest, extra=rows, client=client)
    mine = min(s["seat"] for s in created["seats"] if s["token"])
    for s in created["seats"]:
        if s["token"] and s["seat"] != mine:
            s.update(token=None, link=None, open=True)
    created["public"] = True
    return created


def _names(service: GameService, game_id: str) -> State | None:
    """The game's current state (for its seats' names), None if it cannot be read."""
    try:
        return service.load(game_id).state
    except ServiceError:
        return None


def list_open(service: GameService) -> dict[str, Any]:
    """The public games still waiting for players: game, mode, seats (free ones marked),
    created; newest first."""
    rows = service.store.query(
        "SELECT g.id, g.game, g.players, g.mode, g.created_at, g.options, o.seat "
        "FROM open_seats o JOIN games g ON g.id = o.game_id "
        "WHERE o.token IS NOT NULL AND g.status = 'playing' "
        "ORDER BY g.created_at DESC, g.id, o.seat", (), "list the open games")
    games: dict[str, dict[str, Any]] = {}
    for gid, name, players, mode, created, _options, seat in rows:
        entry = games.get(gid)
        if entry is None:
            if len(games) >= MAX_LISTED:
                break
            entry = games[gid] = {"id": gid, "game": name, "players": players,
                                  "mode": mode, "created_at": created, "free": []}
        entry["free"].append(seat)
    out = []
    for gid, entry in games.items():
        loaded = None
        try:
            loaded = service.load(gid)
        except ServiceError:
            continue
        state = loaded.state
        entry["title"] = get_game(entry["game"]).title
        entry["options"] = dict(loaded.row.options)
        entry["setup"] = get_game(entry["game"]).setup_words(loaded.row.players,
                                                             loaded.row.options)
        entry["moves"] = len(loaded.moves)
        entry["seats"] = [{"seat": s.seat, "name": state.name(s.seat),
                           "player": seat_player(s), "kind": s.kind, "level": s.level,
                           "free": s.seat in entry["free"]}
                          for s in loaded.seats]
        out.append(entry)
    return {"games": out}


def join(service: GameService, game_id: str, body: Any) -> dict[str, Any]:
    """Take a free seat of a public game ({"seat": n} for a given one, else the first
    free; "name": the player's name on it): the seat's token and link. Refused if the
    game is unknown, not public, over, or its seats (that seat) are taken, or the name is
    not one — and then nothing changes."""
    if not isinstance(body, dict):
        raise ServiceError(400, "the request body must be a JSON object")
    want = body.get("seat")
    if want is not None and (not isinstance(want, int) or isinstance(want, bool)):
        raise ServiceError(400, "'seat' must be a seat number")
    name = player_name(body.get("name"))
    store = service.store
    lock = " FOR UPDATE" if store.dialect == "postgresql" else ""

    def take(cur: Any) -> tuple[int, str]:
        cur.execute(store.sql("SELECT status FROM games WHERE id = ?"), (game_id,))
        found = cur.fetchone()
        if found is None:
            raise ServiceError(404, f"no game {game_id!r}")
        cur.execute(store.sql(f"SELECT seat, token FROM open_seats WHERE game_id = ? "
                               f"ORDER BY seat{lock}"), (game_id,))
        seats = cur.fetchall()
        if not seats:
            raise ServiceError(404, f"game {game_id} is not an open game: join it through "
                                    "the invite link its creator sends")
        if found[0] != "playing":
            raise ServiceError(409, f"game {game_id} is over: it cannot be joined")
        free = [(s, t) for s, t in seats if t is not None]
        if want is not None:
            free = [(s, t) for s, t in free if s == want]
            if not free:
                raise ServiceError(409, f"seat {want + 1} of game {game_id} is not free "
                                        "(taken, or not an open seat)")
        if not free:
            raise ServiceError(409, f"every seat of game {game_id} is taken: nobody can "
                                    "join it any more")
        seat, token = free[0]
        cur.execute(store.sql("UPDATE open_seats SET token = NULL, taken_at = ? "
                               "WHERE game_id = ? AND seat = ? AND token IS NOT NULL"),
                    (time.time(), game_id, seat))
        if cur.rowcount != 1:
            raise ServiceError(409, f"seat {seat + 1} of game {game_id} was taken just "
                                    "now: choose another game")
        return int(seat), str(token)

    if not isinstance(game_id, str) or not 0 < len(game_id) <= 32:
        raise ServiceError(404, f"no game {str(game_id)[:40]!r}")
    seat, token = store.write(take, f"join game {game_id}")
    if name is not None:
        service.name_seat(game_id, seat, name)
    state = _names(service, game_id)
    return {"id": game_id, "seat": seat,
            "name": state.name(seat) if state is not None else f"seat {seat + 1}",
            "player": name, "token": token, "link": f"/play/{game_id}?token={token}"}
