// The guided first game, as Board Game Arena's tutorials do: a practice game with a fixed
// deal (tutorial/<game>.js says which: game, seats, seed) whose play page (?tutorial=1)
// points at the board and explains each of the player's first decisions in a bubble, then
// says the player is on their own and gets out of the way.
//
// It is driven by what the page shows, never by a script of positions: each new payload
// (the "kamon:shown" event of app.js) is matched against the next step (the decision's
// legal notations); the step's suggestion is the legal action with its notation, found on
// the board (#board .legal[data-action-id]), else in the list of choices or the phone's
// decision bar. A bot that played differently only means a step is not shown.
// The bubble is placed beside its target, inside the band between the sticky status line
// and the bars docked at the bottom, and never over the target or those bars.
import { api, el, rememberGame } from "./api.js";

export const MODULES = { "white-castle": "white_castle", "clansman": "clansman" };
const KEY = "kamon-tutorial:";   // localStorage: how far the guide of a game has gone
const GAP = 12;                  // between the bubble and its target, in px
const MARGIN = 8;                // between the bubble and the band's edges
const COMPACT_W = 700;           // at most this wide: the bubble's words in short

const $ = id => document.getElementById(id);

/** Create the practice game of a game's guided first game and go to its seat (the
 *  lobby's and the Help's "Guided first game" buttons); throws with the server's words. */
export async function startTutorial(game) {
  const script = await import(`./tutorial/${MODULES[game]}.js`);
  const created = await api("/api/games", { ...script.SETUP });
  const seat = created.seats.find(s => s.token);
  rememberGame({ id: created.id, game: created.game, title: created.title, seat: seat.seat,
                 name: seat.name, token: seat.token });
  location.assign(`${seat.link}&tutorial=1`);
}

/** The guide of one play page. */
class Guide {
  /** The guide of game `gameId` with its script (tutorial/<game>.js). */
  constructor(gameId, script) {
    this.gameId = gameId;
    this.script = script;
    const kept = this.load();
    this.phase = kept.phase || "intro";   // intro | steps | alone | off
    this.step = kept.step || 0;           // the next step to explain
    this.shown = null;                    // {index, version} of the step on screen
    this.hidden = false;                  // "Got it": the bubble folded for this step
    this.expanded = false;                // "More…" pressed (a narrow screen)
    this.expandedFor = null;              // ...for this step
    this.aloneSince = null;               // the decision the "on your own" words stay for
    this.payload = null;
    this.target = null;                   // the element the bubble points at
    this.bubble = this.makeBubble();
    this.ring = el("div", { class: "tut-ring", id: "tutorial-ring", hidden: true,
                            "aria-hidden": "true" });
    document.body.append(this.bubble, this.ring);
    this.timer = setInterval(() => this.place(), 250);
    for (const type of ["scroll", "resize"]) {
      addEventListener(type, () => this.place(), { passive: true });
    }
  }

  /** What localStorage kept of this game's guide. */
  load() {
    try { return JSON.parse(localStorage.getItem(KEY + this.gameId) || "{}"); } catch (e) {
      return {};
    }
  }

  /** Keep how far the guide has gone (a reload goes on from there). */
  save() {
    try {
      localStorage.setItem(KEY + this.gameId, JSON.stringify({ phase: this.phase,
                                                               step: this.step }));
    } catch (e) { /* private mode: the guide starts again on a reload */ }
  }

  /** The bubble: a count, a title, the words, Next / Got it and Skip, an arrow. */
  makeBubble() {
    const b = el("aside", { id: "tutorial", class: "tut-bubble", role: "dialog",
                            "aria-live": "polite", "aria-labelledby": "tutorial-title",
                            hidden: true },
      el("p", { class: "tut-count", id: "tutorial-count" }),
      el("h3", { class: "tut-title", id: "tutorial-title" }),
      el("div", { class: "tut-text", id: "tutorial-text" }),
      el("div", { class: "tut-buttons" },
        el("button", { type: "button", class: "tut-next", id: "tutorial-next",
                       onclick: () => this.next(), text: "Next" }),
        el("button", { type: "button", class: "tut-skip", id: "tutorial-skip",
                       onclick: () => this.skip(), text: "Skip tutorial" })),
      el("span", { class: "tut-arrow", "aria-hidden": "true" }));
    return b;
  }

  /** A new position on the page. */
  shownPayload(p) {
    this.payload = p;
    if (this.phase === "off") return;
    if (this.shown && p.version > this.shown.version) {  // the explained decision is made
      this.step = Math.max(this.step, this.shown.index + 1);
      this.shown = null;
      this.hidden = false;
      if (this.step >= this.script.STEPS.length && this.phase === "steps") this.phase = "alone";
      this.save();
    }
    this.update();
  }

  /** Show what the guide has to say about the position on screen. */
  update() {
    const p = this.payload;
    if (!p || this.phase === "off") { this.hide(); return; }
    if (this.phase === "intro") {
      const intro = this.script.INTRO;
      this.say("intro", intro.title, intro.text(p), "Next", null);
      return;
    }
    if (this.phase === "alone") {
      // out of the way once the player has made a decision of their own
      if (this.aloneSince !== null && p.version > this.aloneSince) {
        this.phase = "off";
        this.save();
        this.hide();
        return;
      }
      if (!p.over && p.you !== null && p.to_move === p.you) this.aloneSince ??= p.version;
      const alone = this.script.ALONE;
      this.say("alone", alone.title, alone.text(p), "Got it", null);
      return;
    }
    const deciding = !p.over && p.you !== null && p.to_move === p.you;
    if (!deciding) { this.hide(); return; }
    const steps = this.script.STEPS;
    // the next step this decision is (a step whose decision did not come is passed over)
    let index = -1;
    for (let i = this.step; i < steps.length; i++) {
      if (steps[i].when(p)) { index = i; break; }
    }
    if (index < 0) { this.hide(); return; }
    const step = steps[index];
    const action = p.legal.find(a => a.notation === step.suggest) || null;
    this.shown = { index, version: p.version };
    if (this.hidden) { this.bubble.hidden = true; this.point(action); return; }
    this.say(`step-${step.id}`, step.title, step.text(p, action), "Got it", action,
             `Step ${index + 1} of ${steps.length}`, step.short);
  }

  /** Fill the bubble and point it at `action`'s target (or at the status line). */
  say(key, title, text, nextWords, action, count = "Guided first game", short = null) {
    const b = this.bubble;
    b.dataset.step = key;
    $("tutorial-count").textContent = count;
    $("tutorial-title").textContent = title;
    const body = $("tutorial-text");
    if (b.dataset.step !== this.expandedFor) this.expanded = false;
    // on a narrow screen only the first paragraph, the rest behind "More" (room for the
    // board between the status line and the decision bar is short there)
    const compact = innerWidth <= COMPACT_W && !this.expanded;
    let paras = [].concat(text).map((t, i) => el("p", { class: i ? "tut-more" : null,
                                                        hidden: compact && i > 0, text: t }));
    if (compact && short) {  // the step's words in one sentence
      paras = [el("p", { text: short }), ...paras.map(q => { q.hidden = true; return q; })];
    }
    body.replaceChildren(...paras);
    if (compact && paras.some(q => q.hidden)) {
      body.append(el("button", { type: "button", class: "tut-more-button", text: "More…",
        onclick: () => { this.expanded = true; this.expandedFor = b.dataset.step;
                         this.update(); } }));
    }
    if (action) {
      body.append(el("p", { class: "tut-suggest" }, el("strong", { text: "Suggestion: " }),
        action.text || action.notation));
    }
    $("tutorial-next").textContent = nextWords;
    $("tutorial-skip").hidden = key === "alone";
    b.hidden = false;
    this.point(action);
    const fresh = b.dataset.placedFor !== `${key}:${this.payload.version}`;
    b.dataset.placedFor = `${key}:${this.payload.version}`;
    if (fresh) this.bringIntoView();
    this.place();
  }

  /** Mark the suggested action's targets (board, list, decision bar); the bubble points
   *  at the board's when it is drawn, else at the list's or the bar's. */
  point(action) {
    for (const old of document.querySelectorAll(".tut-pick")) old.classList.remove("tut-pick");
    this.target = null;
    if (!action) { this.ring.hidden = true; return; }
    const sel = `[data-action-id="${action.id}"]`;
    const marks = [...document.querySelectorAll(`#board .legal${sel}, #actions button${sel}, `
                                              + `#dock-choices button${sel}`)];
    marks.forEach(m => m.classList.add("tut-pick"));
    const shown = m => m.getClientRects().length > 0;
    this.target = marks.find(m => m.closest("#board") && shown(m))
      || marks.find(m => m.closest("#actions") && shown(m))
      || marks.find(shown) || null;
  }

  /** Nothing to say now: no bubble, no ring, no marks. */
  hide() {
    this.bubble.hidden = true;
    this.ring.hidden = true;
    this.target = null;
    for (const old of document.querySelectorAll(".tut-pick")) old.classList.remove("tut-pick");
  }

  /** "Next" / "Got it". */
  next() {
    if (this.phase === "intro") {
      this.phase = "steps";
      this.save();
      this.update();
    } else if (this.phase === "alone") {
      this.phase = "off";
      this.save();
      this.hide();
    } else {   // a step: fold the bubble, the suggestion stays marked
      this.hidden = true;
      this.bubble.hidden = true;
      this.place();
    }
  }

  /** "Skip tutorial": the guide is off for this game (kept across reloads). */
  skip() {
    this.phase = "off";
    this.save();
    this.hide();
  }

  /** The band of the window free for the bubble: under the sticky status line, above
   *  the bars docked at the bottom (the phone's decision bar, the touch bar). */
  band() {
    const st = $("status");
    let bottom = innerHeight;
    for (const id of ["confirm-bar", "decision-bar"]) {
      const bar = $(id);
      if (bar && !bar.hidden && bar.getClientRects().length
          && getComputedStyle(bar).visibility !== "hidden") {
        bottom = Math.min(bottom, bar.getBoundingClientRect().top);
      }
    }
    return { top: st ? Math.max(0, st.getBoundingClientRect().bottom) : 0, bottom };
  }

  /** The target's box, or null when it is not shown; a target inside a docked bar counts
   *  as a box at the band's bottom edge (the bubble stays above the bar). */
  targetBox() {
    const t = this.target;
    if (!t || !t.isConnected || !t.getClientRects().length) return null;
    const r = t.getBoundingClientRect();
    if (t.closest("#decision-bar")) {
      const { bottom } = this.band();
      return { top: bottom, bottom, left: r.left, right: r.right, width: r.width, height: 0,
               docked: true };
    }
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width,
             height: r.height };
  }

  /** Scroll the target into the band with room for the bubble beside it, once per step
   *  (after the page's own scroll to the decision has had its turn). */
  bringIntoView() {
    const go = () => {
      const r = this.targetBox();
      if (!r || r.docked || this.bubble.hidden) return;
      const { bottom } = this.band();
      // the status line stays at the window's top once the page scrolls (it is sticky)
      const top = $("status").getBoundingClientRect().height;
      const h = this.naturalHeight();
      const inBand = r.top >= top + MARGIN && r.bottom <= bottom - MARGIN;
      const roomy = r.top - top >= h + GAP + MARGIN || bottom - r.bottom >= h + GAP + MARGIN;
      if (inBand && roomy) return;
      // the target and the bubble below it, together in the middle of the band if they
      // fit there, else the target at the band's top (a bubble beside it is the last resort)
      const need = r.height + GAP + h;
      const spare = bottom - top - 2 * MARGIN - need;
      const shift = spare >= 0 ? r.top - top - MARGIN - spare / 2
        : inBand ? 0 : r.top - top - MARGIN;
      if (!shift) return;
      window.scrollTo({ top: scrollY + shift, behavior: "auto" });
      this.place();
    };
    setTimeout(go, 350);
    setTimeout(go, 1200);
  }

  /** Where a bubble of w x h that points at nothing covers none of the decision's
   *  targets: the band's top, bottom, then its corners (else the top). */
  freeSpot(w, h, top, bottom) {
    const boxes = [...document.querySelectorAll("#board .legal")].filter(e => e.getClientRects().length)
      .map(e => e.getBoundingClientRect());
    const xs = [innerWidth / 2 - w / 2, MARGIN, innerWidth - w - MARGIN];
    const ys = [top + MARGIN, bottom - MARGIN - h];
    for (const y of ys) {
      for (const x0 of xs) {
        const x = Math.max(MARGIN, Math.min(innerWidth - w - MARGIN, x0));
        const hit = boxes.some(r => r.left < x + w && r.right > x && r.top < y + h
                                    && r.bottom > y);
        if (!hit) return [x, y];
      }
    }
    return [Math.max(MARGIN, innerWidth / 2 - w / 2), top + MARGIN];
  }

  /** The boxes of the decision's other targets on the board (not to be covered). */
  otherTargets() {
    return [...document.querySelectorAll("#board .legal")]
      .filter(e => e !== this.target && !e.contains(this.target) && e.getClientRects().length)
      .map(e => e.getBoundingClientRect())
      .filter(o => o.bottom > 0 && o.top < innerHeight);
  }

  /** The bubble's height with all its words (no scrolling inside). */
  naturalHeight() {
    const b = this.bubble;
    const kept = b.style.maxHeight;
    b.style.maxHeight = "";
    const h = b.getBoundingClientRect().height;
    b.style.maxHeight = kept;
    return h;
  }

  /** The bubble's width: 400 px, or the window less its margins. */
  width() {
    return Math.min(400, innerWidth - 2 * MARGIN);
  }

  /** Put the bubble beside its target (below, above, right or left: where it fits), or
   *  at the band's top when it points at nothing; mark the target with a ring. */
  place() {
    const b = this.bubble;
    if (this.phase === "off") return;
    if (this.target && !this.target.isConnected && this.payload) {
      // the board was drawn again: the same action's new element
      const id = this.target.dataset.actionId;
      this.point(this.payload.legal.find(a => String(a.id) === id) || null);
    }
    const r = this.targetBox();
    const ring = this.ring;
    if (r && !r.docked) {
      ring.hidden = false;
      ring.style.left = `${r.left - 4}px`;
      ring.style.top = `${r.top - 4}px`;
      ring.style.width = `${r.width + 8}px`;
      ring.style.height = `${r.height + 8}px`;
    } else {
      ring.hidden = true;
    }
    if (b.hidden) return;
    const { top, bottom } = this.band();
    const w = this.width();
    b.style.width = `${w}px`;
    b.style.maxHeight = "";
    let h = b.getBoundingClientRect().height;
    let x, y, side;
    const centreX = r ? (r.left + r.right) / 2 : innerWidth / 2;
    const clampX = v => Math.max(MARGIN, Math.min(innerWidth - w - MARGIN, v));
    if (!r) {
      side = "none";
      [x, y] = this.freeSpot(w, h, top, bottom);
    } else {
      const below = bottom - r.bottom - GAP - MARGIN;
      const above = r.top - top - GAP - MARGIN;
      const right = innerWidth - r.right - GAP - MARGIN;
      const left = r.left - GAP - MARGIN;
      const midY = Math.max(top + MARGIN, Math.min(bottom - MARGIN - h, (r.top + r.bottom) / 2 - h / 2));
      // the sides with room for all of it
      const fits = [
        !r.docked && below >= h && ["below", clampX(centreX - w / 2), r.bottom + GAP],
        above >= h && ["above", clampX(centreX - w / 2), r.top - GAP - h],
        !r.docked && right >= w && ["right", r.right + GAP, midY],
        !r.docked && left >= w && ["left", r.left - GAP - w, midY],
      ].filter(Boolean);
      // where it hides the fewest of the decision's other choices (the first side on a tie)
      const others = this.otherTargets();
      const hidden = ([, cx, cy]) => others.filter(o => o.left < cx + w && o.right > cx
                                                        && o.top < cy + h && o.bottom > cy).length;
      const pick = fits.reduce((best, f) => (best && hidden(best) <= hidden(f) ? best : f), null);
      if (pick) {
        [side, x, y] = pick;
      } else {
        // no side has room for all of it: the larger of above and below, scrolling inside
        const room = Math.max(below, above, 90);
        b.style.maxHeight = `${room}px`;
        h = Math.min(h, room);
        if (!r.docked && below >= above) { side = "below"; y = r.bottom + GAP; }
        else { side = "above"; y = r.top - GAP - h; }
        x = clampX(centreX - w / 2);
      }
    }
    b.style.left = `${Math.round(x)}px`;
    b.style.top = `${Math.round(y)}px`;
    b.dataset.side = side;
    const arrow = side === "left" || side === "right"
      ? (r.top + r.bottom) / 2 - y : centreX - x;
    b.style.setProperty("--arrow", `${Math.round(Math.max(14, Math.min(
      (side === "left" || side === "right" ? h : w) - 14, arrow)))}px`);
  }
}

/** Run the guide on this play page (its address has ?tutorial=1). */
async function run() {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  let guide = null;
  let waiting = null;   // the payload that came before the guide's script had loaded
  const started = game => import(`./tutorial/${MODULES[game]}.js`).then(script => {
    guide = new Guide(gameId, script);
    document.body.classList.add("tutorial");
    if (waiting) guide.shownPayload(waiting);
  });
  let loading = null;
  const onPayload = p => {
    if (!MODULES[p.game] || p.you === null) return;
    if (guide) { guide.shownPayload(p); return; }
    waiting = p;
    if (!loading) loading = started(p.game).catch(e => console.error(e));
  };
  document.addEventListener("kamon:shown", e => onPayload(e.detail));
  // the page may have shown its first position before this module ran
  if (document.body.dataset.version) {
    const token = new URLSearchParams(location.search).get("token");
    try {
      onPayload(await api(`/api/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`));
    } catch (e) { /* the page says what went wrong */ }
  }
}

if (location.pathname.startsWith("/play/")
    && new URLSearchParams(location.search).get("tutorial") === "1") {
  run();
}
