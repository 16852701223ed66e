"""I, Clansman's SCORING, one test per rule: Mission VPs, Statues with a temple (R21),
Beginner Mirrors (R22), the Iron tie-break and shared victory (R24), and the breakdown
by VP colour and source that scores() returns."""

from __future__ import annotations

from typing import Any

from kamon.games.clansman.data import VP_COLOURS, load_data
from kamon.games.clansman.state import ClansmanState
from tests.clansman.conftest import finish_round, new, put

DATA = load_data()
BLUE, ORANGE, TEAL, PINK = range(4)


def ended(**options: Any) -> ClansmanState:
    """A game played to the end with free Tadokoro only (nobody scores anything)."""
    s = new(**options)
    while not s.is_over():
        finish_round(s)
    return s


def test_scoring_mission_vps_by_colour() -> None:
    """Each Mission gives its printed VPs, reported under its colour."""
    s = new()
    for cid in ("408", "405", "413", "507", "407"):  # red 2, purple 2, green 3, white 4, yellow 2
        put(s, cid, s.players[BLUE].missions)
    sc = s.scores()[BLUE]
    assert (sc["military_missions"], sc["government_missions"], sc["economy_missions"],
            sc["others_missions"], sc["religion_missions"]) == (2, 2, 3, 4, 2)
    assert sc["total"] == 13
    assert s.vp_by_colour(BLUE) == {"military": 2, "religion": 2, "government": 2,
                                    "economy": 3, "others": 4}


def test_scores_breakdown_sums_to_the_total_and_has_the_same_keys_for_every_seat() -> None:
    """Categories are '<colour>_<source>' (plus Beginner 'mirrors') and add up to the total."""
    options: list[dict[str, Any]] = [{}, {"expert": True}, {"expert": True, "emperor_side": "B"},
                                     {"expert": True, "emperor_variant": "008,009"}]
    for opts in options:
        s = new(**opts)
        put(s, "405", s.players[TEAL].missions)
        s.players[TEAL].statue = 2
        s.players[TEAL].mirror = 1
        scores = s.scores()
        assert len({tuple(sc) for sc in scores}) == 1
        for sc in scores:
            assert sc["total"] == sum(v for k, v in sc.items() if k != "total")
            for key in sc:
                assert key in ("total", "mirrors") or key.split("_", 1)[0] in VP_COLOURS
    beginner = new().scores()[0]
    assert "mirrors" in beginner and "religion_kofun" not in beginner
    side_b = new(expert=True, emperor_side="B").scores()[0]
    assert "government_jito" in side_b and "mirrors" not in side_b
    assert "religion_shotoku" in new(expert=True, emperor_variant="009").scores()[0]


def test_R21_statues_score_only_with_a_temple_clan_card() -> None:
    """1 Religion VP per Statue held while owning 601 or 602; two temples still 1 each; the
    Missions named 'temple' (700, 701, 709) do not count as temples."""
    s = new()
    g = s.players[BLUE]
    g.statue = 3
    for cid in ("700", "701", "709"):
        put(s, cid, g.missions)
    assert s.scores()[BLUE]["religion_statues"] == 0
    put(s, "601", g.clans)
    assert s.scores()[BLUE]["religion_statues"] == 3
    put(s, "602", g.clans)
    assert s.scores()[BLUE]["religion_statues"] == 3
    g.statue = 1  # spent Statues no longer count
    assert s.scores()[BLUE]["religion_statues"] == 1
    assert s.vp_by_colour(BLUE)["religion"] == 6 + 6 + 8 + 1


def test_R22_beginner_mirrors_score_one_vp_each() -> None:
    """Beginner: each Mirror held is 1 VP, reported on its own (colour does not matter)."""
    s = new()
    s.players[ORANGE].mirror = 3
    assert s.scores()[ORANGE]["mirrors"] == 3 and s.scores()[ORANGE]["total"] == 3
    e = new(expert=True)
    e.players[ORANGE].mirror = 3  # Expert: loose Mirrors score nothing
    assert e.scores()[ORANGE]["total"] == 0


def test_R24_most_vps_wins_ties_by_iron_then_shared() -> None:
    """Most VPs wins; a tie goes to the most Iron held; a tie on Iron too is shared."""
    s = ended()
    assert s.winners() == [0, 1, 2, 3]  # nobody scored, nobody has Iron: all share
    s.players[TEAL].iron = 2
    s.players[PINK].iron = 2
    assert s.winners() == [TEAL, PINK]
    s.players[PINK].iron = 3
    assert s.winners() == [PINK]
    s.players[BLUE].mirror = 1
    assert s.winners() == [BLUE]


def test_R24_no_winner_before_the_end() -> None:
    """winners() is empty until the game is over."""
    s = new()
    s.players[BLUE].mirror = 1
    assert s.winners() == []
