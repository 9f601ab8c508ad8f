"""The README's examples, run in a copy of the repository, leave `git status` clean: what a
user makes goes to ignored places, never over a committed file (the first hour of a new user).

The copy holds the working tree's tracked files in a fresh git repository, so the test checks
the code and the .gitignore as they are now, committed or not."""

import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gwe_fast

ROOT = Path(__file__).resolve().parent.parent
# the folder the gwe_fast under test was imported from: the tree's src/ when run from a
# development tree, site-packages after `pip install .` (a fresh clone's src/ has no compiled
# modules, so the subprocesses must not be pointed at it)
PACKAGE_ROOT = Path(gwe_fast.__file__).resolve().parent.parent
GIT = shutil.which("git")

pytestmark = pytest.mark.skipif(
    GIT is None or not (ROOT / ".git").exists(),
    reason="needs git and a git checkout of the repository")


def git(*args, cwd=ROOT):
    return subprocess.run([GIT, "-c", "user.name=gwe", "-c", "user.email=gwe@example.org",
                           *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def readme_commands() -> list[str]:
    """The `gwe ...` commands of the README's sh blocks, in order, comments and line
    continuations removed (`a && gwe b` gives `gwe b`)."""
    text = (ROOT / "README.md").read_text()
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            for part in (p.strip() for p in line.split("&&")):
                if part.startswith("gwe "):
                    out.append(" ".join(part.split()))
    return out


def cheap(command: str) -> list[str] | None:
    """The command with fewer games, one worker, the smallest bench and small pictures; None
    for one that needs what a test does not have (a dask cluster)."""
    args = shlex.split(command)
    if "--backend" in args:
        return None
    if "--games" in args:
        i = args.index("--games") + 1
        args[i] = str(min(int(args[i]), 1 if args[1] == "tournament" else 4))
    elif args[1] in ("run", "sweep", "tournament"):
        args += ["--games", "1" if args[1] == "tournament" else "4"]
    if args[1] == "bench":
        args += ["--budget", "1", "--games", "1"]
    if (args[1] == "replay" or args[1:3] == ["map", "render"]) and "--dpi" not in args:
        args += ["--dpi", "20"]                 # smaller pictures, the same files
    if "--workers" in args:
        args[args.index("--workers") + 1] = "1"
    elif args[1] in ("run", "sweep", "tournament"):
        args += ["--workers", "1"]
    return args


@pytest.fixture
def clone(tmp_path):
    """A git repository holding the tracked files of the working tree, committed."""
    repo = tmp_path / "clone"
    repo.mkdir()
    for name in git("ls-files", "-z").split("\0"):
        if not name:
            continue
        src, dst = ROOT / name, repo / name
        if src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    git("init", "-q", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "the tree under test", cwd=repo)
    return repo


def run_gwe(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    home = cwd.parent / "home"               # a user's home, outside the repository
    home.mkdir(exist_ok=True)
    env = {"PYTHONPATH": str(PACKAGE_ROOT), "PATH": "/usr/bin:/bin", "HOME": str(home),
           "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()",
                           *args[1:]], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)


def ignored(repo: Path, path: str) -> bool:
    done = subprocess.run([GIT, "check-ignore", "-q", "--no-index", path], cwd=repo,
                          check=False)
    return done.returncode == 0


@pytest.mark.slow
def test_item_9_readme_examples_leave_git_status_clean(clone):
    commands = readme_commands()
    assert any(c.startswith("gwe tournament") for c in commands)
    ran = []
    for command in commands:
        args = cheap(command)
        if args is None:
            continue
        t0 = time.monotonic()
        done = run_gwe(args, clone)
        assert done.returncode == 0, f"{shlex.join(args)}: {done.stderr[-2000:]}"
        ran.append((shlex.join(args), round(time.monotonic() - t0, 1)))
    assert len(ran) >= 14, ran
    status = git("status", "--porcelain", "--untracked-files=all", cwd=clone)
    assert status == "", f"the README's examples changed the repository:\n{status}"


def test_item_9_tournament_default_output_is_ignored(clone):
    """Every command's default output path is git-ignored; a committed study is never it."""
    from gwe_fast import load_scenario
    from gwe_fast.cli import default_outputs

    tracked = set(git("ls-files", cwd=clone).splitlines())
    for key in ("brusilov/historical", "kaisers_battle/historical"):
        sc = load_scenario(key)
        paths = default_outputs(sc, seed=0, sweep="sga_early",
                                results_file=Path("results/sga.parquet"))
        assert {"run", "per-turn", "partial", "tournament", "tournament games", "sweep",
                "report", "report of a file", "replay"} <= set(paths)
        for what, path in paths.items():
            name = str(path)
            assert name not in tracked, f"{what}: {name} is a committed file"
            assert ignored(clone, name), f"{what}: {name} is not git-ignored"


def test_item_14_readme_sweep_folder_is_ignored_and_agrees_with_the_sweep_file(clone):
    sweeps = [c for c in readme_commands() if c.startswith("gwe sweep ")]
    reports = [c for c in readme_commands() if c.startswith("gwe report ")]
    assert sweeps and reports
    args = shlex.split(sweeps[0])
    sweepfile = ROOT / args[2]
    suggested = re.findall(r"^# gwe sweep \S+ --out (\S+)", sweepfile.read_text(), re.MULTILINE)
    suggested_report = re.findall(r"^# gwe report (\S+)", sweepfile.read_text(), re.MULTILINE)
    folder = args[args.index("--out") + 1] if "--out" in args else None
    if folder is None:                       # the README relies on the default folder
        from gwe_fast.runner.sweep import default_folder, read_sweep

        folder = str(default_folder(read_sweep(sweepfile)))
    assert suggested == [folder], (folder, suggested)
    assert suggested_report == [folder]
    assert shlex.split(reports[0])[2] == folder
    for inside in ("sweep.json", "00-cell.parquet", "report/report.html"):
        assert ignored(clone, f"{folder}/{inside}"), f"{folder}/{inside} is not ignored"
