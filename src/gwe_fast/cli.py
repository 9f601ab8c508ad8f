"""The ``gwe`` command: a thin Typer layer over the library.

Every user mistake ends in one clear sentence on stderr and a non-zero exit status, never a
traceback: 2 for a bad scenario, option or argument, 1 for a failure while running (disk
full, unwritable output), 130 for an interrupted run.
"""

from __future__ import annotations

import math
import shutil
import sys
from enum import Enum
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated

import typer
import typer.core

from gwe_fast import __version__
from gwe_fast.scenario.errors import GIVEN, Fault, ScenarioError
from gwe_fast.scenario.loader import bundled_scenarios, load_scenario, validate

try:                                       # typer 0.2x carries its own copy of click
    from typer._click.exceptions import UsageError
except ImportError:                        # pragma: no cover - older typer
    from click.exceptions import UsageError

#: the largest master seed and game count any command takes (the int64 and int32 columns)
MAX_SEED, MAX_GAMES = 2**63 - 1, 2**31 - 1
MAX_WORKERS = 1024                         # far more worker processes than any machine's cores


class _Commands(typer.core.TyperGroup):
    """The ``gwe`` group: a mistake in the arguments (a value out of range, an unknown option,
    a missing argument) is one line, ``gwe: …``, and exit status 2, like every other mistake,
    instead of a usage block and a framed message."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except UsageError as exc:
            _usage_error(exc)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            _usage_error(exc)


def _usage_error(exc: UsageError) -> None:
    if type(exc).__name__ == "NoArgsIsHelpError":      # `gwe` alone: the help, as asked
        raise exc
    where, ctx = [], exc.ctx
    while ctx is not None and ctx.parent is not None:      # the subcommands, not the program
        where.insert(0, ctx.info_name)
        ctx = ctx.parent
    message = " ".join(exc.format_message().split()).rstrip(".")
    typer.echo(f"gwe: {message} (see gwe {' '.join([*where, '--help'])})", err=True)
    raise typer.Exit(exc.exit_code)


app = typer.Typer(
    cls=_Commands,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,          # plain help: flags without a <bool>, our metavars kept
    no_args_is_help=True,
    help="gwe_fast: batch simulation of The Great War in the East (Brusilov Offensive) and "
         "The Kaiser's Battle.\n\nExample: gwe run --games 100\n\n"
         "Every command has its own help: gwe COMMAND --help.",
)

DEFAULT_SCENARIO = "brusilov/historical"


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"gwe: {message}", err=True)
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``NAME=VALUE`` pairs as a dict. The same option given twice with two values is refused
    (which was meant?); given twice alike, it is the same command and is taken once."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            fail(f"--option {pair!r} must look like NAME=VALUE (for example sga_early=true)")
        name, value = name.strip(), value.strip()
        if out.get(name, value) != value:
            fail(f"--option {name} is given twice, as {out[name]} and as {value}; give it once")
        out[name] = value
    return out


def parse_policies(items: list[str] | None) -> dict[str, str]:
    """``SIDE=SPEC`` pairs as a dict: a side given two policies is refused, given the same
    one twice it is taken once (a side named two ways is caught by ``resolve_policies``)."""
    out: dict[str, str] = {}
    for item in items or []:
        side, sep, spec = item.partition("=")
        if not sep or not side.strip() or not spec.strip():
            fail(f"--policy {item!r} must look like SIDE=SPEC (for example central=random)")
        side, spec = side.strip(), spec.strip()
        if out.get(side, spec) != spec:
            fail(f"--policy gives side {side} two policies, {out[side]} and {spec}; give one")
        out[side] = spec
    return out


def fault_line(fault: Fault) -> str:
    """A fault as one line; a bad option value names the command-line option it came from."""
    if fault.file == GIVEN:
        return f"--option {fault.key}: {fault.message}"
    return str(fault)


#: the flag that lets a scenario name files outside its folder and the bundled data
AllowOutside = Annotated[bool, typer.Option(
    "--allow-outside-paths", help="Let the scenario read map, counters, tables and extends "
                                  "files outside its own folder and the bundled data.")]


def load_or_fail(scenario: str, options: dict[str, str], consequence: str,
                 allow_outside_paths: bool = False):
    """Load a scenario, or print each fault and exit with status 2."""
    try:
        return load_scenario(scenario, options, allow_outside_paths=allow_outside_paths)
    except ScenarioError as exc:
        for fault in exc.faults:
            typer.echo(fault_line(fault), err=True)
        n = len(exc.faults)
        what = (f"the --option values do not fit scenario {scenario}"
                if all(f.file == GIVEN for f in exc.faults) else
                f"scenario {scenario} does not load")
        fail(f"{what} ({n} fault{'s' if n != 1 else ''}); {consequence}")


def _progress(prefix: str = ""):
    """The progress line of long work on stderr (``runner.progress.Progress``)."""
    from gwe_fast.runner.progress import Progress

    tty = sys.stderr.isatty()
    return Progress(write=lambda text: typer.echo(text, err=True, nl=not tty), tty=tty,
                    prefix=prefix)


def default_outputs(scenario, seed: int = 0, sweep: str = "sweep",
                    results_file: Path = Path("results/run.parquet")) -> dict[str, Path]:
    """Where each command writes when it is given no ``--out``, relative to the working
    directory: every one is a folder or name that the repository's .gitignore ignores, so
    that no default ever overwrites a committed file (tests/test_readme_examples.py)."""
    from gwe_fast.analysis.report import default_out as report_out
    from gwe_fast.render.replay import default_out as replay_out
    from gwe_fast.runner import batch
    from gwe_fast.runner.sweep import default_folder
    from gwe_fast.runner.tournament import default_out as tournament_out
    from gwe_fast.runner.tournament import games_dir_for

    run = batch.default_out(Path("results"), scenario, seed)
    folder = default_folder(SimpleNamespace(name=sweep))
    return {"run": run, "per-turn": batch.turns_path_for(run),
            "towns": batch.towns_path_for(run),
            "partial": batch.partial_path(run),
            "tournament": tournament_out(scenario),
            "tournament games": games_dir_for(tournament_out(scenario)) / "a--b.parquet",
            "sweep": folder / "sweep.json", "report": report_out([folder]) / "report.html",
            "report of a file": report_out([results_file]) / "report.html",
            "replay": replay_out(scenario, seed, 0)}


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"gwe_fast {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=version_callback,
                                          is_eager=True, help="Print the version and exit.")]
    = False,
) -> None:
    """gwe_fast command line."""


@app.command()
def scenarios() -> None:
    """List the bundled scenarios and their options.

    \b
    Example: gwe scenarios
    """
    from gwe_fast.runner.batch import side_words

    for key in bundled_scenarios():
        try:
            sc = load_scenario(key)
        except ScenarioError as exc:
            n = len(exc.faults)
            typer.echo(f"{key}: does not load ({n} fault{'s' if n != 1 else ''}; run "
                       f"'gwe validate {key}')")
            continue
        typer.echo(sc.describe())
        names, vp_for, _ = side_words(sc)
        whose = f"{names[vp_for]} VP" if vp_for else "VP"       # whose total an option moves
        for name, spec in sc.option_specs.items():
            case = f" [{spec.case}]" if spec.case else ""
            vp = f" ({whose} {spec.vp:+d})" if spec.vp else ""
            typer.echo(f"    --option {name}={str(spec.default).lower()}{case}{vp}: {spec.help}")


def _scenario_files(target: str) -> list[str]:
    p = Path(target)
    if p.is_dir():
        files = []
        for f in sorted(p.glob("*.toml")):
            if f.stem not in ("map", "counters", "tables"):
                files.append(str(f))
        if not files:
            fail(f"folder {target} holds no scenario file (*.toml other than map, counters, "
                 f"tables)")
        return files
    return [target]


@app.command("validate")
def validate_cmd(
    paths: Annotated[list[str], typer.Argument(
        metavar="SCENARIO...", help="Scenario files, folders of them, or bundled scenario "
                                    "names.")],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="Also check an option value (repeatable).")] = None,
    allow_outside_paths: AllowOutside = False,
) -> None:
    """Check scenario files and every file they name.

    Every fault is reported, each with its file, line and key. Exit status 0 when all are
    valid, 2 when any fault is found.

    \b
    Example: gwe validate mine/historical.toml
    """
    opts = parse_options(option)
    total = 0
    for target in paths:
        for f in _scenario_files(target):
            faults = validate(f, opts, allow_outside_paths=allow_outside_paths)
            if faults:
                total += len(faults)
                for fault in faults:
                    typer.echo(fault_line(fault), err=True)
            else:
                typer.echo(f"{f}: ok")
    if total:
        fail(f"{total} fault{'s' if total != 1 else ''} found", 2)


@app.command("copy-scenario")
def copy_scenario(
    name: Annotated[str, typer.Argument(
        metavar="SCENARIO", help="A bundled scenario, e.g. brusilov/historical.")],
    dest: Annotated[Path, typer.Argument(
        metavar="FOLDER", help="A new folder to copy the game's files into.")],
) -> None:
    """Copy a bundled game folder to edit as your own.

    The whole folder: map, counters, tables and every scenario of the game.

    \b
    Example: gwe copy-scenario brusilov/historical mine
             gwe validate mine/historical.toml
    """
    bundled = bundled_scenarios()
    if name not in bundled:
        fail(f"{name!r} is not a bundled scenario (bundled: {', '.join(bundled)})")
    if dest.exists() and any(dest.iterdir()):
        fail(f"{dest} already exists and is not empty; choose a new folder")
    try:
        shutil.copytree(bundled[name].parent, dest, dirs_exist_ok=True)
    except OSError as exc:
        fail(f"cannot copy to {dest}: {exc.strerror or exc}", 1)
    typer.echo(f"copied {name} to {dest}; run it with: gwe run {dest / bundled[name].name}")


class Backend(str, Enum):
    local = "local"
    dask = "dask"


@app.command()
def run(
    scenario: Annotated[str, typer.Argument(
        metavar="SCENARIO", help="Bundled scenario name or path to a scenario file.")]
    = DEFAULT_SCENARIO,
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1, max=MAX_GAMES, metavar="N",
        help="Number of games: indices 0 .. N-1.")]
    = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, metavar="S",
                                      help="Master seed.")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="A scenario option (repeatable).")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", "-p", metavar="SIDE=SPEC",
        help="The policy of a side (allied or central, or the game's name for it), e.g. "
             "central=random or allied=mypkg.mod:MyPolicy:x=1 (repeatable; default: "
             "random).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, max=MAX_WORKERS, metavar="N",
        help="Worker processes (0: one per core).")]
    = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="Parquet file to write (default results/<scenario>-"
                                      "seed<S>-<date>-<time>.parquet).")] = None,
    per_turn: Annotated[bool, typer.Option(
        "--per-turn", help="Also write one row per game, Game-Turn and side to "
                           "<out stem>.turns.parquet, and one row per game and VP town to "
                           "<out stem>.towns.parquet.")] = False,
    turns_out: Annotated[Path | None, typer.Option(
        "--turns-out", metavar="FILE",
        help="Where to write the per-turn rows (implies --per-turn).")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Keep the games already in --out (or its .partial file) and play "
                         "only the missing ones; a larger --games extends a finished run. "
                         "Without --out: the latest default file of this scenario and "
                         "seed.")] = False,
    backend: Annotated[Backend, typer.Option(
        "--backend", help="Where games are played: local processes, or a dask cluster.")]
    = Backend.local,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="ADDRESS", help="Address of the dask scheduler, e.g. "
                                               "tcp://10.0.0.5:8786 (with --backend dask).")]
    = None,
    allow_outside_paths: AllowOutside = False,
) -> None:
    """Play games headless and write one row per game to Parquet.

    Each game is played to its end with the given policies; game i of seed S
    is the same game whatever the workers, backend or interruptions. Rows
    stream to OUT.partial, renamed to OUT when every game is in. Ctrl-C or
    SIGTERM keeps every finished game there; --resume plays the rest.
    Progress goes to stderr, a summary (levels of victory with 95 % intervals,
    mean VP) to stdout. With no arguments: 1000 games of brusilov/historical
    on every core. Reading the file: docs/results.md.

    Exit status: 0; 2 bad argument; 1 results not written or games lost with
    a worker; 3 games raised an error (each a row with its message); 130
    interrupted.

    \b
    Example: gwe run brusilov/historical -n 500 --seed 7 --option sga_early=true
    """
    import signal

    from gwe_fast.policies.registry import PolicyError
    from gwe_fast.runner import batch

    sc = load_or_fail(scenario, parse_options(option), "nothing was run", allow_outside_paths)
    pairs = parse_policies(policy)
    try:
        specs = batch.resolve_policies(pairs, sc.game)
    except PolicyError as exc:
        fail(f"--policy: {exc}")
    if backend is Backend.dask and not scheduler:
        fail("--backend dask needs --scheduler ADDRESS (the dask scheduler, e.g. "
             "tcp://10.0.0.5:8786)")
    if scheduler and backend is not Backend.dask:
        fail("--scheduler is for --backend dask")
    if scheduler:
        from gwe_fast.runner.dask_backend import BackendError, check_address

        try:
            check_address(scheduler)
        except BackendError as exc:
            fail(f"--scheduler {exc}")
    if out is None:
        found = batch.latest_run(Path("results"), sc, seed) if resume else None
        if resume and found is None:
            fail(f"--resume: no run of {sc.key} with seed {seed} in results/; give its "
                 f"file with --out")
        out = found or batch.default_out(Path("results"), sc, seed)
    if out.is_dir():
        fail(f"--out {out} is a folder; give a file name ending in .parquet")
    turns = turns_out if turns_out is not None else (
        batch.turns_path_for(out) if per_turn else None)
    try:
        batch.check_outputs(out, turns)
    except batch.OutputClash as exc:
        fail(str(exc))
    if turns is not None and turns.is_dir():
        fail(f"--turns-out {turns} is a folder; give a file name ending in .parquet")
    try:
        with batch.output_lock(out, *([turns] if turns is not None else [])):
            pass                          # another run writing these files: that first
    except batch.OutputBusy as exc:
        fail(str(exc))
    except batch.BatchWriteError as exc:
        fail(f"cannot write {exc.filename}: {exc.strerror}; nothing was run", 1)
    if not resume:
        for p in (out, batch.partial_path(out)):
            if p.exists():
                fail(f"{p} already holds a run; add --resume to complete or extend it, or "
                     f"choose another --out")
        for p in ((turns, batch.partial_path(turns)) if turns is not None else ()):
            if p.exists():
                fail(f"{p} already holds per-turn rows; add --resume to go on with the run "
                     f"they belong to, or choose another --turns-out")
    n_workers = batch.worker_count(workers)
    shown_workers = min(n_workers, games)
    where = (f"the dask cluster at {scheduler}" if backend is Backend.dask
             else f"{shown_workers} worker{'s' if shown_workers != 1 else ''}")
    typer.echo(f"gwe run: {batch.plural(games, 'game')} of {sc.key}, seed {seed}, "
               f"{', '.join(f'{k} {v}' for k, v in specs.items())}, on {where} -> {out}"
               + (f" (per-turn rows -> {turns})" if turns else ""), err=True)

    progress = _progress()

    def stop(signum, frame):        # a kill from a scheduler ends the run like Ctrl-C
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    again = f"run the same command with --resume --out {out}"
    try:
        summary = batch.run_batch(sc, games, seed, out, policies=specs, workers=n_workers,
                                  per_turn=turns, resume=resume, progress=progress,
                                  backend=backend.value, scheduler=scheduler)
    except batch.BatchInterrupted as exc:
        typer.echo("", err=True)        # end the progress line
        fail(f"interrupted; {exc.kept} finished games are kept in {exc.partial}; {again} to "
             f"play the rest", 130)
    except KeyboardInterrupt:           # after the last game: the files are complete
        fail(f"interrupted while finishing; {again} to check that {out} is complete", 130)
    except batch.BatchWriteError as exc:
        kept = (f"; {exc.kept} finished games are kept in {exc.partial}; {again} once it is "
                f"fixed" if exc.kept else "")
        where = f" ({exc.culprit})" if exc.culprit else ""
        fail(f"cannot write {exc.filename}: {exc.strerror}{where}{kept}", 1)
    except (batch.ResumeError, batch.OutputBusy, batch.OutputClash) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"gwe run failed: {exc.strerror or exc}", 1)
    except batch.BACKEND_ERRORS as exc:
        kept = getattr(exc, "kept", 0)
        fail(f"{exc}" + (f"; {kept} finished games are kept in {exc.partial}; {again} once it "
                         f"is fixed" if kept else ""), 1)
    finally:
        signal.signal(signal.SIGTERM, before)
    for note in summary.notes:
        typer.echo(f"gwe: note: {note}", err=True)
    for line in batch.format_summary(summary, sc):
        typer.echo(line)
    if summary.not_played:
        n = len(summary.not_played)
        why = summary.lost_because[-1]          # the last says why the run stopped, if it did
        fail(f"{n} game{'s were' if n != 1 else ' was'} not played ({why}); the "
             f"{summary.games} played are in {summary.rows_path}; {again} to play them", 1)
    if summary.errors:
        fail(f"{summary.errors} game{'s' if summary.errors != 1 else ''} raised an error; each "
             f"is a row of {summary.out} with result 'error' and its message", 3)


map_app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,          # plain help: flags without a <bool>, our metavars kept
    no_args_is_help=True,
    help="Draw a scenario's map to PNG or SVG.\n\n"
         "Example: gwe map render brusilov/historical --out results/maps/brusilov.png",
)
app.add_typer(map_app, name="map")


@map_app.command("render")
def map_render(
    scenario: Annotated[str, typer.Argument(
        metavar="SCENARIO", help="Bundled scenario name or path to a scenario file.")],
    out: Annotated[Path, typer.Option(
        "--out", metavar="FILE", help="Image to write: FILE.png or FILE.svg (its folder is "
                                      "created).")],
    state: Annotated[Path | None, typer.Option(
        "--state", metavar="FILE", help="Draw the units of this saved game state (a .npz "
                                        "written by gwe_fast.State.save) instead of the "
                                        "set-up.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="A scenario option (repeatable).")] = None,
    dpi: Annotated[int | None, typer.Option(
        "--dpi", min=20, max=600, metavar="DPI",
        help="PNG resolution in dots per inch (default 120, about 120 pixels per hex).")]
    = None,
    ids: Annotated[bool, typer.Option(
        "--ids/--no-ids", help="Print the hex id XXYY in every hex.")] = True,
) -> None:
    """Draw the map with its units to PNG or SVG.

    Terrain, hexsides, rails, towns with their VP, hex ids, entry hexes, a compass, and the
    units (each counter with its type symbol, designation and values) of the set-up, or of
    a saved game state with --state.

    \b
    Example: gwe map render brusilov/historical --out results/maps/brusilov.png
    """
    from gwe_fast.render import output_format, render_map
    from gwe_fast.state import State

    try:
        output_format(out)
    except ValueError as exc:
        fail(str(exc))
    if out.is_dir():
        fail(f"--out {out} is a folder; give a file name ending in .png or .svg")
    sc = load_or_fail(scenario, parse_options(option), "nothing was drawn")
    position = None
    if state is not None:
        try:
            position = State.load(state)
        except ValueError as exc:
            fail(f"--state {exc}")
    try:
        written = render_map(sc, position, out=out, overlay_ids=ids, dpi=dpi)
    except ValueError as exc:
        fail(f"cannot draw {state if state is not None else scenario}: {exc}")
    except RuntimeError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}", 1)
    typer.echo(f"wrote {written}")


class Every(str, Enum):
    turn = "turn"
    phase = "phase"


@app.command()
def replay(
    scenario: Annotated[str | None, typer.Argument(
        metavar="SCENARIO", help="Bundled scenario name or path to a scenario file (not "
                                 "with --from).")] = None,
    from_: Annotated[Path | None, typer.Option(
        "--from", metavar="FILE", help="A results file written by gwe run: replay one of "
                                       "its rows.")] = None,
    row: Annotated[int | None, typer.Option(
        "--row", min=0, max=MAX_GAMES - 1, metavar="N",
        help="With --from: the row to replay (0 is the first).")] = None,
    game_index: Annotated[int | None, typer.Option(
        "--game-index", "-i", min=0, max=MAX_GAMES - 1, metavar="I",
        help="The game index (default 0); with --from, the row whose game_index this is.")]
    = None,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, metavar="S",
                                      help="Master seed.")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="A scenario option (repeatable).")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", "-p", metavar="SIDE=SPEC",
        help="The policy of a side, e.g. central=random (repeatable; a side not given "
             "plays the random policy).")] = None,
    every: Annotated[Every, typer.Option(
        "--every", help="A frame at the end of every Game-Turn or every phase.")] = Every.turn,
    last_turn: Annotated[int | None, typer.Option(
        "--last-turn", min=0, metavar="TURN", help="Stop the replay after this Game-Turn "
                                                   "(then the final result is not known).")]
    = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="HTML page to write (default results/replays/"
                                      "<scenario>-seed<S>-game<I>.html).")] = None,
    frames: Annotated[Path | None, typer.Option(
        "--frames", metavar="FOLDER",
        help="Also write every frame as a PNG into this folder.")] = None,
    dpi: Annotated[int, typer.Option(
        "--dpi", min=20, max=300, metavar="DPI",
        help="Frame resolution in dots per inch (about pixels per hex).")] = 60,
) -> None:
    """Replay one game as an HTML page, a map per turn or phase.

    The page is self-contained: the map at the set-up, at the end of every Game-Turn (or
    phase) and after the end-of-game scoring, with a slider, previous/next buttons and arrow
    keys, and the events of each frame beside the map.

    The game comes from a row of a results file (--from, with --row or --game-index), whose
    scenario, options, policies and seeds fix it exactly, and the replay is checked against
    the row's result and VP; or from a scenario, --seed, --game-index, --option and
    --policy.

    \b
    Example: gwe run --games 10 --out results/ten.parquet
             gwe replay --from results/ten.parquet --row 3

    \b
    Example: gwe replay brusilov/historical --seed 7 --game-index 41 --every phase
    """
    import time

    from gwe_fast.render import replay as rep

    try:
        if from_ is not None:
            if scenario is not None or option or policy:
                fail("give either --from with --row or --game-index, or a scenario with "
                     "--seed, --option and --policy, not both")
            spec = rep.read_results_row(from_, row=row, game_index=game_index)
        else:
            if row is not None:
                fail("--row needs --from, the results file to read the row from")
            if scenario is None:
                fail("give a scenario to replay, or a results file with --from")
            sides = {k.lower(): v for k, v in parse_policies(policy).items()}
            spec = rep.GameSpec(scenario, parse_options(option), sides, seed, game_index or 0)
        policies = spec.make_policies()
    except rep.ReplayError as exc:
        fail(str(exc))
    sc = load_or_fail(spec.scenario, spec.options, "nothing was replayed")
    spec.policies = {"allied": "random", "central": "random", **spec.policies}
    if sc.game == "goa":
        _replay_goa(sc, spec, policies, out, frames, every, last_turn)
        return
    if last_turn is not None and not sc.first_turn <= last_turn <= sc.last_turn:
        fail(f"--last-turn {last_turn} is not a Game-Turn of {sc.key} "
             f"({sc.first_turn} to {sc.last_turn})")
    if out is None:
        out = rep.default_out(sc, spec.seed, spec.game_index)
    if out.is_dir():
        fail(f"--out {out} is a folder; give a file name ending in .html")
    if frames is not None and frames.exists() and not frames.is_dir():
        fail(f"--frames {frames} is a file; give a folder for the PNG frames")
    try:                               # before the work: can the outputs be written?
        for folder in (out.parent, frames):
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
        probe = out.with_name(out.name + ".partial")
        probe.touch()
        probe.unlink()
    except OSError as exc:
        fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}; nothing was "
             f"replayed", 1)
    try:
        rp = rep.replay_game(sc, spec.seed, spec.game_index, policies, every=every.value,
                             last_turn=last_turn, spec=spec)
    except rep.ReplayError as exc:
        fail(str(exc))

    def progress(done: int, total: int) -> None:
        typer.echo(f"\rdrawing frame {done}/{total}", err=True, nl=done == total)

    t0 = time.perf_counter()
    try:
        pictures = rep.render_replay(rp, dpi=dpi, frames_dir=frames, progress=progress)
        check = rep.check_against_row(rp)
        written = rep.write_page(out, rep.page_html(rp, pictures, check))
    except RuntimeError as exc:       # matplotlib missing
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}", 1)
    seconds = time.perf_counter() - t0
    count, _, what = rp.frames_description().partition(": ")
    typer.echo(f"wrote {written}: {count} frames: {what}; game replayed in "
               f"{rp.seconds:.2f} s, frames drawn in {seconds:.2f} s "
               f"({pictures.seconds_per_frame:.2f} s per frame)")
    if frames is not None:
        typer.echo(f"wrote {len(rp.frames)} PNG frames to {frames}")
    ok, sentence = check
    if rp.error:
        typer.echo(f"gwe: the game raised {rp.error}", err=True)
    if sentence:
        typer.echo(("" if ok else "gwe: warning: ") + sentence, err=not ok)
    if rp.error and spec.row is None:
        raise typer.Exit(1)


def _replay_goa(sc, spec, policies, out, frames, every, last_turn) -> None:
    """``gwe replay`` of a Guns of August game: a month-by-month page, no map frames."""
    import time

    from gwe_fast.render import goa_replay
    from gwe_fast.render import replay as rep

    given = [flag for flag, used in (("--frames", frames is not None),
                                     ("--every phase", every is not Every.turn),
                                     ("--last-turn", last_turn is not None)) if used]
    if given:
        fail(f"{', '.join(given)}: The Guns of August is replayed month by month to the end of "
             f"the game, without map frames; leave {'them' if len(given) > 1 else 'it'} out")
    if out is None:
        out = rep.default_out(sc, spec.seed, spec.game_index)
    if out.is_dir():
        fail(f"--out {out} is a folder; give a file name ending in .html")
    t0 = time.perf_counter()
    rp = goa_replay.replay_goa(sc, spec.seed, spec.game_index, policies)
    rp.policies = dict(spec.policies)
    try:
        written = goa_replay.write_page(out, goa_replay.page_html(rp))
    except OSError as exc:
        fail(f"cannot write {exc.filename or out}: {exc.strerror or exc}", 1)
    typer.echo(f"wrote {written}: {len(rp.frames)} months, game replayed in "
               f"{time.perf_counter() - t0:.2f} s")
    row = spec.row
    if row is not None:
        said = (str(row.get("result")), int(row.get("result_month", -1)))
        if said == (rp.result, rp.result_month):
            typer.echo(f"ends as {spec.source} says: {rp.result} in month {rp.result_month}")
        else:
            typer.echo(f"gwe: warning: the replay ended {rp.result} in month "
                       f"{rp.result_month}, but {spec.source} says {said[0]} in month "
                       f"{said[1]}", err=True)


class SweepMetric(str, Enum):
    allied_win = "allied_win"
    vp = "vp"


def _pairs(flag: str, items: list[str] | None, example: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            fail(f"{flag} {item!r} must look like {example}")
        name, value = name.strip(), value.strip()
        if out.get(name, value) != value:
            fail(f"{flag} {name} is given twice, as {out[name]} and as {value}; give it once")
        out[name] = value
    return out


@app.command()
def sweep(
    sweepfile: Annotated[Path | None, typer.Argument(
        metavar="SWEEPFILE", help="A sweep file (TOML, see docs/sweeps.md); or give "
                                  "--scenario and --vary.")] = None,
    scenario: Annotated[str | None, typer.Option(
        "--scenario", metavar="SCENARIO",
        help="Without a sweep file: the scenario, bundled name or file.")] = None,
    vary: Annotated[list[str] | None, typer.Option(
        "--vary", metavar="AXIS=V1,V2,...",
        help="An axis (repeatable; cells are the product): option.NAME, policy.allied, "
             "policy.central, or a scenario path such as tables.victory_levels.band[2].max.")]
    = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="Without a sweep file: an option of every cell.")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", "-p", metavar="SIDE=SPEC",
        help="Without a sweep file: the policy of a side in every cell (allied or central; "
             "SPEC such as random or NAME:key=value).")] = None,
    set_: Annotated[list[str] | None, typer.Option(
        "--set", metavar="PATH=VALUE",
        help="Without a sweep file: a scenario value of every cell.")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", min=1, max=MAX_GAMES, metavar="N",
        help="Games per cell (with --until-ci: the first round); default 100 or the "
             "file's.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", min=0, max=MAX_SEED, metavar="S",
        help="Master seed shared by every cell (default 0 or the file's).")] = None,
    until_ci: Annotated[float | None, typer.Option(
        "--until-ci", metavar="WIDTH",
        help="Add games to each cell until the 95 % interval of its --metric is narrower "
             "than this (0.05: five points of win rate).")] = None,
    metric: Annotated[SweepMetric | None, typer.Option(
        "--metric", help="What --until-ci measures: allied_win (Wilson interval of the "
                         "Allied win rate, a draw half) or vp (t interval of the mean VP).")]
    = None,
    max_games: Annotated[int | None, typer.Option(
        "--max-games", min=1, max=MAX_GAMES, metavar="N",
        help="Cap on the games of a cell under --until-ci (default 10000).")] = None,
    batch: Annotated[int | None, typer.Option(
        "--batch", min=1, max=MAX_GAMES, metavar="N",
        help="Under --until-ci, cells grow by whole batches of this many games (default: "
             "--games).")] = None,
    per_turn: Annotated[bool | None, typer.Option(
        "--per-turn/--no-per-turn", help="Also write each cell's per-turn record.")] = None,
    baseline: Annotated[str | None, typer.Option(
        "--baseline", metavar="CELL",
        help="The cell the report compares the others with (default: the file's, or the "
             "first cell).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, max=MAX_WORKERS, metavar="N",
        help="Worker processes (0: one per core).")]
    = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FOLDER", help="Folder for the cell files and sweep.json (default "
                                        "results/sweeps/<name>).")] = None,
    allow_outside_paths: AllowOutside = False,
) -> None:
    """Play variations of one scenario, all on the same games.

    The cells are a grid of variations. Every cell uses the same master seed and game
    indices (common random numbers), so game i differs between cells only by the variation.
    Each cell goes to its own Parquet file in --out, named in sweep.json; a cell file
    already there is extended, not replayed.

    \b
    Example: gwe sweep --scenario brusilov/historical --vary option.sga_early=false,true

    \b
    Example: gwe sweep examples/sweeps/sga_early.toml --out results/sweeps/sga_early

    \b
    Example: gwe sweep examples/sweeps/victory_bands.toml --until-ci 0.05
    """
    import signal

    from gwe_fast.runner.batch import worker_count
    from gwe_fast.runner.sweep import (DEFAULT_GAMES, CellIncomplete, SweepError, default_folder,
                                       describe_run, prepare, read_sweep, run_sweep,
                                       sweep_from_args)

    overrides = {k: v for k, v in (("games", games), ("seed", seed), ("until_ci", until_ci),
                                   ("metric", metric.value if metric else None),
                                   ("max_games", max_games), ("batch", batch),
                                   ("per_turn", per_turn)) if v is not None}
    if until_ci is not None and not until_ci > 0:
        fail(f"--until-ci {until_ci:g} must be a positive width such as 0.05")
    try:
        if sweepfile is not None:
            if scenario or vary or option or policy or set_:
                fail("give either a sweep file or --scenario with --vary, --option, --policy "
                     "and --set, not both")
            sw = read_sweep(sweepfile)
            for k, v in overrides.items():
                setattr(sw, k, v)
            if baseline is not None:
                if baseline not in {c.name for c in sw.cells}:
                    fail(f"--baseline {baseline!r} names no cell of {sweepfile} (cells: "
                         f"{', '.join(repr(c.name) for c in sw.cells)})")
                sw.baseline = baseline
        else:
            if scenario is None:
                fail("give a sweep file, or --scenario with one --vary or more (see gwe sweep "
                     "--help)")
            sw = sweep_from_args(
                scenario, vary, options=parse_options(option),
                policies=_pairs("--policy", policy, "SIDE=SPEC (for example central=random)"),
                sets=_pairs("--set", set_, "PATH=VALUE (for example "
                                           "tables.victory_levels.band[2].max=30)"),
                baseline=baseline, **{"games": DEFAULT_GAMES, **overrides})
        sw.allow_outside_paths = allow_outside_paths
        cells = prepare(sw)
    except SweepError as exc:
        for fault in exc.faults:
            typer.echo(str(fault), err=True)
        n = len(exc.faults)
        fail(f"the sweep has {n} fault{'s' if n != 1 else ''}; nothing was run")
    if sw.until_ci is not None and sw.max_games < sw.games:
        fail(f"--max-games {sw.max_games} is below --games {sw.games}")
    if out is None:
        out = default_folder(sw)
    if out.exists() and not out.is_dir():
        fail(f"--out {out} is a file; give a folder for the cell files")

    progress = _progress(prefix="  ")           # a new line of work for each cell

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        runs = run_sweep(sw, out, workers=worker_count(workers),
                         log=lambda m: typer.echo(m, err=True), progress=progress,
                         prepared=cells)
    except SweepError as exc:
        for fault in exc.faults:
            typer.echo(str(fault), err=True)
        n = len(exc.faults)
        fail(f"the sweep has {n} fault{'s' if n != 1 else ''}; nothing more was run")
    except CellIncomplete as exc:
        fail(str(exc), 1)
    except KeyboardInterrupt:
        typer.echo("", err=True)
        fail(f"interrupted; finished games are kept in {out} (run the same command again to "
             f"go on)", 130)
    except OSError as exc:
        fail(f"cannot write into {out}: {exc.strerror or exc}", 1)
    typer.echo(f"{sw.name}: {len(runs)} cells, master seed {sw.seed}, baseline "
               f"{sw.baseline!r} -> {out / 'sweep.json'}")
    for r in runs:
        typer.echo("  " + describe_run(r, sw.metric, sw.until_ci))
    typer.echo(f"report: gwe report {out}")
    errors = sum(r.errors for r in runs)
    if errors:
        fail(f"{errors} game{'s' if errors != 1 else ''} raised an error; each is recorded with "
             f"its seed and error in its cell file", 1)


@app.command()
def report(
    inputs: Annotated[list[Path], typer.Argument(
        metavar="RESULTS...", help="Results files (gwe run, gwe sweep), their per-turn files, "
                                   "folders of them, or a sweep folder (read through its "
                                   "sweep.json).")],
    baseline: Annotated[str | None, typer.Option(
        "--baseline", metavar="CELL", help="The cell (sweep cell name, or file name) every "
                                           "other cell is compared with, game by game.")]
    = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FOLDER", help="Folder for report.html and its PNG plots (default: "
                                        "results/reports/<name of the first input>).")]
    = None,
) -> None:
    """Print tables of results and write them with plots to HTML.

    The tables: levels of victory, VP, paired differences, per-turn bands. The HTML report
    is self-contained (plots embedded; PNG files beside it). Intervals are 95 %: Wilson for
    shares, Student's t for means and for the paired differences (same master seed and game
    index) against the baseline.

    \b
    Example: gwe report results/sweeps/sga_early

    \b
    Example: gwe report results/a.parquet results/b.parquet --baseline a
    """
    from gwe_fast.analysis.report import (ReportError, ReportWriteError, build_report,
                                          default_out)

    if out is None:
        out = default_out(inputs)
    if out.exists() and not out.is_dir():
        fail(f"--out {out} is a file; give a folder for the report")
    try:
        rep = build_report(inputs, baseline=baseline, out=out)
    except ReportWriteError as exc:
        fail(str(exc), 1)
    except ReportError as exc:
        fail(str(exc))
    typer.echo(rep.text, nl=False)
    typer.echo(f"\nwrote {rep.html_path} ({len(rep.images)} plots beside it)")


@app.command()
def tournament(
    scenario: Annotated[str, typer.Argument(
        metavar="SCENARIO", help="Bundled scenario name or path to a scenario file.")],
    policies: Annotated[str, typer.Option(
        "--policies", "-p", metavar="SPEC,SPEC,...",
        help="The ladder, lowest level first: comma-separated policy specs "
             "(NAME[:key=value,...] or package.module:Class).")] = "random,passive,greedy",
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1, max=MAX_GAMES, metavar="N",
        help="Games per ordered pair of policies.")]
    = 60,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, metavar="S",
                                      help="Master seed.")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="A scenario option (repeatable).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, max=MAX_WORKERS, metavar="N",
        help="Worker processes (0: one per core).")]
    = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE", help="Markdown report to write; the JSON goes beside it "
                                      "(default results/tournaments/<scenario>.md).")]
    = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Keep the games already played (in <out stem>-games/) and play "
                         "only the missing ones.")] = False,
    others: Annotated[str, typer.Option(
        "--others", metavar="SPEC,SPEC,...",
        help="Policies that play every pair but stand outside the ladder verdict (a "
             "doctrine, say), comma-separated.")] = "",
    ladder_only: Annotated[bool, typer.Option(
        "--ladder-only", help="Play only the pairs the ladder verdict needs: each level "
                              "against the one below it in both seats, and the mirror "
                              "match of the lower one.")] = False,
) -> None:
    """Play every pair of policies and judge their ladder.

    Every ordered pair, both sides swapped and mirror matches included (with --ladder-only,
    only the pairs the verdict needs), gives the win-rate and mean-VP matrices and the
    ladder verdict. Game i of every pair has the same dice (common random numbers). Writes
    OUT (Markdown:
    allied and central win rates with Wilson 95 % intervals, mean VP with t intervals,
    illegal answers, the ladder verdict defined in docs/policies.md), OUT with .json (the
    same, with every game's VP and winner) and one Parquet file per pair in <OUT stem>-games/.
    Exit status: 0, 2 for a bad argument, 1 when the results cannot be written, 3 when a
    game raised an error or a policy gave an illegal answer, 130 when interrupted (rerun with
    --resume to go on).

    \b
    Example: gwe tournament brusilov/historical --policies random,greedy -n 20

    The committed tournaments in results/ were made with --out naming them; the command is
    at the top of each.
    """
    import os
    import shlex

    from gwe_fast.policies.registry import PolicyError
    from gwe_fast.runner import batch
    from gwe_fast.runner.tournament import default_out as tournament_out
    from gwe_fast.runner.tournament import games_dir_for, run_tournament, split_specs

    specs = split_specs(policies)
    extra = split_specs(others)
    if not specs:
        fail("--policies names no policy; give a list such as random,passive,greedy")
    if len(set(specs)) != len(specs):
        fail(f"--policies names a policy twice ({policies}); list each level once")
    if set(extra) & set(specs) or len(set(extra)) != len(extra):
        fail(f"--others ({others}) names a policy twice or one already in --policies")
    if extra and ladder_only:
        fail("--others and --ladder-only do not go together: a ladder-only tournament plays "
             "only the ladder's pairs")
    sc = load_or_fail(scenario, parse_options(option), "no game was played")
    if out is None:
        out = tournament_out(sc)
    if out.suffix != ".md":
        fail(f"--out {out} must be a Markdown file name ending in .md")
    if out.is_dir():
        fail(f"--out {out} is a folder; give a file name ending in .md")
    try:
        from gwe_fast.games import driver

        driver(sc.game)
    except (ValueError, ModuleNotFoundError):
        fail(f"scenario {scenario} is a {sc.game!r} game, whose rules engine is not built "
             f"yet; no game was played")
    workers = workers or os.cpu_count() or 1
    command = shlex.join(["gwe", "tournament", scenario, "--policies", ",".join(specs),
                          "--games", str(games), "--seed", str(seed), "--workers",
                          str(workers), "--out", str(out)]
                         + [f"--option={o}" for o in option or []]
                         + (["--others", ",".join(extra)] if extra else [])
                         + (["--ladder-only"] if ladder_only else []))

    progress = _progress()

    def stop(signum, frame):        # a kill from a scheduler ends the run like Ctrl-C
        raise KeyboardInterrupt

    import signal

    signal.signal(signal.SIGTERM, stop)
    try:
        if ladder_only and len(specs) < 2:
            fail("--ladder-only needs at least two policies in --policies")
        result = run_tournament(sc, specs, games, seed, games_dir_for(out), workers=workers,
                                resume=resume, progress=progress, command=command,
                                ladder_only=ladder_only, others=extra)
    except PolicyError as exc:
        fail(f"--policies: {exc}")
    except (batch.ResumeError, ValueError) as exc:     # a resume that does not match, or
        fail(str(exc))                                  # the arguments run_tournament refuses
    except KeyboardInterrupt:
        typer.echo("", err=True)
        fail(f"interrupted; the games played are kept in {games_dir_for(out)}: rerun with "
             f"--resume to go on", 130)
    except OSError as exc:
        typer.echo("", err=True)
        fail(f"cannot write the games of the tournament to {games_dir_for(out)}: "
             f"{exc.strerror or exc}", 1)
    try:
        md, js = result.write(out)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}", 1)
    typer.echo(f"{sc.name}: {len(result.pairs)} pairs x {games} games in "
               f"{result.seconds:.0f} s -> {md}, {js}")
    for row in result.ladder():
        typer.echo(f"  {row['higher']} over {row['lower']} as {row['side']}: VP margin "
                   f"{row['margin_diff']:+.1f} [{row['margin_ci'][0]:+.1f}, "
                   f"{row['margin_ci'][1]:+.1f}] -> {'beats' if row['beats'] else 'does not beat'}")
    typer.echo(f"  ladder {'holds' if result.ladder_holds() else 'does not hold'}")
    for row in result.asymmetry():
        lo, hi = row["margin_difference_ci"]
        typer.echo(f"  {row['higher']} over {row['lower']} (opponent {row['opponent']}): "
                   f"allied gain {row['allied_margin_gain']:+.1f}, central gain "
                   f"{row['central_margin_gain']:+.1f}, central - allied "
                   f"{row['margin_difference']:+.1f} [{lo:+.1f}, {hi:+.1f}]")
    bad = sum(p.summary()["errors"] for p in result.pairs.values())
    if bad:
        fail(f"{bad} game{'s' if bad != 1 else ''} ended with an error or an illegal answer; "
             f"see {md}", 3)


@app.command()
def calibrate(
    scenario: Annotated[str, typer.Argument(
        help="Bundled scenario name or path to a scenario file.")],
    knob: Annotated[str, typer.Option(
        "--knob", "-k", help="What to calibrate: victory_line, option:NAME (its VP cost), "
                             "town:NAME (its VP) or schedule:CAUSE (a row of the VP "
                             "schedule, e.g. schedule:german_unit_exited).")],
    target: Annotated[str, typer.Option(
        "--target", "-t", help="even (an Allied win rate of 0.5), or the Allied win rate "
                               "wanted, a number between 0 and 1.")] = "even",
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", "-p", help="The strength: a policy SPEC for both sides, or SIDE=SPEC "
                               "(allied or central; repeatable). Default greedy.")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", min=1, show_default=False,
        help="Games per value tried (the same seeds for each).  [default: 100]")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", min=0, show_default=False, help="Master seed.  [default: 0]")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Scenario option NAME=VALUE of every game (repeatable).")]
    = None,
    from_file: Annotated[Path | None, typer.Option(
        "--from", metavar="FILE",
        help="victory_line only: read the line off the games of FILE, a games file of gwe run "
             "or a cell of gwe sweep played on this scenario, instead of playing a batch; the "
             "policies, games, seed and options are the file's.")] = None,
    value_range: Annotated[tuple[int, int] | None, typer.Option(
        "--range", help="LOW HIGH: the values searched (default: around the knob's value; "
                        "not for victory_line).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, help="Worker processes (0: one per core).")] = 0,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Folder for the games of each value and calibration.json (default "
                      "results/calibrate/<scenario>-<knob>).")] = None,
) -> None:
    """Find the value of a knob that makes the game even.

    The game is played at a given strength (the policies). Every value tried plays the same
    games (common random numbers). victory_line reads the answer off one batch (the line does not change play); the other knobs are searched by
    bisection, replaying the games at each value. The interval holds every value at which the
    Allied win rate's 95 % Wilson interval contains the target (docs/sweeps.md,
    "Calibration"). The games of each value are kept in --out: run the same command again to
    go on after an interruption. Exit status: 0; 1 when no value of the range gives the
    target or the games cannot be played or written; 2 for a bad argument; 130 when
    interrupted.

    Example: gwe calibrate kaisers_battle/historical --knob victory_line --policy greedy --games 200 --workers 2

    Example: gwe calibrate brusilov/historical --knob town:Luck --policy greedy --games 100 --range 0 12

    Example: gwe run kaisers_battle/historical -n 200 -p allied=greedy -p central=greedy --out results/kb.parquet && gwe calibrate kaisers_battle/historical --knob victory_line --from results/kb.parquet
    """
    import signal

    from gwe_fast.policies.registry import PolicyError
    from gwe_fast.runner import batch
    from gwe_fast.runner.calibrate import (CalibrateError, Calibration, _vp_for, describe,
                                           even_line, parse_knob, read_finished, write_json)
    from gwe_fast.runner.parquet import RowsError, read_metadata

    if target.strip().lower() == "even":
        goal = 0.5
    else:
        try:
            goal = float(target)
        except ValueError:
            goal = math.nan
        if not 0 < goal < 1:
            fail(f"--target {target!r} must be even or an Allied win rate between 0 and 1 "
                 f"(for example 0.6)")
    policies: dict[str, str] = {}
    for item in policy or ["greedy"]:
        side, eq, spec = item.partition("=")
        if eq and ":" not in side and side.strip():
            policies[side.strip()] = spec.strip()
        else:
            policies["allied"] = policies["central"] = item.strip()
    meta: dict = {}
    if from_file is not None:
        given = [name for name, v in (("--policy", policy), ("--option", option),
                                      ("--games", games), ("--seed", seed),
                                      ("--range", value_range)) if v]
        if given:
            fail(f"--from reads the games of {from_file} as they were played, so "
                 f"{' and '.join(given)} cannot be given with it")
        if not from_file.is_file():
            fail(f"--from {from_file} does not exist" if not from_file.exists()
                 else f"--from {from_file} is not a file; give a games file of gwe run")
        try:
            meta = read_metadata(from_file)
        except RowsError as exc:
            fail(f"--from: {exc}")
        options = dict(meta.get("options") or {})
    else:
        options = parse_options(option)
    games = 100 if games is None else games
    seed = 0 if seed is None else seed
    sc = load_or_fail(scenario, options, "nothing was played")
    try:
        from gwe_fast.games import driver

        driver(sc.game)
    except (ValueError, ModuleNotFoundError):
        fail(f"scenario {scenario} is a {sc.game!r} game, whose rules engine is not built "
             f"yet; nothing was played")
    try:
        k = parse_knob(sc, knob)
        specs = batch.resolve_policies(policies, sc.game)
    except CalibrateError as exc:
        fail(str(exc))
    except PolicyError as exc:
        fail(f"--policy: {exc}")
    if from_file is not None:
        if k.kind != "victory_line":
            fail(f"--from applies to victory_line only: {k.label} changes play, so its games "
                 f"must be played again at each value")
        try:
            base, vp, meta = read_finished(from_file, sc)
        except CalibrateError as exc:
            fail(str(exc))
        specs, games, seed = dict(meta.get("policies") or {}), base.n, meta.get("master_seed")
    if value_range is not None:
        if k.kind == "victory_line":
            fail("--range does not apply to victory_line: every line is read off one batch")
        if value_range[1] <= value_range[0]:
            fail(f"--range {value_range[0]} {value_range[1]}: the low end must be below the "
                 f"high end")
    if out is None:
        out = (Path("results") / "calibrate"
               / f"{sc.key.replace('/', '-')}-{k.label.replace(':', '-')}")
    if out.exists() and not out.is_dir():
        fail(f"--out {out} is a file; give a folder for the games of each value")
    cal = Calibration(scenario, k, specs, games, seed, out, options=options,
                      workers=batch.worker_count(workers),
                      progress=lambda text: typer.echo(f"  {text}", err=True))

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    low, high = value_range if value_range is not None else (None, None)
    try:
        if from_file is not None:
            out.mkdir(parents=True, exist_ok=True)
            result = even_line(vp, _vp_for(sc), goal)
            result.tried = [base] + result.tried
        else:
            result = cal.run(goal, low, high)
    except CalibrateError as exc:
        fail(str(exc), 1)
    except batch.ResumeError as exc:
        fail(f"{exc} (give another --out, or remove the folder)")
    except KeyboardInterrupt:
        typer.echo("", err=True)
        fail(f"interrupted; the games played are kept in {out}: run the same command again to "
             f"go on", 130)
    except OSError as exc:
        fail(f"cannot write into {out}: {exc.strerror or exc}", 1)
    shown = result.tried
    if k.kind == "victory_line" and result.interval is not None:
        first, last = result.interval[0] - 3, result.interval[1] + 3
        shown = [result.tried[0]] + [o for o in result.tried[1:] if first <= o.value <= last]
    name = "line" if k.kind == "victory_line" else "value"
    typer.echo(f"{sc.name}: {k.label}, policies {specs['allied']} (allied) and "
               f"{specs['central']} (central), {games} games a value, seed {seed}")
    typer.echo(f"  {name:>6} | games | Allied win rate [95 %] | mean VP")
    for o in shown:
        lo_, hi_ = o.ci
        label = "as is" if o.value is None else f"{o.value}"
        mean = "" if math.isnan(o.mean_vp) else f"{o.mean_vp:.1f}"
        typer.echo(f"  {label:>6} | {o.n:5d} | {o.rate:.2f} [{lo_:.2f}, {hi_:.2f}]"
                   f"{'':>7}| {mean}")
    for line in describe(result, k, sc, goal):
        typer.echo(line)
    try:
        path = write_json(result, k, out / "calibration.json",
                          {"scenario": sc.key, "scenario_version": sc.version,
                           "data_hash": sc.data_hash, "options": dict(sc.options),
                           "policies": specs, "games": games, "master_seed": seed,
                           "target": goal,
                           **({"from": str(from_file)} if from_file is not None else {})})
    except OSError as exc:
        fail(f"cannot write {out / 'calibration.json'}: {exc.strerror or exc}", 1)
    typer.echo(f"wrote {path}")
    if not result.found:
        fail(f"no value of the range gives an Allied win rate of {goal:.2f}; widen --range", 1)


@app.command()
def bench(
    budget: Annotated[float | None, typer.Option(
        "--budget", "-b", min=0.1, metavar="SECONDS", show_default=False,
        help="Seconds to spend, about: groups that would not fit are left out, and say "
             "so. [default: 60, or 600 with --instructions]")] = None,
    games: Annotated[int, typer.Option(
        "--games", "-n", min=1, max=MAX_GAMES, metavar="N",
        help="Most campaigns per group (random: all of them; greedy: at most three). "
             "With --instructions, also the random campaigns counted.")] = 5,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, metavar="S",
                                      help="Master seed.")] = 0,
    instructions: Annotated[bool, typer.Option(
        "--instructions",
        help="Also count the instructions per campaign of each game's random and greedy "
             "campaigns with valgrind's callgrind (one greedy campaign each), which the "
             "machine's load does not change; each count stands under its group's times. "
             "Needs valgrind, and minutes: most of them for the two greedy groups (the whole "
             "bench took 12 on a busy two-core machine).")] = False,
) -> None:
    """Measure the headline speed figures against their targets.

    The movement range against scipy, a handful of whole campaigns of each game (random and
    greedy, one core: median CPU and wall time per campaign), the same campaign on the
    pure-Python twins of the kernels (the ratio, and whether the results are identical),
    Parquet bytes per game and peak memory. Each game system always plays at least one
    campaign; results/BENCHMARKS.md has the full benchmarks and their history.

    With --instructions, each group's instructions per campaign too: the difference of two
    runs under callgrind, one with a warm-up campaign alone and one with the counted
    campaigns after it. Without valgrind they are left out and the rest is measured.

    \b
    Example: gwe bench --budget 60 --games 5
    Example: gwe bench --instructions --games 3
    """
    from gwe_fast.bench import format_table, headline

    if budget is None:
        budget = 600.0 if instructions else 60.0
    figs = headline(budget=budget, games=games, seed=seed,
                    say=lambda text: typer.echo(text, err=True), instructions=instructions)
    typer.echo(format_table(figs))


def main() -> None:
    """Entry point of the ``gwe`` script."""
    try:
        app()
    except ScenarioError as exc:  # defensive: a command let one through
        typer.echo(f"gwe: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
