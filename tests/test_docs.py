"""The examples in the docs and docstrings run, and the README's commands are the CI's."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["gwe_fast", "gwe_fast.hexmap", "gwe_fast.dice", "gwe_fast.game", "gwe_fast.games",
           "gwe_fast.analysis.stats", "gwe_fast.bench", "gwe_fast.campaign_cpu",
           "gwe_fast.policies.registry", "gwe_fast.policies.base", "gwe_fast.policies.ladder",
           "gwe_fast.policies.plans", "gwe_fast.runner.progress", "gwe_fast.scenario.history",
           "gwe_fast.runner.calibrate", "gwe_fast._core.goa.ladder", "gwe_fast._core.goa.engine",
           "gwe_fast._core.goa.lookahead", "gwe_fast.policies.goa.lookahead"]


def test_api_page_examples_run():
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    blocks = [b.split("```", 1)[0].strip() for b in readme.split("```sh\n")[1:]]
    assert blocks[0] == "python3 -m pip install . && gwe run"
    assert blocks[1] == 'python3 -m pip install ".[test]" && python3 -m pytest'
    assert "awk" in (ROOT / ".ci" / "run").read_text()   # .ci/run reads it from the README
