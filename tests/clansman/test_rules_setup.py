"""I, Clansman's SETUP and player counts, one test per rule (rulebook 'Setup', R02, R10,
R27, R32, R35). Random steps are checked over many seeds: the property must hold for
every seed, and a random draw must really vary."""

from __future__ import annotations

from collections import Counter

import pytest

from kamon.core.errors import DataError
from kamon.games.clansman import GAME
from kamon.games.clansman.data import load_data
from tests.clansman.conftest import act, finish_round, legal_texts, new, to_round

DATA = load_data()
SEEDS = range(60)


# ------------------------------------------------------------------ player counts (R35)

@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_four_players_as_printed_other_counts_are_refused(players: int) -> None:
    """'4 players': any other count is refused, naming the rule and the explicit variant."""
    with pytest.raises(ValueError, match="exactly 4 players") as err:
        GAME.new_game(players, 1)
    assert "small-table" in str(err.value)
    assert GAME.min_players == GAME.max_players == 4


@pytest.mark.parametrize("players", [2, 3])
def test_R35_small_table_variant_only_when_asked_and_marked_unofficial(players: int) -> None:
    """2-3 players play only with variant='small-table', flagged unofficial everywhere."""
    s = GAME.new_game(players, 4, variant="small-table")
    assert s.num_players == players and s.options["variant"] == "small-table"
    assert [g.clans[0] for g in s.players] == ["300"] * players
    assert len({g.clans[1] for g in s.players}) == players  # one starting clan each
    assert any("UNOFFICIAL" in line for line in GAME.describe_options(s.options))
    assert "UNOFFICIAL" in s.events[0]
    from rich.console import Console

    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(GAME.render_text(s, 0))
    assert "UNOFFICIAL small-table" in console.export_text()


def test_R35_small_table_variant_is_for_two_or_three_players_only() -> None:
    """The variant does not change the 4-player game and is refused for it; unknown
    variants are refused by name."""
    with pytest.raises(ValueError, match="2 or 3 players"):
        GAME.new_game(4, 1, variant="small-table")
    with pytest.raises(ValueError, match="variant must be 'small-table'"):
        GAME.new_game(3, 1, variant="tiny")


def test_R35_small_table_three_players_pass_the_marker_every_round() -> None:
    """At 3 players the marker passes every round (starts 6/5/5); at 2 the printed rule."""
    s = new(players=3, variant="small-table")
    starts = []
    for _ in range(16):
        starts.append(s.start)
        finish_round(s)
    assert sorted(Counter(starts).values()) == [5, 5, 6]
    s = new(players=2, variant="small-table")
    starts = []
    for _ in range(16):
        starts.append(s.start)
        finish_round(s)
    assert Counter(starts) == {0: 8, 1: 8}
    assert starts[3] == starts[4]  # no pass after round 4


# ------------------------------------------------------------------------ the centre

def test_setup_century_piles_shuffled_separately() -> None:
    """Each century pile holds exactly its own 16 cards, shuffled on its own."""
    firsts = Counter()
    for seed in SEEDS:
        s = GAME.new_game(4, seed)
        assert sorted(s.piles[0] + s.supply) == sorted(DATA.decks[4])
        for century in (5, 6, 7):
            assert sorted(s.piles[century - 4]) == sorted(DATA.decks[century])
        firsts[s.piles[3][-1]] += 1
    assert len(firsts) >= 8  # the top of the 7th-century pile varies


def test_setup_supply_starts_empty_and_round_one_draws_seven() -> None:
    """The Supply is empty at setup; round 1's Preparation draws 7 from the 4th-century pile."""
    s = new()
    assert len(s.supply) == DATA.rules.draw_first == 7
    assert all(DATA.cards[c].century == 4 for c in s.supply)
    assert len(s.piles[0]) == 9 and not s.discard


def test_setup_royal_princes_4th_5th_sides_up_and_miyake_row_empty() -> None:
    """Three Royal Princes, 4th-5th Century sides up; nothing in the Miyake row."""
    s = new()
    assert s.princes == ["800", "801", "802"]
    assert all(DATA.cards[p].side == "4th-5th" for p in s.princes)
    assert s.miyake == 0 and s.miyake_row == 0


def test_setup_four_heroes_face_up() -> None:
    """The four Heroes lie face up in the centre (Beginner and Expert)."""
    assert new().heroes == ["900", "901", "902", "903"]
    assert new(expert=True).heroes == ["900", "901", "902", "903"]


def test_R02_bank_is_unlimited() -> None:
    """Tadokoro never run out: the Bank's 16 remaining cards go negative (substitutes) and
    a free Tadokoro stays legal; the Miyake row and the Supply have no limit either."""
    s = new()
    assert s.bank_tadokoro == 32 - 4 * 4
    for _ in range(6):
        finish_round(s)
    assert s.bank_tadokoro < 0
    assert sum(g.tadokoro for g in s.players) + s.miyake_row + s.miyake + s.bank_tadokoro == 32
    assert DATA.rules.draw_first == 7 and DATA.rules.flip_at == 4


def test_setup_each_player_kochisei_shuraku_random_starting_clan_four_tadokoro_daughter(
        ) -> None:
    """Each Gozoku: his Kochisei-Shuraku, one randomly dealt starting clan, 4 Tadokoro, his
    daughter at home; nothing else."""
    dealt: Counter[str] = Counter()
    for seed in SEEDS:
        s = GAME.new_game(4, seed)
        assert sorted(g.clans[1] for g in s.players) == ["301", "302", "303", "304"]
        for g in s.players:
            assert g.clans[0] == "300" and len(g.clans) == 2
            assert g.tadokoro == 4
            assert (g.iron, g.statue, g.mirror, g.hand, g.missions) == (0, 0, 0, [], [])
        dealt[s.players[0].clans[1]] += 1
    assert set(dealt) == {"301", "302", "303", "304"}


def test_R10_first_start_player_random_unless_given() -> None:
    """The first start player is drawn from the seed, or the seat the option names."""
    starts = {GAME.new_game(4, seed).start for seed in SEEDS}
    assert starts == {0, 1, 2, 3}
    assert GAME.new_game(4, 3, start_player=2).start == 2
    with pytest.raises(ValueError, match="start_player"):
        GAME.new_game(4, 3, start_player=4)


def test_setup_is_reproducible_from_the_seed() -> None:
    """The same seed and options give the same table."""
    assert GAME.new_game(4, 9, expert=True).dumps() == GAME.new_game(4, 9, expert=True).dumps()
    assert GAME.new_game(4, 9).dumps() != GAME.new_game(4, 10).dumps()


# ------------------------------------------------------------------------ Expert setup

def test_R34_beginner_uses_no_kofun_or_emperor_cards() -> None:
    """Kofun and Emperor cards are used only in Expert games (R34)."""
    s = new()
    assert s.kofun == [] and s.emperors == [] and not s.expert
    assert not any(t.startswith("obtain 20") for t in legal_texts(s))


@pytest.mark.parametrize(("side", "faces"), [("A", ["000", "001", "002", "003"]),
                                             ("B", ["004", "005", "006", "007"])])
def test_R27_expert_kofun_and_emperor_cards_one_side_for_all_four(side: str,
                                                                  faces: list[str]) -> None:
    """Expert: 4 Kofun face up; 4 Emperor cards all showing the chosen side."""
    s = new(expert=True, emperor_side=side)
    assert s.kofun == ["200", "201", "202", "203"]
    assert s.emperors == faces and s.emperor_centre == faces
    assert s.options["emperor_side"] == side


def test_R27_side_a_is_the_default_and_stored_in_the_record() -> None:
    """An Expert game without a side uses side A ('basic') and says so in its options."""
    s = new(expert=True)
    assert s.options == {"expert": True, "emperor_side": "A", "start_player": 0}
    assert s.emperors == ["000", "001", "002", "003"]


def test_R32_emperors_008_009_only_as_the_documented_optional_variant() -> None:
    """008/009 stay out by default; the variant puts 008 in the 5th- and 009 in the
    6th-century slot, is flagged unofficial, and needs the Expert game."""
    assert "008" not in new(expert=True, emperor_side="B").emperors
    s = new(expert=True, emperor_side="B", emperor_variant="008")
    assert s.emperors == ["004", "008", "006", "007"]
    s = new(expert=True, emperor_variant=["009", "008"])
    assert s.emperors == ["000", "008", "009", "003"]
    assert s.options["emperor_variant"] == "008,009"
    assert any("UNOFFICIAL" in x for x in GAME.describe_options(s.options))
    with pytest.raises(ValueError, match="needs expert"):
        new(emperor_variant="008")
    with pytest.raises(ValueError, match="not an optional Emperor face"):
        new(expert=True, emperor_variant="003")


def test_setup_options_are_checked_with_clear_messages() -> None:
    """Unknown options, a side without Expert, a bad side: ValueError saying what is wrong."""
    with pytest.raises(ValueError, match="unknown option"):
        GAME.new_game(4, 1, colour="red")
    with pytest.raises(ValueError, match="needs expert"):
        GAME.new_game(4, 1, emperor_side="A")
    with pytest.raises(ValueError, match="'A' or 'B'"):
        GAME.new_game(4, 1, expert=True, emperor_side="C")
    with pytest.raises(DataError, match="JSON object"):
        GAME.new_game(4, 1, data_overlay=[1])


def test_setup_first_round_begins_with_the_marriage_of_the_start_players_right() -> None:
    """After setup the first decision is round 1's first marriage."""
    s = new(start=1)
    assert s.round == 1 and s.phase == "marriage" and s.to_move == 0
    act(s, "marry 300 blue")
    assert s.to_move == 3
    to_round(s, 2)
