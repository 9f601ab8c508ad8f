"""``gwe bench``: the headline figures as a table, within a budget; bad options are one
sentence."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from gwe_fast import bench, load_scenario


def gwe(*args):
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          check=False, capture_output=True, text=True, timeout=300)


def table_rows(table: str) -> list[tuple[str, ...]]:
    """The figures of a ``format_table`` table, each cell's wrapped lines joined again (the
    columns are where the dashes of the second line are)."""
    lines = table.splitlines()
    spans = [m.span() for m in re.finditer(r"-+", lines[1])]
    spans[-1] = (spans[-1][0], None)
    rows = []
    for block in "\n".join(lines[2:]).split("\n\n"):
        cells = [[] for _ in spans]
        for line in block.splitlines():
            for cell, (a, b) in zip(cells, spans):
                cell.append(line[a:b].strip())
        rows.append(tuple(" ".join(filter(None, c)) for c in cells))
    return rows


def test_bench_with_a_tiny_budget_prints_the_table_and_leaves_out_what_does_not_fit():
    result = gwe("bench", "--budget", "1", "--games", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["figure", "value", "target", "verdict"]
    assert set(lines[1]) <= {"-", " "}
    rows = [" ".join(cells) for cells in table_rows(result.stdout)]
    text = " ".join(result.stdout.split())
    assert "movement range, allowance 6" in text and "µs workspace" in text
    row = next(x for x in rows if x.startswith("supply lines of a whole side"))
    assert "µs Allied" in row and "µs German" in row and "<= 5 µs" in row
    assert "missed" in row or "met" in row
    for game in ("Brusilov", "Kaiser's Battle"):
        row = next(x for x in rows if x.startswith(f"{game}: random against random"))
        assert "(1 game)" in row and "ms CPU" in row and "<= 2 ms" in row
        assert "missed" in row or "met" in row
        # a campaign on the pure twins takes far more than the budget
        assert any(x.startswith(f"{game}: pure twins") and "skipped (budget)" in x
                   for x in rows)
    assert "Parquet bytes per game" in text and "peak memory" in text
    assert "Traceback" not in result.stderr


def test_bench_refuses_a_bad_option_in_one_message():
    result = gwe("bench", "--games", "0")
    assert result.returncode == 2
    assert "--games" in result.stderr and "Traceback" not in result.stderr


def test_parquet_bytes_separate_the_file_footer_from_the_games():
    sc = load_scenario("kaisers_battle/historical")
    run = bench.play(sc, "random", "cython", 0, range(2))
    assert len(run.rows) == 2 and len(run.cpu) == 2 and min(run.cpu) > 0
    with tempfile.TemporaryDirectory() as tmp:
        per_game, marginal = bench.parquet_bytes(sc, run.rows, Path(tmp))
        one, none = bench.parquet_bytes(sc, run.rows[:1], Path(tmp))
    assert none is None and one > per_game > marginal > 0


def test_rows_are_compared_without_their_wall_time():
    a = [{"game_index": 0, "vp": 3, "wall_time_s": 0.1}]
    assert bench.same_rows(a, [{"game_index": 0, "vp": 3, "wall_time_s": 9.0}])
    assert not bench.same_rows(a, [{"game_index": 0, "vp": 4, "wall_time_s": 0.1}])
    assert not bench.same_rows(a, a + a)


def test_item_11_bench_table_fits_100_columns():
    figs = bench.headline(budget=1, games=1)
    table = bench.format_table(figs)
    lines = table.splitlines()
    assert all(len(ln) <= 100 for ln in lines), max(lines, key=len)
    assert table_rows(table) == [                 # every figure is there, none cut short
        tuple(" ".join(x.split()) for x in (f.name, f.value, f.target, f.verdict))
        for f in figs]


def test_item_11_bench_verdicts_say_met_or_missed_and_by_how_much():
    lower = {1.92: "met", 2.0: "met", 2.02: "missed", 0.5: "met", 226.0: "missed"}
    for value, word in lower.items():
        text = bench._verdict(value, 2.0, higher_is_better=False)
        assert re.fullmatch(rf"{word} \((\S+ of|\S+x) the target\)", text), text
        assert "under" not in text and "over" not in text
    assert bench._verdict(1.92, 2.0, False) == "met (0.96 of the target)"
    assert bench._verdict(226.0, 2.0, False) == "missed (113x the target)"
    assert bench._verdict(42.1, 20.0, True) == "met (2.1x the target)"
    assert bench._verdict(19.98, 20.0, True) == "missed (0.999 of the target)"
    assert bench._verdict(float("nan"), 2.0, False) == "not measured"


# --------------------------------------------------------------------------------------------
# gwe bench --instructions: callgrind's counts
# --------------------------------------------------------------------------------------------

KB, BRUSILOV = "kaisers_battle/historical", "brusilov/historical"


def valgrind_says(count: int, pid: int = 4242, before: str = "") -> str:
    """What valgrind's callgrind writes to stderr around a run that counted ``count``."""
    return (f"=={pid}== Callgrind, a call-graph generating cache profiler\n"
            f"=={pid}== Command: python3.11 -m gwe_fast.campaign_cpu\n{before}"
            f"=={pid}== \n=={pid}== Events    : Ir\n=={pid}== Collected : {count}\n"
            f"=={pid}== \n=={pid}== I   refs:      {count:,}\n")


def games_of(argv) -> int:
    return int(argv[list(argv).index("--games") + 1])


class FakeCallgrind:
    """Runs nothing: answers each command with valgrind's text for ``base`` instructions plus
    ``per_game`` for each game the command asks for, and keeps the commands."""

    def __init__(self, base: int = 1_385_625_366, per_game: int = 15_248_523):
        self.base, self.per_game, self.calls = base, per_game, []

    def __call__(self, argv, env, timeout):
        self.calls.append((list(argv), env, timeout))
        return subprocess.CompletedProcess(
            argv, 0, None, valgrind_says(self.base + self.per_game * games_of(argv)))


def campaigns(name: str, policy: str, cpu_s: float) -> bench.Campaigns:
    return bench.Campaigns(name, policy, "cython", cpu=[cpu_s], wall=[cpu_s])


def test_collected_reads_valgrinds_count_and_nothing_else():
    text = valgrind_says(1_416_126_085, before="kaisers_battle/historical random 0.1 median\n")
    assert bench.collected(text) == 1_416_126_085
    assert bench.collected(valgrind_says(7)) == 7
    with pytest.raises(ValueError):
        bench.collected("==1== I   refs:      1,416,126,085\nCollected : 12\n")


def test_last_line_is_the_programs_error_not_valgrinds_summary():
    text = valgrind_says(9, before="Traceback (most recent call last):\n  File \"x\"\n"
                                   "ModuleNotFoundError: No module named 'gwe_fast'\n")
    assert bench.last_line(text) == "ModuleNotFoundError: No module named 'gwe_fast'"
    assert bench.last_line("==3== fatal: no memory\n==3== \n") == "==3== fatal: no memory"


def test_the_count_per_campaign_is_the_difference_of_the_two_runs_over_the_games(monkeypatch):
    fake = FakeCallgrind(base=1_000_000_000, per_game=12_345_679)
    count = bench.count_instructions(BRUSILOV, "greedy", 3, seed=7, valgrind="/x/valgrind",
                                     run=fake)
    assert count.games == 3 and count.warm_up == 1_000_000_000
    assert count.with_games == 1_000_000_000 + 3 * 12_345_679
    assert count.per_campaign == 12_345_679
    # a run with the warm-up alone and one with games 0-2, both as the same program plays
    assert sorted(games_of(argv) for argv, _, _ in fake.calls) == [0, 3]
    for argv, env, _ in fake.calls:
        i = argv.index("/x/valgrind")
        assert argv[i + 1:i + 3] == ["--tool=callgrind", "--callgrind-out-file=/dev/null"]
        assert argv[i + 3] == bench.python_executable()
        assert argv[i + 4:i + 7] == ["-m", "gwe_fast.campaign_cpu", BRUSILOV]
        assert argv[argv.index("--policy") + 1] == "greedy"
        assert argv[argv.index("--master-seed") + 1] == "7"
        assert env["OPENBLAS_NUM_THREADS"] == "1" and env["PYTHONHASHSEED"] == "0"
    # setarch -R only where there is a setarch
    monkeypatch.setattr(shutil, "which", lambda name: None)
    argv = bench.callgrind_command(KB, "random", 1, valgrind="/x/valgrind")
    assert argv[0] == "/x/valgrind" and "-R" not in argv


def test_valgrind_runs_the_interpreter_itself_but_a_virtual_environments_own(monkeypatch):
    monkeypatch.setattr(sys, "base_prefix", sys.prefix)
    assert bench.python_executable() == os.path.realpath(sys.executable)
    monkeypatch.setattr(sys, "base_prefix", sys.prefix + "-base")
    assert bench.python_executable() == sys.executable


def test_a_run_that_counts_no_more_than_the_warm_up_is_an_error():
    with pytest.raises(bench.CallgrindError, match="no more than the warm-up"):
        bench.count_instructions(KB, "random", 2, run=FakeCallgrind(per_game=0))


def test_without_valgrind_one_sentence_says_the_counts_are_left_out(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    said = []
    assert bench.find_valgrind(said.append) is None
    assert said == [bench.NO_VALGRIND]
    assert "valgrind" in said[0] and "callgrind" in said[0] and "left out" in said[0]
    assert said[0].count(". ") == 0 and said[0].endswith(".")


def test_gwe_bench_instructions_without_valgrind_measures_the_rest(monkeypatch):
    from typer.testing import CliRunner

    from gwe_fast.cli import app

    which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "valgrind" else which(name))
    result = CliRunner().invoke(app, ["bench", "--instructions", "--budget", "1", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0] == bench.NO_VALGRIND
    assert result.stderr.count("valgrind") == 1
    rows = [" ".join(cells) for cells in table_rows(result.stdout)]
    assert any(x.startswith("Kaiser's Battle: random against random, median") for x in rows)
    assert not any("instructions" in x for x in rows)


def test_a_failed_run_is_one_sentence_naming_its_group_and_the_others_are_counted():
    def runner(argv, env, timeout):
        if "greedy" in argv and KB in argv:
            text = valgrind_says(5, before="Traceback (most recent call last):\n"
                                          "  File \"<frozen runpy>\", line 198\n"
                                          "ModuleNotFoundError: No module named 'gwe_fast'\n")
            return subprocess.CompletedProcess(argv, 1, None, text)
        return FakeCallgrind(per_game=20_000_000)(argv, env, timeout)

    said = []
    timed = {(KB, "random"): campaigns(KB, "random", 0.004),
             (KB, "greedy"): campaigns(KB, "greedy", 0.004)}
    figs = bench.instruction_figures(timed, 2, 0, time.monotonic() + 600, said.append,
                                     "valgrind", run=runner)
    failed = [s for s in said if s.startswith("gwe: ")]
    assert failed == ["gwe: the instructions of Kaiser's Battle, greedy against greedy, were "
                      "not counted: its run under callgrind ended with exit status 1 "
                      "(ModuleNotFoundError: No module named 'gwe_fast')."]
    assert figs[KB, "greedy"].value == "not counted (callgrind failed)"
    assert figs[KB, "random"].value.startswith("20.0 M instructions; 4 ms CPU")
    assert figs[KB, "random"].target == "<= 15 M, with <= 1.5 ms"
    assert figs[KB, "random"].verdict == "missed (1.3x the target)"


def test_a_run_that_hangs_is_stopped_and_said_so():
    def runner(argv, env, timeout):
        raise subprocess.TimeoutExpired(argv, timeout)

    said = []
    bench.instruction_figures({(BRUSILOV, "random"): campaigns(BRUSILOV, "random", 0.015)}, 1,
                              0, time.monotonic() + 600, said.append, "valgrind", run=runner)
    assert said[-1].startswith("gwe: the instructions of Brusilov, random against random, "
                               "were not counted: its run under callgrind took over ")


def test_counts_stand_against_issue_28s_targets_and_greedy_kb_has_none():
    timed = {(BRUSILOV, "random"): campaigns(BRUSILOV, "random", 0.015),
             (BRUSILOV, "greedy"): campaigns(BRUSILOV, "greedy", 1.2),
             (KB, "greedy"): campaigns(KB, "greedy", 1.2)}
    fake = FakeCallgrind(per_game=62_700_000)
    figs = bench.instruction_figures(timed, 4, 0, time.monotonic() + 10_000, lambda s: None,
                                     "valgrind", run=fake)
    assert figs[BRUSILOV, "random"].verdict == "missed (2.1x the target)"
    assert figs[BRUSILOV, "random"].name.endswith("(callgrind, 4 games)")
    assert figs[BRUSILOV, "greedy"].verdict == "met (0.52 of the target)"
    assert figs[BRUSILOV, "greedy"].name.endswith("(callgrind, 1 game)")
    assert figs[KB, "greedy"].verdict == "no target"
    assert figs[KB, "greedy"].target == "none for the count (<= 6 ms)"
    assert "1,200 ms CPU" in figs[KB, "greedy"].value
    # random: --games campaigns; greedy: one
    assert sorted(games_of(a) for a, _, _ in fake.calls if "random" in a) == [0, 4]
    assert sorted(games_of(a) for a, _, _ in fake.calls if "greedy" in a) == [0, 0, 1, 1]


def test_a_group_that_would_not_fit_or_was_not_timed_is_left_out_and_says_so():
    def runner(argv, env, timeout):
        raise AssertionError("no group fits: nothing is run")

    timed = {(BRUSILOV, "random"): campaigns(BRUSILOV, "random", 0.015),
             (BRUSILOV, "greedy"): None}
    figs = bench.instruction_figures(timed, 5, 0, time.monotonic() + 20, lambda s: None,
                                     "valgrind", run=runner)
    assert figs[BRUSILOV, "random"].value.startswith("skipped (budget")
    assert figs[BRUSILOV, "greedy"].value == "skipped (its campaigns were not timed)"


def test_each_count_stands_under_its_groups_times(monkeypatch):
    def runner(argv, env, timeout):
        raise AssertionError("a budget of one second fits no count")

    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(bench, "_run", runner)
    figs = bench.headline(budget=1, games=1, instructions=True)
    names = [f.name for f in figs]
    for game in ("Brusilov", "Kaiser's Battle"):
        for kind in ("random", "greedy"):
            at = next(i for i, n in enumerate(names)
                      if n.startswith(f"{game}: {kind} against {kind}, median"))
            assert names[at + 1].startswith(f"{game}: {kind} against {kind}, instructions")
    assert sum("instructions per campaign" in n for n in names) == 4
    assert all(len(line) <= 100 for line in bench.format_table(figs).splitlines())


def test_the_counted_program_runs_from_anywhere_with_the_env_it_is_given(tmp_path):
    done = subprocess.run([bench.python_executable(), "-m", "gwe_fast.campaign_cpu", KB,
                           "--games", "1", "--master-seed", "3"], cwd=tmp_path,
                          env=bench.callgrind_env(), capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{KB} random ") and "median" in done.stdout


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_callgrind_counts_a_random_kaisers_battle_campaign():
    # two runs side by side under callgrind, each about half a minute on a quiet core: the
    # interpreter's start-up is most of it; the campaign itself is some 15 M instructions
    count = bench.count_instructions(KB, "random", 1, valgrind=shutil.which("valgrind"),
                                     timeout=240)
    assert count.warm_up > 100_000_000                  # the interpreter and the warm-up
    assert 1_000_000 < count.per_campaign < 200_000_000
