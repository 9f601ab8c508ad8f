"""The ``[history]`` table (scenario/history.py): sourced dates and losses, checked with
located faults, kept out of the data hash, moved by ``offset`` in Attack On Schedule."""

import pytest

from gwe_fast import ScenarioError, load_scenario, validate
from gwe_fast.scenario.history import CONFIDENCE, OUTCOMES

HISTORY = '''
[history]
calendar = "Game-Turn 1 is the first day; one day a Game-Turn."

[[history.town]]
name = "Testburg"
outcome = "taken"
turn = 2
date = "2 June"
source = "a test source, p. 1"
confidence = "high"

[[history.loss]]
side = "central"
men = [100, 200]
what = "killed and wounded"
period = "1-3 June"
turns = [1, 3]
source = "a test source, p. 2"
'''


def with_history(tiny_dir, text):
    path = tiny_dir / "tiny.toml"
    path.write_text(path.read_text() + text)
    return path


def keys(faults):
    return {f.key: f.message for f in faults}


@pytest.mark.parametrize("key", ["brusilov/historical", "brusilov/attack_on_schedule",
                                 "kaisers_battle/historical"])
def test_every_bundled_scenario_carries_sourced_history_inside_its_game(key):
    sc = load_scenario(key)
    h = sc.history
    assert h is not None and h.calendar and h.towns and h.losses
    names = {p.name for p in sc.places}
    for t in h.towns:
        assert t.name in names and t.source and t.confidence in CONFIDENCE
        assert t.outcome in OUTCOMES
        if t.outcome == "taken":
            assert sc.first_turn <= t.turns[0] <= t.turns[1] <= sc.last_turn
        else:
            assert t.turns is None
        if t.outcome == "after":
            assert t.date
    for x in h.losses:
        assert x.side in ("allied", "central") and x.source and 0 < x.low <= x.high
        assert x.turns[0] >= sc.first_turn


def test_brusilov_history_dates_on_the_games_calendar():
    # 72 hours a Game-Turn from 4 June 1916 (15.0, 23.0)
    h = load_scenario("brusilov/historical").history
    taken = {t.name: t.turns for t in h.towns if t.outcome == "taken"}
    assert taken["Luck"] == (2, 2)              # 7 June
    assert taken["Czernowitz"] == (5, 5)        # 17 June (16-18 June)
    assert taken["Kolomea"] == (9, 9)           # 29 June (28-30 June)
    assert taken["Delatyn"] == (12, 12)         # 8 July (7-9 July)
    outcome = {t.name: t.outcome for t in h.towns}
    assert outcome["Brody"] == outcome["Stanislau"] == "after"
    assert outcome["Kowel"] == outcome["Lemberg"] == "never"


def test_kaisers_battle_history_dates_two_game_turns_a_day():
    # 11.12 ruling: Game-Turn 1 is the morning of 21 March 1918
    h = load_scenario("kaisers_battle/historical").history
    taken = {t.name: t.turns for t in h.towns if t.outcome == "taken"}
    assert taken["Tergnier"] == (3, 4)          # 22 March
    assert taken["Ham"] == (5, 6)               # 23 March
    assert taken["Chauny"] == (7, 8)            # 24 March
    assert h.town("Roye").outcome == "after"    # 26 March, Game-Turns 11-12
    assert h.town("Roye").turns is None and h.town("Roye").date.startswith("26 March")


def test_attack_on_schedule_inherits_the_history_four_game_turns_later():
    base = load_scenario("brusilov/historical").history
    aos = load_scenario("brusilov/attack_on_schedule").history
    assert aos.offset == 4 and "Counterfactual" in aos.note
    assert aos.calendar == base.calendar
    assert [t.name for t in aos.towns] == [t.name for t in base.towns]
    for a, b in zip(aos.towns, base.towns):
        assert a.turns == (None if b.turns is None else (b.turns[0] + 4, b.turns[1] + 4))
    assert [x.turns for x in aos.losses] == [(a + 4, b + 4) for a, b in
                                              (x.turns for x in base.losses)]


def test_history_is_left_out_of_the_data_hash(tiny_dir):
    before = load_scenario(tiny_dir / "tiny.toml")
    after = load_scenario(with_history(tiny_dir, HISTORY))
    assert before.history is None
    assert after.history.town("Testburg").turns == (2, 2)
    assert after.history.losses[0].low == 100 and after.history.losses[0].high == 200
    assert after.data_hash == before.data_hash


def test_a_variant_that_shortens_the_game_keeps_its_history(tmp_path):
    # the sweep of issue 29 item 3's test sets last_turn = 2 on a copy of brusilov/historical:
    # towns taken historically after Game-Turn 2 are history, not a fault of the variant
    import shutil

    from gwe_fast.scenario.loader import DATA_DIR

    shutil.copytree(DATA_DIR / "brusilov", tmp_path / "b")
    path = tmp_path / "b" / "historical.toml"
    path.write_text(path.read_text().replace("last_turn = 14", "last_turn = 2"))
    sc = load_scenario(path)
    assert sc.last_turn == 2 and sc.history is not None
    assert any(t.turns and t.turns[0] > 2 for t in sc.history.towns)


def test_history_faults_are_located_unknown_town_duplicate_missing_source(tiny_dir):
    bad = HISTORY.replace('name = "Testburg"', 'name = "Nowhere"') + '''
[[history.town]]
name = "Testburg"
outcome = "taken"
turn = 5
source = "x"

[[history.town]]
name = "Testburg"
outcome = "after"
date = "later"

[[history.loss]]
side = "russian"
men = -3
what = "x"
period = "y"
turns = [3, 1]
source = "z"
'''
    faults = keys(validate(with_history(tiny_dir, bad)))
    assert "no place named 'Nowhere'" in faults["history.town[0].name"]
    assert "history.town[1].turn" not in faults      # history's date, not the game's length
    assert "missing required key 'source'" in faults["history.town[2]"]
    assert "is not one of allied, central" in faults["history.loss[1].side"]
    assert "must be a number of men" in faults["history.loss[1].men"]
    assert "ends before it starts" in faults["history.loss[1].turns"]
    with pytest.raises(ScenarioError, match="no place named 'Nowhere'"):
        load_scenario(tiny_dir / "tiny.toml")


@pytest.mark.parametrize("entry, key, message", [
    ('name = "Testburg"\noutcome = "taken"\nsource = "s"', "history.town[1]",
     "needs the Game-Turn it changed hands"),
    ('name = "Testburg"\noutcome = "never"\nturn = 2\nsource = "s"', "history.town[1].turn",
     "never taken has no Game-Turn"),
    ('name = "Testburg"\noutcome = "lost"\nsource = "s"', "history.town[1].outcome",
     "is not one of taken, after, never"),
    ('name = "Testburg"\noutcome = "taken"\nturn = 2\nretaken = 2\nsource = "s"',
     "history.town[1].retaken", "not after the town was taken"),
    ('name = "Testburg"\noutcome = "taken"\nturn = 2\nconfidence = "sure"\nsource = "s"',
     "history.town[1].confidence", "is not one of high, medium, low"),
    ('name = "Testburg"\noutcome = "taken"\nturn = 2\ncolour = "red"\nsource = "s"',
     "history.town[1].colour", "unknown key 'colour'"),
])
def test_history_town_entries_that_contradict_their_outcome_are_refused(tiny_dir, entry, key,
                                                                        message):
    text = HISTORY.replace('name = "Testburg"', 'name = "Testburg"', 1)
    text = text.replace("[[history.loss]]", f"[[history.town]]\n{entry}\n\n[[history.loss]]")
    # the first entry is the valid one; a second entry for the same town is also a fault
    faults = keys(validate(with_history(tiny_dir, text)))
    assert message in faults[key], faults


def test_a_history_offset_moves_the_turns(tiny_dir):
    path = with_history(tiny_dir, HISTORY.replace('calendar =', 'offset = 2\ncalendar ='))
    assert not validate(path)
    assert load_scenario(path).history.town("Testburg").turns == (4, 4)
