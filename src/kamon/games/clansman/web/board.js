// I, Clansman — the browser board (plain ES modules + inline SVG, no build step).
//
// render(root, payload, ctx) draws, from payload.view: the status (round, century, phase,
// step, start player, the decision), the producing seat's pool (status.js), the
// centre (century piles as counts, the Supply, Royal Princes and the Miyake row, Heroes,
// Kofun, Emperor cards, the Bank: centre.js), one panel per Gozoku (clans with
// the daughters on them, Tadokoro, Missions, Kofun, Hero, hand, items: players.js), the
// VPs by colour and a short key of the goods (scores.js); goods are pictures with counts
// that name themselves on a tap, a hover or the keyboard's focus (icons.js). The layout is
// computed for the board's width and drawn again when that width changes: one unit a
// pixel on a desktop; on a phone for whole cards a row, each drawing stretched to the
// width (larger, never smaller), one column of areas and panels, and anything that can be
// chosen at least 44 px each way. Every legal action that has a place on
// the table is bound there through ctx.bind (a click plays it, a tap selects and explains).
import {
  RECENT_WORDS, legalSample, legend as marksLegend, reconMarkInline, recentSample, selectedSample,
} from "../../marks.js";
import { GAP, SEATS, compactWidth, html, indexLegal, isCompact, sizes } from "./base.js";
import { centre } from "./centre.js";
import { playerPanel } from "./players.js";
import { nameTips } from "./icons.js";
import { legend, scoreTable } from "./scores.js";
import { statusBar, turnPanel } from "./status.js";

let lastCall = null;
let resizeHooked = false;

/** The cards a move (by its notation: "obtain 412", "marry 300 teal", "convert 401
 *  soldier", "hero 902") acted on; a clan card 300 is the one in the named colour's row. */
export function recentTargets(root, notation) {
  const [verb, card, extra] = String(notation).split(" ");
  if (!["marry", "convert", "hero", "obtain", "hand"].includes(verb)) return [];
  if (!/^\d+$/.test(card || "") || extra === "tadokoro") return [];
  const owner = SEATS.indexOf(extra);
  const scope = verb === "marry" && owner >= 0
    ? root.querySelector(`[data-area="gozoku-${owner}"]`) : root;
  return scope ? [...scope.querySelectorAll(`[data-card="${card}"]`)] : [];
}

/** Draw the whole I, Clansman table for one payload into root. */
export function render(root, payload, context) {
  lastCall = [root, payload, context];
  hookResize();
  const v = payload && payload.view;
  root.replaceChildren();
  if (!v || !v.gozoku) {
    root.appendChild(html("div", "cm-board", "No I, Clansman view to show."));
    return;
  }
  // The board's width in pixels. A desktop lays the board out one SVG unit a pixel; a phone
  // (compact) lays it out for whole cards a row and stretches each drawing to the width,
  // so that nothing is drawn smaller than its size in units (no text under 11 px).
  const px = Math.max(300, Math.min(1400, Math.floor(root.clientWidth || 1000)));
  const compact = isCompact(px);
  const panelPx = px - 10;  // a player panel's border and padding: its drawing's width
  const W = compact ? compactWidth(panelPx) : px;
  const ctx = { ...context, size: { ...sizes(px, compact ? panelPx / W : 1), fit: compact } };
  const L = indexLegal(payload);
  const board = html("div", "cm-board" + (compact ? " cm-compact" : ""));
  board.appendChild(statusBar(payload));
  const turn = turnPanel(payload, ctx, L, W);
  if (turn) board.appendChild(turn);
  board.appendChild(centre(payload, ctx, L, W));

  const n = v.gozoku.length;
  const cols = !compact && W >= 900 ? 2 : 1;
  const panelW = compact ? W : (cols === 2 ? Math.floor((W - GAP) / 2) - 10 : W - 10);
  const grid = html("div", "cm-players");
  grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
  // You first, then the others in seat order from you.
  const first = payload.you !== null && payload.you !== undefined ? payload.you : 0;
  for (let i = 0; i < n; i++) grid.appendChild(playerPanel(payload, ctx, L, (first + i) % n, panelW));
  board.appendChild(grid);
  board.appendChild(scoreTable(payload, compact ? px : Math.min(W, 560), compact));
  board.appendChild(legend(payload, ctx, compact ? W : Math.min(W, 900), compact));
  board.appendChild(marksLegend([
    [legalSample(), "a choice you can make now (click it; on a phone tap it, then tap again or press Play)"],
    [selectedSample(), "tapped, waiting for Play"],
    [reconMarkInline(), "reconstructed card data, not read from the rulebook as printed (hover for what)"],
    [recentSample(), RECENT_WORDS],
    [null, "♀ a daughter · ★ start player · ▶ deciding now"],
  ]));
  nameTips(board);
  root.appendChild(board);
}

/** Draw again on a width change (the layout is computed for the root's width). */
function hookResize() {
  if (resizeHooked || typeof window === "undefined") return;
  resizeHooked = true;
  let timer = null;
  let lastW = null;
  window.addEventListener("resize", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!lastCall || !lastCall[0].isConnected) return;
      const w = lastCall[0].clientWidth;
      if (w === lastW) return;
      lastW = w;
      render(...lastCall);
    }, 150);
  });
}
