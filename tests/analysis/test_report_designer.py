"""gwe report answers a designer's questions: the ended-now VP beside the running VP, a town
table beside history, loss ratios against history, the VP by cause with a flag when one cause
dominates, paired differences adjusted for the family of comparisons, "no game differs",
the options a cell changes, tables that fit 100 columns, and a format 2 file."""

import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from gwe_fast import load_scenario
from gwe_fast.analysis.report import build_report, load_cells, paired
from gwe_fast.analysis.stats import holm, paired_test, t_quantile, t_two_sided_p
from gwe_fast.runner.batch import run_batch

ROOT = Path(__file__).resolve().parents[2]
BALANCE = ROOT / "results" / "balance"
FORMAT2 = ROOT / "tests" / "data" / "format2"      # a cell of the balance study of 2026-11-22


def _table(text: str, title: str) -> str:
    """The text of one table of a text report, its note included."""
    text = "\n" + text
    start = text.index(f"\n{title}\n") + 1
    end = text.find("\n\n", text.index("\n(", start))
    return text[start:end if end > 0 else None]


@pytest.fixture(scope="module")
def brusilov_run(tmp_path_factory):
    """Four greedy Brusilov games with the per-turn record and the town table."""
    folder = tmp_path_factory.mktemp("brusilov")
    out = folder / "run.parquet"
    run_batch(load_scenario("brusilov/historical"), 4, 2, out,
              per_turn=folder / "run.turns.parquet",
              policies={"allied": "greedy", "central": "greedy"})
    return out


# --- statistics ---------------------------------------------------------------------------

@pytest.mark.parametrize("df", [1, 2, 3, 7, 30, 99, 500])
def test_the_t_distribution_matches_scipy(df):
    for t in (0.05, 0.7, 2.0, 4.5):
        assert t_two_sided_p(t, df) == pytest.approx(2 * stats.t.sf(t, df), abs=1e-10)
    for level in (0.9, 0.95, 0.996):
        assert t_quantile(level, df) == pytest.approx(stats.t.ppf((1 + level) / 2, df),
                                                      rel=1e-7)


def test_the_paired_t_test_matches_scipy():
    rng = np.random.default_rng(1)
    a, b = rng.normal(1, 3, 40), rng.normal(0, 3, 40)
    d, lo, hi, p = paired_test(a, b)
    res = stats.ttest_rel(a, b)
    assert p == pytest.approx(res.pvalue, rel=1e-8)
    ci = res.confidence_interval(0.95)
    assert (lo, hi) == (pytest.approx(ci.low), pytest.approx(ci.high))


def test_holm_multiplies_the_kth_smallest_p_by_m_minus_k_plus_1_and_keeps_order():
    assert holm([0.01, 0.04, 0.03, 0.5]) == [0.04, 0.09, 0.09, 0.5]
    assert holm([5.5e-16, 0.2]) == [1.1e-15, 0.2]        # a tiny p is not rounded to 0
    assert holm([0.2, math.nan, 0.01]) == [0.2, math.nan, 0.02] or (
        math.isnan(holm([0.2, math.nan, 0.01])[1]))
    assert holm([0.6, 0.7]) == [1.0, 1.0]


# --- paired differences ---------------------------------------------------------------------

def test_cells_whose_games_all_end_alike_print_no_game_differs(brusilov_run, tmp_path):
    twin = tmp_path / "twin.parquet"
    shutil.copy(brusilov_run, twin)
    rep = build_report([brusilov_run, twin])
    table = _table(rep.text, "Paired differences against 'run'")
    assert table.count("no game differs") == 4        # VP and win rate, raw and adjusted
    assert "+0.0 [+0.0, +0.0]" not in rep.text and "+0.00 [+0.00, +0.00]" not in rep.text


def test_paired_differences_carry_holm_p_values_and_wider_adjusted_intervals():
    cells, _ = load_cells([BALANCE / "brusilov_historical_greedy"])
    rep = build_report([BALANCE / "brusilov_historical_greedy"])
    table = _table(rep.text, "Paired differences against 'printed'")
    assert "Holm" in table and "Bonferroni" in table and "14 comparisons" in table
    base = next(c for c in cells if c.label == "printed")
    found = [paired(c, base) for c in cells if c is not base]
    from gwe_fast.analysis.report import adjust_family

    assert adjust_family(found) == 14
    for p in found:
        assert p.vp_holm >= p.vp_p and p.allied_holm >= p.allied_p
        assert p.vp_adj.low <= p.vp.low and p.vp_adj.high >= p.vp.high
        # a Bonferroni interval that excludes no difference is a Holm rejection too
        for iv, q in ((p.vp_adj, p.vp_holm), (p.allied_adj, p.allied_holm)):
            if iv.low > 0 or iv.high < 0:
                assert q < 0.05
    by = dict(zip([c.label for c in cells if c is not base], found))
    assert by["combined"].vp_holm < 0.05                   # 14 VP of cost: measured
    assert by["no_track_limits"].vp_holm > 0.05            # in play, about nothing


# --- the designer's tables ------------------------------------------------------------------

def test_the_ended_now_curve_ends_at_the_final_score_beside_the_running_vp(brusilov_run,
                                                                           tmp_path):
    rep = build_report([brusilov_run], out=tmp_path / "rep")
    table = _table(rep.text, "VP by Game-Turn")
    last = [line for line in table.splitlines() if line.startswith("14 ")][0]
    running, now = (float(x) for x in last.split()[1:4:2])
    cells, _ = load_cells([brusilov_run])
    assert now == float(np.median(cells[0].games["vp"]))
    assert running <= now
    assert (tmp_path / "rep" / "turn_vp.png").exists()


def test_the_town_table_gives_shares_median_turn_and_the_historical_turn(brusilov_run):
    rep = build_report([brusilov_run])
    table = _table(rep.text, "Towns")
    cells, _ = load_cells([brusilov_run])
    towns = cells[0].towns
    luck = towns["town"] == "Luck"
    taken = 100 * towns["taken"][luck].mean()
    held = 100 * towns["held_at_end"][luck].mean()
    row = [line for line in table.splitlines() if line.startswith("Luck ")][0]
    assert f"{taken:.0f} % / {held:.0f} %" in row
    assert row.split()[1:3] == ["4", "2"]                 # 4 VP; history: Game-Turn 2
    kowel = [line for line in table.splitlines() if line.startswith("Kowel ")][0]
    assert "never" in kowel


def test_losses_are_set_beside_the_historical_ratio():
    rep = build_report([BALANCE / "kaisers_battle_greedy"])
    table = _table(rep.text, "Losses against history")
    assert "1.04" in table and "0.94" in table       # 40,000 : 38,500 and 239,800 : 254,739
    assert "SP eliminated" in table and "steps lost" in table
    rep = build_report([BALANCE / "brusilov_historical_greedy"])
    assert "no historical ratio" in _table(rep.text, "Losses against history")


def test_a_cause_over_half_the_absolute_vp_is_flagged():
    rep = build_report([BALANCE / "kaisers_battle_greedy"])
    table = _table(rep.text, "VP by cause")
    exits = [line for line in table.splitlines() if line.startswith("exits ")][0]
    assert "dominates" in exits
    assert "exits makes" in table and "One cause dominates" in table
    rep = build_report([BALANCE / "brusilov_historical_greedy"])
    assert "No cause makes over half" in _table(rep.text, "VP by cause")


def test_the_inputs_table_shows_each_cells_overrides_only():
    rep = build_report([BALANCE / "brusilov_historical_greedy"])
    table = _table(rep.text, "Inputs")
    lines = table.splitlines()
    assert any(line.startswith("printed ") and "defaults" in line for line in lines)
    assert any(line.startswith("sga_early ") and "sga_early=true" in line
               and "west_front" not in line for line in lines)
    assert any(line.startswith("no_track_limits ") and "track_limits=false" in line
               for line in lines)


def test_every_line_of_the_text_report_fits_100_columns(brusilov_run):
    for inputs in ([BALANCE / "brusilov_historical_greedy"], [brusilov_run],
                   [BALANCE / "kaisers_battle_greedy"]):
        text = build_report(inputs).text
        assert max(len(line) for line in text.splitlines()) <= 100, inputs


def test_a_format_2_cell_is_reported_and_says_what_it_lacks():
    rep = build_report([FORMAT2 / "00-printed.parquet"])
    table = " ".join(_table(rep.text, "What the inputs lack").split())   # wrapped text
    assert "no town table" in table
    assert "no vp_if_ended_now: only the running VP" in table
    assert "Towns\n" not in rep.text                 # no town table to show
    assert "VP by Game-Turn" in rep.text and "VP by cause" in rep.text
