// Bringing the decision into view. The board is taller than a laptop's window, so after
// each new position in which this seat decides, the page looks at the decision's part of
// the board: the board areas ([data-area]) that hold its targets (the seal exchanges, free
// at every decision, aside). It scrolls there only when
//   - the decision's first target (skips aside) is not in the window (a player who can
//     see it is left alone), and
//   - the decision moved to another part of the board, or it stayed in the same part and
//     the player did not scroll away from it by themselves (then it went out of the window
//     because the board changed, not because the player looked elsewhere on purpose), and
//   - the player is not using the page: a pointer move or press, a wheel, a touch or a
//     scrolling key in the last QUIET_MS milliseconds means reading (hovering explains the
//     board), so the scroll waits until they have rested that long, and checks again then.

const QUIET_MS = 1000;
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

let lastUse = 0;          // when the player last used the pointer, wheel, touch or keys
let lastScroll = 0;       // when the player last scrolled by themselves (wheel, touch, keys)
let lastDecision = 0;     // when the previous decision of this seat was looked at
let lastAreas = null;     // the areas of the previous decision of this seat
let timer = null;

const used = () => { lastUse = performance.now(); };
const scrolled = () => { lastUse = lastScroll = performance.now(); };
for (const type of ["pointermove", "pointerdown", "touchstart"]) {
  addEventListener(type, used, { capture: true, passive: true });
}
for (const type of ["wheel", "touchmove"]) {
  addEventListener(type, scrolled, { capture: true, passive: true });
}
addEventListener("keydown", e => { if (SCROLL_KEYS.has(e.key) && !e.target.closest?.(".legal")) scrolled(); },
                 { capture: true });

/** Mark on the body whether a scroll to the decision is still to come (data-follow:
 *  "waiting" while the player's use of the page holds it back): what a test waits out
 *  before it aims at the board, as a person's eye would wait for the page to settle. */
function waiting(on) {
  document.body.dataset.follow = on ? "waiting" : "idle";
}

/** The decision's targets on the board (free actions and skips aside), in page order. */
function targets() {
  return [...document.querySelectorAll("#board .legal[data-action-id]")]
    .filter(e => !e.closest("[data-free]") && !e.classList.contains("skip")
                 && e.getClientRects().length);
}

/** The visible band of the window: below the sticky status line, above the bars docked
 *  at the bottom (the phone's decision bar, the touch bar). */
function band() {
  const status = document.getElementById("status").getBoundingClientRect();
  let bottom = innerHeight;
  for (const id of ["confirm-bar", "decision-bar"]) {
    const bar = document.getElementById(id);
    if (bar && !bar.hidden && bar.getClientRects().length) {
      bottom = Math.min(bottom, bar.getBoundingClientRect().top);
    }
  }
  return { top: Math.max(0, status.bottom), bottom };
}

/** Whether some target shows at least half of itself (or 40 px) in the band. */
function someInView(list) {
  const { top, bottom } = band();
  return list.some(e => {
    const r = e.getBoundingClientRect();
    const seen = Math.min(r.bottom, bottom) - Math.max(r.top, top);
    return seen >= Math.min(r.height / 2, 40) && r.right > 0 && r.left < innerWidth;
  });
}

/** Scroll so the decision's targets fill the band (centred if they fit, else the first
 *  in page order at its top: the first target is always brought into view). */
function scrollTo(list) {
  const { top, bottom } = band();
  const rects = list.map(e => e.getBoundingClientRect());
  const lo = Math.min(...rects.map(r => r.top));
  const hi = Math.max(...rects.map(r => r.bottom));
  const room = bottom - top;
  const shift = hi - lo <= room - 32 ? (lo + hi) / 2 - (top + bottom) / 2
    : rects[0].top - top - 16;
  const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top: scrollY + shift, behavior: smooth ? "smooth" : "auto" });
}

/** Look at the decision after the board is drawn; `deciding`: this seat decides now. */
export function follow(deciding) {
  clearTimeout(timer);
  waiting(false);
  if (!deciding) { lastAreas = null; return; }
  const list = targets();
  if (!list.length) return;
  const areas = [...new Set(list.map(e => e.closest("[data-area]")?.dataset.area || ""))]
    .sort().join(" ");
  const stayed = areas === lastAreas;
  const away = stayed && lastScroll > lastDecision;   // the player scrolled off on purpose
  lastAreas = areas;
  lastDecision = performance.now();
  if (away) return;
  const check = () => {
    const now = targets();
    const wait = lastUse + QUIET_MS - performance.now();
    const due = now.length && !someInView(now.slice(0, 1));
    waiting(Boolean(due && wait > 0));
    if (!due) return;
    if (wait > 0) { timer = setTimeout(check, wait + 20); return; }
    scrollTo(now);
  };
  check();
}

/** The game has ended: the top of the page (the result, under the status line) at once,
 *  and again over the next second unless the player scrolls meanwhile: a smooth scroll to
 *  the last decision may still be running, and under load it outlasted the first jump
 *  (CI saw the result 4 px above the window). "instant" stops a running smooth scroll. */
export function toTop() {
  clearTimeout(timer);
  waiting(false);
  lastAreas = null;
  const since = performance.now();
  const jump = () => {
    if (lastScroll > since || scrollY === 0) return;
    window.scrollTo({ top: 0, behavior: "instant" });
  };
  jump();
  requestAnimationFrame(jump);
  for (const ms of [250, 600, 1000]) setTimeout(jump, ms);
}
