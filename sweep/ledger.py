"""Without the store: filings from JSON files, outputs in a SQLite ledger.

:class:`DirectorySource` is a :class:`~sweep.run.FilingSource` over a
folder of filing JSON (``*.json``, one filing or a list each, and
``*.jsonl``, one filing per line), read in name order.
:class:`SqliteLedger` is an :class:`~sweep.run.OutputLog`: a table of
outputs keyed by (filing, key), written with ``INSERT`` in its own
committed transaction, and a table of each filing's derived state and
clocks.  A sweep of the store uses the store's own tables instead
(:class:`sweep.store_source.StoreSource`, :class:`services.sweep_log.StoreOutputLog`);
these serve ``--filings``, ``--ledger`` and the tests.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from sweep.run import BadRecord, parse_or_bad
from workflows.errors import PermitsError
from workflows.filing import Filing

__all__ = ["DirectorySource", "SqliteLedger", "StoreMissing", "write_jsonl"]


class StoreMissing(PermitsError):
    pass


class DirectorySource:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.exists():
            raise StoreMissing(f"no filings at {self.path}: run 'permits demo' or give --filings DIR")

    def _files(self) -> list[Path]:
        if self.path.is_file():
            return [self.path]
        return sorted(p for p in self.path.iterdir() if p.suffix in (".json", ".jsonl"))

    def count(self) -> int:
        """How many records (for a progress bar): lines of .jsonl files,
        files otherwise."""
        n = 0
        for f in self._files():
            if f.suffix == ".jsonl":
                with f.open("rb") as fh:
                    n += sum(1 for line in fh if line.strip())
            else:
                n += 1
        return n

    def open_filings(self) -> Iterator[Filing | BadRecord]:
        for f in self._files():
            if f.suffix == ".jsonl":
                with f.open(encoding="utf-8") as fh:
                    for n, line in enumerate(fh, start=1):
                        if line.strip():
                            yield self._parse(line, f"{f.name}:{n}")
            else:
                yield from self._json_file(f)

    def chunk_refs(self, size: int) -> list[tuple]:
        """The source cut into chunks of about ``size`` records, each named by
        a small value a flow task can take as its parameter (the file, a
        byte offset and a count; or a tuple of .json files).  One pass over
        the files, parsing nothing."""
        refs: list[tuple] = []
        loose: list[str] = []
        for f in self._files():
            if f.suffix != ".jsonl":
                loose.append(str(f))
                if len(loose) == size:
                    refs.append(("json", tuple(loose)))
                    loose = []
                continue
            offset, start, count = 0, 0, 0
            with f.open("rb") as fh:
                for line in fh:
                    if line.strip():
                        if count == 0:
                            start = offset
                        count += 1
                        if count == size:
                            refs.append(("jsonl", str(f), start, count))
                            count = 0
                    offset += len(line)
            if count:
                refs.append(("jsonl", str(f), start, count))
        if loose:
            refs.append(("json", tuple(loose)))
        return refs

    def load(self, ref: tuple) -> list[Filing | BadRecord]:
        """The records of one chunk named by :meth:`chunk_refs`."""
        if ref[0] == "json":
            out = []
            for name in ref[1]:
                out.extend(self._json_file(Path(name)))
            return out
        _, name, start, count = ref
        out = []
        with open(name, "rb") as fh:
            fh.seek(start)
            n = 0
            for line in fh:
                if not line.strip():
                    continue
                n += 1
                out.append(self._parse(line.decode("utf-8"), f"{Path(name).name}@{start}+{n}"))
                if n == count:
                    break
        return out

    def _json_file(self, f: Path) -> Iterator[Filing | BadRecord]:
        text = f.read_text(encoding="utf-8")
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            yield BadRecord(f.name, "?", "?", f"{f.name}: not JSON: {exc}")
            return
        for item in obj if isinstance(obj, list) else [obj]:
            yield parse_or_bad(item, f.name)

    @staticmethod
    def _parse(line: str, where: str) -> Filing | BadRecord:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            return BadRecord(where, "?", "?", f"{where}: not JSON: {exc}")
        return parse_or_bad(obj, where)


def write_jsonl(path: str | Path, filings) -> int:
    """Write filings (JSON objects) one per line; returns how many."""
    n = 0
    with Path(path).open("w", encoding="utf-8") as fh:
        for f in filings:
            fh.write(json.dumps(f, separators=(",", ":")))
            fh.write("\n")
            n += 1
    return n


_SCHEMA = """
CREATE TABLE IF NOT EXISTS outputs (
    filing_id TEXT NOT NULL,
    output_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (filing_id, output_key)
);
CREATE TABLE IF NOT EXISTS derived (
    filing_id TEXT PRIMARY KEY,
    town TEXT NOT NULL,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    clocks TEXT NOT NULL,
    as_of TEXT NOT NULL
);
"""


class SqliteLedger:
    """Thread-safe (one connection behind a lock): flow tasks run in threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def already_done(self, filing_id: str, output_key: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM outputs WHERE filing_id=? AND output_key=?", (filing_id, output_key)).fetchone()
        return row is not None

    def mark_done(self, filing_id: str, output_key: str, payload: Mapping[str, Any]) -> bool:
        """Record the output; False if another run had recorded it first."""
        body = json.dumps(payload, sort_keys=True, default=str)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute("INSERT OR IGNORE INTO outputs VALUES (?, ?, ?)", (filing_id, output_key, body))
                self._db.execute("COMMIT")
                return cur.rowcount == 1
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def save_derived(self, rows: Sequence[Mapping[str, Any]]) -> None:
        data = [
            (r["id"], r["town"], r["kind"], r["state"], json.dumps(r["clocks"], sort_keys=True, default=str), r["as_of"])
            for r in rows
        ]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT OR REPLACE INTO derived VALUES (?, ?, ?, ?, ?, ?)", data)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def outputs(self) -> list[tuple[str, str, dict]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT filing_id, output_key, payload FROM outputs ORDER BY filing_id, output_key"
            ).fetchall()
        return [(f, k, json.loads(p)) for f, k, p in rows]

    def derived(self) -> list[tuple]:
        with self._lock:
            return self._db.execute("SELECT * FROM derived ORDER BY filing_id").fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()
