"""Reading TOML files and finding the line of a key path, for located error messages."""

from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path

from gwe_fast.scenario.errors import Fault

_LINE_COL = re.compile(r"\(at line (\d+), column (\d+)\)")


#: the largest file read as TOML (the bundled files are below 50 kB; docs/scenarios.md)
MAX_BYTES = 4 * 1024 * 1024


def read_text(path: Path) -> str:
    """The text of the regular file ``path``, at most ``MAX_BYTES`` long.

    Raises ``OSError`` (``FileNotFoundError``, ``IsADirectoryError`` …) when it cannot be
    read, ``ValueError`` with a sentence when it is not a regular file (a device, a FIFO, a
    socket: opened without blocking, and never read) or too long, ``UnicodeDecodeError`` when
    it is not UTF-8.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("is not a regular file (a device, pipe or socket is never read)")
        if st.st_size > MAX_BYTES:
            raise ValueError(f"is {st.st_size / 2**20:.1f} MiB, more than the "
                             f"{MAX_BYTES // 2**20} MiB a scenario file may have")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:            # it grew while being read
            raise ValueError(f"is more than the {MAX_BYTES // 2**20} MiB a scenario file may "
                             f"have")
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8")


def read_toml(path: Path, shown: str) -> tuple[dict | None, str, list[Fault]]:
    """Parse ``path``; return ``(data, text, faults)``. ``shown`` is the name used in messages.

    Only a regular file of at most ``MAX_BYTES`` is read (``read_text``)."""
    try:
        text = read_text(path)
    except FileNotFoundError:
        return None, "", [Fault(shown, "", "file not found")]
    except IsADirectoryError:
        return None, "", [Fault(shown, "", "is a folder, not a TOML file")]
    except UnicodeDecodeError as exc:
        return None, "", [Fault(shown, "", f"is not UTF-8 text ({exc.reason} at byte {exc.start})")]
    except ValueError as exc:
        return None, "", [Fault(shown, "", str(exc))]
    except OSError as exc:
        return None, "", [Fault(shown, "", f"cannot be read ({exc.strerror})")]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _LINE_COL.search(msg)
        line = int(m.group(1)) if m else None
        msg = _LINE_COL.sub("", msg).strip().rstrip(".")
        return None, text, [Fault(shown, "", f"is not valid TOML: {msg}", line)]
    except RecursionError:
        return None, text, [Fault(shown, "", "is not valid TOML: its arrays or tables are "
                                             "nested too deeply")]
    return data, text, []


_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def split_key(key: str) -> list[str | int]:
    """``"unit[3].steps"`` -> ``["unit", 3, "steps"]``."""
    out: list[str | int] = []
    for name, index in _PART.findall(key):
        out.append(int(index) if index else name)
    return out


def find_line(text: str, key: str, value: object = None) -> int | None:
    """Best-effort 1-based line of ``key`` (a path from ``split_key``) in TOML ``text``.

    Tables (``[a]``, ``[a.b]``) and arrays of tables (``[[a]]``, n-th occurrence) are found by
    their headers, keys by ``name =``; for a list element the quoted ``value`` is searched
    after its key. Returns None when nothing matches.
    """
    lines = text.splitlines()
    parts = split_key(key)
    pos = 0          # line index where the search continues
    found = None
    header = ""
    i = 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if isinstance(part, str) and isinstance(nxt, int):
            # array of tables [[part]] (n-th) or an inline list key
            name = f"{header}.{part}" if header else part
            hdr = re.compile(r"^\s*\[\[\s*" + re.escape(name) + r"\s*\]\]")
            hits = [j for j, ln in enumerate(lines) if hdr.match(ln)]
            if hits:
                if nxt < len(hits):
                    pos = found = hits[nxt]
                header = name
                i += 2
                continue
            k = _find_key(lines, part, pos)
            if k is None:
                return found + 1 if found is not None else None
            pos = found = k
            if value is not None:
                needle = f'"{value}"'
                for j in range(k, min(len(lines), k + 400)):
                    if needle in lines[j]:
                        return j + 1
            return found + 1
        if isinstance(part, str):
            name = f"{header}.{part}" if header else part
            hdr = re.compile(r"^\s*\[\s*" + re.escape(name) + r"\s*\]")
            hits = [j for j, ln in enumerate(lines) if hdr.match(ln)]
            if hits:
                pos = found = hits[0]
                header = name
                i += 1
                continue
            k = _find_key(lines, part, pos)
            if k is not None:
                pos = found = k
        i += 1
    return found + 1 if found is not None else None


def _find_key(lines: list[str], name: str, start: int) -> int | None:
    pat = re.compile(r"^\s*(\"?)" + re.escape(name) + r"\1\s*=")
    for j in range(start, len(lines)):
        if j > start and lines[j].lstrip().startswith("[["):
            break
        if pat.match(lines[j]):
            return j
    return None
