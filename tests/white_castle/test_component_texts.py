"""The browser's component texts: every card/tile/space id has words, weak data is marked."""

from __future__ import annotations

import json
from importlib import resources

from kamon.games.white_castle import GAME
from kamon.games.white_castle.data import load_data
from kamon.games.white_castle.render import component_texts

WEAK = ("reconstructed", "inferred")


def _raw(name: str) -> dict:
    return json.loads(resources.files("kamon.games.white_castle").joinpath(
        f"data/{name}").read_text(encoding="utf-8"))


def test_every_card_and_tile_of_the_data_has_a_text() -> None:
    texts = component_texts()
    d = load_data()
    ids = [*d.stewards, *d.diplomats, *d.daimyo, *d.start_resources, *d.start_actions,
           *d.decrees, *d.die_tiles, *d.yard_tiles, *d.gardens, *d.solo_deck, *d.printed]
    for cid in ids:
        assert cid in texts, cid
        assert texts[cid]["text"].strip(), cid
        assert texts[cid]["confidence"].strip(), cid
    for colour in ("coral", "black", "white"):
        for k in range(1, 6):
            assert texts[f"domain_{colour}_{k}"]["text"]
    for pos in range(21):
        assert texts[f"passage_{pos}"]["text"]


def test_reconstructed_entries_are_marked() -> None:
    texts = component_texts()
    for c in _raw("solo_deck.json")["cards"]:
        conf = f"{c['bridge_side']['confidence']} {c['action_side']['confidence']}"
        if "reconstructed" in conf:
            assert "reconstructed" in texts[c["id"]]["confidence"], c["id"]
            assert "reconstructed" in texts[c["id"]]["text"], c["id"]
    raw = _raw("components.json")
    for row in raw["personal_domain"]["rows"]:
        for cell in row["spaces_under_workers"]:
            entry = texts[f"domain_{row['die_colour']}_{cell['space']}"]
            assert entry["confidence"] == cell["confidence"]
            if any(w in cell["confidence"] for w in WEAK):
                assert "not read from the printed game" in entry["text"]
    marked = [k for k, v in texts.items() if "reconstructed" in v["confidence"]]
    assert len(marked) >= 9  # the reconstructed Solitaire cards and domain spaces at least


def test_every_component_of_a_view_has_a_text() -> None:
    texts = component_texts()
    for players in (1, 2, 4):
        view = GAME.new_game(players, 5).view(0)
        shown = [*view["room_cards"], view["daimyo_card"], *view["well_tiles"],
                 *view["garden_cards"]]
        shown += [c for pair in view["draft_pairs"] if pair for c in pair]
        shown += [c["card"] for c in view["clans"] if c["card"]]
        shown += [x for c in view["clans"] for x in c["lantern"]]
        for cid in shown:
            assert texts[cid]["text"], cid


def test_texts_are_json_strings() -> None:
    texts = component_texts()
    assert json.loads(json.dumps(texts)) == texts
    assert all(isinstance(v, str) for entry in texts.values() for v in entry.values())
