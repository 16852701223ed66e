"""I, Clansman in the terminal: one Rich renderable showing the whole public table.

Read top to bottom it follows the table: the header (mode, round and century,
start player, who decides what, the producing seat's pool), the centre (century
piles as counts only, the Supply, Royal Princes and the Miyake row, Heroes,
Kofun and Emperor cards), then one column per Gozoku with his Clan cards row,
Tadokoro, Missions, hand (hands are public, R08), items and VPs by colour.
Cards whose text is reconstructed or unknown are marked †.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kamon.games.clansman.data import GOODS, VP_COLOURS, WEAK, Card, load_data
from kamon.games.clansman.state import ClansmanState, goods_text, uses_text

SEAT_STYLE = {"blue": "bold dodger_blue1", "orange": "bold dark_orange", "teal": "bold cyan",
              "pink": "bold hot_pink"}
VP_STYLE = {"military": "red", "religion": "yellow", "government": "magenta",
            "economy": "green", "others": "bright_white"}
ORDINAL = {4: "4th", 5: "5th", 6: "6th", 7: "7th"}
PHASE_TEXT = {"marriage": "Marriage phase", "production": "Production phase",
              "over": "game over"}
DAUGHTER = "♀"


def seat_text(state: ClansmanState, p: int, suffix: str = "") -> Text:
    """A seat's colour name, styled in that colour."""
    name = state.name(p)
    return Text(name + suffix, style=SEAT_STYLE.get(name, "bold"))


def card_line(state: ClansmanState, cid: str, cost: bool = True) -> Text:
    """'412 Contribution — 1 pork: 1 economy VP + 1 iron' (styled by VP colour)."""
    c = state.data.cards[cid]
    t = Text(c.label, style="bold")
    if cost and c.costs:
        t.append(" — " + " or ".join(goods_text(x) for x in c.costs), style="dim")
    if c.vp_colour is not None:
        t.append(": ")
        t.append(f"{c.vp} {c.vp_colour}", style=VP_STYLE.get(c.vp_colour, ""))
        if c.items:
            t.append(f" + {goods_text(c.items)}")
    elif c.uses:
        t.append(": " + uses_text(c))
    return t


def daughters_on(state: ClansmanState, owner: int, cid: str) -> Text:
    """The daughter on a card, if any (' ♀teal')."""
    q = state.occupant(owner, cid)
    if q is None:
        return Text()
    return Text(" ").append_text(seat_text(state, q, "").copy()).append(
        DAUGHTER, style=SEAT_STYLE.get(state.name(q), "bold"))


def header(state: ClansmanState, seat: int | None) -> Text:
    """Mode, round, phase, start player, the decision and the producing seat's pool."""
    t = Text()
    t.append("I, Clansman", style="bold")
    opts = state.options
    if state.expert:
        t.append(f" · Expert, Emperor side {opts.get('emperor_side', 'A')}")
    else:
        t.append(" · Beginner")
    if state.is_over():
        t.append(" · game over")
    else:
        t.append(f" · round {state.round} of {state.data.rules.rounds} "
                 f"({ORDINAL.get(state.century, state.century)} Century) · "
                 f"{PHASE_TEXT.get(state.phase, state.phase)}")
    if seat is not None:
        t.append(" · you are ")
        t.append_text(seat_text(state, seat))
    if state.small_table:
        t.append("\nUNOFFICIAL small-table variant (2-3 players, RULES_NOTES R35)",
                 style="bold yellow")
    if opts.get("emperor_variant"):
        t.append(f"\nUNOFFICIAL Emperor variant: {opts['emperor_variant']} in play (R32)",
                 style="bold yellow")
    t.append("\nStart player: ")
    t.append_text(seat_text(state, state.start))
    t.append("   Production order: ")
    for i in range(state.n):
        q = (state.start + i) % state.n
        if i:
            t.append(" → ")
        if q == state.to_move:
            t.append("▶ ")
        t.append_text(seat_text(state, q))
    t.append("\nNow: ", style="bold")
    t.append(state.decision_text())
    if state.phase == "production" and state.to_move is not None:
        used = ", ".join(state.used) or "none"
        t.append(f"\nCards used this round: {used}", style="dim")
    return t


def centre(state: ClansmanState) -> Table:
    """Piles, Supply, Royal Princes and Miyake row, Heroes, Kofun, Emperors, Bank."""
    tb = Table(title="Centre of the table", box=box.SIMPLE_HEAD, title_justify="left",
               show_header=False, padding=(0, 1), show_edge=False, expand=True)
    tb.add_column("Area", style="bold", no_wrap=True)
    tb.add_column("Contents", ratio=1)
    piles = "   ".join(f"{ORDINAL[c]}: {len(p)}" for c, p in zip((4, 5, 6, 7), state.piles,
                                                                   strict=True))
    tb.add_row("Century piles", Text(piles + "   (face down; order hidden)", style="dim"))
    supply = Text()
    for i, cid in enumerate(state.supply):
        if i:
            supply.append("\n")
        supply.append_text(card_line(state, cid))
    tb.add_row(f"Supply ({len(state.supply)})", supply if state.supply else
               Text("empty", style="dim"))
    princes = Text()
    for i, face in enumerate(state.princes):
        if i:
            princes.append("\n")
        princes.append_text(card_line(state, face, cost=False))
        princes.append_text(daughters_on(state, -1, face))
    tb.add_row("Royal Princes", princes)
    tb.add_row("Miyake row", Text(f"{state.miyake} Miyake (1 worker each to a Royal Prince's "
                                  f"in-law), {state.miyake_row} Tadokoro (count nothing; "
                                  f"flip at {state.data.rules.flip_at})"))
    heroes = ", ".join(state.data.cards[h].label + " (" + goods_text(
        state.data.cards[h].uses[0].out) + ")" for h in state.heroes) or "none left"
    tb.add_row("Heroes", heroes)
    if state.expert:
        kofun = Text()
        for i, k in enumerate(state.kofun):
            if i:
                kofun.append("\n")
            c = state.data.cards[k]
            kofun.append_text(card_line(state, k))
            kofun.append(f" (+{c.mirror_vp_each} per Mirror under it)", style="dim")
        tb.add_row("Kofun", kofun if state.kofun else Text("none left", style="dim"))
        emp = Text()
        for i, face in enumerate(state.emperors):
            if i:
                emp.append("\n")
            c = state.data.cards[face]
            emp.append(f"{ORDINAL.get(c.century or 0, '?')}: ")
            emp.append(c.label, style="bold")
            if face in state.set_aside:
                emp.append(" — nobody led alone: set aside", style="dim")
            else:
                owner = next((q for q, g in enumerate(state.players)
                              if face in g.emperors or face in g.clans), None)
                if owner is not None:
                    emp.append(" — won by ")
                    emp.append_text(seat_text(state, owner))
            emp.append(f"  {emperor_rule(state, face)}", style="dim")
        tb.add_row("Emperor cards", emp)
    total = state.data.rules.tadokoro_cards
    bank = (f"{state.bank_tadokoro} of the {total} Tadokoro cards" if state.bank_tadokoro >= 0
            else f"all {total} Tadokoro cards out, {-state.bank_tadokoro} substitutes in use")
    tb.add_row("Bank", Text(f"{bank}; Tadokoro, Iron, Mirror and Statue never run out (R02)",
                            style="dim"))
    return tb


def emperor_rule(state: ClansmanState, face: str) -> str:
    """An Emperor card's effect in a few words."""
    return emperor_rule_text(state.data.cards[face])


def tableau(state: ClansmanState, seat: int | None) -> Table:
    """One column per Gozoku: clans, Tadokoro, Missions, hand, items, VPs."""
    tb = Table(title="Gozoku", box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1),
               show_edge=False, expand=True)
    tb.add_column("", style="bold", no_wrap=True)
    scores = state.scores()
    for p in range(state.n):
        head = seat_text(state, p, " (you)" if p == seat else "")
        if p == state.start:
            head.append(" ★")
        tb.add_column(head, ratio=1)
    cards = state.data.cards

    def cell(p: int, ids: list[str], owner_marks: bool = False) -> Text:
        """A column cell listing cards (with the daughters on them for a Clan row)."""
        t = Text()
        for i, cid in enumerate(ids):
            if i:
                t.append("\n")
            t.append(cards[cid].label)
            if owner_marks:
                t.append_text(daughters_on(state, p, cid))
        return t if ids else Text("—", style="dim")

    tb.add_row("Clan cards", *(cell(p, g.clans, True) for p, g in enumerate(state.players)))
    tb.add_row("Tadokoro", *(str(g.tadokoro) for g in state.players))
    tb.add_row("Missions", *(cell(p, g.missions) for p, g in enumerate(state.players)))
    extra = []
    for g in state.players:
        parts = [x for x in (g.kofun and f"Kofun {cards[g.kofun].label}",
                             g.hero and f"Hero {cards[g.hero].label}") if x]
        parts += [f"Emperor {cards[e].label}" for e in g.emperors]
        extra.append("\n".join(parts) or "—")
    tb.add_row("Kofun/Hero", *extra)
    tb.add_row("Hand", *(cell(p, g.hand) for p, g in enumerate(state.players)))
    items = []
    for g in state.players:
        t = f"iron {g.iron}, statue {g.statue}, mirror {g.mirror}"
        if state.expert:
            t += f" (+{g.kofun_mirrors} under Kofun)"
        items.append(t)
    tb.add_row("Items", *items)
    daughter = []
    for p, d in enumerate(state.daughters):
        if d is None:
            daughter.append("home")
        elif d[0] < 0:
            daughter.append(f"Royal Prince {d[1]}")
        else:
            daughter.append(("own " if d[0] == p else f"{state.name(d[0])}'s ") + d[1])
    tb.add_row("Daughter", *daughter)
    vps = []
    for p in range(state.n):
        by = state.vp_by_colour(p)
        vp = Text()
        for colour in VP_COLOURS:
            if by[colour]:
                vp.append(f"{colour[:3]} {by[colour]} ", style=VP_STYLE[colour])
        if not state.expert and state.players[p].mirror:
            vp.append(f"mirrors {state.players[p].mirror} ")
        vp.append(f"= {scores[p]['total']}", style="bold")
        vps.append(vp)
    tb.add_row("VPs", *vps)
    return tb


def pool_line(state: ClansmanState) -> Text:
    """The producing seat's workforce and the cards it may still use."""
    p = state.to_move
    t = Text()
    if p is None or state.phase != "production":
        return t
    t.append("Pool of ")
    t.append_text(seat_text(state, p))
    t.append(": " + (goods_text(tuple((g, k) for g, k in enumerate(state.pool) if k))))
    t.append(f"; items: iron {state.players[p].iron}, statue {state.spendable_statues(p)} "
             "spendable")
    cards = [f"{key} ({state.data.cards[cid].name})" for key, _, cid in state.usable
             if key not in state.used]
    t.append("\nMay still use: " + (", ".join(cards) or "nothing"))
    return t


def render(state: ClansmanState, seat: int | None) -> RenderableType:
    """The whole table as `seat` sees it (None = a spectator)."""
    parts: list[RenderableType] = [header(state, seat), centre(state), tableau(state, seat)]
    pool = pool_line(state)
    if pool.plain:
        parts.append(pool)
    if any(state.data.cards[c].weak for c in _visible_ids(state)):
        parts.append(Text("† card text reconstructed or unknown (RULES_NOTES.md section 1)",
                          style="dim"))
    goods = ", ".join(GOODS[:10])
    parts.append(Text(f"Workforce ({goods}) vanishes at the end of each turn; iron, statue "
                      "and mirror are kept.", style="dim"))
    return Group(*parts)


def _visible_ids(state: ClansmanState) -> list[str]:
    """Every face-up card id on the table."""
    ids = state.supply + state.princes + state.heroes + state.kofun + state.emperors
    for g in state.players:
        ids += g.clans + g.missions + g.hand + g.emperors
        ids += [c for c in (g.kofun, g.hero) if c is not None]
    return ids


# ------------------------------------------------------------ browser component texts

TYPE_TEXT = {"tadokoro": "Tadokoro (private manor)", "miyake": "Miyake (royal manor)",
             "kofun": "Kofun (Expert)", "kochisei_shuraku": "Kochisei-Shuraku (every player's "
             "first clan)", "starting_clan": "Starting clan", "clan": "Clan card",
             "mission": "Mission card", "royal_prince": "Royal Prince", "hero": "Hero",
             "emperor": "Emperor card (Expert)"}


def _goods_code(raw: dict[str, int]) -> str:
    """{'worker': 2, 'iron': 1} -> 'worker=2,iron=1' (the browser draws it as chips)."""
    return ",".join(f"{g}={n}" for g, n in raw.items())


def _uses_code(card: Card) -> str:
    """A clan-like card's uses as 'worker=2>soldier=1|>iron=2' (empty input = production)."""
    return "|".join(
        ",".join(f"{GOODS[g]}={n}" for g, n in u.inp) + ">" +
        ",".join(f"{GOODS[g]}={n}" for g, n in u.out) for u in card.uses)


def _confidence(raw: dict[str, Any], card: Card | None) -> str:
    """The card's own confidence marking; a card whose play-relevant fields are weak is
    never reported as plainly stated (e.g. 009: stated text, unknown side)."""
    conf = str((raw.get("source") or {}).get("confidence") or "stated")
    if card is not None and card.weak and not any(w in conf for w in WEAK):
        weakest = "unknown" if "unknown" in card.weak else (
            "inferred" if "inferred" in card.weak else "reconstructed-from-context")
        return f"{conf}; {weakest} in part"
    return conf


def component_texts() -> dict[str, dict[str, str]]:
    """Every component id a view can show (cards by printed number, item tokens by name),
    as words for the browser: 'text' (what it is and does) and 'confidence' (the data's
    own marking), plus short machine fields the board draws: name, type, century, cost,
    uses, vp, items, mirror_vp_each, note (what is reconstructed/unknown)."""
    raw = json.loads(resources.files("kamon.games.clansman").joinpath(
        "data/cards.json").read_text(encoding="utf-8"))
    data = load_data()
    out: dict[str, dict[str, str]] = {}
    for rc in raw["cards"]:
        cid = str(rc["id"])
        card = data.cards.get(cid)
        name = card.name if card is not None else str(rc.get("name") or f"card {cid}")
        kind = TYPE_TEXT.get(str(rc.get("type")), str(rc.get("type")))
        century = rc.get("century")
        head = f"{cid} {name} — {kind}" + (f", {ORDINAL.get(century, century)} Century"
                                          if century else "")
        parts = [head + "."]
        if card is not None and card.costs:
            parts.append("Cost: " + " or ".join(goods_text(c) for c in card.costs) + ".")
        parts.append(player_words(str(rc.get("rule") or "").strip()))
        entry = {"text": "", "confidence": _confidence(rc, card), "name": name,
                 "type": str(rc.get("type")), "century": str(century or "")}
        if card is not None:
            entry["cost"] = "|".join(",".join(f"{GOODS[g]}={n}" for g, n in c)
                                     for c in card.costs)
            entry["uses"] = _uses_code(card)
            entry["vp"] = f"{card.vp} {card.vp_colour}" if card.vp_colour else ""
            entry["items"] = ",".join(f"{GOODS[g]}={n}" for g, n in card.items)
            entry["mirror_vp_each"] = str(card.mirror_vp_each or "")
            if card.type == "emperor":
                entry["rule"] = emperor_rule_text(card)
            if card.weak:
                entry["note"] = weak_words(card.weak)
                parts.append(f"† {entry['note']}")
        entry["text"] = " ".join(p for p in parts if p)
        out[cid] = entry
    for tok in raw.get("tokens") or []:
        tid = str(tok["id"])
        out[tid] = {"text": f"{tok.get('name', tid)}: {tok.get('rule', '')}".strip(),
                    "confidence": str((tok.get("source") or {}).get("confidence") or "stated"),
                    "name": str(tok.get("name", tid)), "type": "token"}
    return out


# The data's references to its notes (RULES_NOTES.md): for the data's readers, not players.
_NOTES_REF = re.compile(r"\s*\((?:see )?RULES_NOTES[^)]*\)|;\s*see RULES_NOTES R\d+(?: for [^.]*)?"
                        r"(?=[.)])|\s*See RULES_NOTES[^.]*\.")
_FIELDS = {"id": "its number", "name": "its name", "type": "its kind", "century": "its century",
           "function": "what it does", "function.vp": "its Victory Points",
           "side": "its side (A or B)", "cost": "its cost"}


def player_words(rule: str) -> str:
    """A card's rule in the data's words without the references to the data's notes."""
    return _NOTES_REF.sub("", rule)


def weak_words(weak: str) -> str:
    """What of a card the rulebook does not print legibly, in a player's words:
    'Reconstructed: not all of this card is legible in the rulebook: its name is unknown;
    its kind and its century are worked out from the rulebook's context.' (`weak`: the
    data's 'name unknown; type reconstructed-from-context' list)."""
    unknown: list[str] = []
    worked: list[str] = []
    for part in weak.split(";"):
        field, _, conf = part.strip().partition(" ")
        what = _FIELDS.get(field, field)
        (unknown if "unknown" in conf else worked).append(what)

    def listed(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

    def verb(items: list[str]) -> str:
        return "is" if len(items) == 1 and not items[0].endswith("Points") else "are"

    said = []
    if unknown:
        said.append(f"{listed(unknown)} {verb(unknown)} unknown")
    if worked:
        said.append(f"{listed(worked)} {verb(worked)} worked out from the rulebook's context")
    return ("Reconstructed: not all of this card is legible in the rulebook: "
            + "; ".join(said) + ".")


def emperor_rule_text(card: Card) -> str:
    """An Emperor face's effect in a few words (as the terminal shows it)."""
    eff = card.effect
    if eff is None:
        return ""
    kind = eff[0]
    if kind == "award":
        gives = "works as a clan" if eff[4] else f"{eff[3]} {eff[2]} VP"
        return f"century end: strict {eff[1]} leader takes it ({gives})"
    if kind == "extra_each_turn":
        return f"this century: +{goods_text(eff[1])} every Production turn"
    if kind == "levy":
        return f"century end: each player puts {eff[1]} Tadokoro in the Miyake row"
    if kind == "bonus_on_obtain":
        return f"this century: +{goods_text(eff[2])} per {eff[1]} Mission obtained"
    if kind == "vp_per_mission":
        return f"game end: +{eff[3]} {eff[2]} VP per {eff[1]} Mission"
    if kind == "vp_per_statue":
        return f"game end: +{eff[2]} {eff[1]} VP per Statue"
    return str(kind)
