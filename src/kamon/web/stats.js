// A game's statistics after it (the game-over panel, the replay page), from what the server
// computed by replaying its record (games/<game>/stats.py): each player's points through
// the game as an SVG chart (the total, or one category), the final points by category,
// what each player did, and a filter of the log by player. Drawn with DOM calls only (the
// pages' CSP allows no inline script; colours come from classes in style.css).
import { el } from "./api.js";
import { cap, partyName, withNames } from "./names.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 360;            // the chart's drawing, in its own units (it scales to its box)
const H = 210;
const PAD = { left: 34, right: 14, top: 12, bottom: 34 };

/** An SVG element with attributes (strings become text). */
function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c));
  return node;
}

/** A score category's words: the game's own (its stats' `labels`), else the key in
 *  words ("passage_of_time" -> "Passage of time"). */
export function categoryWords(key, stats) {
  const own = stats && stats.labels ? stats.labels[key] : undefined;
  if (own) return own;
  return cap(key.replaceAll("_", " "));
}

/** The colour class of a party ("blue", "tokugawa", ...). */
function colourOf(payload, i) {
  const p = (payload.scored || [])[i];
  return p ? p.name : (payload.seats[i] || {}).name || "spectator";
}

/** The line chart of every party's points at each recorded moment (the start, each
 *  round's end, the end of the game) for one category ("total" or a category key). */
export function pointsChart(stats, payload, category) {
  const pts = stats.points;
  const parties = pts.length ? pts[0].scores.length : 0;
  const value = (k, i) => Number((pts[k].scores[i] || {})[category] ?? 0);
  let max = 1;
  for (let k = 0; k < pts.length; k++) for (let i = 0; i < parties; i++) max = Math.max(max, value(k, i));
  const step = niceStep(max);
  max = Math.ceil(max / step) * step;
  const x = k => PAD.left + (pts.length > 1 ? k * (W - PAD.left - PAD.right) / (pts.length - 1) : 0);
  const y = v => H - PAD.bottom - v * (H - PAD.top - PAD.bottom) / max;
  const words = categoryWords(category, stats);
  const svg = s("svg", { class: "stats-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `${words} points through the game, by player` });
  for (let v = 0; v <= max; v += step) {
    svg.append(s("line", { class: "stats-grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      s("text", { class: "stats-axis", x: PAD.left - 5, y: y(v) + 3.5, "text-anchor": "end" }, String(v)));
  }
  const every = pts.length > 9 ? 4 : 1;  // 17 moments of I, Clansman: every 4th round named
  pts.forEach((pt, k) => {
    if (k % every && k !== pts.length - 1) return;
    svg.append(s("text", { class: "stats-axis", x: x(k), y: H - PAD.bottom + 14,
                           "text-anchor": k === 0 ? "start" : k === pts.length - 1 ? "end" : "middle" },
      shortLabel(pt.label)));
  });
  svg.append(s("text", { class: "stats-axis stats-axis-title", x: (W + PAD.left) / 2, y: H - 4,
                         "text-anchor": "middle" }, "end of round"));
  for (let i = 0; i < parties; i++) {
    const colour = colourOf(payload, i);
    const d = pts.map((_, k) => `${k ? "L" : "M"}${x(k).toFixed(1)},${y(value(k, i)).toFixed(1)}`).join(" ");
    const g = s("g", { class: `stats-party seat-stroke-${colour}`, "data-party": i });
    g.append(s("title", {}, `${partyName(payload, i)}: ${pts.map((pt, k) => `${pt.label} ${value(k, i)}`).join(", ")}`));
    g.append(s("path", { class: "stats-line", d }));
    pts.forEach((_, k) => g.append(s("circle", { class: "stats-dot", cx: x(k), cy: y(value(k, i)), r: 2.6 })));
    svg.append(g);
  }
  return svg;
}

/** A tick step that gives 3 to 6 lines. */
function niceStep(max) {
  for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200]) if (max / step <= 6) return step;
  return 500;
}

/** 'Round 3' -> '3', 'Start' and 'Final' kept. */
function shortLabel(label) {
  const m = /^Round (\d+)$/.exec(label);
  return m ? m[1] : label;
}

/** The legend: each party's colour and name, its final total. */
function legend(stats, payload) {
  const last = stats.points[stats.points.length - 1];
  return el("ul", { class: "stats-legend" }, ...last.scores.map((sc, i) => el("li", {},
    el("span", { class: `seat-dot seat-${colourOf(payload, i)}` }),
    ` ${partyName(payload, i)}: `, el("strong", { text: String(sc.total) }))));
}

/** A figure's value in words: dice by colour, marriages by kind, a number or words. */
function figureCell(figure, i) {
  const v = figure.values[i];
  const td = el("td", { "data-party": i });
  if (v && typeof v === "object") {
    const parts = Object.entries(v).map(([k, n]) => el("span", { class: `stats-chip stats-${k}` },
      figure.kind === "dice" ? el("span", { class: `stats-die stats-die-${k}`, "aria-hidden": "true" }) : "",
      `${n} ${k}`));
    td.append(...parts);
  } else {
    td.append(String(v));
  }
  const detail = figure.details && figure.details[i];
  if (detail) td.append(el("small", { class: "stats-detail", text: detail }));
  return td;
}

/** What each player did: one row per figure, one column per party. */
export function figuresTable(stats, payload) {
  const n = stats.points.length ? stats.points[0].scores.length : 0;
  const head = el("tr", {}, el("th", { text: "" }), ...Array.from({ length: n }, (_, i) =>
    el("th", { scope: "col" }, el("span", { class: `seat-dot seat-${colourOf(payload, i)}` }),
      ` ${partyName(payload, i)}`)));
  const body = el("tbody", {}, ...stats.figures.map(f => el("tr", { "data-figure": f.label },
    el("th", { scope: "row", title: f.title || null, text: f.label }),
    ...Array.from({ length: n }, (_, i) => figureCell(f, i)))));
  return el("div", { class: "stats-table-box" },
    el("table", { class: "stats-figures", id: "stats-figures" }, el("thead", {}, head), body));
}

/** The final points by category (the last moment), a row per category. */
function categoriesTable(stats, payload) {
  const last = stats.points[stats.points.length - 1];
  const n = last.scores.length;
  const head = el("tr", {}, el("th", { text: "" }), ...Array.from({ length: n }, (_, i) =>
    el("th", { scope: "col" }, el("span", { class: `seat-dot seat-${colourOf(payload, i)}` }),
      ` ${partyName(payload, i)}`)));
  const rows = [...stats.categories, "total"].map(c => el("tr", { class: c === "total" ? "total" : "" },
    el("th", { scope: "row", text: categoryWords(c, stats) }),
    ...last.scores.map(sc => el("td", { text: String(sc[c] ?? 0) }))));
  return el("div", { class: "stats-table-box" },
    el("table", { class: "stats-categories" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

/** The whole statistics section into `box`: the chart (with its category choice), the
 *  final points by category, and what each player did. */
export function renderStats(box, stats, payload) {
  const chartBox = el("div", { class: "stats-chart-box" });
  const choose = el("select", { id: "stats-category", "aria-label": "points shown" },
    ...["total", ...stats.categories].map(c => el("option", { value: c, text: categoryWords(c, stats) })));
  const draw = () => chartBox.replaceChildren(pointsChart(stats, payload, choose.value));
  choose.addEventListener("change", draw);
  draw();
  box.replaceChildren(
    el("div", { class: "stats-col" },
      el("h3", { text: "Points through the game" }),
      el("label", { class: "stats-choose" }, "Show ", choose),
      chartBox, legend(stats, payload),
      el("h3", { text: "Final points by category" }), categoriesTable(stats, payload)),
    el("div", { class: "stats-col" },
      el("h3", { text: "What each player did" }), figuresTable(stats, payload)));
  box.dataset.ready = "true";
}

/** Buttons above a log that show only one player's lines (or everyone's); `lines(i)`
 *  gives the list items, `parties` the log's line owners (stats.log_parties). */
export function logFilter(bar, log, stats, payload) {
  if (!stats || !bar) return;
  const n = stats.points.length ? stats.points[0].scores.length : 0;
  let current = bar.dataset.party ?? "all";
  const apply = () => {
    for (const li of log.children) {
      const line = Number(li.dataset.line);
      const owner = stats.log_parties[line];
      li.hidden = current !== "all" && String(owner) !== current;
    }
    for (const b of bar.querySelectorAll("button")) {
      b.setAttribute("aria-pressed", String(b.dataset.party === current));
    }
    bar.dataset.party = current;
  };
  const button = (party, words, colour) => el("button", { type: "button", class: "log-filter-button",
    "data-party": party, onclick: () => { current = party; apply(); } },
    colour ? el("span", { class: `seat-dot seat-${colour}` }) : "", words);
  bar.replaceChildren(el("span", { class: "muted", text: "Show: " }), button("all", "everyone"),
    ...Array.from({ length: n }, (_, i) => button(String(i), ` ${partyName(payload, i)}`,
      colourOf(payload, i))));
  bar.hidden = false;
  apply();
}

/** A log line in a page's words (the players' names for their colours). */
export function logWords(payload, line) {
  return withNames(payload, line);
}
