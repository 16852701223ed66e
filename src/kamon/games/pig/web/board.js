// Pig's board for the kamon browser client, drawn from payload.view: kamon's example game
// (docs/adding-a-game.md). A row per seat (its score on a track to the target), the dice
// rolled this turn with the turn total, and the two choices as large buttons, bound through
// ctx.bind (interact.js: a click plays, a tap selects and explains). Everything else (the
// list of choices, the log, the scores, the end) is the page's own.

const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
               6: [0, 2, 3, 5, 6, 8] };

/** An element with a class, attributes and children (text or nodes). */
function h(tag, cls, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const kid of kids) node.append(kid);
  return node;
}

/** A die face: a 3x3 grid of pips (a 1 marked as the face that loses the turn). */
function die(face) {
  const node = h("div", "pig-die" + (face === 1 ? " pig-bust" : ""),
                 { "data-explain": face === 1 ? "a 1: the turn total is lost"
                                              : `a ${face}: added to the turn total` });
  for (let i = 0; i < 9; i++) {
    node.append(h("span", PIPS[face].includes(i) ? "pig-pip" : "pig-blank"));
  }
  return node;
}

/** The board elements a move acted on: the roll and hold buttons are always drawn. */
export function recentTargets(root, notation) {
  return [...root.querySelectorAll(`[data-key="${CSS.escape(notation)}"]`)];
}

/** Draw Pig's board for this payload into root. */
export function render(root, payload, ctx) {
  const v = payload.view;
  root.replaceChildren();
  const board = h("div", "pig-board");
  board.append(h("p", "pig-goal", {}, `First to ${v.target} points wins.`));
  const seats = h("div", "pig-seats", { "data-area": "seats" });
  v.points.forEach((score, p) => {
    const mover = v.to_move === p;
    const row = h("div", "pig-seat" + (mover ? " pig-mover" : "") + (v.winner === p ? " pig-winner" : ""),
                  { "data-seat": String(p), "data-explain": `${v.names[p]}: ${score} points banked` });
    const track = h("div", "pig-track");
    const fill = h("div", `pig-fill pig-c${p}`);
    fill.style.width = `${Math.min(100, (100 * score) / v.target)}%`;
    track.append(fill);
    if (mover && v.turn_total) {
      const risk = h("div", "pig-risk");
      risk.style.left = fill.style.width;
      risk.style.width = `${Math.min(100 - Math.min(100, (100 * score) / v.target),
                                     (100 * v.turn_total) / v.target)}%`;
      track.append(risk);
    }
    const you = payload.you === p ? " (you)" : "";
    row.append(h("span", "pig-name", {}, (mover ? "▶ " : "") + v.names[p] + you), track,
               h("span", "pig-score", {}, String(score)));
    seats.append(row);
  });
  board.append(seats);

  const turn = h("div", "pig-turn", { "data-area": "turn" });
  const shown = v.rolls.length ? v.rolls : v.last_rolls;
  const dice = h("div", "pig-dice");
  shown.forEach(f => dice.append(die(f)));
  const who = v.to_move === null ? "" : v.names[v.to_move];
  turn.append(h("p", "pig-total", {}, v.winner !== null ? `${v.names[v.winner]} wins`
    : v.rolls.length ? `${who}'s turn total: ${v.turn_total}` : `${who} starts a turn`
      + (v.last_rolls.length ? " (the dice shown are the last turn's)" : "")), dice);
  const buttons = h("div", "pig-buttons");
  for (const [notation, words] of [["roll", "Roll"], ["hold", "Hold"]]) {
    const button = h("div", "pig-button", { "data-key": notation, "data-explain":
      notation === "roll" ? "Roll the die: a 1 loses the turn total, 2-6 add to it"
                          : "Hold: bank the turn total and pass the die on" }, words);
    const action = (payload.legal || []).find(a => a.notation === notation);
    if (action && ctx && ctx.bind) ctx.bind(button, action);
    else button.classList.add("pig-off");
    buttons.append(button);
  }
  turn.append(buttons);
  board.append(turn);
  root.append(board);
}
