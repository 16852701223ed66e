// The lobby: create a game, the games this browser holds seats in, join by link.
import { api, el, forgetGame, myGames, rememberGame } from "./api.js";

const CHOICES = {
  difficulty: ["", "easy", "medium", "hard"],
  emperor_side: ["", "A", "B"],
  variant: ["", "small-table"],
  emperor_variant: ["", "008", "009", "008,009"],
};
const LABELS = {
  first_game: "First-game setup (the rulebook's Well tiles)",
  difficulty: "Solo: the Tokugawa rival's difficulty",
  expert: "Expert game (Kofun and Emperor cards)",
  emperor_side: "Expert: Emperor cards' side",
  variant: "Unofficial small-table variant (2–3 players)",
  emperor_variant: "Unofficial: Emperor 008/009",
  start_player: "First start player (seat number, blank: drawn)",
};
let catalog = null;

/** The catalogue entry of the selected game. */
function currentGame() {
  return catalog.games.find(g => g.name === document.getElementById("game-select").value);
}

/** Fill the player-count choice for the selected game. */
function fillPlayers() {
  const g = currentGame();
  const sel = document.getElementById("players-select");
  const keep = Number(sel.value);
  sel.replaceChildren();
  for (let n = g.variant_min_players; n <= g.max_players; n++) {
    const label = n === 1 ? "1 (solo)" : n < g.min_players ? `${n} (unofficial variant)`
                                                            : String(n);
    sel.append(el("option", { value: n, text: label }));
  }
  sel.value = String(keep >= g.min_players && keep <= g.max_players ? keep : g.max_players);
  fillSeats();
  fillOptions();
}

/** One seat choice per player: the first a human, the others bots by default. */
function fillSeats() {
  const n = Number(document.getElementById("players-select").value);
  const box = document.getElementById("seats");
  box.replaceChildren(el("legend", { text: "Seats" }));
  for (let i = 0; i < n; i++) {
    const sel = el("select", { name: `seat-${i}`, id: `seat-${i}`, "data-seat": i });
    for (const s of catalog.seats) {
      sel.append(el("option", { value: s.kind, title: s.summary, text: s.kind === "human"
        ? "human (invite link)" : `bot: ${s.kind}` }));
    }
    sel.value = i === 0 ? "human" : "normal";
    sel.addEventListener("change", updateSeedField);
    box.append(el("label", {}, `Seat ${i + 1} `, sel));
  }
  updateSeedField();
}

/** The seed is only for a practice game (one human seat at most): the server draws the
 * seed of a game between people, so the field is off when the seats say so. */
function updateSeedField() {
  const humans = [...document.querySelectorAll("#seats select")]
    .filter(s => s.value === "human").length;
  const input = document.getElementById("seed-input");
  input.disabled = humans > 1;
  input.placeholder = humans > 1 ? "drawn by the server (several people)" : "random";
}

/** The selected game's options as form fields. */
function fillOptions() {
  const g = currentGame();
  const n = Number(document.getElementById("players-select").value);
  const box = document.getElementById("options");
  box.replaceChildren(el("legend", { text: "Options" }));
  for (const [name, spec] of Object.entries(g.options)) {
    if (name === "difficulty" && n !== 1) continue;
    let input;
    if (spec.type === "bool") {
      input = el("input", { type: "checkbox", name, id: `opt-${name}` });
    } else if (CHOICES[name]) {
      input = el("select", { name, id: `opt-${name}` });
      for (const c of CHOICES[name]) input.append(el("option", { value: c, text: c || "—" }));
    } else {
      input = el("input", { name, id: `opt-${name}`, inputmode: spec.type === "int"
        ? "numeric" : "text" });
    }
    box.append(el("label", { title: spec.help }, input, " ", LABELS[name] || name));
  }
  if (n < g.min_players) {  // fewer players than the rulebook's: its variant is required
    for (const [name, value] of Object.entries(g.variant_options)) {
      const input = document.getElementById(`opt-${name}`);
      if (input) { input.value = value; input.disabled = true; }
    }
  }
}

/** The request body the form describes. */
function formBody() {
  const g = currentGame();
  const players = Number(document.getElementById("players-select").value);
  const seats = [];
  for (let i = 0; i < players; i++) seats.push(document.getElementById(`seat-${i}`).value);
  const options = {};
  for (const [name, spec] of Object.entries(g.options)) {
    const input = document.getElementById(`opt-${name}`);
    if (!input) continue;
    if (input.disabled && input.value) { options[name] = input.value; continue; }
    if (spec.type === "bool") { if (input.checked) options[name] = true; }
    else if (input.value.trim() !== "") {
      options[name] = spec.type === "int" ? Number(input.value) : input.value.trim();
    }
  }
  const body = { game: g.name, players, seats, options };
  const seedInput = document.getElementById("seed-input");
  const seed = seedInput.value.trim();
  if (seed !== "" && !seedInput.disabled) body.seed = Number(seed);
  return body;
}

/** Create the game, remember its human seats, show the invite links. */
async function create(event) {
  event.preventDefault();
  const err = document.getElementById("create-error");
  err.textContent = "";
  let created;
  try { created = await api("/api/games", formBody()); } catch (e) {
    err.textContent = e.message; return;
  }
  const list = document.getElementById("invite-links");
  list.replaceChildren();
  for (const s of created.seats) {
    if (!s.token) continue;
    rememberGame({ id: created.id, game: created.game, title: created.title, seat: s.seat,
                   name: s.name, token: s.token });
    const url = s.url || s.link;
    list.append(el("li", {}, el("span", { class: `seat-dot seat-${s.name}` }), ` ${s.name}: `,
      el("a", { href: s.link, class: "invite", "data-seat": s.seat, text: url }), " ",
      el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(url),
                     text: "copy" })));
  }
  if (!created.seats.some(s => s.token)) {
    rememberGame({ id: created.id, game: created.game, title: created.title, seat: null,
                   name: "spectator", token: null });
  }
  const spec = document.getElementById("spectator-link");
  spec.href = created.spectator_link;
  spec.textContent = created.spectator_url || created.spectator_link;
  document.getElementById("created").hidden = false;
  showMyGames();
}

/** The remembered games, each with its state fetched from the server. */
async function showMyGames() {
  const list = document.getElementById("my-games-list");
  const games = myGames();
  list.replaceChildren();
  if (!games.length) { list.append(el("li", { class: "muted", text: "No games yet." })); return; }
  for (const g of games) {
    const href = g.token ? `/play/${g.id}?token=${encodeURIComponent(g.token)}`
                         : `/play/${g.id}`;
    const state = el("span", { class: "muted", text: "…" });
    const item = el("li", { class: "my-game", "data-game-id": g.id },
      el("a", { href }, `${g.title} — ${g.name}`), " ", state, " ",
      el("button", { type: "button", class: "forget", title: "forget this game here",
                     onclick: () => { forgetGame(g.id, g.seat); showMyGames(); },
                     text: "×" }));
    list.append(item);
    const q = g.token ? `?token=${encodeURIComponent(g.token)}` : "";
    api(`/api/games/${g.id}${q}`).then(p => {
      state.textContent = p.over ? "finished"
        : p.to_move === p.you ? "your turn" : `${p.seats[p.to_move]?.name ?? ""} to move`;
      if (!p.over && p.to_move === p.you) state.className = "your-turn";
    }).catch(e => { state.textContent = e.message; });
  }
}

/** Go to a pasted invite or spectator link. */
function join(event) {
  event.preventDefault();
  const text = document.getElementById("join-input").value.trim();
  const err = document.getElementById("join-error");
  let url;
  try { url = new URL(text, location.origin); } catch (e) { url = null; }
  if (!url || !url.pathname.startsWith("/play/")) {
    err.textContent = "that is not a kamon game link (it looks like …/play/<game>?token=…)";
    return;
  }
  location.href = url.pathname + url.search;
}

async function main() {
  try { catalog = await api("/api/catalog"); } catch (e) {
    document.getElementById("create-error").textContent = e.message; return;
  }
  const sel = document.getElementById("game-select");
  for (const g of catalog.games) sel.append(el("option", { value: g.name, text: g.title }));
  sel.addEventListener("change", fillPlayers);
  document.getElementById("players-select").addEventListener("change", () => {
    fillSeats(); fillOptions();
  });
  fillPlayers();
  document.getElementById("create-form").addEventListener("submit", create);
  document.getElementById("join-form").addEventListener("submit", join);
  showMyGames();
}

main();
