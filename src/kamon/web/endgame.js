// The end of a game on the play page: a Replay link, a Rematch button for the seats, and
// the rematch's join link, shown as soon as any player of the table makes it (the server
// tells every socket of the finished game: {"type": "rematch", "id": ...}). The seat's
// own token carries over to the rematch, so its link is the new game with that token.
import { api, el } from "./api.js";

let gameId = null;
let token = null;
let asked = false;  // the server was asked whether a rematch exists

/** The panel under the scores, made once. */
function panel() {
  let box = document.getElementById("endgame");
  if (box) return box;
  box = el("div", { class: "endgame", id: "endgame", hidden: true },
    el("a", { id: "replay-link", class: "replay-link", href: "#", text: "Replay this game" }),
    el("button", { type: "button", id: "rematch-button", class: "rematch-button",
                   text: "Rematch", onclick: askRematch }),
    el("p", { id: "rematch-offer", class: "rematch-offer", hidden: true }));
  const host = document.getElementById("scores-panel");
  (host || document.body).append(box);
  return box;
}

/** Show the rematch's join link (the new game with this seat's token). */
export function rematchOffered(id) {
  panel();
  const offer = document.getElementById("rematch-offer");
  const href = `/play/${encodeURIComponent(id)}` + (token ? `?token=${encodeURIComponent(token)}` : "");
  offer.replaceChildren("Rematch created: ", el("a", { id: "rematch-link", href,
    "data-game-id": id, text: token ? "join it (same seat, new deal)" : "watch it" }));
  offer.hidden = false;
  document.getElementById("rematch-button").hidden = true;
}

/** Ask the server for the rematch (made now, or the one another player made). */
async function askRematch() {
  const button = document.getElementById("rematch-button");
  button.disabled = true;
  const error = document.getElementById("error");
  try {
    const made = await api(`/api/games/${encodeURIComponent(gameId)}/rematch`, { token });
    rematchOffered(made.id);
  } catch (e) {
    if (error) error.textContent = e.message;
  } finally { button.disabled = false; }
}

/** After every payload: at the end of the game, the Replay link and the Rematch button
 *  (for a seat), and the rematch already made, if any. */
export function showEndgame(payload, id, seatToken) {
  gameId = id;
  token = payload.you !== null ? seatToken : null;
  const box = panel();
  box.hidden = !payload.over;
  if (!payload.over) return;
  document.getElementById("replay-link").href = `/replay/${encodeURIComponent(id)}`;
  const button = document.getElementById("rematch-button");
  if (!document.getElementById("rematch-link")) button.hidden = token === null;
  if (!asked) {
    asked = true;
    api(`/api/games/${encodeURIComponent(id)}/rematch`).then(r => {
      if (r && r.rematch) rematchOffered(r.rematch.id);
    }).catch(() => { asked = false; });
  }
}
