// I, Clansman board: constants, small drawing helpers, seats, goods, card data and the
// legal actions indexed by what they act on.
import { seatText } from "../../names.js";

export const NS = "http://www.w3.org/2000/svg";

/** Seat order of the colours (actions.py SEATS). */
export const SEATS = ["blue", "orange", "teal", "pink"];
export const SEAT_FILL = { blue: "#2f6fdb", orange: "#e8820c", teal: "#12a09a", pink: "#dc4f98" };

/** VP colours as printed (military red, religion yellow, government purple, ...). */
export const VP = {
  military: { fill: "#c62828", ink: "#fff", label: "Military" },
  religion: { fill: "#f2c200", ink: "#222", label: "Religion" },
  government: { fill: "#7b3fa0", ink: "#fff", label: "Government" },
  economy: { fill: "#2e7d32", ink: "#fff", label: "Economy" },
  others: { fill: "#f4f1ea", ink: "#222", label: "Others" },
};
export const VP_ORDER = ["military", "religion", "government", "economy", "others"];

/** Goods: the rulebook's word and the token's colour. The first ten vanish at the end of
 *  a turn; Iron, Statue and Mirror are kept. */
export const GOODS = {
  worker: { name: "Worker", fill: "#a87b45" }, soldier: { name: "Soldier", fill: "#b71c1c" },
  architect: { name: "Architect", fill: "#6d4c41" }, monk: { name: "Monk", fill: "#d84a00" },
  bureaucrat: { name: "Bureaucrat", fill: "#6a1b9a" }, cloth: { name: "Cloth", fill: "#0277bd" },
  fish: { name: "Fish", fill: "#1a4f9c" }, pork: { name: "Pork", fill: "#c2185b" },
  pot: { name: "Pot", fill: "#a0522d" }, horse: { name: "Horse", fill: "#4e342e" },
  iron: { name: "Iron", fill: "#455a64" }, statue: { name: "Statue", fill: "#9a7a12" },
  mirror: { name: "Mirror", fill: "#607d8b" },
};
export const POOL_GOODS = Object.keys(GOODS).slice(0, 10);

/** Card frame colour by type. */
export const TYPE_BAND = {
  kochisei_shuraku: "#8d6e63", starting_clan: "#8d6e63", clan: "#6d4c41",
  royal_prince: "#b8860b", hero: "#37474f", kofun: "#4e5d2f", emperor: "#8e244d",
  mission: "#555",
};
export const TYPE_SHORT = {
  kochisei_shuraku: "Kochisei", starting_clan: "Start clan", clan: "Clan",
  royal_prince: "Royal Prince", hero: "Hero", kofun: "Kofun", emperor: "Emperor",
  mission: "Mission",
};
export const ORD = { 4: "4th", 5: "5th", 6: "6th", 7: "7th" };
export const PHASE = { marriage: "Marriage phase", production: "Production phase", over: "Game over" };
export const STEP = {
  marry: "choose where the daughter marries",
  produce: "use cards, then obtain the round's card",
  payment: "choose which printed cost to pay",
  hand: "take a Supply card into hand (option F)",
};
export const WEAK = ["reconstructed", "inferred", "unknown"];

export const CARD_W = 132;
export const CARD_H = 100;
export const GAP = 8;
export const PAD = 10;
export const TITLE_H = 20;

// ------------------------------------------------------------------ small helpers

/** Create an SVG element with attributes and children. */
export function el(tag, attrs = {}, children = []) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of [].concat(children)) if (c) e.appendChild(c);
  return e;
}

/** Create an HTML element with a class and text/children. */
export function html(tag, cls, children = []) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of [].concat(children)) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return e;
}

/** An SVG <text> with a string. */
export function txt(x, y, s, attrs = {}) {
  const t = el("text", { x, y, ...attrs });
  t.textContent = s;
  return t;
}

/** Split a string into at most `lines` lines of about `chars` characters (ellipsis). */
export function wrap(s, chars, lines) {
  const words = String(s).split(/\s+/);
  const out = [];
  let cur = "";
  for (const w of words) {
    if (!cur) cur = w;
    else if ((cur + " " + w).length <= chars) cur += " " + w;
    else { out.push(cur); cur = w; }
  }
  if (cur) out.push(cur);
  if (out.length > lines) {
    out.length = lines;
    out[lines - 1] = out[lines - 1].slice(0, chars - 1) + "…";
  }
  return out.map((l) => (l.length > chars ? l.slice(0, chars - 1) + "…" : l));
}

/** Seat colour name of seat p (the payload's seat name when it is a colour). */
export function colourOf(payload, p) {
  const n = payload.seats && payload.seats[p] && payload.seats[p].name;
  return n && SEAT_FILL[n] ? n : SEATS[p];
}

/** Display name of seat p in words: the player's name or the bot's level with the colour
 *  and "you" ("Alice (blue, you)", "Random bot (orange)"; names.js). */
export function seatLabel(payload, p) {
  return (payload.seats || [])[p] ? seatText(payload, p) : colourOf(payload, p);
}

/** 'worker=2,iron=1' -> [['worker', 2], ['iron', 1]]. */
export function parseGoods(code) {
  if (!code) return [];
  return code.split(",").filter(Boolean).map((p) => {
    const [g, n] = p.split("=");
    return [g, Number(n)];
  });
}

/** The rulebook's word for a good ("Worker"; an unknown code as it is). */
export function goodName(good) {
  return (GOODS[good] || { name: good }).name;
}

/** [['worker', 2]] -> '2 workers' (fish stays fish). */
export function goodsWords(list) {
  if (!list.length) return "nothing";
  return list.map(([g, n]) => `${n} ${g}${n === 1 || g === "fish" ? "" : "s"}`).join(" + ");
}

/** The component entry of a card id (never undefined). */
export function comp(ctx, cid) {
  const c = ctx && ctx.data && ctx.data.components ? ctx.data.components[cid] : null;
  return c || { text: `card ${cid}`, confidence: "stated", name: `card ${cid}`, type: "" };
}

/** True when a component's confidence marks it reconstructed / inferred / unknown. */
export function isWeak(c) {
  return WEAK.some((w) => String(c.confidence || "").includes(w)) || Boolean(c.note);
}

/** Make node the board's target of a legal action (interact.js: a click plays it, a tap
 *  selects and explains it); without the page's binding, a click plays it. */
export function makeLegal(node, action, ctx) {
  if (ctx.bind) { ctx.bind(node, action); return; }
  node.classList.add("legal");
  node.setAttribute("data-action-id", String(action.id));
  node.addEventListener("click", (e) => { e.stopPropagation(); ctx.act(action.id); });
}

/** Whether the board is drawn for a phone: a narrow board, or a finger for a pointer. */
export function isCompact(width) {
  const coarse = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
  return width < 600 || coarse;
}

/** The layout width (SVG units) for a compact board `width` px wide: as many whole cards a
 *  row as fit (two at least), so that the drawing, stretched to the width, fills it and
 *  is drawn larger than one unit a pixel; a board too narrow for two cards is drawn 1:1. */
export function compactWidth(width) {
  const two = 2 * CARD_W + GAP + 2 * PAD;
  if (width < two) return Math.max(CARD_W + 2 * PAD, Math.floor(width));
  const k = Math.floor((width - 2 * PAD + GAP) / (CARD_W + GAP));
  return k * CARD_W + (k - 1) * GAP + 2 * PAD;
}

/** Sizes that depend on the screen: on a phone (narrow or touch) anything that can be
 *  chosen is at least 44 px each way once drawn at `scale` px a unit (the layout is
 *  stretched to the board's width: one unit is `scale` pixels, never less than one). */
export function sizes(width, scale = 1) {
  const compact = isCompact(width);
  const s = Math.max(1, scale);
  return { compact, scale: s, btnH: compact ? Math.ceil(46 / s) : 20,
    boxH: compact ? Math.ceil(48 / s) : 40 };
}

// ------------------------------------------------------------------ legal actions

/** Index the legal actions by what they act on (parsed from the notation). */
export function indexLegal(payload) {
  const L = { marry: new Map(), convert: new Map(), hero: new Map(), obtain: new Map(),
    hand: new Map(), payment: [], f: null, g: null };
  for (const a of payload.legal || []) {
    const t = String(a.notation || "").split(" ");
    const verb = t[0];
    if (verb === "marry") L.marry.set(t.slice(1).join(" "), a);
    else if (verb === "convert") {
      const key = t.slice(1, -1).join(" ");
      if (!L.convert.has(key)) L.convert.set(key, []);
      L.convert.get(key).push({ good: t[t.length - 1], action: a });
    } else if (verb === "hero") L.hero.set(t[1], a);
    else if (verb === "obtain" && t[2] === "tadokoro") {
      if (t[1] === "2") L.f = a; else L.g = a;
    } else if (verb === "obtain") L.obtain.set(t[1], a);
    else if (verb === "hand") L.hand.set(t[1], a);
    else if (verb === "payment") L.payment.push(a);
  }
  return L;
}

/** How the notation names a card in seat owner's clan row (owner -1: a Royal Prince). */
export function clanKey(owner, cid) {
  return cid === "300" && owner >= 0 ? `300 ${SEATS[owner]}` : cid;
}
