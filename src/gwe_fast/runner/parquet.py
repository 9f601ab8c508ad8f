"""Streaming Parquet output: explicit non-null schema, temporary name, atomic rename.

Rows are written in chunks by a ``ParquetWriter`` to ``<out>.partial``; the file is renamed
to ``<out>`` only once it is complete, with the run's metadata as JSON under the
``gwe_fast`` key of the file's key-value metadata.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

FORMAT_VERSION = 1


class ParquetSink:
    """Append row chunks to a Parquet file that appears under its name only when complete."""

    def __init__(self, out: Path, schema: pa.Schema):
        self.out = Path(out)
        self.partial = self.out.with_name(self.out.name + ".partial")
        self.schema = schema
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self._writer = pq.ParquetWriter(self.partial, schema, compression="zstd")
        self.rows = 0

    def write(self, columns: dict[str, list]) -> None:
        table = pa.Table.from_pydict(columns, schema=self.schema)
        self._writer.write_table(table)
        self.rows += table.num_rows

    def close(self, metadata: dict) -> Path:
        """Finish the file, attach the metadata and move it into place."""
        self._writer.add_key_value_metadata({"gwe_fast": json.dumps(metadata, sort_keys=True)})
        self._writer.close()
        os.replace(self.partial, self.out)
        return self.out

    def abort(self) -> None:
        """Close the writer and leave the partial file for inspection or resumption."""
        try:
            self._writer.close()
        except Exception:  # noqa: BLE001 - already failing; keep the first error
            pass


def read_metadata(path: Path) -> dict:
    """The ``gwe_fast`` JSON metadata of a results file."""
    meta = pq.read_metadata(path).metadata or {}
    raw = meta.get(b"gwe_fast")
    if raw is None:
        raise ValueError(f"{path} has no gwe_fast metadata: it was not written by gwe run")
    return json.loads(raw)
