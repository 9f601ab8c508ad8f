"""Shared fixtures: a tiny hand-made scenario folder copied into a temporary directory."""

import shutil
from pathlib import Path

import pytest

from gwe_fast.scenario.loader import DATA_DIR

TINY = Path(__file__).parent / "data" / "tiny"


@pytest.fixture
def tiny_dir(tmp_path) -> Path:
    """A writable copy of tests/data/tiny with the bundled Brusilov tables beside it."""
    dest = tmp_path / "tiny"
    shutil.copytree(TINY, dest)
    shutil.copy(DATA_DIR / "brusilov" / "tables.toml", dest / "tables.toml")
    return dest


def edit(path: Path, old: str, new: str) -> None:
    """Replace one exact piece of text in a file (a test breaking a scenario on purpose)."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


_KB_RULES = Path(__file__).parent / "games" / "kb"


@pytest.fixture(autouse=True)
def _kb_rules_on_the_python_engine(request, monkeypatch):
    """The rules tests of The Kaiser's Battle (tests/games/kb) test the Python engine, the
    readable reference: many replace or watch its functions (monkeypatch), which the compiled
    core does not call. So the core is off there; ``tests/core/test_kb_core.py`` holds it to
    that engine, game by game and phase by phase."""
    if _KB_RULES in Path(str(request.node.path)).parents:
        import gwe_fast.games.kb.game as kb_game

        monkeypatch.setattr(kb_game, "COMPILED_PHASES", False)
