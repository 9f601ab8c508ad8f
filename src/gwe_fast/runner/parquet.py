"""Streaming Parquet output that survives interruptions, and reading it back to resume.

Rows are written in row groups by a ``ParquetWriter`` to ``<out>.partial``; the file is moved
to ``<out>`` only once it is complete, with the run's metadata as JSON under the ``gwe_fast``
key of the file's key-value metadata, and its rows sorted by ``game_index``.

A Parquet file is readable only once its footer is written, which a process killed outright
(``SIGKILL``, the out-of-memory killer, a batch scheduler's hard limit) never does. So every
row group is first appended to a journal, ``<out>.partial.journal``: an Arrow IPC stream, whose
complete batches stay readable however abruptly the writer stopped. ``read_rows`` gathers the
rows of a run from the complete file, the partial file and the journal, whichever exist.

Examples
--------
>>> import tempfile, pyarrow as pa
>>> schema = pa.schema([pa.field("game_index", pa.int32(), nullable=False)])
>>> out = Path(tempfile.mkdtemp()) / "x.parquet"
>>> sink = ParquetSink(out, schema)
>>> sink.write({"game_index": [2, 0]})
>>> sink.write({"game_index": [1]})
>>> sink.abort()                       # interrupted: the partial file and journal stay
>>> sorted(read_rows(out, schema).column("game_index").to_pylist())
[0, 1, 2]
>>> sink = ParquetSink(out, schema, prior=read_rows(out, schema))
>>> sink.write({"game_index": [3]})
>>> sink.close({"games": 4}).name
'x.parquet'
>>> pq.read_table(out).column("game_index").to_pylist(), read_metadata(out)
([0, 1, 2, 3], {'games': 4})
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

#: 2: per-game columns are the common ones plus the driver's RECORD_FIELDS; winner column.
#: 3: every column names a side ``allied`` or ``central`` (The Great War in the East's
#: ``vp_russian_*`` and ``vp_central_powers_*`` became ``vp_allied_*`` and ``vp_central_*``,
#: its per-turn ``towns_held_russian`` and ``towns_vp_russian`` ``towns_*_allied``)
FORMAT_VERSION = 3
KEY = "game_index"
ROW_GROUP = 65536          # rows per row group when a finished file is rewritten in order


def partial_path(out: Path) -> Path:
    return Path(out).with_name(Path(out).name + ".partial")


def journal_path(out: Path) -> Path:
    return Path(out).with_name(Path(out).name + ".partial.journal")


class ParquetSink:
    """Append row chunks to ``<out>.partial`` (and its journal); ``close`` moves the finished,
    sorted file to ``<out>``, ``abort`` leaves the partial file readable.

    ``prior`` rows (from an earlier, interrupted run) are written first; the journal holding
    them replaces the old one in a single rename, so no moment exists at which a kill would
    lose them.
    """

    def __init__(self, out: Path, schema: pa.Schema, prior: pa.Table | None = None):
        self.out = Path(out)
        self.partial = partial_path(self.out)
        self.journal = journal_path(self.out)
        self.schema = schema
        self.rows = 0
        self._last = -1
        self._sorted = True
        self._writer = None
        self._jfile = None
        self._jwriter = None
        self.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.journal.with_name(self.journal.name + ".new")
        self._jfile = open(tmp, "wb")
        try:
            self._jwriter = pa.ipc.new_stream(self._jfile, schema)
            if prior is not None and prior.num_rows:
                self._jwriter.write_table(prior.cast(schema))
            self._jfile.flush()
            os.replace(tmp, self.journal)
            self._writer = pq.ParquetWriter(self.partial, schema, compression="zstd")
        except BaseException:
            self.abort()
            raise
        if prior is not None and prior.num_rows:
            self._write_parquet(prior.cast(schema))

    def write(self, columns: dict[str, list] | pa.Table) -> None:
        """Append rows: to the journal first, then to the Parquet file."""
        table = columns if isinstance(columns, pa.Table) else pa.Table.from_pydict(
            columns, schema=self.schema)
        if table.num_rows == 0:
            return
        self._jwriter.write_table(table)
        self._jfile.flush()
        self._write_parquet(table)

    def _write_parquet(self, table: pa.Table) -> None:
        self._writer.write_table(table)
        self.rows += table.num_rows
        keys = table.column(KEY).to_numpy()
        if keys.size and (keys[0] < self._last or np.any(np.diff(keys) < 0)):
            self._sorted = False
        if keys.size:
            self._last = int(keys[-1])

    def close(self, metadata: dict) -> Path:
        """Finish the file with its metadata, in ``game_index`` order, and move it into
        place; the partial file and the journal are removed."""
        text = json.dumps(metadata, sort_keys=True)
        if self._sorted:
            self._writer.add_key_value_metadata({"gwe_fast": text})
            self._writer.close()
            self._close_journal()
            os.replace(self.partial, self.out)
        else:
            self._writer.close()
            self._close_journal()
            table = pq.read_table(self.partial, schema=self.schema)
            table = table.take(pc.sort_indices(table, [(KEY, "ascending")]))  # stable sort
            tmp = self.out.with_name(self.out.name + ".partial.sorted")
            writer = pq.ParquetWriter(tmp, self.schema, compression="zstd")
            try:
                writer.write_table(table, row_group_size=ROW_GROUP)
                writer.add_key_value_metadata({"gwe_fast": text})
            finally:
                writer.close()
            os.replace(tmp, self.out)
            self.partial.unlink(missing_ok=True)
        self.journal.unlink(missing_ok=True)
        return self.out

    def _close_journal(self) -> None:
        try:
            if self._jwriter is not None:
                self._jwriter.close()
        finally:
            if self._jfile is not None:
                self._jfile.close()

    def abort(self) -> None:
        """Close the writers and leave the partial file and journal for ``--resume``."""
        for close in (getattr(self._writer, "close", None), self._close_journal):
            try:
                if close is not None:
                    close()
            except Exception:  # noqa: BLE001 - already failing; keep the first error
                pass


class RowsError(ValueError):
    """Rows that cannot be read back as a run of the expected shape."""


def _read_journal(path: Path) -> pa.Table | None:
    """The complete batches of a journal (a journal cut short loses only its last batch)."""
    batches = []
    try:
        with pa.ipc.open_stream(pa.memory_map(str(path))) as reader:
            schema = reader.schema
            while True:
                try:
                    batches.append(reader.read_next_batch())
                except StopIteration:
                    break
    except (pa.ArrowInvalid, OSError, EOFError):
        if not batches:
            return None
        schema = batches[0].schema
    return pa.Table.from_batches(batches, schema=schema)


def _same_columns(table: pa.Table, schema: pa.Schema) -> bool:
    return [(f.name, f.type) for f in table.schema] == [(f.name, f.type) for f in schema]


def read_rows(out: Path, schema: pa.Schema, keys: set[int] | None = None) -> pa.Table | None:
    """Every row already written for ``out``: from ``out`` (complete), ``<out>.partial`` and
    its journal, whichever exist. A game's rows are taken from one source only (so a game in
    both the partial file and the journal appears once). ``keys``, when given, keeps only the
    rows of those game indices. ``None`` when there is nothing to read.

    Raises ``RowsError`` for a file that is not a run of this shape.
    """
    out = Path(out)
    sources = []
    for path in (out, partial_path(out)):
        if not path.exists():
            continue
        try:
            table = pq.read_table(path)
        except (pa.ArrowInvalid, OSError) as exc:
            if path == out:
                raise RowsError(f"{path} is not a readable Parquet file ({exc})") from None
            continue                    # no footer: killed outright; the journal has its rows
        sources.append((path, table))
    if journal_path(out).exists():
        table = _read_journal(journal_path(out))
        if table is not None:
            sources.append((journal_path(out), table))
    elif partial_path(out).exists() and not any(p == partial_path(out) for p, _ in sources):
        raise RowsError(f"{partial_path(out)} cannot be read and has no journal beside it; "
                        f"remove it to start the run again")
    if not sources:
        return None
    for path, table in sources:
        if not _same_columns(table, schema):
            raise RowsError(f"{path} does not hold the columns of this run (another game, or "
                            f"written by another version of gwe_fast)")
    tables = [t.select(schema.names).cast(schema).replace_schema_metadata(None)
              for _, t in sources]
    key = np.concatenate([t.column(KEY).to_numpy() for t in tables])
    src = np.concatenate([np.full(t.num_rows, n, dtype=np.int32) for n, t in enumerate(tables)])
    if key.size == 0:
        return tables[0]
    uniq, inv = np.unique(key, return_inverse=True)
    first = np.full(uniq.size, len(tables), dtype=np.int32)
    np.minimum.at(first, inv, src)             # for each game, the first source that has it
    keep = src == first[inv]
    if keys is not None:
        keep &= np.isin(key, np.fromiter(keys, dtype=np.int64, count=len(keys)))
    table = pa.concat_tables(tables).filter(pa.array(keep))
    return table.take(pc.sort_indices(table, [(KEY, "ascending")]))


def read_metadata(path: Path) -> dict:
    """The ``gwe_fast`` JSON metadata of a results file."""
    meta = pq.read_metadata(path).metadata or {}
    raw = meta.get(b"gwe_fast")
    if raw is None:
        raise ValueError(f"{path} has no gwe_fast metadata: it was not written by gwe run")
    return json.loads(raw)
