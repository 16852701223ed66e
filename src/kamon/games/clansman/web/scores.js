// I, Clansman board: the score table (VPs by colour, as if the game ended now) and the
// short key of the goods.
import { GOODS, SEAT_FILL, VP, VP_ORDER, colourOf, el, goodName, txt, wrap } from "./base.js";
import { seatName } from "../../names.js";
import { goodTile } from "./icons.js";

/** VP column heads: the full word when a column is wide enough, else three letters. */
const HEAD = { military: "Military", religion: "Religion", government: "Govt.", economy: "Economy", others: "Others" };

/** The score table: VPs by colour and totals for every seat (as if the game ended now),
 *  at most W wide (a long name is cut; its " ★ wins" stays). `fit`: stretched to the
 *  container's width. */
export function scoreTable(payload, W, fit = false) {
  const v = payload.view;
  const n = (v.gozoku || []).length;
  const rowH = 28;
  const minCol = 32;
  const maxName = Math.max(8, Math.floor((W - 32 - 6 * minCol - 34) / 7.4));
  const names = (v.gozoku || []).map((g, p) => {
    const win = (payload.winners || []).includes(p) ? " ★ wins" : "";
    const name = seatName(payload, p) + (payload.you === p ? " (you)" : "");
    return wrap(name, Math.max(4, maxName - win.length), 1)[0] + win;
  });
  const nameW = Math.max(100, 34 + Math.max(...names.map(t => t.length)) * 7.4);  // "Scores now" fits
  const colW = Math.max(minCol, Math.min(72, (W - nameW - 20) / 6));
  const H = 30 + n * rowH + 8;
  const Wt = nameW + 6 * colW + 12;
  const svg = el("svg", { class: "cm-svg cm-scores" + (fit ? " cm-fit" : ""), viewBox: `0 0 ${Wt} ${H}`, width: Wt, height: H });
  svg.appendChild(el("rect", { width: Wt, height: H, rx: 8, class: "cm-area-bg",
    "data-explain": "Current VPs by colour (Military, Religion, Government, Economy, Others) and the total as if the game ended now. Ties: most Iron wins." }));
  svg.appendChild(txt(8, 19, payload.over ? "Final scores" : "Scores now", { class: "cm-area-title" }));
  VP_ORDER.forEach((col, i) => {
    const x = nameW + i * colW;
    svg.appendChild(el("rect", { x: x + 2, y: 6, width: colW - 4, height: 18, rx: 3, fill: VP[col].fill, stroke: "#999", "stroke-width": 0.6, "data-explain": `${VP[col].label} VPs` }));
    svg.appendChild(txt(x + colW / 2, 19, colW >= 60 ? HEAD[col] : VP[col].label.slice(0, 3), { "text-anchor": "middle", fill: VP[col].ink, class: "cm-score-h", "data-explain": `${VP[col].label} VPs` }));
  });
  svg.appendChild(txt(nameW + 5 * colW + colW / 2, 19, "Total", { "text-anchor": "middle", class: "cm-small cm-bold" }));
  for (let p = 0; p < n; p++) {
    const y = 30 + p * rowH;
    const colour = colourOf(payload, p);
    const by = (v.vp_by_colour || [])[p] || {};
    const sc = (payload.scores || v.scores || [])[p] || {};
    const win = (payload.winners || []).includes(p);
    svg.appendChild(el("rect", { x: 6, y: y + 2, width: 14, height: 18, rx: 3, fill: SEAT_FILL[colour] }));
    if (win) {
      svg.appendChild(el("rect", { x: 4, y: y, width: Wt - 8, height: rowH - 4, rx: 4, class: "cm-winner",
        "data-explain": `${colour} wins (most VPs; ties broken by most Iron, still tied: shared).` }));
      svg.appendChild(el("rect", { x: 6, y: y + 2, width: 14, height: 18, rx: 3, fill: SEAT_FILL[colour] }));
    }
    svg.appendChild(txt(26, y + 16, names[p], { class: "cm-name" }));
    VP_ORDER.forEach((col, i) => svg.appendChild(txt(nameW + i * colW + colW / 2, y + 16, String(by[col] || 0), { "text-anchor": "middle", class: "cm-score-n" })));
    const parts = Object.entries(sc).filter(([k, x]) => k !== "total" && x).map(([k, x]) => `${k.replace(/_/g, " ")} ${x}`);
    svg.appendChild(txt(nameW + 5 * colW + colW / 2, y + 16, String(sc.total ?? 0), { "text-anchor": "middle", class: "cm-score-total",
      "data-explain": `${colour}: ${sc.total ?? 0} VPs (${parts.join(", ") || "none"}); Iron ${v.gozoku[p].iron} (tie-break).` }));
  }
  return svg;
}

/** A short key of the goods: each picture with its word, and which goods are kept. */
export function legend(payload, ctx, W, fit = false) {
  const g = el("g");
  g.appendChild(txt(0, 14, "Goods", { class: "cm-area-title" }));
  let x = 0;
  let y = 40;
  for (const good of Object.keys(GOODS)) {
    const name = goodName(good);
    const w = 22 + name.length * 6.4;
    if (x > 0 && x + w > W) { x = 0; y += 24; }
    const item = el("g", { class: "cm-key-item", transform: `translate(${x},${y - 13})` }, [
      goodTile(good, 0, 0), txt(21, 13, name, { class: "cm-small" })]);
    g.appendChild(item);
    x += w + 12;
  }
  y += 22;
  const note = "Worker … Horse vanish at the end of each turn; Iron, Statue and Mirror are kept.";
  const lines = wrap(note, Math.floor(W / 6.2), 3);
  lines.forEach((l, i) => g.appendChild(txt(0, y + i * 15, l, { class: "cm-small" })));
  const H = y + (lines.length - 1) * 15 + 6;
  const svg = el("svg", { class: "cm-svg cm-legend" + (fit ? " cm-fit" : ""), viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    "data-explain": "Goods: the workforce (Worker … Horse) vanishes at the end of each turn; Iron, Statue and Mirror tokens are kept. Tap a good on a card for its name." });
  svg.appendChild(g);
  return svg;
}
