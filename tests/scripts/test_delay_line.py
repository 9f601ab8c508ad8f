"""scripts/delay_line.py: whether the Allied line of zones of control holds at the start of
each German Movement Phase (issue 30, the `delay` claim)."""

from script_files import load_script


def load():
    return load_script("scripts/delay_line.py")


def test_the_line_is_measured_each_german_movement_phase(capsys):
    assert load().main(["--allied", "delay", "--games", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    rows = [r for r in out.splitlines() if r.startswith("| ") and r[2].isdigit()]
    assert [r.split(" | ")[0] for r in rows] == [f"| {t}" for t in range(1, 11)]
    assert all("(0/1)" in r or "(1/1)" in r for r in rows)


def test_a_position_with_no_british_unit_has_no_line():
    import gwe_fast
    from gwe_fast.games.kb.game import KbGame

    g = KbGame(gwe_fast.load_scenario("kaisers_battle/historical"), seed=0)
    mod = load()
    for i, uid in enumerate(g.scenario.units.ids):
        if g.scenario.units.side[i] == 0 and g.state.unit_cell[i] >= 0:
            g.remove(uid)
    assert not mod.line_holds(g)


def test_bad_arguments_are_one_line_and_status_2(capsys):
    assert load().main(["--allied", "nosuch"]) == 2
    assert "unknown policy 'nosuch'" in capsys.readouterr().err
    assert load().main(["--scenario", "brusilov/historical"]) == 2
    assert "not a Kaiser's Battle scenario" in capsys.readouterr().err
