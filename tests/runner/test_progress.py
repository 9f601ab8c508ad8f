"""The progress line of long work (gwe run, sweep, tournament): a steady beat in time, and
an ETA only once there is a rate to base it on. The README's timings are measured ones."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def play(progress, clock, total, start, per_game, workers=1):
    """Games finishing ``workers`` at a time, every ``per_game * workers`` seconds, after a
    start-up of ``start`` seconds (workers being spawned, tables built)."""
    done = 0
    while done < total:
        clock.now = start + (done // workers + 1) * per_game * workers
        for _ in range(min(workers, total - done)):
            done += 1
            progress(done, total, clock.now)


def seconds_of(line):
    m = re.search(r"ETA (?:(\d+) min )?([\d.]+) s", line)
    return None if m is None else int(m.group(1) or 0) * 60 + float(m.group(2))


def test_item_10_progress_shows_no_eta_before_a_rate_and_keeps_a_steady_beat():
    from gwe_fast.runner.progress import Progress

    clock, written = Clock(), []
    progress = Progress(write=lambda line: written.append((clock.now, line)), tty=False)
    # 1000 games on two workers, 6 s of start-up, then a game every 0.09 s (96 s in all)
    play(progress, clock, 1000, start=6.0, per_game=0.09, workers=2)
    times = [t for t, _ in written]
    lines = [line for _, line in written]
    assert lines and lines[-1].startswith("1000/1000 games")
    gaps = [b - a for a, b in zip(times, times[1:-1])]
    assert all(g >= 1.99 for g in gaps), gaps              # a steady beat: 2 s, then 10 s
    assert max(gaps) <= 10.5, gaps                          # ... and no long silence
    assert 8 <= len(lines) <= 60
    first_eta = next(i for i, ln in enumerate(lines) if "ETA" in ln)
    assert all("ETA" not in ln for ln in lines[:first_eta])
    done = int(lines[first_eta].split("/")[0])
    assert done >= 4 and times[first_eta] >= 8.0           # a rate from games and seconds
    left = 6.0 + 0.09 * 1000 - times[first_eta]
    assert abs(seconds_of(lines[first_eta]) - left) <= 0.15 * left   # and a sensible one


def test_item_10_a_short_run_prints_its_end_and_no_wild_eta():
    from gwe_fast.runner.progress import Progress

    clock, lines = Clock(), []
    progress = Progress(write=lines.append, tty=False)
    play(progress, clock, 3, start=1.0, per_game=0.2)
    assert lines[-1].startswith("3/3 games in ") and len(lines) <= 2
    assert not any("ETA" in ln for ln in lines)


def test_item_10_on_a_terminal_one_line_is_redrawn():
    from gwe_fast.runner.progress import Progress

    clock, out = Clock(), []
    progress = Progress(write=out.append, tty=True)
    play(progress, clock, 200, start=3.0, per_game=0.05)
    assert all(chunk.startswith("\r") for chunk in out)
    assert out[-1].endswith("\n") and not any(c.endswith("\n") for c in out[:-1])


def test_item_10_gwe_run_prints_no_eta_on_its_first_progress_line(tmp_path):
    done = subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", "run",
                           "kaisers_battle/historical", "--games", "3", "--workers", "1",
                           "--out", str(tmp_path / "k.parquet")],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    progress = [ln for ln in done.stderr.splitlines() if re.match(r"\d+/3 games", ln)]
    assert progress and "ETA" not in progress[0]


def test_item_10_readme_timings_are_measured_with_the_machine_named():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start")[1].split("**Status.**")[0]
    assert "under half a minute" not in quick and "1-3 minutes" not in quick
    assert "CPU-seconds" in quick and "AMD EPYC" in quick
    assert re.search(r"install[^.]*\d+ CPU-seconds", quick)
