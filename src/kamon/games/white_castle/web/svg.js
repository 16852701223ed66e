// Drawing helpers of The White Castle board: SVG and HTML elements, text, and the tiles the
// board is made of. A tile is one SVG of TILE_W units wide (a room, a bridge, a domain
// row...); tiles sit in a CSS grid that puts three side by side on a laptop and one per
// line on a phone, where a unit is about 1.3 px, so a target of TARGET units is >= 44 px.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const TILE_W = 280;
export const TARGET = 36;   // the smallest side of anything that can be chosen, in units

export const COLOURS = ["coral", "black", "white"];
export const RESOURCES = ["food", "iron", "pearl"];
export const WORKERS = ["courtier", "gardener", "warrior"];
export const ROW_NAMES = ["top", "middle", "bottom"];
export const ROOMS = ["steward1", "steward2", "steward3", "diplomat1", "diplomat2"];
export const ROOM_TITLES = ["Steward room 1", "Steward room 2", "Steward room 3",
  "Diplomat room 1", "Diplomat room 2"];
export const ROOM_DATA_IDS = ["steward_room_1", "steward_room_2", "steward_room_3",
  "diplomat_room_1", "diplomat_room_2"];
export const BLOCK_NAMES = [["top", "middle", "bottom"], ["top", "middle", "bottom"],
  ["top", "middle", "bottom"], ["upper", "lower"], ["upper", "lower"]];
export const LOCS = ["gate", ...ROOMS, "daimyo"];
export const LOC_TITLES = ["the Gate", ...ROOM_TITLES, "the Daimyo's room"];
/** The locations in words short enough for an 85-unit chip ("climb from / Steward 3"). */
export const LOC_SHORT = ["the Gate", "Steward 1", "Steward 2", "Steward 3", "Diplomat 1",
  "Diplomat 2", "the Daimyo"];
export const CLANS = ["blue", "yellow", "red", "green"];
export const CLAN_FILL = { blue: "#2f6fdb", yellow: "#e8b90f", red: "#d13b2f",
  green: "#2f9a48", tokugawa: "#7a3fa6" };
export const DIE_FILL = { coral: "#ec7a5f", black: "#2a2a2e", white: "#f7f4ec" };
export const DIE_INK = { coral: "#fff", black: "#fff", white: "#222" };
export const RES_FILL = { food: "#d98c2b", iron: "#7d8791", pearl: "#9fd3e6" };
export const PRINTED = [3, 3, 3, 4, 4, 5, 5, 1];

/** Create an SVG element with attributes and children. */
export function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

/** Create an HTML element: attributes (`text` sets its text) and children. */
export function html(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") el.textContent = v;
    else if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

/** An SVG text element. */
export function label(x, y, str, cls = "wc-t", attrs = {}) {
  const t = svg("text", { x, y, class: cls, ...attrs });
  t.textContent = str;
  return t;
}

/** The words of `str` in lines of about `chars` characters, at most `lines` of them. */
export function lines(str, chars, max = 3) {
  const out = [];
  let line = "";
  for (const w of String(str).split(" ")) {
    if (line && (line + " " + w).length > chars) { out.push(line); line = w; }
    else line = line ? line + " " + w : w;
  }
  if (line) out.push(line);
  if (out.length > max) { out.length = max; out[max - 1] += "…"; }
  return out;
}

/** Text wrapped to at most `max` lines of about `chars` characters. */
export function wrapped(x, y, str, chars, cls = "wc-t", lineHeight = 13, max = 3, attrs = {}) {
  const g = svg("g");
  lines(str, chars, max).forEach((l, i) => g.appendChild(label(x, y + i * lineHeight, l, cls, attrs)));
  return g;
}

/** A rectangle that outlines a choosable group (first child, highlighted when legal). */
export function frame(x, y, width, height, cls = "", rx = 6) {
  return svg("rect", { x, y, width, height, rx, class: `frame ${cls}`.trim() });
}

/** A board area: a titled section holding tiles, named for the page (data-area). */
export function area(board, name, title, cls = "") {
  const section = html("section", { class: `wc-area ${cls}`.trim(), "data-area": name });
  if (title) section.appendChild(html("h3", { class: "wc-area-title", text: title }));
  const tiles = html("div", { class: "wc-tiles" });
  section.appendChild(tiles);
  board.appendChild(section);
  return { section, tiles };
}

/** A tile: an SVG of TILE_W x height units in an area's grid (`wide`: the whole row). */
export function tile(tiles, height, title = "", cls = "") {
  const s = svg("svg", { viewBox: `0 0 ${TILE_W} ${height}`, class: "wc-svg", role: "img",
                         "aria-label": title || "board" });
  const box = html("div", { class: `wc-tile ${cls}`.trim() });
  box.appendChild(s);
  tiles.appendChild(box);
  return s;
}

/** Set a tile's height once its content is drawn. */
export function fitTile(s, height) {
  s.setAttribute("viewBox", `0 0 ${TILE_W} ${height}`);
}
