"""Replay one game and show it as a self-contained HTML page: a map per Game-Turn or phase.

A game of gwe_fast is fixed by its scenario (with options), its two policies and its
``(master seed, game index)``, so a row of a results file written by ``gwe run`` is enough to
play it again exactly. ``replay_game`` plays it through the game's driver
(``gwe_fast.games.driver``) with the event log on and takes a copy of the position at the end
of every phase; ``render_replay`` draws the chosen positions with ``FrameRenderer`` and
``write_page`` puts them into one HTML file, images embedded, no network needed.

The page holds the map drawn once with no units (the background) and, per frame, a PNG of
only the pixels that differ from it (the units, the outlined combat hexes and the heading's
position line) laid over it, so a hundred frames stay a few megabytes.

Examples
--------
>>> from gwe_fast import load_scenario
>>> sc = load_scenario("brusilov/historical")
>>> rp = replay_game(sc, seed=0, game_index=0, every="turn", last_turn=1)
>>> [f.label for f in rp.frames]
['Set-up', 'Game-Turn 1']
>>> rp.stopped_after, rp.result is None
(1, True)
"""

from __future__ import annotations

import base64
import html
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gwe_fast import __version__
from gwe_fast.enums import Side
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State

EVERY = ("turn", "phase")
DEFAULT_DPI = 60             #: about 1650 x 1300 pixels for the Brusilov map
#: columns a results row needs for a replay
ROW_COLUMNS = ("scenario", "options", "policies", "master_seed", "game_index", "result", "vp")
SIDE_NAMES = tuple(s.name.lower() for s in Side)


class ReplayError(ValueError):
    """A replay that cannot start: the message is one sentence naming what is wrong."""


# --- which game ------------------------------------------------------------------------------

@dataclass
class GameSpec:
    """Everything that fixes a game, and what a results row says about how it ended.

    ``policies`` maps a side name (``"allied"``, ``"central"``) to a policy spec string;
    ``row`` is the results row (a dict) the spec was read from, or None.
    """

    scenario: str
    options: dict[str, Any]
    policies: dict[str, str]
    seed: int
    game_index: int
    source: str = ""
    row: dict | None = None

    def make_policies(self) -> dict[int, Any]:
        """``{side: Policy}`` for the game; ReplayError names a bad side or spec."""
        from gwe_fast.policies.registry import PolicyError, make_policy

        out = {}
        for side, spec in self.policies.items():
            if side not in SIDE_NAMES:
                raise ReplayError(f"unknown side {side!r} for policy {spec!r}{self._where()} "
                                  f"(sides: {', '.join(SIDE_NAMES)})")
            try:
                out[int(Side[side.upper()])] = make_policy(str(spec))
            except PolicyError as exc:
                raise ReplayError(f"policy {spec!r} for the {side} side{self._where()}: "
                                  f"{exc}") from None
        return out

    def _where(self) -> str:
        return f" in {self.source}" if self.source else ""


def read_results_row(path: str | Path, row: int | None = None,
                     game_index: int | None = None) -> GameSpec:
    """The game of one row of a results file written by ``gwe run``.

    The row is chosen by its position ``row`` (0 is the first) or by its ``game_index``
    column; a file holding a single game needs neither. Raises ReplayError (one sentence)
    for a missing file, a file that is not a gwe_fast results file, or a row out of range.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    if row is not None and game_index is not None:
        raise ReplayError("give --row or --game-index, not both")
    if not path.is_file():
        raise ReplayError(f"results file {path} not found")
    try:
        meta = pq.read_metadata(path)
        schema = pq.read_schema(path)
    except (pa.ArrowException, OSError):
        raise ReplayError(f"{path} is not a Parquet file, so not a results file of gwe run"
                          ) from None
    missing = [c for c in ROW_COLUMNS if c not in schema.names]
    if b"gwe_fast" not in (meta.metadata or {}) or missing:
        raise ReplayError(f"{path} is not a gwe_fast results file (written by gwe run): "
                          + (f"it lacks the columns {', '.join(missing)}" if missing else
                             "it has no gwe_fast metadata"))
    table = pq.read_table(path)
    n = table.num_rows
    if n == 0:
        raise ReplayError(f"{path} holds no game to replay")
    if row is None and game_index is None:
        if n != 1:
            raise ReplayError(f"{path} holds {n} games: choose one with --row (0 to {n - 1}) "
                              f"or --game-index")
        row = 0
    if row is not None:
        if not 0 <= row < n:
            raise ReplayError(f"--row {row} is out of range: {path} holds {n} "
                              f"row{'s' if n != 1 else ''} (0 to {n - 1})")
        index = row
    else:
        hits = [i for i, g in enumerate(table.column("game_index").to_pylist())
                if g == game_index]
        if not hits:
            raise ReplayError(f"{path} holds no game with game index {game_index}")
        index = hits[0]
    record = {name: table.column(name)[index].as_py() for name in table.column_names}
    where = f"row {index} of {path}"
    try:
        options = json.loads(record["options"])
        policies = json.loads(record["policies"])
    except (TypeError, ValueError):
        options = policies = None
    if not (isinstance(options, dict) and isinstance(policies, dict)):
        raise ReplayError(f"the options or policies column of {where} is not a JSON object, "
                          f"so the game cannot be set up again")
    return GameSpec(scenario=record["scenario"], options=options,
                    policies={str(k): str(v) for k, v in policies.items()},
                    seed=int(record["master_seed"]), game_index=int(record["game_index"]),
                    source=where, row=record)


# --- playing it --------------------------------------------------------------------------------

@dataclass
class Frame:
    """One picture of the replay: a position and the events since the previous picture.

    ``sections`` splits ``events`` by phase: ``(offset into events, phase label)``.
    """

    label: str
    turn: int
    state: State
    events: list[tuple]
    sections: list[tuple[int, str]] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return int(self.state.vp)

    def highlight(self) -> list[int]:
        """Map cells to outline: the hexes of this frame's combats, and the towns that scored
        at the end of the game."""
        cells = []
        for e in self.events:
            if e[0] in ("combat", "score") and isinstance(e[-1], dict):
                cells.extend(int(c) for c in e[-1].get("cells", ()) if int(c) >= 0)
        return cells


@dataclass
class Replay:
    """A replayed game: its frames and how it ended (``result`` is the driver's
    ``GameResult``; None when the game raised, see ``error``, or was stopped early, see
    ``stopped_after``)."""

    scenario: Scenario
    spec: GameSpec
    every: str
    frames: list[Frame]
    result: Any = None
    error: str = ""
    stopped_after: int | None = None
    seconds: float = 0.0

    @property
    def final_vp(self) -> int:
        return self.frames[-1].vp

    def frames_description(self) -> str:
        """What the frames are: ``16: the set-up, one per Game-Turn (14) and the end of the
        game``."""
        n = len(self.frames)
        last = self.frames[-1].label if n > 1 else ""
        ending = ("the end of the game" if last == END_LABEL
                  else "the position at the error" if last.startswith("Error") else "")
        middle = n - 1 - (1 if ending else 0)
        text = "the set-up"
        if middle:
            text += f", one per {'phase' if self.every == 'phase' else 'Game-Turn'} ({middle})"
        if ending:
            text += f" and {ending}"
        return f"{n}: {text}"


END_LABEL = "End of the game"


class _Stop(Exception):
    """Raised from the phase-end callback to end a replay after ``last_turn``."""


def _phase_label(turn: int, side: int | None, phase: str) -> str:
    phase = phase.replace("_", " ")
    if side is None:
        return f"Game-Turn {turn}: {phase} phase"
    name = Side(side).name.lower() if side in (0, 1) else f"side {side}"
    return f"Game-Turn {turn}, {name} Player-Turn: {phase} phase"


def replay_game(scenario: Scenario, seed: int, game_index: int, policies: dict | None = None,
                every: str = "turn", last_turn: int | None = None,
                spec: GameSpec | None = None) -> Replay:
    """Play a game again with its event log and keep the positions to draw.

    ``every="turn"`` keeps the set-up and the position at the end of each Game-Turn,
    ``"phase"`` the position at the end of every phase; a game played to its end has a last
    frame ``"End of the game"`` whose events are the end-of-game scoring (``("score", turn,
    {"cause", "rule", "vp", ...})``, from the driver's ``end_scoring``; the game's own event
    log does not hold them), so that every change of the VP total has its events.
    ``last_turn`` stops the game after that Game-Turn (no final result then). A game that
    raises ends the replay at the position where it did, with the error in
    ``Replay.error``.
    """
    from gwe_fast.games import driver

    if every not in EVERY:
        raise ReplayError(f"--every must be one of {', '.join(EVERY)}, not {every!r}")
    try:
        drv = driver(scenario.game)
    except (ValueError, ImportError):
        raise ReplayError(f"scenario {scenario.key} is a game ({scenario.game}) whose rules "
                          f"engine is not available, so it cannot be replayed") from None
    if spec is None:
        spec = GameSpec(scenario.key, dict(scenario.options),
                        {SIDE_NAMES[int(s)]: getattr(p, "name", "?")
                         for s, p in (policies or {}).items()}, seed, game_index)
    game = drv.new_game(scenario, seed, game_index, policies=policies, events=True)
    log = game.events
    frames = [Frame("Set-up", int(game.state.turn), game.state.copy(), [])]
    taken = 0                               # events already in a frame
    sections: list[tuple[int, str]] = []    # phase starts in the events not yet in a frame
    pending: list = []                      # turn mode: the latest phase end of the turn
    phasing = int(game.state.player)        # the player of the phase being played
    # In The Great War in the East each phase belongs to one Player-Turn, and the state's
    # player when a phase begins (its value at the previous phase end) is its phasing player;
    # other games' phases are named without a player.
    by_player = scenario.game == "gwe"
    phase_start = 0

    def add(label: str, turn: int, state: State, upto: int) -> None:
        nonlocal taken
        secs = [(a - taken, lab) for a, lab in sections]
        frames.append(Frame(label, turn, state, list(log[taken:upto]), secs))
        sections.clear()
        taken = upto

    causes = [None]                         # the VP by cause at the latest phase end

    def capture(g, phase: str) -> None:
        nonlocal phasing, phase_start
        st = g.state
        if "vp_cause" in getattr(g, "ENGINE_ARRAYS", {}):
            causes[0] = g.arr("vp_cause").copy()
        turn = int(st.turn)
        if last_turn is not None and turn > last_turn:
            raise _Stop
        label = _phase_label(turn, phasing if by_player else None, phase)
        phasing, start, phase_start = int(st.player), phase_start, len(log)
        if every == "phase":
            add(label, turn, st.copy(), len(log))
            return
        if pending and pending[0] != turn:
            add(f"Game-Turn {pending[0]}", *pending)
        sections.append((start, label))
        pending[:] = [turn, st.copy(), len(log)]

    t0 = time.perf_counter()
    result, error, stopped = None, "", None
    try:
        result = drv.play(game, check=capture)
    except _Stop:
        stopped = last_turn
    except Exception as exc:  # noqa: BLE001 - a game that raises is shown up to the error
        error = f"{type(exc).__name__}: {exc}"
    seconds = time.perf_counter() - t0
    if pending:
        add(f"Game-Turn {pending[0]}", *pending)
    if error:
        if every == "turn":
            sections.append((phase_start, "the phase that raised the error"))
        add(f"Error in Game-Turn {int(game.state.turn)}", int(game.state.turn),
            game.state.copy(), len(log))
    elif stopped is None:
        scores = _end_scoring(drv, game, causes[0])
        if len(log) > taken or scores:
            sections.append((taken, "end of the game"))
        add(END_LABEL, int(game.state.turn), game.state.copy(), len(log))
        frames[-1].events.extend(("score", int(game.state.turn), s) for s in scores)
    return Replay(scenario, spec, every, frames, result, error, stopped, seconds)


def _end_scoring(drv, game, before) -> list[dict]:
    """The end-of-game scoring as events: the driver's ``end_scoring``, and a line for any
    VP of another cause that changed after the last phase (so the events add up to the VP
    change of the last frame)."""
    scores = [dict(s) for s in getattr(drv, "end_scoring", lambda g: [])(game)]
    if before is None or "vp_cause" not in getattr(game, "ENGINE_ARRAYS", {}):
        return scores
    change = game.arr("vp_cause") - before
    named = {s["cause"] for s in scores}
    for cause, vp in zip(game.VP_CAUSES, change.tolist()):
        if vp and cause not in named:
            scores.append({"cause": cause, "vp": int(vp), "what": cause.replace("_", " ")})
    return scores


def default_out(scenario: Scenario, seed: int, game_index: int) -> Path:
    """Where ``gwe replay`` writes without ``--out``:
    ``results/replays/<scenario>-seed<S>-game<I>.html`` (git-ignored)."""
    from gwe_fast.runner.batch import run_name

    return (Path("results") / "replays"
            / f"{run_name(scenario)}-seed{seed}-game{game_index}.html")


# --- comparing with the results row ----------------------------------------------------------

def check_against_row(rp: Replay) -> tuple[bool, str]:
    """``(ok, sentence)``: does the replay end as its results row says?"""
    row = rp.spec.row
    if row is None:
        return True, ""
    if rp.stopped_after is not None:
        return True, (f"stopped after Game-Turn {rp.stopped_after}, so the result is not "
                      f"compared with {rp.spec.source}")
    said = row["result"]
    if said == "setup-only":
        return False, (f"{rp.spec.source} was recorded without playing (setup-only: no rules "
                       f"engine then), so there is no result to compare")
    if said == "error":
        mine = rp.error or f"{_ending(rp)} (no error)"
        theirs = row.get("error", "")
        if rp.error and rp.error == theirs:
            return True, f"raised the same error as {rp.spec.source}"
        return False, _mismatch(rp, f"the replay ended {mine}", f"error {theirs!r}")
    if rp.error:
        return False, _mismatch(rp, f"the replay raised {rp.error}",
                                f"{said} with {row['vp']} VP")
    if rp.result.level == said and int(rp.result.vp) == int(row["vp"]):
        return True, f"ends as {rp.spec.source} says: {said}, {row['vp']} VP"
    return False, _mismatch(rp, f"the replay ended {_ending(rp)}", f"{said} with {row['vp']} VP")


def _ending(rp: Replay) -> str:
    return f"{rp.result.level} with {rp.result.vp} VP" if rp.result else "without a result"


def _mismatch(rp: Replay, mine: str, theirs: str) -> str:
    row, sc = rp.spec.row, rp.scenario
    made = (f"gwe_fast {row.get('package_version', '?')}, scenario version "
            f"{row.get('scenario_version', '?')}, data hash {row.get('data_hash', '?')}")
    here = (f"gwe_fast {__version__}, scenario version {sc.version}, data hash "
            f"{sc.data_hash}")
    same = (row.get("package_version") == __version__ and row.get("data_hash") == sc.data_hash)
    if same:
        why = (f"yet the row was made by this same version and data ({here}): a game that "
               f"does not replay exactly is a bug, please report it with the file")
    else:
        why = f"the row was made by {made}, this is {here}"
    return f"{mine} but {rp.spec.source} says {theirs}; {why}"


# --- the event log, readable --------------------------------------------------------------------

UNIT_KEYS = {"unit", "units", "attackers", "hq", "by", "depot", "pick"}
CELL_KEYS = {"cell", "cells", "hex", "to", "frm", "via", "path"}
GROUPED = {"out_of_command": "Out of command"}   #: runs of these become one line


class EventWriter:
    """Events of the log as short HTML lines, with unit names and hex ids."""

    def __init__(self, scenario: Scenario):
        self.sc = scenario

    def unit(self, i: int) -> str:
        u = self.sc.units
        if not 0 <= int(i) < u.n:
            return f"unit {int(i)}"
        side = SIDE_NAMES[int(u.side[i])] if int(u.side[i]) in (0, 1) else "other"
        return (f'<span class="u {side}" title="{html.escape(u.ids[i])}">'
                f'{html.escape(u.names[i])}</span>')

    def hex(self, cell: int) -> str:
        if not 0 <= int(cell) < self.sc.map.n_cells:
            return "off the map"
        return f'<span class="h">{self.sc.map.id_of(int(cell))}</span>'

    def value(self, key: str, v: Any) -> str:
        seq = isinstance(v, (list, tuple, np.ndarray))
        if key in UNIT_KEYS:
            return ", ".join(self.unit(x) for x in v) if seq else self.unit(v)
        if key in CELL_KEYS:
            return " → ".join(self.hex(x) for x in v) if seq else self.hex(v)
        return html.escape(str(v))

    def line(self, event: tuple) -> tuple[str, str]:
        """``(kind, html)`` of one event."""
        kind = event[0]
        if kind == "die":
            _, _, stream, why, v = event
            return "die", f"die ({html.escape(stream)}{': ' + html.escape(why) if why else ''}): {v}"
        d = event[2] if len(event) > 2 and isinstance(event[2], dict) else {}
        f = {k: self.value(k, v) for k, v in d.items()}
        text = {
            "move": lambda: f"{f['unit']} moves to {f['to']} ({f['mp']} MP)",
            "rail_move": lambda: (f"{f['unit']} moves by rail {self.hex(d['path'][0])} → "
                                  f"{self.hex(d['path'][-1])} ({len(d['path']) - 1} hexes)"),
            "entrain": lambda: f"{f['unit']} entrains ({f['mp']} MP)",
            "detrain": lambda: f"{f['unit']} detrains",
            "reinforcement": lambda: (f"{f['unit']} arrives at {f['cell']}"
                                      + (" by rail" if d.get("entrained") else "")),
            "combat": lambda: (f"<b>Combat</b> at {', '.join(self.hex(c) for c in d['cells'])}: "
                               f"{f['attackers']} attack, {f['attack']} against "
                               f"{f['defense']}, odds {f['odds']}, die {d['die']}"
                               + (f" (modified {d['modified_die']})"
                                  if d['modified_die'] != d['die'] else "")
                               + f": <b>{f['result']}</b>"),
            "retreat": lambda: f"{f['units']} retreat {f['path']}",
            "advance": lambda: f"{f['unit']} advances to {f['path']}",
            "step_loss": lambda: (f"{f['unit']} loses {d['steps']} step"
                                  f"{'s' if d['steps'] != 1 else ''} ({f['cause']})"),
            "eliminated": lambda: (f"{f['unit']} <b>eliminated</b> ({f['cause']}"
                                   + (", surrounded" if d.get("surrounded") else "") + ")"),
            "withdrawal": lambda: f"{f['unit']} withdraws via {f['via']} to {f['to']}",
            "score": lambda: self.score(d),
        }.get(kind)
        if text is not None and all(k in d for k in _KEYS.get(kind, ())):
            return kind, text()
        detail = ", ".join(f"{html.escape(k)} {v}" for k, v in f.items())
        return kind, f"{html.escape(kind.replace('_', ' '))}{': ' + detail if detail else ''}"

    def score(self, d: dict) -> str:
        """An end-of-game score: the rule, what scored (towns with their values, units),
        and the points, ``<b>+3 VP</b>``."""
        rule = f" ({html.escape(d['rule'])})" if d.get("rule") else ""
        items = [f"{self.place(c)} {self.hex(c)} ({v})"
                 for c, v in zip(d.get("cells", ()), d.get("values", ()))]
        items += [self.unit(i) for i in d.get("units", ())]
        listed = ": " + ", ".join(items) if items else (
            ": none" if "cells" in d or "units" in d else "")
        return (f"End of the game{rule}: {html.escape(str(d.get('what', d['cause'])))}"
                f"{listed}; <b>{int(d['vp']):+d} VP</b>")

    def place(self, cell: int) -> str:
        names = self.__dict__.setdefault(
            "_places", {p.cell: p.name for p in self.sc.places})
        return html.escape(names.get(int(cell), "town"))

    def frame_html(self, frame: Frame) -> tuple[str, dict]:
        """The frame's log as an HTML list, and its counts (events, dice, decisions)."""
        counts = {"events": 0, "dice": 0, "decisions": 0}
        starts: dict[int, list[str]] = {}
        for offset, label in frame.sections:
            starts.setdefault(offset, []).append(label)
        items: list[str] = []
        group: list[str] = []
        group_kind = ""

        def flush() -> None:
            nonlocal group, group_kind
            if group:
                items.append(f'<li class="ev {group_kind}">{GROUPED[group_kind]} '
                             f'({len(group)}): {", ".join(group)}</li>')
            group, group_kind = [], ""

        def headings(n: int) -> None:
            if n in starts:
                flush()
                items.extend(f'<li class="phase">{html.escape(label)}</li>'
                             for label in starts[n])

        for n, event in enumerate(frame.events):
            headings(n)
            kind = event[0]
            if kind == "choice":
                counts["decisions"] += 1
                continue
            counts["dice" if kind == "die" else "events"] += 1
            if kind in GROUPED and isinstance(event[2], dict) and "unit" in event[2]:
                if group_kind != kind:
                    flush()
                group_kind = kind
                group.append(self.unit(event[2]["unit"]))
                continue
            flush()
            cls, text = self.line(event)
            items.append(f'<li class="ev {html.escape(cls)}">{text}</li>')
        headings(len(frame.events))        # phases at the end in which nothing was logged
        flush()
        return '<ol class="log">' + "".join(items) + "</ol>", counts


_KEYS = {"move": ("unit", "to", "mp"), "rail_move": ("unit", "path"), "entrain": ("unit", "mp"),
         "detrain": ("unit",), "reinforcement": ("unit", "cell"),
         "combat": ("cells", "attackers", "attack", "defense", "odds", "die", "modified_die",
                    "result"),
         "retreat": ("units", "path"), "advance": ("unit", "path"),
         "step_loss": ("unit", "steps", "cause"), "eliminated": ("unit", "cause"),
         "withdrawal": ("unit", "via", "to"), "score": ("cause", "vp")}


# --- drawing and the page -----------------------------------------------------------------------

@dataclass
class Rendered:
    """The pictures of a replay: the background PNG, one overlay PNG per frame (RGBA: only
    the pixels that differ from the background), the frame size, and the time taken."""

    background: bytes
    overlays: list[bytes]
    size: tuple[int, int]
    seconds_setup: float
    seconds_per_frame: float


def frame_file_name(i: int, frame: Frame) -> str:
    """``007-turn03.png``, ``018-turn03-allied-combat.png``, ``000-setup.png``, ``015-end.png``.
    """
    words = frame.label.lower().replace(",", "").replace(":", "").split()
    if words[0] == "game-turn":
        # "game-turn 3 allied player-turn combat phase" or "game-turn 1 german movement phase"
        rest = [w for w in words[2:] if w not in ("player-turn", "phase")]
        slug = "-".join([f"turn{int(words[1]):02d}", *rest])
    else:
        slug = {"set-up": "setup", "end": "end", "error": "error"}.get(words[0], words[0])
    return f"{i:03d}-{slug}.png"


def render_replay(rp: Replay, *, dpi: int | None = None, frames_dir: str | Path | None = None,
                  progress: Callable[[int, int], None] | None = None) -> Rendered:
    """Draw every frame of a replay; also write each whole frame as a PNG to ``frames_dir``."""
    from gwe_fast.render.mapplot import FrameRenderer, png_bytes

    t0 = time.perf_counter()
    title = f"{rp.scenario.name} — {rp.scenario.key}, seed {rp.spec.seed}, game {rp.spec.game_index}"
    renderer = FrameRenderer(rp.scenario, dpi=dpi or DEFAULT_DPI, title=title)
    background = png_bytes(renderer.background)
    setup = time.perf_counter() - t0
    if frames_dir is not None:
        frames_dir = Path(frames_dir)
        frames_dir.mkdir(parents=True, exist_ok=True)
    overlays = []
    t1 = time.perf_counter()
    for i, frame in enumerate(rp.frames):
        rgb = renderer.rgb(frame.state, caption=frame.label, highlight=frame.highlight())
        changed = (rgb != renderer.background).any(axis=2)
        rgba = np.zeros(rgb.shape[:2] + (4,), dtype=np.uint8)
        rgba[changed, :3] = rgb[changed]
        rgba[changed, 3] = 255
        overlays.append(png_bytes(rgba))
        if frames_dir is not None:
            (frames_dir / frame_file_name(i, frame)).write_bytes(png_bytes(rgb))
        if progress:
            progress(i + 1, len(rp.frames))
    per = (time.perf_counter() - t1) / max(1, len(rp.frames))
    return Rendered(background, overlays, renderer.size, setup, per)


def _b64(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def page_html(rp: Replay, pictures: Rendered, check: tuple[bool, str] = (True, "")) -> str:
    """The self-contained replay page."""
    writer = EventWriter(rp.scenario)
    spec, sc = rp.spec, rp.scenario
    frames = []
    vp_before = rp.frames[0].vp
    for frame, overlay in zip(rp.frames, pictures.overlays):
        log, counts = writer.frame_html(frame)
        frames.append({"label": frame.label, "turn": frame.turn, "vp": frame.vp,
                       "vp_before": vp_before, "overlay": _b64(overlay), "log": log, **counts})
        vp_before = frame.vp
    if rp.error:
        ending = f"the game raised an error in Game-Turn {rp.frames[-1].turn}: {rp.error}"
    elif rp.stopped_after is not None:
        ending = (f"stopped after Game-Turn {rp.stopped_after} (--last-turn), VP "
                  f"{rp.final_vp} then")
    else:
        ending = (f"{rp.result.level.replace('_', ' ')}, {rp.result.vp} VP, winner "
                  f"{rp.result.winner}, {rp.result.turns_played} Game-Turns")
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(spec.options.items())) or "none"
    policies = ", ".join(f"{side}: {spec.policies.get(side, 'random')}" for side in SIDE_NAMES)
    facts = [("Scenario", f"{sc.name} ({sc.key}, version {sc.version})"),
             ("Options", options), ("Policies", policies),
             ("Seed", f"master seed {spec.seed}, game index {spec.game_index}"),
             ("Result", ending),
             ("Frames", rp.frames_description()),
             ("Made by", f"gwe_fast {__version__}, data hash {sc.data_hash}")]
    if spec.source:
        facts.append(("From", spec.source))
    ok, sentence = check
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                   for k, v in facts)
    if sentence:
        cls = "ok" if ok else "warn"
        rows += f'<tr class="{cls}"><th>Check</th><td>{html.escape(sentence)}</td></tr>'
    data = json.dumps(frames, separators=(",", ":")).replace("</", "<\\/")
    width, height = pictures.size
    return (_PAGE.replace("@TITLE@", html.escape(f"Replay: {sc.key}, seed {spec.seed}, "
                                                 f"game {spec.game_index}"))
            .replace("@FACTS@", rows)
            .replace("@LAST@", str(len(frames) - 1))
            .replace("@WIDTH@", str(width)).replace("@HEIGHT@", str(height))
            .replace("@BACKGROUND@", _b64(pictures.background))
            .replace("@FRAMES@", data))


def write_page(out: str | Path, text: str) -> Path:
    """Write the page under a temporary name and move it into place."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".partial")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return out


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>
body { font: 14px/1.35 system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 8px 14px; background: #f4f1e6; border-bottom: 1px solid #ccc; }
header h1 { font-size: 17px; margin: 0 0 4px; }
header table { border-collapse: collapse; font-size: 13px; }
header th { text-align: left; padding: 1px 10px 1px 0; color: #555; font-weight: 600; }
header td { padding: 1px 0; }
tr.warn td { color: #a40000; font-weight: 600; }
tr.ok td { color: #1d6b1d; }
#controls { display: flex; gap: 8px; align-items: center; padding: 8px 14px;
            border-bottom: 1px solid #ddd; position: sticky; top: 0; background: white; z-index: 2; }
#slider { flex: 1; }
#frame-label { min-width: 26em; font-weight: 600; }
main { display: flex; align-items: flex-start; }
#map { position: relative; flex: 3; min-width: 0; overflow: auto; }
#map img { display: block; width: 100%; height: auto; }
#map img#overlay { position: absolute; left: 0; top: 0; }
#map.actual img { width: @WIDTH@px; max-width: none; }
aside { flex: 1; min-width: 22em; max-height: calc(100vh - 60px); overflow-y: auto;
        padding: 6px 12px; border-left: 1px solid #ddd; font-size: 13px; position: sticky;
        top: 46px; }
ol.log { list-style: none; padding: 0; margin: 0; }
ol.log li { padding: 1px 0; border-bottom: 1px dotted #eee; }
ol.log li.phase { font-weight: 700; margin-top: 8px; border-bottom: 1px solid #999; }
ol.log li.die { color: #888; display: none; }
aside.dice ol.log li.die { display: list-item; }
ol.log li.combat { background: #fff0f6; }
ol.log li.eliminated { background: #fbe9e7; }
span.u { font-weight: 600; }
span.u.allied { color: #a93226; }
span.u.central { color: #1f3a5f; }
span.h { font-family: ui-monospace, monospace; }
#counts { color: #666; margin: 0 0 6px; }
#selftest { display: none; }
</style>
</head>
<body>
<header>
<h1>@TITLE@</h1>
<table>@FACTS@</table>
</header>
<div id="controls">
<button id="prev" type="button" title="previous frame (left arrow)">&#9664; previous</button>
<input id="slider" type="range" min="0" max="@LAST@" value="0" step="1" aria-label="frame">
<button id="next" type="button" title="next frame (right arrow)">next &#9654;</button>
<span id="frame-label" data-frame="0"></span>
<label><input id="zoom" type="checkbox"> actual size</label>
<label><input id="dice" type="checkbox"> dice rolls</label>
</div>
<main>
<div id="map">
<img id="background" alt="map" width="@WIDTH@" height="@HEIGHT@" src="@BACKGROUND@">
<img id="overlay" alt="units" width="@WIDTH@" height="@HEIGHT@" src="">
</div>
<aside id="aside">
<p id="counts"></p>
<div id="log"></div>
</aside>
</main>
<pre id="selftest"></pre>
<script type="application/json" id="frames">@FRAMES@</script>
<script>
"use strict";
var FRAMES = JSON.parse(document.getElementById("frames").textContent);
var slider = document.getElementById("slider");
var current = -1;
function show(i) {
  i = Math.max(0, Math.min(FRAMES.length - 1, Number(i) || 0));
  var f = FRAMES[i];
  current = i;
  slider.value = String(i);
  document.getElementById("overlay").src = f.overlay;
  var label = document.getElementById("frame-label");
  label.textContent = "Frame " + (i + 1) + "/" + FRAMES.length + ": " + f.label + " (VP " + f.vp + ")";
  label.setAttribute("data-frame", String(i));
  document.getElementById("log").innerHTML = f.log;
  document.getElementById("counts").textContent = i === 0 ? "The position before play." :
      f.events + " events, " + f.dice + " dice rolls, " + f.decisions +
      " decisions since the previous frame; VP " + f.vp_before + " \u2192 " + f.vp + ".";
  if (history.replaceState) {
    history.replaceState(null, "", "#frame=" + i);
  }
}
function step(d) { show(current + d); }
slider.addEventListener("input", function () { show(slider.value); });
document.getElementById("prev").addEventListener("click", function () { step(-1); });
document.getElementById("next").addEventListener("click", function () { step(1); });
document.getElementById("zoom").addEventListener("change", function (e) {
  document.getElementById("map").classList.toggle("actual", e.target.checked);
});
document.getElementById("dice").addEventListener("change", function (e) {
  document.getElementById("aside").classList.toggle("dice", e.target.checked);
});
document.addEventListener("keydown", function (e) {
  if (e.target === slider) { return; }       /* the slider moves itself on arrow keys */
  if (e.key === "ArrowRight") { step(1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { step(-1); e.preventDefault(); }
  else if (e.key === "Home") { show(0); e.preventDefault(); }
  else if (e.key === "End") { show(FRAMES.length - 1); e.preventDefault(); }
});
function startFrame() {
  var m = /[#?&]frame=(\\d+)/.exec(location.hash + location.search);
  return m ? Number(m[1]) : 0;
}
/* #selftest: drive the controls as a user would and write what the page showed */
function selfTest() {
  var seen = [];
  function note(action) {
    var first = document.querySelector("#log li");
    seen.push({action: action, frame: Number(document.getElementById("frame-label")
                                         .getAttribute("data-frame")),
               label: document.getElementById("frame-label").textContent,
               slider: Number(slider.value),
               overlay: document.getElementById("overlay").getAttribute("src").length,
               log_items: document.querySelectorAll("#log li").length,
               first_log: first ? first.textContent : ""});
  }
  note("start");
  slider.value = "2";
  slider.dispatchEvent(new Event("input", {bubbles: true}));
  note("slider to 2");
  document.getElementById("next").click();
  note("next button");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
  note("right arrow");
  document.getElementById("prev").click();
  note("previous button");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "End", bubbles: true}));
  note("end key");
  var out = document.getElementById("selftest");
  out.textContent = JSON.stringify(seen);
  out.style.display = "block";
}
var wantSelfTest = /selftest/.test(location.hash + location.search);
show(startFrame());
if (wantSelfTest) { selfTest(); }
</script>
</body>
</html>
"""
