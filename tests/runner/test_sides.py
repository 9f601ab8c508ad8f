"""One scheme for the two sides, `allied` and `central`, in every result column, summary line
and message; the rulebook's names stay where they are the rulebook's words (levels of victory),
and the text then says which side that is."""

import re
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from gwe_fast import load_scenario
from gwe_fast.runner.batch import format_summary, game_schema, run_batch, turn_schema
from gwe_fast.runner.parquet import FORMAT_VERSION, read_metadata

ROOT = Path(__file__).resolve().parents[2]
NATIONAL = re.compile(r"russian|german|british|french|austro|central_powers|entente")
#: the columns of format 2 that named a side by nationality
FORMER = ("vp_central_powers_", "vp_russian_", "towns_held_russian", "towns_vp_russian")


def gwe(*args, cwd=None):
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300, check=False, cwd=cwd)


@pytest.mark.parametrize("key", ["brusilov/historical", "kaisers_battle/historical"])
def test_item_13_result_columns_name_the_sides_allied_and_central(key):
    sc = load_scenario(key)
    for schema in (game_schema(sc), turn_schema(sc)):
        national = [n for n in schema.names if NATIONAL.search(n)]
        assert national == [], f"{key}: columns named by nationality: {national}"
    if sc.game == "gwe":
        assert {"vp_allied_hq_eliminated", "vp_central_hq_eliminated", "towns_held_allied"} <= set(
            game_schema(sc).names)
        assert {"towns_held_allied", "towns_vp_allied"} <= set(turn_schema(sc).names)
    assert FORMAT_VERSION == 3


def test_item_13_docs_scripts_and_analysis_name_no_former_column():
    places = [ROOT / "docs" / "results.md", ROOT / "docs" / "reports.md",
              ROOT / "results" / "balance" / "README.md", ROOT / "README.md",
              # (scripts/signatures.py maps the former names: it hashes games as recorded)
              *sorted(p for p in (ROOT / "scripts").glob("*.py") if p.name != "signatures.py"),
              *sorted((ROOT / "benchmarks").glob("*.py")),
              ROOT / "src" / "gwe_fast" / "analysis" / "report.py"]
    for path in places:
        text = path.read_text()
        if path.name == "results.md":       # it tells of format 2; its tables list format 3
            text = "\n".join(ln for ln in text.splitlines() if ln.startswith("|"))
        for old in FORMER:
            assert old not in text, f"{path.relative_to(ROOT)} still names {old}"
    changelog = (ROOT / "CHANGELOG.md").read_text().split("## [")[1]      # Unreleased
    assert "vp_russian_" in changelog and "format version 3" in changelog


def test_item_13_summary_says_which_side_each_level_and_the_vp_belong_to(tmp_path):
    for key, side_words in (("brusilov/historical", ("Russian", "Central Powers")),
                            ("kaisers_battle/historical", ("Allied", "German"))):
        sc = load_scenario(key)
        summary = run_batch(sc, 2, 3, tmp_path / f"{sc.game}.parquet", workers=1)
        lines = format_summary(summary, sc)
        rows = [ln for ln in lines if re.match(r"\s+\w+_(marginal|substantive|decisive)\b", ln)]
        assert len(rows) == 6
        for row in rows:
            level = row.split()[0]
            winner = "allied" if level.startswith(("russian", "allied")) else "central"
            assert f"{winner} wins" in row, row
        text = "\n".join(lines)
        assert "winner: " not in text
        assert re.search(r"allied \((Russian|Allied)\) \d", text), text
        assert re.search(r"mean VP \((Russian|German) VP, the \w+ side's score\)", text), text
        for word in side_words:
            assert word in text
        assert read_metadata(tmp_path / f"{sc.game}.parquet")["format_version"] == 3


def test_item_13_unknown_policy_parameter_lists_only_this_games_names():
    for key, mine, theirs in (("brusilov/historical", "withhold_worth", "stoss_lead"),
                              ("kaisers_battle/historical", "stoss_lead", "withhold_worth")):
        done = gwe("run", key, "--games", "1", "--workers", "1", "--policy",
                   "allied=greedy:depht=3")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        message = done.stderr.strip()
        assert len(message.splitlines()) == 1, message
        assert "depht" in message and mine in message and theirs not in message, message
        assert len(message) < 480, message


def test_item_13_gwe_scenarios_says_whose_vp_an_option_costs():
    done = gwe("scenarios")
    assert done.returncode == 0, done.stderr
    assert "(VP " not in done.stdout
    assert "sga_early=false [26.31] (Russian VP -6)" in done.stdout


def test_a_format_2_results_file_still_reports(tmp_path):
    """A file with the former column names (a cell of the balance study of 2026-11-22) still
    reports."""
    old = ROOT / "tests" / "data" / "format2" / "00-printed.parquet"
    assert read_metadata(old)["format_version"] == 2
    assert any(n.startswith("vp_russian_") for n in pq.read_schema(old).names)
    done = gwe("report", str(old), "--out", str(tmp_path / "rep"))
    assert done.returncode == 0, done.stderr
