"""A game's WebSocket, `WS /api/games/{id}/ws?token=T` (Starlette's WebSocket: a plain
ASGI endpoint measured no faster, 50 busy games, 3 runs each). The viewer's
payload now and after every change; the seat's moves and undos may be sent here; any
other message is refused with the reason (docs/server.md, "The socket").
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from starlette.websockets import WebSocket

from kamon.server import faults
from kamon.server.errors import ServiceError, failure, socket_refusal
from kamon.server.guard import BadJSON, Send, parse_json
from kamon.server.limits import RateLimiter
from kamon.server.live import LiveGames
from kamon.server.service import GAME_ID, is_int

WS_MESSAGES_PER_SECOND = 20  # a socket sending more is closed (it only needs pings)
PINGS = frozenset(("ping", '{"type":"ping"}'))
log = logging.getLogger("kamon.server")


def read_message(text: str) -> dict[str, Any]:
    """A client's text frame as a message with a known `type` (move, undo or ping);
    ServiceError (400) saying what is wrong with any other.

    >>> read_message('{"type": "undo", "version": 3}')
    {'type': 'undo', 'version': 3}
    >>> read_message('{"type": "hello"}')
    Traceback (most recent call last):
    ...
    kamon.server.errors.ServiceError: a socket message is a JSON object whose 'type' is 'move', 'undo' or 'ping'
    """
    if text.strip() in PINGS:
        return {"type": "ping"}
    try:
        data = parse_json(text.encode("utf-8", "surrogatepass"))
    except BadJSON as exc:
        raise ServiceError(400, f"a socket message is JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("type") not in ("move", "undo", "ping"):
        raise ServiceError(400, "a socket message is a JSON object whose 'type' is "
                                "'move', 'undo' or 'ping'")
    return data


class GameSocket:
    """Every game's socket (the app's WebSocket route hands each one here)."""

    def __init__(self, live: LiveGames, limiter: RateLimiter) -> None:
        """Sockets of `live`'s games; their writes limited by `limiter`, as POSTs are."""
        self.live = live
        self.limiter = limiter

    async def serve(self, ws: WebSocket, game_id: str, token: str | None) -> None:
        """One socket, from its handshake until it closes."""
        await ws.accept()
        receive, send = ws.receive, ws.send
        client = ws.client.host if ws.client else "?"
        try:
            if not GAME_ID.fullmatch(game_id):
                raise ServiceError(404, f"no game {game_id[:40]!r}")
            loaded, seat, first = await self.live.open_socket(game_id, token)
        except ServiceError as exc:
            await _refuse(send, exc.status, exc.message, 4000 + exc.status)
            return
        if faults.socket_open_pause():
            await asyncio.sleep(faults.socket_open_pause())
        conn = self.live.hub.add(game_id, send, seat, client)
        if isinstance(conn, str):
            await _refuse(send, 503, conn, 1013)
            return
        try:
            conn.push(loaded.version, first)
            # A version stored after the read above and before the socket was registered
            # was told to the sockets then (here, or by another process's notification),
            # not to this one: read the stored version again now that it is registered.
            await self.live.refresh(game_id)
            window, count = 0.0, 0
            loop = asyncio.get_running_loop()
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    break  # websocket.disconnect
                text = message.get("text")
                if text is None:
                    await conn.close(1003, "binary frames are not accepted: send text")
                    break
                try:
                    request = read_message(text)
                except ServiceError as exc:
                    request, refusal = None, socket_refusal(exc)
                if request is not None and request["type"] != "ping":
                    reply = await self._write(game_id, token, client, request)
                    if reply is not None:  # (stored: the next state message answers)
                        conn.push_other(reply)
                    continue
                now = loop.time()  # anything but a write: bounded per second
                if now - window > 1.0:
                    window, count = now, 0
                count += 1
                if count > WS_MESSAGES_PER_SECOND:
                    await conn.close(1008, "too many messages")
                    break
                if request is None:
                    conn.push_other(refusal)
                    continue
                # A ping: the state first if the game moved on without this socket (a
                # notification lost), then the pong with the newest version it was sent.
                await self.live.refresh(game_id)
                conn.push_other(orjson.dumps({"type": "pong",
                                              "version": conn.version}).decode())
        except Exception:  # the client went away mid-send
            pass
        finally:
            self.live.hub.remove(game_id, conn)

    async def _write(self, game_id: str, token: str | None, client: str,
                     request: dict[str, Any]) -> str | None:
        """Play a socket's move or undo as the POST would (the same checks, the same rate
        limit): None once stored, else its refusal."""
        version = request.get("version")
        try:
            refused = await self.limiter.check(client)
            if refused is not None:
                raise ServiceError(429, refused[1], retry_after=refused[0])
            body = {"token": token, "action": request.get("action"), "version": version}
            await self.live.play(game_id, body, undo=request["type"] == "undo", reply=False)
            return None
        except ServiceError as exc:
            return socket_refusal(exc, version if is_int(version) else None)
        except Exception as exc:
            log.exception("unexpected error on a socket write to game %s", game_id)
            return socket_refusal(failure(exc))


async def _refuse(send: Send, status: int, error: str, code: int) -> None:
    """Say why in a message, then close with `code`."""
    await send({"type": "websocket.send", "text": orjson.dumps(
        {"type": "error", "status": status, "error": error}).decode()})
    await send({"type": "websocket.close", "code": code, "reason": error[:120]})
