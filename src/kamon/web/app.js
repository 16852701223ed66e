// The play page: the board of one game, its choices, live updates, undo, log and scores;
// around it the touch selection (interact.js), bringing the decision into view
// (follow.js), the your-turn alert (alert.js) and the help panel (help.js).
import { turnAlert, setupAlerts } from "./alert.js";
import { api, ApiError, el, heldInvite, rememberGame } from "./api.js";
import { gameStats, rematchOffered, showEndgame } from "./endgame.js";
import { follow, toTop } from "./follow.js";
import { setupHelp } from "./help.js";
import { Chooser, choiceWords, isSkip, touching } from "./interact.js";
import {
  cap, decisionOf, keepName, namedByPlayer, namesDiffer, partyName as nameOfParty,
  seatLabel as nameLabel, seatName, seatWho, storedName, withNames,
} from "./names.js";
import { markRecent, markRecentLog } from "./recent.js";
import { logFilter } from "./stats.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const token = new URLSearchParams(location.search).get("token");

let payload = null;      // the latest viewer payload
let renderer = null;     // the game's board module
let data = { components: {} };  // words for every component (GET /api/data/<game>)
let busy = false;        // a move is on its way
let socket = null;
let retry = 500;
let down = false;        // the connection is known to be down (the dot is red)
let errorKind = null;    // what the message beside the choices is about ("connection": cleared on recovery)

const $ = id => document.getElementById(id);
const chooser = new Chooser(id => act(id));

/** Show a refusal beside the choices — the list's panel and the phone's decision bar —
 *  where the player is looking (or clear it). `kind` "connection": the message goes once
 *  the connection is back. */
function showError(message, kind = null) {
  for (const id of ["choice-error", "dock-error"]) {
    const box = $(id);
    if (box) box.textContent = message || "";
  }
  errorKind = message ? kind : null;
  dockHeight();
}

/** Send a write (a move or an undo) at the version on screen and show the answer;
 *  a refusal is shown, and a stale version (409) reloads the game. The write goes on
 *  the live socket when it is open (answered by the socket's next state), else it is
 *  POSTed; a socket that closes or stays silent before answering hands the write to a
 *  POST, which the server answers as the first time if it was already stored. */
async function write(path, body) {
  if (busy || !payload || !token) return;
  busy = true;
  showError("");
  document.body.classList.add("busy");
  $("undo").hidden = true;
  const version = payload.version;
  const post = () => api(`/api/games/${gameId}/${path}`, { ...body, token, version });
  try {
    const answer = down ? await post()
      : await onSocket(path === "moves" ? "move" : "undo", body, version, post);
    if (answer) show(answer);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) {
      showError("The game moved on before your choice arrived (a move in another tab, window "
        + "or by another player): here is the position now. Choose again.");
      await refresh().catch(() => {});
    } else if (e instanceof ApiError && e.status === 0) {
      showError("The server cannot be reached: your choice was not played. The page "
        + "reconnects by itself; choose again once the dot is green.", "connection");
      lost();
    } else {
      showError(e.message);
    }
  } finally {
    busy = false;
    document.body.classList.remove("busy");
    if (payload) $("undo").hidden = !undoUsable();
  }
}

const SOCKET_ANSWER_MS = 8000;  // a socket write unanswered this long is POSTed instead
let pending = null;  // the socket write waiting for its answer: {version, settle}

/** Send a write on the socket if it is open: resolves once a newer state has arrived
 *  (null: the socket showed it), rejects with the server's refusal; otherwise, or if the
 *  socket fails it, resolves with what `post` answers. */
function onSocket(type, body, version, post) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return post();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle("post"), SOCKET_ANSWER_MS);
    function settle(how, error) {
      if (pending === null || pending.settle !== settle) return;
      pending = null;
      clearTimeout(timer);
      if (how === "post") post().then(resolve, reject);
      else if (how === "refused") reject(error);
      else resolve(null);
    }
    pending = { version, settle };
    socket.send(JSON.stringify({ type, ...body, version }));
  });
}

/** A socket message that answers the pending socket write, if any. */
function answerPending(msg) {
  if (!pending) return;
  if (msg.type === "state" && msg.payload.version > pending.version) pending.settle("done");
  if (msg.type !== "refused" || msg.version !== pending.version) return;
  if (msg.status === 429) pending.settle("post");  // the POST waits as the server asks
  else pending.settle("refused", new ApiError(msg.status, msg.error));
}

/** Play an action (by id) as this seat. */
function act(actionId) { return write("moves", { action: actionId }); }

/** Take back this seat's last decision. */
function undo() { return write("undo", {}); }

/** Fetch the current payload. */
async function refresh() {
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  show(await api(`/api/games/${gameId}${q}`));
}

/** Seat label with its colour dot and its player's name (names.js; compact: for narrow
 *  tables). */
function seatLabel(seat, compact = false) {
  return nameLabel(payload, seat, compact);
}

/** Everyone with a score, seats first: the solo game's rival scores without a seat. */
function scoredParties() {
  return payload.scored || payload.seats.map((s, i) => ({ index: i, name: s.name, seat: i }));
}

/** The name of a scored party (a seat's player or colour, or "Tokugawa" for the rival). */
function partyName(index) {
  return nameOfParty(payload, index);
}

/** Column label of a scored party: a seat's label, or the rival's name and role. */
function partyLabel(index, compact = false) {
  const p = scoredParties()[index];
  if (p && p.seat === null) {
    return el("span", { class: "seat-label" }, el("span", { class: `seat-dot seat-${p.name}` }),
      ` ${cap(p.name)} (${p.kind})`);
  }
  return seatLabel(index, compact);
}

/** The line saying whose turn it is and what is being decided. */
function showStatus() {
  const st = $("status");
  st.replaceChildren();
  st.className = "status";
  if (payload.over) {
    const names = payload.winners.map(partyName).join(" and ");
    st.append(`Game over — ${names || "nobody"} win${payload.winners.length === 1 ? "s" : ""}.`);
    st.classList.add("over");
    return;
  }
  if (payload.to_move === payload.you) {
    st.classList.add("your-turn");
    st.append(el("strong", { text: "Your turn: " }), cap(decisionOf(payload, payload.you, true)));
  } else if (payload.to_move !== null) {
    st.append(seatLabel(payload.to_move), ` ${decisionOf(payload, payload.to_move)}`);
    if (payload.seats[payload.to_move].kind === "bot") st.classList.add("bot-turn");
  }
}

/** The plain list of every legal action (the fallback for every choice). */
function showActions() {
  const list = $("actions");
  list.replaceChildren();
  $("actions-title").textContent = payload.over ? "Game over"
    : payload.you === null ? "Spectating"
    : payload.legal.length ? `Your choices (${payload.legal.length})` : "Waiting";
  // a skip (forfeiting the rest of a choice) is never first: listed last, as secondary
  const ordered = [...payload.legal.filter(a => !isSkip(a)), ...payload.legal.filter(isSkip)];
  for (const a of ordered) {
    list.append(el("li", {}, el("button", {
      type: "button", class: isSkip(a) ? "action skip" : "action",
      "data-action-id": a.id, "data-notation": a.notation,
      title: `notation: ${a.notation}`, onclick: () => act(a.id),
    }, el("span", { class: "what choice-words", text: choiceWords(a) }))));
  }
  const usable = undoUsable();
  if (payload.over) {
    list.append(el("li", { class: "muted", text: "The result, the scores and what comes "
      + "next are at the top of the page." }));
  }
  if (!payload.legal.length && !payload.over) {
    list.append(el("li", { class: "muted", text: payload.you === null
      ? "You are watching this game."
      : usable ? "Not your decision now: you may still take back your last one."
      : "Not your decision now." }));
  }
  $("undo").hidden = !usable;
}

let dockOpen = true;     // the phone's decision bar shows its choices (reopened each decision)

/** The phone's docked decision bar (hidden by the stylesheet on wider screens): while this
 *  seat decides, the decision in words and its choices (the list's, words as labels, a
 *  skip last and secondary) at the bottom of the screen, collapsible to one line. */
function showDock(deciding) {
  const bar = $("decision-bar");
  const ordered = [...payload.legal.filter(a => !isSkip(a)), ...payload.legal.filter(isSkip)];
  if (!deciding || !ordered.length) {
    bar.hidden = true;
    document.body.classList.remove("has-dock");
    return;
  }
  dockOpen = true;  // a new position: open again
  // the status line at the top says what is decided; the bar only offers the choices
  $("dock-text").replaceChildren(el("strong", { text: "Your turn: " }),
    `${ordered.length} choice${ordered.length === 1 ? "" : "s"}`);
  $("dock-choices").replaceChildren(...ordered.map(a => el("li", {}, el("button", {
    type: "button", class: isSkip(a) ? "dock-choice skip" : "dock-choice",
    "data-action-id": a.id, title: `notation: ${a.notation}`, onclick: () => act(a.id),
  }, choiceWords(a)))));
  bar.hidden = false;
  $("dock-choices").scrollTop = 0;  // the first choice first (once the bar has a box)
  document.body.classList.add("has-dock");
  dockShape(ordered.length);
}

/** Open or fold the decision bar (the toggle says what it will do). */
function dockShape(count = $("dock-choices").children.length) {
  const bar = $("decision-bar");
  bar.classList.toggle("folded", !dockOpen);
  $("dock-toggle").textContent = dockOpen ? "Hide" : `Choices (${count})`;
  $("dock-toggle").setAttribute("aria-expanded", String(dockOpen));
  dockHeight();
}

/** The page leaves room under the board for the bar (its height in --dock-h). */
function dockHeight() {
  const bar = $("decision-bar");
  const h = bar.hidden ? 0 : Math.ceil(bar.getBoundingClientRect().height);
  document.documentElement.style.setProperty("--dock-h", `${h}px`);
}

/** Whether this seat may take back its last decision now (the server says so, and no
 *  write of this page is on its way). */
function undoUsable() {
  return Boolean(payload && payload.you !== null && !payload.over && payload.can_undo
                 && !busy);
}

/** A score column's head, short enough for four columns in the side panel: the colour's
 *  dot and the player's name, "you", a bot's level ("Random": the dot shows its colour)
 *  or the colour of an unnamed seat; the title says the rest. */
function scoreHead(p) {
  if (p.seat === null || p.seat === undefined) return partyLabel(p.index, true);
  const s = payload.seats[p.seat];
  const you = p.seat === payload.you;
  const words = namedByPlayer(payload, p.seat) ? s.player + (you ? " (you)" : "")
    : you ? "you" : s.kind === "bot" && s.level ? cap(s.level) : p.name;
  // bots of one level would read alike ("Normal | Normal"): their colour under the level
  const colour = s.kind === "bot" || namedByPlayer(payload, p.seat)
    ? [el("small", { class: "score-colour", text: p.name })] : [];
  return el("span", { class: "seat-label" }, el("span", { class: `seat-dot seat-${p.name}` }),
    el("span", { class: "score-name", text: ` ${words}` }), ...colour);
}

/** Scores: a running total, or the final breakdown as a table. */
function showScores() {
  const box = $("scores");
  box.replaceChildren();
  $("scores-title").textContent = payload.over ? "Final scores" : "Scores";
  const cats = Object.keys(payload.scores[0] || {}).filter(c => c !== "total");
  const table = el("table", { class: "scores", id: payload.over ? "final-scores" : null });
  const head = el("tr", {}, el("th", { text: "" }));
  for (const p of scoredParties()) {
    // the title: the name, then the colour and who sits there ("Alice: blue (human)")
    let title = `${p.name} (${p.kind})`;
    if (p.seat !== null && p.seat !== undefined) {
      const name = seatName(payload, p.seat);
      const colour = `${p.name} (${seatWho(payload, p.seat)})`;
      title = name === p.name ? colour : `${name}: ${colour}`;
    }
    head.append(el("th", { title }, scoreHead(p)));
  }
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const rows = payload.over ? [...cats, "total"] : ["total"];
  for (const c of rows) {
    const tr = el("tr", { class: c === "total" ? "total" : "" },
      el("th", { text: c.replaceAll("_", " ") }));
    payload.scores.forEach((sc, i) => tr.append(el("td", {
      class: payload.winners.includes(i) && c === "total" ? "winner" : "", text: sc[c] })));
    body.append(tr);
  }
  table.append(body);
  box.append(table);
  $("record-link").hidden = !payload.over;
  $("record-a").href = `/api/games/${gameId}/record`;
}

/** The log, newest last, scrolled to the end; each line with its number (any width). */
function showLog() {
  const log = $("log");
  const lines = payload.log;
  log.classList.toggle("wide-numbers", lines.length >= 100);
  const items = lines.map((line, i) => el("li", { "data-line": i },
    el("span", { class: "log-n", text: String(i + 1) }),
    el("span", { class: "log-t", text: withNames(payload, line) })));
  markRecentLog(items, payload);
  log.replaceChildren(...items);
  if (payload.over && gameStats()) logFilter($("log-filter"), log, gameStats(), payload);
  log.scrollTop = log.scrollHeight;
}

/** Explanations: whatever is hovered or tapped on the board says what it is (a tap on a
 *  phone also says it in the bar at the bottom, where a choice can be confirmed). */
function explainFrom(event) {
  const target = event.target.closest?.("[data-explain]");
  if (!target) return;
  const words = target.getAttribute("data-explain");
  $("explain").textContent = words;
  if (event.type === "click" && touching() && target.closest("#board")
      && !target.closest(".legal")) {
    chooser.info(words);
  }
}

/** Draw the board with the game's module, or say why it cannot be drawn. */
function showBoard() {
  const root = $("board");
  if (!renderer) { root.textContent = "(no board drawing for this game)"; return; }
  const legalById = new Map(payload.legal.map(a => [a.id, a]));
  const bind = (node, action) => chooser.bind(node, action);
  try {
    renderer.render(root, payload, { data, act, legalById, bind });
    markRecent(root, payload, renderer);
  } catch (e) {
    console.error(e);
    root.replaceChildren(el("p", { class: "error",
      text: `The board could not be drawn (${e.message}); the choices on the right work.` }));
  }
}

/** Show a payload unless the one on screen is as new (`redraw`: draw it again, once the
 *  board's code has loaded): a version's payload never changes for a seat, and drawing it
 *  again (the answer to a move and its socket message, the page's first read and the
 *  socket's first message) would replace the board under a finger or a pointer. */
function show(next, redraw = false) {
  const renamed = payload && next.version === payload.version && namesDiffer(payload, next);
  if (payload && !redraw && !renamed && next.version <= payload.version) return;
  const ended = Boolean(payload && !payload.over && next.over);
  payload = next;
  // for tests and tools: the version on screen and whether the game is over
  document.body.dataset.version = String(payload.version);
  document.body.dataset.over = String(payload.over);
  const deciding = !payload.over && payload.you !== null && payload.to_move === payload.you;
  turnAlert(deciding, whoseTurn(), payload.title, withNames(payload, payload.decision));
  $("title").textContent = payload.title;
  $("identity").replaceChildren(payload.you === null ? "spectator" : seatLabel(payload.you));
  showStatus();
  document.documentElement.style.setProperty("--status-h",
    `${Math.ceil($("status").getBoundingClientRect().height)}px`);
  showActions();
  showBoard();
  chooser.redrawn();
  showScores();
  showLog();
  showEndgame(payload, gameId, token);
  showExplain();
  showDock(deciding);
  showNameForm();
  if (deciding) $("actions").closest(".side").scrollTop = 0;
  follow(deciding);
  // the end of the game comes to the player: the result, the scores and the next steps
  // are at the top of the page, under the status line
  if (ended) toTop();
  // for the guided first game (tutorial.js): the position just drawn
  document.dispatchEvent(new CustomEvent("kamon:shown", { detail: payload }));
}

/** Whose turn it is, for the tab's title: "Red's turn", or "Game over". */
function whoseTurn() {
  if (payload.over) return "Game over";
  if (payload.to_move === payload.you && payload.you !== null) return "Your turn";
  if (payload.to_move === null || payload.to_move === undefined) return "Waiting";
  return `${cap(seatName(payload, payload.to_move))}'s turn`;
}

/** The About panel after a new position: what is being decided now (or the result), until
 *  something on the board is hovered or tapped. */
function showExplain() {
  let words;
  if (payload.over) {
    const names = payload.winners.map(partyName).join(" and ");
    words = `The game is over: ${names || "nobody"} win${payload.winners.length === 1 ? "s" : ""}`
      + " (the scores are below). Hover over the board to look at the final position.";
  } else if (payload.to_move === payload.you && payload.you !== null) {
    words = `Your decision: ${withNames(payload, payload.decision)}. Hover over or tap a`
      + " highlighted choice to see what it does.";
  } else if (payload.to_move !== null && payload.to_move !== undefined) {
    words = `${seatName(payload, payload.to_move)} ${decisionOf(payload, payload.to_move)}.`
      + " Hover over or tap something on the board to see what it is.";
  } else {
    words = "Hover over or tap something on the board.";
  }
  $("explain").textContent = words;
}

// The heartbeat: a ping every PING_MS on the open socket; no answer (a pong, or any
// message) within PONG_MS means the connection is down, even if the socket still looks
// open (a network that drops packets closes nothing): the dot turns red with
// "reconnecting…", the socket is dropped and a new one tried every RETRY_MS (then less
// often); once one opens the page reads the game again and clears what it said about the
// connection. The server answers a ping with a pong (and, on PostgreSQL, re-reads the game).
const PING_MS = 2000;
const PONG_MS = 2000;
const RETRY_MS = 1000;
let pingSent = 0;        // when the unanswered ping was sent (0: none is waiting)
let lastPing = 0;
let downSince = 0;

/** The dot and its words: live, or reconnecting. */
function setConnection(live) {
  const dot = $("connection");
  dot.className = live ? "connection live" : "connection lost";
  dot.textContent = live ? "●" : "● reconnecting…";
  dot.title = live ? "live updates" : "the connection to the server is down: reconnecting";
}

/** The connection is down: say so, drop the socket, and try again soon. */
function lost() {
  if (!down) { down = true; downSince = performance.now(); }
  setConnection(false);
  const old = socket;
  socket = null;
  pingSent = 0;
  if (old) {
    old.onopen = old.onmessage = old.onclose = old.onerror = null;
    try { old.close(); } catch (e) { /* already closed */ }
    if (pending) pending.settle("post");
    reconnectSoon();
  }
}

let reconnectTimer = null;
/** Open a new socket after a short wait (longer once it has been down a while). */
function reconnectSoon(wait = null) {
  if (reconnectTimer) return;
  const long = performance.now() - downSince > 30000;
  reconnectTimer = setTimeout(() => { reconnectTimer = null; connect(); },
                              wait ?? (long ? Math.min(retry, 8000) : RETRY_MS));
}

/** Every quarter second: send the ping that is due, and notice a ping left unanswered. */
function beat() {
  const now = performance.now();
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (pingSent && now - pingSent > PONG_MS) { lost(); return; }
  if (!pingSent && now - lastPing >= PING_MS) {
    try { socket.send(JSON.stringify({ type: "ping" })); } catch (e) { lost(); return; }
    pingSent = lastPing = now;
  }
}

/** Back after being down: read the game again (a move may have been missed) and clear
 *  what was said about the connection. */
async function recovered() {
  const was = down;
  down = false;
  setConnection(true);
  if (errorKind === "connection") showError("");
  if (was) { try { await refresh(); } catch (e) { /* the socket's state comes anyway */ } }
}

/** Live updates: the server sends the payload after every change; reconnect on loss. */
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws${q}`);
  socket = ws;
  ws.onopen = () => { retry = 500; pingSent = 0; lastPing = performance.now(); recovered(); };
  ws.onmessage = ev => {
    pingSent = 0;  // anything heard answers the ping
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      // a gap (versions skipped) is fine: each state is whole; an older one is ignored
      show(msg.payload);
    } else if (msg.type === "error") showError(msg.error);
    else if (msg.type === "rematch") rematchOffered(msg.id);
    answerPending(msg);
  };
  ws.onclose = ev => {
    if (socket !== ws) return;
    socket = null;
    if (pending) pending.settle("post");  // stored or not, the POST settles it
    if (ev.code >= 4400 && ev.code < 4500) { setConnection(false); return; }  // refused
    if (!down) { down = true; downSince = performance.now(); }
    setConnection(false);
    retry = Math.min(retry * 2, 8000);
    reconnectSoon();
  };
}

/** The game cannot be shown: say why in words, and lead back to the lobby (a seat link
 *  that is not valid may still watch the game). */
function showPageError(e) {
  const status = e instanceof ApiError ? e.status : 0;
  let title, detail;
  if (status === 404 || status === 400) {
    title = "This game does not exist";
    detail = "There is no game with this id on this server: the link may be mistyped or cut"
      + " short.";
  } else if (status === 403) {
    title = "This seat link is not valid";
    detail = "The token in this link is not a seat of this game: check that the whole link"
      + " was copied, or ask the player who made the game for your link.";
  } else {
    title = "This game could not be loaded";
    detail = `The server said: ${e.message}`;
  }
  document.title = `${title} — kamon`;
  document.body.dataset.error = String(status);
  $("status").textContent = title;
  $("status").className = "status failed";
  $("page-error-title").textContent = title;
  $("page-error-detail").textContent = detail;
  $("page-error-watch").hidden = status !== 403;
  $("page-error-watch-a").href = `/play/${encodeURIComponent(gameId)}`;
  document.querySelector(".play-main").hidden = true;
  $("page-error").hidden = false;
  $("connection").hidden = true;
}

/** Load the game's board stylesheet (a same-origin file from the game's own folder: the
 *  page's CSP allows no other); resolves once it applies (or is missing), so the board is
 *  first laid out with it. */
function gameStyle(game) {
  const link = el("link", { rel: "stylesheet", href: `/static/games/${game}/board.css` });
  const loaded = new Promise(resolve => { link.onload = resolve; link.onerror = resolve; });
  document.head.append(link);
  return loaded;
}

/** Start the page: the game as the token's seat sees it, its board, then live updates. */
async function main() {
  document.addEventListener("mouseover", explainFrom);
  document.addEventListener("click", explainFrom);
  $("undo").addEventListener("click", undo);
  $("name-form").addEventListener("submit", nameFromForm);
  $("dock-toggle").addEventListener("click", () => { dockOpen = !dockOpen; dockShape(); });
  new ResizeObserver(dockHeight).observe($("decision-bar"));
  setupAlerts();
  try { await refresh(); } catch (e) {
    showPageError(e);
    return;
  }
  const styled = gameStyle(payload.game);
  setupHelp(payload.game, () => payload);
  // the game's board (its folder's board.js); a game without one shows its choices and log
  try { renderer = await import(`/static/games/${payload.game}/board.js`); } catch (e) {
    console.info(`no board for ${payload.game}: the choices and the log`);
  }
  try { data = await api(`/api/data/${payload.game}`); } catch (e) { /* words only */ }
  await styled;
  // a seat this browser was given (its own, an invite link opened here) is remembered as
  // its seat; the link of a seat it made for a friend is not (and takes no name from it)
  heldForFriend = Boolean(token && heldInvite(token));
  if (token && payload.you !== null && !heldForFriend) {
    rememberGame({ id: gameId, game: payload.game, title: payload.title, seat: payload.you,
                   name: payload.seats[payload.you].name, token });
  }
  show(payload, true);
  connect();
  setInterval(beat, 250);
  addEventListener("offline", lost);
  addEventListener("online", () => { if (down && !socket) reconnectSoon(0); });
  watchTabs();
  claimName();
}

let heldForFriend = false;  // this page is a seat's link this browser holds for a friend

/** Whether this page plays a seat this browser was given (not a friend's link). */
function ownSeat() {
  return Boolean(token && payload && payload.you !== null && !heldForFriend);
}

/** Under the status line: a friend's link opened here is said to be theirs; a seat of
 *  this browser without a name asks for one (an invite link opened by someone who never
 *  saw the lobby). */
function showNameForm() {
  const form = $("name-form");
  const note = $("friend-note");
  if (!form || !note || !payload) return;
  note.hidden = !(heldForFriend && payload.you !== null);
  if (!note.hidden) {
    note.textContent = `This is ${payload.seats[payload.you].name}'s invite link, which you `
      + "made for a friend: send it to them. Opened here, the seat is not yours and takes "
      + "no name from this browser.";
  }
  // (a table of several people: a game alone against bots needs no name)
  const s = payload.you !== null ? payload.seats[payload.you] : null;
  const people = payload.seats.filter(x => x.kind !== "bot").length;
  form.hidden = !(ownSeat() && s && !s.player && !storedName() && !payload.over && people > 1);
}

/** The name form: keep the name in this browser and give it to the seat. */
async function nameFromForm(event) {
  event.preventDefault();
  const input = $("name-input");
  const problem = keepName(input.value);
  $("name-error").textContent = problem || (input.value.trim() ? "" : "type your name");
  if (problem || !input.value.trim()) return;
  await claimName();
}

/** Other tabs of this seat: a tab that opens says hello; the ones open answer. Each then
 *  says that the seat is open twice (a choice in one shows in the other). */
function watchTabs() {
  if (!("BroadcastChannel" in window) || payload.you === null || !token) return;
  const channel = new BroadcastChannel(`kamon-seat:${gameId}:${payload.you}`);
  const note = () => {
    const box = $("tab-note");
    box.textContent = "This seat is also open in another tab or window: both show the same "
      + "game, and a choice made in one shows in the other.";
    box.hidden = false;
  };
  channel.onmessage = ev => {
    if (ev.data === "hello") { channel.postMessage("here"); note(); }
    if (ev.data === "here") note();
  };
  channel.postMessage("hello");
}

/** A seat taken without a name (through an invite link, or before its player typed one)
 *  takes the name this browser keeps, once; every page of the game then shows it. */
async function claimName() {
  const name = storedName();
  if (!ownSeat() || !name) return;
  if (payload.seats[payload.you].player) return;
  try {
    show(await api(`/api/games/${gameId}/name`, { token, name }));
  } catch (e) { console.warn(`the name was not given to the seat: ${e.message}`); }
}

main();
