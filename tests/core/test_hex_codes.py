"""The hex games' compiled codes (``_core/codes.pxd``) are ``gwe_fast.enums``, name by name and
value by value, both ways; and the decision kinds coded there are the ones the engines ask."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gwe_fast import enums
from gwe_fast._core.codes import c_codes

MIRRORED = ("Side", "Nationality", "Terrain", "Feature", "Hexside", "Direction", "UnitType",
            "Size", "Status", "GweFlag", "KbFlag", "GwePhase", "KbPhase", "GweDecision",
            "KbDecision", "CrtResult")
COUNTED = ("GweDecision", "KbDecision", "CrtResult")
GAMES = Path(enums.__file__).parent / "games"


def _members(cls) -> dict[str, int]:
    if hasattr(cls, "__members__"):          # IntEnum / IntFlag, aliases (Hexside.RAIL) too
        return {n: int(v) for n, v in cls.__members__.items()}
    return {n: v for n, v in vars(cls).items() if n.isupper() and isinstance(v, int)}


def _reference() -> dict[str, int]:
    out = {f"{c}.{n}": v for c in MIRRORED for n, v in _members(getattr(enums, c)).items()}
    out.update({f"len({c})": len(_members(getattr(enums, c))) for c in COUNTED})
    out["NO_SIDE"] = enums.NO_SIDE
    return out


@pytest.mark.parametrize("name, value", sorted(c_codes().items()))
def test_each_compiled_code_is_the_python_codes(name, value):
    assert _reference()[name] == value


@pytest.mark.parametrize("name", MIRRORED)
def test_every_python_code_has_its_compiled_twin(name):
    compiled = c_codes()
    for member, value in _members(getattr(enums, name)).items():
        assert compiled[f"{name}.{member}"] == value, f"{name}.{member}"


def test_the_compiled_codes_are_exactly_the_python_codes():
    assert c_codes() == _reference()


def test_the_state_and_the_games_use_the_codes_of_enums():
    from gwe_fast import state
    from gwe_fast.games.gwe import engine as gwe_engine
    from gwe_fast.games.gwe import game as gwe_game
    from gwe_fast.games.kb import engine as kb_engine
    from gwe_fast.games.kb import game as kb_game

    assert state.Status is enums.Status and state.NO_SIDE == enums.NO_SIDE
    assert gwe_game.Flag is enums.GweFlag and kb_game.Flag is enums.KbFlag
    assert list(gwe_engine.PHASE_NAMES) == list(_members(enums.GwePhase).values())
    assert list(kb_engine.PHASE_NAMES) == list(_members(enums.KbPhase).values())
    assert [n.upper() for n in gwe_engine.PHASE_NAMES.values()] == list(_members(enums.GwePhase))
    assert kb_engine.ORDER == tuple(_members(enums.KbPhase).values())


@pytest.mark.parametrize("game, kinds", [("gwe", enums.GWE_DECISION_KINDS),
                                         ("kb", enums.KB_DECISION_KINDS)])
def test_the_decision_codes_name_every_kind_the_engine_asks(game, kinds):
    # every "<game>.<procedure>.<choice>" literal of the engine's modules is a decision kind
    pattern = re.compile(rf'"({game}\.[a-z_]+\.[a-z_]+)"')
    asked = {k for f in (GAMES / game).glob("*.py") for k in pattern.findall(f.read_text())}
    assert asked == set(kinds)
    assert len(kinds) == len(set(kinds))


def test_a_decision_code_names_its_kind():
    assert enums.GWE_DECISION_KINDS[enums.GweDecision.COMBAT_ATTACK_SHIFT] == (
        "gwe.combat.attack_shift")
    assert enums.KB_DECISION_KINDS[enums.KbDecision.ARTILLERY_GAS_MARKERS] == (
        "kb.artillery.gas_markers")


def test_the_crt_result_names_follow_the_codes():
    assert [enums.CRT_RESULT_NAMES[r] for r in enums.CrtResult] == ["-", "1", "2", "3", "E"]
