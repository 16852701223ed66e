"""The play page sends its moves on the game's live socket (one message each way instead
of a request, its answer and a socket message), and POSTs a move the socket could not
answer: nothing is lost and nothing is stored twice."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.e2e.conftest import (
    Server,
    click_board_moves,
    open_play,
    version,
    wait_my_turn,
    wait_version_after,
)


def _watch(page: Any) -> tuple[list[str], list[str]]:
    """Record the texts the page sends on its sockets and the URLs it POSTs to."""
    sent: list[str] = []
    posts: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: sent.append(payload if isinstance(payload, str)
                                                 else payload.decode())))
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    return sent, posts


def test_the_page_sends_its_moves_on_the_live_socket(
        server: Server, new_page: Callable[..., Any]) -> None:
    """Four moves by clicks on the board against a bot: each went on the socket as one
    message, none was POSTed, and each was answered (the version moved on)."""
    created = server.create("white-castle", ["human", "random"], seed=515)
    page = new_page("socket-moves")
    sent, posts = _watch(page)
    open_play(page, created["seats"][0]["url"])
    moves = click_board_moves(page, random.Random(515), 4)
    assert moves == 4
    move_messages = [m for m in sent if '"type":"move"' in m]
    assert len(move_messages) == moves, sent
    assert not [u for u in posts if u.endswith("/moves")], posts


def test_a_move_whose_socket_closes_before_the_answer_is_posted_and_stored_once(
        server: Server, new_page: Callable[..., Any]) -> None:
    """The socket is closed as the move is sent on it (the move never reaches the
    server): the page POSTs it, the game moves on by exactly that one decision, and the
    page shows it."""
    created = server.create("white-castle", ["human"], seed=616)
    page = new_page("socket-lost")
    _, posts = _watch(page)
    cut: list[str] = []  # a routed socket's frames are seen here, not by page "websocket"

    def cut_moves(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"type":"move"' in message:
                cut.append(message)
                ws.close()  # lost with the socket, before the server saw it
            else:
                to_server.send(message)
        ws.on_message(from_page)

    page.route_web_socket("**/ws*", cut_moves)
    open_play(page, created["seats"][0]["url"])
    assert wait_my_turn(page) == "turn"
    before = version(page)
    page.locator("#actions button.action").first.click()
    after = wait_version_after(page, before)
    assert after == before + 1
    assert len(cut) == 1, f"the move was first sent on the socket: {cut}"
    assert len([u for u in posts if u.endswith("/moves")]) == 1, posts
    stored = server.api(f"/api/games/{created['id']}")
    assert stored["version"] == before + 1
