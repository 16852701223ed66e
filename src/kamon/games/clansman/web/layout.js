// I, Clansman board: the shelf layout — titled areas of items laid out in rows, packed
// into an SVG of a given width — and small boxes (counters, choosable spaces).
import { CARD_W, GAP, NS, PAD, TITLE_H, el, txt, wrap } from "./base.js";

/** An area: a titled box holding items laid out in rows within maxW. */
export function area(title, explain, items, maxW, opts = {}) {
  const inner = Math.max(CARD_W, maxW - 2 * PAD);
  const rows = [];
  let row = [];
  let rw = 0;
  for (const it of items) {
    if (row.length && rw + GAP + it.w > inner) { rows.push(row); row = []; rw = 0; }
    rw += (row.length ? GAP : 0) + it.w;
    row.push(it);
  }
  if (row.length) rows.push(row);
  const g = el("g", { class: `cm-area ${opts.cls || ""}` });
  let y = title ? TITLE_H + 6 : PAD;   // an untitled area (a panel's head) starts at once
  let width = 0;
  for (const r of rows) {
    let x = PAD;
    const h = Math.max(...r.map((it) => it.h));
    for (const it of r) {
      it.node.setAttribute("transform", `translate(${x},${y})`);
      g.appendChild(it.node);
      x += it.w + GAP;
    }
    width = Math.max(width, x - GAP + PAD);
    y += h + GAP;
  }
  if (!items.length) {
    g.appendChild(txt(PAD, y + 12, opts.empty || "—", { class: "cm-empty" }));
    y += 22;
    width = Math.max(width, 90);
  }
  const w = Math.max(width, Math.min(maxW, 2 * PAD + title.length * 8), opts.minW || 0);
  const h = y + PAD - GAP + 4;
  const bg = el("rect", { width: w, height: h, rx: 8, class: "cm-area-bg",
    "data-explain": explain });
  g.insertBefore(bg, g.firstChild);
  if (title) {
    g.insertBefore(txt(PAD, 15, title, { class: "cm-area-title", "data-explain": explain }),
      bg.nextSibling);
  }
  return { node: g, w, h, bg };
}

/** Pack areas left to right, wrapping, into an <svg> width W. `fit`: the drawing is
 *  stretched to its container's width (a phone: one unit is more than a pixel), and the
 *  last area of each row is widened to the right edge, for a tidy column. */
export function pack(areas, W, cls, fit = false) {
  const svg = el("svg", { class: `cm-svg ${cls || ""}${fit ? " cm-fit" : ""}`, xmlns: NS });
  let x = 0;
  let y = 0;
  let rowH = 0;
  let last = null;
  const widen = () => {
    if (fit && last && last.bg) last.bg.setAttribute("width", String(W - last.x));
  };
  for (const a of areas) {
    if (x > 0 && x + a.w > W) { widen(); x = 0; y += rowH + GAP; rowH = 0; }
    a.node.setAttribute("transform", `translate(${x},${y})`);
    svg.appendChild(a.node);
    last = { ...a, x };
    x += a.w + GAP;
    rowH = Math.max(rowH, a.h);
  }
  widen();
  const H = y + rowH + 1;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  return svg;
}

/** A small box item (a button-like space or a counter) for an area; `opts.maxW` bounds
 *  its width (a longer label is cut, a longer line under it wraps). */
export function boxItem(label, sub, explain, opts = {}) {
  const maxW = opts.maxW || Infinity;
  const want = opts.w || Math.max(90, 16 + Math.max(label.length * 7.4, (sub || "").length * 6.1));
  const w = Math.min(want, maxW);
  const shown = wrap(label, Math.floor((w - 14) / 7.4), 1)[0];
  const lines = sub ? wrap(sub, Math.floor((w - 14) / 6.1), 3) : [];
  const h = Math.max(opts.h || 0, lines.length ? 26 + 14 * lines.length : 26);
  const g = el("g", { class: `cm-box ${opts.cls || ""}`, "data-explain": explain }, [
    el("rect", { width: w, height: h, rx: 6, class: "cm-box-bg", fill: opts.fill }),
    txt(8, 17, shown, { class: "cm-box-t", fill: opts.ink }),
  ]);
  lines.forEach((l, i) => g.appendChild(txt(8, 32 + 14 * i, l, { class: "cm-small" })));
  return { node: g, w, h };
}

