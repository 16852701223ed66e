// What every part of The White Castle board shares: the payload and its view, the words of
// each component (and how sure its data is), the legal actions by notation, and clan names.
import { reconMark } from "../../marks.js";
import { seatName } from "../../names.js";
import { CLANS, CLAN_FILL } from "./svg.js";

const WEAK = /reconstructed|inferred|unknown/;

/** The payload, the component words and the legal actions, with the binding of targets. */
export class Board {
  constructor(payload, ctx) {
    this.payload = payload;
    this.view = payload.view;
    this.ctx = ctx || {};
    this.components = (this.ctx.data && this.ctx.data.components) || {};
    this.byNotation = new Map((payload.legal || []).map(a => [a.notation, a]));
    this.placed = new Set();
    this.you = payload.you === undefined ? null : payload.you;
  }

  /** The component entry of an id (text + confidence), never undefined. */
  comp(id) {
    return this.components[id] || { text: String(id).replace(/_/g, " "), confidence: "" };
  }

  /** A component's name as the rulebook gives it ("Steward card 10"), never its id. */
  name(id) {
    return this.comp(id).name || String(id).replace(/_/g, " ");
  }

  /** A component's words without the data's bracketed confidence note. */
  words(id) {
    return this.comp(id).text.replace(/ \[[^\]]*\]$/, "");
  }

  /** True if the component's data is reconstructed or inferred (to be marked). */
  weak(id) {
    return WEAK.test(this.comp(id).confidence || "");
  }

  /** Attach a hover/tap explanation to el. For a component whose data is reconstructed,
   *  `mark` ([x, y] in el's units) places the reconstructed mark and the words say so. */
  explain(el, words, id = null, mark = null) {
    let text = words.replace(/ \[[^\]]*\]$/, "");
    if (id && mark && this.weak(id)) {
      el.appendChild(reconMark(mark[0], mark[1], mark[2] || 7));
      text += ` († reconstructed data — ${this.comp(id).confidence}: not read from the `
        + "printed game)";
    }
    el.setAttribute("data-explain", text);
    return el;
  }

  /** Make el the board's target of the legal action with this notation, if there is one;
   *  legal or not, el keeps the notation as its key (what just happened is found by it). */
  bind(el, notation) {
    if (!el.hasAttribute("data-key")) el.setAttribute("data-key", notation);
    const a = this.byNotation.get(notation);
    if (!a || !this.ctx.bind || !this.ctx.bind(el, a)) return false;
    this.placed.add(notation);
    return true;
  }

  /** Whether the action with this notation is legal now. */
  legal(notation) {
    return this.byNotation.has(notation);
  }

  /** A clan's colour name (the solo rival is the Tokugawa clan). */
  clanName(p) {
    if (p === this.view.rival) return "tokugawa";
    const seat = (this.payload.seats || []).find(s => s.seat === p);
    return (seat && seat.name) || CLANS[p] || `clan ${p + 1}`;
  }

  /** Who plays a clan, by name: the name its player gave, a bot's level ("Normal bot"),
   *  else its colour (names.js); the solo rival is the Tokugawa clan. */
  playerName(p) {
    if (p === this.view.rival) return "tokugawa";
    return (this.payload.seats || [])[p] ? seatName(this.payload, p) : this.clanName(p);
  }

  /** Fill colour of a clan. */
  clanFill(p) {
    return CLAN_FILL[this.clanName(p)] || "#888";
  }

  /** The clans at a castle location (0 Gate, 1-5 rooms, 6 Daimyo), one entry per courtier. */
  courtiersAt(loc) {
    const out = [];
    this.view.clans.forEach((clan, p) => clan.courtiers.forEach(l => { if (l === loc) out.push(p); }));
    return out;
  }
}
