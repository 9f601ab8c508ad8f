"""The town table (``<stem>.towns.parquet``) and the ended-now VP of the per-turn record, in
both hex games: what they hold, that they agree with the final score, that watching the
towns changes no game, and that the town table is kept and resumed like the per-turn one."""

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy
from gwe_fast.runner.batch import (
    BatchInterrupted,
    ResumeError,
    run_batch,
    town_schema,
    towns_path_for,
)
from gwe_fast.runner.parquet import journal_path, partial_path, read_metadata
from gwe_fast.state import Status

HEX_GAMES = ("brusilov/historical", "kaisers_battle/historical")


@pytest.fixture(scope="module", params=HEX_GAMES)
def batch_run(request, tmp_path_factory):
    """Three greedy games of each hex game, with the per-turn record (and so the town
    table)."""
    key = request.param
    sc = load_scenario(key)
    folder = tmp_path_factory.mktemp(key.split("/")[0])
    out = folder / "r.parquet"
    run_batch(sc, 3, 11, out, per_turn=folder / "r.turns.parquet",
              policies={"allied": "greedy", "central": "greedy"})
    return sc, out


def _games(out: Path) -> dict:
    return pq.read_table(out).to_pydict()


def test_per_turn_writes_the_town_table_beside_the_run(batch_run):
    sc, out = batch_run
    towns = towns_path_for(out)
    assert towns == out.with_name("r.towns.parquet") and towns.exists()
    meta = read_metadata(towns)
    assert meta["table"] == "towns" and meta["games_file"] == out.name
    assert read_metadata(out)["towns"] == towns.name
    table = pq.read_table(towns)
    assert table.schema.remove_metadata() == town_schema(sc)
    values = driver(sc.game).town_values(sc)
    assert table.num_rows == 3 * len(values)
    rows = table.to_pydict()
    for i in range(3):
        mine = [k for k, g in enumerate(rows["game_index"]) if g == i]
        assert sorted(rows["hex"][k] for k in mine) == sorted(sc.map.id_of(c) for c in values)


def test_the_town_rows_add_up_to_the_towns_vp_of_each_game(batch_run):
    sc, out = batch_run
    games = _games(out)
    towns = pq.read_table(towns_path_for(out)).to_pydict()
    for i, vp_towns in zip(games["game_index"], games["vp_towns"]):
        assert sum(v for g, v in zip(towns["game_index"], towns["vp"]) if g == i) == vp_towns


def test_a_town_row_is_consistent_with_itself(batch_run):
    sc, out = batch_run
    rows = pq.read_table(towns_path_for(out)).to_pylist()
    scorer = driver(sc.game).VP_FOR
    assert any(r["taken"] for r in rows), "no town changed hands in three games"
    for r in rows:
        assert r["taken"] == (r["changes"] > 0) == (r["first_changed_turn"] > 0)
        if r["taken"]:
            assert sc.first_turn <= r["first_changed_turn"] <= sc.last_turn
        # taken and held at the end: the owner differs from the first, after an odd number
        # of changes of hands
        assert r["held_at_end"] == (r["owner"] != r["owner_start"]) == (r["changes"] % 2 == 1)
        assert r["vp"] in (0, r["value"])
        if r["vp"]:
            assert r["owner"] == scorer      # only the scoring side's towns score


def test_the_ended_now_vp_of_the_last_turn_is_the_final_score(batch_run):
    sc, out = batch_run
    games = _games(out)
    turns = pq.read_table(out.with_name("r.turns.parquet")).to_pydict()
    for i, vp in zip(games["game_index"], games["vp"]):
        mine = [k for k, g in enumerate(turns["game_index"]) if g == i]
        assert mine and turns["turn"][mine[-1]] == sc.last_turn
        assert turns["vp_if_ended_now"][mine[-1]] == vp, f"game {i}"


def test_the_ended_now_vp_is_the_running_vp_and_the_end_of_game_points(batch_run):
    """Brusilov: the towns (25.11); the Kaiser's Battle: the towns west of the VP line (20.11)
    and the Allied units in trench hexes (20.13): never below the running VP less the trench
    hexes, and equal to running VP + towns in the Brusilov game."""
    sc, out = batch_run
    turns = pq.read_table(out.with_name("r.turns.parquet")).to_pydict()
    vp, now = np.array(turns["vp"]), np.array(turns["vp_if_ended_now"])
    if sc.game == "gwe":
        assert (now == vp + np.array(turns["towns_vp_allied"])).all()
    else:
        assert (now - vp <= np.array(turns["towns_held_central"])).all()
    assert (now != vp).any()


@pytest.mark.parametrize("key", HEX_GAMES)
def test_watching_the_towns_changes_no_game(key):
    sc = load_scenario(key)
    d = driver(sc.game)

    def play(towns):
        g = d.new_game(sc, 5, 1, policies={0: make_policy("random"), 1: make_policy("random")})
        r = d.play(g, towns=True) if towns else d.play(g)
        return r, d.record(g)

    (a, rec_a), (b, rec_b) = play(False), play(True)
    assert a.towns is None and b.towns
    assert (a.vp, a.level, a.per_turn, rec_a) == (b.vp, b.level, b.per_turn, rec_b)


def test_the_town_watch_sees_a_town_taken_and_retaken_by_hand():
    """Luck (4 VP) taken by a Russian unit on Game-Turn 3, then retaken on Game-Turn 5."""
    sc = load_scenario("brusilov/historical")
    d = driver("gwe")
    g = d.new_game(sc, 0, 0)
    watch = d.town_watch(g)
    luck = next(p.cell for p in sc.places if p.name == "Luck")
    k = watch.cells.tolist().index(luck)
    st = g.state
    on = np.flatnonzero(st.unit_cell == luck)
    st.turn = 3
    for u in on:                                  # the Central Powers' units leave Luck
        st.unit_cell[u] = -1
        st.unit_status[u] = Status.NOT_IN_PLAY
    st.hex_last[luck] = 0                         # a Russian unit moves through it
    watch(g, "movement")
    st.turn = 5
    st.hex_last[luck] = 1                         # a Central Powers unit moves back in
    watch(g, "movement")
    row = watch.rows(g, {})[k]
    assert row["town"] == "Luck" and row["value"] == 4
    assert row["owner_start"] == "central" and row["owner"] == "central"
    assert (row["first_changed_turn"], row["changes"]) == (3, 2)
    assert row["taken"] and not row["held_at_end"]


# --- kept and resumed like the per-turn record -------------------------------------------

@pytest.fixture
def tiny(tiny_dir):
    return tiny_dir / "tiny.toml"


def _rows(path: Path):
    t = pq.read_table(path)
    return t.replace_schema_metadata(None)


def test_an_interrupted_run_keeps_its_town_rows_and_resume_completes_them(tiny, tmp_path):
    sc = load_scenario(tiny)
    out = tmp_path / "r.parquet"

    def progress(done, total, seconds):
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(BatchInterrupted):
        run_batch(sc, 12, 4, out, per_turn=tmp_path / "r.turns.parquet", progress=progress)
    towns = towns_path_for(out)
    assert not towns.exists()
    assert partial_path(towns).exists() and journal_path(towns).exists()
    summary = run_batch(sc, 12, 4, out, per_turn=tmp_path / "r.turns.parquet", resume=True)
    assert summary.played == 7 and summary.towns_path == towns
    assert not partial_path(towns).exists() and not journal_path(towns).exists()
    run_batch(sc, 12, 4, tmp_path / "w.parquet", per_turn=tmp_path / "w.turns.parquet")
    assert _rows(towns).equals(_rows(tmp_path / "w.towns.parquet"))
    assert _rows(towns).num_rows == 12 * len(driver("gwe").town_values(sc))


def test_a_finished_run_with_many_towns_extends_to_more_games(tmp_path):
    # Brusilov has several VP towns, so the town table holds several rows a game: resume reads
    # them as rows of a game, not as a game written twice
    sc = load_scenario("brusilov/historical")
    out = tmp_path / "b.parquet"
    run_batch(sc, 2, 7, out, per_turn=tmp_path / "b.turns.parquet")
    summary = run_batch(sc, 3, 7, out, per_turn=tmp_path / "b.turns.parquet", resume=True)
    assert summary.played == 1
    n = len(driver("gwe").town_values(sc))
    assert n > 1 and _rows(towns_path_for(out)).num_rows == 3 * n


def test_resume_refuses_a_run_whose_town_rows_are_missing(tiny, tmp_path):
    sc = load_scenario(tiny)
    out = tmp_path / "r.parquet"

    def progress(done, total, seconds):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(BatchInterrupted):
        run_batch(sc, 8, 4, out, per_turn=tmp_path / "r.turns.parquet", progress=progress)
    for p in (partial_path(towns_path_for(out)), journal_path(towns_path_for(out))):
        p.unlink()
    with pytest.raises(ResumeError, match="has no town rows for 3 of its 3 finished games"):
        run_batch(sc, 8, 4, out, per_turn=tmp_path / "r.turns.parquet", resume=True)


def test_resume_without_per_turn_is_refused_when_town_rows_were_kept(tiny, tmp_path):
    sc = load_scenario(tiny)
    out = tmp_path / "r.parquet"
    run_batch(sc, 3, 4, out, per_turn=tmp_path / "elsewhere.turns.parquet")
    (tmp_path / "elsewhere.turns.parquet").unlink()
    meta_out = tmp_path / "copy.parquet"
    # a run whose metadata no longer names the per-turn file: the town table beside it
    # still says it was a --per-turn run
    t = pq.read_table(out)
    pq.write_table(t.replace_schema_metadata({}), meta_out)
    towns_path_for(out).rename(towns_path_for(meta_out))
    with pytest.raises(ResumeError, match="resume it with --per-turn"):
        run_batch(sc, 5, 4, meta_out, resume=True)


def test_a_run_without_per_turn_writes_no_town_table(tiny, tmp_path):
    out = tmp_path / "r.parquet"
    summary = run_batch(load_scenario(tiny), 2, 0, out)
    assert summary.towns_path is None and not towns_path_for(out).exists()
    assert read_metadata(out)["towns"] is None


def test_the_results_page_names_every_town_and_per_turn_column():
    import re

    from gwe_fast.runner.batch import turn_schema

    text = (Path(__file__).resolve().parents[2] / "docs" / "results.md").read_text()
    tokens = set(re.findall(r"`([a-z_<>]+)`", text))
    for key in HEX_GAMES:
        sc = load_scenario(key)
        names = town_schema(sc).names + ["vp_if_ended_now"]
        assert not [n for n in names if n not in tokens], key
    assert "vp_if_ended_now" in turn_schema(load_scenario(HEX_GAMES[0])).names
