"""docs/OBSERVATIONS.md, written from the observation field tables of every game with an
`observation` slot: `python -m kamon.rl.docs [PATH]` (no PATH: print it; a test checks
the file matches)."""

from __future__ import annotations

import sys
from pathlib import Path

from kamon.rl.encoding import REWARD_MODES, Encoding, encoding, observed_games
from kamon.rl.recall import SLOTS, layout


def markdown() -> str:
    """docs/OBSERVATIONS.md: every game's observation fields and the reward modes."""
    out = ["# Observations and rewards of the research interfaces", "",
           "Generated from each game's field table (its `observation` slot, "
           "`src/kamon/games/<game>/observation.py`) by "
           "`python -m kamon.rl.docs` (a test checks this file matches). PettingZoo "
           "(`observation`), Gymnasium (the observation) and OpenSpiel (the observation "
           "tensor, and the information-state tensor's parts) all use these vectors.", "",
           "Every vector is float32 with values in [0, 1], built only from "
           "`state.view(seat)`: what that seat may see (the order of shuffled decks and "
           "piles is never in it). Counts are divided by a cap and clipped at 1 (the "
           "`cap` column: one cap, or one per value; the encoders read it from the same "
           "table); one-hot and multi-hot fields are 0/1. Players are seen from the "
           "observer: slot `k` is the seat `(seat + k) mod clans`, so slot 0 is always the "
           "observer. A field repeated per slot is listed once as `name[k]`; its values for "
           "slot `k` start at `start + k * stride`.", "",
           "The action mask (PettingZoo `action_mask`, Gymnasium `info['action_mask']` and "
           "`action_masks()`) is 1 for each legal action id of `GAME.num_actions` "
           "(the notation of id `i` is `GAME.action_text(i)`).", "",
           "## Rewards", "",
           "Rewards come only at the end of a game (`reward=` option):", ""]
    for mode, text in REWARD_MODES.items():
        out.append(f"- `{mode}`: {text}")
    out.append("")
    names = sorted(observed_games())
    out += chance_markdown()
    out += recall_markdown([encoding(name) for name in names])
    for name in names:
        enc = encoding(name)
        out += [f"## {enc.game.title} (`{name}`): {enc.size} values, "
                f"{enc.num_actions} actions", "",
                f"Margin scale (the `margin` reward): {enc.margin_scale:g} points.", "",
                "| field | slice | cap | meaning |", "|---|---|---|---|"]
        for f in enc.fields:
            if f.repeat > 1:
                where = (f"{f.start}:{f.start + f.size} + {f.stride}k "
                         f"(k < {f.repeat})")
            else:
                where = f"{f.start}:{f.start + f.size}"
            out.append(f"| `{f.name}` | {where} | {f.cap_text} | {f.meaning} |")
        out += ["", "Vocabularies (the order the one-hot and multi-hot fields follow):", ""]
        for vocab, items in enc.spec.vocabularies.items():
            out.append(f"- `{vocab}` ({len(items)}): " + ", ".join(items))
        out.append("")
    return "\n".join(out)


def chance_markdown() -> list[str]:
    """The section of docs/OBSERVATIONS.md on what is hidden, when it is revealed, and the
    OpenSpiel games' two chance modes."""
    return [
        "## Chance: what is hidden, and when", "",
        "No seat holds private information: hands, domains and boards are public (so every "
        "seat's observation is built from the same view). What nobody sees is the future: "
        "the order of the shuffled decks and piles and the dice not yet rolled.", "",
        "- The White Castle: the steward and diplomat decks (a card is seen when it refills "
        "a room); the dice of the next rounds (rolled when a round is prepared); in the "
        "solo game the order of the Solitaire deck between its top card, which lies Bridge "
        "side up (each Bridge face is on one card only, so the top card is known), and "
        "the cards the rival turned and put under it this round (seen by all); the deck "
        "is reshuffled every round.",
        "- I, Clansman: the four century piles, 4th to 7th (a card is seen when it comes to "
        "the Supply); nothing random happens after the set-up but these draws.",
        "- Pig: the die, rolled at each `roll`.", "",
        "The set-up itself (the deal) is one public layout. OpenSpiel's games have a "
        "`chance` parameter:", "",
        "- `explicit` (the default): `PERFECT_INFORMATION` with `EXPLICIT_STOCHASTIC` "
        "chance. The deal is the root chance node; after it the state holds no deck order "
        "and no future roll (`kamon.core.chance.ChanceState`: the unseen cards of a pile "
        "are kept sorted, the generator is a constant). Each card drawn is a chance node "
        "whose outcomes are the distinct unseen cards of its pile, each `copies / unseen` "
        "likely (outcome id: the card's index in its pile's sorted card list); each die "
        "(any draw `Rng.below(n)` of the engine) a node of `n` outcomes of `1/n`; a node "
        "with one outcome is taken at once, and a shuffle of a hidden pile is no node "
        "(drawing lazily from it is the same distribution). The Solitaire cards the rival "
        "turned and put under the deck stay known there, in order, until the deck is "
        "reshuffled (a test follows seeded engine games node by node, the solo game "
        "included). The observation tensor is the whole "
        "position; the information-state string is the observation and the history (every "
        "action and outcome); there is no information-state tensor (`chance=\"root\"` "
        "has it). For search on the true model: OpenSpiel's Python `MCTSBot` (it samples "
        "chance nodes), `minimax.expectiminimax`, Stochastic-MuZero-style planners.",
        "- `root`: the one-seed model, `IMPERFECT_INFORMATION`: one chance node, the deal "
        "(65,536 outcomes, each a kamon seed), after which the engine's own seeded "
        "generator and the dealt deck orders fix every draw and roll (in the state, seen "
        "by no player). Games are reproducible from the seed, which is what batch "
        "simulation wants; PettingZoo, Gymnasium and the VectorEnv always work this way. "
        "The information state has perfect recall (below); use ISMCTS "
        "(`resample_from_infostate` re-samples the hidden orders and rolls) or the "
        "CFR family. Plain MCTS here searches the true state and sees the future.", "",
        "Explicit chance costs 2-5x the root mode's time per decision through OpenSpiel "
        "in random play (each decision is replayed on a copy, once more per chance node; "
        "`bench/bench_chance.py`, figures in the module's docstring).", ""]


def recall_markdown(encodings: list[Encoding]) -> list[str]:
    """The information state's section of docs/OBSERVATIONS.md."""
    out = ["## Information state (perfect recall)", "",
           "In the root chance mode, "
           "OpenSpiel's `information_state_tensor` / `information_state_string` hold what "
           "the player has seen and done since the deal (`kamon.rl.recall`): the position "
           "after the deal, every decision since (actor and action: all public), and the "
           "position after each decision that revealed something (a card drawn, dice "
           "rolled, a Solitaire card turned: the game's `hidden_key` changed). Every other "
           "decision reveals nothing, so what the player sees after it follows from what "
           "they saw before and the action; the record is exactly the player's history of "
           "observations and actions. The observation tensor stays the observation now.", "",
           "The tensor, in order:", "",
           "1. `observation`: the observation now (the table of the game below);",
           "2. `actions`: one row per decision, oldest first (all 0 past the last): the "
           "actor's slot seen from the player, one-hot over 4 (slot `(actor - player) mod "
           "seats`; in the solo game always 0), then the action id in binary, lowest bit "
           "first;",
           "3. `reveals`: one row per revealing decision, row 0 the deal: 1 (present), the "
           "number of decisions taken by then (0 for the deal) / the row count of "
           "`actions`, then the "
           "observation of that moment (the same encoding).", "",
           "The string is the observation now, then `deal:` and the non-zero fields of the "
           "deal's observation, then one line per decision (`number pSEAT notation`), each "
           "reveal followed by the fields that changed since the previous reveal (and the "
           "indices that became 0). A game longer than a bound is "
           "refused with a clear error, not truncated.", "",
           "| game | observation | action rows | reveal rows | tensor |", "|---|---|---|---|---|"]
    for enc in encodings:
        lay = layout(enc)
        out.append(f"| `{enc.game_name}` | {lay.obs} | {lay.max_decisions} x "
                   f"({SLOTS} + {lay.bits}) | {lay.max_reveals + 1} x (2 + {lay.obs}) | "
                   f"{lay.size} |")
    out.append("")
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the document, or write it to the path given."""
    args = sys.argv[1:] if argv is None else argv
    text = markdown() + "\n"
    if args:
        Path(args[0]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
