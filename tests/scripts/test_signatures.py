"""scripts/signatures.py: whole games fingerprinted, to show a speed-up plays the same games."""

import json

from script_files import ROOT, load_script

REFERENCE = ROOT / "results" / "parity" / "signatures.json"


def load():
    return load_script("scripts/signatures.py")


def test_the_committed_signatures_cover_both_games_and_four_policies():
    ref = json.loads(REFERENCE.read_text())
    assert (ref["seed"], ref["games"]) == (31, 12)
    assert len(ref["signatures"]) == 96
    assert all(len(v) == 64 for v in ref["signatures"].values())


def test_the_first_game_of_each_game_and_policy_plays_as_recorded(capsys):
    # a change meant to be a speed-up must play the same games; a change of the rules
    # records them again (python scripts/signatures.py --write results/parity/signatures.json)
    assert load().main(["--check", str(REFERENCE), "--limit", "1", "--workers", "1"]) == 0
    assert "8 of 8 game signatures" in capsys.readouterr().out


def test_a_game_that_differs_is_named_and_fails_the_check(tmp_path, capsys):
    mod = load()
    out = tmp_path / "sig.json"
    ref = json.loads(REFERENCE.read_text())
    key = "kaisers_battle/historical random 31:0"
    ref["signatures"][key] = "0" * 64
    out.write_text(json.dumps(ref))
    assert mod.main(["--check", str(out), "--limit", "1", "--workers", "1"]) == 1
    text = capsys.readouterr().out
    assert f"differs: {key}" in text and "7 of 8" in text


def test_an_unreadable_reference_is_one_line_and_status_2(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text("{not json")
    assert load().main(["--check", str(bad)]) == 2
    assert "cannot read the signatures" in capsys.readouterr().err
