// I, Clansman in short, in kamon's own words: the rules and the glossary of the board.

/** The rules in short: [heading, paragraph] pairs. */
export const RULES = [
  ["The aim", "Sixteen generations (rounds), four in each of the 4th to 7th Centuries. Each "
    + "round every player obtains one card. Mission cards give Victory Points (VPs) in five "
    + "colours; the most VPs at the end wins, ties going to the most Iron."],
  ["A round", "New cards come to the Supply (seven at a Century's start, then three). In the "
    + "Marriage phase, starting right of the start player and going counter-clockwise, each "
    + "player's daughter marries: into one of their own clans (free), another player's clan "
    + "or a Royal Prince (paying a Tadokoro as dowry). In the Production phase, clockwise "
    + "from the start player, each player produces and obtains one card."],
  ["Production", "Each Tadokoro gives one worker (and each Miyake too, to a player whose "
    + "daughter married a Royal Prince). Clan cards turn workers into skilled people and "
    + "goods, each card once a round: your own clans without another player's daughter, and "
    + "the card your daughter married into. Once per game a Hero produces at once. Then pay "
    + "a card's cost to obtain it from the Supply or your hand, or take Tadokoro instead "
    + "(two for 2 workers and 1 iron, plus a Supply card into your hand; or one for free)."],
  ["What is kept", "Workers, skilled people and goods vanish at the end of each turn; Iron, "
    + "Statues and Mirrors are kept. A Statue scores 1 VP if you own a temple."],
  ["Expert game", "Kofun cards (one per player, obtained like a Mission; Mirrors you hold go "
    + "under it for 2 VPs each) and one Emperor card per Century that changes its rules, "
    + "all on side A or all on side B."],
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
  ["2W", "Goods", "chips of goods: W worker, So soldier, Ar architect, Mo monk, Bu "
    + "bureaucrat, Cl cloth, Fi fish, Po pork, Pt pot, Ho horse, Fe iron, St statue, Mi "
    + "mirror."],
  ["■", "VP colours", "Military red, Religion yellow, Government purple, Economy green, "
    + "Others white."],
  ["Supply", "Supply", "the face-up cards that can be obtained this Century."],
];

/** No walkthrough for this game yet. */
export const WALKTHROUGH = [];
