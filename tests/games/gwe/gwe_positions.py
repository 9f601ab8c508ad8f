"""Tiny hand-built Great War in the East positions for the rules tests."""

from gwe_fast import Game, scenario_from_dicts
from gwe_fast.policies.base import Policy

NAT_SIDE = {"russian": "allied", "german": "central", "austro_hungarian": "central"}
STEPS = {"infantry": [[2, 4, 4], [1, 2, 4]], "cavalry": [[1, 2, 6], [0, 1, 6]],
         "hq": [[0, 1, 6]], "depot": [[0, 1, 3]], "armored_car": [[1, 1, 6]]}


def unit(uid, nationality, hexid, type="infantry", steps=None, size=None, stacking=None, **kw):
    """One counter of a test position (a division unless told otherwise)."""
    size = size or {"hq": "army", "depot": "none", "armored_car": "none"}.get(type, "division")
    stacking = stacking if stacking is not None else {
        "hq": 0, "armored_car": 0, "depot": 2}.get(type, {"brigade": 1, "division": 2,
                                                          "corps": 4}.get(size, 2))
    out = {"id": uid, "name": uid, "side": NAT_SIDE[nationality], "nationality": nationality,
           "type": type, "size": size, "stacking": stacking,
           "steps": steps or STEPS[type], "setup": hexid, **kw}
    if type == "hq":
        out.update({"attack_shift": 1, "command_strength": 8, "command_radius": 3,
                    "combat": 1, "heroic": False})
        out.update(kw)
    return out


def position(units, cols=(1, 7), rows=(1, 7), terrain=None, features=None, hexsides=None,
             edges=None, seed=0, first_player="allied", **map_extra):
    """A Game on a small map holding ``units`` (see ``unit``), with the bundled Brusilov tables."""
    m = {"map": {"columns": list(cols), "rows": list(rows)}}
    if terrain:
        m["terrain"] = terrain
    if features:
        m["features"] = features
    if hexsides:
        m["hexsides"] = hexsides
    if edges:
        m["edges"] = edges
    m.update(map_extra)
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "test position", "version": 1,
                               "first_turn": 1, "last_turn": 1,
                               "first_player": first_player}},
        map=m, counters={"unit": units})
    return Game(sc, seed=seed)


def start_line(last_east_row, cols):
    """The start line (18.27) of a test map: the hexsides between the rows up to
    ``last_east_row`` (Russian side, at the top) and the rows below it, across ``cols``.
    Even columns sit half a hex lower, so they also touch the next row diagonally."""
    out = []
    r = last_east_row
    for c in range(cols[0], cols[1] + 1):
        out.append(f"{c:02d}{r:02d}-{c:02d}{r + 1:02d}")
        if c % 2 == 0:
            for c2 in (c - 1, c + 1):
                if cols[0] <= c2 <= cols[1]:
                    out.append(f"{c:02d}{r:02d}-{c2:02d}{r + 1:02d}")
    return out


class Prefer(Policy):
    """Picks the first option equal to one of ``prefs`` (else the first option); remembers
    every decision it was asked in ``seen``."""

    def __init__(self, *prefs):
        super().__init__()
        self.prefs = prefs
        self.seen = []

    def choose(self, decision, game, rng):
        self.seen.append(decision)
        for p in self.prefs:
            for i, o in enumerate(decision.options):
                if o == p:
                    return i
        return 0
