"""component_texts(): the words the browser board shows for every I, Clansman component."""

from __future__ import annotations

import json

from kamon.games.clansman.data import WEAK, load_data
from kamon.games.clansman.render import component_texts


def test_every_card_has_a_text_and_a_confidence() -> None:
    texts = component_texts()
    data = load_data()
    for cid, card in data.cards.items():
        assert cid in texts, f"card {cid} has no component text"
        entry = texts[cid]
        assert entry["text"].strip(), f"card {cid}: empty text"
        assert entry["text"].startswith(cid), f"card {cid}: the text should name its number"
        assert entry["confidence"].strip(), f"card {cid}: empty confidence"
        assert entry["type"] == card.type


def test_reconstructed_cards_are_marked() -> None:
    texts = component_texts()
    weak = [c for c in load_data().cards.values() if c.weak]
    assert weak, "the data has reconstructed cards (e.g. 200, 401, 712)"
    for card in weak:
        entry = texts[card.id]
        assert any(w in entry["confidence"] for w in WEAK), (card.id, entry["confidence"])
        # said in a player's words (not the data's notes): what is not legible, and how
        assert "† Reconstructed: not all of this card is legible in the rulebook" \
            in entry["text"], card.id
        assert "RULES_NOTES" not in entry["text"] and "RECONSTRUCTED" not in entry["text"]
        assert entry["note"] and entry["note"] in entry["text"]
    for cid in ("200", "401", "712", "008", "009"):
        assert any(w in texts[cid]["confidence"] for w in WEAK), cid


def test_stated_cards_are_not_marked() -> None:
    texts = component_texts()
    for card in load_data().cards.values():
        if not card.weak:
            assert texts[card.id]["confidence"] == "stated", card.id
            assert "note" not in texts[card.id]


def test_tokens_and_json() -> None:
    texts = component_texts()
    for tok in ("iron", "statue", "mirror", "daughter", "start_player_marker"):
        assert texts[tok]["text"].strip(), tok
    # The server sends it as JSON: every value is a string.
    again = json.loads(json.dumps({"components": texts}))["components"]
    assert again == texts
    assert all(isinstance(v, str) for e in texts.values() for v in e.values())


def test_machine_fields_match_the_data() -> None:
    texts = component_texts()
    assert texts["412"]["cost"] == "pork=1"
    assert texts["412"]["vp"] == "1 economy"
    assert texts["412"]["items"] == "iron=1"
    assert texts["611"]["cost"] == "monk=1|bureaucrat=1"
    assert texts["401"]["uses"] == "worker=2>soldier=1|worker=2>architect=1"
    assert texts["800"]["uses"] == ">iron=2"
    assert texts["200"]["mirror_vp_each"] == "2"
    assert texts["004"]["rule"].startswith("century end")
