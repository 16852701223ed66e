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


def recall_markdown(encodings: list[Encoding]) -> list[str]:
    """The information state's section of docs/OBSERVATIONS.md."""
    out = ["## Information state (perfect recall)", "",
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
