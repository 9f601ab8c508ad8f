"""scripts/lookahead_budget.py: the lookahead's gain over greedy at several budgets."""

import json

import pytest
from script_files import load_script


def load():
    return load_script("scripts/lookahead_budget.py")


def test_one_plan_plays_as_greedy_so_its_gain_is_exactly_zero_from_both_seats(tmp_path):
    mod = load()
    out = tmp_path / "budget.md"
    assert mod.main(["kaisers_battle/historical", "--budgets", "1x1", "--games", "1",
                     "--seed", "3", "--workers", "1", "--out", str(out)]) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    (row,) = data["budgets"]
    assert (row["plans"], row["rollouts"], row["playouts"]) == (1, 1, 1)
    assert row["spec"] == "lookahead:plans=1,rollouts=1"
    assert row["rejections"] == 0 and row["errors"] == 0
    for side in ("allied", "central"):
        assert row["gain"][side]["diff"] == 0.0 and not row["gain"][side]["beats"]
    text = out.read_text()
    assert "| 1 x 1 | 1 |" in text and "illegal answers" in text
    # the pairs' games are kept where a rerun resumes them
    assert (tmp_path / "budget-games" / "1x1" / "greedy--greedy.parquet").exists()


def test_the_default_budget_is_named_plain_lookahead_and_bad_budgets_are_refused():
    mod = load()
    assert mod.spec_for(*mod.DEFAULT) == "lookahead"
    assert mod.parse_budgets("2x1, 4X6") == [(2, 1), (4, 6)]
    for bad in ("4", "x3", "5x1", "2x0"):
        with pytest.raises(SystemExit):
            mod.parse_budgets(bad)


def test_a_bad_scenario_or_reuse_folder_is_one_clear_error(tmp_path):
    mod = load()
    with pytest.raises(SystemExit) as e:
        mod.main(["nosuch/scenario", "--out", str(tmp_path / "b.md")])
    assert str(e.value).startswith("error: ") and "nosuch/scenario" in str(e.value)
    with pytest.raises(SystemExit) as e:
        mod.main(["kaisers_battle/historical", "--reuse", str(tmp_path / "none"),
                  "--out", str(tmp_path / "b.md")])
    assert str(e.value) == f"error: --reuse {tmp_path / 'none'}: no such folder"
    assert not (tmp_path / "b.md").exists()


def test_pair_files_are_named_after_the_pair_as_the_tournament_names_them(tmp_path):
    from gwe_fast.runner.tournament import pair_path

    assert pair_path(tmp_path, "lookahead:plans=2,rollouts=1", "greedy") == (
        tmp_path / "lookahead_plans=2_rollouts=1--greedy.parquet")
