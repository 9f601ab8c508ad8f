"""The compiled core's codes (``_core/goa/codes.pxd``) are the reference's (``codes.py``,
``model.py`` and the rule modules' constants), and its state layout is the model's."""

from __future__ import annotations

import pytest

import gwe_fast._core.goa as core_package
from gwe_fast._core.goa import engine as core
from gwe_fast._core.goa.tables import STATE_FIELDS, CoreTables, core_tables
from gwe_fast.games.goa import codes, colonial, land, model, morale, naval
from gwe_fast.games.goa.tables import compile_tables

import tiny


def _reference_value(name: str) -> int:
    owner, attr = name.split(".")
    modules = {"model": model, "naval": naval, "morale": morale, "land": land,
               "colonial": colonial, "core": core_package}
    if owner in modules:
        return int(getattr(modules[owner], attr))
    return int(getattr(getattr(codes, owner), attr))


@pytest.mark.parametrize("name, value", sorted(core.c_codes().items()))
def test_each_compiled_code_is_the_references(name, value):
    assert value == _reference_value(name)


@pytest.mark.parametrize("enum", [codes.Side, codes.Kind, codes.Morale, codes.Land, codes.Ship,
                                  codes.Damage, codes.Terrain, codes.Result])
def test_every_reference_code_has_its_compiled_twin(enum):
    compiled = core.c_codes()
    for member in enum:
        assert compiled[f"{enum.__name__}.{member.name}"] == int(member)


def test_the_core_knows_every_state_array_in_the_models_order():
    assert [f[0] for f in STATE_FIELDS] == list(model.STATE_ARRAYS)
    assert [f[1] for f in STATE_FIELDS] == [d for d, _ in model.STATE_ARRAYS.values()]


def test_a_state_array_the_core_does_not_know_is_refused(monkeypatch):
    t = compile_tables(tiny.raw())
    monkeypatch.setitem(model.STATE_ARRAYS, "novelty", (model.I8, lambda t: (3,)))
    with pytest.raises(RuntimeError, match="does not know the state arrays .'novelty'."):
        CoreTables(t)


def test_the_tables_are_built_once_per_scenario():
    t = compile_tables(tiny.raw())
    assert core_tables(t) is core_tables(t)
    assert core_tables(t).state_size == model.state_layout(t)[1]


def test_the_tables_still_pickle_and_their_core_record_goes_with_them():
    import gc
    import pickle

    t = compile_tables(tiny.raw())
    ct = core_tables(t)
    copy = pickle.loads(pickle.dumps(t))
    assert core_tables(copy) is not ct and core_tables(copy).state_size == ct.state_size
    del t, copy
    gc.collect()
    assert ct.goa is None
