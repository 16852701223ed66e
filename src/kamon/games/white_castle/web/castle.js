// The castle: the Daimyo's room, the two diplomat rooms, the three steward rooms and the
// Gate, one tile each. A room's card shows its blocks beside their die tiles; its die
// space, the courtiers in it and the climbs that lead to it are in the same tile.
import { dieSpace, pawnRow } from "./pieces.js";
import {
  BLOCK_NAMES, COLOURS, DIE_FILL, LOCS, LOC_SHORT, LOC_TITLES, ROOMS, ROOM_DATA_IDS, ROOM_TITLES,
  TARGET, TILE_W, area, fitTile, frame, label, svg, tile, wrapped,
} from "./svg.js";

const BLOCK_H = 38;

/** One block of a card (light or dark background, its effects) beside its die tile. */
export function cardBlock(b, x, y, w, h, entry, i, tileColour, notation, explainPrefix) {
  const shade = entry[`block${i + 1}_shade`] || "light";
  const g = svg("g", { class: `wc-block wc-${shade}`, transform: `translate(${x},${y})` });
  const hasTile = tileColour !== null && tileColour !== undefined;
  const tx = hasTile ? 28 : 0;
  g.appendChild(frame(tx, 0, w - tx, h, "wc-block-bg", 5));
  if (hasTile) {
    g.appendChild(svg("rect", { x: 2, y: (h - 20) / 2, width: 20, height: 20, rx: 3,
      fill: DIE_FILL[COLOURS[tileColour]], stroke: "#111", "stroke-width": 1, class: "wc-tile" }));
  }
  const text = entry[`block${i + 1}`] || "?";
  const chars = Math.floor((w - tx - 10) / 6.1);
  const two = text.length > chars;
  g.appendChild(wrapped(tx + 7, two ? h / 2 - 3 : h / 2 + 4, text, chars, "wc-bt", 12, 2));
  const tileWords = hasTile ? ` (${COLOURS[tileColour]} die tile beside it)` : "";
  b.explain(g, `${explainPrefix}${tileWords}, ${shade} background: ${text}`);
  if (notation) b.bind(g, notation);
  return g;
}

/** Chips "↑ from …" for every legal climb to location dst, in rows from y; the height. */
function climbChips(b, g, dst, y) {
  let k = 0;
  LOCS.forEach((src, i) => {
    const notation = `climb ${src} ${LOCS[dst]}`;
    if (!b.legal(notation)) return;
    const chip = svg("g", { class: "wc-climb",
      transform: `translate(${8 + (k % 3) * 89},${y + Math.floor(k / 3) * (TARGET + 4)})` });
    chip.appendChild(frame(0, 0, 85, TARGET, "wc-chip-bg", 8));
    chip.appendChild(label(42.5, 15, "climb from", "wc-xs", { "text-anchor": "middle" }));
    chip.appendChild(label(42.5, 29, LOC_SHORT[i], "wc-b", { "text-anchor": "middle" }));
    b.explain(chip, `A courtier climbs from ${LOC_TITLES[i]} to ${LOC_TITLES[dst]}`);
    b.bind(chip, notation);
    g.appendChild(chip);
    k += 1;
  });
  return k ? Math.ceil(k / 3) * (TARGET + 4) : 0;
}

/** A castle room tile: title, card, die space, the blocks, courtiers and climbs. */
function room(tiles, b, r) {
  const v = b.view;
  const card = v.room_cards[r];
  const entry = b.comp(card);
  const s = tile(tiles, 200, ROOM_TITLES[r]);
  const g = svg("g", { class: "wc-room" });
  const bg = frame(1, 1, TILE_W - 2, 198, "wc-room-bg", 8);
  g.appendChild(bg);
  g.appendChild(label(10, 19, ROOM_TITLES[r], "wc-b"));
  const back = entry.lantern ? ` · back ${entry.lantern}` : "";
  const cardLabel = label(10, 34, `${b.name(card)}${back}`, "wc-xs");
  b.explain(cardLabel, b.words(card));
  g.appendChild(cardLabel);
  const stack = v.spaces[r];
  const sw = stack.length > 1 ? 80 : 44;
  const [space, sh] = dieSpace(b, r, TILE_W - 8 - sw, 6, sw, stack, ROOM_TITLES[r], ROOM_DATA_IDS[r], 32);
  b.bind(space, `place ${ROOMS[r]}`);
  g.appendChild(space);
  let y = Math.max(44, 6 + sh + 6);
  const nBlocks = r < 3 ? 3 : 2;
  for (let i = 0; i < nBlocks; i++) {
    const tileColour = (v.room_tiles[r] || [])[i];
    g.appendChild(cardBlock(b, 8, y, TILE_W - 16, BLOCK_H, entry, i, tileColour,
      `block ${ROOMS[r]} ${BLOCK_NAMES[r][i]}`,
      `${ROOM_TITLES[r]}, ${BLOCK_NAMES[r][i]} block of ${b.name(card)}`));
    y += BLOCK_H + 4;
  }
  const here = b.courtiersAt(r + 1);
  if (here.length) {
    g.appendChild(pawnRow(b, here, 16, y + 12, "courtier"));
    y += 24;
  }
  y += climbChips(b, g, r + 1, y + 2) + 6;
  bg.setAttribute("height", y - 2);
  b.explain(g, `${ROOM_TITLES[r]} (floor ${r < 3 ? 1 : 2}): a die whose colour matches a die `
    + `tile activates the block beside it. ${here.length} courtier(s) here (${r < 3 ? 3 : 6} CP `
    + "each at the end).");
  b.bind(g, `rival-room ${ROOMS[r]}`);
  s.appendChild(g);
  fitTile(s, y);
}

/** The Daimyo's room tile: the favour card's three slots, courtiers, climbs. */
function daimyo(tiles, b) {
  const v = b.view;
  const card = v.daimyo_card;
  const entry = b.comp(card);
  const s = tile(tiles, 200, "Daimyo's room");
  const g = svg("g", { class: "wc-room" });
  const bg = frame(1, 1, TILE_W - 2, 198, "wc-room-bg wc-daimyo", 8);
  g.appendChild(bg);
  g.appendChild(label(10, 19, "Daimyo's room", "wc-b"));
  g.appendChild(label(10, 34, `${b.name(card)} · floor 3 · no dice`, "wc-xs"));
  const sw = (TILE_W - 16 - 8) / 3;
  for (let k = 0; k < 3; k++) {
    const sg = svg("g", { class: "wc-slot", transform: `translate(${8 + k * (sw + 4)},42)` });
    sg.appendChild(frame(0, 0, sw, 72, "wc-block-bg", 6));
    sg.appendChild(label(6, 13, `favour ${k + 1}`, "wc-xs"));
    sg.appendChild(wrapped(6, 29, entry[`slot${k + 1}`] || "?", Math.floor((sw - 8) / 6.1), "wc-bt", 12, 3));
    const holder = v.daimyo_slots[k];
    const taken = holder !== null && holder !== undefined;
    if (taken) sg.appendChild(pawnRow(b, [holder], sw - 14, 60, "courtier"));
    b.explain(sg, `Daimyo's favour ${k + 1}: ${entry[`slot${k + 1}`] || "?"} — `
      + `${taken ? `taken by ${b.clanName(holder)}` : "free"}`);
    b.bind(sg, `daimyo ${k + 1}`);
    g.appendChild(sg);
  }
  let y = 122;
  const here = b.courtiersAt(6);
  if (here.length) {
    g.appendChild(pawnRow(b, here, 16, y + 10, "courtier", 15, 16));
    y += 22;
  }
  y += climbChips(b, g, 6, y + 2) + 6;
  bg.setAttribute("height", y - 2);
  b.explain(bg, `The Daimyo's room (floor 3): 10 CP per courtier at the end. ${b.words(card)}`);
  s.appendChild(g);
  fitTile(s, y);
}

/** The Gate tile: audiences end here; climbs start here. */
function gate(tiles, b) {
  const s = tile(tiles, 90, "Gate");
  const g = svg("g", { class: "wc-room wc-gate-room" });
  g.appendChild(frame(1, 1, TILE_W - 2, 88, "wc-room-bg wc-gate", 8));
  g.appendChild(label(10, 20, "Gate", "wc-b"));
  g.appendChild(wrapped(10, 36, "An audience puts a courtier here (2 coins). From here it "
    + "climbs 1 floor for 2 pearl, 2 floors for 5 pearl.", 46, "wc-s", 12, 3));
  const here = b.courtiersAt(0);
  g.appendChild(pawnRow(b, here, 18, 72, "courtier", 16, 15));
  b.explain(g, `${b.words("gate")} Here: ${here.map(p => b.clanName(p)).join(", ") || "nobody"}.`);
  b.bind(g, "audience");
  s.appendChild(g);
}

/** The castle area: Daimyo, diplomats, stewards and the Gate, top floor first. */
export function castleArea(board, b) {
  const decks = `steward deck ${b.view.steward_deck} · diplomat deck ${b.view.diplomat_deck}`;
  const { tiles } = area(board, "castle", `Castle · ${decks}`);
  daimyo(tiles, b);
  room(tiles, b, 3);
  room(tiles, b, 4);
  for (let r = 0; r < 3; r++) room(tiles, b, r);
  gate(tiles, b);
}
