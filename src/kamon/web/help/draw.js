// Small labelled diagrams of a board's parts for the Help (help.js): an SVG drawn from a
// list of shapes, each labelled part a <g class="hd-part" data-part="NAME"> holding its
// label's <text>. Colours are SVG presentation attributes (the pages' CSP allows no
// inline style); sizes and fonts come from tutorial.css.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

/** A text element (`small`: the smaller, grey kind). */
export function t(x, y, words, small = false, anchor = "start") {
  const node = s("text", { x, y, "text-anchor": anchor, class: small ? "hd-small" : null });
  node.textContent = words;
  return node;
}

/** A labelled part: a box (or the `shape` given) with its name inside at the top-left
 *  (`under`: a second, smaller line). */
export function box(name, x, y, w, h, fill, under = "", shape = null) {
  return s("g", { class: "hd-part", "data-part": name },
    shape || s("rect", { x, y, width: w, height: h, rx: 5, fill, stroke: "#8a7a5c" }),
    t(x + 5, y + 13, name),
    under ? t(x + 5, y + 25, under, true) : null);
}

/** A die: a rounded square with its value. */
export function die(x, y, value, fill = "#ec7a5f", ink = "#fff", size = 18) {
  const g = s("g", {}, s("rect", { x, y, width: size, height: size, rx: 3, fill,
                                    stroke: "#333" }));
  const v = t(x + size / 2, y + size * 0.72, String(value), false, "middle");
  v.setAttribute("fill", ink);
  g.append(v);
  return g;
}

/** A labelled point of interest: a short line from (x1, y1) to the label at (x2, y2). */
export function callout(name, x1, y1, x2, y2, anchor = "start") {
  return s("g", { class: "hd-part", "data-part": name },
    s("line", { x1, y1, x2, y2, stroke: "#555", "stroke-width": 1 }),
    s("circle", { cx: x1, cy: y1, r: 2.5, fill: "#555" }),
    t(x2 + (anchor === "end" ? -3 : 3), y2 + 4, name, false, anchor));
}

/** The diagram's SVG: width x height units, a title for screen readers. */
export function figure(title, width, height, ...parts) {
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "help-diagram",
                         role: "img", "aria-label": title });
  svg.append(s("title", {}, title), ...parts);
  return svg;
}

/** The board element named by a selector, under #board. */
export function onBoard(selector) {
  return () => document.querySelector(`#board ${selector}`);
}

/** A White Castle tile by its title (its SVG's aria-label), as its box in the grid. */
export function tileNamed(label, within = "") {
  return () => {
    const svg = document.querySelector(`#board ${within} svg.wc-svg[aria-label="${label}"]`);
    return svg ? svg.closest(".wc-tile") || svg : null;
  };
}

/** An I, Clansman area (a titled box) whose title starts with `prefix`, under `scope`. */
export function areaTitled(prefix, scope = "") {
  return () => {
    const titles = document.querySelectorAll(`#board ${scope} text.cm-area-title`);
    const hit = [...titles].find(x => x.textContent.startsWith(prefix));
    return hit ? hit.closest("g.cm-area") : null;
  };
}
