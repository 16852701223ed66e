"""End-to-end browser tests: a real `kamon serve` subprocess driven by Debian's chromium.

Fixtures:
  server          one server per test session (per xdist worker), SQLite under a tmp dir
  server_factory  start extra servers (a test that stops and restarts its own server)
  browser         headless /usr/bin/chromium through Playwright (never `playwright install`)
  new_page        open a page in a fresh context (own localStorage), desktop (1366x900) or
                  phone (390x844) sized, its documents served under a strict
                  Content-Security-Policy; uncaught page errors and console errors (a CSP
                  violation is one) fail the test, and a failing test leaves a screenshot
                  of every page it opened under test-output/e2e/failed/

The helpers below (`wait_my_turn`, `click_choice`, `play_to_end`, ...) read the play page's
contract: #status (.your-turn, .over), button.action[data-action-id], #board .legal,
#log li, #undo, #connection.live and body[data-version] (the payload version on screen).
`drive` plays human seats through the API, to bring a game to the position a test looks at.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "e2e"
CHROMIUM = os.environ.get("KAMON_CHROMIUM", "/usr/bin/chromium")
# A document the tests serve through a route (to add the CSP below) has no address space of
# its own, so Chromium's local-network checks would block its socket to 127.0.0.1.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-features=LocalNetworkAccessChecks"]
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
STEP_MS = 30_000   # the longest one step of a game may take (a click, a bot's reply)
try:  # the waits of expect(...) as patient as the others
    from playwright.sync_api import expect as _expect
    _expect.set_options(timeout=STEP_MS)
except ImportError:  # the browser fixture says what to install
    pass
# console errors that are not the page's fault: a socket refused while the server restarts
# (a write refused by the rate limit is logged by chromium, then resent by the client:
# test_rate_limit.py pins that it is stored)
# (and the network cut off on purpose: test_connection.py)
BENIGN = ("WebSocket connection to", "net::ERR_CONNECTION_REFUSED", "status of 429",
          "net::ERR_INTERNET_DISCONNECTED")
# The policy the pages must work under (the server will send its own; this one is strict):
# no inline script or style attribute, no eval, images and sockets from the page's origin.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")


# --------------------------------------------------------------------------- the server

def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `kamon serve` subprocess on 127.0.0.1:port over one SQLite file."""

    def __init__(self, db: Path, port: int, log: Path, bot_delay: float = 0.0,
                 extra: tuple[str, ...] = ()) -> None:
        """Remember where it serves (`extra`: more `kamon serve` options); `start` runs
        it."""
        self.db = db
        self.port = port
        self.logfile = log
        self.bot_delay = bot_delay
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The base URL, without a trailing slash."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 40.0) -> Server:
        """Run the server and wait until it answers GET /api/catalog."""
        assert self.proc is None, "already running"
        cmd = [sys.executable, "-m", "kamon.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", str(self.db),
               "--bot-delay", str(self.bot_delay), "--bot-workers", "1", *self.extra]
        out = self.logfile.open("ab")
        out.write(f"\n$ {' '.join(cmd)}\n".encode())
        out.flush()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        # its own session: stop() can end the server and its bot worker together
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env,
                                     start_new_session=True)
        out.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                code = self.proc.returncode
                self.proc = None
                raise RuntimeError(f"kamon serve exited with {code} before answering:\n"
                                   f"{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + "/api/catalog", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"kamon serve did not answer within {timeout}s:\n"
                           f"{self.log_tail()}")

    def stop(self) -> None:
        """End the server (SIGTERM, then SIGKILL) and whatever it started."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        # the bot worker of this server's process group, should it have outlived it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def log_tail(self, chars: int = 4000) -> str:
        """The end of the server's output."""
        try:
            return self.logfile.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def api(self, path: str, body: Any = None) -> Any:
        """GET (or POST `body` as JSON) and return the JSON answer."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data,
                                     headers={"Content-Type": "application/json"})
        for _ in range(50):
            try:
                with urllib.request.urlopen(req, timeout=20) as r:
                    return json.load(r)
            except urllib.error.HTTPError as e:
                # a driven game writes faster than a person: wait as the server's
                # rate limit asks (Retry-After), as a polite client does
                if e.code != 429:
                    raise
                time.sleep(float(e.headers.get("Retry-After") or 1))
        raise AssertionError(f"{path}: still rate-limited after 50 waits")

    def create(self, game: str, seats: list[str], seed: int, **options: Any) -> Any:
        """Create a game with a chosen deal (for tests whose subject is not the lobby).

        Through the API when the server lets a request choose the seed (a practice game:
        one human seat at most). A deal between several people is the server's to draw,
        so such a game is written the way only an operator can: in-process, straight into
        the server's database file, from which the running server serves it."""
        body = {"game": game, "players": len(seats), "seats": seats, "seed": seed,
                "options": options}
        if seats.count("human") <= 1:
            return self.api("/api/games", body)
        assert "human" in seats and all(k == "human" for k in seats), \
            "bots of a game written straight into the store would not be started"
        from kamon.server.service import GameService
        from kamon.server.store import Store

        store = Store(str(self.db))
        try:
            created = GameService(store).create(body, operator=True)
        finally:
            store.close()
        for seat in created["seats"]:  # as the API answers: each invite link in full
            seat["url"] = self.url + seat["link"]
        return created


@pytest.fixture(scope="session")
def server_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        Callable[..., Server]]:
    """Start servers (each on a free port, a fresh SQLite file unless given one); all are
    stopped at the end of the session."""
    started: list[Server] = []
    base = tmp_path_factory.mktemp("kamon-e2e")

    def make(db: Path | None = None, port: int | None = None,
             bot_delay: float = 0.0, extra: tuple[str, ...] = ()) -> Server:
        n = len(started)
        srv = Server(db or base / f"games-{n}.db", port or free_port(),
                     base / f"server-{n}.log", bot_delay, extra)
        started.append(srv)
        return srv.start()

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def server(server_factory: Callable[..., Server]) -> Server:
    """The session's server (bots move at once)."""
    return server_factory()


# --------------------------------------------------------------------------- the browser

@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian chromium; a missing browser fails (never skips) with the fix."""
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"chromium is not installed at {CHROMIUM}: run `bash scripts/system-deps.sh`"
                    " (or `make system-deps`) to install Debian's chromium for the browser "
                    "tests", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the Python package playwright is missing: `pip install -e '.[dev]'`",
                    pytrace=False)
    with sync_playwright() as pw:
        try:
            b = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                   args=CHROMIUM_ARGS)
        except Exception as exc:
            pytest.fail(f"chromium at {CHROMIUM} did not start ({exc}); reinstall it with "
                        "`bash scripts/system-deps.sh`", pytrace=False)
        yield b
        b.close()


@dataclass
class Opened:
    """The pages a test opened, and the errors they raised."""

    pages: list[tuple[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the item (for the failure screenshots)."""
    rep = yield
    setattr(item, "rep_" + rep.when, rep)
    return rep


def _with_csp(route: Any) -> None:
    """Serve a document with the strict CSP added to its headers (other requests pass)."""
    if route.request.resource_type != "document":
        route.continue_()
        return
    response = route.fetch()
    route.fulfill(response=response,
                  headers={**response.headers, "content-security-policy": CSP})


@pytest.fixture
def new_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """new_page(name, phone=False): a page in its own context (its own localStorage).
    Uncaught exceptions and console errors of its pages fail the test."""
    opened = Opened()
    contexts: list[Any] = []

    def make(name: str = "page", phone: bool = False) -> Any:
        if phone:
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                      has_touch=True)
        else:
            ctx = browser.new_context(viewport=DESKTOP)
        contexts.append(ctx)
        ctx.route("**/*", _with_csp)
        page = ctx.new_page()
        page.set_default_timeout(STEP_MS)
        page.on("pageerror", lambda exc: opened.errors.append(f"{name}: {exc}"))
        page.on("console", lambda msg: opened.errors.append(f"{name}: console: {msg.text}")
                if msg.type == "error" and not any(ok in msg.text for ok in BENIGN) else None)
        opened.pages.append((name, page))
        return page

    yield make
    rep = getattr(request.node, "rep_call", None)
    shots = OUT / "failed"
    for old in shots.glob(f"{request.node.name}-*.png"):  # from an earlier run
        old.unlink(missing_ok=True)
    if rep is not None and rep.failed:
        shots.mkdir(parents=True, exist_ok=True)
        for name, page in opened.pages:
            with contextlib.suppress(Exception):
                page.screenshot(path=str(shots / f"{request.node.name}-{name}.png"),
                                full_page=True)
    for ctx in contexts:
        with contextlib.suppress(Exception):
            ctx.close()
    assert not opened.errors, "errors in the page:\n" + "\n".join(opened.errors)


def shot(page: Any, filename: str, full_page: bool = False, top: bool = False) -> Path:
    """Save a screenshot under test-output/e2e/ (scrolled to the top of the page first
    if `top`)."""
    OUT.mkdir(parents=True, exist_ok=True)
    if top:
        page.evaluate("window.scrollTo(0, 0)")
    path = OUT / filename
    page.screenshot(path=str(path), full_page=full_page)
    return path


# --------------------------------------------------------------------------- the play page

def open_play(page: Any, url: str) -> None:
    """Go to a play page and wait until it shows a game and its socket is live."""
    page.goto(url)
    page.wait_for_selector("body[data-version]")
    page.wait_for_selector("#connection.live")


def version(page: Any) -> int:
    """The payload version the page shows."""
    return int(page.get_attribute("body", "data-version"))


def log_lines(page: Any) -> list[str]:
    """The log's lines, oldest first."""
    return [t.strip() for t in page.locator("#log li").all_inner_texts()]


def snapshot(page: Any) -> dict[str, Any]:
    """What a position looks like on the page: version, status, choices, log."""
    return {
        "version": version(page),
        "status": page.inner_text("#status").strip(),
        "choices": page.locator("button.action").evaluate_all(
            "bs => bs.map(b => b.dataset.notation)"),
        "log": log_lines(page),
    }


READY_JS = """() => {
  const st = document.getElementById('status');
  if (!document.body.dataset.version) return false;
  if (st.classList.contains('over')) return 'over';
  return st.classList.contains('your-turn') && !document.body.classList.contains('busy')
    && document.querySelectorAll('#actions button.action').length > 0 ? 'turn' : false;
}"""


def wait_my_turn(page: Any, timeout_ms: int = STEP_MS) -> str:
    """Wait until this seat is to decide ('turn') or the game is over ('over')."""
    return str(page.wait_for_function(READY_JS, timeout=timeout_ms).json_value())


def wait_version_after(page: Any, before: int, timeout_ms: int = STEP_MS) -> int:
    """Wait until the page shows a version newer than `before`."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v", arg=before, timeout=timeout_ms)
    return version(page)


@dataclass
class Clicks:
    """How the choices of a game were made."""

    board: int = 0
    listed: int = 0
    board_failures: list[str] = field(default_factory=list)


HIT_POINT_JS = """e => {
  // a point of the element (or of something drawn inside it) that a click lands on:
  // its centre first, then a grid over its box (an SVG <g> has no area of its own)
  const r = e.getBoundingClientRect();
  const pts = [[.5, .5]];
  for (const fy of [.5, .25, .75, .1, .9]) for (const fx of [.5, .3, .7, .1, .9, .2, .8, .4, .6])
    pts.push([fx, fy]);
  for (const [fx, fy] of pts) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && e.contains(hit)) return [x, y];
  }
  return null;
}"""


# Resolves once the window has not scrolled for three frames in a row (a smooth scroll the
# page started, e.g. to the decision, has ended), or after 3 s: a point measured before
# then may have moved by the time the pointer gets there (seen under load in CI).
SCROLL_AT_REST_JS = """() => new Promise(done => {
  let last = scrollY, still = 0;
  const give_up = setTimeout(() => done(false), 3000);
  const tick = () => {
    if (scrollY === last) still += 1; else { still = 0; last = scrollY; }
    if (still >= 3) { clearTimeout(give_up); done(true); } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def board_point(target: Any, what: str = "click") -> tuple[float, float]:
    """A visible point of a board element that a pointer reaches, measured once the page
    has stopped scrolling (raises AssertionError if no point of it can be reached)."""
    page = target.page
    # the page's own scroll to the decision, held back while the pointer was in use, first
    page.wait_for_function("() => document.body.dataset.follow !== 'waiting'", timeout=10000)
    page.evaluate(SCROLL_AT_REST_JS)
    target.scroll_into_view_if_needed(timeout=5000)
    page.evaluate(SCROLL_AT_REST_JS)
    point = target.evaluate(HIT_POINT_JS)
    if point is None:  # under the sticky status line, say: scroll it to the middle
        target.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        page.evaluate(SCROLL_AT_REST_JS)
        point = target.evaluate(HIT_POINT_JS)
    assert point is not None, f"no visible point of it receives a {what} (covered or empty)"
    return point[0], point[1]


def click_board(page: Any, target: Any) -> None:
    """Click a board element where a person would: a visible point of it that the click
    reaches (raises AssertionError if no point of it can be clicked)."""
    x, y = board_point(target)
    page.mouse.click(x, y)


def click_board_moves(page: Any, rng: random.Random, count: int) -> int:
    """Make up to `count` decisions by clicking a random legal board element, each
    waited for until the page shows its result; the decisions made (fewer if the game
    ends)."""
    made = 0
    for _ in range(count):
        if wait_my_turn(page) == "over":
            break
        before = version(page)
        click_board(page, board_target(page, rng.choice(legal_ids(page))))
        wait_version_after(page, before)
        made += 1
    return made


def click_choice(page: Any, rng: random.Random, clicks: Clicks,
                 board_share: float = 0.5) -> None:
    """Make one decision by clicking: a legal board element some of the time (when the
    board offers one), else a button of the list; wait until the page shows the result."""
    before = version(page)
    if rng.random() < board_share:
        board = [el for el in page.locator("#board .legal[data-action-id]").all()
                 if el.is_visible()]
        if board:
            target = rng.choice(board)
            what = target.evaluate(
                "e => `${e.tagName}.${e.getAttribute('class')} #${e.dataset.actionId}`"
                " + ` (${(e.getAttribute('data-explain') || e.textContent).slice(0, 60)})`")
            try:
                click_board(page, target)
                wait_version_after(page, before, 10_000)
                clicks.board += 1
                return
            except Exception as exc:  # recorded and asserted on by the caller
                status = page.inner_text("#status").strip()
                clicks.board_failures.append(
                    f"{what} at {status!r}: {str(exc).splitlines()[0]}")
                if version(page) > before:
                    return
    buttons = page.locator("#actions button.action")
    target = buttons.nth(rng.randrange(buttons.count()))
    target.click()
    clicks.listed += 1
    wait_version_after(page, before)
    err = page.inner_text("#choice-error").strip()
    assert not err, f"the server refused the listed choice: {err}"


ONLY_LISTED_JS = """() => {
  const onBoard = new Set([...document.querySelectorAll('#board .legal[data-action-id]')]
    .map(e => e.dataset.actionId));
  return [...document.querySelectorAll('#actions button.action')]
    .filter(b => !onBoard.has(b.dataset.actionId)).map(b => b.dataset.notation);
}"""


def only_listed(page: Any) -> list[str]:
    """The legal actions the page offers only in its list (none has a board target)."""
    return list(page.evaluate(ONLY_LISTED_JS))


def play_to_end(page: Any, rng: random.Random, max_decisions: int = 600,
                on_decision: Callable[[int], None] | None = None,
                board_share: float = 0.5, board_only: bool = False) -> Clicks:
    """Play this seat's decisions by clicking until the game is over (`board_only`: every
    choice has a board target, and every decision is made on the board)."""
    clicks = Clicks()
    for n in range(max_decisions):
        if wait_my_turn(page) == "over":
            return clicks
        if board_only:
            missing = only_listed(page)
            assert not missing, f"decision {n}: only in the list: {missing}"
            board_share = 1.0
        click_choice(page, rng, clicks, board_share)
        if on_decision is not None:
            on_decision(n + 1)
    raise AssertionError(f"the game was not over after {max_decisions} decisions")


def check_final_scores(page: Any, srv: Server, game_id: str) -> dict[str, Any]:
    """The final score table shows every category, the totals and the winners as the
    server has them; the status names the winners."""
    page.wait_for_selector("table#final-scores")
    final = srv.api(f"/api/games/{game_id}")  # a spectator's view of the same game
    assert final["over"]
    cats = [c for c in final["scores"][0] if c != "total"]
    assert cats, "the game has no score categories"
    table = page.locator("table#final-scores")
    rows = table.locator("tbody tr")
    labels = [t.strip() for t in rows.locator("th").all_inner_texts()]
    assert labels == [c.replace("_", " ") for c in cats] + ["total"], labels
    n = len(final["scores"])  # every scored party: the seats, and the solo rival
    assert [p["index"] for p in final["scored"]] == list(range(n))
    for i, cat in enumerate([*cats, "total"]):
        cells = [t.strip() for t in rows.nth(i).locator("td").all_inner_texts()]
        assert cells == [str(final["scores"][s][cat]) for s in range(n)], (cat, cells)
    assert table.locator("thead th").count() == n + 1
    heads = [t.strip() for t in table.locator("thead th").all_inner_texts()][1:]
    titles = [t or "" for t in table.locator("thead th").evaluate_all(
        "ths => ths.map(t => t.title)")][1:]
    for party, head, title in zip(final["scored"], heads, titles, strict=True):
        # every column is named: by its colour or its player's name, the colour in the title
        assert party["name"] in head or party["name"] in title, (head, title, party)
    winners = final["winners"]
    assert winners, "a finished game has at least one winner"
    total = rows.nth(len(cats))
    marked = [i for i in range(n)
              if "winner" in (total.locator("td").nth(i).get_attribute("class") or "")]
    assert marked == winners, (marked, winners)
    status = page.inner_text("#status")
    assert "Game over" in status
    for w in winners:  # by its colour or its name ("Tokugawa", the rival, capitalised)
        assert final["scored"][w]["name"].lower() in status.lower(), (status, winners)
    assert not page.locator("#undo").is_visible()
    assert page.locator("button.action").count() == 0
    assert page.inner_text("#actions-title").strip() == "Game over"
    # the table fits its panel: no column is cut off
    assert page.evaluate("(b => b.scrollWidth <= b.clientWidth + 1)("
                         "document.getElementById('scores'))"), "the score table overflows"
    assert page.locator("#record-link").is_visible()
    return final


def game_id_of(url: str) -> str:
    """The game id in a /play/<id>?token=… link."""
    m = re.search(r"/play/([^/?#]+)", url)
    assert m, url
    return m.group(1)


# --------------------------------------------------------------------------- the lobby

@dataclass
class Created:
    """A game created in the lobby: its id, invite links by seat, the spectator link."""

    game_id: str
    invites: dict[int, str]
    spectator: str


def create_in_lobby(page: Any, srv: Server, game: str, seats: list[str], seed: int | None,
                    checks: dict[str, bool] | None = None) -> Created:
    """Fill the lobby's form (game, players, one kind per seat, options, seed — only for
    a practice game: with several human seats the server draws it), submit it and read
    the invite links it shows (with one human seat the lobby goes straight to it: its
    link is the page's address)."""
    page.goto(srv.url + "/")
    page.wait_for_selector(f"#game-select option[value='{game}']", state="attached")
    page.select_option("#game-select", game)
    page.select_option("#players-select", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    assert page.locator("#seats select").count() == len(seats)
    for name, on in (checks or {}).items():
        page.locator(f"#opt-{name}").set_checked(on)
    if seed is not None:
        page.fill("#seed-input", str(seed))
    page.click("#create-button")
    humans = [i for i, k in enumerate(seats) if k == "human"]
    if len(humans) == 1:  # only this player's seat is human: the lobby goes straight to it
        page.wait_for_url(re.compile(r"/play/[^/?#]+\?token="))
        gid = game_id_of(page.url)
        return Created(gid, {humans[0]: page.url}, f"{srv.url}/play/{gid}")
    page.wait_for_selector("#created:not([hidden]) #spectator-link[href^='/play/']")
    assert page.inner_text("#create-error").strip() == ""
    links = page.locator("#invite-links a.invite[data-seat]")
    invites = {int(a.get_attribute("data-seat")): srv.url + a.get_attribute("href")
               for a in links.all()}
    assert sorted(invites) == humans, invites
    spectator = srv.url + page.get_attribute("#spectator-link", "href")
    gid = game_id_of(spectator)
    assert all(game_id_of(u) == gid for u in invites.values())
    # the lobby remembers the new game under "my games"
    page.wait_for_selector(f"#my-games-list li.my-game[data-game-id='{gid}']")
    return Created(gid, invites, spectator)


# --------------------------------------------------------------------------- positions

def drive(srv: Server, game_id: str, tokens: dict[int, str],
          until: Callable[[dict[str, Any]], bool], rng: random.Random,
          prefer: tuple[str, ...] = (), max_moves: int = 1500) -> dict[str, Any]:
    """Play the human seats (`tokens`: seat -> token) through the API until `until` holds
    for the payload of the seat to decide (a spectator's when that seat is not played
    here), and return that payload. Each move is the first
    legal notation starting with one of `prefer` (in that order), else a random legal move
    (seal exchanges only when nothing else is legal); bots move by themselves."""
    deadline = time.monotonic() + 120
    moves = 0
    while moves < max_moves and time.monotonic() < deadline:
        public = srv.api(f"/api/games/{game_id}")
        if public["over"] and until(public):  # the position sought is the end
            return dict(public)
        assert not public["over"], "the game ended before the position was reached"
        seat = public["to_move"]
        if seat not in tokens:   # a seat this drive does not play: a bot thinking, say
            if until(public):
                return dict(public)
            time.sleep(0.05)
            continue
        p = srv.api(f"/api/games/{game_id}?token={tokens[seat]}")
        if until(p):
            return dict(p)
        legal = p["legal"]
        pick = next((a for pre in prefer for a in legal if a["notation"].startswith(pre)),
                    None)
        if pick is None:
            plain = [a for a in legal if not a["notation"].startswith("exchange")]
            pick = rng.choice(plain or legal)
        srv.api(f"/api/games/{game_id}/moves",
                {"token": tokens[seat], "action": pick["id"], "version": p["version"]})
        moves += 1
    raise AssertionError(f"the position was not reached in {moves} moves")


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    """seat -> token of a created game's human seats."""
    return {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}


def legal_ids(page: Any) -> list[int]:
    """The ids of the legal actions the page lists."""
    return [int(x) for x in page.locator("#actions button.action").evaluate_all(
        "bs => bs.map(b => b.dataset.actionId)")]


def board_target(page: Any, action_id: int) -> Any:
    """The board element that plays this action."""
    return page.locator(f"#board .legal[data-action-id='{action_id}']").first


def tap_board(page: Any, target: Any) -> None:
    """Tap a board element where a finger would: a visible point of it."""
    x, y = board_point(target, "tap")
    page.touchscreen.tap(x, y)
