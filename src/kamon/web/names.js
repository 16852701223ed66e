// Players' names: the one this browser's player typed (kept in localStorage, sent when a
// seat is taken), and how a page names a seat — the name its player gave, a bot's level
// ("Normal bot"), or the seat's colour when it has no name. Names are untrusted text:
// everything here returns strings or elements built with textContent, never HTML.
import { el } from "./api.js";

const KEY = "kamon.name";
export const NAME_MAX = 24;

// Characters that are printable yet draw nothing, and the joiners allowed only between
// two visible characters (an emoji sequence such as 👩‍💻): server/names.py's rules.
const BLANKS = new Set([0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x17B4, 0x17B5, 0x1D159,
                        0x2062, 0x2063, 0x2064, 0x180E, 0xE0020]);
const JOINERS = new Set([0x200C, 0x200D]);
const BLACK_FLAG = 0x1F3F4;
const MAX_MARKS = 4;
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const MARK = /[\p{Mn}\p{Me}]/u;

/** Printable as Python's str.isprintable() says (an ASCII space is). */
const printable = ch => ch === " " || !NOT_PRINTABLE.test(ch);
/** Draws something on its own (not a space, a blank or a combining mark alone). */
const visible = ch => printable(ch) && !/\s/u.test(ch) && !BLANKS.has(ch.codePointAt(0))
  && !MARK.test(ch);

/** A typed name checked as the server checks it (server/names.py): {name} (stripped) or
 *  {error} in words. */
export function checkName(text) {
  const name = String(text ?? "").normalize("NFC").trim();
  if (!name) return { error: "type a name (1 to 24 characters)" };
  const chars = [...name];
  if (chars.length > NAME_MAX) {
    return { error: `a name is at most ${NAME_MAX} characters (this one has ${chars.length})` };
  }
  let marks = 0;
  let flag = false;
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i].codePointAt(0);
    if (JOINERS.has(code)) {
      if (!(i > 0 && i < chars.length - 1 && visible(chars[i - 1]) && visible(chars[i + 1]))) {
        return { error: "a name cannot hold an invisible joiner that joins nothing" };
      }
    } else if (code >= 0xE0020 && code < 0xE0080) {
      if (!flag) return { error: "a name cannot hold control or invisible characters" };
    } else if (!printable(chars[i])) {
      return { error: "a name cannot hold control or invisible characters" };
    }
    if (code === BLACK_FLAG) flag = true;
    else if (!(code >= 0xE0020 && code < 0xE0080)) flag = false;
    marks = MARK.test(chars[i]) ? marks + 1 : 0;
    if (marks > MAX_MARKS) {
      return { error: `a name cannot stack more than ${MAX_MARKS} marks on one character` };
    }
  }
  if (!chars.some(visible)) return { error: "a name must show at least one letter, digit or sign" };
  return { name };
}

/** The name this browser's player gave (null: none yet, or storage is off). */
export function storedName() {
  try {
    const got = checkName(localStorage.getItem(KEY) || "");
    return got.name || null;
  } catch (e) { return null; }
}

/** Keep the player's name in this browser (an empty one forgets it): null, or what is
 *  wrong with it in words. */
export function keepName(text) {
  try {
    if (!String(text ?? "").trim()) { localStorage.removeItem(KEY); return null; }
    const got = checkName(text);
    if (got.error) return got.error;
    localStorage.setItem(KEY, got.name);
    return null;
  } catch (e) { return "this browser does not keep data for this site"; }
}

/** The name a seat goes by in a payload: its `player` (the name its player gave, or the
 *  bot's level in words, "Normal bot", as the server names it: service.seat_player), or
 *  its colour ("blue") when nobody named it; a name two seats share gets its colour. */
export function seatName(payload, seat) {
  const s = payload && payload.seats && payload.seats[seat];
  if (!s) return `seat ${seat + 1}`;
  if (!s.player) return s.name;
  const twice = payload.seats.some(o => o.seat !== s.seat && o.player === s.player);
  return twice ? `${s.player} (${s.name})` : s.player;
}

/** Whether a person named the seat (a bot's name is its level, which bots may share). */
export function namedByPlayer(payload, seat) {
  const s = payload && payload.seats && payload.seats[seat];
  return Boolean(s && s.kind !== "bot" && s.player);
}

/** Who sits in a seat beside its name: "you", "human" or "bot <level>". */
export function seatWho(payload, seat) {
  const s = payload.seats[seat];
  return s.kind === "bot" ? `bot ${s.level}` : seat === payload.you ? "you" : "human";
}

/** A seat's name with what it is, in words: "Alice (blue, you)", "blue (human)",
 *  "Normal bot (yellow)"; `compact` leaves out what a dot and a title tell. */
export function seatText(payload, seat, compact = false) {
  const s = payload.seats[seat];
  const name = seatName(payload, seat);
  const you = seat === payload.you;
  if (name === s.name) {  // no name: the colour, as before names
    const who = compact && s.kind === "bot" ? "bot" : seatWho(payload, seat);
    return `${name} (${who})`;
  }
  if (compact) return you ? `${name} (you)` : name;
  const colour = name.endsWith(`(${s.name})`) ? [] : [s.name];
  const extra = [...colour, ...(you ? ["you"] : [])];
  return extra.length ? `${name} (${extra.join(", ")})` : name;
}

/** A seat's label: its colour's dot and its words (seatText), as an element. */
export function seatLabel(payload, seat, compact = false) {
  const s = payload.seats[seat];
  return el("span", { class: "seat-label", "data-seat": seat },
    el("span", { class: `seat-dot seat-${s.name}` }), ` ${seatText(payload, seat, compact)}`);
}

/** A scored party's name (a seat's as seatName says; the solo rival's capitalised:
 *  "Tokugawa"). */
export function partyName(payload, index) {
  const parties = payload.scored || payload.seats.map((s, i) => ({ index: i, name: s.name, seat: i }));
  const p = parties[index];
  if (p && p.seat !== null && p.seat !== undefined) return seatName(payload, p.seat);
  return p ? cap(p.name) : `player ${index + 1}`;
}

/** "1 point", "3 points". */
export function points(n) {
  return `${n} point${Number(n) === 1 ? "" : "s"}`;
}

/** What a seat is deciding, without the seat's name the engine's words start with
 *  ("blue chooses a starting pair" -> "chooses a starting pair"), for a line that names
 *  the seat already; `you`: in the second person ("choose a starting pair"). */
export function decisionOf(payload, seat, you = false) {
  const s = payload.seats[seat];
  let words = String(payload.decision ?? "");
  if (s && words.startsWith(`${s.name} `)) {
    words = words.slice(s.name.length + 1);
    if (you) {
      words = words.replace(/^(\w+?)s\b/, (m, verb) => (verb === "ha" ? "have" : verb))
        .replace(/\bor obtains\b/, "or obtain");
    }
  }
  return withNames(payload, words);
}

/** A name at the start of a sentence ("Blue's turn", "Alice places …"). */
export function cap(words) {
  const w = String(words ?? "");
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** Engine words (a log line, a decision) with each named player's colour replaced by the
 *  name where the colour names the player: at the start ("blue places" -> "Alice
 *  places") and as an owner ("blue's" -> "Alice's"). Bots and unnamed seats keep their
 *  colour (bots' names repeat); a dice colour is never touched. */
export function withNames(payload, words) {
  const text = String(words ?? "");
  const named = new Map();
  for (const s of (payload && payload.seats) || []) {
    if (namedByPlayer(payload, s.seat)) named.set(s.name, seatName(payload, s.seat));
  }
  if (!named.size) return text;
  const colours = [...named.keys()].map(c => c.replace(/[^\w-]/g, "")).filter(Boolean);
  if (!colours.length) return text;
  const alt = colours.join("|");
  const pattern = new RegExp(`^(${alt})(?=[\\s:,])|\\b(${alt})(?='s\\b)`, "g");
  let out = text.replace(pattern, (m, a, b) => named.get(a || b) ?? m);
  // a list of the clans ("turn order: blue, red", "final scores: blue 51, red 44")
  const list = out.match(/^(.*?(?:turn order|final scores|scores): )(.*)$/);
  if (list) {
    const items = new RegExp(`(^|, )(${alt})(?=,| \\d|$)`, "g");
    out = list[1] + list[2].replace(items, (m, sep, c) => sep + (named.get(c) ?? c));
  }
  return out;
}

/** Whether two payloads of one version name their seats differently (a seat was named:
 *  the page shows the payload again). */
export function namesDiffer(a, b) {
  if (!a || !b || !a.seats || !b.seats || a.seats.length !== b.seats.length) return false;
  return a.seats.some((s, i) => (s.player ?? null) !== (b.seats[i].player ?? null));
}
