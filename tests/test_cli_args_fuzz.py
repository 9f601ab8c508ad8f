"""A fuzz test of the command line (issue 29): a few hundred seeded mutations of valid ``gwe``
command lines, on a hex scenario and on The Guns of August (bad, huge and empty numbers,
unknown and repeated flags, odd policy and option specs, paths that do not exist or are
folders, arguments left out) must each end in exit status 0, or 2 with one ``gwe: …``
sentence; never a traceback or another status.

It runs in this process through Typer's test runner. Valid command lines do their work for
real up to the point where it gets long: ``gwe run`` plays game 0 only (on one worker; a
Guns of August game, which takes seconds, not even that),
``gwe report`` stops before its plots, and sweep, tournament, replay, map render and bench
stop where their games or drawings would start (``ReachedWork``)."""

import random
import shutil

import pytest
from typer.testing import CliRunner

from gwe_fast.cli import app
from gwe_fast.runner import batch

runner = CliRunner()
CASES = 300


class ReachedWork(Exception):
    """Raised where a valid command line would start its long work."""


@pytest.fixture
def stage(tiny_dir, tmp_path, monkeypatch):
    """A folder with the tiny scenario, a results file and a file that is not a scenario;
    the long work of every command cut short."""
    from gwe_fast import load_scenario
    from gwe_fast.analysis import report
    from gwe_fast.render import replay
    from gwe_fast.runner import sweep, tournament

    monkeypatch.chdir(tmp_path)
    results = tmp_path / "done.parquet"
    batch.run_batch(load_scenario(tiny_dir / "tiny.toml"), 3, 1, results,
                    per_turn=tmp_path / "done.turns.parquet")
    (tmp_path / "notes.txt").write_text("not a scenario\n")
    (tmp_path / "empty").mkdir()
    real_run_batch = batch.run_batch

    def one_game(scenario, games, seed, out, **kw):      # every check, then game 0 only
        if scenario.game == "goa":          # a Guns of August game takes seconds: checks only
            batch.check_arguments(games, seed, kw.get("workers", 1))
            raise ReachedWork
        kw.update(workers=1, indices=[0], backend="local", scheduler=None)
        return real_run_batch(scenario, games, seed, out, **kw)

    def reached(*args, **kwargs):
        raise ReachedWork

    monkeypatch.setattr(batch, "run_batch", one_game)
    monkeypatch.setattr(sweep, "run_sweep", reached)
    monkeypatch.setattr(tournament, "run_tournament", reached)
    monkeypatch.setattr(replay, "replay_game", reached)
    monkeypatch.setattr(report, "plot_results", reached)
    import gwe_fast.bench
    import gwe_fast.render

    monkeypatch.setattr(gwe_fast.render, "render_map", reached)
    monkeypatch.setattr(gwe_fast.bench, "headline", reached)
    # Typer builds the click command from the app on every call: three quarters of the time
    import typer.main
    import typer.testing

    if hasattr(typer.testing, "_get_command"):
        command = typer.main.get_command(app)
        monkeypatch.setattr(typer.testing, "_get_command", lambda _app: command)
    return {"tiny": str(tiny_dir / "tiny.toml"), "results": str(results), "dir": tmp_path}


# Valid command lines; {case} makes each one's outputs its own.
BASES = [
    ["run", "{tiny}", "-n", "3", "-s", "4", "-w", "1", "--out", "c{case}/r.parquet"],
    ["run", "{tiny}", "--games", "2", "--per-turn", "--out", "c{case}/r.parquet", "--policy",
     "allied=random", "--option", "guards=true"],
    ["run", "{tiny}", "-n", "2", "--out", "c{case}/r.parquet", "--turns-out",
     "c{case}/t.parquet", "--policy", "central=passive", "--option", "depots=2"],
    ["validate", "{tiny}", "--option", "guards=true"],
    ["report", "{results}", "--out", "c{case}/rep"],
    ["replay", "{tiny}", "--game-index", "1", "--seed", "3", "--out", "c{case}/r.html"],
    ["replay", "--from", "{results}", "--row", "0", "--out", "c{case}/r.html"],
    ["sweep", "--scenario", "{tiny}", "--vary", "option.guards=false,true", "-n", "2",
     "--out", "c{case}/sw"],
    ["tournament", "{tiny}", "--policies", "random,passive", "-n", "2", "--out",
     "c{case}/t.md"],
    ["map", "render", "{tiny}", "--out", "c{case}/m.png", "--dpi", "40"],
    ["copy-scenario", "brusilov/historical", "c{case}/copy"],
    ["bench", "--budget", "1", "--games", "1", "--seed", "2"],
    # The Guns of August: its own options, sides and months
    ["run", "goa/1915", "-n", "2", "-s", "3", "-w", "1", "--out", "c{case}/g.parquet",
     "--option", "land=fronts", "--policy", "central=passive"],
    ["validate", "goa/1917", "--option", "naval=false", "--option", "victory=true"],
    ["sweep", "--scenario", "goa/1918", "--vary", "option.surrender=false,true", "-n", "2",
     "--out", "c{case}/sw"],
]

NUMBERS = ["-1", "0", "1", "", "abc", "1.5", "nan", "1e3", "007", " 3"]
HUGE = ["99999999999999999999", "9223372036854775808", "9223372036854775807", "2147483648",
        "2147483647", "-9223372036854775809", "4294967296"]
PATHS = ["nowhere/none.toml", "empty", "notes.txt", "", ".", "{results}", "c{case}",
         "c{case}/deep/er/x.parquet", "nowhere.parquet", "goa/1916", "goa/nowhere"]
POLICIES = ["allied=:", "allied=::", "allied=a:b:c:d", "allied=random:depth=x",
            "allied=random:=1", "allied=nosuch", "allied=os:getcwd", "allied", "=random",
            "allied=", "nowhere=random", "russian=passive", "central=greedy:x=1",
            "allied=.x:Y", "central=passive", "allied=random"]
OPTIONS = ["guards", "=true", "guards=maybe", "nope=1", "depots=99999999999999999999",
           "guards=true", "guards=false", "depots=-5", "slow=true",
           "land=fronts", "land=nowhere", "naval=maybe", "colonies=true", "through_1919=1"]
FLAGS = ["--nope", "--nope=1", "-z", "--games", "--seed", "--out", "--option", "--policy",
         "--resume", "--per-turn", "--backend", "--scheduler", "--", "-"]


def mutate(args: list[str], rng: random.Random) -> list[str]:
    args = list(args)
    for _ in range(rng.choice([1, 1, 2, 3])):
        kind = rng.choices(range(9), weights=[4, 2, 1, 2, 1, 1, 1, 1, 1])[0]
        numbers = [i for i, a in enumerate(args) if a.lstrip("-").isdigit() and i > 0
                   and args[i - 1].startswith("-")]
        if kind == 0 and numbers:
            args[rng.choice(numbers)] = rng.choice(rng.choice([NUMBERS, HUGE]))
        elif kind == 1:
            paths = [i for i, a in enumerate(args) if "{" in a or "/" in a or a.endswith(
                (".toml", ".parquet", ".md", ".html", ".png"))]
            if paths:
                args[rng.choice(paths)] = rng.choice(PATHS)
        elif kind == 2:
            args.insert(rng.randrange(1, len(args) + 1), rng.choice(FLAGS))
        elif kind == 3:
            args += ["--policy", rng.choice(POLICIES)]
        elif kind == 4:
            args += ["--option", rng.choice(OPTIONS)]
        elif kind == 5 and len(args) > 1:
            del args[rng.randrange(1, len(args))]
        elif kind == 6:                              # a flag given twice, another value
            flags = [i for i, a in enumerate(args[:-1]) if a.startswith("-")]
            if flags:
                i = rng.choice(flags)
                args += [args[i], rng.choice(NUMBERS + HUGE + OPTIONS + POLICIES)]
        elif kind == 7:
            args += ["--backend", "dask", "--scheduler", rng.choice(
                ["nonsense", "tcp://", "tcp://h:99999", "h:0", ":80", "tcp://[::1", ""])]
        else:
            args.insert(rng.randrange(1, len(args) + 1), rng.choice(NUMBERS + HUGE + PATHS))
    return args


def check(args: list[str], result) -> str | None:
    """What is wrong with the outcome of one command line, or None."""
    if isinstance(result.exception, ReachedWork):
        return None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"raised {type(result.exception).__name__}: {result.exception}"
    err = result.stderr
    if "Traceback" in err or "Traceback" in result.stdout:
        return "printed a traceback"
    if result.exit_code == 0:
        return None
    if result.exit_code != 2:
        return f"exit status {result.exit_code}: {err.strip()[-300:]}"
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    if not lines or not lines[-1].startswith("gwe: "):
        return f"exit 2 without a 'gwe: ' sentence last: {err.strip()[-300:]!r}"
    if any(ln.startswith("gwe: ") and not ln.startswith("gwe: note:") for ln in lines[:-1]):
        return f"more than one sentence: {err.strip()[-300:]!r}"
    return None


def test_fuzzed_command_lines_exit_0_or_2_with_one_sentence_and_no_traceback(stage):
    rng = random.Random(2929)
    bad, seen = [], {0: 0, 2: 0, "work": 0}
    for case in range(CASES):
        base = BASES[case % len(BASES)]
        args = mutate(base, rng) if case >= len(BASES) else list(base)
        args = [a.replace("{tiny}", stage["tiny"]).replace("{results}", stage["results"])
                .replace("{case}", str(case)) for a in args]
        result = runner.invoke(app, args)
        problem = check(args, result)
        if problem:
            bad.append((args, problem))
        elif isinstance(result.exception, ReachedWork):
            seen["work"] += 1
        else:
            seen[result.exit_code] = seen.get(result.exit_code, 0) + 1
        shutil.rmtree(stage["dir"] / f"c{case}", ignore_errors=True)
    assert not bad, f"{len(bad)} of {CASES} command lines went wrong, e.g. " + "; ".join(
        f"{' '.join(a)} -> {p}" for a, p in bad[:5])
    # the mutations reach both ends: refused lines and lines that did their work
    assert seen[2] >= CASES // 3 and seen[0] + seen["work"] >= CASES // 10, seen
