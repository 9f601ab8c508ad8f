"""``gwe replay`` on a Guns of August game: a month-by-month page, checked against its row."""

from typer.testing import CliRunner

from gwe_fast.cli import app

runner = CliRunner()


def test_gwe_replay_writes_the_month_by_month_page_of_a_guns_of_august_game(tmp_path):
    out = tmp_path / "g.html"
    r = runner.invoke(app, ["replay", "goa/1918", "--game-index", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    page = out.read_text()
    assert "1918-08" in page and "Result:" in page and "Blockades" in page
    assert "months" in r.output


def test_gwe_replay_from_a_guns_of_august_results_row_says_it_ends_as_the_row(tmp_path):
    rows = tmp_path / "r.parquet"
    assert runner.invoke(app, ["run", "goa/1918", "-n", "2", "-w", "1", "--out",
                               str(rows)]).exit_code == 0
    r = runner.invoke(app, ["replay", "--from", str(rows), "--row", "1", "--out",
                            str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    assert "ends as row 1 of" in r.output


def test_gwe_replay_of_the_guns_of_august_refuses_map_frames_in_one_sentence(tmp_path):
    r = runner.invoke(app, ["replay", "goa/1918", "--frames", str(tmp_path / "f"),
                            "--out", str(tmp_path / "x.html")])
    assert r.exit_code == 2
    assert "without map frames" in r.output and "Traceback" not in r.output


def test_a_bad_option_value_blames_the_command_line_not_the_scenario_file(tmp_path):
    r = runner.invoke(app, ["run", "goa/campaign", "-n", "1", "--option", "land=sideways",
                            "--out", str(tmp_path / "r.parquet")])
    assert r.exit_code == 2
    assert "--option land: option 'land' takes one of historical, fronts" in r.output
    assert "the --option values do not fit scenario goa/campaign" in r.output
