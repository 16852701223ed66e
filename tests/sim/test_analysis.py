"""The holders of a card are clans, in `kamon report` and `kamon compare` alike: a clan
holding a card twice (two warriors on one yard) counts once (issue 39)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from kamon.sim.analysis import exploded, group_rates, held_values


def test_a_clan_holding_a_card_twice_is_one_holder() -> None:
    """'yard_1;yard_1;yard_2' is one holder of yard_1 and one of yard_2; empty values and
    empty rows hold nothing; the rows keep their win shares and seeds."""
    table = pa.table({"yards": ["yard_1;yard_1;yard_2", "", "yard_2;;yard_2", "yard_1"],
                      "win_share": [1.0, 0.0, 0.5, 0.0], "seed": [0, 0, 1, 1]})
    values, rows = held_values(table, "yards")
    assert list(zip(values.tolist(), rows.tolist(), strict=True)) == [
        ("yard_1", 0), ("yard_2", 0), ("yard_2", 2), ("yard_1", 3)]
    bars = {b.label: b for b in group_rates(*exploded(table, "yards"))}
    assert (bars["yard_1"].n, bars["yard_1"].wins, bars["yard_1"].games) == (2, 1.0, 2)
    assert (bars["yard_2"].n, bars["yard_2"].wins) == (2, 1.5)
    empty = held_values(pa.table({"yards": ["", ""]}), "yards")
    assert len(empty[0]) == 0 and empty[1].dtype == np.int64
