"""8.8, 8.9, 17.0: the combat results table is compiled once, by the loader, into the
scenario's one record (``GweData.crt``), and says what ``tables.toml`` prints."""

from __future__ import annotations

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast.enums import CRT_RESULT_NAMES, CrtResult
from gwe_fast.games.gwe import combat
from gwe_fast.games.gwe.data import DIE_FACES, compile_data, gwe_data
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.games.kb.data import kb_data


@pytest.fixture(scope="module")
def sc():
    return load_scenario("brusilov/historical")


def test_the_loader_compiles_the_tables_once_per_scenario(sc):
    assert gwe_data(sc) is sc.core and gwe_data(sc).crt is sc.core.crt
    other = load_scenario("brusilov/historical")
    assert other.core is not sc.core                       # each loaded scenario its own
    kb = load_scenario("kaisers_battle/historical")
    assert kb_data(kb) is kb.core
    with pytest.raises(ValueError, match="is a 'kb' game, not 'gwe'"):
        gwe_data(kb)


def test_the_compiled_tables_are_read_only(sc):
    crt = sc.core.crt
    for a in (crt.results, crt.ratios, crt.row_len, crt.row_of_tcr, *crt.row_ratios.values()):
        assert not a.flags.writeable
    with pytest.raises(AttributeError):
        crt.joint = 0


def test_8_8_every_result_is_the_printed_one(sc):
    printed = sc.tables["crt"]
    crt = sc.core.crt
    assert crt.die == tuple(printed["die"]) and crt.results.dtype == np.int8
    assert crt.results.shape == (len(printed["die"]), len(printed["results"][0]), 2)
    for i, die in enumerate(printed["die"]):
        for c, cell in enumerate(printed["results"][i]):
            a, d = cell.split("/")
            assert crt.result(die, c) == (a, d)
            assert [CRT_RESULT_NAMES[x] for x in crt.results[i, c]] == [a, d]
    assert crt.results[0, 7, 1] == CrtResult.ELIMINATED        # die 1 at the last column: -/E
    assert crt.result(-3, 0) == crt.result(1, 0) and crt.result(12, 0) == crt.result(8, 0)


def test_8_8_17_0_odds_rows_and_the_row_of_each_tcr(sc):
    printed = sc.tables["crt"]["odds"]
    crt = sc.core.crt
    assert crt.rows == tuple(printed)
    for r, name in enumerate(crt.rows):
        pairs = [tuple(int(x) for x in ratio.split("-")) for ratio in printed[name]]
        assert crt.row_len[r] == len(pairs) and crt.labels[name] == tuple(printed[name])
        assert crt.ratios[r, :len(pairs)].tolist() == [list(p) for p in pairs]
        assert crt.row_ratios[name].tolist() == [list(p) for p in pairs]
        assert crt.pairs[name] == tuple(pairs)
    # 8.8: TCR 1 reads "tcr1", TCR 2 and 3 "tcr23", TCR 4 "tcr4"; 17.0: the joint row
    assert crt.tcr_row[1:] == ("tcr1", "tcr23", "tcr23", "tcr4") and crt.tcr_row[0] is None
    assert crt.row_of_tcr.tolist() == [-1, 0, 1, 1, 2]
    assert crt.rows[crt.joint] == sc.tables["tcr"]["joint_austro_german_crt_row"]


def test_8_9_the_options_of_each_result(sc):
    crt = sc.core.crt
    for side, options in (("defender", crt.defender_options), ("attacker", crt.attacker_options)):
        printed = {r["result"]: tuple(r["options"]) for r in sc.tables["crt_options"][side]}
        assert dict(options) == printed
    assert crt.defender_options["2"] == ("eliminate_all", "lose_half_and_retreat_1", "retreat_2")


@pytest.mark.parametrize("modifier", range(-12, 13))
def test_the_chance_of_each_result_over_the_die(sc, modifier):
    crt = sc.core.crt
    for c in range(crt.n_cols):
        want: dict = {}
        for f in DIE_FACES:                    # each face, the die's modifier, the table's edge
            want.setdefault(crt.result(f + modifier, c), []).append(f)
        got = crt.faces(c, modifier)
        assert [(a, d) for _, a, d in got] == list(want)
        assert [p for p, _, _ in got] == pytest.approx([len(f) / 6 for f in want.values()])


def test_the_engine_reads_the_compiled_table(sc):
    g = GweGame(sc)
    assert g.data is sc.core
    assert combat.crt_result(g, 3, 4) == sc.core.crt.result(3, 4) == ("1", "2")
    assert combat.odds_column(g, "tcr23", 5, 2) == 3           # 5 to 2 reads 2-1 (8.4)
    assert combat.odds_column(g, "tcr23", 1, 4) == -1          # below 1-3: no attack (8.8)


def test_compiling_again_gives_the_same_tables(sc):
    # compile_data is a pure function of the scenario (a test that changes a loaded map
    # compiles its tables again with it)
    again = compile_data(sc)
    assert again is not sc.core
    assert np.array_equal(again.enter_cost, sc.core.enter_cost)
    assert np.array_equal(again.crt.results, sc.core.crt.results)
