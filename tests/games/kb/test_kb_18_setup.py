"""The Kaiser's Battle 18.0 Setting up the Game: every unit of 18.1 (German) and 18.2 (Allied)
in its hex when the game begins, nothing else on the map, the Artillery Tracks set (18.0, 9.8).

The expected positions are 18.1 and 18.2 as printed, each designation read by hand into the
unit id of counters.toml (the OCR's letter/digit confusions, e.g. "11R/36/18" for 1IR/36/18,
are listed in docs/rulings.md, order of battle)."""

from __future__ import annotations

import numpy as np

from kb_positions import kb_scenario
from gwe_fast.enums import Side
from gwe_fast.games.kb import engine
from gwe_fast.games.kb.game import KbGame
from gwe_fast.state import Status

SETUP_18_1 = {
    "4203": ["ge-hq-3"], "4204": ["ge-hq-9"], "4308": ["ge-hq-17"], "4614": ["ge-hq-4r"],
    "4623": ["ge-hq-gayl"], "3902": ["ge-xx-88-3"], "4101": ["ge-xx-113-3"],
    "3903": ["ge-xx-28-3"], "4102": ["ge-xx-6-3"], "4103": ["ge-xx-206-3"],
    "4104": ["ge-xx-5-3"], "4202": ["ge-xx-23-3"], "3804": ["ge-xx-50-9"],
    "3806": ["ge-xx-45r-9"], "4105": ["ge-xx-231-9"], "4106": ["ge-xx-5g-9"],
    "4205": ["ge-xx-1g-9"], "3908": ["ge-xx-238-17"], "4109": ["ge-xx-36-17"],
    "4310": ["ge-xx-1b-17"], "4207": ["ge-xx-9-17"], "4408": ["ge-xx-10-17"],
    "4407": ["ge-xx-10r-17"], "4508": ["ge-xx-7r-17"], "4610": ["ge-xx-51r-17"],
    "4411": ["ge-xx-34-4r"], "4412": ["ge-xx-37-4r"], "4414": ["ge-xx-103-4r"],
    "4611": ["ge-xx-33-4r"], "4616": ["ge-iii-15-13-gyl"], "4618": ["ge-iii-60-13-gyl"],
    "4520": ["ge-iii-82-13-gyl"], "4525": ["ge-iii-218-47-gyl"],
    "4426": ["ge-iii-219-47-gyl"], "4328": ["ge-iii-220-47-gyl"], "4523": ["ge-xx-223-gyl"],
}
SETUP_18_2 = {
    "3801": ["br-ii-5gh-61-18"], "3802": ["br-ii-4ob-61-18"], "2902": ["br-ii-4bk-61-18"],
    "3304": ["br-i-478-18", "br-i-479-18", "br-ii-6wa-61-18", "br-ii-5gl-61-18"],
    "3104": ["br-ii-7wa-61-18", "br-ii-9rs-61-18", "br-ii-5dc-61-18", "br-i-476-18"],
    "3803": ["br-ii-8wo-61-18"], "3202": ["br-ii-8ar-61-18"], "0820": ["br-x-59-20-18"],
    "0720": ["br-x-61-20-18"], "2016": ["br-x-60-20-18", "br-i-150-18"],
    "3321": ["br-hq-3", "br-ii-5-2cv-3", "br-ii-9rb-14-3"], "2708": ["br-hq-18"],
    "3707": ["br-ii-2wl-30-18"], "3009": ["br-ii-2gr-30-18"],
    "2911": ["br-ii-17mn-30-18", "br-ii-11sl-30-18", "br-i-200-18", "br-i-201-18",
             "br-i-202-18"],
    "2405": ["br-x-89-30-18"], "3107": ["br-ii-2bd-30-18"], "2605": ["br-ii-2sf-30-18"],
    "3705": ["br-ii-16mn-30-18"],
    "1303": ["br-ii-6-3cv-18", "br-ii-7-3cv-18", "br-ii-cd-3cv-18"],
    "3612": ["br-ii-1ir-36-18"],
    "3213": ["br-ii-2ir-36-18", "br-ii-9ir-36-18", "br-ii-9in-36-18"],
    "4009": ["br-ii-15ir-36-18"], "4210": ["br-ii-12ir-36-18"], "3713": ["br-ii-1if-36-18"],
    "3311": ["br-ii-1in-36-18"], "3808": ["br-ii-2in-36-18"], "3811": ["br-ii-16ir-36-18"],
    "2516": ["br-i-83-18"], "1615": ["br-i-84-18"], "3013": ["br-i-121-18"],
    "2801": ["br-i-103-18"], "2402": ["br-i-129-18"], "4312": ["br-ii-8kr-14-3"],
    "3914": ["br-ii-7rb-14-3"], "4115": ["br-ii-8rb-14-3", "br-ii-11kn-14-3"],
    "3618": ["br-ii-5ob-14-3", "br-i-79-3"], "4313": ["br-ii-9kr-14-3"],
    "4315": ["br-ii-6sm-14-3"], "3820": ["br-ii-9sr-14-3"], "4216": ["br-ii-7kr-14-3"],
    "4118": ["br-ii-10es-18-3"], "4317": ["br-ii-8bk-18-3"], "4319": ["br-ii-7wk-18-3"],
    "2626": ["br-x-54-18-3", "br-ii-14e-3"], "4122": ["br-ii-7qu-18-3"],
    "4322": ["br-ii-7bf-18-3"], "3424": ["br-ii-8sy-18-3"], "4120": ["br-ii-8sx-18-3"],
    "4324": ["br-ii-2ln-58-3"], "3827": ["br-i-182-3", "br-i-503-3", "br-ii-3ln-58-3"],
    "4226": ["br-ii-4ln-58-3", "br-i-4sk-58-3"], "1727": ["br-ii-3-2cv-3", "br-ii-4-2cv-3"],
    "3317": ["br-i-61-3", "br-i-62-3", "br-i-89-3"], "3623": ["br-i-80-3", "br-i-92-3"],
    "2223": ["br-ii-21e-3"],
}


def on_map_by_hex(g, side):
    st, u = g.state, g.scenario.units
    out: dict[str, list[str]] = {}
    for i in np.flatnonzero((st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side)):
        out.setdefault(g.scenario.map.id_of(int(st.unit_cell[i])), []).append(u.ids[i])
    return {h: sorted(v) for h, v in out.items()}


def test_18_1_german_set_up():
    g = KbGame(kb_scenario(), seed=0)
    assert on_map_by_hex(g, Side.CENTRAL) == {h: sorted(v) for h, v in SETUP_18_1.items()}
    assert sum(map(len, SETUP_18_1.values())) == 36


def test_18_2_allied_set_up():
    g = KbGame(kb_scenario(), seed=0)
    assert on_map_by_hex(g, Side.ALLIED) == {h: sorted(v) for h, v in SETUP_18_2.items()}
    assert sum(map(len, SETUP_18_2.values())) == 83


def test_18_0_everything_else_waits_off_the_map():
    g = KbGame(kb_scenario(), seed=0)
    st, u = g.state, g.scenario.units
    placed = {x for v in list(SETUP_18_1.values()) + list(SETUP_18_2.values()) for x in v}
    for i, uid in enumerate(u.ids):
        if uid in placed:
            continue
        if g.data.replacement[i]:
            assert st.unit_status[i] == Status.POOL, uid                  # 13.2
        else:
            assert st.unit_status[i] == Status.PENDING, uid               # 15.3
            assert u.side[i] == Side.ALLIED
    assert int(g.data.replacement.sum()) == 39
    # the stacks of 18.2 are all within the 12-point limit (7.0)
    for h, v in SETUP_18_2.items():
        assert sum(int(u.stacking[u.index(x)]) for x in v) <= 12, h
    assert int(st.turn) == 1 and int(st.vp) == 0


def test_18_0_the_hexes_last_passed_through_start_with_the_set_up():
    g = KbGame(kb_scenario(), seed=0)
    m = g.scenario.map
    assert g.state.hex_last[m.cell("3902")] == Side.CENTRAL
    assert g.state.hex_last[m.cell("2016")] == Side.ALLIED
    assert (g.state.hex_last >= 0).sum() == len(SETUP_18_1) + len(SETUP_18_2)


def test_18_0_artillery_tracks_at_the_start():
    g = KbGame(kb_scenario(), seed=0)
    engine.start_of_turn(g)
    # 9.81, 9.82: German 50 field and 30 heavy, Allied none on Game-Turn 1
    assert g.arr("arty").tolist() == [[0, 0], [50, 30]]
