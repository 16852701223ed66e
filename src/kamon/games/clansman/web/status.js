// I, Clansman board: the status bar (mode, round and Century, phase, start player, whose
// decision) and the producing seat's turn panel (pool, usable cards, payment).
import {
  ORD, PAD, PHASE, POOL_GOODS, SEAT_FILL, STEP, colourOf, comp, el, goodsWords, html, makeLegal,
  seatLabel, txt,
} from "./base.js";
import { cardItem, chips } from "./cards.js";
import { area, boxItem, pack } from "./layout.js";
import { withNames } from "../../names.js";

/** Century of a round (4 rounds per century). */
export function centuryOf(round) {
  return 4 + Math.floor((Math.max(1, round) - 1) / 4);
}

/** The HTML status bar: mode, variants, round/century, phase, start player, decision. */
export function statusBar(payload) {
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
    t.setAttribute("data-explain", "Not from the rulebook: kamon's adaptation of the game to 2 or 3 players, untested for balance.");
    line1.appendChild(t);
  }
  if (opts.emperor_variant) {
    const t = html("span", "cm-tag cm-unofficial-tag", `UNOFFICIAL Emperor ${opts.emperor_variant}`);
    t.setAttribute("data-explain", "Not from the rulebook: Emperor cards the rulebook prints but leaves out of the box's contents, each put in its century's place.");
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
  dec.appendChild(html("span", "", " " + withNames(payload, payload.decision || v.decision || "")));
  if (payload.you !== null && payload.you === v.to_move) dec.appendChild(html("span", "cm-tag cm-you", "your move"));
  bar.appendChild(dec);
  return bar;
}

/** A coloured seat name chip (HTML). */
export function seatChip(payload, p, prefix = "") {
  const colour = colourOf(payload, p);
  const s = html("span", "cm-seat", prefix + seatLabel(payload, p));
  s.style.background = SEAT_FILL[colour] || "#777";
  return s;
}

/** The producing seat's pool, its usable cards, the pending payment and recent events. */
export function turnPanel(payload, ctx, L, W) {
  const v = payload.view;
  const p = v.to_move;
  const areas = [];
  if (v.phase === "production" && p !== null && p !== undefined) {
    const colour = colourOf(payload, p);
    const pool = POOL_GOODS.map((g, i) => [g, v.pool[i] || 0]).filter(([, k]) => k > 0);
    const items = [];
    if (pool.length) {
      // one item a good: a long pool wraps on a narrow board
      for (const one of pool) {
        const [cg, w] = chips([one], 0, 18);
        items.push({ node: el("g", { "data-explain": `Pool: ${goodsWords(pool)}. Workforce vanishes at the end of the turn.` }, [cg]), w, h: 24 });
      }
    } else {
      items.push(boxItem("empty pool", "", "Nothing left in the pool this turn."));
    }
    const g = v.gozoku[p];
    const keep = [["iron", g.iron], ["statue", g.statue]].filter(([, k]) => k > 0);
    if (keep.length) {
      const [kg, w] = chips(keep, 40, 18, { gap: 6 });
      items.push({ node: el("g", { "data-explain": `Items ${colour} may spend: ${goodsWords(keep)}${v.lock ? ` (${v.lock} Statue locked by the temple this turn)` : ""}.` }, [
        txt(0, 18, "items", { class: "cm-small" }), kg]), w: w + 40, h: 24 });
    }
    areas.push(area(`Pool of ${colour} (Production turn)`, "The producing player's workforce: workers from his Tadokoro (and Miyake via a Royal Prince) plus what his cards have made. Everything but Iron, Statue and Mirror vanishes at the end of the turn.", items, Math.min(W, 520), { cls: `cm-seat-${colour}` }));
    const left = (v.usable || []).filter((u) => !(v.used || []).includes(u[0]));
    const usable = left.map((u) => `${u[0]} ${String(comp(ctx, u[2]).name).split(" (")[0]}`);
    if (v.usable && v.usable.length) {
      const ex = "Cards still usable this turn: " + (usable.join(", ") || "none");
      const maxW = W - 2 * PAD;
      const items2 = usable.length ? usable.map((u) => boxItem(u, "", ex, { w: 16 + u.length * 7.4, maxW }))
        : [boxItem("nothing left to use", "", ex, { maxW })];
      areas.push(area("May still use", "Cards this player may still use this turn (his daughter's card and his own clans without another player's daughter; each once per round).",
        items2, W));
    }
  }
  if (v.step === "payment" && v.pending) {
    const items = [cardItem(ctx, L, v.pending, { where: "Being obtained:" })];
    for (const a of L.payment) {
      const b = boxItem(`Payment ${a.notation.split(" ")[1]}`, a.text, `Pay this printed cost: ${a.text}`, { cls: "cm-space", h: ctx.size.boxH, maxW: W - 2 * PAD });
      makeLegal(b.node, a, ctx);
      items.push(b);
    }
    areas.push(area("Choose the payment", "This card prints alternative costs; choose which one to pay.", items, W));
  }
  if (v.step === "hand") {
    areas.push(area("Option F", "After obtaining 2 Tadokoro, take one Supply card into your hand (the highlighted Supply cards).",
      [boxItem("Take a Supply card into hand", "click a highlighted card in the Supply", "Option F: one Supply card goes into the hand.", { maxW: W - 2 * PAD })], W));
  }
  if (!areas.length) return null;
  const svg = pack(areas, W, "cm-turn", ctx.size.fit);
  svg.setAttribute("data-area", "turn");
  return svg;
}

