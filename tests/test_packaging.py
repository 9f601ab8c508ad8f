"""Every file the package reads at run time is installed: a file under src/gwe_fast that is not
Python source or a build product must match a glob of pyproject.toml's package-data (the
historical policy of The Guns of August once read a file a fresh install lacked)."""

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gwe_fast"
#: what the build makes or needs no listing for (.c files are Cython's output; .so the build's)
NOT_DATA = {".py", ".pyc", ".so", ".c", ".html"}


def test_every_data_file_of_the_package_is_in_its_package_data():
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["gwe_fast"]
    listed = {p for g in globs for p in PACKAGE.glob(g)}
    # the files of the repository (a checkout may hold build products git ignores)
    tracked = subprocess.run(["git", "ls-files", "-z", "src/gwe_fast"], cwd=ROOT,
                             capture_output=True, text=True)
    if tracked.returncode == 0 and tracked.stdout:
        candidates = [ROOT / n for n in tracked.stdout.split("\0") if n]
    else:                                    # not a git checkout: every file there
        candidates = [p for p in PACKAGE.rglob("*") if "__pycache__" not in p.parts]
    files = {p for p in candidates if p.is_file() and p.suffix not in NOT_DATA}
    missing = sorted(str(p.relative_to(PACKAGE)) for p in files - listed)
    assert not missing, f"not installed by pip install .: {missing}"
