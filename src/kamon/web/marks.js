// The marks both boards share, drawn the same everywhere (board, legend, help): the
// reconstructed-data mark (a purple disc with a dagger: the component's data was not read
// from the printed game) and a sample of the highlight of a choice.

const SVG_NS = "http://www.w3.org/2000/svg";
const RECON_WORDS = "reconstructed data: not read from the printed game (hover over it for "
  + "the source and how sure it is)";

/** An SVG element with attributes. */
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The reconstructed mark as an SVG group centred on (x, y), radius r. */
export function reconMark(x, y, r = 7) {
  const g = svg("g", { class: "recon-mark", transform: `translate(${x},${y})` });
  g.appendChild(svg("circle", { r }));
  const t = svg("text", { y: r * 0.45, "text-anchor": "middle", "font-size": r * 1.5 });
  t.textContent = "†";
  g.appendChild(t);
  const title = svg("title");
  title.textContent = RECON_WORDS;
  g.appendChild(title);
  return g;
}

/** The reconstructed mark as a small inline picture for HTML text. */
export function reconMarkInline() {
  const s = svg("svg", { viewBox: "-8 -8 16 16", class: "mark-inline", "aria-hidden": "true" });
  s.appendChild(reconMark(0, 0, 7));
  return s;
}

/** A sample of a highlighted choice (a small outlined box), for legends. */
export function legalSample() {
  const s = svg("svg", { viewBox: "0 0 30 18", class: "mark-inline legal-sample",
                         "aria-hidden": "true" });
  s.appendChild(svg("rect", { x: 2, y: 2, width: 26, height: 14, rx: 3, class: "sample-box" }));
  return s;
}

/** A sample of a choice selected by a tap, for legends. */
export function selectedSample() {
  const s = svg("svg", { viewBox: "0 0 30 18", class: "mark-inline selected-sample",
                         "aria-hidden": "true" });
  s.appendChild(svg("rect", { x: 2, y: 2, width: 26, height: 14, rx: 3, class: "sample-box" }));
  return s;
}

/** A sample of the "just played" mark (what another player's last turn touched). */
export function recentSample() {
  const s = svg("svg", { viewBox: "0 0 30 18", class: "mark-inline recent-sample",
                         "aria-hidden": "true" });
  s.appendChild(svg("rect", { x: 4, y: 3, width: 22, height: 12, rx: 3, class: "sample-box" }));
  return s;
}

/** The words of the "just played" mark, for both boards' legends. */
export const RECENT_WORDS = "just played: what another player's last turn touched (until "
  + "they move again); its lines are highlighted in the log";

/** The words of the reconstructed mark. */
export const RECONSTRUCTED = RECON_WORDS;

/** An HTML legend: rows of [picture, words]. */
export function legend(rows, title = "Legend") {
  const box = document.createElement("div");
  box.className = "legend";
  box.setAttribute("data-area", "legend");
  const h = document.createElement("strong");
  h.textContent = `${title}: `;
  box.appendChild(h);
  for (const [pic, words] of rows) {
    const item = document.createElement("span");
    item.className = "legend-item";
    if (pic) item.appendChild(pic);
    item.appendChild(document.createTextNode(` ${words}`));
    box.appendChild(item);
  }
  return box;
}
