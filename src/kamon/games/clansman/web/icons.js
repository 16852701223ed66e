// I, Clansman board: the goods as small pictures (a white pictogram on a tile of the good's
// colour, its count before it) with the rulebook's word as their accessible name, and the
// name tip that a tap, a click, a hover or the keyboard's focus shows over a picture (the
// page's CSP allows no icon font or outside picture: every shape is drawn here).
import { GOODS, el, goodName, txt } from "./base.js";

const TILE = 17;   // the tile's side, in SVG units
const DIGIT = 7;   // the width of one digit of the count (11.5 px bold)

/** Each good's pictogram: [tag, attributes] shapes in a 16 x 16 box, white unless `hole`
 *  (drawn in the tile's colour, to cut a detail out of a white shape). */
const SHAPES = {
  worker: [  // a farmer in a straw hat
    ["path", { d: "M1.5,6.2 L8,1.6 L14.5,6.2 Z" }],
    ["circle", { cx: 8, cy: 7.6, r: 2.1 }],
    ["path", { d: "M4,15 C4,11.2 5.8,10.2 8,10.2 C10.2,10.2 12,11.2 12,15 Z" }]],
  soldier: [  // a sword
    ["path", { d: "M8,1 L9.4,3.2 L9.4,10.2 L6.6,10.2 L6.6,3.2 Z" }],
    ["rect", { x: 3.5, y: 10.2, width: 9, height: 1.8, rx: 0.6 }],
    ["rect", { x: 7.1, y: 12, width: 1.8, height: 2.4 }],
    ["circle", { cx: 8, cy: 14.6, r: 1.1 }]],
  architect: [  // a hall with its roof and door
    ["path", { d: "M1,7.5 L8,2 L15,7.5 Z" }],
    ["rect", { x: 3, y: 7.5, width: 10, height: 7 }],
    ["rect", { x: 6.8, y: 10, width: 2.4, height: 4.5, hole: true }]],
  monk: [  // a figure in a robe with a halo
    ["circle", { cx: 8, cy: 4.6, r: 3.8, fill: "none", stroke: "#fff", "stroke-width": 0.9 }],
    ["circle", { cx: 8, cy: 4.6, r: 2.2 }],
    ["path", { d: "M2.5,15 C3,10.5 5.2,8 8,8 C10.8,8 13,10.5 13.5,15 Z" }]],
  bureaucrat: [  // a scroll
    ["rect", { x: 3.5, y: 3, width: 9, height: 10 }],
    ["rect", { x: 2, y: 1.6, width: 12, height: 2.4, rx: 1.2 }],
    ["rect", { x: 2, y: 12.2, width: 12, height: 2.4, rx: 1.2 }],
    ["rect", { x: 5, y: 6, width: 6, height: 1, hole: true }],
    ["rect", { x: 5, y: 8.4, width: 6, height: 1, hole: true }]],
  cloth: [  // a robe laid flat
    ["path", { d: "M1.2,4.4 L5.4,2 L8,4.6 L10.6,2 L14.8,4.4 L13.2,8 L11.6,7.3 L11.6,14.6 L4.4,14.6 L4.4,7.3 L2.8,8 Z" }],
    ["path", { d: "M8,4.6 L6.6,14.6 L7.4,14.6 Z", hole: true }]],
  fish: [
    ["path", { d: "M1,8 C3.6,3.4 9.4,3.4 11.8,8 C9.4,12.6 3.6,12.6 1,8 Z" }],
    ["path", { d: "M10.6,8 L15.2,4.2 L15.2,11.8 Z" }],
    ["circle", { cx: 4.3, cy: 7.2, r: 0.95, hole: true }]],
  pork: [  // a pig's head
    ["path", { d: "M3,6.2 L3.4,1.8 L7,4.2 Z" }],
    ["path", { d: "M13,6.2 L12.6,1.8 L9,4.2 Z" }],
    ["circle", { cx: 8, cy: 9, r: 5.6 }],
    ["ellipse", { cx: 8, cy: 10.6, rx: 2.6, ry: 1.8, hole: true }],
    ["circle", { cx: 7, cy: 10.6, r: 0.6 }],
    ["circle", { cx: 9, cy: 10.6, r: 0.6 }]],
  pot: [  // a jar
    ["path", { d: "M5.2,1.5 H10.8 V3.2 H10 C13.6,5 14.2,9 12.6,12 C11.6,14 10,14.8 8,14.8 C6,14.8 4.4,14 3.4,12 C1.8,9 2.4,5 6,3.2 H5.2 Z" }],
    ["rect", { x: 3.4, y: 7.4, width: 9.2, height: 1, hole: true }]],
  horse: [  // a horseshoe
    ["path", { d: "M3.6,15 V8 A4.4,4.4 0 0 1 12.4,8 V15", fill: "none", stroke: "#fff",
      "stroke-width": 3 }],
    ["circle", { cx: 3.6, cy: 10.6, r: 0.55, hole: true }],
    ["circle", { cx: 12.4, cy: 10.6, r: 0.55, hole: true }],
    ["circle", { cx: 5, cy: 5, r: 0.55, hole: true }],
    ["circle", { cx: 11, cy: 5, r: 0.55, hole: true }]],
  iron: [  // an ingot
    ["path", { d: "M1.2,13 L3.8,6.4 L12.2,6.4 L14.8,13 Z" }],
    ["path", { d: "M4.4,4.4 L5.2,2.6 L10.8,2.6 L11.6,4.4 Z" }]],
  statue: [  // a seated figure on a pedestal
    ["circle", { cx: 8, cy: 3.6, r: 2.1 }],
    ["path", { d: "M3.6,11.6 C3.6,8 5.8,6.4 8,6.4 C10.2,6.4 12.4,8 12.4,11.6 Z" }],
    ["rect", { x: 2, y: 12.2, width: 12, height: 2.8, rx: 0.6 }]],
  mirror: [  // a round bronze mirror with its knob
    ["circle", { cx: 8, cy: 8, r: 6.2, fill: "none", stroke: "#fff", "stroke-width": 1.7 }],
    ["circle", { cx: 8, cy: 8, r: 3.6, fill: "none", stroke: "#fff", "stroke-width": 0.8 }],
    ["circle", { cx: 8, cy: 8, r: 1.5 }]],
};

/** The pictogram of a good on its tile (TILE x TILE at x, y): an SVG group. */
export function goodTile(good, x, y) {
  const fill = (GOODS[good] || { fill: "#777" }).fill;
  const g = el("g", { class: "cm-tile", transform: `translate(${x},${y})` });
  g.appendChild(el("rect", { width: TILE, height: TILE, rx: 3.5, fill, class: "cm-tile-bg" }));
  const art = el("g", { transform: "translate(0.5,0.5)", fill: "#fff" });
  for (const [tag, attrs] of SHAPES[good] || []) {
    const { hole, ...rest } = attrs;
    art.appendChild(el(tag, hole ? { ...rest, fill } : rest));
  }
  if (!SHAPES[good]) art.appendChild(txt(8, 12, good.slice(0, 1).toUpperCase(), { "text-anchor": "middle", class: "cm-tile-letter" }));
  g.appendChild(art);
  return g;
}

/** The accessible name of `n` of a good: "Worker: 2". */
export function goodLabel(good, n) {
  return `${goodName(good)}: ${n}`;
}

/** One good with its count (the count, then the picture), its baseline at y: a picture
 *  named "Worker: 2", focusable (the board's one Tab stop among them is set by nameTips);
 *  returns [group, width]. */
export function goodToken(good, n, x, y) {
  const cw = String(n).length * DIGIT;
  const w = cw + 1 + TILE;
  const label = goodLabel(good, n);
  const g = el("g", { class: "cm-res", role: "img", "aria-label": label, tabindex: -1,
    "data-good": good, "data-count": n, transform: `translate(${x},${y - 13})` }, [
    el("rect", { x: -1.5, y: -1.5, width: w + 3, height: TILE + 3, rx: 4, class: "cm-res-hit" }),
    txt(0, 13, String(n), { class: "cm-res-n" }),
    goodTile(good, cw + 1, 0),
  ]);
  return [g, w];
}

/** The width goodToken draws a count `n` at. */
export function tokenWidth(n) {
  return String(n).length * DIGIT + 1 + TILE;
}

// ------------------------------------------------------------------ the name tip

let tip = null;       // the tip element on screen, or null
let tipFor = null;    // the picture it names
let docHooked = false;

/** Show the name of picture `node` in a tip just over it (below it at the board's top). */
function showTip(board, node) {
  hideTip();
  const t = document.createElement("div");
  t.className = "cm-tip";
  t.setAttribute("role", "tooltip");
  t.id = "cm-tip";
  t.textContent = node.getAttribute("aria-label");
  board.appendChild(t);
  node.setAttribute("aria-describedby", "cm-tip");
  const b = board.getBoundingClientRect();
  const r = node.getBoundingClientRect();
  const w = t.offsetWidth;
  const h = t.offsetHeight;
  const left = Math.max(0, Math.min(b.width - w, r.left - b.left + r.width / 2 - w / 2));
  let top = r.top - b.top - h - 6;
  if (r.top - h - 6 < 0 || top < 0) top = r.bottom - b.top + 6;
  t.style.left = `${Math.round(left)}px`;
  t.style.top = `${Math.round(top)}px`;
  tip = t;
  tipFor = node;
}

/** Take the tip away. */
function hideTip() {
  if (tipFor) tipFor.removeAttribute("aria-describedby");
  if (tip) tip.remove();
  tip = null;
  tipFor = null;
}

/** Arrow keys: a step through the board's pictures in reading order. */
const ARROWS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** The pictures of goods on `board` (the board's outer element) show their names: a tap or
 *  a click (which still reaches the card the picture is on: a tap on a choice also selects
 *  it), the mouse over one, or the keyboard's focus (Enter or Space there shows the name
 *  and plays nothing). A tap elsewhere, Escape, or leaving it takes the tip away. The
 *  pictures are one Tab stop (a full board has over a hundred): the arrows move between
 *  them (a roving tabindex, as in a toolbar). */
export function nameTips(board) {
  const first = board.querySelector(".cm-res");
  if (first) first.setAttribute("tabindex", "0");
  const res = (e) => (e.target && e.target.closest ? e.target.closest(".cm-res") : null);
  board.addEventListener("click", (e) => {
    const node = res(e);
    if (node) showTip(board, node);
  }, true);
  board.addEventListener("keydown", (e) => {
    const node = res(e);
    if (e.key === "Escape") { hideTip(); return; }
    const step = node ? ARROWS[e.key] : 0;
    if (step) {  // the arrows go from picture to picture; Tab leaves them
      const all = [...board.querySelectorAll(".cm-res")];
      const next = all[all.indexOf(node) + step];
      e.preventDefault();
      if (!next) return;
      node.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
      return;
    }
    if (!node || (e.key !== "Enter" && e.key !== " ")) return;
    e.preventDefault();
    e.stopPropagation();   // the card around it is not played
    showTip(board, node);
  }, true);
  board.addEventListener("focusin", (e) => { const node = res(e); if (node) showTip(board, node); });
  board.addEventListener("focusout", (e) => { if (res(e) === tipFor) hideTip(); });
  board.addEventListener("pointerover", (e) => {
    const node = res(e);
    if (node && e.pointerType === "mouse" && node !== tipFor) showTip(board, node);
  });
  board.addEventListener("pointerout", (e) => {
    const node = res(e);
    if (node && e.pointerType === "mouse" && node === tipFor
        && !(e.relatedTarget && node.contains(e.relatedTarget))
        && document.activeElement !== node) hideTip();
  });
  if (!docHooked) {
    docHooked = true;
    document.addEventListener("click", (e) => {
      if (tip && !(e.target && e.target.closest && e.target.closest(".cm-res"))) hideTip();
    }, true);
    addEventListener("scroll", () => { if (tip && !tip.isConnected) hideTip(); }, { passive: true });
  }
}
