// The White Castle's guided first game: a practice game against an easy bot with a fixed
// deal (seed 1), whose first decisions are explained one by one (tutorial.js shows them).
// With this deal you draft first, then take your first turn; the words of the rules are
// the rulebook's, the suggestion's words the engine's (the payload's choice text).

/** The game the guide is written for (POST /api/games): you against one easy bot. */
export const SETUP = { game: "white-castle", players: 2, seats: ["human", "easy"], seed: 1,
                       options: {} };

const has = prefix => p => p.legal.some(a => a.notation.startsWith(prefix));

/** Before the first decision. */
export const INTRO = {
  title: "Welcome to the White Castle",
  text: () => [
    "A practice game against an easy bot, with a fixed deal. For your first decisions this "
    + "guide points at the board and says what each decision is, what the choices do, and "
    + "what a beginner might choose.",
    "The parts of the board you can choose are highlighted; click one (on a phone: tap it, "
    + "then Play). The list of choices says the same in words. You can always pick "
    + "something else than the suggestion.",
  ],
};

/** One step per decision, in the order they come with this deal. */
export const STEPS = [
  {
    id: "draft", when: has("draft "), suggest: "draft 1",
    title: "Choose a starting pair",
    short: "Each player chooses one pair of Starting cards: its Action card goes on your domain, its Resource card gives resources now and its Lantern reward at every lantern.",
    text: () => [
      "In the opposite order of the turns, each player chooses one pair of Starting cards. "
      + "The Action card goes on your Domain board, beside your three rows; you gain the "
      + "resources of the Resource card, which then goes to your Lantern Area (with the "
      + "Decree card it may grant you).",
      "Its Lantern reward is given again every time you take a die from the lantern end of a "
      + "bridge: choose it with care.",
    ],
  },
  {
    id: "resource-1", when: has("gain "), suggest: "gain pearl",
    title: "Gain your resources",
    short: "Choose a resource: food pays for gardeners, iron for warriors, Mother-of-Pearl moves courtiers up the castle.",
    text: () => [
      "Your Starting Resource card lets you choose resources: food, iron or "
      + "Mother-of-Pearl (each track holds 7 at most).",
      "Food pays for gardeners, iron for warriors; Mother-of-Pearl moves your courtiers up "
      + "the castle (2 for one floor, 5 for two).",
    ],
  },
  {
    id: "resource-2", when: has("gain "), suggest: "gain pearl",
    title: "One more resource",
    short: "The card's second resource: two Mother-of-Pearl let a courtier climb one floor.",
    text: () => [
      "The second resource of your card. With two Mother-of-Pearl, a courtier at the Gate "
      + "can climb one floor of the castle.",
    ],
  },
  {
    id: "take", when: has("take "), suggest: "take coral left",
    title: "Take a die from a bridge",
    short: "Take one die from an end of a bridge; the left, lantern end also gives your Lantern reward.",
    text: () => [
      "Each turn starts by taking one die from the left or right end of a bridge; the dice "
      + "in the middle cannot be taken. The left end, near the lantern, also gives your "
      + "Lantern reward.",
      "The die's colour says which castle rooms can take it (those with a die tile of that "
      + "colour) and which row of your domain; Outside the Walls and the Well take any "
      + "colour. Its value says whether placing it earns or costs coins.",
    ],
  },
  {
    id: "place", when: has("place "), suggest: "place steward1",
    title: "Place the die",
    short: "Put the die on a space that shows a die; its colour chooses the room's actions, its value whether you gain or pay coins.",
    text: () => [
      "Put the die on a space that shows a die: a castle room, Outside the Walls, the Well or "
      + "your personal domain. It covers the number printed there or the die already there "
      + "(the Well always counts as 1): placing a greater value gains the difference in "
      + "coins, a lower one pays it.",
      "In a castle room the die's colour chooses the actions: those beside the Die tile of "
      + "its colour.",
    ],
  },
  {
    id: "block", when: has("block "), suggest: "block steward1 bottom",
    title: "Carry out the room's actions",
    short: "Carry out the room's actions one block at a time, in the order you like.",
    text: () => [
      "The actions of the castle room you placed the die in are carried out in whatever "
      + "order you choose, one block at a time. \"No (more) card blocks\" ends them early: "
      + "you would give up what is left. (Your domain is different: its row's rewards "
      + "first, then the action card's block.)",
    ],
  },
];

/** After the last step. */
export const ALONE = {
  title: "You're on your own now",
  text: () => [
    "That was a whole turn: take a die, place it, carry out its actions. Everyone plays "
    + "three turns a round, three rounds a game.",
    "Hover over or tap anything on the board to see what it is; Help (top right) has the "
    + "rules in short with pictures of the board. Good luck!",
  ],
};
