// I, Clansman's guided first game: a practice game against three easy bots with a fixed
// deal (seed 1, the Beginner game), whose first round's decisions are explained one by one
// (tutorial.js shows them). With this deal your daughter marries fourth, then you produce
// first: use a clan card, then obtain a card.

/** The game the guide is written for (POST /api/games): you and three easy bots. */
export const SETUP = { game: "clansman", players: 4, seats: ["human", "easy", "easy", "easy"],
                       seed: 1, options: {} };

const has = prefix => p => p.legal.some(a => a.notation.startsWith(prefix));
const obtaining = p => p.legal.some(a => a.notation.startsWith("obtain 4"));

/** Before the first decision. */
export const INTRO = {
  title: "Welcome to I, Clansman",
  text: () => [
    "A practice game against three easy bots, with a fixed deal. In this first round the "
    + "guide points at the table and says what each of your decisions is, what the choices "
    + "do, and what a beginner might choose.",
    "Each round has a Marriage phase and a Production phase. What you can choose is "
    + "highlighted; click it (on a phone: tap it, then Play). You can always pick something "
    + "else than the suggestion.",
  ],
};

/** One step per decision, in the order they come with this deal. */
export const STEPS = [
  {
    id: "marry", when: has("marry "), suggest: "marry 300 blue",
    title: "Marry your daughter",
    short: "Put your daughter on a Clan card: your own is free, another player's clan or a Royal Prince costs one Tadokoro.",
    text: () => [
      "A Gozoku makes his daughter marry to a clan: put her on a Clan card in your own "
      + "tableau (free), on another player's Clan card or on a Royal Prince (either way you "
      + "pay one Tadokoro as her dowry).",
      "The card she marries into is one you may use this round; on a Royal Prince the Miyake "
      + "give you workers too. Each Tadokoro you keep gives a worker every Production.",
    ],
  },
  {
    id: "convert", when: has("convert "), suggest: "convert 300 blue soldier",
    title: "Produce: use your clans",
    short: "Your Tadokoro gave you workers; each Clan card converts them once a round into skilled labourers or goods.",
    text: () => [
      "In your Production turn each Tadokoro gives you a worker. Clan cards convert workers "
      + "into skilled labourers or goods, each card once a round; a Hero (once a game) "
      + "produces at once.",
      "Workers, skilled labourers and goods vanish at the end of your turn (Iron and "
      + "Statues are kept): convert what pays for the card you want to obtain.",
    ],
  },
  {
    id: "obtain", when: obtaining, suggest: "obtain 404",
    title: "Obtain the round's card",
    short: "Pay a card's cost to obtain it: this ends your Production turn.",
    text: () => [
      "Pay a card's cost to obtain it from the Supply (or your hand): a Clan card joins your "
      + "Clan cards row and converts from next round on; a Mission card gives the Victory "
      + "Points of its colour (some an Iron or a Mirror too). Or take Tadokoro instead, for "
      + "more workers later.",
      "Obtaining ends your Production turn.",
    ],
  },
];

/** After the last step. */
export const ALONE = {
  title: "You're on your own now",
  text: () => [
    "That was a whole round for you: marry, produce, obtain. Sixteen rounds make a game; the "
    + "most Victory Points win.",
    "Hover over or tap any card to read it; Help (top right) has the rules in short with "
    + "pictures of the table. Good luck!",
  ],
};
