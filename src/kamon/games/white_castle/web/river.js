// The river and what is chosen before it: the draft of starting pairs (at the start), the
// three bridges with their dice (either end takeable; the left, lantern end gives the
// Lantern reward), and the two gardens under each bridge.
import { die, pawnRow } from "./pieces.js";
import { COLOURS, DIE_FILL, TILE_W, area, frame, label, svg, tile, wrapped } from "./svg.js";

const DIE = 38;
const STEP = 44;

/** The draft area: each starting pair still on offer, one tile each. */
export function draftArea(board, b) {
  const pairs = b.view.draft_pairs || [];
  if (b.view.phase !== "draft" || !pairs.some(x => x)) return;
  const { tiles } = area(board, "draft", "Starting pairs (chosen in reverse turn order)");
  pairs.forEach((pair, i) => {
    const s = tile(tiles, 112, `Starting pair ${i + 1}`);
    const g = svg("g", { class: "wc-pair" });
    g.appendChild(frame(1, 1, TILE_W - 2, 110, pair ? "wc-card" : "wc-gone", 8));
    g.appendChild(label(10, 19, `Pair ${i + 1}`, "wc-b"));
    if (!pair) {
      g.appendChild(label(10, 40, "taken", "wc-s"));
      s.appendChild(g);
      return;
    }
    const [res, act] = pair;
    const rc = b.comp(res);
    const ac = b.comp(act);
    g.appendChild(wrapped(62, 19, `Take ${rc.gains || "?"}`, 34, "wc-t", 14, 2));
    const decree = rc.decree ? ` + decree ${b.comp(rc.decree).lantern || ""}` : "";
    g.appendChild(label(10, 52, `Lantern reward: ${rc.lantern || "—"}${decree}`, "wc-s"));
    g.appendChild(svg("rect", { x: 8, y: 60, width: TILE_W - 16, height: 42, rx: 5, class: "wc-block-bg" }));
    g.appendChild(label(16, 76, "Action card", "wc-xs"));
    g.appendChild(wrapped(16, 92, ac.block1 || "?", 40, "wc-bt", 12, 1));
    b.explain(g, `Starting pair ${i + 1}. ${b.words(res)} ${b.words(act)}`);
    b.bind(g, `draft ${i + 1}`);
    s.appendChild(g);
  });
}

/** A garden card: kind, food cost, CP, its effect and its gardeners. */
function garden(b, gi, x, y, w, h) {
  const v = b.view;
  const card = v.garden_cards[gi];
  const entry = b.comp(card);
  const kind = card.startsWith("plant") ? "plant" : "stone";
  const m = /costs (\d+) food.* (\d+) CP per gardener/.exec(entry.text) || [];
  const g = svg("g", { class: `wc-garden wc-${kind}`, transform: `translate(${x},${y})` });
  g.appendChild(frame(0, 0, w, h, "wc-garden-bg", 8));
  g.appendChild(label(7, 16, `${kind} · ${m[1] || "?"} food`, "wc-b"));
  g.appendChild(label(w - 7, 16, `${m[2] || "?"} CP`, "wc-cp", { "text-anchor": "end" }));
  g.appendChild(wrapped(7, 33, entry.effects || "", Math.floor((w - 10) / 6), "wc-t", 13, 3));
  const here = v.garden_workers[gi];
  g.appendChild(pawnRow(b, here, 14, h - 13, "gardener", 16, 7));
  const who = here.length ? here.map(p => b.clanName(p)).join(", ") : "no gardener";
  b.explain(g, `${b.words(card)} Here: ${who}.`);
  const slot = `${COLOURS[Math.floor(gi / 2)]} ${kind}`;
  if (!b.bind(g, `garden ${slot}`)) b.bind(g, `rival-garden ${slot}`);
  return g;
}

/** One bridge tile: its lantern end, its dice, and its two gardens below. */
function bridge(tiles, b, c) {
  const v = b.view;
  const colour = COLOURS[c];
  const dice = v.bridges[c];
  const s = tile(tiles, 178, `${colour} bridge`);
  const deck = svg("g", { class: "wc-bridge-deck" });
  deck.appendChild(svg("rect", { x: 1, y: 1, width: TILE_W - 2, height: 64, rx: 8, class: "wc-bridge",
    stroke: c === 2 ? "#bdb3a0" : DIE_FILL[colour] }));
  deck.appendChild(label(10, 15, `${colour} bridge`, "wc-b"));
  const lantern = svg("g", { transform: "translate(8,24)" });
  lantern.appendChild(svg("path", { d: "M9,0 L18,7 L18,29 L9,36 L0,29 L0,7 Z", class: "wc-lantern" }));
  b.explain(lantern, "Lantern end: taking the die at this end also gives your Lantern reward");
  deck.appendChild(lantern);
  b.explain(deck, `The ${colour} bridge: take a die from either end; the left (lantern) end also `
    + "gives your Lantern reward. At the end of rounds 1 and 2 its gardens activate if dice remain.");
  s.appendChild(deck);
  const loneRight = dice.length === 1 && !v.lone_left[c];
  dice.forEach((val, i) => {
    const x = loneRight ? TILE_W - 10 - DIE : 32 + i * STEP;
    const d = die(b, c, val, x, 22, DIE);
    if (i === 0 && !loneRight) b.bind(d, `take ${colour} left`);
    if (i === dice.length - 1) b.bind(d, `take ${colour} right`);
    s.appendChild(d);
  });
  if (!dice.length) s.appendChild(label(40, 46, "no dice left", "wc-s"));
  for (let k = 0; k < 2; k++) s.appendChild(garden(b, 2 * c + k, 1 + k * 140, 72, 138, 104));
}

/** The river area: the three bridges, each with its gardens. */
export function riverArea(board, b) {
  const { tiles } = area(board, "river", "Bridges (lantern end on the left) and their gardens");
  for (let c = 0; c < 3; c++) bridge(tiles, b, c);
}
