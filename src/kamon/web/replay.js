// The replay page: a finished game (/replay/<id>) or an uploaded game record (/replay),
// one decision at a time. Each step is asked of the server (the position's payload, as
// the play page gets it, with the log lines that step added and the whole timeline) and
// drawn with the game's own board module; the scores and the log follow the step.
import { api, el } from "./api.js";
import { cap, decisionOf, partyName as nameOfParty, seatLabel, withNames } from "./names.js";
import { reviewPanel } from "./review.js";
import { logFilter, renderStats } from "./stats.js";

const parts = location.pathname.split("/").filter(Boolean);
const gameId = parts.length > 1 ? decodeURIComponent(parts[1]) : null;
const query = new URLSearchParams(location.search);
const token = query.get("token");  // a seat's own link: its review is shown beside
const firstStep = /^\d+$/.test(query.get("step") || "") ? Number(query.get("step")) : 0;
let reviewed = null;   // the seat's review, once drawn: its mistakes marked on the timeline

let answer = null;     // the server's answer for the step on screen
let upload = null;     // {text, index} of an uploaded record
let renderer = null;   // the board module of the game shown
let shownGame = null;  // which game's module and words are loaded
let data = { components: {} };
let pending = null;    // the step asked for last (a newer click wins)
let target = null;     // the step the controls are heading for (quick presses add up)
let statsShown = null; // the replay whose statistics are drawn

const $ = id => document.getElementById(id);

/** Show a refusal (or clear it). */
function showError(message) { $("replay-error").textContent = message || ""; }

/** The server's answer for one step. */
function fetchStep(step) {
  if (gameId) return api(`/api/games/${encodeURIComponent(gameId)}/replay?step=${step}`);
  return api("/api/replays", { ...upload, step });
}

/** Load the board module, stylesheet and component words of a game (once), from the
 *  game's own folder (/static/games/<game>/: a game without a board shows the log). */
async function prepare(game) {
  if (shownGame === game) return;
  shownGame = game;
  const link = el("link", { rel: "stylesheet", href: `/static/games/${game}/board.css` });
  const styled = new Promise(done => { link.onload = done; link.onerror = done; });
  document.head.append(link);
  try { renderer = await import(`/static/games/${game}/board.js`); } catch (e) {
    console.info(`no board for ${game}`);
  }
  try { data = await api(`/api/data/${game}`); } catch (e) { /* words only */ }
  await styled;
}

/** Go to a step (the latest request wins if several are on their way). */
async function go(step) {
  if (answer) step = Math.max(0, Math.min(answer.steps, step));
  pending = target = step;
  showError("");
  let next;
  try { next = await fetchStep(step); } catch (e) { showError(e.message); return false; }
  if (pending !== step) return false;
  await prepare(next.game);
  if (pending !== step) return false;
  show(next);
  return true;
}

/** A step relative to where the controls are heading (not only to the step on screen):
 *  thirty quick presses of → go thirty steps on. */
function by(delta) {
  if (!answer) return;
  go((target ?? answer.step) + delta);
}

/** Everyone with a score: the seats, and the solo rival. */
function parties(p) {
  return p.scored || p.seats.map((s, i) => ({ index: i, name: s.name, seat: i }));
}

/** The seat or party label with its colour dot. */
function partyLabel(p, party) {
  if (party.seat !== null && party.seat !== undefined) return seatLabel(p, party.seat, true);
  return el("span", { class: "seat-label" }, el("span", { class: `seat-dot seat-${party.name}` }),
    ` ${cap(party.name)} (${party.kind})`);
}

/** A party's name: its player's, a bot's level or its colour (names.js); the rival's. */
function partyName(p, index) {
  return nameOfParty(p, index);
}

/** The scores at this step: every category and the total, winners marked at the end. */
function showScores(p) {
  const cats = Object.keys(p.scores[0] || {}).filter(c => c !== "total");
  const head = el("tr", {}, el("th", { text: "" }));
  for (const party of parties(p)) head.append(el("th", {}, partyLabel(p, party)));
  const body = el("tbody");
  for (const c of [...cats, "total"]) {
    const tr = el("tr", { class: c === "total" ? "total" : "", "data-category": c },
      el("th", { text: c.replaceAll("_", " ") }));
    p.scores.forEach((sc, i) => tr.append(el("td", {
      class: p.over && c === "total" && p.winners.includes(i) ? "winner" : "",
      "data-party": i, text: sc[c] })));
    body.append(tr);
  }
  $("scores-title").textContent = p.over ? "Final scores" : "Scores at this step";
  $("scores").replaceChildren(el("table", { class: "scores", id: "replay-scores" },
    el("thead", {}, head), body));
}

/** The log up to this step, the lines the step added highlighted and brought into view. */
function showLog(a) {
  const log = $("log");
  const [from, to] = a.lines;
  log.classList.toggle("wide-numbers", a.payload.log.length >= 100);
  log.replaceChildren(...a.payload.log.map((line, i) => el("li", {
    class: i >= from && i < to ? "current" : "", title: "go to the decision that wrote this",
    "data-line": i, onclick: () => go(stepOfLine(a, i)) },
    el("span", { class: "log-n", text: String(i + 1) }),
    el("span", { class: "log-t", text: withNames(a.payload, line) }))));
  if (a.stats) logFilter($("log-filter"), log, a.stats, a.payload);
  const first = log.querySelector("li.current");
  if (first) log.scrollTop = first.offsetTop - log.clientHeight / 3;
  else log.scrollTop = log.scrollHeight;
}

/** The step that wrote log line i (the first step after which the log is longer). */
function stepOfLine(a, i) {
  const k = a.log_counts.findIndex(n => n > i);
  return k < 0 ? a.step : k;
}

/** The jump list: the setup, the start of each round, the end. */
function showRounds(a) {
  const sel = $("round-select");
  const want = [["0", "the setup"], ...a.rounds.filter(r => r.step > 0)
    .map(r => [String(r.step), `round ${r.round} (step ${r.step})`]), [String(a.steps), "the end"]];
  if (sel.options.length !== want.length) {
    sel.replaceChildren(el("option", { value: "", text: "—" }),
      ...want.map(([v, t]) => el("option", { value: v, text: t })));
  }
  sel.value = "";
}

/** What this step was, in words. */
function moveWords(a) {
  if (a.step === 0) return "The game as set up, before the first decision.";
  const m = a.moves[a.step - 1];
  const party = m.seat !== null && m.seat !== undefined ? nameOfParty(a.payload, m.seat) : null;
  const who = party ? `${party}: ` : m.name ? `${m.name}: ` : "";
  return withNames(a.payload, `${who}${m.text || m.notation}`);
}

/** Draw one step: the status, the board, the controls, the scores and the log. */
function show(a) {
  answer = a;
  const p = a.payload;
  document.body.dataset.step = String(a.step);
  document.body.dataset.steps = String(a.steps);
  document.body.dataset.round = String(p.view && p.view.round !== undefined ? p.view.round : "");
  $("title").textContent = `${a.title} — replay${a.source === "record" ? " of a record" : ""}`;
  const st = $("replay-status");
  st.className = "status" + (p.over ? " over" : "");
  st.textContent = p.over
    ? `Game over — ${p.winners.map(i => partyName(p, i)).join(" and ")} win${p.winners.length === 1 ? "s" : ""}.`
    : p.to_move !== null ? `${partyName(p, p.to_move)} ${decisionOf(p, p.to_move)}`
      : withNames(p, p.decision);
  $("replay-step").textContent = `Step ${a.step} of ${a.steps}`
    + (p.view && p.view.round !== undefined ? ` · round ${p.view.round}` : "");
  $("replay-move").textContent = moveWords(a);
  const slider = $("replay-slider");
  slider.max = String(a.steps);
  slider.value = String(a.step);
  markMistakes();
  $("replay-start").disabled = $("replay-back").disabled = a.step === 0;
  $("replay-end").disabled = $("replay-forward").disabled = a.step === a.steps;
  showRounds(a);
  const root = $("board");
  if (renderer) {
    try {
      renderer.render(root, p, { data, act: () => {}, legalById: new Map(), bind: () => false });
    } catch (e) {
      console.error(e);
      root.replaceChildren(el("p", { class: "error", text: `The board could not be drawn (${e.message}).` }));
    }
  }
  showScores(p);
  showLog(a);
  showStats(a);
  $("replay-main").hidden = false;
}

/** The review's three biggest mistakes as marks on the timeline (under the slider), each
 *  going to the position where that decision was made. */
function markMistakes() {
  const marks = $("review-marks");
  if (!marks || !answer || !reviewed) return;
  const steps = Math.max(1, answer.steps);
  const lanes = [];  // the last mark's place on each line: marks close together stack
  const buttons = reviewed.mistakes.map((index, rank) => ({ index, rank }))
    .sort((a, b) => a.index - b.index).map(({ index, rank }) => {
      const left = 100 * index / steps;
      let lane = lanes.findIndex(last => left - last >= 8);
      if (lane < 0) { lane = lanes.length; lanes.push(left); } else lanes[lane] = left;
      const mark = el("button", {
        type: "button", class: "review-mark", "data-index": String(index),
        "data-rank": String(rank + 1), title: `your mistake ${rank + 1}: decision ${index + 1}`,
        "aria-label": `go to your mistake ${rank + 1} (decision ${index + 1})`,
        text: String(rank + 1), onclick: () => go(index) });
      mark.style.left = `${left.toFixed(2)}%`;  // (the CSSOM: no style attribute)
      mark.style.top = `${lane * 1.7}rem`;
      return mark;
    });
  marks.style.height = `${Math.max(1, lanes.length) * 1.7}rem`;
  marks.replaceChildren(...buttons);
  marks.hidden = false;
}

/** The seat's review beside the replay (a seat's own link only). */
function showReview() {
  if (!gameId || !token || $("review-panel")) return;
  const slider = $("replay-slider");
  slider.after(el("div", { id: "review-marks", class: "review-marks", hidden: true }));
  const panel = reviewPanel({ gameId, token, onJump: index => go(index),
    onReview: review => { reviewed = review; markMistakes(); } });
  panel.classList.add("replay-review");  // under the board, the whole width (a long read)
  $("replay-stats").before(panel);
}

/** The game's statistics (the whole game's, the same at every step), drawn once. */
function showStats(a) {
  const box = $("replay-stats");
  if (!a.stats) { box.hidden = true; return; }
  if (statsShown !== a.stats) {
    statsShown = a.stats;
    renderStats($("stats"), a.stats, a.payload);
  }
  box.hidden = false;
}

/** Read the chosen record file and open it at its setup. */
async function openUpload(event) {
  event.preventDefault();
  const file = $("record-file").files[0];
  if (!file) { showError("choose a game record file first"); return; }
  const line = $("record-index").value.trim();
  let text;
  try { text = await file.text(); } catch (e) { showError(`cannot read the file: ${e.message}`); return; }
  upload = { text };
  if (line !== "") upload.index = Number(line);
  answer = null;
  target = null;
  if (!(await go(0))) { $("replay-main").hidden = true; $("replay-status").textContent = "No record open."; }
}

/** Start: a hosted game at its setup, or the upload form. */
async function main() {
  $("replay-start").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => by(-1));
  $("replay-forward").addEventListener("click", () => by(1));
  $("replay-end").addEventListener("click", () => answer && go(answer.steps));
  $("replay-slider").addEventListener("change", e => go(Number(e.target.value)));
  $("round-select").addEventListener("change", e => { if (e.target.value !== "") go(Number(e.target.value)); });
  document.addEventListener("keydown", e => {
    if (!answer || e.target.closest?.("input, select, textarea")) return;
    const delta = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (delta !== undefined) { e.preventDefault(); by(delta); return; }
    const to = { Home: 0, End: answer.steps }[e.key];
    if (to !== undefined) { e.preventDefault(); go(to); }
  });
  document.addEventListener("mouseover", e => {
    const t = e.target.closest?.("[data-explain]");
    if (t) $("explain").textContent = t.getAttribute("data-explain");
  });
  if (gameId) {
    if (!(await go(firstStep))) $("replay-status").textContent = "This game cannot be replayed.";
    else {
      $("replay-status").dataset.ready = "true";
      showReview();
    }
  } else {
    $("upload").hidden = false;
    $("replay-status").textContent = "Choose a game record to replay.";
    $("upload-form").addEventListener("submit", openUpload);
  }
}

main();
