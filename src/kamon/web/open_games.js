// The lobby's list of open games: public games waiting for players, each with its game,
// mode, seats (the free ones marked) and when it was created; Join takes a free seat and
// opens it (the seat's invite link is kept under My games on the play page).
import { api, el } from "./api.js";
import { storedName } from "./names.js";

const REFRESH_MS = 5000;
const $ = id => document.getElementById(id);

/** The seats in words: "blue human, green free, red bot easy". */
function seatWords(g) {
  return g.seats.map(s => `${s.name} ${s.free ? "free" : s.kind === "bot" ? `bot ${s.level}`
    : s.player ? `human (${s.player})` : "human"}`)
    .join(", ");
}

/** Take a free seat of a game and go to it. */
async function join(id) {
  $("open-error").textContent = "";
  let joined;
  try { joined = await api(`/api/open/${encodeURIComponent(id)}/join`,
                                   storedName() ? { name: storedName() } : {}); } catch (e) {
    $("open-error").textContent = e.message;
    refresh();
    return;
  }
  location.href = joined.link;
}

/** Draw the list of open games. */
async function refresh() {
  const list = $("open-games-list");
  let games;
  try { games = (await api("/api/open")).games; } catch (e) {
    list.replaceChildren(el("li", { class: "muted", text: e.message }));
    return;
  }
  list.replaceChildren();
  if (!games.length) {
    list.append(el("li", { class: "muted", text: "No open game right now: create one with Public ticked." }));
  }
  for (const g of games) {
    const d = new Date(g.created_at * 1000);
    list.append(el("li", { class: "open-game", "data-game-id": g.id },
      el("strong", { text: g.title }), ` — ${g.free.length} free seat${g.free.length === 1 ? "" : "s"} `,
      el("button", { type: "button", class: "join-open", "data-game-id": g.id,
                     onclick: () => join(g.id), text: "Join" }),
      el("span", { class: "what" }, `${g.setup} · ${g.mode} · seats: ${seatWords(g)} · created `,
        el("time", { datetime: d.toISOString(), text: d.toLocaleString(undefined, {
          month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) }),
        g.moves ? ` · ${g.moves} moves played` : "")));
  }
  list.dataset.loaded = "true";
}

refresh();
$("create-form")?.addEventListener("submit", () => setTimeout(refresh, 800));
setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
