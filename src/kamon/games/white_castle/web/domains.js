// A clan's personal domain, in three tiles: its stores (coins, seals and their exchanges,
// the food/iron/pearl tracks, the Lantern area), its three rows (die space counting as a
// 6, the always-visible reward, the five spaces under the workers) and its action card,
// whose blocks serve the rows beside them.
import { cardBlock } from "./castle.js";
import { die, pawn } from "./pieces.js";
import {
  COLOURS, DIE_FILL, RESOURCES, RES_FILL, ROW_NAMES, TARGET, TILE_W, WORKERS, area, fitTile,
  frame, label, svg, tile,
} from "./svg.js";

const ROW_H = 60;
const EXCHANGES = [["exchange seal coin", "◆ → coin"], ["exchange seals food", "◆◆ → food"],
  ["exchange seals iron", "◆◆ → iron"], ["exchange seals pearl", "◆◆ → pearl"]];

/** The seal exchanges this seat may make now, as buttons (free: at any decision). */
function exchanges(b, y) {
  const legal = EXCHANGES.filter(([n]) => b.legal(n));
  if (!legal.length) return [null, 0];
  const g = svg("g", { class: "wc-exchanges", "data-free": "seal exchanges",
                       transform: `translate(8,${y})` });
  g.appendChild(label(0, 12, "Exchange seals (any time):", "wc-xs"));
  const w = (TILE_W - 16 - 3 * 4) / 4;
  legal.forEach(([notation, words], k) => {
    const btn = svg("g", { class: "wc-exchange", transform: `translate(${k * (w + 4)},17)` });
    btn.appendChild(frame(0, 0, w, TARGET, "wc-chip-bg", 7));
    btn.appendChild(label(w / 2, 23, words, "wc-bt", { "text-anchor": "middle" }));
    b.explain(btn, notation === "exchange seal coin" ? "Exchange 1 Daimyo seal for 1 coin"
      : `Exchange 2 Daimyo seals for 1 ${notation.split(" ")[2]}`);
    b.bind(btn, notation);
    g.appendChild(btn);
  });
  return [g, 17 + TARGET + 6];
}

/** The stores tile: coins, seals (and exchanges), CP, resources, the Lantern area. */
function storesTile(tiles, b, p) {
  const clan = b.view.clans[p];
  const mine = p === b.you;
  const s = tile(tiles, 300, `${b.clanName(p)}: stores`);
  s.appendChild(svg("rect", { x: 0, y: 0, width: TILE_W, height: 5, fill: b.clanFill(p) }));
  const coins = svg("g", { transform: "translate(8,12)" });
  coins.appendChild(svg("circle", { cx: 11, cy: 11, r: 11, class: "wc-coin" }));
  coins.appendChild(label(11, 15, String(clan.coins), "wc-b", { "text-anchor": "middle" }));
  coins.appendChild(label(26, 15, "coins", "wc-s"));
  b.explain(coins, `${clan.coins} coins`);
  s.appendChild(coins);
  const seals = svg("g", { transform: "translate(78,12)" });
  for (let k = 0; k < 5; k++) {
    seals.appendChild(svg("path", { d: `M${k * 15 + 7},2 l7,9 l-7,9 l-7,-9 Z`,
                                    class: k < clan.seals ? "wc-seal-on" : "wc-seal-off" }));
  }
  seals.appendChild(label(80, 15, `${clan.seals} seal${clan.seals === 1 ? "" : "s"}`, "wc-s"));
  b.explain(seals, `${clan.seals} Daimyo seals (5 at most); at any time 1 seal can be exchanged `
    + "for a coin, 2 for a resource");
  s.appendChild(seals);
  let y = 40;
  if (mine) {
    const [ex, h] = exchanges(b, y);
    if (ex) { s.appendChild(ex); y += h; }
  }
  RESOURCES.forEach((r, i) => {
    const g = svg("g", { class: "wc-res", transform: `translate(6,${y})` });
    g.appendChild(frame(0, 0, TILE_W - 12, TARGET + 2, "wc-res-bg", 6));
    g.appendChild(label(8, 24, r, "wc-t"));
    for (let k = 1; k <= 7; k++) {
      g.appendChild(svg("rect", { x: 50 + (k - 1) * 25, y: 9, width: 22, height: 20, rx: 3,
        fill: k <= clan.res[i] ? RES_FILL[r] : "none", class: "wc-res-cell" }));
    }
    g.appendChild(label(TILE_W - 24, 24, String(clan.res[i]), "wc-b", { "text-anchor": "end" }));
    b.explain(g, `${clan.res[i]} ${r} (7 at most; 3-6 score 1 CP at the end, 7 scores 2)`);
    if (mine) b.bind(g, `gain ${r}`);
    s.appendChild(g);
    y += TARGET + 6;
  });
  y = lanternArea(s, b, clan, y + 2);
  fitTile(s, y);
}

/** The Lantern area: every card in it gives its reward at each Lantern; the next y. */
function lanternArea(s, b, clan, y) {
  s.appendChild(label(8, y + 14, "Lantern area", "wc-b"));
  let x = 100;
  let line = y;
  clan.lantern.forEach(cid => {
    const entry = b.comp(cid);
    const txt = entry.lantern || "?";
    const w = Math.max(50, txt.length * 6.4 + 14);
    if (x + w > TILE_W - 6) { x = 8; line += 24; }
    const card = svg("g", { class: "wc-lantern-card", transform: `translate(${x},${line})` });
    card.appendChild(svg("rect", { width: w, height: 20, rx: 4 }));
    card.appendChild(label(w / 2, 14, txt, "wc-t", { "text-anchor": "middle" }));
    b.explain(card, `Lantern area: ${b.name(cid)} gives ${txt} at every Lantern reward. `
      + b.words(cid), cid, [w - 2, 2, 6]);
    s.appendChild(card);
    x += w + 5;
  });
  if (!clan.lantern.length) s.appendChild(label(x, y + 13, "empty", "wc-s"));
  return line + 28;
}

/** One domain row: die space (a printed 6), the always-visible reward, 5 worker spaces. */
function domainRow(b, p, c, y) {
  const v = b.view;
  const clan = v.clans[p];
  const colour = COLOURS[c];
  const worker = WORKERS[c];
  const mine = p === b.you;
  const g = svg("g", { class: "wc-drow", transform: `translate(4,${y})` });
  g.appendChild(frame(0, 0, TILE_W - 8, ROW_H - 4, "wc-drow-bg", 6));
  g.appendChild(svg("rect", { x: 0, y: 0, width: 6, height: ROW_H - 4, rx: 3, fill: DIE_FILL[colour], stroke: "#111", "stroke-width": 0.6 }));
  g.appendChild(label(12, 13, `${ROW_NAMES[c]} row · ${colour} dice · ${clan.left[c]} ${worker}s left`, "wc-xs"));
  const ds = svg("g", { class: "wc-space", transform: "translate(10,17)" });
  ds.appendChild(frame(0, 0, TARGET, TARGET, "wc-space-box", 5));
  const d = clan.domain[c];
  if (d) ds.appendChild(die(b, d[0], d[1], 3, 3, TARGET - 6));
  else ds.appendChild(label(TARGET / 2, TARGET / 2 + 6, "6", "wc-printed", { "text-anchor": "middle", "font-size": 16 }));
  b.explain(ds, `Domain die space for ${colour} dice (a printed 6: a lower die pays the difference): `
    + `${d ? `${COLOURS[d[0]]} ${d[1]} placed this round` : "empty"}. ${b.words(`domain_${colour}`)}`);
  ds.setAttribute("data-key", "place domain");  // what just happened finds it by clan
  ds.setAttribute("data-owner", String(p));
  if (d) ds.setAttribute("data-filled", "true");
  if (mine && v.held && v.held[0] === c) b.bind(ds, "place domain");
  g.appendChild(ds);
  const vis = svg("g", { transform: "translate(52,17)" });
  vis.appendChild(svg("rect", { width: 50, height: TARGET, rx: 4, class: "wc-block-bg" }));
  const [n, ...what] = String(b.comp(`domain_${colour}`).short || "?").split(" ");
  vis.appendChild(label(25, 16, n, "wc-bt", { "text-anchor": "middle" }));
  vis.appendChild(label(25, 29, what.join(" "), "wc-xs", { "text-anchor": "middle" }));
  b.explain(vis, `Always given by a ${colour} domain action: ${b.comp(`domain_${colour}`).short || "?"}`);
  g.appendChild(vis);
  const gone = 5 - clan.left[c];
  const cells = svg("g", { class: "wc-cells", transform: "translate(106,15)" });
  cells.appendChild(frame(-2, 0, 5 * 32 + 2, TARGET + 4, "wc-cells-bg", 5));
  for (let k = 0; k < 5; k++) {
    const id = `domain_${colour}_${k + 1}`;
    const entry = b.comp(id);
    const cell = svg("g", { class: "wc-dcell", transform: `translate(${k * 32},2)` });
    cell.appendChild(svg("rect", { width: 30, height: TARGET, rx: 4, class: k < gone ? "wc-uncovered" : "wc-covered" }));
    if (k < gone) {
      const [n, ...rest] = String(entry.short || "?").split(" ");
      cell.appendChild(label(15, 15, n, "wc-bt", { "text-anchor": "middle" }));
      cell.appendChild(label(15, 28, rest.join(" ").slice(0, 6), "wc-xs", { "text-anchor": "middle" }));
    } else {
      cell.appendChild(pawn(b, p, 15, 18, worker, 15));
    }
    b.explain(cell, `${k < gone ? "Uncovered" : `Covered by a ${worker}`}: ${entry.text}`, id, [25, 6, 4.5]);
    cells.appendChild(cell);
  }
  b.explain(cells, `${worker}s: ${clan.left[c]} still in the domain (the leftmost leaves first)`);
  if (mine) b.bind(cells, `worker ${worker}`);
  g.appendChild(cells);
  b.explain(g, `${ROW_NAMES[c]} row: ${clan.left[c]} ${worker}s still in the domain. ${b.words(`domain_${colour}`)}`);
  if (mine) b.bind(g, `row ${colour}`);
  return g;
}

/** The rows tile: the three rows of the domain. */
function rowsTile(tiles, b, p) {
  const s = tile(tiles, 3 * ROW_H + 26, `${b.clanName(p)}: domain rows`);
  s.appendChild(label(8, 16, "Domain rows (dice on a printed 6)", "wc-b"));
  for (let c = 0; c < 3; c++) s.appendChild(domainRow(b, p, c, 24 + c * ROW_H));
}

/** The action card tile: its blocks, each beside the row(s) it serves. */
function cardTile(tiles, b, p) {
  const clan = b.view.clans[p];
  const s = tile(tiles, 3 * ROW_H + 26, `${b.clanName(p)}: action card`);
  if (!clan.card) {
    s.appendChild(label(8, 16, "No action card", "wc-b"));
    fitTile(s, 30);
    return;
  }
  const entry = b.comp(clan.card);
  const head = label(8, 16, `Action card: ${b.name(clan.card)}`, "wc-b");
  b.explain(head, b.words(clan.card));
  s.appendChild(head);
  const ordinals = ["first", "second", "third"];
  for (let i = 0; i < 3 && entry[`block${i + 1}`]; i++) {
    const rows = (entry[`block${i + 1}_rows`] || "top").split(" ");
    const first = Math.max(0, ROW_NAMES.indexOf(rows[0]));
    s.appendChild(cardBlock(b, 8, 26 + first * ROW_H, TILE_W - 16, rows.length * ROW_H - 8, entry, i, null,
      p === b.you ? `card ${ordinals[i]}` : null,
      `Action card ${b.name(clan.card)}, ${rows.join(" + ")} row block`));
  }
}

/** A clan's domain: stores, rows and action card (the solo rival has its own tile). */
export function domainArea(board, b, p, rivalTile) {
  const name = b.playerName(p);
  const colour = name === b.clanName(p) ? "" : ` (${b.clanName(p)})`;
  const { section, tiles } = area(board, `domain-${p}`, "", "wc-domain");
  const title = section.insertBefore(document.createElement("h3"), tiles);
  title.className = "wc-area-title";
  const dot = document.createElement("span");
  dot.className = "wc-dot";
  dot.style.background = b.clanFill(p);
  const clan = b.view.clans[p];
  title.append(dot, p === b.view.rival ? " Tokugawa rival (solo)"
    : ` ${name}${colour}${p === b.you ? " (you)" : ""} — domain · ${clan.cp} CP · Passage of Time ${clan.pos}`);
  if (p === b.view.rival) { rivalTile(tiles, b, p); return; }
  storesTile(tiles, b, p);
  rowsTile(tiles, b, p);
  cardTile(tiles, b, p);
}
