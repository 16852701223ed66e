"""I, Clansman's side of the core protocol: what is hidden (only the century piles'
order; hands are public, R08) and what determinization re-samples, the states from_json
refuses in the game's terms, refusals with the game's reasons, the card data and its
overlays, the terminal view and the `kamon` command. Also checks that every ruling
R01-R35 has a test named after it. What every game owes the protocol (JSON and records,
clones, copies, refusals of any illegal id, notation): tests/contract/.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kamon.cli import app
from kamon.core.errors import DataError, IllegalAction, RecordError
from kamon.core.record import GameRecord, replay
from kamon.core.rng import Rng
from kamon.games import get_game
from kamon.games.clansman import GAME
from kamon.games.clansman import actions as A
from kamon.games.clansman.data import load_data
from kamon.games.clansman.state import ClansmanState
from tests.clansman.conftest import act, legal_texts, marry, new, put

MODES: list[dict[str, Any]] = [{}, {"expert": True, "emperor_side": "A"},
                               {"expert": True, "emperor_side": "B"}]
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "clansman"


def random_game(seed: int, upto: int | None = None, **options: Any) -> ClansmanState:
    """A 4-player game played by a seeded uniform chooser (to the end, or `upto` moves)."""
    s = GAME.new_game(4, seed, **options)
    rng = Rng(seed)
    n = 0
    while not s.is_over() and (upto is None or n < upto):
        ids = s.legal_ids()
        s.apply(ids[rng.below(len(ids))])
        n += 1
    return s


# ------------------------------------------------------------------------- protocol

def test_registered_as_clansman_under_its_aliases() -> None:
    """The registry opens I, Clansman as 'clansman' and 'i-clansman'."""
    assert get_game("clansman") is GAME and get_game("i-clansman") is GAME
    assert GAME.name == "clansman" and GAME.title == "I, Clansman"


@pytest.mark.parametrize("opts", MODES)
def test_view_hides_the_century_pile_order_and_the_seed(opts: dict[str, Any]) -> None:
    """view(seat) gives pile sizes only and withholds the seed and RNG; it is the same for
    every seat (hands are public) and shows every hand."""
    s = random_game(3, upto=40, **opts)
    put(s, "715", s.players[2].hand)
    views = [s.view(seat) for seat in (None, 0, 1, 2, 3)]
    for v in views:
        assert v["piles"] == [len(p) for p in s.piles]
        assert "seed" not in v and "rng" not in v
        assert v["gozoku"][2]["hand"] == s.players[2].hand
    strip = [{k: v for k, v in view.items() if k != "seat"} for view in views]
    assert all(x == strip[0] for x in strip)


def test_view_reveals_no_card_of_a_century_pile() -> None:
    """No card id still face down in a pile appears anywhere in a view."""
    s = random_game(6, upto=60, expert=True)
    hidden = {c for p in s.piles for c in p}
    view = s.view(0)
    shown = json.dumps({k: v for k, v in view.items() if k != "events"})
    events = " ".join(view["events"])
    for cid in hidden:
        assert f'"{cid}"' not in shown and not re.search(rf"\b{cid}\b", events), cid


def test_determinize_reshuffles_only_the_century_piles() -> None:
    """A determinized copy keeps every public fact and each pile's set of cards, and
    re-samples their order; the original is untouched."""
    s = random_game(5, upto=30, expert=True)
    before = s.dumps()
    orders = set()
    for k in range(12):
        d = s.determinize(0, Rng(k)) if k % 2 else s.determinize(0, random.Random(k))
        assert [sorted(p) for p in d.piles] == [sorted(p) for p in s.piles]
        va, vb = d.view(0), s.view(0)
        assert va == vb
        orders.add(tuple(d.piles[3]))
        while not d.is_over():
            d.apply(d.legal_ids()[0])
    assert len(orders) > 1 and s.dumps() == before


@pytest.mark.parametrize("bad", [
    {"phase": "lunch"},
    {"supply": ["999"]},
    {"pool": [1, 2]},
    {"gozoku": []},
], ids=["phase", "card", "pool", "no-gozoku"])
def test_from_json_rejects_states_the_game_cannot_have(bad: dict[str, Any]) -> None:
    """Well-typed values the game cannot hold (an unknown phase or card, a pool of two
    goods, no players) are refused with a RecordError saying it is no I, Clansman state.
    (Missing fields and values of the wrong type: tests/contract/; a malformed overlay:
    test_illegal_actions.py.)"""
    data = new().to_json()
    data.update(bad)
    with pytest.raises(RecordError, match="I, Clansman"):
        GAME.from_json(data)


def test_illegal_actions_are_refused_with_a_reason_and_the_state_untouched() -> None:
    """apply() of anything not legal raises IllegalAction explaining why; nothing changes."""
    s = new()
    marry(s)
    before = s.dumps()
    cases = {"obtain 715": "neither in the Supply", "marry 800": "not legal now",
             "convert 801 iron": "Royal Prince", "payment 2": "not legal now",
             "obtain 2 tadokoro": r"costs 2 workers \+ 1 iron", "hand 400": "not legal now",
             "obtain 200": "Expert game"}
    for text, why in cases.items():
        with pytest.raises(IllegalAction, match=why):
            s.apply(A.BY_TEXT[text])
        assert s.dumps() == before
    with pytest.raises(IllegalAction, match="no action with id"):
        s.apply(-1)
    assert s.dumps() == before


def test_cards_are_named_by_number_in_the_notation() -> None:
    """The fixed action table names cards by their number and seats by colour."""
    assert GAME.num_actions == A.NUM_ACTIONS
    assert A.BY_TEXT["obtain 412"] == A.OBTAIN["412"]
    assert "marry 300 teal" in A.BY_TEXT and "convert 800 iron" in A.BY_TEXT


def test_every_id_is_described_even_when_not_legal() -> None:
    """describe() speaks for any id of the action space, legal now or not (the decision's
    own words for legal ones: tests/contract/)."""
    state = new()
    for aid in range(A.NUM_ACTIONS):
        assert state.describe(aid)


# ------------------------------------------------------------------------------- data

def test_bundled_card_data_is_the_shared_fact_sheet_verbatim() -> None:
    """data/cards.json is a verbatim copy of shared/data/clansman/cards.json."""
    if not SHARED.exists():
        pytest.skip("shared data folder not present")
    ours = Path(__file__).resolve().parents[2] / "src/kamon/games/clansman/data"
    assert (ours / "cards.json").read_bytes() == (SHARED / "cards.json").read_bytes()
    assert (ours / "RULES_NOTES.md").read_bytes() == (SHARED / "RULES_NOTES.md").read_bytes()


def test_card_data_loads_with_every_card_and_ruling() -> None:
    """64 century cards (16 per century), 4 starting clans, 6 Royal Prince faces, 4 Heroes,
    4 Kofun, Emperor faces A and B."""
    d = load_data()
    assert {c: len(ids) for c, ids in d.decks.items()} == {4: 16, 5: 16, 6: 16, 7: 16}
    assert d.starting_clans == ("301", "302", "303", "304")
    assert d.princes_early == ("800", "801", "802") and d.princes_late == ("803", "804", "805")
    assert d.heroes == ("900", "901", "902", "903") and d.kofun == ("200", "201", "202", "203")
    assert d.rules.needs_owner_statue == {"601"} and d.rules.statue_vp_enablers == {"601", "602"}
    assert d.cards["611"].costs == (((3, 1),), ((4, 1),))


def test_data_overlay_corrects_a_card_and_is_stored_in_the_options() -> None:
    """An owner's overlay (by card id) changes the rules' data and travels in the record."""
    overlay = {"cards": [{"id": "712", "name": "Jinshin War"},
                         {"id": "405", "cost_options": [{"worker": 3}]}]}
    s = new(data_overlay=overlay)
    assert s.data.cards["712"].name == "Jinshin War" and s.options["data_overlay"] == overlay
    assert s.data.cards["405"].costs == (((0, 3),),)
    assert any("data overlay" in line for line in GAME.describe_options(s.options))
    t = GAME.from_json(json.loads(s.dumps()))
    assert t.data.cards["712"].name == "Jinshin War"


@pytest.mark.parametrize(("overlay", "message"), [
    ({"cards": [{"id": "999", "name": "x"}]}, "does not have"),
    ({"cards": [{"id": "405", "cost_options": [{"gold": 1}]}]}, "unknown good 'gold'"),
    ({"cards": [{"id": "405", "cost_options": [{"worker": 0}]}]}, "positive integer"),
    ({"cards": [{"id": "405", "type": "clan"}]}, "needs a conversion or production"),
    ({"cards": [{"id": "712", "function": {"vp": {"colour": "blue", "amount": 7}}}]},
     "colour"),
    ({"rulings": [{"id": "R07", "default": {"obtain_mandatory": False}}]}, "R07"),
    ({"cards": [{"id": "401", "function": {"conversions": [
        {"in": {"worker": 2}, "out": [{"soldier": 1}, {"soldier": 2}]}]}}]}, "same first good"),
])
def test_malformed_data_or_overlay_gives_a_clear_data_error(overlay: dict[str, Any],
                                                            message: str) -> None:
    """Bad overlays are refused with a DataError that says what is wrong."""
    with pytest.raises(DataError, match=message):
        load_data(overlay)


def test_reconstructed_cards_are_flagged_at_setup_and_on_the_board() -> None:
    """Cards whose text is reconstructed or unknown are named in the setup lines and marked
    with † in the terminal view; 008/009 only when they are in play."""
    lines = " ".join(GAME.describe_options({}))
    assert "712 id, type, century, name?" in lines and "401 name" in lines
    assert "008" not in lines and "200" not in lines
    expert = " ".join(GAME.describe_options({"expert": True, "emperor_variant": "008"}))
    assert "200 function.vp" in expert and "008" in expert
    s = new()
    put(s, "712", s.supply)
    text = rendered(s)
    assert "712 Mission †" in text  # no printed name: its kind (no data note as a name)
    assert "† card text reconstructed or unknown" in text


def rendered(s: ClansmanState, seat: int | None = 0) -> str:
    """The terminal view as plain text at 120 columns."""
    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(GAME.render_text(s, seat))
    return console.export_text()


@pytest.mark.parametrize("opts", MODES)
def test_board_shows_every_area_within_120_columns(opts: dict[str, Any]) -> None:
    """The terminal view names every area of the table and fits 120 columns."""
    s = random_game(12, upto=90, **opts)
    text = rendered(s)
    words = ["I, Clansman", "round", "Start player", "Now:", "Century piles", "Supply",
             "Royal Princes", "Miyake row", "Heroes", "Bank", "Clan cards", "Tadokoro",
             "Missions", "Hand", "Items", "Daughter", "VPs", "blue (you)"]
    if opts:
        words += ["Kofun", "Emperor cards"]
    for word in words:
        assert word in text, word
    assert max(len(line) for line in text.splitlines()) <= 120
    assert re.sub(r"\s+", " ", s.decision_text()) in re.sub(r"\s+", " ", text)


# -------------------------------------------------------------------------------- CLI

@pytest.fixture
def runner() -> CliRunner:
    """A CLI runner with no data overlay from the environment and a wide console."""
    return CliRunner(env={"KAMON_DATA_OVERLAY": None, "COLUMNS": "120"})


def test_cli_plays_clansman_expert_and_saves_a_record_that_replays(runner: CliRunner,
                                                                   tmp_path: Path) -> None:
    """kamon play clansman --seats ... --expert --emperor-side B plays to the end."""
    path = tmp_path / "g.json"
    res = runner.invoke(app, ["play", "clansman", "--seats", "random,random,random,random",
                              "--seed", "3", "--quiet", "--expert", "--emperor-side", "b",
                              "--save", str(path)])
    assert res.exit_code == 0, res.output
    assert "Expert game" in res.output and "Winner" in res.output
    record = GameRecord.load(path)
    assert record.options["emperor_side"] == "B" and replay(record).is_over()


def test_cli_human_seat_plays_by_number(runner: CliRunner) -> None:
    """A human seat answering '1' to every question finishes the game."""
    res = runner.invoke(app, ["play", "clansman", "--seats", "human,random,random,random",
                              "--seed", "2"], input="1\n" * 400)
    assert res.exit_code == 0, res.output[-2000:]
    assert "Final scores" in res.output


def test_cli_simulates_the_small_table_variant_only_when_asked(runner: CliRunner) -> None:
    """simulate with 3 players needs --variant small-table, which is flagged unofficial."""
    res = runner.invoke(app, ["simulate", "clansman", "--players", "3", "--games", "3"])
    assert res.exit_code == 2 and "--variant" in res.output
    res = runner.invoke(app, ["simulate", "clansman", "--players", "3", "--games", "3",
                              "--variant", "small-table"])
    assert res.exit_code == 0, res.output
    assert "UNOFFICIAL" in res.output and "3 games" in res.output


def test_cli_refuses_flags_a_game_does_not_have(runner: CliRunner) -> None:
    """--expert for The White Castle, a bad side: exit 2 with a red line, no traceback."""
    res = runner.invoke(app, ["play", "white-castle", "--seats", "random,random", "--expert"])
    assert res.exit_code == 2 and "no option --expert" in res.output
    res = runner.invoke(app, ["play", "clansman", "--seats", "random,random,random,random",
                              "--expert", "--emperor-side", "C"])
    assert res.exit_code == 2 and "'A' or 'B'" in res.output and "Traceback" not in res.output


# ------------------------------------------------------------------------- rulings

def test_every_ruling_has_a_test_named_after_it() -> None:
    """Each ruling R01-R35 of cards.json is pinned by at least one test named after it."""
    ids = [r["id"] for r in json.loads(
        (Path(__file__).resolve().parents[2] / "src/kamon/games/clansman/data/cards.json"
         ).read_text(encoding="utf-8"))["rulings"]]
    names = " ".join(re.findall(r"def (test_\w+)", " ".join(
        p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))))
    missing = [r for r in ids if not re.search(rf"_{r}_", names)]
    assert not missing, missing


def test_legal_texts_helper_matches_legal_actions() -> None:
    """The helper the rule tests use agrees with the protocol."""
    s = new()
    assert legal_texts(s) == {a.text for a in s.legal_actions()}
    act(s, sorted(legal_texts(s))[0])
