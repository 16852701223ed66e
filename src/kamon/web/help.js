// The help panel of the play page (the top bar's Help button): the game's rules in short,
// the glossary of what its board draws, and for The White Castle a walkthrough of the
// first three decisions whose "Show me" buttons bring that part of the board into view.
import { el } from "./api.js";
import { legalSample, reconMarkInline } from "./marks.js";

const MODULES = { "white-castle": "white_castle", "clansman": "clansman" };
const TOUR_MS = 4000;

let content = null;      // the game's help module
let getPayload = () => null;

const $ = id => document.getElementById(id);

/** The picture of a glossary symbol: a shared mark, or its characters. */
function symbol(name) {
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

/** Fill the panel for the position on screen. */
function fill() {
  const body = $("help-body");
  const payload = getPayload();
  body.replaceChildren();
  if (!content || !payload) { body.append("The help is loading…"); return; }
  $("help-title").textContent = `${payload.title}: help`;
  body.append(el("h3", { text: "Rules in short" }));
  for (const [head, text] of content.RULES) {
    body.append(el("p", {}, el("strong", { text: `${head}. ` }), text));
  }
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
  try { content = await import(`./help/${MODULES[game]}.js`); } catch (e) { console.error(e); }
}
