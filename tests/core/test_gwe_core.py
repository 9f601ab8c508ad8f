"""The Great War in the East compiled core (``_core/gwe/core.pyx``, issue 28) plays what it
plays exactly as the Python engine does: the same state, the same dice and the same draws, so
whole games are identical with the core and without it; and the rules it states for itself
(a side's supply, 25.13's "surrounded") answer as the Python engine's in every position."""

from __future__ import annotations

import numpy as np
import pytest
from played_games import AskRecorder, DrawingPolicy, played_by_core, same_core_game

import gwe_fast.games.gwe.game as gwe_game
from gwe_fast import load_scenario
from gwe_fast._core.gwe.core import GweCore
from gwe_fast.dice import STREAMS
from gwe_fast.enums import GwePhase
from gwe_fast.games import driver
from gwe_fast.games.gwe import combat, engine, rail, reinforcements, retreat, supply, victory
from gwe_fast.games.gwe.combat import is_surrounded
from gwe_fast.games.gwe.game import Flag
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status

HISTORICAL = "brusilov/historical"
ON_SCHEDULE = "brusilov/attack_on_schedule"


@pytest.fixture(scope="module")
def sc():
    return load_scenario(HISTORICAL)


def _play(sc, index: int, compiled: bool, policies=None, seed: int = 7):
    """One whole game, its result and its final game (state, dice, generators)."""
    return played_by_core(gwe_game, "gwe", sc, index, compiled, policies, seed)


_same_game = same_core_game


@pytest.mark.parametrize("index", range(24))
def test_random_games_are_the_python_engines(sc, index):
    _same_game(_play(sc, index, True), _play(sc, index, False))


@pytest.mark.parametrize("index", range(6))
def test_attack_on_schedule_games_are_the_python_engines(index):
    """Attack on Schedule has replacement tables of its own (26.24)."""
    on_schedule = load_scenario(ON_SCHEDULE)
    _same_game(_play(on_schedule, index, True), _play(on_schedule, index, False))


@pytest.mark.parametrize("options", [{"sga_early": True, "more_supply_rail": True},
                                     {"track_limits": False, "unlimited_command": True},
                                     {"west_front": True, "better_commanders": True}])
def test_games_with_options_are_the_python_engines(options):
    variant = load_scenario(HISTORICAL, options)
    for index in range(3):
        _same_game(_play(variant, index, True), _play(variant, index, False))


@pytest.mark.parametrize("allied, central", [("random", "greedy"), ("greedy", "random")])
def test_games_with_python_policies_are_the_python_engines(sc, allied, central):
    """A side whose policy is Python's decides in Python (its Step Replacement Phase is the
    Python engine's; its Command Control Segments are the core's, which allocates as the
    ladder does); the segments that ask nothing are the core's; the game is the same."""
    def policies():
        return {0: make_policy(allied, "gwe"), 1: make_policy(central, "gwe")}
    _same_game(_play(sc, 0, True, policies()), _play(sc, 0, False, policies()))


def test_what_the_core_plays(sc):
    g = driver("gwe").new_game(sc, 1, 0, policies={1: make_policy("greedy", "gwe")})
    g.policies[0] = make_policy("doctrine", "gwe")
    core = g.core
    assert isinstance(core, GweCore)
    before = bytes(g.state.buffer)
    assert core.withdrawal_phase(0) is False                 # a doctrine player decides there
    assert core.declare_attack(0) is None                    # the greedy defender decides
    assert core.reinforcement_segment(1) is False            # a greedy player decides
    for phase in (GwePhase.MOVEMENT, GwePhase.WITHDRAWAL, GwePhase.COMBAT,
                  GwePhase.REPLACEMENT):
        assert core.run_phase(0, phase) is False
    assert bytes(g.state.buffer) == before
    assert core.decisions == 0
    with pytest.raises(ValueError, match="no side 2"):
        core.initial_supply(2)
    with pytest.raises(ValueError, match="no phase 5"):
        core.run_phase(0, 5)
    # a state put in the place of the game's gets a core of its own
    g.state = g.state.copy()
    assert g.core is not core and g.core.buffer is g.state.buffer
    # a ladder player's Command Strength, replacement rolls and cavalry withdrawals are the
    # core's to answer (ladder_allocation; always attempted; ladder_withdrawal_unit,
    # ladder_safest, never occupying), a policy's that answers otherwise the Python engine's
    class OwnChoices(GreedyPolicy):
        def on_command_allocate(self, d, view, rng):
            return len(d.options) - 1

        def on_replacement_attempt(self, d, view, rng):
            return 1

        def on_withdrawal_occupy(self, d, view, rng):
            return len(d.options) - 1

    class OwnThreats(GreedyPolicy):                 # a step the withdrawal's answer reads
        def evaluations(self, view, attackers, cells, variants):
            return super().evaluations(view, attackers, cells, variants)

    assert not OwnThreats().core_answers("gwe", "gwe.withdrawal.unit")
    assert OwnThreats().core_answers("gwe", "gwe.withdrawal.path")
    kinds = ("gwe.command.allocate", "gwe.replacement.attempt", "gwe.withdrawal.occupy")
    for kind in kinds:
        assert make_policy("greedy", "gwe").core_answers("gwe", kind)
        assert make_policy("passive", "gwe").core_answers("gwe", kind)
        assert make_policy("lookahead", "gwe").core_answers("gwe", kind)
        assert not OwnChoices().core_answers("gwe", kind)
        assert not make_policy("doctrine", "gwe").core_answers("gwe", kind)
        assert not make_policy("random", "gwe").core_answers("gwe", kind)
        assert not make_policy("greedy", "gwe").core_answers("kb", kind)
    assert not make_policy("greedy", "gwe").core_answers("gwe", "gwe.combat.declare")
    own = driver("gwe").new_game(sc, 1, 0, policies={1: OwnChoices()})
    before = bytes(own.state.buffer)
    assert own.core.command_segment(1, False) is False
    assert own.core.replacement_phase(1) is False
    assert own.core.withdrawal_phase(0) is False
    assert bytes(own.state.buffer) == before
    # a game with an event log is played by the Python engine only
    assert driver("gwe").new_game(sc, 1, 0, events=True).core is None


def test_forced_dice_leave_it_to_the_python_engine(sc):
    """The tests force dice on the Python engine: with a stream's dice forced, the core
    refuses the segment with nothing done, and the Python engine rolls the forced die."""
    g = driver("gwe").new_game(sc, 3, 0)
    engine.advance(g, until=engine.position(sc, 2, int(sc.first_player), GwePhase.MOVEMENT))
    g.dice.force("attrition", [6])
    before = bytes(g.state.buffer)
    assert g.core.attrition_segment(int(sc.first_player)) is False
    assert bytes(g.state.buffer) == before
    g.dice.force("replacement", [6])
    assert g.core.replacement_phase(int(sc.first_player)) is False
    g.dice.force("command", [6])
    assert g.core.command_segment(int(sc.first_player), True) is False
    g.dice.force("withdrawal", [6])
    assert g.core.withdrawal_phase(1 - int(sc.first_player)) is False
    g.dice.force("breakdown", [6])
    assert g.core.movement_segment(int(sc.first_player)) is False
    assert g.core.run_phase(int(sc.first_player), GwePhase.MOVEMENT) is False
    assert bytes(g.state.buffer) == before


def _positions(sc, seeds, turns):
    """Positions of random games: at the start of each Movement and Combat Phase of the
    given Game-Turns, played by the Python engine."""
    d = driver("gwe")
    for seed in seeds:
        for turn in turns:
            for phase in (GwePhase.MOVEMENT, GwePhase.COMBAT):
                for k in (0, 1):
                    g = d.new_game(sc, seed, 0)
                    side = int(sc.first_player) if k == 0 else 1 - int(sc.first_player)
                    engine.advance(g, until=engine.position(sc, turn, side, phase))
                    yield g


def _core(g) -> GweCore:
    """A core playing the game ``g`` (its phases compiled)."""
    saved = gwe_game.COMPILED_PHASES
    gwe_game.COMPILED_PHASES = True
    try:
        return GweCore(g)
    finally:
        gwe_game.COMPILED_PHASES = saved


@pytest.mark.parametrize("name", [HISTORICAL, ON_SCHEDULE])
def test_8_63_source_distance_on_bitboards_is_the_queues(name):
    """8.63 priority 1: each hex's distance to a supply source, searched level by level on
    the passable steps' bitboards, is the breadth-first search on a queue's (the core with
    ``play._use_bit_parallel(False)``) and the Python engine's, in positions of random games
    of both Brusilov scenarios."""
    from gwe_fast._core import play

    scenario = load_scenario(name)
    far = 0
    for g in _positions(scenario, range(3), (2, 6, 10)):
        core = _core(g)
        for side in (0, 1):
            want = retreat.source_distance(g, side)
            was = play._use_bit_parallel(True)
            try:
                fast = core.source_distance(side)
                play._use_bit_parallel(False)
                slow = core.source_distance(side)
            finally:
                play._use_bit_parallel(was)
            np.testing.assert_array_equal(fast, want)
            np.testing.assert_array_equal(slow, want)
            far = max(far, int(fast.max()))
    assert far > 10                    # the searches went some way


def test_supply_and_surrounded_are_the_python_engines(sc):
    """In positions of random games, every unit's supply (9.12-9.17, 19.1), each hex's
    distance to a supply source (8.63) and, for every unit on the map, 25.13's test, as the
    core works them out, are the Python engine's."""
    surrounded = 0
    for g in _positions(sc, range(4), (2, 5, 9)):
        core = _core(g)
        for side in (0, 1):
            np.testing.assert_array_equal(core.in_supply(side),
                                          supply.in_supply(g.scenario, g.state, side))
            np.testing.assert_array_equal(core.source_distance(side),
                                          retreat.source_distance(g, side))
        on = np.flatnonzero(g.state.unit_status & Status.ON_MAP)
        for u in on.tolist():
            want = bool(is_surrounded(g, u))
            assert core.is_surrounded(u) == want, u
            surrounded += want
    assert surrounded > 0              # the positions hold surrounded units to compare


def test_supply_searches_kept_between_supplies_are_made_afresh(sc):
    """9.15, 9.16: the searches a core keeps from one supply to the next (made again only when
    a hex they read has changed) give what searches made afresh give: the rail sources (their
    starts and the hexes rail lines enter) and each depot's look back for a source (the hexes
    one step from those it reached). Through positions changed on and off the rail lines and
    around the depots: an enemy unit put on a rail source or next to a depot, then elsewhere,
    and the side's depots moved."""
    rng = np.random.default_rng(11)
    nb = sc.map.neighbors
    rail_changes = depot_changes = 0
    for g in _positions(sc, range(2), (3, 8)):
        core, st, units = _core(g), g.state, g.scenario.units
        for side in (0, 1):
            on = (st.unit_status & Status.ON_MAP) != 0
            enemy = np.flatnonzero(on & (units.side == 1 - side)).tolist()
            depots = np.flatnonzero(on & (units.side == side)
                                    & supply._fixed(g.scenario).depot).tolist()
            before = None
            for step in range(12):
                rail, supplied = core.supply_sources(side)
                want = supply._supply(g.scenario, st, side)
                np.testing.assert_array_equal(rail, want[0])
                np.testing.assert_array_equal(supplied, want[1])
                if before is not None:
                    rail_changes += not np.array_equal(before[0], rail)
                    depot_changes += not np.array_equal(before[1], supplied)
                before = (rail, supplied)
                u = int(rng.choice(enemy))
                if step % 3 == 0 and rail.any():       # onto a rail source: the line is cut
                    st.unit_cell[u] = int(rng.choice(np.flatnonzero(rail)))
                elif step % 3 == 1 and depots:         # next to a depot, or a depot moved
                    d = int(rng.choice(depots))
                    to = [int(v) for v in nb[int(st.unit_cell[d])] if v >= 0]
                    st.unit_cell[u if rng.random() < 0.6 else d] = int(rng.choice(to))
                else:                                  # anywhere
                    st.unit_cell[u] = int(rng.integers(g.scenario.map.n_cells))
    # the sources changed, so the kept searches were put to the test
    assert rail_changes > 10 and depot_changes > 5


def test_supply_remembered_is_made_again_when_a_unit_lives_off_the_land(sc):
    """19.43: a unit living off the land exerts no zone of control, so the other side's supply
    remembered from the same hexes and statuses is worked out again when only that mark
    changed: with the mark put on and taken off each unit in turn, the core's supply is the
    Python engine's, and some of those marks change it."""
    changed = 0
    for g in _positions(sc, range(2), (4,)):
        core, st, flags = _core(g), g.state, g.arr("flags")
        for side in (0, 1):
            enemy = np.flatnonzero(((st.unit_status & Status.ON_MAP) != 0)
                                   & (g.scenario.units.side == 1 - side)).tolist()
            for u in enemy[:40]:
                before = core.in_supply(side)
                flags[u] ^= np.uint16(Flag.LIVING_OFF_LAND)
                want = supply.in_supply(g.scenario, g.state, side)
                np.testing.assert_array_equal(core.in_supply(side), want)
                changed += not np.array_equal(before, want)
                flags[u] ^= np.uint16(Flag.LIVING_OFF_LAND)
                np.testing.assert_array_equal(core.in_supply(side), before)
    assert changed > 0                 # some marks cut or opened a line


def test_command_radii_kept_between_traces_are_traced_afresh(sc):
    """10.11 3, 10.33-10.34, 21.41: the command radii a core keeps from one trace to the next
    (an HQ's traced again only when its hex, radius or table changed, or a hex one step from
    those it reached was closed or opened, or an open zone changed where it reached) are
    those traced afresh: enemy units put next to and inside the radii, HQs moved and flipped
    to their reverse side."""
    from gwe_fast.games.gwe import command

    rng = np.random.default_rng(12)
    nb = sc.map.neighbors
    changes = 0
    for g in _positions(sc, range(2), (2, 6)):
        core, st, units = _core(g), g.state, g.scenario.units
        for side in (0, 1):
            on = (st.unit_status & Status.ON_MAP) != 0
            enemy = np.flatnonzero(on & (units.side == 1 - side)).tolist()
            before = None
            for step in range(12):
                hqs, plain, ah = core.command_radii(side)
                want = command._Radii._make(g, side)
                assert hqs == want[0]
                np.testing.assert_array_equal(plain, want[1])
                np.testing.assert_array_equal(ah, want[2])
                if before is not None and before.shape == plain.shape:
                    changes += not np.array_equal(before, plain)
                before = plain
                if not hqs:
                    break
                h = int(rng.choice(hqs))
                if step % 4 == 3:                      # an HQ moved, or flipped (10.54)
                    if rng.random() < 0.5:
                        to = [int(v) for v in nb[int(st.unit_cell[h])] if v >= 0]
                        st.unit_cell[h] = int(rng.choice(to))
                    else:
                        st.unit_step[h] = 1 - min(int(st.unit_step[h]), 1)
                else:                                  # an enemy unit inside the radius
                    inside = np.flatnonzero(plain[hqs.index(h)])
                    st.unit_cell[int(rng.choice(enemy))] = int(rng.choice(inside))
    # the radii changed, so the kept ones were put to the test
    assert changes > 20


def _marks_are_the_python_engines(g) -> int:
    """Compare the core's occupation and zones of control of both sides with ``zoc``'s, made
    afresh from the state; the hexes marked."""
    from gwe_fast.games.gwe import zoc

    marked = 0
    for side in (0, 1):
        got = g.core.position_marks(side)
        want = (zoc.occupied(g.scenario, g.state, side, True),
                zoc.occupied(g.scenario, g.state, side, False),
                zoc.controlled(g.scenario, g.state, side))
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)
            marked += int(b.sum())
        # and the Stacking Points in each hex, with the hexes over the limit (6.14)
        u, st = g.scenario.units, g.state
        mine = ((st.unit_status & Status.ON_MAP) != 0) & (u.side == side)
        points = np.bincount(st.unit_cell[mine], weights=u.stacking[mine],
                             minlength=g.scenario.map.n_cells).astype(np.int32)
        got_points, over = g.core.stacking_points(side)
        np.testing.assert_array_equal(got_points, points)
        assert over == int((points > g.data.stack_limit).sum())
    return marked


def _zone_alone(g, u: int) -> bool:
    """Whether unit ``u``'s zone of control covers a hex no other unit's does."""
    from gwe_fast.games.gwe import zoc

    side = int(g.scenario.units.side[u])
    with_it = zoc.controlled(g.scenario, g.state, side)
    g.state.unit_status[u] ^= np.uint16(Status.ON_MAP)
    without = zoc.controlled(g.scenario, g.state, side)
    g.state.unit_status[u] ^= np.uint16(Status.ON_MAP)
    return bool((with_it & ~without).any())


def test_occupation_kept_up_to_date_is_made_afresh(sc):
    """The core keeps each side's occupied hexes and zones of control as counts moved with
    each unit (``sync_occupancy``): after every phase of random games, and after the state
    is changed from Python behind the core's back (a unit moved, taken off the map, put back,
    entrained, living off the land, a state put in place), they are the marks made afresh;
    so are the Stacking Points in each hex and the hexes over the limit, which 6.14 reads."""
    from gwe_fast.games.gwe import zoc

    checks = []

    def check(game, phase_name):
        checks.append(_marks_are_the_python_engines(game))

    for seed in range(3):
        g = driver("gwe").new_game(sc, seed, 0)
        engine.advance(g, until=engine.position(sc, 4, int(sc.first_player), GwePhase.COMBAT),
                       check=check)
        st = g.state
        flags = g.arr("flags")
        # units whose zone of control alone covers some hex: changing them changes the marks
        alone = [u for u in np.flatnonzero(st.unit_status & Status.ON_MAP).tolist()
                 if _zone_alone(g, u)]
        a, b, c, d = alone[0], alone[1], alone[-1], alone[len(alone) // 2]
        assert len({a, b, c, d}) == 4
        flags[b] |= np.uint16(Flag.LIVING_OFF_LAND)             # 19.43
        _marks_are_the_python_engines(g)
        st.unit_status[c] &= ~np.uint16(Status.ON_MAP)           # off the map
        _marks_are_the_python_engines(g)
        st.unit_status[c] |= np.uint16(Status.ON_MAP)            # back
        st.unit_status[d] |= np.uint16(Status.ENTRAINED)         # 5.36
        _marks_are_the_python_engines(g)
        st.unit_cell[a] = st.unit_cell[b]                       # moved
        _marks_are_the_python_engines(g)
        for x in alone[:12]:                                    # a hex over the limit
            st.unit_cell[x] = st.unit_cell[b]
        assert g.core.stacking_points(int(sc.units.side[b]))[1] > 0
        _marks_are_the_python_engines(g)
        g.core.enforce_stacking()                               # and back within it
        assert g.core.stacking_points(int(sc.units.side[b]))[1] == 0
        _marks_are_the_python_engines(g)
        st.unit_status[d] &= ~np.uint16(Status.ENTRAINED)
        flags[b] &= ~np.uint16(Flag.LIVING_OFF_LAND)
        _marks_are_the_python_engines(g)
        other = driver("gwe").new_game(sc, seed + 10, 0)
        engine.advance(other, until=engine.position(sc, 6, int(sc.first_player),
                                                    GwePhase.MOVEMENT))
        st.buffer[:] = other.state.buffer                        # another position, in place
        _marks_are_the_python_engines(g)
        engine.advance(g, check=check)                          # and on to the end
    assert len(checks) > 3 * 50 and min(checks) > 0


def test_attack_targets_are_the_python_engines(sc):
    """The hexes each side may attack (8.1-8.2, 8.8, 8.14, 11.13, 12.21, 23.11; the options
    of ``"gwe.combat.declare"``), as the core's declaration finds them, are the Python
    engine's in positions of random games, some in the middle of a Combat Phase."""
    seen = 0
    for g in _positions(sc, range(3), (1, 4, 8)):
        core = GweCore(g)
        for side in (0, 1):
            want = combat.legal_targets(g, side)
            assert core.attack_targets(side) == want
            seen += len(want)
        side = int(g.state.player)
        if int(g.state.phase) == GwePhase.COMBAT:
            # two attacks declared and resolved by the core, then the targets again
            g.arr("flags")[:] &= ~np.uint16(Flag.ATTACKED | Flag.DEFENDED | Flag.ADVANCED)
            for _ in range(2):
                declared = core.declare_attack(side)
                if not declared:
                    break
                cells, attackers, depot, ddepot, right, left = declared
                combat.resolve_attack(g, combat.Combat(side, cells, attackers, depot, ddepot,
                                                       right, left))
            assert core.attack_targets(side) == combat.legal_targets(g, side)
    assert seen > 0


def test_reinforcements_at_blocked_entries_are_the_python_engines(sc):
    """14.22 (no random game reaches it: an entry blocked on two Game-Turns): the Central
    Powers' units due find every entry hex of theirs held by Russian units a second time, and
    the core offers, draws and places as the Python engine does (the alternate edge hexes
    toward the nearest friendly unit, 25.16's withholding, Rail Capacity)."""
    d = driver("gwe")
    u = sc.units
    due_turn = reinforcements.due_turns(sc)
    tried = 0
    for seed, turn in ((0, 3), (1, 5), (2, 7), (3, 9), (4, 6)):
        g = d.new_game(sc, seed, 0)
        engine.advance(g, until=engine.position(sc, turn, 1, GwePhase.MOVEMENT))
        st = g.state
        due = [i for i in range(u.n) if u.side[i] == 1 and st.unit_status[i] & Status.PENDING
               and 0 <= due_turn[i] <= turn and not reinforcements.replaced_hqs(sc)[i]]
        if not due:
            continue
        russians = [i for i in range(u.n) if u.side[i] == 0
                    and st.unit_status[i] & Status.ON_MAP]
        cells = sorted({int(c) for i in due for c in reinforcements.entry_cells(sc, i)})
        for k, c in enumerate(cells):                      # every entry hex held
            st.unit_cell[russians[k % len(russians)]] = c
        g.arr("flags")[due] |= np.uint16(Flag.ENTRY_BLOCKED)
        rail.start_rail_phase(g, 1)
        blocked = reinforcements.blocked_entry(g, 1)
        alternates = [reinforcements.alternate_hexes(g, 1, reinforcements.entry_cells(sc, i),
                                                     blocked) for i in due]
        assert any(alternates)
        before, rngs = bytes(st.buffer), [g.rngs[s].bit_generator.state for s in (0, 1)]
        saved = gwe_game.COMPILED_PHASES
        try:
            gwe_game.COMPILED_PHASES = False
            g._core = False
            reinforcements.reinforcement_segment(g, 1)
        finally:
            gwe_game.COMPILED_PHASES = saved
        want, want_rngs = bytes(st.buffer), [g.rngs[s].bit_generator.state for s in (0, 1)]
        st.buffer[:] = np.frombuffer(before, dtype=np.uint8)
        for s in (0, 1):
            g.rngs[s].bit_generator.state = rngs[s]
        assert GweCore(g).reinforcement_segment(1) is True
        assert bytes(st.buffer) == want
        assert [g.rngs[s].bit_generator.state for s in (0, 1)] == want_rngs
        assert want != before
        tried += 1
    assert tried >= 3


def test_record_rows_are_the_python_engines(sc):
    """The per-turn record made from the core's counts (``GweCore.record_numbers``) is the
    Python engine's row, town by town, in positions of random games."""
    towns_seen = 0
    for g in _positions(sc, range(2), (3, 6, 10)):
        saved = gwe_game.COMPILED_PHASES
        try:
            gwe_game.COMPILED_PHASES = False
            g._core = False
            want = engine.snapshot(g, int(g.state.turn), int(g.state.player))
            towns = sorted(victory.russian_towns(g))
            gwe_game.COMPILED_PHASES = True
            g._core = False
            got = engine.snapshot(g, int(g.state.turn), int(g.state.player))
            assert sorted(g.core.record_numbers()[0]) == towns
        finally:
            gwe_game.COMPILED_PHASES = saved
        assert got == want
        towns_seen += len(towns)
    assert towns_seen > 0


def _to_movement_segment(g, side: int) -> None:
    """What ``engine.movement_phase`` plays before the Movement Segment (4.0 A1a-A1c)."""
    from gwe_fast.games.gwe import command

    sc, st = g.scenario, g.state
    mine = sc.units.side == side
    g.arr("flags")[mine] &= ~np.uint16(Flag.MOVED | Flag.USED_RAIL)
    g.arr("mp_spent")[mine] = 0
    rail.start_rail_phase(g, side)
    engine.initial_supply(g, side)
    reinforcements.reinforcement_segment(g, side)
    command.command_segment(g, side, for_combat=False)
    g.arr("ooc_count")[side] = int((mine & ((st.unit_status & Status.OUT_OF_COMMAND) != 0))
                                   .sum())


def test_movement_segments_are_the_python_engines(sc):
    """A random player's Movement Segment played by the core (``GweCore.movement_segment``)
    is the Python engine's (``random_segment`` and ``move_one_unit``): the same moves, rail
    moves and draws, 10.52 after a move, and the whole moves the kernel hands back: a reduced
    Austro-Hungarian unit moved hex by hex with 23.52's rolls (23.53 on entraining), the
    armored car with 24.41's table and 24.42's breakdown. Positions of random games at the
    start of each side's Movement Segment; some must roll for 23.52 or 24.42."""
    from gwe_fast.enums import Nationality, UnitType

    u = sc.units
    rolled = hexwise = cars = eliminated = broke = 0
    breakdown = gwe_game.LOSS_CAUSES.index("breakdown")
    for seed in range(4):
        for turn in (2, 4, 6, 9):
            for side in (0, 1):
                g, _ = _segment_start(sc, seed, turn, side)
                st = g.state
                on = (st.unit_status & Status.ON_MAP) != 0
                mine = on & (u.side == side)
                hexwise += int((mine & (st.unit_step > 0) & (u.utype != UnitType.HQ)
                                & (u.nationality == Nationality.AUSTRO_HUNGARIAN)).sum())
                cars += int((mine & (u.utype == UnitType.ARMORED_CAR)).sum())
                rolls = g.dice.stream("breakdown").rolled
                lost = int(g.arr("steps_lost")[:, breakdown].sum())
                broken = g.arr("flags") & np.uint16(Flag.BROKEN_DOWN)
                _both_ways(g, side)           # the core's state is now the engine's
                rolled += g.dice.stream("breakdown").rolled - rolls
                eliminated += int(g.arr("steps_lost")[:, breakdown].sum()) - lost
                broke += int(((g.arr("flags") & np.uint16(Flag.BROKEN_DOWN)) != broken).sum())
    assert rolled >= 5 and hexwise >= 5 and cars >= 1 and eliminated >= 1 and broke >= 1


def _asked_policies(allied: str, central: str) -> dict:
    def make(name):
        return DrawingPolicy() if name == "drawing" else make_policy(name, "gwe")
    return {0: make(allied), 1: make(central)}


def _asked_both_ways(g, side: int, allied: str, central: str) -> list:
    """``_both_ways`` of the Movement Segment with both players made afresh for each run (a
    policy remembers its segment's plan); asserts that the core asked the questions the
    Python engine asked, in the same order, and returns them."""
    ask = g.ask
    runs = []

    def fresh(game):
        game.policies = _asked_policies(allied, central)
        runs.append(AskRecorder(ask))
        game.ask = runs[-1]

    def python(game):
        fresh(game)
        engine.movement_segment(game, side)

    def compiled(core):                 # the core was made with the last recorder: ask again
        runs[-1].questions.clear()
        g.policies = _asked_policies(allied, central)
        return core.movement_segment(side)

    _both_ways(g, side, python, compiled)
    g.ask = ask
    assert runs[0].questions == runs[-1].questions
    return runs[0].questions


@pytest.mark.parametrize("scenario, allied, central",
                         [(HISTORICAL, "greedy", "greedy"), (ON_SCHEDULE, "greedy", "greedy"),
                          (HISTORICAL, "drawing", "drawing"), (HISTORICAL, "random", "greedy"),
                          (HISTORICAL, "doctrine", "passive")])
def test_movement_segments_of_python_players_are_the_python_engines(scenario, allied, central):
    """A player who does not pick at random has its Movement Segment played by the core,
    which asks it (``GweCore.movement_segment``, ``COMPILED_ASKED_MOVES``): which unit, each
    action and where an HQ displaces (10.52), with the options the Python engine lists, in
    its order; the segment is the Python engine's, draws of a Python player's generator
    included. Positions of games between those players at the start of each side's
    Movement Segment; the questions must be asked."""
    sc = load_scenario(scenario)
    kinds: dict[str, int] = {}
    for seed in range(3):
        for turn in (2, 5, 8):
            for side in (0, 1):
                g = driver("gwe").new_game(sc, seed, 0, policies=_asked_policies(allied,
                                                                                 central))
                engine.advance(g, until=engine.position(sc, turn, side, GwePhase.MOVEMENT))
                _to_movement_segment(g, side)
                for kind, _, options, _ in _asked_both_ways(g, side, allied, central):
                    if len(options) > 1:
                        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds.get("gwe.move.unit", 0) >= 20
    if allied != "random":
        assert kinds.get("gwe.move.action", 0) >= 20


def test_an_asked_player_displaces_its_hqs_as_the_python_engine():
    """10.52 in a segment the core plays: an enemy HQ in a hex the mover's unit enters, or
    left alone by it, is displaced where its (Python) owner says, asked as
    ``command.displace_hq`` asks."""
    sc = load_scenario(HISTORICAL)
    displaced = 0
    for seed in range(12):
        g = driver("gwe").new_game(sc, seed, 0, policies=_asked_policies("drawing", "drawing"))
        for turn in (3, 6):
            side = int(sc.first_player)
            engine.advance(g, until=engine.position(sc, turn, side, GwePhase.MOVEMENT))
            _to_movement_segment(g, side)
            questions = _asked_both_ways(g, side, "drawing", "drawing")
            displaced += sum(q[0] == "gwe.hq.displace_to" for q in questions)
            engine.advance(g, until=engine.position(sc, turn, 1 - side, GwePhase.MOVEMENT))
    assert displaced >= 1


def _only_mover(g, unit: int, cell: int) -> None:
    """Put ``unit`` on ``cell`` and every other unit of its side out of Command Control, so
    that it is the only one that may move in the segment (4.0 A1d)."""
    st, u = g.state, g.scenario.units
    side = int(u.side[unit])
    others = (u.side == side) & (np.arange(u.n) != unit) & ((st.unit_status & Status.ON_MAP) != 0)
    st.unit_status[others] |= np.uint16(Status.OUT_OF_COMMAND)
    st.unit_status[others] &= ~np.uint16(Status.ENTRAINED)
    st.unit_status[unit] &= ~np.uint16(Status.OUT_OF_COMMAND | Status.OUT_OF_SUPPLY
                                       | Status.ENTRAINED)
    st.unit_cell[unit] = cell


def _both_ways(g, side: int, python=None, compiled=None):
    """The segment played by the Python engine, then again from the same state by the core;
    asserts they agree and returns the Python engine's state buffer. The Movement Segment
    unless ``python(g)`` and ``compiled(core)`` play another."""
    python = python or (lambda game: engine.movement_segment(game, side))
    compiled = compiled or (lambda core: core.movement_segment(side))
    for name in STREAMS:
        g.dice.stream(name)           # a stream not made yet is not in the snapshot
    st = g.state
    before, dice = bytes(st.buffer), g.dice.snapshot()
    rngs = [g.rngs[s].bit_generator.state for s in (0, 1)]
    saved = gwe_game.COMPILED_PHASES
    try:
        gwe_game.COMPILED_PHASES = False
        g._core = False
        python(g)
    finally:
        gwe_game.COMPILED_PHASES = saved
    want = bytes(st.buffer)
    want_rngs = [g.rngs[s].bit_generator.state for s in (0, 1)]
    want_dice = g.dice.snapshot()
    st.buffer[:] = np.frombuffer(before, dtype=np.uint8)
    g.dice.restore(dice)
    for s in (0, 1):
        g.rngs[s].bit_generator.state = rngs[s]
    assert compiled(GweCore(g)) is True
    assert bytes(st.buffer) == want
    assert [g.rngs[s].bit_generator.state for s in (0, 1)] == want_rngs
    got = g.dice.snapshot()
    assert all(np.array_equal(got[k], want_dice[k]) for k in want_dice)
    return want


def _segment_start(sc, seed: int, turn: int, side: int):
    """A random game at the start of ``side``'s Movement Segment of Game-Turn ``turn``, and
    its state's bytes there."""
    g = driver("gwe").new_game(sc, seed, 0)
    engine.advance(g, until=engine.position(sc, turn, side, GwePhase.MOVEMENT))
    _to_movement_segment(g, side)
    return g, bytes(g.state.buffer)


def test_the_core_moves_the_units_it_once_handed_back(sc):
    """The moves no random game of the other test is sure to reach: a reduced
    Austro-Hungarian unit on a Friendly rail hex, the only unit that may move, entrains and
    rolls for 23.53 in some draws; the armored car beside mountains (24.41: it may not enter
    them), broken down or not (24.42: its back, 0-1-1), in others. The core plays each draw as
    the Python engine does."""
    from gwe_fast.enums import Nationality, Terrain, UnitType
    from gwe_fast.games.gwe.zoc import controlled

    u, m = sc.units, sc.map
    g0, start = _segment_start(sc, 5, 3, 1)
    st = g0.state
    on = (st.unit_status & Status.ON_MAP) != 0
    ah = int(np.flatnonzero(on & (u.side == 1) & (u.utype != UnitType.HQ)
                            & (u.nationality == Nationality.AUSTRO_HUNGARIAN))[0])
    rail_hexes = rail.friendly_rail_hexes(sc, 1)
    enemy = np.zeros(m.n_cells, bool)
    enemy[st.unit_cell[on & (u.side == 0)]] = True
    zoc = controlled(sc, st, 0)
    cell = int(np.flatnonzero(rail_hexes & ~enemy & ~zoc)[0])
    entrained = eliminated = 0
    for draw in range(60):
        g0.state.buffer[:] = np.frombuffer(start, dtype=np.uint8)
        st.unit_step[ah] = 1                                  # reduced (23.5)
        _only_mover(g0, ah, cell)
        g0.rngs[1] = np.random.default_rng(draw)
        lost = int(g0.arr("steps_lost")[1].sum())
        _both_ways(g0, 1)
        entrained += int(g0.arr("rail_used")[1] > 0)
        eliminated += int(g0.arr("steps_lost")[1].sum() > lost)
    assert entrained >= 2 and eliminated >= 2

    car = int(np.flatnonzero(u.utype == UnitType.ARMORED_CAR)[0])
    g1, start = _segment_start(sc, 5, 4, 0)
    st = g1.state
    on = (st.unit_status & Status.ON_MAP) != 0
    mountain = m.terrain == Terrain.MOUNTAIN
    taken = np.zeros(m.n_cells, bool)
    taken[st.unit_cell[on]] = True
    near = [c for c in range(m.n_cells) if not mountain[c] and not taken[c]
            and sum(mountain[w] for w in m.neighbors[c] if w >= 0) >= 2]
    assert near
    differs = 0
    for draw in range(40):
        g1.state.buffer[:] = np.frombuffer(start, dtype=np.uint8)
        _only_mover(g1, car, near[draw % len(near)])
        if draw % 2:                                          # broken down: 0-1-1 (24.42)
            g1.arr("flags")[car] |= np.uint16(Flag.BROKEN_DOWN)
        g1.rngs[0] = np.random.default_rng(draw)
        _both_ways(g1, 0)
        differs += int(g1.state.unit_cell[car] != near[draw % len(near)])
    assert differs >= 10


@pytest.mark.parametrize("level", ["greedy", "passive"])
def test_ladder_command_segments_are_the_python_engines(sc, level):
    """A ladder player's Command Control Segment played by the core (``ladder_allocation``)
    is the Python engine's asking the policy (``position.command_plan``): the same Command
    Strength given, the same dice for the rest. Positions of random games at the start of
    each side's Movement and Combat Phases, the segment's side then played by ``level``;
    in some of them the HQs cannot command every unit they cover, so the plan's order
    decides who is left out."""
    from gwe_fast.games.gwe import command
    from gwe_fast.policies.gwe.position import command_plan

    short = 0
    asked = []

    def compiled(core, side, for_combat):
        done = core.command_segment(side, for_combat)
        asked.append(core.decisions)
        return done

    for g in _positions(sc, range(3), (1, 3, 5, 8)):
        side, for_combat = int(g.state.player), int(g.state.phase) == GwePhase.COMBAT
        g.policies[side] = make_policy(level, "gwe")
        plan = command_plan(g.policy_view(), side, for_combat,
                            g.policies[side].impl("gwe").weights)
        radii = command._Radii(g, side)
        if radii.hqs and not for_combat:
            # in a Movement Phase every unit gains from command: a covered unit left
            # without an HQ is one the HQs had no strength left for
            units = np.array(sorted(plan), dtype=np.int64)
            covered = radii.cover(units).any(axis=1)
            short += any(plan[int(x)] == command.NO_HQ for x in units[covered])
        _both_ways(g, side, lambda game: command.command_segment(game, side, for_combat),
                   lambda core: compiled(core, side, for_combat))
    assert short >= 3 and sum(asked) >= 100


def test_ladder_replacement_phases_are_the_python_engines(sc):
    """A ladder player's Step Replacement Phase played by the core (every eligible unit
    rolls, as ``PassivePolicy.on_replacement_attempt`` answers) is the Python engine's
    asking the greedy policy. Positions of random games at the start of each side's Step
    Replacement Phase; in some, units roll."""
    from gwe_fast.games.gwe import replacement

    rolled = 0
    for seed in range(4):
        for turn in (3, 5, 8):
            for side in (0, 1):
                g = driver("gwe").new_game(sc, seed, 0)
                engine.advance(g, until=engine.position(sc, turn, side, GwePhase.REPLACEMENT))
                g.policies[side] = make_policy("greedy", "gwe")
                before = g.dice.stream("replacement").rolled
                _both_ways(g, side, lambda game: replacement.replacement_phase(game, side),
                           lambda core: core.replacement_phase(side))
                rolled += g.dice.stream("replacement").rolled - before
    assert rolled >= 5


@pytest.mark.parametrize("scenario", [HISTORICAL, ON_SCHEDULE])
def test_ladder_withdrawal_phases_are_the_python_engines(scenario):
    """A ladder player's Cavalry Withdrawal Before Combat Phase played by the core
    (``ladder_withdrawal_unit``: the lone unit the enemy's attack threatens most, above
    ``withdraw_at``; ``ladder_safest``: the safest end of its paths; the phasing ladder
    player never occupies the hex left) is the Python engine's asking the greedy policy
    (the reference: its weighings on the ``Snapshot``, no core). Positions of greedy games
    (greedy on both sides, or facing a random player, who then occupies or withdraws at
    random) at the start of every Cavalry Withdrawal Before Combat Phase; in many a unit
    tries, and some withdraw along a path picked among several."""
    from gwe_fast.games.gwe import withdrawal

    sc = load_scenario(scenario)
    u = sc.units
    tried = moved = 0
    for seed, levels in enumerate([("greedy", "greedy"), ("greedy", "random"),
                                   ("random", "greedy"), ("greedy", "greedy")]):
        policies = {s: make_policy(level, "gwe") for s, level in enumerate(levels)}
        g = driver("gwe").new_game(sc, 700 + seed, 0, policies=policies)
        for turn in range(sc.first_turn, sc.last_turn + 1):
            for k in (0, 1):
                phasing = int(sc.first_player) if k == 0 else 1 - int(sc.first_player)
                side = 1 - phasing
                engine.advance(g, until=engine.position(sc, turn, phasing,
                                                        GwePhase.WITHDRAWAL))
                st = g.state
                before, dice = bytes(st.buffer), g.dice.snapshot()
                rngs = [g.rngs[s].bit_generator.state for s in (0, 1)]
                rolled = g.dice.stream("withdrawal").rolled
                cells = st.unit_cell.copy()
                _both_ways(g, side, lambda game: withdrawal.withdrawal_phase(game, side),
                           lambda core: core.withdrawal_phase(side))
                tried += g.dice.stream("withdrawal").rolled - rolled
                moved += int(((st.unit_cell != cells) & (u.side == side)).sum())
                # the phase again from its start, as the game plays it
                st.buffer[:] = np.frombuffer(before, dtype=np.uint8)
                g.dice.restore(dice)
                for s in (0, 1):
                    g.rngs[s].bit_generator.state = rngs[s]
                g._core = False
    assert tried >= 10 and moved >= 5
