"""The progress line of long work (``gwe run``, ``gwe sweep``, ``gwe tournament``).

A line says the games done, the time so far, the rate and the time left. It comes at a steady
beat in time, not every so many games: on a terminal one line is redrawn every half second; in
a log (stderr not a terminal) a new line comes every 2 s for the first minute, every 10 s up to
ten minutes, then every minute. The last game always gets its line.

The first games of a run come late (worker processes start, each builds the scenario's tables)
and then several at once, so a rate taken from them predicts nonsense. The rate is measured
from the first game finished, and the ETA is shown only once that covers at least
``MIN_GAMES`` games and ``MIN_SECONDS`` seconds.

Examples
--------
>>> lines = []
>>> p = Progress(write=lines.append, tty=False)
>>> for done, t in ((1, 5.0), (2, 5.1), (6, 7.5), (8, 8.0), (10, 9.0)):
...     p(done, 10, t)
>>> lines
['1/10 games, 5.0 s elapsed', '6/10 games, 7.5 s elapsed, 2.0 games/s, ETA 2.0 s', '10/10 games in 9.0 s (1.1 games/s)']
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

MIN_GAMES = 3          #: games finished after the first before there is a rate
MIN_SECONDS = 2.0      #: seconds after the first game before there is a rate
TTY_BEAT = 0.5         #: seconds between redraws on a terminal


def log_beat(elapsed: float) -> float:
    """Seconds between two lines in a log: 2 s for a minute, 10 s to ten minutes, then 60 s."""
    return 2.0 if elapsed < 60 else 10.0 if elapsed < 600 else 60.0


def format_seconds(s: float) -> str:
    """``8.2 s``, ``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    if not math.isfinite(s):
        return "?"
    if s < 10:
        return f"{s:.1f} s"
    s = int(round(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """``progress(done, total, seconds)`` as ``run_batch`` calls it, written as lines.

    ``write`` gets each line, without its newline; on a terminal (``tty``: default, whether
    stderr is one) it gets the text to write as it is: ``"\\r"``, the line, and a newline
    after the last game only. The default writes to stderr. ``prefix`` starts each line.
    ``seconds`` is the time since the work began. A call with fewer games or seconds than the
    one before starts a new piece of work (the next cell of a sweep).
    """

    def __init__(self, write: Callable[[str], None] | None = None, tty: bool | None = None,
                 prefix: str = ""):
        self.tty = sys.stderr.isatty() if tty is None else tty
        self.write = write or self._stderr
        self.prefix = prefix
        self._reset()

    def _reset(self) -> None:
        self._done = 0
        self._seconds = 0.0
        self._shown_at: float | None = None     # ``seconds`` of the last line
        self._first: tuple[int, float] | None = None
        self._width = 0                         # of the line on a terminal

    def _stderr(self, text: str) -> None:
        sys.stderr.write(text if self.tty else text + "\n")
        sys.stderr.flush()

    def rate(self, done: int, seconds: float) -> float | None:
        """Games per second since the first game finished, once that is a fair sample."""
        if self._first is None:
            return None
        d0, t0 = self._first
        if done - d0 < MIN_GAMES or seconds - t0 < MIN_SECONDS:
            return None
        return (done - d0) / (seconds - t0)

    def __call__(self, done: int, total: int, seconds: float) -> None:
        if done < self._done or seconds < self._seconds:
            self._reset()
        self._done, self._seconds = done, seconds
        if self._first is None and done > 0:
            self._first = (done, seconds)
        last = done >= total
        if not last and self._shown_at is not None:
            beat = TTY_BEAT if self.tty else log_beat(seconds)
            if seconds - self._shown_at < beat:
                return
        self._shown_at = seconds
        if last:
            rate = done / seconds if seconds > 0 else math.inf
            line = (f"{done}/{total} games in {format_seconds(seconds)} "
                    f"({rate:,.1f} games/s)")
        else:
            line = f"{done}/{total} games, {format_seconds(seconds)} elapsed"
            rate = self.rate(done, seconds)
            if rate:
                line += (f", {rate:,.1f} games/s, ETA "
                         f"{format_seconds((total - done) / rate)}")
        line = self.prefix + line
        if self.tty:                        # blank what a longer line before left
            width, self._width = self._width, len(line)
            self.write(f"\r{line.ljust(width)}" + ("\n" if last else ""))
        else:
            self.write(line)
