// I, Clansman board: the centre of the table — Century piles, the Supply, Royal Princes
// and the Miyake row, Heroes, Kofun and Emperor cards, the Bank and its Tadokoro options.
import { ORD, PAD, colourOf, comp, el, makeLegal, txt } from "./base.js";
import { cardItem } from "./cards.js";
import { area, boxItem, pack } from "./layout.js";
import { centuryOf } from "./status.js";

/** Who owns an Emperor face (awarded for VPs or as a clan), or null. */
export function emperorOwner(v, face) {
  const q = (v.gozoku || []).findIndex((g) => g.emperors.includes(face) || g.clans.includes(face));
  return q >= 0 ? q : null;
}

/** The centre of the table. */
export function centre(payload, ctx, L, W) {
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
    w: Math.max(146, mw * 26), h: 70 });
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
  const maxW = W - 2 * PAD;
  const bank = [boxItem(bankText, "Iron, Statue, Mirror never run out", "The Bank: Tadokoro cards, Iron, Statue and Mirror tokens (these never run out, R02).", { maxW })];
  const f = boxItem("F: obtain 2 Tadokoro", "pay 2 Workers + 1 Iron, then 1 Supply card to hand", "Option F: pay 2 Workers + 1 Iron for 2 Tadokoro, then take a Supply card into your hand. It is the round's obtained card.", { cls: "cm-space" + (L.f ? "" : " cm-off"), h: ctx.size.boxH, maxW });
  if (L.f) makeLegal(f.node, L.f, ctx);
  const gopt = boxItem("G: obtain 1 Tadokoro", "free (no hand card)", "Option G: take 1 Tadokoro for free. It is the round's obtained card.", { cls: "cm-space" + (L.g ? "" : " cm-off"), h: ctx.size.boxH, maxW });
  if (L.g) makeLegal(gopt.node, L.g, ctx);
  bank.push(f, gopt);
  areas.push(area("Bank", "The Bank and the two ways to obtain Tadokoro instead of a card.", bank, W));
  const svg = pack(areas, W, "cm-centre", ctx.size.fit);
  svg.setAttribute("data-area", "centre");
  return svg;
}

/** Map 'owner:cid' -> seat whose daughter is there (owner -1 = a Royal Prince). */
export function daughterMap(payload) {
  const m = new Map();
  (payload.view.daughters || []).forEach((d, p) => { if (d) m.set(`${d[0]}:${d[1]}`, p); });
  return m;
}

/** Where seat p's daughter is, in words. */
export function daughterWhere(payload, ctx, p) {
  const d = payload.view.daughters[p];
  if (!d) return "at home";
  const name = comp(ctx, d[1]).name;
  if (d[0] < 0) return `on Royal Prince ${d[1]}`;
  return (d[0] === p ? "own " : `${colourOf(payload, d[0])}'s `) + `${d[1]} ${name}`;
}

