"""gwe run --backend dask: chunks of games on a real dask.distributed cluster give the same
rows as a local run, written by the client in the same way."""

import time

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from gwe_fast import load_scenario
from gwe_fast.cli import app
from gwe_fast.runner import dask_backend
from gwe_fast.runner.batch import run_batch
from gwe_fast.runner.parquet import read_metadata

distributed = pytest.importorskip("distributed")

runner = CliRunner()


def same_rows(a, b):
    """The same rows in the same order, wall time aside."""
    ta, tb = pq.read_table(a), pq.read_table(b)
    if "wall_time_s" in ta.column_names:
        ta, tb = ta.drop_columns(["wall_time_s"]), tb.drop_columns(["wall_time_s"])
    assert ta.num_rows == tb.num_rows and ta.equals(tb)


def test_chunks_hold_at_least_the_chunk_size_but_the_last():
    sizes = [len(c) for c in dask_backend.chunks(list(range(250)), dask_backend.CHUNK_GAMES)]
    assert dask_backend.CHUNK_GAMES >= 100 and sizes == [100, 100, 50]
    assert [len(c) for c in dask_backend.chunks(list(range(7)), 100)] == [7]
    assert sum(dask_backend.chunks([3, 5, 9], 2), []) == [3, 5, 9]


@pytest.mark.parametrize("processes, n_workers", [(False, 2), (True, 1)])
def test_a_dask_run_gives_the_rows_of_a_local_run(tiny_dir, tmp_path, monkeypatch,
                                                 processes, n_workers):
    sc = load_scenario(tiny_dir / "tiny.toml")
    monkeypatch.setattr(dask_backend, "CHUNK_GAMES", 4)        # small chunks, a quick test
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                  processes=processes, dashboard_address=None) as cluster:
        summary = run_batch(sc, 10, 7, tmp_path / "dask.parquet", backend="dask",
                            scheduler=cluster.scheduler_address,
                            per_turn=tmp_path / "dask.turns.parquet")
        assert summary.games == 10 and summary.complete and summary.worker_rss_mb > 10
        # extend it on the cluster: resumption works the same way
        more = run_batch(sc, 13, 7, tmp_path / "dask.parquet", backend="dask",
                         scheduler=cluster.scheduler_address,
                         per_turn=tmp_path / "dask.turns.parquet", resume=True)
        assert more.games == 13 and more.played == 3
    run_batch(sc, 13, 7, tmp_path / "local.parquet", workers=1,
              per_turn=tmp_path / "local.turns.parquet")
    same_rows(tmp_path / "dask.parquet", tmp_path / "local.parquet")
    same_rows(tmp_path / "dask.turns.parquet", tmp_path / "local.turns.parquet")
    meta = read_metadata(tmp_path / "dask.parquet")
    assert meta["backend"] == "dask" and meta["workers"] is None


def test_gwe_run_on_a_dask_cluster(tiny_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(dask_backend, "CHUNK_GAMES", 3)
    out = tmp_path / "r.parquet"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        result = runner.invoke(app, ["run", str(tiny_dir / "tiny.toml"), "-n", "5",
                                     "--backend", "dask", "--scheduler",
                                     cluster.scheduler_address, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"the dask cluster at {cluster.scheduler_address}" in result.stderr
    assert "5/5 games" in result.stderr and "5 games" in result.stdout
    assert pq.read_table(out).column("game_index").to_pylist() == list(range(5))


def test_an_unreachable_scheduler_is_one_sentence(tiny_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1)
    t0 = time.monotonic()
    result = runner.invoke(app, ["run", str(tiny_dir / "tiny.toml"), "-n", "2", "--backend",
                                 "dask", "--scheduler", "tcp://127.0.0.1:9", "--out",
                                 str(tmp_path / "r.parquet")])
    assert result.exit_code == 1
    assert "cannot reach the dask scheduler at tcp://127.0.0.1:9" in result.stderr
    assert [ln for ln in result.stderr.splitlines() if ln.startswith("gwe:")] == [
        "gwe: cannot reach the dask scheduler at tcp://127.0.0.1:9: Connection refused"
    ], result.stderr
    assert time.monotonic() - t0 < 30                # not the minute it took to give up
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "r.parquet.partial").exists()


def test_a_worker_without_the_scenario_file_is_one_sentence(tiny_dir, tmp_path, monkeypatch):
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(tiny_dir, folder)
    sc = load_scenario(folder / "tiny.toml")
    shutil.rmtree(folder)                         # the workers cannot read it any more
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        with pytest.raises(dask_backend.BackendError,
                           match="a task on the dask cluster failed: ScenarioError"):
            run_batch(sc, 2, 0, tmp_path / "r.parquet", backend="dask",
                      scheduler=cluster.scheduler_address)
