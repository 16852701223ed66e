// The White Castle in short, in kamon's own words: the rules, the glossary of what the board
// draws, and a walkthrough of a first game's first three decisions.

/** The rules in short: [heading, paragraph] pairs. */
export const RULES = [
  ["The aim", "Three rounds; whoever has the most Clan Points (CP) at the end wins. You earn "
    + "them during play and, at the end, for your courtiers in the castle, your warriors, "
    + "your gardeners, the Passage of Time, and what you have left."],
  ["A turn", "Take one die from an end of a bridge (only the two end dice can be taken; the "
    + "left, lantern end also gives your Lantern reward) and put it on a space that shows a "
    + "die: a castle room, Outside the Walls, the Well or the row of your domain in the "
    + "die's colour. A die always covers a number: the printed one or a die already there. "
    + "Covering a lower number earns the difference in coins; covering a higher one costs "
    + "it. Then do what the space gives, in the order you like. Everyone plays three turns a "
    + "round."],
  ["The castle", "A room's card has blocks beside die tiles: a die activates the blocks "
    + "whose tile has its colour (a steward room may give two). Courtiers enter at the Gate "
    + "(an audience costs 2 coins) and climb with pearl: 2 for one floor, 5 for two. A "
    + "courtier who reaches floor 1 or 2 swaps your action card for the room's card; one "
    + "who reaches the Daimyo's room takes a favour."],
  ["Your domain", "A die in your domain counts as a 6. It gives the row's visible rewards "
    + "(what your departed workers uncovered) and then the block of your action card beside "
    + "that row. Workers leave from the left: courtiers go to the castle, gardeners to the "
    + "gardens (paid in food), warriors to the training yards (paid in iron)."],
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
    + "covers the number or the die beneath."],
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
    + "reward it adds to your Lantern area for the whole game) with an action card (it sits "
    + "on your domain, beside your three rows). Players choose in reverse turn order. A good "
    + "Lantern reward pays again every time you take a die from a lantern end.",
   p => (p.view.draft_pairs || []).some(x => x) && p.view.phase === "draft" ? "draft"
     : (p.you !== null ? `domain-${p.you}` : "castle")],
  ["Take a die from a bridge", "Only the die at either end of a bridge can be taken. The "
    + "left end is the lantern end: it also gives your Lantern reward. The colour decides "
    + "where the die is useful (the rooms' die tiles of that colour, your domain row); its "
    + "value, whether placing it earns or costs coins.", () => "river"],
  ["Place it and choose what it does", "Put the die on a castle room (its blocks beside "
    + "tiles of the die's colour), Outside the Walls (a worker action), the Well (a seal "
    + "and the two Well tiles) or your domain row of its colour (counts as a 6). Then pick "
    + "the blocks or effects one by one, in your order; \"done\" skips an optional one.",
   () => "castle"],
];
