// How a choice on the board is made. With a mouse, a click on a highlighted target plays it
// at once, and so do Enter and Space on a target reached with the keyboard. With a finger
// (or a pen) a first tap selects the target and explains it in the bar at the bottom of
// the screen; a second tap on it, or the bar's Play button, plays it; Cancel, a tap on
// another target or a new position drops the selection. A tap on anything else on the
// board explains it in the same bar.

const $ = id => document.getElementById(id);

let pointer = "mouse";   // the kind of the last pointer pressed anywhere on the page
addEventListener("pointerdown", e => { pointer = e.pointerType || "mouse"; }, true);

/** Whether the last press came from a finger or a pen (tap to select, tap again to play). */
export function touching() {
  return pointer === "touch" || pointer === "pen";
}

/** The bindings of board targets to legal actions, and the touch selection. */
export class Chooser {
  /** `act(id)` plays an action; the bar's elements are in play.html. */
  constructor(act) {
    this.act = act;
    this.selected = null;   // the action id selected by a tap, or null
    $("confirm-play").addEventListener("click", () => {
      if (this.selected !== null) this.play(this.selected);
    });
    $("confirm-cancel").addEventListener("click", () => this.clear());
    addEventListener("keydown", e => { if (e.key === "Escape") this.clear(); });
  }

  /** Make `node` the board's target of `action`: highlighted, focusable, clickable.
   *  A node takes one action (the first bound); returns whether this one was bound. */
  bind(node, action) {
    if (node.hasAttribute("data-action-id")) return false;
    node.classList.add("legal");
    node.setAttribute("data-action-id", String(action.id));
    // skipping (forfeiting the rest of a choice) is secondary: styled so, and out of the
    // keyboard's order on the board (it stays in the list of choices, listed last)
    const skip = isSkip(action);
    node.classList.toggle("skip", skip);
    node.setAttribute("tabindex", skip ? "-1" : "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", choiceWords(action));
    if (!node.hasAttribute("title")) node.setAttribute("title", `notation: ${action.notation}`);
    const words = node.getAttribute("data-explain");
    node.setAttribute("data-explain",
      `${words ? words + " — " : ""}Your choice: ${choiceWords(action)}`);
    node.addEventListener("click", e => {
      e.stopPropagation();
      if (touching()) {
        if (this.selected === action.id) this.play(action.id);
        else this.select(node, action);
      } else {
        this.play(action.id);
      }
    });
    node.addEventListener("keydown", e => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      e.stopPropagation();
      this.play(action.id);
    });
    return true;
  }

  /** Select a target after a tap: mark it, explain it, offer Play and Cancel. */
  select(node, action) {
    this.unmark();
    this.selected = action.id;
    node.classList.add("selected");
    this.showBar(node.getAttribute("data-explain") || action.text, action);
    keepAboveBar(node);
  }

  /** Explain something tapped that is not a choice (the bar without Play). */
  info(text) {
    if (!text) return;
    this.unmark();
    this.selected = null;
    this.showBar(text, null);
  }

  /** Show the bar with words and, for an action, its Play button. */
  showBar(text, action) {
    $("confirm-text").textContent = text;
    const play = $("confirm-play");
    play.hidden = !action;
    if (action) {
      play.textContent = `Play: ${shorten(choiceWords(action), 64)}`;
      play.title = `notation: ${action.notation}`;
    }
    $("confirm-cancel").textContent = action ? "Cancel" : "Close";
    $("confirm-bar").hidden = false;
    document.body.classList.add("has-bar");
  }

  /** Play an action (the selection is dropped first). */
  play(id) {
    this.clear();
    this.act(id);
  }

  /** Remove the selection mark from the board. */
  unmark() {
    for (const n of document.querySelectorAll("#board .selected")) n.classList.remove("selected");
  }

  /** Drop the selection and hide the bar. */
  clear() {
    this.unmark();
    this.selected = null;
    $("confirm-bar").hidden = true;
    document.body.classList.remove("has-bar");
  }

  /** After the board is drawn again: keep a selection whose action is still a target,
   *  else drop it. */
  redrawn() {
    if (this.selected === null) return;
    const node = document.querySelector(`#board .legal[data-action-id="${this.selected}"]`);
    if (node) node.classList.add("selected");
    else this.clear();
  }
}

/** Whether an action is a skip: stopping a choice without taking (the rest of) it. */
export function isSkip(action) {
  return /^(done|skip|pass)\b/.test(action.notation || "");
}

/** What a legal action does, in words, as a player reads it (its description, capitalised);
 *  the notation ("place steward1") is only a developer's detail (a title), never a label. */
export function choiceWords(action) {
  const text = (action && (action.text || action.notation)) || "";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Words cut to about n characters (at a space), with an ellipsis when cut. */
function shorten(words, n) {
  if (words.length <= n) return words;
  const cut = words.slice(0, n);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), n - 12))}…`;
}

/** Scroll a selected target up if the bar covers it. */
function keepAboveBar(node) {
  const bar = $("confirm-bar").getBoundingClientRect();
  const r = node.getBoundingClientRect();
  if (r.bottom > bar.top - 8) scrollBy({ top: r.bottom - bar.top + 24, behavior: "auto" });
}
