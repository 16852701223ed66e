// The end of a game on the play page, at the top of the page under the status line (on
// every size: a phone's player sees it without scrolling when the game ends): the result
// (the winners and every clan's score), the next steps — Replay, Rematch (for a seat) and
// Back to the lobby — and the game's statistics (stats.js: the points through the game,
// what each player did; the log gets a filter by player), read from the finished game's
// replay, which the server computes from the record; and, for a seat, the review of its own
// decisions (review.js). A seat that asks for the rematch goes straight to its seat in it; every other
// page of the finished game is told at once (the server tells every socket of the finished
// game: {"type": "rematch", "id": ...}) and offers to accept it, which asks the server for
// this seat's own token in the rematch (each seat of a rematch has a new one, handed to
// the holder of the seat's token here) and takes the player to their seat there.
import { api, el } from "./api.js";
import { cap, points, seatText, storedName } from "./names.js";
import { reviewPanel } from "./review.js";
import { logFilter, renderStats } from "./stats.js";

let gameId = null;
let token = null;
let asked = false;  // the server was asked whether a rematch exists
let stats = null;   // the finished game's statistics, once read
let statsAsked = false;
let statsTries = 0;

const $ = id => document.getElementById(id);

/** The page of a game for a spectator (a seat's own link comes from the server). */
function playHref(id) {
  return `/play/${encodeURIComponent(id)}`;
}

/** The panel in the "Game over" box (under the choices), made once. */
function panel() {
  let box = $("endgame");
  if (box) return box;
  box = el("div", { class: "endgame panel", id: "endgame", hidden: true },
    el("h2", { class: "endgame-title", text: "Game over" }),
    el("p", { id: "result", class: "result" }),
    el("ol", { id: "result-scores", class: "result-scores" }),
    el("div", { class: "next-steps", id: "next-steps" },
      el("a", { id: "replay-link", class: "replay-link next-step", href: "#",
                text: "Replay this game" }),
      el("button", { type: "button", id: "rematch-button", class: "rematch-button next-step",
                     text: "Rematch", onclick: askRematch }),
      el("a", { id: "lobby-link", class: "lobby-link next-step", href: "/",
                text: "Back to the lobby" })),
    el("p", { id: "rematch-offer", class: "rematch-offer", hidden: true }),
    el("p", { id: "endgame-error", class: "error", role: "alert" }),
    el("details", { class: "stats", id: "stats-panel", open: true },
      el("summary", { text: "Statistics of the game" }),
      el("div", { id: "stats", class: "stats-body" }, "The statistics are loading…")));
  const host = $("endgame-top");
  (host || document.body).append(box);
  return box;
}

/** Offer the rematch: accepting it (a seat) goes to this seat in it; a spectator may
 *  watch it. */
export function rematchOffered(id) {
  panel();
  const offer = $("rematch-offer");
  offer.replaceChildren(token ? "A rematch is ready (same seats, new deal): "
                              : "A rematch is being played: ",
    el("a", { id: "rematch-link", class: "rematch-link", href: playHref(id),
              "data-game-id": id, text: token ? "accept it — go to your seat" : "watch it",
              onclick: token ? (e => { e.preventDefault(); askRematch(); }) : null }));
  offer.hidden = false;
  $("rematch-button").hidden = true;
}

/** Ask the server for the rematch (made now, or the one another player made) and go to
 *  this seat in it. */
async function askRematch() {
  const button = $("rematch-button");
  button.disabled = true;
  const error = $("endgame-error");
  try {
    const name = storedName();  // this seat's name in the rematch (it keeps its own if none)
    const made = await api(`/api/games/${encodeURIComponent(gameId)}/rematch`,
                           name ? { token, name } : { token });
    location.assign(made.link);  // this seat's own token in the rematch
  } catch (e) {
    if (error) error.textContent = e.message;
    button.disabled = false;
  }
}

/** Everyone with a score, seats first (the solo game's rival scores without a seat). */
function parties(payload) {
  return payload.scored || payload.seats.map((s, i) => ({ index: i, name: s.name, seat: i }));
}

/** A scored party in words: "Alice (red, you)", "blue (human)", "Hard bot (blue)",
 *  "tokugawa (rival)". */
function partyWords(payload, p) {
  if (p.seat === null || p.seat === undefined) return `${cap(p.name)}${p.kind ? ` (${p.kind})` : ""}`;
  return seatText(payload, p.seat);
}

/** The result: who won, with how many points, and every clan's total, best first. */
function showResult(payload) {
  const all = parties(payload);
  const total = i => (payload.scores[i] || {}).total;
  const winners = payload.winners.map(i => all[i]).filter(Boolean);
  const names = winners.map(p => partyWords(payload, p)).join(" and ");
  const best = winners.length ? total(winners[0].index) : null;
  const youWon = payload.you !== null && winners.some(p => p.seat === payload.you);
  $("result").textContent = !winners.length ? "The game is over."
    : `${youWon && winners.length === 1 ? "You win! " : ""}Winner${winners.length > 1 ? "s" : ""}: `
      + `${names}${best !== null && best !== undefined ? ` with ${points(best)}` : ""}.`;
  const list = $("result-scores");
  list.replaceChildren(...[...all].sort((a, b) => (total(b.index) ?? 0) - (total(a.index) ?? 0))
    .map(p => el("li", { class: payload.winners.includes(p.index) ? "winner" : "",
                         "data-party": p.name },
      el("span", { class: `seat-dot seat-${p.name}` }), ` ${partyWords(payload, p)}: `,
      el("strong", { text: `${total(p.index) ?? "–"}` }),
      ` point${total(p.index) === 1 ? "" : "s"}`)));
}

/** After every payload: at the end of the game, the result and the next steps, and the
 *  rematch already made, if any. */
export function showEndgame(payload, id, seatToken) {
  gameId = id;
  token = payload.you !== null ? seatToken : null;
  const box = panel();
  box.hidden = !payload.over;
  const top = $("endgame-top");
  if (top) top.hidden = !payload.over;
  if (!payload.over) return;
  showResult(payload);
  showStats(payload);
  if (token && !$("review-panel")) {  // the seat's own review, once asked for
    box.append(reviewPanel({ gameId: id, token, href: index =>
      `/replay/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}&step=${index}` }));
  }
  $("replay-link").href = `/replay/${encodeURIComponent(id)}`  // (a seat's: with its review)
    + (token ? `?token=${encodeURIComponent(token)}` : "");
  const button = $("rematch-button");
  if (!$("rematch-link")) button.hidden = token === null;
  if (!asked) {
    asked = true;
    api(`/api/games/${encodeURIComponent(id)}/rematch`).then(r => {
      if (r && r.rematch) rematchOffered(r.rematch.id);
    }).catch(() => { asked = false; });
  }
}

/** The statistics of the finished game, read once from its replay (the server computes
 *  them from the record); shown under the next steps, and the log gets its filter. */
function showStats(payload) {
  const box = $("stats");
  if (stats) {
    if (!box.dataset.ready) renderStats(box, stats, payload);
    logFilter($("log-filter"), $("log"), stats, payload);
    return;
  }
  if (statsAsked) return;
  statsAsked = true;
  api(`/api/games/${encodeURIComponent(gameId)}/replay`).then(r => {
    if (!r || !r.stats) { box.textContent = "No statistics for this game."; return; }
    stats = r.stats;
    renderStats(box, stats, payload);
    logFilter($("log-filter"), $("log"), stats, payload);
    document.body.dataset.stats = "ready";
  }).catch(e => {
    // (a busy server, the rate limit): asked again a little later, a few times
    box.textContent = `The statistics could not be read yet: ${e.message}`;
    if (++statsTries < 6) setTimeout(() => { statsAsked = false; showStats(payload); }, 2000);
  });
}

/** The statistics read so far (the log filter is drawn again with the log). */
export function gameStats() {
  return stats;
}
