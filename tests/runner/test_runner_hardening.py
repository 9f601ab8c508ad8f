"""Issue 29, the runner's half: one lock over every file a run writes, no lock file left
behind, checksummed journals and results files, a game that cannot start, arguments out of
range or in conflict, and a scenario spelled differently on ``--resume``.

Each test is named after the item of the issue it checks."""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from gwe_fast import load_scenario
from gwe_fast.cli import app
from gwe_fast.runner import batch
from gwe_fast.runner.batch import game_schema, lock_path, run_batch
from gwe_fast.runner.parquet import journal_path, partial_path, read_rows

runner = CliRunner()

# Test policies, written into a module in the test's folder (as a user would write one).
POLICY_MODULE = '''
import os, time
from gwe_fast.policies.base import RandomPolicy

class SlowWhile(RandomPolicy):
    """Random, but slow while the file `marker` exists: a run lasts long enough to be caught
    in the middle, and its resumption (the marker removed) is quick."""
    def choose(self, decision, game, rng):
        if os.path.exists(self.params["marker"]):
            time.sleep(0.01)
        return super().choose(decision, game, rng)
'''

# Imported by a policy spec in every process of a run (the parent and each worker): from
# then on the driver's new_game raises for game 2, as a scenario value out of range did.
BROKEN_START = '''
from gwe_fast.games.gwe import driver
from gwe_fast.policies.base import RandomPolicy

_new_game = driver.new_game

def new_game(scenario, seed, index, policies=None, events=False):
    if index == 2:
        raise OverflowError("Python integer -3000000000 out of bounds for int32")
    return _new_game(scenario, seed, index, policies=policies, events=events)

driver.new_game = new_game

class Plain(RandomPolicy):
    """Random, from a module that breaks the start of game 2."""
'''


@pytest.fixture
def tiny(tiny_dir):
    return tiny_dir / "tiny.toml"


@pytest.fixture
def pol(tmp_path, monkeypatch):
    """A folder holding the test policy modules: on sys.path here, the cwd of subprocesses."""
    folder = tmp_path / "pol"
    folder.mkdir()
    (folder / "slowpolicies.py").write_text(POLICY_MODULE)
    (folder / "brokenstart.py").write_text(BROKEN_START)
    monkeypatch.syspath_prepend(str(folder))
    return folder


def gwe(*args, cwd=None, timeout=180):
    """The real console entry point in a subprocess, as a user runs it."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=cwd)


def gwe_popen(*args, cwd=None):
    return subprocess.Popen([sys.executable, "-c", "from gwe_fast.cli import main; main()",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd)


def wait_for_rows(out: Path, schema, n: int, proc, limit: float = 90.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        rows = read_rows(out, schema) if journal_path(out).exists() else None
        if rows is not None and rows.num_rows >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"the run did not write {n} rows in time (exit {proc.poll()})")


def same_rows(a: Path, b: Path) -> None:
    """Two results files hold the same rows, in the same order, apart from wall time."""
    ta, tb = pq.read_table(a), pq.read_table(b)
    if "wall_time_s" in ta.column_names:
        ta, tb = ta.drop_columns(["wall_time_s"]), tb.drop_columns(["wall_time_s"])
    assert ta.schema == tb.schema
    assert ta.equals(tb)


def one_sentence(stderr: str) -> str:
    """The error line of a refused command: its last line, ``gwe: …``, and no traceback."""
    assert "Traceback" not in stderr, stderr
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("gwe: "), stderr
    return lines[-1]


@pytest.fixture
def no_game(monkeypatch):
    """Fail the test if a game is played, a worker started, a replay or a benchmark begun:
    arguments are checked first."""
    import gwe_fast.bench
    from gwe_fast.render import replay

    def play(self, index):
        raise AssertionError(f"game {index} was played before the arguments were checked")

    def started(*args, **kwargs):
        raise AssertionError("the work began before the arguments were checked")

    monkeypatch.setattr(batch.Player, "play", play)
    monkeypatch.setattr(batch, "_local_pool", started)
    monkeypatch.setattr(replay, "replay_game", started)
    monkeypatch.setattr(gwe_fast.bench, "headline", started)


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.is_file() or p.is_symlink())


# --- item 1: one lock over every file a run writes -----------------------------------------

def test_item_1_turns_out_shares_the_run_lock(tiny, tmp_path, pol):
    """Two runs given the same --turns-out: the second stops at once with one sentence and
    writes nothing; the first is not disturbed, and its later --resume completes it with the
    rows of an uninterrupted run."""
    sc = load_scenario(tiny)
    marker = tmp_path / "slow"
    marker.touch()
    turns, first = tmp_path / "T.parquet", tmp_path / "a.parquet"
    args = ("run", str(tiny), "-n", "16", "-s", "3", "-w", "1", "--policy",
            f"allied=slowpolicies:SlowWhile:marker={marker}", "--turns-out", str(turns),
            "--out", str(first))
    proc = gwe_popen(*args, cwd=pol)
    try:
        wait_for_rows(first, game_schema(sc), 2, proc)
        second = tmp_path / "b.parquet"
        result = runner.invoke(app, ["run", str(tiny), "-n", "4", "-s", "3", "-w", "1",
                                     "--turns-out", str(turns), "--out", str(second)])
        assert result.exit_code == 2, result.output
        assert one_sentence(result.stderr).startswith(f"gwe: another run is writing {turns}")
        assert not second.exists() and not partial_path(second).exists()
        assert not journal_path(second).exists()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    marker.unlink()
    resumed = gwe(*args, "--resume", cwd=pol)
    assert resumed.returncode == 0, resumed.stderr
    whole = tmp_path / "whole.parquet"
    run_batch(sc, 16, 3, whole, policies={"allied": f"slowpolicies:SlowWhile:marker={marker}"},
              per_turn=tmp_path / "whole.turns.parquet")
    same_rows(first, whole)
    same_rows(turns, tmp_path / "whole.turns.parquet")


@pytest.mark.parametrize("clash", ["same", "spelled-differently", "partial", "journal", "lock"])
def test_item_1_turns_out_equal_to_out_is_refused_before_any_game(tiny, tmp_path, no_game,
                                                                  monkeypatch, clash):
    """--turns-out naming the results file itself (however spelled), its partial file, its
    journal or its lock: exit 2 with one sentence before any game, nothing written."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r.parquet"
    turns = {"same": str(out), "spelled-differently": "./sub/../r.parquet",
             "partial": str(partial_path(out)), "journal": str(journal_path(out)),
             "lock": str(lock_path(out))}[clash]
    (tmp_path / "sub").mkdir()
    before = files_in(tmp_path)
    result = runner.invoke(app, ["run", str(tiny), "-n", "3", "-w", "1", "--out", str(out),
                                 "--turns-out", turns])
    assert result.exit_code == 2, result.output
    line = one_sentence(result.stderr)
    assert "--turns-out" in line and "--out" in line, line
    assert files_in(tmp_path) == before


def test_item_1_a_new_run_does_not_overwrite_an_existing_per_turn_file(tiny, tmp_path):
    sc = load_scenario(tiny)
    run_batch(sc, 2, 1, tmp_path / "old.parquet", per_turn=tmp_path / "T.parquet")
    kept = (tmp_path / "T.parquet").read_bytes()
    result = runner.invoke(app, ["run", str(tiny), "-n", "2", "-w", "1", "--out",
                                 str(tmp_path / "new.parquet"), "--turns-out",
                                 str(tmp_path / "T.parquet")])
    assert result.exit_code == 2
    assert "T.parquet already holds" in one_sentence(result.stderr)
    assert (tmp_path / "T.parquet").read_bytes() == kept
    assert not (tmp_path / "new.parquet").exists()


# --- item 14 (first bullet): no lock file left behind --------------------------------------

def test_item_14_a_finished_run_leaves_no_lock_file(tiny, tmp_path):
    sc = load_scenario(tiny)
    run_batch(sc, 3, 1, tmp_path / "r.parquet", per_turn=tmp_path / "r.turns.parquet")
    # the results, the per-turn rows and the town table written with them; no lock, no partial
    assert files_in(tmp_path) == ["r.parquet", "r.towns.parquet", "r.turns.parquet"]

    def stop(done, total, seconds):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(batch.BatchInterrupted):
        run_batch(sc, 6, 1, tmp_path / "s.parquet", progress=stop)
    assert not lock_path(tmp_path / "s.parquet").exists()
    result = runner.invoke(app, ["run", str(tiny), "-n", "2", "-w", "1", "--out",
                                 str(tmp_path / "c.parquet")])
    assert result.exit_code == 0, result.output
    assert not lock_path(tmp_path / "c.parquet").exists()


def test_item_14_a_refused_run_leaves_the_holders_lock_alone(tiny, tmp_path):
    from gwe_fast.runner.batch import OutputBusy, output_lock

    out = tmp_path / "r.parquet"
    with output_lock(out):
        with pytest.raises(OutputBusy):
            run_batch(load_scenario(tiny), 2, 1, out)
        assert lock_path(out).exists()
        with pytest.raises(OutputBusy):                 # still held, by the same file
            run_batch(load_scenario(tiny), 2, 1, out)
    assert not lock_path(out).exists()


def test_item_14_removing_the_lock_file_lets_no_two_runs_hold_it(tmp_path, monkeypatch):
    """The race that removing a lock file opens: a run opens the file, the holder ends and
    removes it, a third run creates a new one and locks it, and the first run's lock on the
    removed file succeeds. The first run must see that its file is gone and stop as busy."""
    import contextlib
    import fcntl

    from gwe_fast.runner.batch import OutputBusy, output_lock

    out = tmp_path / "r.parquet"
    holder, third = contextlib.ExitStack(), contextlib.ExitStack()
    holder.enter_context(output_lock(out))
    real_flock = fcntl.flock
    calls = []

    def flock(fd, op):
        if not calls and op & fcntl.LOCK_EX:
            calls.append(fd)
            holder.close()                          # between our open and our flock
            third.enter_context(output_lock(out))
        return real_flock(fd, op)

    monkeypatch.setattr(fcntl, "flock", flock)
    with third:
        with pytest.raises(OutputBusy):
            with output_lock(out):
                pass
        assert calls and lock_path(out).exists()
    assert not lock_path(out).exists()


# --- item 4: checksummed journals ----------------------------------------------------------

# Run in a subprocess: forks one child per damaged copy of a run, so that a crash of the
# interpreter (a segmentation fault) is a status like any other, and each child resumes the
# run through the real command line.
MUTATE_AND_RESUME = r'''
import json, os, shutil, sys
from pathlib import Path

job = json.loads(sys.argv[1])
pristine, work = Path(job["pristine"]), Path(job["work"])
from gwe_fast.cli import app, main  # imported once, before the forks, with what a run needs
import contextlib, io
import gwe_fast.analysis.stats, gwe_fast.games.gwe.driver, gwe_fast.games.gwe.engine
import gwe_fast.runner.batch, pyarrow.parquet, pandas  # pyarrow's to_numpy imports pandas
with contextlib.redirect_stderr(io.StringIO()):   # and the parsing of arguments, which
    app(["run", "--games", "x"], standalone_mode=False)   # imports more on first use,
from gwe_fast import load_scenario                         # and a game
from gwe_fast.games.gwe import driver
driver.play(driver.new_game(load_scenario(job["args"][1]), 0, 0))

out = []
for m in job["mutations"]:
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(pristine, work)
    target = work / m["file"]
    data = bytearray(target.read_bytes())
    if m["kind"] == "flip":
        data[m["at"] % len(data)] ^= 1 << m["bit"]
    elif m["kind"] == "zero":
        a = m["at"] % len(data)
        data[a:a + m["n"]] = bytes(len(data[a:a + m["n"]]))
    else:                                   # cut: the file ends early
        data = data[: m["at"] % len(data)]
    target.write_bytes(bytes(data))
    err = work / "stderr.txt"
    pid = os.fork()
    if pid == 0:
        fd = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(fd, 2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.chdir(work)
        sys.argv = ["gwe", *job["args"]]
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        if code == 0:
            import pyarrow.parquet as pq
            for name, expect in job["expect"].items():
                got = pq.read_table(work / name).drop_columns(["wall_time_s"]) \
                    if name == job["games_file"] else pq.read_table(work / name)
                want = pq.read_table(expect)
                if name == job["games_file"]:
                    want = want.drop_columns(["wall_time_s"])
                if not got.equals(want):
                    code = 97               # finished, with rows other than the true ones
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    out.append({"mutation": m, "status": os.waitstatus_to_exitcode(status),
                "stderr": err.read_text() if err.exists() else ""})
print(json.dumps(out))
'''


def interrupted_run(tiny, folder: Path, games: int, keep: int) -> list[str]:
    """A run of ``games`` games killed outright after ``keep``: the partial files have no
    footer, the journals hold the rows. Returns the arguments that resume it."""
    sc = load_scenario(tiny)
    out, turns = folder / "r.parquet", folder / "r.turns.parquet"

    def stop(done, total, seconds):
        if done == keep:
            raise KeyboardInterrupt

    with pytest.raises(batch.BatchInterrupted):
        run_batch(sc, games, 5, out, per_turn=turns, progress=stop)
    for p in (partial_path(out), partial_path(turns)):     # as a kill -9 leaves them
        p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    return ["run", str(tiny), "-n", str(games), "-s", "5", "-w", "1", "--out", "r.parquet",
            "--turns-out", "r.turns.parquet", "--resume"]


def test_item_4_damaged_journals_resume_to_the_true_rows_or_stop_with_one_sentence(tiny,
                                                                                   tmp_path):
    """Seeded bit flips, zeroed blocks and cuts over the journals of a run killed outright:
    every --resume either finishes with exactly the rows of an uninterrupted run or stops
    with one sentence; never other rows, a traceback or a crash."""
    games = 8
    pristine = tmp_path / "pristine"
    pristine.mkdir()
    args = interrupted_run(tiny, pristine, games, keep=6)
    whole = tmp_path / "whole"
    run_batch(load_scenario(tiny), games, 5, whole / "r.parquet",
              per_turn=whole / "r.turns.parquet")
    rng = random.Random(29)
    sizes = {f: (pristine / f).stat().st_size for f in ("r.parquet.partial.journal",
                                                        "r.turns.parquet.partial.journal")}
    mutations = []
    for k in range(32):
        f = "r.parquet.partial.journal" if k % 3 else "r.turns.parquet.partial.journal"
        kind = ("flip", "flip", "zero", "cut")[k % 4]
        mutations.append({"file": f, "kind": kind, "at": rng.randrange(sizes[f]),
                          "bit": rng.randrange(8), "n": rng.choice([1, 8, 64, 512])})
    job = {"pristine": str(pristine), "work": str(tmp_path / "work"), "args": args,
           "mutations": mutations, "games_file": "r.parquet",
           "expect": {"r.parquet": str(whole / "r.parquet"),
                      "r.turns.parquet": str(whole / "r.turns.parquet")}}
    proc = subprocess.run([sys.executable, "-c", MUTATE_AND_RESUME, json.dumps(job)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    bad = []
    for r in results:
        ok = r["status"] == 0 or (r["status"] == 2 and "Traceback" not in r["stderr"]
                                  and r["stderr"].strip().splitlines()[-1].startswith("gwe: "))
        if not ok:
            bad.append((r["mutation"], r["status"], r["stderr"][-400:]))
    assert not bad, f"{len(bad)} of {len(results)} damaged journals went wrong: {bad[:4]}"
    assert sum(r["status"] == 0 for r in results) >= len(results) // 2


def test_item_4_a_bad_journal_record_ends_the_good_prefix(tiny, tmp_path):
    """A record whose checksum fails ends what is read of a journal: the records before it
    are kept, the ones after it are not trusted, and the run plays their games again."""
    from gwe_fast.runner.parquet import journal_records

    interrupted_run(tiny, tmp_path, 10, keep=8)
    journal = journal_path(tmp_path / "r.parquet")
    sc = load_scenario(tiny)
    spans = journal_records(journal)          # (offset, length) of every record's bytes
    assert len(spans) == 1 + 8                # the schema, then one record per row group
    data = bytearray(journal.read_bytes())
    at, n = spans[4]
    data[at + n // 2] ^= 0x10                 # one bit in the fourth row group
    journal.write_bytes(bytes(data))
    notes = []
    rows = read_rows(tmp_path / "r.parquet", game_schema(sc), notes=notes)
    assert rows.column("game_index").to_pylist() == [0, 1, 2]
    assert len(notes) == 1 and str(journal) in notes[0]
    summary = run_batch(sc, 10, 5, tmp_path / "r.parquet",
                        per_turn=tmp_path / "r.turns.parquet", resume=True)
    assert summary.played == 7 and summary.complete


def test_item_4_a_journal_of_the_format_before_is_named_not_read(tiny, tmp_path):
    """A journal written before records carried checksums (a bare Arrow IPC stream) is not
    fed to Arrow's reader: a note names it, and the resumed run plays its games again."""
    sc = load_scenario(tiny)
    interrupted_run(tiny, tmp_path, 6, keep=4)
    journal = journal_path(tmp_path / "r.parquet")
    rows = read_rows(tmp_path / "r.parquet", game_schema(sc))
    assert rows.num_rows == 4
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, rows.schema) as writer:        # the old journal's layout
        writer.write_table(rows)
    journal.write_bytes(sink.getvalue().to_pybytes())
    notes = []
    assert read_rows(tmp_path / "r.parquet", game_schema(sc), notes=notes) is None
    assert notes == [f"{journal} is not a journal this version of gwe_fast writes (an older "
                     f"format, or damaged at its start); its games are played again unless "
                     f"the partial file holds them"]
    summary = run_batch(sc, 6, 5, tmp_path / "r.parquet", per_turn=tmp_path / "r.turns.parquet",
                        resume=True)
    assert summary.played == 6 and summary.complete


# --- item 5: checked results files ---------------------------------------------------------

def data_page_spans(path: Path) -> list[tuple[int, int]]:
    """The byte ranges of the column chunks (pages and their headers) of a Parquet file."""
    md = pq.ParquetFile(path).metadata
    spans = []
    for g in range(md.num_row_groups):
        for c in range(md.num_columns):
            col = md.row_group(g).column(c)
            start = col.data_page_offset
            if col.has_dictionary_page and col.dictionary_page_offset:
                start = min(start, col.dictionary_page_offset)
            spans.append((start, start + col.total_compressed_size))
    return spans


def test_item_5_bit_flips_in_the_data_pages_of_a_finished_file_are_caught(tiny, tmp_path):
    """A finished file carries page checksums: a flipped bit in its data pages is either
    harmless (the same values) or one sentence naming the file, in gwe report and in
    --resume, never a changed value."""
    from gwe_fast.analysis.report import ReportError, load_cells
    from gwe_fast.runner.parquet import RowsError

    sc = load_scenario(tiny)
    clean = tmp_path / "clean.parquet"
    run_batch(sc, 30, 2, clean)
    truth = pq.read_table(clean)
    truth_cells = load_cells([clean])[0][0].games
    data = clean.read_bytes()
    spans = data_page_spans(clean)
    rng = random.Random(5)
    outcomes = {"same": 0, "refused": 0}
    for k in range(60):
        a, b = rng.choice(spans)
        flipped = bytearray(data)
        flipped[rng.randrange(a, b)] ^= 1 << rng.randrange(8)
        path = tmp_path / f"f{k}.parquet"
        path.write_bytes(bytes(flipped))
        try:
            cells = load_cells([path])[0][0].games
        except ReportError as exc:
            assert str(path) in str(exc) and "\n" not in str(exc)
            outcomes["refused"] += 1
        else:
            assert set(cells) == set(truth_cells)
            for name, col in truth_cells.items():
                assert list(cells[name]) == list(col), f"flip {k} changed {name}"
            outcomes["same"] += 1
        try:
            rows = read_rows(path, game_schema(sc))
        except RowsError as exc:
            assert str(path) in str(exc) and "\n" not in str(exc)
        else:
            assert rows.equals(truth.cast(game_schema(sc)).replace_schema_metadata(None))
        path.unlink()
    assert outcomes["refused"] >= 30, outcomes


def test_item_5_a_damaged_file_is_one_sentence_in_report_and_resume(tiny, tmp_path):
    """A zstd error (a data page overwritten) in gwe report and in --resume: one sentence
    naming the file, exit 2, no traceback."""
    out = tmp_path / "r.parquet"
    run_batch(load_scenario(tiny), 12, 2, out)
    data = bytearray(out.read_bytes())
    a, b = max(data_page_spans(out), key=lambda s: s[1] - s[0])
    data[a + (b - a) // 2: b - 4] = bytes(b - 4 - a - (b - a) // 2)
    out.write_bytes(bytes(data))
    report = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 2, report.output
    assert str(out) in one_sentence(report.stderr)
    resume = runner.invoke(app, ["run", str(tiny), "-n", "14", "-s", "2", "-w", "1", "--out",
                                 str(out), "--resume"])
    assert resume.exit_code == 2, resume.output
    assert str(out) in one_sentence(resume.stderr)


def rewrite(path: Path, indices: list[int]) -> None:
    """Rewrite a finished file (with valid checksums and its metadata) so that its rows are
    those of ``indices`` (positions in the file): a duplicate, a gap, a changed index."""
    meta = {b"gwe_fast": pq.read_metadata(path).metadata[b"gwe_fast"]}
    table = pq.read_table(path).take(indices).replace_schema_metadata(meta)
    pq.write_table(table, path, write_page_checksum=True)


@pytest.mark.parametrize("damage", ["duplicate", "gap", "index-changed"])
def test_item_5_report_and_resume_refuse_duplicate_or_missing_game_indices(tiny, tmp_path,
                                                                           damage):
    sc = load_scenario(tiny)
    out = tmp_path / "r.parquet"
    run_batch(sc, 8, 2, out)
    if damage == "duplicate":
        rewrite(out, [0, 1, 2, 3, 3, 4, 5, 6, 7])
    elif damage == "gap":
        rewrite(out, [0, 1, 2, 4, 5, 6, 7])
    else:                                      # game 5's index reads 3: 3 twice, 5 missing
        meta = {b"gwe_fast": pq.read_metadata(out).metadata[b"gwe_fast"]}
        table = pq.read_table(out)
        idx = table.column("game_index").to_pylist()
        idx[5] = 3
        table = table.set_column(table.schema.get_field_index("game_index"),
                                 table.schema.field("game_index"),
                                 pa.array(idx, pa.int32())).replace_schema_metadata(meta)
        pq.write_table(table, out, write_page_checksum=True)
    report = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 2, report.output
    line = one_sentence(report.stderr)
    assert str(out) in line and "game" in line
    before = out.read_bytes()
    resume = runner.invoke(app, ["run", str(tiny), "-n", "12", "-s", "2", "-w", "1", "--out",
                                 str(out), "--resume"])
    assert resume.exit_code == 2, resume.output
    line = one_sentence(resume.stderr)
    assert str(out) in line and "game" in line
    assert out.read_bytes() == before


# --- item 2 (the runner's half): a game that cannot start ----------------------------------

def test_item_2_a_game_that_cannot_start_is_an_error_row_in_process(tiny, tmp_path,
                                                                    monkeypatch):
    from gwe_fast.games import driver

    d = driver("gwe")
    real = d.new_game

    def new_game(scenario, seed, index, policies=None, events=False):
        if index == 2:
            raise OverflowError("Python integer -3000000000 out of bounds for int32")
        return real(scenario, seed, index, policies=policies, events=events)

    monkeypatch.setattr(d, "new_game", new_game)
    summary = run_batch(load_scenario(tiny), 5, 1, tmp_path / "r.parquet", workers=1)
    assert summary.complete and summary.games == 5 and summary.errors == 1
    rows = pq.read_table(tmp_path / "r.parquet").to_pylist()
    bad = rows[2]
    assert bad["result"] == bad["winner"] == "error"
    assert "OverflowError" in bad["error"] and "out of bounds for int32" in bad["error"]
    assert bad["turns_played"] == 0
    assert all(r["error"] == "" for r in rows if r["game_index"] != 2)


def test_item_2_a_game_that_cannot_start_is_an_error_row_with_workers(tiny, tmp_path, pol):
    out = tmp_path / "r.parquet"
    result = gwe("run", str(tiny), "-n", "6", "-s", "1", "-w", "2", "--policy",
                 "allied=brokenstart:Plain", "--out", str(out), cwd=pol)
    assert result.returncode == 3, result.stderr           # games raised; none lost
    assert "1 game raised an error" in one_sentence(result.stderr)
    rows = pq.read_table(out).to_pylist()
    assert [r["game_index"] for r in rows] == list(range(6))
    assert [r["result"] == "error" for r in rows] == [False, False, True, False, False, False]
    assert "out of bounds for int32" in rows[2]["error"]


# Worker targets for the respawn tests, written into the test's folder: a spawned worker
# imports only this module (the job it is handed is a plain string), so each start is quick.
DYING = '''
import os

def _count():
    with open(os.environ["GWE_TEST_STARTS"], "a") as f:
        f.write("x")

def die_at_once(conn, job):
    """A worker that dies as it starts."""
    _count()
    os._exit(3)

def die_when_handed_games(conn, job):
    """A worker that starts, says it is ready, and dies on the first games it is handed."""
    _count()
    conn.send(("ready", 1.0))
    conn.recv()
    os._exit(4)
'''

# A policy module that kills every worker process importing it (the parent process of a run,
# which checks the policy, is not a multiprocessing child and goes on).
DIE_IN_WORKER = '''
import multiprocessing, os
if multiprocessing.parent_process() is not None:
    with open(os.environ["GWE_TEST_STARTS"], "a") as f:
        f.write("x")
    os._exit(3)
from gwe_fast.policies.base import RandomPolicy

class Plain(RandomPolicy):
    """Random, in the parent; a dead worker elsewhere."""
'''


@pytest.fixture
def counted_starts(tmp_path, monkeypatch):
    """``(file the workers mark, started)``: ``started()`` is how many worker processes the
    pool started. A pool that starts more than 40 is stopped at once (the test then fails
    quickly instead of filling the machine with processes)."""
    import multiprocessing.context

    folder = tmp_path / "targets"
    folder.mkdir()
    (folder / "dying.py").write_text(DYING)
    monkeypatch.syspath_prepend(str(folder))           # spawned workers get this sys.path
    monkeypatch.delitem(sys.modules, "dying", raising=False)
    marks = tmp_path / "starts"
    marks.write_text("")
    monkeypatch.setenv("GWE_TEST_STARTS", str(marks))
    count = [0]
    real = multiprocessing.context.SpawnProcess.start

    def start(self):
        count[0] += 1
        if count[0] > 40:
            raise RuntimeError("the pool started more than 40 worker processes")
        return real(self)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", start)
    return marks, lambda: count[0]


@pytest.fixture
def deadline():
    """Fail a test (instead of hanging the suite) if it runs past 120 s."""
    def late(*args):
        raise AssertionError("the pool did not end in time")

    before = signal.signal(signal.SIGALRM, late)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


def test_item_2_workers_that_die_as_they_start_are_replaced_a_bounded_number_of_times(
        counted_starts, deadline):
    """Workers that cannot even start are replaced a few times, then the pool stops with one
    sentence, however many games were asked: never a storm of new processes."""
    import dying

    marks, started = counted_starts
    with pytest.raises(batch.WorkerError, match=r"^3 worker processes in a row died before "
                                                r"they could play \(worker process \d+ ended "
                                                r"unexpectedly \(exit status 3\)\)$"):
        for _ in batch._local_pool("job", list(range(100_000)), 2, target=dying.die_at_once):
            pass
    assert batch.START_DEATHS <= started() <= batch.START_DEATHS + 1     # 2 at once, then 1s
    assert batch.START_DEATHS <= len(marks.read_text()) <= started()  # the last may be stopped


def test_item_2_workers_that_die_on_their_games_are_replaced_at_most_max_deaths_times(
        counted_starts, deadline):
    """Workers that start and then die on every game they are handed: the pool of a huge run
    gives up after ``MAX_DEATHS`` deaths (not one per 100 games), and every game is accounted
    for, as played or lost."""
    import dying

    marks, started = counted_starts
    todo = list(range(100_000))
    lost: list[int] = []
    events = list(batch._local_pool("job", todo, 2, target=dying.die_when_handed_games))
    for ev in events:
        assert ev[0] in ("lost", "rss")
        if ev[0] == "lost":
            lost.extend(ev[1])
    assert sorted(lost) == todo                                   # none silently dropped
    assert started() == 2 + batch.MAX_DEATHS
    assert len(marks.read_text()) == started()
    # the run stops at the 21st death, with the games still queued; the other worker may die
    # after that on a chunk of one game, so its plain message can come last (which depends on
    # timing): the stop is said once or twice, never later than the 22nd death
    stops = [e[2] for e in events if e[0] == "lost" and e[2].endswith("so the run stopped")]
    assert 1 <= len(stops) <= 2, stops
    for said in stops:
        assert re.fullmatch(r"2[12] worker processes died, the last one: worker process \d+ "
                            r"ended unexpectedly \(exit status 4\), so the run stopped", said)
    assert stops[0].startswith("21 ")


def test_item_2_a_run_whose_workers_die_as_they_start_is_one_sentence(tiny, tmp_path, pol,
                                                                      monkeypatch):
    """The same through ``gwe run``: a policy that kills every worker importing it ends the run
    with exit status 1, one sentence, a few worker processes in all and nothing written."""
    (pol / "dieinworker.py").write_text(DIE_IN_WORKER)
    marks = tmp_path / "starts"
    marks.write_text("")
    monkeypatch.setenv("GWE_TEST_STARTS", str(marks))
    out = tmp_path / "r.parquet"
    result = gwe("run", str(tiny), "-n", "100000", "-s", "1", "-w", "2", "--policy",
                 "allied=dieinworker:Plain", "--out", str(out), cwd=pol, timeout=120)
    assert result.returncode == 1, result.stderr
    line = one_sentence(result.stderr)
    assert "3 worker processes in a row died before they could play" in line, line
    assert batch.START_DEATHS <= len(marks.read_text()) <= batch.START_DEATHS + 1
    assert not out.exists()
    assert not lock_path(out).exists()


def test_item_6_the_command_line_bounds_are_the_librarys():
    from gwe_fast import cli

    assert (cli.MAX_SEED, cli.MAX_GAMES, cli.MAX_WORKERS) == (
        batch.MAX_SEED, batch.MAX_GAMES, batch.MAX_WORKERS)


# --- item 6: arguments out of range --------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["run", "{tiny}", "--seed", "9223372036854775808"], "--seed"),
    (["run", "{tiny}", "--seed", "-1"], "--seed"),
    (["run", "{tiny}", "--games", "99999999999999999999"], "--games"),
    (["run", "{tiny}", "--games", "0"], "--games"),
    (["run", "{tiny}", "--games", "-1"], "--games"),
    (["run", "{tiny}", "--workers", "100000000"], "--workers"),
    (["run", "{tiny}", "--policy", "allied=:"], "--policy"),
    (["run", "{tiny}", "--policy", "allied=::"], "--policy"),
    (["run", "{tiny}", "--policy", "allied=a..b:C"], "--policy"),
    (["run", "{tiny}", "--policy", "allied=random:=1"], "--policy"),
    (["run", "{tiny}", "--policy", "allied=random:,"], "--policy"),
    (["run", "{tiny}", "--policy", "allied=os:path"], "--policy"),
    (["run", "{tiny}", "--policy", "central=.x:Y"], "--policy"),
    (["run", "{tiny}", "--backend", "dask", "--scheduler", "nonsense"], "--scheduler"),
    (["run", "{tiny}", "--backend", "dask", "--scheduler", "tcp://"], "--scheduler"),
    (["run", "{tiny}", "--backend", "dask", "--scheduler", "tcp://h:99999"], "--scheduler"),
    (["sweep", "--scenario", "{tiny}", "--vary", "option.guards=false,true", "--seed",
      "9223372036854775808"], "--seed"),
    (["sweep", "--scenario", "{tiny}", "--vary", "option.guards=false,true", "--games",
      "99999999999999999999"], "--games"),
    (["sweep", "--scenario", "{tiny}", "--vary", "option.guards=false,true", "--max-games",
      "99999999999999999999", "--until-ci", "0.1"], "--max-games"),
    (["tournament", "{tiny}", "--games", "99999999999999999999"], "--games"),
    (["tournament", "{tiny}", "--seed", "9223372036854775808"], "--seed"),
    (["tournament", "{tiny}", "--workers", "100000000"], "--workers"),
    (["replay", "{tiny}", "--game-index", "2147483648"], "--game-index"),
    (["replay", "{tiny}", "--seed", "9223372036854775808"], "--seed"),
    (["bench", "--seed", "9223372036854775808"], "--seed"),
    (["bench", "--games", "99999999999999999999"], "--games"),
])
def test_item_6_arguments_out_of_range_are_one_sentence_before_any_game(
        tiny, tmp_path, monkeypatch, no_game, args, message):
    monkeypatch.chdir(tmp_path)
    args = [a.replace("{tiny}", str(tiny)) for a in args]
    t0 = time.monotonic()
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.output, result.exception)
    line = one_sentence(result.stderr)
    assert message in line, line
    assert time.monotonic() - t0 < 30                  # no wait for a scheduler (was 60 s)
    assert not (tmp_path / "results").exists()


def test_item_6_the_library_refuses_a_seed_or_a_count_out_of_range(tiny, tmp_path, no_game):
    sc = load_scenario(tiny)
    for kw in ({"games": 3, "seed": 2**63}, {"games": 3, "seed": -1},
               {"games": 2**31, "seed": 0}, {"games": 0, "seed": 0},
               {"games": 3, "seed": 0, "workers": 10**6}):
        with pytest.raises(ValueError):
            run_batch(sc, kw["games"], kw["seed"], tmp_path / "r.parquet",
                      workers=kw.get("workers", 1))
    assert files_in(tmp_path) == []


# --- item 7: conflicting options and policies ----------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--option", "guards=true", "--option", "guards=false"], "--option guards"),
    (["--policy", "allied=random", "--policy", "allied=passive"], "allied"),
    (["--policy", "russian=random", "--policy", "allied=passive"], "allied"),
    (["--policy", "central=greedy", "--policy", "austro-german=passive"], "central"),
    (["--policy", "allied=random:depth=x"], "depth"),
])
def test_item_7_conflicting_options_and_policies_are_refused(tiny, tmp_path, no_game, args,
                                                             message):
    result = runner.invoke(app, ["run", str(tiny), "-n", "2", "-w", "1", "--out",
                                 str(tmp_path / "r.parquet"), *args])
    assert result.exit_code == 2, result.output
    assert message in one_sentence(result.stderr)
    assert files_in(tmp_path) == []


def test_item_7_the_same_option_or_policy_given_twice_alike_is_accepted(tiny, tmp_path):
    result = runner.invoke(app, ["run", str(tiny), "-n", "2", "-w", "1", "--out",
                                 str(tmp_path / "r.parquet"), "--option", "guards=true",
                                 "--option", "guards=true", "--policy", "allied=random",
                                 "--policy", "russian=random"])
    assert result.exit_code == 0, result.output
    meta = json.loads(pq.read_table(tmp_path / "r.parquet").column("options")[0].as_py())
    assert meta["guards"] is True


def test_item_7_the_random_policy_refuses_unknown_parameters():
    from gwe_fast.policies.registry import PolicyError, make_policy

    with pytest.raises(PolicyError, match="depth"):
        make_policy("random:depth=x")
    with pytest.raises(PolicyError):
        batch.resolve_policies({"russian": "random", "allied": "greedy"})


# --- item 8: the scenario spelled differently on --resume ----------------------------------

def test_item_8_resume_accepts_the_same_scenario_spelled_differently(tiny, tmp_path,
                                                                     monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link").symlink_to(tiny.parent, target_is_directory=True)
    relative = os.path.relpath(tiny, tmp_path)
    out = tmp_path / "r.parquet"
    first = runner.invoke(app, ["run", relative, "-n", "3", "-s", "4", "-w", "1", "--out",
                                str(out)])
    assert first.exit_code == 0, first.output
    spellings = [str(tiny), "./" + relative, str(Path("link") / tiny.name),
                 str(tmp_path / "link" / ".." / relative)]
    for n, spelled in enumerate(spellings, start=4):
        result = runner.invoke(app, ["run", spelled, "-n", str(n), "-s", "4", "-w", "1",
                                     "--out", str(out), "--resume"])
        assert result.exit_code == 0, (spelled, result.output)
    whole = tmp_path / "whole.parquet"
    run_batch(load_scenario(relative), 3 + len(spellings), 4, whole)
    same_rows(out, whole)
    # another scenario file, even of the same data, is still refused
    other = tmp_path / "other"
    shutil.copytree(tiny.parent, other)
    result = runner.invoke(app, ["run", str(other / tiny.name), "-n", "9", "-s", "4", "-w",
                                 "1", "--out", str(out), "--resume"])
    assert result.exit_code == 2
    assert "it is a run with scenario" in one_sentence(result.stderr)


def test_item_1_turns_out_naming_the_town_table_is_refused(tiny, tmp_path):
    """The town table (<stem>.towns.parquet) is written with the per-turn rows: a --turns-out
    that names it would have two sinks write one file."""
    out = tmp_path / "r.parquet"
    result = runner.invoke(app, ["run", str(tiny), "-n", "1", "-w", "1", "--out", str(out),
                                 "--turns-out", str(tmp_path / "r.towns.parquet")])
    assert result.exit_code == 2
    assert "is the town table the run writes beside" in result.output
    assert not out.exists()
