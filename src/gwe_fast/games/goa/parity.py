"""Parity of the compiled core with the reference engine: one game played on both, compared
decision by decision, die by die and byte by byte.

``compare(t, seed, index)`` plays game ``index`` of master seed ``seed`` with random players
three times:

1. on the reference engine (``engine.play``), the random players' draws made here from their
   SplitMix64 streams (seeded by numpy's ``SeedSequence``, as ``dice.Stream.of``);
2. on the core with every decision handed back to Python (``LEVEL_EXTERNAL``) and answered
   with the same draws;
3. on the core with the random players inside it (``LEVEL_RANDOM``, seeded in C), its
   decision trace on.

It returns ``None`` when all three agree, else one sentence naming the first difference:
every decision's kind, side, subject, secrecy and options (and the index drawn), the whole
state buffer at every decision (2) and at the end of every month (2, 3), the final state and
the dice and policy streams left over. ``scripts/check_goa_parity.py`` plays thousands;
``tests/games/goa/test_core_parity.py`` a few hundred.

>>> import gwe_fast, pathlib, sys
>>> sys.path.insert(0, str(pathlib.Path(gwe_fast.__file__).parents[2] / "tests" / "games" / "goa"))
>>> import tiny
>>> from gwe_fast.games.goa.tables import compile_tables
>>> raw = tiny.raw()
>>> raw["scenario"]["last"] = "1915-02"           # a short game
>>> compare(compile_tables(raw, {"colonies": True}), 1, 0) is None
True
>>> len(option_combinations()) < 20, len(option_combinations(every=True))
(True, 2560)
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import numpy as np

from gwe_fast.games.goa import engine
from gwe_fast.games.goa.codes import Kind
from gwe_fast.games.goa.dice import Stream
from gwe_fast.games.goa.model import GoaTables, state_layout
from gwe_fast.games.goa.tables import initial_state


@dataclass
class Played:
    """One game's record: its decisions ``(month, kind, side, subject, secret, options,
    index)``, the state at each decision (or ``None``), the state at the end of each month
    ``{month: bytes}``, the final state and the streams' states left over."""

    decisions: list = field(default_factory=list)
    decision_states: list | None = field(default_factory=list)
    months: dict = field(default_factory=dict)
    final: bytes = b""
    streams: tuple = ()


def play_reference(t: GoaTables, seed: int, index: int, states: bool = True) -> Played:
    """Game ``(seed, index)`` on the reference engine, random players drawing here."""
    s = initial_state(t)
    dice = Stream.of(seed, index, "goa")
    pol = [Stream.of(seed, index, "goa-policy-allied"), Stream.of(seed, index, "goa-policy-central")]
    out = Played(decision_states=[] if states else None)
    gen = engine.play(t, s, dice, lambda m: out.months.__setitem__(m, s.buffer.tobytes()))
    try:
        ask = next(gen)
        while True:
            i = pol[ask.side].below(len(ask.options))
            out.decisions.append((int(s.scalars[0]), int(ask.kind), int(ask.side),
                                  int(ask.subject), bool(ask.secret),
                                  tuple(int(x) for x in ask.options), i))
            if states:
                out.decision_states.append(s.buffer.tobytes())
            ask = gen.send(i)
    except StopIteration:
        pass
    out.final = s.buffer.tobytes()
    out.streams = (dice.state, pol[0].state, pol[1].state)
    return out


def play_core_answered_here(t: GoaTables, seed: int, index: int, states: bool = True) -> Played:
    """Game ``(seed, index)`` on the core, every decision answered here (``LEVEL_EXTERNAL``)."""
    from gwe_fast._core.goa import LEVEL_EXTERNAL, RUN_DECISION, RUN_MONTH_END
    from gwe_fast._core.goa.engine import GoaCore

    core = GoaCore(t, seed=seed, game_index=index, levels=(LEVEL_EXTERNAL, LEVEL_EXTERNAL),
                   stop_at_month_end=True)
    pol = [Stream.of(seed, index, "goa-policy-allied"), Stream.of(seed, index, "goa-policy-central")]
    buf = core.buffer
    out = Played(decision_states=[] if states else None)
    while True:
        status = core.run()
        if status == RUN_MONTH_END:
            out.months[core.month_ended] = buf.tobytes()
        elif status == RUN_DECISION:
            options = tuple(core.options.tolist())
            i = pol[core.side].below(len(options))
            out.decisions.append((core.month, core.kind, core.side, core.subject, core.secret,
                                  options, i))
            if states:
                out.decision_states.append(buf.tobytes())
            core.choose(i)
        else:
            break
    out.final = buf.tobytes()
    out.streams = (core.streams[0], pol[0].state, pol[1].state)
    return out


def play_core_inside(t: GoaTables, seed: int, index: int) -> Played:
    """Game ``(seed, index)`` on the core, random players inside it; ``decisions`` from its
    trace (the options themselves are not kept: ``options`` holds their number)."""
    from gwe_fast._core.goa import LEVEL_RANDOM, RUN_MONTH_END
    from gwe_fast._core.goa.engine import GoaCore

    core = GoaCore(t, seed=seed, game_index=index, levels=(LEVEL_RANDOM, LEVEL_RANDOM),
                   stop_at_month_end=True, trace=True)
    out = Played(decision_states=None)
    while True:
        status = core.run()
        if status == RUN_MONTH_END:
            out.months[core.month_ended] = core.buffer.tobytes()
        else:
            break
    out.decisions = [(m, k, sd, sub, bool(sec), n, i, code)
                     for m, k, sd, sub, sec, n, i, code in core.trace_rows.tolist()]
    out.final = core.buffer.tobytes()
    out.streams = core.streams
    return out


def describe_difference(t: GoaTables, a: bytes, b: bytes) -> str:
    """The state arrays in which two state buffers differ, with the first index of each."""
    layout, _ = state_layout(t)
    x = np.frombuffer(a, np.uint8)
    y = np.frombuffer(b, np.uint8)
    parts = []
    for name, dtype, shape, offset in layout:
        n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        u = x[offset:offset + n].view(dtype).reshape(shape)
        v = y[offset:offset + n].view(dtype).reshape(shape)
        if not np.array_equal(u, v):
            at = tuple(int(i) for i in np.argwhere(u != v)[0])
            parts.append(f"{name}{list(at)}: {u[at]} vs {v[at]}")
    return "; ".join(parts) or "no array (padding)"


def _kind(code: int) -> str:
    return Kind(code).name.lower()


def compare(t: GoaTables, seed: int, index: int, states: bool = True) -> str | None:
    """``None`` when game ``(seed, index)`` is the same on the reference engine and on the
    core (both ways of answering), else the first difference in one sentence."""
    ref = play_reference(t, seed, index, states)
    here = play_core_answered_here(t, seed, index, states)
    inside = play_core_inside(t, seed, index)
    for n, (a, b) in enumerate(zip(ref.decisions, here.decisions)):
        if a != b:
            return (f"decision {n} (month {a[0]}): the reference asks {_kind(a[1])} of side "
                    f"{a[2]} about {a[3]} with options {a[5]}, the core {_kind(b[1])} of side "
                    f"{b[2]} about {b[3]} with options {b[5]}")
        if states and ref.decision_states[n] != here.decision_states[n]:
            return (f"decision {n} (month {a[0]}, {_kind(a[1])}): the states differ: "
                    + describe_difference(t, ref.decision_states[n], here.decision_states[n]))
    if len(ref.decisions) != len(here.decisions):
        return (f"the reference asks {len(ref.decisions)} decisions, the core "
                f"{len(here.decisions)}")
    for n, (a, b) in enumerate(zip(ref.decisions, inside.decisions)):
        if (a[:5], len(a[5]), a[6], a[5][a[6]]) != (b[:5], b[5], b[6], b[7]):
            return (f"decision {n} (month {a[0]}): the reference asks {_kind(a[1])} of side "
                    f"{a[2]} and takes option {a[5][a[6]]} of {len(a[5])}; the core's random "
                    f"player is asked {_kind(b[1])} of side {b[2]} and takes {b[7]} of {b[5]}")
    if len(ref.decisions) != len(inside.decisions):
        return (f"the reference asks {len(ref.decisions)} decisions, the core with its random "
                f"players inside {len(inside.decisions)}")
    for name, other in (("answered here", here), ("random inside", inside)):
        if sorted(ref.months) != sorted(other.months):
            return f"the months played differ ({name}): {sorted(ref.months)} vs {sorted(other.months)}"
        for m in sorted(ref.months):
            if ref.months[m] != other.months[m]:
                return (f"the states at the end of month {m} differ ({name}): "
                        + describe_difference(t, ref.months[m], other.months[m]))
        if ref.final != other.final:
            return f"the final states differ ({name}): " + describe_difference(t, ref.final, other.final)
        if ref.streams != other.streams:
            return f"the streams left over differ ({name}): {ref.streams} vs {other.streams}"
    return None


#: every option of the variants and the values each takes; the naval, colonial and chart
#: options go together (the colonial variant needs the naval one; the chart is naval)
OPTION_VALUES = {
    "variable_entry": (True, False), "morale": (True, False), "production": (True, False),
    "victory": (True, False), "surrender": (True, False),
    "sea": ((False, False, False), (True, False, False), (True, False, True),
            (True, True, False), (True, True, True)),
    "swap_berlin": (False, True), "swap_london": (False, True),
    "land": ("historical", "fronts"), "through_1919": (False, True),
}


def _options(values: dict) -> dict:
    out = {k: v for k, v in values.items() if k != "sea"}
    out["naval"], out["colonies"], out["naval_combat_chart"] = values["sea"]
    return out


def option_combinations(every: bool = False, seed: int = 5) -> list[dict]:
    """Option values to play: every legal combination (``every``, 2,560 of them), or a set
    in which every pair of values of two options occurs at least once (about 15; drawn
    greedily from ``seed``, the same set every time)."""
    names = list(OPTION_VALUES)
    if every:
        return [_options(dict(zip(names, row)))
                for row in itertools.product(*OPTION_VALUES.values())]
    sizes = [len(OPTION_VALUES[n]) for n in names]
    pairs = {(i, a, j, b) for i, j in itertools.combinations(range(len(names)), 2)
             for a in range(sizes[i]) for b in range(sizes[j])}
    rng = random.Random(seed)
    rows = []
    while pairs:
        best = None
        for _ in range(300):
            row = [rng.randrange(n) for n in sizes]
            cover = sum((i, row[i], j, row[j]) in pairs
                        for i, j in itertools.combinations(range(len(names)), 2))
            if best is None or cover > best[0]:
                best = (cover, row)
        rows.append(best[1])
        pairs -= {(i, best[1][i], j, best[1][j])
                  for i, j in itertools.combinations(range(len(names)), 2)}
    return [_options({n: OPTION_VALUES[n][v] for n, v in zip(names, row)}) for row in rows]
