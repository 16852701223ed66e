"""The routes of replays, open games and rematches (added to the app by create_app).

  GET  /replay, /replay/{id}             the replay page (an uploaded record / a game)
  GET  /api/games/{id}/replay?step=k     a finished game at step k (0: the setup; no k:
                                         the end): payload, the step's log lines, timeline
  POST /api/replays                      {text, index?, step?}: the same for a record file
  GET  /api/open                         the public games waiting for players
  POST /api/open/{id}/join               {seat?}: take a free seat; its token and link
  POST /api/games/{id}/rematch           {token, seed? (practice only)}: the rematch
  GET  /api/games/{id}/rematch           {"rematch": null or its id and seats}

A rematch made is told at once to every socket of the finished game
(`{"type": "rematch", "id": ...}`): each seat's page shows its link to join.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from kamon.server import open_games, rematch, replays
from kamon.server.runtime import Server
from kamon.server.service import ServiceError
from kamon.server.tables import ensure_tables


def add_routes(app: FastAPI, server: Server, web_dir: Any,
               body: Any, game_id_of: Any) -> None:
    """Add the routes to `app` (`body(request)` reads a JSON object, `game_id_of` checks
    an id: the app's own helpers)."""
    ensure_tables(server.store)

    @app.get("/replay", include_in_schema=False)
    async def replay_upload_page() -> FileResponse:
        return FileResponse(web_dir / "replay.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(web_dir / "replay.html")

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(game_id: str, step: str | None = None) -> JSONResponse:
        """A finished game at one step: the spectator's payload, the log lines that step
        added, every move with its words, and where each round starts."""
        return JSONResponse(await server.read(replays.game_replay, server.service,
                                              game_id_of(game_id), step))

    @app.post("/api/replays")
    async def record_replay(request: Request) -> JSONResponse:
        """A game record file's position at one step, as for a finished game; a corrupt
        record is refused (400) with what is wrong."""
        return JSONResponse(await server.read(replays.upload_replay, await body(request)))

    @app.get("/api/open")
    async def open_list() -> JSONResponse:
        """The public games waiting for players, newest first."""
        return JSONResponse(await server.read(open_games.list_open, server.service))

    @app.post("/api/open/{game_id}/join")
    async def open_join(game_id: str, request: Request) -> JSONResponse:
        """Take a free seat of a public game: its token and invite link."""
        gid = game_id_of(game_id)
        joined = await server.write(open_games.join, server.service, gid,
                                    await body(request))
        joined["url"] = str(request.base_url).rstrip("/") + joined["link"]
        return JSONResponse(joined)

    @app.post("/api/games/{game_id}/rematch")
    async def make_rematch(game_id: str, request: Request) -> JSONResponse:
        """The finished game's rematch (made now, or the one already made)."""
        gid = game_id_of(game_id)
        data = await body(request)
        async with server.locks.hold(gid):
            made, new = await server.write(rematch.create, server.service, gid, data)
        made["link"] = f"/play/{made['id']}?token={data['token']}"
        made["url"] = str(request.base_url).rstrip("/") + made["link"]
        if new:
            message = json.dumps({"type": "rematch", "id": made["id"]})
            for conn in server.hub.conns(gid):
                conn.push_other(message)
            if any(s["kind"] == "bot" for s in made["seats"]):
                server.spawn(server.drive_bots(made["id"]))
        return JSONResponse(made, status_code=201 if new else 200)

    @app.get("/api/games/{game_id}/rematch")
    async def which_rematch(game_id: str) -> Response:
        """The finished game's rematch, if one was made (null if not)."""
        gid = game_id_of(game_id)
        found = await server.read(rematch.rematch_of, server.service, gid)
        if found is None:
            return JSONResponse({"rematch": None})
        try:
            info = await server.read(rematch.answer, server.service, found, None)
        except ServiceError:
            return JSONResponse({"rematch": None})
        return JSONResponse({"rematch": info})
