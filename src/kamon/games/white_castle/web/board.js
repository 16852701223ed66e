// The White Castle board for the kamon browser client, drawn from payload.view.
//
// The board is a column of areas (the draft, the castle, the river, outside the castle,
// the tracks, one domain per clan), each a grid of tiles (svg.js): three
// tiles a line on a laptop, one on a phone, so nothing scrolls sideways and every target
// stays large enough for a finger. Legal actions are found by their notation (e.g.
// "take coral left", "block steward1 top") and bound to the element that shows them
// through ctx.bind (interact.js: a click plays, a tap selects and explains).
import { choiceWords } from "../../interact.js";
import { castleArea } from "./castle.js";
import { domainArea } from "./domains.js";
import { boardLegend, header, pendingControls } from "./header.js";
import { Board } from "./model.js";
import { outsideArea } from "./outside.js";
import { rivalTile } from "./rival.js";
import { draftArea, riverArea } from "./river.js";
import { html } from "./svg.js";
import { tracksArea } from "./tracks.js";

/** The board elements a move (by its notation) of `seat` acted on: every target is keyed
 *  by the notation of the move it stands for, legal now or not (model.js); a die placed
 *  in a domain is found in that clan's domain. A bridge end is not marked: the die taken
 *  from it is, on the space where it was placed. */
export function recentTargets(root, notation, seat) {
  if (notation.startsWith("take ")) return [];  // the die taken is marked where it went
  if (notation === "place domain") {
    return [...root.querySelectorAll(`[data-key="place domain"][data-owner="${seat}"][data-filled]`)];
  }
  return [...root.querySelectorAll(`[data-key="${CSS.escape(notation)}"]`)];
}

/** Draw the whole White Castle board for this payload into root. */
export function render(root, payload, ctx) {
  root.replaceChildren();
  const b = new Board(payload, ctx || {});
  const top = html("div", { class: "wc-root" });
  top.appendChild(header(b));
  const pending = pendingControls(b);
  if (pending) top.appendChild(pending);
  const board = html("div", { class: "wc-board" });
  draftArea(board, b);
  castleArea(board, b);
  riverArea(board, b);
  outsideArea(board, b);
  const seats = b.view.clans.map((_, p) => p);
  if (b.you !== null) seats.sort((x, y) => (y === b.you) - (x === b.you));
  if (b.you !== null) domainArea(board, b, seats.shift(), rivalTile);
  tracksArea(board, b);
  seats.forEach(p => domainArea(board, b, p, rivalTile));
  top.appendChild(board);
  const rest = (payload.legal || []).filter(a => !b.placed.has(a.notation));
  if (rest.length) {
    top.appendChild(html("div", { class: "wc-note",
      text: `Also possible (see the list of choices): ${rest.map(choiceWords).join("; ")}` }));
  }
  top.appendChild(boardLegend());
  root.appendChild(top);
}
