"""The compiled rules and policies modules (gwe_fast.compiled, setup.py's RULES): a compiled
module runs only while its source is the one compiled, and it plays the same games."""

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gwe_fast
from gwe_fast import compiled

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def package(tmp_path):
    """A package folder ``pkg`` with a module ``mod`` as source and (a stand-in for) its
    compiled file, and a module ``plain`` with a source only."""
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "mod.py").write_text("X = 1\n")
    (root / f"mod{SUFFIX}").write_bytes(b"not really compiled")
    (root / "plain.py").write_text("Y = 2\n")
    return root


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_current_compiled_module_is_left_to_the_usual_import(package):
    finder = compiled.SourceWhenChanged({"pkg.mod": digest(package / "mod.py")}, False,
                                        package="pkg")
    assert finder.find_spec("pkg.mod", [str(package)]) is None
    assert finder.reasons == {}


def test_an_edited_module_runs_from_its_source(package):
    finder = compiled.SourceWhenChanged({"pkg.mod": digest(package / "mod.py")}, False,
                                        package="pkg")
    (package / "mod.py").write_text("X = 2\n")
    spec = finder.find_spec("pkg.mod", [str(package)])
    assert spec is not None and spec.origin == str(package / "mod.py")
    assert finder.reasons == {"pkg.mod": "source changed since the build"}


def test_a_compiled_file_the_manifest_does_not_list_is_not_used(package):
    finder = compiled.SourceWhenChanged({}, False, package="pkg")
    spec = finder.find_spec("pkg.mod", [str(package)])
    assert spec.origin == str(package / "mod.py")
    assert finder.reasons["pkg.mod"] == "not compiled by the last build"


def test_interpreted_runs_every_module_from_its_source(package):
    finder = compiled.SourceWhenChanged({"pkg.mod": digest(package / "mod.py")}, True,
                                        package="pkg")
    assert finder.find_spec("pkg.mod", [str(package)]).origin == str(package / "mod.py")
    assert finder.reasons["pkg.mod"] == "GWE_FAST_INTERPRETED=1"


def test_modules_without_a_compiled_file_or_of_other_packages_are_not_touched(package):
    finder = compiled.SourceWhenChanged({}, True, package="pkg")
    assert finder.find_spec("pkg.plain", [str(package)]) is None      # source only
    assert finder.find_spec("pkg.missing", [str(package)]) is None
    assert finder.find_spec("other.mod", [str(package)]) is None
    assert finder.find_spec("pkg", None) is None                      # the package itself


def test_a_damaged_or_missing_manifest_compiles_nothing_in(tmp_path):
    assert compiled.read_manifest(tmp_path) == {}
    (tmp_path / compiled.MANIFEST).write_text("{not json")
    assert compiled.read_manifest(tmp_path) == {}
    (tmp_path / compiled.MANIFEST).write_text(json.dumps({"modules": ["a"]}))
    assert compiled.read_manifest(tmp_path) == {}
    (tmp_path / compiled.MANIFEST).write_text(json.dumps({"modules": {"a.b": "00"}}))
    assert compiled.read_manifest(tmp_path) == {"a.b": "00"}


def test_no_module_of_this_process_runs_compiled_from_another_source():
    """Whatever this installation is (compiled or not, edited or not), a module that runs
    compiled was compiled from the source beside it."""
    import gwe_fast.games.gwe.engine  # noqa: F401
    import gwe_fast.games.kb.engine  # noqa: F401
    import gwe_fast.policies.gwe.greedy  # noqa: F401

    manifest = compiled.read_manifest()
    for name, how in compiled.status().items():
        module = sys.modules.get(name)
        if how == "compiled":
            source = Path(module.__file__).with_name(name.rpartition(".")[2] + ".py")
            assert digest(source) == manifest[name], name
        elif module is not None:
            assert module.__file__.endswith(".py"), name
    assert "imported modules compiled" in compiled.summary() or not manifest


@pytest.mark.skipif(not compiled.read_manifest(), reason="this build compiled no rules module")
def test_the_built_rules_modules_run_compiled_unless_edited():
    import gwe_fast.games.gwe.combat  # noqa: F401

    st = compiled.status()
    assert "gwe_fast.games.gwe.combat" in st
    for name, how in st.items():
        assert how in ("compiled", "not imported", "source changed since the build"), (name, how)


GAME = """
import hashlib, sys
import gwe_fast
from gwe_fast import load_scenario, compiled
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy
out = []
for name, policy in (("brusilov/historical", "greedy"), ("kaisers_battle/historical", "random")):
    sc = load_scenario(name)
    d = driver(sc.game)
    g = d.new_game(sc, 5, 1, events=True, policies={0: make_policy(policy), 1: make_policy(policy)})
    r = d.play(g)
    out.append(hashlib.sha256(repr((d.record(g), r.per_turn, g.events)).encode()).hexdigest())
import gwe_fast.games.gwe.engine as e
print(e.__file__.endswith(".py"), *out)
"""


def _play(interpreted: bool) -> list[str]:
    env = dict(os.environ)
    env.pop(compiled.INTERPRETED_ENV, None)
    if interpreted:
        env[compiled.INTERPRETED_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", GAME], capture_output=True, text=True,
                          env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
def test_interpreted_and_compiled_modules_play_the_same_games():
    """A greedy Brusilov campaign and a random Kaiser's Battle, with every event, from the
    sources (GWE_FAST_INTERPRETED=1) and as built."""
    source, built = _play(True), _play(False)
    assert source[0] == "True"
    if compiled.read_manifest():
        assert built[0] == "False"
    assert source[1:] == built[1:]
