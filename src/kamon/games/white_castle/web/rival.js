// The Tokugawa rival of the solo game: its coins, CP and pieces, the Solitaire deck (its
// faces are mostly reconstructed: marked) and the castle cards it removed.
import { reconMark } from "../../marks.js";
import { TILE_W, fitTile, frame, label, svg, tile, wrapped } from "./svg.js";

/** The rival's tile. */
export function rivalTile(tiles, b, p) {
  const v = b.view;
  const clan = v.clans[p];
  const s = tile(tiles, 200, "Tokugawa rival");
  s.appendChild(svg("rect", { x: 0, y: 0, width: TILE_W, height: 5, fill: b.clanFill(p) }));
  const diff = (v.options || {}).difficulty || "";
  s.appendChild(label(8, 22, `${clan.cp} CP · Passage ${clan.pos}${diff ? ` · ${diff}` : ""}`, "wc-b"));
  s.appendChild(label(8, 38, `${clan.coins} coin${clan.coins === 1 ? "" : "s"} (turned into CP at each round's end)`, "wc-t"));
  s.appendChild(label(8, 54, `In reserve: ${clan.left[0]} courtiers · ${clan.left[1]} gardeners · ${clan.left[2]} warriors`, "wc-t"));
  const deck = svg("g", { class: "wc-solo-deck", transform: "translate(8,64)" });
  for (let k = Math.min(v.solo_deck, 5) - 1; k >= 0; k--) {
    deck.appendChild(svg("rect", { x: k * 3, y: -k * 2 + 8, width: 46, height: 58, rx: 5, class: "wc-solo-card" }));
  }
  deck.appendChild(reconMark(52, 12, 7));
  deck.appendChild(label(66, 22, `Solitaire deck: ${v.solo_deck} cards`, "wc-b"));
  deck.appendChild(wrapped(66, 38, "Bridge side up: it names the rival's die and where it "
    + "goes; the action side gives its icons.", 32, "wc-s", 12, 3));
  const faces = Object.keys(b.components).filter(k => /^solo_\d+$/.test(k));
  const detail = faces.map(k => b.words(k)).join(" | ");
  const top = v.solo_top;
  const topWords = top ? `On top, Bridge side up: the ${top.colour_name} die at the ${top.position}, `
    + `to ${top.destination_name}. ` : "";
  if (top) {
    const t = label(66, 78, `Top: ${top.colour_name} die, ${top.position} → ${top.destination_name}`, "wc-s");
    t.setAttribute("class", "wc-s wc-solo-top");
    deck.appendChild(t);
  }
  deck.setAttribute("data-explain", `Solitaire deck: ${v.solo_deck} cards. ${topWords}`
    + `The order below it is hidden. († `
    + "reconstructed data: most card faces are not public text; kamon's reconstruction is "
    + `marked in its data.) ${detail}`);
  s.appendChild(deck);
  let y = 136;
  if (v.discarded && v.discarded.length) {
    const t = wrapped(8, y, `Removed by the rival: ${v.discarded.map(c => b.name(c)).join(", ")}`,
      44, "wc-s", 12, 3);
    t.setAttribute("data-explain", "Castle cards the rival's climbing courtiers removed from the game");
    s.appendChild(t);
    y += 40;
  }
  s.insertBefore(frame(1, 1, TILE_W - 2, y - 6, "wc-rival-bg", 8), s.firstChild);
  fitTile(s, y);
}
