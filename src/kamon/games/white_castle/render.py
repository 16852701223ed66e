"""The White Castle in the terminal: one Rich renderable showing the whole public board.

Read top to bottom it follows the table: the header (round, turn order, who
decides what), the bridges with their gardens, the castle (rooms, Daimyo, gate),
Outside the Walls, the Well and the training yards, then one column per clan.
Everything is public in this game, so `seat` only marks whose view it is.
Light-background card blocks are marked ○ and dark ones ●.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kamon.games.white_castle import actions as A
from kamon.games.white_castle import solo
from kamon.games.white_castle.data import (
    COLOURS,
    ROWS,
    WORKERS,
    Block,
    Effect,
    _card,
    _effects,
    parse_effect,
)
from kamon.games.white_castle.names import component_name, words
from kamon.games.white_castle.state import WhiteCastleState, effect_text

CLAN_STYLE = {"blue": "bold dodger_blue1", "yellow": "bold yellow", "red": "bold red",
              "green": "bold green"}
DIE_STYLE = {"coral": "bold salmon1", "black": "bold grey58", "white": "bold bright_white"}
PHASE_TEXT = {"draft": "choosing starting pairs", "play": "taking turns",
              "gardens": "end of round: gardens activate", "over": "game over"}
# Keys of the printed value under each die space (same order as actions.SPACES).
PRINTED_KEYS = ("steward_room_1", "steward_room_2", "steward_room_3", "diplomat_room_1",
                "diplomat_room_2", "outside_the_walls_left", "outside_the_walls_right", "well")
ROW_WORKERS = ("courtiers", "gardeners", "warriors")  # who stands in each domain row
LIGHT, DARK = "○", "●"


def clan_text(state: WhiteCastleState, p: int, suffix: str = "") -> Text:
    """A clan's colour name, styled in that colour."""
    name = state.name(p)
    return Text(name + suffix, style=CLAN_STYLE.get(name, "bold"))


def die_text(colour: int, value: int) -> Text:
    """A die in words ('coral 3'), styled in its colour."""
    return Text(f"{COLOURS[colour]} {value}", style=DIE_STYLE[COLOURS[colour]])


def effects_text(effects: Iterable[Effect]) -> str:
    """A list of effects in words, joined with '; '."""
    return "; ".join(effect_text(e) for e in effects) or "nothing"


def block_text(blk: Block) -> str:
    """One card block: light/dark marker and its effects."""
    return f"{LIGHT if blk.light else DARK} {effects_text(blk.effects)}"


def join(parts: Sequence[Text], sep: str = ", ", empty: str = "—") -> Text:
    """Join styled texts with a separator (a dim dash when there are none)."""
    if not parts:
        return Text(empty, style="dim")
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.append_text(part)
    return out


def clans_with_counts(state: WhiteCastleState, seats: Iterable[int]) -> Text:
    """Pieces of several clans in one place, e.g. 'blue ×2, red'."""
    counts: dict[int, int] = {}
    for q in seats:
        counts[q] = counts.get(q, 0) + 1
    return join([clan_text(state, q, f" ×{k}" if k > 1 else "") for q, k in
                 sorted(counts.items())])


def dice_on_space(state: WhiteCastleState, s: int) -> Text:
    """The dice on a space, top die first ("coral 1 on coral 6")."""
    stack = state.spaces[s]
    printed = state.data.printed.get(PRINTED_KEYS[s], 0)
    if not stack:
        return Text(f"empty (printed {printed})", style="dim")
    return join([die_text(c, v) for c, v in reversed(stack)], " on ")


def header(state: WhiteCastleState, seat: int | None) -> Text:
    """Round, phase, turn order, the decision being made and the die in hand."""
    t = Text()
    t.append("The White Castle", style="bold")
    t.append(f" · round {state.round} of 3 · {PHASE_TEXT.get(state.phase, state.phase)}")
    if seat is not None:
        t.append(" · you are ")
        t.append_text(clan_text(state, seat))
    t.append("\nTurn order: ")
    current = state.order[state.turn_idx % len(state.clans)] if state.phase == "play" else None
    t.append_text(join([clan_text(state, q, "") if q != current else
                        Text("▶ ").append_text(clan_text(state, q)) for q in state.order], " → "))
    t.append(f"   (steward deck {len(state.steward_deck)}, "
             f"diplomat deck {len(state.diplomat_deck)} cards left)", style="dim")
    t.append("\nNow: ", style="bold")
    t.append(state.decision_text())
    if state.held is not None:
        b, v, left = state.held
        t.append("   in hand: ")
        t.append_text(die_text(b, v))
        t.append(" (from the lantern end)" if left else " (from the right end)")
    return t


def bridges_table(state: WhiteCastleState) -> Table:
    """The three bridges, their dice (lantern end first) and the gardens below them."""
    tb = Table(title="Bridges and gardens", box=box.SIMPLE_HEAD, title_justify="left",
               padding=(0, 1), show_edge=False, expand=True)
    tb.add_column("Bridge", no_wrap=True)
    tb.add_column("Dice (left = lantern end)", no_wrap=True)
    tb.add_column("Gardens below (activate at round end if dice remain)", ratio=1)
    tb.add_column("Gardeners", no_wrap=True)
    d = state.data
    for b, dice in enumerate(state.bridges):
        colour = COLOURS[b]
        if not dice:
            dice_t = Text("empty", style="dim")
        else:
            dice_t = Text("(lantern) ", style="dim")
            if len(dice) == 1 and not state.lone_left[b]:
                dice_t.append("· ", style="dim")
            dice_t.append(" ".join(str(v) for v in dice), style=DIE_STYLE[colour])
        for k in (0, 1):
            g = 2 * b + k
            card = d.gardens[state.garden_cards[g]]
            garden = Text.assemble((f"{card.kind}: ", "bold"), f"{card.food} food → {card.cp} "
                                   f"CP; {effects_text(card.effects)}")
            tb.add_row(Text(colour, style=DIE_STYLE[colour]) if k == 0 else "",
                       dice_t if k == 0 else "", garden,
                       clans_with_counts(state, state.garden_workers[g]))
    return tb


def castle_table(state: WhiteCastleState) -> Table:
    """The five rooms (die tiles with their card blocks, dice, courtiers), Daimyo and gate."""
    tb = Table(title="Castle", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1), show_edge=False,
               expand=True, caption=f"{LIGHT} light-background block   {DARK} dark-background "
               "block   a die activates the blocks whose tile has its colour",
               caption_justify="left")
    tb.add_column("Room", no_wrap=True)
    tb.add_column("Card: die tile → block", ratio=1)
    tb.add_column("Dice on the space", no_wrap=True)
    tb.add_column("Courtiers", no_wrap=True)
    where: dict[int, list[int]] = {loc: [] for loc in range(len(A.LOCS))}
    for p, clan in enumerate(state.clans):
        for loc in clan.courtiers:
            where[loc].append(p)
    d = state.data
    for r in range(5):
        card = d.card(state.room_cards[r])
        cell = Text()
        cell.append(component_name(card.id), style="italic")
        for i, blk in enumerate(card.blocks):
            colour = COLOURS[state.room_tiles[r][i]] if i < len(state.room_tiles[r]) else "?"
            cell.append("\n")
            cell.append(f"{colour:<5}", style=DIE_STYLE.get(colour, ""))
            cell.append(f" {A.BLOCK_NAMES[r][i]}: {block_text(blk)}")
        tb.add_row(A.ROOMS[r], cell, dice_on_space(state, r), clans_with_counts(state, where[r + 1]))
    slots = Text()
    slots.append(component_name(state.daimyo_card), style="italic")
    for s, effects in enumerate(d.daimyo[state.daimyo_card]):
        slots.append(f"\nslot {s + 1}: {effects_text(effects)} — ")
        holder = state.daimyo_slots[s]
        slots.append_text(clan_text(state, holder) if holder is not None else
                          Text("free", style="dim"))
    tb.add_row("daimyo", slots, Text("no dice", style="dim"),
               clans_with_counts(state, where[6]))
    tb.add_row("gate", Text("courtiers who paid for an audience wait here", style="dim"),
               Text("no dice", style="dim"), clans_with_counts(state, where[0]))
    return tb


def outside_table(state: WhiteCastleState) -> Table:
    """Outside the Walls (two spaces) and the Well, with their actions and dice."""
    tb = Table(title="Outside the Walls and the Well", box=box.SIMPLE_HEAD,
               title_justify="left", padding=(0, 1), show_edge=False, expand=True)
    tb.add_column("Space", no_wrap=True)
    tb.add_column("Action", ratio=1)
    tb.add_column("Dice", ratio=1)
    d = state.data
    for i, kinds in enumerate(d.outside):
        s = 5 + i
        tb.add_row(A.SPACES[s], "one of: " + " or ".join(f"{WORKERS[w]} action" for w in kinds),
                   dice_on_space(state, s))
    rewards = ["1 seal"] + [effects_text(d.die_tiles[t][1]) for t in state.well_tiles]
    tb.add_row("well", " + ".join(rewards) + " (any colour, no limit)",
               dice_on_space(state, A.SP_WELL))
    return tb


def yards_table(state: WhiteCastleState) -> Table:
    """The three training yards: iron cost, warrior value, effects and warriors there."""
    tb = Table(title="Training yards", box=box.SIMPLE_HEAD, title_justify="left",
               padding=(0, 1), show_edge=False, expand=True)
    tb.add_column("Yard", no_wrap=True)
    tb.add_column("Cost", no_wrap=True)
    tb.add_column("Worth", no_wrap=True)
    tb.add_column("Effects", ratio=1)
    tb.add_column("Warriors", no_wrap=True)
    d = state.data
    where: dict[int, list[int]] = {y: [] for y in range(len(d.yard_costs))}
    for p, clan in enumerate(state.clans):
        for y in clan.warriors:
            where.setdefault(y, []).append(p)
    for y, cost in enumerate(d.yard_costs):
        tb.add_row(f"yard {y + 1}", f"{cost} iron", f"{d.yard_values[y]} CP",
                   effects_text(state.yard_effects[y]), clans_with_counts(state, where[y]))
    return tb


def passage_line(state: WhiteCastleState) -> Text:
    """The Passage of Time track: each clan's position, season and checkpoint costs."""
    d = state.data
    t = Text("Passage of Time: ", style="bold")
    parts = [Text.assemble(clan_text(state, p), f" {state.clans[p].pos}")
             for p in sorted(range(len(state.clans)), key=lambda q: -state.clans[q].pos)]
    t.append_text(join(parts, ", "))
    cps = sorted(d.checkpoints.items())
    t.append(f"   (pay {'/'.join(str(c) for _, c in cps)} seals to enter "
             f"{'/'.join(str(pos) for pos, _ in cps)}; the farthest clan goes first)",
             style="dim")
    return t


def card_text(state: WhiteCastleState, card_id: str | None) -> Text:
    """A domain action card: its id and each block with the rows it serves."""
    if card_id is None:
        return Text("none yet", style="dim")
    card = state.data.card(card_id)
    t = Text(component_name(card_id), style="italic")
    for blk in card.blocks:
        rows = "any row" if len(blk.rows) == len(ROWS) else "+".join(blk.rows)
        t.append(f"\n{rows}: {block_text(blk)}")
    return t


def clans_table(state: WhiteCastleState, seat: int | None) -> Table:
    """One column per clan: stores, workers, domain dice, action card and lantern area."""
    tb = Table(title="Clans (rows of the domain: workers still there · die placed this round)",
               box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1), show_edge=False,
               expand=True)
    tb.add_column("", style="bold", no_wrap=True, max_width=20)
    for p in range(len(state.clans)):
        tag = " (you)" if p == seat else " (solo rival)" if p == state.rival else ""
        tb.add_column(clan_text(state, p, tag), ratio=1)
    scores = state.scores()
    cols = range(len(state.clans))
    rival = state.rival

    def row(label: str, cells: Iterable[Text | str]) -> None:
        """Add one labelled row with a cell per clan."""
        tb.add_row(label, *cells)

    row("Coins / seals", (f"{state.clans[p].coins} / {state.clans[p].seals}" if p != rival
                          else f"{state.clans[p].coins} (turned into CP each round)"
                          for p in cols))
    row("CP now / if ended", (f"{state.clans[p].cp} / {scores[p]['total']}" for p in cols))
    row("Food / iron / pearl", (" / ".join(str(x) for x in state.clans[p].res) if p != rival
                                else "never gains resources" for p in cols))
    row("Passage of Time", (f"{state.clans[p].pos} · season {state.season(state.clans[p].pos)} "
                            f"· {state.data.passage_cp[state.clans[p].pos]} CP" for p in cols))
    for b, colour in enumerate(COLOURS):
        cells = []
        for p in cols:
            clan = state.clans[p]
            die = clan.domain[b]
            if p == rival:
                cells.append(Text(f"{clan.left[b]} {ROW_WORKERS[b]} left"))
                continue
            cells.append(Text(f"{clan.left[b]} {ROW_WORKERS[b]} · ").append_text(
                die_text(*die) if die else Text("no die", style="dim")))
        row(f"{ROWS[b].capitalize()} row ({colour})", cells)
    row("Action card", (card_text(state, state.clans[p].card) if p != rival else
                        Text(solo_deck_text(state), style="italic") for p in cols))
    row("Lantern area", (Text(effects_text(state.lantern_icons(p))) if p != rival else
                         Text("—", style="dim") for p in cols))
    return tb


def render(state: WhiteCastleState, seat: int | None = None) -> RenderableType:
    """The whole board as one Rich renderable (about 120 columns wide at its best)."""
    return Group(
        header(state, seat),
        bridges_table(state),
        castle_table(state),
        outside_table(state),
        yards_table(state),
        passage_line(state),
        clans_table(state, seat),
    )


# ------------------------------------------------------------------ browser component texts

SOLO_ICON_TEXT = {"courtier_to_gate": "a rival courtier goes to the Gate (free)"}


def _raw_json(name: str) -> Any:
    """One packaged data file, parsed (the fact sheet keeps every item's confidence)."""
    return json.loads(resources.files("kamon.games.white_castle").joinpath(
        f"data/{name}").read_text(encoding="utf-8"))


def effect_short(e: Effect) -> str:
    """An effect in a few characters, for the small print on the browser board."""
    kind = e[0]
    if kind == "gain":
        return " ".join(f"+{n} {'CP' if k == 'cp' else k}" for k, n in e[1])
    if kind == "choice":
        return f"+{e[1]} any res."
    if kind == "pay":
        return f"pay {'+'.join(f'{n} {k}' for k, n in e[1])}: {effect_short(e[2])}"
    if kind == "passage":
        return f"+{e[1]} Passage"
    if kind == "die_tile":
        return f"{e[1]} tile action"
    return {"courtier": "Courtier", "gardener": "Gardener", "warrior": "Warrior",
            "lantern": "Lantern", "well": "Well", "light": "light action",
            "domain": "domain action"}[kind]


def _shorts(effects: Iterable[Effect]) -> str:
    return ", ".join(effect_short(e) for e in effects) or "nothing"


def _entry(text: str, confidence: Any, **extra: str) -> dict[str, str]:
    conf = str(confidence or "unknown")
    if any(w in conf for w in ("reconstructed", "inferred", "unknown")):
        text += f" [{conf}: not read from the printed game]"
    return {"text": text, "confidence": conf, **extra}


def _card_entries(raw: dict[str, Any], what: str, out: dict[str, dict[str, str]]) -> None:
    """A castle or starting-action card: every block (rows, background, effects) and its back."""
    card = _card(raw)
    blocks = []
    extra: dict[str, str] = {}
    for i, blk in enumerate(card.blocks):
        rows = "any row" if len(blk.rows) == len(ROWS) else "+".join(blk.rows) + " row"
        shade = "light" if blk.light else "dark"
        blocks.append(f"{rows} ({shade} background): {effects_text(blk.effects)}")
        extra[f"block{i + 1}"] = _shorts(blk.effects)
        extra[f"block{i + 1}_shade"] = shade
        extra[f"block{i + 1}_rows"] = " ".join(blk.rows)
    back = effect_text(card.lantern) if card.lantern else "nothing"
    extra["lantern"] = effect_short(card.lantern) if card.lantern else ""
    text = f"{component_name(card.id)}{what}" + (" (3-4 players only)" if card.diamond else "")
    if blocks:
        text += ". Blocks: " + "; ".join(blocks)
    text += f". In the Lantern Area it gives: {back}."
    out[card.id] = _entry(text, raw.get("confidence"), **extra)


def component_texts() -> dict[str, dict[str, str]]:
    """Every component id a view can show, with what it is/does in words and its confidence.

    Castle, starting and decree cards also carry `blockN` (short effects), `blockN_shade`
    (light/dark), `blockN_rows` and `lantern` (short back icon), for the board's small print.
    """
    raw = _raw_json("components.json")
    out: dict[str, dict[str, str]] = {}
    cc = raw["castle_cards"]
    for c in cc["steward"]:
        _card_entries(c, " (floor 1)", out)
    for c in cc["diplomat"]:
        _card_entries(c, " (floor 2)", out)
    for c in cc["daimyo_favor"]:
        slots = sorted(c["slots"], key=lambda s: s["slot"])
        parts = {f"slot{s['slot']}": _shorts(_effects(s["effects"], c["id"])) for s in slots}
        text = (f"The {c['id']}: a courtier reaching the Daimyo's room may "
                "take a free slot, once, for ever. " + "; ".join(
                    f"slot {s['slot']}: {effects_text(_effects(s['effects'], c['id']))}"
                    for s in slots))
        out[c["id"]] = _entry(text, c.get("confidence"), **parts)
    sc = raw["starting_cards"]
    for c in sc["starting_resource"]:
        gains = effects_text(_effects(c["on_take"], c["id"]))
        lantern = parse_effect(c["lantern_icon"], c["id"])
        text = (f"{c['id']}: take {gains}"
                + (f", plus the decree {c['decree']}" if c.get("decree") else "")
                + f". Then it lies in the Lantern Area giving {effect_text(lantern)}.")
        out[c["id"]] = _entry(text, c.get("confidence"), gains=_shorts(
            _effects(c["on_take"], c["id"])), lantern=effect_short(lantern),
            decree=c.get("decree") or "")
    for c in sc["starting_action"]:
        _card_entries(c, "", out)
    for c in sc["decree"]:
        _card_entries(c, " (no action)", out)
    for t in raw["die_tiles"]["tiles"]:
        reward = _effects(t["reward_side"], t["id"])
        text = (f"The {t['id']}: {t['colour_side']} side in a castle room (a "
                f"{t['colour_side']} die may activate the block beside it); at the Well it "
                f"lies reward side up and every Well visit gives {effects_text(reward)}.")
        out[t["id"]] = _entry(text, t.get("confidence"), colour=t["colour_side"],
                              reward=_shorts(reward))
    ty = raw["training_yards"]
    for y in ty["yards"]:
        out[y["id"]] = _entry(
            f"Training yard {y['id'][-1]}: a Warrior action here costs {y['iron_cost']} iron, "
            f"then gives the yard's tile effects; each warrior here scores {y['warrior_value']} "
            "CP per own courtier inside the castle at the end.", y.get("confidence"))
    for t in ty["tiles"]:
        front = _effects(t["front"]["effects"], t["id"])
        back = _effects(t["back"]["effects"], t["id"])
        out[t["id"]] = _entry(f"Yard tile {t['id']}: action side {effects_text(front)}; "
                              f"reward side {effects_text(back)}.", t.get("confidence"))
    for g in raw["gardens"]["cards"]:
        eff = _effects(g["effects"], g["id"])
        out[g["id"]] = _entry(
            f"{g['id']}: a gardener here costs {g['food_cost']} "
            f"food, then gives {effects_text(eff)}; after rounds 1 and 2 it gives that again if "
            f"its bridge still has dice; {g['cp']} CP per gardener at the end.",
            g.get("confidence"), effects=_shorts(eff))
    for s in raw["board"]["action_spaces"]:
        out[s["id"]] = _entry(f"Die space {s['id'].replace('_', ' ')}: printed value "
                              f"{s.get('printed_value')}. A higher die gains the difference in "
                              "coins, a lower die pays it.", s.get("confidence"))
    for row in raw["personal_domain"]["rows"]:
        colour, worker = row["die_colour"], row["worker"]
        vis = parse_effect(row["always_visible_reward"], colour)
        out[f"domain_{colour}"] = _entry(
            f"Domain {row['row']} row ({colour} dice, {worker}s): a {colour} die here covers "
            "a printed 6 (a lower die pays the difference), then gives, in this order, "
            f"{effect_text(vis)} plus every space its {worker}s have uncovered, then the action "
            "card's block for this row.", row.get("confidence"), short=effect_short(vis))
        for cell in row["spaces_under_workers"]:
            eff = parse_effect(cell["reward"], colour)
            out[f"domain_{colour}_{cell['space']}"] = _entry(
                f"Space {cell['space']} under the {worker}s: once {cell['space']} of your "
                f"{worker}s have left the domain, each {colour} domain action also gives "
                f"{effect_text(eff)}.", cell.get("confidence"), short=effect_short(eff))
    for s in raw["passage_of_time"]["spaces"]:
        cp = s["checkpoint_to_enter"]["pay"]["seal"] if s.get("checkpoint_to_enter") else 0
        out[f"passage_{s['position']}"] = _entry(
            f"Passage of Time space {s['position']} (season {s['season']}): "
            f"{s['end_game_cp']} CP at the end" + (f"; entering it costs {cp} seal{'s' if cp > 1 else ''}" if cp else "")
            + ".", s.get("confidence"))
    castle = raw["board"]["castle"]
    out["gate"] = _entry("The Gate: courtiers who paid 2 coins for an audience wait here (1 CP "
                         "each at the end); from here they climb 1 floor for 2 pearl or 2 "
                         "floors for 5 pearl.", castle["gate"].get("confidence"))
    for c in _raw_json("solo_deck.json")["cards"]:
        bridge, side = c["bridge_side"], c["action_side"]
        icons = "; then ".join(_solo_icon(a) for a in side["actions"])
        text = (f"{c['id']}. Bridge side: the rival takes the {bridge['die_colour']}"
                f" die at the {bridge['bridge_position']} of its bridge and puts it on "
                f"{bridge['destination'].replace('_', ' ')}. Action side: {icons}.")
        conf = f"bridge side {bridge['confidence']}; action side {side['confidence']}"
        out[c["id"]] = _entry(text, conf)
    for cid, entry in out.items():  # the words a player reads: the rulebook's names
        entry["text"] = words(entry["text"])
        if component_name(cid) != cid:
            entry["name"] = component_name(cid)
    return out


def _solo_icon(a: dict[str, Any]) -> str:
    """A Solitaire card icon in words."""
    icon = a["icon"]
    if icon == "place_gardener":
        return f"a rival gardener on the cheapest free {a['garden']} garden"
    if icon == "place_warrior":
        return f"a rival warrior in the {a['yard_iron']}-iron yard (free)"
    if icon == "courtier_climb":
        return f"the rival's lowest courtier climbs {a['levels']} floor(s)"
    if icon in ("gain_cp", "gain_coins", "passage"):
        noun = {"gain_cp": "CP", "gain_coins": "coins", "passage": "Passage of Time steps"}[icon]
        return f"{a['n']} {noun}"
    return SOLO_ICON_TEXT.get(icon, icon)


def solo_deck_text(state: WhiteCastleState) -> str:
    """The Solitaire deck as the player sees it: its size and the Bridge side on top (the
    rest of its order is hidden)."""
    top = solo.top_face_view(state)
    text = f"Solitaire deck: {len(state.solo_deck)} cards"
    if top is None:
        return text
    return (f"{text}; on top, Bridge side up: the {top['colour_name']} die at the "
            f"{top['position']}, to {top['destination_name']} (order below hidden)")
