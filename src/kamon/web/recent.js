// What just happened: the last turn of each other player — and of the solo rival, who has
// no seat — (payload.recent) is marked on
// the board — the elements its moves touched (found by the game's board module from the
// moves' notation) get the "just played" mark until that player moves again — and the
// log lines it wrote are highlighted. A turn seen for the first time arrives with a short
// animation (none when the reader prefers reduced motion: style.css). A turn of a seat
// whose player gave a name is said with that name ("Just played by Alice: Alice places …").
import { namedByPlayer, seatName, withNames } from "./names.js";

/** Who played a turn: the name its player gave, else the seat's colour (a bot's too: the
 *  log says it so) or the party without a seat ("tokugawa"). */
function playedBy(payload, turn) {
  const seat = turn.seat;
  return seat !== null && seat !== undefined && namedByPlayer(payload, seat)
    ? seatName(payload, seat) : turn.name;
}

const firstSeen = new Map();   // "<seat>@<version>" of a turn -> when this page first drew it
const ARRIVING_MS = 1500;      // redrawn within this time (the same turn pushed again, the
                               // page's first payloads), the turn still arrives

/** Mark on the board (root) what each recent turn touched, and say so in its words. */
export function markRecent(root, payload, renderer) {
  const find = renderer && renderer.recentTargets;
  if (!find) return;
  for (const turn of payload.recent || []) {
    const who = turn.seat ?? turn.party;   // a seat, or a party without one (the rival)
    const id = `${who}@${turn.version}`;
    if (!firstSeen.has(id)) firstSeen.set(id, performance.now());
    const fresh = performance.now() - firstSeen.get(id) < ARRIVING_MS;
    for (const notation of turn.moves) {
      for (const node of find(root, notation, turn.seat)) {
        node.classList.add("recent-move");
        if (fresh) node.classList.add("recent-arrive");
        node.setAttribute("data-recent-seat", String(who));
        const words = node.getAttribute("data-explain") || "";
        if (!words.includes("Just played")) {
          // what the turn did in words (its log lines), never the moves' notation
          const did = turn.text ? `: ${clip(withNames(payload, turn.text), 160)}` : "";
          node.setAttribute("data-explain",
            `${words ? words + " — " : ""}Just played by ${playedBy(payload, turn)}${did}`);
        }
      }
    }
  }
}

/** Words cut to about n characters (at a space), with an ellipsis when cut. */
function clip(words, n) {
  if (words.length <= n) return words;
  const cut = words.slice(0, n);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), n - 20))}…`;
}

/** Highlight the log lines (li elements, oldest first) that the recent turns wrote. */
export function markRecentLog(items, payload) {
  for (const turn of payload.recent || []) {
    for (let i = turn.log_from; i < turn.log_to && i < items.length; i++) {
      items[i].classList.add("recent-log");
      items[i].setAttribute("data-recent-seat", String(turn.seat ?? turn.party));
      items[i].title = `just played by ${playedBy(payload, turn)}`;
    }
  }
}
