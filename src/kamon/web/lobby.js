// The lobby: each game presented (picture, players, length, what it is about, its Help),
// create a game, the games this browser holds seats in, join by link.
import { api, el, forgetGame, holdInvites, myGames, rememberGame } from "./api.js";
import { legalSample, reconMarkInline } from "./marks.js";
import { keepName, storedName } from "./names.js";
import { rulesInShort } from "./help.js";
import { startTutorial } from "./tutorial.js";

// Each game as the lobby presents it, its options and its files all come from the server's
// catalogue (/api/catalog): the game declares them (its presentation, its option schema
// with every choice's words, its folder of browser files); this page keeps no table of
// its own.
let catalog = null;

const $ = id => document.getElementById(id);

/** The catalogue entry of the selected game. */
function currentGame() {
  return catalog.games.find(g => g.name === $("game-select").value);
}

/** A seat kind in plain words (the server's), for the selected game when it says so. */
function words(kind) {
  const g = currentGame();
  const own = g && g.level_words && g.level_words[kind];
  if (own) return own;
  const s = catalog.seats.find(x => x.kind === kind);
  return s ? s.words || s.summary : "";
}

/** What the server says of a seat kind technically, for the selected game when it says so
 *  per game (the tooltip and the second line under a seat). */
function summary(kind) {
  const g = currentGame();
  const own = g && g.levels && g.levels[kind];
  if (own) return own;
  const s = catalog.seats.find(x => x.kind === kind);
  return s ? s.summary : "";
}

/** Fill the player-count choice for the selected game: every count it can be played
 *  with (a count only a variant allows says so). */
function fillPlayers() {
  const g = currentGame();
  const sel = $("players-select");
  const keep = Number(sel.value);
  sel.replaceChildren();
  for (const n of g.player_counts) {
    const label = n === 1 ? "1 (solo)" : g.forced[n] ? `${n} (unofficial variant)`
                                                     : String(n);
    sel.append(el("option", { value: n, text: label }));
  }
  sel.value = String(keep >= g.min_players && keep <= g.max_players ? keep : g.max_players);
  fillSeats();
  fillOptions();
}

/** One seat choice per player: the first a human, the others bots by default; under each,
 *  what the chosen kind is (the server's words): plain words, then how it works. */
function fillSeats() {
  const n = Number($("players-select").value);
  const box = $("seats");
  box.replaceChildren(el("legend", { text: "Seats" }));
  for (let i = 0; i < n; i++) {
    const sel = el("select", { name: `seat-${i}`, id: `seat-${i}`, "data-seat": i });
    for (const s of catalog.seats) {
      sel.append(el("option", { value: s.kind, title: summary(s.kind), text: s.kind === "human"
        ? "human (invite link)" : `bot: ${s.kind}` }));
    }
    sel.value = i === 0 ? "human" : "normal";
    const plain = el("small", { class: "seat-words", id: `seat-${i}-words` });
    const help = el("small", { class: "seat-help", id: `seat-${i}-help` });
    const say = () => {
      plain.textContent = words(sel.value);
      help.textContent = summary(sel.value);
      help.hidden = !help.textContent || help.textContent === plain.textContent;
    };
    sel.addEventListener("change", say);
    sel.addEventListener("change", updateSeedField);
    say();
    box.append(el("label", { class: "field" }, el("span", { class: "field-words",
      text: `Seat ${i + 1}` }), sel), plain, help);
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

/** Is an option for games of `n` players? */
function fits(spec, n) {
  return !spec.players || spec.players.includes(n);
}

/** The selected game's options as form fields, each labelled before its control (the
 *  catalogue's words): a checkbox, a choice of the declared values (with "none" first
 *  when the option has no default), or a number or text; an option for other player
 *  counts is left out, one that needs another is off until that one is set, and the
 *  variant a count needs is chosen and locked. */
function fillOptions() {
  const g = currentGame();
  const n = Number($("players-select").value);
  const box = $("options");
  box.replaceChildren(el("legend", { text: "Options" }));
  for (const [name, spec] of Object.entries(g.options)) {
    if (!fits(spec, n)) continue;
    let input;
    if (spec.type === "bool") {
      input = el("input", { type: "checkbox", name, id: `opt-${name}` });
    } else if (spec.choices.length) {
      const choices = spec.choices.filter(c => !c.players || c.players.includes(n));
      if (!choices.length) continue;  // none is for this many players
      input = el("select", { name, id: `opt-${name}` });
      if (spec.default === null) input.append(el("option", { value: "", text: "none" }));
      for (const c of choices) input.append(el("option", { value: String(c.value), text: c.label }));
      input.value = spec.default === null ? "" : String(spec.default);
    } else {
      input = el("input", { name, id: `opt-${name}`, inputmode: spec.type === "overlay" ? "text"
        : spec.type === "str" ? "text" : "numeric" });
    }
    box.append(el("label", { class: "field", title: spec.help },
      el("span", { class: "field-words", text: spec.label || name }), input));
  }
  for (const [name, value] of Object.entries(g.forced[n] || {})) {  // its variant, locked
    const input = $(`opt-${name}`);
    if (input) { input.value = String(value); input.disabled = true; input.dataset.forced = "true"; }
  }
  const follow = () => {
    for (const [name, spec] of Object.entries(g.options)) {
      const input = $(`opt-${name}`);
      if (!input || input.dataset.forced) continue;
      input.disabled = !Object.entries(spec.requires).every(([k, v]) => {
        const other = $(`opt-${k}`);
        if (!other || other.disabled) return false;
        return other.type === "checkbox" ? other.checked === v : other.value === String(v);
      });
    }
  };
  for (const input of box.querySelectorAll("input, select")) {
    input.addEventListener("change", follow);
  }
  follow();
}

/** An option's value as the form holds it, in the option's type. */
function typed(spec, text) {
  if (spec.type === "int" || spec.type === "seat") return Number(text);
  const c = spec.choices.find(x => String(x.value) === text);
  return c ? c.value : text;
}

/** The request body the form describes. */
function formBody() {
  const g = currentGame();
  const players = Number($("players-select").value);
  const seats = [];
  for (let i = 0; i < players; i++) seats.push($(`seat-${i}`).value);
  const options = {};
  for (const [name, spec] of Object.entries(g.options)) {
    const input = $(`opt-${name}`);
    if (!input) continue;
    if (input.disabled) {
      if (input.dataset.forced && input.value) options[name] = typed(spec, input.value);
      continue;
    }
    if (spec.type === "bool") { if (input.checked) options[name] = true; }
    else if (input.value.trim() !== "") options[name] = typed(spec, input.value.trim());
  }
  const body = { game: g.name, players, seats, options };
  const seedInput = $("seed-input");
  const seed = seedInput.value.trim();
  if (seed !== "" && !seedInput.disabled) body.seed = Number(seed);
  if ($("public-check")?.checked) body.public = true;
  const name = storedName();  // the player's name on their seat (names.js)
  if (name) body.name = name;
  return body;
}

/** The player's name, typed once in the header and kept in this browser: each seat this
 *  browser takes carries it (what is wrong with it is said beside the field). */
function setupName() {
  const input = $("player-name");
  if (!input) return;
  input.value = storedName() || "";
  const keep = tidy => {
    const error = keepName(input.value);
    $("player-name-error").textContent = error || "";
    input.setAttribute("aria-invalid", String(Boolean(error)));
    if (!error && tidy) input.value = storedName() || "";
  };
  input.addEventListener("input", () => keep(false));  // kept as it is typed
  input.addEventListener("change", () => keep(true));
}

/** Create the game. This browser is given one seat: the creator's (the first human one,
 *  which carries the name typed here); it goes straight there when it is the only human
 *  seat, else it shows "Go to my seat" and the other seats' invite links, which it keeps
 *  as links held for friends (never as its own seats: opening one here names nothing). A
 *  name the server would refuse stops the creation, said beside the name field. */
async function create(event) {
  event.preventDefault();
  const err = $("create-error");
  err.textContent = "";
  const typed = $("player-name");
  if (typed && typed.value.trim()) {
    const problem = keepName(typed.value);
    if (problem) {
      $("player-name-error").textContent = problem;
      typed.setAttribute("aria-invalid", "true");
      err.textContent = `Your name: ${problem}. Correct it (or clear it) to create the game.`;
      typed.focus();
      return;
    }
  }
  let created;
  try { created = await api("/api/games", formBody()); } catch (e) {
    err.textContent = e.message; return;
  }
  const given = created.seats.filter(s => s.token);
  const entry = s => ({ id: created.id, game: created.game, title: created.title, seat: s.seat,
                        name: s.name, token: s.token });
  if (given.length === 1 && !created.seats.some(s => s.open)) {
    // only this player's seat is human (a solo game, or against bots): play it at once
    rememberGame(entry(given[0]));
    location.assign(given[0].link);
    return;
  }
  const mine = given[0] || null;
  if (mine) rememberGame(entry(mine));
  holdInvites(given.slice(1).map(entry));
  const you = $("my-seat");
  you.replaceChildren();
  if (mine) {
    const name = storedName();
    you.append("You play ", el("span", { class: `seat-dot seat-${mine.name}` }),
      ` ${name ? `${name} (${mine.name})` : mine.name} `,
      el("a", { href: mine.link, id: "go-my-seat", class: "go-my-seat", text: "Go to my seat" }));
  }
  you.hidden = !mine;
  const list = $("invite-links");
  list.replaceChildren();
  for (const s of created.seats) {
    if (s.open) {  // a public game's free seat: taken by whoever joins from Open games
      list.append(el("li", { class: "open-seat" }, el("span", { class: `seat-dot seat-${s.name}` }),
        ` ${s.name}: free — anyone can take it from Open games`));
    }
    if (!s.token) continue;
    const url = s.url || s.link;
    const own = mine && s.seat === mine.seat;
    list.append(el("li", { class: own ? "mine" : "friend", "data-seat": s.seat },
      el("span", { class: `seat-dot seat-${s.name}` }),
      own ? ` ${s.name} (you): ` : ` ${s.name} — send to a friend: `,
      el("a", { href: s.link, class: "invite", "data-seat": s.seat, text: url }), " ",
      el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(url),
                     text: "copy" })));
  }
  if (!given.length) {
    rememberGame({ id: created.id, game: created.game, title: created.title, seat: null,
                   name: "spectator", token: null });
  }
  const spec = $("spectator-link");
  spec.href = created.spectator_link;
  spec.textContent = created.spectator_url || created.spectator_link;
  $("created").hidden = false;
  $("created").scrollIntoView({ block: "nearest" });
  showMyGames();
}

/** Who sits where, in words: "blue Alice you, yellow bot normal, …" (names after colours). */
function seatWords(p, mine) {
  return p.seats.map(s => `${s.name}${s.player && s.kind !== "bot" ? ` ${s.player}` : ""} ${
    s.seat === mine ? "you"
    : s.kind === "bot" ? `bot ${s.level}` : "human"}`).join(", ");
}

/** When a game was created (ms; the server's date once its payload is in, else when this
 *  browser first held the game), as a <time> in the reader's own format. */
function when(ms) {
  const d = new Date(ms);
  return el("time", { datetime: d.toISOString(), text: d.toLocaleString(undefined, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) });
}

/** The remembered games: game, mode, seats and date, with their state from the server. */
async function showMyGames() {
  const list = $("my-games-list");
  const games = myGames();
  list.replaceChildren();
  if (!games.length) { list.append(el("li", { class: "muted", text: "No games yet." })); return; }
  for (const g of games) {
    const href = g.token ? `/play/${g.id}?token=${encodeURIComponent(g.token)}`
                         : `/play/${g.id}`;
    const state = el("span", { class: "muted", text: "…" });
    const what = el("span", { class: "what" }, "created ", when(g.created));
    const seat = g.seat === null ? "watching" : `your seat: ${g.name}`;
    const item = el("li", { class: "my-game", "data-game-id": g.id },
      el("a", { href }, `${g.title} — ${seat}`), " ", state, " ",
      el("button", { type: "button", class: "forget", title: "forget this game here",
                     onclick: () => { forgetGame(g.id, g.seat); showMyGames(); },
                     text: "×" }), what);
    list.append(item);
    const q = g.token ? `?token=${encodeURIComponent(g.token)}` : "";
    api(`/api/games/${g.id}${q}`).then(p => {
      state.textContent = p.over ? "finished"
        : p.to_move === p.you ? "your turn" : `${p.seats[p.to_move]?.name ?? ""} to move`;
      if (!p.over && p.to_move === p.you) state.className = "your-turn";
      if (p.created_at) what.replaceChildren("created ", when(p.created_at * 1000));
      what.prepend(`${p.setup} · seats: ${seatWords(p, g.seat)} · `);
    }).catch(e => { state.textContent = e.message; })
      .finally(() => { item.dataset.loaded = "true"; });
  }
}

/** Go to a pasted invite or spectator link. */
function join(event) {
  event.preventDefault();
  const text = $("join-input").value.trim();
  const err = $("join-error");
  let url;
  try { url = new URL(text, location.origin); } catch (e) { url = null; }
  if (!url || !url.pathname.startsWith("/play/")) {
    err.textContent = "that is not a kamon game link (it looks like …/play/<game>?token=…)";
    return;
  }
  location.href = url.pathname + url.search;
}

/** The picture of a glossary symbol in the lobby's Help: a shared mark, or its characters. */
function symbol(name) {
  if (name === "legal") return legalSample();
  if (name === "recon") return reconMarkInline();
  return el("span", { class: "glyph", text: name });
}

/** Open the Help of a game: its rules in short and its glossary (the play page's Help
 *  content, help/*.js, without the walkthrough that needs a board). */
async function openHelp(name) {
  const g = catalog && catalog.games.find(x => x.name === name);
  if (!g || !g.client.help) return;
  const body = $("help-body");
  $("help-title").textContent = `${g.title}: help`;
  body.replaceChildren("The help is loading…");
  if (!$("help").open) $("help").showModal();
  let content;
  try { content = await import(g.client.help); } catch (e) {
    body.replaceChildren(el("p", { class: "error", text: "the help could not be loaded" }));
    return;
  }
  body.replaceChildren(el("h3", { text: "Rules in short" }), ...rulesInShort(content, name));
  body.append(el("p", { class: "muted", text: "A summary in kamon's words; the printed "
    + "rulebook is the authority. The play page's Help also walks you through your first "
    + "decisions." }));
  body.append(el("h3", { text: "Glossary" }));
  const dl = el("dl", { class: "glossary" });
  for (const [sym, term, meaning] of content.GLOSSARY) {
    dl.append(el("dt", {}, symbol(sym), ` ${term}`), el("dd", { text: meaning }));
  }
  body.append(dl);
  body.dataset.game = name;
}

/** The Help a link asks for (#help-GAME), if any. */
function helpFromHash() {
  const m = location.hash.match(/^#help-([\w-]+)$/);
  if (m) openHelp(m[1]);
}

/** Choose a game in the New game form and bring the form into view. */
function chooseGame(name) {
  $("game-select").value = name;
  fillPlayers();
  $("new-game").scrollIntoView({ block: "start" });
  $("game-select").focus({ preventScroll: true });
}

/** Start a game's guided first game (tutorial.js); a refusal is said under the form. */
async function guided(name, button) {
  button.disabled = true;
  try { await startTutorial(name); } catch (e) {
    $("create-error").textContent = `The guided game could not start: ${e.message}`;
    button.disabled = false;
  }
}

/** Each game presented: picture, title, pitch, players, length, its Help and a button
 *  that chooses it in the form. */
function showGames() {
  const box = $("game-cards");
  box.replaceChildren();
  for (const g of catalog.games) {
    const info = g.presentation;
    const links = el("div", { class: "game-links" });
    if (g.client.help) {
      links.append(el("a", { href: `#help-${g.name}`, class: "game-help",
                             text: "Help: the rules in short" }));
    }
    links.append(el("button", { type: "button", class: "choose", text: `New game of ${g.title}`,
                                onclick: () => chooseGame(g.name) }));
    if (g.client.tutorial) {
      links.append(el("button", { type: "button", class: "tutorial-start",
        text: "Guided first game", title: "A practice game against easy bots whose first "
          + "decisions are explained on the board", onclick: e => guided(g.name, e.target) }));
    }
    box.append(el("article", { class: "game-card", "data-game": g.name },
      g.client.picture ? el("img", { src: g.client.picture, alt: `${g.title}: a picture of the game`,
                                     width: 128, height: 96, class: "game-picture" })
        : el("div", { class: "game-picture" }),
      el("div", {},
        el("h3", { text: g.title }),
        el("p", { class: "pitch", text: info.pitch || "" }),
        el("dl", { class: "game-facts" },
          el("dt", { text: "Players" }), el("dd", { class: "game-players",
                                                   text: info.players || "" }),
          el("dt", { text: "Length" }), el("dd", { class: "game-length",
                                                  text: info.length || "" }))),
      links));
  }
}

/** Start the lobby: the catalogue, the form for the selected game, the games kept here. */
async function main() {
  setupName();
  try { catalog = await api("/api/catalog"); } catch (e) {
    $("create-error").textContent = e.message; return;
  }
  const sel = $("game-select");
  for (const g of catalog.games) sel.append(el("option", { value: g.name, text: g.title }));
  sel.addEventListener("change", fillPlayers);
  $("players-select").addEventListener("change", () => { fillSeats(); fillOptions(); });
  fillPlayers();
  showGames();
  $("help-close").addEventListener("click", () => $("help").close());
  $("help").addEventListener("click", e => { if (e.target === $("help")) $("help").close(); });
  $("help").addEventListener("close", () => {
    if (location.hash.startsWith("#help-")) history.replaceState(null, "", location.pathname);
  });
  addEventListener("hashchange", helpFromHash);
  helpFromHash();
  $("create-form").addEventListener("submit", create);
  $("join-form").addEventListener("submit", join);
  showMyGames();
}

main();
