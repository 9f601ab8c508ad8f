"""gwe tournament: every ordered pair, common random numbers, the matrices with their
intervals, the ladder verdict as docs/policies.md defines it, and clear errors."""

import json
import subprocess
import sys

import pytest

from gwe_fast.analysis.stats import mean_ci, paired_diff, wilson
from gwe_fast.runner.tournament import (
    PairResult,
    Tournament,
    run_tournament,
    split_specs,
)
from gwe_fast.scenario.loader import load_scenario


def gwe(*args, cwd=None):
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          check=False, capture_output=True, text=True, timeout=600, cwd=cwd)


def test_split_specs_keeps_parameters_with_their_policy():
    assert split_specs("random, passive:min_gain=1,min_exchange=3 ,greedy") == [
        "random", "passive:min_gain=1,min_exchange=3", "greedy"]
    assert split_specs("pkg.mod:Cls:a=1,b=2,random") == ["pkg.mod:Cls:a=1,b=2", "random"]


def test_a_tiny_tournament_writes_every_pair_with_correct_counts(tiny_dir, tmp_path):
    out = tmp_path / "res" / "t.md"
    r = gwe("tournament", str(tiny_dir / "tiny.toml"), "--policies", "random,passive,greedy",
            "--games", "3", "--seed", "4", "--workers", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["policies"] == ["random", "passive", "greedy"]
    assert data["games_per_pair"] == 3 and data["master_seed"] == 4
    pairs = {(p["allied"], p["central"]): p for p in data["pairs"]}
    assert set(pairs) == {(a, c) for a in data["policies"] for c in data["policies"]}
    for p in pairs.values():
        assert p["games"] == len(p["vp"]) == len(p["winner"]) == 3
        assert p["errors"] == 0 and p["rejections"] == 0
        wins = sum(w == "allied" for w in p["winner"])
        assert p["allied_win_rate"] == pytest.approx(wins / 3)
        assert p["allied_win_ci"] == pytest.approx(list(wilson(wins, 3)))
        assert p["mean_vp"] == pytest.approx(mean_ci(p["vp"])[0])
        assert p["vp_ci"] == pytest.approx(list(mean_ci(p["vp"])[1:]))
    # the ladder rows: each level over the one below, from each side, paired with the mirror
    rows = data["ladder"]
    assert [(r["higher"], r["lower"], r["side"]) for r in rows] == [
        ("passive", "random", "allied"), ("passive", "random", "central"),
        ("greedy", "passive", "allied"), ("greedy", "passive", "central")]
    up = pairs[("greedy", "passive")]["vp"]
    mirror = pairs[("passive", "passive")]["vp"]
    d, lo, hi = paired_diff(up, mirror)
    assert rows[2]["margin_diff"] == pytest.approx(d)
    assert rows[2]["margin_ci"] == pytest.approx([lo, hi])
    down = pairs[("passive", "greedy")]["vp"]
    assert rows[3]["margin_diff"] == pytest.approx(paired_diff([-v for v in down],
                                                               [-v for v in mirror])[0])
    text = out.read_text()
    assert "gwe tournament" in text and "## Ladder verdict" in text
    for a in data["policies"]:
        assert f"| `{a}` |" in text
    assert len(list((tmp_path / "res" / "t-games").glob("*.parquet"))) == 9
    again = Tournament.from_json(data)                  # the JSON holds the whole report
    assert again.markdown() == text and again.to_json()["ladder"] == data["ladder"]


def test_ladder_only_plays_the_pairs_the_verdict_needs_and_others_stand_outside(tiny_dir,
                                                                              tmp_path):
    out = tmp_path / "l.md"
    r = gwe("tournament", str(tiny_dir / "tiny.toml"), "--policies", "random,passive,greedy",
            "--games", "2", "--seed", "4", "--workers", "1", "--out", str(out), "--ladder-only")
    assert r.returncode == 0, r.stderr
    data = json.loads(out.with_suffix(".json").read_text())
    assert [(p["allied"], p["central"]) for p in data["pairs"]] == [
        ("random", "random"), ("passive", "random"), ("random", "passive"),
        ("passive", "passive"), ("greedy", "passive"), ("passive", "greedy")]
    assert len(data["ladder"]) == 4 and "--ladder-only" in data["command"]
    assert "| `greedy` | – | " in out.read_text()            # a pair not played
    # the full tournament in the same folder plays only the pairs still missing
    r = gwe("tournament", str(tiny_dir / "tiny.toml"), "--policies", "random,passive",
            "--others", "greedy", "--games", "2", "--seed", "4", "--workers", "1",
            "--out", str(out), "--resume")
    assert r.returncode == 0, r.stderr
    full = json.loads(out.with_suffix(".json").read_text())
    assert full["policies"] == ["random", "passive"] and full["others"] == ["greedy"]
    assert len(full["pairs"]) == 9
    assert [(x["higher"], x["lower"]) for x in full["ladder"]] == [("passive", "random")] * 2
    kept = {(p["allied"], p["central"]): p["vp"] for p in data["pairs"]}
    for p in full["pairs"]:
        if (p["allied"], p["central"]) in kept:
            assert p["vp"] == kept[(p["allied"], p["central"])]
    text = out.read_text()
    assert "stand outside it" in text and "| `greedy` | " in text
    assert Tournament.from_json(full).markdown() == text


def test_pairs_share_their_dice(tiny_dir, tmp_path):
    sc = load_scenario(str(tiny_dir / "tiny.toml"))
    t = run_tournament(sc, ["random"], 3, 9, tmp_path / "g1")
    again = run_tournament(sc, ["random"], 3, 9, tmp_path / "g2")
    assert t.pairs[("random", "random")].vp == again.pairs[("random", "random")].vp
    other = run_tournament(sc, ["random"], 3, 10, tmp_path / "g3")
    assert other.pairs[("random", "random")].vp != t.pairs[("random", "random")].vp


def fake(specs, vp):
    """A Tournament of made-up results: ``vp[(allied, central)]`` per game."""
    pairs = {}
    for key, values in vp.items():
        p = PairResult(*key)
        for v in values:
            p.vp.append(float(v))
            p.winner.append("allied" if v >= 30 else "central")
            p.rejections.append(0)
            p.errors.append("")
        pairs[key] = p
    return Tournament("x/y", "X", 1, "h" * 12, {}, specs, len(next(iter(vp.values()))), 0,
                      pairs)


def test_the_margin_follows_the_side_whose_score_the_vp_are():
    p = PairResult("a", "b", vp=[3.0, -1.0], vp_for="central")
    assert p.margin("central") == [3.0, -1.0] and p.margin("allied") == [-3.0, 1.0]
    assert PairResult("a", "b", vp=[3.0]).margin("allied") == [3.0]


def test_the_ladder_verdict_is_the_paired_margin_test():
    lo, hi = ["low", "high"]
    base = [0, 5, 10, 3, 7, 1]
    t = fake([lo, hi], {(lo, lo): base, (hi, lo): [b + 4 + (i % 2) for i, b in enumerate(base)],
                        (lo, hi): [b - 3 for b in base], (hi, hi): base})
    rows = t.ladder()
    assert [r["beats"] for r in rows] == [True, True] and t.ladder_holds()
    # a central level that changes nothing does not beat the one below (interval [0, 0])
    t2 = fake([lo, hi], {(lo, lo): base, (hi, lo): [b + 4 for b in base], (lo, hi): base,
                         (hi, hi): base})
    assert [r["beats"] for r in t2.ladder()] == [True, False] and not t2.ladder_holds()
    assert "does not hold" in t2.markdown()


def test_side_asymmetry_is_each_sides_paired_gain_and_their_difference():
    lo, hi = ["low", "high"]
    base = [0, 5, 10, 3, 7, 1]
    # VP are the allied side's: allied high adds 4 (and 1 on odd games); central high
    # takes 10 off every game; both high: allied 4 better than (low, high)
    t = fake([lo, hi], {(lo, lo): base,
                        (hi, lo): [b + 4 + (i % 2) for i, b in enumerate(base)],
                        (lo, hi): [b - 10 for b in base],
                        (hi, hi): [b - 6 for b in base]})
    rows = {r["opponent"]: r for r in t.asymmetry()}
    assert set(rows) == {lo, hi}
    r = rows[lo]
    assert r["games"] == 6
    assert r["allied_margin_gain"] == pytest.approx(4.5)
    assert r["central_margin_gain"] == pytest.approx(10.0)
    assert r["margin_difference"] == pytest.approx(5.5)
    # every game's difference is 5.5 or 6.5 - 1: a t interval around 5.5 that excludes zero
    assert 0 < r["margin_difference_ci"][0] < 5.5 < r["margin_difference_ci"][1]
    r = rows[hi]       # against the higher level: (hi, hi) - (lo, hi), (hi, hi) - (hi, lo)
    assert r["allied_margin_gain"] == pytest.approx(4.0)
    assert r["central_margin_gain"] == pytest.approx(
        sum((b + 4 + (i % 2)) - (b - 6) for i, b in enumerate(base)) / 6)
    md = t.markdown()
    assert "## Side asymmetry" in md and "central - allied" in md
    assert t.to_json()["asymmetry"][0]["central_margin_gain"] == pytest.approx(10.0)


def test_side_asymmetry_says_no_game_differs_when_every_pair_is_equal():
    lo, hi = ["low", "high"]
    base = [0, 5, 10]
    t = fake([lo, hi], {(lo, lo): base, (hi, lo): base, (lo, hi): base, (hi, hi): base})
    r = t.asymmetry()[0]
    assert r["margin_no_game_differs"] and r["margin_difference"] == 0
    assert "no game differs" in t.markdown() and "+0.0 [+0.0, +0.0]" not in t.markdown()


@pytest.mark.parametrize("args, message, code", [
    (["tournament", "nowhere/else"], "neither a scenario file nor a bundled scenario", 2),
    (["tournament", "brusilov/historical", "--policies", "random,nosuch"],
     "--policies: unknown policy 'nosuch'", 2),
    (["tournament", "brusilov/historical", "--policies", "random,random"], "twice", 2),
    (["tournament", "brusilov/historical", "--policies", "greedy:zzz=1"],
     "policy 'greedy' for The Great War in the East: unknown parameter zzz", 2),
    (["tournament", "brusilov/historical", "--out", "x.txt"], "must be a Markdown file", 2),
    (["tournament", "brusilov/historical", "--others", "random"], "already in --policies", 2),
    (["tournament", "brusilov/historical", "--others", "doctrine", "--ladder-only"],
     "do not go together", 2),
    (["tournament", "brusilov/historical", "--policies", "greedy", "--ladder-only"],
     "needs at least two policies", 2),
])
def test_bad_arguments_give_one_sentence(args, message, code):
    r = gwe(*args)
    assert r.returncode == code, r.stderr
    assert message in r.stderr and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert lines[-1].startswith("gwe: ")           # (a scenario fault is listed above it)
    assert len(lines) == (2 if args[1] == "nowhere/else" else 1)


def test_an_unwritable_output_gives_one_sentence(tiny_dir, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = gwe("tournament", str(tiny_dir / "tiny.toml"), "--policies", "random", "--games", "1",
            "--workers", "1", "--out", str(blocker / "t.md"))
    assert r.returncode == 1
    assert "cannot write" in r.stderr and "Traceback" not in r.stderr


def test_the_report_made_again_from_its_json_is_the_same_for_any_seconds():
    """The report sums the seconds of play the JSON keeps (each pair's rounded to 0.01 s),
    so a report re-rendered from the JSON is the same even where the unrounded sum would
    round the other way (2 x 0.2549 s: 0.5098 s unrounded, "1 s"; 0.50 s as kept, "0 s")."""
    lo, hi = ["low", "high"]
    t = fake([lo, hi], {k: [1, 2] for k in [(lo, lo), (hi, lo), (lo, hi), (hi, hi)]})
    for key, p in t.pairs.items():
        p.seconds = 0.2549 if key[0] == key[1] else 0.0
    t.seconds = 0.449
    t.workers = 1
    again = Tournament.from_json(json.loads(json.dumps(t.to_json())))
    assert again.markdown() == t.markdown()
