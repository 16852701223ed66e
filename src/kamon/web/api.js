// Talking to the kamon server: JSON requests, and the games this browser holds seats in.

/** A refusal from the server: its HTTP status and its message in words. */
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

/** GET or POST JSON; throws ApiError with the server's message on a refusal.
 * A write refused by the rate limit (429: nothing was done) is sent again after the
 * wait the server names in Retry-After, a few times, before the refusal is shown. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let res;
  for (let attempt = 0; ; attempt++) {
    try { res = await fetch(path, init); } catch (e) {
      throw new ApiError(0, "the server cannot be reached");
    }
    if (res.status !== 429 || attempt >= 3) break;
    const wait = Math.min(5, Number(res.headers.get("Retry-After")) || 1);
    await new Promise(done => setTimeout(done, wait * 1000));
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (!res.ok) throw new ApiError(res.status, (data && data.error) || res.statusText);
  return data;
}

const KEY = "kamon.games";
const INVITES = "kamon.invites";

/** The seats this browser was given — the one its player created the game for, an invite
 *  link it opened — [{id, game, title, seat, name, token, created}]; only these are "your
 *  seat" and take this browser's name. */
export function myGames() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
}

/** Remember a seat (or a spectated game, token null) in localStorage. */
export function rememberGame(entry) {
  const list = myGames().filter(g => !(g.id === entry.id && g.seat === entry.seat));
  list.unshift({ ...entry, created: entry.created || Date.now() });
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 50)));
}

/** The invite links this browser made for other people (the lobby's "Game created"
 *  list): [{id, seat, name, token}]. Opening one here does not make the seat this
 *  browser's (no "your seat", no name). */
export function heldInvites() {
  try { return JSON.parse(localStorage.getItem(INVITES) || "[]"); } catch (e) { return []; }
}

/** Keep the invite links of a new game's other human seats (not this browser's seats). */
export function holdInvites(entries) {
  try {
    const tokens = new Set(entries.map(e => e.token));
    const list = heldInvites().filter(g => !tokens.has(g.token));
    localStorage.setItem(INVITES, JSON.stringify([...entries, ...list].slice(0, 200)));
  } catch (e) { /* storage off: the links are still shown */ }
}

/** The held invite link with this token (a seat this browser created for someone else),
 *  unless this browser was given that seat too; null otherwise. */
export function heldInvite(token) {
  if (!token || myGames().some(g => g.token === token)) return null;
  return heldInvites().find(g => g.token === token) || null;
}

/** Forget a remembered seat. */
export function forgetGame(id, seat) {
  localStorage.setItem(KEY, JSON.stringify(myGames().filter(
    g => !(g.id === id && g.seat === seat))));
}

/** Create an element with attributes and children (strings become text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c));
  return node;
}
