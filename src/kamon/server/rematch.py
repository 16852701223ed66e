"""Rematch: a finished game's table plays again with a new deal — same game, options and
seats, each human seat keeping the name it had (a seat that asks with a name, and had
none there yet, takes it). Each human seat of the rematch has a token of its own, handed
to whoever asks for the rematch with that seat's token of the finished game (kept in
`rematch_claims` while the rematch is played, as a public game's free seats keep theirs):
a token revoked in one game (`kamon admin revoke`) does not act in the next, and revoking
a seat of the rematch takes its claim away. The seed is the server's unless the finished
game was a practice game and the request chooses one. One finished game has at most one
rematch, however many ask at once.
"""

from __future__ import annotations

import secrets
from typing import Any

from kamon.core.errors import KamonError
from kamon.server.errors import ServiceError
from kamon.server.names import player_name, seat_player
from kamon.server.service import GameService, is_int
from kamon.server.store import MAX_SEED, SeatRow, token_hash


class _Exists(Exception):
    """The finished game already has a rematch (its id)."""

    def __init__(self, rematch_id: str) -> None:
        """The rematch's id."""
        super().__init__(rematch_id)
        self.rematch_id = rematch_id


def rematch_of(service: GameService, game_id: str) -> str | None:
    """The id of the finished game's rematch, if one was made."""
    rows = service.store.query("SELECT rematch_id FROM rematches WHERE game_id = ?",
                                (game_id,), f"read the rematch of game {game_id}")
    return str(rows[0][0]) if rows else None


def create(service: GameService, game_id: str, body: Any) -> tuple[dict[str, Any], bool]:
    """The rematch of a finished game for the seat whose token the body holds: its id,
    seats and that seat's new link; and whether it was made just now (False: it existed).
    Refused (and nothing stored) for a spectator, a bad token or an unfinished game."""
    if not isinstance(body, dict):
        raise ServiceError(400, "the request body must be a JSON object")
    token = body.get("token")
    if not isinstance(token, str) or not token:
        raise ServiceError(400, "a rematch is asked by a seat: send the seat's 'token'")
    name = player_name(body.get("name"))
    loaded = service.load(game_id)
    seat = service.seat_of(loaded, token)
    assert seat is not None
    if not loaded.state.is_over():
        raise ServiceError(409, "a rematch is offered when the game is over; this one is "
                                "still being played")
    row = loaded.row
    existing = rematch_of(service, game_id)
    made = False
    if existing is None:
        seed = body.get("seed")
        if seed is None:
            seed, mode = secrets.randbits(63), ("casual" if row.mode == "practice"
                                                else row.mode)
        else:
            if row.mode != "practice":
                raise ServiceError(400, "only a practice game's rematch may choose its seed "
                                        "(the server draws the deal of a game between "
                                        "people): leave 'seed' out")
            if not is_int(seed) or not 0 <= seed <= MAX_SEED:
                raise ServiceError(400, f"'seed' must be an integer from 0 to {MAX_SEED}")
            mode = "practice"
        try:
            loaded.game.new_game(row.players, seed, **row.options)
        except (KamonError, ValueError, TypeError) as exc:
            raise ServiceError(500, f"cannot set up the rematch: {exc}") from None
        new_id = secrets.token_urlsafe(9)
        tokens = {s.seat: secrets.token_urlsafe(18) for s in loaded.seats
                  if s.kind == "human"}
        seats = [SeatRow(s.seat, s.kind, s.level,
                         token_hash(tokens[s.seat]) if s.seat in tokens else None,
                         name if s.seat == seat and name is not None else s.player)
                 for s in loaded.seats]
        store = service.store

        def link(cur: Any) -> None:
            cur.execute(store.sql("SELECT rematch_id FROM rematches WHERE game_id = ?"),
                        (game_id,))
            found = cur.fetchone()
            if found is not None:
                raise _Exists(str(found[0]))
            cur.execute(store.sql("INSERT INTO rematches (game_id, rematch_id, created_at) "
                                   "VALUES (?,?,?)"), (game_id, new_id, row.updated_at))
            cur.executemany(store.sql("INSERT INTO rematch_claims (game_id, seat, token) "
                                      "VALUES (?,?,?)"),
                            [(new_id, s, t) for s, t in tokens.items()])
            store.notify(cur, f"{game_id} rematch {new_id}")  # (other processes' sockets)

        try:
            store.create_game(new_id, row.game, row.players, seed, dict(row.options),
                              seats, mode, extra=link, creator=row.creator)
            existing, made = new_id, True
        except _Exists as exc:
            existing = exc.rematch_id
        except ServiceError:
            existing = rematch_of(service, game_id)  # another server made it first
            if existing is None:
                raise
    if not made and name is not None:
        service.name_seat(existing, seat, name)  # (if that seat has no name there yet)
    mine = claim(service, existing, seat, loaded.seats[seat].token_hash) or token
    return {**answer(service, existing, seat), "token": mine,
            "link": f"/play/{existing}?token={mine}"}, made


def claim(service: GameService, rematch_id: str, seat: int, old_hash: str | None
          ) -> str | None:
    """The token of `seat` in the rematch, for the holder of its token in the finished
    game: its claim, if the rematch's seat still has that token (a seat revoked there has
    no claim: 403); None for a rematch made before claims existed, whose seats share the
    finished game's tokens."""
    rows = service.store.query("SELECT token FROM rematch_claims WHERE game_id = ? AND "
                               "seat = ?", (rematch_id, seat),
                               f"read the rematch's seat {seat + 1}")
    seats = service.store.seats(rematch_id)
    held = seats[seat].token_hash if 0 <= seat < len(seats) else None
    if rows and held == token_hash(str(rows[0][0])):
        return str(rows[0][0])
    if not rows and held is not None and held == old_hash:
        return None
    raise ServiceError(403, f"seat {seat + 1} of the rematch has a new invite link from the "
                            "server's operator: ask them for it")


def answer(service: GameService, rematch_id: str, seat: int | None) -> dict[str, Any]:
    """What anyone is told of a rematch: the game, its seats, and the spectators' link
    (`create` adds the asking seat's own token and link)."""
    loaded = service.load(rematch_id)
    state = loaded.state
    return {
        "id": rematch_id, "game": loaded.row.game, "mode": loaded.row.mode,
        "seat": seat,
        "seats": [{"seat": s.seat, "name": state.name(s.seat), "player": seat_player(s),
                   "kind": s.kind, "level": s.level} for s in loaded.seats],
        "link": f"/play/{rematch_id}", "spectator_link": f"/play/{rematch_id}",
    }


def made(service: GameService, game_id: str) -> dict[str, Any] | None:
    """What anyone is told of the finished game's rematch, if one was made (None if not,
    or if it cannot be read)."""
    found = rematch_of(service, game_id)
    if found is None:
        return None
    try:
        return answer(service, found, None)
    except ServiceError:
        return None
