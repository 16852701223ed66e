// Pig in short, for the Help panel and the lobby: kamon's example game (the folklore dice
// game of the research papers; docs/adding-a-game.md shows how it was added).

/** The rules in short: [heading, paragraph] pairs. */
export const RULES = [
  ["The aim", "Be the first to bank the target score (100 points in the classic game; the "
    + "lobby offers shorter games)."],
  ["A turn", "Roll the die, again and again. A 2 to 6 is added to your turn total and you "
    + "decide again: roll on, or hold. Holding adds the turn total to your score and passes "
    + "the die on. A 1 loses the whole turn total and passes the die on. A turn starts with "
    + "a roll."],
  ["The end", "Whoever's score reaches the target when they hold wins at once."],
  ["About this game", "Pig is a small example game that shows how a game is added to "
    + "kamon; it is not one of kamon's tabletop games. A good simple rule: hold once the "
    + "turn total reaches 20 (a roll then risks as much as it is expected to gain)."],
];

/** The glossary: [symbol, term, meaning]. */
export const GLOSSARY = [
  ["legal", "A choice", "the Roll and Hold buttons, when highlighted, can be chosen now: "
    + "click one (on a phone: tap it, then tap again or press Play)."],
  ["▶", "Whose turn", "the player rolling now; the striped part of their track is the turn "
    + "total at stake."],
];

/** No walkthrough: the game is two buttons. */
export const WALKTHROUGH = [];
