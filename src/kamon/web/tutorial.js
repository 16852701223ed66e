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
// The bubble never covers what it explains — the suggested target and the step's area
// (the room, the bridge, the Supply) — nor another choice the player can make (a board
// target, a button of the list or of the phone's decision bar): it is placed by measuring
// the free space. On a desktop it goes beside its target where it fits, else at the free
// place nearest to it; on a phone it is docked above the decision bar (folded to its one
// line while the step is explained) or under the status line, and the page is scrolled so
// the target and its area are above it with no choice under it.
import { api, el, rememberGame } from "./api.js";

const KEY = "kamon-tutorial:";   // localStorage: how far the guide of a game has gone
const GAP = 12;                  // between the bubble and its target, in px
const MARGIN = 8;                // between the bubble and the band's edges
const COMPACT_W = 700;           // at most this wide: the bubble's words in short, docked
const SCAN = 16;                 // the free-space search's grid, in px

const $ = id => document.getElementById(id);

/** Where a game's guided first game is: its own folder's tutorial.js. */
function tutorialOf(game) {
  return `/static/games/${game}/tutorial.js`;
}

/** Create the practice game of a game's guided first game and go to its seat (the
 *  lobby's and the Help's "Guided first game" buttons); throws with the server's words. */
export async function startTutorial(game) {
  const script = await import(tutorialOf(game));
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
    this.areaOf = null;                   // the step's area finder (tutorial/<game>.js)
    this.dock = "bottom";                 // a phone: docked above the bar, or at the top
    this.opened = null;                   // the position whose bar the player opened by hand
    this.bubble = this.makeBubble();
    this.ring = el("div", { class: "tut-ring", id: "tutorial-ring", hidden: true,
                            "aria-hidden": "true" });
    document.body.append(this.bubble, this.ring);
    this.timer = setInterval(() => this.place(), 250);
    for (const type of ["scroll", "resize"]) {
      addEventListener(type, () => this.place(), { passive: true });
    }
    // the player's own opening of the phone's decision bar: it then stays open
    $("dock-toggle")?.addEventListener("click", e => {
      if (e.isTrusted && this.payload && e.currentTarget.getAttribute("aria-expanded") === "true") {
        this.opened = this.payload.version;
      }
    });
    // the player's own scrolling (the page's scrolls to the decision are not): a phone's
    // bubble then stays where it is docked rather than bring the page back
    this.userScroll = 0;
    this.autoScroll = 0;
    for (const type of ["wheel", "touchmove"]) {
      addEventListener(type, () => { this.userScroll = performance.now(); }, { passive: true });
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
    this.areaOf = step.area || null;
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
    if (action) {  // (on a phone behind "More…": the ring and the bar's mark show it)
      body.append(el("p", { class: "tut-suggest", hidden: compact && Boolean(short) },
        el("strong", { text: "Suggestion: " }), action.text || action.notation));
    }
    $("tutorial-next").textContent = nextWords;
    $("tutorial-skip").hidden = key === "alone";
    b.hidden = false;
    this.point(action);
    this.foldDock();
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

  /** Scroll the target and its area into the band with room for the bubble, once per
   *  step (after the page's own scroll to the decision has had its turn); on a phone,
   *  to where the docked bubble covers no choice (above the bar, else under the status
   *  line). */
  bringIntoView() {
    const go = () => {
      if (this.bubble.hidden) return;
      if (innerWidth <= COMPACT_W) {
        this.place();
        const h = this.bubble.getBoundingClientRect().height;
        for (const dock of ["bottom", "top"]) {
          const to = this.phoneScroll(dock, h);
          if (to !== null) {
            this.dock = dock;
            if (Math.abs(to - scrollY) > 1) window.scrollTo({ top: to, behavior: "auto" });
            this.place();
            return;
          }
        }
        this.dock = "bottom";
        this.place();
        return;
      }
      const t = this.targetBox();
      if (!t || t.docked) return;
      const area = this.areaElement();
      const a = area ? area.getBoundingClientRect() : t;
      const r = { top: Math.min(t.top, a.top), bottom: Math.max(t.bottom, a.bottom) };
      const { bottom } = this.band();
      // the status line stays at the window's top once the page scrolls (it is sticky)
      const top = $("status").getBoundingClientRect().height;
      const inBand = r.top >= top + MARGIN && r.bottom <= bottom - MARGIN;
      if (inBand) return;
      const h = r.bottom - r.top;
      const spare = bottom - top - 2 * MARGIN - h;
      const shift = spare >= 0 ? r.top - top - MARGIN - spare / 2 : t.top - top - MARGIN;
      if (!shift) return;
      window.scrollTo({ top: scrollY + shift, behavior: "auto" });
      this.place();
    };
    setTimeout(go, 350);
    setTimeout(go, 1200);
  }

  /** On a phone, fold the decision bar to its line while the guide speaks (the page opens
   *  it again with each new position; the suggestion is marked on the board), unless the
   *  player opened it by hand for this position. */
  foldDock() {
    if (innerWidth > COMPACT_W || !this.payload || this.bubble.dataset.step === "alone") return;
    const toggle = $("dock-toggle");
    const bar = $("decision-bar");
    if (!toggle || !bar || bar.hidden || this.opened === this.payload.version) return;
    if (toggle.getAttribute("aria-expanded") === "true") toggle.click();
  }

  /** The explained area of the step: the step's own (tutorial/<game>.js), else the board
   *  tile or area that holds the target (a room, a bridge, the Supply). */
  areaElement() {
    const t = this.target;
    if (!t || !t.isConnected || !t.closest("#board")) return null;
    const own = this.areaOf ? this.areaOf(t) : null;
    return own || t.closest("div.wc-tile, g.cm-area") || null;
  }

  /** The boxes the bubble must leave clear (viewport coordinates): the target, the
   *  step's area, and every other choice shown — board targets, the list's buttons, the
   *  decision bar's buttons. */
  keepClear() {
    const boxes = [];
    const area = this.areaElement();
    if (area && area.getClientRects().length) boxes.push(area.getBoundingClientRect());
    const t = this.targetBox();
    if (t && !t.docked) boxes.push(t);
    for (const e of document.querySelectorAll("#board .legal, #actions button.action, "
                                               + "#dock-choices button")) {
      if (e === this.target || !e.getClientRects().length) continue;
      const r = e.getBoundingClientRect();
      if (r.width && r.height) boxes.push(r);
    }
    return boxes;
  }

  /** How many of `boxes` a bubble at (x, y) of w x h would cover (by more than a pixel:
   *  a box that only touches its edge is not covered). */
  static covered(boxes, x, y, w, h) {
    let n = 0;
    for (const r of boxes) {
      if (r.left < x + w - 1 && r.right > x + 1 && r.top < y + h - 1 && r.bottom > y + 1) n++;
    }
    return n;
  }

  /** The free place for a bubble of w x h in the band nearest to the point (cx, cy): the
   *  sides of the target first, then a scan of the band; null when none is free. */
  freeSpot(w, h, top, bottom, r, boxes) {
    const clampX = v => Math.max(MARGIN, Math.min(innerWidth - w - MARGIN, v));
    const fits = (x, y) => y >= top + MARGIN && y + h <= bottom - MARGIN
      && !Guide.covered(boxes, x, y, w, h);
    if (r) {
      const cx = (r.left + r.right) / 2;
      const midY = Math.max(top + MARGIN, Math.min(bottom - MARGIN - h, (r.top + r.bottom) / 2 - h / 2));
      const sides = [["below", clampX(cx - w / 2), r.bottom + GAP],
                     ["above", clampX(cx - w / 2), r.top - GAP - h],
                     ["right", r.right + GAP, midY], ["left", r.left - GAP - w, midY]];
      for (const [side, x, y] of sides) {
        if (x >= MARGIN && x + w <= innerWidth - MARGIN && fits(x, y)) return [side, x, y];
      }
    }
    const cx = r ? (r.left + r.right) / 2 : innerWidth / 2;
    const cy = r ? (r.top + r.bottom) / 2 : top;
    let best = null;
    for (let y = top + MARGIN; y + h <= bottom - MARGIN; y += SCAN) {
      for (let x = MARGIN; x + w <= innerWidth - MARGIN; x += SCAN) {
        if (Guide.covered(boxes, x, y, w, h)) continue;
        const d = Math.hypot(x + w / 2 - cx, y + h / 2 - cy);
        if (!best || d < best[0]) best = [d, x, y];
      }
    }
    return best ? ["none", best[1], best[2]] : null;
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

  /** The bubble's width: 400 px on a desktop, the window less its margins on a phone. */
  width() {
    return innerWidth <= COMPACT_W ? innerWidth - 2 * MARGIN : Math.min(400, innerWidth - 2 * MARGIN);
  }

  /** A phone: the scroll position (nearest to the present one) at which the target and
   *  the step's area lie in the band clear of the bubble docked at `dock` ("bottom": above
   *  the decision bar; "top": under the status line) and no other choice is under the
   *  bubble; null if there is none. */
  phoneScroll(dock, h) {
    const { top, bottom } = this.band();
    const y0 = dock === "bottom" ? bottom - MARGIN - h : top + MARGIN;
    const y1 = y0 + h;
    const free = dock === "bottom" ? [top + MARGIN, y0 - GAP] : [y1 + GAP, bottom - MARGIN];
    const t = this.targetBox();
    const area = this.areaElement();
    const must = [];
    if (t && !t.docked) must.push(t);
    if (area && area.getClientRects().length) {
      const a = area.getBoundingClientRect();
      if (a.height <= free[1] - free[0]) must.push(a);  // (an area taller than the band: its target)
    }
    const others = this.keepClear();
    const max = document.documentElement.scrollHeight - innerHeight;
    const options = [];
    for (let to = 0; to <= max; to += 4) options.push(to);
    options.push(max);
    options.sort((a, c) => Math.abs(a - scrollY) - Math.abs(c - scrollY));
    for (const to of options) {
      const shift = to - scrollY;
      const inBand = must.every(r => r.top - shift >= free[0] && r.bottom - shift <= free[1]);
      if (!inBand) continue;
      const hit = others.some(r => r.left < innerWidth - MARGIN - 1 && r.right > MARGIN + 1
                               && r.top - shift < y1 - 1 && r.bottom - shift > y0 + 1);
      if (!hit) return to;
    }
    return null;
  }

  /** A phone: when the page moved under the docked bubble by itself (the page's own scroll
   *  to the decision came after the guide's), so that it covers the target, its area or a
   *  choice, look again for the scroll that frees them (not after the player scrolled). */
  refit(h) {
    const now = performance.now();
    if (now - this.userScroll < 2000 || now - this.autoScroll < 500) return;
    const { top, bottom } = this.band();
    const y = this.dock === "bottom" ? bottom - MARGIN - h : top + MARGIN;
    const boxes = this.keepClear().filter(r => r.bottom > 0 && r.top < innerHeight);
    if (!Guide.covered(boxes, MARGIN, y, innerWidth - 2 * MARGIN, h)) return;
    this.autoScroll = now;
    for (const dock of ["bottom", "top"]) {
      const to = this.phoneScroll(dock, h);
      if (to !== null) {
        this.dock = dock;
        if (Math.abs(to - scrollY) > 1) window.scrollTo({ top: to, behavior: "auto" });
        this.bubble.dataset.fit = `${dock} ${to}`;
        return;
      }
    }
    this.bubble.dataset.fit = "none";
  }

  /** A phone: leave room under the board for a bubble docked over it (its height, in
   *  --tut-h: the page can then bring anything above it). */
  reserve(h) {
    document.documentElement.style.setProperty("--tut-h", `${Math.ceil(h + 2 * MARGIN)}px`);
  }

  /** Put the bubble where it covers neither its target, its area nor another choice (on
   *  a desktop beside the target or at the nearest free place; on a phone docked above
   *  the bar or under the status line); mark the target with a ring. */
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
    if (b.hidden) { this.reserve(0); return; }
    const { top, bottom } = this.band();
    const w = this.width();
    b.style.width = `${w}px`;
    b.style.maxHeight = "";
    let h = b.getBoundingClientRect().height;
    let x, y, side;
    if (innerWidth <= COMPACT_W) {
      this.foldDock();
      h = b.getBoundingClientRect().height;
      this.reserve(h);
      this.refit(h);
      side = this.dock === "bottom" ? "docked-bottom" : "docked-top";
      x = MARGIN;
      const room = bottom - top - 2 * MARGIN;
      if (h > room * 0.6) { h = Math.max(90, room * 0.6); b.style.maxHeight = `${h}px`; }
      y = this.dock === "bottom" ? bottom - MARGIN - h : top + MARGIN;
    } else {
      const boxes = this.keepClear();
      const spot = this.freeSpot(w, h, top, bottom, r && !r.docked ? r : null, boxes);
      if (spot) {
        [side, x, y] = spot;
      } else {
        // nowhere free: the place under or over the target that covers the fewest choices
        const cx = r ? (r.left + r.right) / 2 : innerWidth / 2;
        x = Math.max(MARGIN, Math.min(innerWidth - w - MARGIN, cx - w / 2));
        const below = r && !r.docked ? r.bottom + GAP : top + MARGIN;
        const above = r ? r.top - GAP - h : top + MARGIN;
        const room = Math.max(bottom - below - MARGIN, above - top - MARGIN, 90);
        if (h > room) { h = room; b.style.maxHeight = `${room}px`; }
        const tries = [["below", below], ["above", r ? r.top - GAP - h : top + MARGIN]];
        [side, y] = tries.reduce((best, t) => (Guide.covered(boxes, x, t[1], w, h)
          < Guide.covered(boxes, x, best[1], w, h) ? t : best));
        y = Math.max(top + MARGIN, Math.min(bottom - MARGIN - h, y));
      }
    }
    b.style.left = `${Math.round(x)}px`;
    b.style.top = `${Math.round(y)}px`;
    b.dataset.side = side;
    const arrow = side === "left" || side === "right"
      ? (r.top + r.bottom) / 2 - y : (r ? (r.left + r.right) / 2 : innerWidth / 2) - x;
    b.style.setProperty("--arrow", `${Math.round(Math.max(14, Math.min(
      (side === "left" || side === "right" ? h : w) - 14, arrow)))}px`);
  }
}

/** Run the guide on this play page (its address has ?tutorial=1). */
async function run() {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  let guide = null;
  let waiting = null;   // the payload that came before the guide's script had loaded
  const started = game => import(tutorialOf(game)).then(script => {
    guide = new Guide(gameId, script);
    document.body.classList.add("tutorial");
    if (waiting) guide.shownPayload(waiting);
  });
  let loading = null;
  const onPayload = p => {
    if (p.you === null) return;
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
