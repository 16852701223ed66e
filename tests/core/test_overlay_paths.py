"""Data overlays refuse what the data does not have (a component, a keyed item, a field),
naming its path, and keep doing what they did for what exists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import DataError, KamonError
from kamon.core.overlay import check_overlay, combine_overlays, merge_overlay
from kamon.games import get_game

WC = get_game("white-castle")
CS = get_game("clansman")
ENV = {"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}


@pytest.mark.parametrize(("overlay", "message"), [
    ({"gardnes": {"cards": []}}, "overlay: gardnes is not a component of the data "
                                 "(components: about, conventions, board"),
    ({"gardens": {"cards": [{"id": "plant_9", "cp": 12}]}},
     "overlay: gardens.cards[id=plant_9] does not exist (the data does not have id plant_9; "
     "the ids are plant_1, plant_2"),
    ({"gardens": {"cards": [{"id": "plant_1", "cpp": 12}]}},
     "overlay: gardens.cards[id=plant_1].cpp is not a field (fields: bga_type_arg, "
     "confidence, cp,"),
    ({"gardens": {"cards": [{"cp": 12}]}},
     "overlay: item 1 of gardens.cards has no 'id': the items of gardens.cards are matched "
     "by id"),
    ({"gardens": {"price_ladder": {"txt": "x"}}},
     "overlay: gardens.price_ladder.txt is not a field"),
    ({"personal_domain": {"rows": [{"row": "top", "spaces_under_workers": [
        {"space": 6, "reward": {"gain": {"coin": 1}}}]}]}},
     "overlay: personal_domain.rows[row=top].spaces_under_workers[space=6] does not exist"),
    ({"board": {"bridges": {"dice_per_colour_by_players": {"5": 3}}}},
     "overlay: board.bridges.dice_per_colour_by_players.5 is not a field (fields: 1, 2, 3, 4)"),
    # a value of another kind than the data's: never cut or read silently
    ({"gardens": {"cards": [{"id": "plant_1", "cp": 12.5}]}},
     "overlay: gardens.cards[id=plant_1].cp is a whole number in the data (9); 12.5 is not"),
    ({"gardens": {"cards": [{"id": "plant_1", "cp": True}]}},
     "overlay: gardens.cards[id=plant_1].cp is a whole number in the data (9); true is not"),
    ({"gardens": {"cards": [{"id": "plant_1", "cp": "12"}]}},
     "overlay: gardens.cards[id=plant_1].cp is a whole number in the data (9); \"12\" is not"),
    # a game's name wrapped around the overlay
    ({"white-castle": {"gardens": {}}}, "overlay: white-castle is a game's name, not a "
                                        "component: an overlay holds one game's components"),
])
def test_white_castle_overlay_naming_what_does_not_exist_is_refused(
        overlay: dict[str, Any], message: str) -> None:
    """Each refusal is a DataError (a KamonError) whose message starts with the path."""
    with pytest.raises(DataError) as info:
        WC.new_game(2, 1, data_overlay=overlay)
    assert str(info.value).startswith(message), str(info.value)
    assert isinstance(info.value, KamonError)


@pytest.mark.parametrize(("overlay", "message"), [
    ({"cards": [{"id": "999", "name": "x"}]}, "overlay: cards[id=999] does not exist"),
    ({"white-castle": {"cards": []}}, "overlay: white-castle is a game's name"),
    ({"clansman": {"cards": []}}, "overlay: clansman is a game's name"),
    ({"cards": [{"id": "405", "function": {"vpp": {"amount": 3}}}]},
     "overlay: cards[id=405].function.vpp is not a field (fields: items, vp)"),
    ({"rulings": [{"id": "R20", "default": {"602_requires": True}}]},
     "overlay: rulings[id=R20].default.602_requires is not a field (fields: "
     "601_locks_one_owner_statue_in_turn_of_use, 601_requires_owner_statue, "
     "602_requires_owner_statue)"),
])
def test_clansman_overlay_naming_what_does_not_exist_is_refused(
        overlay: dict[str, Any], message: str) -> None:
    """The same check holds for I, Clansman's card data (ids are strings of digits)."""
    with pytest.raises(DataError) as info:
        CS.new_game(4, 1, data_overlay=overlay)
    assert str(info.value).startswith(message), str(info.value)


@pytest.mark.parametrize("overlay", [
    # an optional field that some items of the same kind have, added where it is absent
    {"castle_cards": {"steward": [{"id": "steward_02", "diamond": True}]}},
    {"passage_of_time": {"spaces": [{"position": 3, "checkpoint_to_enter": {
        "pay": {"seal": 1}}}]}},
    # the owner's correction of docs/rules.md (an effect record replaces the old one whole)
    {"personal_domain": {"rows": [{"row": "top", "spaces_under_workers": [
        {"space": 4, "reward": {"gain": {"coin": 1}}, "confidence": "my copy"}]}]}},
    {"board": {"bridges": {"dice_per_colour_by_players": {"2": 3}}}},
    # a list of unkeyed items (a card's effects) is replaced whole
    {"gardens": {"cards": [{"id": "plant_1", "effects": [{"gain": {"coin": 2}}]}]}},
])
def test_legitimate_overlays_are_accepted(overlay: dict[str, Any]) -> None:
    """What exists, or exists on other items of the same kind, may be changed."""
    state = WC.new_game(2, 1, data_overlay=overlay)
    assert state.options["data_overlay"] == overlay


def test_a_valid_overlay_still_changes_the_game() -> None:
    """A garden card's CP set by an overlay is what its gardener scores."""
    seed = next(s for s in range(50) if "plant_1" in WC.new_game(2, s).garden_cards)
    scores = []
    for overlay in (None, {"gardens": {"cards": [{"id": "plant_1", "cp": 23}]}}):
        state = WC.new_game(2, seed, data_overlay=overlay)
        state.garden_workers[state.garden_cards.index("plant_1")].append(0)
        scores.append(state.scores()[0]["gardeners"])
    assert scores[0] != 23 and scores[1] == 23


def test_check_is_separate_from_merge_and_deep_items_are_checked() -> None:
    """check_overlay alone refuses, merge_overlay merges only what passes."""
    base = {"a": {"items": [{"id": "x", "v": 1, "sub": [{"slot": 1, "w": 2}]},
                            {"id": "y", "v": 2, "extra": 0}]}}
    check_overlay(base, {"a": {"items": [{"id": "x", "extra": 5}]}})  # a sibling has it
    with pytest.raises(DataError, match=r"a\.items\[id=x\]\.sub\[slot=2\] does not exist"):
        check_overlay(base, {"a": {"items": [{"id": "x", "sub": [{"slot": 2, "w": 3}]}]}})
    merged = merge_overlay(base, {"a": {"items": [{"id": "x", "sub": [{"slot": 1, "w": 9}]}]}})
    assert merged["a"]["items"][0]["sub"] == [{"slot": 1, "w": 9}]
    assert base["a"]["items"][0]["sub"] == [{"slot": 1, "w": 2}]  # the base is untouched


def test_combine_overlays_keeps_both_items() -> None:
    """Two overlays combine item by item (what a sweep of two paths needs)."""
    one = {"gardens": {"cards": [{"id": "plant_1", "cp": 3}]}}
    two = {"gardens": {"cards": [{"id": "plant_1", "food_cost": 2}, {"id": "plant_2", "cp": 1}]}}
    assert combine_overlays(one, two) == {"gardens": {"cards": [
        {"id": "plant_1", "cp": 3, "food_cost": 2}, {"id": "plant_2", "cp": 1}]}}


def test_the_cli_prints_the_refusal_as_one_error_line(tmp_path: Path) -> None:
    """`kamon simulate --data-overlay` with an unknown field: exit 2, `error: overlay: ...`."""
    path = tmp_path / "variant.json"
    path.write_text(json.dumps({"gardens": {"cards": [{"id": "plant_1", "cpp": 12}]}}))
    res = CliRunner(env=ENV).invoke(app, ["simulate", "white-castle", "--players", "2",
                                          "--games", "2", "--data-overlay", str(path)])
    assert res.exit_code == 2
    assert "error: overlay: gardens.cards[id=plant_1].cpp is not a field" in res.output
    assert "Traceback" not in res.output
