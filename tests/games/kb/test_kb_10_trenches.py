"""The Kaiser's Battle 10.0 Trenches: three kinds of trench hex (redoubt, fieldwork, wire),
permanent, for both Players, omnidirectional; their movement costs come from the Terrain
Effects Chart (5.32). The 8.13 exemption from attacking is combat's (tests/games/kb/
test_kb_8_combat.py); 20.13 scores Allied units in them (test_kb_20_victory.py)."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import kb_around, kb_empty_game, kb_hexes, kb_put, kb_step_cost
from gwe_fast.enums import Feature, Side, Terrain
from gwe_fast.games.kb.zoc import controlled

KINDS = {"redoubt": Feature.REDOUBT, "fieldwork": Feature.FIELDWORK, "wire": Feature.WIRE}


def test_10_0_three_kinds_of_trench_hex():
    g = kb_empty_game()
    m = g.scenario.map
    feats = m.features.astype(np.int64)
    want = (feats & int(Feature.REDOUBT | Feature.FIELDWORK | Feature.WIRE)) != 0
    assert np.array_equal(g.data.trench, want)
    # the hexes of each kind are those listed in map.toml, read here independently
    for kind, bit in KINDS.items():
        assert kb_hexes(g, (feats & int(bit)) != 0) == sorted(map_list(kind)), kind
    assert int(g.data.trench.sum()) == len(set().union(*(map_list(k) for k in KINDS))) == 104


def map_list(kind):
    import tomllib
    from pathlib import Path

    import gwe_fast

    path = Path(gwe_fast.__file__).parent / "data" / "kaisers_battle" / "map.toml"
    out = set()
    for item in tomllib.loads(path.read_text())["features"][kind]:
        a, _, b = item.partition("..")
        b = b or a
        col = a[:2]
        assert b[:2] == col
        out |= {f"{col}{r:02d}" for r in range(int(a[2:]), int(b[2:]) + 1)}
    return out


@pytest.mark.parametrize("kind, hexid", [("redoubt", "3801"), ("fieldwork", "3904"),
                                         ("wire", "3704"), ("fieldwork", "2902")])
@pytest.mark.parametrize("uid", ["ge-xx-88-3", "br-ii-5gh-61-18"])
def test_10_0_trench_hexes_cost_2_for_both_players_from_every_direction(kind, hexid, uid):
    g = kb_empty_game()
    m = g.scenario.map
    c = m.cell(hexid)
    assert m.features[c] & KINDS[kind] and m.terrain[c] == Terrain.CLEAR
    for w in kb_around(g, hexid):
        if g.data.trench[m.cell(w)]:
            continue
        u = kb_put(g, uid, w)
        side = int(g.data.side_add[m.cell(w), m.direction(w, hexid)])
        assert kb_step_cost(g, u, w, hexid) == 2 + side, w
        g.remove(uid)


def test_10_0_trench_hexes_do_not_change_zones_of_control():
    g = kb_empty_game()
    kb_put(g, "br-ii-5gh-61-18", "3801")         # a redoubt
    kb_put(g, "ge-xx-88-3", "3904")              # a fieldwork
    assert kb_hexes(g, controlled(g, Side.ALLIED)) == kb_around(g, "3801")
    assert kb_hexes(g, controlled(g, Side.CENTRAL)) == kb_around(g, "3904")


def test_10_0_and_5_32_trench_die_modifiers_from_the_chart():
    g = kb_empty_game()
    m = g.scenario.map
    for hexid, mod in (("3801", 2), ("3904", 1), ("3704", 0)):
        assert int(g.data.die_mod[m.cell(hexid)]) == mod, hexid
