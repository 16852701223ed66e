// The help panel of the play page (the top bar's Help button): the game's rules in short,
// each beside a small labelled diagram of the board's part it speaks of (help/*.js FIGURES,
// with "Show on the board" buttons that mark that part on the play page), the guided first
// game, the glossary of what its board draws, and for The White Castle a walkthrough of
// the first three decisions whose "Show me" buttons bring that part of the board into view.
// The lobby's Help shows the same rules and diagrams (rulesInShort), without a board.
import { el } from "./api.js";
import { legalSample, reconMarkInline } from "./marks.js";
import { startTutorial } from "./tutorial.js";

const TOUR_MS = 4000;

let content = null;      // the game's help module
let getPayload = () => null;

const $ = id => document.getElementById(id);

/** The picture of a glossary symbol: a shared mark, a game's own drawing (a function
 *  that makes it), or its characters. */
function symbol(name) {
  if (typeof name === "function") return name();
  if (name === "legal") return legalSample();
  if (name === "recon") return reconMarkInline();
  return el("span", { class: "glyph", text: name });
}

/** Bring a board area into view and mark it for a few seconds. */
function showArea(area) {
  const target = document.querySelector(`#board [data-area="${area}"]`);
  if (!target) return;
  $("help").close();
  for (const old of document.querySelectorAll("#board .tour")) old.classList.remove("tour");
  target.classList.add("tour");
  const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
  setTimeout(() => target.classList.remove("tour"), TOUR_MS);
}

/** Mark a board element for a few seconds: a ring over its box (an SVG group has no
 *  outline of its own) and the "tour" class, once it is scrolled into view. */
function showOnBoard(target) {
  $("help").close();
  for (const old of document.querySelectorAll("#board .tour")) old.classList.remove("tour");
  target.classList.add("tour");
  target.scrollIntoView({ block: "center", behavior: "auto" });
  let ring = $("help-ring");
  if (!ring) {
    ring = el("div", { id: "help-ring", class: "tut-ring help-ring", "aria-hidden": "true" });
    document.body.append(ring);
  }
  const follow = () => {
    const r = target.getBoundingClientRect();
    ring.style.left = `${r.left - 4}px`;
    ring.style.top = `${r.top - 4}px`;
    ring.style.width = `${r.width + 8}px`;
    ring.style.height = `${r.height + 8}px`;
  };
  follow();
  ring.hidden = false;
  addEventListener("scroll", follow, { passive: true });
  clearTimeout(showOnBoard.timer);
  showOnBoard.timer = setTimeout(() => {
    ring.hidden = true;
    target.classList.remove("tour");
    removeEventListener("scroll", follow);
  }, TOUR_MS);
}

/** The rules in short, each paragraph beside its diagram (help/*.js FIGURES); with a
 *  `payload` (the play page), a "Show on the board" button per part the diagram names
 *  (disabled when the board does not draw it now). The guided first game closes it. */
export function rulesInShort(module, game, payload = null) {
  const out = [];
  for (const [head, text] of module.RULES) {
    const fig = (module.FIGURES || {})[head];
    const part = el("div", { class: "help-part", "data-topic": head },
      el("p", { class: "help-words" }, el("strong", { text: `${head}. ` }), text));
    if (fig) {
      part.append(fig.draw());
      if (payload) {
        const shows = el("p", { class: "help-shows" }, "Show on the board: ");
        for (const [label, find] of fig.show) {
          const button = el("button", { type: "button", class: "show-on-board", text: label,
                                        "data-part": label });
          const target = find(payload);
          if (target) button.addEventListener("click", () => showOnBoard(find(payload) || target));
          else { button.disabled = true; button.title = "not on the board now"; }
          shows.append(button);
        }
        part.append(shows);
      }
    }
    out.push(part);
  }
  const error = el("span", { class: "error", role: "alert" });
  out.push(el("p", { class: "help-tutorial" },
    "New to the game? ",
    el("button", { type: "button", class: "tutorial-start", text: "Guided first game",
      onclick: e => {
        e.target.disabled = true;
        startTutorial(game).catch(err => { error.textContent = ` ${err.message}`;
                                           e.target.disabled = false; });
      } }),
    " — a practice game against easy bots whose first decisions are explained on the board.",
    error));
  return out;
}

/** Fill the panel for the position on screen. */
function fill() {
  const body = $("help-body");
  const payload = getPayload();
  body.replaceChildren();
  if (!content || !payload) {
    body.append(content === false ? "This game has no help pages in kamon yet: the rulebook "
      + "is the authority." : "The help is loading…");
    return;
  }
  $("help-title").textContent = `${payload.title}: help`;
  body.append(el("h3", { text: "Rules in short" }), ...rulesInShort(content, payload.game, payload));
  body.append(el("p", { class: "muted", text: "A summary in kamon's words; the printed "
    + "rulebook is the authority." }));
  body.append(el("h3", { text: "Glossary" }));
  const dl = el("dl", { class: "glossary" });
  for (const [sym, term, meaning] of content.GLOSSARY) {
    dl.append(el("dt", {}, symbol(sym), ` ${term}`), el("dd", { text: meaning }));
  }
  body.append(dl);
  if (content.WALKTHROUGH.length) {
    body.append(el("h3", { text: "Your first game: the first three decisions" }));
    const ol = el("ol", { class: "walkthrough" });
    for (const [title, text, area] of content.WALKTHROUGH) {
      const name = area(payload);
      const show = el("button", { type: "button", class: "show-me", text: "Show me",
                                  onclick: () => showArea(name) });
      if (!document.querySelector(`#board [data-area="${name}"]`)) show.disabled = true;
      ol.append(el("li", { "data-area": name }, el("strong", { text: title }), " ",
                   text, " ", show));
    }
    body.append(ol);
  }
}

/** Wire the Help button for a game; `current()` gives the payload on screen. */
export async function setupHelp(game, current) {
  getPayload = current;
  $("help-button").addEventListener("click", () => { fill(); $("help").showModal(); });
  $("help-close").addEventListener("click", () => $("help").close());
  $("help").addEventListener("click", e => { if (e.target === $("help")) $("help").close(); });
  try { content = await import(`/static/games/${game}/help.js`); } catch (e) {
    content = false;  // the game's folder has no help.js
  }
}
