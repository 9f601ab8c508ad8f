"""Play the games of a run on a dask.distributed cluster.

The client (``gwe run --backend dask --scheduler ADDRESS``) cuts the games still to play into
chunks of ``CHUNK_GAMES`` (the last one, or a tiny run, may be smaller), submits one task per
chunk and writes each chunk's rows as soon as it comes back, exactly as a local run does: the
same partial file, journal, resumption and final file. A task plays its games with
``batch.play_chunk``; a worker loads the scenario once (bundled by name, a scenario file by
its absolute path, which must therefore be readable on the workers) and checks that its data
hash is the client's.

A chunk whose worker dies is retried by dask on another worker; when dask gives up
(``KilledWorker``), its games are reported as not played and the run goes on.

Needs ``pip install "gwe_fast[cluster]"`` on the client and on every worker.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

CHUNK_GAMES = 100      #: games per task: enough to make the task overhead negligible
CONNECT_TIMEOUT = "30s"


class BackendError(RuntimeError):
    """The cluster cannot be used (no dask, scheduler unreachable, a task failed)."""


def chunks(indices: Sequence[int], size: int) -> list[list[int]]:
    """``indices`` cut into consecutive chunks of ``size`` (the last may be smaller).

    >>> chunks(list(range(7)), 3)
    [[0, 1, 2], [3, 4, 5], [6]]
    """
    if size < 1:
        raise ValueError("a chunk holds at least one game")
    return [list(indices[a:a + size]) for a in range(0, len(indices), size)]


def dask_games(job, todo: Sequence[int], scheduler: str,
               chunk_games: int | None = None) -> Iterator[tuple]:
    """Connect to the cluster at ``scheduler`` (now, so that an unreachable one fails before
    anything is written) and return the events ``("game", i, row, turns)``, ``("lost", [i],
    why)`` and ``("rss", mb)`` of the games ``todo`` of ``job``, chunk by chunk as they
    finish."""
    try:
        from distributed import Client
    except ImportError:
        raise BackendError('the dask backend needs dask.distributed: pip install '
                           '"gwe_fast[cluster]"') from None
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BackendError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from None
    return _Events(client, _stream(client, job, chunks(list(todo), chunk_games or CHUNK_GAMES)))


class _Events:
    """The events of a run on the cluster; ``close`` releases the client even when the events
    were never read."""

    def __init__(self, client, events: Iterator[tuple]):
        self.client, self.events = client, events

    def __iter__(self) -> Iterator[tuple]:
        return self.events

    def close(self) -> None:
        try:
            self.events.close()
        finally:
            self.client.close()


def _stream(client, job, parts: list[list[int]]) -> Iterator[tuple]:
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    from gwe_fast.runner.batch import play_chunk

    futures = []
    try:
        futures = [client.submit(play_chunk, job, part, pure=False) for part in parts]
        held = {f.key: part for f, part in zip(futures, parts, strict=True)}
        for fut in as_completed(futures, loop=client.loop):
            try:
                played, rss = fut.result()
            except KilledWorker as exc:
                yield ("lost", held[fut.key], f"dask gave up on a task whose workers died "
                                              f"({exc})")
                continue
            except Exception as exc:  # noqa: BLE001 - e.g. a worker without the scenario file
                raise BackendError(f"a task on the dask cluster failed: "
                                   f"{type(exc).__name__}: {exc}") from None
            finally:
                fut.release()
            for game in played:
                yield ("game", *game)
            yield ("rss", rss)
    finally:
        if futures:
            try:
                client.cancel(futures)
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        client.close()
