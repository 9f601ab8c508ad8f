"""gwe run and run_batch: the per-game and per-turn tables, reproducibility across workers,
nothing lost on an interruption, a killed worker or a full disk, resumption, and reading the
files with pyarrow, pandas, polars and DuckDB."""

import errno
import json
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
from gwe_fast.games import driver
from gwe_fast.runner import batch
from gwe_fast.runner.batch import (
    COMMON_FIELDS,
    BatchInterrupted,
    ResumeError,
    game_schema,
    play_one,
    run_batch,
    turn_schema,
)
from gwe_fast.runner.parquet import journal_path, partial_path, read_metadata, read_rows

runner = CliRunner()

LEVELS = {"central_powers_decisive", "central_powers_substantive", "central_powers_marginal",
          "russian_marginal", "russian_substantive", "russian_decisive"}

# Test policies, written into a module in the test's folder (as a user would write one).
POLICY_MODULE = '''
import os, signal, time
from gwe_fast.policies.base import RandomPolicy

class Sleepy(RandomPolicy):
    """Random, but slow: a run lasts long enough to be interrupted."""
    def choose(self, decision, game, rng):
        time.sleep(self.params.get("delay", 0.005))
        return super().choose(decision, game, rng)

class DieOnce(RandomPolicy):
    """Random; kills its own process in game `game` unless the file `marker` exists."""
    def choose(self, decision, game, rng):
        if game.game_index == self.params["game"] and not os.path.exists(self.params["marker"]):
            open(self.params["marker"], "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(decision, game, rng)

class Boom(RandomPolicy):
    """Random; raises in game `game`."""
    def choose(self, decision, game, rng):
        if game.game_index == self.params["game"]:
            raise RuntimeError("boom in game %d" % game.game_index)
        return super().choose(decision, game, rng)

class First(RandomPolicy):
    """Always the first legal option."""
    def choose(self, decision, game, rng):
        return 0
'''


@pytest.fixture
def tiny(tiny_dir):
    return tiny_dir / "tiny.toml"


@pytest.fixture
def mypolicies(tmp_path, monkeypatch):
    """A folder holding ``testpolicies.py``, on sys.path here and the cwd of subprocesses."""
    folder = tmp_path / "pol"
    folder.mkdir()
    (folder / "testpolicies.py").write_text(POLICY_MODULE)
    monkeypatch.syspath_prepend(str(folder))
    return folder


def gwe(*args, cwd=None, timeout=120):
    """The real console entry point in a subprocess, as a user runs it."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=cwd)


def gwe_popen(*args, cwd=None):
    return subprocess.Popen([sys.executable, "-c", "from gwe_fast.cli import main; main()",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=cwd)


def same_rows(a: Path, b: Path) -> None:
    """Two results files hold the same rows, in the same order, apart from wall time."""
    ta, tb = pq.read_table(a), pq.read_table(b)
    if "wall_time_s" in ta.column_names:
        ta, tb = ta.drop_columns(["wall_time_s"]), tb.drop_columns(["wall_time_s"])
    assert ta.schema == tb.schema
    assert ta.num_rows == tb.num_rows
    assert ta.equals(tb)


# --- the shape of a run --------------------------------------------------------------------

def test_schema_is_the_common_columns_then_the_drivers_own(tiny):
    sc = load_scenario(tiny)
    d = driver("gwe")
    schema = game_schema(sc)
    assert schema.names == [f.name for f in COMMON_FIELDS] + [f.name for f in d.RECORD_FIELDS]
    assert all(not f.nullable for f in schema)
    for name in ("result", "winner", "error", "vp", "turns_played", "units_on_map_allied",
                 "stacking_on_map_central", "units_pending_allied", "wall_time_s"):
        assert name in schema.names
    turns = turn_schema(sc)
    assert turns.names == ["master_seed", "game_index"] + [f.name for f in d.TURN_FIELDS]
    assert all(not f.nullable for f in turns)


def test_play_one_is_the_row_of_that_game_in_a_run(tiny, tmp_path):
    sc = load_scenario(tiny)
    run_batch(sc, 4, 9, tmp_path / "r.parquet")
    row = pq.read_table(tmp_path / "r.parquet").to_pylist()[2]
    alone = play_one(sc, 9, 2)
    assert set(alone) == set(row)
    assert {k: v for k, v in alone.items() if k != "wall_time_s"} == {
        k: v for k, v in row.items() if k != "wall_time_s"}


def test_run_writes_parquet_with_metadata_readable_by_pyarrow_and_pandas(tiny, tmp_path):
    import pandas as pd

    out = tmp_path / "out" / "tiny.parquet"
    result = gwe("run", str(tiny), "--games", "40", "--seed", "11", "--option", "guards=true",
                 "--out", str(out), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "40 games" in result.stdout and "mean VP (Russian VP" in result.stdout
    assert "95 % interval" in result.stdout and "errors: 0" in result.stdout
    assert "40/40 games" in result.stderr and "games/s" in result.stderr     # progress
    assert f"-> {out}" in result.stderr                                       # where it goes
    table = pq.read_table(out)
    assert table.num_rows == 40 and all(not f.nullable for f in table.schema)
    df = pd.read_parquet(out)
    assert list(df.game_index) == list(range(40))
    assert set(df.result) <= LEVELS and (df.error == "").all()
    assert set(df.winner) <= {"allied", "central", "draw"}
    assert (df.turns_played == 3).all() and (df.master_seed == 11).all()
    # the VP total is the sum of its causes (the initial 3 = 5, less 2 for the guards option)
    causes = [c for c in df.columns if c.startswith("vp_")]
    assert (df.vp_initial == 3).all()
    assert (df.vp == df[causes].sum(axis=1)).all()
    assert json.loads(df.options[0]) == {"depots": 1, "guards": True, "slow": False}
    assert json.loads(df.policies[0]) == {"allied": "random", "central": "random"}
    meta = read_metadata(out)
    assert meta["master_seed"] == 11 and meta["games"] == 40 and meta["format_version"] == 3
    assert meta["options"]["guards"] is True and len(meta["data_hash"]) == 16
    assert meta["engine"] == "gwe" and meta["policies"] == {"allied": "random",
                                                            "central": "random"}
    assert meta["max_worker_rss_mb"] > 10
    assert not partial_path(out).exists() and not journal_path(out).exists()


def test_one_worker_and_two_workers_give_identical_rows(tiny, tmp_path):
    sc = load_scenario(tiny)
    one = run_batch(sc, 14, 5, tmp_path / "one.parquet", workers=1,
                    per_turn=tmp_path / "one.turns.parquet")
    two = run_batch(sc, 14, 5, tmp_path / "two.parquet", workers=2,
                    per_turn=tmp_path / "two.turns.parquet")
    assert one.games == two.games == 14 and one.results == two.results
    same_rows(tmp_path / "one.parquet", tmp_path / "two.parquet")
    same_rows(tmp_path / "one.turns.parquet", tmp_path / "two.turns.parquet")
    # different seeds are different games
    run_batch(sc, 14, 6, tmp_path / "other.parquet")
    with pytest.raises(AssertionError):
        same_rows(tmp_path / "one.parquet", tmp_path / "other.parquet")


def test_per_turn_rows_are_those_of_each_game(tiny, tmp_path):
    sc = load_scenario(tiny)
    out, turns = tmp_path / "r.parquet", tmp_path / "r.turns.parquet"
    result = gwe("run", str(tiny), "--games", "5", "--seed", "2", "--out", str(out),
                 "--per-turn", "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert f"per-turn rows: {turns}" in result.stdout
    t = pq.read_table(turns)
    d = driver("gwe")
    game = d.new_game(sc, 2, 3)
    expect = d.play(game).per_turn
    got = t.filter(pa.compute.equal(t.column("game_index"), 3)).drop_columns(
        ["master_seed", "game_index"]).to_pylist()
    assert got == expect
    assert sorted(set(t.column("game_index").to_pylist())) == list(range(5))
    assert read_metadata(turns)["table"] == "turns"


def test_policies_are_given_per_side_and_recorded(tiny, tmp_path, mypolicies):
    sc = load_scenario(tiny)
    rnd = run_batch(sc, 6, 1, tmp_path / "random.parquet")
    first = run_batch(sc, 6, 1, tmp_path / "first.parquet",
                      policies={"russian": "testpolicies:First", "central": "random"})
    assert rnd.games == first.games == 6
    a = pq.read_table(tmp_path / "random.parquet").to_pydict()
    b = pq.read_table(tmp_path / "first.parquet").to_pydict()
    assert json.loads(b["policies"][0]) == {"allied": "testpolicies:First", "central": "random"}
    assert a["stacking_on_map_allied"] != b["stacking_on_map_allied"] or a["vp"] != b["vp"]


@pytest.mark.parametrize("args, message", [
    (["--policy", "nowhere=random"], "--policy: unknown side 'nowhere' (sides: allied, central"),
    (["--policy", "allied=nosuch"], "--policy: unknown policy 'nosuch' (known: "),
    (["--policy", "allied"], "--policy 'allied' must look like SIDE=SPEC"),
    (["--policy", "central=nomodule.here:X"], "cannot import policy module 'nomodule.here'"),
    (["--option", "nope=1"], "unknown option 'nope' for this scenario (options: guards, slow, "
                             "depots)"),
    (["--backend", "dask"], "--backend dask needs --scheduler ADDRESS"),
    (["--backend", "ray"], "Invalid value for '--backend'"),
    (["--games", "0"], "Invalid value for '--games'"),
])
def test_bad_arguments_give_one_sentence_and_exit_2(tiny, tmp_path, args, message):
    result = gwe("run", str(tiny), "--out", str(tmp_path / "x.parquet"), *args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.parquet").exists()


def test_run_refuses_to_overwrite_a_run_without_resume(tiny, tmp_path):
    out = tmp_path / "r.parquet"
    assert gwe("run", str(tiny), "-n", "2", "--out", str(out), "-w", "1").returncode == 0
    again = gwe("run", str(tiny), "-n", "2", "--out", str(out), "-w", "1")
    assert again.returncode == 2
    assert f"{out} already holds a run; add --resume" in again.stderr


def test_default_output_name_and_resume_finds_it(tiny, tmp_path):
    result = gwe("run", str(tiny), "-n", "3", "-w", "1", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    files = list((tmp_path / "results").glob("*.parquet"))
    assert len(files) == 1
    name = files[0].name
    assert name.startswith("tiny-tiny-seed0-") and name[16:24].isdigit(), name
    assert f"-> results/{name}" in result.stdout
    more = gwe("run", str(tiny), "-n", "5", "-w", "1", "--resume", cwd=tmp_path)
    assert more.returncode == 0, more.stderr
    assert "5 games, 2 played now" in more.stdout
    assert pq.read_table(files[0]).column("game_index").to_pylist() == list(range(5))
    none = gwe("run", str(tiny), "-n", "5", "--seed", "4", "--resume", cwd=tmp_path)
    assert none.returncode == 2 and "no run of" in none.stderr and "with seed 4" in none.stderr


def test_the_default_job_is_the_brusilov_historical_scenario_with_1000_games(monkeypatch,
                                                                            tmp_path):
    seen = {}

    def fake_run_batch(sc, games, seed, out, **kw):        # only the arguments are checked
        seen.update(scenario=sc.key, games=games, seed=seed, out=out, **kw)
        raise BatchInterrupted(partial_path(out), 0)

    monkeypatch.setattr(batch, "run_batch", fake_run_batch)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["run"])
    assert result.exit_code == 130
    assert seen["scenario"] == "brusilov/historical" and seen["games"] == 1000
    assert seen["seed"] == 0 and seen["workers"] == batch.worker_count(0)
    assert seen["policies"] == batch.DEFAULT_POLICIES and seen["backend"] == "local"
    assert str(seen["out"]).startswith("results/brusilov-historical-seed0-")


# --- nothing lost --------------------------------------------------------------------------

def wait_for_rows(out: Path, schema, n: int, proc, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        rows = read_rows(out, schema) if journal_path(out).exists() else None
        if rows is not None and rows.num_rows >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"the run did not write {n} rows in time (exit {proc.poll()})")


def descendants(pid: int) -> list:
    import psutil

    return psutil.Process(pid).children(recursive=True)


@pytest.mark.parametrize("sig, workers", [(signal.SIGKILL, 2), (signal.SIGTERM, 1),
                                          (signal.SIGTERM, 2)],
                         ids=["sigkill-2-workers", "sigterm-in-process", "sigterm-2-workers"])
def test_a_killed_run_keeps_its_games_and_resume_completes_it(tiny, tmp_path, mypolicies,
                                                             sig, workers):
    import psutil

    sc = load_scenario(tiny)
    spec = "testpolicies:Sleepy:delay=0.005"
    out = tmp_path / "killed.parquet"
    args = ("run", str(tiny), "--games", "40", "--seed", "3", "--policy", f"allied={spec}",
            "--per-turn", "--workers", str(workers), "--out", str(out))
    proc = gwe_popen(*args, cwd=mypolicies)
    wait_for_rows(out, game_schema(sc), 4, proc)
    children = descendants(proc.pid)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    _, alive = psutil.wait_procs(children, timeout=20)
    assert not alive, "worker processes outlived the run"
    assert not out.exists()
    kept = read_rows(out, game_schema(sc))
    assert 4 <= kept.num_rows < 40
    if sig == signal.SIGTERM:
        assert proc.returncode == 130
        assert "Traceback" not in err
        assert f"interrupted; {kept.num_rows} finished games are kept in {out}.partial" in err
        assert "--resume" in err
        assert pq.read_table(partial_path(out)).num_rows == kept.num_rows   # a readable file
    resumed = gwe(*args, "--resume", cwd=mypolicies)
    assert resumed.returncode == 0, resumed.stderr
    assert f"40 games, {40 - kept.num_rows} played now" in resumed.stdout
    assert not partial_path(out).exists() and not journal_path(out).exists()
    run_batch(sc, 40, 3, tmp_path / "whole.parquet", policies={"allied": spec}, workers=2,
              per_turn=tmp_path / "whole.turns.parquet")
    same_rows(out, tmp_path / "whole.parquet")
    same_rows(tmp_path / "killed.turns.parquet", tmp_path / "whole.turns.parquet")


def test_a_killed_worker_loses_only_its_game_and_resume_plays_it(tiny, tmp_path, mypolicies):
    sc = load_scenario(tiny)
    marker = tmp_path / "died"
    spec = f"testpolicies:DieOnce:game=5,marker={marker}"
    out = tmp_path / "r.parquet"
    args = ("run", str(tiny), "--games", "16", "--seed", "8", "--policy", f"central={spec}",
            "--workers", "2", "--out", str(out))
    result = gwe(*args, cwd=mypolicies)
    assert marker.exists()
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "1 game was not played (worker process" in result.stderr
    assert "died of SIGKILL" in result.stderr and "--resume" in result.stderr
    assert "not played: 1" in result.stdout
    assert not out.exists()
    kept = read_rows(out, game_schema(sc)).column("game_index").to_pylist()
    assert kept == [i for i in range(16) if i != 5]
    resumed = gwe(*args, "--resume", cwd=mypolicies)
    assert resumed.returncode == 0, resumed.stderr
    assert "16 games, 1 played now" in resumed.stdout
    run_batch(sc, 16, 8, tmp_path / "whole.parquet", policies={"central": spec})
    same_rows(out, tmp_path / "whole.parquet")


def test_a_full_disk_keeps_the_games_written_and_resume_completes(tiny, tmp_path,
                                                                  monkeypatch):
    from gwe_fast.runner.parquet import ParquetSink

    out = tmp_path / "r.parquet"
    real_write = ParquetSink.write
    calls = {"n": 0}

    def write(self, columns):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, columns)

    monkeypatch.setattr(ParquetSink, "write", write)
    args = ["run", str(tiny), "--games", "20", "--seed", "4", "--workers", "1",
            "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert (f"cannot write {out}: No space left on device; 2 finished games are kept in "
            f"{out}.partial") in result.stderr
    assert pq.read_table(partial_path(out)).column("game_index").to_pylist() == [0, 1]
    monkeypatch.setattr(ParquetSink, "write", real_write)
    assert runner.invoke(app, [*args, "--resume"]).exit_code == 0
    run_batch(load_scenario(tiny), 20, 4, tmp_path / "whole.parquet")
    same_rows(out, tmp_path / "whole.parquet")


def test_run_into_an_unwritable_place_fails_cleanly(tiny, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = gwe("run", str(tiny), "--games", "1", "--out", str(blocker / "sub" / "x.parquet"))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"cannot write {blocker / 'sub' / 'x.parquet'}: " in result.stderr


def test_run_into_a_folder_is_refused(tiny, tmp_path):
    result = gwe("run", str(tiny), "--games", "1", "--out", str(tmp_path))
    assert result.returncode == 2 and "is a folder" in result.stderr


def test_a_game_that_raises_is_a_row_and_the_exit_status_is_3(tiny, tmp_path, mypolicies):
    out = tmp_path / "r.parquet"
    result = gwe("run", str(tiny), "-n", "4", "-w", "1", "--policy",
                 "allied=testpolicies:Boom:game=2", "--out", str(out), cwd=mypolicies)
    assert result.returncode == 3, result.stderr
    assert "errors: 1" in result.stdout
    assert "1 game raised an error" in result.stderr and "Traceback" not in result.stderr
    rows = pq.read_table(out).to_pylist()
    assert [r["result"] for r in rows].count("error") == 1
    bad = rows[2]
    assert bad["result"] == bad["winner"] == "error"
    assert bad["error"] == "RuntimeError: boom in game 2"
    assert all(r["error"] == "" for r in rows if r["game_index"] != 2)


# --- resumption ----------------------------------------------------------------------------

def test_resume_extends_a_finished_run(tiny, tmp_path):
    sc = load_scenario(tiny)
    out, turns = tmp_path / "r.parquet", tmp_path / "r.turns.parquet"
    run_batch(sc, 6, 2, out, per_turn=turns, workers=2)
    summary = run_batch(sc, 11, 2, out, per_turn=turns, resume=True)
    assert summary.games == 11 and summary.played == 5 and summary.rows_path == out
    run_batch(sc, 11, 2, tmp_path / "w.parquet", per_turn=tmp_path / "w.turns.parquet")
    same_rows(out, tmp_path / "w.parquet")
    same_rows(turns, tmp_path / "w.turns.parquet")
    assert read_metadata(out)["resumed_from"] == 6


@pytest.mark.parametrize("change, message", [
    ({"seed": 3}, "it is a run with seed 2, not 3"),
    ({"options": {"guards": True}}, "it is a run with options"),
    ({"policies": {"allied": "random:x=1"}}, "it is a run with policies"),
])
def test_resume_refuses_another_run(tiny, tmp_path, change, message):
    out = tmp_path / "r.parquet"
    run_batch(load_scenario(tiny), 3, 2, out)
    sc = load_scenario(tiny, change.get("options"))
    with pytest.raises(ResumeError, match="cannot resume .*" + message.split(",")[0]):
        run_batch(sc, 5, change.get("seed", 2), out, resume=True,
                  policies=change.get("policies"))
    args = ["run", str(tiny), "-n", "5", "-s", str(change.get("seed", 2)), "--out", str(out),
            "--resume"]
    for k, v in (change.get("options") or {}).items():
        args += ["--option", f"{k}={str(v).lower()}"]
    for k, v in (change.get("policies") or {}).items():
        args += ["--policy", f"{k}={v}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert pq.read_table(out).num_rows == 3                 # left as it was


def test_resume_refuses_a_file_that_is_not_a_run(tiny, tmp_path):
    out = tmp_path / "r.parquet"
    out.write_text("not parquet")
    result = runner.invoke(app, ["run", str(tiny), "-n", "2", "--out", str(out), "--resume"])
    assert result.exit_code == 2
    assert f"cannot resume: {out} is not a readable Parquet file" in result.stderr
    pq.write_table(pa.table({"x": [1]}), out)
    result = runner.invoke(app, ["run", str(tiny), "-n", "2", "--out", str(out), "--resume"])
    assert result.exit_code == 2
    assert f"{out} does not hold the columns of this run" in result.stderr


def test_resume_with_per_turn_needs_the_original_per_turn_rows(tiny, tmp_path):
    sc = load_scenario(tiny)
    out = tmp_path / "r.parquet"
    run_batch(sc, 3, 2, out, per_turn=tmp_path / "r.turns.parquet")
    with pytest.raises(ResumeError, match="it recorded per-turn rows; resume it with --per-turn"):
        run_batch(sc, 5, 2, out, resume=True)
    run_batch(sc, 3, 2, tmp_path / "plain.parquet")
    with pytest.raises(ResumeError, match="no per-turn rows were recorded"):
        run_batch(sc, 5, 2, tmp_path / "plain.parquet", resume=True,
                  per_turn=tmp_path / "plain.turns.parquet")


def test_indices_play_a_share_of_a_run(tiny, tmp_path):
    sc = load_scenario(tiny)
    run_batch(sc, 6, 1, tmp_path / "all.parquet")
    part = run_batch(sc, 6, 1, tmp_path / "odd.parquet", indices=range(1, 6, 2))
    assert part.games == 3 and read_metadata(tmp_path / "odd.parquet")["indices"] == "3 of 0..5"
    full = pq.read_table(tmp_path / "all.parquet").drop_columns(["wall_time_s"])
    odd = pq.read_table(tmp_path / "odd.parquet").drop_columns(["wall_time_s"])
    assert odd.equals(full.take([1, 3, 5]))
    with pytest.raises(ValueError, match="game index 6 is outside 0..5"):
        run_batch(sc, 6, 1, tmp_path / "bad.parquet", indices=[6])


def test_an_interrupted_library_run_raises_with_the_count_kept(tiny, tmp_path):
    sc = load_scenario(tiny)
    out = tmp_path / "r.parquet"

    def progress(done, total, seconds):
        if done == 7:
            raise KeyboardInterrupt

    with pytest.raises(BatchInterrupted) as info:
        run_batch(sc, 20, 0, out, progress=progress)
    assert isinstance(info.value, KeyboardInterrupt)
    assert info.value.kept == 7 and info.value.partial == partial_path(out)
    assert pq.read_table(partial_path(out)).column("game_index").to_pylist() == list(range(7))


# --- reading the files ---------------------------------------------------------------------

def test_results_read_in_duckdb_and_polars(tiny, tmp_path):
    import duckdb
    import polars as pl

    out = tmp_path / "r.parquet"
    run_batch(load_scenario(tiny), 12, 3, out, per_turn=tmp_path / "r.turns.parquet")
    con = duckdb.connect()
    rows = con.execute(f"SELECT result, count(*) AS games, avg(vp) AS mean_vp FROM "
                       f"read_parquet('{out}') GROUP BY result ORDER BY games DESC").fetchall()
    assert sum(r[1] for r in rows) == 12 and {r[0] for r in rows} <= LEVELS
    n_turn_rows = con.execute(f"SELECT count(*) FROM read_parquet('{tmp_path}/r.turns.parquet')"
                              ).fetchone()[0]
    assert n_turn_rows == 12 * 3 * 2                       # 3 Game-Turns, two sides each
    df = pl.read_parquet(out)
    by = df.group_by("winner").agg(pl.len().alias("games"), pl.col("vp").mean().alias("vp"))
    assert by["games"].sum() == 12
    assert df.schema["game_index"] == pl.Int32 and df["options"].dtype == pl.String
    t = pl.read_parquet(tmp_path / "r.turns.parquet")
    last = t.filter(pl.col("turn") == 3).group_by("side").agg(pl.col("vp").mean())
    assert sorted(last["side"].to_list()) == ["allied", "central"]


# --- games without an engine ---------------------------------------------------------------

def test_the_kaisers_battle_runs_through_its_driver_or_is_set_up(tmp_path):
    out = tmp_path / "kb.parquet"
    result = gwe("run", "kaisers_battle/historical", "--games", "2", "--workers", "1",
                 "--out", str(out), timeout=600)
    assert result.returncode == 0, result.stderr
    df = pq.read_table(out).to_pandas()
    if batch._driver("kb") is None:
        assert "not built yet" in result.stdout
        assert (df.result == "setup-only").all() and (df.turns_played == 0).all()
        assert (df.units_on_map_central > 0).all() and (df.units_pending_allied > 0).all()
    else:
        d = driver("kb")
        assert [f.name for f in d.RECORD_FIELDS] == df.columns[len(COMMON_FIELDS):].tolist()
        assert set(df.winner) <= {"allied", "central", "draw", "error"}
        assert (df.turns_played > 0).all()


# --- docs/results.md -----------------------------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "results.md"


def test_the_python_examples_of_the_results_page_run(tiny, tmp_path, monkeypatch, capsys):
    pytest.importorskip("duckdb")
    monkeypatch.chdir(tmp_path)
    run_batch(load_scenario(tiny), 8, 7, Path("results/run.parquet"),
              per_turn=Path("results/run.turns.parquet"))
    blocks = [b.split("```", 1)[0] for b in DOC.read_text().split("```python\n")[1:]]
    assert len(blocks) >= 6
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)      # noqa: S102 - our own docs
    printed = capsys.readouterr().out
    assert "8 games" in printed and "Allied wins: " in printed and "nothing written yet" in printed


def test_the_results_page_names_every_column(tiny):
    import re

    sc = load_scenario("brusilov/historical")
    text = DOC.read_text()
    tokens = set(re.findall(r"`([a-z_<>]+)`", text))
    patterns = [re.compile("^" + re.sub(r"<[a-z]+>", "[a-z_]+", t) + "$") for t in tokens]
    for schema in (game_schema(sc), turn_schema(sc)):
        missing = [n for n in schema.names if not any(p.match(n) for p in patterns)]
        assert not missing, f"docs/results.md does not describe {missing}"


@pytest.mark.parametrize("name", ["gwe_fast.runner.batch", "gwe_fast.runner.parquet",
                                  "gwe_fast.runner.dask_backend"])
def test_docstring_examples_run(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _report_rss(queue):
    from gwe_fast.runner.batch import rss_mb

    queue.put(rss_mb())


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux /proc only")
def test_a_spawned_worker_reports_its_own_peak_memory_not_its_parents():
    """A spawned worker is forked before it runs a new interpreter, and ``ru_maxrss`` keeps the
    parent's peak across that: the worker's figure must not include a parent holding 300 MB."""
    import multiprocessing

    import numpy as np

    from gwe_fast.runner.batch import rss_mb

    ballast = np.ones(300 * 2**20 // 8)                      # 300 MB resident here
    assert rss_mb() > 300
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_report_rss, args=(queue,))
    proc.start()
    child = queue.get(timeout=120)
    proc.join(timeout=60)
    del ballast
    assert 10 < child < 250, child


def test_a_second_run_on_the_same_file_stops_at_once_and_touches_nothing(tiny, tmp_path):
    """Two runs writing one results file would mix their rows and leave a broken file: while
    one holds the file's lock, a second (the library or ``gwe run``) stops with one line and
    writes nothing; once the first ends, the file is free."""
    from gwe_fast.runner.batch import OutputBusy, lock_path, output_lock

    sc = load_scenario(tiny)
    out = tmp_path / "busy.parquet"
    with output_lock(out):
        with pytest.raises(OutputBusy, match="another run is writing"):
            run_batch(sc, 4, 1, out)
        done = gwe("run", str(tiny), "--games", "4", "--out", str(out))
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()        # the run's header, then the error
        assert lines[-1].startswith("gwe: another run is writing"), done.stderr
        assert sum("another run" in line for line in lines) == 1
        assert "Traceback" not in done.stderr
        assert not out.exists() and not partial_path(out).exists()
    assert lock_path(out).exists()
    s = run_batch(sc, 4, 1, out)
    assert s.complete and pq.read_table(out).num_rows == 4
