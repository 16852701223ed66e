// Outside the castle: the two spaces Outside the Walls (a worker action for a die of any
// colour), the Well (a seal and the two Well tiles' rewards, no limit of dice) and the
// three training yards with their tiles and warriors.
import { diceGrid, dieSpace, effectLong, effectShort, pawnRow } from "./pieces.js";
import { PRINTED, TILE_W, area, fitTile, frame, label, svg, tile } from "./svg.js";

const YARD_COST = [5, 3, 1];
const YARD_VALUE = [2, 1, 0];

/** The two spaces Outside the Walls, side by side in one tile. */
function outsideTile(tiles, b) {
  const v = b.view;
  const s = tile(tiles, 150, "Outside the Walls");
  const kinds = [["gardener", "courtier"], ["warrior", "courtier"]];
  let tallest = 0;
  const halves = ["left", "right"].map((side, i) => {
    const sp = 5 + i;
    const w = (TILE_W - 6) / 2;
    const g = svg("g", { class: "wc-room wc-outside-space", transform: `translate(${2 + i * (w + 2)},1)` });
    const bg = frame(0, 0, w, 148, "wc-room-bg wc-outside", 8);
    g.appendChild(bg);
    g.appendChild(label(8, 18, `Outside ${side}`, "wc-b"));
    g.appendChild(label(8, 34, `${kinds[i][0]} action`, "wc-t"));
    g.appendChild(label(8, 48, `or ${kinds[i][1]} action`, "wc-t"));
    const [space, h] = dieSpace(b, sp, 6, 56, w - 12, v.spaces[sp], `Outside the Walls (${side})`,
      `outside_the_walls_${side}`, 32);
    g.appendChild(space);
    const bottom = 56 + h + 6;
    tallest = Math.max(tallest, bottom);
    b.explain(g, `Outside the Walls, ${side} space (printed ${PRINTED[sp]}, any die colour): one `
      + `${kinds[i][0]} action or one ${kinds[i][1]} action. Dice here: `
      + `${v.spaces[sp].length ? v.spaces[sp].map(([c, x]) => `${["coral", "black", "white"][c]} ${x}`).join(" under ") : "none"}.`);
    b.bind(g, `place outside-${side}`);
    s.appendChild(g);
    return bg;
  });
  halves.forEach(bg => bg.setAttribute("height", tallest));
  fitTile(s, tallest + 2);
}

/** The Well: its two tiles and every die placed on it this round. */
function wellTile(tiles, b) {
  const v = b.view;
  const s = tile(tiles, 130, "The Well");
  const g = svg("g", { class: "wc-room wc-well-room" });
  const bg = frame(1, 1, TILE_W - 2, 128, "wc-room-bg wc-well", 8);
  g.appendChild(bg);
  g.appendChild(label(10, 19, "The Well", "wc-b"));
  g.appendChild(label(10, 34, "any colour, no limit: 1 seal + both tiles' rewards", "wc-s"));
  v.well_tiles.forEach((t, k) => {
    const entry = b.comp(t);
    const wt = svg("g", { class: "wc-well-tile", transform: `translate(${10 + k * 100},42)` });
    wt.appendChild(svg("rect", { width: 94, height: 26, rx: 4, class: "wc-block-bg" }));
    wt.appendChild(label(47, 17, entry.reward || t, "wc-t", { "text-anchor": "middle" }));
    b.explain(wt, b.words(t), t, [94, 0, 6]);
    g.appendChild(wt);
  });
  const stack = v.spaces[7];
  const box = svg("g", { class: "wc-space", transform: "translate(8,76)" });
  const [dice, h] = diceGrid(b, stack, 4, 4, TILE_W - 24, 28, 4);
  box.appendChild(frame(0, 0, TILE_W - 16, h + 8, "wc-space-box", 6));
  if (stack.length) box.appendChild(dice);
  else box.appendChild(label((TILE_W - 16) / 2, (h + 8) / 2 + 7, "1", "wc-printed", { "text-anchor": "middle" }));
  g.appendChild(box);
  const y = 76 + h + 8 + 6;
  bg.setAttribute("height", y - 2);
  b.explain(g, `The Well (printed 1): every visit gives 1 seal plus the two Well tiles' rewards. `
    + `${stack.length} dice here. ${b.words("well")}`);
  b.bind(g, "place well");
  s.appendChild(g);
  fitTile(s, y);
}

/** A training yard: its iron cost and worth, its tiles' effects, the warriors in it. */
function yardTile(tiles, b, y) {
  const v = b.view;
  const effects = v.yard_effects[y] || [];
  const here = [];
  v.clans.forEach((clan, p) => clan.warriors.forEach(yy => { if (yy === y) here.push(p); }));
  const h = 44 + effects.length * 30 + (here.length ? 24 : 4);
  const s = tile(tiles, h, `Training yard ${y + 1}`);
  const g = svg("g", { class: "wc-yard" });
  g.appendChild(frame(1, 1, TILE_W - 2, h - 2, "wc-yard-bg", 8));
  g.appendChild(label(10, 19, `Yard ${y + 1} · ${YARD_COST[y]} iron`, "wc-b"));
  g.appendChild(label(10, 34, `each warrior: ${YARD_VALUE[y]} CP × your courtiers inside`, "wc-s"));
  effects.forEach((e, k) => {
    g.appendChild(svg("rect", { x: 8, y: 42 + k * 30, width: TILE_W - 16, height: 26, rx: 4, class: "wc-block-bg" }));
    g.appendChild(label(16, 59 + k * 30, effectShort(e), "wc-bt"));
  });
  if (here.length) g.appendChild(pawnRow(b, here, 16, h - 14, "warrior", 16, 15));
  const words = effects.map(effectLong).join("; ") || "nothing";
  b.explain(g, `${b.words(`yard_${y + 1}`)} Its tiles: ${words}. Warriors: `
    + `${here.map(p => b.clanName(p)).join(", ") || "none"}.`);
  b.bind(g, `yard ${y + 1}`);
  s.appendChild(g);
}

/** The area outside the castle: Outside the Walls, the Well, the training yards. */
export function outsideArea(board, b) {
  const { tiles } = area(board, "outside", "Outside the Walls · the Well · Training yards");
  outsideTile(tiles, b);
  wellTile(tiles, b);
  for (let y = 0; y < 3; y++) yardTile(tiles, b, y);
}
