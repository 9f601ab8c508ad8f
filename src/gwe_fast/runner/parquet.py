"""Streaming Parquet output that survives interruptions, and reading it back to resume.

Rows are written in row groups by a ``ParquetWriter`` to ``<out>.partial``; the file is moved
to ``<out>`` only once it is complete, with the run's metadata as JSON under the ``gwe_fast``
key of the file's key-value metadata, and its rows sorted by ``game_index``.

A Parquet file is readable only once its footer is written, which a process killed outright
(``SIGKILL``, the out-of-memory killer, a batch scheduler's hard limit) never does. So every
row group is first appended to a journal, ``<out>.partial.journal``, whose complete records
stay readable however abruptly the writer stopped. ``read_rows`` gathers the rows of a run
from the complete file, the partial file and the journal, whichever exist.

Nothing read back is trusted unchecked. Every Parquet file is written with page checksums and
read with them verified (``read_table``). A journal is the magic ``JOURNAL_MAGIC``, then
records, each ``length (uint64 LE) | CRC-32 of length and payload (uint32 LE) | payload``: the
first payload is the Arrow schema, each further one an Arrow record batch (IPC). A record
whose length runs past the end of the file or whose checksum fails ends what is read: the
records before it are the journal's good prefix, and a resumed run plays the rest again.
Only checked bytes reach Arrow's IPC reader, which does not check everything itself (damaged
string offsets in a batch it accepts made later reads run off the end of a buffer: the
segmentation faults of issue 29).

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
import struct
import zlib
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
#: the first bytes of a journal (the last one is the version of its format)
JOURNAL_MAGIC = b"GWEJRNL1"
_HEAD = struct.Struct("<QI")  # a journal record's payload length and CRC-32
#: how every Parquet file of a run is written: compressed, each page with its CRC-32
WRITE_OPTIONS = {"compression": "zstd", "write_page_checksum": True}


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
        self.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.journal.with_name(self.journal.name + ".new")
        self._jfile = open(tmp, "wb")
        try:
            self._jfile.write(JOURNAL_MAGIC)
            _write_record(self._jfile, schema.serialize())
            if prior is not None and prior.num_rows:
                for part in _whole_games(prior.cast(schema)):
                    self._journal_table(part)
            self._jfile.flush()
            os.replace(tmp, self.journal)
            self._writer = pq.ParquetWriter(self.partial, schema, **WRITE_OPTIONS)
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
        self._journal_table(table)
        self._jfile.flush()
        self._write_parquet(table)

    def _journal_table(self, table: pa.Table) -> None:
        """One record for the whole table: a run writes a game's per-turn rows in one table,
        so a damaged journal loses whole games."""
        if table.num_rows:
            _write_record(self._jfile, table.combine_chunks().to_batches()[0].serialize())

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
            table = read_table(self.partial, schema=self.schema)
            table = table.take(pc.sort_indices(table, [(KEY, "ascending")]))  # stable sort
            tmp = self.out.with_name(self.out.name + ".partial.sorted")
            writer = pq.ParquetWriter(tmp, self.schema, **WRITE_OPTIONS)
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
    """Rows that cannot be read back as a run of the expected shape, or a damaged file; the
    message is one sentence naming the file."""


def _reason(exc: BaseException) -> str:
    """The first line of an error from pyarrow, for the end of a sentence."""
    lines = str(exc).strip().splitlines()
    return (lines[0].strip() if lines else type(exc).__name__).rstrip(".")


def read_table(path: Path, *, columns: list[str] | None = None,
               schema: pa.Schema | None = None) -> pa.Table:
    """A Parquet file read whole (or its ``columns``) with every page's checksum verified.

    Raises ``RowsError``, one sentence naming the file, for a file that is damaged, cut short
    or not Parquet at all (whatever pyarrow raised: a checksum, a zstd or a Thrift error).
    """
    path = Path(path)
    if not path.is_file():
        raise RowsError(f"{path} is not a file" if path.exists() else f"{path} does not exist")
    try:                # the file alone (pq.read_table would set up a whole dataset reader)
        with pq.ParquetFile(path, page_checksum_verification=True) as f:
            table = f.read(columns=columns)
        return table.cast(schema) if schema is not None else table
    except (pa.ArrowException, OSError, ValueError, MemoryError) as exc:
        raise RowsError(f"{path} is not a readable Parquet file (damaged, cut short or not "
                        f"Parquet: {_reason(exc)})") from None


def _write_record(f, payload: pa.Buffer) -> None:
    """Append one journal record: the payload's length and CRC-32, then the payload (a record
    cut short by a kill or a full disk fails its checksum, and ends what is read)."""
    data = memoryview(payload)
    n = len(data)
    f.write(_HEAD.pack(n, zlib.crc32(data, zlib.crc32(struct.pack("<Q", n)))))
    f.write(data)


def _whole_games(table: pa.Table, rows: int = ROW_GROUP) -> list[pa.Table]:
    """``table`` (sorted by game) in slices of about ``rows`` rows, never cutting a game."""
    keys = table.column(KEY).to_numpy()
    starts = np.flatnonzero(np.diff(keys)) + 1              # where a new game begins
    first = np.searchsorted(starts, np.arange(rows, keys.size, rows))  # the next start of each
    cuts = [0]
    for c in starts[first[first < starts.size]]:
        if c > cuts[-1]:
            cuts.append(int(c))
    cuts.append(keys.size)
    return [table.slice(a, b - a) for a, b in zip(cuts, cuts[1:]) if b > a]


def _scan(source: pa.MemoryMappedFile, size: int) -> list[tuple[int, int]]:
    """``[(offset, length)]`` of the payloads of the good prefix of a journal."""
    spans: list[tuple[int, int]] = []
    if size < len(JOURNAL_MAGIC) or source.read_at(len(JOURNAL_MAGIC), 0) != JOURNAL_MAGIC:
        return spans
    pos = len(JOURNAL_MAGIC)
    while size - pos >= _HEAD.size:
        n, crc = _HEAD.unpack(source.read_at(_HEAD.size, pos))
        start = pos + _HEAD.size
        if n > size - start:                 # runs past the end: cut short, or damaged
            break
        source.seek(start)
        if zlib.crc32(source.read_buffer(n), zlib.crc32(struct.pack("<Q", n))) != crc:
            break
        spans.append((start, n))
        pos = start + n
    return spans


def journal_records(path: Path) -> list[tuple[int, int]]:
    """Where the payloads of the good prefix of a journal lie, ``[(offset, length)]``: the
    schema first, then one record batch each. Empty for a file that is not a journal."""
    size = Path(path).stat().st_size
    if size == 0:
        return []
    with pa.memory_map(str(path)) as source:
        return _scan(source, size)


def _read_journal(path: Path, notes: list[str] | None = None) -> pa.Table | None:
    """The good prefix of a journal: every record up to the first that is cut short or fails
    its checksum. A journal damaged or cut short adds a sentence to ``notes``."""
    try:
        size = path.stat().st_size
        source = pa.memory_map(str(path)) if size else None
    except OSError:
        return None
    schema, batches, end = None, [], len(JOURNAL_MAGIC)
    if source is not None:
        with source:
            for k, (at, n) in enumerate(_scan(source, size)):
                source.seek(at)
                buf = source.read_buffer(n)
                try:
                    if k == 0:
                        schema = pa.ipc.read_schema(buf)
                    else:
                        batch = pa.ipc.read_record_batch(buf, schema)
                        batch.validate(full=True)
                        batches.append(batch)
                except (pa.ArrowException, ValueError, TypeError):
                    break                   # a checksum that holds over bytes not ours
                end = at + n
            # the batches keep the mapped region alive after the file is closed
            table = (pa.Table.from_batches(batches, schema=schema)
                     if schema is not None else None)
    else:
        table = None
    if notes is not None and end < size:
        rows = table.num_rows if table is not None else 0
        if schema is None and not _starts_with_magic(path):
            notes.append(f"{path} is not a journal this version of gwe_fast writes (an older "
                         f"format, or damaged at its start); its games are played again "
                         f"unless the partial file holds them")
        else:
            notes.append(f"{path} is damaged or cut short after its first {rows} rows; the "
                         f"games after them are played again")
    return table


def _starts_with_magic(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(JOURNAL_MAGIC)) == JOURNAL_MAGIC
    except OSError:
        return False


def _same_columns(table: pa.Table, schema: pa.Schema) -> bool:
    return [(f.name, f.type) for f in table.schema] == [(f.name, f.type) for f in schema]


def _finished_metadata(path: Path) -> dict | None:
    """The ``gwe_fast`` metadata of a finished results file, or None if it has none."""
    try:
        return read_metadata(path)
    except RowsError:
        return None


def check_games(keys: np.ndarray, path: Path, meta: dict | None = None) -> None:
    """Refuse (``RowsError``) a file whose ``game_index`` column holds a game twice or a
    negative index; and, for a finished run (``meta``, its metadata, counts its ``games``),
    rows other than the games it counts: 0 .. games-1 unless it played chosen ``indices``."""
    keys = np.asarray(keys)
    if keys.size == 0:
        return
    uniq, counts = np.unique(keys, return_counts=True)
    if counts.max() > 1:
        g, c = uniq[counts > 1][0], counts[counts > 1][0]
        raise RowsError(f"{path} holds game {g} {'twice' if c == 2 else f'{c} times'}: it is "
                        f"damaged (a run holds each game once)")
    if uniq[0] < 0:
        raise RowsError(f"{path} holds a game index {uniq[0]}: it is damaged")
    games = (meta or {}).get("games")
    if not isinstance(games, int) or isinstance(games, bool):
        return                              # not the metadata of a finished run: no count
    if games != keys.size:
        raise RowsError(f"{path} holds {keys.size} games but its metadata counts {games}: it "
                        f"is damaged")
    if "indices" not in meta and uniq[-1] != keys.size - 1:
        missing = int(np.setdiff1d(np.arange(keys.size), uniq)[0])
        raise RowsError(f"{path} lacks game {missing} of games 0 to {keys.size - 1}: it is "
                        f"damaged")


def read_rows(out: Path, schema: pa.Schema, keys: set[int] | None = None, *,
              notes: list[str] | None = None, one_per_game: bool = True) -> pa.Table | None:
    """Every row already written for ``out``: from ``out`` (complete), ``<out>.partial`` and
    its journal, whichever exist. A game's rows are taken from one source only (so a game in
    both the partial file and the journal appears once). ``keys``, when given, keeps only the
    rows of those game indices. ``None`` when there is nothing to read.

    A partial file that cannot be read (no footer: killed outright; or damaged) gives way to
    the journal, and a journal gives its good prefix; ``notes`` collects a sentence for a
    journal that was damaged or cut short. ``one_per_game`` (a per-game table) refuses a
    source holding a game twice, and a finished ``out`` lacking one (``check_games``).

    Raises ``RowsError`` for a file that is not a run of this shape, or is damaged.
    """
    out = Path(out)
    sources = []
    for path in (out, partial_path(out)):
        if not path.exists():
            continue
        try:
            table = read_table(path)
        except RowsError:
            if path == out:
                raise
            continue                    # no footer: killed outright; the journal has its rows
        sources.append((path, table))
    if journal_path(out).exists():
        table = _read_journal(journal_path(out), notes)
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
        if one_per_game:
            check_games(table.column(KEY).to_numpy(), path,
                        _finished_metadata(path) if path == out else None)
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
    """The ``gwe_fast`` JSON metadata of a results file. Raises ``RowsError`` (a
    ``ValueError``) for a file that is not one, or whose footer is damaged."""
    try:
        raw = (pq.read_metadata(path).metadata or {}).get(b"gwe_fast")
    except (pa.ArrowException, OSError, ValueError, MemoryError) as exc:
        raise RowsError(f"{path} is not a readable Parquet file (damaged, cut short or not "
                        f"Parquet: {_reason(exc)})") from None
    if raw is None:
        raise RowsError(f"{path} has no gwe_fast metadata: it was not written by gwe run")
    try:
        meta = json.loads(raw)
    except ValueError:
        meta = None
    if not isinstance(meta, dict):
        raise RowsError(f"{path} has unreadable gwe_fast metadata: it is damaged")
    return meta
