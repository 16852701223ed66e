// I, Clansman in short, in kamon's own words: the rules and the glossary of the board.
import { areaTitled, box, figure, s, t } from "../../help/draw.js";
import { goodTile } from "./icons.js";

/** Two workers as the board draws them: the count beside the good's picture. */
function goodsSample() {
  return s("svg", { class: "glyph-goods", width: 36, height: 19, viewBox: "0 0 36 19",
                    role: "img", "aria-label": "Worker: 2" },
    t(9, 14, "2", false, "middle"), goodTile("worker", 16, 1));
}

/** The rules in short: [heading, paragraph] pairs. */
export const RULES = [
  ["The aim", "Sixteen generations (rounds), four in each of the 4th to 7th Centuries. Each "
    + "round every player obtains one card. Victory Points (VPs) come from Mission cards "
    + "(in five colours), from Statues while you own a temple, from Mirrors (1 VP each in "
    + "the Beginner game) and, in the Expert game, from Kofun and Emperor cards. The most "
    + "VPs at the end wins; a tie goes to the most Iron, and if still tied the tied "
    + "players share the victory."],
  ["A round", "New cards come to the Supply: at a Century's first round its remaining "
    + "cards are discarded and seven are drawn, in the other rounds three are added (at "
    + "round 9 the Royal Princes also turn to their 6th-7th Century sides). In the "
    + "Marriage phase, starting right of the start player and going counter-clockwise, "
    + "each player's daughter marries: into one of their own clans (free), another "
    + "player's clan or a Royal Prince (paying a Tadokoro as dowry). In the Production "
    + "phase, clockwise from the start player, each player produces and obtains one card. "
    + "Then the daughters come home and the Start Player marker passes to the left — "
    + "except at a Century's last round (rounds 4, 8, 12 and 16)."],
  ["Production", "Each Tadokoro gives one worker (and each Miyake too, to a player whose "
    + "daughter married a Royal Prince). Clan cards turn workers into skilled people and "
    + "goods, each card once a round: your own clans without another player's daughter, and "
    + "the card your daughter married into. Once per game a Hero produces at once. Then pay "
    + "a card's cost to obtain it from the Supply or your hand, or take Tadokoro instead "
    + "(two for 2 workers and 1 iron, plus a Supply card into your hand; or one for free)."],
  ["What is kept", "Workers, skilled people and goods vanish at the end of each turn; Iron, "
    + "Statues and Mirrors are kept. A Statue scores 1 VP if you own a temple. A Mirror "
    + "scores 1 VP in the Beginner game; in the Expert game only under a Kofun."],
  ["Expert game", "Kofun cards (one per player, obtained like a Mission; the Mirrors you "
    + "hold then go under it for 2 VPs each, Mirrors gained later score nothing) and four "
    + "Emperor cards, one for each Century, all on side A or all on side B: each changes "
    + "its Century's rules or gives VPs — a bonus to whoever takes a certain action during "
    + "its Century, its card (and its VPs) to whoever leads a VP colour at the Century's "
    + "end, or VPs at the game's end."],
];

/** The glossary: [symbol (a mark name or a few characters), term, meaning]. */
export const GLOSSARY = [
  ["legal", "A choice", "a highlighted card or button can be chosen now: click it (on a "
    + "phone: tap to see what it does, tap again or press Play)."],
  ["recon", "Reconstructed", "card data that could not be read from the rulebook (hover "
    + "over the card for what is missing)."],
  ["♀", "Daughter", "a player's daughter token, on the card she married into this round."],
  ["★", "Start player", "Production starts with them; Marriage with the player to their "
    + "right."],
  ["▶", "Whose turn", "the player deciding now."],
  ["T", "Tadokoro", "a farm: one worker each Production; paid as a dowry."],
  ["M", "Miyake", "a royal farm in the Miyake row: a worker for each player married to a "
    + "Royal Prince."],
  [goodsSample, "Goods", "a count beside a small picture of the good on a tile of its colour: "
    + "workers, soldiers, architects, monks, bureaucrats, cloth, fish, pork, pots, horses, "
    + "iron, statues and mirrors. Tap, hover or focus a picture to see its name; the key "
    + "under the board lists them all."],
  ["■", "VP colours", "Military red, Religion yellow, Government purple, Economy green, "
    + "Others white."],
  ["Supply", "Supply", "the face-up cards that can be obtained this Century."],
];

/** No walkthrough for this game yet. */
export const WALKTHROUGH = [];

// --- the diagrams beside the rules (help/draw.js), and the table's parts each one names:
// [label, finder(payload) -> the element of the board, or null when it is not drawn]
const CARD = "#fffdf5";
const mine = p => `[data-area="gozoku-${p && p.you !== null ? p.you : 0}"]`;

/** A small card: its band and name. */
function card(x, y, band, name, fill = "#8d6e63") {
  return s("g", {}, s("rect", { x, y, width: 44, height: 56, rx: 4, fill: CARD, stroke: "#8a7a5c" }),
    s("rect", { x, y, width: 44, height: 12, rx: 3, fill }),
    bandText(x + 3, y + 9, band), t(x + 3, y + 26, name, true));
}

/** A card band's words, light on the band's colour. */
function bandText(x, y, words) {
  const node = t(x, y, words, true);
  node.setAttribute("fill", "#fff");
  return node;
}

/** The table: the centre and the Gozoku around it. */
function drawTable() {
  return figure("I, Clansman's table: the centre and each Gozoku's tableau", 220, 150,
    box("Centre", 55, 40, 110, 70, "#f3e6c4", "Supply, Princes, Bank"),
    box("Your tableau", 55, 115, 110, 30, "#dbe7f7"),
    box("Gozoku", 5, 40, 46, 70, "#f4dde7"),
    box("Gozoku", 169, 40, 46, 70, "#e0f0ec"),
    box("Gozoku", 55, 5, 110, 30, "#f7e3cf"));
}

/** A round: the Supply, the Royal Princes, a daughter on a clan card. */
function drawRound() {
  return figure("A round: the Supply, the Royal Princes and a daughter marrying", 220, 150,
    s("g", { class: "hd-part", "data-part": "Supply" }, t(5, 12, "Supply"),
      card(5, 18, "Clan", "obtain"), card(53, 18, "Mission", "VPs", "#2e7d32")),
    s("g", { class: "hd-part", "data-part": "Royal Princes" }, t(120, 12, "Royal Princes"),
      card(120, 18, "Prince", "", "#b8860b"), card(168, 18, "Prince", "", "#b8860b")),
    s("g", { class: "hd-part", "data-part": "Daughter on a clan card" },
      t(56, 100, "Daughter on a clan card"),
      card(5, 86, "Clan", "yours"), s("circle", { cx: 42, cy: 92, r: 7, fill: "#2f6fdb" }),
      t(39, 96, "♀"),
      t(56, 114, "own: free; else 1 Tadokoro", true)));
}

/** Production: Tadokoro give workers, clan cards convert, a card is obtained. */
function drawProduction() {
  const worker = (x, y) => s("circle", { cx: x, cy: y, r: 6, fill: "#a1887f", stroke: "#5d4037" });
  return figure("Production: Tadokoro give workers, a clan card converts, a card is obtained",
    220, 150,
    box("Tadokoro", 5, 5, 70, 40, "#8bc34a", "1 worker each"),
    worker(104, 25), worker(118, 25), worker(132, 25),
    s("path", { d: "M78,25 h14 M92,25 l-4,-3 M92,25 l-4,3", stroke: "#333" }),
    box("Clan card", 5, 55, 100, 40, CARD, "2 workers → soldier"),
    box("Pool", 110, 55, 105, 40, "#f6efdc", "this turn only"),
    box("Obtain a card", 5, 105, 95, 40, "#dff0dc", "pay its cost"),
    box("Bank: F / G", 110, 105, 105, 40, "#eee", "Tadokoro instead"));
}

/** What is kept between turns. */
function drawKept() {
  const chip = (x, fill, name) => s("g", {}, s("rect", { x, y: 30, width: 64, height: 20, rx: 10,
    fill }), t(x + 8, 44, name));
  return figure("What is kept: Iron, Statues and Mirrors; the rest vanishes", 220, 150,
    s("g", { class: "hd-part", "data-part": "Kept tokens" }, t(5, 18, "Kept tokens"),
      chip(5, "#90a4ae", "Iron"), chip(75, "#bcaaa4", "Statue"), chip(145, "#b0bec5", "Mirror")),
    s("g", { class: "hd-part", "data-part": "Vanishes" }, t(5, 82, "Vanishes at the turn's end"),
      t(5, 98, "workers, soldiers, architects, monks,", true),
      t(5, 110, "bureaucrats, cloth, fish, pork, pots, horses", true)));
}

/** The Expert game's cards. */
function drawExpert() {
  return figure("The Expert game: Kofun and Emperor cards", 220, 150,
    s("g", { class: "hd-part", "data-part": "Kofun" }, t(5, 12, "Kofun"),
      card(5, 18, "Kofun", "Mirrors", "#4e5d2f")),
    s("g", { class: "hd-part", "data-part": "Emperor cards" }, t(110, 12, "Emperor cards"),
      card(110, 18, "Emperor", "4th", "#6a1b9a"), card(158, 18, "Emperor", "5th", "#6a1b9a")),
    t(5, 100, "one Kofun per player; 2 VPs a Mirror under it", true),
    t(5, 114, "an Emperor card for each Century: rules or VPs", true));
}

/** Each rules section's diagram and the table parts it names (by RULES heading). */
export const FIGURES = {
  "The aim": { draw: drawTable, show: [
    ["Centre", () => document.querySelector('#board [data-area="centre"]')],
    ["Your tableau", p => document.querySelector(`#board ${mine(p)}`)]] },
  "A round": { draw: drawRound, show: [
    ["Supply", areaTitled("Supply")],
    ["Royal Princes", areaTitled("Royal Princes")],
    ["Your clan cards", p => areaTitled("Clan cards", mine(p))()]] },
  "Production": { draw: drawProduction, show: [
    ["Your clan cards", p => areaTitled("Clan cards", mine(p))()],
    ["Bank: F / G", areaTitled("Bank")],
    ["Heroes", areaTitled("Heroes")]] },
  "What is kept": { draw: drawKept, show: [
    ["Your tokens", p => document.querySelector(`#board ${mine(p)} .cm-panel-head`)]] },
  "Expert game": { draw: drawExpert, show: [
    ["Kofun", areaTitled("Kofun")],
    ["Emperor cards", areaTitled("Emperor cards")]] },
};
