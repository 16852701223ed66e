// I, Clansman board: one panel per Gozoku — its name and markers, VPs by colour, tokens,
// daughter, Clan cards (with the daughters on them), Missions and hand.
import {
  GOODS, PAD, SEAT_FILL, VP, VP_ORDER, clanKey, colourOf, el, html, seatLabel, txt, wrap,
} from "./base.js";
import { cardItem, daughterPawn, vpBadge } from "./cards.js";
import { area, pack } from "./layout.js";
import { daughterMap, daughterWhere } from "./centre.js";

/** The VP-by-colour strip of one seat (SVG group) and its width. */
export function vpStrip(payload, p) {
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
export function playerPanel(payload, ctx, L, p, W) {
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
  const marks = (p === v.start ? " ★" : "") + (p === v.to_move ? " ▶" : "");
  const title = wrap(seatLabel(payload, p), Math.max(8, Math.floor((W - 2 * PAD - 34) / 9.4)
    - marks.length), 1)[0] + marks;  // a long name is cut, its marks stay
  head.appendChild(txt(hx, 16, title, { class: "cm-head-t",
    "data-explain": `${colour}'s Gozoku.` + (p === v.start ? " Holds the Start Player marker (★)." : "") + (p === v.to_move ? " To move now (▶)." : "") }));
  const items = [{ node: head, w: Math.min(W - 2 * PAD, 34 + title.length * 9.4), h: 24 }];
  if ((payload.winners || []).includes(p)) {
    // the winner's tag: a box of its own, as wide as its words
    const tag = el("g", { class: "cm-winner-tag", "data-explain": `${colour} wins the game.` }, [
      el("rect", { width: 86, height: 22, rx: 11, class: "cm-winner" }),
      txt(43, 16, "★ WINNER", { "text-anchor": "middle", class: "cm-winner-t" })]);
    items.push({ node: tag, w: 86, h: 24 });
  }
  const [vs, vw] = vpStrip(payload, p);
  items.push({ node: vs, w: vw, h: 24 });
  const tokens = [["Tadokoro", gz.tadokoro, "#8bc34a", `${gz.tadokoro} Tadokoro: each gives 1 Worker at the start of your Production turn; pay 1 as dowry to marry into another player's clan or a Royal Prince.`],
    ["Iron", gz.iron, GOODS.iron.fill, "Iron tokens (kept; spent in some costs; break final ties)."],
    ["Statue", gz.statue, GOODS.statue.fill, "Statue tokens (kept; 1 Religion VP each while you own a temple)."],
    ["Mirror", gz.mirror, GOODS.mirror.fill, v.options && v.options.expert ? "Mirrors not under a Kofun: worth nothing in the Expert game (they go under your Kofun when you obtain it)." : "Mirrors: 1 VP each in the Beginner game."]];
  if (v.options && v.options.expert) tokens.push(["under Kofun", gz.kofun_mirrors, "#4e5d2f", "Mirrors under the Kofun: 2 Religion VPs each."]);
  for (const [name, n, fill, ex] of tokens) {
    const w = 16 + (name.length + String(n).length + 1) * 6.6;
    items.push({ node: el("g", { "data-explain": ex, class: "cm-token" }, [
      el("rect", { x: 0, y: 0, width: w, height: 20, rx: 10, fill }),
      txt(w / 2, 14, `${n} ${name}`, { "text-anchor": "middle", class: "cm-token-t" })]),
    w, h: 22 });
  }
  const dw = daughterWhere(payload, ctx, p);
  const dwShown = wrap(`daughter ${dw}`, Math.floor((W - 2 * PAD - 26) / 6.2), 1)[0];
  items.push({ node: el("g", { "data-explain": `${colour}'s daughter: ${dw}.` }, [daughterPawn(9, 10, colour, 9), txt(22, 15, dwShown, { class: "cm-small" })]),
    w: 26 + dwShown.length * 6.2, h: 22 });
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
  const svg = pack(parts, W, "cm-player", ctx.size.fit);
  const wrapDiv = html("div", `cm-panel cm-seat-${colour}` + (p === v.to_move ? " cm-to-move" : "") + (p === payload.you ? " cm-mine" : ""));
  wrapDiv.style.setProperty("--seat", SEAT_FILL[colour]);
  wrapDiv.setAttribute("data-area", `gozoku-${p}`);
  wrapDiv.appendChild(svg);
  return wrapDiv;
}

