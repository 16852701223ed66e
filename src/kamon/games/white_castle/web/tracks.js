// The tracks: the Passage of Time (positions 0-20 in four seasons, with the seal
// checkpoints and the CP each position scores at the end), the Clan Points track, and the
// score of every clan if the game ended now (an HTML table: clans across, categories down).
import { TILE_W, area, html, label, svg, tile } from "./svg.js";

const PASSAGE_CP = [0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 6, 6, 6, 6, 10, 11, 12, 13, 14, 15];
const CHECKPOINT = { 6: 1, 11: 2, 15: 3 };
const SEASON_FILL = ["#eef3e0", "#e3efd0", "#f4e7c9", "#f1d6c4"];
const SCORE_ROWS = [["during_game", "during play"], ["coins_seals", "coins and seals"],
  ["resources", "resources"], ["passage_of_time", "Passage of Time"], ["courtiers", "courtiers"],
  ["warriors", "warriors"], ["gardeners", "gardeners"], ["total", "total"]];

/** The Passage of Time in two lines (0-10, 11-20) with every clan's influence marker. */
function passageTile(tiles, b) {
  const v = b.view;
  const s = tile(tiles, 150, "Passage of Time");
  s.appendChild(label(8, 15, "Passage of Time", "wc-b"));
  const cw = (TILE_W - 16) / 11;
  for (let pos = 0; pos <= 20; pos++) {
    const line = pos <= 10 ? 0 : 1;
    const col = pos <= 10 ? pos : pos - 11;
    const season = pos <= 5 ? 0 : pos <= 10 ? 1 : pos <= 14 ? 2 : 3;
    const g = svg("g", { transform: `translate(${8 + col * cw},${24 + line * 60})` });
    g.appendChild(svg("rect", { width: cw - 2, height: 54, rx: 3, fill: SEASON_FILL[season], class: "wc-track-cell" }));
    g.appendChild(label(cw / 2 - 1, 12, String(pos), "wc-s", { "text-anchor": "middle" }));
    g.appendChild(label(cw / 2 - 1, 50, `${PASSAGE_CP[pos]}`, "wc-cp", { "text-anchor": "middle" }));
    if (CHECKPOINT[pos]) g.appendChild(label(cw / 2 - 1, 23, `${CHECKPOINT[pos]}◆`, "wc-seal", { "text-anchor": "middle" }));
    const here = v.clans.map((c, p) => [c, p]).filter(([c]) => c.pos === pos)
      .sort((a, c) => a[0].seq - c[0].seq);
    here.forEach(([, p], k) => {
      const m = svg("circle", { cx: cw / 2 - 1, cy: 36 - k * 5, r: 5.5, fill: b.clanFill(p), stroke: "#111", "stroke-width": 1 });
      b.explain(m, `${b.clanName(p)} influence marker at ${pos}${k === here.length - 1 && here.length > 1 ? " (on top)" : ""}`);
      g.appendChild(m);
    });
    b.explain(g, `${b.words(`passage_${pos}`)}${here.length ? ` Here: ${here.map(([, p]) => b.clanName(p)).join(", ")}.` : ""}`,
      `passage_${pos}`, [cw - 6, 4, 5]);
    s.appendChild(g);
  }
  s.appendChild(label(8, 146, "◆ seals to enter a season · low number: CP at the end", "wc-xs"));
}

/** The Clan Points track 0-39 in two lines, with every clan's marker. */
function pointsTile(tiles, b) {
  const v = b.view;
  const s = tile(tiles, 96, "Clan Points");
  s.appendChild(label(8, 15, "Clan Points (during play)", "wc-b"));
  const cw = (TILE_W - 16) / 20;
  for (let k = 0; k < 40; k++) {
    const x = 8 + (k % 20) * cw;
    const y = 24 + Math.floor(k / 20) * 34;
    s.appendChild(svg("rect", { x, y, width: cw - 1, height: 22, class: k % 5 === 0 ? "wc-cp-cell wc-cp5" : "wc-cp-cell" }));
    if (k % 5 === 0) s.appendChild(label(x + 1, y + 31, String(k), "wc-xs"));
  }
  v.clans.forEach((c, p) => {
    const k = c.cp % 40;
    const m = svg("circle", { cx: 8 + (k % 20) * cw + cw / 2, cy: 28 + Math.floor(k / 20) * 34 + (p % 4) * 4.5,
                              r: 4.5, fill: b.clanFill(p), stroke: "#111", "stroke-width": 1 });
    b.explain(m, `${b.clanName(p)}: ${c.cp} CP during the game${c.cp >= 40 ? ` (+${40 * Math.floor(c.cp / 40)} tile)` : ""}`);
    s.appendChild(m);
  });
}

/** Every clan's score by category if the game ended now (the final score at the end). */
function scoreTile(tiles, b) {
  const v = b.view;
  const scores = b.payload.scores || v.scores || [];
  const box = html("div", { class: "wc-tile wc-html wc-scores" });
  const heading = html("h4", { class: "wc-score-heading",
    text: b.payload.over ? "Final score" : "Score if the game ended now" });
  heading.setAttribute("data-explain", "End-game scoring: CP from play, (coins + seals) / 5, "
    + "resources (3-6: 1, 7: 2), Passage of Time, courtiers by floor, warriors × courtiers "
    + "inside, the gardeners' garden CP");
  box.appendChild(heading);
  const table = html("table", { class: "wc-score-table" });
  const head = html("tr", {}, [html("th", { text: "" })]);
  v.clans.forEach((c, p) => {
    const dot = html("span", { class: "wc-dot" });
    dot.style.background = b.clanFill(p);
    const win = (b.payload.winners || []).includes(p) ? " ★" : "";
    head.appendChild(html("th", { title: `${b.playerName(p)}: ${b.clanName(p)} clan` }, [dot,
      ` ${b.playerName(p)}${p === b.you ? " (you)" : ""}${win}`]));
  });
  table.appendChild(html("thead", {}, [head]));
  const body = html("tbody");
  for (const [key, name] of SCORE_ROWS) {
    const tr = html("tr", { class: key === "total" ? "total" : "" }, [html("th", { text: name })]);
    v.clans.forEach((c, p) => tr.appendChild(html("td", { text: String((scores[p] || {})[key] ?? "—") })));
    body.appendChild(tr);
  }
  table.appendChild(body);
  box.appendChild(table);
  tiles.appendChild(box);
}

/** The tracks area: Passage of Time, Clan Points, and the score if the game ended now. */
export function tracksArea(board, b) {
  const { tiles } = area(board, "tracks", "Passage of Time · Clan Points · Score");
  passageTile(tiles, b);
  pointsTile(tiles, b);
  scoreTile(tiles, b);
}
