// I, Clansman board: the score table (VPs by colour, as if the game ended now) and the
// legend of goods and marks.
import { GOODS, SEAT_FILL, VP, VP_ORDER, colourOf, el, txt, wrap } from "./base.js";

/** The score table: VPs by colour and totals for every seat (as if the game ended now). */
export function scoreTable(payload, W) {
  const v = payload.view;
  const n = (v.gozoku || []).length;
  const rowH = 28;
  const names = (v.gozoku || []).map((g, p) => colourOf(payload, p) + (payload.you === p ? " (you)" : "")
    + ((payload.winners || []).includes(p) ? " ★ wins" : ""));
  const nameW = Math.max(90, 34 + Math.max(...names.map(t => t.length)) * 7.8);
  const colW = Math.max(30, Math.min(70, (W - nameW - 20) / 6));
  const H = 30 + n * rowH + 8;
  const Wt = nameW + 6 * colW + 12;
  const svg = el("svg", { class: "cm-svg cm-scores", viewBox: `0 0 ${Wt} ${H}`, width: Wt, height: H });
  svg.appendChild(el("rect", { width: Wt, height: H, rx: 8, class: "cm-area-bg",
    "data-explain": "Current VPs by colour (Military, Religion, Government, Economy, Others) and the total as if the game ended now. Ties: most Iron wins." }));
  svg.appendChild(txt(8, 19, payload.over ? "Final scores" : "Scores now", { class: "cm-area-title" }));
  VP_ORDER.forEach((col, i) => {
    const x = nameW + i * colW;
    svg.appendChild(el("rect", { x: x + 2, y: 6, width: colW - 4, height: 18, rx: 3, fill: VP[col].fill, stroke: "#999", "stroke-width": 0.6, "data-explain": `${VP[col].label} VPs` }));
    svg.appendChild(txt(x + colW / 2, 19, colW > 60 ? VP[col].label.slice(0, 8) : VP[col].label.slice(0, 3), { "text-anchor": "middle", fill: VP[col].ink, class: "cm-score-h" }));
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

/** The goods legend: what each chip stands for, and which goods are kept. */
export function legend(payload, ctx, W) {
  const g = el("g");
  let x = 0;
  let y = 14;
  for (const [good, [abbr, fill]] of Object.entries(GOODS)) {
    const label = `${abbr} ${good}`;
    const w = 18 + label.length * 6;
    if (x + w > W) { x = 0; y += 20; }
    g.appendChild(el("rect", { x, y: y - 10, width: 16, height: 14, rx: 3, fill }));
    g.appendChild(txt(x + 8, y, abbr, { "text-anchor": "middle", class: "cm-chip-t" }));
    g.appendChild(txt(x + 19, y, good, { class: "cm-small" }));
    x += w + 6;
  }
  y += 22;
  const note = "W…Ho vanish at the end of each turn; Fe, St and Mi are kept.";
  const lines = wrap(note, Math.floor(W / 5.8), 3);
  lines.forEach((l, i) => g.appendChild(txt(0, y + i * 14, l, { class: "cm-small" })));
  const H = y + lines.length * 14;
  const svg = el("svg", { class: "cm-svg cm-legend", viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    "data-explain": "Goods: the workforce (Worker … Horse) vanishes at the end of each turn; Iron, Statue and Mirror tokens are kept." });
  svg.appendChild(g);
  return svg;
}

