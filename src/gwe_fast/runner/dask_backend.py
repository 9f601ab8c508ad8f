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

import re
import socket
from collections.abc import Iterator, Sequence

CHUNK_GAMES = 100      #: games per task: enough to make the task overhead negligible
#: seconds to wait for the scheduler: a live one answers within a second or two
CONNECT_TIMEOUT = 10

_ADDRESS = re.compile(r"(?:(?P<scheme>tcp|tls|ws|wss|ucx)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})/?")


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


def check_address(address: str) -> tuple[str, int] | None:
    """Refuse (``BackendError``, one sentence) a scheduler address that is not
    ``[PROTOCOL://]HOST:PORT`` (protocol tcp, tls, ws, wss or ucx) or ``inproc://…``; return
    ``(host, port)`` of a TCP-based one.

    >>> check_address("tcp://10.0.0.5:8786")
    ('10.0.0.5', 8786)
    >>> check_address("nonsense")
    Traceback (most recent call last):
    ...
    gwe_fast.runner.dask_backend.BackendError: 'nonsense' is not the address of a dask scheduler: give PROTOCOL://HOST:PORT, for example tcp://10.0.0.5:8786
    """
    text = str(address).strip()
    if text.startswith("inproc://") and len(text) > len("inproc://"):
        return None
    m = _ADDRESS.fullmatch(text)
    if m is None or not 0 < int(m["port"]) < 65536:
        raise BackendError(f"{address!r} is not the address of a dask scheduler: give "
                           f"PROTOCOL://HOST:PORT, for example tcp://10.0.0.5:8786")
    return m["host"].strip("[]"), int(m["port"])


def dask_games(job, todo: Sequence[int], scheduler: str,
               chunk_games: int | None = None) -> Iterator[tuple]:
    """Connect to the cluster at ``scheduler`` (now, so that an unreachable one fails before
    anything is written) and return the events ``("game", i, row, turns, towns)``,
    ``("lost", [i], why)`` and ``("rss", mb)`` of the games ``todo`` of ``job``, chunk by
    chunk as they finish.

    The address is checked first, then whether anything answers there (a plain connection,
    at most ``CONNECT_TIMEOUT`` seconds), and only then is a dask client made: a client that
    fails to connect takes twice its timeout more to close when the program ends."""
    try:
        from distributed import Client
    except ImportError:
        raise BackendError('the dask backend needs dask.distributed: pip install '
                           '"gwe_fast[cluster]"') from None
    where = check_address(scheduler)
    if where is not None:
        try:
            socket.create_connection(where, timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            why = exc.strerror or str(exc) or type(exc).__name__
            raise BackendError(f"cannot reach the dask scheduler at {scheduler}: "
                               f"{why}") from None
    try:
        client = Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - whatever answered there is not a scheduler
        _drop_half_made_client(exc)
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise BackendError(f"cannot use the dask scheduler at {scheduler}: {why}") from None
    return _Events(client, _stream(client, job, chunks(list(todo), chunk_games or CHUNK_GAMES)))


def _drop_half_made_client(exc: BaseException) -> None:
    """Mark the client whose constructor raised ``exc`` closed, so that it does not spend
    twice its timeout trying to close when it is collected (and print a traceback then)."""
    from distributed import Client

    tb = exc.__traceback__
    while tb is not None:
        obj = tb.tb_frame.f_locals.get("self")
        if isinstance(obj, Client):
            try:
                obj.status = "closed"
                obj._loop_runner.stop()
            except Exception:  # noqa: BLE001 - a best effort; the error is reported anyway
                pass
            return
        tb = tb.tb_next


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
