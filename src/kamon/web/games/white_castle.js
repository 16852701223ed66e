// The White Castle board for the kamon browser client: plain SVG drawn from payload.view.
//
// The board is cut into sections (castle; bridges and gardens; Outside the Walls, Well and
// training yards; Passage of Time and Clan Points; one domain per clan; the draft), each an
// SVG with its own viewBox, so they sit side by side on a laptop and stack on a phone.
// Legal actions are found by their notation (e.g. "take coral left", "block steward1 top")
// and bound to the element that shows them.

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["coral", "black", "white"];
const RESOURCES = ["food", "iron", "pearl"];
const WORKERS = ["courtier", "gardener", "warrior"];
const ROW_NAMES = ["top", "middle", "bottom"];
const ROOMS = ["steward1", "steward2", "steward3", "diplomat1", "diplomat2"];
const ROOM_TITLES = ["Steward room 1", "Steward room 2", "Steward room 3",
  "Diplomat room 1", "Diplomat room 2"];
const ROOM_DATA_IDS = ["steward_room_1", "steward_room_2", "steward_room_3",
  "diplomat_room_1", "diplomat_room_2"];
const BLOCK_NAMES = [["top", "middle", "bottom"], ["top", "middle", "bottom"],
  ["top", "middle", "bottom"], ["upper", "lower"], ["upper", "lower"]];
const LOCS = ["gate", ...ROOMS, "daimyo"];
const LOC_TITLES = ["the Gate", ...ROOM_TITLES, "the Daimyo's room"];
const CLANS = ["blue", "yellow", "red", "green"];
const CLAN_FILL = {blue: "#2f6fdb", yellow: "#e8b90f", red: "#d13b2f", green: "#2f9a48",
  tokugawa: "#7a3fa6"};
const DIE_FILL = {coral: "#ec7a5f", black: "#2a2a2e", white: "#f7f4ec"};
const DIE_INK = {coral: "#fff", black: "#fff", white: "#222"};
const RES_FILL = {food: "#d98c2b", iron: "#7d8791", pearl: "#9fd3e6"};
const PRINTED = [3, 3, 3, 4, 4, 5, 5, 1];
const YARD_COST = [5, 3, 1];
const YARD_VALUE = [2, 1, 0];
const PASSAGE_CP = [0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 6, 6, 6, 6, 10, 11, 12, 13, 14, 15];
const CHECKPOINT = {6: 1, 11: 2, 15: 3};
const PHASES = {draft: "choosing starting pairs", play: "taking turns",
  gardens: "end of round: gardens activate", over: "game over"};
const WIDTH = 600;

/** Create an SVG element with attributes and children. */
function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

/** Create an HTML element with attributes, text and children. */
function html(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") el.textContent = v;
    else if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** An SVG text element; long strings are shortened to `max` characters. */
function label(x, y, str, cls = "wc-t", attrs = {}) {
  const t = svg("text", {x, y, class: cls, ...attrs});
  t.textContent = str;
  return t;
}

/** Text wrapped to at most `lines` lines of about `chars` characters. */
function wrapped(x, y, str, chars, cls = "wc-t", lineHeight = 13, lines = 3, attrs = {}) {
  const words = String(str).split(" ");
  const out = [];
  let line = "";
  for (const w of words) {
    if (line && (line + " " + w).length > chars) { out.push(line); line = w; } else line = line ? line + " " + w : w;
  }
  if (line) out.push(line);
  if (out.length > lines) { out.length = lines; out[lines - 1] += "…"; }
  const g = svg("g");
  out.forEach((l, i) => g.appendChild(label(x, y + i * lineHeight, l, cls, attrs)));
  return g;
}

/** A section: an SVG with a title bar, added to the board. */
function section(board, title, height, cls = "") {
  const s = svg("svg", {viewBox: `0 0 ${WIDTH} ${height}`, class: `wc-section ${cls}`,
    role: "img", "aria-label": title});
  s.appendChild(label(8, 17, title, "wc-h"));
  const wrap = html("div", {class: `wc-panel ${cls}`});
  wrap.appendChild(s);
  board.appendChild(wrap);
  return s;
}

/** Everything the drawing functions share: payload, view, data and the legal actions. */
class Board {
  constructor(payload, ctx) {
    this.payload = payload;
    this.view = payload.view;
    this.ctx = ctx;
    this.components = (ctx && ctx.data && ctx.data.components) || {};
    this.byNotation = new Map((payload.legal || []).map((a) => [a.notation, a]));
    this.placed = new Set();
  }

  /** The component entry of an id (text + confidence), never undefined. */
  comp(id) {
    return this.components[id] || {text: String(id).replace(/_/g, " "), confidence: ""};
  }

  /** True if the component's data is reconstructed or inferred (to be marked). */
  weak(id) {
    return /reconstructed|inferred|unknown/.test(this.comp(id).confidence || "");
  }

  /** Attach a hover/tap explanation, and the reconstructed marking when the data is weak. */
  explain(el, words, id = null) {
    let text = words;
    if (id && this.weak(id)) {
      el.classList.add("reconstructed");
      if (!/not read from the printed game/.test(text)) {
        text += ` [${this.comp(id).confidence}: reconstructed, not read from the printed game]`;
      }
    }
    el.setAttribute("data-explain", text);
    return el;
  }

  /** Make el clickable for the legal action with this notation, if there is one. */
  bind(el, notation) {
    const a = this.byNotation.get(notation);
    if (!a) return false;
    el.classList.add("legal");
    el.setAttribute("data-action-id", String(a.id));
    el.setAttribute("tabindex", "0");
    const prev = el.getAttribute("data-explain");
    el.setAttribute("data-explain", `${prev ? prev + " — " : ""}Click: ${a.text || a.notation}`);
    const go = () => { if (this.ctx && this.ctx.act) this.ctx.act(a.id); };
    el.addEventListener("click", go);
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") go(ev); });
    this.placed.add(notation);
    return true;
  }

  /** A clan's colour name (the solo rival is the Tokugawa clan). */
  clanName(p) {
    if (p === this.view.rival) return "tokugawa";
    const seat = (this.payload.seats || []).find((s) => s.seat === p);
    return (seat && seat.name) || CLANS[p] || `clan ${p + 1}`;
  }

  /** Fill colour of a clan. */
  clanFill(p) {
    return CLAN_FILL[this.clanName(p)] || "#888";
  }
}

/** A worker/courtier pawn of clan p (a rounded meeple-like shape). */
function pawn(b, p, x, y, kind = "courtier", size = 14) {
  const g = svg("g", {class: "wc-pawn", transform: `translate(${x},${y})`});
  const fill = b.clanFill(p);
  const s = size / 14;
  if (kind === "warrior") {
    g.appendChild(svg("path", {d: `M${-6 * s},${7 * s} L0,${-7 * s} L${6 * s},${7 * s} Z`, fill, stroke: "#222", "stroke-width": 1}));
  } else if (kind === "gardener") {
    g.appendChild(svg("rect", {x: -6 * s, y: -6 * s, width: 12 * s, height: 13 * s, rx: 2, fill, stroke: "#222", "stroke-width": 1}));
  } else {
    g.appendChild(svg("circle", {cx: 0, cy: -3 * s, r: 4 * s, fill, stroke: "#222", "stroke-width": 1}));
    g.appendChild(svg("path", {d: `M${-6 * s},${7 * s} Q0,${-4 * s} ${6 * s},${7 * s} Z`, fill, stroke: "#222", "stroke-width": 1}));
  }
  return b.explain(g, `${b.clanName(p)} ${kind}`);
}

/** A die of colour index c and value v. */
function die(b, c, v, x, y, size = 30) {
  const colour = COLOURS[c];
  const g = svg("g", {class: "wc-die", transform: `translate(${x},${y})`});
  g.appendChild(svg("rect", {width: size, height: size, rx: 5, fill: DIE_FILL[colour], stroke: "#111", "stroke-width": 1.2}));
  g.appendChild(label(size / 2, size / 2 + 6, String(v), "wc-die-v", {fill: DIE_INK[colour], "text-anchor": "middle", "font-size": size * 0.55}));
  return b.explain(g, `${colour} die showing ${v}`);
}

/** Courtiers of every clan at a castle location, with their count. */
function courtiersAt(b, loc) {
  const out = [];
  b.view.clans.forEach((clan, p) => clan.courtiers.forEach((l) => { if (l === loc) out.push(p); }));
  return out;
}

/** A row of pawns of the given clans starting at x. */
function pawnRow(b, seats, x, y, kind, step = 15, max = 12) {
  const g = svg("g");
  seats.slice(0, max).forEach((p, i) => g.appendChild(pawn(b, p, x + i * step, y, kind)));
  if (seats.length > max) g.appendChild(label(x + max * step, y + 4, `+${seats.length - max}`, "wc-s"));
  return g;
}

/** A die space whose right edge is at x: the printed value, or its dice (top die last). */
function dieSpace(b, s, x, y, stack, title, dataId) {
  const n = Math.max(1, stack.length);
  const w = 34 + (n - 1) * 18;
  const g = svg("g", {class: "wc-space", transform: `translate(${x - w + 2},${y})`});
  g.appendChild(svg("rect", {x: -2, y: -2, width: w, height: 38, rx: 6, class: "wc-space-box"}));
  if (!stack.length) {
    g.appendChild(label(w / 2 - 2, 23, String(PRINTED[s]), "wc-printed", {"text-anchor": "middle"}));
  }
  stack.forEach(([c, v], i) => g.appendChild(die(b, c, v, i * 18, 0, 30)));
  const dice = stack.length ? stack.map(([c, v]) => `${COLOURS[c]} ${v}`).join(" under ") : "no die";
  b.explain(g, `${title}: printed ${PRINTED[s]}; ${dice}. ${b.comp(dataId).text}`, dataId);
  return g;
}

// ------------------------------------------------------------------- header and draft

/** The status line: round, phase, decision, turn order and the die in hand. */
function header(b) {
  const v = b.view;
  const head = html("div", {class: "wc-header"});
  const you = b.payload.you;
  head.appendChild(html("div", {class: "wc-status"}, [
    html("strong", {text: `Round ${v.round} of 3`}),
    ` · ${PHASES[v.phase] || v.phase}`,
    you !== null && you !== undefined ? html("span", {class: "wc-you"}, [" · you are ",
      html("span", {class: "wc-chip", style: `background:${b.clanFill(you)}`, text: b.clanName(you)})]) : null,
  ]));
  const order = html("div", {class: "wc-order"}, ["Turn order: "]);
  const current = v.phase === "play" ? v.order[v.turn_idx % v.clans.length] : null;
  v.order.forEach((p, i) => {
    if (i) order.appendChild(document.createTextNode(" → "));
    order.appendChild(html("span", {class: `wc-chip${p === current ? " wc-current" : ""}`,
      style: `background:${b.clanFill(p)}`, text: `${i + 1}. ${b.clanName(p)}${p === current ? " ▶" : ""}`}));
  });
  head.appendChild(order);
  const now = html("div", {class: "wc-now"}, [html("strong", {text: "Now: "}), b.payload.decision || v.decision || ""]);
  if (v.held) {
    const [c, val, left] = v.held;
    now.appendChild(html("span", {class: "wc-held"}, [" · in hand: ",
      html("span", {class: `wc-die-chip wc-${COLOURS[c]}`, text: `${COLOURS[c]} ${val}`}),
      left ? " (taken at the lantern end)" : ""]));
  }
  head.appendChild(now);
  if (b.payload.over) {
    const winners = (b.payload.winners || []).map((p) => b.clanName(p)).join(", ");
    head.appendChild(html("div", {class: "wc-over", text: `Game over${winners ? ` — winner: ${winners}` : ""}`}));
  }
  return head;
}

/** The decision in hand: effects to order, paying or stopping, seal exchanges, as buttons. */
function pendingControls(b) {
  const v = b.view;
  const top = v.stack && v.stack[v.stack.length - 1];
  const box = html("div", {class: "wc-pending"});
  if (top && top[0] === "effects" && top[1] === b.payload.you) {
    box.appendChild(html("strong", {text: `${top[3] || "Effects"}, in your order: `}));
    top[2].forEach((e, k) => {
      const btn = html("button", {class: "wc-effect", type: "button", text: effectShort(e)});
      btn.setAttribute("data-explain", effectLong(e));
      if (!b.bind(btn, `effect ${k + 1}`)) btn.disabled = true;
      box.appendChild(btn);
    });
  }
  if (top && top[0] === "pay" && b.byNotation.has("pay")) {
    const cost = top[2].map(([k, n]) => `${n} ${k}${n > 1 ? "s" : ""}`).join(" + ");
    box.appendChild(html("strong", {text: `Pay ${cost} for ${effectLong(top[3])}? `}));
  }
  if (top && top[0] === "checkpoint" && b.byNotation.has("pay")) {
    box.appendChild(html("strong", {text: `Pay ${top[3]} seal(s) to enter the next season of the Passage of Time? `}));
  }
  const simple = (b.payload.legal || []).filter((a) => a.notation === "pay" || a.notation === "done" || a.notation.startsWith("exchange"));
  simple.forEach((a) => {
    const words = a.notation === "pay" ? "Pay" : a.notation === "done" ? "Done / skip" : `Seal → ${a.notation.replace("exchange seals ", "").replace("exchange seal ", "")}`;
    const btn = html("button", {class: `wc-effect${a.notation.startsWith("exchange") ? " wc-exchange" : ""}`, type: "button", text: words});
    btn.setAttribute("data-explain", a.text || a.notation);
    b.bind(btn, a.notation);
    box.appendChild(btn);
  });
  return box.childNodes.length ? box : null;
}

/** An engine effect tuple (from the view) in a few words. */
function effectShort(e) {
  const kind = e[0];
  if (kind === "gain") return e[1].map(([k, n]) => `+${n} ${k === "cp" ? "CP" : k}`).join(" ");
  if (kind === "choice") return `+${e[1]} any res.`;
  if (kind === "pay") return `pay ${e[1].map(([k, n]) => `${n} ${k}`).join("+")}: ${effectShort(e[2])}`;
  if (kind === "passage") return `+${e[1]} Passage`;
  if (kind === "die_tile") return `${e[1]} tile action`;
  return {courtier: "Courtier", gardener: "Gardener", warrior: "Warrior", lantern: "Lantern",
    well: "Well", light: "light action", domain: "domain action"}[kind] || kind;
}

/** An engine effect tuple in words. */
function effectLong(e) {
  const kind = e[0];
  if (kind === "gain") return "gain " + e[1].map(([k, n]) => `${n} ${k === "cp" ? "CP" : k}`).join(" + ");
  if (kind === "choice") return `${e[1]} resources of your choice`;
  if (kind === "pay") return `pay ${e[1].map(([k, n]) => `${n} ${k}`).join(" + ")} for: ${effectLong(e[2])}`;
  if (kind === "passage") return `${e[1]} Passage of Time step(s)`;
  if (kind === "die_tile") return e[1] === "any" ? "any die-tile action of the castle" : `the action of a ${e[1]} die tile of the castle`;
  return {courtier: "Courtier action (audience and/or climb)", gardener: "Gardener action",
    warrior: "Warrior action", lantern: "your Lantern reward", well: "the Well action",
    light: "a light-background action of the castle", domain: "a personal-domain action"}[kind] || kind;
}

/** The draft: the starting pairs still on offer, each clickable. */
function draftSection(b) {
  const pairs = b.view.draft_pairs || [];
  if (b.view.phase !== "draft" || !pairs.some((x) => x)) return null;
  const wrap = html("div", {class: "wc-panel"});
  const s = svg("svg", {viewBox: `0 0 ${WIDTH} ${32 + pairs.length * 58}`, class: "wc-section"});
  s.appendChild(label(8, 17, "Starting pairs (draft, in reverse turn order)", "wc-h"));
  pairs.forEach((pair, i) => {
    const y = 28 + i * 58;
    const g = svg("g", {class: "wc-pair", transform: `translate(8,${y})`});
    g.appendChild(svg("rect", {width: WIDTH - 16, height: 52, rx: 6, class: pair ? "wc-card" : "wc-gone"}));
    g.appendChild(label(10, 20, `Pair ${i + 1}`, "wc-b"));
    if (!pair) {
      g.appendChild(label(80, 30, "taken", "wc-s"));
    } else {
      const [res, act] = pair;
      const rc = b.comp(res);
      const ac = b.comp(act);
      g.appendChild(label(70, 18, `Take ${rc.gains || ""}`, "wc-t"));
      g.appendChild(label(70, 33, `Lantern: ${rc.lantern || "—"}${rc.decree ? ` · decree: lantern ${b.comp(rc.decree).lantern || ""}` : ""}`, "wc-s"));
      g.appendChild(label(70, 46, res.replace(/_/g, " "), "wc-xs"));
      const card = svg("g", {transform: "translate(400,5)"});
      card.appendChild(svg("rect", {width: 176, height: 42, rx: 5, class: "wc-block-bg"}));
      card.appendChild(label(8, 16, `Action card: ${ac.block1 || "?"}`, "wc-bt"));
      card.appendChild(label(8, 30, `any row · back ${ac.lantern || ""}`, "wc-s"));
      g.appendChild(card);
      b.explain(g, `Starting pair ${i + 1}. ${rc.text} ${ac.text}`, res);
      b.bind(g, `draft ${i + 1}`);
    }
    s.appendChild(g);
  });
  wrap.appendChild(s);
  return wrap;
}

// ------------------------------------------------------------------------- the castle

/** One block of a card: light or dark background, its short effects, clickable. */
function cardBlock(b, x, y, w, h, entry, i, tileColour, notation, explainPrefix) {
  const shade = entry[`block${i + 1}_shade`] || "light";
  const g = svg("g", {class: `wc-block wc-${shade}`, transform: `translate(${x},${y})`});
  const hasTile = tileColour !== null && tileColour !== undefined;
  const tx = hasTile ? 26 : 4;
  g.appendChild(svg("rect", {x: tx - 2, y: 1, width: w - tx, height: h - 2, rx: 4, class: "wc-block-bg"}));
  if (hasTile) {
    g.appendChild(svg("rect", {x: 2, y: (h - 18) / 2, width: 18, height: 18, rx: 3,
      fill: DIE_FILL[COLOURS[tileColour]], stroke: "#111", "stroke-width": 1, class: "wc-tile"}));
  }
  const text = entry[`block${i + 1}`] || "?";
  g.appendChild(wrapped(tx + 3, h / 2 + (text.length > (w - tx) / 6.2 ? -2 : 4), text, Math.floor((w - tx) / 6.2), "wc-bt", 11, 2));
  const tileWords = tileColour !== null && tileColour !== undefined ? ` (${COLOURS[tileColour]} die tile beside it)` : "";
  b.explain(g, `${explainPrefix}${tileWords}, ${shade} background: ${text}`);
  if (notation) b.bind(g, notation);
  return g;
}

/** A castle room: title, die space, the card's blocks beside their die tiles, courtiers. */
function room(b, r, x, y, w, h) {
  const v = b.view;
  const card = v.room_cards[r];
  const entry = b.comp(card);
  const g = svg("g", {class: "wc-room", transform: `translate(${x},${y})`});
  const bg = svg("rect", {width: w, height: h, rx: 8, class: "wc-room-bg"});
  g.appendChild(bg);
  g.appendChild(label(8, 16, ROOM_TITLES[r], "wc-b"));
  const back = v.spaces[r].length > 1 && r < 3 ? "" : ` · back ${entry.lantern || ""}`;
  const cardLabel = label(8, 29, `${card.replace(/_/g, " ")}${back}`, "wc-xs");
  b.explain(cardLabel, entry.text, card);
  g.appendChild(cardLabel);
  const space = dieSpace(b, r, w - 8, 4, v.spaces[r], ROOM_TITLES[r], ROOM_DATA_IDS[r]);
  b.bind(space, `place ${ROOMS[r]}`);
  g.appendChild(space);
  const top = 44;
  const rowH = r < 3 ? 32 : 26;
  const nBlocks = r < 3 ? 3 : 2;
  let cy = top;
  for (let i = 0; i < nBlocks; i++) {
    const rows = (entry[`block${i + 1}_rows`] || "").split(" ").filter(Boolean).length || 1;
    const bh = rowH * (r < 3 ? 1 : rows);
    const tile = (v.room_tiles[r] || [])[i];
    g.appendChild(cardBlock(b, 6, cy, w - 12, bh - 2, entry, i, tile,
      `block ${ROOMS[r]} ${BLOCK_NAMES[r][i]}`, `${ROOM_TITLES[r]}, ${BLOCK_NAMES[r][i]} block of ${card}`));
    cy += bh;
  }
  const here = courtiersAt(b, r + 1);
  g.appendChild(pawnRow(b, here, 14, h - 12, "courtier"));
  climbChips(b, g, r + 1, w, h);
  b.explain(bg, `${ROOM_TITLES[r]} (floor ${r < 3 ? 1 : 2}): a die whose colour matches a die tile activates the block beside it. ${here.length} courtier(s) here (${r < 3 ? 3 : 6} CP each at the end).`);
  b.bind(bg, `rival-room ${ROOMS[r]}`);
  return g;
}

/** Small "climb from …" chips inside a destination, one per legal climb. */
function climbChips(b, g, dst, w, h) {
  let k = 0;
  LOCS.forEach((src) => {
    const notation = `climb ${src} ${LOCS[dst]}`;
    if (!b.byNotation.has(notation)) return;
    const chip = svg("g", {class: "wc-chip-svg", transform: `translate(${w - 96},${h - 20 - k * 20})`});
    chip.appendChild(svg("rect", {width: 90, height: 17, rx: 8}));
    chip.appendChild(label(45, 12, `↑ from ${src}`, "wc-s", {"text-anchor": "middle"}));
    b.explain(chip, `A courtier climbs from ${LOC_TITLES[LOCS.indexOf(src)]} to ${LOC_TITLES[dst]}`);
    b.bind(chip, notation);
    g.appendChild(chip);
    k += 1;
  });
}

/** The Daimyo's room: the favour card's three slots, who holds them, courtiers there. */
function daimyo(b, x, y, w, h) {
  const v = b.view;
  const card = v.daimyo_card;
  const entry = b.comp(card);
  const g = svg("g", {class: "wc-room", transform: `translate(${x},${y})`});
  const bg = svg("rect", {width: w, height: h, rx: 8, class: "wc-room-bg wc-daimyo"});
  b.explain(bg, `The Daimyo's room (floor 3): 10 CP per courtier at the end. ${entry.text}`, card);
  g.appendChild(bg);
  g.appendChild(label(8, 16, "Daimyo's room", "wc-b"));
  g.appendChild(label(8, 29, `${card.replace(/_/g, " ")} · no dice`, "wc-s"));
  const sw = (w - 150) / 3;
  for (let s = 0; s < 3; s++) {
    const sg = svg("g", {class: "wc-slot", transform: `translate(${140 + s * sw},6)`});
    sg.appendChild(svg("rect", {width: sw - 6, height: h - 30, rx: 6, class: "wc-block-bg"}));
    sg.appendChild(label(6, 14, `slot ${s + 1}`, "wc-s"));
    sg.appendChild(wrapped(6, 28, entry[`slot${s + 1}`] || "?", Math.floor((sw - 10) / 6.2), "wc-bt", 11, 2));
    const holder = v.daimyo_slots[s];
    if (holder !== null && holder !== undefined) sg.appendChild(pawn(b, holder, sw - 18, h - 44, "courtier"));
    b.explain(sg, `Daimyo's favour slot ${s + 1}: ${entry[`slot${s + 1}`] || "?"} — ${holder === null || holder === undefined ? "free" : `taken by ${b.clanName(holder)}`}`);
    b.bind(sg, `daimyo ${s + 1}`);
    g.appendChild(sg);
  }
  g.appendChild(pawnRow(b, courtiersAt(b, 6), 14, h - 12, "courtier", 13, 9));
  climbChips(b, g, 6, 140, h);
  return g;
}

/** The castle section: Daimyo, diplomats, stewards and the Gate. */
function castleSection(board, b) {
  const s = section(board, "Castle", 500);
  const note = label(WIDTH - 8, 17, `decks: steward ${b.view.steward_deck} · diplomat ${b.view.diplomat_deck}`, "wc-s", {"text-anchor": "end"});
  b.explain(note, "Cards left in the castle decks (they refill a room when a courtier takes its card)");
  s.appendChild(note);
  s.appendChild(daimyo(b, 8, 24, WIDTH - 16, 80));
  s.appendChild(room(b, 3, 8, 110, 288, 128));
  s.appendChild(room(b, 4, 304, 110, 288, 128));
  const sw = (WIDTH - 16 - 12) / 3;
  for (let r = 0; r < 3; r++) s.appendChild(room(b, r, 8 + r * (sw + 6), 244, sw, 182));
  const gate = svg("g", {class: "wc-room", transform: "translate(8,432)"});
  const gbg = svg("rect", {width: WIDTH - 16, height: 60, rx: 8, class: "wc-room-bg wc-gate"});
  b.explain(gbg, b.comp("gate").text, "gate");
  b.bind(gbg, "audience");
  gate.appendChild(gbg);
  gate.appendChild(label(8, 18, "Gate", "wc-b"));
  gate.appendChild(label(8, 32, "audience: 2 coins · climb 1 floor: 2 pearl, 2 floors: 5 pearl", "wc-s"));
  gate.appendChild(pawnRow(b, courtiersAt(b, 0), 16, 50, "courtier"));
  s.appendChild(gate);
}

// ------------------------------------------------------------------ bridges and gardens

/** One bridge: lantern end, its dice (either end takeable), and its two gardens. */
function bridge(b, c, y) {
  const v = b.view;
  const g = svg("g", {transform: `translate(8,${y})`});
  const dice = v.bridges[c];
  const colour = COLOURS[c];
  const deck = svg("rect", {x: 0, y: 0, width: 232, height: 84, rx: 8, class: "wc-bridge", stroke: c === 2 ? "#bdb3a0" : DIE_FILL[colour]});
  b.explain(deck, `The ${colour} bridge: take a die from either end; the left (lantern) end also gives your Lantern reward. At the end of rounds 1 and 2 its gardens activate if dice remain.`);
  g.appendChild(deck);
  g.appendChild(label(8, 16, `${colour} bridge`, "wc-b"));
  const lantern = svg("g", {transform: "translate(6,30)"});
  lantern.appendChild(svg("path", {d: "M8,0 L16,6 L16,24 L8,30 L0,24 L0,6 Z", class: "wc-lantern"}));
  b.explain(lantern, "Lantern end: taking this die also gives your Lantern reward");
  g.appendChild(lantern);
  const loneRight = dice.length === 1 && !v.lone_left[c];
  dice.forEach((val, i) => {
    const x = loneRight ? 190 : 28 + i * 40;
    const d = die(b, c, val, x, 28, 34);
    const ends = [];
    if (i === 0) ends.push("left");
    if (i === dice.length - 1) ends.push("right");
    ends.forEach((end) => b.bind(d, `take ${colour} ${end}`));
    g.appendChild(d);
  });
  if (!dice.length) g.appendChild(label(40, 50, "empty", "wc-s"));
  for (let k = 0; k < 2; k++) g.appendChild(garden(b, 2 * c + k, 240 + k * 178, 0, 172, 84));
  return g;
}

/** A garden card below a bridge: kind, food cost, CP, its effect and the gardeners. */
function garden(b, gi, x, y, w, h) {
  const v = b.view;
  const card = v.garden_cards[gi];
  const entry = b.comp(card);
  const kind = card.startsWith("plant") ? "plant" : "stone";
  const match = /costs (\d+) food.* (\d+) CP per gardener/.exec(entry.text) || [];
  const g = svg("g", {class: `wc-garden wc-${kind}`, transform: `translate(${x},${y})`});
  g.appendChild(svg("rect", {width: w, height: h, rx: 8, class: "wc-garden-bg"}));
  g.appendChild(label(8, 16, `${kind} · ${match[1] || "?"} food`, "wc-b"));
  g.appendChild(label(w - 8, 16, `${match[2] || "?"} CP`, "wc-cp", {"text-anchor": "end"}));
  g.appendChild(wrapped(8, 32, entry.effects || "", Math.floor(w / 6.3), "wc-t", 12, 2));
  const here = v.garden_workers[gi];
  g.appendChild(pawnRow(b, here, 14, h - 14, "gardener", 16, 9));
  const who = here.length ? here.map((p) => b.clanName(p)).join(", ") : "no gardener";
  b.explain(g, `${entry.text} Here: ${who}.`, card);
  const slot = `${COLOURS[Math.floor(gi / 2)]} ${kind}`;
  b.bind(g, `garden ${slot}`) || b.bind(g, `rival-garden ${slot}`);
  return g;
}

/** The bridges-and-gardens section. */
function bridgesSection(board, b) {
  const s = section(board, "Bridges (lantern end on the left) and their gardens", 300);
  for (let c = 0; c < 3; c++) s.appendChild(bridge(b, c, 26 + c * 91));
}

// --------------------------------------------------- Outside the Walls, Well, yards

/** Outside the Walls, the Well and the three training yards. */
function outsideSection(board, b) {
  const v = b.view;
  const s = section(board, "Outside the Walls · the Well · Training yards", 270);
  const kinds = [["gardener", "courtier"], ["warrior", "courtier"]];
  ["left", "right"].forEach((side, i) => {
    const sp = 5 + i;
    const g = svg("g", {class: "wc-room", transform: `translate(${8 + i * 150},26)`});
    g.appendChild(svg("rect", {width: 144, height: 96, rx: 8, class: "wc-room-bg wc-outside"}));
    g.appendChild(label(8, 16, `Outside ${side}`, "wc-b"));
    g.appendChild(label(8, 34, `${kinds[i][0]} action`, "wc-t"));
    g.appendChild(label(8, 50, `or ${kinds[i][1]} action`, "wc-t"));
    g.appendChild(label(8, 82, "any die colour", "wc-s"));
    const space = dieSpace(b, sp, 136, 54, v.spaces[sp], `Outside the Walls (${side})`, `outside_the_walls_${side}`);
    b.bind(space, `place outside-${side}`);
    g.appendChild(space);
    b.explain(g.firstChild, `Outside the Walls, ${side} space: one ${kinds[i][0]} action or one ${kinds[i][1]} action.`);
    s.appendChild(g);
  });
  const well = svg("g", {class: "wc-room", transform: "translate(308,26)"});
  well.appendChild(svg("rect", {width: 284, height: 96, rx: 8, class: "wc-room-bg wc-well"}));
  well.appendChild(label(8, 16, "The Well", "wc-b"));
  well.appendChild(label(8, 32, "any colour, no limit: 1 seal +", "wc-s"));
  v.well_tiles.forEach((t, k) => {
    const entry = b.comp(t);
    const tile = svg("g", {class: "wc-well-tile", transform: `translate(${8 + k * 74},40)`});
    tile.appendChild(svg("rect", {width: 70, height: 24, rx: 4, class: "wc-block-bg"}));
    tile.appendChild(label(35, 16, entry.reward || t, "wc-t", {"text-anchor": "middle"}));
    b.explain(tile, entry.text, t);
    well.appendChild(tile);
  });
  const stack = v.spaces[7];
  const wsp = svg("g", {class: "wc-space", transform: "translate(162,40)"});
  wsp.appendChild(svg("rect", {x: -2, y: -2, width: 118, height: 52, rx: 6, class: "wc-space-box"}));
  if (!stack.length) wsp.appendChild(label(57, 30, "1", "wc-printed", {"text-anchor": "middle"}));
  stack.slice(-5).forEach(([c, val], i) => wsp.appendChild(die(b, c, val, 2 + i * 22, 12 + (i % 2) * 6, 24)));
  b.explain(wsp, `The Well (printed 1): ${stack.length} dice. ${b.comp("well").text}`, "well");
  b.bind(wsp, "place well");
  well.appendChild(wsp);
  b.explain(well.firstChild, "The Well: every visit gives 1 seal plus the two Well tiles' rewards.");
  s.appendChild(well);
  for (let y = 0; y < 3; y++) s.appendChild(yard(b, y, 8 + y * 197, 130, 190, 134));
}

/** A training yard: iron cost, worth, its tile effects and the warriors in it. */
function yard(b, y, x, top, w, h) {
  const v = b.view;
  const g = svg("g", {class: "wc-yard", transform: `translate(${x},${top})`});
  g.appendChild(svg("rect", {width: w, height: h, rx: 8, class: "wc-yard-bg"}));
  g.appendChild(label(8, 16, `Yard ${y + 1} · ${YARD_COST[y]} iron`, "wc-b"));
  g.appendChild(label(8, 30, `${YARD_VALUE[y]} CP × courtier inside`, "wc-s"));
  (v.yard_effects[y] || []).forEach((e, k) => {
    g.appendChild(svg("rect", {x: 6, y: 38 + k * 24, width: w - 12, height: 21, rx: 4, class: "wc-block-bg"}));
    g.appendChild(label(12, 53 + k * 24, effectShort(e), "wc-bt"));
  });
  const here = [];
  v.clans.forEach((clan, p) => clan.warriors.forEach((yy) => { if (yy === y) here.push(p); }));
  g.appendChild(pawnRow(b, here, 14, h - 12, "warrior", 15, 11));
  const effects = (v.yard_effects[y] || []).map(effectLong).join("; ") || "nothing";
  b.explain(g, `${b.comp(`yard_${y + 1}`).text} Its tiles: ${effects}. Warriors: ${here.map((p) => b.clanName(p)).join(", ") || "none"}.`, `yard_${y + 1}`);
  b.bind(g, `yard ${y + 1}`);
  return g;
}

// ---------------------------------------------------------------------------- tracks

/** Passage of Time (positions 0-20, seasons, checkpoints) and Clan Points with scores. */
function tracksSection(board, b) {
  const v = b.view;
  const n = v.clans.length;
  const s = section(board, "Passage of Time · Clan Points", 196 + n * 16);
  const cw = (WIDTH - 16) / 21;
  const seasonFill = ["#eef3e0", "#e3efd0", "#f4e7c9", "#f1d6c4"];
  for (let pos = 0; pos <= 20; pos++) {
    const season = pos <= 5 ? 0 : pos <= 10 ? 1 : pos <= 14 ? 2 : 3;
    const g = svg("g", {transform: `translate(${8 + pos * cw},26)`});
    g.appendChild(svg("rect", {width: cw - 2, height: 62, rx: 3, fill: seasonFill[season], class: "wc-track-cell"}));
    g.appendChild(label(cw / 2 - 1, 12, String(pos), "wc-s", {"text-anchor": "middle"}));
    g.appendChild(label(cw / 2 - 1, 58, `${PASSAGE_CP[pos]}`, "wc-cp", {"text-anchor": "middle"}));
    if (CHECKPOINT[pos]) g.appendChild(label(cw / 2 - 1, 24, `${CHECKPOINT[pos]}◆`, "wc-seal", {"text-anchor": "middle"}));
    const here = v.clans.map((c, p) => [c, p]).filter(([c]) => c.pos === pos).sort((a, b2) => a[0].seq - b2[0].seq);
    here.forEach(([, p], k) => {
      const m = svg("circle", {cx: cw / 2 - 1, cy: 44 - k * 6, r: 6, fill: b.clanFill(p), stroke: "#111", "stroke-width": 1});
      b.explain(m, `${b.clanName(p)} influence marker at ${pos}${k === here.length - 1 && here.length > 1 ? " (on top)" : ""}`);
      g.appendChild(m);
    });
    b.explain(g.firstChild, b.comp(`passage_${pos}`).text, `passage_${pos}`);
    s.appendChild(g);
  }
  s.appendChild(label(8, 102, "◆ seals to enter a new season · bottom number: CP at the end · farthest clan goes first next round", "wc-s"));
  // Clan Points: a 0-39 track, with +40 laps.
  const cpw = (WIDTH - 16) / 40;
  for (let k = 0; k < 40; k++) {
    const cell = svg("rect", {x: 8 + k * cpw, y: 112, width: cpw - 1, height: 26, class: k % 5 === 0 ? "wc-cp-cell wc-cp5" : "wc-cp-cell"});
    s.appendChild(cell);
    if (k % 10 === 0) s.appendChild(label(10 + k * cpw, 150, String(k), "wc-s"));
  }
  v.clans.forEach((c, p) => {
    const k = c.cp % 40;
    const m = svg("circle", {cx: 8 + k * cpw + cpw / 2, cy: 118 + (p % 4) * 5, r: 5, fill: b.clanFill(p), stroke: "#111", "stroke-width": 1});
    b.explain(m, `${b.clanName(p)}: ${c.cp} CP during the game${c.cp >= 40 ? ` (+${40 * Math.floor(c.cp / 40)} tile)` : ""}`);
    s.appendChild(m);
  });
  scoreTable(b, s, 170);
}

const SCORE_COLUMNS = [["during_game", "in play"], ["coins_seals", "coins"], ["resources", "res."],
  ["passage_of_time", "passage"], ["courtiers", "courtiers"], ["warriors", "warriors"],
  ["gardeners", "gardeners"], ["total", "total"]];

/** Score table: each clan's CP if the game ended now, by category. */
function scoreTable(b, s, y0) {
  const scores = b.payload.scores || b.view.scores || [];
  const heading = label(8, y0, b.payload.over ? "Final score" : "Score if the game ended now", "wc-b");
  b.explain(heading, "End-game scoring: CP from play, (coins + seals) / 5, resources (3-6: 1, 7: 2), Passage of Time, courtiers by floor, warriors × courtiers inside, gardeners' garden CP");
  s.appendChild(heading);
  SCORE_COLUMNS.forEach(([, name], i) => s.appendChild(label(212 + i * 52, y0, name, "wc-s", {"text-anchor": "middle"})));
  b.view.clans.forEach((c, p) => {
    const y = y0 + 16 + p * 16;
    const sc = scores[p] || {};
    const row = svg("g");
    row.appendChild(svg("rect", {x: 8, y: y - 10, width: 12, height: 12, rx: 2, fill: b.clanFill(p)}));
    const win = (b.payload.winners || []).includes(p) ? " ★" : "";
    row.appendChild(label(26, y, b.clanName(p) + (p === b.payload.you ? " (you)" : "") + win, "wc-t"));
    SCORE_COLUMNS.forEach(([k], i) => row.appendChild(label(212 + i * 52, y, String(sc[k] ?? "—"),
      k === "total" ? "wc-b" : "wc-t", {"text-anchor": "middle"})));
    const parts = SCORE_COLUMNS.map(([k, name]) => `${name} ${sc[k] ?? "?"}`).join(", ");
    b.explain(row, `${b.clanName(p)}: ${c.cp} CP so far; ${parts}`);
    s.appendChild(row);
  });
}

// ---------------------------------------------------------------------------- domains

/** A player's domain: stores, three worker rows with dice, action card, Lantern Area. */
function domainSection(board, b, p) {
  const v = b.view;
  const clan = v.clans[p];
  if (p === v.rival) return rivalSection(board, b, p);
  const name = b.clanName(p);
  const s = section(board, `${name}${p === b.payload.you ? " (you)" : ""} — domain`, 266, "wc-domain");
  s.querySelector(".wc-h").setAttribute("fill", b.clanFill(p));
  s.insertBefore(svg("rect", {x: 0, y: 0, width: WIDTH, height: 4, fill: b.clanFill(p)}), s.firstChild);
  // Stores: coins, seals, CP, resources.
  const stores = svg("g", {transform: "translate(8,26)"});
  const coins = svg("g");
  coins.appendChild(svg("circle", {cx: 10, cy: 10, r: 10, class: "wc-coin"}));
  coins.appendChild(label(10, 14, String(clan.coins), "wc-b", {"text-anchor": "middle"}));
  coins.appendChild(label(24, 14, "coins", "wc-s"));
  b.explain(coins, `${clan.coins} coins`);
  stores.appendChild(coins);
  const seals = svg("g", {transform: "translate(66,0)"});
  for (let k = 0; k < 5; k++) seals.appendChild(svg("path", {d: `M${k * 14 + 6},2 l6,8 l-6,8 l-6,-8 Z`, class: k < clan.seals ? "wc-seal-on" : "wc-seal-off"}));
  seals.appendChild(label(74, 14, "seals", "wc-s"));
  b.explain(seals, `${clan.seals} Daimyo seals (5 at most); at any time 1 seal can be exchanged for coins or resources`);
  stores.appendChild(seals);
  RESOURCES.forEach((r, i) => {
    const g = svg("g", {class: "wc-res", transform: `translate(${176 + i * 140},0)`});
    g.appendChild(label(0, 14, r, "wc-s"));
    for (let k = 1; k <= 7; k++) {
      g.appendChild(svg("rect", {x: 28 + (k - 1) * 13, y: 4, width: 11, height: 12, rx: 2,
        fill: k <= clan.res[i] ? RES_FILL[r] : "none", class: "wc-res-cell"}));
    }
    g.appendChild(label(124, 14, String(clan.res[i]), "wc-b"));
    b.explain(g, `${clan.res[i]} ${r} (7 at most; 3-6 score 1 CP at the end, 7 scores 2)`);
    if (p === b.payload.you) b.bind(g, `gain ${r}`);
    stores.appendChild(g);
  });
  s.appendChild(stores);
  // The three rows.
  const top = 54;
  const rowH = 50;
  for (let c = 0; c < 3; c++) s.appendChild(domainRow(b, p, c, 8, top + c * (rowH + 4), rowH));
  // Action card.
  s.appendChild(actionCard(b, p, 430, top, 162, 3 * rowH + 8));
  // Lantern area.
  const lant = svg("g", {transform: `translate(8,${top + 3 * (rowH + 4) + 4})`});
  lant.appendChild(label(0, 12, "Lantern area:", "wc-b"));
  let lx = 92;
  clan.lantern.forEach((cid) => {
    const entry = b.comp(cid);
    const txt = entry.lantern || "?";
    const w = Math.max(52, txt.length * 6.4 + 12);
    const tile = svg("g", {class: "wc-lantern-card", transform: `translate(${lx},0)`});
    tile.appendChild(svg("rect", {width: w, height: 18, rx: 4}));
    tile.appendChild(label(w / 2, 13, txt, "wc-t", {"text-anchor": "middle"}));
    b.explain(tile, `Lantern area: ${cid.replace(/_/g, " ")} gives ${txt} in every Lantern reward. ${entry.text}`, cid);
    lant.appendChild(tile);
    lx += w + 4;
  });
  if (!clan.lantern.length) lant.appendChild(label(lx, 12, "empty", "wc-s"));
  s.appendChild(lant);
  const left = clan.left;
  s.appendChild(label(8, 258, `In the domain: ${left[0]} courtiers · ${left[1]} gardeners · ${left[2]} warriors · Passage ${clan.pos} · ${clan.cp} CP`, "wc-s"));
  return s;
}

/** One domain row: die space (counts as 6), always-visible reward, 5 worker spaces. */
function domainRow(b, p, c, x, y, h) {
  const v = b.view;
  const clan = v.clans[p];
  const colour = COLOURS[c];
  const worker = WORKERS[c];
  const g = svg("g", {class: "wc-drow", transform: `translate(${x},${y})`});
  const bg = svg("rect", {width: 416, height: h, rx: 6, class: "wc-drow-bg"});
  g.appendChild(bg);
  g.appendChild(svg("rect", {x: 0, y: 0, width: 6, height: h, rx: 3, fill: DIE_FILL[colour], stroke: "#111", "stroke-width": 0.6}));
  const rowLabel = label(12, 15, `${ROW_NAMES[c]} · ${worker}s`, "wc-s");
  b.explain(rowLabel, `${worker}s: ${clan.left[c]} still in the domain (the leftmost leaves first)`);
  g.appendChild(rowLabel);
  // Die space.
  const ds = svg("g", {class: "wc-space", transform: "translate(14,20)"});
  ds.appendChild(svg("rect", {x: -2, y: -2, width: 30, height: 30, rx: 5, class: "wc-space-box", stroke: DIE_FILL[colour]}));
  const d = clan.domain[c];
  if (d) ds.appendChild(die(b, d[0], d[1], 0, 0, 26));
  else ds.appendChild(label(13, 19, "6", "wc-printed", {"text-anchor": "middle", "font-size": 14}));
  b.explain(ds, `Domain die space for ${colour} dice (counts as a 6): ${d ? `${COLOURS[d[0]]} ${d[1]} placed this round` : "empty"}. ${b.comp(`domain_${colour}`).text.replace(/ \[.*\]$/, "")}`);
  if (p === b.payload.you && v.held && v.held[0] === c) b.bind(ds, "place domain");
  g.appendChild(ds);
  // Always-visible reward.
  const vis = svg("g", {transform: "translate(50,20)"});
  vis.appendChild(svg("rect", {width: 58, height: 26, rx: 4, class: "wc-block-bg"}));
  vis.appendChild(label(29, 17, b.comp(`domain_${colour}`).short || "?", "wc-bt", {"text-anchor": "middle"}));
  b.explain(vis, `Always given by a ${colour} domain action: ${b.comp(`domain_${colour}`).short || "?"}`);
  g.appendChild(vis);
  // Five spaces under the workers (leftmost leave first).
  const gone = 5 - clan.left[c];
  for (let k = 0; k < 5; k++) {
    const id = `domain_${colour}_${k + 1}`;
    const entry = b.comp(id);
    const cell = svg("g", {class: "wc-dcell", transform: `translate(${116 + k * 60},20)`});
    cell.appendChild(svg("rect", {width: 56, height: 26, rx: 4, class: k < gone ? "wc-uncovered" : "wc-covered"}));
    if (k < gone) cell.appendChild(label(28, 17, entry.short || "?", "wc-bt", {"text-anchor": "middle"}));
    else cell.appendChild(pawn(b, p, 28, 13, worker, 15));
    b.explain(cell, `${k < gone ? "Uncovered" : `Covered by a ${worker}`}: ${entry.text}`, id);
    g.appendChild(cell);
  }
  b.explain(bg, `${ROW_NAMES[c]} row: ${clan.left[c]} ${worker}s still in the domain. ${b.comp(`domain_${colour}`).text.replace(/ \[.*\]$/, "")}`);
  if (p === b.payload.you) {
    b.bind(bg, `row ${colour}`);
    b.bind(rowLabel, `worker ${worker}`);
  }
  return g;
}

/** The action card on a domain: its blocks aligned with the rows they serve. */
function actionCard(b, p, x, y, w, h) {
  const clan = b.view.clans[p];
  const g = svg("g", {class: "wc-action-card", transform: `translate(${x},${y})`});
  g.appendChild(svg("rect", {width: w, height: h, rx: 8, class: "wc-card"}));
  if (!clan.card) {
    g.appendChild(label(10, 20, "no action card", "wc-s"));
    return g;
  }
  const entry = b.comp(clan.card);
  const t = label(8, 13, clan.card.replace(/_/g, " "), "wc-s");
  b.explain(t, entry.text, clan.card);
  g.appendChild(t);
  const rowH = (h - 18) / 3;
  const ordinals = ["first", "second", "third"];
  for (let i = 0; i < 3 && entry[`block${i + 1}`]; i++) {
    const rows = (entry[`block${i + 1}_rows`] || "top").split(" ");
    const first = ROW_NAMES.indexOf(rows[0]);
    const by = 16 + first * rowH;
    g.appendChild(cardBlock(b, 4, by, w - 8, rowH * rows.length - 2, entry, i, null,
      p === b.payload.you ? `card ${ordinals[i]}` : null, `Action card ${clan.card}, ${rows.join("+")} row block`));
  }
  return g;
}

/** The Tokugawa rival (solo): coins, CP, pieces left, the Solitaire deck and discards. */
function rivalSection(board, b, p) {
  const v = b.view;
  const clan = v.clans[p];
  const s = section(board, "Tokugawa rival (solo)", 150, "wc-domain");
  s.querySelector(".wc-h").setAttribute("fill", b.clanFill(p));
  s.insertBefore(svg("rect", {x: 0, y: 0, width: WIDTH, height: 4, fill: b.clanFill(p)}), s.firstChild);
  const diff = (v.options || {}).difficulty || "";
  s.appendChild(label(8, 40, `${clan.coins} coin${clan.coins === 1 ? "" : "s"} (turned into CP at each round end) · ${clan.cp} CP · Passage ${clan.pos}${diff ? ` · ${diff}` : ""}`, "wc-t"));
  s.appendChild(label(8, 58, `Still in reserve: ${clan.left[0]} courtiers · ${clan.left[1]} gardeners · ${clan.left[2]} warriors`, "wc-t"));
  const deck = svg("g", {class: "wc-solo-deck", transform: "translate(8,70)"});
  for (let k = Math.min(v.solo_deck, 5) - 1; k >= 0; k--) {
    deck.appendChild(svg("rect", {x: k * 3, y: -k * 2 + 8, width: 50, height: 62, rx: 5, class: "wc-solo-card"}));
  }
  deck.appendChild(label(70, 24, `Solitaire deck: ${v.solo_deck} cards (order hidden)`, "wc-b"));
  deck.appendChild(label(70, 40, "Bridge side up: it names the rival's die and where it goes;", "wc-s"));
  deck.appendChild(label(70, 54, "the action side gives its icons. Card contents reconstructed.", "wc-s"));
  const recon = Object.keys(b.components).filter((k) => /^solo_\d+$/.test(k));
  const detail = recon.map((k) => b.comp(k).text.replace(/ \[.*\]$/, "")).join(" | ");
  deck.classList.add("reconstructed");
  deck.setAttribute("data-explain", `Solitaire deck: ${v.solo_deck} cards. [reconstructed: most card faces are not public text; kamon's reconstruction, marked in data/solo_deck.json] ${detail}`);
  s.appendChild(deck);
  if (v.discarded && v.discarded.length) {
    const t = label(300, 142, `Removed by the rival: ${v.discarded.map((c) => c.replace(/_/g, " ")).join(", ")}`, "wc-s", {"text-anchor": "middle"});
    b.explain(t, "Castle cards the rival's climbing courtiers removed from the game");
    s.appendChild(t);
  }
  return s;
}

// ---------------------------------------------------------------------------- entry

/** Draw the whole White Castle board for this payload into root. */
export function render(root, payload, ctx) {
  root.replaceChildren();
  const b = new Board(payload, ctx || {});
  const top = html("div", {class: "wc-root"});
  top.appendChild(header(b));
  const pending = pendingControls(b);
  if (pending) top.appendChild(pending);
  const board = html("div", {class: "wc-board"});
  const draft = draftSection(b);
  if (draft) board.appendChild(draft);
  castleSection(board, b);
  bridgesSection(board, b);
  outsideSection(board, b);
  tracksSection(board, b);
  const seats = b.view.clans.map((_, p) => p);
  const you = payload.you;
  if (you !== null && you !== undefined) seats.sort((x, y) => (y === you) - (x === you));
  seats.forEach((p) => domainSection(board, b, p));
  top.appendChild(board);
  const rest = (payload.legal || []).filter((a) => !b.placed.has(a.notation));
  if (rest.length) {
    top.appendChild(html("div", {class: "wc-note", text: `Also possible (see the action list): ${rest.map((a) => a.notation).join(", ")}`}));
  }
  root.appendChild(top);
}
