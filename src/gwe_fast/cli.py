"""The ``gwe`` command: a thin Typer layer over the library.

Every user mistake ends in one clear sentence on stderr and a non-zero exit status, never a
traceback: 2 for a bad scenario, option or argument, 1 for a failure while running (disk
full, unwritable output), 130 for an interrupted run.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Annotated

import typer

from gwe_fast import __version__
from gwe_fast.scenario.errors import ScenarioError
from gwe_fast.scenario.loader import bundled_scenarios, load_scenario, validate

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    help="gwe_fast: batch simulation of The Great War in the East (Brusilov Offensive) and "
         "The Kaiser's Battle.\n\nExample: gwe run --games 100",
)

DEFAULT_SCENARIO = "brusilov/historical"


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"gwe: {message}", err=True)
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            fail(f"--option {pair!r} must look like NAME=VALUE (for example sga_early=true)")
        out[name.strip()] = value.strip()
    return out


def load_or_fail(scenario: str, options: dict[str, str], consequence: str):
    """Load a scenario, or print each fault and exit with status 2."""
    try:
        return load_scenario(scenario, options)
    except ScenarioError as exc:
        for fault in exc.faults:
            typer.echo(str(fault), err=True)
        n = len(exc.faults)
        fail(f"scenario {scenario} does not load ({n} fault{'s' if n != 1 else ''}); "
             f"{consequence}")


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

    Example: gwe scenarios
    """
    for key in bundled_scenarios():
        try:
            sc = load_scenario(key)
        except ScenarioError as exc:
            n = len(exc.faults)
            typer.echo(f"{key}: does not load ({n} fault{'s' if n != 1 else ''}; run "
                       f"'gwe validate {key}')")
            continue
        typer.echo(sc.describe())
        for name, spec in sc.option_specs.items():
            case = f" [{spec.case}]" if spec.case else ""
            vp = f" (VP {spec.vp:+d})" if spec.vp else ""
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
        help="Scenario files, folders of them, or bundled scenario names.")],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Also check an option value, NAME=VALUE (repeatable).")] = None,
) -> None:
    """Check scenario files and every file they name; report every fault.

    Exit status 0 when all are valid, 2 when any fault is found.

    Example: gwe validate mine/historical.toml
    """
    opts = parse_options(option)
    total = 0
    for target in paths:
        for f in _scenario_files(target):
            faults = validate(f, opts)
            if faults:
                total += len(faults)
                for fault in faults:
                    typer.echo(str(fault), err=True)
            else:
                typer.echo(f"{f}: ok")
    if total:
        fail(f"{total} fault{'s' if total != 1 else ''} found", 2)


@app.command("copy-scenario")
def copy_scenario(
    name: Annotated[str, typer.Argument(help="A bundled scenario, e.g. brusilov/historical.")],
    dest: Annotated[Path, typer.Argument(help="A new folder to copy the game's files into.")],
) -> None:
    """Copy a bundled game folder (map, counters, tables, scenarios) to edit as your own.

    Example: gwe copy-scenario brusilov/historical mine && gwe validate mine/historical.toml
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


@app.command()
def run(
    scenario: Annotated[str, typer.Argument(
        help="Bundled scenario name or path to a scenario file.")] = DEFAULT_SCENARIO,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Master seed.")] = 0,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Scenario option NAME=VALUE (repeatable).")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Parquet file to write (default results/<scenario>-seed<S>.parquet).")]
    = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=0, help="Worker processes (0: one per core).")] = 0,
) -> None:
    """Run a batch of games and write one row per game to Parquet.

    Great War in the East scenarios are played to the end, both sides on the random policy;
    game i of a run with seed S is the same game whatever the worker count. A Kaiser's Battle
    scenario is set up and recorded (its engine is not built yet).

    Example: gwe run brusilov/historical --games 1000 --seed 7 --option sga_early=true
    """
    from gwe_fast.runner.batch import run_batch

    sc = load_or_fail(scenario, parse_options(option), "nothing was run")
    if out is None:
        out = Path("results") / f"{sc.key.replace('/', '-')}-seed{seed}.parquet"
    if out.exists() and out.is_dir():
        fail(f"--out {out} is a folder; give a file name ending in .parquet")

    def progress(done: int, total: int, seconds: float) -> None:
        rate = done / seconds if seconds > 0 else float("inf")
        eta = (total - done) / rate if rate > 0 else 0.0
        typer.echo(f"\r{done}/{total} games, {rate:,.1f} games/s, ETA {eta:.0f} s", err=True,
                   nl=done == total)

    def stop(signum, frame):        # a kill from a scheduler ends the run like Ctrl-C
        raise KeyboardInterrupt

    import os
    import signal

    signal.signal(signal.SIGTERM, stop)
    try:
        summary = run_batch(sc, games, seed, out, progress=progress,
                            workers=workers or os.cpu_count() or 1)
    except KeyboardInterrupt:
        typer.echo("", err=True)        # end the progress line
        fail(f"interrupted; every finished game is kept in {out}.partial", 130)
    except OSError as exc:
        typer.echo("", err=True)
        fail(f"cannot write {out}: {exc.strerror or exc}; every finished game is kept in "
             f"{out}.partial", 1)
    typer.echo(f"{sc.name}: {summary.games} games in {summary.seconds:.2f} s -> {summary.out}")
    for result, count in sorted(summary.results.items()):
        typer.echo(f"  {result}: {count} ({100 * count / summary.games:.1f}%)")
    typer.echo(f"  mean VP: {summary.mean_vp:.2f}")
    if set(summary.results) == {"setup-only"}:
        typer.echo("  (this game's engine is not built yet: games were set up, not played)")
    if summary.errors:
        fail(f"{summary.errors} game{'s' if summary.errors != 1 else ''} raised an error; each "
             f"is recorded with its seed and error in {summary.out}", 1)


map_app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    help="Draw a scenario's map, with its set-up or a saved position, to PNG or SVG.\n\n"
         "Example: gwe map render brusilov/historical --out brusilov.png",
)
app.add_typer(map_app, name="map")


@map_app.command("render")
def map_render(
    scenario: Annotated[str, typer.Argument(
        help="Bundled scenario name or path to a scenario file.")],
    out: Annotated[Path, typer.Option(
        "--out", help="Image to write: FILE.png or FILE.svg (its folder is created).")],
    state: Annotated[Path | None, typer.Option(
        "--state", help="Draw the units of this saved game state (a .npz written by "
                        "gwe_fast.State.save) instead of the set-up.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Scenario option NAME=VALUE (repeatable).")] = None,
    dpi: Annotated[int | None, typer.Option(
        "--dpi", min=20, max=600, help="PNG resolution in dots per inch (default 120, about "
                                       "120 pixels per hex).")] = None,
    ids: Annotated[bool, typer.Option(
        "--ids/--no-ids", help="Print the hex id XXYY in every hex.")] = True,
) -> None:
    """Draw the map: terrain, hexsides, rails, towns with their VP, hex ids, entry hexes, units.

    The units are those of the set-up, or of a saved game state with --state.

    Needs matplotlib: pip install "gwe_fast\\[render]".

    Example: gwe map render brusilov/historical --out docs/maps/brusilov.png
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


def main() -> None:
    """Entry point of the ``gwe`` script."""
    try:
        app()
    except ScenarioError as exc:  # defensive: a command let one through
        typer.echo(f"gwe: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
