// The White Castle in short, in kamon's own words: the rules, the glossary of what the board
// draws, and a walkthrough of a first game's first three decisions.
import { box, callout, die, figure, onBoard, s, t, tileNamed } from "../../help/draw.js";

/** The rules in short: [heading, paragraph] pairs. */
export const RULES = [
  ["The aim", "Three rounds; whoever has the most Clan Points (CP) at the end wins. You earn "
    + "them during play and, at the end, for your courtiers in the castle, your warriors, "
    + "your gardeners, the Passage of Time, and what you have left. A tie goes to whoever "
    + "is higher in the turn order."],
  ["A turn", "Take one die from an end of a bridge (only the two end dice can be taken; the "
    + "left, lantern end also gives your Lantern reward) and put it on a space that shows a "
    + "die: a castle room, Outside the Walls, the Well or the row of your domain in the "
    + "die's colour. The die covers a number: the one printed there or the die already "
    + "there — the Well always counts as 1, whatever dice lie on it. Covering a lower "
    + "number earns the difference in coins; covering a higher one costs it. On the main "
    + "board one die at most can be stacked on another (the Well takes any number), and "
    + "with 1 or 2 players none. Then carry out what the space gives: a castle room's "
    + "blocks in the order you like, your domain in its fixed order. Everyone plays three "
    + "turns a round."],
  ["The castle", "A room's card has blocks beside die tiles: a die activates the blocks "
    + "whose tile has its colour (a steward room may give two, in any order); a colour "
    + "with no tile in a room cannot go there. Courtiers enter at the Gate (an audience "
    + "costs 2 coins) and climb with pearl: 2 for one floor, 5 for two. A courtier who "
    + "ends on floor 1 or 2 turns your action card face down into your Lantern area, "
    + "brings the room's card to your domain as your new action card and performs one "
    + "of its light blocks (if the room's deck is empty, it performs the light block but "
    + "you keep your card). One who reaches the Daimyo's room first gives you your "
    + "Lantern reward, then takes a free slot of the Daimyo's favour (none left: nothing "
    + "more)."],
  ["Your domain", "Each of your three rows takes only a die of its colour (coral: "
    + "courtiers, black: gardeners, white: warriors), on a printed 6: a lower die pays "
    + "the difference. Then, in this order: gain the row's visible rewards (what your "
    + "departed workers uncovered), then you may perform your action card's block beside "
    + "that row. A card's 'personal-domain action' fires a row as if with a 6 (no coins), "
    + "never the same row twice in a turn. Workers leave from the left: courtiers go to "
    + "the castle, gardeners to the gardens (paid in food), warriors to the training "
    + "yards (paid in iron)."],
  ["Seals and time", "Daimyo seals (5 at most) can be exchanged at any moment: 1 for a coin, "
    + "2 for a resource. The Passage of Time sets the next round's turn order and scores at "
    + "the end; entering a new season costs 1, 2 then 3 seals."],
  ["End of a round", "When three dice are left on the bridges, the turn order is updated "
    + "and, after rounds 1 and 2, each garden under a bridge that still holds a die gives "
    + "its reward again to its gardeners. Then the dice are rolled anew."],
  ["Solo", "Against the Tokugawa rival: it plays itself from the Solitaire deck, never pays, "
    + "and turns its coins into CP at each round's end. You only choose for it where the "
    + "rules say so (the room its climbing courtier empties, a tie between gardens)."],
];

/** The glossary: [symbol (a mark name or a few characters), term, meaning]. */
export const GLOSSARY = [
  ["legal", "A choice", "a highlighted part of the board can be chosen now: click it (on a "
    + "phone: tap to see what it does, tap again or press Play)."],
  ["recon", "Reconstructed", "data kamon could not read from the printed game (hover over "
    + "it for the source)."],
  ["▭ 3", "Die space", "a dashed box with its printed number: where a die can go; a die "
    + "covers the number or the die beneath (the Well always counts as 1)."],
  ["⬡", "Lantern", "the lantern at the left end of a bridge: taking that die also gives your "
    + "Lantern reward (every card in your Lantern area)."],
  ["◆", "Daimyo seal", "kept in your domain (5 at most); paid for some blocks and seasons, "
    + "or exchanged: 1 for a coin, 2 for a resource."],
  ["CP", "Clan Points", "the score; the track shows what you earned during play."],
  ["0–20", "Passage of Time", "your influence: sets the turn order and scores 3, 6 or 10–15 "
    + "CP at the end by season."],
  ["●", "Courtier", "a round pawn: goes to the Gate and climbs the castle (1, 3, 6, 10 CP by "
    + "floor)."],
  ["■", "Gardener", "a square pawn: one per garden card and clan; scores the card's CP."],
  ["▲", "Warrior", "a triangle pawn: in a training yard; its value times your courtiers "
    + "inside the castle."],
  ["light / dark", "Card blocks", "a block with a dark background is a worker action; light "
    + "ones are gains. A climbing courtier performs one light block of the card it takes."],
  ["▶", "Whose turn", "the clan deciding now, in the turn order."],
];

/** The first three decisions of a first game, each with the board area it happens in
 *  (`area(payload)` names the area, or null if it is not on the board now). */
export const WALKTHROUGH = [
  ["Choose a starting pair", "Each pair is a resource card (what you gain now, and the "
    + "reward it adds to your Lantern area for the whole game; some also bring a Decree "
    + "card, which joins it there) with an action card (it sits on your domain, beside "
    + "your three rows). Players choose in reverse turn order. A good Lantern reward pays "
    + "again every time you take a die from a lantern end.",
   p => (p.view.draft_pairs || []).some(x => x) && p.view.phase === "draft" ? "draft"
     : (p.you !== null ? `domain-${p.you}` : "castle")],
  ["Take a die from a bridge", "Only the die at either end of a bridge can be taken. The "
    + "left end is the lantern end: it also gives your Lantern reward. The colour decides "
    + "which castle rooms can take the die (those with a die tile of that colour) and which "
    + "row of your domain; Outside the Walls and the Well take any colour. Its value "
    + "decides whether placing it earns or costs coins.", () => "river"],
  ["Place it and choose what it does", "Put the die on a castle room (its blocks beside "
    + "tiles of the die's colour), Outside the Walls (one of its two worker actions), the "
    + "Well (a seal and the two Well tiles; it always counts as 1) or your domain row of "
    + "its colour (a printed 6: a lower die pays the difference). In a room pick the "
    + "blocks one by one, in your order; your domain gives the row's rewards, then the "
    + "card's block; \"done\" skips an optional one.",
   () => "castle"],
];

// --- the diagrams beside the rules (help/draw.js), and the board parts each one names:
// [label, finder(payload) -> the element of the board, or null when it is not drawn]
const CORAL = "#ec7a5f";
const BLACK = "#2a2a2e";
const WHITE = "#f7f4ec";
const ROOM = "#efe3c8";
const mine = p => `[data-area="domain-${p && p.you !== null ? p.you : 0}"]`;

/** The board as a whole: where each part is. */
function drawBoard() {
  return figure("The White Castle's board: its parts", 220, 150,
    box("Castle", 5, 5, 130, 58, ROOM, "rooms on 3 floors, Gate"),
    box("Bridges", 5, 68, 130, 36, "#d7e6ef", "3 bridges, dice, gardens"),
    box("Outside the Walls", 5, 109, 130, 36, "#dfeccf", "Well, training yards"),
    box("Tracks", 140, 5, 75, 58, "#f3e6c4", "Time, CP"),
    box("Your domain", 140, 68, 75, 77, "#e4e0f0", "stores, rows"));
}

/** One bridge: the lantern end, the dice in order, the two gardens beneath. */
function drawBridge() {
  return figure("A bridge: the lantern end, its dice and its gardens", 220, 150,
    s("rect", { x: 5, y: 22, width: 210, height: 42, rx: 8, fill: "#f3ead6", stroke: CORAL,
                "stroke-width": 2 }),
    s("path", { d: "M20,30 l9,7 v18 l-9,7 l-9,-7 v-18 Z", fill: "#f2c14e", stroke: "#8a6d1f" }),
    die(40, 34, 2, CORAL), die(64, 34, 3, CORAL), die(88, 34, 5, CORAL), die(112, 34, 6, CORAL),
    callout("Lantern end", 20, 30, 30, 12),
    callout("Left die: + Lantern reward", 49, 52, 5, 78),
    callout("Right die", 121, 34, 150, 12),
    callout("Middle dice: not takeable", 76, 52, 212, 92, "end"),
    box("Garden", 5, 104, 100, 40, "#dfeccf", "a plant garden"),
    box("Garden", 115, 104, 100, 40, "#e3e3e3", "a stone garden"));
}

/** The castle's floors, top first, and a room's card. */
function drawCastle() {
  return figure("The castle: the Daimyo's room, the Diplomats' and Stewards' floors, the Gate",
    220, 150,
    box("Daimyo's room (floor 3)", 40, 5, 140, 26, "#e6d3a8"),
    box("Diplomat rooms (floor 2)", 20, 35, 180, 26, ROOM),
    box("Steward rooms (floor 1)", 5, 65, 210, 26, ROOM),
    box("Gate", 70, 95, 80, 20, "#e3ddd0"),
    s("g", { class: "hd-part", "data-part": "Die tiles and blocks" },
      s("rect", { x: 5, y: 120, width: 10, height: 10, fill: CORAL, stroke: "#333" }),
      s("rect", { x: 18, y: 120, width: 70, height: 10, rx: 2, fill: WHITE, stroke: "#8a7a5c" }),
      s("rect", { x: 5, y: 133, width: 10, height: 10, fill: BLACK, stroke: "#333" }),
      s("rect", { x: 18, y: 133, width: 70, height: 10, rx: 2, fill: "#5d4a3a", stroke: "#333" }),
      t(94, 130, "Die tiles and blocks"),
      t(94, 143, "act by die colour", true)));
}

/** A domain: stores, the three rows and the action card beside them. */
function drawDomain() {
  const row = (y, colour, pawn) => s("g", {},
    s("rect", { x: 64, y, width: 14, height: 14, fill: colour, stroke: "#333" }),
    t(82, y + 11, pawn, true));
  return figure("Your domain: stores, the three rows, the action card", 220, 150,
    box("Stores", 5, 5, 52, 140, "#f3e6c4", "coins, seals"),
    t(10, 50, "food, iron,", true), t(10, 62, "pearl", true),
    t(10, 90, "Lantern", true), t(10, 102, "area", true),
    s("g", { class: "hd-part", "data-part": "Domain rows" },
      t(65, 18, "Domain rows"),
      row(30, CORAL, "courtiers"), row(65, BLACK, "gardeners"), row(100, WHITE, "warriors"),
      t(65, 138, "a printed 6 under each", true)),
    s("rect", { x: 61, y: 5, width: 86, height: 140, rx: 5, fill: "none", stroke: "#8a7a5c" }),
    box("Action card", 151, 5, 64, 140, "#e9dcc0"),
    t(155, 40, "a block", true), t(155, 52, "beside", true), t(155, 64, "each row", true));
}

/** The Passage of Time and the Clan Points, and the seals. */
function drawTracks() {
  const cells = [];
  for (let i = 0; i < 11; i++) {
    cells.push(s("rect", { x: 8 + i * 18, y: 24, width: 16, height: 16, fill: i === 3 ? "#2f6fdb"
      : "#fbf3df", stroke: "#8a7a5c" }));
  }
  return figure("The Passage of Time, the Clan Points and the Daimyo seals", 220, 150,
    s("g", { class: "hd-part", "data-part": "Passage of Time" }, t(8, 16, "Passage of Time"),
      ...cells, t(8, 54, "turn order; seasons cost 1, 2, 3 seals", true)),
    s("g", { class: "hd-part", "data-part": "Clan Points" }, t(8, 78, "Clan Points (CP)"),
      s("rect", { x: 8, y: 84, width: 200, height: 14, rx: 3, fill: "#fbf3df", stroke: "#8a7a5c" }),
      s("rect", { x: 8, y: 84, width: 60, height: 14, rx: 3, fill: "#e8b90f" })),
    s("g", { class: "hd-part", "data-part": "Daimyo seals" }, t(8, 120, "Daimyo seals (5 at most)"),
      ...[0, 1, 2, 3, 4].map(k => s("path", { d: `M${k * 18 + 16},126 l7,9 l-7,9 l-7,-9 Z`,
        fill: k < 2 ? "#b3261e" : "#eee", stroke: "#555" }))));
}

/** The end of a round: three dice left, the gardens under them give again. */
function drawRoundEnd() {
  return figure("End of a round: three dice left; the gardens under them give again", 220, 150,
    s("rect", { x: 5, y: 8, width: 66, height: 34, rx: 6, fill: "#f3ead6", stroke: CORAL }),
    die(28, 16, 4, CORAL),
    s("rect", { x: 77, y: 8, width: 66, height: 34, rx: 6, fill: "#f3ead6", stroke: BLACK }),
    s("rect", { x: 149, y: 8, width: 66, height: 34, rx: 6, fill: "#f3ead6", stroke: "#bdb3a0" }),
    die(162, 16, 3, WHITE, "#222"), die(186, 16, 5, WHITE, "#222"),
    callout("3 dice left: the round ends", 110, 42, 60, 60),
    box("Gardens", 5, 75, 66, 40, "#dfeccf", "give again"),
    box("Gardens", 77, 75, 66, 40, "#eee", "no die: no"),
    box("Gardens", 149, 75, 66, 40, "#dfeccf", "give again"),
    t(5, 135, "after rounds 1 and 2, to their gardeners", true));
}

/** The solo rival's tile. */
function drawRival() {
  return figure("Solo: the Tokugawa rival", 220, 150,
    box("Tokugawa rival", 5, 5, 210, 70, "#e7dcf0", "plays from the Solitaire deck"),
    box("Solitaire card", 15, 40, 90, 30, "#fff"),
    t(5, 95, "never pays; its coins turn into CP", true),
    t(5, 108, "at each round's end", true));
}

/** Each rules section's diagram and the board parts it names (by RULES heading). */
export const FIGURES = {
  "The aim": { draw: drawBoard, show: [
    ["Castle", () => document.querySelector('#board [data-area="castle"]')],
    ["Bridges", () => document.querySelector('#board [data-area="river"]')],
    ["Outside the Walls", () => document.querySelector('#board [data-area="outside"]')],
    ["Tracks", () => document.querySelector('#board [data-area="tracks"]')],
    ["Your domain", p => document.querySelector(`#board ${mine(p)}`)]] },
  "A turn": { draw: drawBridge, show: [
    ["A bridge", tileNamed("coral bridge")],
    ["Lantern end", onBoard('svg[aria-label="coral bridge"] .wc-lantern')],
    ["Garden", onBoard(".wc-garden")]] },
  "The castle": { draw: drawCastle, show: [
    ["Daimyo's room", tileNamed("Daimyo's room")],
    ["Diplomat room", tileNamed("Diplomat room 1")],
    ["Steward room", tileNamed("Steward room 1")],
    ["Gate", tileNamed("Gate")]] },
  "Your domain": { draw: drawDomain, show: [
    ["Stores", p => tileEnding(p, ": stores")],
    ["Domain rows", p => tileEnding(p, ": domain rows")],
    ["Action card", p => tileEnding(p, ": action card")],
    ["Lantern area", onBoard(".wc-lantern-card")]] },
  "Seals and time": { draw: drawTracks, show: [
    ["Passage of Time", tileNamed("Passage of Time")],
    ["Clan Points", tileNamed("Clan Points")]] },
  "End of a round": { draw: drawRoundEnd, show: [
    ["Bridges and gardens", () => document.querySelector('#board [data-area="river"]')]] },
  "Solo": { draw: drawRival, show: [["Tokugawa rival", tileNamed("Tokugawa rival")]] },
};

/** One of your domain's tiles, by the end of its title. */
function tileEnding(p, end) {
  const svg = document.querySelector(`#board ${mine(p)} svg.wc-svg[aria-label$="${end}"]`);
  return svg ? svg.closest(".wc-tile") || svg : null;
}
