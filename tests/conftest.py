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
