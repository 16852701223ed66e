// The pieces of The White Castle board: pawns (courtier, gardener, warrior), dice, die
// spaces with the dice on them (side by side, none hiding another), and effects in words.
import { COLOURS, DIE_FILL, DIE_INK, PRINTED, frame, label, svg } from "./svg.js";

/** A pawn of clan p: a courtier (round), a gardener (square) or a warrior (triangle). */
export function pawn(b, p, x, y, kind = "courtier", size = 14) {
  const g = svg("g", { class: "wc-pawn", transform: `translate(${x},${y})` });
  const fill = b.clanFill(p);
  const s = size / 14;
  const line = { fill, stroke: "#222", "stroke-width": 1 };
  if (kind === "warrior") {
    g.appendChild(svg("path", { d: `M${-6 * s},${7 * s} L0,${-7 * s} L${6 * s},${7 * s} Z`, ...line }));
  } else if (kind === "gardener") {
    g.appendChild(svg("rect", { x: -6 * s, y: -6 * s, width: 12 * s, height: 13 * s, rx: 2, ...line }));
  } else {
    g.appendChild(svg("circle", { cx: 0, cy: -3 * s, r: 4 * s, ...line }));
    g.appendChild(svg("path", { d: `M${-6 * s},${7 * s} Q0,${-4 * s} ${6 * s},${7 * s} Z`, ...line }));
  }
  return b.explain(g, `${b.clanName(p)} ${kind}`);
}

/** A row of pawns of the given clans from x (at most `max`, then "+n"). */
export function pawnRow(b, clans, x, y, kind, step = 16, max = 12) {
  const g = svg("g");
  clans.slice(0, max).forEach((p, i) => g.appendChild(pawn(b, p, x + i * step, y, kind)));
  if (clans.length > max) g.appendChild(label(x + max * step, y + 4, `+${clans.length - max}`, "wc-s"));
  return g;
}

/** A die of colour index c showing v, `size` units square, its corner at (x, y). */
export function die(b, c, v, x, y, size = 34) {
  const colour = COLOURS[c];
  const g = svg("g", { class: `wc-die wc-die-${colour}`, transform: `translate(${x},${y})` });
  g.appendChild(svg("rect", { width: size, height: size, rx: 5, fill: DIE_FILL[colour],
                              class: "frame wc-die-body" }));
  g.appendChild(label(size / 2, size / 2 + size * 0.2, String(v), "wc-die-v",
                      { fill: DIE_INK[colour], "text-anchor": "middle", "font-size": size * 0.56 }));
  return b.explain(g, `${colour} die showing ${v}`);
}

/** How a stack of dice is read: "coral 3 under black 5", or "no die". */
export function stackWords(stack) {
  return stack.length ? stack.map(([c, v]) => `${COLOURS[c]} ${v}`).join(" under ") : "no die";
}

/** The dice of a space laid out in rows inside a box of width w from (x, y), bottom die
 *  first: none covers another. Returns [group, height used]. */
export function diceGrid(b, stack, x, y, w, size = 30, gap = 5) {
  const g = svg("g", { transform: `translate(${x},${y})` });
  const per = Math.max(1, Math.floor((w + gap) / (size + gap)));
  stack.forEach(([c, v], i) => {
    g.appendChild(die(b, c, v, (i % per) * (size + gap), Math.floor(i / per) * (size + gap), size));
  });
  const rows = Math.max(1, Math.ceil(stack.length / per));
  return [g, rows * size + (rows - 1) * gap];
}

/** A die space of space index s: its box (dashed: a place for dice), the printed value
 *  while it is empty, its dice side by side otherwise. Corner at (x, y), width w. */
export function dieSpace(b, s, x, y, w, stack, title, dataId, size = 30) {
  const g = svg("g", { class: "wc-space", transform: `translate(${x},${y})` });
  const [dice, h] = diceGrid(b, stack, 4, 4, w - 8, size);
  g.appendChild(frame(0, 0, w, h + 8, "wc-space-box", 6));
  if (!stack.length) {
    g.appendChild(label(w / 2, (h + 8) / 2 + 7, String(PRINTED[s]), "wc-printed", { "text-anchor": "middle" }));
  } else {
    g.appendChild(dice);
  }
  b.explain(g, `${title}: printed ${PRINTED[s]}; ${stackWords(stack)}. ${b.words(dataId)}`);
  return [g, h + 8];
}

/** An engine effect tuple (from the view) in a few words. */
export function effectShort(e) {
  const kind = e[0];
  if (kind === "gain") return e[1].map(([k, n]) => `+${n} ${k === "cp" ? "CP" : k}`).join(" ");
  if (kind === "choice") return `+${e[1]} any res.`;
  if (kind === "pay") return `pay ${e[1].map(([k, n]) => `${n} ${k}`).join("+")}: ${effectShort(e[2])}`;
  if (kind === "passage") return `+${e[1]} Passage`;
  if (kind === "die_tile") return `${e[1]} tile action`;
  return { courtier: "Courtier", gardener: "Gardener", warrior: "Warrior", lantern: "Lantern",
    well: "Well", light: "light action", domain: "domain action" }[kind] || kind;
}

/** An engine effect tuple in words. */
export function effectLong(e) {
  const kind = e[0];
  if (kind === "gain") return "gain " + e[1].map(([k, n]) => `${n} ${k === "cp" ? "CP" : k}`).join(" + ");
  if (kind === "choice") return `${e[1]} resources of your choice`;
  if (kind === "pay") return `pay ${e[1].map(([k, n]) => `${n} ${k}`).join(" + ")} for: ${effectLong(e[2])}`;
  if (kind === "passage") return `${e[1]} Passage of Time step(s)`;
  if (kind === "die_tile") {
    return e[1] === "any" ? "any die-tile action of the castle" : `the action of a ${e[1]} die tile of the castle`;
  }
  return { courtier: "Courtier action (audience and/or climb)", gardener: "Gardener action",
    warrior: "Warrior action", lantern: "your Lantern reward", well: "the Well action",
    light: "a light-background action of the castle", domain: "a personal-domain action" }[kind] || kind;
}
