// I, Clansman board: a card drawn as SVG (band, name, cost, uses or VPs, marks), goods
// (pictures with counts), VP badges, daughters, and the convert buttons under a usable card.
import { reconMark } from "../../marks.js";
import {
  CARD_H, CARD_W, ORD, SEAT_FILL, TYPE_BAND, TYPE_SHORT, VP, comp, el, isWeak, makeLegal,
  parseGoods, txt, wrap,
} from "./base.js";
import { goodToken, tokenWidth } from "./icons.js";


/** A row of goods (count and picture each: '2 [worker]') starting at x, baseline y;
 *  returns [group, width]. */
export function chips(list, x, y, opts = {}) {
  const g = el("g", { class: "cm-goods" });
  let cx = x;
  for (const [good, n] of list) {
    const [t, w] = goodToken(good, n, cx, y);
    g.appendChild(t);
    cx += w + (opts.gap ?? 3);
  }
  return [g, Math.max(0, cx - x - (opts.gap ?? 3))];
}

/** The width a row of goods takes. */
function rowWidth(list, gap = 3) {
  return list.reduce((w, [, n]) => w + tokenWidth(n) + gap, 0) - (list.length ? gap : 0);
}

/** The use line of a clan-like card: 'in → out / out' as goods (a use without an input:
 *  '→ out'); outputs that do not fit go on a second line when `room` allows one. */
export function usesLine(c, x, y, maxW, room = 0) {
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
    cx += w + 2;
  }
  g.appendChild(txt(cx, y, "→", { class: "cm-arrow" }));
  cx += 14;
  const lineStart = cx;
  let ly = y;
  uses.forEach((u, i) => {
    const w = rowWidth(u.out);
    const sep = i ? 9 : 0;
    if (cx + sep + w > x + maxW) {
      if (room < 19 || ly > y) return;   // no room for (another) line: dropped
      ly += 19;
      cx = lineStart;
    } else if (i) {
      g.appendChild(txt(cx + 1, ly, "/", { class: "cm-small" }));
      cx += sep;
    }
    const [og, ow] = chips(u.out, cx, ly);
    g.appendChild(og);
    cx += ow + 2;
  });
  return g;
}

/** The cost options of a card as goods ('or' between options). */
export function costLine(c, x, y) {
  const g = el("g");
  const opts = String(c.cost || "").split("|").filter(Boolean);
  let cx = x;
  if (!opts.length) return g;
  g.appendChild(txt(cx, y, "cost", { class: "cm-small" }));
  cx += 27;
  opts.forEach((o, i) => {
    if (i) { g.appendChild(txt(cx, y, "or", { class: "cm-small" })); cx += 16; }
    const [cg, w] = chips(parseGoods(o), cx, y);
    g.appendChild(cg);
    cx += w + 4;
  });
  return g;
}

/** A VP badge (coloured square with the amount). */
export function vpBadge(x, y, amount, colour, size = 18) {
  const v = VP[colour] || VP.others;
  return el("g", { class: "cm-vp" }, [
    el("rect", { x, y, width: size, height: size, rx: 4, fill: v.fill, stroke: "#333",
      "stroke-width": 0.8 }),
    txt(x + size / 2, y + size * 0.72, String(amount), { "text-anchor": "middle",
      fill: v.ink, class: "cm-vp-t" }),
  ]);
}

/** A daughter pawn in a seat colour. */
export function daughterPawn(x, y, colour, r = 10) {
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
export function drawCard(ctx, cid, opts = {}) {
  const c = comp(ctx, cid);
  const weak = isWeak(c);
  const type = c.type || "";
  const [vpAmount, vpColour] = String(c.vp || "").split(" ");
  const band = type === "mission" && vpColour ? VP[vpColour].fill : (TYPE_BAND[type] || "#555");
  const bandInk = type === "mission" && vpColour ? VP[vpColour].ink : "#fff";
  // (a reconstructed card's own text says what of it is not legible, after a †)
  const explain = [opts.where, c.text, weak && !String(c.text || "").includes("†")
    ? "(† reconstructed: not all of this card is legible in the rulebook)" : "",
  opts.unofficial ? "Unofficial: a card the rulebook prints outside the box's contents." : "",
  opts.extra].filter(Boolean).join(" ");
  const g = el("g", { class: `cm-card cm-${type}`, "data-card": cid, "data-explain": explain });
  g.appendChild(el("rect", { class: "cm-card-bg", x: 0, y: 0, width: CARD_W, height: CARD_H,
    rx: 7 }));
  g.appendChild(el("path", { d: `M0,7 a7,7 0 0 1 7,-7 h${CARD_W - 14} a7,7 0 0 1 7,7 v13 h-${CARD_W} z`,
    fill: band, stroke: type === "mission" && vpColour === "others" ? "#999" : "none" }));
  const century = c.century && !opts.unofficial ? ` · ${ORD[c.century] || c.century}` : "";
  // a daughter on a Royal Prince sits at the band's end: its word is shortened for her
  const kind = opts.unofficial ? "UNOFFICIAL"
    : (opts.daughter && type === "royal_prince" ? "Prince" : (TYPE_SHORT[type] || type));
  g.appendChild(txt(6, 14, cid, { class: "cm-band-t", fill: bandInk }));
  const idW = cid.length * 7;
  if (weak) g.appendChild(reconMark(6 + idW + 11, 10, 7.4));
  g.appendChild(txt(6 + idW + (weak ? 24 : 7), 14, `${kind}${century}`,
    { class: "cm-band-t", fill: bandInk }));
  // Emperor names carry a long second name in brackets: the explanation has it.
  const shown = type === "emperor" ? String(c.name || cid).split(" (")[0] : (c.name || cid);
  const lines = wrap(shown, 17, 2);
  lines.forEach((l, i) => g.appendChild(txt(6, 34 + i * 13, l, { class: "cm-name" })));
  let y = lines.length > 1 ? 66 : 56;
  if (c.cost) { g.appendChild(costLine(c, 6, y)); y += 19; }
  if (c.uses && type !== "hero") {
    g.appendChild(usesLine(c, 6, y, CARD_W - 12, CARD_H - 4 - y));
  } else if (type === "hero") {
    g.appendChild(txt(6, y, "once per game", { class: "cm-small" }));
    g.appendChild(chips(parseGoods(String(c.uses).split(">")[1] || ""), 94, y)[0]);
  } else if (type === "mission" || type === "kofun") {
    g.appendChild(vpBadge(6, y - 13, vpAmount || 0, vpColour));
    let cx = 28;
    if (c.items) {
      g.appendChild(txt(cx, y, "+", { class: "cm-small" }));
      const [ig, iw] = chips(parseGoods(c.items), cx + 9, y);
      g.appendChild(ig);
      cx += iw + 14;
    }
    if (c.mirror_vp_each) {
      g.appendChild(txt(cx, y, `+${c.mirror_vp_each} VP per Mirror`, { class: "cm-small" }));
    }
  } else if (type === "emperor" && c.rule) {
    // the rule in as many lines as fit above the status line (the explanation has it all)
    wrap(c.rule, 20, opts.status && lines.length > 1 ? 2 : 3).forEach((l, i) =>
      g.appendChild(txt(6, y - 4 + i * 12, l, { class: "cm-small" })));
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
export function convertButtons(list, ctx) {
  const g = el("g", { class: "cm-converts" });
  let x = 0;
  const h = ctx.size.btnH;
  for (const { good, action } of list) {
    const label = `use → ${good}`;
    const w = Math.max(h, 12 + label.length * (h > 30 ? 6.8 : 6));
    const b = el("g", { transform: `translate(${x},0)`, class: "cm-btn",
      "data-explain": `Use this card once this round: ${action.text}` }, [
      el("rect", { width: w, height: h, rx: Math.min(9, h / 2), class: "cm-btn-bg" }),
      txt(w / 2, h / 2 + 4, label, { "text-anchor": "middle", class: "cm-btn-t" }),
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
export function cardItem(ctx, L, cid, opts = {}) {
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
    const step = ctx.size.btnH + 4;
    if (rows.length > 1) {
      rows.forEach((r, i) => {
        const [rg] = convertButtons(r, ctx);
        rg.setAttribute("transform", `translate(0,${CARD_H + 4 + i * step})`);
        g.appendChild(rg);
      });
      h += 4 + rows.length * step;
    } else {
      bg.setAttribute("transform", `translate(0,${CARD_H + 4})`);
      g.appendChild(bg);
      h += 4 + step;
    }
  }
  return { node: g, w: CARD_W, h };
}
