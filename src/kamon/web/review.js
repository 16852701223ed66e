// The review of a player's own decisions in a finished game, as chess sites give one:
// each decision beside the bot's choice with the points it cost, the three biggest
// mistakes (each a link to that moment of the replay, and marked on the replay's
// timeline) and a line per round. The server computes it once, in the background, from
// the seat's own view (POST then GET /api/games/<id>/review); this module asks for it,
// shows its progress and draws it. Used by the game-over panel (endgame.js) and the
// replay (replay.js), only for a seat's own link.
import { api, el } from "./api.js";

const POLL_MS = 1500;

/** "4.2 points" (one decimal, "1 point"). */
function pts(x) {
  const v = Math.round(x * 10) / 10;
  return `${v} point${v === 1 ? "" : "s"}`;
}

/** A decision of the review in words: what was played and what the bot would play. */
function decisionWords(d) {
  const played = d.chosen_words || d.chosen;
  const bot = d.bot_words || d.bot;
  return `decision ${d.index + 1}${d.round ? ` (round ${d.round})` : ""}: you chose `
    + `${played}; the bot would have chosen ${bot}`;
}

/**
 * The review panel of a seat: a button that asks for the review, its progress, and the
 * review once done.
 * @param {object} o
 * @param {string} o.gameId  the finished game
 * @param {string} o.token   the seat's token
 * @param {(index: number) => string|null} [o.href]  a link to a decision of the record
 * @param {(index: number) => void} [o.onJump]  what a mistake's link does instead
 * @param {(review: object) => void} [o.onReview]  called once the review is drawn
 */
export function reviewPanel({ gameId, token, href, onJump, onReview }) {
  const status = el("p", { class: "review-status", id: "review-status", role: "status",
                           "aria-live": "polite" });
  const body = el("div", { class: "review-body", id: "review-body" });
  const button = el("button", { type: "button", id: "review-button", class: "next-step",
                                text: "Review my decisions" });
  const box = el("section", { class: "panel review", id: "review-panel" },
    el("h2", { text: "Your review" }),
    el("p", { class: "muted", text: "Each of your decisions beside the bot's choice, with "
      + "the points it cost by the bot's search from what you could see then." }),
    button, status, body);
  const url = `/api/games/${encodeURIComponent(gameId)}/review`;
  let polling = false;

  function show(answer) {
    if (answer.status === "running") {
      button.hidden = true;
      status.textContent = `Reviewing your decisions: ${answer.done} of ${answer.total}…`
        + " (it runs after the bots of games being played)";
      poll();
    } else if (answer.status === "done") {
      button.hidden = true;
      status.textContent = "";
      draw(answer.review);
    } else if (answer.status === "failed") {
      button.hidden = false;
      status.textContent = answer.error || "The review could not be computed.";
    } else {
      button.hidden = false;
    }
  }

  function poll() {
    if (polling) return;
    polling = true;
    setTimeout(async () => {
      polling = false;
      try { show(await api(`${url}?token=${encodeURIComponent(token)}`)); } catch (e) {
        status.textContent = e.message;
        poll();
      }
    }, POLL_MS);
  }

  function link(index) {
    const text = "see it in the replay";
    if (onJump) {
      return el("a", { href: "#", class: "review-jump", "data-index": String(index), text,
                       onclick: e => { e.preventDefault(); onJump(index); } });
    }
    const to = href ? href(index) : null;
    return to ? el("a", { href: to, class: "review-jump", "data-index": String(index), text })
      : "";
  }

  function draw(review) {
    const byIndex = new Map(review.decisions.map(d => [d.index, d]));
    const mistakes = review.mistakes.map(i => byIndex.get(i)).filter(Boolean);
    const summary = el("p", { class: "review-summary", id: "review-summary", text:
      `${review.decisions.length} decisions reviewed: about ${pts(review.total_cost)} lost`
      + (mistakes.length ? `; your ${mistakes.length === 1 ? "biggest mistake" :
        `${mistakes.length} biggest mistakes`}:` : ", and no mistake worth a point.") });
    const list = el("ol", { class: "review-mistakes", id: "review-mistakes" },
      ...mistakes.map(d => el("li", { "data-index": String(d.index) },
        `${decisionWords(d)} — about ${pts(d.cost)} `, link(d.index))));
    const rounds = el("ul", { class: "review-rounds", id: "review-rounds" },
      ...review.rounds.map(r => el("li", { text: `Round ${r.round}: ${r.text}` })));
    const rows = review.decisions.map(d => el("tr", {
      class: d.mistake_rank ? "mistake" : d.cost >= 1 ? "costly" : "" },
      el("td", { text: String(d.index + 1) }), el("td", { text: d.decision }),
      el("td", { text: d.chosen_words || d.chosen }),
      el("td", { text: d.bot === d.chosen ? "the same" : (d.bot_words || d.bot) }),
      el("td", { text: d.cost ? pts(d.cost) : "" })));
    const table = el("details", { class: "review-all" },
      el("summary", { text: "Every decision" }),
      el("table", { class: "review-table" },
        el("thead", {}, el("tr", {}, ...["#", "Decision", "You", "The bot", "Cost"]
          .map(h => el("th", { text: h })))), el("tbody", {}, ...rows)));
    body.replaceChildren(summary, list, rounds, table);
    box.dataset.ready = "true";
    if (onReview) onReview(review);
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "Asking for the review…";
    try { show(await api(url, { token })); } catch (e) {
      status.textContent = e.message;
      button.hidden = false;
    }
    button.disabled = false;
  });
  api(`${url}?token=${encodeURIComponent(token)}`).then(show).catch(() => {});
  return box;
}
