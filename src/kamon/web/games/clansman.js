/**
 * I, Clansman — the browser board (plain ES module + inline SVG, no build step).
 *
 * render(root, payload, ctx) draws, from payload.view: the status (round, century,
 * phase, step, start player, the decision), the producing seat's pool, the centre
 * (century piles as counts, the Supply, Royal Princes and the Miyake row, Heroes,
 * Kofun, Emperor cards, the Bank), one panel per Gozoku (clans with the daughters on
 * them, Tadokoro, Missions, Kofun, Hero, hand, items) and the VPs by colour.
 * Every legal action that has a place on the table is drawn there with class
 * `legal`, `data-action-id` and a click calling ctx.act(id).
 */

const NS = "http://www.w3.org/2000/svg";

/** Seat order of the colours (actions.py SEATS). */
const SEATS = ["blue", "orange", "teal", "pink"];
const SEAT_FILL = { blue: "#2f6fdb", orange: "#e8820c", teal: "#12a09a", pink: "#dc4f98" };

/** VP colours as printed (military red, religion yellow, government purple, ...). */
const VP = {
  military: { fill: "#c62828", ink: "#fff", label: "Military" },
  religion: { fill: "#f2c200", ink: "#222", label: "Religion" },
  government: { fill: "#7b3fa0", ink: "#fff", label: "Government" },
  economy: { fill: "#2e7d32", ink: "#fff", label: "Economy" },
  others: { fill: "#f4f1ea", ink: "#222", label: "Others" },
};
const VP_ORDER = ["military", "religion", "government", "economy", "others"];

/** Goods: short label and chip colour. The first ten vanish at the end of a turn. */
const GOODS = {
  worker: ["W", "#b08850"], soldier: ["So", "#b71c1c"], architect: ["Ar", "#6d4c41"],
  monk: ["Mo", "#e65100"], bureaucrat: ["Bu", "#6a1b9a"], cloth: ["Cl", "#0288d1"],
  fish: ["Fi", "#1a4f9c"], pork: ["Po", "#d81b60"], pot: ["Pt", "#a0522d"],
  horse: ["Ho", "#5d4037"], iron: ["Fe", "#455a64"], statue: ["St", "#b8921e"],
  mirror: ["Mi", "#78909c"],
};
const POOL_GOODS = Object.keys(GOODS).slice(0, 10);

/** Card frame colour by type. */
const TYPE_BAND = {
  kochisei_shuraku: "#8d6e63", starting_clan: "#8d6e63", clan: "#6d4c41",
  royal_prince: "#b8860b", hero: "#37474f", kofun: "#4e5d2f", emperor: "#8e244d",
  mission: "#555",
};
const TYPE_SHORT = {
  kochisei_shuraku: "Kochisei", starting_clan: "Start clan", clan: "Clan",
  royal_prince: "Royal Prince", hero: "Hero", kofun: "Kofun", emperor: "Emperor",
  mission: "Mission",
};
const ORD = { 4: "4th", 5: "5th", 6: "6th", 7: "7th" };
const PHASE = { marriage: "Marriage phase", production: "Production phase", over: "Game over" };
const STEP = {
  marry: "choose where the daughter marries",
  produce: "use cards, then obtain the round's card",
  payment: "choose which printed cost to pay",
  hand: "take a Supply card into hand (option F)",
};
const WEAK = ["reconstructed", "inferred", "unknown"];

const CARD_W = 132;
const CARD_H = 100;
const GAP = 8;
const PAD = 10;
const TITLE_H = 20;

let lastCall = null;
let resizeHooked = false;

// ------------------------------------------------------------------ small helpers

/** Create an SVG element with attributes and children. */
function el(tag, attrs = {}, children = []) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of [].concat(children)) if (c) e.appendChild(c);
  return e;
}

/** Create an HTML element with a class and text/children. */
function html(tag, cls, children = []) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const c of [].concat(children)) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return e;
}

/** An SVG <text> with a string. */
function txt(x, y, s, attrs = {}) {
  const t = el("text", { x, y, ...attrs });
  t.textContent = s;
  return t;
}

/** Split a string into at most `lines` lines of about `chars` characters (ellipsis). */
function wrap(s, chars, lines) {
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
function colourOf(payload, p) {
  const n = payload.seats && payload.seats[p] && payload.seats[p].name;
  return n && SEAT_FILL[n] ? n : SEATS[p];
}

/** Display name of seat p: its colour, plus "(you)" / "(bot)". */
function seatLabel(payload, p) {
  const s = (payload.seats || [])[p] || {};
  const colour = colourOf(payload, p);
  const extra = [];
  if (s.name && s.name !== colour) extra.push(s.name);
  if (payload.you === p) extra.push("you");
  if (s.kind === "bot") extra.push("bot" + (s.level ? " " + s.level : ""));
  return colour + (extra.length ? ` (${extra.join(", ")})` : "");
}

/** 'worker=2,iron=1' -> [['worker', 2], ['iron', 1]]. */
function parseGoods(code) {
  if (!code) return [];
  return code.split(",").filter(Boolean).map((p) => {
    const [g, n] = p.split("=");
    return [g, Number(n)];
  });
}

/** [['worker', 2]] -> '2 workers'. */
function goodsWords(list) {
  if (!list.length) return "nothing";
  return list.map(([g, n]) => `${n} ${g}${n === 1 ? "" : "s"}`).join(" + ");
}

/** The component entry of a card id (never undefined). */
function comp(ctx, cid) {
  const c = ctx && ctx.data && ctx.data.components ? ctx.data.components[cid] : null;
  return c || { text: `card ${cid}`, confidence: "stated", name: `card ${cid}`, type: "" };
}

/** True when a component's confidence marks it reconstructed / inferred / unknown. */
function isWeak(c) {
  return WEAK.some((w) => String(c.confidence || "").includes(w)) || Boolean(c.note);
}

/** Mark an element clickable for one legal action. */
function makeLegal(node, action, ctx) {
  node.classList.add("legal");
  node.setAttribute("data-action-id", String(action.id));
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  const go = (e) => { e.stopPropagation(); ctx.act(action.id); };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") go(e); });
  const ex = node.getAttribute("data-explain") || "";
  node.setAttribute("data-explain", `${ex}${ex ? " — " : ""}CLICK: ${action.notation} (${action.text})`);
}

// ------------------------------------------------------------------ legal actions

/** Index the legal actions by what they act on (parsed from the notation). */
function indexLegal(payload) {
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
function clanKey(owner, cid) {
  return cid === "300" && owner >= 0 ? `300 ${SEATS[owner]}` : cid;
}

// ------------------------------------------------------------------ drawing cards

/** A row of good chips ('2W', '1Fe') starting at x; returns [group, width]. */
function chips(list, x, y, opts = {}) {
  const g = el("g");
  let cx = x;
  for (const [good, n] of list) {
    const [abbr, fill] = GOODS[good] || [good.slice(0, 2), "#777"];
    const label = `${n}${abbr}`;
    const w = 7 + label.length * 6.4;
    g.appendChild(el("rect", { x: cx, y: y - 10, width: w, height: 14, rx: 3, fill,
      class: "cm-chip" }));
    g.appendChild(txt(cx + w / 2, y, label, { "text-anchor": "middle", class: "cm-chip-t" }));
    cx += w + (opts.gap ?? 2);
  }
  return [g, cx - x];
}

/** One use line of a clan-like card: 'in → out / out' as chips. */
function usesLine(c, x, y, maxW) {
  const uses = String(c.uses || "").split("|").filter(Boolean).map((u) => {
    const [i, o] = u.split(">");
    return { inp: parseGoods(i), out: parseGoods(o) };
  });
  const g = el("g");
  if (!uses.length) return g;
  let cx = x;
  const inp = uses[0].inp;
  if (inp.length) {
    const [ig, w] = chips(inp, cx, y);
    g.appendChild(ig);
    cx += w + 1;
  } else {
    g.appendChild(txt(cx, y, "make", { class: "cm-small" }));
    cx += 28;
  }
  g.appendChild(txt(cx, y, "→", { class: "cm-arrow" }));
  cx += 12;
  uses.forEach((u, i) => {
    if (cx > x + maxW - 24) return;
    if (i) { g.appendChild(txt(cx, y, "/", { class: "cm-small" })); cx += 6; }
    const [og, w] = chips(u.out, cx, y);
    g.appendChild(og);
    cx += w + 1;
  });
  return g;
}

/** The cost options of a card as chips ('or' between options). */
function costLine(c, x, y) {
  const g = el("g");
  const opts = String(c.cost || "").split("|").filter(Boolean);
  let cx = x;
  if (!opts.length) return g;
  g.appendChild(txt(cx, y, "cost", { class: "cm-small" }));
  cx += 24;
  opts.forEach((o, i) => {
    if (i) { g.appendChild(txt(cx, y, "or", { class: "cm-small" })); cx += 14; }
    const [cg, w] = chips(parseGoods(o), cx, y);
    g.appendChild(cg);
    cx += w + 2;
  });
  return g;
}

/** A VP badge (coloured square with the amount). */
function vpBadge(x, y, amount, colour, size = 18) {
  const v = VP[colour] || VP.others;
  return el("g", { class: "cm-vp" }, [
    el("rect", { x, y, width: size, height: size, rx: 4, fill: v.fill, stroke: "#333",
      "stroke-width": 0.8 }),
    txt(x + size / 2, y + size * 0.72, String(amount), { "text-anchor": "middle",
      fill: v.ink, class: "cm-vp-t" }),
  ]);
}

/** A daughter pawn in a seat colour. */
function daughterPawn(x, y, colour, r = 10) {
  return el("g", { class: "cm-daughter" }, [
    el("circle", { cx: x, cy: y, r, fill: SEAT_FILL[colour] || "#888", stroke: "#fff",
      "stroke-width": 2 }),
    txt(x, y + 4.5, "♀", { "text-anchor": "middle", class: "cm-daughter-t" }),
  ]);
}

/**
 * One card as an SVG group of CARD_W x CARD_H at (0, 0).
 * opts: {where, daughter (colour), used, status, extra (explain), unofficial}.
 */
function drawCard(ctx, cid, opts = {}) {
  const c = comp(ctx, cid);
  const weak = isWeak(c);
  const type = c.type || "";
  const [vpAmount, vpColour] = String(c.vp || "").split(" ");
  const band = type === "mission" && vpColour ? VP[vpColour].fill : (TYPE_BAND[type] || "#555");
  const bandInk = type === "mission" && vpColour ? VP[vpColour].ink : "#fff";
  const explain = [opts.where, c.text, weak ? "(card data reconstructed — marked † and dashed)"
    : "", opts.unofficial ? "UNOFFICIAL variant card (RULES_NOTES R32)." : "", opts.extra]
    .filter(Boolean).join(" ");
  const g = el("g", { class: `cm-card cm-${type}${weak ? " reconstructed" : ""}`,
    "data-card": cid, "data-explain": explain });
  g.appendChild(el("rect", { class: "cm-card-bg", x: 0, y: 0, width: CARD_W, height: CARD_H,
    rx: 7 }));
  g.appendChild(el("path", { d: `M0,7 a7,7 0 0 1 7,-7 h${CARD_W - 14} a7,7 0 0 1 7,7 v13 h-${CARD_W} z`,
    fill: band, stroke: type === "mission" && vpColour === "others" ? "#999" : "none" }));
  const century = c.century && !opts.unofficial ? ` · ${ORD[c.century] || c.century}` : "";
  const kind = opts.unofficial ? "UNOFFICIAL" : (TYPE_SHORT[type] || type);
  g.appendChild(txt(6, 14, `${cid}${weak ? " †" : ""}  ${kind}${century}`,
    { class: "cm-band-t", fill: bandInk }));
  // Emperor names carry a long second name in brackets: the explanation has it.
  const shown = type === "emperor" ? String(c.name || cid).split(" (")[0] : (c.name || cid);
  const lines = wrap(shown, 17, 2);
  lines.forEach((l, i) => g.appendChild(txt(6, 34 + i * 13, l, { class: "cm-name" })));
  let y = lines.length > 1 ? 66 : 55;
  if (c.cost) { g.appendChild(costLine(c, 6, y)); y += 18; }
  if (c.uses && type !== "hero") {
    g.appendChild(usesLine(c, 6, y, CARD_W - 12));
  } else if (type === "hero") {
    g.appendChild(txt(6, y, "once per game", { class: "cm-small" }));
    g.appendChild(chips(parseGoods(String(c.uses).split(">")[1] || ""), 84, y)[0]);
  } else if (type === "mission" || type === "kofun") {
    g.appendChild(vpBadge(6, y - 12, vpAmount || 0, vpColour));
    let cx = 28;
    if (c.items) {
      g.appendChild(txt(cx, y, "+", { class: "cm-small" }));
      g.appendChild(chips(parseGoods(c.items), cx + 8, y)[0]);
      cx += 40;
    }
    if (c.mirror_vp_each) {
      g.appendChild(txt(cx, y, `+${c.mirror_vp_each} VP per Mirror`, { class: "cm-small" }));
    }
  } else if (type === "emperor" && c.rule) {
    wrap(c.rule, 23, 3).forEach((l, i) =>
      g.appendChild(txt(6, y - 4 + i * 11, l, { class: "cm-small" })));
  }
  if (opts.status) {
    g.appendChild(txt(CARD_W - 6, CARD_H - 6, opts.status, { "text-anchor": "end",
      class: "cm-status" }));
  }
  if (opts.daughter) g.appendChild(daughterPawn(CARD_W - 12, 12, opts.daughter, 11));
  if (opts.used) {
    g.appendChild(el("rect", { x: 0, y: 0, width: CARD_W, height: CARD_H, rx: 7,
      class: "cm-used" }));
    g.appendChild(txt(CARD_W / 2, CARD_H / 2 + 5, "used this round", { "text-anchor": "middle",
      class: "cm-used-t" }));
  }
  return g;
}

/** Convert buttons under a card: one chip per legal output good. */
function convertButtons(list, ctx) {
  const g = el("g", { class: "cm-converts" });
  let x = 0;
  for (const { good, action } of list) {
    const label = `use → ${good}`;
    const w = Math.max(40, 10 + label.length * 6);
    const b = el("g", { transform: `translate(${x},0)`, class: "cm-btn",
      "data-explain": `Use this card once this round: ${action.text}` }, [
      el("rect", { width: w, height: 18, rx: 9, class: "cm-btn-bg" }),
      txt(w / 2, 13, label, { "text-anchor": "middle", class: "cm-btn-t" }),
    ]);
    makeLegal(b, action, ctx);
    g.appendChild(b);
    x += w + 4;
  }
  return [g, x];
}

/**
 * A card item for the shelf layout: the card, plus convert buttons under it when
 * the seat to move may use it.
 */
function cardItem(ctx, L, cid, opts = {}) {
  const g = el("g");
  const card = drawCard(ctx, cid, opts);
  g.appendChild(card);
  const action = opts.action;
  if (action) makeLegal(card, action, ctx);
  let h = CARD_H;
  const conv = opts.key !== undefined ? L.convert.get(opts.key) : null;
  if (conv && conv.length) {
    const [bg, w] = convertButtons(conv, ctx);
    const rows = w > CARD_W + 20 ? conv.map((c) => [c]) : [conv];
    if (rows.length > 1) {
      rows.forEach((r, i) => {
        const [rg] = convertButtons(r, ctx);
        rg.setAttribute("transform", `translate(0,${CARD_H + 4 + i * 21})`);
        g.appendChild(rg);
      });
      h += 4 + rows.length * 21;
    } else {
      bg.setAttribute("transform", `translate(0,${CARD_H + 4})`);
      g.appendChild(bg);
      h += 25;
    }
  }
  return { node: g, w: CARD_W, h };
}

// ------------------------------------------------------------------ shelf layout

/** An area: a titled box holding items laid out in rows within maxW. */
function area(title, explain, items, maxW, opts = {}) {
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
  let y = TITLE_H + 6;
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
  g.insertBefore(txt(PAD, 15, title, { class: "cm-area-title", "data-explain": explain }),
    bg.nextSibling);
  return { node: g, w, h };
}

/** Pack areas left to right, wrapping, into an <svg> width W. */
function pack(areas, W, cls) {
  const svg = el("svg", { class: `cm-svg ${cls || ""}`, xmlns: NS });
  let x = 0;
  let y = 0;
  let rowH = 0;
  for (const a of areas) {
    if (x > 0 && x + a.w > W) { x = 0; y += rowH + GAP; rowH = 0; }
    a.node.setAttribute("transform", `translate(${x},${y})`);
    svg.appendChild(a.node);
    x += a.w + GAP;
    rowH = Math.max(rowH, a.h);
  }
  const H = y + rowH + 1;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  return svg;
}

/** A small box item (a button-like space or a counter) for an area. */
function boxItem(label, sub, explain, opts = {}) {
  const w = opts.w || Math.max(90, 14 + Math.max(label.length * 7, (sub || "").length * 5.6));
  const h = opts.h || (sub ? 40 : 26);
  const g = el("g", { class: `cm-box ${opts.cls || ""}`, "data-explain": explain }, [
    el("rect", { width: w, height: h, rx: 6, class: "cm-box-bg", fill: opts.fill }),
    txt(8, 17, label, { class: "cm-box-t", fill: opts.ink }),
  ]);
  if (sub) g.appendChild(txt(8, 32, sub, { class: "cm-small" }));
  return { node: g, w, h };
}

// ------------------------------------------------------------------ the sections

/** Century of a round (4 rounds per century). */
function centuryOf(round) {
  return 4 + Math.floor((Math.max(1, round) - 1) / 4);
}

/** The HTML status bar: mode, variants, round/century, phase, start player, decision. */
function statusBar(payload) {
  const v = payload.view;
  const opts = v.options || payload.options || {};
  const n = v.players || (v.gozoku || []).length;
  const bar = html("div", "cm-status-bar");
  const line1 = html("div", "cm-line");
  line1.appendChild(html("strong", "", "I, Clansman"));
  line1.appendChild(html("span", "cm-tag",
    opts.expert ? `Expert · Emperor side ${opts.emperor_side || "A"}` : "Beginner game"));
  if (opts.variant === "small-table") {
    const t = html("span", "cm-tag cm-unofficial-tag", `UNOFFICIAL small-table variant (${n} players)`);
    t.setAttribute("data-explain", "Not from the rulebook: a 2-3 player adaptation, untested for balance (RULES_NOTES R35).");
    line1.appendChild(t);
  }
  if (opts.emperor_variant) {
    const t = html("span", "cm-tag cm-unofficial-tag", `UNOFFICIAL Emperor ${opts.emperor_variant}`);
    t.setAttribute("data-explain", "Emperor face(s) not in the Contents list put in their century's slot (RULES_NOTES R32).");
    line1.appendChild(t);
  }
  if (opts.data_overlay) line1.appendChild(html("span", "cm-tag cm-unofficial-tag", "card data overlay"));
  bar.appendChild(line1);

  const line2 = html("div", "cm-line");
  if (v.phase === "over" || payload.over) {
    line2.appendChild(html("span", "cm-big", "Game over"));
    const w = (payload.winners || []).map((p) => seatChip(payload, p));
    if (w.length) { line2.appendChild(html("span", "", " — winner: ")); w.forEach((c) => line2.appendChild(c)); }
  } else {
    const c = centuryOf(v.round);
    const r = html("span", "cm-big", `Round ${v.round} of 16 · ${ORD[c]} Century`);
    r.setAttribute("data-explain", "16 rounds (generations), 4 per Century. A Century ends after rounds 4, 8, 12 and 16 (Cleanup: Supply discarded, Emperor cards decided).");
    line2.appendChild(r);
    const ph = html("span", "cm-tag", `${PHASE[v.phase] || v.phase}` + (v.step ? ` · step: ${v.step}` : ""));
    ph.setAttribute("data-explain", `${PHASE[v.phase] || v.phase}: ${STEP[v.step] || ""}. Each round: Preparation (cards to the Supply), Marriage (each daughter marries, starting right of the start player), Production (clockwise from the start player), Cleanup.`);
    line2.appendChild(ph);
  }
  bar.appendChild(line2);

  const line3 = html("div", "cm-line");
  const sp = html("span", "", "Start player: ");
  sp.setAttribute("data-explain", "The Start Player marker: Production starts with him (clockwise); Marriage starts with the player to his right. It passes left in every Cleanup except rounds 4, 8, 12, 16.");
  sp.appendChild(seatChip(payload, v.start, "★ "));
  line3.appendChild(sp);
  const order = html("span", "cm-order", " Order: ");
  for (let i = 0; i < n; i++) {
    const q = (v.start + i) % n;
    if (i) order.appendChild(document.createTextNode(" → "));
    order.appendChild(seatChip(payload, q, q === v.to_move ? "▶ " : ""));
  }
  line3.appendChild(order);
  if (payload.you === null || payload.you === undefined) line3.appendChild(html("span", "cm-tag", "spectating"));
  bar.appendChild(line3);

  const dec = html("div", "cm-decision" + (payload.you !== null && payload.you === v.to_move ? " cm-your-turn" : ""));
  if (v.to_move !== null && v.to_move !== undefined) dec.appendChild(seatChip(payload, v.to_move, "▶ "));
  dec.appendChild(html("span", "", " " + (payload.decision || v.decision || "")));
  if (payload.you !== null && payload.you === v.to_move) dec.appendChild(html("span", "cm-tag cm-you", "your move"));
  bar.appendChild(dec);
  return bar;
}

/** A coloured seat name chip (HTML). */
function seatChip(payload, p, prefix = "") {
  const colour = colourOf(payload, p);
  const s = html("span", "cm-seat", prefix + seatLabel(payload, p));
  s.style.background = SEAT_FILL[colour] || "#777";
  return s;
}

/** The producing seat's pool, its usable cards, the pending payment and recent events. */
function turnPanel(payload, ctx, L, W) {
  const v = payload.view;
  const p = v.to_move;
  const areas = [];
  if (v.phase === "production" && p !== null && p !== undefined) {
    const colour = colourOf(payload, p);
    const pool = POOL_GOODS.map((g, i) => [g, v.pool[i] || 0]).filter(([, k]) => k > 0);
    const items = [];
    if (pool.length) {
      const [cg, w] = chips(pool, 0, 18, { gap: 4 });
      items.push({ node: el("g", { "data-explain": `Pool: ${goodsWords(pool)}. Workforce vanishes at the end of the turn.` }, [cg]), w, h: 24 });
    } else {
      items.push(boxItem("empty pool", "", "Nothing left in the pool this turn."));
    }
    const g = v.gozoku[p];
    const keep = [["iron", g.iron], ["statue", g.statue]].filter(([, k]) => k > 0);
    if (keep.length) {
      const [kg, w] = chips(keep, 0, 18, { gap: 4 });
      items.push({ node: el("g", { "data-explain": `Items ${colour} may spend: ${goodsWords(keep)}${v.lock ? ` (${v.lock} Statue locked by the temple this turn)` : ""}.` }, [
        txt(0, 4, "items", { class: "cm-small" }), kg]), w, h: 24 });
    }
    areas.push(area(`Pool of ${colour} (Production turn)`, "The producing player's workforce: workers from his Tadokoro (and Miyake via a Royal Prince) plus what his cards have made. Everything but Iron, Statue and Mirror vanishes at the end of the turn.", items, Math.min(W, 520), { cls: `cm-seat-${colour}` }));
    const left = (v.usable || []).filter((u) => !(v.used || []).includes(u[0]));
    const usable = left.map((u) => `${u[0]} ${comp(ctx, u[2]).name}`);
    if (v.usable && v.usable.length) {
      const ex = "Cards still usable this turn: " + (usable.join(", ") || "none");
      const items2 = usable.length ? usable.map((u) => boxItem(u, "", ex, { w: 16 + u.length * 7 }))
        : [boxItem("nothing left to use", "", ex)];
      areas.push(area("May still use", "Cards this player may still use this turn (his daughter's card and his own clans without another player's daughter; each once per round).",
        items2, W));
    }
  }
  if (v.step === "payment" && v.pending) {
    const items = [cardItem(ctx, L, v.pending, { where: "Being obtained:" })];
    for (const a of L.payment) {
      const b = boxItem(`Payment ${a.notation.split(" ")[1]}`, a.text, `Pay this printed cost: ${a.text}`, { cls: "cm-space" });
      makeLegal(b.node, a, ctx);
      items.push(b);
    }
    areas.push(area("Choose the payment", "This card prints alternative costs; choose which one to pay.", items, W));
  }
  if (v.step === "hand") {
    areas.push(area("Option F", "After obtaining 2 Tadokoro, take one Supply card into your hand (the highlighted Supply cards).",
      [boxItem("Take a Supply card into hand", "click a highlighted card in the Supply", "Option F: one Supply card goes into the hand.")], W));
  }
  return areas.length ? pack(areas, W, "cm-turn") : null;
}

/** Who owns an Emperor face (awarded for VPs or as a clan), or null. */
function emperorOwner(v, face) {
  const q = (v.gozoku || []).findIndex((g) => g.emperors.includes(face) || g.clans.includes(face));
  return q >= 0 ? q : null;
}

/** The centre of the table. */
function centre(payload, ctx, L, W) {
  const v = payload.view;
  const opts = v.options || {};
  const areas = [];
  const century = centuryOf(v.round);
  const daughterAt = daughterMap(payload);

  // Century piles: counts only (their order is hidden).
  const piles = [4, 5, 6, 7].map((c, i) => {
    const n = (v.piles || [])[i] || 0;
    const g = el("g", { class: "cm-pile" + (c === century && v.phase !== "over" ? " cm-current" : ""),
      "data-explain": `${ORD[c]} Century pile: ${n} face-down card(s) left (order hidden).` });
    for (let k = Math.min(3, Math.ceil(n / 6)); k >= 0; k--) {
      g.appendChild(el("rect", { x: 3 * k, y: 3 * k, width: 52, height: 64, rx: 5, class: "cm-pile-card" }));
    }
    g.appendChild(txt(29, 30, ORD[c], { "text-anchor": "middle", class: "cm-pile-t" }));
    g.appendChild(txt(29, 50, String(n), { "text-anchor": "middle", class: "cm-pile-n" }));
    return { node: g, w: 62, h: 72 };
  });
  areas.push(area("Century piles", "Face-down Clan + Mission cards of each Century; only the counts are known.", piles, W));

  // Supply.
  const supply = (v.supply || []).map((cid) => cardItem(ctx, L, cid, {
    where: "In the Supply.", action: L.obtain.get(cid) || L.hand.get(cid) }));
  areas.push(area(`Supply (${(v.supply || []).length})`, "The Supply: drawn each round (7 in a Century's first round, then 3). In your Production turn obtain one card by paying its cost, or take one into hand with option F. Discarded at the end of each Century.",
    supply, W, { empty: "empty" }));

  // Royal Princes and the Miyake row.
  const princes = (v.princes || []).map((cid) => {
    const q = daughterAt.get(`-1:${cid}`);
    return cardItem(ctx, L, cid, {
      where: "Royal Prince (centre).", action: L.marry.get(cid), key: cid,
      daughter: q !== undefined ? colourOf(payload, q) : null,
      used: (v.used || []).includes(cid),
      extra: q !== undefined ? `${colourOf(payload, q)}'s daughter is married to this Prince this round.` : "",
    });
  });
  const flipAt = 4;
  const row = el("g", { "data-explain": `Miyake row: ${v.miyake} Miyake (each gives 1 Worker to every player whose daughter is on a Royal Prince this round) and ${v.miyake_row} Tadokoro waiting (at ${flipAt}, one flips to Miyake and 3 return to the Bank).` });
  const mw = Math.max(v.miyake + v.miyake_row, 1);
  for (let i = 0; i < v.miyake; i++) {
    row.appendChild(el("rect", { x: i * 26, y: 0, width: 22, height: 32, rx: 3, class: "cm-miyake" }));
    row.appendChild(txt(i * 26 + 11, 20, "M", { "text-anchor": "middle", class: "cm-tile-t" }));
  }
  for (let i = 0; i < v.miyake_row; i++) {
    const x = (v.miyake + i) * 26;
    row.appendChild(el("rect", { x, y: 0, width: 22, height: 32, rx: 3, class: "cm-tadokoro" }));
    row.appendChild(txt(x + 11, 20, "T", { "text-anchor": "middle", class: "cm-tile-t" }));
  }
  row.appendChild(txt(0, 48, `${v.miyake} Miyake · ${v.miyake_row}/${flipAt} Tadokoro`, { class: "cm-small" }));
  princes.push({ node: el("g", {}, [txt(0, 10, "Miyake row", { class: "cm-small cm-bold" }), el("g", { transform: "translate(0,16)" }, [row])]),
    w: Math.max(130, mw * 26), h: 70 });
  areas.push(area("Royal Princes & Miyake row", "Royal Princes: marry your daughter here (1 Tadokoro to the Miyake row) to use the Prince and get Workers from the Miyake. Faces flip to the 6th-7th side in round 9.", princes, W));

  // Heroes.
  const heroes = (v.heroes || []).map((cid) => cardItem(ctx, L, cid, {
    where: "Hero in the centre (one per player per game).", action: L.hero.get(cid) }));
  areas.push(area("Heroes", "Heroes: once per game, in your Production turn, take one and produce its goods at once (not the round's obtained card).", heroes, W, { empty: "none left" }));

  if (opts.expert) {
    const kofun = (v.kofun || []).map((cid) => cardItem(ctx, L, cid, {
      where: "Kofun in the centre.", action: L.obtain.get(cid) }));
    areas.push(area("Kofun", "Kofun (Expert): obtained as the round's card; at most one per player. Mirrors you hold go under it, 2 Religion VPs each.", kofun, W, { empty: "none left" }));
    const variantFaces = String(opts.emperor_variant || "").split(",").filter(Boolean);
    const emps = (v.emperors || []).map((face) => {
      const c = comp(ctx, face);
      const owner = emperorOwner(v, face);
      let status = "in the centre";
      if ((v.set_aside || []).includes(face)) status = "set aside";
      else if (owner !== null) status = `won by ${colourOf(payload, owner)}`;
      const current = Number(c.century) === century && v.phase !== "over";
      const item = cardItem(ctx, L, face, {
        where: `Emperor card of the ${ORD[c.century] || "?"} Century (${status}).`,
        status: (current ? "▶ now · " : "") + status, unofficial: variantFaces.includes(face) });
      if (current) item.node.firstChild.classList.add("cm-current");
      return item;
    });
    areas.push(area("Emperor cards", `Emperor cards (Expert, side ${opts.emperor_side || "A"}): one per Century; its effect applies in or at the end of that Century.`, emps, W));
  }

  // The Bank: Tadokoro count and the two Tadokoro obtain options.
  const bankText = v.bank_tadokoro >= 0 ? `${v.bank_tadokoro} Tadokoro cards left`
    : `all Tadokoro out; ${-v.bank_tadokoro} substitute(s)`;
  const bank = [boxItem(bankText, "Iron, Statue, Mirror never run out", "The Bank: Tadokoro cards, Iron, Statue and Mirror tokens (these never run out, R02).")];
  const f = boxItem("F: obtain 2 Tadokoro", "pay 2W + 1Fe, then 1 Supply card to hand", "Option F: pay 2 Workers + 1 Iron for 2 Tadokoro, then take a Supply card into your hand. It is the round's obtained card.", { cls: "cm-space" + (L.f ? "" : " cm-off") });
  if (L.f) makeLegal(f.node, L.f, ctx);
  const gopt = boxItem("G: obtain 1 Tadokoro", "free (no hand card)", "Option G: take 1 Tadokoro for free. It is the round's obtained card.", { cls: "cm-space" + (L.g ? "" : " cm-off") });
  if (L.g) makeLegal(gopt.node, L.g, ctx);
  bank.push(f, gopt);
  areas.push(area("Bank", "The Bank and the two ways to obtain Tadokoro instead of a card.", bank, W));
  return pack(areas, W, "cm-centre");
}

/** Map 'owner:cid' -> seat whose daughter is there (owner -1 = a Royal Prince). */
function daughterMap(payload) {
  const m = new Map();
  (payload.view.daughters || []).forEach((d, p) => { if (d) m.set(`${d[0]}:${d[1]}`, p); });
  return m;
}

/** Where seat p's daughter is, in words. */
function daughterWhere(payload, ctx, p) {
  const d = payload.view.daughters[p];
  if (!d) return "at home";
  const name = comp(ctx, d[1]).name;
  if (d[0] < 0) return `on Royal Prince ${d[1]}`;
  return (d[0] === p ? "own " : `${colourOf(payload, d[0])}'s `) + `${d[1]} ${name}`;
}

/** The VP-by-colour strip of one seat (SVG group) and its width. */
function vpStrip(payload, p) {
  const v = payload.view;
  const by = (v.vp_by_colour || [])[p] || {};
  const sc = (payload.scores || v.scores || [])[p] || {};
  const g = el("g");
  let x = 0;
  for (const col of VP_ORDER) {
    const b = vpBadge(x, 0, by[col] || 0, col, 22);
    b.setAttribute("data-explain", `${VP[col].label} VPs of ${colourOf(payload, p)}: ${by[col] || 0}`);
    g.appendChild(b);
    x += 25;
  }
  const parts = Object.entries(sc).filter(([k, n]) => k !== "total" && n).map(([k, n]) => `${k.replace(/_/g, " ")} ${n}`);
  const mirrors = v.options && v.options.expert ? "" : ` (includes ${v.gozoku[p].mirror} Mirror VP, 1 each in the Beginner game)`;
  const tot = el("g", { "data-explain": `Total ${sc.total ?? 0} VPs as if the game ended now${mirrors}: ${parts.join(", ") || "nothing yet"}.` }, [
    el("rect", { x: x + 2, y: 0, width: 46, height: 22, rx: 4, class: "cm-total" }),
    txt(x + 25, 16, `${sc.total ?? 0}`, { "text-anchor": "middle", class: "cm-total-t" }),
  ]);
  g.appendChild(tot);
  return [g, x + 50];
}

/** One Gozoku's panel: header, clans with daughters, Tadokoro, missions, hand, items. */
function playerPanel(payload, ctx, L, p, W) {
  const v = payload.view;
  const gz = v.gozoku[p];
  const colour = colourOf(payload, p);
  const daughterAt = daughterMap(payload);
  const used = v.to_move !== null ? (v.used || []) : [];
  const areas = [];

  // Header: name, markers, VPs by colour, items.
  const head = el("g", { class: "cm-head" });
  let hx = 0;
  head.appendChild(el("rect", { x: 0, y: 0, width: 20, height: 22, rx: 4, fill: SEAT_FILL[colour] }));
  hx = 26;
  const title = seatLabel(payload, p) + (p === v.start ? " ★" : "") + (p === v.to_move ? " ▶" : "")
    + ((payload.winners || []).includes(p) ? " — WINNER" : "");
  head.appendChild(txt(hx, 16, title, { class: "cm-head-t",
    "data-explain": `${colour}'s Gozoku.` + (p === v.start ? " Holds the Start Player marker (★)." : "") + (p === v.to_move ? " To move now (▶)." : "") }));
  const items = [{ node: head, w: Math.min(W - 2 * PAD, 40 + title.length * 8.2), h: 24 }];
  const [vs, vw] = vpStrip(payload, p);
  items.push({ node: vs, w: vw, h: 24 });
  const tokens = [["Tadokoro", gz.tadokoro, "#8bc34a", `${gz.tadokoro} Tadokoro: each gives 1 Worker at the start of your Production turn; pay 1 as dowry to marry into another player's clan or a Royal Prince.`],
    ["Iron", gz.iron, GOODS.iron[1], "Iron tokens (kept; spent in some costs; break final ties)."],
    ["Statue", gz.statue, GOODS.statue[1], "Statue tokens (kept; 1 Religion VP each while you own a temple)."],
    ["Mirror", gz.mirror, GOODS.mirror[1], v.options && v.options.expert ? "Mirrors not under a Kofun: worth nothing in the Expert game (they go under your Kofun when you obtain it)." : "Mirrors: 1 VP each in the Beginner game."]];
  if (v.options && v.options.expert) tokens.push(["under Kofun", gz.kofun_mirrors, "#4e5d2f", "Mirrors under the Kofun: 2 Religion VPs each."]);
  for (const [name, n, fill, ex] of tokens) {
    const w = 16 + (name.length + String(n).length + 1) * 6.6;
    items.push({ node: el("g", { "data-explain": ex, class: "cm-token" }, [
      el("rect", { x: 0, y: 0, width: w, height: 20, rx: 10, fill }),
      txt(w / 2, 14, `${n} ${name}`, { "text-anchor": "middle", class: "cm-token-t" })]),
    w, h: 22 });
  }
  const dw = daughterWhere(payload, ctx, p);
  items.push({ node: el("g", { "data-explain": `${colour}'s daughter: ${dw}.` }, [daughterPawn(9, 10, colour, 9), txt(22, 15, `daughter ${dw}`, { class: "cm-small" })]),
    w: 30 + dw.length * 5.6 + 50, h: 22 });
  const hdr = area("", "", items, W, { cls: "cm-panel-head" });

  // Clan cards row, with the daughters on them.
  const clans = gz.clans.map((cid) => {
    const key = clanKey(p, cid);
    const q = daughterAt.get(`${p}:${cid}`);
    return cardItem(ctx, L, cid, {
      where: `In ${colour}'s Clan cards row.`, action: L.marry.get(key), key,
      daughter: q !== undefined ? colourOf(payload, q) : null,
      used: used.includes(key),
      extra: q !== undefined ? `${colourOf(payload, q)}'s daughter is married here this round${q === p ? " (his own clan)" : ""}.` : "",
    });
  });
  // Missions row: Missions, then Kofun, Hero and awarded Emperors.
  const mission = gz.missions.map((cid) => cardItem(ctx, L, cid, { where: `${colour}'s Mission.` }));
  if (gz.kofun) mission.push(cardItem(ctx, L, gz.kofun, { where: `${colour}'s Kofun (${gz.kofun_mirrors} Mirror(s) under it).`, status: `${gz.kofun_mirrors} Mirror under it` }));
  for (const e of gz.emperors) mission.push(cardItem(ctx, L, e, { where: `Emperor card won by ${colour}.`, status: "won" }));
  if (gz.hero) mission.push(cardItem(ctx, L, gz.hero, { where: `Hero used by ${colour} (reminder).`, status: "used" }));
  const hand = gz.hand.map((cid) => cardItem(ctx, L, cid, { where: `In ${colour}'s hand (hands are public).`, action: p === v.to_move ? L.obtain.get(cid) : null }));

  const inner = W;
  const parts = [hdr,
    area("Clan cards", "The Clan cards row: cards whose use is open to the player whose daughter sits on them (or to the owner when no other daughter is there).", clans, inner),
    area(v.options && v.options.expert ? "Missions · Kofun · Hero" : "Missions · Hero", "Obtained Mission cards (VPs by colour), the Kofun with its Mirrors, the Hero used and Emperor cards won.", mission, inner, { empty: "none yet" }),
    area(`Hand (${gz.hand.length})`, "Hand cards (public): obtained later like a Supply card, from any Century.", hand, inner, { empty: "empty" })];
  const svg = pack(parts, W, "cm-player");
  const wrapDiv = html("div", `cm-panel cm-seat-${colour}` + (p === v.to_move ? " cm-to-move" : "") + (p === payload.you ? " cm-mine" : ""));
  wrapDiv.style.setProperty("--seat", SEAT_FILL[colour]);
  wrapDiv.appendChild(svg);
  return wrapDiv;
}

/** The score table: VPs by colour and totals for every seat (as if the game ended now). */
function scoreTable(payload, W) {
  const v = payload.view;
  const n = (v.gozoku || []).length;
  const rowH = 28;
  const nameW = Math.min(180, Math.max(90, W - 6 * 46 - 20));
  const colW = Math.max(34, Math.min(70, (W - nameW - 20) / 6));
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
    svg.appendChild(txt(26, y + 16, colour + (payload.you === p ? " (you)" : "") + (win ? " ★ wins" : ""), { class: "cm-name" }));
    VP_ORDER.forEach((col, i) => svg.appendChild(txt(nameW + i * colW + colW / 2, y + 16, String(by[col] || 0), { "text-anchor": "middle", class: "cm-score-n" })));
    const parts = Object.entries(sc).filter(([k, x]) => k !== "total" && x).map(([k, x]) => `${k.replace(/_/g, " ")} ${x}`);
    svg.appendChild(txt(nameW + 5 * colW + colW / 2, y + 16, String(sc.total ?? 0), { "text-anchor": "middle", class: "cm-score-total",
      "data-explain": `${colour}: ${sc.total ?? 0} VPs (${parts.join(", ") || "none"}); Iron ${v.gozoku[p].iron} (tie-break).` }));
  }
  return svg;
}

/** Goods legend and the reconstructed-data note. */
function legend(payload, ctx, W) {
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
  const note = "† dashed card = reconstructed / unknown card data (hover for what); W…Ho vanish at the end of each turn, Fe/St/Mi are kept.";
  const lines = wrap(note, Math.floor(W / 5.8), 3);
  lines.forEach((l, i) => g.appendChild(txt(0, y + i * 14, l, { class: "cm-small" })));
  const H = y + lines.length * 14;
  const svg = el("svg", { class: "cm-svg cm-legend", viewBox: `0 0 ${W} ${H}`, width: W, height: H,
    "data-explain": "Goods: the workforce (Worker … Horse) vanishes at the end of each turn; Iron, Statue and Mirror tokens are kept." });
  svg.appendChild(g);
  return svg;
}

// ------------------------------------------------------------------ entry point

/** Draw the whole I, Clansman table for one payload into root. */
export function render(root, payload, ctx) {
  lastCall = [root, payload, ctx];
  hookResize();
  const v = payload && payload.view;
  root.replaceChildren();
  if (!v || !v.gozoku) {
    root.appendChild(html("div", "cm-board", "No I, Clansman view to show."));
    return;
  }
  // Layout width in SVG units: at least 440 (3 cards a row), scaled down on a phone.
  const W = Math.max(440, Math.min(1400, Math.floor(root.clientWidth || 1000)));
  const L = indexLegal(payload);
  const board = html("div", "cm-board");
  board.appendChild(statusBar(payload));
  const turn = turnPanel(payload, ctx, L, W);
  if (turn) board.appendChild(turn);
  board.appendChild(centre(payload, ctx, L, W));

  const n = v.gozoku.length;
  const cols = W >= 900 ? 2 : 1;
  const panelW = cols === 2 ? Math.floor((W - GAP) / 2) - 6 : W - 6;
  const grid = html("div", "cm-players");
  grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
  // You first, then the others in seat order from you.
  const first = payload.you !== null && payload.you !== undefined ? payload.you : 0;
  for (let i = 0; i < n; i++) grid.appendChild(playerPanel(payload, ctx, L, (first + i) % n, panelW));
  board.appendChild(grid);
  board.appendChild(scoreTable(payload, Math.min(W, 560)));
  board.appendChild(legend(payload, ctx, Math.min(W, 900)));
  root.appendChild(board);
}

/** Re-render on a width change (the layout is computed for the root's width). */
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
