// Above the White Castle board: the round, phase and turn order, the die in hand, the
// decision in hand as buttons (effects to order, pay or stop), and the board's legend.
import {
  RECENT_WORDS, legalSample, legend, reconMarkInline, recentSample, selectedSample,
} from "../../marks.js";
import { withNames } from "../../names.js";
import { effectLong, effectShort } from "./pieces.js";
import { COLOURS, html } from "./svg.js";

const PHASES = { draft: "choosing starting pairs", play: "taking turns",
  gardens: "end of round: gardens activate", over: "game over" };

/** A clan's name on its colour. */
function chip(b, p, text) {
  const c = html("span", { class: "wc-chip", text });
  c.style.background = b.clanFill(p);
  return c;
}

/** Round, phase, you, the turn order, what is being decided and the die in hand. */
export function header(b) {
  const v = b.view;
  const head = html("div", { class: "wc-header", "data-area": "header" });
  head.appendChild(html("div", { class: "wc-status" }, [
    html("strong", { text: `Round ${v.round} of 3` }), ` · ${PHASES[v.phase] || v.phase}`,
    b.you !== null ? html("span", { class: "wc-you" }, [" · you are ", chip(b, b.you, b.playerName(b.you))]) : null,
  ]));
  const order = html("div", { class: "wc-order" }, ["Turn order: "]);
  const current = v.phase === "play" ? v.order[v.turn_idx % v.clans.length] : null;
  v.order.forEach((p, i) => {
    if (i) order.appendChild(document.createTextNode(" → "));
    const c = chip(b, p, `${i + 1}. ${b.playerName(p)}${p === current ? " ▶" : ""}`);
    c.title = `${b.clanName(p)} clan`;
    if (p === current) c.classList.add("wc-current");
    order.appendChild(c);
  });
  head.appendChild(order);
  const now = html("div", { class: "wc-now" }, [html("strong", { text: "Now: " }),
    withNames(b.payload, b.payload.decision || v.decision || "")]);
  if (v.held) {
    const [c, val, left] = v.held;
    now.appendChild(html("span", { class: "wc-held" }, [" · in hand: ",
      html("span", { class: `wc-die-chip wc-${COLOURS[c]}`, text: `${COLOURS[c]} ${val}` }),
      left ? " (taken at the lantern end)" : ""]));
  }
  head.appendChild(now);
  if (b.payload.over) {
    const winners = (b.payload.winners || []).map(p => b.playerName(p)).join(", ");
    head.appendChild(html("div", { class: "wc-over", text: `Game over${winners ? ` — winner: ${winners}` : ""}` }));
  }
  return head;
}

/** The decision in hand as buttons: effects to order, paying or stopping. */
export function pendingControls(b) {
  const v = b.view;
  const top = v.stack && v.stack[v.stack.length - 1];
  const box = html("div", { class: "wc-pending", "data-area": "pending" });
  if (top && top[0] === "effects" && top[1] === b.you) {
    box.appendChild(html("strong", { text: `${top[3] || "Effects"}, in your order: ` }));
    top[2].forEach((e, k) => {
      const btn = html("button", { class: "wc-effect", type: "button", text: effectShort(e) });
      btn.setAttribute("data-explain", effectLong(e));
      if (!b.bind(btn, `effect ${k + 1}`)) btn.disabled = true;
      box.appendChild(btn);
    });
  }
  if (top && top[0] === "pay" && b.legal("pay")) {
    const cost = top[2].map(([k, n]) => `${n} ${k}${n > 1 ? "s" : ""}`).join(" + ");
    box.appendChild(html("strong", { text: `Pay ${cost} for ${effectLong(top[3])}? ` }));
  }
  if (top && top[0] === "checkpoint" && b.legal("pay")) {
    box.appendChild(html("strong", { text: `Pay ${top[3]} seal(s) to enter the next season of the Passage of Time? ` }));
  }
  for (const a of b.payload.legal || []) {
    if (a.notation !== "pay" && a.notation !== "done") continue;
    // skipping is secondary (dashed, after the rest): it says in words what is given up
    const skip = a.notation === "done";
    const words = a.text ? a.text.charAt(0).toUpperCase() + a.text.slice(1) : "Done";
    const btn = html("button", { class: skip ? "wc-effect wc-skip" : "wc-effect", type: "button",
                                 text: skip ? words : "Pay" });
    btn.setAttribute("data-explain", a.text || a.notation);
    b.bind(btn, a.notation);
    box.appendChild(btn);
  }
  return box.childNodes.length ? box : null;
}

/** The board's legend: what a choice, a tapped choice and reconstructed data look like. */
export function boardLegend() {
  return legend([
    [legalSample(), "a choice you can make now (click it; on a phone tap it, then tap again or press Play)"],
    [selectedSample(), "tapped, waiting for Play"],
    [reconMarkInline(), "reconstructed data, not read from the printed game (hover for the source)"],
    [recentSample(), RECENT_WORDS],
    [null, "▭ dashed box: a die space and its printed value"],
    [null, "⬡ lantern end of a bridge"],
    [null, "◆ Daimyo seal"],
  ]);
}
