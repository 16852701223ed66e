// Your turn alert. The tab's title says whose turn it is ("Your turn — kamon" while it is
// this seat's decision, when its icon carries a gold dot too; "Red's turn — kamon" else).
// When it *becomes* this seat's decision (not when the page opens on it) two optional
// alerts follow, both off until the player turns them on in
// the top bar, and both remembered in this browser (localStorage):
//   - a short tone, synthesized with WebAudio (no sound file);
//   - a browser notification, while the page is in the background; the permission is asked
//     only when the player turns "Notify me" on (a click), never by itself.

const SOUND_KEY = "kamon.sound";
const NOTIFY_KEY = "kamon.notify";
const ICONS = { plain: "/static/favicon.svg", turn: "/static/favicon-turn.svg" };

let audio = null;         // the AudioContext, made (or resumed) on a gesture of the player
let wasTurn = null;       // whether the previous position was this seat's decision

const $ = id => document.getElementById(id);

/** A remembered on/off choice. */
function remembered(key) {
  try { return localStorage.getItem(key) === "on"; } catch (e) { return false; }
}

/** Remember an on/off choice. */
function remember(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* private mode */ }
}

/** The audio context, created or resumed (browsers allow that after a user gesture). */
function audioContext() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Two soft rising notes (about 0.35 s). */
function chime() {
  const ctx = audioContext();
  if (!ctx) return;
  const t = ctx.currentTime + 0.01;
  [[660, 0], [880, 0.16]].forEach(([freq, at]) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t + at);
    gain.gain.exponentialRampToValueAtTime(0.18, t + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + at + 0.18);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t + at);
    osc.stop(t + at + 0.2);
  });
}

/** Whether the player would not see the page change by themselves. */
function inBackground() {
  return document.visibilityState === "hidden" || !document.hasFocus();
}

/** A notification that it is this seat's turn (when asked for, allowed and useful). */
function notify(title, decision) {
  if (!$("notify-toggle").checked || !("Notification" in window)) return;
  if (Notification.permission !== "granted" || !inBackground()) return;
  try {
    const note = new Notification("kamon: your turn", {
      body: `${title}: ${decision}`, tag: `kamon-${location.pathname}`, icon: ICONS.turn });
    note.onclick = () => { window.focus(); note.close(); };
  } catch (e) { /* a browser that only notifies from a service worker */ }
}

/** Wire the top bar's Sound and Notify me toggles (their state kept in localStorage). */
export function setupAlerts() {
  const sound = $("sound-toggle");
  sound.checked = remembered(SOUND_KEY);
  sound.addEventListener("change", () => {
    remember(SOUND_KEY, sound.checked);
    if (sound.checked) audioContext();   // this click is the gesture that allows audio
  });
  // after a reload the context may only start on the player's next gesture
  const wake = () => { if (sound.checked) audioContext(); };
  addEventListener("pointerdown", wake, { once: true, capture: true });
  addEventListener("keydown", wake, { once: true, capture: true });

  const box = $("notify-toggle");
  if (!("Notification" in window)) {
    box.disabled = true;
    box.parentElement.title = "This browser has no notifications";
    return;
  }
  box.checked = remembered(NOTIFY_KEY) && Notification.permission === "granted";
  box.addEventListener("change", async () => {
    if (box.checked && Notification.permission !== "granted") {
      const answer = await Notification.requestPermission();
      if (answer !== "granted") {
        box.checked = false;
        box.parentElement.title = "Notifications are blocked for this site in the browser";
      }
    }
    remember(NOTIFY_KEY, box.checked);
  });
}

/** Show in the tab whose turn it is ("Your turn — kamon", "Red's turn — kamon", or
 *  `whose` as given: "Game over — kamon"); alert when it has just become this seat's. */
export function turnAlert(isTurn, whose, title, decision) {
  document.title = `${isTurn ? "Your turn" : whose} — kamon`;
  const icon = $("favicon");
  const href = isTurn ? ICONS.turn : ICONS.plain;
  if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  if (isTurn && wasTurn === false) {
    if ($("sound-toggle").checked) chime();
    notify(title, decision);
  }
  wasTurn = isTurn;
}
