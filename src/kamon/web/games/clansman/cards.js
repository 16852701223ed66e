// I, Clansman board: a card drawn as SVG (band, name, cost, uses or VPs, marks), good
// chips, VP badges, daughters, and the convert buttons under a usable card.
import { reconMark } from "../../marks.js";
import {
  CARD_H, CARD_W, GOODS, ORD, SEAT_FILL, TYPE_BAND, TYPE_SHORT, VP, comp, el, isWeak, makeLegal,
  parseGoods, txt, wrap,
} from "./base.js";


/** A row of good chips ('2W', '1Fe') starting at x; returns [group, width]. */
export function chips(list, x, y, opts = {}) {
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
export function usesLine(c, x, y, maxW) {
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
export function costLine(c, x, y) {
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
  const explain = [opts.where, c.text, weak ? "(† reconstructed card data: not read from the "
    + "rulebook as printed)" : "", opts.unofficial ? "UNOFFICIAL variant card (RULES_NOTES R32)." : "",
  opts.extra].filter(Boolean).join(" ");
  const g = el("g", { class: `cm-card cm-${type}`, "data-card": cid, "data-explain": explain });
  g.appendChild(el("rect", { class: "cm-card-bg", x: 0, y: 0, width: CARD_W, height: CARD_H,
    rx: 7 }));
  g.appendChild(el("path", { d: `M0,7 a7,7 0 0 1 7,-7 h${CARD_W - 14} a7,7 0 0 1 7,7 v13 h-${CARD_W} z`,
    fill: band, stroke: type === "mission" && vpColour === "others" ? "#999" : "none" }));
  const century = c.century && !opts.unofficial ? ` · ${ORD[c.century] || c.century}` : "";
  const kind = opts.unofficial ? "UNOFFICIAL" : (TYPE_SHORT[type] || type);
  g.appendChild(txt(6, 14, cid, { class: "cm-band-t", fill: bandInk }));
  const idW = cid.length * 6.6;
  if (weak) g.appendChild(reconMark(6 + idW + 9, 10, 7));
  g.appendChild(txt(6 + idW + (weak ? 20 : 7), 14, `${kind}${century}`,
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
