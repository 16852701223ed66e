"""A game's WebSocket, `WS /api/games/{id}/ws?token=T`, spoken in plain ASGI.

The viewer's payload is sent now and after every change, until the socket closes. Text
frames only: `ping` is answered `pong`, and the seat's moves and undos may be sent here
instead of POSTed, as `{"type": "move", "action": A, "version": V}` or
`{"type": "undo", "version": V}` (the token is the socket's). A write that is stored is
answered by the socket's next state message; a refusal by
`{"type": "refused", "status", "error", "version"}`, and nothing is stored. A binary
frame is refused with a close frame (1003), a flood of other messages too (1008), an
unknown game or token with 4000 + the HTTP status.

Every move of a live game passes here, so the socket is served below the web framework
(FastPath sends it here): Starlette's WebSocket object and its wrappers cost more per
message than the frames themselves.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson

from kamon.server.guard import BadJSON, RateLimiter, Receive, Scope, Send, parse_json
from kamon.server.runtime import Server
from kamon.server.service import GAME_ID, ServiceError, is_int

WS_MESSAGES_PER_SECOND = 20  # a socket sending more is closed (it only needs pings)
PINGS = frozenset(("ping", '{"type":"ping"}'))
PONG = '{"type":"pong"}'
log = logging.getLogger("kamon.server")


def socket_write(text: str) -> dict[str, Any] | None:
    """A move or undo sent on a socket (its JSON object), or None for anything else; a
    write that is not valid JSON is still a write (so it is refused with a reason)."""
    if '"move"' not in text and '"undo"' not in text:
        return None
    try:
        data = parse_json(text.encode())
    except BadJSON as exc:
        return {"type": "move", "bad": str(exc)}
    if isinstance(data, dict) and data.get("type") in ("move", "undo"):
        return data
    return None


async def play_from_socket(server: Server, limiter: RateLimiter, game_id: str,
                           token: str | None, client: str, write: dict[str, Any]
                           ) -> str | None:
    """Play a socket's move or undo as the POST would (the same checks, the same rate
    limit); None once stored (the state message answers it), else the refusal."""
    version = write.get("version")
    try:
        if "bad" in write:
            raise ServiceError(400, write["bad"])
        refused = limiter.refusal(client)
        if refused is not None:
            raise ServiceError(429, refused[1], retry_after=refused[0])
        body = {"token": token, "action": write.get("action"), "version": version}
        await server.play(game_id, body, undo=write["type"] == "undo", reply=False)
        return None
    except ServiceError as exc:
        refusal: dict[str, Any] = {"type": "refused", "status": exc.status,
                                   "error": exc.message,
                                   "version": version if is_int(version) else None}
        if exc.retry_after is not None:
            refusal["retry_after"] = exc.retry_after
        return orjson.dumps(refusal).decode()
    except Exception as exc:
        log.exception("unexpected error on a socket write to game %s", game_id)
        return orjson.dumps({"type": "refused", "status": 500, "error": (
            f"the server failed on this write ({type(exc).__name__}); the error is in "
            "its log"), "version": None}).decode()


async def _refuse(send: Send, status: int, error: str, code: int, reason: str) -> None:
    """Say why in a message, then close with `code`."""
    await send({"type": "websocket.send",
                "text": orjson.dumps({"type": "error", "status": status,
                                      "error": error}).decode()})
    await send({"type": "websocket.close", "code": code, "reason": reason[:120]})


async def serve_socket(server: Server, limiter: RateLimiter, game_id: str,
                       token: str | None, scope: Scope, receive: Receive, send: Send
                       ) -> None:
    """One socket, from its handshake until it closes."""
    first_message = await receive()
    if first_message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    try:
        if not GAME_ID.fullmatch(game_id):
            raise ServiceError(404, f"no game {game_id[:40]!r}")
        loaded, seat, first = await server.read(server.do_open, game_id, token)
    except ServiceError as exc:
        await _refuse(send, exc.status, exc.message, 4000 + exc.status, exc.message)
        return
    conn = server.hub.add(game_id, send, seat)
    if conn is None:
        await _refuse(send, 503, "too many sockets are open on this game", 1013,
                      "too many sockets: try again later")
        return
    client = str((scope.get("client") or ("?", 0))[0])
    try:
        conn.push(loaded.version, first)
        latest = server.service.cache.get(game_id)
        if latest is not None and latest.version > loaded.version:
            await server.publish(latest, {})
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
            write = socket_write(text)
            if write is not None:  # bounded like a POST: by the write rate limit
                refusal = await play_from_socket(server, limiter, game_id, token, client,
                                                 write)
                if refusal is not None:
                    conn.push_other(refusal)
                continue
            now = loop.time()
            if now - window > 1.0:
                window, count = now, 0
            count += 1
            if count > WS_MESSAGES_PER_SECOND:
                await conn.close(1008, "too many messages")
                break
            if text.strip() in PINGS:
                conn.push_other(PONG)
    except Exception:  # the client went away mid-send
        pass
    finally:
        server.hub.remove(game_id, conn)
